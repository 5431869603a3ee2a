"""Why an evaluation answered as it did: every node's status and reason, condition by condition.

:func:`explain` runs the one evaluator with a trace (``FrameTrace``): the
evaluator itself records, per frame, the nodes it reached, the outcome each
settled to and the branch of behaviour.md §5 step 2a that settled it, the
``repeat`` re-arms, the ranked candidates and the diagnostics. Nothing here
decides a status again. What this module adds is the detail a reader needs:
each ``requiresFacts`` and ``satisfiedBy`` check with the value found at its
path (looked up and tested by the evaluator's own functions), each edge with
the outcome of its source, a Gate's authority, and why the primary route
ranks first. The answer is an :class:`Explanation` (msgspec Structs, JSON on
the wire) and :func:`explanation_text` words it for people. Pure: no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from .errors import AgentGraphError, shown
from .evaluate import (
    WHY_CHILD,
    WHY_RECORDED,
    WHY_REQUIRES,
    WHY_SUBGRAPH_MISSING,
    WHY_TERMINAL,
    WHY_UNVERIFIED,
    Candidate,
    FrameTrace,
    evaluate_with_candidates,
)
from .facts import MISSING, facts_match, lookup_fact
from .ir import ABSENT, EQUALS, EXISTS, CompiledGraph, CompiledNode, FactTest
from .model import Blocker, Evaluation, ProofCheck
from .normalize import normalize_authorities, normalize_facts, normalize_outcomes
from .plain import plain_json
from .provider import Provider
from .state import state_key_problem

__all__ = [
    "CandidateExplanation",
    "CheckExplanation",
    "EdgeExplanation",
    "Explanation",
    "FrameExplanation",
    "GateExplanation",
    "NodeExplanation",
    "blocker_lines",
    "explain",
    "explanation_text",
    "proof_checks",
    "proof_text",
    "step_blockers",
]

#: Reasons a node has (``NodeExplanation.reason``) besides the evaluator's ``WHY_*`` branches.
SATISFIED = "satisfied"
REPEATED = "reached-by-repeat"
NOT_REACHED = "not-reached"
NOT_EVALUATED = "frame-not-evaluated"
FRAME_REFUSED = "frame-refused"


class _Struct(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, rename="camel"):
    def to_json(self) -> Any:
        """The wire form as plain JSON data."""
        return msgspec.to_builtins(self)


class CheckExplanation(_Struct, frozen=True, kw_only=True):
    """One fact check: the path, what it wants, what the Facts hold there, and whether it passed.

    ``test`` is ``exists``, ``absent`` or ``equals``; ``wanted`` the value of
    ``equals``; ``found`` the value at the path (omitted when ``present`` is false).
    """

    path: str
    test: str
    passed: bool
    present: bool
    found: Any = msgspec.UNSET
    wanted: Any = msgspec.UNSET


class EdgeExplanation(_Struct, frozen=True, kw_only=True):
    """An edge of the node's Graph: whether its source's outcome matches it, and why."""

    index: int
    from_: str = msgspec.field(name="from")
    to: str
    kind: str
    outcomes: list[str]
    matched: bool
    reason: str


class GateExplanation(_Struct, frozen=True, kw_only=True):
    """A Gate's authority: the one it names, whether the input holds it, and whether it may be delegated."""

    id: str
    authority: str | None = None
    delegatable: bool
    authority_held: bool
    delegated: bool


class CandidateExplanation(_Struct, frozen=True, kw_only=True):
    """A route candidate as the evaluator ranked it (rank 0 is the primary route)."""

    rank: int
    route_id: str
    graph: str
    node: str
    call_path: list[str]
    status_code: str
    availability: str
    priority: int
    resolution: str | None = None


class NodeExplanation(_Struct, frozen=True, kw_only=True):
    """One node of a frame: its settled outcome (``status``) and the reason, condition by condition."""

    graph: str
    node: str
    state_key: str
    kind: str
    reached: bool
    status: str | None = None
    reason: str
    message: str
    recorded: str | None = None
    requires_facts: list[CheckExplanation] = []
    missing_facts: list[str] = []
    satisfied_by: list[CheckExplanation] = []
    rearmed_by: list[int] = []
    gate: GateExplanation | None = None
    candidate: CandidateExplanation | None = None
    incoming: list[EdgeExplanation] = []
    outgoing: list[EdgeExplanation] = []


