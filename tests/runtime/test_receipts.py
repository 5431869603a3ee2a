"""Read receipts (``agent-graph.resource-read-receipts.v1``): which route resources are ``current``.

The rule of the spec: a static location is current when a receipt has its ID
and digest; a dynamic one (graph-action, host-action) when a receipt has its
ID and the selecting route's revision. Receipts of another Provider are
refused, and receipts never change which route is chosen.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from agent_graph._cli.main import main
from agent_graph._core.errors import AgentGraphError
from agent_graph._core.model import ReadReceipt, ReadReceipts

PROVIDER_ID = "tests/receipts"
FILES: dict[str, Any] = {
    "provider.yaml": f"schema: agent-graph.provider.v1\nid: {PROVIDER_ID}\nversion: 1.0.0\ngraphs: [graphs/main.yaml]\n",
    "graphs/main.yaml": """schema: agent-graph.graph.v1
id: main
entrypoints: {default: begin}
nodes:
  - id: begin
    kind: action
    reasonCode: route.main.begin
    action: actions/cmd.yaml
  - id: inspect
    kind: action
    priority: 5
    reasonCode: route.main.inspect
    action: actions/cmd.yaml
    resources:
      required: [resources/procedure.md, resources/limits.yaml, resources/status.yaml]
      recommended: [resources/host-view.yaml]
  - id: assist
    kind: action
    reasonCode: route.main.assist
    action: actions/agent.yaml
  - id: done
    kind: terminal
    join: all
    terminalOutcome: completed
edges:
  - {from: begin, to: inspect}
  - {from: begin, to: assist}
  - {from: inspect, to: done}
  - {from: assist, to: done}
""",
    "actions/cmd.yaml": "schema: agent-graph.action.v1\nid: cmd\nrunner: command\neffect: read\ncommand: 'true'\n",
    "actions/agent.yaml": "schema: agent-graph.action.v1\nid: agent\nrunner: agent\neffect: write\nskill: skills/helper/SKILL.md\n",
    "skills/helper/SKILL.md": "---\nname: helper\ndescription: Helps.\n---\nHelp.\n",
    "actions/status.yaml": "schema: agent-graph.action.v1\nid: status\nrunner: command\neffect: read\ncommand: echo '{}'\n",
    "actions/host.yaml": """schema: agent-graph.action.v1
id: host
runner: host
effect: read
handler: acme.view
inputSchema: schemas/in.json
outputSchema: schemas/out.json
""",
    "schemas/in.json": {"$id": "acme.view-request/v1", "type": "object"},
    "schemas/out.json": {"$id": "acme.view/v1", "type": "object"},
    "schemas/limits.json": {"type": "object"},
    "resources/procedure.md": "---\nid: procedure.main\nkind: procedure\n---\nRead me.\n",
    "resources/limits.yaml": {
        "schema": "agent-graph.resource.file.v1",
        "id": "schema.limits",
        "kind": "schema",
        "mediaType": "application/schema+json",
        "path": "schemas/limits.json",
    },
    "resources/status.yaml": {
        "schema": "agent-graph.resource.graph-action.v1",
        "id": "context.status",
        "kind": "context-view",
        "mediaType": "application/json",
        "materializer": "actions/status.yaml",
    },
    "resources/host-view.yaml": {
        "schema": "agent-graph.resource.host-action.v1",
        "id": "host.view",
        "kind": "context-view",
        "mediaType": "application/json",
        "materializer": "actions/host.yaml",
        "input": {"schema": "acme.view-request/v1", "value": {}},
    },
}
STATE: dict[str, Any] = {"outcomes": {"main/begin": "completed"}}


@pytest.fixture()
def provider(tmp_path: Path) -> ag.Provider:
    root = tmp_path / "p"
    for name, content in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return ag.load_provider(str(root / "provider.yaml"))


def route(provider: ag.Provider, route_id: str | None = None, receipts: Any = None, **state: Any) -> ag.Route:
    merged = {**STATE, **state}
    return ag.route(provider, "main", route_id=route_id, workspace="/work", receipts=receipts, **merged)


def receipts_of(*items: dict[str, Any], provider: str = PROVIDER_ID) -> dict[str, Any]:
    return {"schema": "agent-graph.resource-read-receipts.v1", "provider": provider, "receipts": list(items)}


def states(result: ag.Route) -> dict[str, str]:
    locations = [*result.resources.required, *result.resources.recommended]
    return {location.id: location.read_state for location in locations}


def by_id(result: ag.Route) -> dict[str, Any]:
    return {loc.id: loc for loc in [*result.resources.required, *result.resources.recommended]}


OTHER_DIGEST = "sha256:" + "0" * 64


def test_without_receipts_everything_is_read_required(provider: ag.Provider) -> None:
    result = route(provider)
    assert result.node == "inspect"
    assert states(result) == {
        "procedure.main": "read-required",
        "schema.limits": "read-required",
        "context.status": "read-required",
        "host.view": "read-required",
    }


def test_static_receipt_needs_the_same_id_and_digest(provider: ag.Provider) -> None:
    first = by_id(route(provider))
    procedure, limits = first["procedure.main"], first["schema.limits"]
    current = route(provider, receipts=receipts_of({"id": "procedure.main", "digest": procedure.digest}))
    assert states(current)["procedure.main"] == "current"
    assert states(current)["schema.limits"] == "read-required"
    stale = route(provider, receipts=receipts_of({"id": "procedure.main", "digest": OTHER_DIGEST}))
    assert states(stale)["procedure.main"] == "read-required"
    other_id = route(provider, receipts=receipts_of({"id": "schema.limits", "digest": procedure.digest}))
    assert states(other_id)["procedure.main"] == "read-required"
    both = route(provider, receipts=receipts_of({"id": "schema.limits", "digest": limits.digest}))
    assert states(both)["schema.limits"] == "current"


def test_static_receipt_survives_a_state_change(provider: ag.Provider) -> None:
    """A file's digest does not depend on the state: a new revision keeps it current."""
    procedure = by_id(route(provider))["procedure.main"]
    receipts = receipts_of({"id": "procedure.main", "digest": procedure.digest})
    moved = route(provider, receipts=receipts, facts={"changed": True})
    assert states(moved)["procedure.main"] == "current"


