"""Run transitions: what every Run store does to a Run, as pure functions.

A Run store (files, SQLite, PostgreSQL) differs only in how it reads, locks
and writes; what a change *is* lives here, once. Each ``*_change`` function
returns ``change(head, at) -> (head, events)``: given the Run's head (its
state and number of events, not the events themselves) as it is inside the
store's lock or transaction and the time of the write, it answers the next
head and the events to append. :func:`guarded` stamps ``updatedAt``; the store
writes. A write therefore costs what it adds, not what the Run holds.

Rules:

* Pure: no I/O, no clock, no environment. The time comes in as ``at``.
* Events are numbered 1..n without gaps: a new event is the last one's
  sequence plus one, and :func:`check_events` refuses anything else.
* A change that refuses (``run-revision-stale``) raises inside the store's
  lock or transaction, so nothing is written.
* Deep merges walk nested objects with an explicit stack, never by recursion.
* Events record the values they set: ``run.started`` the Facts and
  authorities the Run starts with, a Facts event what it changed
  (:mod:`agent_graph._core.fact_events`), so a replay is exact at every event.
* Every value handed over (Facts, a ``detail``, a state key, authorities) is
  checked and copied to plain JSON first (:func:`run_facts`,
  :func:`run_detail`): ``json-invalid`` for anything that is not JSON (sets,
  bytes, non-string keys, NaN, infinities), ``json-too-deep`` for nesting a
  Run file could not be read back with. A Run holds exact built-in types only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import msgspec

from .._core.canonical import utf16_key
from .._core.errors import AgentGraphError
from .._core.evaluate import Candidate, evaluate, evaluate_with_candidates
from .._core.fact_events import deep_merge, merge_delta, set_delta
from .._core.model import OUTCOMES, Evaluation, OutcomeRecord, Run, RunEvent, RunHead
from .._core.normalize import normalize_authorities
from .._core.plain import is_plain_json, plain_json, plain_string
from .._core.provider import Provider
from .._core.replay import check_events
from .._syntax.parse import MAX_DEPTH

__all__ = [
    "DETAIL_MAX_DEPTH",
    "FACTS_MAX_DEPTH",
    "RUN_SCHEMA",
    "Change",
    "Delta",
    "apply_change",
    "authorities_change",
    "check_events",
    "checkpoint_event",
    "deep_merge",
    "evaluation_input",
    "facts_change",
    "guarded",
    "head_of",
    "new_run",
    "record_change",
    "resumed_run",
    "run_detail",
    "run_facts",
    "with_events",
    "with_values",
]

RUN_SCHEMA = "agent-graph.run.v1"

R = TypeVar("R", Run, RunHead)

#: A Run's new head and the events a change appends.
Delta = tuple[RunHead, tuple[RunEvent, ...]]
#: ``change(head, at) -> (new head, new events)``: what a write does, given the head inside the lock.
Change = Callable[[RunHead, str], Delta]

#: Nesting of the Facts object a Run can hold: the Run object is level 1, ``facts`` level 2.
FACTS_MAX_DEPTH = MAX_DEPTH - 1
#: Nesting of a ``detail`` a Run can hold: it sits inside a record (or event) inside ``outcomes`` (or ``events``).
DETAIL_MAX_DEPTH = MAX_DEPTH - 3


def run_facts(facts: Any, label: str = "Run facts") -> dict[str, Any]:
    """Facts a Run can hold: a plain copy of a JSON object (``json-object-required``, ``json-invalid``, ``json-too-deep``)."""
    if facts is None:
        return {}
    if not isinstance(facts, Mapping):
        raise AgentGraphError("json-object-required", f"{label} must be a JSON object")
    source = facts if isinstance(facts, dict) else dict(facts.items())
    plain: dict[str, Any] = plain_json(source, label, max_depth=FACTS_MAX_DEPTH, allow_nan=False)
    return plain


def run_detail(detail: Any, label: str = "Run detail") -> Any:
    """A ``detail`` a Run can hold: a plain copy of a JSON value (``json-invalid``, ``json-too-deep``)."""
    if detail is msgspec.UNSET:
        return detail
    return plain_json(detail, label, max_depth=DETAIL_MAX_DEPTH, allow_nan=False)


def evaluation_input(run: Run | RunHead) -> dict[str, Any]:
    """The evaluation input a Run holds: ``{facts, outcomes, authorities, workspace?}``."""
    data: dict[str, Any] = {
        "facts": dict(run.facts),
        "outcomes": {key: msgspec.to_builtins(record) for key, record in run.outcomes.items()},
        "authorities": list(run.authorities),
    }
    if run.workspace is not None:
        data["workspace"] = run.workspace
    return data


def evaluate_run_candidates(provider: Provider, run: Run | RunHead) -> tuple[Evaluation, list[Candidate]]:
    """The Evaluation of a Run with the state it holds, and every candidate route (what a step is made of)."""
    state = evaluation_input(run)
    return evaluate_with_candidates(
        provider, run.graph, run.entry, state["facts"], state["outcomes"], state["authorities"]
    )


def evaluate_run(provider: Provider, run: Run | RunHead) -> Evaluation:
    """The Evaluation of a Run's graph and entry with the state it holds (the revision a record is guarded by)."""
    state = evaluation_input(run)
    return evaluate(
        provider,
        run.graph,
        run.entry,
        facts=state["facts"],
        outcomes=state["outcomes"],
        authorities=state["authorities"],
    )


