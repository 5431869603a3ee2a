"""A Run whose head disagrees with its rows is never served or extended, whichever way it disagrees.

The database stores keep a Run's event count in its head row apart from the
event rows. Changed by hand (or by a broken tool), the two disagree: a head
counting fewer events than the rows hold, or more, or rows missing under it.
Every read that answers a whole Run or a page of its events, every export and
every write must refuse such a Run (``run-invalid``) and leave the database as
it was; the file store's equivalent is a Run file whose last event is later
than its ``updatedAt``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from tests.fakes import FakeClock
from tests.paths import WEEKLY
from tests.raw_sql import Sql


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(str(WEEKLY))


def code_of(call: Callable[[], Any]) -> str:
    with pytest.raises(ag.AgentGraphError) as caught:
        call()
    return caught.value.code


def _dump(sql: Sql) -> list[Any]:
    """Every row of the store's tables, in a stable order: what must not change."""
    return [
        *sql.run(("SELECT * FROM agent_graph_runs ORDER BY id", ())),
        *sql.run(("SELECT * FROM agent_graph_run_events ORDER BY run_id, sequence", ())),
        *sql.run(("SELECT * FROM agent_graph_checkpoints ORDER BY name", ())),
    ]


#: Each way a head row and its event rows come to disagree (Run "a" holds events 1..6).
DISAGREEMENTS: dict[str, tuple[tuple[str, tuple[Any, ...]], ...]] = {
    "count lowered": (("UPDATE agent_graph_runs SET event_count = 4 WHERE id = 'a'", ()),),
    "count raised": (("UPDATE agent_graph_runs SET event_count = 9 WHERE id = 'a'", ()),),
    "last rows deleted": (("DELETE FROM agent_graph_run_events WHERE run_id = 'a' AND sequence > 4", ()),),
    "a row added": (
        (
            "INSERT INTO agent_graph_run_events (run_id, sequence, event) SELECT run_id, 7,"
            " REPLACE(event, '\"sequence\":6', '\"sequence\":7') FROM agent_graph_run_events"
            " WHERE run_id = 'a' AND sequence = 6",
            (),
        ),
    ),
    "head older than its last event": (
        (
            # the head's time is its row's column (and, in a head kept whole, its JSON's too)
            "UPDATE agent_graph_runs SET updated_at = ?, head = REPLACE(head, ?, ?) WHERE id = 'a'",
            (
                "2026-01-31T09:30:04.000Z",
                '"updatedAt":"2026-01-31T09:30:05.000Z"',
                '"updatedAt":"2026-01-31T09:30:04.000Z"',
            ),
        ),
    ),
}


@pytest.fixture()
def disagreeing(
    db_url: str, weekly: ag.Provider, request: pytest.FixtureRequest
) -> Iterator[tuple[ag.BaseRunStore, Sql]]:
    """A store whose Run ``a`` (6 events, written last by this very store) disagrees with itself; ``b`` is sound."""
    store = ag.open_store(db_url, clock=FakeClock())
    store.start("a", weekly, "report")
    for n in range(5):
        store.record("a", "report/draft", "partial", detail=n)
    store.start("b", weekly, "report")
    sql = Sql(db_url)
    sql.run(*DISAGREEMENTS[request.param])
    try:
        yield store, sql
    finally:
        store.close()


@pytest.mark.parametrize("disagreeing", list(DISAGREEMENTS), indirect=True)
def test_every_read_and_write_refuses_a_run_that_disagrees_with_itself(
    disagreeing: tuple[ag.BaseRunStore, Sql], weekly: ag.Provider, tmp_path: Path
) -> None:
    store, sql = disagreeing
    before = _dump(sql)
    out = tmp_path / "out.json"
    refusals = {
        "load": lambda: store.load("a"),
        "events": lambda: store.events("a"),
        "a page of events": lambda: store.events("a", after=1, limit=2),
        "the last page of events": lambda: store.events("a", after=3),
        "export": lambda: store.export("a", str(out)),
        "fork": lambda: store.fork("a", 2, "fork-of-a"),
        "checkpoint": lambda: store.checkpoint("a", "kept"),
        "record": lambda: store.record("a", "report/draft", "completed"),
        "guarded record": lambda: store.record(
            "a", "report/draft", "completed", provider=weekly, revision=store.next_step("a", weekly).revision
        ),
        "update_facts": lambda: store.update_facts("a", {"x": 1}),
        "update_authorities": lambda: store.update_authorities("a", add=["report.publish"]),
    }
    codes = {name: code_of(call) for name, call in refusals.items()}
    assert codes == dict.fromkeys(refusals, "run-invalid")
    assert not out.exists()
    assert _dump(sql) == before  # nothing was written, not even by the store that wrote the Run last
    assert len(store.load("b").events) == 1  # the sound Run is served as ever
    with ag.open_store(store_url(store)) as other:  # a store that never wrote the Run refuses it alike
        assert code_of(lambda: other.record("a", "report/draft", "completed")) == "run-invalid"
        assert code_of(lambda: other.load("a")) == "run-invalid"
    assert _dump(sql) == before


def store_url(store: ag.BaseRunStore) -> str:
    path = getattr(store, "path", None)
    return f"sqlite:///{path}" if path is not None else store.conninfo  # type: ignore[attr-defined]


def test_the_message_says_how_the_run_disagrees(db_url: str, weekly: ag.Provider) -> None:
    with ag.open_store(db_url) as store:
        store.start("a", weekly, "report")
        store.record("a", "report/draft", "partial")
        Sql(db_url).run(("UPDATE agent_graph_runs SET event_count = 1 WHERE id = 'a'", ()))
        with pytest.raises(ag.AgentGraphError) as caught:
            store.load("a")
    assert "counts 1 events but its last stored event is numbered 2" in caught.value.message


def test_the_async_face_refuses_alike(db_url: str, weekly: ag.Provider) -> None:
    import asyncio

    async def scenario() -> list[str]:
        async with await ag.open_async_store(db_url) as store:
            await store.start("a", weekly, "report")
            await store.record("a", "report/draft", "partial")
            Sql(db_url).run(("UPDATE agent_graph_runs SET event_count = 5 WHERE id = 'a'", ()))
            codes = []
            for call in (
                lambda: store.load("a"),
                lambda: store.events("a"),
                lambda: store.record("a", "report/draft", "completed"),
            ):
                try:
                    await call()
                except ag.AgentGraphError as error:
                    codes.append(error.code)
            return codes

    assert asyncio.run(scenario()) == ["run-invalid"] * 3


def test_a_run_file_whose_last_event_is_later_than_its_update_is_refused(
    tmp_path: Path, weekly: ag.Provider
) -> None:
    """The file store's equivalent: a file counts its events itself, but its head's time may disagree."""
    import json

    store = ag.open_store(str(tmp_path))
    run = store.start("a", weekly, "report")
    store.record("a", "report/draft", "partial")
    path = tmp_path / "a.json"
    data = json.loads(path.read_text("utf-8"))
    data["updatedAt"] = run.created_at  # older than event 2
    path.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    before = path.read_bytes()
    for call in (
        lambda: store.load("a"),
        lambda: store.events("a"),
        lambda: store.record("a", "report/draft", "completed"),
        lambda: store.export("a", str(tmp_path / "out.json")),
    ):
        assert code_of(call) == "run-invalid"
    assert path.read_bytes() == before and not (tmp_path / "out.json").exists()