class FrameExplanation(_Struct, frozen=True, kw_only=True):
    """One frame (a Graph at a call path) with its nodes: reached ones in reached order, then the rest."""

    graph: str
    entry: str
    call_path: list[str]
    frame_key: str
    status: str
    outcome: str | None = None
    error: str | None = None
    nodes: list[NodeExplanation]


class Explanation(_Struct, frozen=True, kw_only=True):
    """``agent-graph.explanation.v1``: an Evaluation and why it is what it is.

    ``focus`` is the state key of the node asked about, if any (then the
    frames hold only that node). ``primary`` says why the primary route is the
    one it is; ``candidates`` lists every candidate in the evaluator's order.
    """

    schema: str
    evaluation: Evaluation
    focus: str | None = None
    primary: str
    candidates: list[CandidateExplanation]
    frames: list[FrameExplanation]


# ---------------------------------------------------------------- checks


def _check(facts: Mapping[str, Any], test: FactTest) -> CheckExplanation:
    value = lookup_fact(facts, test.segments)
    present = value is not MISSING
    passed = facts_match(facts, (test,))
    path = ".".join(test.segments)
    found = plain_json(value, "fact") if present else msgspec.UNSET
    if test.mode == EXISTS:
        return CheckExplanation(path=path, test="exists", passed=passed, present=present, found=found)
    if test.mode == ABSENT:
        return CheckExplanation(path=path, test="absent", passed=passed, present=present, found=found)
    return CheckExplanation(
        path=path, test="equals", passed=passed, present=present, found=found, wanted=test.value
    )


def _checks(facts: Mapping[str, Any], tests: tuple[FactTest, ...] | None) -> list[CheckExplanation]:
    return [_check(facts, test) for test in tests] if tests is not None else []


def _json(value: Any, limit: int = 120) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        return shown(value, limit)
    return text if len(text) <= limit else text[:limit] + "…"


def _wanted_words(test: str, wanted: Any) -> str:
    """What a check wants, in words: ``exists``, ``is absent`` or ``equals "x"``."""
    if test == "equals":
        return f"equals {_json(wanted)}"
    return "exists" if test == "exists" else "is absent"


def check_text(check: CheckExplanation) -> str:
    """``path equals "x": found "y" ✗`` — one check in words."""
    found = _json(check.found) if check.present else "nothing"
    return f"{check.path} {_wanted_words(check.test, check.wanted)}: found {found} {'✓' if check.passed else '✗'}"


def proof_text(check: ProofCheck) -> str:
    """``report.digest exists ✗`` — a step's check in the words of :func:`check_text`."""
    test = "equals" if check.operator == "equals" else "exists" if check.expected is True else "absent"
    return f"{check.path} {_wanted_words(test, check.expected)} {'✓' if check.holds else '✗'}"


def _proof_check(facts: Mapping[str, Any], test: FactTest, path: str) -> ProofCheck:
    holds = facts_match(facts, (test,))
    if test.mode == EQUALS:
        return ProofCheck(path=path, operator="equals", expected=test.value, holds=holds)
    return ProofCheck(path=path, operator="exists", expected=test.mode == EXISTS, holds=holds)


def proof_checks(
    provider: Provider, graph: str, node: str, facts: Mapping[str, Any] | None
) -> tuple[ProofCheck, ...]:
    """The ``satisfiedBy`` checks of node ``node`` of ``graph``, each tested against ``facts`` (the evaluator's test)."""
    compiled = provider.graphs.get(graph)
    index = compiled.index.get(node) if compiled is not None else None
    if compiled is None or index is None:
        return ()
    target = compiled.nodes[index]
    definitions = target.definition.satisfied_by or ()
    values = normalize_facts(facts)
    return tuple(
        _proof_check(values, test, d.path)
        for d, test in zip(definitions, target.satisfied or (), strict=True)
    )


# ---------------------------------------------------------------- edges


