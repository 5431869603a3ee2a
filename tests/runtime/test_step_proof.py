"""A step says what proves its node done (``Step.proof``) and what holds the Run back (``Step.blockers``).

The proof is the route's node's ``satisfiedBy``, each check tested with the
evaluator's own test; the blockers are the nodes explain calls unverified or
blocked (and, with no route, where the Run stops), in explain's words. Both
reach the command line (``run next``, ``route``, ``evaluate``, ``run status``)
and the MCP server's ``next_step`` from the one source.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings

import agent_graph as ag
import agent_graph.types as agt
from agent_graph._core.why import proof_checks, step_blockers
from agent_graph._mcp.render import render_step
from agent_graph._runtime.step import run_step
from tests import strategies as S
from tests.paths import REPO as ROOT
from tests.providers import action_node, build, edge, graph_doc, subgraph_node, terminal_node

WEEKLY = ag.load_provider(str(ROOT / "examples" / "weekly-report" / "provider.yaml"))
RELEASE = ag.load_provider(str(ROOT / "examples" / "release-subgraph" / "provider.yaml"))


def _run(provider: ag.Provider, graph: str, **state: Any) -> ag.Run:
    return ag.Run(
        schema="agent-graph.run.v1",
        id="r",
        provider=provider.manifest.id,
        graph=graph,
        entry="default",
        workspace="/w",
        created_at="2026-01-31T09:30:00.000Z",
        updated_at="2026-01-31T09:30:00.000Z",
        facts=state.get("facts", {}),
        outcomes={
            key: agt.OutcomeRecord(outcome=value, recorded_at="2026-01-31T09:30:00.000Z")
            for key, value in state.get("outcomes", {}).items()
        },
        authorities=tuple(state.get("authorities", ())),
        events=(agt.RunEvent(sequence=1, at="2026-01-31T09:30:00.000Z", type="run.started"),),
    )


def _explained(provider: ag.Provider, run: ag.Run, state_key: str) -> agt.NodeExplanation:
    explanation = ag.explain(
        provider, run.graph, run.entry, facts=run.facts, outcomes=run.outcomes, authorities=run.authorities
    )
    return next(n for f in explanation.frames for n in f.nodes if n.state_key == state_key)


# ---------------------------------------------------------------- proof


def test_the_proof_is_the_route_nodes_satisfied_by_with_whether_it_holds() -> None:
    step = run_step(WEEKLY, _run(WEEKLY, "report"))
    assert step.route is not None and step.route.node == "draft"
    assert step.proof == (
        agt.ProofCheck(path="report.digest", operator="exists", expected=True, holds=False),
    )
    assert msgspec.json.encode(step.proof[0]) == (
        b'{"path":"report.digest","operator":"exists","expected":true,"holds":false}'
    )
    # The Gate's proof is an equals check; with the report partly proven, it holds only when true.
    gate = run_step(WEEKLY, _run(WEEKLY, "report", facts={"report": {"digest": "d", "approved": False}}))
    assert gate.route is not None and gate.route.node == "approve"
    assert gate.proof == (
        agt.ProofCheck(path="report.approved", operator="equals", expected=True, holds=False),
    )
    # A node without satisfiedBy has no proof.
    check = run_step(
        WEEKLY,
        _run(
            WEEKLY,
            "report",
            facts={"report": {"digest": "d", "approved": True}},
            outcomes={"report/publish": "completed"},
        ),
    )
    assert check.route is not None and check.route.node == "check-publication" and check.proof == ()


def test_the_proof_of_a_node_in_a_subgraph_is_its_own_graphs() -> None:
    step = run_step(RELEASE, _run(RELEASE, "release"))
    assert step.route is not None and step.route.graph == "quality" and step.route.node == "build"
    assert [(c.path, c.operator, c.expected) for c in step.proof] == [
        ("build.artifact.digest", "exists", True)
    ]


def test_proof_holds_exactly_when_explain_says_the_check_passes() -> None:
    provider = build(
        graph_doc(
            "main",
            [
                action_node(
                    "a",
                    satisfiedBy=[
                        {"path": "x.y", "equals": 1},
                        {"path": "x.z", "exists": False},
                        {"path": "list.0", "exists": True},
                        {"path": "s", "equals": "on"},
                    ],
                ),
                terminal_node("done"),
            ],
            [edge("a", "done")],
        )
    )
    for facts in (
        {},
        {"x": {"y": 1.0, "z": None}},
        {"x": {"y": 2}, "list": [0], "s": "on"},
        {"x": {"y": True}},
    ):
        checks = proof_checks(provider, "main", "a", facts)
        run = _run(provider, "main", facts=facts)
        explained = _explained(provider, run, "main/a").satisfied_by
        assert [c.holds for c in checks] == [c.passed for c in explained]
        assert [c.path for c in checks] == ["x.y", "x.z", "list.0", "s"]
        assert [c.operator for c in checks] == ["equals", "exists", "exists", "equals"]
        assert [c.expected for c in checks] == [1, False, True, "on"]


def test_proof_facts_make_the_unmet_checks_hold() -> None:
    provider = build(
        graph_doc(
            "main",
            [
                action_node(
                    "a", satisfiedBy=[{"path": "r.d", "exists": True}, {"path": "r.ok", "equals": True}]
                ),
                terminal_node("done"),
            ],
            [edge("a", "done")],
        )
    )
    step = run_step(provider, _run(provider, "main"))
    facts = step.proof_facts({"r.d": "sha256:1"})
    assert facts == {"r": {"d": "sha256:1", "ok": True}}
    done = run_step(provider, _run(provider, "main", facts=facts, outcomes={"main/a": "completed"}))
    assert done.evaluation.status_code == "complete"
    # One check at a time, and the refusals that say what is missing.
    assert step.proof[1].facts() == {"r": {"ok": True}}
    assert step.proof[0].facts("v") == {"r": {"d": "v"}}
    with pytest.raises(ag.AgentGraphError) as raised:
        step.proof_facts()
    assert raised.value.code == "argument-invalid" and "r.d" in raised.value.message
    assert step.proof[1].facts(False) == {"r": {"ok": False}}  # what was observed, even when it does not hold
    assert step.proof_facts({"r.d": "x", "r.ok": "no"}) == {"r": {"d": "x", "ok": "no"}}
    absent = agt.ProofCheck(path="gone", operator="exists", expected=False, holds=False)
    with pytest.raises(ag.AgentGraphError) as raised:
        absent.facts()
    assert raised.value.code == "argument-invalid" and "absent" in raised.value.message
    # A check that holds already needs nothing.
    partly = run_step(provider, _run(provider, "main", facts={"r": {"ok": True}}))
    assert partly.proof_facts({"r.d": 1}) == {"r": {"d": 1}}


# ---------------------------------------------------------------- blockers


def test_a_completed_claim_without_proof_names_the_node_and_the_check_in_explains_words() -> None:
    run = _run(WEEKLY, "report", outcomes={"report/draft": "completed"})
    step = run_step(WEEKLY, run)
    assert step.evaluation.status_code == "blocked" and step.route is None
    assert [d.code for d in step.evaluation.diagnostics] == ["no-route"]  # the diagnostics are unchanged
    explained = _explained(WEEKLY, run, "report/draft")
    assert step.blockers == (
        agt.Blocker(
            node="report/draft",
            kind="action",
            status="unverified",
            reason="unverified",
            message=explained.message,
            checks=(agt.ProofCheck(path="report.digest", operator="exists", expected=True, holds=False),),
        ),
    )
    assert "report.digest" in explained.message


def test_an_unverified_node_beside_an_offered_route_is_named_too() -> None:
    run = _run(
        WEEKLY,
        "report",
        facts={"report": {"digest": "d", "approved": True}},
        outcomes={"report/publish": "completed"},
    )
    step = run_step(WEEKLY, run)
    assert step.route is not None and step.route.node == "check-publication"
    assert [(b.node, b.status, [c.path for c in b.checks]) for b in step.blockers] == [
        ("report/publish", "unverified", ["publication.url"])
    ]


def test_requires_facts_and_dead_ends_are_named() -> None:
    provider = build(
        graph_doc(
            "main",
            [
                action_node("a", requiresFacts=[{"path": "ticket", "exists": True}]),
                action_node("b"),
                terminal_node("done"),
            ],
            [edge("a", "done"), edge("b", "done")],
            entrypoints={"default": "a", "other": "b"},
        )
    )
    blocked = run_step(provider, _run(provider, "main"))
    assert blocked.evaluation.status_code == "blocked"
    assert [(b.node, b.reason, [(c.path, c.expected) for c in b.checks]) for b in blocked.blockers] == [
        ("main/a", "requires-failed", [("ticket", True)])
    ]
    # A failure with no edge to follow: the Run stops at b.
    run = msgspec.structs.replace(_run(provider, "main", outcomes={"main/b": "failed"}), entry="other")
    stopped = run_step(provider, run)
    assert stopped.route is None
    assert [(b.node, b.status, b.reason, b.checks) for b in stopped.blockers] == [
        ("main/b", "failed", "recorded", ())
    ]
    assert stopped.blockers[0].message == _explained(provider, run, "main/b").message


def test_a_child_frames_blocker_is_named_by_its_state_key() -> None:
    provider = build(
        graph_doc("main", [subgraph_node("call", "child"), terminal_node("done")], [edge("call", "done")]),
        graph_doc(
            "child",
            [action_node("c", satisfiedBy=[{"path": "c.ok", "equals": True}]), terminal_node("end")],
            [edge("c", "end")],
        ),
    )
    step = run_step(provider, _run(provider, "main", outcomes={"main/call>child/c": "completed"}))
    assert [(b.node, b.status) for b in step.blockers] == [("main/call>child/c", "unverified")]


def test_a_step_with_nothing_held_back_has_no_blockers_and_no_explained_evaluation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from agent_graph._core import why

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("explain ran for a step nothing holds back")

    monkeypatch.setattr(why, "explain", refuse)
    step = run_step(WEEKLY, _run(WEEKLY, "report", outcomes={"report/draft": "partial"}))
    assert step.route is not None and step.blockers == ()


@settings(max_examples=150)
@given(S.scenarios(hostile=False))
def test_blockers_are_what_explain_says_holds_the_run_back(scenario: tuple[Any, ...]) -> None:
    files, facts, outcomes, authorities, entry = scenario
    provider = S.load_files(files)
    try:
        explanation = ag.explain(
            provider, S.MAIN, entry, facts=facts, outcomes=outcomes, authorities=authorities
        )
    except ag.AgentGraphError:
        return
    evaluation = explanation.evaluation
    blockers = step_blockers(provider, evaluation, facts, outcomes, authorities)
    nodes = {n.state_key: n for f in explanation.frames for n in f.nodes if n.reached}
    for blocker in blockers:
        node = nodes[blocker.node]
        assert (blocker.status, blocker.reason, blocker.message) == (node.status, node.reason, node.message)
        wanted = node.requires_facts if node.reason == "requires-failed" else node.satisfied_by
        assert [c.path for c in blocker.checks] == [c.path for c in wanted if not c.passed]
    held = {
        key for key, n in nodes.items() if n.reason in ("unverified", "requires-failed", "subgraph-missing")
    }
    assert held <= {b.node for b in blockers} or len(blockers) == 20
    if evaluation.status_code == "blocked":
        assert blockers, "a blocked Run names what holds it back"
    if evaluation.status_code == "complete":
        assert not any(
            b.reason not in ("unverified", "requires-failed", "subgraph-missing") for b in blockers
        )


# ---------------------------------------------------------------- faces


def _cli_run(cli: Any, tmp_path: Path, *outcomes: str) -> str:
    run = tmp_path / "run.json"
    manifest = str(ROOT / "examples" / "weekly-report" / "provider.yaml")
    assert cli("run", "start", "report", "--state", str(run), "--manifest", manifest).status == 0
    for outcome in outcomes:
        assert (
            cli("run", "record", "report/draft", outcome, "--state", str(run), "--manifest", manifest).status
            == 0
        )
    return manifest


def test_run_next_shows_the_proof_and_what_holds_the_run_back(cli: Any, tmp_path: Path) -> None:
    manifest = _cli_run(cli, tmp_path)
    state = str(tmp_path / "run.json")
    answer = cli("run", "next", "--state", state, "--manifest", manifest, "--format", "json").json()
    assert list(answer) == ["revision", "evaluation", "route", "proof", "blockers"]
    assert answer["proof"] == [
        {"path": "report.digest", "operator": "exists", "expected": True, "holds": False}
    ]
    assert answer["blockers"] == []
    human = cli("run", "next", "--state", state, "--manifest", manifest).out
    assert "Proof: report.digest exists ✗" in human
    recorded = cli("run", "record", "report/draft", "completed", "--state", state, "--manifest", manifest)
    assert recorded.status == 0 and "Why: report/draft unverified" in recorded.out
    blocked = cli("run", "next", "--state", state, "--manifest", manifest, "--format", "json").json()
    assert blocked["route"] is None and blocked["proof"] == []
    assert [(b["node"], b["status"]) for b in blocked["blockers"]] == [("report/draft", "unverified")]
    human = cli("run", "next", "--state", state, "--manifest", manifest).out
    assert (
        "Why: report/draft unverified: recorded completed, but satisfiedBy does not hold (report.digest)"
        in human
    )
    assert "report.digest exists ✗" in human and "no-route" in human
    status = cli("run", "status", "--state", state, "--manifest", manifest).out
    assert "Why: report/draft unverified" in status


def test_route_and_evaluate_show_the_proof_and_the_why_but_route_json_keeps_its_shape(cli: Any) -> None:
    manifest = str(ROOT / "examples" / "weekly-report" / "provider.yaml")
    human = cli("route", "report", "--manifest", manifest).out
    assert "Proof: report.digest exists ✗" in human
    routed = cli("route", "report", "--manifest", manifest, "--format", "json").json()
    assert "proof" not in routed and list(routed) == list(msgspec.json.decode(msgspec.json.encode(
        ag.route(WEEKLY, "report", workspace=str(ROOT))
    )))  # fmt: skip
    claimed = json.dumps({"report/draft": "completed"})
    evaluated = cli("evaluate", "report", "--manifest", manifest, "--outcomes", claimed).out
    assert "Why: report/draft unverified" in evaluated
    refused = cli("route", "report", "--manifest", manifest, "--outcomes", claimed, "--format", "json")
    assert refused.envelope()["error"]["code"] == "route-unavailable"
    assert "report/draft unverified" in refused.envelope()["error"]["message"]


def test_the_mcp_answer_takes_the_steps_proof_and_blockers() -> None:
    from agent_graph._mcp.service import McpService

    service = McpService(provider=WEEKLY, store=None, workspace="/w")
    step = run_step(WEEKLY, _run(WEEKLY, "report"))
    answer, _ = service._step_answer("r", step)
    assert answer.structured["proof"] == [c.to_json() for c in step.proof]
    assert "Proof of completion (Facts): `report.digest` exists" in answer.text
    blocked = run_step(WEEKLY, _run(WEEKLY, "report", outcomes={"report/draft": "completed"}))
    answer, _ = service._step_answer("r", blocked)
    assert answer.structured["blockers"] == [b.to_json() for b in blocked.blockers]
    assert "`report/draft` unverified: recorded completed, but satisfiedBy does not hold" in answer.text
    assert "waits for `report.digest` exists" in render_step(answer.structured)


def test_the_mcp_record_answer_names_what_its_claim_left_unproven(tmp_path: Path) -> None:
    import asyncio

    from agent_graph._mcp.service import McpService

    async def scenario() -> None:
        with ag.open_store(str(tmp_path / "runs")) as store:
            service = McpService(provider=WEEKLY, store=store, workspace=str(tmp_path))
            started = await service.start_run({"graph": "report"})
            run_id = started.structured["runId"]
            step, _ = await service.next_step({"runId": run_id})
            arguments = {"runId": run_id, "node": "report/draft", "revision": step.structured["revision"]}
            answer = await service.record_outcome({**arguments, "outcome": "completed"})
            assert answer.structured["status"] == "blocked"
            assert [b["node"] for b in answer.structured["blockers"]] == ["report/draft"]
            assert (
                "`report/draft` unverified: recorded completed, but satisfiedBy does not hold" in answer.text
            )

    asyncio.run(scenario())
