"""The example Providers under ``examples/``: they load, their graph tests pass,
and the behaviour each one exists to show holds when asked through the API.

Each example is a small, complete Provider; these tests keep them honest as the
library changes. Graph tests are replayed through ``run_graph_tests``; the
direct assertions below pin what a YAML expectation cannot say (an absent
inspection, a call path, what changes when an edge is removed).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from tests.paths import EXAMPLES

NAMES = (
    sorted(p.name for p in EXAMPLES.iterdir() if (p / "provider.yaml").is_file()) if EXAMPLES.is_dir() else []
)
WORKSPACE = "/workspace"

DIGEST = "sha256:" + "ab" * 32

_LOADED: dict[str, ag.Provider] = {}


def _provider(name: str) -> ag.Provider:
    if name not in _LOADED:
        _LOADED[name] = ag.load_provider(str(EXAMPLES / name / "provider.yaml"))
    return _LOADED[name]


def _route(
    provider: ag.Provider,
    graph: str,
    *,
    facts: Mapping[str, Any] | None = None,
    outcomes: Mapping[str, Any] | None = None,
    authorities: list[str] | None = None,
) -> ag.Route:
    """Evaluate, then resolve the primary route at that revision."""
    state: dict[str, Any] = {
        "facts": facts or {},
        "outcomes": outcomes or {},
        "authorities": authorities or [],
    }
    evaluation = ag.evaluate(provider, graph, "default", **state)
    assert evaluation.primary_route is not None, evaluation
    return ag.route(
        provider,
        graph,
        "default",
        evaluation.primary_route.route_id,
        revision=evaluation.revision,
        workspace=WORKSPACE,
        **state,
    )


def _only_step(plan: Sequence[Any]) -> Any:
    """The single step of a command plan (command and host steps have different fields)."""
    assert len(plan) == 1, plan
    return plan[0]


def _copy(name: str, tmp_path: Path) -> Path:
    target = tmp_path / name
    shutil.copytree(EXAMPLES / name, target)
    return target


# --------------------------------------------------------------------------- all examples


def test_the_four_examples_are_present() -> None:
    assert {"weekly-report", "release-subgraph", "polling-loop", "delegated-review"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_example_loads_with_its_own_identity(name: str) -> None:
    provider = _provider(name)
    assert provider.id == f"examples/{name}"
    assert provider.graphs
    assert provider.code_catalog_path is not None
    for folder in ("graphs", "actions", "resources", "skills", "tests"):
        assert (EXAMPLES / name / folder).is_dir(), folder
    assert (EXAMPLES / name / "README.md").is_file()


@pytest.mark.parametrize("name", NAMES)
def test_every_graph_test_of_the_example_passes(name: str) -> None:
    provider = _provider(name)
    results = ag.run_graph_tests(provider, str(EXAMPLES / name / "tests"), workspace=WORKSPACE)
    assert len(results) >= 4
    failed = [(r.name, r.failures) for r in results if not r.passed]
    assert not failed
    assert len({r.name for r in results}) == len(results), "test names are unique"


@pytest.mark.parametrize("name", NAMES)
def test_catalog_lists_exactly_the_reason_codes_in_use(name: str) -> None:
    provider = _provider(name)
    used = {
        node.reason_code
        for graph in provider.graphs.values()
        for node in graph.definition.nodes
        if node.reason_code is not None
    }
    declared = {code for code, entry in provider.codes.items() if entry.kind == "route-reason"}
    assert used == declared
    assert all(provider.codes[code].summary for code in used)


@pytest.mark.parametrize("name", NAMES)
def test_entry_skill_binds_the_example_graph(name: str) -> None:
    bindings = []
    for skill in sorted((EXAMPLES / name / "skills").glob("*/SKILL.md")):
        if "metadata:" in skill.read_text(encoding="utf-8"):
            bindings.append(ag.resolve_skill_binding(str(skill)))
    assert len(bindings) == 1
    binding = bindings[0]
    assert binding.provider == f"examples/{name}"
    assert binding.graph in _provider(name).graphs
    assert binding.entry == "default"


@pytest.mark.parametrize("name", NAMES)
def test_a_wrong_expectation_is_reported(name: str, tmp_path: Path) -> None:
    """The examples' tests can fail: a changed expectation is caught and named."""
    source = sorted((EXAMPLES / name / "tests").glob("*.yaml"))[0]
    text = source.read_text(encoding="utf-8")
    assert "statusCode: actionable" in text
    broken = tmp_path / "broken.yaml"
    broken.write_text(text.replace("statusCode: actionable", "statusCode: complete"), encoding="utf-8")
    [result] = ag.run_graph_tests(_provider(name), str(broken), workspace=WORKSPACE)
    assert not result.passed
    assert result.failures[0] == "statusCode: expected complete, received actionable"


