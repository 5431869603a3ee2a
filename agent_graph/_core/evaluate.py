"""The evaluator: Facts, Outcomes and authorities in, one Evaluation out.

Implements behaviour.md §3–§5 on the compiled IR. The reference algorithm
re-scans every node and edge per pass; here each pass only looks at what the
previous step changed (settled nodes, re-armed nodes, dirty repeat edges), which
gives the same reached order, outcomes and diagnostics in linear time.
Nothing here reads files, the clock or the environment.
"""

from __future__ import annotations

import heapq
import operator
from collections.abc import Generator, Iterable, Mapping, Sequence
from typing import Any

import msgspec

from .canonical import utf16_key
from .errors import AgentGraphError, Diagnostic, shown
from .facts import MISSING, facts_match, lookup_fact, scalar_equals
from .identity import evaluation_revision, route_ids
from .ir import ABSENT, EQUALS, CompiledGraph, CompiledNode, missing_subgraph_message, requires_message
from .model import Evaluation, RouteSummary
from .normalize import normalize_authorities, normalize_facts, normalize_outcomes
from .plain import plain_json, plain_string
from .provider import Provider

MAX_ALTERNATIVE_ROUTES = 3


class Candidate(msgspec.Struct):
    """A route candidate: where it sits and how it is offered (a Struct: a wide frame makes thousands)."""

    route_id: str
    graph: CompiledGraph
    node: CompiledNode
    call_path: tuple[str, ...]
    state_key: str
    status_code: str
    availability: str
    resolution: str | None


class _Frame(msgspec.Struct):
    """A frame's answer: its status, its outcome, its ranked candidates and its diagnostics."""

    status: str
    outcome: str | None
    candidates: list[Candidate]
    diagnostics: list[Diagnostic]


#: Why a node settled as it did, as :attr:`FrameTrace.why` records it (a node whose ``satisfiedBy``
#: matched has no entry: the common case costs the evaluator nothing).
WHY_REQUIRES = "requires-failed"
WHY_SUBGRAPH_MISSING = "subgraph-missing"
WHY_CHILD = "child"
WHY_UNVERIFIED = "unverified"
WHY_RECORDED = "recorded"
WHY_TERMINAL = "terminal-outcome"
WHY_PENDING = "pending"


class FrameTrace(msgspec.Struct):
    """The decisions of one frame, recorded by the evaluator itself when a trace is asked for.

    ``reached`` lists node indices in reached order and ``outcomes`` the final
    outcome per node index (None when not reached); ``why`` maps a node index
    to the ``WHY_*`` branch that settled it (no entry: its ``satisfiedBy``
    matched; a node reached only by a ``repeat`` edge was never settled);
    ``rearmed`` lists ``(repeat edge index, outcome before)`` in the order the
    re-arms happened. ``status``, ``outcome``, ``candidates`` (ranked) and
    ``diagnostics`` are the frame's answer; ``error`` is the code of a frame
    refused at step 1 (``graph-recursion``, ``entry-missing``).
    """

    graph: CompiledGraph
    entry: str
    call_path: tuple[str, ...]
    reached: list[int]
    outcomes: list[Any]
    why: dict[int, str]
    rearmed: list[tuple[int, Any]]
    status: str
    outcome: str | None
    candidates: list[Candidate]
    diagnostics: list[Diagnostic]
    error: str | None = None


def _traced(
    graph: CompiledGraph,
    entry: str,
    call_path: tuple[str, ...],
    reached: list[int],
    outcomes: list[Any],
    why: dict[int, str],
    rearmed: list[tuple[int, Any]],
    frame: _Frame,
    error: str | None = None,
) -> FrameTrace:
    """The trace of a frame: its decisions and its answer ``frame``."""
    return FrameTrace(
        graph,
        entry,
        call_path,
        reached,
        outcomes,
        why,
        rearmed,
        frame.status,
        frame.outcome,
        frame.candidates,
        frame.diagnostics,
        error,
    )