def _edge_outcomes(outcomes: Iterable[str] | None) -> list[str]:
    return list(outcomes) if outcomes is not None else ["completed"]


def _edges(trace: FrameTrace) -> list[EdgeExplanation]:
    graph = trace.graph
    found: list[EdgeExplanation] = []
    repeat_index = 0
    rearms: dict[int, list[Any]] = {}
    for edge_index, old in trace.rearmed:
        rearms.setdefault(edge_index, []).append(old)
    for index, edge in enumerate(graph.definition.edges):
        kind = edge.kind or "flow"
        accepted = _edge_outcomes(edge.outcomes)
        source = graph.index[edge.from_]
        outcome = trace.outcomes[source]
        wanted = ", ".join(accepted)
        if outcome is None:
            matched = False
            reason = f"{edge.from_} was not reached"
        elif outcome in accepted:
            matched = True
            reason = f"{edge.from_} is {outcome}, which the edge accepts"
        else:
            matched = False
            reason = f"{edge.from_} is {outcome}; the edge needs {wanted}"
        if kind == "repeat":
            fired = rearms.get(repeat_index, [])
            repeat_index += 1
            if fired:
                matched = True
                before = ", then ".join(str(old) if old is not None else "not reached" for old in fired)
                reason = f"it fired and re-armed {edge.to} (before: {before}); {edge.to} is now {trace.outcomes[graph.index[edge.to]]}"
            elif matched:
                reason += f"; {edge.to} was already pending"
        found.append(
            EdgeExplanation(
                index=index,
                from_=edge.from_,
                to=edge.to,
                kind=kind,
                outcomes=accepted,
                matched=matched,
                reason=reason,
            )
        )
    return found


def _unreached_message(node: CompiledNode, incoming: list[EdgeExplanation]) -> str:
    flow = [e for e in incoming if e.kind != "repeat"]
    if not flow:
        return "not reached: no flow edge leads here" + (
            "" if not incoming else " and no repeat edge re-armed it"
        )
    matched = sum(1 for e in flow if e.matched)
    if len(flow) == 1:
        return "not reached: its incoming edge does not match"
    if node.join_any:
        return f"not reached: join any needs one of its {len(flow)} incoming edges to match, none does"
    return f"not reached: join all needs all {len(flow)} incoming edges to match, {matched} does"


# ---------------------------------------------------------------- nodes


def _candidate(rank: int, candidate: Candidate) -> CandidateExplanation:
    return CandidateExplanation(
        rank=rank,
        route_id=candidate.route_id,
        graph=candidate.graph.id,
        node=candidate.node.id,
        call_path=list(candidate.call_path),
        status_code=candidate.status_code,
        availability=candidate.availability,
        priority=candidate.node.priority,
        resolution=candidate.resolution,
    )


def _gate(node: CompiledNode, authorities: frozenset[str]) -> GateExplanation | None:
    gate = node.definition.gate
    if gate is None:
        return None
    held = gate.authority is not None and gate.authority in authorities
    return GateExplanation(
        id=gate.id,
        authority=gate.authority,
        delegatable=gate.delegatable is True,
        authority_held=held,
        delegated=node.delegated_to is not None and node.delegated_to in authorities,
    )


def _gate_words(gate: GateExplanation) -> str:
    if gate.authority is None:
        return "it names no authority, so only the user resolves it"
    held = "held" if gate.authority_held else "not held"
    if not gate.delegatable:
        return f"authority {gate.authority} ({held}) is not delegatable, so the user resolves it"
    if gate.delegated:
        return f"delegatable authority {gate.authority} is held, so the session resolves it"
    return f"delegatable authority {gate.authority} is not held, so the user resolves it"


