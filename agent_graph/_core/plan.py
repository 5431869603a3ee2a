"""Frame plans: one frame's evaluation written out as Python for one graph and entry.

The evaluator's worklist (``_evaluate``) settles any graph. For the common
shape, a graph whose only repeat edges lead from a node back to itself (a
polling step), nothing changes after a node settles but that node's own
re-arming in the same pass, so the passes of behaviour.md §5 reduce to one
sweep in topological order: a node is reached in the pass after its join is
met (the earliest matching predecessor for ``join: any``, the latest for
``join: all``), and the reached order is (pass, node index). This module
writes that sweep as the source of one function per (graph, entry), with
every check, state key index and edge inlined, and compiles it. User data (IDs, paths, expected
values, messages) never enters the source text: it is bound as closure
constants.

A plan is a whole frame. It opens its Subgraph nodes' frames as the worklist
does and yields to the driver only a child that does not answer at once; with
no Subgraph node it is a plain function. It collects what the worklist
collects and hands it to the evaluator's ``finish_frame``. It keeps no
reached order, only the pass of each node to order diagnostics; diagram
overlays, which list the reached order, take the worklist. It knows the IR and Python; the rules' helpers (fact lookup,
equality, diagnostics, frames) come from the evaluator. No I/O.
"""

from __future__ import annotations

import heapq
import operator
from collections.abc import Callable, Mapping
from typing import Any

from .ir import (
    ABSENT,
    EQUALS,
    EXISTS,
    CompiledGraph,
    CompiledNode,
    missing_subgraph_message,
    requires_message,
)

#: Frames that reach more nodes than this keep to the worklist: a plan's source grows with the graph,
#: and CPython compiles it at about 120 µs a node.
PLAN_MAX_NODES = 256


def reachable_in_order(graph: CompiledGraph, entry: int) -> list[int] | None:
    """Nodes reachable from ``entry`` over flow edges, in a topological order (smallest index first).

    None when they form a cycle or are too many for a plan.
    """
    nodes = graph.nodes
    seen = {entry}
    stack = [entry]
    while stack:
        for target in nodes[stack.pop()].flow_targets:
            if target not in seen:
                if len(seen) >= PLAN_MAX_NODES:
                    return None
                seen.add(target)
                stack.append(target)
    waiting = dict.fromkeys(seen, 0)
    for index in seen:
        for target, _ in nodes[index].flow_out:
            if target != entry:
                waiting[target] += 1
    ready = [entry]
    order: list[int] = []
    while ready:
        index = heapq.heappop(ready)
        order.append(index)
        for target, _ in nodes[index].flow_out:
            if target == entry:
                continue
            waiting[target] -= 1
            if waiting[target] == 0:
                heapq.heappush(ready, target)
    return order if len(order) == len(seen) else None