# --------------------------------------------------------------------------- weekly-report


def test_weekly_report_draft_route_loads_skill_before_procedure() -> None:
    provider = _provider("weekly-report")
    route = _route(provider, "report")
    assert route.node == "draft"
    assert route.action is not None and route.action.runner == "agent"
    assert route.command_plan == ()
    required = [loc.id for loc in route.resources.required]
    assert required == ["skill.report-writer", "procedure.weekly-report"]
    assert getattr(route.resources.required[0], "file_path", None) == os.path.join(
        provider.root, "skills/report-writer/SKILL.md"
    )
    assert route.after_action.record_node == "report/draft"


def test_weekly_report_gate_waits_then_delegates_but_never_approves() -> None:
    provider = _provider("weekly-report")
    facts = {"report": {"digest": DIGEST}}
    waiting = _route(provider, "report", facts=facts)
    assert (waiting.status_code, waiting.availability) == ("waiting-user", "requires-user")
    assert waiting.gate is not None and waiting.gate.resolution == "user"
    assert waiting.command_plan == ()
    delegated = _route(provider, "report", facts=facts, authorities=["report.publish"])
    assert (delegated.status_code, delegated.availability) == ("actionable", "immediate")
    assert delegated.gate is not None and delegated.gate.resolution == "session-authority"
    assert delegated.command_plan == ()
    assert delegated.node == "approve"
    assert delegated.revision != waiting.revision


def test_weekly_report_publish_runs_the_shipped_script_from_the_provider_root() -> None:
    provider = _provider("weekly-report")
    route = _route(provider, "report", facts={"report": {"digest": DIGEST, "approved": True}})
    step = _only_step(route.command_plan)
    assert step.command == "./scripts/publish-report.sh"
    assert step.effect == "external"
    assert step.working_directory == provider.root
    script = Path(provider.root) / "scripts" / "publish-report.sh"
    assert script.is_file() and os.access(script, os.X_OK)
    assert str(script) in provider.files


def test_weekly_report_unverified_publication_goes_to_the_check() -> None:
    provider = _provider("weekly-report")
    facts = {"report": {"digest": DIGEST, "approved": True}}
    route = _route(provider, "report", facts=facts, outcomes={"report/publish": "completed"})
    assert route.node == "check-publication"
    step = _only_step(route.command_plan)
    assert step.handler == "report.check-publication"
    assert step.effect == "read"
    # The same record with the evidence present is simply complete.
    done = ag.evaluate(
        provider,
        "report",
        "default",
        facts={**facts, "publication": {"url": "https://reports.example.invalid/x"}},
        outcomes={"report/publish": "completed"},
        authorities=[],
    )
    assert (done.status_code, done.outcome) == ("complete", "completed")


def test_weekly_report_partial_draft_needs_the_repeat_edge(tmp_path: Path) -> None:
    outcomes = {"report/draft": "partial"}
    with_repeat = ag.evaluate(_provider("weekly-report"), "report", "default", outcomes=outcomes)
    assert with_repeat.status_code == "actionable"
    assert with_repeat.primary_route is not None and with_repeat.primary_route.node == "draft"

    copy = _copy("weekly-report", tmp_path)
    graph = copy / "graphs" / "report.yaml"
    text = graph.read_text(encoding="utf-8")
    repeat = "  - { from: draft, to: draft, kind: repeat, outcomes: [partial] }\n"
    assert repeat in text
    graph.write_text(text.replace(repeat, ""), encoding="utf-8")
    without = ag.evaluate(
        ag.load_provider(str(copy / "provider.yaml")), "report", "default", outcomes=outcomes
    )
    assert without.status_code == "blocked"
    assert [d.code for d in without.diagnostics] == ["no-route"]


def test_weekly_report_needs_join_any_at_done(tmp_path: Path) -> None:
    """With the default join (all), one of done's two alternative paths can never finish."""
    copy = _copy("weekly-report", tmp_path)
    graph = copy / "graphs" / "report.yaml"
    text = graph.read_text(encoding="utf-8")
    assert text.count("    join: any\n") == 1
    graph.write_text(text.replace("    join: any\n", ""), encoding="utf-8")
    facts = {"report": {"digest": DIGEST, "approved": True}, "publication": {"url": "https://x.invalid"}}
    evaluation = ag.evaluate(ag.load_provider(str(copy / "provider.yaml")), "report", "default", facts=facts)
    assert evaluation.status_code != "complete"


