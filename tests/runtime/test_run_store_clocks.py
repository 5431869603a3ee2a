"""Time only through the injected clocks: a store's deadlines read the monotonic clock it is given (``monotonic=``).

Each test hands a store a clock that moves a day at every reading, far past
its ``lock_timeout``: a deadline read from that clock expires at the next
reading, one read from the system's clock would not (the tests would then
wait, or land the write, and fail).
"""

from __future__ import annotations

import fcntl
import os
import sys
from pathlib import Path

import pytest

import agent_graph as ag
from tests.fakes import FakeMonotonic
from tests.in_process import code_of
from tests.paths import WEEKLY


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(str(WEEKLY))


@pytest.mark.skipif(sys.platform == "win32", reason="the test holds the lock with flock")
def test_the_file_lock_deadline_reads_the_stores_clock(tmp_path: Path, weekly: ag.Provider) -> None:
    clock = FakeMonotonic(86_400.0, step=86_400.0)  # a day further on at every reading
    with ag.open_store(str(tmp_path / "runs"), lock_timeout=120, monotonic=clock) as store:
        run = store.start(None, weekly, "report")
        path = store.path(run.id)
        holder = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(holder, fcntl.LOCK_EX)  # another writer holds the Run
            assert code_of(lambda: store.record(run.id, "report/draft", "completed")) == "run-lock-timeout"
        finally:
            os.close(holder)
        assert clock.readings >= 2
        assert store.record(run.id, "report/draft", "completed").events == 2


def test_a_postgresql_write_decided_again_past_its_deadline_times_out(
    postgres_url: str, weekly: ag.Provider
) -> None:
    clock = FakeMonotonic(86_400.0, step=86_400.0)  # a day further on at every reading
    with ag.open_store(postgres_url, monotonic=clock) as remembering, ag.open_store(postgres_url) as other:
        run = remembering.start(None, weekly, "report")
        remembering.record(run.id, "report/draft", "partial")  # the row this store wrote last
        other.record(run.id, "report/draft", "partial")  # someone else wrote since
        # The first try, guarded by the remembered row, lands nothing; the deadline (read from the
        # injected clock) is past before the change is decided again on the row as read.
        assert code_of(lambda: remembering.record(run.id, "report/draft", "completed")) == "run-lock-timeout"
        assert remembering.head(run.id).events == 3  # nothing was written
        assert clock.readings >= 2


def test_the_pool_trusts_a_connection_by_the_stores_clock(postgres_url: str) -> None:
    import psycopg

    from agent_graph._runtime.runs_postgres import CHECK_AFTER_IDLE, RecentConnections

    clock = FakeMonotonic(1000.0, step=0.0)
    recent = RecentConnections(clock)
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        recent.answered(connection)
        assert recent.trusted(connection)
        clock.advance(CHECK_AFTER_IDLE)  # idle as long as the bound, by the store's clock
        assert not recent.trusted(connection)


def test_sqlite_opens_by_the_stores_clock(tmp_path: Path) -> None:
    clock = FakeMonotonic(step=0.0)
    with ag.open_store(f"sqlite:///{tmp_path / 'runs.db'}", monotonic=clock):
        assert clock.readings  # the deadline of opening (another process may be switching the file to WAL)


@pytest.mark.parametrize("url", ["folder", "sqlite:///runs.db", "memory://"])
def test_a_monotonic_clock_that_is_not_one_is_refused(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert code_of(lambda: ag.open_store(url, monotonic=42)) == "argument-invalid"
    if url.startswith("sqlite:"):  # SQLite reads the clock as it opens the database
        assert code_of(lambda: ag.open_store(url, monotonic=lambda: "soon")) == "argument-invalid"
        return
    store = ag.open_store(url, monotonic=lambda: "soon")
    try:
        assert code_of(store.storage.monotonic) == "argument-invalid"
    finally:
        store.close()