def _settled_message(
    node: CompiledNode,
    reason: str,
    status: str,
    requires: list[CheckExplanation],
    satisfied: list[CheckExplanation],
    child: FrameTrace | None,
) -> str:
    if reason == WHY_REQUIRES:
        failed = [c.path for c in requires if not c.passed]
        return f"blocked: requiresFacts not met ({', '.join(failed)})"
    if reason == WHY_SUBGRAPH_MISSING:
        return f"failed: the Provider has no Graph {node.child_graph}"
    if reason == WHY_CHILD:
        if child is None:
            return f"{status}: from its child frame"
        said = child.status + (f" with outcome {child.outcome}" if child.outcome else "")
        return f"{status}: child frame {child.graph.id}#{child.entry} is {said}"
    if reason == SATISFIED:
        return "completed: every satisfiedBy check holds"
    if reason == WHY_UNVERIFIED:
        failed = [c.path for c in satisfied if not c.passed]
        return f"unverified: recorded completed, but satisfiedBy does not hold ({', '.join(failed)})"
    if reason == WHY_RECORDED:
        extra = " (satisfiedBy does not hold)" if satisfied else ""
        return f"{status}: recorded outcome{extra}"
    if reason == WHY_TERMINAL:
        return f"{status}: the terminal's terminalOutcome"
    if reason == REPEATED:
        return "pending: reached only through a repeat edge, which re-armed it"
    if satisfied:
        return "pending: satisfiedBy does not hold and no outcome is recorded"
    return "pending: no outcome is recorded"


def _frame_key(graph: CompiledGraph, call_path: tuple[str, ...]) -> str:
    return ">".join((*call_path, graph.id))


def _frame_explanation(
    trace: FrameTrace,
    facts: Mapping[str, Any],
    outcomes: Mapping[str, Any],
    authorities: frozenset[str],
    traces: Mapping[tuple[str, ...], FrameTrace],
    ranks: Mapping[str, CandidateExplanation],
    only: str | None,
) -> FrameExplanation:
    graph = trace.graph
    key = _frame_key(graph, trace.call_path)
    edges = _edges(trace)
    incoming: dict[str, list[EdgeExplanation]] = {}
    outgoing: dict[str, list[EdgeExplanation]] = {}
    for edge in edges:
        incoming.setdefault(edge.to, []).append(edge)
        outgoing.setdefault(edge.from_, []).append(edge)
    repeat_edges = graph.repeat_edges
    rearmed_by: dict[int, list[int]] = {}
    first_by_repeat: set[int] = set()
    settled_first: dict[int, Any] = {}  # a re-armed node's outcome before its first re-arm
    repeat_positions = [i for i, e in enumerate(graph.definition.edges) if e.kind == "repeat"]
    for edge_index, old in trace.rearmed:
        target = repeat_edges[edge_index][1]
        rearmed_by.setdefault(target, []).append(repeat_positions[edge_index])
        settled_first.setdefault(target, old)
        if old is None:
            first_by_repeat.add(target)
    reached = set(trace.reached)
    order = [*trace.reached, *(n.index for n in graph.nodes if n.index not in reached)]
    nodes: list[NodeExplanation] = []
    for index in order:
        node = graph.nodes[index]
        if only is not None and node.id != only:
            continue
        state_key = f"{key}/{node.id}"
        recorded = outcomes.get(state_key)
        requires = _checks(facts, node.requires)
        satisfied = _checks(facts, node.satisfied)
        status = trace.outcomes[index]
        child = None
        if node.is_subgraph:
            child = traces.get((*trace.call_path, f"{graph.id}/{node.id}"))
        node_in = incoming.get(node.id, [])
        if trace.error is not None:
            reason, message = FRAME_REFUSED, f"not reached: the frame is refused ({trace.error})"
        elif status is None:
            reason, message = NOT_REACHED, _unreached_message(node, node_in)
        else:
            reason = trace.why.get(index) or (REPEATED if index in first_by_repeat else SATISFIED)
            settled = settled_first.get(index) or status
            message = _settled_message(node, reason, settled, requires, satisfied, child)
            if index in rearmed_by and reason != REPEATED:
                message += f"; then a repeat edge re-armed it: {status}"
        gate = _gate(node, authorities)
        if gate is not None and status in ("pending", "waiting-user"):
            message += f"; {_gate_words(gate)}"
        nodes.append(
            NodeExplanation(
                graph=graph.id,
                node=node.id,
                state_key=state_key,
                kind=node.kind,
                reached=status is not None,
                status=status,
                reason=reason,
                message=message,
                recorded=recorded if isinstance(recorded, str) else None,
                requires_facts=requires,
                missing_facts=[c.path for c in requires if not c.passed],
                satisfied_by=satisfied,
                rearmed_by=rearmed_by.get(index, []),
                gate=gate,
                candidate=ranks.get(state_key),
                incoming=node_in,
                outgoing=outgoing.get(node.id, []),
            )
        )
    return FrameExplanation(
        graph=graph.id,
        entry=trace.entry,
        call_path=list(trace.call_path),
        frame_key=key,
        status=trace.status,
        outcome=trace.outcome,
        error=trace.error,
        nodes=nodes,
    )


