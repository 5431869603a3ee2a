"""Shared test fixtures (where the toolchain's vectors live, a PostgreSQL server) and collection rules."""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run, so CI is never red by chance;
# `python -m fuzz` explores random seeds instead.
settings.register_profile("agent-graph", derandomize=True, deadline=None)
settings.load_profile("agent-graph")

REPO = Path(__file__).resolve().parents[1]
#: The TypeScript toolchain's recorded answers, kept in the repository as test data (see its README).
VECTORS = REPO / "tests" / "vectors"
_database_numbers = itertools.count(1)
#: An object's address in a test ID (``<object object at 0x7f…>``): it differs between processes.
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse test IDs that differ between processes: pytest-xdist's workers must collect the same tests.

    A parametrized case whose ID prints an object's ``repr`` gets ``pytest.param(..., id="what it is")``.
    """
    unstable = [item.nodeid for item in items if _ADDRESS.search(item.nodeid)]
    if unstable:
        raise pytest.UsageError(
            "test IDs that hold an object's address differ between processes; give them an id=: "
            + ", ".join(unstable[:5])
        )


@pytest.fixture(scope="session", autouse=True)
def _isolated_load_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep the default load cache of the test run out of the user's cache directory."""
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous


@pytest.fixture(scope="session")
def vectors() -> Path:
    """The folder of vectors recorded from the TypeScript toolchain (``tests/vectors``)."""
    return VECTORS


def vector_json(name: str) -> Any:
    """A file of the vectors, read as JSON; a checkout without it fails here rather than skipping."""
    return json.loads((VECTORS / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server of this test session (a throwaway cluster on a Unix socket); its admin URL.

    Skips, with the reason, only where no server can be started at all (no
    server programs, no psycopg). Stopped when the session ends.
    """
    try:
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError as error:
        pytest.skip(f"the postgres extra is not installed ({error}): pip install -e '.[postgres]'")
    from tests import pg_server

    try:
        server = pg_server.start()
    except RuntimeError as error:
        pytest.skip(f"no PostgreSQL server can be started here: {error}")
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture()
def postgres_url(postgres_server: str) -> str:
    """A URL of a new, empty schema on the session's PostgreSQL server (its ``search_path``)."""
    import psycopg

    name = f"t{os.getpid()}_{next(_database_numbers)}"
    with psycopg.connect(postgres_server, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {name}")
    return f"{postgres_server}&options=-csearch_path%3D{name}"


def _store_url(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if kind == "file":
        return str(tmp_path / "runs")
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'runs.db'}"
    if kind == "memory":
        return "memory://"  # every open is a new, empty store, of this process only
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture(params=("file", "sqlite", "postgres"))
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty store of each kind that outlives a process: a folder of Run files, SQLite, PostgreSQL."""
    return _store_url(request.param, request, tmp_path)


@pytest.fixture(params=("file", "sqlite", "postgres", "memory"))
def any_store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty store of every kind, the in-process ``memory://`` one included."""
    return _store_url(request.param, request, tmp_path)


@pytest.fixture(params=("sqlite", "postgres"))
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new SQLite database, then of a new PostgreSQL schema: each database store once."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'runs.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


class Result:
    """Exit status and the captured streams of one run."""

    def __init__(self, status: int, out: str, err: str) -> None:
        self.status = status
        self.out = out
        self.err = err

    def json(self) -> Any:
        lines = self.out.splitlines()
        assert len(lines) == 1, self.out
        return json.loads(lines[0])

    def envelope(self) -> dict[str, Any]:
        assert self.status == 1
        assert self.out == ""
        lines = self.err.splitlines()
        assert len(lines) == 1, self.err
        value: dict[str, Any] = json.loads(lines[0])
        assert list(value) == ["schema", "state", "error"]
        assert value["schema"] == "agent-graph.error.v1" and value["state"] == "error"
        assert list(value["error"]) == ["code", "message", "diagnostics"]
        from agent_graph._syntax import schema as _schema

        _schema.validate("error", value, "stderr")
        return value


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Any:
    """The command line in this process: ``cli("run", "next", …)`` answers a :class:`Result`."""
    from agent_graph._cli.main import main

    def run(*argv: str) -> Result:
        status = main(list(argv))
        captured = capsys.readouterr()
        return Result(status, captured.out, captured.err)

    return run
