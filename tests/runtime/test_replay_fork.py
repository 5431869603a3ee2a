"""Forking a stored Run at an event, in every store kind (files, SQLite, PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from agent_graph._runtime.run_fork import forked_run
from tests.core.test_replay import legacy
from tests.fakes import FakeClock, Ids
from tests.paths import WEEKLY


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(str(WEEKLY))


@pytest.fixture
def store(any_store_url: str) -> Iterator[ag.BaseRunStore]:
    with ag.open_store(any_store_url, clock=FakeClock(), new_id=Ids()) as opened:
        yield opened


def _ref(store: ag.BaseRunStore, run: ag.Run) -> str:
    return run.id + ".json" if store.ref_kind == "path" else run.id


def _weekly_run(store: ag.BaseRunStore, provider: ag.Provider) -> str:
    """Start, draft, approve (with the authority) and publish: events 1..7."""
    ref = _ref(store, store.start(None, provider, "report"))
    store.update_authorities(ref, add=["report.publish"], provider=provider)  # 2
    store.record(ref, "report/draft", "completed", facts={"report": {"digest": "sha256:5f0c"}})  # 3, 4
    store.update_facts(ref, {"report": {"approved": True}}, deep=True)  # 5
    store.record(ref, "report/approve", "completed", detail={"comment": "ship it"})  # 6
    store.record(ref, "report/publish", "completed")  # 7
    return ref


def test_fork_starts_a_new_run_from_the_state_after_event_n(
    store: ag.BaseRunStore, weekly: ag.Provider
) -> None:
    ref = _weekly_run(store, weekly)
    source = store.load(ref)
    forked = store.fork(ref, 6, provider=weekly)
    assert forked.id != source.id
    assert forked.events[:6] == source.events[:6]
    last = forked.events[-1]
    assert (last.sequence, last.type, last.detail) == (7, "run.forked", {"run": source.id, "event": 6})
    assert forked.facts == {"report": {"digest": "sha256:5f0c", "approved": True}}
    assert set(forked.outcomes) == {"report/draft", "report/approve"}
    assert forked.authorities == ()  # session authorities stay with their session, as on resume
    assert forked.created_at == forked.updated_at == last.at
    # Stored as a Run of its own: it reads back, and the source is unchanged.
    assert store.load(_ref(store, forked), weekly) == forked
    assert store.load(ref) == source
    # Its evaluation is the source's at event 6 without the authority: publish is next.
    step = store.next_step(_ref(store, forked), weekly)
    assert step.route is not None and step.route.node == "publish"
    # The fork replays: its last step is exact and names where it came from.
    steps = list(ag.replay(weekly, forked))
    assert steps[-1].exact and steps[-1].event.type == "run.forked"
    assert [(c.part, c.before, c.after) for c in steps[-1].changes] == [
        ("authorities", ["report.publish"], [])
    ]


def _legacy_run(store: ag.BaseRunStore, provider: ag.Provider, tmp_path: Path) -> str:
    """The weekly Run as a writer that records no values wrote it (the reference toolchain), imported."""
    source = store.load(_weekly_run(store, provider))
    path = tmp_path / "legacy.json"
    path.write_bytes(msgspec.json.encode(msgspec.structs.replace(legacy(source), id="legacy-run")))
    return _ref(store, store.import_run(str(path)))


def test_every_event_of_a_run_written_with_values_can_be_forked(
    store: ag.BaseRunStore, weekly: ag.Provider
) -> None:
    ref = _weekly_run(store, weekly)
    source = store.load(ref)
    steps = list(ag.replay(weekly, source))
    for at in range(1, len(source.events) + 1):
        forked = store.fork(ref, at, provider=weekly)
        assert forked.facts == steps[at - 1].facts and forked.outcomes == steps[at - 1].outcomes
        again = list(ag.replay(weekly, forked))
        assert all(step.exact for step in again[:at])  # the authorities of the last: cleared by the fork
        assert again[-1].exact and again[-1].evaluation == ag.evaluate(
            weekly, "report", facts=forked.facts, outcomes=forked.outcomes
        )


def test_fork_refuses_what_its_events_do_not_record(
    store: ag.BaseRunStore, weekly: ag.Provider, tmp_path: Path
) -> None:
    ref = _legacy_run(store, weekly, tmp_path)
    before = store.list()
    for at, code in ((4, "run-fork-unrecorded"), (0, "argument-invalid"), (8, "argument-invalid")):
        with pytest.raises(ag.AgentGraphError) as caught:
            store.fork(ref, at)
        assert caught.value.code == code
    assert "report" in str(_message(store, ref, 4))
    with pytest.raises(ag.AgentGraphError) as caught:
        store.fork(ref, 6, provider="another/provider")
    assert caught.value.code == "run-provider-mismatch"
    assert store.list() == before  # nothing written


def _message(store: ag.BaseRunStore, ref: str, at: int) -> str:
    with pytest.raises(ag.AgentGraphError) as caught:
        store.fork(ref, at)
    return caught.value.message


def test_fork_refuses_a_taken_target(store: ag.BaseRunStore, weekly: ag.Provider) -> None:
    ref = _weekly_run(store, weekly)
    with pytest.raises(ag.AgentGraphError) as caught:
        store.fork(ref, 6, ref)
    assert caught.value.code == "run-target-exists"
    named = "what-if.json" if store.ref_kind == "path" else "what-if"
    forked = store.fork(ref, 7, named)
    assert store.load(named) == forked


def test_forked_run_is_pure(weekly: ag.Provider, tmp_path: Path) -> None:
    with ag.open_store(str(tmp_path), clock=FakeClock(), new_id=Ids()) as store:
        run = store.start(None, weekly, "report", facts={"team": "web"})
        ref = _ref(store, run)
        store.record(ref, "report/draft", "partial")
        source = store.load(ref)
    forked: Any = forked_run(source, 1, "copy", "2026-02-01T00:00:00.000Z")
    assert forked.events[0] == source.events[0] and len(forked.events) == 2
    assert forked.outcomes == {} and forked.facts == {"team": "web"} and forked.id == "copy"
    assert forked_run(source, 2, "copy", "2026-02-01T00:00:00.000Z").outcomes == source.outcomes
    assert msgspec.json.decode(msgspec.json.encode(forked), type=ag.Run) == forked


def test_a_fork_can_be_given_the_facts_its_events_do_not_record(
    store: ag.BaseRunStore, weekly: ag.Provider, tmp_path: Path
) -> None:
    ref = _legacy_run(store, weekly, tmp_path)
    source = store.load(ref)
    # After event 2 the Run had no report yet, but the events cannot say so: the caller does.
    forked = store.fork(ref, 2, provider=weekly, facts={"team": "web"})
    assert forked.facts == {"team": "web"} and forked.outcomes == {}
    assert forked.events[:2] == source.events[:2]
    assert forked.events[-1].detail == {
        "run": source.id,
        "event": 2,
        "keys": ["team"],
        "set": {"team": "web"},
    }
    step = store.next_step(_ref(store, forked), weekly)
    assert step.route is not None and step.route.node == "draft"
    # Its replay: before the fork nothing is recorded of the Facts; at the fork, exactly the given ones.
    steps = list(ag.replay(weekly, forked))
    assert [s.all_facts_unrecorded for s in steps] == [True, True, False]
    assert steps[-1].exact and steps[-1].facts == {"team": "web"}
    assert steps[-1].evaluation == ag.evaluate(weekly, "report", facts={"team": "web"}, outcomes={})
    with pytest.raises(ag.AgentGraphError) as caught:
        store.fork(ref, 2, facts=["not", "an", "object"])  # type: ignore[arg-type]
    assert caught.value.code == "json-object-required"