class _Context:
    """What every frame of one evaluation reads."""

    __slots__ = (
        "authorities",
        "facts",
        "graphs",
        "outcomes",
        "revision",
        "settled",
        "settled_path",
        "trace",
    )

    def __init__(
        self,
        provider: Provider,
        facts: Mapping[str, Any],
        outcomes: Mapping[str, Any],
        authorities: frozenset[str],
        revision: str,
    ) -> None:
        self.graphs = provider.graphs
        self.facts = facts
        self.outcomes = outcomes
        self.authorities = authorities
        self.revision = revision
        # When set, the frame at ``settled_path`` stores its settled outcomes here (node ID → outcome, reached order).
        self.settled: dict[str, Any] | None = None
        self.settled_path: tuple[str, ...] | None = None
        # When set, every frame appends its :class:`FrameTrace` here as it finishes (children first).
        self.trace: list[FrameTrace] | None = None


def _candidate_rank(candidate: Candidate) -> tuple[int, int, str]:
    return (0 if candidate.availability == "immediate" else 1, -candidate.node.priority, candidate.route_id)


def rank_candidates(candidates: list[Candidate]) -> list[Candidate]:
    """``sorted(candidates, key=_candidate_rank)``, by groups of (availability, priority).

    There are few such groups, so sorting each group's route IDs (plain strings)
    and concatenating the groups in rank order costs far less than comparing
    rank tuples when a frame offers thousands of candidates.
    """
    if len(candidates) < 64:
        candidates.sort(key=_candidate_rank)
        return candidates
    groups: dict[tuple[int, int], list[Candidate]] = {}
    for candidate in candidates:
        group = (0 if candidate.availability == "immediate" else 1, -candidate.node.priority)
        members = groups.get(group)
        if members is None:
            groups[group] = [candidate]
        else:
            members.append(candidate)
    ranked: list[Candidate] = []
    for group in sorted(groups):
        members = groups[group]
        members.sort(key=_ROUTE_ID_OF)
        ranked.extend(members)
    return ranked


_ROUTE_ID_OF = operator.attrgetter("route_id")


#: A frame being evaluated: a generator that yields a child frame to run (another ``_Run``) for a
#: Subgraph node whose frame is not answered at once, and receives the child's :class:`_Frame`.
_Run = Generator[Any, "_Frame", "_Frame"]


def _run_frames(
    ctx: _Context,
    graph: CompiledGraph,
    entry: str,
    call_path: tuple[str, ...] = (),
    stack: tuple[str, ...] = (),
) -> _Frame:
    """Evaluate a top-level frame; Subgraph frames run on an explicit stack, not on Python's.

    A frame opens its children with :func:`_open_frame`. A child that answers
    at once (an error frame) is used in place; any other is yielded here and
    run on the stack, so a chain of Subgraphs thousands deep evaluates without
    a recursion error.
    """
    first = _open_frame(ctx, graph, entry, call_path, stack)
    if type(first) is _Frame:
        return first
    frames: list[_Run] = [first]  # type: ignore[list-item]
    reply: _Frame | None = None
    while True:
        try:
            child = frames[-1].send(reply)  # type: ignore[arg-type]
        except StopIteration as finished:
            frames.pop()
            if not frames:
                result: _Frame = finished.value
                return result
            reply = finished.value
            continue
        frames.append(child)
        reply = None


def _open_frame(
    ctx: _Context, graph: CompiledGraph, entry: str, call_path: tuple[str, ...], stack: tuple[str, ...]
) -> _Run | _Frame:
    """A frame to run (see :func:`_frame`), or its answer when step 1 already decides it."""
    if graph.id in stack:
        chain = " -> ".join((*stack, graph.id))
        return _refused(
            ctx,
            graph,
            entry,
            call_path,
            "graph-recursion",
            f"Runtime graph recursion detected: {chain}",
        )
    entry_id = graph.entrypoints.get(entry) if isinstance(entry, str) else None
    if entry_id is None:
        return _refused(
            ctx, graph, entry, call_path, "entry-missing", f"Graph {graph.id} has no entry {shown(entry)}"
        )
    return _frame(ctx, graph, entry, graph.index[entry_id], call_path, stack)


