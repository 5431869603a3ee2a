"""Coverage of graph tests: nodes, edges, outcomes and Gate resolutions, per Graph and in total.

Rule by rule on small Providers, through ``run_graph_tests``, the command line
(table, JSON, Mermaid/DOT, ``--fail-under``) and the pytest plugin; every
bundled example reaches 100% with its own tests; random Providers and states
never crash the collector and its node coverage is what the evaluator reached.
"""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import agent_graph as ag
import agent_graph.types as agt
from agent_graph._cli import main as _cli
from agent_graph._core.evaluate import settled_outcomes
from agent_graph._core.graph_coverage import CoverageCollector, coverage_table, falls_short
from agent_graph._core.normalize import normalize_authorities, normalize_outcomes, plain_facts
from agent_graph._toolchain.diagram import render_diagram
from agent_graph._toolchain.scaffold import init_provider
from tests import providers as P, strategies as S
from tests.paths import EXAMPLES

pytest_plugins = ["pytester"]


def _review() -> ag.Provider:
    return P.build(
        P.graph_doc(
            "main",
            [
                P.action_node("draft", satisfiedBy=[{"path": "draft", "exists": True}]),
                P.gate_node("approve", authority="review", delegatable=True),
                P.action_node("publish"),
                P.terminal_node("done"),
                P.terminal_node("dropped", "failed"),
            ],
            [
                P.repeat("draft", "draft", "partial"),
                P.edge("draft", "approve"),
                P.edge("approve", "publish", kind="gatedBy"),
                P.edge("approve", "dropped", "failed", "skipped"),
                P.edge("publish", "done"),
            ],
        )
    )


def _graph(report: agt.CoverageReport, graph: str = "main") -> agt.GraphCoverage:
    return next(g for g in report.graphs if g.graph == graph)


def test_nothing_evaluated_covers_nothing() -> None:
    report = CoverageCollector(_review()).report()
    main = _graph(report)
    assert (main.nodes.covered, main.nodes.total) == (0, 5)
    assert (main.edges.covered, main.edges.total) == (0, 5)
    # outcomes named by outgoing edges: draft partial+completed, approve completed+failed+skipped, publish completed
    assert main.outcomes.total == 6
    assert main.missing.gate_resolutions == ["approve: user", "approve: delegated", "approve: refused"]
    assert main.total.percent == 0.0 and report.evaluations == 0


def test_each_evaluation_adds_what_it_reached() -> None:
    collector = CoverageCollector(_review())
    evaluation = collector.evaluate("main")
    assert evaluation == ag.evaluate(collector.provider, "main")
    main = _graph(collector.report())
    assert main.nodes.covered == 1 and main.missing.nodes == ["approve", "publish", "done", "dropped"]
    assert main.edges.covered == 0
    assert main.outcomes.covered == 0  # pending is no outcome an edge names
    collector.evaluate("main", facts={"draft": 1})
    main = _graph(collector.report())
    assert main.missing.edges == [
        "draft -> draft [repeat: partial]",
        "approve -> publish [gatedBy: completed]",
        "approve -> dropped [flow: failed, skipped]",
        "publish -> done [flow: completed]",
    ]
    assert main.missing.gate_resolutions == [
        "approve: delegated",
        "approve: refused",
    ]  # user: offered to the user
    assert main.missing.outcomes == [
        "draft: partial",
        "approve: completed",
        "approve: failed",
        "approve: skipped",
        "publish: completed",
    ]


def test_gate_resolutions_user_delegated_and_refused() -> None:
    collector = CoverageCollector(_review())
    collector.evaluate("main", facts={"draft": 1}, authorities=["review"])
    assert _graph(collector.report()).missing.gate_resolutions == ["approve: user", "approve: refused"]
    collector.evaluate("main", facts={"draft": 1}, outcomes={"main/approve": "completed"})
    assert (
        "approve: refused" in _graph(collector.report()).missing.gate_resolutions
    )  # completed is no refusal
    collector.evaluate("main", facts={"draft": 1}, outcomes={"main/approve": "failed"})
    main = _graph(collector.report())
    assert main.missing.gate_resolutions == ["approve: user"]
    assert "approve -> dropped [flow: failed, skipped]" not in main.missing.edges
    assert "approve: skipped" in main.missing.outcomes  # the edge is covered, its second outcome is not
    not_delegatable = P.build(
        P.graph_doc("main", [P.gate_node("ask", authority="ops"), P.terminal_node("t")], [P.edge("ask", "t")])
    )
    report = CoverageCollector(not_delegatable).report()
    assert report.graphs[0].missing.gate_resolutions == ["ask: user", "ask: refused"]


