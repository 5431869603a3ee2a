"""The semantic checks of Graphs, in the reference toolchain's order (behaviour.md §7).

Pure functions of parsed definitions: node IDs unique, a terminal present,
entries and edges naming nodes that exist, no edge out of a terminal, no
duplicate edge, repeat edges into Actions or Gates, ``gatedBy`` edges out of
Gates, and no flow cycle (a loop must use a repeat edge). The loader calls them
in that order after a Graph file has passed its schema; the first failure is
the answer. Iterative and linear: nothing recurses on the size of a Graph.
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import AgentGraphError
from .model import Graph

__all__ = ["find_cycle", "validate_graph_semantics"]


def validate_graph_semantics(graph: Graph) -> None:
    """The semantic checks of one Graph, in the reference order (iterative, linear)."""
    gid = graph.id
    kinds: dict[str, str] = {}
    for node in graph.nodes:
        if node.id in kinds:
            raise AgentGraphError(
                "graph-node-duplicate", f"Graph {gid} contains duplicate node id: {node.id}"
            )
        kinds[node.id] = node.kind
    if not any(node.kind == "terminal" for node in graph.nodes):
        raise AgentGraphError(
            "graph-terminal-missing", f"Graph {gid} must declare at least one terminal node"
        )
    for entry, target in graph.entrypoints.items():
        if target not in kinds:
            raise AgentGraphError(
                "graph-entry-missing", f"Graph {gid} entry {entry} targets missing node {target}"
            )
    seen: set[tuple[str, str, str, tuple[str, ...]]] = set()
    for edge in graph.edges:
        if edge.from_ not in kinds or edge.to not in kinds:
            raise AgentGraphError(
                "graph-edge-node-missing",
                f"Graph {gid} edge {edge.from_} -> {edge.to} references a missing node",
            )
        if kinds[edge.from_] == "terminal":
            raise AgentGraphError(
                "graph-terminal-edge-invalid",
                f"Graph {gid} terminal node cannot have outgoing edges: {edge.from_} -> {edge.to}",
            )
        key = (edge.kind or "flow", edge.from_, edge.to, edge.outcomes or ("completed",))
        if key in seen:
            raise AgentGraphError(
                "graph-edge-duplicate", f"Graph {gid} contains duplicate edge {edge.from_} -> {edge.to}"
            )
        seen.add(key)
        if edge.kind == "repeat" and kinds[edge.to] not in ("action", "gate"):
            raise AgentGraphError(
                "graph-repeat-target-invalid",
                f"Graph {gid} repeat edge must target an action or gate: {edge.from_} -> {edge.to}",
            )
        if edge.kind == "gatedBy" and kinds[edge.from_] != "gate":
            raise AgentGraphError(
                "graph-gated-by-source-invalid",
                f"Graph {gid} gatedBy edge must start at a gate: {edge.from_} -> {edge.to}",
            )
    adjacency: dict[str, list[str]] = {}
    for edge in graph.edges:
        if edge.kind != "repeat":
            adjacency.setdefault(edge.from_, []).append(edge.to)
    cycle = find_cycle(list(kinds), adjacency)
    if cycle is not None:
        raise AgentGraphError(
            "graph-flow-cycle",
            f"Graph {gid} contains an implicit flow cycle; use a repeat edge: {' -> '.join(cycle)}",
        )


def find_cycle(order: list[str], adjacency: Mapping[str, list[str]]) -> list[str] | None:
    """The first cycle a depth-first search finds, as ``[a, b, …, a]``, or None. Iterative."""
    visited: set[str] = set()
    visiting: dict[str, int] = {}
    for start in order:
        if start in visited:
            continue
        path: list[str] = [start]
        visiting[start] = 0
        iterators = [iter(adjacency.get(start, ()))]
        while iterators:
            advanced = False
            for target in iterators[-1]:
                if target in visiting:
                    return [*path[visiting[target] :], target]
                if target in visited:
                    continue
                visiting[target] = len(path)
                path.append(target)
                iterators.append(iter(adjacency.get(target, ())))
                advanced = True
                break
            if not advanced:
                done = path.pop()
                del visiting[done]
                visited.add(done)
                iterators.pop()
    return None
