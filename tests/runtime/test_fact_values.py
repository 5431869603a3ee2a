"""Events record the Facts values they set, in every store: replay and fork are exact at every event.

A seeded generator drives many Fact changes (shallow and deep merges,
replacements, removals) through the file, SQLite and PostgreSQL stores; the
replay of the stored Run must then evaluate, at every event, exactly as the Run
did right after it, and a fork at any event must hold that state. The Run
files stay readable by the reference toolchain: they match its own Run schema
(``tests/vectors/schemas-0.2.6``) and ours.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import msgspec
import pytest

import agent_graph as ag
from agent_graph._core.fact_events import deep_merge, merge_delta, same_json, set_delta
from agent_graph._runtime import run_changes as rc
from agent_graph._syntax import schema as _schema
from tests.conftest import VECTORS
from tests.fact_runs import drive
from tests.fakes import FakeClock, Ids
from tests.paths import REPO

WEEKLY = ag.load_provider(str(REPO / "examples" / "weekly-report" / "provider.yaml"))
REFERENCE_RUN_SCHEMA = json.loads((VECTORS / "schemas-0.2.6" / "run.schema.json").read_text(encoding="utf-8"))


@pytest.fixture
def store(any_store_url: str) -> Iterator[ag.BaseRunStore]:
    with ag.open_store(any_store_url, clock=FakeClock(), new_id=Ids()) as opened:
        yield opened


@pytest.mark.parametrize("seed", [1, 2])
def test_the_replay_of_a_stored_run_is_the_run_at_every_event(
    store: ag.BaseRunStore, seed: int, tmp_path: Path
) -> None:
    run_id, states = drive(store, WEEKLY, seed, writes=90)
    ref = run_id + ".json" if store.ref_kind == "path" else run_id
    run = store.load(ref, WEEKLY)
    steps = list(ag.replay(WEEKLY, run))
    assert len(steps) == len(states) == len(run.events)
    seen = set()
    for step, state in zip(steps, states, strict=True):
        assert step.exact, step.event
        assert step.facts == state.facts and step.authorities == state.authorities
        assert {k: r.outcome for k, r in step.outcomes.items()} == {
            k: r.outcome for k, r in state.outcomes.items()
        }
        assert step.evaluation == state.evaluate(WEEKLY)
        seen.add(step.status)
    assert {"actionable", "blocked"} <= seen  # the generator moves the Run through several statuses
    # A fork at any event holds the state of that event.
    for at in (2, len(states) // 3, len(states) // 2):
        forked = store.fork(ref, at, provider=WEEKLY)
        assert forked.facts == states[at - 1].facts
        assert {k: r.outcome for k, r in forked.outcomes.items()} == {
            k: r.outcome for k, r in states[at - 1].outcomes.items()
        }
    # The file the store exports reads as a Run of the reference toolchain and of ours.
    exported = tmp_path / "exported.json"
    store.export(ref, str(exported))
    document = json.loads(exported.read_text("utf-8"))
    jsonschema.Draft202012Validator(REFERENCE_RUN_SCHEMA).validate(document)
    _schema.validate("run", document, str(exported))


def test_the_detail_records_what_changed_and_no_more() -> None:
    wide = {f"k{i}": {"n": i, "tags": ["a", "b"]} for i in range(5000)}
    run = rc.new_run("r", WEEKLY.manifest.id, "report", "default", "2026-01-31T09:30:00.000Z",
                     workspace=None, facts=wide, authorities=["ops"])  # fmt: skip
    assert run.events[0].detail == {"facts": wide, "authorities": ["ops"]}
    at = "2026-01-31T09:30:01.000Z"
    shallow = rc.apply_change(
        run, rc.facts_change({"k7": {"n": 8, "tags": ["a", "b"]}, "k8": wide["k8"]}), at
    )
    assert shallow[2][0].detail == {"keys": ["k7", "k8"], "set": {"k7": {"n": 8, "tags": ["a", "b"]}}}
    deep = rc.apply_change(shallow[0], rc.facts_change({"k9": {"n": 9, "tags": ["c"]}}, deep=True), at)
    assert deep[2][0].detail == {"keys": ["k9"], "merge": {"k9": {"tags": ["c"]}}}
    assert len(msgspec.json.encode(deep[2][0])) < 200  # what changed, not the 5,000 Facts
    replaced = rc.apply_change(deep[0], rc.facts_change({"only": 1}, replace=True), at)
    assert replaced[2][0].detail == {"keys": ["only"], "set": {"only": 1}}  # a replacement is the new Facts
    assert [step.exact for step in ag.replay(WEEKLY, replaced[0])] == [True] * 4


def test_facts_too_deep_to_record_twice_leave_the_event_without_values() -> None:
    deep: Any = "leaf"
    for _ in range(rc.FACTS_MAX_DEPTH - 2):
        deep = {"d": deep}
    run = rc.new_run("r", WEEKLY.manifest.id, "report", "default", "2026-01-31T09:30:00.000Z",
                     workspace=None, facts={}, authorities=[])  # fmt: skip
    changed = rc.apply_change(run, rc.facts_change({"x": deep}), "2026-01-31T09:30:01.000Z")[0]
    assert changed.events[-1].detail == {"keys": ["x"]}  # as the reference toolchain writes it
    later = rc.apply_change(changed, rc.facts_change({"y": 1}), "2026-01-31T09:30:02.000Z")[0]
    steps = list(ag.replay(WEEKLY, later))
    assert [s.exact for s in steps] == [True, True, True]  # x is never changed again: the Run holds it
    again = rc.apply_change(later, rc.facts_change({"x": 2}), "2026-01-31T09:30:03.000Z")[0]
    steps = list(ag.replay(WEEKLY, again))
    assert [s.exact for s in steps] == [True, False, False, True]
    assert steps[1].unrecorded_facts == ("x",)


@pytest.mark.parametrize(
    ("base", "update"),
    [
        ({"a": {"b": 1, "c": [1]}}, {"a": {"b": 1, "c": [1, 2]}}),
        ({"a": {"b": 1}}, {"a": {"b": 1.0}}),
        ({"a": {"b": True}}, {"a": {"b": 1}}),
        ({"a": 1}, {"a": {"b": {}}}),
        ({"a": {"b": {"c": 1}}}, {"a": {"b": {}}}),
        ({"a": {"x": 1, "y": 2}}, {"a": {"y": 2, "x": 1}}),
        ({}, {"n": None}),
    ],
)
def test_a_delta_applied_to_the_facts_before_gives_the_facts_after(base: Any, update: Any) -> None:
    assert same_json(deep_merge(base, merge_delta(base, update)), deep_merge(base, update))
    assert same_json({**base, **set_delta(base, update)}, {**base, **update})
    assert not same_json(True, 1) and same_json(1, 1.0) and not same_json({"a": 1}, {"a": 1, "b": 2})
