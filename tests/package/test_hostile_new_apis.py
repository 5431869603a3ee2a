"""Hostile arguments to the replay, fork, explain, lint and async-store APIs: an AgentGraphError, never a crash.

Each public call is given values of the wrong type and out of range; the
answer is either a normal one or an ``AgentGraphError`` with a specific code,
and a refused write leaves the store as it was. Generated values
(hypothesis) cover what the hand-written lists do not.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import agent_graph as ag
import agent_graph.testing as agtest
from tests.paths import REPO as ROOT

WEEKLY = ROOT / "examples" / "weekly-report"
PROPERTY = settings(
    max_examples=int(os.environ.get("AGENT_GRAPH_EXAMPLES", "100")),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
HOSTILE: list[Any] = [None, True, 1, -1, 2.5, "", "x", b"x", [], {}, ["report"], {"a": 1}, object(), 10**40]


def _id(value: Any) -> str:
    return type(value).__name__ if type(value) is object else repr(value)[:20]


@pytest.fixture(scope="module")
def provider() -> ag.Provider:
    return ag.load_provider(str(WEEKLY / "provider.yaml"))


def refused_or_answered(call: Callable[[], Any]) -> str | None:
    """None when the call answers, else the AgentGraphError's code; any other exception fails the test."""
    try:
        answer = call()
        if asyncio.iscoroutine(answer):
            asyncio.run(answer)
        elif hasattr(answer, "__next__"):
            list(answer)
    except ag.AgentGraphError as error:
        assert error.code and error.code != "internal-error", error
        return error.code
    return None


def code_of(call: Callable[[], Any]) -> str:
    code = refused_or_answered(call)
    assert code is not None, "the call was not refused"
    return code


# ---------------------------------------------------------------- replay


@pytest.mark.parametrize("value", HOSTILE, ids=_id)
def test_replay_refuses_what_is_not_a_provider_or_a_run(
    provider: ag.Provider, value: Any, tmp_path: Path
) -> None:
    with ag.open_store(str(tmp_path)) as store:
        run = store.start(None, provider, "report")
    assert code_of(lambda: ag.replay(provider, value)) == "argument-invalid"
    assert code_of(lambda: ag.replay(value, run)) == "argument-invalid"


# ---------------------------------------------------------------- explain


@pytest.mark.parametrize("value", HOSTILE, ids=_id)
def test_explain_refuses_arguments_of_the_wrong_type(provider: ag.Provider, value: Any) -> None:
    assert code_of(lambda: ag.explain(value, "report")) == "argument-invalid"
    if value is not None and not isinstance(value, str):
        assert code_of(lambda: ag.explain(provider, "report", "default", value)) == "argument-invalid"
    refused_or_answered(lambda: ag.explain(provider, value))
    refused_or_answered(lambda: ag.explain(provider, "report", value))
    refused_or_answered(lambda: ag.explain(provider, "report", facts=value))
    refused_or_answered(lambda: ag.explain(provider, "report", outcomes=value))
    refused_or_answered(lambda: ag.explain(provider, "report", authorities=value))


@given(node=st.text(max_size=40), graph=st.one_of(st.just("report"), st.text(max_size=10)))
@PROPERTY
def test_explain_of_any_node_name_answers_or_refuses_with_a_code(
    provider: ag.Provider, node: str, graph: str
) -> None:
    refused_or_answered(lambda: ag.explain(provider, graph, "default", node))


# ---------------------------------------------------------------- lint


@pytest.mark.parametrize("value", HOSTILE, ids=_id)
def test_lint_refuses_arguments_of_the_wrong_type(provider: ag.Provider, value: Any) -> None:
    assert code_of(lambda: ag.lint(value)) == "argument-invalid"
    if value is not None and not isinstance(value, str):
        assert code_of(lambda: ag.lint(provider, tests=value)) == "argument-invalid"
    for code in (
        refused_or_answered(lambda: ag.lint(provider, select=value)),
        refused_or_answered(lambda: ag.lint(provider, ignore=value)),
    ):
        assert code in {None, "argument-invalid", "lint-rule-unknown"}


def test_lint_takes_one_rule_name_as_a_string(provider: ag.Provider) -> None:
    assert ag.lint(provider, select="AG4") == ag.lint(provider, select=["AG4"])
    assert code_of(lambda: ag.lint(provider, select=["AG4", 4])) == "argument-invalid"


