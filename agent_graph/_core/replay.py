"""Replay a Run: its state and evaluation after every event, recomputed with the one evaluator.

:func:`replay` walks a Run's events once, in order, and yields a
:class:`ReplayStep` per event: the Facts, Outcomes and authorities the Run
held right after it, what the event changed, and the evaluation of the Run's
Graph and entry for that state (status, revision, primary route).

What the events record decides what can be recomputed:

* Outcomes are exact: every ``node.outcome-recorded`` event carries the
  outcome, its time and its detail.
* Authorities are exact from ``run.started`` when it records the list the Run
  started with (agent-graph's stores write it), else from the first
  ``authorities.updated`` (its detail is the whole list); ``run.resumed`` and
  ``run.forked`` clear them. Before the first such event they are the Run's
  own when no event changes them later, and not recorded otherwise.
* Facts are exact wherever the events record their values
  (:mod:`agent_graph._core.fact_events`: ``run.started`` the Facts the Run
  started with, each Facts event what it set or merged, a replacement the new
  Facts), carried forward event by event with the writers' own merge. An
  event that names its keys but not their values (written by the reference
  toolchain, or by agent-graph before events recorded values) leaves those
  keys unrecorded until an event records them again or until their last
  change, from which on the Run holds their value. Where even the key set is
  unknown (a ``run.started`` without values), the keys the Run holds are
  unrecorded, and before a later replacement no Fact is (it may have removed
  keys no event names).

A step says what it could not recompute (``unrecorded_facts``,
``all_facts_unrecorded``, ``authorities_unrecorded``); when nothing is
missing, ``exact`` is true and the step's evaluation equals ``evaluate`` of
the Run as it was right after that event. Unrecorded values are left out of
the state the step evaluates.

Rules: pure (no I/O, no clock); one pass over the events: the state is
carried from one event to the next, never rebuilt from the start, so a step
costs one evaluation (which reads the whole state, as every evaluation does)
plus a copy of the part of the state the event changed. Values the events
record that do not end as the Run's own Facts are ``run-invalid``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal, NamedTuple

import msgspec

from .errors import AgentGraphError
from .evaluate import evaluate
from .fact_events import FactsChange, deep_merge, facts_change_of, same_json
from .model import Evaluation, OutcomeRecord, RouteSummary, Run, RunEvent, StatusCode
from .provider import Provider

_UNSET: Any = msgspec.UNSET

__all__ = ["ReplayStep", "RunState", "StateChange", "check_events", "replay", "replay_state", "run_states"]

#: Event types that clear the session authorities.
_CLEARING_EVENTS = frozenset({"run.resumed", "run.forked"})
#: Event types whose detail may record the whole list of authorities (``run.started``: those it started with).
_AUTHORITY_EVENTS = frozenset({"authorities.updated", "run.started"})


class StateChange(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, rename="camel"):
    """One change an event made: a Facts key, an Outcome's state key or the authorities.

    ``before`` / ``after`` are the values (plain JSON; an Outcome as its
    record); ``msgspec.UNSET`` means absent, or not recorded when
    ``before_recorded`` / ``after_recorded`` is false.
    """

    part: Literal["facts", "outcomes", "authorities"]
    key: str
    before: Any = msgspec.UNSET
    after: Any = msgspec.UNSET
    before_recorded: bool = True
    after_recorded: bool = True


class ReplayStep(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """The Run right after one of its events, and its evaluation then."""

    event: RunEvent
    facts: dict[str, Any]
    outcomes: dict[str, OutcomeRecord]
    authorities: tuple[str, ...]
    changes: tuple[StateChange, ...]
    evaluation: Evaluation
    exact: bool
    unrecorded_facts: tuple[str, ...] = ()
    all_facts_unrecorded: bool = False
    authorities_unrecorded: bool = False

    @property
    def status(self) -> StatusCode:
        """The evaluation's status code at this event."""
        return self.evaluation.status_code

    @property
    def revision(self) -> str:
        """The evaluation's revision at this event."""
        return self.evaluation.revision

    @property
    def primary_route(self) -> RouteSummary | None:
        """The route offered at this event (None when complete, blocked or in error)."""
        return self.evaluation.primary_route


def _authority_list(event: RunEvent) -> tuple[str, ...] | None:
    """The authorities an event sets, or None when it sets none (or does not say which)."""
    if event.type in _CLEARING_EVENTS:
        return ()
    if event.type not in _AUTHORITY_EVENTS:
        return None
    detail = event.detail
    values = detail.get("authorities") if isinstance(detail, Mapping) else None
    if not isinstance(values, list) or not all(isinstance(value, str) for value in values):
        return None
    return tuple(values)


