"""The pytest plugin: graph tests as pytest items, and the Provider and in-memory file system fixtures."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

from agent_graph._toolchain.scaffold import init_provider

pytest_plugins = ["pytester"]


def _registered() -> bool:
    """Whether the plugin is installed through its ``pytest11`` entry point (then pytest loads it itself)."""
    return any(
        e.value == "agent_graph.pytest_plugin" for e in importlib.metadata.entry_points(group="pytest11")
    )


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    plugin = () if _registered() else ("-p", "agent_graph.pytest_plugin")
    # Unrelated plugins of this environment (hypothesis, benchmark) are kept out: they only slow runs down.
    quiet = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:benchmark")
    return pytester.runpytest_subprocess(*plugin, *quiet, *args)


@pytest.fixture
def project(pytester: pytest.Pytester) -> Path:
    """A project with a Provider in ``provider/`` and the ini option naming it."""
    init_provider(str(pytester.path / "provider"), "demo")
    pytester.makeini("[pytest]\nagent_graph_manifest = provider/provider.yaml\n")
    return pytester.path


def test_graph_tests_become_items_named_by_their_name(pytester: pytest.Pytester, project: Path) -> None:
    result = _run(pytester, "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        [
            "*provider/tests/01-start.yaml::starter route is actionable PASSED*",
            "*provider/tests/02-done.yaml::recorded work completes the graph PASSED*",
        ]
    )


def test_a_failing_graph_test_reports_the_cli_lines(pytester: pytest.Pytester, project: Path) -> None:
    test = project / "provider" / "tests" / "01-start.yaml"
    test.write_text(
        test.read_text()
        .replace("primaryNode: work", "primaryNode: review")
        .replace("recordNode: main/work", "recordNode: main/x")
    )
    result = _run(pytester)
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*starter route is actionable*",
            "primaryNode: expected review, received work",
            "recordNode: expected main/x, received main/work",
        ]
    )
    assert "Traceback" not in result.stdout.str()


def test_an_invalid_test_file_fails_with_its_code(pytester: pytest.Pytester, project: Path) -> None:
    (project / "provider" / "tests" / "03-bad.yaml").write_text(
        "schema: agent-graph.test.v1\nname: no graph\n"
    )
    (project / "provider" / "tests" / "04-broken.json").write_text("{not json")
    result = _run(pytester, "-v")
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(
        ["*03-bad.yaml::03-bad.yaml FAILED*", "*04-broken.json::04-broken.json FAILED*"]
    )
    result.stdout.fnmatch_lines(["schema-invalid: *", "parse-failed: *"], consecutive=False)


def test_a_provider_that_does_not_load_fails_every_item(pytester: pytest.Pytester, project: Path) -> None:
    graph = project / "provider" / "graphs" / "main.yaml"
    graph.write_text(
        graph.read_text().replace("terminalOutcome: completed", "terminalOutcome: completed\n    bogus: 1")
    )
    result = _run(pytester)
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["schema-invalid: *"])


def test_items_are_selected_by_name(pytester: pytest.Pytester, project: Path) -> None:
    _run(pytester, "-k", "completes").assert_outcomes(passed=1, deselected=1)
    _run(pytester, str(project / "provider" / "tests" / "01-start.yaml")).assert_outcomes(passed=1)


def test_python_tests_and_graph_tests_run_together(pytester: pytest.Pytester, project: Path) -> None:
    pytester.makeini("[pytest]\nagent_graph_manifest = provider/provider.yaml\ntestpaths = checks\n")
    (project / "checks").mkdir()
    (project / "checks" / "test_host.py").write_text(
        "import agent_graph as ag\n\n"
        "def test_provider_fixture(agent_graph_provider):\n"
        "    assert agent_graph_provider.manifest.id == 'demo'\n"
        "    ev = ag.evaluate(agent_graph_provider, 'main')\n"
        "    assert ev.primary_route.node == 'work'\n"
    )
    result = _run(pytester, "-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*checks/test_host.py::test_provider_fixture PASSED*"])
    # A tests/ directory already inside the collected paths is not collected twice.
    pytester.makeini("[pytest]\nagent_graph_manifest = provider/provider.yaml\ntestpaths = checks provider\n")
    _run(pytester).assert_outcomes(passed=3)


def test_the_plugin_is_inert_without_the_option(pytester: pytest.Pytester) -> None:
    init_provider(str(pytester.path / "provider"), "demo")
    pytester.makepyfile(test_plain="def test_ok():\n    pass\n")
    _run(pytester).assert_outcomes(passed=1)
    pytester.makepyfile(test_fixture="def test_needs(agent_graph_provider):\n    pass\n")
    result = _run(pytester, "test_fixture.py")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*agent_graph_provider needs the agent_graph_manifest ini option*"])


def test_the_command_line_option_names_the_manifest(pytester: pytest.Pytester) -> None:
    init_provider(str(pytester.path / "elsewhere"), "demo")
    result = _run(pytester, "--agent-graph-manifest", "elsewhere/provider.yaml")
    result.assert_outcomes(passed=2)


def test_a_missing_tests_directory_is_a_warning(pytester: pytest.Pytester, project: Path) -> None:
    for path in (project / "provider" / "tests").iterdir():
        path.unlink()
    (project / "provider" / "tests").rmdir()
    pytester.makepyfile(test_plain="def test_ok():\n    pass\n")
    result = _run(pytester, "-W", "default")
    result.assert_outcomes(passed=1, warnings=1)
    result.stdout.fnmatch_lines(["*agent-graph: no graph tests to collect*"])


def test_memory_file_system_fixture_builds_providers_from_dicts(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_memory="""
import agent_graph as ag

