"""``agent_graph.toolchain.verify`` and ``agent-graph verify``: the states a host can reach, and what can go wrong in them.

Fixtures are made for each rule: the retry-through-a-Subgraph trap (write
code, checks Subgraph, open PR, review Gate, merge, verify; a ``repeat``
back to write-code when the checks fail), a planted dead end, a node no state
reaches, a Gate whose refusal leads nowhere, a 200-node Provider larger than
the bound. Each is also fixed, and the finding goes away. Every finding's
reproducing test is run with ``ag.run_graph_tests`` and fails as described.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings

import agent_graph as ag
from agent_graph._cli import main as _cli
from agent_graph._core.explore import RECORD, explore
from agent_graph._core.model import TestCase
from agent_graph._core.verify import RULES
from agent_graph._runtime.testing import run_test_case
from agent_graph._toolchain.generate import render_test
from agent_graph.testing import CoverageCollector
from agent_graph.toolchain import generate_tests, verify
from tests import providers as P, strategies as S
from tests.fakes import FakeMonotonic
from tests.paths import EXAMPLES

NAMES = sorted(p.name for p in EXAMPLES.iterdir() if (p / "provider.yaml").is_file())


def _on_disk(tmp_path: Path, *graphs: Mapping[str, Any], **options: Any) -> ag.Provider:
    """Write a Provider of ``graphs`` under ``tmp_path/p`` and load it from the disk."""
    root = tmp_path / "p"
    for path, text in P.files_for(graphs, root=str(root), **options).items():
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text if isinstance(text, str) else text.decode("utf-8"), encoding="utf-8")
    return ag.load_provider(str(root / "provider.yaml"))


def _codes(report: Any) -> list[str]:
    return [finding.code for finding in report.findings]


def _only(report: Any, code: str) -> Any:
    found = [finding for finding in report.findings if finding.code == code]
    assert len(found) == 1, report.findings
    return found[0]


def _run_test(provider: ag.Provider, document: Mapping[str, Any], folder: Path) -> ag.types.TestResult:
    """Write a finding's test as a file and run it the way a user would."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "finding.yaml"
    path.write_text(render_test(dict(document)), encoding="utf-8")
    results = ag.run_graph_tests(provider, str(path))
    assert len(results) == 1
    return results[0]


def _state(document: Mapping[str, Any]) -> dict[str, Any]:
    state = document.get("state", {})
    return {
        "facts": state.get("facts", {}),
        "outcomes": state.get("outcomes", {}),
        "authorities": state.get("authorities", []),
    }


# ---------------------------------------------------------------- the retry trap


def _pull_request(repeat_on_failure: bool = True) -> list[dict[str, Any]]:
    """write-code -> checks (Subgraph) -> open-pr -> review (Gate) -> merge -> verify -> done."""
    edges = [
        P.edge("write-code", "checks"),
        P.edge("checks", "open-pr"),
        P.edge("open-pr", "review"),
        P.edge("review", "merge", kind="gatedBy"),
        P.edge("review", "rejected", "failed"),
        P.edge("merge", "verify"),
        P.edge("verify", "done"),
    ]
    nodes = [
        P.action_node("write-code", satisfiedBy=[{"path": "code.digest", "exists": True}]),
        P.subgraph_node("checks", "checks"),
        P.action_node("open-pr", satisfiedBy=[{"path": "pr.url", "exists": True}]),
        P.gate_node("review", satisfiedBy=[{"path": "review.approved", "equals": True}]),
        P.action_node("merge", satisfiedBy=[{"path": "pr.merged", "equals": True}]),
        P.action_node("verify", satisfiedBy=[{"path": "deploy.healthy", "equals": True}]),
        P.terminal_node("done"),
        P.terminal_node("rejected", "failed"),
    ]
    if repeat_on_failure:
        edges.append(P.repeat("checks", "write-code", "failed"))
    else:  # the fix: a failed check ends the Run
        nodes.append(P.terminal_node("abandoned", "failed"))
        edges.append(P.edge("checks", "abandoned", "failed"))
    checks = P.graph_doc(
        "checks",
        [
            P.action_node("run-checks", satisfiedBy=[{"path": "checks.passed", "equals": True}]),
            P.terminal_node("passed"),
            P.terminal_node("failed", "failed"),
        ],
        [P.edge("run-checks", "passed"), P.edge("run-checks", "failed", "failed")],
    )
    return [P.graph_doc("pr", nodes, edges), checks]