def test_a_repeat_edge_and_the_outcome_it_re_armed_are_covered() -> None:
    collector = CoverageCollector(_review())
    collector.evaluate("main", outcomes={"main/draft": "partial"})
    main = _graph(collector.report())
    assert "draft -> draft [repeat: partial]" not in main.missing.edges
    assert "draft: partial" not in main.missing.outcomes


def test_subgraph_frames_count_for_their_own_graph() -> None:
    child = P.graph_doc("quality", [P.action_node("verify"), P.terminal_node("ok")], [P.edge("verify", "ok")])
    parent = P.graph_doc(
        "main", [P.subgraph_node("check", "quality"), P.terminal_node("done")], [P.edge("check", "done")]
    )
    collector = CoverageCollector(P.build(parent, child))
    collector.evaluate("main", outcomes={"main/check>quality/verify": "completed"})
    report = collector.report()
    assert [g.graph for g in report.graphs] == ["main", "quality"]
    assert _graph(report, "quality").total.percent == 100.0
    assert _graph(report, "main").total.percent == 100.0
    assert report.total.total.covered == report.total.total.total == 8


def test_percentages_and_fail_under() -> None:
    collector = CoverageCollector(_review())
    collector.evaluate("main", facts={"draft": 1})
    report = collector.report()
    total = report.total.total
    assert total.percent == round(100 * total.covered / total.total, 2)
    assert falls_short(report, total.percent + 0.01) and not falls_short(report, total.percent - 0.01)
    lines = coverage_table(report)
    assert lines[0].split() == ["Graph", "Nodes", "Edges", "Outcomes", "Gates", "Total"]
    assert lines[2].startswith("main ") and lines[4].startswith("TOTAL ")
    assert "missing main edge: publish -> done [flow: completed]" in lines


def test_run_graph_tests_counts_each_test(tmp_path: Path) -> None:
    provider = ag.load_provider(str(EXAMPLES / "weekly-report" / "provider.yaml"))
    collector = CoverageCollector(provider)
    results = ag.run_graph_tests(provider, str(EXAMPLES / "weekly-report" / "tests"), coverage=collector)
    assert collector.evaluations == len(results) > 0
    other = CoverageCollector(_review())
    with pytest.raises(ag.AgentGraphError) as caught:
        ag.run_graph_tests(provider, str(EXAMPLES / "weekly-report" / "tests"), coverage=other)
    assert caught.value.code == "coverage-provider-mismatch"


@pytest.mark.parametrize(
    "example", sorted(p.name for p in EXAMPLES.glob("*/provider.yaml") for p in [p.parent])
)
def test_every_example_reaches_full_coverage_with_its_own_tests(example: str) -> None:
    provider = ag.load_provider(str(EXAMPLES / example / "provider.yaml"))
    collector = CoverageCollector(provider)
    results = ag.run_graph_tests(provider, str(EXAMPLES / example / "tests"), coverage=collector)
    assert all(r.passed for r in results)
    report = collector.report()
    assert report.total.edges.percent == 100.0, coverage_table(report)
    assert report.total.total.percent == 100.0, coverage_table(report)


def test_the_diagram_marks_tested_and_untested_parts() -> None:
    provider = _review()
    collector = CoverageCollector(provider)
    collector.evaluate("main", facts={"draft": 1})
    coverage = _graph(collector.report())
    text = render_diagram(provider, "main", coverage=coverage)
    assert "test coverage" in text.splitlines()[0]
    assert 'f0_n0["draft<br/>action<br/>✓ tested<br/>untested outcome: partial"]' in text
    assert "✗ not tested" in text and "untested gate: delegated" in text
    assert "class f0_n0,f0_n1 partly" in text and "class f0_n2,f0_n3,f0_n4 untested" in text
    assert '|"✗ completed"| f0_n3' in text  # publish -> done
    assert "stroke-dasharray:4 3" in text
    dot = render_diagram(provider, "main", fmt="dot", coverage=coverage)
    assert 'label="✗ completed", color="#c62828", style=dashed' in dot
    assert 'label="completed", color="#2e7d32", penwidth=2' in dot  # draft -> approve