def _candidate_name(candidate: CandidateExplanation) -> str:
    """The node ID at top level, else its state key (``main/check>quality/verify``)."""
    if not candidate.call_path:
        return candidate.node
    return ">".join((*candidate.call_path, candidate.graph)) + "/" + candidate.node


def _primary_words(evaluation: Evaluation, candidates: list[CandidateExplanation]) -> str:
    if evaluation.status_code == "complete":
        return f"No route: the frame is complete with outcome {evaluation.outcome} (one terminal outcome reached)"
    if not candidates:
        codes = ", ".join(d.code for d in evaluation.diagnostics) or "none"
        return f"No route: no reached Action or Gate is pending or waiting-user (status {evaluation.status_code}; diagnostics: {codes})"
    first = candidates[0]
    where = _candidate_name(first)
    if len(candidates) == 1:
        return f"{where} is the only candidate ({first.availability})"
    second = candidates[1]
    other = _candidate_name(second)
    if first.availability != second.availability:
        why = f"it is {first.availability}, and {other} is {second.availability}"
    elif first.priority != second.priority:
        why = f"both are {first.availability} and its priority {first.priority} is higher than {other}'s {second.priority}"
    else:
        why = f"both are {first.availability} with priority {first.priority}, and its route ID sorts before {other}'s"
    return f"{where} ranks first of {len(candidates)} candidates: {why}"


# ---------------------------------------------------------------- entry point


def _focus(provider: Provider, graph: str, node: str) -> tuple[str, str]:
    """``(frame key, node ID)`` of a node named by ID (in ``graph``) or by state key."""
    key = node if "/" in node else f"{graph}/{node}"
    problem = state_key_problem(provider, graph, key)
    if problem is not None:
        raise AgentGraphError("explain-node-missing", f"Cannot explain {node}: {problem}")
    frame, _, node_id = key.rpartition("/")
    return frame, node_id