def test_verify_finds_the_retry_trap_through_a_subgraph(tmp_path: Path) -> None:
    provider = _on_disk(tmp_path, *_pull_request())
    report = verify(provider)
    assert report.complete and report.state == "failed"
    trap = _only(report, "AGV103")
    assert trap.rule == "trap" and trap.severity == "error"
    assert trap.entry == "pr#default"
    assert (trap.file, trap.graph, trap.node) == ("graphs/checks.json", "checks", "run-checks")
    assert trap.line > 0
    assert [step.text for step in trap.trace] == [
        "start a new Run with code.digest present",
        "record failed at pr/checks>checks/run-checks",
    ]
    assert trap.trace[0].facts == {"code": {"digest": "present"}}
    assert "offers only pr/write-code" in trap.message
    assert "repeat pr/checks -> write-code keeps firing" in trap.message
    # The repeat edge that never stops firing is reported where it is written.
    endless = _only(report, "AGV105")
    assert (endless.graph, endless.edge, endless.file) == ("pr", "checks->write-code", "graphs/pr.json")
    assert "never ends" in endless.message

    # The trace reproduces it as a failing graph test.
    assert trap.test is not None
    result = _run_test(provider, trap.test, tmp_path / "repro")
    assert not result.passed
    assert result.failures == ("statusCode: expected complete, received actionable",)
    # ... there, the Run offers write-code; doing it (with its proof) offers write-code again.
    state = _state(trap.test)
    first = ag.evaluate(provider, "pr", **state)
    assert first.primary_route is not None and first.primary_route.node == "write-code"
    state["outcomes"] = {**state["outcomes"], "pr/write-code": "completed"}
    again = ag.evaluate(provider, "pr", **state)
    assert again.primary_route is not None and again.primary_route.node == "write-code"
    assert again.revision != first.revision


def test_proof_that_stays_finds_the_trap_in_fewer_states(tmp_path: Path) -> None:
    provider = _on_disk(tmp_path, *_pull_request())
    free = verify(provider)
    progress = verify(provider, fact_changes="progress")
    assert sorted(_codes(progress)) == sorted(_codes(free)) == ["AGV103", "AGV105"]
    assert progress.explorations[0].states < free.explorations[0].states
    # With published proof kept, no state withdraws it: every state offering write-code after the
    # failure keeps code.digest.
    exploration = explore(provider, "pr", fact_changes="progress")
    for state, info in enumerate(exploration.infos):
        facts, outcomes, _authorities = exploration.state(state)
        if info is not None and "pr/checks>checks/run-checks" in outcomes and info.primary == "write-code":
            assert facts.get("code", {}).get("digest") == "present", facts


def test_the_fixed_pull_request_verifies_clean(tmp_path: Path) -> None:
    provider = _on_disk(tmp_path, *_pull_request(repeat_on_failure=False))
    report = verify(provider)
    assert report.findings == () and report.state == "passed"
    assert [(e.graph, e.entry, e.complete) for e in report.explorations] == [
        ("pr", "default", True),
        ("checks", "default", True),
    ]


# ---------------------------------------------------------------- planted problems


def test_a_planted_dead_end_is_found_where_the_run_stops(tmp_path: Path) -> None:
    # b requires x to equal 1 and 2 at once: no Facts ever satisfy it.
    nodes = [
        P.action_node("a"),
        P.action_node("b", requiresFacts=[{"path": "x", "equals": 1}, {"path": "x", "equals": 2}]),
        P.terminal_node("done"),
    ]
    provider = _on_disk(tmp_path, P.graph_doc("main", nodes, [P.edge("a", "b"), P.edge("b", "done")]))
    report = verify(provider)
    dead = _only(report, "AGV101")
    assert dead.rule == "dead-end" and dead.entry == "main#default"
    assert [step.text for step in dead.trace] == ["record completed at main/a"]
    assert "blocked at main/b (blocked, which no edge out of it takes)" in dead.message
    assert "required-fact-missing" in dead.message
    assert dead.test is not None
    result = _run_test(provider, dead.test, tmp_path / "repro")
    assert result.failures == ("statusCode: expected complete, received blocked",)
    # b itself is reached (blocked), and done never is.
    assert [(f.code, f.node) for f in report.findings if f.code == "AGV106"] == [("AGV106", "done")]


def test_a_dead_end_that_facts_can_leave_is_not_one(tmp_path: Path) -> None:
    # A completed claim without its proof is blocked (unverified) until the host publishes the proof.
    nodes = [P.action_node("a", satisfiedBy=[{"path": "a.done", "exists": True}]), P.terminal_node("done")]
    provider = _on_disk(tmp_path, P.graph_doc("main", nodes, [P.edge("a", "done")]))
    unverified = ag.evaluate(provider, "main", outcomes={"main/a": "completed"})
    assert unverified.status_code == "blocked"
    assert verify(provider).findings == ()


def test_a_node_no_state_reaches_is_found_though_the_shape_reaches_it(tmp_path: Path) -> None:
    # d joins the completed and the failed branch of a: a settles to one of them, never both.
    nodes = [
        P.action_node("a"),
        P.action_node("b"),
        P.action_node("c"),
        P.action_node("d"),
        P.terminal_node("end-b"),
        P.terminal_node("end-c", "failed"),
        P.terminal_node("end-d"),
    ]
    edges = [
        P.edge("a", "b"),
        P.edge("a", "c", "failed"),
        P.edge("b", "end-b"),
        P.edge("c", "end-c"),
        P.edge("b", "d"),
        P.edge("c", "d"),
        P.edge("d", "end-d"),
    ]
    provider = _on_disk(tmp_path, P.graph_doc("main", nodes, edges))
    assert [f.code for f in ag.lint(provider) if f.code in ("AG101", "AG102")] == []
    report = verify(provider)
    unreached = [(f.code, f.node) for f in report.findings if f.code == "AGV106"]
    assert unreached == [("AGV106", "d"), ("AGV106", "end-d")]
    assert all(f.test is None and f.trace == () for f in report.findings if f.code == "AGV106")
    assert "is reached in no state a host can reach from main#default" in report.findings[0].message


