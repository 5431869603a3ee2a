"""The pytest plugin: graph tests as pytest items, and fixtures for hosts' own tests.

Registered through the ``pytest11`` entry point, it does nothing until the
ini option ``agent_graph_manifest`` (or ``--agent-graph-manifest``) names a
Provider manifest. Then every ``agent-graph.test.v1`` file under the
Provider's ``tests/`` directory becomes one pytest item named by the test's
``name``, failing with the same ``<field>: expected X, received Y`` lines as
``agent-graph test``. When pytest runs without explicit paths, that directory
is collected even if it lies outside ``testpaths``.

With ``--agent-graph-coverage`` the graph tests' evaluations are counted and
the terminal summary shows which nodes, edges, outcomes and Gate resolutions
they exercised, per Graph and in total;
``--agent-graph-coverage-fail-under=PERCENT`` fails the session under that
total; ``--agent-graph-coverage-json=PATH`` also writes the report there. Coverage is counted in the process that runs the graph tests (with
pytest-xdist, each worker counts its own share: run the graph tests without
``-n`` to measure them).

Fixtures: ``agent_graph_provider`` (the loaded Provider, once per session),
``agent_graph_memory_fs`` (a :class:`MemoryProviderFileSystem` to build
Providers from dicts without touching the disk) and ``agent_graph_store`` (a
fresh, empty Run store for one test, in memory; see :mod:`agent_graph.testing`). Nothing here is imported by
the library itself; ``agent_graph`` is imported lazily so that installing the
plugin costs other test suites nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ._load.fs import MemoryFileSystem

if TYPE_CHECKING:
    from ._core.errors import AgentGraphError
    from ._core.model import TestCase
    from ._core.provider import Provider
    from ._runtime.run_store import BaseRunStore

__all__ = ["INI_MANIFEST", "GraphTestFailure", "GraphTestFile", "GraphTestItem", "MemoryProviderFileSystem"]

#: The ini option naming the Provider manifest (relative to the ini file's directory).
INI_MANIFEST = "agent_graph_manifest"
_TEST_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass
class _State:
    manifest: str
    tests: str
    provider: Any = None
    error: Any = None
    loaded: bool = field(default=False)
    coverage: bool = False
    fail_under: float | None = None
    coverage_json: str | None = None
    report: Any = None
    write_error: str | None = None
    collector: Any = None


_STATE = pytest.StashKey[_State]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        INI_MANIFEST, help="agent-graph: the Provider manifest whose tests/ become pytest items", default=""
    )
    group = parser.getgroup("agent-graph")
    group.addoption(
        "--agent-graph-manifest",
        dest="agent_graph_manifest",
        default=None,
        help=f"Provider manifest whose graph tests to run (overrides the {INI_MANIFEST} ini option)",
    )
    group.addoption(
        "--agent-graph-coverage",
        dest="agent_graph_coverage",
        action="store_true",
        help="report the nodes, edges, outcomes and Gate resolutions the graph tests exercised",
    )
    group.addoption(
        "--agent-graph-coverage-fail-under",
        dest="agent_graph_fail_under",
        type=float,
        default=None,
        metavar="PERCENT",
        help="fail when total graph-test coverage is under PERCENT (implies --agent-graph-coverage)",
    )
    group.addoption(
        "--agent-graph-coverage-json",
        dest="agent_graph_coverage_json",
        default=None,
        metavar="PATH",
        help="also write the coverage report (agent-graph.coverage.v1) to PATH (implies --agent-graph-coverage)",
    )


def _within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def pytest_configure(config: pytest.Config) -> None:
    option = config.getoption("agent_graph_manifest", default=None)
    if option:
        manifest = os.path.abspath(os.path.join(str(config.invocation_params.dir), option))
    else:
        value = str(config.getini(INI_MANIFEST) or "").strip()
        if not value:
            return
        base = config.inipath.parent if config.inipath is not None else config.rootpath
        manifest = os.path.abspath(os.path.join(str(base), value))
    tests = os.path.join(os.path.dirname(manifest), "tests")
    fail_under = config.getoption("agent_graph_fail_under", default=None)
    if fail_under is not None:
        from ._core.errors import AgentGraphError
        from ._core.graph_coverage import fail_under_percent

        try:
            fail_under_percent(fail_under)
        except AgentGraphError as error:
            raise pytest.UsageError(f"--agent-graph-coverage-fail-under: {error.message}") from None
    coverage_json = config.getoption("agent_graph_coverage_json", default=None)
    config.stash[_STATE] = _State(
        manifest=manifest,
        tests=tests,
        coverage=bool(config.getoption("agent_graph_coverage", default=False))
        or fail_under is not None
        or coverage_json is not None,
        fail_under=fail_under,
        coverage_json=os.path.abspath(os.path.join(str(config.invocation_params.dir), coverage_json))
        if coverage_json
        else None,
    )
    if not os.path.isdir(tests):
        config.issue_config_time_warning(
            pytest.PytestConfigWarning(f"agent-graph: no graph tests to collect, {tests} is not a directory"),
            stacklevel=2,
        )
        return
    source = getattr(config, "args_source", None)
    if source is None or source == pytest.Config.ArgsSource.ARGS:
        return  # explicit paths: collect only what was asked for
    invocation = str(config.invocation_params.dir)
    collected = [os.path.abspath(os.path.join(invocation, str(arg).split("::")[0])) for arg in config.args]
    if not any(_within(tests, path) for path in collected):
        config.args.append(tests)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    state = parent.config.stash.get(_STATE, None)
    if state is None or file_path.suffix.lower() not in _TEST_SUFFIXES:
        return None
    if not _within(os.path.abspath(str(file_path)), state.tests):
        return None
    result: pytest.Collector = GraphTestFile.from_parent(parent, path=file_path)
    return result


def _load(config: pytest.Config) -> Provider:
    state = config.stash[_STATE]
    if not state.loaded:
        from ._core.errors import AgentGraphError
        from ._load.loader import load_provider

        try:
            state.provider = load_provider(state.manifest)
        except AgentGraphError as error:
            state.error = error
        state.loaded = True
    if state.error is not None:
        raise state.error
    provider: Provider = state.provider
    return provider


def _collector(config: pytest.Config, provider: Provider) -> Any:
    """The session's coverage collector, made on first use; None without ``--agent-graph-coverage``."""
    state = config.stash[_STATE]
    if not state.coverage:
        return None
    if state.collector is None:
        from ._core.graph_coverage import CoverageCollector

        state.collector = CoverageCollector(provider)
    return state.collector


