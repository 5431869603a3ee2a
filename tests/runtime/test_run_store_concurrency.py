"""Concurrent writers through every store lose nothing; a stale revision loses; a dropped PostgreSQL connection
leaves the Run whole.

Writers are separate processes that wait for one start signal (a file), so
their writes really overlap. PostgreSQL runs on the real server the test
session starts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
import agent_graph.types as agt
from tests.paths import WEEKLY

WRITERS = 8
RECORDS = 10

_WRITER = r"""
import json, os, sys, time
import agent_graph as ag
url, ref, go, mode, index = sys.argv[1:6]
provider = ag.load_provider(os.environ["WEEKLY"]) if mode == "stale" else None
store = ag.open_store(url)
while not os.path.exists(go):
    time.sleep(0.002)
results = []
if mode == "many":
    for n in range(int(os.environ["RECORDS"])):
        store.record(ref, f"writer-{index}/n{n}", "completed", detail={"writer": int(index), "n": n})
        results.append("ok")
else:
    try:
        store.record(ref, "report/draft", "partial", detail={"writer": int(index)}, provider=provider,
                     revision=os.environ["REVISION"])
        results.append("ok")
    except ag.AgentGraphError as error:
        results.append(error.code)
store.close()
print(json.dumps(results))
"""


def _url(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "file":
        return str(tmp_path / "runs")
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'runs.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


def _writers(url: str, ref: str, mode: str, tmp_path: Path, **env: str) -> list[list[str]]:
    go = tmp_path / "go"
    environment = {**os.environ, "WEEKLY": str(WEEKLY), "RECORDS": str(RECORDS), **env}
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, url, ref, str(go), mode, str(index)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
        for index in range(WRITERS)
    ]
    time.sleep(0.3)  # let them start; the signal makes them write together
    go.write_text("go", "utf-8")
    results = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        results.append(json.loads(out))
    return results


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(str(WEEKLY))


@pytest.mark.parametrize("kind", ["file", "sqlite", "postgres"])
@pytest.mark.slow
def test_eight_processes_recording_ten_times_each_lose_nothing(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, weekly: ag.Provider
) -> None:
    url = _url(kind, tmp_path, request)
    with ag.open_store(url) as store:
        run = store.start(None, weekly, "report")
        ref = run.id + ".json" if kind == "file" else run.id
    results = _writers(url, ref, "many", tmp_path)
    assert results == [["ok"] * RECORDS] * WRITERS
    with ag.open_store(url) as store:
        run = store.load(ref)
    assert len(run.outcomes) == WRITERS * RECORDS
    assert [event.sequence for event in run.events] == list(range(1, WRITERS * RECORDS + 2))
    recorded = sorted((e.detail["writer"], e.detail["n"]) for e in run.events[1:])
    assert recorded == [(w, n) for w in range(WRITERS) for n in range(RECORDS)]
    for writer in range(WRITERS):  # each writer's records landed in its own order
        own = [e.detail["n"] for e in run.events[1:] if e.detail["writer"] == writer]
        assert own == list(range(RECORDS))


@pytest.mark.parametrize("kind", ["file", "sqlite", "postgres"])
@pytest.mark.slow
def test_eight_processes_recording_at_one_revision_exactly_one_wins(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, weekly: ag.Provider
) -> None:
    url = _url(kind, tmp_path, request)
    with ag.open_store(url) as store:
        run = store.start(None, weekly, "report")
        ref = run.id + ".json" if kind == "file" else run.id
        revision = store.next_step(ref, weekly).revision
    results = [codes[0] for codes in _writers(url, ref, "stale", tmp_path, REVISION=revision)]
    assert sorted(results) == ["ok"] + ["run-revision-stale"] * (WRITERS - 1)
    with ag.open_store(url) as store:
        run = store.load(ref)
    assert [event.sequence for event in run.events] == [1, 2]
    assert run.events[1].detail["writer"] == results.index("ok")


# ---------------------------------------------------------------- PostgreSQL: connections dropped mid-write


_SLOW_EVENTS = """
CREATE OR REPLACE FUNCTION agent_graph_test_slow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.run_id = 'victim' AND nextval('slow_once') = 1 THEN  -- sequences ignore rollbacks: once only
        PERFORM pg_sleep(60);
    END IF;
    RETURN NEW;
END $$;
CREATE SEQUENCE slow_once;
CREATE TRIGGER agent_graph_test_slow BEFORE INSERT ON agent_graph_run_events
    FOR EACH ROW EXECUTE FUNCTION agent_graph_test_slow();