def _refused(
    ctx: _Context, graph: CompiledGraph, entry: str, call_path: tuple[str, ...], code: str, message: str
) -> _Frame:
    """The error frame of step 1 (recorded in the trace when one is kept)."""
    frame = _Frame("error", None, [], [Diagnostic(code=code, severity="error", message=message)])
    if ctx.trace is not None:
        ctx.trace.append(_traced(graph, entry, call_path, [], [None] * len(graph.nodes), {}, [], frame, code))
    return frame


def _frame(
    ctx: _Context,
    graph: CompiledGraph,
    entry: str,
    entry_index: int,
    call_path: tuple[str, ...],
    stack: tuple[str, ...],
) -> _Run:
    """Steps 2–5 of behaviour.md §5 for one frame.

    Step 2 runs as a worklist. The reference re-scans every node and edge per
    pass; here a pass looks only at what the previous one changed, with the same
    reached order, outcomes and diagnostics:

    (a) settles the nodes the last pass reached, in reached order, and counts,
        per flow target, the incoming edges whose source now has an accepted
        outcome (``match_count``); a target whose count reaches what its join
        needs is *ready*. A Subgraph node's child frame runs first
        (:func:`_open_child`; this generator yields it to :func:`_run_frames`
        unless it answers at once, and :func:`_child_outcome` reads its answer);
    (b) looks only at repeat edges with an end that changed (:func:`_repeat`);
    (c) reaches the ready nodes that still meet their join, in node order. A
        node can only become reachable when its count grows, so no other node
        needs a look.

    Then the outcomes of the reached terminals (:func:`_terminal_outcomes`) and
    steps 3–5 (:func:`finish_frame`). This loop is the evaluator's hot path: the
    common node (one fact check on a path of plain dicts) is tested inline
    rather than through a call, a pass costs no call of its own unless a repeat
    edge changed, and the frame's state stays in local variables.
    """
    nodes = graph.nodes
    count = len(nodes)
    join_need = graph.join_need
    outcome: list[Any] = [None] * count
    reached = bytearray(count)
    reached[entry_index] = 1
    reached_order = [entry_index]
    match_count = [0] * count
    diagnostics: list[Diagnostic] = []
    # What steps 3 and 4 need, gathered as outcomes are set: the Actions and Gates whose outcome is
    # ``pending`` or ``waiting-user`` (each once) and the children that did not complete, in reached order.
    offered: list[CompiledNode] = []
    unfinished: list[_Frame] = []
    facts = ctx.facts
    recorded_outcomes = ctx.outcomes
    state_key_prefix = ">".join((*call_path, graph.id)) + "/"  # the frame key (behaviour.md §3)
    ready: list[int] = []  # nodes whose match count reached their join's need in this pass
    dirty: set[int] = set()  # repeat edges for step (b): an end changed
    # Only when a trace is kept: the branch that settled each node, and the re-arms (FrameTrace).
    why: dict[int, str] | None = None if ctx.trace is None else {}
    rearmed: list[tuple[int, Any]] | None = None if ctx.trace is None else []

    unsettled = [entry_index]
    while unsettled or dirty:
        # (a) settle the nodes reached in the last pass (none is settled twice).
        for index in unsettled:
            node = nodes[index]
            new: Any
            if node.requires is not None and not facts_match(facts, node.requires):
                new = _blocked(graph, node, diagnostics)
                if why is not None:
                    why[index] = WHY_REQUIRES
            elif node.is_subgraph:
                child = _open_child(ctx, graph, node, call_path, stack, diagnostics)
                if child is None:
                    new = "failed"
                    if why is not None:
                        why[index] = WHY_SUBGRAPH_MISSING
                else:
                    if type(child) is not _Frame:
                        child = yield child
                    new = _child_outcome(child, unfinished)
                    if why is not None:
                        why[index] = WHY_CHILD
            else:
                check = node.satisfied_one
                if check is not None:  # one check: inlined, plain dicts along the path looked up directly
                    segments, mode, expected, plain = check
                    value: Any = facts
                    for segment in segments:
                        if type(value) is dict:
                            value = value.get(segment, MISSING)
                        elif value is MISSING:
                            break
                        else:
                            value = lookup_fact(value, (segment,))
                    if mode == EQUALS:
                        if type(value) is plain:  # a str or bool against the same type
                            met = value == expected
                        else:
                            met = value is not MISSING and scalar_equals(value, expected)
                    else:
                        met = (value is MISSING) == (mode == ABSENT)
                else:
                    met = node.satisfied is not None and facts_match(facts, node.satisfied)
                if met:
                    new = "completed"
                else:
                    recorded = (
                        recorded_outcomes.get(state_key_prefix + node.id) if recorded_outcomes else None
                    )
                    if node.satisfied is not None and recorded == "completed":
                        new = "unverified"
                        branch = WHY_UNVERIFIED
                    elif recorded:
                        new = recorded
                        branch = WHY_RECORDED
                    elif node.is_terminal:
                        new = node.terminal_outcome
                        branch = WHY_TERMINAL
                    else:
                        new = "pending"
                        branch = WHY_PENDING
                    if why is not None:
                        why[index] = branch
                    if (new == "pending" or new == "waiting-user") and not node.is_terminal:
                        offered.append(node)
            outcome[index] = new
            for target, accepted in node.flow_out:
                if new in accepted:
                    matched = match_count[target] + 1
                    match_count[target] = matched
                    if matched == join_need[target]:
                        ready.append(target)
            if node.has_repeats:
                dirty.update(node.repeat_out)
                dirty.update(node.repeat_in)
        # (b) repeat edges in file order; only those with an end that changed can act.
        if dirty:
            dirty = _repeat(
                graph, dirty, outcome, reached, reached_order, match_count, ready, offered, rearmed
            )
        # (c) reach the ready nodes that still meet their join, in node order: a node can only
        # become reachable when its match count grows, so no other node needs a look.
        unsettled = []
        if ready:
            if len(ready) > 1:
                ready = sorted(set(ready))
            for target in ready:
                if not reached[target] and match_count[target] >= join_need[target]:
                    reached[target] = 1
                    unsettled.append(target)
            reached_order += unsettled
            ready = []
    if ctx.settled is not None and ctx.settled_path == call_path:
        ctx.settled.update((nodes[index].id, outcome[index]) for index in reached_order)
    answer = finish_frame(
        ctx,
        graph,
        entry,
        call_path,
        state_key_prefix,
        diagnostics,
        offered,
        _terminal_outcomes(graph, reached, outcome),
        unfinished,
    )
    if ctx.trace is not None and why is not None and rearmed is not None:
        ctx.trace.append(_traced(graph, entry, call_path, reached_order, outcome, why, rearmed, answer))
    return answer