def _coverage_report(config: pytest.Config) -> Any:
    state = config.stash.get(_STATE, None)
    if state is None or not state.coverage or state.collector is None:
        return None
    if state.report is None:
        state.report = state.collector.report()
    return state.report


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    state = session.config.stash.get(_STATE, None)
    report = _coverage_report(session.config)
    if state is None or report is None:
        return
    from ._core.graph_coverage import falls_short

    failed = state.fail_under is not None and falls_short(report, state.fail_under)
    if state.coverage_json is not None:
        import msgspec

        from ._core.errors import AgentGraphError
        from ._load.atomic import write_bytes_atomic

        try:
            write_bytes_atomic(state.coverage_json, msgspec.json.encode(report) + b"\n")
        except AgentGraphError as error:  # the writer's coded errors, an OS failure included
            state.write_error = f"{error.code}: {error.message}"
            failed = True
    if failed and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is None or not state.coverage:
        return
    report = _coverage_report(config)
    terminalreporter.section("agent-graph coverage")
    if report is None:
        terminalreporter.write_line("no graph test ran: nothing to report")
        return
    from ._core.graph_coverage import coverage_table, falls_short

    for line in coverage_table(report):
        terminalreporter.write_line(line)
    if state.coverage_json is not None:
        if state.write_error is not None:
            terminalreporter.write_line(
                f"FAIL coverage report not written to {state.coverage_json}: {state.write_error}"
            )
        else:
            terminalreporter.write_line(f"coverage report written to {state.coverage_json}")
    if state.fail_under is not None:
        percent = report.total.total.percent
        if falls_short(report, state.fail_under):
            terminalreporter.write_line(
                f"FAIL coverage {percent:g}% is under --agent-graph-coverage-fail-under {state.fail_under:g}%"
            )
        else:
            terminalreporter.write_line(
                f"coverage {percent:g}% reaches --agent-graph-coverage-fail-under {state.fail_under:g}%"
            )


