"""The rules of ``agent-graph verify``: what an exploration of the reachable states shows.

:func:`~agent_graph._core.explore.explore` walks the states a host can reach
from an entry; this module reads the explored state space and answers
:class:`~agent_graph._core.lint.Issue` records, each with the state that
shows it (whose shortest path from the start is the finding's trace) and the
``agent-graph.test.v1`` document that reproduces it:

* AGV101 dead end: a state that is blocked, where no change of Facts or
  authorities offers a route again;
* AGV102 error state: a state whose evaluation is ``error``;
* AGV103 trap: a state from which no terminal can be reached whatever the
  host does (reported at the move that enters it);
* AGV104 refused Gate leads nowhere: the same, entered by refusing a Gate;
* AGV105 endless repeat: a ``repeat`` edge that, once it fires, fires in
  every state the host can reach;
* AGV106 / AGV107: a node no evaluation reaches, an edge none takes;
* AGV201 / AGV202: a declared property violated, or not proven because the
  exploration stopped (:mod:`.verify_properties`);
* AGV301: the exploration stopped at its bound.

Claims of absence (a node never reached, a property that holds) are made only
for complete explorations; a finding with a counterexample holds whatever the
bound, since every state it depends on was explored (states found but not
evaluated count as able to go anywhere). Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from .errors import listing
from .evaluate import FrameTrace, evaluate_with_candidates
from .explore import FACT, RECORD, Exploration, Move, closure
from .graph_coverage import edge_label
from .ir import CompiledGraph
from .lint import Finding, Issue, LintRule, LintSeverity, components, rules_by_code

__all__ = [
    "RULES",
    "GeneratedTest",
    "PropertyResult",
    "TraceStep",
    "VerifiedIssue",
    "VerifyExploration",
    "VerifyFinding",
    "VerifyReport",
    "after_move",
    "analyse",
    "state_test",
    "trace_steps",
]

#: Every rule by code, in code order.
RULES: Mapping[str, LintRule] = rules_by_code(
    LintRule(
        code="AGV101",
        name="dead-end",
        severity="error",
        summary="A reachable state is blocked and no change of Facts or authorities offers a route again",
    ),
    LintRule(
        code="AGV102",
        name="error-state",
        severity="error",
        summary="A reachable state evaluates to status error",
    ),
    LintRule(
        code="AGV103",
        name="trap",
        severity="error",
        summary="From a reachable state no terminal can be reached, whatever the host does",
    ),
    LintRule(
        code="AGV104",
        name="gate-refusal-dead-end",
        severity="error",
        summary="Once a Gate is refused, no terminal can be reached",
    ),
    LintRule(
        code="AGV105",
        name="repeat-endless",
        severity="error",
        summary="A repeat edge, once it fires, fires in every state the host can reach: its loop never ends",
    ),
    LintRule(
        code="AGV106",
        name="node-never-reached",
        severity="warning",
        summary="No evaluation of any reachable state reaches the node",
    ),
    LintRule(
        code="AGV107",
        name="edge-never-taken",
        severity="warning",
        summary="No evaluation of any reachable state takes the edge, though its source is reached",
    ),
    LintRule(
        code="AGV201",
        name="property-violated",
        severity="error",
        summary="A property declared in an agent-graph.verify.v1 file does not hold",
    ),
    LintRule(
        code="AGV202",
        name="property-unproven",
        severity="warning",
        summary="A declared property holds in the states explored, but the exploration stopped at its bound",
    ),
    LintRule(
        code="AGV301",
        name="exploration-bounded",
        severity="warning",
        summary="The exploration stopped at its bound of states or time: the findings cover the states explored",
    ),
)

#: The rules a complete exploration proves by absence.
_ABSENCE_RULES = frozenset({"AGV106", "AGV107"})


class TraceStep(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, rename="camel"):
    """One host move of a trace.

    ``kind`` is ``start`` (a new Run whose ``facts`` already hold what the
    checks read: the first step, when there is any), ``record`` (``key`` and
    ``outcome``), ``fact`` (``path``; ``present`` false for an absent path,
    else ``value`` when the path equals a value a check names) or
    ``authority`` (``authority`` and ``granted``). ``text`` says it in words.
    """

    kind: str
    text: str
    facts: dict[str, Any] | None = None
    key: str | None = None
    outcome: str | None = None
    path: str | None = None
    present: bool | None = None
    value: Any = msgspec.UNSET
    authority: str | None = None
    granted: bool | None = None


class VerifyFinding(Finding, frozen=True, kw_only=True, omit_defaults=True, rename="camel"):
    """A finding of ``verify``: a lint finding (code, rule, severity, message, file, line …) and what reproduces it.

    ``entry`` is the explored Graph entry (``report#default``); ``trace`` the
    host's moves of a shortest path from a new Run to the state that shows
    the finding; ``test`` an ``agent-graph.test.v1`` document that evaluates
    that state and fails while the finding stands (absent for a finding about
    what no state does: a node never reached, an edge never taken).
    """

    entry: str | None = None
    trace: tuple[TraceStep, ...] = ()
    test: dict[str, Any] | None = None


class GeneratedTest(msgspec.Struct, frozen=True, kw_only=True):
    """A generated graph test: its file name, its ``name``, its YAML text and the ``agent-graph.test.v1`` document."""

    file: str
    name: str
    text: str
    document: dict[str, Any]


class VerifyExploration(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """One explored Graph entry: states evaluated, moves between them, states found but not evaluated, and
    why it stopped (``max-states``, ``time``; None when every reachable state was evaluated)."""

    graph: str
    entry: str
    states: int
    transitions: int
    frontier: int
    complete: bool
    stopped: str | None = None


class PropertyResult(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """A declared property and its result: ``holds``, ``violated`` or ``unproven`` (the exploration stopped)."""

    name: str
    file: str
    graph: str
    entry: str
    kind: str
    result: str


class VerifyReport(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """What ``verify`` found: the explorations, the declared properties' results and the findings (sorted)."""

    provider: str
    explorations: tuple[VerifyExploration, ...]
    properties: tuple[PropertyResult, ...]
    findings: tuple[VerifyFinding, ...]

    @property
    def complete(self) -> bool:
        """Whether every exploration evaluated every reachable state (only then is absence proven)."""
        return all(exploration.complete for exploration in self.explorations)

    @property
    def state(self) -> str:
        """``failed`` (an error-level finding), ``incomplete`` (an exploration stopped at its bound) or ``passed``."""
        if any(finding.severity == "error" for finding in self.findings):
            return "failed"
        return "passed" if self.complete else "incomplete"

    def to_json(self) -> dict[str, Any]:
        """The report as plain JSON data: ``state``, ``provider``, ``complete``, counts, explorations,
        properties and findings."""
        counts: dict[LintSeverity, int] = {"error": 0, "warning": 0, "info": 0}
        for finding in self.findings:
            counts[finding.severity] += 1
        return {
            "state": self.state,
            "provider": self.provider,
            "complete": self.complete,
            "total": len(self.findings),
            "errors": counts["error"],
            "warnings": counts["warning"],
            "info": counts["info"],
            "explorations": msgspec.to_builtins(self.explorations),
            "properties": msgspec.to_builtins(self.properties),
            "findings": msgspec.to_builtins(self.findings),
        }


def trace_steps(exploration: Exploration, state: int) -> tuple[TraceStep, ...]:
    """The Facts a new Run starts with, then the moves of a shortest path from there to ``state``."""
    steps = [_step(exploration, move) for move in exploration.trace(state)]
    held = exploration.held(state)
    if held:
        first = exploration.path(state)[0]
        facts = exploration.space.facts(exploration.valuations[first])
        steps.insert(0, TraceStep(kind="start", text=f"start a new Run with {', '.join(held)}", facts=facts))
    return tuple(steps)


def _step(exploration: Exploration, move: Move) -> TraceStep:
    text = exploration.describe(move)
    if move[0] == RECORD:
        return TraceStep(kind="record", text=text, key=move[1], outcome=move[2])
    if move[0] == FACT:
        value = move[2]
        if value == 0:
            return TraceStep(kind="fact", text=text, path=exploration.space.paths[move[1]], present=False)
        if value == 1:
            return TraceStep(kind="fact", text=text, path=exploration.space.paths[move[1]], present=True)
        return TraceStep(
            kind="fact",
            text=text,
            path=exploration.space.paths[move[1]],
            present=True,
            value=exploration.space.value(move[1], value),
        )
    return TraceStep(kind="authority", text=text, authority=move[1], granted=move[2])


def state_test(exploration: Exploration, state: int, name: str, expect: Mapping[str, Any]) -> dict[str, Any]:
    """The ``agent-graph.test.v1`` document that evaluates ``state`` and expects ``expect``."""
    facts, outcomes, authorities = exploration.state(state)
    body: dict[str, Any] = {}
    if facts:
        body["facts"] = facts
    if outcomes:
        body["outcomes"] = outcomes
    if authorities:
        body["authorities"] = authorities
    document: dict[str, Any] = {
        "schema": "agent-graph.test.v1",
        "name": name,
        "graph": exploration.graph,
        "entry": exploration.entry,
    }
    if body:
        document["state"] = body
    document["expect"] = dict(expect)
    return document


@dataclass(frozen=True)
class VerifiedIssue:
    """An issue with what reproduces it: the exploration and the state at the end of its trace (or None)."""

    issue: Issue
    exploration: Exploration | None = None
    state: int | None = None
    expect: Mapping[str, Any] = field(default_factory=dict)
    #: A sentence naming the finding, for the reproducing test's ``name``.
    title: str = ""


# ------------------------------------------------------------------ reachability


class _Reach:
    """What the exploration's states can reach, computed once per exploration."""

    def __init__(self, exploration: Exploration) -> None:
        self.exploration = exploration
        infos = exploration.infos
        frontier = [i for i, info in enumerate(infos) if info is None]
        self.frontier = frontier
        complete = [i for i, info in enumerate(infos) if info is not None and info.status == "complete"]
        #: Can reach a complete state (or a state never evaluated, which might).
        self.ends = exploration.reaching([*complete, *frontier])
        live = [
            i
            for i, info in enumerate(infos)
            if info is not None and (info.candidates or info.status == "complete")
        ]
        #: Can reach a state with a route or an end.
        self.moves_on = exploration.reaching([*live, *frontier])

    def forward(self, start: int, limit: int = 10_000) -> list[int]:
        """States reachable from ``start`` (itself first), at most ``limit`` of them, breadth first."""
        successors = self.exploration.successors
        seen = {start}
        order = [start]
        position = 0
        while position < len(order) and len(order) < limit:
            current = order[position]
            position += 1
            if current >= len(successors):
                continue
            for target in successors[current]:
                if target not in seen:
                    seen.add(target)
                    order.append(target)
        return order


def _node_pointer(graph: CompiledGraph, index: int) -> str:
    return f"/nodes/{index}"


def _issue_at_node(code: str, message: str, hint: str, graph: CompiledGraph, index: int) -> Issue:
    pointer = _node_pointer(graph, index)
    return Issue(
        code, message, graph.path, pointer, pointer, hint, graph=graph.id, node=graph.nodes[index].id
    )


def _where(exploration: Exploration, move: Move | None) -> tuple[CompiledGraph, int]:
    """The node a move is about: the recorded node, else the entry node of the explored Graph."""
    if move is not None and move[0] == RECORD:
        node = exploration.nodes.get(move[1])
        if node is not None:
            return node.graph, node.node.index
    graph = exploration.provider.graphs[exploration.graph]
    return graph, graph.index[graph.entrypoints[exploration.entry]]


def _stuck(exploration: Exploration, state: int) -> tuple[CompiledGraph, int, str] | None:
    """The first reached node (innermost frame first) whose settled outcome no edge out of it accepts."""
    facts, outcomes, authorities = exploration.state(state)
    trace: list[FrameTrace] = []
    evaluate_with_candidates(
        exploration.provider, exploration.graph, exploration.entry, facts, outcomes, authorities, trace=trace
    )
    for frame in trace:
        if frame.error is not None:
            continue
        graph = frame.graph
        for index in frame.reached:
            node = graph.nodes[index]
            outcome = frame.outcomes[index]
            if node.is_terminal or outcome is None or outcome in ("pending", "waiting-user"):
                continue
            if any(outcome in accepted for _target, accepted in node.flow_out):
                continue
            if any(outcome in graph.repeat_edges[edge][2] for edge in node.repeat_out):
                continue
            return graph, index, outcome
    return None


def _move_key(move: Move | None) -> tuple[Any, ...]:
    if move is None:
        return ("start",)
    if move[0] == RECORD:
        return (RECORD, move[1], move[3])
    return tuple(move)


def after_move(exploration: Exploration, move: Move | None) -> str:
    """Where a finding happens: ``from the start``, or after the host's move that leads there."""
    return "from the start" if move is None else f"after the host's move to {exploration.describe(move)}"


def _offers(exploration: Exploration, states: Iterable[int]) -> list[str]:
    keys: dict[str, None] = {}
    for state in states:
        info = exploration.infos[state] if state < len(exploration.infos) else None
        if info is not None:
            for key, _node, _availability in info.candidates:
                keys.setdefault(key)
    return list(keys)


def _kept_firing(exploration: Exploration, start: int, states: Sequence[int]) -> list[str]:
    """The repeat edges that fire at ``start`` and whose source settles otherwise in none of ``states``."""
    info = exploration.infos[start]
    if info is None or not info.firing:
        return []
    kept = set(info.firing)
    for state in states:
        other = exploration.infos[state] if state < len(exploration.infos) else None
        if other is not None:
            kept -= other.released
    names = []
    for prefix, position in sorted(kept):
        graph = exploration.provider.graphs[prefix.rstrip("/").rsplit(">", 1)[-1]]
        source, target, _accepted = graph.repeat_edges[position]
        names.append(f"{prefix}{graph.nodes[source].id} -> {graph.nodes[target].id}")
    return names


_COMPLETE = {"statusCode": "complete"}


def _dead_issues(
    exploration: Exploration, reach: _Reach, explained: bytearray, out: list[VerifiedIssue]
) -> None:
    """AGV101: blocked states no move leaves for a state with a route.

    Dead states joined by moves (changes of Facts or authorities between
    them) are one dead end, reported at its first state found, where the Run
    is stuck; dead ends stuck at the same node with the same outcome are
    reported once. States in ``explained`` (those after a refused Gate,
    already reported) are left out.
    """
    infos = exploration.infos
    label = f"{exploration.graph}#{exploration.entry}"

    def dead(state: int) -> bool:
        info = infos[state] if state < len(infos) else None
        return (
            info is not None
            and info.status == "blocked"
            and not reach.moves_on[state]
            and not explained[state]
        )

    reverse = exploration.predecessors()
    successors = exploration.successors
    done = bytearray(len(infos))
    reported: set[tuple[str, int, str]] = set()
    for state, info in enumerate(infos):
        if done[state] or info is None or not dead(state):
            continue
        done[state] = 1
        stack = [state]
        while stack:  # the dead end's other states
            current = stack.pop()
            for other in (*successors[current], *reverse[current]):
                if not done[other] and dead(other):
                    done[other] = 1
                    stack.append(other)
        move = exploration.moves[state]
        after = after_move(exploration, move)
        stuck = _stuck(exploration, state)
        if stuck is not None:
            graph, index, settled = stuck
            if (graph.id, index, settled) in reported:
                continue
            reported.add((graph.id, index, settled))
            at = f" at {graph.id}/{graph.nodes[index].id} ({settled}, which no edge out of it takes)"
            hint = (
                f"add an edge from {graph.nodes[index].id} on {settled}, towards a terminal or a step that "
                "recovers, or make the facts it requires possible"
            )
        else:
            graph, index = _where(exploration, move)
            at = ""
            hint = (
                "add an edge for the outcome that leaves it stuck, towards a terminal or a step that recovers"
            )
        message = (
            f"Dead end {after}: {label} is blocked{at} with no way on (no route, and no change of Facts or "
            f"authorities offers one{'; ' + ', '.join(info.codes) if info.codes else ''})"
        )
        out.append(
            VerifiedIssue(
                _issue_at_node("AGV101", message, hint, graph, index),
                exploration,
                state,
                _COMPLETE,
                f"dead end {after}",
            )
        )


def _bottoms_dead(exploration: Exploration, reach: _Reach, region: Sequence[int]) -> bool:
    """Whether every bottom strongly connected part of ``region`` (what no move leaves) holds only dead ends."""
    position = {state: i for i, state in enumerate(region)}
    successors = exploration.successors
    forward = [
        [position[t] for t in successors[s] if t in position] if s < len(successors) else [] for s in region
    ]
    component = components(forward)
    leaves: set[int] = set()
    for i, targets in enumerate(forward):
        if any(component[t] != component[i] for t in targets):
            leaves.add(component[i])
    infos = exploration.infos
    for i, state in enumerate(region):
        if component[i] in leaves:
            continue
        info = infos[state] if state < len(infos) else None
        if info is None or info.status != "blocked" or reach.moves_on[state]:
            return False
    return True


def _trap_issues(
    exploration: Exploration, reach: _Reach, wanted: frozenset[str], out: list[VerifiedIssue]
) -> None:
    """AGV104 and AGV103 where a move enters the states that cannot end, then AGV101 (see :func:`_dead_issues`).

    A trap that ends only in dead ends is left to those; a refused Gate is
    reported as such whatever follows it.
    """
    infos = exploration.infos
    parents = exploration.parents
    moves = exploration.moves
    ends = reach.ends
    seen_groups: set[tuple[Any, ...]] = set()
    refusals: list[int] = []  # states a refused Gate leads to: what follows them is reported with it
    label = f"{exploration.graph}#{exploration.entry}"
    for state, info in enumerate(infos):
        if info is None or ends[state] or info.status == "complete" or info.status == "error":
            continue
        parent = parents[state]
        if parent >= 0 and not ends[parent]:
            continue  # inside the trap: reported where it is entered
        move = moves[state]
        refusal = (
            move is not None
            and move[0] == RECORD
            and move[3] is not None
            and move[2] != "completed"
            and exploration.nodes[move[1]].is_gate
        )
        if refusal:
            refusals.append(state)
        group = _move_key(move)
        if group in seen_groups:
            continue
        seen_groups.add(group)
        graph, index = _where(exploration, move)
        region = reach.forward(state)
        after = after_move(exploration, move)
        if refusal and move is not None:
            key, outcome = move[1], move[2]
            dead = info.status == "blocked" and not reach.moves_on[state]
            offered = _offers(exploration, region)
            code = "AGV104"
            stuck = _stuck(exploration, state) if info.status == "blocked" else None
            where = ""
            hint = (
                f"add an edge from {graph.nodes[index].id} on {outcome} to what a refusal should lead to "
                "(a terminal with terminalOutcome: failed, or a step that reworks the request)"
            )
            if stuck is not None:
                graph, index, settled = stuck  # the fix goes where the Run stops
                where = f" stops at {graph.id}/{graph.nodes[index].id} ({settled}, which no edge out of it takes) and"
                hint = (
                    f"add an edge from {graph.nodes[index].id} on {settled} to what a refusal should lead to "
                    "(a terminal with terminalOutcome: failed, or a step that reworks the request)"
                )
            message = (
                f"Refusing Gate {key} (recording {outcome}) leads nowhere: the Run{where} can reach no terminal "
                f"of {label} after it"
                + ("; it is blocked for good" if dead else f"; it is offered only {listing(offered)}")
            )
            title = f"refusing {key} ({outcome}) leads nowhere"
        elif _bottoms_dead(exploration, reach, region):
            continue  # every way from here ends in a dead end, reported as such
        else:
            code = "AGV103"
            offered = _offers(exploration, region)
            blocked_later = any(
                s < len(infos) and (other := infos[s]) is not None and other.status == "blocked"
                for s in region
            )
            loops = _kept_firing(exploration, state, region)
            message = (
                f"Trap {after}: no terminal of {label} can be reached whatever the host does; from there it "
                f"offers only {listing(offered) if offered else 'nothing'}"
                + (", or nothing at all (blocked)" if blocked_later else "")
                + (f"; repeat {listing(loops)} keeps firing" if loops else "")
            )
            hint = (
                "give the loop an exit: an edge on the outcome that ends it towards a terminal, or re-offer the "
                "step whose recorded outcome keeps it going"
            )
            title = f"no terminal can be reached {after}"
        if code in wanted:
            issue = _issue_at_node(code, message, hint, graph, index)
            out.append(VerifiedIssue(issue, exploration, state, _COMPLETE, title))
    if "AGV101" in wanted:
        explained = exploration.reaching_from(refusals)
        _dead_issues(exploration, reach, explained, out)


def _error_issues(exploration: Exploration, wanted: frozenset[str], out: list[VerifiedIssue]) -> None:
    if "AGV102" not in wanted:
        return
    seen: set[tuple[str, ...]] = set()
    label = f"{exploration.graph}#{exploration.entry}"
    for state, info in enumerate(exploration.infos):
        if info is None or info.status != "error" or info.codes in seen:
            continue
        seen.add(info.codes)
        move = exploration.moves[state]
        graph, index = _where(exploration, move)
        after = after_move(exploration, move)
        message = (
            f"Error state {after}: {label} evaluates to error ({', '.join(info.codes) or 'no diagnostic'})"
        )
        hint = (
            "two terminals with different outcomes are reached together: make their branches exclusive"
            if "terminal-outcome-ambiguous" in info.codes
            else "see the evaluation's diagnostics in the reproducing test"
        )
        out.append(
            VerifiedIssue(
                _issue_at_node("AGV102", message, hint, graph, index),
                exploration,
                state,
                _COMPLETE,
                f"error state {after}",
            )
        )


def _repeat_issues(exploration: Exploration, wanted: frozenset[str], out: list[VerifiedIssue]) -> None:
    """AGV105: a repeat edge that fires in a state from which no state is reachable where its source settles
    otherwise (or the Run ends)."""
    if "AGV105" not in wanted:
        return
    infos = exploration.infos
    firing: dict[tuple[str, int], list[int]] = {}
    for state, info in enumerate(infos):
        if info is not None:
            for edge in info.firing:
                firing.setdefault(edge, []).append(state)
    for (prefix, position), states in sorted(firing.items()):
        edge = (prefix, position)
        # The loop ends where its source settles to an outcome the edge does not accept, or the Run ends.
        stops = [
            i
            for i, info in enumerate(infos)
            if info is None or info.status == "complete" or edge in info.released
        ]
        can_stop = exploration.reaching(stops)
        endless = next((s for s in states if not can_stop[s]), None)
        if endless is None:
            continue
        graph = exploration.provider.graphs[prefix.rstrip("/").rsplit(">", 1)[-1]]
        source, target, accepted = graph.repeat_edges[position]
        edge_position = [i for i, e in enumerate(graph.definition.edges) if e.kind == "repeat"][position]
        definition = graph.definition.edges[edge_position]
        name = f"{graph.nodes[source].id}->{graph.nodes[target].id}"
        after = after_move(exploration, exploration.moves[endless])
        message = (
            f"Repeat edge {graph.id}: {edge_label(definition)} in frame {prefix.rstrip('/')} fires {after}, and "
            f"{graph.nodes[source].id} keeps the outcome it fires on ({listing(sorted(accepted))}) in every "
            "state the host can reach from there: the loop never ends"
        )
        hint = (
            f"let {graph.nodes[source].id} settle otherwise once {graph.nodes[target].id} is done again: re-arm it "
            "as well, prove it with satisfiedBy, or leave the loop with an edge on the outcome"
        )
        pointer = f"/edges/{edge_position}"
        issue = Issue("AGV105", message, graph.path, pointer, pointer, hint, graph=graph.id, edge=name)
        out.append(VerifiedIssue(issue, exploration, endless, _COMPLETE, f"repeat {name} never ends {after}"))


def _bound_issue(exploration: Exploration, bound: str, out: list[VerifiedIssue]) -> None:
    graph = exploration.provider.graphs[exploration.graph]
    entry = graph.index[graph.entrypoints[exploration.entry]]
    frontier = len(exploration.valuations) - exploration.evaluated
    message = (
        f"Exploration of {exploration.graph}#{exploration.entry} stopped at {bound} after "
        f"{exploration.evaluated} states ({frontier} more found, not evaluated): the findings hold for the states "
        "explored, and nothing is proven about the others"
    )
    hint = "raise --max-states or --time-budget, or verify one Graph at a time (--graph, --entry)"
    out.append(VerifiedIssue(_issue_at_node("AGV301", message, hint, graph, entry)))


def _absence_issues(
    explorations: Sequence[Exploration], wanted: frozenset[str], out: list[VerifiedIssue]
) -> None:
    """AGV106/AGV107 for every Graph whose every exploration was complete."""
    if not wanted & _ABSENCE_RULES or not explorations:
        return
    provider = explorations[0].provider
    covering: dict[str, list[Exploration]] = {}
    for exploration in explorations:
        for graph_id in dict.fromkeys(
            g.id for g, _node in closure(provider, exploration.graph, exploration.entry)
        ):
            covering.setdefault(graph_id, []).append(exploration)
    for graph_id, graph in provider.graphs.items():
        runs = covering.get(graph_id)
        if not runs or not all(run.complete for run in runs):
            continue
        reached: set[int] = set()
        taken: set[int] = set()
        for run in runs:
            reached |= run.reached.get(graph_id, set())
            taken |= run.taken.get(graph_id, set())
        entries = listing(sorted({f"{run.graph}#{run.entry}" for run in runs}))
        for node in graph.nodes:
            if "AGV106" in wanted and node.index not in reached:
                message = f"Node {graph.id}/{node.id} is reached in no state a host can reach from {entries}"
                hint = "add the edge or outcome that leads to it, or delete it"
                out.append(VerifiedIssue(_issue_at_node("AGV106", message, hint, graph, node.index)))
        if "AGV107" not in wanted:
            continue
        for position, edge in enumerate(graph.definition.edges):
            if position in taken or graph.index[edge.from_] not in reached:
                continue
            pointer = f"/edges/{position}"
            message = (
                f"Edge {graph.id}: {edge_label(edge)} is taken in no state a host can reach from {entries}: "
                f"{edge.from_} never settles to {listing(edge.outcomes or ('completed',))} there"
            )
            hint = "name the outcomes its source can end with, or delete the edge"
            out.append(
                VerifiedIssue(
                    Issue(
                        "AGV107",
                        message,
                        graph.path,
                        pointer,
                        pointer,
                        hint,
                        graph=graph.id,
                        edge=f"{edge.from_}->{edge.to}",
                    )
                )
            )


def analyse(explorations: Sequence[Exploration], wanted: frozenset[str]) -> list[VerifiedIssue]:
    """The issues of the rules in ``wanted`` for these explorations (one Provider), in rule order per exploration."""
    out: list[VerifiedIssue] = []
    for exploration in explorations:
        if exploration.stopped is not None and "AGV301" in wanted:
            bound = "its bound of states" if exploration.stopped == "max-states" else "its time budget"
            _bound_issue(exploration, bound, out)
        reach = _Reach(exploration)
        _error_issues(exploration, wanted, out)
        _trap_issues(exploration, reach, wanted, out)
        _repeat_issues(exploration, wanted, out)
    _absence_issues(explorations, wanted, out)
    return out