def test_dynamic_receipt_needs_the_same_id_and_the_selecting_revision(provider: ag.Provider) -> None:
    revision = route(provider).revision
    receipts = receipts_of(
        {
            "id": "context.status",
            "digest": OTHER_DIGEST,
            "revision": revision,
        },  # any digest: the revision decides
        {"id": "host.view", "digest": OTHER_DIGEST, "revision": revision},
    )
    current = route(provider, receipts=receipts)
    assert states(current)["context.status"] == "current"
    assert states(current)["host.view"] == "current"
    moved = route(provider, receipts=receipts, facts={"changed": True})
    assert moved.revision != revision
    assert states(moved)["context.status"] == "read-required"
    assert states(moved)["host.view"] == "read-required"
    wrong_id = route(
        provider, receipts=receipts_of({"id": "context.other", "digest": OTHER_DIGEST, "revision": revision})
    )
    assert states(wrong_id)["context.status"] == "read-required"


def test_a_dynamic_receipt_without_revision_never_matches(provider: ag.Provider) -> None:
    result = route(provider, receipts=receipts_of({"id": "context.status", "digest": OTHER_DIGEST}))
    assert states(result)["context.status"] == "read-required"


def test_skill_locations_follow_the_static_rule(provider: ag.Provider) -> None:
    assist = route(provider, ag.evaluate(provider, "main", **STATE).alternative_routes[0].route_id)
    skill = assist.resources.required[0]
    assert skill.id == "skill.helper" and skill.read_state == "read-required"
    again = route(
        provider, assist.route_id, receipts=receipts_of({"id": "skill.helper", "digest": skill.digest})
    )
    assert again.resources.required[0].read_state == "current"
    assert (
        again.action is not None
        and again.action.skill is not None
        and again.action.skill.read_state == "current"
    )


def test_receipts_of_another_provider_are_refused(provider: ag.Provider) -> None:
    for receipts in (
        receipts_of(provider="someone/else"),
        ReadReceipts(schema="agent-graph.resource-read-receipts.v1", provider="someone/else", receipts=()),
    ):
        with pytest.raises(AgentGraphError) as error:
            route(provider, receipts=receipts)
        assert error.value.code == "resource-receipts-provider-mismatch"


def test_receipts_as_structs_work_like_json(provider: ag.Provider) -> None:
    revision = route(provider).revision
    receipts = ReadReceipts(
        schema="agent-graph.resource-read-receipts.v1",
        provider=PROVIDER_ID,
        receipts=(ReadReceipt(id="context.status", digest=OTHER_DIGEST, revision=revision),),
    )
    assert states(route(provider, receipts=receipts))["context.status"] == "current"


def _without_read_states(result: ag.Route) -> Any:
    data = json.loads(msgspec.json.encode(result))
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            item.pop("readState", None)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return data


def test_receipts_never_change_the_chosen_route(provider: ag.Provider) -> None:
    plain = route(provider)
    everything = receipts_of(
        *[
            {"id": loc.id, "digest": getattr(loc, "digest", None) or OTHER_DIGEST, "revision": plain.revision}
            for loc in [*plain.resources.required, *plain.resources.recommended]
        ],
        {"id": "skill.helper", "digest": OTHER_DIGEST, "revision": plain.revision},
    )
    read = route(provider, receipts=everything)
    assert set(states(read).values()) == {"current"}
    assert read.route_id == plain.route_id and read.node == plain.node and read.revision == plain.revision
    assert _without_read_states(read) == _without_read_states(plain)
    evaluation = ag.evaluate(provider, "main", **STATE)
    for summary in [evaluation.primary_route, *evaluation.alternative_routes]:
        assert summary is not None
        with_receipts = route(provider, summary.route_id, receipts=everything)
        without = route(provider, summary.route_id)
        assert _without_read_states(with_receipts) == _without_read_states(without)


def test_receipts_through_the_command_line(
    provider: ag.Provider, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    procedure = by_id(route(provider))["procedure.main"]
    receipts_file = tmp_path / "receipts.json"
    receipts_file.write_text(
        json.dumps(receipts_of({"id": "procedure.main", "digest": procedure.digest})), "utf-8"
    )
    manifest = str(Path(provider.root) / "provider.yaml")
    outcomes = json.dumps(STATE["outcomes"])
    base = ["--manifest", manifest, "route", "main", "--outcomes", outcomes, "--format", "json"]
    assert main([*base, "--resource-receipts", f"@{receipts_file}"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert {r["id"]: r["readState"] for r in answer["resources"]["required"]}["procedure.main"] == "current"
    receipts_file.write_text(json.dumps(receipts_of(provider="someone/else")), "utf-8")
    assert main([*base, "--resource-receipts", f"@{receipts_file}"]) == 1
    envelope = json.loads(capsys.readouterr().err)
    assert envelope["error"]["code"] == "resource-receipts-provider-mismatch"