class GraphTestFailure(Exception):
    """A graph test that failed: its failure lines, as ``agent-graph test`` prints them."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def _error_lines(error: AgentGraphError) -> list[str]:
    lines = [f"{error.code}: {error.message}"]
    lines.extend(f"  {d.code}: {d.message}" for d in error.diagnostics)
    return lines


class GraphTestFile(pytest.File):
    """One YAML or JSON file under the Provider's ``tests/``: one graph test."""

    def collect(self) -> Iterator[pytest.Item]:
        from ._core.errors import AgentGraphError
        from ._runtime.testing import read_test_case

        try:
            display = os.path.relpath(self.path, self.config.rootpath)
            case = read_test_case(self.path.read_bytes(), str(self.path), display=display)
        except AgentGraphError as error:
            yield GraphTestItem.from_parent(self, name=self.path.name, case=None, error=error)
            return
        yield GraphTestItem.from_parent(self, name=case.name, case=case, error=None)


class GraphTestItem(pytest.Item):
    """A graph test (``agent-graph.test.v1``) run against the configured Provider."""

    def __init__(self, *, case: TestCase | None, error: AgentGraphError | None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.case = case
        self.error = error

    def runtest(self) -> None:
        from ._core.errors import AgentGraphError
        from ._runtime.testing import run_test_case

        if self.error is not None:
            raise GraphTestFailure(_error_lines(self.error))
        assert self.case is not None
        try:
            provider = _load(self.config)
            result = run_test_case(
                provider,
                self.case,
                str(self.path),
                workspace=str(self.config.invocation_params.dir),
                coverage=_collector(self.config, provider),
            )
        except AgentGraphError as error:
            raise GraphTestFailure(_error_lines(error)) from None
        if not result.passed:
            raise GraphTestFailure(list(result.failures))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, GraphTestFailure):
            return "\n".join(excinfo.value.lines)
        return str(super().repr_failure(excinfo, style=style))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"agent-graph test: {self.name}"


class MemoryProviderFileSystem(MemoryFileSystem):
    """A :class:`~agent_graph.MemoryFileSystem` rooted at ``/provider`` that writes dicts as YAML or JSON.

    >>> fs = MemoryProviderFileSystem()
    >>> fs.add("graphs/main.yaml", {"schema": "agent-graph.graph.v1", "id": "main"})
    '/provider/graphs/main.yaml'
    """

    def __init__(self, files: Mapping[str, Any] | None = None, *, root: str = "/provider") -> None:
        super().__init__(cwd=root)
        self.root = self.cwd
        for path, content in (files or {}).items():
            self.add(path, content)

    def add(self, path: str, content: Any) -> str:
        """Write one file: text or bytes as given, other JSON data as YAML (JSON for ``.json``). Returns its path."""
        if isinstance(content, (str, bytes, bytearray)):
            self.write(path, bytes(content) if isinstance(content, bytearray) else content)
        elif path.lower().endswith(".json"):
            import json

            self.write(path, json.dumps(content, indent=2, ensure_ascii=False) + "\n")
        else:
            from ._toolchain.scaffold import dump_yaml

            self.write(path, dump_yaml(content))
        return self.absolute(path)

    def load(self, manifest: str = "provider.yaml") -> Provider:
        """Load the Provider whose manifest is at ``manifest`` (relative to the root)."""
        from ._load.loader import load_provider

        return load_provider(self.absolute(manifest), fs=self)


@pytest.fixture(scope="session")
def agent_graph_provider(request: pytest.FixtureRequest) -> Provider:
    """The Provider named by the ``agent_graph_manifest`` ini option, loaded once per session."""
    if request.config.stash.get(_STATE, None) is None:
        pytest.fail(
            f"agent_graph_provider needs the {INI_MANIFEST} ini option (or --agent-graph-manifest)",
            pytrace=False,
        )
    return _load(request.config)


@pytest.fixture
def agent_graph_memory_fs() -> MemoryProviderFileSystem:
    """An empty in-memory file system for building Providers from dicts: ``fs.add(path, data)``, then ``fs.load()``."""
    return MemoryProviderFileSystem()


@pytest.fixture
def agent_graph_store() -> Iterator[BaseRunStore]:
    """A fresh, empty Run store for one test (in memory), closed after it: ``agent_graph.testing.drive(…, store=…)``."""
    from ._runtime.drive import fresh_store

    with fresh_store() as store:
        yield store