def _event(head: RunHead, at: str, kind: str, **fields: Any) -> RunEvent:
    return RunEvent(sequence=head.events + 1, at=at, type=kind, **fields)


def _appended(head: RunHead, event: RunEvent, **changed: Any) -> Delta:
    return msgspec.structs.replace(head, events=head.events + 1, **changed), (event,)


def _retyped(kind: type[R], value: Run | RunHead, events: Any) -> R:
    """``value`` as a ``kind`` (a Run and its head share every field but ``events``) with ``events``."""
    fields = msgspec.structs.asdict(value)
    fields["events"] = events
    return kind(**fields)


def head_of(run: Run) -> RunHead:
    """The head of a whole Run: everything but its events, and their number."""
    return _retyped(RunHead, run, len(run.events))


def with_events(head: RunHead, events: tuple[RunEvent, ...]) -> Run:
    """The whole Run of a head and all of its events."""
    return _retyped(Run, head, events)


def apply_change(run: Run, change: Change, at: str) -> tuple[Run, RunHead, tuple[RunEvent, ...]]:
    """``change`` applied to a whole Run: the new Run, its head and the events added."""
    head, added = change(head_of(run), at)
    return with_events(head, (*run.events, *added)), head, added


def new_run(
    identity: str,
    provider: str,
    graph: str,
    entry: str,
    at: str,
    *,
    workspace: str | None,
    facts: Mapping[str, Any] | None,
    authorities: Iterable[str] | None,
) -> Run:
    """A new Run with event 1 ``run.started`` ``{facts, authorities}``: the state it starts with."""
    plain_facts = run_facts(facts, "facts")
    held = tuple(normalize_authorities(authorities))
    started: dict[str, Any] = {"facts": plain_facts, "authorities": list(held)}
    if not is_plain_json(started, max_depth=DETAIL_MAX_DEPTH, allow_nan=False):
        started = {"authorities": list(held)}  # Facts too deep to record twice: the replay is inexact here
    return Run(
        schema=RUN_SCHEMA,
        id=identity,
        provider=provider,
        graph=graph,
        entry=entry,
        workspace=workspace,
        created_at=at,
        updated_at=at,
        facts=plain_facts,
        outcomes={},
        authorities=held,
        events=(RunEvent(sequence=1, at=at, type="run.started", detail=started),),
    )


def record_change(node: str, outcome: str, detail: Any) -> Change:
    """Record ``outcome`` under ``node`` and append ``node.outcome-recorded``."""
    if not isinstance(node, str) or not node:
        raise AgentGraphError("run-node-invalid", "The state key to record must be a non-empty string")
    node = plain_string(node, "node")
    if not isinstance(outcome, str) or str.__str__(outcome) not in OUTCOMES:
        raise AgentGraphError(
            "outcome-invalid", f"Unsupported outcome: {outcome!r:.80} (one of {', '.join(OUTCOMES)})"
        )
    outcome = plain_string(outcome, "outcome")
    detail = run_detail(detail)

    def change(head: RunHead, at: str) -> Delta:
        outcomes = dict(head.outcomes)
        outcomes[node] = OutcomeRecord(outcome=outcome, recorded_at=at, detail=detail)
        event = _event(head, at, "node.outcome-recorded", node=node, outcome=outcome, detail=detail)
        return _appended(head, event, outcomes=outcomes)

    return change