def test_an_edge_no_state_takes_is_found(tmp_path: Path) -> None:
    # The child only ever ends completed: the parent's edge on failed is never taken.
    child = P.graph_doc("child", [P.action_node("x"), P.terminal_node("ok")], [P.edge("x", "ok")])
    main = P.graph_doc(
        "main",
        [P.subgraph_node("call", "child"), P.terminal_node("done"), P.terminal_node("lost", "failed")],
        [P.edge("call", "done"), P.edge("call", "lost", "failed")],
    )
    report = verify(_on_disk(tmp_path, main, child))
    assert [(f.code, f.edge) for f in report.findings if f.code == "AGV107"] == [("AGV107", "call->lost")]


def _gate_graph(with_refusal_edge: bool) -> dict[str, Any]:
    nodes = [
        P.action_node("prepare", satisfiedBy=[{"path": "draft.ready", "exists": True}]),
        P.gate_node("approve", satisfiedBy=[{"path": "approval.given", "equals": True}]),
        P.action_node("ship", satisfiedBy=[{"path": "shipped", "equals": True}]),
        P.terminal_node("done"),
    ]
    edges = [P.edge("prepare", "approve"), P.edge("approve", "ship", kind="gatedBy"), P.edge("ship", "done")]
    if with_refusal_edge:
        nodes.append(P.terminal_node("refused", "failed"))
        edges.append(P.edge("approve", "refused", "failed"))
    return P.graph_doc("main", nodes, edges)


def test_a_refused_gate_that_leads_nowhere_is_found(tmp_path: Path) -> None:
    provider = _on_disk(tmp_path, _gate_graph(with_refusal_edge=False))
    report = verify(provider)
    refused = _only(report, "AGV104")
    assert refused.node == "approve" and refused.rule == "gate-refusal-dead-end"
    assert refused.message.startswith("Refusing Gate main/approve (recording failed) leads nowhere")
    assert [step.text for step in refused.trace] == [
        "start a new Run with draft.ready present",
        "record failed at main/approve",
    ]
    assert "add an edge from approve on failed" in refused.hint
    assert refused.test is not None
    result = _run_test(provider, refused.test, tmp_path / "repro")
    assert result.failures == ("statusCode: expected complete, received blocked",)
    # The refusal is not escaped by facts that say the opposite: approval.given stays unproven.
    assert _codes(report) == ["AGV104"]


def test_a_gate_whose_refusal_ends_the_run_is_clean(tmp_path: Path) -> None:
    assert verify(_on_disk(tmp_path, _gate_graph(with_refusal_edge=True))).findings == ()


def test_an_error_state_is_found(tmp_path: Path) -> None:
    # A failed a reaches both terminals through join: any: their outcomes conflict.
    nodes = [P.action_node("a"), P.terminal_node("ok"), P.terminal_node("bad", "failed", join="any")]
    edges = [P.edge("a", "ok", "failed"), P.edge("a", "bad", "failed"), P.edge("a", "bad")]
    report = verify(_on_disk(tmp_path, P.graph_doc("main", nodes, edges)))
    error = _only(report, "AGV102")
    assert "terminal-outcome-ambiguous" in error.message
    assert [step.text for step in error.trace] == ["record failed at main/a"]


# ---------------------------------------------------------------- bounds


def _generated_chain(length: int) -> dict[str, Any]:
    """``length`` nodes: Actions each proven by a fact of its own, then a terminal."""
    nodes = [
        P.action_node(f"n{i}", satisfiedBy=[{"path": f"work.n{i}", "exists": True}])
        for i in range(length - 1)
    ]
    nodes.append(P.terminal_node(f"n{length - 1}"))
    return P.graph_doc("big", nodes, [P.edge(f"n{i}", f"n{i + 1}") for i in range(length - 1)])


def test_a_200_node_provider_over_the_bound_says_so(tmp_path: Path) -> None:
    provider = _on_disk(tmp_path, _generated_chain(200))
    report = verify(provider, max_states=300)
    assert not report.complete and report.state == "incomplete"
    exploration = report.explorations[0]
    assert (exploration.stopped, exploration.complete) == ("max-states", False)
    assert exploration.states + exploration.frontier == 300 and exploration.frontier > 0
    bound = _only(report, "AGV301")
    assert bound.severity == "warning"
    assert f"stopped at its bound of states after {exploration.states} states" in bound.message
    assert "nothing is proven about the others" in bound.message
    # No claim of absence from an incomplete exploration: most nodes were never reached, none is reported.
    assert _codes(report) == ["AGV301"]


