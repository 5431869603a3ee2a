"""agent-graph's own stores run the public store contract exactly as a third party would, over both faces."""

from __future__ import annotations

import functools
from pathlib import Path

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


class TestPostgresStore(RunStoreContract):
    @pytest.fixture(params=("sync", "async"))
    def open_run_store(self, request: pytest.FixtureRequest, postgres_url: str) -> object:
        opener = ag.open_store if request.param == "sync" else ag.open_async_store
        return functools.partial(opener, postgres_url)
