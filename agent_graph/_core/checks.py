"""The semantic checks of Graphs, in the reference toolchain's order (behaviour.md §7).

Pure functions of parsed definitions: node IDs unique, a terminal present,
entries and edges naming nodes that exist, no edge out of a terminal, no
duplicate edge, repeat edges into Actions or Gates, ``gatedBy`` edges out of
Gates, and no flow cycle (a loop must use a repeat edge). The loader calls them
in that order after a Graph file has passed its schema; the first failure is
the answer. Iterative and linear: nothing recurses on the size of a Graph.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .errors import AgentGraphError, Diagnostic, ErrorCode, listing
from .model import Graph
from .suggest import close_names

__all__ = ["at_pointer", "closest_names", "find_cycle", "validate_graph_semantics"]


def at_pointer(code: ErrorCode, message: str, pointer: str) -> AgentGraphError:
    """``AgentGraphError(code, message)`` that says where: one diagnostic whose ``detail.pointer`` is ``pointer``.

    ``pointer`` is a JSON Pointer into the document being checked; the loader,
    which knows the document's file and text, turns it into ``file:line:column``.
    """
    return AgentGraphError(code, message, (Diagnostic(code, "error", message, detail={"pointer": pointer}),))


def closest_names(word: str, names: Iterable[str], what: str, limit: int = 3) -> str:
    """`` (did you mean a or b?)`` naming the names of ``names`` closest to ``word``.

    With none close, `` (<what>: a, b, c)`` lists the names there are (at most
    twelve, then a count), or `` (no <what>)`` when there are none.
    """
    choices = list(dict.fromkeys(n for n in names if isinstance(n, str)))
    if not choices:
        return f" (no {what})"
    close = close_names(word, choices, limit, 0.6) if isinstance(word, str) else []
    close = [c for c in close if c != word]
    if close:
        names_text = close[0] if len(close) == 1 else ", ".join(close[:-1]) + f" or {close[-1]}"
        return f" (did you mean {names_text}?)"
    return f" ({what}: {listing(sorted(choices))})"


def validate_graph_semantics(graph: Graph) -> None:
    """The semantic checks of one Graph, in the reference order (iterative, linear).

    Each failure carries the JSON Pointer of the offending value (see :func:`at_pointer`);
    a name that does not resolve is answered with the closest names that do.
    """
    gid = graph.id
    kinds: dict[str, str] = {}
    for index, node in enumerate(graph.nodes):
        if node.id in kinds:
            raise at_pointer(
                "graph-node-duplicate",
                f"Graph {gid} contains duplicate node id: {node.id}",
                f"/nodes/{index}/id",
            )
        kinds[node.id] = node.kind
    if not any(node.kind == "terminal" for node in graph.nodes):
        raise at_pointer(
            "graph-terminal-missing", f"Graph {gid} must declare at least one terminal node", "/nodes"
        )
    for entry, target in graph.entrypoints.items():
        if target not in kinds:
            raise at_pointer(
                "graph-entry-missing",
                f"Graph {gid} entry {entry} targets missing node {target}"
                + closest_names(target, kinds, "nodes"),
                f"/entrypoints/{_escape(entry)}",
            )
    seen: set[tuple[str, str, str, tuple[str, ...]]] = set()
    for index, edge in enumerate(graph.edges):
        for end, name in (("from", edge.from_), ("to", edge.to)):
            if name not in kinds:
                raise at_pointer(
                    "graph-edge-node-missing",
                    f"Graph {gid} edge {edge.from_} -> {edge.to} references a missing node {name}"
                    + closest_names(name, kinds, "nodes"),
                    f"/edges/{index}/{end}",
                )
        if kinds[edge.from_] == "terminal":
            raise at_pointer(
                "graph-terminal-edge-invalid",
                f"Graph {gid} terminal node cannot have outgoing edges: {edge.from_} -> {edge.to}",
                f"/edges/{index}/from",
            )
        key = (edge.kind or "flow", edge.from_, edge.to, edge.outcomes or ("completed",))
        if key in seen:
            raise at_pointer(
                "graph-edge-duplicate",
                f"Graph {gid} contains duplicate edge {edge.from_} -> {edge.to}",
                f"/edges/{index}",
            )
        seen.add(key)
        if edge.kind == "repeat" and kinds[edge.to] not in ("action", "gate"):
            raise at_pointer(
                "graph-repeat-target-invalid",
                f"Graph {gid} repeat edge must target an action or gate: {edge.from_} -> {edge.to}",
                f"/edges/{index}/to",
            )
        if edge.kind == "gatedBy" and kinds[edge.from_] != "gate":
            raise at_pointer(
                "graph-gated-by-source-invalid",
                f"Graph {gid} gatedBy edge must start at a gate: {edge.from_} -> {edge.to}",
                f"/edges/{index}/from",
            )
    adjacency: dict[str, list[str]] = {}
    edge_index: dict[tuple[str, str], int] = {}
    for index, edge in enumerate(graph.edges):
        if edge.kind != "repeat":
            adjacency.setdefault(edge.from_, []).append(edge.to)
            edge_index.setdefault((edge.from_, edge.to), index)
    cycle = find_cycle(list(kinds), adjacency)
    if cycle is not None:
        closing = edge_index.get((cycle[-2], cycle[-1]), 0)
        raise at_pointer(
            "graph-flow-cycle",
            f"Graph {gid} contains an implicit flow cycle; use a repeat edge: {' -> '.join(cycle)}",
            f"/edges/{closing}",
        )


def _escape(token: str) -> str:
    """``token`` as one JSON Pointer reference token."""
    return token.replace("~", "~0").replace("/", "~1")


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