def _blocked(graph: CompiledGraph, node: CompiledNode, diagnostics: list[Diagnostic]) -> str:
    """Step (a) for a node whose ``requires`` fail: ``blocked``, with ``required-fact-missing``."""
    message = requires_message(graph.id, node.id)
    diagnostics.append(
        Diagnostic(code="required-fact-missing", severity="error", message=message, path=graph.path)
    )
    return "blocked"


def _open_child(
    ctx: _Context,
    graph: CompiledGraph,
    node: CompiledNode,
    call_path: tuple[str, ...],
    stack: tuple[str, ...],
    diagnostics: list[Diagnostic],
) -> _Run | _Frame | None:
    """Step (a) for a Subgraph node: its child frame (see :func:`_open_frame`); None, with
    ``subgraph-missing``, when its Graph is not in the Provider."""
    child = ctx.graphs.get(node.child_graph or "")
    if child is None:
        message = missing_subgraph_message(node.child_graph)
        diagnostics.append(Diagnostic(code="subgraph-missing", severity="error", message=message))
        return None
    child_path = (*call_path, f"{graph.id}/{node.id}")
    return _open_frame(ctx, child, node.child_entry or "", child_path, (*stack, graph.id))


def _child_outcome(child: _Frame, unfinished: list[_Frame]) -> Any:
    """A Subgraph node's outcome from its child's answer; a child that did not complete joins ``unfinished``."""
    if child.status == "complete":
        return child.outcome or "pending"
    unfinished.append(child)
    if child.status == "error":
        return "failed"
    return "waiting-user" if child.status == "waiting-user" else "pending"


