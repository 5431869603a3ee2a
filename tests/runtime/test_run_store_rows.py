"""What the database stores keep in their rows, and how they meet hostile databases.

Values are kept exactly as the Run reader reads them back, so export → import
is byte-identical in every store; a database of the previous schema is
upgraded in place and one of a newer schema refused; a row whose JSON
disagrees with its key is ``run-invalid`` on every path; readers never wait
for writers; broken files, devices, bad URLs, stopped servers all have their
codes.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from agent_graph._runtime.runs_sql import SCHEMA_VERSION
from tests.in_process import code_of
from tests.paths import WEEKLY
from tests.raw_sql import Sql

#: The tables as the first release of the database stores created them (schema version 1, no version table).
VERSION_1_DDL = (
    """CREATE TABLE IF NOT EXISTS agent_graph_runs (
        id TEXT PRIMARY KEY, provider TEXT NOT NULL, graph TEXT NOT NULL, entry TEXT NOT NULL,
        created_at TEXT NOT NULL, updated_at TEXT NOT NULL, event_count INTEGER NOT NULL, head TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS agent_graph_run_events (
        run_id TEXT NOT NULL REFERENCES agent_graph_runs (id), sequence INTEGER NOT NULL, event TEXT NOT NULL,
        PRIMARY KEY (run_id, sequence))""",
    """CREATE TABLE IF NOT EXISTS agent_graph_checkpoints (
        name TEXT PRIMARY KEY, run_id TEXT NOT NULL, document TEXT NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS agent_graph_runs_updated ON agent_graph_runs (updated_at)",
    "CREATE INDEX IF NOT EXISTS agent_graph_runs_provider_graph ON agent_graph_runs (provider, graph)",
)
V1_HEAD = (
    '{"schema":"agent-graph.run.v1","id":"%s","provider":"examples/weekly-report","graph":"report",'
    '"entry":"default","createdAt":"2026-01-31T09:30:00.000Z","updatedAt":"2026-01-31T09:30:01.000Z",'
    '"facts":{"team":"web"},"outcomes":{"report/draft":{"outcome":"partial","recordedAt":"2026-01-31T09:30:01.000Z"}},'
    '"authorities":[]}'
)
V1_EVENTS = (
    '{"sequence":1,"at":"2026-01-31T09:30:00.000Z","type":"run.started"}',
    '{"sequence":2,"at":"2026-01-31T09:30:01.000Z","type":"node.outcome-recorded","node":"report/draft",'
    '"outcome":"partial"}',
)
#: Values whose exact form a careless store changes: a 61-bit integer, numeric-looking keys, 0.0.
AWKWARD = {
    "big": 1152921504606846977,
    "z": 1,
    "10": "ten",
    "2": "two",
    "zero": 0.0,
    "nested": {"9": [0.0, 1e300]},
}


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(str(WEEKLY))


@pytest.fixture
def url(store_url: str) -> str:
    """Each store kind (the conftest's ``store_url``)."""
    return store_url


def error_of(call: Any) -> ag.AgentGraphError:
    with pytest.raises(ag.AgentGraphError) as caught:
        call()
    return caught.value


# ---------------------------------------------------------------- exact values


def test_a_run_of_many_small_records_reads_back_exports_and_reimports_byte_identically(
    url: str, weekly: ag.Provider, tmp_path: Path
) -> None:
    with ag.open_store(url) as store:
        run = store.start(None, weekly, "report", facts=AWKWARD)
        for n in range(25):
            store.record(run.id, f"report/n{n % 4}", "partial", detail={"n": n, **AWKWARD})
            store.update_facts(run.id, {str(n): n * 1.0, "big": 1152921504606846977 + n}, deep=n % 2 == 0)
        head = store.head(run.id)
        whole = store.load(run.id)
        assert head.events == len(whole.events) == 51 and head.facts == whole.facts
        assert store.events(run.id, after=10, limit=5) == whole.events[10:15]
        first = tmp_path / "first.json"
        store.export(run.id, str(first))
    for other in ("file", "sqlite"):
        target = str(tmp_path / f"again-{other}") if other == "file" else f"sqlite:///{tmp_path / 'again.db'}"
        with ag.open_store(target) as again:
            imported = again.import_run(str(first))
            assert imported == again.load(imported.id) == whole
            second = tmp_path / f"second-{other}.json"
            again.export(imported.id, str(second))
            assert second.read_bytes() == first.read_bytes()
    keys = list(json.loads(first.read_text(encoding="utf-8"))["facts"])
    numeric = [key for key in keys if key.isdigit()]
    assert keys[: len(numeric)] == sorted(numeric, key=int)  # JSON.parse's order, in every store
    assert whole.facts["big"] == float(1152921504606846977 + 24) and whole.facts["zero"] == 0


def test_values_that_are_not_unicode_are_kept_exactly_and_ids_refused_alike(
    url: str, weekly: ag.Provider
) -> None:
    lone = "a\udcffb"
    with ag.open_store(url) as store:
        run = store.start(None, weekly, "report", facts={"name": lone, lone: 1})
        store.record(run.id, "report/draft", "partial", detail=[lone])
        assert store.head(run.id).facts == {"name": lone, lone: 1}
        assert store.events(run.id)[-1].detail == [lone]
    with ag.open_store(url, new_id=lambda: "run-\udcff") as store:
        assert code_of(lambda: store.start(None, weekly, "report")) == "argument-invalid"
    with ag.open_store(url) as store:
        assert code_of(lambda: store.start(None, weekly, "report\udcff")) == "argument-invalid"


# ---------------------------------------------------------------- schema versions


def test_a_database_of_the_first_schema_is_upgraded_in_place_keeping_every_run(
    db_url: str, weekly: ag.Provider
) -> None:
    sql = Sql(db_url)
    statements: list[tuple[str, tuple[Any, ...]]] = [(ddl, ()) for ddl in VERSION_1_DDL]
    for name in ("old-1", "old-2"):
        statements.append((
            "INSERT INTO agent_graph_runs VALUES (?, 'examples/weekly-report', 'report', 'default',"
            " '2026-01-31T09:30:00.000Z', '2026-01-31T09:30:01.000Z', 2, ?)",
            (name, V1_HEAD % name),
        ))  # fmt: skip
        statements.extend(
            ("INSERT INTO agent_graph_run_events VALUES (?, ?, ?)", (name, n, event))
            for n, event in enumerate(V1_EVENTS, start=1)
        )
    sql.run(*statements)
    with ag.open_store(db_url) as store:
        assert [summary.id for summary in store.list()] == ["old-1", "old-2"]
        old = store.load("old-1", weekly)
        assert old.facts == {"team": "web"} and len(old.events) == 2
        step = store.next_step("old-2", weekly)
        store.record("old-2", "report/draft", "completed", provider=weekly, revision=step.revision)
        assert store.head("old-2").events == 3
    assert sql.run(("SELECT version FROM agent_graph_schema", ())) == [(SCHEMA_VERSION,)]
    with ag.open_store(db_url) as store:  # opened again: nothing to upgrade, every Run still there
        assert store.load("old-1") == old and len(store.load("old-2").events) == 3


def test_a_database_of_a_newer_schema_is_refused_with_its_own_code(db_url: str) -> None:
    ag.open_store(db_url).close()
    Sql(db_url).run(("UPDATE agent_graph_schema SET version = ?", (SCHEMA_VERSION + 1,)))
    assert code_of(lambda: ag.open_store(db_url)) == "run-store-schema-newer"


def test_a_foreign_table_of_our_name_is_refused(db_url: str) -> None:
    Sql(db_url).run(("CREATE TABLE agent_graph_runs (name TEXT, color TEXT)", ()))
    assert code_of(lambda: ag.open_store(db_url)) == "run-store-schema-invalid"


# ---------------------------------------------------------------- rows that lie


@contextlib.contextmanager
def _lying_store(db_url: str, weekly: ag.Provider) -> Iterator[tuple[ag.BaseRunStore, Sql]]:
    store = ag.open_store(db_url)
    for name in ("a", "b"):
        store.start(name, weekly, "report")
        store.record(name, "report/draft", "partial")
    try:
        yield store, Sql(db_url)
    finally:
        store.close()


def _every_path_refuses(store: ag.BaseRunStore, ref: str, weekly: ag.Provider, tmp_path: Path) -> None:
    out = tmp_path / f"out-{ref}.json"
    assert code_of(lambda: store.load(ref)) == "run-invalid"
    assert code_of(lambda: store.export(ref, str(out))) == "run-invalid"
    assert not out.exists()


def _whole_head(run: ag.Run) -> str:
    raw = run.to_json()
    del raw["events"]
    return json.dumps(raw, separators=(",", ":"), ensure_ascii=False)


def test_a_head_row_keeps_its_json_from_facts_on_and_reads_back_whole(
    db_url: str, weekly: ag.Provider, tmp_path: Path
) -> None:
    """The fields before ``facts`` are the row's columns, kept once; a head with a workspace is kept whole."""
    with ag.open_store(db_url) as store:
        store.start("plain", weekly, "report", facts={"team": "web"})
        placed = store.start("placed", weekly, "report", workspace=str(tmp_path))
        store.record("plain", "report/draft", "partial", provider=weekly)
        rows = dict(Sql(db_url).run(("SELECT id, head FROM agent_graph_runs ORDER BY id", ())))
        assert rows["plain"].startswith('"facts":{"team":"web"},"outcomes":{"report/draft":')
        assert rows["placed"] == _whole_head(store.load("placed"))
        for ref in ("plain", "placed"):
            run = store.load(ref)
            out = tmp_path / f"{ref}.json"
            store.export(ref, str(out))
            assert json.loads(out.read_text("utf-8")) == json.loads(json.dumps(run.to_json()))
            head = store.head(ref)
            assert (head.id, head.created_at, head.updated_at, head.facts) == (
                ref,
                run.created_at,
                run.updated_at,
                run.facts,
            )
        assert placed.workspace == str(tmp_path) and store.load("placed").workspace == str(tmp_path)


def test_a_head_that_names_another_run_is_refused_on_read_write_and_export(
    db_url: str, weekly: ag.Provider, tmp_path: Path
) -> None:
    """A whole head (as version 3 kept every head) naming another Run; a head kept from ``facts`` on has no name."""
    with _lying_store(db_url, weekly) as (store, sql):
        sql.run(("UPDATE agent_graph_runs SET head = ? WHERE id = 'a'", (_whole_head(store.load("b")),)))
        before_b = store.load("b")
        _every_path_refuses(store, "a", weekly, tmp_path)
        assert code_of(lambda: store.head("a")) == "run-invalid"
        assert code_of(lambda: store.next_step("a", weekly)) == "run-invalid"
        assert code_of(lambda: store.record("a", "report/draft", "completed")) == "run-invalid"
        assert store.load("b") == before_b  # the write did not land on the Run the head names


def test_an_event_row_numbered_unlike_its_key_is_refused(
    db_url: str, weekly: ag.Provider, tmp_path: Path
) -> None:
    with _lying_store(db_url, weekly) as (store, sql):
        sql.run(("UPDATE agent_graph_run_events SET event = (SELECT event FROM agent_graph_run_events"
                 " WHERE run_id = 'a' AND sequence = 1) WHERE run_id = 'a' AND sequence = 2", ()))  # fmt: skip
        _every_path_refuses(store, "a", weekly, tmp_path)
        assert code_of(lambda: store.events("a", after=1)) == "run-invalid"


def test_a_write_keeps_its_events_in_one_row_and_pages_read_inside_it(
    db_url: str, weekly: ag.Provider
) -> None:
    """A record with Facts adds two events in one row (a JSON array under the last one's sequence)."""
    with ag.open_store(db_url) as store:
        store.start("a", weekly, "report")
        for n in range(3):
            store.record("a", "report/draft", "partial", facts={"n": n}, provider=weekly)
        rows = Sql(db_url).run(
            ("SELECT sequence, event FROM agent_graph_run_events WHERE run_id = 'a' ORDER BY sequence", ())
        )
        assert [sequence for sequence, _ in rows] == [1, 3, 5, 7]
        assert rows[0][1].startswith("{") and all(text.startswith("[") for _, text in rows[1:])
        assert [event["type"] for event in json.loads(rows[1][1])] == [
            "facts.updated",
            "node.outcome-recorded",
        ]
        run = store.load("a")
        assert [event.sequence for event in run.events] == list(range(1, 8))
        for after in range(8):  # pages that start and end inside a row
            for limit in (1, 2, 3, 7):
                page = store.events("a", after=after, limit=limit)
                assert list(page) == list(run.events[after : after + limit])
        step = store.next_step("a", weekly)
        assert (
            store.record("a", "report/draft", "completed", provider=weekly, revision=step.revision).events
            == 8
        )


@pytest.mark.parametrize(
    "how",
    [
        "key past its events",  # a gap before the next row
        "key short of its events",  # overlaps the row before
        "an empty array",
        "events misnumbered inside",
    ],
)
def test_an_event_row_of_several_events_that_disagrees_with_its_key_is_refused(
    db_url: str, weekly: ag.Provider, tmp_path: Path, how: str
) -> None:
    with ag.open_store(db_url) as store:
        store.start("a", weekly, "report")
        store.record("a", "report/draft", "partial", facts={"n": 1}, provider=weekly)  # events 2, 3 in row 3
        store.record("a", "report/draft", "partial", provider=weekly)  # event 4
        sql = Sql(db_url)
        (text,) = sql.run(
            ("SELECT event FROM agent_graph_run_events WHERE run_id = 'a' AND sequence = 3", ())
        )[0]
        events = [json.dumps(event, separators=(",", ":")) for event in json.loads(text)]
        row = "UPDATE agent_graph_run_events SET {} WHERE run_id = 'a' AND sequence = {}"
        changes: dict[str, list[tuple[str, tuple[Any, ...]]]] = {
            "key past its events": [(row.format("sequence = 5", 4), ()), (row.format("sequence = 4", 3), ())],
            "key short of its events": [(row.format("sequence = 2", 3), ())],
            "an empty array": [(row.format("event = '[]'", 3), ())],
            "events misnumbered inside": [
                (row.format("event = ?", 3), ("[" + ",".join(events[::-1]) + "]",))
            ],
        }
        sql.run(*changes[how])
        _every_path_refuses(store, "a", weekly, tmp_path)
        assert code_of(lambda: store.events("a", after=1)) == "run-invalid"


def test_a_head_with_a_repeated_key_or_deep_nesting_is_refused(
    db_url: str, weekly: ag.Provider, tmp_path: Path
) -> None:
    with _lying_store(db_url, weekly) as (store, sql):
        head = sql.run(("SELECT head FROM agent_graph_runs WHERE id = 'a'", ()))[0][0]
        repeated = head.replace('"facts":{}', '"facts":{"x":1,"x":2}')
        assert repeated != head
        deep = head.replace('"facts":{}', '"facts":{"x":' + "[" * 100_000 + "]" * 100_000 + "}")
        for text in (repeated, deep):
            sql.run(("UPDATE agent_graph_runs SET head = ? WHERE id = 'a'", (text,)))
            _every_path_refuses(store, "a", weekly, tmp_path)
            assert code_of(lambda: store.next_step("a", weekly)) == "run-invalid"
            assert code_of(lambda: store.record("a", "report/draft", "completed")) == "run-invalid"


# ---------------------------------------------------------------- waiting


def test_sqlite_readers_and_new_stores_never_wait_for_a_writer(tmp_path: Path, weekly: ag.Provider) -> None:
    url = f"sqlite:///{tmp_path / 'runs.db'}"
    with ag.open_store(url) as store:
        store.start("r", weekly, "report")
    writer = sqlite3.connect(str(tmp_path / "runs.db"), isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE agent_graph_runs SET updated_at = updated_at")
        with ag.open_store(url, lock_timeout=0.2) as reader:
            assert reader.load("r").id == "r" and reader.head("r").events == 1
            assert [s.id for s in reader.list()] == ["r"] and len(reader.events("r")) == 1
            assert reader.next_step("r", weekly).run.id == "r"
            assert code_of(lambda: reader.record("r", "report/draft", "partial")) == "run-lock-timeout"
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_postgres_opens_and_reads_while_a_write_holds_a_run(postgres_url: str, weekly: ag.Provider) -> None:
    import psycopg

    with ag.open_store(postgres_url) as store:
        store.start("held", weekly, "report")
    with psycopg.connect(postgres_url) as holder:
        holder.execute("SELECT id FROM agent_graph_runs WHERE id = 'held' FOR UPDATE")
        with ag.open_store(postgres_url, lock_timeout=0.5) as other:
            assert other.load("held").id == "held" and other.next_step("held", weekly).run.events == 1
            failure = error_of(lambda: other.record("held", "report/draft", "partial"))
            assert failure.code == "run-lock-timeout" and "row" in failure.message
        holder.rollback()


# ---------------------------------------------------------------- hostile files and URLs


def test_sqlite_files_that_are_no_run_store_have_codes(tmp_path: Path, weekly: ag.Provider) -> None:
    text = tmp_path / "notes.db"
    text.write_text("these are my notes, not a database\n" * 100)
    failure = error_of(lambda: ag.open_store(f"sqlite:///{text}"))
    assert failure.code == "run-store-failed" and "not a database" in failure.message
    real = tmp_path / "real.db"
    with ag.open_store(f"sqlite:///{real}") as store:
        for n in range(40):
            store.start(f"r{n}", weekly, "report", facts={"pad": "x" * 2000})
    data = real.read_bytes()
    cut = tmp_path / "cut.db"
    cut.write_bytes(data[: len(data) // 3])
    try:
        with ag.open_store(f"sqlite:///{cut}") as store:
            for n in range(40):
                store.load(f"r{n}")
    except ag.AgentGraphError as error:
        assert error.code in ("run-store-failed", "run-missing", "run-invalid")


def test_a_sqlite_url_at_a_device_is_refused_and_leaves_nothing_beside_it() -> None:
    assert code_of(lambda: ag.open_store("sqlite:////dev/null")) == "run-store-failed"
    assert not os.path.exists("/dev/null-journal") and not os.path.exists("/dev/null-wal")


def test_a_bad_postgres_url_fails_at_once_with_libpqs_message(tmp_path: Path, postgres_server: str) -> None:
    started = time.monotonic()
    failure = error_of(lambda: ag.open_store(f"postgresql://postgres@/postgres?host={tmp_path}"))
    assert failure.code == "run-store-unavailable" and "No such file or directory" in failure.message
    missing = postgres_server.replace("@/postgres?", "@/no_such_database?")
    failure = error_of(lambda: ag.open_store(missing))
    assert failure.code == "run-store-unavailable" and "no_such_database" in failure.message
    assert "was free within" not in failure.message  # libpq's answer, not the pool's timeout
    assert time.monotonic() - started < 120  # a hang guard, not a speed check


def test_an_async_pool_given_to_the_sync_store_is_refused_naming_the_async_store(postgres_url: str) -> None:
    from psycopg_pool import AsyncConnectionPool

    pool = AsyncConnectionPool(postgres_url, open=False)
    failure = error_of(lambda: ag.PostgresRunStore(postgres_url, pool=pool))
    assert failure.code == "argument-invalid" and "open_async_store" in failure.message


@pytest.mark.slow
def test_postgres_stopped_and_restarted_mid_session(weekly: ag.Provider) -> None:
    pytest.importorskip("psycopg")
    from tests import pg_server

    try:
        server = pg_server.start()
    except RuntimeError as error:
        pytest.skip(f"no PostgreSQL server can be started here: {error}")
    try:
        with ag.open_store(server.url, lock_timeout=5) as store:
            store.start("r", weekly, "report")
            server.halt()
            assert code_of(lambda: store.record("r", "report/draft", "partial")) == "run-store-unavailable"
            server.restart()
            answers = []
            for _ in range(3):  # the pool replaces its dead connections; a call may meet one more
                try:
                    answers.append(store.record("r", "report/draft", "partial").events)
                except ag.AgentGraphError as error:
                    assert error.code == "run-store-unavailable"
            assert answers and store.head("r").events == 1 + len(answers)
    finally:
        server.stop()


def test_reads_while_another_process_appends_always_see_a_whole_run(db_url: str, weekly: ag.Provider) -> None:
    import subprocess
    import sys

    with ag.open_store(db_url) as store:
        store.start("busy", weekly, "report")
    writer = subprocess.Popen(
        [sys.executable, "-c", "import sys, agent_graph as ag\n"
         "with ag.open_store(sys.argv[1]) as s:\n"
         "    for n in range(150): s.record('busy', f'w/n{n}', 'completed')\n", db_url],
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    seen = set()
    with ag.open_store(db_url) as reader:
        while writer.poll() is None:
            run = reader.load("busy")
            assert [event.sequence for event in run.events] == list(range(1, len(run.events) + 1))
            page = reader.events("busy", after=max(len(run.events) - 3, 0))
            assert all(event.sequence > len(run.events) - 3 for event in page)
            seen.add(len(run.events))
    assert writer.wait(timeout=300) == 0, writer.stderr.read() if writer.stderr else ""
    with ag.open_store(db_url) as reader:
        assert reader.head("busy").events == 151


def _read_only(path: Path) -> Iterator[None]:
    """``path`` made read-only for this process: immutable when running as root (root ignores modes)."""
    import shutil
    import subprocess

    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    chattr = shutil.which("chattr")
    if (
        chattr is None
        or subprocess.run([chattr, "+i", str(path)], capture_output=True, check=False).returncode
    ):
        pytest.skip("running as root on a file system without chattr +i: no file can be read-only here")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], capture_output=True, check=False)


def test_a_read_only_sqlite_database_reads_and_refuses_writes_with_a_code(
    tmp_path: Path, weekly: ag.Provider
) -> None:
    database = tmp_path / "runs.db"
    with ag.open_store(f"sqlite:///{database}") as store:
        store.start("r", weekly, "report")
    with contextlib.contextmanager(_read_only)(database), ag.open_store(f"sqlite:///{database}") as store:
        assert store.load("r").id == "r" and store.head("r").events == 1
        failure = error_of(lambda: store.record("r", "report/draft", "partial"))
        assert failure.code == "run-store-failed" and "readonly" in failure.message.replace("-", "")
        assert store.head("r").events == 1


def test_writes_and_next_step_read_the_head_only_never_the_history(db_url: str, weekly: ag.Provider) -> None:
    """Proof without a clock that a turn does not grow with the Run: damaged history goes unread by a turn."""
    with _lying_store(db_url, weekly) as (store, sql):
        sql.run(
            ("UPDATE agent_graph_run_events SET event = 'not json' WHERE run_id = 'a' AND sequence = 1", ())
        )
        step = store.next_step("a", weekly)
        assert step.run.events == 2
        head = store.record("a", "report/draft", "completed", provider=weekly, revision=step.revision)
        assert head.events == 3 and store.update_facts("a", {"x": 1}).events == 4
        assert code_of(lambda: store.load("a")) == "run-invalid"  # whole-Run reads still check everything
        assert [event.sequence for event in store.events("a", after=2)] == [3, 4]


def test_a_run_stops_growing_before_its_file_would_be_too_large_to_read(
    url: str, weekly: ag.Provider, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_graph._runtime import run_codec

    monkeypatch.setattr(run_codec, "MAX_RUN_BYTES", 40_000)
    with ag.open_store(url) as store:
        run = store.start(None, weekly, "report")
        codes = []
        for n in range(60):
            try:
                store.record(run.id, f"report/n{n}", "partial", detail={"pad": "x" * 1000})
            except ag.AgentGraphError as error:
                codes.append(error.code)
        assert codes and set(codes) == {"run-too-large"}
        kept = store.load(run.id)
        assert len(kept.events) == 61 - len(codes)
        store.export(run.id, str(tmp_path / "out.json"))
    assert ag.open_store(str(tmp_path / "again")).import_run(str(tmp_path / "out.json")) == kept