class _Writer:
    """Source lines and the constants they refer to (``k0``, ``k1``, …, bound in a closure)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.constants: list[Any] = []
        self._named: dict[int, str] = {}
        #: The facts' top-level values the checks start from, read once per frame:
        #: segment → (local name, constant name).
        self.tops: dict[str, tuple[str, str]] = {}
        #: Whether a Subgraph node was written (the plan is then a generator that may yield child frames).
        self.yields = False

    def matches(self, outcome: str, accepted: frozenset[str]) -> str:
        """The test that ``outcome`` (a local) is one of ``accepted``: ``==`` for a single outcome."""
        if len(accepted) == 1:
            return f"{outcome} == {self.const(next(iter(accepted)))}"
        return f"{outcome} in {self.const(accepted)}"

    def top(self, segment: str) -> str:
        known = self.tops.get(segment)
        if known is None:
            known = self.tops[segment] = (f"t{len(self.tops)}", self.const(segment))
        return known[0]

    def const(self, value: Any) -> str:
        key = id(value)
        name = self._named.get(key)
        if name is None:
            name = f"k{len(self.constants)}"
            self.constants.append(value)
            self._named[key] = name
        return name

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)


def _write_check(w: _Writer, depth: int, node: CompiledNode) -> str:
    """Lines that leave the truth of ``node``'s ``satisfiedBy`` in ``met``; returns the condition to test."""
    satisfied = node.satisfied
    assert satisfied is not None
    if len(satisfied) != 1:
        w.emit(depth, f"met = facts_match(facts, {w.const(satisfied)})")
        return "met"
    test = satisfied[0]
    chain = w.top(test.segments[0])
    for segment in test.segments[1:]:
        chain += f".get({w.const(segment)}, MISSING)"
    if len(test.segments) == 1:
        w.emit(depth, f"v = {chain}")
    else:  # a list or a scalar in the way has no .get: the general lookup decides
        w.emit(depth, "try:")
        w.emit(depth + 1, f"v = {chain}")
        w.emit(depth, "except AttributeError:")
        w.emit(depth + 1, f"v = lookup_fact(facts, {w.const(test.segments)})")
    if test.mode == EXISTS:
        return "v is not MISSING"
    if test.mode == ABSENT:
        return "v is MISSING"
    assert test.mode == EQUALS
    expected = w.const(test.value)
    kind = type(test.value)
    if kind is str or kind is bool:
        shortcut = "str" if kind is str else "bool"
        return f"(v == {expected} if type(v) is {shortcut} else v is not MISSING and scalar_equals(v, {expected}))"
    return f"v is not MISSING and scalar_equals(v, {expected})"


def _write_failure(w: _Writer, depth: int, i: int, outcome: str, code: str, message: str, with_path: bool) -> None:
    """Lines that settle node ``i`` as ``outcome`` with an error diagnostic, kept in reached order."""
    path = ", path=graph_path" if with_path else ""
    w.emit(depth, f'o{i} = "{outcome}"')
    w.emit(
        depth,
        f'settle_diagnostics.append((l{i} * stride + {i}, Diagnostic(code="{code}", severity="error", '
        f"message={w.const(message)}{path})))",
    )


def _write_settle(w: _Writer, depth: int, graph: CompiledGraph, node: CompiledNode, offers: bool) -> None:
    """Lines that set ``o<i>`` for a reached node (behaviour.md §5 step 2a).

    With ``offers``, an Action's or Gate's settled outcome is also checked for
    §5 step 3 (a re-armed node is checked after re-arming instead).
    """
    i = node.index
    out = f"o{i}"
    if node.requires is not None:
        w.emit(depth, f"if not facts_match(facts, {w.const(node.requires)}):")
        _write_failure(w, depth + 1, i, "blocked", "required-fact-missing", requires_message(graph.id, node.id), True)
        w.emit(depth, "else:")
        depth += 1
    if node.is_subgraph:
        w.emit(depth, f"child = graphs.get({w.const(node.child_graph or '')})")
        w.emit(depth, "if child is None:")
        _write_failure(w, depth + 1, i, "failed", "subgraph-missing", missing_subgraph_message(node.child_graph), False)
        w.emit(depth, "else:")
        w.yields = True
        item = w.const((f"{graph.id}/{node.id}",))
        w.emit(depth + 1, f"result = open_frame(ctx, child, {w.const(node.child_entry or '')}, call_path + {item}, inner_stack)")
        w.emit(depth + 1, "if type(result) is not Frame:  # a child with Subgraphs of its own runs on the driver's stack")
        w.emit(depth + 2, "result = yield result")
        w.emit(depth + 1, "status = result.status")
        w.emit(depth + 1, 'if status != "complete":')
        w.emit(depth + 2, f"unfinished.append((l{i} * stride + {i}, result))")
        w.emit(depth + 1, 'if status == "complete" and result.outcome:')
        w.emit(depth + 2, f"{out} = result.outcome")
        w.emit(depth + 1, 'elif status == "error":')
        w.emit(depth + 2, f'{out} = "failed"')
        w.emit(depth + 1, 'elif status == "waiting-user":')
        w.emit(depth + 2, f'{out} = "waiting-user"')
        w.emit(depth + 1, "else:")
        w.emit(depth + 2, f'{out} = "pending"')
        return
    fallback = w.const(node.terminal_outcome) if node.is_terminal else '"pending"'
    if node.satisfied is None:
        w.emit(depth, f"r = recorded(keys[{i}])")
        w.emit(depth, f"{out} = r if r else {fallback}")
        if offers:
            w.emit(depth, f'if {out} == "pending" or {out} == "waiting-user":')
            w.emit(depth + 1, f"offered.append({i})")
        return
    condition = _write_check(w, depth, node)
    w.emit(depth, f"if {condition}:")
    w.emit(depth + 1, f'{out} = "completed"')
    w.emit(depth, "else:")
    w.emit(depth + 1, f"r = recorded(keys[{i}])")
    w.emit(depth + 1, f'{out} = "unverified" if r == "completed" else r if r else {fallback}')
    if offers:  # a completed node offers nothing
        w.emit(depth + 1, f'if {out} == "pending" or {out} == "waiting-user":')
        w.emit(depth + 2, f"offered.append({i})")