def test_the_time_budget_reads_the_injected_clock(tmp_path: Path) -> None:
    provider = _on_disk(tmp_path, _generated_chain(200))
    report = verify(provider, time_budget=25, clock=FakeMonotonic(step=10))
    exploration = report.explorations[0]
    assert exploration.stopped == "time" and not exploration.complete
    assert exploration.states == 64  # asked every 32 states: 0 (t=10), 32 (t=20), 64 (t=30 >= 0 + 25)
    assert "stopped at its time budget" in _only(report, "AGV301").message


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        ({"max_states": 0}, "argument-invalid"),
        ({"max_states": True}, "argument-invalid"),
        ({"time_budget": -1}, "argument-invalid"),
        ({"time_budget": 1, "clock": "now"}, "argument-invalid"),
        ({"outcomes": "some"}, "argument-invalid"),
        ({"fact_changes": "never"}, "argument-invalid"),
        ({"graph": "nope"}, "graph-missing"),
        ({"graph": "report", "entry": "nope"}, "entry-missing"),
        ({"entry": "default"}, "argument-invalid"),
        ({"select": ["AGV9"]}, "lint-rule-unknown"),
        ({"properties": 3}, "argument-invalid"),
        ({"properties": "/nowhere/at/all"}, "verify-path-missing"),
    ],
)
def test_bad_arguments_are_refused(arguments: dict[str, Any], code: str) -> None:
    provider = ag.load_provider(str(EXAMPLES / "weekly-report" / "provider.yaml"))
    with pytest.raises(ag.AgentGraphError) as caught:
        verify(provider, **arguments)
    assert caught.value.code == code


def test_select_and_ignore_take_verify_rules(tmp_path: Path) -> None:
    provider = _on_disk(tmp_path, *_pull_request())
    assert _codes(verify(provider, select=["AGV105"])) == ["AGV105"]
    assert _codes(verify(provider, ignore=["trap", "AGV105"])) == []


def test_outcomes_all_explores_every_outcome(tmp_path: Path) -> None:
    # With every outcome of the protocol, a skipped prepare has no edge: the Run stops there.
    provider = _on_disk(tmp_path, _gate_graph(with_refusal_edge=True))
    declared = explore(provider, "main")
    every = explore(provider, "main", outcomes="all")
    assert every.evaluated > declared.evaluated
    report = verify(provider, outcomes="all")
    dead = [f for f in report.findings if f.code == "AGV101"]
    assert [f.trace[-1].text for f in dead] == [
        "record partial at main/prepare",
        "record partial at main/ship",
    ]
    assert "blocked at main/prepare (partial, which no edge out of it takes)" in dead[0].message


# ---------------------------------------------------------------- declared properties


PROPERTIES = """\
schema: agent-graph.verify.v1
graph: report
properties:
  - name: every report can end published or rejected
    alwaysReachable:
      terminal: [done, rejected]
  - name: a report never errs
    never:
      statusCode: error
  - name: the publication is checked sometimes
    reachable:
      offers: report/check-publication
  - name: the user is never asked
    never:
      statusCode: waiting-user
  - name: nothing is ever published
    never:
      primaryNode: publish
  - name: the report is always being drafted
    always:
      primaryNode: draft
"""


def test_declared_properties_are_checked(tmp_path: Path) -> None:
    provider = ag.load_provider(str(EXAMPLES / "weekly-report" / "provider.yaml"))
    path = tmp_path / "report.verify.yaml"
    path.write_text(PROPERTIES, encoding="utf-8")
    report = verify(provider, properties=str(path))
    assert [(r.name, r.kind, r.result) for r in report.properties] == [
        ("every report can end published or rejected", "alwaysReachable", "holds"),
        ("a report never errs", "never", "holds"),
        ("the publication is checked sometimes", "reachable", "holds"),
        ("the user is never asked", "never", "violated"),
        ("nothing is ever published", "never", "violated"),
        ("the report is always being drafted", "always", "violated"),
    ]
    violations = [f for f in report.findings if f.code == "AGV201"]
    assert [f.pointer for f in violations] == ["/properties/3", "/properties/4", "/properties/5"]
    assert [f.line for f in violations] == [13, 16, 19]
    assert [step.text for step in violations[0].trace] == ["start a new Run with report.digest present"]
    for finding in violations:
        assert finding.test is not None
        assert not _run_test(provider, finding.test, tmp_path / finding.pointer.replace("/", "-")).passed


def test_a_property_that_names_nothing_reachable_fails_without_a_trace(tmp_path: Path) -> None:
    provider = ag.load_provider(str(EXAMPLES / "weekly-report" / "provider.yaml"))
    path = tmp_path / "p.json"
    document = {
        "schema": "agent-graph.verify.v1",
        "graph": "report",
        "properties": [{"name": "a ghost", "reachable": {"offers": ["report/ghost"]}}],
    }
    path.write_text(json.dumps(document), encoding="utf-8")
    finding = _only(verify(provider, properties=str(path)), "AGV201")
    assert finding.trace == () and finding.test is None
    assert "no reachable state has it" in finding.message


def test_a_property_of_a_bounded_exploration_is_unproven(tmp_path: Path) -> None:
    provider = _on_disk(tmp_path, _generated_chain(30))
    path = tmp_path / "big.verify.yaml"
    path.write_text(
        "schema: agent-graph.verify.v1\ngraph: big\nproperties:\n"
        "  - name: it can end\n    alwaysReachable: {statusCode: complete}\n",
        encoding="utf-8",
    )
    report = verify(provider, properties=str(path), max_states=50)
    assert [r.result for r in report.properties] == ["unproven"]
    assert sorted(_codes(report)) == ["AGV202", "AGV301"]