"""


def _terminate_when_sleeping(url: str, stop: threading.Event) -> list[int]:
    """Terminate the first backend found sleeping in the trigger; returns its pid."""
    import psycopg

    killed: list[int] = []
    with psycopg.connect(url, autocommit=True) as admin:
        while not stop.is_set() and not killed:
            rows = admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND pid <> pg_backend_pid()"
            ).fetchall()
            for (pid,) in rows:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
                killed.append(pid)
            time.sleep(0.01)
    return killed


def _record_while_killed(store: Any, node: str) -> tuple[Any, list[int]]:
    stop = threading.Event()
    killed: list[int] = []
    killer = threading.Thread(target=lambda: killed.extend(_terminate_when_sleeping(store.conninfo, stop)))
    killer.start()
    try:
        try:
            answer: Any = store.record("victim", node, "completed")
        except ag.AgentGraphError as error:
            answer = error
    finally:
        stop.set()
        killer.join(60)
    return answer, killed


def test_a_connection_dropped_in_the_middle_of_a_write_leaves_the_run_whole(
    postgres_url: str, weekly: ag.Provider
) -> None:
    import psycopg

    with ag.PostgresRunStore(postgres_url, retries=0) as store:
        store.start("victim", weekly, "report")
        acknowledged = [store.record("victim", f"before/n{n}", "completed") for n in range(5)]
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(_SLOW_EVENTS)
        before = store.load("victim")
        # The writer has updated the Run's row and is inserting its event when its connection is cut.
        answer, killed = _record_while_killed(store, "cut/n0")
        assert killed, "the writer never reached the trigger"
        assert isinstance(answer, ag.AgentGraphError) and answer.code == "run-store-unavailable"
        # Cut during the statement that commits on its own: the store cannot know it did not land.
        assert "may or may not have landed" in answer.message
        after = store.load("victim")
        assert after == before  # no half-written Run: neither the row's update nor the event landed
        assert "cut/n0" not in after.outcomes
        for run in acknowledged:  # everything acknowledged is there
            assert all(key in after.outcomes for key in run.outcomes)
        # The pool replaced the dropped connection: writing goes on.
        store.record("victim", "after/n0", "completed")
        run = store.load("victim")
        assert [e.sequence for e in run.events] == list(range(1, len(before.events) + 2))


def test_a_write_whose_connection_drops_before_commit_is_retried_once_and_lands_once(
    postgres_url: str, weekly: ag.Provider
) -> None:
    import psycopg

    with ag.PostgresRunStore(postgres_url, retries=1) as store:
        store.start("victim", weekly, "report")
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute(_SLOW_EVENTS)
        answer, killed = _record_while_killed(store, "cut/n0")
        assert killed and isinstance(answer, agt.RunHead)
        run = store.load("victim")
        assert answer.events == 2 and [e.sequence for e in run.events] == [1, 2]
        assert [e.node for e in run.events[1:]] == ["cut/n0"]


@pytest.mark.slow
def test_idle_connections_killed_between_writes_lose_nothing(postgres_url: str, weekly: ag.Provider) -> None:
    from tests import pg_server

    with ag.PostgresRunStore(postgres_url, pool_size=2, retries=0) as store:
        store.start("steady", weekly, "report")
        for n in range(6):
            store.record("steady", f"n{n}", "completed")
            pg_server.terminate_clients(postgres_url, "application_name = ''")  # between writes: gone
            assert [summary.id for summary in store.list()] == ["steady"]  # reads go on too
        run = store.load("steady")
    assert sorted(run.outcomes) == [f"n{n}" for n in range(6)]
    assert [e.sequence for e in run.events] == list(range(1, 8))


def test_a_writer_waiting_for_a_held_row_times_out_with_its_code(
    postgres_url: str, weekly: ag.Provider
) -> None:
    import psycopg

    with ag.PostgresRunStore(postgres_url, lock_timeout=0.2) as store:
        store.start("held", weekly, "report")
        with psycopg.connect(postgres_url) as holder:
            holder.execute("SELECT 1 FROM agent_graph_runs WHERE id = 'held' FOR UPDATE")
            with pytest.raises(ag.AgentGraphError) as caught:
                store.record("held", "n", "completed")
            holder.rollback()
        assert caught.value.code == "run-lock-timeout"
        assert len(store.events("held")) == 1


def test_a_sqlite_writer_waiting_for_the_write_lock_times_out_with_its_code(
    tmp_path: Path, weekly: ag.Provider
) -> None:
    import sqlite3

    path = tmp_path / "runs.db"
    with ag.SqliteRunStore(str(path), lock_timeout=0.2) as store:
        store.start("held", weekly, "report")
        holder = sqlite3.connect(str(path), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(ag.AgentGraphError) as caught:
                store.record("held", "n", "completed")
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert caught.value.code == "run-lock-timeout"
        assert len(store.events("held")) == 1
        assert store.load("held").outcomes == {}


@pytest.mark.parametrize("kind", ["file", "sqlite", "postgres"])
def test_one_store_shared_by_four_threads_loses_nothing(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, weekly: ag.Provider
) -> None:
    url = _url(kind, tmp_path, request)
    with ag.open_store(url) as store:
        run = store.start(None, weekly, "report")
        ref = run.id + ".json" if kind == "file" else run.id
        failures: list[BaseException] = []

        def write(thread: int) -> None:
            try:
                for n in range(10):
                    store.record(ref, f"thread-{thread}/n{n}", "completed")
                    store.next_step(ref, weekly)
            except BaseException as error:  # reported below
                failures.append(error)

        threads = [threading.Thread(target=write, args=(index,)) for index in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert failures == []
        run = store.load(ref)
    assert len(run.outcomes) == 40
    assert [event.sequence for event in run.events] == list(range(1, 42))