def explain(
    provider: Provider,
    graph: str,
    entry: str = "default",
    node: str | None = None,
    *,
    facts: Mapping[str, Any] | None = None,
    outcomes: Mapping[str, Any] | None = None,
    authorities: Iterable[str] | None = None,
) -> Explanation:
    """Why :func:`~agent_graph.evaluate` answers as it does for this state.

    Every frame the evaluation opened is listed with each of its nodes (or,
    with ``node`` — a node ID of ``graph`` or a state key such as
    ``main/check>quality/verify`` — that node only): its settled outcome and
    the reason, each fact check with the value found, each edge and whether
    it matched, a Gate's authority, and its place among the candidates.
    ``explanation.evaluation`` is exactly what ``evaluate`` returns. Raises
    what ``evaluate`` raises, and ``explain-node-missing`` for a node the
    Graph (or a Subgraph it calls) does not have.
    """
    if not isinstance(provider, Provider):
        raise AgentGraphError("argument-invalid", "explain needs the loaded Provider (ag.load_provider)")
    if node is not None and not isinstance(node, str):
        raise AgentGraphError(
            "argument-invalid", f"node must be a node ID or a state key (a string), not {shown(node)}"
        )
    focus = _focus(provider, graph, node) if node is not None else None
    trace: list[FrameTrace] = []
    evaluation, candidates = evaluate_with_candidates(
        provider, graph, entry, facts, outcomes, authorities, trace=trace
    )
    fact_values = normalize_facts(facts)
    outcome_values = normalize_outcomes(outcomes)
    held = frozenset(normalize_authorities(authorities))
    ranked = [_candidate(rank, c) for rank, c in enumerate(candidates)]
    ranks = {c.state_key: ranked[i] for i, c in enumerate(candidates)}
    traces = {t.call_path: t for t in trace}
    frames: list[FrameExplanation] = []
    # Top frame first, then each child frame after its parent (depth first, in reached order).
    pending = [traces[()]] if () in traces else []
    while pending:
        current = pending.pop()
        key = _frame_key(current.graph, current.call_path)
        if focus is None or focus[0] == key:
            only = focus[1] if focus is not None else None
            frames.append(_frame_explanation(current, fact_values, outcome_values, held, traces, ranks, only))
        children = []
        for index in current.reached:
            item = current.graph.nodes[index]
            if item.is_subgraph:
                child = traces.get((*current.call_path, f"{current.graph.id}/{item.id}"))
                if child is not None:
                    children.append(child)
        pending.extend(reversed(children))
    if focus is not None and not frames:
        frame_key, node_id = focus
        child_graph = provider.graphs[frame_key.rpartition(">")[2]]
        target = child_graph.nodes[child_graph.index[node_id]]
        call_path = frame_key.split(">")[:-1]  # not empty: the top frame is always evaluated
        parent_id, _, caller_id = call_path[-1].partition("/")
        parent = provider.graphs[parent_id]
        frames.append(
            FrameExplanation(
                graph=child_graph.id,
                entry=parent.nodes[parent.index[caller_id]].child_entry or "",
                call_path=call_path,
                frame_key=frame_key,
                status="not-evaluated",
                nodes=[
                    NodeExplanation(
                        graph=child_graph.id,
                        node=node_id,
                        state_key=f"{frame_key}/{node_id}",
                        kind=target.kind,
                        reached=False,
                        reason=NOT_EVALUATED,
                        message="not reached: the Subgraph call that opens this frame was not reached",
                    )
                ],
            )
        )
    return Explanation(
        schema="agent-graph.explanation.v1",
        evaluation=evaluation,
        focus=f"{focus[0]}/{focus[1]}" if focus is not None else None,
        primary=_primary_words(evaluation, ranked),
        candidates=ranked,
        frames=frames,
    )


# ---------------------------------------------------------------- blockers of a step

#: Blockers a step lists at most (the first in explain's order: frames depth first, nodes in reached order).
BLOCKERS_LISTED = 20
#: Reasons that hold a node back wherever the Run stands.
_HOLDING = frozenset({WHY_UNVERIFIED, WHY_REQUIRES, WHY_SUBGRAPH_MISSING})


def _node_of(provider: Provider, state_key: str) -> CompiledNode | None:
    """The node a state key names (``frame/node``: the frame's last Graph), or None."""
    frame, _, node_id = state_key.rpartition("/")
    compiled = provider.graphs.get(frame.rpartition(">")[2])
    index = compiled.index.get(node_id) if compiled is not None else None
    return compiled.nodes[index] if compiled is not None and index is not None else None


def _may_hold_back(
    provider: Provider, evaluation: Evaluation, facts: Mapping[str, Any], outcomes: Mapping[str, Any]
) -> bool:
    """Whether any node can hold the Run back, without another evaluation: no route, a node blocked by
    its ``requiresFacts`` (the evaluation says so), or a ``completed`` record whose ``satisfiedBy`` fails."""
    if evaluation.primary_route is None and evaluation.status_code != "complete":
        return True
    if any(d.code == "required-fact-missing" or d.code == "subgraph-missing" for d in evaluation.diagnostics):
        return True
    for key, recorded in outcomes.items():
        # A record as a Run holds it (an OutcomeRecord), as JSON ({outcome, …}) or the outcome alone.
        outcome = getattr(recorded, "outcome", None) or (
            recorded.get("outcome") if isinstance(recorded, Mapping) else recorded
        )
        if outcome == "completed" and isinstance(key, str):
            node = _node_of(provider, key)
            if node is not None and node.satisfied is not None and not facts_match(facts, node.satisfied):
                return True
    return False


def _dead_end(node: NodeExplanation) -> bool:
    """A reached node where the Run stops: settled (not offered), not a terminal, and no edge leads on."""
    if node.status in (None, "pending", "waiting-user") or node.kind == "terminal":
        return False
    return not any(edge.matched for edge in node.outgoing if edge.kind != "repeat")