def test_lint_reads_the_file_system_the_provider_was_loaded_from(provider: ag.Provider) -> None:
    files = {}
    for folder, _, names in os.walk(WEEKLY):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as handle:
                files["/memory/" + os.path.relpath(path, WEEKLY)] = handle.read()
    memory = ag.MemoryFileSystem(files)
    loaded = ag.load_provider("/memory/provider.yaml", fs=memory)
    on_disk = [(finding.code, finding.message) for finding in ag.lint(provider)]
    assert [(finding.code, finding.message) for finding in ag.lint(loaded)] == on_disk
    assert ag.lint(loaded) == ag.lint(loaded, fs=memory)


# ---------------------------------------------------------------- opening stores


@pytest.mark.parametrize(
    "url",
    [
        1,
        b"runs",
        [],
        "",
        "mysql://x",
        "sqlite://",
        "sqlite:///",
        "sqlite:///a.db?mode=ro",
        "sqlite:///missing/x.db",
    ],
    ids=repr,
)
def test_opening_a_store_by_a_bad_url_is_a_coded_error(
    url: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    async def open_async() -> None:
        store = await ag.open_async_store(url)
        await store.aclose()

    assert code_of(lambda: ag.open_store(url).close()) == code_of(open_async)


@pytest.mark.parametrize(
    "options", [{"bogus": 1}, {"workers": 2}, {"lock_timeout": -1}, {"lock_timeout": "x"}]
)
@pytest.mark.parametrize("kind", ["folder", "sqlite"])
def test_an_option_the_store_does_not_take_is_argument_invalid(
    kind: str, options: dict[str, Any], tmp_path: Path
) -> None:
    url = str(tmp_path / "runs") if kind == "folder" else f"sqlite:///{tmp_path / 'runs.db'}"

    async def open_async() -> None:
        store = await ag.open_async_store(url, **options)
        await store.aclose()

    assert code_of(lambda: ag.open_store(url, **options)) == "argument-invalid"
    assert code_of(open_async) == "argument-invalid"


def test_an_option_the_postgresql_stores_do_not_take_is_argument_invalid(postgres_url: str) -> None:
    async def open_async() -> None:
        store = await ag.open_async_store(postgres_url, workers=2)
        await store.aclose()

    assert code_of(lambda: ag.open_store(postgres_url, folder="x")) == "argument-invalid"
    assert code_of(open_async) == "argument-invalid"


# ---------------------------------------------------------------- fork and events on every store


def _url(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'runs.db'}"
    return str(tmp_path / "runs")


@pytest.mark.parametrize("kind", ["folder", "sqlite", "postgresql"])
def test_fork_and_events_refuse_bad_arguments_on_the_async_stores_and_write_nothing(
    kind: str, provider: ag.Provider, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = _url(kind, tmp_path, request)

    async def scenario() -> None:
        async with await ag.open_async_store(url) as store:
            run = await store.start(None, provider, "report", facts={"team": "web"})
            await store.record(run.id, "report/draft", "partial")
            before = await store.list()

            async def refused(call: Any) -> str:
                try:
                    await call
                except ag.AgentGraphError as error:
                    assert error.code != "internal-error"
                    return error.code
                raise AssertionError("not refused")

            for at in [True, False, 0, -1, 3, 10**40, "1", 1.0, None, [1]]:
                assert await refused(store.fork(run.id, at, provider=provider)) == "argument-invalid", at
            for facts in ["x", [1], 3, {"a": object()}, {"a": float("nan")}]:
                assert await refused(store.fork(run.id, 1, provider=provider, facts=facts)) in {
                    "json-invalid",
                    "json-object-required",
                    "argument-invalid",
                }, facts
            for target in [3, b"x", [], run.id]:
                assert await refused(store.fork(run.id, 1, target, provider=provider, facts={})) in {
                    "argument-invalid",
                    "run-target-exists",
                    "path-invalid",
                }, target
            for ref in [None, 3, "", "no-such-run"]:
                assert await refused(store.fork(ref, 1, provider=provider)) in {
                    "argument-invalid",
                    "run-missing",
                    "path-invalid",
                }, ref
            assert await refused(store.fork(run.id, 1, provider="other/provider", facts={})) in {
                "run-provider-mismatch"
            }
            for arguments in [{"after": -1}, {"limit": 0}, {"limit": -1}, {"after": "1"}, {"limit": True}]:
                assert await refused(store.events(run.id, **arguments)) == "argument-invalid", arguments
            assert await store.list() == before  # nothing was written
            fork = await store.fork(run.id, 1, provider=provider, facts={"team": "web"})
            assert [step.event.type for step in ag.replay(provider, await store.load(fork.id))] == [
                "run.started",
                "run.forked",
            ]

    asyncio.run(scenario())


@given(
    after=st.one_of(st.integers(-(2**70), 2**70), st.booleans(), st.floats(), st.text(max_size=3), st.none()),
    limit=st.one_of(st.integers(-(2**70), 2**70), st.booleans(), st.floats(), st.none()),
    at=st.one_of(st.integers(-(2**70), 2**70), st.booleans(), st.floats(), st.text(max_size=3), st.none()),
)
@PROPERTY
def test_any_event_window_or_fork_point_answers_or_refuses_with_a_code(
    provider: ag.Provider, tmp_path: Path, after: Any, limit: Any, at: Any
) -> None:
    with ag.open_store(str(tmp_path / "runs")) as store:
        if not store.list():
            run = store.start("r.json", provider, "report")
            store.record("r.json", "report/draft", "partial")
        run = store.load("r.json")
        refused_or_answered(lambda: store.events(run.id, after=after, limit=limit))
        code = refused_or_answered(lambda: store.fork(run.id, at, provider=provider, facts={}))
        if code is None:
            assert type(at) is int and 1 <= at <= len(run.events)


@pytest.mark.parametrize("kind", ["folder", "sqlite", "postgresql"])
def test_an_event_window_past_any_database_integer_is_answered_on_both_faces(
    kind: str, provider: ag.Provider, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = _url(kind, tmp_path, request)
    windows = [(0, 2**63), (0, 10**30), (2**63, 5), (10**30, 10**30), (1, 2**31)]
    with ag.open_store(url) as store:
        run = store.start(None, provider, "report")
        store.record(run.id, "report/draft", "partial")
        answers = [len(store.events(run.id, after=after, limit=limit)) for after, limit in windows]
    assert answers == [2, 2, 0, 0, 1]

    async def async_face() -> list[int]:
        async with await ag.open_async_store(url) as store:
            return [len(await store.events(run.id, after=after, limit=limit)) for after, limit in windows]

    assert asyncio.run(async_face()) == answers


# ---------------------------------------------------------------- the whole store contract, hostile values

STORE_HOSTILE: list[Any] = [
    None,
    True,
    3,
    2.5,
    float("nan"),
    "",
    "\ud800",
    "\x00",
    b"x",
    [],
    {},
    [3],
    object(),
]
STALE = "sha256:" + "0" * 64


def _contract_calls(store: Any, provider: ag.Provider, ref: str, value: Any) -> list[Callable[[], Any]]:
    """Every method of the store contract with ``value`` in one argument."""
    return [
        lambda: store.list(updated_after=value),
        lambda: store.list(updated_before=value),
        lambda: store.list(graph=value),
        lambda: store.list(provider=value),
        lambda: store.head(value),
        lambda: store.head(ref, value),
        lambda: store.events(value),
        lambda: store.next_step(ref, provider, route_id=value),
        lambda: store.next_step(ref, provider, receipts=value),
        lambda: store.next_step(ref, value),
        lambda: store.record(ref, value, "completed", revision=STALE),
        lambda: store.record(ref, "report/draft", value, revision=STALE),
        lambda: store.record(ref, "report/draft", "completed", revision=value),
        lambda: store.record(ref, "report/draft", "completed", detail=value, revision=STALE),
        lambda: store.update_facts(ref, value),
        lambda: store.update_authorities(ref, add=value),
        lambda: store.update_authorities(ref, replace=value),
        lambda: store.checkpoint(ref, value),
        lambda: store.resume(value, None),
        lambda: store.start(None, provider, value),
        lambda: store.start(None, provider, "report", value),
        lambda: store.start(None, provider, "report", workspace=value),
        lambda: store.start(None, provider, "report", facts=value),
        lambda: store.start(None, provider, "report", authorities=value),
        lambda: store.start(None, value, "report"),
        lambda: store.import_run(value),
        lambda: store.export(ref, value),
        lambda: store.fork(value, 1),
    ]


@pytest.mark.parametrize("kind", ["folder", "sqlite", "postgresql"])
def test_every_store_method_given_hostile_values_answers_or_refuses_with_a_code(
    kind: str,
    provider: ag.Provider,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # a path-like hostile value lands in the test's folder
    url = _url(kind, tmp_path, request)
    with ag.open_store(url) as store:
        ref = store.start(None, provider, "report").id
        for value in STORE_HOSTILE:
            for call in _contract_calls(store, provider, ref, value):
                refused_or_answered(call)
        assert store.events(ref, limit=1)[0].type == "run.started"

    async def async_face() -> None:
        async with await ag.open_async_store(url) as store:
            for value in STORE_HOSTILE:
                for call in _contract_calls(store, provider, ref, value):
                    try:
                        await call()
                    except ag.AgentGraphError as error:
                        assert error.code != "internal-error", error

    asyncio.run(async_face())


@pytest.mark.parametrize("kind", ["folder", "sqlite"])
def test_a_path_the_file_system_cannot_encode_is_path_invalid(
    kind: str, provider: ag.Provider, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    with ag.open_store(_url(kind, tmp_path, request)) as store:
        ref = store.start(None, provider, "report").id
        assert code_of(lambda: store.export(ref, str(tmp_path / "\ud800.json"))) == "path-invalid"
        assert code_of(lambda: store.update_authorities(ref, replace=3)) == "authorities-invalid"  # type: ignore[arg-type]
        assert code_of(lambda: store.list(graph=3)) == "argument-invalid"
        if kind == "folder":
            assert code_of(lambda: store.checkpoint(ref, "\ud800")) in {"path-invalid", "argument-invalid"}
        assert not list(tmp_path.glob("**/.agent-graph-*.tmp"))  # no temporary file left behind


# ---------------------------------------------------------------- coverage


@pytest.mark.parametrize("value", HOSTILE, ids=_id)
def test_coverage_refuses_what_is_not_a_provider_a_collector_or_a_trace(
    provider: ag.Provider, value: Any
) -> None:
    assert code_of(lambda: agtest.CoverageCollector(value)) == "argument-invalid"
    tests = str(WEEKLY / "tests")
    if value is not None:
        assert code_of(lambda: ag.run_graph_tests(provider, tests, coverage=value)) == "argument-invalid"
    collector = agtest.CoverageCollector(provider)
    if isinstance(value, list) and not value:
        collector.record(value)  # an empty trace is one evaluation that reached nothing
        assert collector.evaluations == 1
    else:
        assert code_of(lambda: collector.record(value)) == "argument-invalid"
        assert collector.evaluations == 0  # nothing counted


# ---------------------------------------------------------------- the MCP server's front door


@pytest.mark.parametrize("value", HOSTILE, ids=_id)
def test_serve_mcp_refuses_what_is_not_a_provider_or_a_store_before_serving(
    provider: ag.Provider, value: Any, tmp_path: Path
) -> None:
    pytest.importorskip("mcp", reason="the [test] extra brings the MCP SDK")
    with ag.open_store(str(tmp_path)) as store:
        assert code_of(lambda: ag.serve_mcp(value, store)) == "argument-invalid"
    assert code_of(lambda: ag.serve_mcp(provider, value)) == "argument-invalid"


# ---------------------------------------------------------------- --fail-under

pytest_plugins = ["pytester"]


@pytest.mark.parametrize("percent", ["nan", "-5", "101", "inf", "-inf"])
def test_a_fail_under_that_is_not_a_percent_is_refused_before_any_test_runs(
    percent: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from agent_graph._cli.main import main

    code = main(["--manifest", str(WEEKLY / "provider.yaml"), "test", str(WEEKLY / "tests"), "--fail-under", percent,
                 "--format", "json"])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert json.loads(err)["error"]["code"] == "argument-invalid"


@pytest.mark.parametrize("percent", [float("nan"), -0.1, 100.5, True, "50", None])
def test_falls_short_refuses_what_is_not_a_percent(provider: ag.Provider, percent: Any) -> None:
    from agent_graph._core.graph_coverage import falls_short

    report = agtest.CoverageCollector(provider).report()
    assert code_of(lambda: falls_short(report, percent)) == "argument-invalid"
    assert falls_short(report, 0) is False and falls_short(report, 100) is True


def test_the_pytest_option_refuses_a_fail_under_that_is_not_a_percent(pytester: pytest.Pytester) -> None:
    from agent_graph._toolchain.scaffold import init_provider

    init_provider(str(pytester.path / "provider"), "demo")
    pytester.makeini("[pytest]\nagent_graph_manifest = provider/provider.yaml\n")
    plugin = ("-p", "agent_graph.pytest_plugin", "-p", "no:cacheprovider", "-p", "no:hypothesispytest")
    import importlib.metadata

    if any(e.value == "agent_graph.pytest_plugin" for e in importlib.metadata.entry_points(group="pytest11")):
        plugin = plugin[2:]
    result = pytester.runpytest(*plugin, "--agent-graph-coverage-fail-under=nan")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--agent-graph-coverage-fail-under*percent from 0 to 100*"])


@pytest.mark.parametrize("value", HOSTILE, ids=_id)
def test_evaluate_route_and_graph_tests_refuse_what_is_not_a_provider(value: Any) -> None:
    assert code_of(lambda: ag.evaluate(value, "report")) == "argument-invalid"
    assert code_of(lambda: ag.route(value, "report", "default", "r")) == "argument-invalid"
    assert code_of(lambda: ag.run_graph_tests(value, str(WEEKLY / "tests"))) == "argument-invalid"
