"""Rule-by-rule tests of route resolution: behaviour.md §6.

Each test builds a small in-memory Provider (``tests/providers.py``), resolves
one route and checks one rule: the order of the staleness checks, command plans
for each runner, working directories, Skill and schema locations, gate routes
with and without delegation, read states and the route's field order.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from tests.providers import (
    ACCEPT,
    APPLY,
    INSPECT,
    PROVIDER_ID,
    ROOT,
    STANDARD_FILES,
    action_node,
    build,
    edge,
    files_for,
    gate_node,
    graph_doc,
    load,
    subgraph_node,
    terminal_node,
)

WS = "/ws"
ROUTE_FIELDS = [
    "schema",
    "provider",
    "revision",
    "routeId",
    "graph",
    "node",
    "statusCode",
    "reasonCode",
    "hint",
    "availability",
    "callPath",
    "action",
    "commandPlan",
    "resources",
    "gate",
    "diagnostics",
    "afterAction",
]


def wire(value: Any) -> Any:
    return json.loads(msgspec.json.encode(value))


def digest_of(relative: str) -> str:
    value = STANDARD_FILES[relative]
    text = value if isinstance(value, str) else json.dumps(value, indent=1)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def single(action: str, **fields: Any) -> ag.Provider:
    """``main``: one action node ``a`` then a terminal."""
    return build(
        graph_doc("main", [action_node("a", action, **fields), terminal_node("t")], [edge("a", "t")])
    )


def route_of(provider: ag.Provider, route_id: str | None = None, **state: Any) -> dict[str, Any]:
    state.setdefault("workspace", WS)
    return wire(ag.route(provider, "main", "default", route_id, **state))


def in_order(keys: list[str]) -> list[str]:
    """``ROUTE_FIELDS`` restricted to ``keys``: what the field order must be."""
    return [k for k in ROUTE_FIELDS if k in keys]


TWO = build(
    graph_doc(
        "main", [action_node("a"), action_node("b"), terminal_node("t")], [edge("a", "b"), edge("b", "t")]
    )
)


# Staleness and selection ------------------------------------------------------------


def test_route_revision_stale_when_the_state_changed() -> None:
    ev = ag.evaluate(TWO, "main", "default")
    assert ev.primary_route is not None
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.route(
            TWO,
            "main",
            "default",
            ev.primary_route.route_id,
            outcomes={"main/a": "partial"},
            revision=ev.revision,
            workspace=WS,
        )
    assert raised.value.code == "route-revision-stale"


def test_route_revision_stale_is_checked_before_route_stale() -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.route(
            TWO, "main", "default", "route:00000000000000000000", revision="sha256:" + "0" * 64, workspace=WS
        )
    assert raised.value.code == "route-revision-stale"


def test_route_with_the_current_revision_resolves() -> None:
    ev = ag.evaluate(TWO, "main", "default", outcomes={"main/a": "completed"})
    assert ev.primary_route is not None
    r = ag.route(
        TWO,
        "main",
        "default",
        ev.primary_route.route_id,
        outcomes={"main/a": "completed"},
        revision=ev.revision,
        workspace=WS,
    )
    assert (r.node, r.revision, r.route_id) == ("b", ev.revision, ev.primary_route.route_id)


def test_route_takes_its_arguments_in_the_order_of_evaluate() -> None:
    ev = ag.evaluate(TWO, "main", "default", outcomes={"main/a": "completed"})
    assert ev.primary_route is not None
    positional = ag.route(
        TWO, "main", "default", ev.primary_route.route_id, outcomes={"main/a": "completed"}, workspace=WS
    )
    named = ag.route(
        TWO,
        graph="main",
        entry="default",
        route_id=ev.primary_route.route_id,
        outcomes={"main/a": "completed"},
        workspace=WS,
    )
    assert positional == named and positional.node == "b"


def test_a_route_id_in_the_place_of_the_entry_is_explained() -> None:
    ev = ag.evaluate(TWO, "main", "default")
    assert ev.primary_route is not None
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.route(TWO, "main", ev.primary_route.route_id, workspace=WS)
    assert raised.value.code == "argument-invalid"
    assert "route(provider, graph, entry, route_id)" in raised.value.message


def test_route_stale_for_an_unknown_route() -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.route(TWO, "main", "default", "route:00000000000000000000", workspace=WS)
    assert raised.value.code == "route-stale"


def test_route_stale_for_a_route_of_an_earlier_state() -> None:
    ev = ag.evaluate(TWO, "main", "default")
    assert ev.primary_route is not None
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.route(
            TWO, "main", "default", ev.primary_route.route_id, outcomes={"main/a": "completed"}, workspace=WS
        )
    assert raised.value.code == "route-stale"


def test_route_none_takes_the_primary_route() -> None:
    ev = ag.evaluate(TWO, "main", "default", outcomes={"main/a": "completed"})
    assert ev.primary_route is not None
    assert route_of(TWO, outcomes={"main/a": "completed"})["routeId"] == ev.primary_route.route_id


@pytest.mark.parametrize("outcomes", [{"main/a": "failed"}, {"main/a": "completed", "main/b": "completed"}])
def test_route_none_without_a_primary_route_is_route_unavailable(outcomes: dict[str, str]) -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.route(TWO, "main", outcomes=outcomes, workspace=WS)
    assert raised.value.code == "route-unavailable"


def test_route_reaches_candidates_beyond_the_four_listed() -> None:
    work = [f"w{i}" for i in range(7)]
    p = build(
        graph_doc(
            "main",
            [action_node("s"), *(action_node(w) for w in work), terminal_node("t", join="any")],
            [edge("s", w) for w in work] + [edge(w, "t") for w in work],
        )
    )
    state = {"outcomes": {"main/s": "completed"}}
    ev = ag.evaluate(p, "main", "default", **state)
    listed = {ev.primary_route.node if ev.primary_route else "", *(r.node for r in ev.alternative_routes)}
    hidden = sorted(set(work) - listed)
    assert len(hidden) == 3
    for node in hidden:
        token = ag.digest_value({"revision": ev.revision, "graph": "main", "node": node, "callPath": []})
        r = route_of(p, "route:" + token[7:27], revision=ev.revision, **state)
        assert r["node"] == node


RECEIPTS = "agent-graph.resource-read-receipts.v1"


def test_receipts_for_another_provider_are_refused() -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.route(
            TWO,
            "main",
            workspace=WS,
            receipts={"schema": RECEIPTS, "provider": "someone.else", "receipts": []},
        )
    assert raised.value.code == "resource-receipts-provider-mismatch"


def test_route_stale_is_checked_before_the_receipts_provider() -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.route(
            TWO,
            "main",
            "default",
            "route:00000000000000000000",
            workspace=WS,
            receipts={"schema": RECEIPTS, "provider": "someone.else", "receipts": []},
        )
    assert raised.value.code == "route-stale"


def test_receipts_mark_read_resources_current() -> None:
    p = single(
        "cmd", resources={"required": ["resources/procedure.md"], "recommended": ["resources/checklist.md"]}
    )
    receipts = {
        "schema": RECEIPTS,
        "provider": PROVIDER_ID,
        "receipts": [
            {"id": "procedure.main", "digest": digest_of("resources/procedure.md")},
            {"id": "checklist.main", "digest": "sha256:" + "0" * 64},
        ],
    }
    r = route_of(p, receipts=receipts)
    assert r["resources"]["required"][0]["readState"] == "current"
    assert r["resources"]["recommended"][0]["readState"] == "read-required"
    # Receipts never change which route is chosen or the revision.
    assert r["revision"] == route_of(p)["revision"] and r["routeId"] == route_of(p)["routeId"]


# Command plans ----------------------------------------------------------------------


def _step(command: str, effect: str, cwd: str = "workspace") -> dict[str, str]:
    return {
        "command": command,
        "effect": effect,
        "cwd": cwd,
        "workingDirectory": ROOT if cwd == "provider" else WS,
    }


#: Each kind of Action, its command plan (entry and arguments quoted for a POSIX shell), and its runner.
COMMAND_PLANS = [
    pytest.param("cmd", [_step("make build", "write")], "command", id="command"),
    pytest.param(
        "provider-cmd", [_step("ls -la", "read", "provider")], "command", id="command-in-the-provider"
    ),
    pytest.param(
        "script",
        [_step("python3 '/p/scripts/check.py' '--it'\"'\"'s' 'x y'", "read", "provider")],
        "script",
        id="python-script-quotes-entry-and-arguments",
    ),
    pytest.param(
        "actions/script-node.yaml",
        [_step("node '/p/scripts/o'\"'\"'k.mjs'", "read")],
        "script",
        id="node-script-quotes-a-quote-in-the-entry",
    ),
    pytest.param(
        "actions/script-bun.yaml", [_step("bun '/p/scripts/run.ts' 'a'", "read")], "script", id="bun-script"
    ),
    pytest.param(
        "actions/script-shell.yaml",
        [_step("sh '/p/scripts/run.sh' '' ''\"'\"''\"'\"''", "write")],
        "script",
        id="shell-script-quotes-empty-and-quote-arguments",
    ),
    pytest.param(
        "host",
        [{"handler": "host.publish", "effect": "external", "cwd": "workspace", "workingDirectory": WS}],
        "host",
        id="host",
    ),
    pytest.param("agent", [], "agent", id="agent-is-empty"),
]


@pytest.mark.parametrize(("action", "plan", "runner"), COMMAND_PLANS)
def test_command_plan(action: str, plan: list[dict[str, str]], runner: str) -> None:
    r = route_of(single(action))
    assert r["commandPlan"] == plan
    effect = plan[0]["effect"] if plan else "write"
    identity = {
        "id": action.removeprefix("actions/").removesuffix(".yaml"),
        "runner": runner,
        "effect": effect,
    }
    assert {key: r["action"][key] for key in identity} == identity


def test_script_entry_is_absolute_for_a_provider_elsewhere() -> None:
    g = graph_doc("main", [action_node("a", "script"), terminal_node("t")], [edge("a", "t")])
    p = load(files_for([g], root="/srv/my provider"), root="/srv/my provider")
    r = wire(ag.route(p, "main", workspace=WS))
    assert (
        r["commandPlan"][0]["command"] == "python3 '/srv/my provider/scripts/check.py' '--it'\"'\"'s' 'x y'"
    )
    assert r["commandPlan"][0]["workingDirectory"] == "/srv/my provider"


# Working directory ----------------------------------------------------------------


def test_working_directory_is_the_workspace_given() -> None:
    assert (
        route_of(single("cmd"), workspace="/somewhere/else")["commandPlan"][0]["workingDirectory"]
        == "/somewhere/else"
    )


def test_working_directory_defaults_to_the_current_directory() -> None:
    r = wire(ag.route(single("cmd"), "main"))
    assert r["commandPlan"][0]["workingDirectory"] == os.getcwd()


def test_relative_workspace_is_resolved_against_the_current_directory() -> None:
    r = route_of(single("cmd"), workspace="sub/dir")
    assert r["commandPlan"][0]["workingDirectory"] == os.path.join(os.getcwd(), "sub", "dir")


def test_provider_cwd_ignores_the_workspace() -> None:
    assert (
        route_of(single("provider-cmd"), workspace="/elsewhere")["commandPlan"][0]["workingDirectory"] == ROOT
    )


# Actions, Skills and schemas --------------------------------------------------------------


def test_agent_action_skill_is_first_in_required() -> None:
    p = single(
        "agent", resources={"required": ["resources/procedure.md"], "recommended": ["resources/checklist.md"]}
    )
    r = route_of(p)
    required = r["resources"]["required"]
    assert [loc["id"] for loc in required] == ["skill.worker", "procedure.main"]
    assert [loc["id"] for loc in r["resources"]["recommended"]] == ["checklist.main"]
    skill = required[0]
    assert skill == r["action"]["skill"]
    assert (skill["kind"], skill["mediaType"], skill["filePath"]) == (
        "skill",
        "text/markdown",
        f"{ROOT}/skills/worker/SKILL.md",
    )
    assert skill["digest"] == digest_of("skills/worker/SKILL.md")
    assert skill["schema"].startswith("agent-graph.resource-location")


def test_agent_skill_without_a_name_is_skill_agent_skill() -> None:
    r = route_of(single("agent-nameless"))
    assert r["resources"]["required"][0]["id"] == "skill.agent-skill"
    assert r["action"]["skill"]["id"] == "skill.agent-skill"
    assert r["action"] == {
        "id": "agent-nameless",
        "runner": "agent",
        "effect": "write",
        "skill": r["action"]["skill"],
    }


def test_schema_locations_of_an_action() -> None:
    r = route_of(single("agent"))
    action = r["action"]
    assert list(action) == ["id", "runner", "effect", "skill", "inputSchema", "outputSchema"]
    for direction, key, stem in (("input", "inputSchema", "in"), ("output", "outputSchema", "out")):
        location = action[key]
        assert location["id"] == f"schema.agent.{direction}"
        assert (location["kind"], location["mediaType"]) == ("schema", "application/schema+json")
        assert location["filePath"] == f"{ROOT}/schemas/{stem}.schema.json"
        assert location["digest"] == digest_of(f"schemas/{stem}.schema.json")
    # Schemas are not resources of the route.
    assert [loc["id"] for loc in r["resources"]["required"]] == ["skill.worker"]


def test_action_route_has_no_gate_and_a_gate_route_has_no_action() -> None:
    action = route_of(single("cmd"))
    assert "gate" not in action and "action" in action
    gate = route_of(build(graph_doc("main", [gate_node("g"), terminal_node("t")], [edge("g", "t")])))
    assert "action" not in gate and "gate" in gate


# Gates --------------------------------------------------------------------------------


def review_gate(**gate_fields: Any) -> ag.Provider:
    node = gate_node(
        "review",
        authority="review",
        delegatable=True,
        prompt="Accept the result?",
        inspectionAction=INSPECT,
        resolutionAction=APPLY,
        resources={"required": ["resources/procedure.md"], "recommended": ["resources/checklist.md"]},
        **gate_fields,
    )
    return build(graph_doc("main", [node, terminal_node("t")], [edge("review", "t")]))


INSPECTION = {
    "action": {"id": "inspect", "runner": "host", "effect": "read"},
    "commandPlan": [
        {"handler": "gate.inspect", "effect": "read", "cwd": "workspace", "workingDirectory": WS}
    ],
}
RESOLUTION = {
    "action": {"id": "apply", "runner": "command", "effect": "write"},
    "commandPlan": [
        {"command": "apply-decision --id 1", "effect": "write", "cwd": "workspace", "workingDirectory": WS}
    ],
}
ACCEPTANCE = {
    "action": {"id": "accept", "runner": "host", "effect": "write"},
    "commandPlan": [
        {"handler": "gate.accept", "effect": "write", "cwd": "workspace", "workingDirectory": WS}
    ],
}


def test_gate_route_waiting_for_the_user() -> None:
    r = route_of(review_gate())
    assert (r["statusCode"], r["availability"], r["commandPlan"]) == ("waiting-user", "requires-user", [])
    assert r["gate"] == {
        "id": "g-review",
        "prompt": "Accept the result?",
        "authority": "review",
        "delegatable": True,
        "resolution": "user",
        "inspectionAction": INSPECTION,
        "resolutionAction": RESOLUTION,
    }
    assert list(r["gate"]) == [
        "id",
        "prompt",
        "authority",
        "delegatable",
        "resolution",
        "inspectionAction",
        "resolutionAction",
    ]
    assert [loc["id"] for loc in r["resources"]["required"]] == ["procedure.main"]


def test_gate_route_delegated_without_a_policy_keeps_everything() -> None:
    r = route_of(review_gate(), authorities=["review"])
    assert (r["statusCode"], r["availability"], r["commandPlan"]) == ("actionable", "immediate", [])
    assert r["gate"] == {
        "id": "g-review",
        "prompt": "Accept the result?",
        "authority": "review",
        "delegatable": True,
        "resolution": "session-authority",
        "inspectionAction": INSPECTION,
        "resolutionAction": RESOLUTION,
    }
    assert [loc["id"] for loc in r["resources"]["required"]] == ["procedure.main"]


def test_delegated_inspection_skip_drops_the_inspection_on_the_delegated_route_only() -> None:
    p = review_gate(delegated={"inspection": "skip"})
    delegated = route_of(p, authorities=["review"])["gate"]
    assert "inspectionAction" not in delegated and delegated["resolutionAction"] == RESOLUTION
    assert route_of(p)["gate"]["inspectionAction"] == INSPECTION


def test_delegated_inspection_required_keeps_the_inspection() -> None:
    p = review_gate(delegated={"inspection": "required"})
    assert route_of(p, authorities=["review"])["gate"]["inspectionAction"] == INSPECTION


def test_delegated_resolution_action_replaces_the_resolution_on_the_delegated_route_only() -> None:
    p = review_gate(delegated={"resolutionAction": ACCEPT})
    assert route_of(p, authorities=["review"])["gate"]["resolutionAction"] == ACCEPTANCE
    assert route_of(p, authorities=["review"])["gate"]["inspectionAction"] == INSPECTION
    assert route_of(p)["gate"]["resolutionAction"] == RESOLUTION


def test_delegated_resources_replace_the_nodes_on_the_delegated_route_only() -> None:
    p = review_gate(delegated={"resources": {"required": ["resources/delegated.md"]}})
    delegated = route_of(p, authorities=["review"])["resources"]
    assert [loc["id"] for loc in delegated["required"]] == ["procedure.delegated"]
    assert delegated["recommended"] == []
    user = route_of(p)["resources"]
    assert [loc["id"] for loc in user["required"]] == ["procedure.main"]
    assert [loc["id"] for loc in user["recommended"]] == ["checklist.main"]


def test_delegated_empty_resources_clear_the_delegated_route() -> None:
    p = review_gate(delegated={"resources": {"required": [], "recommended": []}})
    assert route_of(p, authorities=["review"])["resources"] == {"required": [], "recommended": []}


def test_full_delegated_policy() -> None:
    p = review_gate(
        delegated={
            "inspection": "skip",
            "resolutionAction": ACCEPT,
            "resources": {"required": [], "recommended": ["resources/delegated.md"]},
        }
    )
    r = route_of(p, authorities=["review"])
    assert r["gate"] == {
        "id": "g-review",
        "prompt": "Accept the result?",
        "authority": "review",
        "delegatable": True,
        "resolution": "session-authority",
        "resolutionAction": ACCEPTANCE,
    }
    assert r["commandPlan"] == []
    assert [loc["id"] for loc in r["resources"]["recommended"]] == ["procedure.delegated"]


@pytest.mark.parametrize(
    ("authority", "delegatable", "expected"),
    [
        (None, None, {}),
        ("review", None, {"authority": "review"}),
        (None, False, {"delegatable": False}),
        ("review", False, {"authority": "review", "delegatable": False}),
        (None, True, {"delegatable": True}),
    ],
)
def test_gate_authority_and_delegatable_appear_exactly_as_authored(
    authority: str | None, delegatable: bool | None, expected: dict[str, Any]
) -> None:
    p = build(
        graph_doc(
            "main",
            [gate_node("g", authority=authority, delegatable=delegatable, prompt="Go?"), terminal_node("t")],
            [edge("g", "t")],
        )
    )
    r = route_of(p, authorities=["review"])
    assert r["gate"] == {"id": "g-g", "prompt": "Go?", **expected, "resolution": "user"}
    assert r["commandPlan"] == [] and r["statusCode"] == "waiting-user"


def test_gate_nested_agent_action_keeps_its_skill_on_the_nested_action() -> None:
    extra = {
        "actions/agent-read.yaml": {
            "schema": "agent-graph.action.v1",
            "id": "agent-read",
            "runner": "agent",
            "effect": "read",
            "skill": "skills/worker/SKILL.md",
        }
    }
    g = graph_doc(
        "main",
        [gate_node("g", inspectionAction="actions/agent-read.yaml"), terminal_node("t")],
        [edge("g", "t")],
    )
    r = wire(ag.route(load(files_for([g], extra=extra)), "main", workspace=WS))
    inspection = r["gate"]["inspectionAction"]
    assert inspection["commandPlan"] == []
    assert inspection["action"]["skill"]["id"] == "skill.worker"
    assert inspection["action"]["skill"]["readState"] == "read-required"
    assert r["resources"]["required"] == []


# Shape ------------------------------------------------------------------------------


def test_route_diagnostics_are_always_empty() -> None:
    nodes = [action_node("s"), action_node("blocked", requiresFacts=[{"path": "x", "exists": True}])]
    nodes += [action_node(f"w{i}") for i in range(5)] + [terminal_node("t", join="any")]
    work = ["blocked"] + [f"w{i}" for i in range(5)]
    p = build(graph_doc("main", nodes, [edge("s", w) for w in work] + [edge(w, "t") for w in work]))
    state = {"outcomes": {"main/s": "completed"}}
    ev = ag.evaluate(p, "main", "default", **state)
    assert [d.code for d in ev.diagnostics] == ["required-fact-missing", "route-alternatives-truncated"]
    assert route_of(p, **state)["diagnostics"] == []


def test_after_action_records_the_node() -> None:
    r = route_of(TWO, outcomes={"main/a": "completed"})
    assert r["afterAction"] == {"evaluate": True, "recordNode": "main/b"}
    assert list(r["afterAction"]) == ["evaluate", "recordNode"]


def test_route_of_a_child_node() -> None:
    child = graph_doc("child", [action_node("x", "host"), terminal_node("ct")], [edge("x", "ct")])
    p = build(graph_doc("main", [subgraph_node("s", "child"), terminal_node("t")], [edge("s", "t")]), child)
    r = route_of(p)
    assert (r["graph"], r["node"], r["callPath"]) == ("child", "x", ["main/s"])
    assert r["afterAction"]["recordNode"] == "main/s>child/x"
    assert r["reasonCode"] == "route.x"


def _locations(value: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if str(item.get("schema", "")).startswith("agent-graph.resource-location"):
                found.append(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return found


def test_every_location_has_a_read_state() -> None:
    extra = {
        "actions/agent-read.yaml": {
            "schema": "agent-graph.action.v1",
            "id": "agent-read",
            "runner": "agent",
            "effect": "read",
            "skill": "skills/plain/SKILL.md",
            "inputSchema": "schemas/in.schema.json",
        },
    }
    gate = gate_node(
        "g",
        authority="review",
        delegatable=True,
        inspectionAction="actions/agent-read.yaml",
        resolutionAction="actions/agent.yaml",
        resources={"required": ["resources/procedure.md"], "recommended": ["resources/checklist.md"]},
    )
    agent = action_node(
        "a",
        "agent",
        resources={"required": ["resources/procedure.md"], "recommended": ["resources/checklist.md"]},
    )
    g = graph_doc(
        "main",
        [gate, agent, terminal_node("t", join="any")],
        [edge("g", "t"), edge("a", "t")],
        entrypoints={"default": "g", "agent": "a"},
    )
    p = load(files_for([g], extra=extra))
    gate_route = wire(ag.route(p, "main", workspace=WS))
    agent_route = wire(ag.route(p, "main", "agent", None, workspace=WS))
    assert (
        len(_locations(gate_route)) == 7
    )  # 2 resources, inspection skill + schema, resolution skill + 2 schemas
    assert len(_locations(agent_route)) == 6  # skill twice, 2 schemas, 2 resources
    for location in _locations(gate_route) + _locations(agent_route):
        assert location["readState"] in ("read-required", "current")
        assert list(location)[-1] == "readState"


def test_route_field_order_of_an_action_route() -> None:
    p = build(
        graph_doc("main", [action_node("a", "agent"), terminal_node("t")], [edge("a", "t")]),
        codes={"route.a": "Why a."},
    )
    r = route_of(p)
    assert list(r) == [k for k in ROUTE_FIELDS if k != "gate"]
    assert r["schema"] == "agent-graph.route.v1" and r["provider"] == PROVIDER_ID and r["hint"] == "Why a."
    assert list(r["resources"]) == ["required", "recommended"]
    assert list(r["commandPlan"]) == []
    location = r["resources"]["required"][0]
    assert list(location) == ["schema", "id", "kind", "mediaType", "digest", "filePath", "readState"]
    step = route_of(single("cmd"))["commandPlan"][0]
    assert list(step) == ["command", "effect", "cwd", "workingDirectory"]
    assert list(route_of(single("host"))["commandPlan"][0]) == [
        "handler",
        "effect",
        "cwd",
        "workingDirectory",
    ]


def test_route_field_order_of_a_gate_route_without_hint() -> None:
    r = route_of(review_gate())
    assert list(r) == in_order([k for k in ROUTE_FIELDS if k not in ("hint", "action")])
    assert "hint" not in r


def test_route_summary_fields_match_the_evaluation() -> None:
    p = build(
        graph_doc("main", [action_node("a", description="Do A"), terminal_node("t")], [edge("a", "t")]),
        codes={"route.a": "Why a."},
    )
    ev = wire(ag.evaluate(p, "main", "default"))
    r = route_of(p)
    summary = ev["primaryRoute"]
    for key in ("routeId", "graph", "node", "statusCode", "reasonCode", "hint", "availability"):
        assert r[key] == summary[key]
    assert r["revision"] == ev["revision"]