def guarded(guard: Callable[[RunHead], None] | None, *changes: Change) -> Change:
    """``guard`` sees the Run's head as it is (and may refuse it), then ``changes`` apply in order."""

    def change(head: RunHead, at: str) -> Delta:
        if guard is not None:
            guard(head)
        added: list[RunEvent] = []
        for step in changes:
            head, events = step(head, at)
            added.extend(events)
        return msgspec.structs.replace(head, updated_at=at), tuple(added)

    return change


def with_values(detail: dict[str, Any], name: str, values: Any) -> dict[str, Any]:
    """``detail`` with ``values`` under ``name`` when the Run can be read back with them (else as it is)."""
    recorded = {**detail, name: values}
    return recorded if is_plain_json(recorded, max_depth=DETAIL_MAX_DEPTH, allow_nan=False) else detail


def facts_change(facts: Mapping[str, Any], *, replace: bool = False, deep: bool = False) -> Change:
    """Merge (shallow or ``deep``) or replace the Facts; ``facts.updated``/``facts.replaced``.

    The event's detail names the given top-level ``keys`` and records what the
    change set (:mod:`agent_graph._core.fact_events`): ``set``, the top-level
    values that changed (a replacement: the whole new Facts), or, for a deep
    merge, ``merge``, the part of the given object that changed something.
    Building it costs time linear in what was given.
    """
    if not isinstance(facts, Mapping):
        raise AgentGraphError("json-object-required", "facts must be a JSON object")
    if replace and deep:
        raise AgentGraphError("argument-invalid", "facts can be replaced or deep-merged, not both")
    given = run_facts(facts, "facts")
    keys = sorted(given, key=utf16_key)

    def change(head: RunHead, at: str) -> Delta:
        detail: dict[str, Any] = {"keys": keys}
        if replace:
            merged = given
            detail = with_values(detail, "set", given)
        elif deep:
            merged = deep_merge(head.facts, given)
            detail = with_values(detail, "merge", merge_delta(head.facts, given))
        else:
            merged = {**head.facts, **given}
            detail = with_values(detail, "set", set_delta(head.facts, given))
        kind = "facts.replaced" if replace else "facts.updated"
        event = _event(head, at, kind, detail=detail)
        return _appended(head, event, facts=merged)

    return change


def authorities_change(
    replace: Iterable[str] | None = None, add: Iterable[str] = (), remove: Iterable[str] = ()
) -> Change:
    """Replace, then add and remove session authorities; ``authorities.updated`` ``{authorities}``."""
    replacement = normalize_authorities(replace) if replace is not None else None
    added = normalize_authorities(add)
    removed = frozenset(normalize_authorities(remove))

    def change(head: RunHead, at: str) -> Delta:
        current = replacement if replacement is not None else list(head.authorities)
        result = tuple(a for a in normalize_authorities([*current, *added]) if a not in removed)
        event = _event(head, at, "authorities.updated", detail={"authorities": list(result)})
        return _appended(head, event, authorities=result)

    return change


def checkpoint_event(name: str) -> Change:
    """Append ``run.checkpointed`` ``{checkpoint: name}``; the snapshot is the result without authorities."""

    def change(head: RunHead, at: str) -> Delta:
        event = _event(head, at, "run.checkpointed", detail={"checkpoint": name})
        return _appended(head, event, updated_at=at)

    return change


def resumed_run(checkpoint: Run, name: str, at: str, identity: str | None = None) -> Run:
    """A Run resumed from a checkpoint: authorities cleared, ``run.resumed`` ``{checkpoint: name}`` appended.

    ``identity`` gives the resumed Run another ID (a database store holds each ID once).
    """
    event = RunEvent(
        sequence=len(checkpoint.events) + 1, at=at, type="run.resumed", detail={"checkpoint": name}
    )
    return msgspec.structs.replace(
        checkpoint,
        id=identity if identity is not None else checkpoint.id,
        authorities=(),
        events=(*checkpoint.events, event),
        updated_at=at,
    )