def self_repeats(graph: CompiledGraph) -> dict[int, frozenset[str]] | None:
    """Node index → outcomes that re-arm it, when every repeat edge leads from a node to itself; else None.

    Such an edge acts in the pass its node settles, right after settling (step
    b), and only on that node: an outcome it matches becomes ``pending``, which
    is all a plan needs to know. Other repeat edges re-arm earlier nodes and
    are left to the worklist.
    """
    rearmed: dict[int, frozenset[str]] = {}
    for source, target, accepted in graph.repeat_edges:
        if source != target:
            return None
        rearmed[source] = rearmed.get(source, frozenset()) | accepted
    return rearmed


def write_plan(
    graph: CompiledGraph, entry: int, order: list[int], rearmed: Mapping[int, frozenset[str]]
) -> tuple[str, list[Any]]:
    """The source of ``make(constants, runtime)``, which returns the plan, and the constants it binds."""
    nodes = graph.nodes
    incoming: dict[int, list[tuple[int, frozenset[str]]]] = {index: [] for index in order}
    for source in order:
        for target, accepted in nodes[source].flow_out:
            incoming[target].append((source, accepted))
    w = _Writer()  # the body first: it decides the constants the header unpacks
    live: set[int] = set()
    for index in order:
        node = nodes[index]
        depth = 2
        if index == entry:
            w.emit(depth, f"l{index} = 0")
        else:
            edges = [(source, accepted) for source, accepted in incoming[index] if source in live]
            if node.join_any:
                if not edges:
                    continue
                w.emit(depth, f"l{index} = -1")
                for source, accepted in edges:  # the earliest matching predecessor
                    w.emit(depth, f"if {w.matches(f'o{source}', accepted)} and (l{index} < 0 or l{source} < l{index}):")
                    w.emit(depth + 1, f"l{index} = l{source}")
                w.emit(depth, f"if l{index} >= 0:")
                depth += 1
                w.emit(depth, f"l{index} += 1")
            else:
                if not edges or len(edges) != node.in_count:
                    continue  # an edge from a node this entry never reaches: the join is never met
                condition = " and ".join(w.matches(f"o{source}", accepted) for source, accepted in edges)
                sources = sorted({source for source, _ in edges})  # the latest predecessor
                if len(sources) == 1:
                    level = f"l{sources[0]}"
                elif len(sources) == 2:
                    level = f"(l{sources[0]} if l{sources[0]} > l{sources[1]} else l{sources[1]})"
                else:
                    level = "max(" + ", ".join(f"l{s}" for s in sources) + ")"
                w.emit(depth, f"if {condition}:")
                depth += 1
                w.emit(depth, f"l{index} = {level} + 1")
        live.add(index)
        rearm = rearmed.get(index)
        offers = not node.is_terminal and not node.is_subgraph  # an Action or a Gate (§5 step 3)
        _write_settle(w, depth, graph, node, offers and rearm is None and node.requires is None)
        if rearm is not None:  # step (b) of the same pass: the node's own repeat edge re-arms it
            w.emit(depth, f"if {w.matches(f'o{index}', rearm)}:")
            w.emit(depth + 1, f'o{index} = "pending"')
        # Its outcome is final now.
        if node.is_terminal:
            w.emit(depth, f"if o{index} is not None:")
            w.emit(depth + 1, f"terminals.add(o{index})")
        elif offers and (rearm is not None or node.requires is not None):
            w.emit(depth, f'if o{index} == "pending" or o{index} == "waiting-user":')
            w.emit(depth + 1, f"offered.append({index})")
    body, w.lines = w.lines, []

    w.emit(0, "def make(constants, runtime):")
    if w.constants:
        w.emit(1, "".join(f"k{n}, " for n in range(len(w.constants))) + "= constants")
    for helper in (
        "Frame",
        "MISSING",
        "open_frame",
        "Diagnostic",
        "facts_match",
        "finish_frame",
        "lookup_fact",
        "scalar_equals",
        "graph",
        "graph_id",
        "graph_path",
    ):
        w.emit(1, f"{helper} = runtime[{helper!r}]")
    w.emit(1, f"stride = {len(nodes)}")
    w.emit(1, "first = runtime['first']")
    w.emit(1, "def plan(ctx, call_path, stack, keys, entry):")
    w.emit(2, "facts = ctx.facts")
    w.emit(2, "recorded = ctx.outcomes.get")
    w.emit(2, "graphs = ctx.provider.graphs")
    w.emit(2, "inner_stack = (*stack, graph_id)")
    w.emit(2, "settle_diagnostics = []")
    w.emit(2, "unfinished = []")
    w.emit(2, "offered = []")
    w.emit(2, "terminals = set()")
    w.emit(2, " = ".join(f"o{i}" for i in sorted(live)) + " = None")
    for name, segment in w.tops.values():  # facts is a Mapping: .get never fails here
        w.emit(2, f"{name} = facts.get({segment}, MISSING)")
    w.lines.extend(body)
    w.emit(2, "diagnostics = []")
    w.emit(2, "if settle_diagnostics:  # in reached order")
    w.emit(3, "settle_diagnostics.sort(key=first)")
    w.emit(3, "diagnostics = [diagnostic for _, diagnostic in settle_diagnostics]")
    w.emit(2, "candidates = []")
    w.emit(2, "if unfinished:  # children that did not complete, in reached order")
    w.emit(3, "unfinished.sort(key=first)")
    w.emit(3, "for _, result in unfinished:")
    w.emit(4, "candidates.append(result.candidates)")
    w.emit(4, "diagnostics.extend(result.diagnostics)")
    w.emit(2, "return finish_frame(ctx, graph, entry, call_path, keys, diagnostics, offered, terminals, candidates)")
    if w.yields:
        w.emit(2, "yield  # never reached")
    w.emit(1, "return plan")
    return "\n".join(w.lines) + "\n", w.constants


