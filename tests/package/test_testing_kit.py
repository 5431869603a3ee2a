"""agent_graph.testing: drive a Run with an agent function, assert as the protocol speaks, freeze the trace."""

from __future__ import annotations

import asyncio
import importlib.metadata
from collections.abc import Iterator
from pathlib import Path

import pytest

import agent_graph as ag
import agent_graph.define as agd
import agent_graph.testing as agtest
from tests.conftest import REPO

pytest_plugins = ["pytester"]

EXAMPLES = sorted(p.parent for p in (REPO / "examples").glob("*/provider.yaml"))
GRAPHS = [
    pytest.param(folder, graph, id=f"{folder.name}-{graph}")
    for folder in EXAMPLES
    for graph in ag.load_provider(str(folder / "provider.yaml")).graphs
]


def _diligent(step: ag.Step) -> agtest.Reply:
    """An agent that does each step and reports the Facts its proof asks for; grants a Gate's authority when asked."""
    route = step.route
    assert route is not None
    if route.gate is not None and route.gate.resolution == "user" and route.gate.authority:
        return agtest.grant(route.gate.authority)
    observed = {check.path: f"observed:{check.path}" for check in step.proof if check.operator == "exists"}
    return agtest.record("completed", step.proof_facts(observed), deep=True)


def _store_kinds(tmp_path: Path) -> Iterator[tuple[str, ag.BaseRunStore | None]]:
    yield "default", None  # drive's own fresh memory:// store
    with ag.open_store("memory://") as memory:
        yield "memory", memory
    with ag.open_store(f"sqlite:///{tmp_path / 'runs.db'}") as store:
        yield "sqlite", store


@pytest.mark.parametrize(("folder", "graph"), GRAPHS)
def test_drive_runs_every_example_to_its_end_and_the_trace_becomes_passing_tests(
    folder: Path, graph: str, tmp_path: Path
) -> None:
    provider = ag.load_provider(str(folder / "provider.yaml"))
    for kind, store in _store_kinds(tmp_path):
        trace = agtest.drive(provider, graph, agent=_diligent, store=store)
        assert (trace.stopped, trace.status, trace.outcome) == ("terminal", "complete", "completed"), kind
        agtest.assert_status(trace, "complete", outcome="completed")
        assert trace.turns and all(turn.number == i for i, turn in enumerate(trace.turns, 1))
        assert [turn.status for turn in trace.turns][-1] == "complete"
        if store is not None:
            stored = store.load(trace.run, provider)
            assert stored.id == trace.run
            assert stored.outcomes.keys() >= {
                t.route.after_action.record_node for t in trace.turns if t.route
            }
        written = trace.write_tests(tmp_path / kind / "driven")
        assert len(written) == len(trace.turns) + 1
        results = ag.run_graph_tests(provider, str(tmp_path / kind / "driven"))
        assert [r.failures for r in results if not r.passed] == []


def test_the_frozen_tests_fail_when_the_graph_changes(tmp_path: Path) -> None:
    """A frozen trace pins the answers: the same tests fail against a Provider that answers otherwise."""
    from tests import weekly_report

    provider = weekly_report.g.provider.load()
    trace = agtest.drive(provider, "report", agent=_diligent)
    trace.write_tests(tmp_path)
    assert all(r.passed for r in ag.run_graph_tests(provider, str(tmp_path), fs=ag.OSFileSystem()))
    changed = agd.from_provider(provider)
    approve = changed.graphs["report"].node("approve")
    assert isinstance(approve, agd.GateNode)
    approve.gate.delegatable = False  # the session's authority no longer approves
    failures = [
        r for r in ag.run_graph_tests(changed.load(), str(tmp_path), fs=ag.OSFileSystem()) if not r.passed
    ]
    assert failures and any(
        "gateResolution: expected session-authority, received user" in f for r in failures for f in r.failures
    )