def _record_json(record: OutcomeRecord) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(record)
    return data


def _check(provider: Any, run: Any) -> None:
    if not isinstance(provider, Provider):
        raise AgentGraphError("argument-invalid", "replay needs the loaded Provider (ag.load_provider)")
    if not isinstance(run, Run):
        raise AgentGraphError("argument-invalid", "replay needs a Run (a store's load() or ag.Run)")
    if run.provider != provider.manifest.id:
        raise AgentGraphError(
            "run-provider-mismatch",
            f"Run {run.id} belongs to Provider {run.provider}, not {provider.manifest.id}",
        )
    if run.graph not in provider.graphs:
        raise provider.graph_missing(run.graph)


def check_events(run: Run, where: str = "") -> None:
    """``run-invalid`` unless the Run's events are numbered 1..n without gaps or duplicates.

    ``where`` (the Run's file or store) starts the message when given.
    """
    for index, event in enumerate(run.events, start=1):
        if event.sequence != index:
            raise AgentGraphError(
                "run-invalid",
                f"{f'{where}: event' if where else 'Event'} {index} of Run {run.id} has sequence "
                f"{event.sequence}; events must be numbered 1, 2, 3 … without gaps",
            )


def _check_run(run: Any) -> None:
    if not isinstance(run, Run):
        raise AgentGraphError("argument-invalid", "replay needs a Run (a store's load() or ag.Run)")
    check_events(run)
    if not run.events:
        raise AgentGraphError("run-invalid", f"Run {run.id} has no events to replay")
    final: dict[str, str] = {}
    for event in run.events:
        if event.type == "node.outcome-recorded" and event.node is not None and event.outcome is not None:
            final[event.node] = event.outcome
    held = {key: record.outcome for key, record in run.outcomes.items()}
    if final != held:
        missing = sorted(set(held) ^ set(final)) or sorted(k for k in held if held[k] != final.get(k))
        raise AgentGraphError(
            "run-invalid",
            f"The events of Run {run.id} do not account for its Outcomes (state key {missing[0]!r:.80} differs); "
            "a Run file edited by hand cannot be replayed",
        )


class RunState(NamedTuple):
    """The state of a Run right after one event, as its events record it (no evaluation)."""

    event: RunEvent
    facts: dict[str, Any]
    outcomes: dict[str, OutcomeRecord]
    outcome_json: dict[str, dict[str, Any]]
    authorities: tuple[str, ...]
    changes: tuple[StateChange, ...]
    unrecorded_facts: tuple[str, ...]
    all_facts_unrecorded: bool
    authorities_unrecorded: bool


class _Facts:
    """The Facts as the events record them so far: known values, keys whose value is not recorded, and
    whether the key set itself is known (``open``: keys may exist that no event names).

    ``in_place``: change ``known`` and ``unknown`` where they are (a walk that keeps no state of an
    earlier event); otherwise copy on write, so a dict a step holds is never changed.
    """

    __slots__ = ("in_place", "known", "open", "unknown")

    def __init__(self, *, in_place: bool = False) -> None:
        self.known: dict[str, Any] = {}
        self.unknown: set[str] = set()
        self.open = True
        self.in_place = in_place

    def apply(self, change: FactsChange) -> None:
        """Apply one event's change: time linear in the change (a copy of ``known`` unless in place)."""
        mode, keys, values = change
        if mode == "start" or mode == "replace":
            self.known = dict(values) if values is not None else {}
            self.unknown = set(keys) if values is None and keys is not None else set()
            self.open = values is None and keys is None
            return
        known = self.known if self.in_place else dict(self.known)
        if values is None:  # a merge that names its keys but not their values
            for key in keys or ():
                known.pop(key, None)
                self.unknown.add(key)
        elif mode == "set":
            known.update(values)
            self.unknown.difference_update(values)
        else:  # a deep merge: exact where the value merged into is known
            for key, value in values.items():
                if key in known:
                    known[key] = deep_merge({key: known[key]}, {key: value})[key]
                elif key in self.unknown or self.open:
                    self.unknown.add(key)
                else:
                    known[key] = value
        self.known = known

    def arrive(self, keys: list[str], final: Mapping[str, Any]) -> None:
        """The values of ``keys`` from the Run itself (nothing changes them after this event), where not
        recorded: one copy of ``known`` for all of them (unless in place)."""
        missing = [key for key in keys if key not in self.known and (key in self.unknown or self.open)]
        if not missing:
            return
        known = self.known if self.in_place else dict(self.known)
        for key in missing:
            known[key] = final[key]
            self.unknown.discard(key)
        self.known = known

    def unrecorded(self, final: Mapping[str, Any]) -> tuple[str, ...]:
        """The keys the Run may hold whose value is not recorded, sorted (costs the keys, not the events)."""
        names = self.unknown | final.keys() if self.open else self.unknown
        return tuple(sorted(key for key in names if key not in self.known))


