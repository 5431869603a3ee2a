"""Fork a Run: a new Run from the state right after one of its events (a "what if" branch).

The fork keeps the source's events 1..N, holds the Facts and Outcomes the Run
had right after event N (recomputed by :func:`agent_graph._core.replay.run_states`)
and appends ``run.forked`` ``{run: <source ID>, event: N}``. Like a resumed
Run, a fork carries no session authorities: they belong to the session that
granted them. It gets its own ID and is created as a new Run (it never
replaces one: ``run-target-exists``).

A fork needs every Fact of event N. The events of a Run written by
agent-graph record them (:mod:`agent_graph._core.fact_events`); those of a Run
written without values (by the reference toolchain, or before events recorded
values) may not (a key set or changed by a later event, or replaced later).
Then the caller gives the fork's Facts (``facts=``): ``run.forked`` names
their keys and records them (``{run, event, keys, set}``) and replays like
``facts.replaced``. Without them such a fork is refused with
``run-fork-unrecorded`` and nothing is written.

:func:`forked_run` is the pure transition; every store's ``fork`` (blocking
and async) applies it through the same primitives ``start`` uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from .._core.canonical import utf16_key
from .._core.errors import AgentGraphError
from .._core.model import Run, RunEvent
from .._core.replay import RunState, run_states
from .run_changes import run_facts, with_values

__all__ = ["forked_run", "state_after"]


def state_after(run: Run, at: int) -> RunState:
    """The state of ``run`` right after event ``at`` (``argument-invalid`` unless 1 ≤ at ≤ the last event)."""
    if isinstance(at, bool) or not isinstance(at, int):
        raise AgentGraphError("argument-invalid", f"at must be an event number, not {at!r:.60}")
    count = len(run.events)
    if not 1 <= at <= count:
        raise AgentGraphError(
            "argument-invalid", f"Run {run.id} has events 1 to {count}; there is no event {at} to fork at"
        )
    for state in run_states(run):
        if state.event.sequence == at:
            return state
    raise AgentGraphError("run-invalid", f"Run {run.id} has no event {at}")  # numbered 1..n: unreachable


def forked_run(source: Run, at: int, identity: str, now: str, facts: Mapping[str, Any] | None = None) -> Run:
    """The Run forked from ``source`` right after event ``at``: ID ``identity``, created ``now``.

    ``facts`` (a JSON object) are the fork's Facts instead of the replayed
    ones. Without them, raises ``run-fork-unrecorded`` when the events do not
    record a Fact the Run held right after event ``at``.
    """
    state = state_after(source, at)
    detail: dict[str, Any] = {"run": source.id, "event": at}
    if facts is not None:
        given = run_facts(facts, "facts")
        detail["keys"] = sorted(given, key=utf16_key)
        detail = with_values(detail, "set", given)
    elif state.all_facts_unrecorded or state.unrecorded_facts:
        missing = (
            "its Facts (a later facts.replaced hides them)"
            if state.all_facts_unrecorded
            else "the Facts " + ", ".join(repr(key) for key in state.unrecorded_facts[:5])
        )
        raise AgentGraphError(
            "run-fork-unrecorded",
            f"Run {source.id} cannot be forked at event {at}: its events do not record {missing} "
            "as they were then (it was written by a toolchain whose Facts events name their keys, not their "
            "values); "
            "give the fork its Facts (facts=…), or fork at a later event",
        )
    else:
        given = dict(state.facts)
    event = RunEvent(sequence=at + 1, at=now, type="run.forked", detail=detail)
    return msgspec.structs.replace(
        source,
        id=identity,
        created_at=now,
        updated_at=now,
        facts=given,
        outcomes=dict(state.outcomes),
        authorities=(),
        events=(*source.events[:at], event),
    )