def test_the_verify_folder_beside_the_manifest_is_read(tmp_path: Path) -> None:
    provider = _on_disk(tmp_path, _gate_graph(with_refusal_edge=True))
    folder = Path(provider.root) / "verify"
    folder.mkdir()
    (folder / "main.yaml").write_text(
        "schema: agent-graph.verify.v1\ngraph: main\nproperties:\n"
        "  - name: it ends\n    alwaysReachable: {statusCode: complete}\n",
        encoding="utf-8",
    )
    assert [(r.file, r.result) for r in verify(provider).properties] == [("verify/main.yaml", "holds")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("schema: agent-graph.verify.v1\ngraph: report\nproperties: []\n", "properties"),
        (
            "schema: agent-graph.verify.v1\ngraph: report\nproperties:\n  - name: x\n    always: {status: complete}\n",
            "status",
        ),
        (
            "schema: agent-graph.verify.v1\ngraph: report\nproperties:\n"
            "  - name: x\n    always: {statusCode: done}\n",
            "statusCode",
        ),
        (
            "schema: agent-graph.verify.v1\ngraph: report\nproperties:\n"
            "  - name: two kinds\n    always: {statusCode: complete}\n    never: {statusCode: error}\n",
            "properties",
        ),
    ],
)
def test_a_bad_property_file_is_schema_invalid(tmp_path: Path, text: str, message: str) -> None:
    provider = ag.load_provider(str(EXAMPLES / "weekly-report" / "provider.yaml"))
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ag.AgentGraphError) as caught:
        verify(provider, properties=str(path))
    assert caught.value.code == "schema-invalid"
    assert message in str(caught.value)


def test_a_property_naming_another_graph_is_explored_too(tmp_path: Path) -> None:
    provider = ag.load_provider(str(EXAMPLES / "release-subgraph" / "provider.yaml"))
    path = tmp_path / "q.yaml"
    path.write_text(
        "schema: agent-graph.verify.v1\ngraph: quality\nentry: tests-only\nproperties:\n"
        "  - name: tests can pass\n    reachable: {outcome: completed}\n",
        encoding="utf-8",
    )
    report = verify(provider, "release", properties=str(path))
    assert [(e.graph, e.entry) for e in report.explorations] == [
        ("release", "default"),
        ("quality", "tests-only"),
    ]
    assert [r.result for r in report.properties] == ["holds"]


# ---------------------------------------------------------------- the examples


@pytest.mark.parametrize("name", NAMES)
def test_every_example_verifies_clean(name: str) -> None:
    report = verify(ag.load_provider(str(EXAMPLES / name / "provider.yaml")))
    assert report.complete
    assert report.findings == (), [f.message for f in report.findings]
    assert report.state == "passed"


@pytest.mark.parametrize("name", NAMES)
def test_every_example_generates_a_suite_that_passes_and_covers_everything(name: str, tmp_path: Path) -> None:
    provider = ag.load_provider(str(EXAMPLES / name / "provider.yaml"))
    tests = generate_tests(provider, out=str(tmp_path / "generated"))
    collector = CoverageCollector(provider)
    results = ag.run_graph_tests(provider, str(tmp_path / "generated"), coverage=collector)
    assert len(results) == len(tests) and all(r.passed for r in results), [r.failures for r in results]
    assert collector.report().total.total.percent == 100.0


# ---------------------------------------------------------------- rules, not examples

VERIFY_SETTINGS = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


def _offered(provider: ag.Provider, exploration: Any, state: int) -> set[str]:
    from agent_graph._core.evaluate import evaluate_with_candidates

    facts, outcomes, authorities = exploration.state(state)
    _evaluation, candidates = evaluate_with_candidates(
        provider, exploration.graph, exploration.entry, facts, outcomes, authorities
    )
    return {candidate.state_key for candidate in candidates}


@VERIFY_SETTINGS
@given(S.provider_files(max_nodes=6))
def test_every_finding_replays_and_its_test_fails(files: dict[str, str | bytes]) -> None:
    """Each trace is a path of legal host moves (a record only where a route offers it), and each
    finding's test fails at the state it reaches, which is the state the exploration evaluated."""
    provider = S.load_files(files)
    report = verify(provider, max_states=150)
    for finding in report.findings:
        if finding.test is None:
            assert finding.trace == () and finding.code in ("AGV106", "AGV107", "AGV201", "AGV202", "AGV301")
            continue
        case = msgspec.convert(finding.test, TestCase)
        result = run_test_case(provider, case, "finding.yaml")
        assert not result.passed, (finding.code, finding.message)
    for exploration in (explore(provider, e.graph, e.entry, max_states=150) for e in report.explorations):
        for state in range(min(exploration.evaluated, 40)):
            path = exploration.path(state)
            for before, after in itertools.pairwise(path):
                move = exploration.moves[after]
                assert move is not None
                if move[0] == RECORD:
                    assert move[1] in _offered(provider, exploration, before)
            info = exploration.infos[state]
            assert info is not None
            facts, outcomes, authorities = exploration.state(state)
            again = ag.evaluate(provider, exploration.graph, exploration.entry, facts=facts, outcomes=outcomes,
                                authorities=authorities)  # fmt: skip
            assert again.status_code == info.status
            assert (again.primary_route.node if again.primary_route else None) == info.primary