def _facts_changes(
    sequence: int, change: FactsChange | None, before: _Facts, after: _Facts, arrived: list[str]
) -> list[StateChange]:
    """What an event did to the Facts, key by key: values where the events record them."""
    names: dict[str, None] = {}
    if change is not None:
        mode, keys, values = change
        if mode in ("start", "replace") and values is not None:
            names.update(dict.fromkeys(before.known))
            names.update(dict.fromkeys(before.unknown))
            names.update(dict.fromkeys(values))
        elif values is not None:
            names.update(dict.fromkeys(values))
        else:
            names.update(dict.fromkeys(keys or ()))
    names.update(dict.fromkeys(arrived))
    found: list[StateChange] = []
    for key in names:
        was = before.known.get(key, _UNSET)
        now = after.known.get(key, _UNSET)
        was_recorded = sequence == 1 or was is not _UNSET or (not before.open and key not in before.unknown)
        now_recorded = now is not _UNSET or (not after.open and key not in after.unknown)
        if was_recorded and now_recorded and was is not _UNSET and now is not _UNSET and same_json(was, now):
            continue  # recorded, and nothing changed
        if was_recorded and now_recorded and was is _UNSET and now is _UNSET:
            continue
        found.append(
            StateChange(
                part="facts",
                key=key,
                before=was if was_recorded else _UNSET,
                after=now,
                before_recorded=was_recorded,
                after_recorded=now_recorded,
            )
        )
    return found


class _History(NamedTuple):
    """One look at the whole history: each event's Facts change, the keys whose value arrives from the
    Run itself at each event, the last replacement and the first event that sets the authorities."""

    changes: list[FactsChange | None]
    arrivals: dict[int, list[str]]
    last_replace: int
    first_authorities: int


def _history(run: Run) -> _History:
    changes = [facts_change_of(event.type, event.detail) for event in run.events]
    last_replace = 0
    last_change: dict[str, int] = {}
    first_authorities = 0
    for event, change in zip(run.events, changes, strict=True):
        if change is not None and change.mode != "start":
            if change.mode == "replace":
                last_replace = event.sequence
            for key in change.keys or ():
                last_change[key] = event.sequence
        if first_authorities == 0 and _authority_list(event) is not None:
            first_authorities = event.sequence
    arrivals: dict[int, list[str]] = {}
    for key in run.facts:
        arrivals.setdefault(max(last_change.get(key, 1), last_replace, 1), []).append(key)
    return _History(changes, arrivals, last_replace, first_authorities)


def run_states(run: Run) -> Iterator[RunState]:
    """The state of ``run`` right after each of its events, one at a time (``run-invalid`` as :func:`replay`).

    The Facts are carried forward from the values the events record
    (:mod:`agent_graph._core.fact_events`); where an event records none (a Run
    written by the reference toolchain, or before events recorded values), a
    key's value is known from the last event that changed it on (the Run holds
    it), and the key set is unknown before a replacement that records nothing.

    The whole history is checked before the first state is answered (a walk
    that changes the Facts in place, keeping nothing of earlier events); then
    each state is made as it is asked for, so a caller that keeps none holds
    one state at a time. A state shares with the one before what the event
    left as it was (the Facts, the Outcomes, the unrecorded keys), and an
    event costs what it changed: a Facts event a copy of the Facts, an
    outcome a copy of the Outcomes, any other event nothing more.
    """
    _check_run(run)
    history = _history(run)
    checked = _Facts(in_place=True)
    for event, change in zip(run.events, history.changes, strict=True):
        if change is not None:
            checked.apply(change)
        checked.arrive(history.arrivals.get(event.sequence, []), run.facts)
    _check_facts(run, checked)
    return _states(run, history)