def test_drive_async_takes_the_same_turns(tmp_path: Path) -> None:
    provider = ag.load_provider(str(REPO / "examples" / "weekly-report" / "provider.yaml"))
    blocking = agtest.drive(provider, "report", agent=_diligent)

    async def main() -> list[agtest.Trace]:
        policy = _diligent

        async def agent(step: ag.Step) -> agtest.Reply:
            await asyncio.sleep(0)
            reply: agtest.Reply = policy(step)
            return reply

        async with await ag.open_async_store(f"sqlite:///{tmp_path / 'runs.db'}") as store:
            on_store = await agtest.drive_async(provider, "report", agent=agent, store=store)
        in_memory = await agtest.drive_async(provider, "report", agent=policy)
        return [on_store, in_memory]

    for trace in asyncio.run(main()):
        assert [(t.route and t.route.node, t.reply, t.status) for t in trace.turns] == [
            (t.route and t.route.node, t.reply, t.status) for t in blocking.turns
        ]
        assert trace.status == "complete"


def test_a_drive_stops_on_its_budget_on_the_agent_and_at_a_block() -> None:
    provider = ag.load_provider(str(REPO / "examples" / "weekly-report" / "provider.yaml"))
    looping = agtest.drive(provider, "report", agent=lambda step: agtest.record("partial"), max_turns=3)
    assert (looping.stopped, len(looping.turns), looping.status) == ("max-turns", 3, "actionable")
    agtest.assert_route(looping, node="draft", availability="immediate", record="report/draft")
    stopped = agtest.drive(provider, "report", agent=lambda step: None)
    assert (stopped.stopped, stopped.turns) == ("agent", ())
    failing = agtest.drive(provider, "report", agent=lambda step: agtest.record("failed"))
    assert (failing.stopped, failing.status, len(failing.turns)) == ("terminal", "blocked", 1)
    case = failing.test_cases()[-1]
    assert case.expect.diagnostics_include == ("no-route",)
    # Facts only, then a grant: each is a turn, and the Run carries them.
    replies = iter([agtest.observe({"report": {"digest": "sha256:1"}}), agtest.grant("report.publish"), None])
    trace = agtest.drive(provider, "report", agent=lambda step: next(replies), facts={"sources": ["a"]})
    assert [t.status for t in trace.turns] == ["waiting-user", "actionable"]
    assert trace.final.run.authorities == ("report.publish",)
    assert trace.final.run.facts == {"sources": ["a"], "report": {"digest": "sha256:1"}}
    agtest.assert_route(trace, node="approve", resolution="session-authority")


def test_what_a_drive_refuses() -> None:
    provider = ag.load_provider(str(REPO / "examples" / "weekly-report" / "provider.yaml"))
    for call, code in (
        (lambda: agtest.drive(provider, "report", agent=lambda step: "completed"), "argument-invalid"),  # type: ignore[arg-type,return-value]
        (lambda: agtest.drive(provider, "report", agent=lambda step: None, max_turns=-1), "argument-invalid"),
        (lambda: agtest.drive("provider.yaml", "report", agent=lambda step: None), "argument-invalid"),  # type: ignore[arg-type]
        (lambda: agtest.drive(provider, "reprot", agent=lambda step: None), "graph-missing"),
        (
            lambda: agtest.drive(provider, "report", agent=lambda step: agtest.record("done")),
            "outcome-invalid",
        ),  # type: ignore[arg-type]
    ):
        with pytest.raises(ag.AgentGraphError) as raised:
            call()
        assert raised.value.code == code


