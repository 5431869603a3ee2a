"""``explain``: every node's status and reason, checked rule by rule on small Providers and on random ones.

The explanation comes from the evaluator's own trace, so it can never disagree
with ``evaluate``: the property at the end checks that on generated Providers
and states (statuses, settled outcomes per node, the primary route), and that
each reason fits the outcome it explains.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import agent_graph as ag
import agent_graph.types as agt
from agent_graph._cli import main as _cli
from agent_graph._cli.output import json_line
from agent_graph._core.evaluate import settled_outcomes
from agent_graph._core.normalize import normalize_authorities, normalize_outcomes, plain_facts
from agent_graph._core.why import explain, explanation_text
from agent_graph._runtime.testing import read_test_case
from agent_graph._toolchain.diagram import DiagramState, render_diagram
from tests import providers as P, strategies as S
from tests.paths import EXAMPLES


def _node(explanation: agt.Explanation, node: str, frame: int = 0) -> agt.NodeExplanation:
    found = [n for n in explanation.frames[frame].nodes if n.node == node]
    assert len(found) == 1, (node, explanation.frames[frame].nodes)
    return found[0]


def _report(*extra_nodes: dict[str, Any], edges: list[dict[str, Any]] | None = None) -> ag.Provider:
    nodes = [
        P.action_node("draft", satisfiedBy=[{"path": "report.digest", "exists": True}]),
        P.gate_node(
            "approve",
            authority="review",
            delegatable=True,
            satisfiedBy=[{"path": "report.approved", "equals": True}],
        ),
        P.action_node("publish", requiresFacts=[{"path": "target.id", "exists": True}]),
        P.terminal_node("done"),
        *extra_nodes,
    ]
    return P.build(
        P.graph_doc(
            "main",
            nodes,
            edges
            if edges is not None
            else [
                P.repeat("draft", "draft", "partial"),
                P.edge("draft", "approve"),
                P.edge("approve", "publish", kind="gatedBy"),
                P.edge("publish", "done"),
            ],
        )
    )


# ---------------------------------------------------------------- fact checks


def test_satisfied_by_shows_the_value_found_and_the_value_wanted() -> None:
    provider = _report()
    facts = {"report": {"digest": "sha256:1", "approved": "yes"}}
    explanation = explain(provider, "main", facts=facts)
    draft = _node(explanation, "draft")
    assert (draft.status, draft.reason) == ("completed", "satisfied")
    assert draft.satisfied_by[0].to_json() == {
        "path": "report.digest",
        "test": "exists",
        "passed": True,
        "present": True,
        "found": "sha256:1",
    }
    approve = _node(explanation, "approve")
    check = approve.satisfied_by[0]
    assert (check.found, check.wanted, check.passed) == ("yes", True, False)  # a string never equals true
    assert approve.status == "pending" and approve.reason == "pending"
    assert 'report.approved equals true: found "yes" ✗' in explanation_text(explanation)


def test_a_missing_required_fact_blocks_the_node_and_is_named() -> None:
    provider = _report()
    facts = {"report": {"digest": "d", "approved": True}, "target": {"name": "x"}}
    explanation = explain(provider, "main", facts=facts)
    publish = _node(explanation, "publish")
    assert (publish.status, publish.reason) == ("blocked", "requires-failed")
    assert publish.missing_facts == ["target.id"]
    assert publish.requires_facts[0].present is False
    assert "requiresFacts not met (target.id)" in publish.message
    assert [d.code for d in explanation.evaluation.diagnostics] == ["required-fact-missing"]
    assert explanation.evaluation.status_code == "blocked"
    assert explanation.primary.startswith("No route")


def test_recorded_completed_without_the_facts_is_unverified_and_says_which_check_fails() -> None:
    explanation = explain(_report(), "main", outcomes={"main/draft": "completed"})
    draft = _node(explanation, "draft")
    assert (draft.status, draft.reason, draft.recorded) == ("unverified", "unverified", "completed")
    assert "report.digest" in draft.message


def test_a_recorded_outcome_and_a_terminal_outcome_are_their_own_reasons() -> None:
    provider = P.build(
        P.graph_doc(
            "main",
            [P.action_node("a"), P.terminal_node("end", "failed")],
            [P.edge("a", "end", "failed")],
        )
    )
    explanation = explain(provider, "main", outcomes={"main/a": "failed"})
    assert (_node(explanation, "a").reason, _node(explanation, "a").status) == ("recorded", "failed")
    end = _node(explanation, "end")
    assert (end.reason, end.status) == ("terminal-outcome", "failed")
    assert explanation.evaluation.status_code == "complete"
    assert "complete with outcome failed" in explanation.primary


# ---------------------------------------------------------------- gates and routes


@pytest.mark.parametrize(
    ("gate", "authorities", "held", "delegated", "resolution"),
    [
        ({"authority": "review", "delegatable": True}, ["review"], True, True, "session-authority"),
        ({"authority": "review", "delegatable": True}, ["ops"], False, False, "user"),
        ({"authority": "review", "delegatable": False}, ["review"], True, False, "user"),
        ({}, ["review"], False, False, "user"),
    ],
)
def test_a_gate_says_whether_its_authority_is_held_and_delegatable(
    gate: dict[str, Any], authorities: list[str], held: bool, delegated: bool, resolution: str
) -> None:
    provider = P.build(
        P.graph_doc(
            "main", [P.gate_node("approve", **gate), P.terminal_node("done")], [P.edge("approve", "done")]
        )
    )
    explanation = explain(provider, "main", authorities=authorities)
    approve = _node(explanation, "approve")
    assert approve.gate is not None
    assert (approve.gate.authority_held, approve.gate.delegated) == (held, delegated)
    assert approve.gate.delegatable is (gate.get("delegatable") is True)
    assert approve.candidate is not None and approve.candidate.resolution == resolution
    assert explanation.evaluation.primary_route is not None
    assert explanation.evaluation.primary_route.route_id == approve.candidate.route_id
    assert ("session resolves it" in approve.message) is delegated


def test_why_the_primary_route_ranks_first() -> None:
    fan = P.graph_doc(
        "main",
        [
            P.action_node("start", satisfiedBy=[{"path": "go", "exists": True}]),
            P.action_node("low"),
            P.action_node("high", priority=5),
            P.gate_node("ask"),
            P.terminal_node("done"),
        ],
        [P.edge("start", "low"), P.edge("start", "high"), P.edge("start", "ask"), P.edge("low", "done")],
    )
    explanation = explain(P.build(fan), "main", facts={"go": 1})
    assert [c.node for c in explanation.candidates] == ["high", "low", "ask"]
    assert explanation.primary == (
        "high ranks first of 3 candidates: both are immediate and its priority 5 is higher than low's 0"
    )
    only_gate = explain(
        P.build(fan), "main", facts={"go": 1}, outcomes={"main/low": "failed", "main/high": "failed"}
    )
    assert only_gate.primary == "ask is the only candidate (requires-user)"
    tie = P.graph_doc(
        "main",
        [
            P.action_node("s", satisfiedBy=[{"path": "go", "exists": True}]),
            P.action_node("x"),
            P.action_node("y"),
            P.terminal_node("t"),
        ],
        [P.edge("s", "x"), P.edge("s", "y"), P.edge("x", "t")],
    )
    tied = explain(P.build(tie), "main", facts={"go": 1})
    assert tied.candidates[0].route_id < tied.candidates[1].route_id
    assert "route ID sorts before" in tied.primary
    mixed = explain(P.build(fan), "main", facts={"go": 1}, outcomes={"main/high": "failed"})
    assert mixed.candidates[0].node == "low"


# ---------------------------------------------------------------- edges, joins, loops


def test_edges_say_why_they_match_and_unreached_nodes_why_not() -> None:
    provider = P.build(
        P.graph_doc(
            "main",
            [
                P.action_node("a", satisfiedBy=[{"path": "a", "exists": True}]),
                P.action_node("b"),
                P.action_node("all", join="all"),
                P.action_node("any", join="any"),
                P.terminal_node("t", join="any"),
            ],
            [
                P.edge("a", "b"),
                P.edge("a", "all"),
                P.edge("b", "all"),
                P.edge("b", "any", "failed"),
                P.edge("a", "any", "failed"),
                P.edge("all", "t"),
                P.edge("any", "t"),
            ],
        )
    )
    explanation = explain(provider, "main", facts={"a": True})
    every = _node(explanation, "all")
    assert not every.reached and every.reason == "not-reached"
    assert every.message == "not reached: join all needs all 2 incoming edges to match, 1 does"
    assert [(e.from_, e.matched) for e in every.incoming] == [("a", True), ("b", False)]
    assert every.incoming[1].reason == "b is pending; the edge needs completed"
    some = _node(explanation, "any")
    assert some.message == "not reached: join any needs one of its 2 incoming edges to match, none does"
    assert _node(explanation, "t").incoming[0].reason == "all was not reached"
    # Reached nodes come first, in reached order.
    assert [n.node for n in explanation.frames[0].nodes][:2] == ["a", "b"]


def test_a_repeat_edge_that_fired_names_the_outcome_it_re_armed() -> None:
    explanation = explain(_report(), "main", outcomes={"main/draft": "partial"})
    draft = _node(explanation, "draft")
    assert draft.status == "pending" and draft.reason == "recorded"
    assert draft.rearmed_by == [0]
    assert draft.message.startswith("partial: recorded outcome")
    assert draft.message.endswith("then a repeat edge re-armed it: pending")
    loop = draft.incoming[0]
    assert loop.kind == "repeat" and loop.matched
    assert "re-armed draft (before: partial)" in loop.reason


def test_a_node_reached_only_by_a_repeat_edge() -> None:
    provider = P.build(
        P.graph_doc(
            "main",
            [P.action_node("a"), P.action_node("retry"), P.terminal_node("t")],
            [P.edge("a", "t"), P.repeat("a", "retry", "partial")],
        )
    )
    retry = _node(explain(provider, "main", outcomes={"main/a": "partial"}), "retry")
    assert (retry.status, retry.reason) == ("pending", "reached-by-repeat")


# ---------------------------------------------------------------- subgraphs, focus, errors


def _parent_and_child() -> ag.Provider:
    child = P.graph_doc(
        "quality",
        [P.action_node("verify", satisfiedBy=[{"path": "checked", "equals": True}]), P.terminal_node("ok")],
        [P.edge("verify", "ok")],
    )
    parent = P.graph_doc(
        "main",
        [P.action_node("build"), P.subgraph_node("check", "quality"), P.terminal_node("done")],
        [P.edge("build", "check"), P.edge("check", "done")],
    )
    return P.build(parent, child)


def test_a_subgraph_node_is_explained_by_its_child_frame() -> None:
    provider = _parent_and_child()
    explanation = explain(provider, "main", outcomes={"main/build": "completed"})
    assert [f.frame_key for f in explanation.frames] == ["main", "main/check>quality"]
    check = _node(explanation, "check")
    assert (check.status, check.reason) == ("pending", "child")
    assert check.message == "pending: child frame quality#default is actionable"
    verify = _node(explanation, "verify", frame=1)
    assert verify.state_key == "main/check>quality/verify"
    assert verify.candidate is not None and verify.candidate.rank == 0
    assert verify.candidate.call_path == ["main/check"]
    assert explanation.primary == "main/check>quality/verify is the only candidate (immediate)"
    done = explain(provider, "main", facts={"checked": True}, outcomes={"main/build": "completed"})
    assert (
        _node(done, "check").message
        == "completed: child frame quality#default is complete with outcome completed"
    )


def test_one_node_by_id_or_state_key() -> None:
    provider = _parent_and_child()
    outcomes = {"main/build": "completed"}
    by_id = explain(provider, "main", node="build", outcomes=outcomes)
    assert by_id.focus == "main/build"
    assert [[n.node for n in f.nodes] for f in by_id.frames] == [["build"]]
    nested = explain(provider, "main", node="main/check>quality/verify", outcomes=outcomes)
    assert [(f.frame_key, [n.node for n in f.nodes]) for f in nested.frames] == [
        ("main/check>quality", ["verify"])
    ]
    unopened = explain(provider, "main", node="main/check>quality/verify")
    assert unopened.frames[0].status == "not-evaluated"
    assert (unopened.frames[0].entry, unopened.frames[0].call_path) == ("default", ["main/check"])
    assert unopened.frames[0].nodes[0].reason == "frame-not-evaluated"
    with pytest.raises(ag.AgentGraphError) as caught:
        explain(provider, "main", node="biuld")
    assert caught.value.code == "explain-node-missing"
    assert "main/build" in caught.value.message  # the closest key is suggested


def test_a_refused_frame_and_an_unknown_graph() -> None:
    provider = _parent_and_child()
    explanation = explain(provider, "main", "nowhere")
    assert explanation.evaluation.status_code == "error"
    assert explanation.frames[0].error == "entry-missing"
    assert {n.reason for n in explanation.frames[0].nodes} == {"frame-refused"}
    with pytest.raises(ag.AgentGraphError) as caught:
        explain(provider, "ghost")
    assert caught.value.code == "graph-missing"


def test_the_explanation_is_json_and_its_evaluation_is_evaluate_s_answer() -> None:
    provider = _report()
    state = {"facts": {"report": {"digest": "d"}}, "authorities": ["review"]}
    explanation = explain(provider, "main", **state)  # type: ignore[arg-type]
    wire = json.loads(msgspec.json.encode(explanation))
    assert wire["schema"] == "agent-graph.explanation.v1"
    assert wire["evaluation"] == json.loads(msgspec.json.encode(ag.evaluate(provider, "main", **state)))  # type: ignore[arg-type]
    approve = next(n for n in wire["frames"][0]["nodes"] if n["node"] == "approve")
    assert approve["gate"] == {
        "id": "g-approve",
        "authority": "review",
        "delegatable": True,
        "authorityHeld": True,
        "delegated": True,
    }
    assert approve["incoming"][0]["from"] == "draft"


# ---------------------------------------------------------------- command line and diagram


def test_the_command_line_explains_in_text_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = str(EXAMPLES / "weekly-report" / "provider.yaml")
    facts = json.dumps({"report": {"digest": "sha256:abc"}})
    assert _cli.main(["explain", "report", "--manifest", manifest, "--facts", facts]) == 0
    text = capsys.readouterr().out
    assert "report#default: waiting-user" in text
    assert "approve is the only candidate (requires-user)" in text
    assert "delegatable authority report.publish is not held, so the user resolves it" in text
    arguments = ["explain", "report", "approve", "--manifest", manifest, "--facts", facts, "--format", "json"]
    assert _cli.main([*arguments, "--authority", "report.publish"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["focus"] == "report/approve"
    assert answer["frames"][0]["nodes"][0]["candidate"]["resolution"] == "session-authority"
    run = tmp_path / "run.json"
    assert _cli.main(["run", "start", "report", "--manifest", manifest, "--state", str(run)]) == 0
    capsys.readouterr()
    assert _cli.main(["explain", "--state", str(run), "--manifest", manifest, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["evaluation"]["graph"] == "report"
    assert _cli.main(["explain", "report", "nothing", "--manifest", manifest, "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().err)["error"]["code"] == "explain-node-missing"


def test_the_command_line_explains_a_run_in_a_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    manifest = str(EXAMPLES / "weekly-report" / "provider.yaml")
    store = "sqlite:///runs.db"
    start = ["run", "start", "report", "--store", store, "--manifest", manifest, "--format", "json"]
    assert _cli.main([*start, "--authority", "report.publish"]) == 0
    run = json.loads(capsys.readouterr().out)["id"]
    facts = json.dumps({"report": {"digest": "sha256:1"}})
    update = [
        "run",
        "facts",
        "--set",
        facts,
        "--store",
        store,
        "--run",
        run,
        "--manifest",
        manifest,
        "--format",
        "json",
    ]
    assert _cli.main(update) == 0
    capsys.readouterr()
    arguments = [
        "explain",
        "approve",
        "--store",
        store,
        "--run",
        run,
        "--manifest",
        manifest,
        "--format",
        "json",
    ]
    assert _cli.main(arguments) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["focus"] == "report/approve"
    approve = answer["frames"][0]["nodes"][0]
    assert (
        approve["gate"]["authorityHeld"] is True and approve["candidate"]["resolution"] == "session-authority"
    )


def test_the_diagram_draws_the_reasons(capsys: pytest.CaptureFixture[str]) -> None:
    provider = _report()
    state = DiagramState(facts={"report": {"digest": "d"}})
    text = render_diagram(provider, "main", state=state, explain=True)
    assert "why: completed: every satisfiedBy check holds" in text
    assert "why: not reached: its incoming edge does not match" in text
    assert "why:" not in render_diagram(provider, "main", state=state)
    dot = render_diagram(provider, "main", fmt="dot", state=state, explain=True)
    assert "why: pending: satisfiedBy does not hold" in dot
    manifest = str(EXAMPLES / "weekly-report" / "provider.yaml")
    assert _cli.main(["diagram", "report", "--explain", "--manifest", manifest]) == 0
    assert "why: pending" in capsys.readouterr().out


# ---------------------------------------------------------------- the explanation never disagrees


PROPERTY = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

_REASON_OUTCOME = {"satisfied": "completed", "requires-failed": "blocked", "unverified": "unverified"}


@PROPERTY
@given(S.scenarios(hostile=False))
def test_the_explanation_agrees_with_evaluate(scenario: tuple[Any, ...]) -> None:
    files, facts, outcomes, authorities, entry = scenario
    provider = S.load_files(files)
    explanation = explain(provider, S.MAIN, entry, facts=facts, outcomes=outcomes, authorities=authorities)
    evaluation = ag.evaluate(provider, S.MAIN, entry, facts=facts, outcomes=outcomes, authorities=authorities)
    assert explanation.evaluation == evaluation
    primary = evaluation.primary_route
    if primary is None:
        assert not explanation.candidates
    else:
        assert explanation.candidates[0].route_id == primary.route_id
        assert [c.route_id for c in explanation.candidates[1:4]] == [
            r.route_id for r in evaluation.alternative_routes
        ]
    normalized = normalize_outcomes(outcomes)
    plain = plain_facts(facts)
    held = normalize_authorities(authorities)
    for frame in explanation.frames:
        graph = provider.graphs[frame.graph]
        if frame.error is None:
            settled = settled_outcomes(provider, graph, frame.entry, frame.call_path, plain, normalized, held)
            assert {n.node: n.status for n in frame.nodes if n.reached} == settled
        for node in frame.nodes:
            if not node.reached:
                assert node.status is None and node.candidate is None
                continue
            for check in (*node.requires_facts, *node.satisfied_by):
                if check.test == "exists":
                    assert check.passed is check.present
                elif check.test == "absent":
                    assert check.passed is not check.present
            expected = _REASON_OUTCOME.get(node.reason)
            if node.rearmed_by:
                assert node.status == "pending"
            elif expected is not None:
                assert node.status == expected
            elif node.reason == "recorded":
                assert node.status == node.recorded
            elif node.reason == "terminal-outcome":
                assert node.status == graph.nodes[graph.index[node.node]].terminal_outcome
            elif node.reason == "pending":
                assert node.status == "pending"
            if node.reason == "satisfied":
                assert all(c.passed for c in node.satisfied_by) and node.satisfied_by
            if node.reason == "requires-failed":
                assert node.missing_facts
            elif node.reason != "reached-by-repeat":
                assert all(c.passed for c in node.requires_facts)
            if node.candidate is not None:
                assert node.status in ("pending", "waiting-user")
                assert explanation.candidates[node.candidate.rank] == node.candidate


def test_every_example_explains_each_of_its_test_states() -> None:
    for manifest in sorted(EXAMPLES.glob("*/provider.yaml")):
        provider = ag.load_provider(str(manifest))
        for case_file in sorted((manifest.parent / "tests").glob("*.yaml")):
            case = read_test_case(case_file.read_bytes(), str(case_file))
            state = case.state
            arguments: dict[str, Any] = {
                "facts": state.facts if state and state.facts else {},
                "outcomes": state.outcomes if state and state.outcomes else {},
                "authorities": list(state.authorities) if state and state.authorities else [],
            }
            explanation = explain(provider, case.graph, case.entry, **arguments)
            assert explanation.evaluation == ag.evaluate(provider, case.graph, case.entry, **arguments)
            assert explanation_text(explanation).startswith(f"{case.graph}#{case.entry}: ")


@PROPERTY
@given(
    S.provider_files(max_nodes=5),
    S.hostile_objects,
    S.hostile_objects,
    S.hostile_lists,
    st.one_of(S.json_values, st.sampled_from(("default", "alt"))),
)
def test_hostile_input_raises_what_evaluate_raises(
    files: dict[str, Any], facts: Any, outcomes: Any, authorities: Any, entry: Any
) -> None:
    provider = S.load_files(files)
    state = {"facts": facts, "outcomes": outcomes, "authorities": authorities}
    try:
        evaluation = ag.evaluate(provider, S.MAIN, entry, **state)
    except ag.AgentGraphError as error:
        with pytest.raises(ag.AgentGraphError) as caught:
            explain(provider, S.MAIN, entry, **state)
        assert caught.value.code == error.code
        return
    explanation = explain(provider, S.MAIN, entry, **state)
    assert explanation.evaluation == evaluation
    explanation_text(explanation)
    json.loads(json_line(explanation))


def test_the_text_of_an_explanation_shows_an_entry_too_long_to_print() -> None:
    provider = P.build(P.graph_doc("main", [P.action_node("a"), P.terminal_node("t")], [P.edge("a", "t")]))
    explanation = explain(provider, "main", 10**5000)  # evaluate answers it as an entry-missing error
    assert explanation.evaluation.status_code == "error"
    text = explanation_text(explanation)
    assert text.startswith("main#<int>: error\n") and "(entry <int>)" in text
    assert json.loads(json_line(explanation))["evaluation"]["statusCode"] == "error"