@VERIFY_SETTINGS
@given(S.provider_files(max_nodes=6))
def test_a_trap_never_reaches_a_terminal(files: dict[str, str | bytes]) -> None:
    """From a state reported as a trap, no host move sequence the exploration knows ends the Run; and
    from every other evaluated state of a complete exploration, one does."""
    provider = S.load_files(files)
    for graph, compiled in provider.graphs.items():
        for entry in compiled.entrypoints:
            exploration = explore(provider, graph, entry, max_states=300)
            if not exploration.complete:
                continue
            ends = exploration.reaching(
                [
                    i
                    for i, info in enumerate(exploration.infos)
                    if info is not None and info.status == "complete"
                ]
            )
            report = verify(provider, graph, entry, max_states=300, select=["AGV101", "AGV103", "AGV104"])
            traps = {_state_of(exploration, f.test) for f in report.findings}
            assert all(not ends[state] for state in traps)
            trapped = [i for i in range(exploration.evaluated) if not ends[i]]
            assert bool(trapped) == bool(traps)


def _state_of(exploration: Any, test: Mapping[str, Any]) -> int:
    """The explored state a finding's test evaluates."""
    wanted = _state(test)
    for state in range(exploration.evaluated):
        facts, outcomes, authorities = exploration.state(state)
        if (facts, outcomes, authorities) == (wanted["facts"], wanted["outcomes"], wanted["authorities"]):
            return state
    raise AssertionError(f"no explored state is {wanted}")


# ---------------------------------------------------------------- robustness corpus


def _corpus() -> list[Path]:
    """The reference's Providers recorded with the vectors (random ones, many invalid on purpose)."""
    root = Path(__file__).resolve().parents[1] / "vectors" / "providers"
    return sorted(root.glob("*/provider.json"), key=lambda p: int(p.parent.name.rpartition("-")[2]))


@pytest.mark.parametrize("manifest", _corpus(), ids=lambda p: p.parent.name)
def test_the_reference_providers_verify_without_a_crash_and_within_the_bound(manifest: Path) -> None:
    try:
        provider = ag.load_provider(str(manifest))
    except ag.AgentGraphError:
        return  # the corpus holds invalid Providers on purpose: loading refuses them
    report = verify(provider, max_states=120)
    for exploration in report.explorations:
        assert exploration.states <= 120
        assert exploration.complete == (exploration.stopped is None)
    for finding in report.findings:
        assert finding.code in RULES
        if finding.test is not None:
            case = msgspec.convert(finding.test, TestCase)
            assert not run_test_case(provider, case, "corpus.yaml").passed, finding.message


# ---------------------------------------------------------------- command line


