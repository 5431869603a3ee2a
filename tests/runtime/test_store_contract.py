"""agent-graph's own stores run the public store contract exactly as a third party would, over both faces."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from agent_graph.testing.store_contract import RunStoreContract


class TestFileStore(RunStoreContract):
    @pytest.fixture(params=("sync", "async"))
    def open_run_store(self, request: pytest.FixtureRequest, tmp_path: Path) -> object:
        opener = ag.open_store if request.param == "sync" else ag.open_async_store
        return functools.partial(opener, str(tmp_path / "runs"))


class TestSqliteStore(RunStoreContract):
    @pytest.fixture(params=("sync", "async"))
    def open_run_store(self, request: pytest.FixtureRequest, tmp_path: Path) -> object:
        opener = ag.open_store if request.param == "sync" else ag.open_async_store
        return functools.partial(opener, f"sqlite:///{tmp_path / 'runs.db'}")


class TestMemoryStore(RunStoreContract):
    """``memory://`` keeps its Runs in one object: the opener answers that same store at every call."""

    @pytest.fixture(params=("sync", "async"))
    def open_run_store(self, request: pytest.FixtureRequest) -> object:
        opened: list[Any] = []
        if request.param == "sync":

            def blocking(**options: Any) -> Any:
                if not opened:
                    opened.append(ag.open_store("memory://", **options))
                return opened[0]

            return blocking

        async def awaited(**options: Any) -> Any:
            if not opened:
                opened.append(await ag.open_async_store("memory://", **options))
            return opened[0]

        return awaited


class TestPostgresStore(RunStoreContract):
    @pytest.fixture(params=("sync", "async"))
    def open_run_store(self, request: pytest.FixtureRequest, postgres_url: str) -> object:
        opener = ag.open_store if request.param == "sync" else ag.open_async_store
        return functools.partial(opener, postgres_url)


def test_the_contracts_event_loops_end_their_worker_threads() -> None:
    import asyncio
    import threading

    from agent_graph.testing._contract_support import close_loop as _close_loop

    loop = asyncio.new_event_loop()
    name = loop.run_until_complete(asyncio.to_thread(lambda: threading.current_thread().name))
    _close_loop(loop)
    assert loop.is_closed()
    assert name not in {thread.name for thread in threading.enumerate()}