def _states(run: Run, history: _History) -> Iterator[RunState]:
    final_facts = run.facts
    facts = _Facts()
    outcomes: dict[str, OutcomeRecord] = {}
    outcome_json: dict[str, dict[str, Any]] = {}
    authorities: tuple[str, ...] = run.authorities if history.first_authorities == 0 else ()
    authorities_known = history.first_authorities in (0, 1)
    unrecorded: tuple[str, ...] = ()

    for event, change in zip(run.events, history.changes, strict=True):
        sequence = event.sequence
        found: list[StateChange] = []

        arrived = history.arrivals.get(sequence, [])
        if change is not None or arrived or sequence == 1:
            before = _Facts()
            before.known, before.unknown, before.open = facts.known, set(facts.unknown), facts.open
            if change is not None:
                facts.apply(change)
            facts.arrive(arrived, final_facts)
            found.extend(_facts_changes(sequence, change, before, facts, arrived))
            unrecorded = facts.unrecorded(final_facts)
        # Keys may exist that no event names only until a later replacement: after it, the Run's own.
        hidden = facts.open and sequence < history.last_replace

        if event.type == "node.outcome-recorded" and event.node is not None and event.outcome is not None:
            record = OutcomeRecord(outcome=event.outcome, recorded_at=event.at, detail=event.detail)
            before_record = outcome_json.get(event.node)
            outcomes = {**outcomes, event.node: record}
            outcome_json = {**outcome_json, event.node: _record_json(record)}
            found.append(
                StateChange(
                    part="outcomes",
                    key=event.node,
                    before=before_record if before_record is not None else _UNSET,
                    after=outcome_json[event.node],
                )
            )

        setting = _authority_list(event)
        if setting is not None:
            if setting != authorities or not authorities_known or (sequence == 1 and setting):
                found.append(
                    StateChange(
                        part="authorities",
                        key="",
                        before=list(authorities) if authorities_known and sequence != 1 else _UNSET,
                        after=list(setting),
                        before_recorded=authorities_known,
                    )
                )
            authorities = setting
            authorities_known = True
        elif sequence == 1 and authorities_known and authorities:
            found.append(StateChange(part="authorities", key="", after=list(authorities)))

        yield RunState(
            event=event,
            facts={} if hidden else facts.known,
            outcomes=outcomes,
            outcome_json=outcome_json,
            authorities=authorities,
            changes=tuple(found),
            unrecorded_facts=() if hidden else unrecorded,
            all_facts_unrecorded=hidden,
            authorities_unrecorded=not authorities_known,
        )


def _check_facts(run: Run, facts: _Facts) -> None:
    """``run-invalid`` unless the values the events record end as the Run's own Facts."""
    final = run.facts
    known = facts.known
    agrees = all(key in final and same_json(value, final[key]) for key, value in known.items())
    if agrees and not facts.open:
        agrees = set(known) | facts.unknown == set(final)
    if not agrees:
        differing = sorted(set(known) ^ set(final)) or sorted(
            key for key in known if key in final and not same_json(known[key], final[key])
        )
        raise AgentGraphError(
            "run-invalid",
            f"The events of Run {run.id} do not account for its Facts (key {differing[0]!r:.80} differs); "
            "a Run file edited by hand cannot be replayed",
        )


def replay(provider: Provider, run: Run) -> Iterator[ReplayStep]:
    """Yield a :class:`ReplayStep` for each event of ``run``, in order.

    Step ``n`` holds the Facts, Outcomes and authorities right after event
    ``n``, what the event changed and the evaluation of ``run.graph`` /
    ``run.entry`` for that state. Raises ``run-provider-mismatch`` for a Run
    of another Provider, ``graph-missing`` for a Graph the Provider does not
    have and ``run-invalid`` for events not numbered 1..n or that do not
    account for the Run's Outcomes (before the first step is yielded).
    """
    _check(provider, run)
    for state in run_states(run):
        evaluation = evaluate(
            provider,
            run.graph,
            run.entry,
            facts=state.facts,
            outcomes=state.outcome_json,
            authorities=state.authorities,
        )
        yield ReplayStep(
            event=state.event,
            facts=state.facts,
            outcomes=state.outcomes,
            authorities=state.authorities,
            changes=state.changes,
            evaluation=evaluation,
            exact=not (state.unrecorded_facts or state.all_facts_unrecorded or state.authorities_unrecorded),
            unrecorded_facts=state.unrecorded_facts,
            all_facts_unrecorded=state.all_facts_unrecorded,
            authorities_unrecorded=state.authorities_unrecorded,
        )


def replay_state(provider: Provider, run: Run, at: int) -> ReplayStep:
    """The :class:`ReplayStep` right after event ``at`` (1..n; ``argument-invalid`` outside)."""
    if isinstance(at, bool) or not isinstance(at, int):
        raise AgentGraphError("argument-invalid", f"at must be an event number, not {at!r:.60}")
    count = len(run.events) if isinstance(run, Run) else 0
    if not 1 <= at <= count:
        raise AgentGraphError(
            "argument-invalid", f"at must be an event number of the Run, from 1 to {count}, not {at}"
        )
    for step in replay(provider, run):
        if step.event.sequence == at:
            return step
    raise AgentGraphError("argument-invalid", f"Run has no event {at}")  # pragma: no cover - bounds checked
