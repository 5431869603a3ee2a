"""The pytest plugin: graph tests as pytest items, and fixtures for hosts' own tests.

Registered through the ``pytest11`` entry point, it does nothing until a
Provider manifest is named: the ini option ``agent_graph_manifest`` (one
manifest a line, relative to the ini file), ``--agent-graph-manifest`` (given
once per manifest, relative to the current directory; it replaces the ini
option), or ``agent_graph_manifest = "…"`` (a path or a list of paths,
relative to the file) in a ``conftest.py``, which names the Provider of that
directory. Then every ``agent-graph.test.v1`` file under a named Provider's
``tests/`` directory becomes one pytest item named by the test's ``name``,
failing with the same ``<field>: expected X, received Y`` lines as
``agent-graph test``. When pytest runs without explicit paths, the ``tests/``
of the ini and command-line manifests are collected even if they lie outside
``testpaths``.

With ``--agent-graph-coverage`` the graph tests' evaluations are counted and
the terminal summary shows which nodes, edges, outcomes and Gate resolutions
they exercised, per Provider, per Graph and in total, whichever process ran
them: pytest-xdist's workers send what they counted to the controller, which
reports the whole run. ``--agent-graph-coverage-fail-under=PERCENT`` fails the
session when a Provider's total is under PERCENT, and when no graph test of a
Provider ran at all (nothing measured is no pass);
``--agent-graph-coverage-json=PATH`` also writes the report there (a list of
reports when several Providers are named).

Fixtures: ``agent_graph_provider`` (the Provider of the test's directory,
loaded once per session), ``agent_graph_memory_fs`` (a
:class:`agent_graph.testing.MemoryProviderFileSystem` to build Providers from
dicts without touching the disk) and ``agent_graph_store`` (a fresh, empty Run
store for one test, in memory; see :mod:`agent_graph.testing`). Nothing here is
imported by the library itself; the rest of ``agent_graph`` is imported lazily
so that installing the
plugin costs other test suites nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest

from .testing.memory import MemoryProviderFileSystem as _MemoryProviderFileSystem

if TYPE_CHECKING:
    from ._core.errors import AgentGraphError
    from ._core.graph_coverage import CoverageReport
    from ._core.model import TestCase
    from ._core.provider import Provider
    from ._runtime.run_store import BaseRunStore

__all__ = ["CONFTEST_MANIFEST", "INI_MANIFEST", "GraphTestFailure", "GraphTestFile", "GraphTestItem"]

#: The ini option naming the Provider manifests (one a line, relative to the ini file's directory).
INI_MANIFEST = "agent_graph_manifest"
#: The ``conftest.py`` variable naming its directory's Provider manifest (or a list of them).
CONFTEST_MANIFEST = "agent_graph_manifest"
_TEST_SUFFIXES = (".yaml", ".yml", ".json")
#: The key of pytest-xdist's ``workeroutput`` that carries a worker's coverage to the controller.
_WORKER_OUTPUT = "agent_graph_coverage"


@dataclass
class _Suite:
    """One Provider's graph tests: its manifest, its ``tests/``, the Provider once loaded, its coverage."""

    manifest: str
    tests: str
    provider: Any = None
    error: Any = None
    loaded: bool = False
    collector: Any = None
    snapshots: list[Any] = field(default_factory=list)  # what pytest-xdist's workers counted


@dataclass
class _State:
    suites: dict[str, _Suite] = field(default_factory=dict)  # by manifest path, in the order named
    named: tuple[str, ...] = ()  # the manifests of the ini option or the command line
    coverage: bool = False
    fail_under: float | None = None
    coverage_json: str | None = None
    lines: list[str] = field(default_factory=list)  # the coverage section of the terminal summary
    conftests: dict[str, tuple[str, ...]] = field(default_factory=dict)  # conftest file -> its manifests