def test_build(agent_graph_memory_fs):
    fs = agent_graph_memory_fs
    fs.add("provider.yaml", {"schema": "agent-graph.provider.v1", "id": "mem", "version": "1.0.0",
                             "graphs": ["graphs/main.json"]})
    fs.add("graphs/main.json", {
        "schema": "agent-graph.graph.v1", "id": "main", "entrypoints": {"default": "go"},
        "nodes": [{"id": "go", "kind": "action", "reasonCode": "route.go", "action": "actions/go.yaml"},
                  {"id": "done", "kind": "terminal", "terminalOutcome": "completed"}],
        "edges": [{"from": "go", "to": "done"}]})
    fs.add("actions/go.yaml", "schema: agent-graph.action.v1\\nid: go\\nrunner: command\\neffect: read\\ncommand: 'true'\\n")
    assert isinstance(fs, ag.MemoryFileSystem)
    provider = fs.load()
    assert provider.root == "/provider"
    assert ag.evaluate(provider, "main").primary_route.node == "go"
    assert ag.load_provider("/provider/provider.yaml", fs=fs).manifest.id == "mem"

def test_each_test_gets_a_fresh_one(agent_graph_memory_fs):
    assert agent_graph_memory_fs.files == {}
"""
    )
    _run(pytester).assert_outcomes(passed=2)
    assert not (pytester.path / "provider").exists()


def test_the_memory_file_system_is_importable_without_pytest() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['pytest'] = None  # any import of pytest now fails\n"
        "import agent_graph as ag\n"
        "from agent_graph.testing import MemoryProviderFileSystem\n"
        "fs = MemoryProviderFileSystem({'provider.yaml': {'schema': 'agent-graph.provider.v1', 'id': 'mem',\n"
        "    'version': '1.0.0', 'graphs': ['g.json']}, 'g.json': {'schema': 'agent-graph.graph.v1', 'id': 'main',\n"
        "    'entrypoints': {'default': 'done'},\n"
        "    'nodes': [{'id': 'done', 'kind': 'terminal', 'terminalOutcome': 'completed'}], 'edges': []}})\n"
        "print(ag.evaluate(fs.load(), 'main').status_code)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "complete"


def test_the_old_import_path_warns_for_one_release() -> None:
    import agent_graph.pytest_plugin as plugin
    from agent_graph.testing import MemoryProviderFileSystem

    with pytest.warns(DeprecationWarning, match="import it from agent_graph.testing"):
        old = plugin.MemoryProviderFileSystem
    assert old is MemoryProviderFileSystem
    with pytest.raises(AttributeError):
        plugin.NoSuchName  # noqa: B018


# ---------------------------------------------------------------- coverage across processes, several Providers


def _coverage_json(pytester: pytest.Pytester, *args: str) -> tuple[pytest.RunResult, object]:
    """A run writing its coverage report to a fresh file; the run and the report read back (None: none written)."""
    import json

    out = pytester.path / "coverage.json"
    if out.exists():
        out.unlink()
    result = _run(pytester, "-v", f"--agent-graph-coverage-json={out}", *args)
    return result, json.loads(out.read_text()) if out.exists() else None


# Runs under pytest-xdist start worker processes (seconds each): those are slow cases, but for one.
_WORKERS = ["0", pytest.param("2", marks=pytest.mark.slow)]


@pytest.mark.parametrize("workers", _WORKERS)
def test_coverage_counts_every_process_that_ran_graph_tests(
    pytester: pytest.Pytester, project: Path, workers: str
) -> None:
    result, report = _coverage_json(pytester, "-n", workers)
    result.assert_outcomes(passed=2)
    if workers == "2":  # two tests, two workers: xdist sends one to each
        result.stdout.fnmatch_lines(["*[[]gw0[]]*PASSED*provider/tests/*"], consecutive=False)
        result.stdout.fnmatch_lines(["*[[]gw1[]]*PASSED*provider/tests/*"], consecutive=False)
    # Each test alone reaches part of the Graph; the report is both of them, as in one process.
    one, alone = _coverage_json(pytester, "-n", "0", "-k", "starter")
    one.assert_outcomes(passed=1, deselected=1)
    assert isinstance(report, dict) and isinstance(alone, dict)
    assert report["evaluations"] == 2 and alone["evaluations"] == 1
    assert report["total"]["total"]["covered"] > alone["total"]["total"]["covered"]
    assert report["total"]["total"]["percent"] == 100
    _, serial = _coverage_json(pytester, "-n", "0")
    assert report == serial
    gate = _run(pytester, "-n", workers, "--agent-graph-coverage-fail-under=100")
    assert gate.ret == 0, gate.stdout.str()
    gate.stdout.fnmatch_lines(
        ["TOTAL*4/4 100%*", "coverage 100% reaches --agent-graph-coverage-fail-under 100%"]
    )


@pytest.mark.parametrize("workers", _WORKERS)
def test_a_coverage_gate_with_no_graph_test_run_fails(
    pytester: pytest.Pytester, project: Path, workers: str
) -> None:
    deselected, report = _coverage_json(
        pytester, "-n", workers, "-k", "no-such-test", "--agent-graph-coverage-fail-under=50"
    )
    assert deselected.ret == pytest.ExitCode.TESTS_FAILED and report is None
    deselected.stdout.fnmatch_lines(["no coverage report written to *coverage.json: no graph test ran"])
    deselected.stdout.fnmatch_lines(
        ["FAIL no graph test ran for Provider demo (provider/provider.yaml), so its coverage cannot reach "
         "--agent-graph-coverage-fail-under 50%*"]
    )  # fmt: skip
    # Without a gate, nothing measured is only said.
    quiet = _run(pytester, "-n", workers, "-k", "no-such-test", "--agent-graph-coverage")
    assert quiet.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    quiet.stdout.fnmatch_lines(["no graph test ran: nothing to report"])
    # A gate with no Provider named at all fails too.
    pytester.makeini("[pytest]\n")
    pytester.makepyfile(test_plain="def test_ok():\n    pass\n")
    unnamed = _run(pytester, "-n", workers, "--agent-graph-coverage-fail-under=50")
    unnamed.assert_outcomes(passed=1)
    assert unnamed.ret == pytest.ExitCode.TESTS_FAILED
    unnamed.stdout.fnmatch_lines(["FAIL no Provider is named, so no graph test ran: *"])


def _two_providers(root: Path) -> None:
    init_provider(str(root / "alpha"), "alpha")
    init_provider(str(root / "beta"), "beta")
    done = root / "beta" / "tests" / "02-done.yaml"
    done.unlink()  # beta's tests leave part of its Graph untested


@pytest.mark.parametrize("workers", _WORKERS)
def test_several_manifests_in_one_run(pytester: pytest.Pytester, workers: str) -> None:
    _two_providers(pytester.path)
    manifests = (
        "--agent-graph-manifest",
        "alpha/provider.yaml",
        "--agent-graph-manifest",
        "beta/provider.yaml",
    )
    result, reports = _coverage_json(
        pytester, "-n", workers, *manifests, "--agent-graph-coverage-fail-under=100"
    )
    result.assert_outcomes(passed=3)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert isinstance(reports, list)
    assert [(r["provider"], r["evaluations"]) for r in reports] == [("alpha", 2), ("beta", 1)]
    result.stdout.fnmatch_lines(
        [
            "Provider alpha (alpha/provider.yaml):",
            "coverage of alpha 100% reaches --agent-graph-coverage-fail-under 100%",
            "Provider beta (beta/provider.yaml):",
            "FAIL coverage of beta * is under --agent-graph-coverage-fail-under 100%",
        ],
        consecutive=False,
    )
    # The ini option names one manifest a line.
    pytester.makeini("[pytest]\nagent_graph_manifest =\n    alpha/provider.yaml\n    beta/provider.yaml\n")
    listed = _run(pytester, "-n", workers, "-v")
    listed.assert_outcomes(passed=3)
    listed.stdout.fnmatch_lines(
        ["*beta/tests/01-start.yaml::starter route is actionable*"], consecutive=False
    )


@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_conftest_names_the_provider_of_its_directory(pytester: pytest.Pytester, workers: str) -> None:
    _two_providers(pytester.path)
    for name in ("alpha", "beta"):
        (pytester.path / name / "conftest.py").write_text('agent_graph_manifest = "provider.yaml"\n')
        (pytester.path / name / f"test_{name}_host.py").write_text(
            "def test_the_provider_of_this_directory(agent_graph_provider):\n"
            f"    assert agent_graph_provider.manifest.id == {name!r}\n"
        )
    result, reports = _coverage_json(pytester, "-n", workers)
    result.assert_outcomes(passed=5)
    assert isinstance(reports, list)
    assert sorted((r["provider"], r["evaluations"]) for r in reports) == [("alpha", 2), ("beta", 1)]
    result.stdout.fnmatch_lines(
        ["*alpha/tests/02-done.yaml::recorded work completes the graph*"], consecutive=False
    )


def test_the_provider_fixture_refuses_to_guess_among_several(pytester: pytest.Pytester) -> None:
    _two_providers(pytester.path)
    pytester.makeini(
        "[pytest]\nagent_graph_manifest =\n    alpha/provider.yaml\n    beta/provider.yaml\ntestpaths = checks\n"
    )
    (pytester.path / "checks").mkdir()
    (pytester.path / "checks" / "test_host.py").write_text(
        "def test_needs(agent_graph_provider):\n    pass\n"
    )
    result = _run(pytester, "checks")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*agent_graph_provider: 2 Providers are named*conftest.py*"])
