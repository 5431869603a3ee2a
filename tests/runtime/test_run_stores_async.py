"""The async face of the stores: real async PostgreSQL, worker threads for files and SQLite, never a blocked loop.

The contract scenarios run over the async face in tests/runtime/test_store_contract.py;
these are the async face's own promises.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from tests.paths import WEEKLY


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(str(WEEKLY))


async def _error(awaitable: Any) -> ag.AgentGraphError:
    with pytest.raises(ag.AgentGraphError) as caught:
        await awaitable
    return caught.value


def test_the_async_postgres_store_is_async_and_refuses_what_the_sync_one_refuses(
    postgres_url: str, tmp_path: Path, weekly: ag.Provider
) -> None:
    from psycopg_pool import AsyncConnectionPool, ConnectionPool

    async def scenario() -> None:
        store = await ag.open_async_store(postgres_url)
        assert isinstance(store, ag.AsyncPostgresRunStore)
        run = await store.start(None, weekly, "report")
        assert (await store.head(run.id)).events == 1
        await store.aclose()
        assert (await _error(store.head(run.id))).code == "run-store-closed"
        bad = await _error(ag.open_async_store(f"postgresql://postgres@/postgres?host={tmp_path}"))
        assert bad.code == "run-store-unavailable" and "No such file or directory" in bad.message
        sync_pool = ConnectionPool(postgres_url, open=False)
        wrong = await _error(ag.open_async_store(postgres_url, pool=sync_pool))
        assert wrong.code == "argument-invalid" and "PostgresRunStore" in wrong.message
        async with AsyncConnectionPool(postgres_url, kwargs={"autocommit": True}, open=False) as pool:
            async with await ag.open_async_store(postgres_url, pool=pool) as shared:
                assert (await shared.load(run.id)).id == run.id
            async with pool.connection() as connection:  # the host's pool stays open
                await connection.execute("SELECT 1")

    asyncio.run(scenario())


def test_a_write_waiting_for_a_held_run_stalls_nothing_else_on_the_loop(
    postgres_url: str, weekly: ag.Provider
) -> None:
    import psycopg

    async def scenario() -> None:
        async with await ag.open_async_store(postgres_url, lock_timeout=120) as store:
            held = await store.start(None, weekly, "report")
            free = await store.start(None, weekly, "report")
            with psycopg.connect(postgres_url) as holder:
                holder.execute("SELECT id FROM agent_graph_runs WHERE id = %s FOR UPDATE", (held.id,))
                waiting = asyncio.ensure_future(store.record(held.id, "report/draft", "partial"))
                for _ in range(6000):  # until the write waits for the row (a hang guard of a minute)
                    await asyncio.sleep(0.01)
                    if holder.execute("SELECT count(*) FROM pg_locks WHERE NOT granted").fetchone() != (0,):
                        break
                for n in range(5):  # meanwhile the store answers everything else
                    await store.record(free.id, f"report/n{n}", "completed")
                    await store.next_step(free.id, weekly)
                assert not waiting.done()
                async with await ag.open_async_store(postgres_url, lock_timeout=0.2) as impatient:
                    error = await _error(impatient.record(held.id, "report/draft", "partial"))
                    assert error.code == "run-lock-timeout"
                holder.rollback()
            assert (await asyncio.wait_for(waiting, 120)).events == 2  # the row is free: the write lands
            assert (await store.head(free.id)).events == 6

    asyncio.run(scenario())


def test_sqlite_waits_happen_in_a_worker_thread_not_on_the_loop(tmp_path: Path, weekly: ag.Provider) -> None:
    database = tmp_path / "runs.db"

    async def scenario() -> None:
        async with await ag.open_async_store(f"sqlite:///{database}", lock_timeout=120) as store:
            run = await store.start(None, weekly, "report")
            writer = sqlite3.connect(str(database), isolation_level=None)
            writer.execute("BEGIN IMMEDIATE")
            try:
                waiting = asyncio.ensure_future(store.record(run.id, "report/draft", "partial"))
                for _ in range(20):  # the loop keeps running while the write waits for the lock
                    await asyncio.sleep(0.01)
                assert not waiting.done()
                # A read of the same store does not queue behind its own waiting write.
                assert (await asyncio.wait_for(store.head(run.id), 60)).events == 1
                assert len(await asyncio.wait_for(store.events(run.id), 60)) == 1
                async with await ag.open_async_store(f"sqlite:///{database}", lock_timeout=0.2) as impatient:
                    assert (await impatient.head(run.id)).events == 1  # readers go on meanwhile, too
                    error = await _error(impatient.record(run.id, "report/draft", "partial"))
                    assert error.code == "run-lock-timeout"
            finally:
                writer.execute("ROLLBACK")
                writer.close()
            assert (await asyncio.wait_for(waiting, 120)).events == 2  # the lock is free: the write lands
        assert (await _error(store.load(run.id))).code == "run-store-closed"

    asyncio.run(scenario())


def test_the_async_postgres_store_outlives_its_connections_being_killed(
    postgres_url: str, weekly: ag.Provider
) -> None:
    import psycopg

    async def scenario() -> None:
        async with await ag.open_async_store(postgres_url, pool_size=2) as store:
            run = await store.start(None, weekly, "report")
            for round_ in range(3):
                with psycopg.connect(postgres_url, autocommit=True) as admin:
                    admin.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE pid <> pg_backend_pid() AND datname = current_database()"
                        " AND application_name <> 'pg_ctl'"
                    )
                head = await store.record(run.id, f"report/n{round_}", "completed")
                assert head.events == 2 + round_
            whole = await store.load(run.id)
            assert [event.sequence for event in whole.events] == [1, 2, 3, 4]

    asyncio.run(scenario())


def test_the_async_postgres_store_cut_during_its_guarded_write_says_it_cannot_tell(
    postgres_url: str, weekly: ag.Provider
) -> None:
    import psycopg

    from tests.runtime.test_run_store_concurrency import _SLOW_EVENTS, _terminate_when_sleeping

    async def scenario() -> None:
        async with await ag.open_async_store(postgres_url, retries=0) as store:
            await store.start("victim", weekly, "report")
            with psycopg.connect(postgres_url, autocommit=True) as admin:
                admin.execute(_SLOW_EVENTS)
            before = await store.load("victim")
            stop = threading.Event()
            killed: list[int] = []
            killer = threading.Thread(
                target=lambda: killed.extend(_terminate_when_sleeping(postgres_url, stop))
            )
            killer.start()
            try:  # the guarded write has updated the head row and is inserting its event when it is cut
                error = await _error(store.record("victim", "cut/n0", "completed"))
            finally:
                stop.set()
                killer.join(60)
            assert killed, "the writer never reached the trigger"
            assert error.code == "run-store-unavailable"
            assert "may or may not have landed" in error.message  # the statement commits on its own
            assert (
                await store.load("victim") == before
            )  # it did not: the statement landed whole or not at all

    asyncio.run(scenario())


def test_the_async_face_replaces_authorities_with_update_authorities(
    tmp_path: Path, weekly: ag.Provider
) -> None:
    async def scenario() -> None:
        async with await ag.open_async_store(f"sqlite:///{tmp_path / 'runs.db'}") as store:
            run = await store.start(None, weekly, "report", authorities=["x"])
            assert not hasattr(store, "set_authorities")
            head = await store.update_authorities(run.id, replace=["q", "b"])
            assert head.authorities == ("b", "q") and (await store.head(run.id)).authorities == ("b", "q")

    asyncio.run(scenario())


# ---------------------------------------------------------------- stores left open, stores on other loops

UNCLOSED = """
import asyncio, sys
import agent_graph as ag

