"""Replay a Run: its state and evaluation after every event, recomputed with the one evaluator.

:func:`replay` walks a Run's events once, in order, and yields a
:class:`ReplayStep` per event: the Facts, Outcomes and authorities the Run
held right after it, what the event changed, and the evaluation of the Run's
Graph and entry for that state (status, revision, primary route).

What the events record decides what can be recomputed:

* Outcomes are exact: every ``node.outcome-recorded`` event carries the
  outcome, its time and its detail.
* Authorities are exact from the first ``authorities.updated`` (its detail is
  the whole list) and after ``run.resumed`` / ``run.forked`` (they clear
  them). Before the first such event they are the Run's own when no event
  changes them later, and not recorded otherwise.
* Facts events name the keys they changed, not the values. A key's value is
  known from the last event that changed it on (the Run holds it); before
  that event it is not recorded. Before a ``facts.replaced`` (or a
  ``run.forked`` that names keys: a fork given its own Facts) no Fact is
  recorded (the replacement hides what was there).

A step says what it could not recompute (``unrecorded_facts``,
``all_facts_unrecorded``, ``authorities_unrecorded``); when nothing is
missing, ``exact`` is true and the step's evaluation equals ``evaluate`` of
the Run as it was right after that event. Unrecorded values are left out of
the state the step evaluates.

Rules: pure (no I/O, no clock); one pass over the events: the state is
carried from one event to the next, never rebuilt from the start, so a step
costs one evaluation (which reads the whole state, as every evaluation does)
plus a copy of the part of the state the event changed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal, NamedTuple

import msgspec

from .errors import AgentGraphError
from .evaluate import evaluate
from .model import Evaluation, OutcomeRecord, RouteSummary, Run, RunEvent, StatusCode
from .provider import Provider

__all__ = ["ReplayStep", "RunState", "StateChange", "replay", "replay_state", "run_states"]

#: Event types that change the Facts (and name the keys they changed). A ``run.forked`` that names
#: keys gave the fork its Facts: it replaces them, as ``facts.replaced`` does.
_FACTS_EVENTS = ("facts.updated", "facts.replaced")
#: Event types that set the session authorities to a known list.
_CLEARING_EVENTS = frozenset({"run.resumed", "run.forked"})


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


def _fact_keys(event: RunEvent) -> list[str] | None:
    """The keys a Facts event names, or None when its detail does not say."""
    detail = event.detail
    if not isinstance(detail, Mapping):
        return None
    keys = detail.get("keys")
    if not isinstance(keys, list) or not all(isinstance(key, str) for key in keys):
        return None
    return keys


def _authority_list(event: RunEvent) -> tuple[str, ...] | None:
    """The authorities an event sets, or None when it sets none (or does not say which)."""
    if event.type in _CLEARING_EVENTS:
        return ()
    if event.type != "authorities.updated":
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


def _check_run(run: Any) -> None:
    if not isinstance(run, Run):
        raise AgentGraphError("argument-invalid", "replay needs a Run (a store's load() or ag.Run)")
    for index, event in enumerate(run.events, start=1):
        if event.sequence != index:
            raise AgentGraphError(
                "run-invalid",
                f"Event {index} of Run {run.id} has sequence {event.sequence}; "
                "events must be numbered 1, 2, 3 … without gaps",
            )
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


def run_states(run: Run) -> Iterator[RunState]:
    """The state of ``run`` right after each of its events, in one pass (``run-invalid`` as :func:`replay`)."""
    _check_run(run)
    events = run.events
    final_facts = run.facts

    # One backward look: when each Facts key was last changed, the last replacement and whether
    # anything sets the authorities.
    last_replace = 0
    last_change: dict[str, int] = {}
    first_authorities = 0
    for event in events:
        if event.type in _FACTS_EVENTS or (event.type == "run.forked" and _fact_keys(event) is not None):
            keys = _fact_keys(event)
            if event.type != "facts.updated" or keys is None:
                last_replace = event.sequence
            for key in keys or ():
                last_change[key] = event.sequence
        if first_authorities == 0 and _authority_list(event) is not None:
            first_authorities = event.sequence
    arrivals: dict[int, list[str]] = {}
    pending: set[str] = set()
    for key in final_facts:
        known_from = max(last_change.get(key, 1), last_replace, 1)
        arrivals.setdefault(known_from, []).append(key)
        pending.add(key)

    facts: dict[str, Any] = {}
    outcomes: dict[str, OutcomeRecord] = {}
    outcome_json: dict[str, dict[str, Any]] = {}
    authorities: tuple[str, ...] = run.authorities if first_authorities == 0 else ()
    authorities_known = first_authorities in (0, 1)
    unrecorded: tuple[str, ...] = ()

    for event in events:
        sequence = event.sequence
        changes: list[StateChange] = []
        hidden = sequence < last_replace

        # Facts: a key's value is known from the last event that changed it on; before, not recorded.
        arrived = arrivals.get(sequence, ())
        if arrived:
            facts = dict(facts)
            for key in arrived:
                facts[key] = final_facts[key]
                pending.discard(key)
        if arrived or sequence == 1 or sequence == last_replace:
            unrecorded = tuple(sorted(pending))
        named = _fact_keys(event) if event.type in (*_FACTS_EVENTS, "run.forked") else None
        for key in dict.fromkeys([*(named or ()), *arrived]):
            changes.append(
                StateChange(
                    part="facts",
                    key=key,
                    after=facts.get(key, msgspec.UNSET),
                    before_recorded=sequence == 1,
                    after_recorded=key in facts,
                )
            )

        if event.type == "node.outcome-recorded" and event.node is not None and event.outcome is not None:
            record = OutcomeRecord(outcome=event.outcome, recorded_at=event.at, detail=event.detail)
            before_record = outcome_json.get(event.node)
            outcomes = {**outcomes, event.node: record}
            outcome_json = {**outcome_json, event.node: _record_json(record)}
            changes.append(
                StateChange(
                    part="outcomes",
                    key=event.node,
                    before=before_record if before_record is not None else msgspec.UNSET,
                    after=outcome_json[event.node],
                )
            )

        setting = _authority_list(event)
        if setting is not None:
            if setting != authorities or not authorities_known:
                changes.append(
                    StateChange(
                        part="authorities",
                        key="",
                        before=list(authorities) if authorities_known else msgspec.UNSET,
                        after=list(setting),
                        before_recorded=authorities_known,
                    )
                )
            authorities = setting
            authorities_known = True
        elif sequence == 1 and authorities_known and authorities:
            changes.append(StateChange(part="authorities", key="", after=list(authorities)))

        yield RunState(
            event=event,
            facts={} if hidden else facts,
            outcomes=outcomes,
            outcome_json=outcome_json,
            authorities=authorities,
            changes=tuple(changes),
            unrecorded_facts=() if hidden else unrecorded,
            all_facts_unrecorded=hidden,
            authorities_unrecorded=not authorities_known,
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