def _repeat(
    graph: CompiledGraph,
    queued: set[int],
    outcome: list[Any],
    reached: bytearray,
    reached_order: list[int],
    match_count: list[int],
    ready: list[int],
    offered: list[CompiledNode],
    rearmed: list[tuple[int, Any]] | None,
) -> set[int]:
    """Step (b): the repeat edges ``queued`` (an end changed), in file order; each may re-arm its target.

    A re-armed node is reached if it was not, set back to ``pending`` (keeping
    the match counts of its flow targets right, and adding to ``ready`` a target
    whose join it now meets) and offered again. Its repeat edges later in the
    file are looked at in this pass; the earlier ones are returned, for the next.
    """
    nodes, repeat_edges, join_need = graph.nodes, graph.repeat_edges, graph.join_need
    dirty: set[int] = set()
    heap = list(queued)
    heapq.heapify(heap)
    while heap:
        edge_index = heapq.heappop(heap)
        queued.discard(edge_index)
        source, target, accepted = repeat_edges[edge_index]
        source_outcome = outcome[source]
        if not reached[source] or source_outcome is None or source_outcome not in accepted:
            continue
        effect = False
        if not reached[target]:
            reached[target] = 1
            reached_order.append(target)
            effect = True
        node = nodes[target]
        old = outcome[target]
        if old != "pending":  # re-arm: keep the match counts of its flow targets, and offer it
            outcome[target] = "pending"
            if rearmed is not None:
                rearmed.append((edge_index, old))
            for flow_target, flow_accepted in node.flow_out:
                before = old is not None and old in flow_accepted
                after = "pending" in flow_accepted
                if before != after:
                    if after:
                        match_count[flow_target] += 1
                        if match_count[flow_target] == join_need[flow_target]:
                            ready.append(flow_target)
                    else:
                        match_count[flow_target] -= 1
            if old != "waiting-user" and not node.is_terminal and not node.is_subgraph:
                offered.append(node)  # not offered before: its outcome was neither pending nor waiting-user
            effect = True
        if effect:
            for other in (*node.repeat_out, *node.repeat_in):
                if other > edge_index:
                    if other not in queued:
                        queued.add(other)
                        heapq.heappush(heap, other)
                else:
                    dirty.add(other)
    return dirty


def _terminal_outcomes(graph: CompiledGraph, reached: bytearray, outcome: list[Any]) -> set[Any]:
    """The outcomes of the reached terminals (what step 4 looks at)."""
    terminals: set[Any] = set()
    for index in graph.terminals:
        if reached[index] and outcome[index] is not None:
            terminals.add(outcome[index])
    return terminals