# ---------------------------------------------------------------- command line


def _example(name: str) -> str:
    return str(EXAMPLES / name / "provider.yaml")


def test_the_command_line_reports_coverage(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    manifest = _example("weekly-report")
    assert _cli.main(["test", "--coverage", "--manifest", manifest]) == 0
    out = capsys.readouterr().out
    assert "TOTAL   6/6 100%  7/7 100%  7/7 100%  3/3 100%  23/23 100%" in out
    assert _cli.main(["test", "--coverage", "--manifest", manifest, "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["coverage"]["schema"] == "agent-graph.coverage.v1"
    assert answer["coverage"]["total"]["edges"] == {"covered": 7, "total": 7, "percent": 100.0}
    # One test alone leaves most of the graph untested.
    one = str(EXAMPLES / "weekly-report" / "tests" / "01-initial-draft.yaml")
    assert _cli.main(["test", one, "--fail-under", "100", "--manifest", manifest]) == 1
    out = capsys.readouterr().out
    assert "FAIL coverage" in out and "missing report node: publish" in out
    assert _cli.main(["test", one, "--fail-under", "1", "--manifest", manifest]) == 0
    capsys.readouterr()
    assert _cli.main(["test", one, "--format", "mermaid", "--manifest", manifest]) == 0
    assert "✗ not tested" in capsys.readouterr().out
    arguments = ["test", one, "--format", "dot", "--manifest", manifest, "--format", "json"]
    assert _cli.main(arguments) == 0
    diagrams = json.loads(capsys.readouterr().out)["diagrams"]
    assert list(diagrams) == ["report"] and diagrams["report"].startswith("digraph")
    assert _cli.main(["test", "--fail-under", "x", "--manifest", manifest, "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().err)["error"]["code"] == "argument-invalid"


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(S.scenarios(hostile=False), S.scenarios(hostile=False))
def test_merged_snapshots_report_what_one_collector_would(
    first: tuple[Any, ...], second: tuple[Any, ...]
) -> None:
    """Evaluations spread over collectors (processes), merged by snapshot, report as if counted in one."""
    import msgspec

    files = first[0]
    provider = S.load_files(files)
    whole, parts = CoverageCollector(provider), [CoverageCollector(provider), CoverageCollector(provider)]
    for part, (_, facts, outcomes, authorities, entry) in zip(parts, (first, second), strict=True):
        for collector in (whole, part):
            collector.evaluate(S.MAIN, entry, facts=facts, outcomes=outcomes, authorities=authorities)
    merged = CoverageCollector(provider)
    for part in parts:  # through JSON, as a worker process sends it
        merged.merge(json.loads(json.dumps(part.snapshot())))
    assert msgspec.json.encode(merged.report()) == msgspec.json.encode(whole.report())


def test_a_snapshot_of_another_provider_or_shape_is_refused_and_adds_nothing() -> None:
    provider = _review()
    counted = CoverageCollector(provider)
    counted.evaluate("main", facts={"draft": True})
    snapshot = counted.snapshot()
    other = CoverageCollector(P.build(P.graph_doc("main", [P.terminal_node("done")], [])))
    for bad, code in (
        ({**snapshot, "provider": "someone-else"}, "coverage-provider-mismatch"),
        ({**snapshot, "graphs": {"nowhere": {"nodes": [0]}}}, "coverage-provider-mismatch"),
        ({**snapshot, "graphs": {"main": {"nodes": [99]}}}, "coverage-provider-mismatch"),
        ({**snapshot, "graphs": {"main": {"outcomes": [[0]]}}}, "coverage-provider-mismatch"),
        ({**snapshot, "graphs": {"main": {"nodes": "0"}}}, "argument-invalid"),
        ({**snapshot, "evaluations": -1}, "argument-invalid"),
        ([], "argument-invalid"),
    ):
        fresh = CoverageCollector(provider)
        with pytest.raises(ag.AgentGraphError) as caught:
            fresh.merge(bad)  # type: ignore[arg-type]
        assert caught.value.code == code, bad
        assert fresh.evaluations == 0 and fresh.report() == CoverageCollector(provider).report()
    if other.provider.manifest.id == provider.manifest.id:  # same ID, other Graph: the nodes do not fit
        with pytest.raises(ag.AgentGraphError) as caught:
            other.merge(snapshot)
        assert caught.value.code == "coverage-provider-mismatch"


# ---------------------------------------------------------------- pytest plugin


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    registered = any(
        e.value == "agent_graph.pytest_plugin" for e in importlib.metadata.entry_points(group="pytest11")
    )
    plugin = () if registered else ("-p", "agent_graph.pytest_plugin")
    quiet = ("-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:benchmark")
    return pytester.runpytest(*plugin, *quiet, *args)


def test_the_pytest_plugin_reports_coverage(pytester: pytest.Pytester) -> None:
    init_provider(str(pytester.path / "provider"), "demo")
    pytester.makeini("[pytest]\nagent_graph_manifest = provider/provider.yaml\n")
    result = _run(pytester, "--agent-graph-coverage")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        ["*agent-graph coverage*", "Graph*Nodes*Edges*Outcomes*Gates*Total", "TOTAL*"]
    )
    assert result.ret == 0
    strict = _run(pytester, "--agent-graph-coverage-fail-under=100")
    strict.assert_outcomes(passed=2)
    total = next(line for line in strict.stdout.lines if line.startswith("TOTAL"))
    if total.endswith("100%"):
        assert strict.ret == 0
    else:
        assert strict.ret == 1
        strict.stdout.fnmatch_lines(["FAIL coverage * is under --agent-graph-coverage-fail-under 100%"])
    lenient = _run(pytester, "--agent-graph-coverage-fail-under=1")
    assert lenient.ret == 0
    lenient.stdout.fnmatch_lines(["coverage * reaches --agent-graph-coverage-fail-under 1%"])
    (pytester.path / "provider" / "tests" / "02-done.yaml").unlink()
    partial = _run(pytester, "--agent-graph-coverage-fail-under=100")
    partial.assert_outcomes(passed=1)
    assert partial.ret == 1
    partial.stdout.fnmatch_lines(["FAIL coverage * is under --agent-graph-coverage-fail-under 100%"])
    plain = _run(pytester)
    assert "agent-graph coverage" not in plain.stdout.str()
    written = _run(pytester, "--agent-graph-coverage-json=out/coverage.json")
    assert written.ret == 0
    report = json.loads((pytester.path / "out" / "coverage.json").read_text())
    assert report["schema"] == "agent-graph.coverage.v1" and report["provider"] == "demo"
    assert report["evaluations"] == 1
    (pytester.path / "blocked").write_text("a file where a folder should be")
    unwritable = _run(pytester, "--agent-graph-coverage-json=blocked/coverage.json")
    assert unwritable.ret == 1
    unwritable.stdout.fnmatch_lines(["FAIL coverage report not written to *blocked/coverage.json: *"])


# ---------------------------------------------------------------- random Providers


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
@given(S.scenarios(hostile=False))
def test_coverage_of_random_states_is_what_the_evaluator_reached(scenario: tuple[Any, ...]) -> None:
    files, facts, outcomes, authorities, entry = scenario
    provider = S.load_files(files)
    collector = CoverageCollector(provider)
    evaluation = collector.evaluate(S.MAIN, entry, facts=facts, outcomes=outcomes, authorities=authorities)
    assert evaluation == ag.evaluate(
        provider, S.MAIN, entry, facts=facts, outcomes=outcomes, authorities=authorities
    )
    report = collector.report()
    graph = provider.graphs[S.MAIN]
    reached = settled_outcomes(
        provider,
        graph,
        entry,
        (),
        plain_facts(facts),
        normalize_outcomes(outcomes),
        normalize_authorities(authorities),
    )
    main = _graph(report, S.MAIN)
    assert set(main.missing.nodes) == {node.id for node in graph.nodes} - set(reached)
    for item in report.graphs:
        for value in (item.nodes, item.edges, item.outcomes, item.gate_resolutions, item.total):
            assert 0 <= value.covered <= value.total and 0.0 <= value.percent <= 100.0