def test_assertions_say_every_field_that_differs() -> None:
    provider = ag.load_provider(str(REPO / "examples" / "weekly-report" / "provider.yaml"))
    trace = agtest.drive(provider, "report", agent=lambda step: None)
    step = trace.final
    agtest.assert_status(step, "actionable")
    agtest.assert_route(
        step,
        node="draft",
        graph="report",
        availability="immediate",
        reason="route.report.draft",
        record="report/draft",
        required=["skill.report-writer", "procedure.weekly-report"],
        recommended=["template.weekly-report"],
    )
    with pytest.raises(AssertionError) as failed:
        agtest.assert_route(
            step, node="approve", availability="requires-user", required=["procedure.weekly-report"]
        )
    assert str(failed.value).splitlines() == [
        "node: expected approve, received draft",
        "availability: expected requires-user, received immediate",
        "requiredResources: expected ['procedure.weekly-report'], received ['skill.report-writer', 'procedure.weekly-report']",
        "  where: status actionable; route report/draft (immediate, route.report.draft)",
    ]
    with pytest.raises(AssertionError, match="statusCode: expected waiting-user, received actionable"):
        agtest.assert_status(step, "waiting-user")
    # A Run is evaluated with its Provider; an evaluation's primary route answers node and availability.
    agtest.assert_status(step.run, "actionable", provider=provider)
    evaluation = ag.evaluate(provider, "report", facts={"report": {"digest": "sha256:1"}})
    agtest.assert_route(evaluation, node="approve", availability="requires-user")
    agtest.assert_status(evaluation, "waiting-user")
    with pytest.raises(ag.AgentGraphError, match="pass provider="):
        agtest.assert_status(step.run, "actionable")
    with pytest.raises(ag.AgentGraphError, match="fields of a resolved route"):
        agtest.assert_route(evaluation, record="report/approve")
    done = ag.evaluate(
        provider, "report", facts={"report": {"digest": "x", "approved": True}, "publication": {"url": "u"}}
    )
    with pytest.raises(AssertionError, match="route: expected a route, received <none>"):
        agtest.assert_route(done, node="draft")


def test_write_tests_replaces_nothing(tmp_path: Path) -> None:
    provider = ag.load_provider(str(REPO / "examples" / "weekly-report" / "provider.yaml"))
    trace = agtest.drive(provider, "report", agent=_diligent)
    (tmp_path / "state-03.yaml").write_text("mine\n")
    with pytest.raises(ag.AgentGraphError) as raised:
        trace.write_tests(tmp_path)
    assert raised.value.code == "file-exists"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state-03.yaml"]


# ---------------------------------------------------------------- fixtures


def _registered() -> bool:
    return any(
        e.value == "agent_graph.pytest_plugin" for e in importlib.metadata.entry_points(group="pytest11")
    )


def test_provider_fixtures_and_the_store_fixture_in_a_users_suite(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_user=f"""
        import agent_graph as ag
        import agent_graph.define as agd
        import agent_graph.testing as agtest

        def build():
            p = agd.provider("tiny")
            g = p.graph("main")
            g.action("work", agd.command("make", effect="write"), proof="work.done").to(g.terminal("done"))
            return p

        report = agtest.provider_fixture({str(REPO / "examples" / "weekly-report")!r})
        tiny = agtest.provider_fixture(build, scope="module")

        def test_folder(report):
            assert report.id == "examples/weekly-report"

        def test_builder(tiny, agent_graph_store):
            trace = agtest.drive(tiny, "main", agent=lambda s: agtest.record("completed", {{"work": {{"done": True}}}}),
                              store=agent_graph_store)
            agtest.assert_status(trace, "complete")
            assert [r.id for r in agent_graph_store.list()] == [trace.run]

        def test_a_fresh_store_each_time(agent_graph_store):
            assert agent_graph_store.list() == []
        """
    )
    plugin = () if _registered() else ("-p", "agent_graph.pytest_plugin")
    result = pytester.runpytest(*plugin, "-p", "no:cacheprovider", "-p", "no:hypothesispytest")
    result.assert_outcomes(passed=3)


def test_load_takes_a_builder_a_folder_a_manifest_and_a_function() -> None:
    from tests import weekly_report

    folder = REPO / "examples" / "weekly-report"
    assert agtest.load(folder).id == agtest.load(folder / "provider.yaml").id == "examples/weekly-report"
    assert agtest.load(weekly_report.g.provider).id == agtest.load(lambda: weekly_report.g.provider).id
    provider = agtest.load(str(folder))
    assert agtest.load(provider) is provider
    with pytest.raises(ag.AgentGraphError) as raised:
        agtest.load(42)  # type: ignore[arg-type]
    assert raised.value.code == "argument-invalid"