def build_plan(graph: CompiledGraph, entry: int, helpers: Mapping[str, Any]) -> Callable[..., Any] | None:
    """The compiled plan of ``graph`` from node ``entry``, or None when the worklist must settle it.

    ``helpers`` supplies the evaluator's ``Frame``, ``MISSING``,
    ``open_frame``, ``Diagnostic``, ``facts_match``, ``finish_frame``,
    ``lookup_fact`` and ``scalar_equals``. The plan is called as
    ``plan(ctx, call_path, stack, state_keys, entry)`` and returns a frame, or
    (with Subgraph nodes) a generator of one.
    """
    rearmed = self_repeats(graph)
    if rearmed is None:
        return None
    order = reachable_in_order(graph, entry)
    if order is None:
        return None
    runtime = dict(helpers, graph=graph, graph_path=graph.path, graph_id=graph.id, first=operator.itemgetter(0))
    source, constants = write_plan(graph, entry, order, rearmed)
    namespace: dict[str, Any] = {}
    try:  # the source holds no user text (see write_plan); a compiler limit leaves the graph to the worklist
        exec(compile(source, f"<agent-graph plan {len(graph.nodes)} nodes>", "exec"), namespace)
    except (SyntaxError, RecursionError, MemoryError, ValueError, OverflowError):
        return None
    plan: Callable[..., Any] = namespace["make"](tuple(constants), runtime)
    return plan
