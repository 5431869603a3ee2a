"""The compiled, immutable graph IR that evaluation and routing run on.

A :class:`CompiledGraph` is built once when a Provider loads: node index maps,
per-node incoming counts and outgoing edge lists, repeat edges in file order,
and fact checks split into path segments. Evaluation never scans all edges per
node. This module knows the shape of a Graph but nothing of files or I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from .model import FactCheck, Graph, Node

_DEFAULT_OUTCOMES = frozenset({"completed"})

#: Check modes of a compiled fact test.
EXISTS, ABSENT, EQUALS = 0, 1, 2


def requires_message(graph_id: str, node_id: str) -> str:
    """The message of ``required-fact-missing`` (behaviour.md §5 step 2a)."""
    return f"Node {graph_id}/{node_id} requires facts that are not satisfied"


def missing_subgraph_message(child_graph: str | None) -> str:
    """The message of ``subgraph-missing``."""
    return f"Missing subgraph {child_graph}"


class FactTest:
    """One compiled fact check: path segments, a mode and the value for ``equals``."""

    __slots__ = ("mode", "segments", "value")

    def __init__(self, check: FactCheck) -> None:
        self.segments: tuple[str, ...] = tuple(check.path.split("."))
        if check.exists is not msgspec.UNSET:
            self.mode = EXISTS if check.exists else ABSENT
            self.value: Any = None
        else:
            self.mode = EQUALS
            self.value = check.equals


class CompiledNode:
    """A node with everything evaluation needs precomputed."""

    __slots__ = (
        "child_entry",
        "child_graph",
        "definition",
        "delegated_to",
        "flow_out",
        "has_repeats",
        "id",
        "in_count",
        "index",
        "is_action",
        "is_gate",
        "is_subgraph",
        "is_terminal",
        "join_any",
        "kind",
        "label",
        "priority",
        "reason_code",
        "repeat_in",
        "repeat_out",
        "requires",
        "satisfied",
        "satisfied_one",
        "terminal_outcome",
    )

    def __init__(self, index: int, node: Node) -> None:
        self.index = index
        self.definition = node
        self.id = node.id
        self.kind = node.kind
        self.is_action = node.kind == "action"
        self.is_gate = node.kind == "gate"
        self.is_subgraph = node.kind == "subgraph"
        self.is_terminal = node.kind == "terminal"
        self.label = node.description if node.description is not None else node.id
        self.reason_code = node.reason_code or ""
        self.priority = node.priority if node.priority is not None else 0
        self.join_any = node.join == "any"
        self.requires: tuple[FactTest, ...] | None = (
            tuple(FactTest(c) for c in node.requires_facts) if node.requires_facts is not None else None
        )
        self.satisfied: tuple[FactTest, ...] | None = (
            tuple(FactTest(c) for c in node.satisfied_by) if node.satisfied_by is not None else None
        )
        # The common single check, unpacked for the evaluator's inlined test: segments, mode, the
        # value for ``equals`` and its type when that is ``str`` or ``bool`` (compared without conversion).
        self.satisfied_one: tuple[tuple[str, ...], int, Any, type | None] | None = None
        if self.satisfied is not None and len(self.satisfied) == 1:
            only = self.satisfied[0]
            kind = type(only.value)
            plain = kind if only.mode == EQUALS and (kind is str or kind is bool) else None
            self.satisfied_one = (only.segments, only.mode, only.value, plain)
        self.terminal_outcome = node.terminal_outcome
        # A Gate that a session authority resolves: delegatable, naming its authority (behaviour.md §5 step 3).
        gate = node.gate
        self.delegated_to: str | None = (
            gate.authority
            if gate is not None and gate.delegatable is True and gate.authority is not None
            else None
        )
        self.child_graph = node.graph
        self.child_entry = node.entry
        # Filled by CompiledGraph.
        self.flow_out: tuple[tuple[int, frozenset[str]], ...] = ()
        self.in_count = 0
        self.repeat_out: tuple[int, ...] = ()
        self.repeat_in: tuple[int, ...] = ()
        self.has_repeats = False


class CompiledGraph:
    """An immutable, indexed Graph.

    ``path`` is the absolute path of the graph file (diagnostics point to it);
    ``digest`` the digest of the graph's same-Provider dependency closure,
    given or made by ``digest_of`` the first time it is read (a Graph's closure
    holds every Graph below it: made for every Graph at load, a chain of
    Subgraphs would cost the square of its length).
    """

    __slots__ = (
        "_digest",
        "_digest_of",
        "definition",
        "entrypoints",
        "id",
        "index",
        "join_need",
        "nodes",
        "path",
        "repeat_edges",
        "terminals",
    )

    def __init__(
        self, definition: Graph, path: str, digest: str = "", digest_of: Callable[[], str] | None = None
    ) -> None:
        self.definition = definition
        self.id = definition.id
        self.path = path
        self._digest = digest
        self._digest_of = digest_of
        nodes = [CompiledNode(i, n) for i, n in enumerate(definition.nodes)]
        index: dict[str, int] = {}
        for n in nodes:
            index.setdefault(n.id, n.index)
        repeat_edges: list[tuple[int, int, frozenset[str]]] = []
        flow_out: list[list[tuple[int, frozenset[str]]]] = [[] for _ in nodes]
        repeat_out: list[list[int]] = [[] for _ in nodes]
        repeat_in: list[list[int]] = [[] for _ in nodes]
        for edge in definition.edges:
            source = index[edge.from_]
            target = index[edge.to]
            outcomes = frozenset(edge.outcomes) if edge.outcomes is not None else _DEFAULT_OUTCOMES
            if edge.kind == "repeat":
                repeat_out[source].append(len(repeat_edges))
                repeat_in[target].append(len(repeat_edges))
                repeat_edges.append((source, target, outcomes))
            else:
                flow_out[source].append((target, outcomes))
                nodes[target].in_count += 1
        # Tuples, not lists: the IR never changes (and tuples of numbers leave the garbage collector's lists).
        for node in nodes:
            if flow_out[node.index]:
                node.flow_out = tuple(flow_out[node.index])
            if repeat_out[node.index] or repeat_in[node.index]:
                node.repeat_out = tuple(repeat_out[node.index])
                node.repeat_in = tuple(repeat_in[node.index])
                node.has_repeats = True
        self.nodes: tuple[CompiledNode, ...] = tuple(nodes)
        #: Per node, how many incoming flow edges must match before a pass reaches it: one for
        #: ``join: any``, all of them for ``join: all`` (a node without incoming flow edges is never reached so).
        self.join_need: tuple[int, ...] = tuple(1 if node.join_any else node.in_count for node in nodes)
        #: The indices of the terminal nodes.
        self.terminals: tuple[int, ...] = tuple(node.index for node in nodes if node.is_terminal)
        self.index: Mapping[str, int] = index
        self.entrypoints: Mapping[str, str] = dict(definition.entrypoints)
        self.repeat_edges: Sequence[tuple[int, int, frozenset[str]]] = tuple(repeat_edges)

    @property
    def digest(self) -> str:
        """The digest of the graph's dependency closure (made once, on first read; threads may race to
        make it, and all make the same text)."""
        make = self._digest_of
        if make is not None:
            self._digest = make()
            self._digest_of = None
        return self._digest