def test_weekly_report_flow_cycle_is_rejected(tmp_path: Path) -> None:
    """Looping back with an ordinary edge is refused: loops must be repeat edges."""
    copy = _copy("weekly-report", tmp_path)
    graph = copy / "graphs" / "report.yaml"
    text = graph.read_text(encoding="utf-8")
    graph.write_text(text + "  - { from: publish, to: draft, outcomes: [failed] }\n", encoding="utf-8")
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.load_provider(str(copy / "provider.yaml"))
    assert raised.value.code == "graph-flow-cycle"


def test_weekly_report_catalog_is_closed(tmp_path: Path) -> None:
    copy = _copy("weekly-report", tmp_path)
    codes = copy / "codes.yaml"
    text = codes.read_text(encoding="utf-8")
    codes.write_text(text.replace("route.report.check-publication", "route.report.recheck"), encoding="utf-8")
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.load_provider(str(copy / "provider.yaml"))
    assert raised.value.code == "route-reason-code-missing"


# --------------------------------------------------------------------------- release-subgraph


BUILT = {"build": {"artifact": {"digest": DIGEST}}}


def test_release_child_route_keeps_its_graph_and_call_path() -> None:
    provider = _provider("release-subgraph")
    evaluation = ag.evaluate(provider, "release", "default")
    assert evaluation.graph == "release"
    primary = evaluation.primary_route
    assert primary is not None and (primary.graph, primary.node) == ("quality", "build")
    route = _route(provider, "release")
    assert route.graph == "quality"
    assert route.node == "build"
    assert route.call_path == ("release/check",)
    assert route.after_action.record_node == "release/check>quality/build"
    step = _only_step(route.command_plan)
    assert step.command == "make dist"
    assert step.working_directory == WORKSPACE


def test_release_child_outcomes_live_under_the_call_path() -> None:
    provider = _provider("release-subgraph")
    failed = ag.evaluate(
        provider, "release", "default", facts=BUILT, outcomes={"release/check>quality/test": "failed"}
    )
    assert (failed.status_code, failed.outcome) == ("complete", "failed")
    # The same outcome under the child's top-level key means nothing to the release.
    elsewhere = ag.evaluate(provider, "release", "default", facts=BUILT, outcomes={"quality/test": "failed"})
    assert elsewhere.status_code == "actionable"
    assert elsewhere.primary_route is not None and elsewhere.primary_route.node == "test"
    (unknown,) = ag.check_state(provider, "release", outcomes={"quality/test": "failed"})
    assert unknown.code == "state-key-unknown" and "expected it to start with release/" in unknown.message
    assert ag.check_state(provider, "release", outcomes={"release/check>quality/test": "failed"}) == ()


def test_release_parent_continues_and_completes_with_the_child() -> None:
    provider = _provider("release-subgraph")
    checked = {**BUILT, "tests": {"result": "passed"}}
    route = _route(provider, "release", facts=checked)
    assert (route.graph, route.node, route.call_path) == ("release", "tag", ())
    assert route.after_action.record_node == "release/tag"
    assert route.action is not None and route.action.input_schema is not None
    assert route.action.input_schema.id == "schema.tag-release.input"
    done = ag.evaluate(provider, "release", "default", facts={**checked, "release": {"tag": "v1.4.0"}})
    assert (done.status_code, done.outcome) == ("complete", "completed")


def test_release_blocked_child_reports_one_no_route() -> None:
    provider = _provider("release-subgraph")
    blocked = ag.evaluate(
        provider, "release", "default", facts=BUILT, outcomes={"release/check>quality/test": "completed"}
    )
    assert blocked.status_code == "blocked"
    assert [d.code for d in blocked.diagnostics] == ["no-route"]


def test_release_revision_covers_the_child_graph(tmp_path: Path) -> None:
    """The release revision digests the quality Graph it calls."""
    before = ag.evaluate(_provider("release-subgraph"), "release", "default").revision
    copy = _copy("release-subgraph", tmp_path)
    child = copy / "graphs" / "quality.yaml"
    child.write_text(
        child.read_text(encoding="utf-8").replace("Build the release artifact", "Build it"), "utf-8"
    )
    after = ag.evaluate(ag.load_provider(str(copy / "provider.yaml")), "release", "default").revision
    assert before != after


# --------------------------------------------------------------------------- polling-loop