def step_blockers(
    provider: Provider,
    evaluation: Evaluation,
    facts: Mapping[str, Any] | None,
    outcomes: Mapping[str, Any] | None,
    authorities: Iterable[str] | None,
) -> tuple[Blocker, ...]:
    """The nodes that hold back the Run ``evaluation`` answers for, in the words of :func:`explain`.

    Every reached node that is unverified, blocked by its ``requiresFacts`` or
    calls a missing Graph and, when no route is offered, every reached node
    where the Run stops (settled, not offered, not a terminal, with no edge
    leading on), at most :data:`BLOCKERS_LISTED`. Costs nothing more than a
    look at the recorded outcomes unless one can hold the Run back; then one
    explained evaluation of the same state.
    """
    fact_values = normalize_facts(facts)
    if not _may_hold_back(provider, evaluation, fact_values, outcomes or {}):
        return ()
    outcome_values = normalize_outcomes(outcomes)
    explanation = explain(
        provider,
        evaluation.graph,
        evaluation.entry,
        facts=fact_values,
        outcomes=outcome_values,
        authorities=authorities,
    )
    stopped = explanation.evaluation.primary_route is None
    found: list[Blocker] = []
    for frame in explanation.frames:
        for node in frame.nodes:
            if not node.reached or not (node.reason in _HOLDING or (stopped and _dead_end(node))):
                continue
            unmet = node.requires_facts if node.reason == WHY_REQUIRES else node.satisfied_by
            found.append(
                Blocker(
                    node=node.state_key,
                    kind=node.kind,
                    status=node.status or "",
                    reason=node.reason,
                    message=node.message,
                    checks=tuple(
                        ProofCheck(
                            path=check.path,
                            operator="equals" if check.test == "equals" else "exists",
                            expected=check.wanted if check.test == "equals" else check.test == "exists",
                            holds=False,
                        )
                        for check in unmet
                        if not check.passed
                    ),
                )
            )
            if len(found) == BLOCKERS_LISTED:
                return tuple(found)
    return tuple(found)


def blocker_lines(blockers: Iterable[Blocker]) -> list[str]:
    """Each blocker in words: ``report/draft unverified: … (report.digest)``, then its unmet checks indented."""
    lines: list[str] = []
    for blocker in blockers:
        lines.append(f"{blocker.node} {blocker.message}")
        lines.extend(f"  {proof_text(check)}" for check in blocker.checks)
    return lines


# ---------------------------------------------------------------- text


def explanation_text(explanation: Explanation) -> str:
    """The explanation in readable lines (what ``agent-graph explain`` prints)."""
    evaluation = explanation.evaluation
    status = evaluation.status_code + (f" ({evaluation.outcome})" if evaluation.outcome else "")
    lines = [f"{evaluation.graph}#{shown(evaluation.entry)}: {status}", explanation.primary]
    for frame in explanation.frames:
        lines.append("")
        where = f" via {frame.call_path[-1]}" if frame.call_path else ""
        said = frame.status + (f" ({frame.outcome})" if frame.outcome else "")
        lines.append(f"frame {frame.frame_key} (entry {shown(frame.entry)}{where}): {said}")
        for node in frame.nodes:
            lines.append(f"  {node.node} [{node.kind}] {node.message}")
            for label, checks in (("requiresFacts", node.requires_facts), ("satisfiedBy", node.satisfied_by)):
                lines.extend(f"    {label} {check_text(check)}" for check in checks)
            if node.recorded is not None:
                lines.append(f"    recorded: {node.recorded}")
            if node.candidate is not None:
                c = node.candidate
                extra = f", resolution {c.resolution}" if c.resolution else ""
                lines.append(
                    f"    route #{c.rank + 1}: {c.status_code}, {c.availability}, priority {c.priority}{extra}"
                )
            for edge in node.incoming:
                mark = "✓" if edge.matched else "✗"
                lines.append(
                    f"    ← {edge.from_} [{edge.kind}: {', '.join(edge.outcomes)}] {mark} {edge.reason}"
                )
    return "\n".join(lines) + "\n"