_STATE = pytest.StashKey[_State]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(
        INI_MANIFEST,
        type="linelist",
        help="agent-graph: the Provider manifests (one a line) whose tests/ become pytest items",
        default=[],
    )
    group = parser.getgroup("agent-graph")
    group.addoption(
        "--agent-graph-manifest",
        dest="agent_graph_manifest",
        action="append",
        default=None,
        metavar="PATH",
        help=f"Provider manifest whose graph tests to run; repeat for several (replaces the {INI_MANIFEST} ini option)",
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
        help="fail when a Provider's graph-test coverage is under PERCENT, or none of its tests ran "
        "(implies --agent-graph-coverage)",
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


def _named_manifests(config: pytest.Config) -> list[str]:
    """The manifests of the command line (relative to the current directory), else of the ini option."""
    given = config.getoption("agent_graph_manifest", default=None)
    if given:
        base = str(config.invocation_params.dir)
        return [os.path.abspath(os.path.join(base, value)) for value in given if value.strip()]
    values = [str(value).strip() for value in config.getini(INI_MANIFEST) or ()]
    base = str(config.inipath.parent if config.inipath is not None else config.rootpath)
    return [os.path.abspath(os.path.join(base, value)) for value in values if value]


def _suite(state: _State, manifest: str) -> _Suite:
    suite = state.suites.get(manifest)
    if suite is None:
        suite = state.suites[manifest] = _Suite(manifest, os.path.join(os.path.dirname(manifest), "tests"))
    return suite


def pytest_configure(config: pytest.Config) -> None:
    fail_under = config.getoption("agent_graph_fail_under", default=None)
    if fail_under is not None:
        from ._core.errors import AgentGraphError
        from ._core.graph_coverage import fail_under_percent

        try:
            fail_under_percent(fail_under)
        except AgentGraphError as error:
            raise pytest.UsageError(f"--agent-graph-coverage-fail-under: {error.message}") from None
    coverage_json = config.getoption("agent_graph_coverage_json", default=None)
    named = _named_manifests(config)
    state = config.stash[_STATE] = _State(
        named=tuple(dict.fromkeys(named)),
        coverage=bool(config.getoption("agent_graph_coverage", default=False))
        or fail_under is not None
        or coverage_json is not None,
        fail_under=fail_under,
        coverage_json=os.path.abspath(os.path.join(str(config.invocation_params.dir), coverage_json))
        if coverage_json
        else None,
    )
    missing: list[str] = []
    for manifest in state.named:
        suite = _suite(state, manifest)
        if not os.path.isdir(suite.tests):
            missing.append(suite.tests)
            config.issue_config_time_warning(
                pytest.PytestConfigWarning(
                    f"agent-graph: no graph tests to collect, {suite.tests} is not a directory"
                ),
                stacklevel=2,
            )
    source = getattr(config, "args_source", None)
    if source is None or source == pytest.Config.ArgsSource.ARGS:
        return  # explicit paths: collect only what was asked for
    invocation = str(config.invocation_params.dir)
    collected = [os.path.abspath(os.path.join(invocation, str(arg).split("::")[0])) for arg in config.args]
    for suite in state.suites.values():
        if suite.tests not in missing and not any(_within(suite.tests, path) for path in collected):
            config.args.append(suite.tests)
            collected.append(suite.tests)


def _conftest_manifests(state: _State, module: ModuleType) -> tuple[str, ...]:
    """The manifests a ``conftest.py`` names (``agent_graph_manifest``), relative to its directory."""
    file = str(module.__file__)
    found = state.conftests.get(file)
    if found is None:
        value = getattr(module, CONFTEST_MANIFEST)
        values = [value] if isinstance(value, (str, os.PathLike)) else value
        if not isinstance(values, (list, tuple)) or not all(
            isinstance(item, (str, os.PathLike)) for item in values
        ):
            raise pytest.UsageError(
                f"{file}: {CONFTEST_MANIFEST} must be a manifest path or a list of them, "
                f"not {type(value).__name__}"
            )
        base = os.path.dirname(os.path.abspath(file))
        found = tuple(dict.fromkeys(os.path.abspath(os.path.join(base, os.fspath(item))) for item in values))
        state.conftests[file] = found
        for manifest in found:
            _suite(state, manifest)
    return found


def _conftests_over(config: pytest.Config, path: str) -> list[ModuleType]:
    """The loaded ``conftest.py`` modules naming a manifest whose directory holds ``path``, deepest first."""
    found = []
    for plugin in config.pluginmanager.get_plugins():
        file = getattr(plugin, "__file__", None)
        if (
            isinstance(plugin, ModuleType)
            and isinstance(file, str)
            and os.path.basename(file) == "conftest.py"
            and hasattr(plugin, CONFTEST_MANIFEST)
            and _within(path, os.path.dirname(os.path.abspath(file)))
        ):
            found.append(plugin)
    found.sort(key=lambda module: len(os.path.dirname(os.path.abspath(str(module.__file__)))), reverse=True)
    return found


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    state = parent.config.stash.get(_STATE, None)
    if state is None or file_path.suffix.lower() not in _TEST_SUFFIXES:
        return None
    path = os.path.abspath(str(file_path))
    for module in _conftests_over(parent.config, path):
        _conftest_manifests(state, module)
    owners = [suite for suite in state.suites.values() if _within(path, suite.tests)]
    if not owners:
        return None
    suite = max(owners, key=lambda owner: len(owner.tests))  # tests/ folders nested: the innermost
    result: pytest.Collector = GraphTestFile.from_parent(parent, path=file_path, suite=suite)
    return result


def _provider(suite: _Suite) -> Provider:
    """The suite's Provider, loaded once (a load that fails fails every test of the suite the same way)."""
    if not suite.loaded:
        from ._core.errors import AgentGraphError
        from ._load.loader import load_provider

        try:
            suite.provider = load_provider(suite.manifest)
        except AgentGraphError as error:
            suite.error = error
        suite.loaded = True
    if suite.error is not None:
        raise suite.error
    provider: Provider = suite.provider
    return provider


def _collector(state: _State, suite: _Suite, provider: Provider) -> Any:
    """The suite's coverage collector, made on first use; None without ``--agent-graph-coverage``."""
    if not state.coverage:
        return None
    if suite.collector is None:
        from ._core.graph_coverage import CoverageCollector

        suite.collector = CoverageCollector(provider)
    return suite.collector


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """pytest-xdist's controller: keep what a finished worker counted, to report the whole run."""
    state = node.config.stash.get(_STATE, None)
    output = getattr(node, "workeroutput", None)
    if state is None or not isinstance(output, dict):
        return
    for entry in output.get(_WORKER_OUTPUT) or ():
        suite = _suite(state, entry["manifest"])
        if entry.get("snapshot") is not None:
            suite.snapshots.append(entry["snapshot"])


def _label(suite: _Suite, config: pytest.Config) -> str:
    """``Provider <id> (<manifest>)``, or the manifest and why it does not load."""
    from ._core.errors import AgentGraphError

    shown = os.path.relpath(suite.manifest, str(config.rootpath))
    try:
        return f"Provider {_provider(suite).manifest.id} ({shown})"
    except AgentGraphError as error:
        return f"{shown} (it does not load: {error.code})"


def _report(state: _State, suite: _Suite) -> CoverageReport | str | None:
    """The suite's coverage report; None when none of its graph tests ran; a problem's text."""
    if suite.collector is None and not suite.snapshots:
        return None
    from ._core.errors import AgentGraphError

    try:
        collector = _collector(state, suite, _provider(suite))
        for snapshot in suite.snapshots:
            collector.merge(snapshot)
    except AgentGraphError as error:
        return f"{error.code}: {error.message}"
    suite.snapshots.clear()
    if collector.evaluations == 0:
        return None
    report: CoverageReport = collector.report()
    return report


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    state = config.stash.get(_STATE, None)
    if state is None or not state.coverage:
        return
    workeroutput = getattr(config, "workeroutput", None)
    if isinstance(workeroutput, dict):  # a pytest-xdist worker: the controller reports
        workeroutput[_WORKER_OUTPUT] = [
            {
                "manifest": suite.manifest,
                "snapshot": suite.collector.snapshot() if suite.collector is not None else None,
            }
            for suite in state.suites.values()
        ]
        return
    if _summarize(state, config) and session.exitstatus in (0, pytest.ExitCode.NO_TESTS_COLLECTED):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _summarize(state: _State, config: pytest.Config) -> bool:
    """Write the coverage section's lines and the JSON report; whether the session fails."""
    from ._core.graph_coverage import coverage_table, falls_short

    gate = state.fail_under
    lines = state.lines
    failed = False
    if not state.suites:
        failed = gate is not None
        lines.append(
            f"{'FAIL ' if failed else ''}no Provider is named, so no graph test ran: name its manifest with the "
            f"{INI_MANIFEST} ini option, --agent-graph-manifest or {CONFTEST_MANIFEST} in a conftest.py"
        )
    several = len(state.suites) > 1
    reports: list[CoverageReport] = []
    for suite in state.suites.values():
        report = _report(state, suite)
        label = _label(suite, config)
        if several:
            lines.append(f"{label}:")
        if report is None or isinstance(report, str):
            failed = failed or gate is not None
            why = "no graph test ran" if report is None else f"its coverage cannot be counted: {report}"
            if gate is not None:
                lines.append(
                    f"FAIL {why} for {label}, so its coverage cannot reach "
                    f"--agent-graph-coverage-fail-under {gate:g}% (deselected, skipped, or none in {suite.tests}?)"
                )
            else:
                lines.append(
                    f"{why}: nothing to report" if not several else f"{why} for {label}: nothing to report"
                )
            continue
        reports.append(report)
        lines.extend(coverage_table(report))
        if gate is not None:
            percent = report.total.total.percent
            whose = f"coverage of {report.provider}" if several else "coverage"
            if falls_short(report, gate):
                failed = True
                lines.append(
                    f"FAIL {whose} {percent:g}% is under --agent-graph-coverage-fail-under {gate:g}%"
                )
            else:
                lines.append(f"{whose} {percent:g}% reaches --agent-graph-coverage-fail-under {gate:g}%")
    if state.coverage_json is not None and reports:
        import msgspec

        from ._core.errors import AgentGraphError
        from ._load.atomic import write_bytes_atomic

        data = msgspec.json.encode(reports[0] if len(reports) == 1 and not several else reports)
        try:
            write_bytes_atomic(state.coverage_json, data + b"\n")
        except AgentGraphError as error:  # the writer's coded errors, an OS failure included
            failed = True
            lines.append(
                f"FAIL coverage report not written to {state.coverage_json}: {error.code}: {error.message}"
            )
        else:
            lines.append(f"coverage report written to {state.coverage_json}")
    elif state.coverage_json is not None:
        lines.append(f"no coverage report written to {state.coverage_json}: no graph test ran")
    return failed


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is None or not state.lines:
        return
    terminalreporter.section("agent-graph coverage")
    for line in state.lines:
        terminalreporter.write_line(line)


class GraphTestFailure(Exception):
    """A graph test that failed: its failure lines, as ``agent-graph test`` prints them."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


def _error_lines(error: AgentGraphError) -> list[str]:
    lines = [f"{error.code}: {error.message}"]
    lines.extend(
        f"  {d.code}: {d.message}"
        for d in error.diagnostics
        if d.code != error.code or d.message != error.message  # no copy of the first line
    )
    return lines


class GraphTestFile(pytest.File):
    """One YAML or JSON file under a Provider's ``tests/``: one graph test."""

    def __init__(self, *, suite: _Suite, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.suite = suite

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
            suite: _Suite = self.parent.suite  # type: ignore[union-attr]
            provider = _provider(suite)
            result = run_test_case(
                provider,
                self.case,
                str(self.path),
                workspace=str(self.config.invocation_params.dir),
                coverage=_collector(self.config.stash[_STATE], suite, provider),
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


@pytest.fixture(scope="module")
def agent_graph_provider(request: pytest.FixtureRequest) -> Provider:
    """The Provider of the test's directory, loaded once per session.

    That is the manifest a ``conftest.py`` above the test names
    (``agent_graph_manifest``, the nearest one), else the one manifest of the
    ini option or the command line.
    """
    config = request.config
    state = config.stash.get(_STATE, None)
    path = os.path.abspath(str(request.path))
    manifests: tuple[str, ...] = ()
    if state is not None:
        conftests = _conftests_over(config, path)
        manifests = _conftest_manifests(state, conftests[0]) if conftests else state.named
    if not manifests:
        pytest.fail(
            f"agent_graph_provider needs the {INI_MANIFEST} ini option (or --agent-graph-manifest, "
            f"or {CONFTEST_MANIFEST} in a conftest.py above the test)",
            pytrace=False,
        )
    if len(manifests) > 1:
        pytest.fail(
            f"agent_graph_provider: {len(manifests)} Providers are named ({', '.join(manifests)}); name the one "
            f'of this directory with {CONFTEST_MANIFEST} = "…" in its conftest.py',
            pytrace=False,
        )
    assert state is not None
    return _provider(_suite(state, manifests[0]))


@pytest.fixture
def agent_graph_memory_fs() -> _MemoryProviderFileSystem:
    """An empty in-memory file system for building Providers from dicts: ``fs.add(path, data)``, then ``fs.load()``."""
    return _MemoryProviderFileSystem()


def __getattr__(name: str) -> Any:
    """``MemoryProviderFileSystem`` moved to :mod:`agent_graph.testing`: the old name warns for one release."""
    if name == "MemoryProviderFileSystem":
        import warnings

        warnings.warn(
            "agent_graph.pytest_plugin.MemoryProviderFileSystem moved: import it from agent_graph.testing "
            "(the old name goes in the next release)",
            DeprecationWarning,
            stacklevel=2,
        )
        return _MemoryProviderFileSystem
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@pytest.fixture
def agent_graph_store() -> Iterator[BaseRunStore]:
    """A fresh, empty Run store for one test (in memory), closed after it: ``agent_graph.testing.drive(…, store=…)``."""
    from ._runtime.drive import fresh_store

    with fresh_store() as store:
        yield store