def finish_frame(
    ctx: _Context,
    graph: CompiledGraph,
    entry: str,
    call_path: tuple[str, ...],
    state_key_prefix: str,
    diagnostics: list[Diagnostic],
    offered: list[CompiledNode],
    terminals: set[Any],
    unfinished: list[_Frame],
) -> _Frame:
    """Steps 3–5 of behaviour.md §5 once a frame has settled.

    ``offered`` are the reached Actions and Gates whose outcome is ``pending``
    or ``waiting-user``, in any order: route IDs are unique, so the ranking
    decides the order of candidates. ``terminals`` are the outcomes of the
    reached terminals; ``unfinished`` the answers of the children that did not
    complete, in reached order (their diagnostics follow the frame's own).
    ``state_key_prefix`` is the frame key and ``/``.
    """
    for child in unfinished:
        diagnostics.extend(child.diagnostics)
    if terminals:
        if len(terminals) == 1:
            return _Frame("complete", next(iter(terminals)), [], diagnostics)
        terminal_outcomes = sorted(terminals, key=lambda value: utf16_key(str(value)))
        diagnostics.append(
            Diagnostic(
                code="terminal-outcome-ambiguous",
                severity="error",
                message=f"Graph {graph.id} reached terminals with conflicting outcomes: {', '.join(map(str, terminal_outcomes))}",
                path=graph.path,
                detail={"outcomes": terminal_outcomes},
            )
        )
        return _Frame("error", None, [], diagnostics)
    candidates = _candidates(ctx, graph, call_path, state_key_prefix, offered) if offered else []
    for child in unfinished:
        candidates.extend(child.candidates)
    if len(candidates) > 1:
        candidates = rank_candidates(candidates)
    if candidates:  # immediate candidates rank first
        status = "actionable" if candidates[0].availability == "immediate" else "waiting-user"
        return _Frame(status, None, candidates, diagnostics)
    if not diagnostics:
        diagnostics.append(
            Diagnostic(
                code="no-route",
                severity="error",
                message=f"Graph {graph.id} cannot reach a terminal or actionable node from entry {entry}",
            )
        )
    return _Frame("blocked", None, [], diagnostics)


def _candidates(
    ctx: _Context,
    graph: CompiledGraph,
    call_path: tuple[str, ...],
    state_key_prefix: str,
    offered: list[CompiledNode],
) -> list[Candidate]:
    """Step 3: a candidate per offered Action and Gate, with its route ID and how it is offered.

    An Action is actionable at once; a Gate delegated to a session authority
    the host holds is too (resolved by ``session-authority``); any other Gate
    waits for the user.
    """
    authorities = ctx.authorities
    candidates = []
    for route_id, node in zip(route_ids(ctx.revision, graph.id, call_path, offered), offered, strict=True):
        if node.is_action:
            status, availability, resolution = "actionable", "immediate", None
        elif node.delegated_to is not None and node.delegated_to in authorities:
            status, availability, resolution = "actionable", "immediate", "session-authority"
        else:
            status, availability, resolution = "waiting-user", "requires-user", "user"
        candidate = Candidate(
            route_id, graph, node, call_path, state_key_prefix + node.id, status, availability, resolution
        )
        candidates.append(candidate)
    return candidates


def settled_outcomes(
    provider: Provider,
    graph: CompiledGraph,
    entry: str,
    call_path: Sequence[str],
    facts: Mapping[str, Any],
    outcomes: Mapping[str, Any],
    authorities: Sequence[str],
) -> dict[str, Any]:
    """Node ID → settled outcome of every node one frame reaches, in reached order.

    The frame is ``graph``/``entry`` at ``call_path`` (items ``parentGraph/node``);
    ``outcomes`` are normalized, keyed by full state keys. An unknown entry
    reaches nothing. This is the evaluator's own step 2, exposed for overlays.
    """
    path = tuple(call_path)
    ctx = _Context(provider, facts, outcomes, frozenset(authorities), "")
    ctx.settled = {}
    ctx.settled_path = path
    _run_frames(ctx, graph, entry, path, tuple(item.split("/", 1)[0] for item in path))
    return ctx.settled


def summarize(provider: Provider, candidate: Candidate) -> RouteSummary:
    """The route summary an Evaluation lists for a candidate."""
    node = candidate.node
    return RouteSummary(
        route_id=candidate.route_id,
        graph=candidate.graph.id,
        node=node.id,
        status_code=candidate.status_code,  # type: ignore[arg-type]
        reason_code=node.reason_code,
        hint=provider.hint(node.reason_code),
        availability=candidate.availability,  # type: ignore[arg-type]
        label=node.label,
    )