def test_polling_loop_offers_the_same_poll_until_the_fact_arrives() -> None:
    provider = _provider("polling-loop")
    facts: dict[str, Any] = {"export": {"id": "exp-1"}}
    outcomes: dict[str, str] = {}
    revisions = []
    for _ in range(3):
        route = _route(provider, "export", facts=facts, outcomes=outcomes)
        assert route.node == "poll"
        step = _only_step(route.command_plan)
        assert step.command == "./scripts/export-status.sh"
        assert step.effect == "read"
        revisions.append(route.revision)
        outcomes[route.after_action.record_node] = "partial"
    assert outcomes == {"export/poll": "partial"}
    # The first round had no record; every later round sees the same state.
    assert revisions[0] != revisions[1] == revisions[2]
    facts = {"export": {"id": "exp-1", "status": "ready"}}
    route = _route(provider, "export", facts=facts, outcomes=outcomes)
    assert route.node == "fetch"
    step = _only_step(route.command_plan)
    assert step.handler == "export.fetch"


def test_polling_loop_claimed_ready_is_not_ready() -> None:
    provider = _provider("polling-loop")
    facts = {"export": {"id": "exp-1", "status": "running"}}
    evaluation = ag.evaluate(
        provider, "export", "default", facts=facts, outcomes={"export/poll": "completed"}
    )
    assert evaluation.status_code == "blocked"
    failed = ag.evaluate(provider, "export", "default", facts=facts, outcomes={"export/poll": "failed"})
    assert (failed.status_code, failed.outcome) == ("complete", "failed")


def test_polling_loop_status_script_is_shipped() -> None:
    provider = _provider("polling-loop")
    script = Path(provider.root) / "scripts" / "export-status.sh"
    assert os.access(script, os.X_OK)
    assert str(script) in provider.files


# --------------------------------------------------------------------------- delegated-review


OPENED = {"change": {"id": "cr-1"}}


def test_review_waiting_route_offers_inspection_and_the_recorded_decision() -> None:
    provider = _provider("delegated-review")
    route = _route(provider, "review", facts=OPENED)
    assert route.status_code == "waiting-user"
    assert route.command_plan == ()
    gate = route.gate
    assert gate is not None
    assert (gate.id, gate.authority, gate.delegatable, gate.resolution) == (
        "change-review",
        "change.review",
        True,
        "user",
    )
    assert gate.inspection_action is not None
    assert gate.inspection_action.action.effect == "read"
    assert _only_step(gate.inspection_action.command_plan).command == "git diff --stat origin/main...HEAD"
    assert gate.resolution_action is not None
    assert gate.resolution_action.action.id == "record-decision"
    assert gate.resolution_action.action.effect == "write"
    assert [loc.id for loc in route.resources.required] == ["procedure.review-checklist"]


def test_review_delegated_route_drops_inspection_and_swaps_resolution_and_resources() -> None:
    provider = _provider("delegated-review")
    route = _route(provider, "review", facts=OPENED, authorities=["change.review"])
    assert (route.status_code, route.availability) == ("actionable", "immediate")
    assert route.command_plan == ()
    gate = route.gate
    assert gate is not None and gate.resolution == "session-authority"
    assert gate.inspection_action is None
    assert gate.resolution_action is not None
    assert gate.resolution_action.action.id == "accept-change"
    assert _only_step(gate.resolution_action.command_plan).handler == "review.accept-delegated"
    assert [loc.id for loc in route.resources.required] == ["procedure.delegation-policy"]
    assert route.resources.recommended == ()
    assert route.after_action.record_node == "review/review"


def test_review_authority_never_stands_in_for_the_decision() -> None:
    provider = _provider("delegated-review")
    evaluation = ag.evaluate(provider, "review", "default", facts=OPENED, authorities=["change.review"])
    assert evaluation.primary_route is not None and evaluation.primary_route.node == "review"
    assert evaluation.alternative_routes == ()
    approved = ag.evaluate(
        provider, "review", "default", facts={**OPENED, "review": {"decision": "approved"}}
    )
    assert approved.primary_route is not None and approved.primary_route.node == "merge"


def test_review_not_delegatable_keeps_the_user_in_charge(tmp_path: Path) -> None:
    """Turning delegation off makes the authority useless; the delegated policy must go with it."""
    copy = _copy("delegated-review", tmp_path)
    graph = copy / "graphs" / "review.yaml"
    text = graph.read_text(encoding="utf-8")
    graph.write_text(text.replace("delegatable: true", "delegatable: false"), encoding="utf-8")
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.load_provider(str(copy / "provider.yaml"))
    assert raised.value.code == "gate-delegated-policy-invalid"
    start = text.index("    delegated:\n")
    end = text.index("    resources:\n      required: [resources/review-checklist.md]")
    graph.write_text(
        text[:start].replace("delegatable: true", "delegatable: false") + text[end:], encoding="utf-8"
    )
    provider = ag.load_provider(str(copy / "provider.yaml"))
    evaluation = ag.evaluate(provider, "review", "default", facts=OPENED, authorities=["change.review"])
    assert evaluation.status_code == "waiting-user"