def test_the_command_line_prints_findings_with_trace_and_test(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    provider = _on_disk(tmp_path, *_pull_request())
    manifest = str(Path(provider.root) / "provider.yaml")
    assert _cli.main(["verify", "--manifest", manifest]) == 1
    out = capsys.readouterr().out
    assert "pr#default: " in out and "(every reachable state)" in out
    assert "AGV103 error: Trap after the host's move to record failed at pr/checks>checks/run-checks" in out
    assert "      2. record failed at pr/checks>checks/run-checks" in out
    assert "    reproducing graph test:\n      schema: agent-graph.test.v1" in out
    assert "Found 2 findings (2 errors)." in out

    assert _cli.main(["verify", "--manifest", manifest, "--format", "json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert (answer["state"], answer["complete"], answer["errors"]) == ("failed", True, 2)
    trap = next(f for f in answer["findings"] if f["code"] == "AGV103")
    assert trap["trace"][1] == {
        "kind": "record",
        "text": "record failed at pr/checks>checks/run-checks",
        "key": "pr/checks>checks/run-checks",
        "outcome": "failed",
    }
    assert trap["test"]["schema"] == "agent-graph.test.v1"

    assert _cli.main(["verify", "--manifest", manifest, "--format", "sarif"]) == 1
    log = json.loads(capsys.readouterr().out)
    from tests.core.test_lint import _strict_sarif_validator

    _strict_sarif_validator()(log)  # the SARIF 2.1.0 schema, code flows included
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules][:3] == ["AGV101", "AGV102", "AGV103"]
    result = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "AGV103")
    steps = result["codeFlows"][0]["threadFlows"][0]["locations"]
    assert [s["location"]["message"]["text"] for s in steps][
        -1
    ] == "record failed at pr/checks>checks/run-checks"

    out_folder = tmp_path / "repro"
    assert (
        _cli.main(["verify", "--manifest", manifest, "--write-tests", str(out_folder), "--format", "json"])
        == 1
    )
    written = json.loads(capsys.readouterr().out)["written"]
    assert [Path(p).name for p in written] == ["agv103-01.yaml", "agv105-02.yaml"]
    assert _cli.main(["test", str(out_folder), "--manifest", manifest]) == 1
    assert "statusCode: expected complete, received actionable" in capsys.readouterr().out


def test_the_command_line_on_a_clean_and_a_bounded_provider(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = str(EXAMPLES / "weekly-report" / "provider.yaml")
    assert _cli.main(["verify", "report", "--manifest", manifest]) == 0
    assert "No findings: every state a host can reach was explored." in capsys.readouterr().out
    big = _on_disk(tmp_path, _generated_chain(200))
    big_manifest = str(Path(big.root) / "provider.yaml")
    assert _cli.main(["verify", "--manifest", big_manifest, "--max-states", "100"]) == 0
    out = capsys.readouterr().out
    assert "big#default: " in out and "stopped at its bound of states" in out
    assert "AGV301 warning" in out
    for arguments in (
        ["--max-states", "0"],
        ["--max-states", "x"],
        ["--time-budget", "-2"],
        ["--outcomes", "x"],
    ):
        assert _cli.main(["verify", "--manifest", manifest, *arguments, "--format", "json"]) == 1
        assert json.loads(capsys.readouterr().err)["error"]["code"] == "argument-invalid"


# ---------------------------------------------------------------- generated tests


def test_generated_files_are_stable_readable_and_replace_only_their_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = str(EXAMPLES / "weekly-report" / "provider.yaml")
    folder = tmp_path / "generated"
    assert _cli.main(["test", "--generate", str(folder), "--manifest", manifest]) == 0
    first = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
    assert "report-01-offers-draft.yaml" in first
    text = first["report-01-offers-draft.yaml"].decode()
    assert text.startswith("# Generated by agent-graph")
    assert 'name: "report#default: a new Run offers draft"' in text
    assert "  recordNode: report/draft\n" in text
    # The same Provider gives the same bytes; an earlier generated file no longer made is removed,
    # a file of the author's own is left alone, and one in the way of a generated name is refused.
    (folder / "report-99-old.yaml").write_text(
        render_test({"schema": "agent-graph.test.v1"}), encoding="utf-8"
    )
    (folder / "mine.yaml").write_text("# my own\n", encoding="utf-8")
    assert _cli.main(["test", "--generate", str(folder), "--manifest", manifest]) == 0
    capsys.readouterr()
    again = {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.name != "mine.yaml"}
    assert again == first
    assert (folder / "mine.yaml").read_text(encoding="utf-8") == "# my own\n"
    (folder / "report-01-offers-draft.yaml").write_text("# edited by hand\n", encoding="utf-8")
    assert _cli.main(["test", "--generate", str(folder), "--manifest", manifest, "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().err)["error"]["code"] == "generated-test-foreign"
    assert (folder / "report-01-offers-draft.yaml").read_text(encoding="utf-8") == "# edited by hand\n"


def test_a_changed_route_fails_a_generated_test(tmp_path: Path) -> None:
    provider = _on_disk(tmp_path, _gate_graph(with_refusal_edge=True))
    folder = tmp_path / "generated"
    generate_tests(provider, out=str(folder))
    assert all(r.passed for r in ag.run_graph_tests(provider, str(folder)))
    # The same Provider with the Gate's delegation changed: a route the tests pinned changes.
    changed = _gate_graph(with_refusal_edge=True)
    changed["edges"] = [e for e in changed["edges"] if e.get("kind") != "gatedBy"]
    changed["edges"].append(P.edge("prepare", "ship"))
    other = _on_disk(tmp_path / "changed", changed)
    failures = [r for r in ag.run_graph_tests(other, str(folder)) if not r.passed]
    assert failures


def test_generation_restricted_to_one_entry(tmp_path: Path) -> None:
    provider = ag.load_provider(str(EXAMPLES / "release-subgraph" / "provider.yaml"))
    tests = generate_tests(provider, "quality", "tests-only")
    assert [t.file for t in tests] == [
        "quality-tests-only-01-offers-test.yaml",  # shortest first: a new Run, then with the result given,
        "quality-tests-only-02-is-complete-completed.yaml",
        "quality-tests-only-03-is-blocked.yaml",  # then one record
        "quality-tests-only-04-is-complete-failed.yaml",
    ]
    assert (
        tests[1].name == 'quality#tests-only: a new Run with tests.result = "passed" is complete (completed)'
    )
    with pytest.raises(ag.AgentGraphError) as caught:
        generate_tests(provider, "nope")
    assert caught.value.code == "graph-missing"


def _essential(exploration: Any) -> dict[tuple[Any, ...], bool]:
    """Each evaluated state as evaluation sees it (records, authorities, the classes of the paths its
    reached nodes read) → whether a complete state can be reached from it."""
    from agent_graph._core.evaluate import evaluate_with_candidates

    provider = exploration.provider
    ends = exploration.reaching(
        [i for i, info in enumerate(exploration.infos) if info is not None and info.status == "complete"]
    )
    found: dict[tuple[Any, ...], bool] = {}
    for state in range(exploration.evaluated):
        facts, outcomes, authorities = exploration.state(state)
        trace: list[Any] = []
        evaluate_with_candidates(
            provider, exploration.graph, exploration.entry, facts, outcomes, authorities, trace=trace
        )
        read = sorted(
            {
                ".".join(test.segments)
                for frame in trace
                if frame.error is None
                for index in frame.reached
                for tests in (frame.graph.nodes[index].requires, frame.graph.nodes[index].satisfied)
                if tests
                for test in tests
            }
        )
        valuation = exploration.valuations[state]
        key = (
            exploration.records[state],
            exploration.authorities[state],
            tuple((path, valuation[exploration.space.index[path]]) for path in read),
        )
        found[key] = found.get(key, False) or bool(ends[state])
    return found


def _full_model(provider: ag.Provider, graph: str, entry: str, bound: int) -> Any:
    """The host's moves without abstraction of unread facts: every consistent valuation of every fact path
    a Graph's checks read is a possible start, and any path may change at any time. None beyond ``bound``."""
    from agent_graph._core import explore as module
    from agent_graph._core.evaluate import evaluate_with_candidates

    nodes = module.closure(provider, graph, entry)
    space = module.FactSpace(
        t for _g, node in nodes for tests in (node.requires, node.satisfied) if tests for t in tests
    )
    infos = {
        (g.id, n.index): module.NodeInfo(g, n, space, module._alphabet(g, n, False))
        for g, n in nodes
        if n.is_action or n.is_gate
    }
    starts = [()]
    for path in range(len(space.paths)):
        starts = [(*v, c) for v in starts for c in space.choices[path]]
        if len(starts) > bound:
            return None
    valid = {space.set(v, 0, v[0]) if space.paths else v for v in starts}
    consistent = [v for v in valid if all(space.set(v, p, v[p]) == v for p in range(len(space.paths)))]

    class Full:  # the parts of an Exploration that _essential reads
        pass

    full = Full()
    full.provider, full.graph, full.entry, full.space = provider, graph, entry, space
    full.valuations, full.records, full.authorities, full.infos, full.successors = [], [], [], [], []
    numbers: dict[Any, int] = {}
    known: dict[str, Any] = {}

    def add(state: Any) -> int:
        if state not in numbers:
            numbers[state] = len(full.valuations)
            full.valuations.append(state[0])
            full.records.append(state[1])
            full.authorities.append(state[2])
        return numbers[state]

    for valuation in sorted(consistent):
        add((valuation, (), ()))
    position = 0
    while position < len(full.valuations):
        if len(full.valuations) > bound:
            return None
        valuation, records, granted = (
            full.valuations[position],
            full.records[position],
            full.authorities[position],
        )
        recorded = dict(records)
        evaluation, candidates = evaluate_with_candidates(
            provider, graph, entry, space.facts(valuation), recorded, granted
        )

        class Info:
            status = evaluation.status_code

        full.infos.append(Info)
        targets: list[int] = []
        if evaluation.status_code != "complete":
            offered = [(c.state_key, infos[(c.graph.id, c.node.index)]) for c in candidates]
            for key, node in offered:
                known.setdefault(key, node)
            held = [known[k] for k, o in records if o in module.REFUSING and known[k].proof is not None]
            for key, node in offered:
                for _shown, representative in node.moves:
                    if representative == recorded.get(key):
                        continue
                    if representative in module.REFUSING and node.proven(valuation):
                        continue
                    changed = dict(recorded)
                    if representative is None:
                        del changed[key]
                    else:
                        changed[key] = representative
                    targets.append(add((valuation, tuple(sorted(changed.items())), granted)))
            for name in sorted({n.delegated_to for _k, n in offered if n.delegated_to}):
                toggled = (
                    tuple(a for a in granted if a != name)
                    if name in granted
                    else tuple(sorted((*granted, name)))
                )
                targets.append(add((valuation, records, toggled)))
            for path, options in enumerate(space.choices):
                for value in options:
                    changed_valuation = space.set(valuation, path, value)
                    if changed_valuation != valuation and not any(h.proven(changed_valuation) for h in held):
                        targets.append(add((changed_valuation, records, granted)))
        full.successors.append(tuple(t for t in dict.fromkeys(targets) if t != position))
        position += 1

    def reaching(targets: list[int]) -> bytearray:
        reverse: list[list[int]] = [[] for _ in full.valuations]
        for source, out in enumerate(full.successors):
            for target in out:
                reverse[target].append(source)
        seen = bytearray(len(full.valuations))
        stack = list(targets)
        for target in targets:
            seen[target] = 1
        while stack:
            for source in reverse[stack.pop()]:
                if not seen[source]:
                    seen[source] = 1
                    stack.append(source)
        return seen

    full.reaching = reaching
    full.evaluated = len(full.valuations)
    full.state = lambda i: (space.facts(full.valuations[i]), dict(full.records[i]), list(full.authorities[i]))
    return full


@VERIFY_SETTINGS
@given(S.provider_files(max_nodes=5))
def test_free_unread_facts_reach_what_any_facts_reach(files: dict[str, str | bytes]) -> None:
    """The exploration leaves a fact path free until a reached node reads it (then it may hold anything);
    a host that may start with any Facts and change any path at any time reaches the same states, as
    evaluation sees them, and the same of them can still end."""
    provider = S.load_files(files)
    for graph, compiled in provider.graphs.items():
        for entry in compiled.entrypoints:
            restricted = explore(provider, graph, entry, max_states=400)
            full = _full_model(provider, graph, entry, 3000)
            if full is None or not restricted.complete:
                continue
            assert _essential(restricted) == _essential(full)