async def main():
    store = await ag.open_async_store(sys.argv[1], lock_timeout=600)  # never closed, no async with
    run = await store.start(None, "p/x", "g")
    writes = [asyncio.create_task(store.record(run.id, f"g/n{n}", "completed")) for n in range(30)]
    await asyncio.sleep(0)  # the writes are in flight as the loop ends
    print("left", flush=True)

asyncio.run(main())
print("exited", flush=True)
"""

OTHER_LOOP = """
import asyncio, sys
import agent_graph as ag

async def opened():
    store = await ag.open_async_store(sys.argv[1], lock_timeout=600)
    await store.start("r", "p/x", "g")
    return store

store = asyncio.run(opened())  # its loop has ended: the store closed its pool with it
for call in (lambda: store.load("r"), lambda: store.record("r", "g/n", "completed"), store.aclose):
    try:
        asyncio.run(call())
        print("answered", flush=True)
    except ag.AgentGraphError as error:
        print(error.code, flush=True)

async def shared():  # one store opened on a loop, called from a second loop while the first still runs
    store = await ag.open_async_store(sys.argv[1], lock_timeout=600)
    def elsewhere():
        try:
            asyncio.run(store.head("r"))
            return "answered"
        except ag.AgentGraphError as error:
            return error.code
    print(await asyncio.to_thread(elsewhere), flush=True)
    print((await store.head("r")).events, flush=True)  # its own loop still uses it
    await store.aclose()

asyncio.run(shared())
"""


def _python(script: str, *arguments: str) -> Any:
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-c", script, *arguments], capture_output=True, text=True, timeout=180, check=False
    )


def test_an_async_postgres_store_left_open_does_not_keep_the_process_from_exiting(postgres_url: str) -> None:
    done = _python(UNCLOSED, postgres_url)  # a hang would exceed the timeout (the writes wait 600 s)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["left", "exited"]
    assert "Traceback" not in done.stderr


def test_an_async_postgres_store_refuses_another_event_loop_at_once(postgres_url: str) -> None:
    done = _python(OTHER_LOOP, postgres_url)  # waiting for the pool would take 600 s, past the timeout
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "run-store-loop-mismatch",
        "run-store-loop-mismatch",
        "answered",  # aclose of a store whose pool closed with its loop: nothing left to do
        "run-store-loop-mismatch",
        "1",
    ]