def evaluate_with_candidates(
    provider: Provider,
    graph_id: str,
    entry: str = "default",
    facts: Mapping[str, Any] | None = None,
    outcomes: Mapping[str, Any] | None = None,
    authorities: Iterable[str] | None = None,
    trace: list[FrameTrace] | None = None,
) -> tuple[Evaluation, list[Candidate]]:
    """Evaluate and also return every candidate (the router resolves any of them by ID).

    With ``trace`` (an empty list), the evaluation runs even when its answer is
    remembered, and every frame appends its :class:`FrameTrace` to it; the
    answer is the same either way.
    """
    if not isinstance(provider, Provider):
        raise AgentGraphError("argument-invalid", "Evaluation needs the loaded Provider (ag.load_provider)")
    if isinstance(graph_id, str) and type(graph_id) is not str:
        graph_id = str.__str__(graph_id)
    graph = provider.graphs.get(graph_id) if type(graph_id) is str else None
    if graph is None:
        raise provider.graph_missing(graph_id)
    if type(entry) is not str:
        entry = (
            plain_string(entry, "entry")
            if isinstance(entry, str)
            else plain_json(entry, "entry", too_deep="json-invalid")
        )
    outcome_values = normalize_outcomes(outcomes)
    authority_list = normalize_authorities(authorities)
    cache = provider.cache
    revision, exact, fact_values = evaluation_revision(
        graph, entry, normalize_facts(facts), outcome_values, authority_list, cache
    )
    if exact and trace is None:
        # The revision digests everything an evaluation depends on; when its text
        # determines the state, the same revision of this Provider has the same answer.
        remembered = cache.evaluations.get((graph_id, revision))
        if remembered is not None:
            return remembered[0], list(remembered[1])
    ctx = _Context(provider, fact_values, outcome_values, frozenset(authority_list), revision)
    ctx.trace = trace
    frame = _run_frames(ctx, graph, entry)
    candidates = frame.candidates
    diagnostics = list(frame.diagnostics)
    alternatives = len(candidates) - 1
    if alternatives > MAX_ALTERNATIVE_ROUTES:
        diagnostics.append(
            Diagnostic(
                code="route-alternatives-truncated",
                severity="info",
                message=f"Evaluation returned {MAX_ALTERNATIVE_ROUTES} of {alternatives} alternative routes",
                detail={"available": alternatives, "returned": MAX_ALTERNATIVE_ROUTES},
            )
        )
    evaluation = Evaluation(
        schema="agent-graph.evaluation.v1",
        provider=provider.manifest.id,
        graph=graph_id,
        entry=entry,
        revision=revision,
        status_code=frame.status,  # type: ignore[arg-type]
        outcome=frame.outcome,
        primary_route=summarize(provider, candidates[0]) if candidates else None,
        alternative_routes=tuple(summarize(provider, c) for c in candidates[1 : MAX_ALTERNATIVE_ROUTES + 1]),
        diagnostics=tuple(diagnostics),
    )
    if (
        exact and trace is None and (not diagnostics or all(d.detail is None for d in diagnostics))
    ):  # a detail is a mutable dict: not shared
        cache.remember_evaluation((graph_id, revision), (evaluation, tuple(candidates)))
    return evaluation, candidates


def evaluate(
    provider: Provider,
    graph: str,
    entry: str = "default",
    *,
    facts: Mapping[str, Any] | None = None,
    outcomes: Mapping[str, Any] | None = None,
    authorities: Iterable[str] | None = None,
) -> Evaluation:
    """Evaluate ``graph``/``entry`` of a loaded Provider for the given state.

    ``facts`` is a JSON object; ``outcomes`` maps state keys (``main/n2``,
    ``main/check>quality/verify``) to an outcome string or a record
    ``{outcome, recordedAt, detail?}``; ``authorities`` lists session
    authorities. Returns an :class:`~agent_graph.Evaluation`; raises
    :class:`~agent_graph.AgentGraphError` (``graph-missing``) for an unknown graph.
    Pure and deterministic: no I/O.
    """
    return evaluate_with_candidates(provider, graph, entry, facts, outcomes, authorities)[0]
