"""The rules behind ``agent-graph mcp``, checked without a server: the Gate guard and the tool contract."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import example, given, settings, strategies as st

import agent_graph as ag
from agent_graph._core.facts import MISSING, lookup_fact
from agent_graph._mcp.render import render_step
from agent_graph._mcp.tools import MAX_JSON_DEPTH, TOOLS, check_arguments, json_value
from agent_graph._runtime.gate_policy import GateGuard, _touches
from agent_graph._runtime.run_changes import deep_merge
from tests.paths import REPO as ROOT

PROVIDER = ag.load_provider(str(ROOT / "examples" / "weekly-report" / "provider.yaml"))

# Small alphabets so that generated updates, Facts and paths meet each other often.
SEGMENTS = st.sampled_from(["a", "b", "0", "1", "01"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["x", "y"]))
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(SEGMENTS, inner, max_size=3)),
    max_leaves=12,
)
OBJECTS = st.dictionaries(SEGMENTS, JSON, max_size=3)


@settings(max_examples=400, deadline=None)
@given(current=OBJECTS, update=OBJECTS, path=st.lists(SEGMENTS, min_size=1, max_size=4))
@example(current={"a": [True]}, update={"a": {"b": 1}}, path=["a", "0"])  # an object replaces an array
@example(current={"a": {"b": True}}, update={"a": 5}, path=["a", "b"])  # a scalar replaces an object
@example(current={"a": {"b": True}}, update={"a": {"c": 1}}, path=["a", "b"])  # a sibling merges in
@pytest.mark.slow
def test_an_update_the_guard_lets_through_never_changes_a_gate_fact(
    current: dict[str, Any], update: dict[str, Any], path: list[str]
) -> None:
    """Whatever the Run holds, a deep merge the guard does not flag leaves the Fact at ``path`` as it was."""
    if _touches(update, path):
        return
    before = lookup_fact(current, path)
    after = lookup_fact(deep_merge(current, update), path)
    assert (before is MISSING) == (after is MISSING)
    if before is not MISSING:
        assert after == before and type(after) is type(before)


def test_the_guard_knows_the_weekly_report_gate() -> None:
    closed = GateGuard(PROVIDER, [])
    assert closed.fact_paths() == ["report.approved"]
    for facts in (
        {"report": {"approved": True}},
        {"report": None},
        {"report": ["approved"]},
        {"report": {"approved": None}},
    ):
        with pytest.raises(ag.AgentGraphError) as refused:
            closed.check_facts(facts, ["report.publish"])
        assert refused.value.code == "gate-fact-refused"
        assert "report.approved" in refused.value.message
    closed.check_facts({"report": {"digest": "sha256:1"}, "publication": {"url": "u"}}, [])
    with pytest.raises(ag.AgentGraphError) as refused:
        closed.check_record("report/approve", ["report.publish"])
    assert refused.value.code == "gate-outcome-refused"
    with pytest.raises(ag.AgentGraphError) as refused:
        closed.check_record("parent/node>report/approve", [])  # the same Gate inside a Subgraph frame
    assert refused.value.code == "gate-outcome-refused"
    closed.check_record("report/draft", [])
    with pytest.raises(ag.AgentGraphError) as refused:
        closed.check_record("report/nowhere", [])
    assert refused.value.code == "run-node-invalid"

    held = GateGuard(PROVIDER, ["report.publish"])
    held.check_facts({"report": {"approved": True}}, ["report.publish"])
    held.check_record("report/approve", ["report.publish"])
    with pytest.raises(ag.AgentGraphError) as refused:  # the server holds it, the Run does not
        held.check_record("report/approve", [])
    assert "the Run does not hold" in refused.value.message
    # The same policy, public for any host, answers whether a Gate is the agent's to resolve.
    assert ag.GateGuard is GateGuard
    assert held.open_to_agent("report", "approve", ["report.publish"])
    assert not held.open_to_agent("report", "approve", [])
    assert not closed.open_to_agent("report", "approve", ["report.publish"])
    assert not held.open_to_agent("report", "draft", ["report.publish"])  # an Action, not a Gate


def test_a_gate_that_is_not_delegatable_stays_closed_with_its_authority() -> None:
    files = {
        "provider.yaml": "schema: agent-graph.provider.v1\nid: t\nversion: 0.1.0\ngraphs: [g.yaml]\n",
        "g.yaml": (
            "schema: agent-graph.graph.v1\nid: g\nentrypoints: {default: ok}\nnodes:\n"
            "  - id: ok\n    kind: gate\n    reasonCode: route.ok\n"
            "    gate: {id: ok, prompt: OK?, authority: boss}\n"
            "    satisfiedBy: [{path: sign.off, equals: yes}]\n"
            "  - id: end\n    kind: terminal\n    terminalOutcome: completed\n"
            "edges:\n  - {from: ok, to: end}\n"
        ),
    }
    provider = ag.load_provider("provider.yaml", fs=ag.MemoryFileSystem(files))
    guard = GateGuard(provider, ["boss"])
    with pytest.raises(ag.AgentGraphError) as refused:
        guard.check_facts({"sign": {"off": "yes"}}, ["boss"])
    assert "not delegatable" in refused.value.message
    with pytest.raises(ag.AgentGraphError):
        guard.check_record("g/ok", ["boss"])


# ---------------------------------------------------------------- the tool contract

NAMES = st.sampled_from(
    [
        "runId",
        "routeId",
        "graph",
        "entry",
        "facts",
        "node",
        "outcome",
        "revision",
        "detail",
        "limit",
        "after",
        "resourceId",
        "x",
    ]
)
VALUES = st.one_of(
    st.text(alphabet="ab-._/:0", max_size=8),
    st.sampled_from(["completed", "done", "sha256:" + "0" * 64, "sha256:" + "g" * 64, "run-1"]),
    st.integers(-2, 1200),
    st.booleans(),
    st.none(),
    st.dictionaries(st.sampled_from(["k"]), SCALARS, max_size=1),
    st.lists(SCALARS, max_size=2),
)


@settings(max_examples=600, deadline=None)
@given(tool=st.sampled_from(sorted(TOOLS)), arguments=st.dictionaries(NAMES, VALUES, max_size=5))
@pytest.mark.slow
def test_arguments_are_accepted_exactly_when_the_published_schema_accepts_them(
    tool: str, arguments: dict[str, Any]
) -> None:
    schema = TOOLS[tool].input_schema
    valid = jsonschema.Draft202012Validator(schema).is_valid(arguments)
    try:
        check_arguments(tool, arguments)
    except ag.AgentGraphError as error:
        assert not valid, f"{tool} refused {arguments!r} ({error}) that its schema accepts"
        assert error.code in ("argument-invalid", "outcome-invalid")
    else:
        assert valid, f"{tool} accepted {arguments!r} that its schema refuses"


def test_every_published_schema_is_a_json_schema() -> None:
    for spec in TOOLS.values():
        jsonschema.Draft202012Validator.check_schema(spec.input_schema)
        jsonschema.Draft202012Validator.check_schema(spec.output_schema)
        assert spec.input_schema["type"] == spec.output_schema["type"] == "object"
        assert spec.input_schema["additionalProperties"] is False


def test_json_values_are_bounded_in_depth_and_size() -> None:
    nested: Any = 1
    for _ in range(MAX_JSON_DEPTH - 1):
        nested = [nested]
    assert json_value({"x": nested}, "facts", 10_000) == {"x": nested}
    with pytest.raises(ag.AgentGraphError) as too_deep:
        json_value({"x": [nested]}, "facts", 10_000)
    assert too_deep.value.code == "input-too-deep"
    with pytest.raises(ag.AgentGraphError) as too_large:
        json_value({"x": "é" * 600}, "facts", 1_000)  # 1,200 bytes of UTF-8
    assert too_large.value.code == "input-too-large"
    with pytest.raises(ag.AgentGraphError) as not_json:
        json_value({"x": float("nan")}, "facts", 1_000)
    assert not_json.value.code == "argument-invalid"


def test_a_gate_that_waits_for_the_user_is_never_rendered_as_something_to_record() -> None:
    answer = {
        "runId": "r1",
        "status": "waiting-user",
        "revision": "sha256:" + "0" * 64,
        "route": {
            "graph": "report",
            "node": "approve",
            "reasonCode": "route.report.approval-required",
            "gate": {"id": "report-approval", "prompt": "Publish this report?", "resolution": "user"},
            "resources": {"required": [], "recommended": []},
            "commandPlan": [],
        },
        "userDecision": {
            "gate": "report-approval",
            "prompt": "Publish this report?",
            "node": "report/approve",
            "asked": False,
        },
        "alternatives": [],
        "proof": [{"path": "report.approved", "operator": "equals", "expected": True, "holds": False}],
        "diagnostics": [],
    }
    text = render_step(answer)
    assert "Publish this report?" in text and "cannot resolve it" in text
    assert "record_outcome" not in text and "update_facts" not in text


def test_docs_describe_every_tool_argument_and_result_field() -> None:
    text = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    for name, spec in TOOLS.items():
        heading = f"### `{name}`"
        assert heading in text, f"docs/mcp.md has no section for {name}"
        section = text.split(heading, 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
        for field in [*spec.input_schema["properties"], *spec.output_schema["properties"]]:
            assert f"`{field}`" in section, f"docs/mcp.md does not describe {name}'s {field}"


@settings(max_examples=200, deadline=None)
@given(
    depth=st.integers(0, 400),
    inner=st.sampled_from(["[", '{"k":']),
    text=st.sampled_from(["", '"\\\\"', '"[{\\""']),
)
def test_a_message_too_deep_for_the_sdk_is_cut_to_three_levels_without_recursion(
    depth: int, inner: str, text: str
) -> None:
    import json

    from agent_graph._mcp.server import MAX_MESSAGE_DEPTH, _readable, _shallow

    closer = "]" if inner == "[" else "}"
    value = inner * depth + (text or "1") + closer * depth
    line = (
        '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"update_facts","arguments":{"facts":{"a":'
        + value
        + "}}}}"
    )
    shallow = _shallow(line)
    total = depth + 4  # message, params, arguments, facts, then the value's own levels
    if total <= MAX_MESSAGE_DEPTH:
        assert shallow is None
        return
    assert shallow is not None
    assert json.loads(shallow)["params"]["arguments"] == {"facts": None}
    request = json.loads(_readable(line) or "null")
    assert request["id"] == 7 and request["params"] == {
        "name": "update_facts",
        "arguments": {"agent-graph:unreadable": "too-deep"},
    }
