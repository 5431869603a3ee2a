"""The static parts of the 0.3 resource protocols (behaviour.md §11) as loading and routing see them."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

import agent_graph as ag
import agent_graph.types as agt

ROOT = "/p"


def _files(**overrides: Any) -> dict[str, str]:
    graph = {
        "schema": "agent-graph.graph.v1",
        "id": "main",
        "entrypoints": {"default": "work"},
        "nodes": [
            {
                "id": "work",
                "kind": "action",
                "reasonCode": "route.main.work",
                "action": "actions/work.yaml",
                "resources": {
                    "required": ["resources/table.yaml", "resources/view.yaml"],
                    "recommended": ["resources/report.yaml"],
                },
            },
            {"id": "done", "kind": "terminal", "terminalOutcome": "completed"},
        ],
        "edges": [{"from": "work", "to": "done"}],
    }
    files = {
        f"{ROOT}/provider.yaml": "schema: agent-graph.provider.v1\nid: acme/res\nversion: 1.0.0\ngraphs: [graphs/main.json]\n",
        f"{ROOT}/graphs/main.json": json.dumps(graph),
        f"{ROOT}/actions/work.yaml": "schema: agent-graph.action.v1\nid: work\nrunner: command\neffect: write\ncommand: make\n",
        f"{ROOT}/resources/table.yaml": (
            "schema: agent-graph.resource.file.v1\nid: table.schema\nkind: schema\n"
            "mediaType: application/schema+json\npath: schemas/table.json\n"
        ),
        f"{ROOT}/schemas/table.json": '{"type": "object"}\n',
        f"{ROOT}/resources/view.yaml": (
            "schema: agent-graph.resource.graph-action.v1\nid: status.view\nkind: context-view\n"
            "mediaType: application/json\nmaterializer: actions/view.yaml\n"
        ),
        f"{ROOT}/actions/view.yaml": (
            "schema: agent-graph.action.v1\nid: view\nrunner: script\neffect: read\nruntime: shell\n"
            "entry: scripts/view.sh\n"
        ),
        f"{ROOT}/scripts/view.sh": "echo '{}'\n",
        f"{ROOT}/resources/report.yaml": (
            "schema: agent-graph.resource.host-action.v1\nid: report.data\nkind: template\n"
            "mediaType: application/json\nmaterializer: actions/fetch.yaml\n"
            "input: {schema: acme.report-request/v1, value: {week: 12}}\n"
        ),
        f"{ROOT}/actions/fetch.yaml": (
            "schema: agent-graph.action.v1\nid: fetch\nrunner: host\neffect: read\nhandler: acme.fetch-report\n"
            "inputSchema: schemas/request.json\noutputSchema: schemas/report.json\n"
        ),
        f"{ROOT}/schemas/request.json": json.dumps(
            {
                "$id": "acme.report-request/v1",
                "type": "object",
                "required": ["week"],
                "properties": {"week": {"type": "integer"}},
            }
        ),
        f"{ROOT}/schemas/report.json": json.dumps({"$id": "acme.report/v1", "type": "object"}),
    }
    files.update(overrides)
    return files


def _load(files: dict[str, str]) -> ag.Provider:
    return ag.load_provider(f"{ROOT}/provider.yaml", fs=ag.MemoryFileSystem(files))


def _route(provider: ag.Provider) -> dict[str, Any]:
    resolved = ag.route(provider, "main", workspace="/ws")
    return json.loads(msgspec.json.encode(resolved))


def test_file_descriptor_is_located_by_its_content_file() -> None:
    provider = _load(_files())
    route = _route(provider)
    table = route["resources"]["required"][0]
    assert table == {
        "schema": "agent-graph.resource-location.file.v1",
        "id": "table.schema",
        "kind": "schema",
        "mediaType": "application/schema+json",
        "digest": ag.digest_bytes(b'{"type": "object"}\n'),
        "filePath": f"{ROOT}/schemas/table.json",
        "readState": "read-required",
    }


def test_graph_action_location_carries_the_route_revision() -> None:
    provider = _load(_files())
    route = _route(provider)
    view = route["resources"]["required"][1]
    assert view == {
        "schema": "agent-graph.resource-location.graph-action.v1",
        "id": "status.view",
        "kind": "context-view",
        "mediaType": "application/json",
        "revision": route["revision"],
        "materialize": {"resourceId": "status.view"},
        "readState": "read-required",
    }


def test_host_action_location_names_handler_input_and_output_identity() -> None:
    provider = _load(_files())
    route = _route(provider)
    report = route["resources"]["recommended"][0]
    assert report == {
        "schema": "agent-graph.resource-location.host-action.v1",
        "id": "report.data",
        "kind": "template",
        "mediaType": "application/json",
        "revision": route["revision"],
        "materialize": {
            "handler": "acme.fetch-report",
            "input": {"schema": "acme.report-request/v1", "value": {"week": 12}},
            "output_schema": "acme.report/v1",
        },
        "readState": "read-required",
    }


def test_content_and_materializer_files_belong_to_the_graph_closure() -> None:
    base = _load(_files())
    for path, content in (
        (f"{ROOT}/schemas/table.json", '{"type": "array"}\n'),
        (f"{ROOT}/scripts/view.sh", "echo '[]'\n"),
        (f"{ROOT}/schemas/report.json", json.dumps({"$id": "acme.report/v1", "type": "array"})),
    ):
        changed = _load(_files(**{path: content}))
        assert changed.graphs["main"].digest != base.graphs["main"].digest, path
    relative = {base.relative(f) for f in base.files}
    assert {"schemas/table.json", "scripts/view.sh", "actions/view.yaml", "actions/fetch.yaml"} <= relative


@pytest.mark.parametrize(
    ("path", "content", "code"),
    [
        # A 0.2 descriptor names the migration command.
        (
            "resources/table.yaml",
            "schema: agent-graph.resource.v1\nid: table.schema\nkind: schema\nmediaType: text/plain\npath: schemas/table.json\n",
            "resource-schema-legacy",
        ),
        # Kinds per protocol.
        (
            "resources/view.yaml",
            "schema: agent-graph.resource.graph-action.v1\nid: status.view\nkind: procedure\n"
            "mediaType: application/json\nmaterializer: actions/view.yaml\n",
            "schema-invalid",
        ),
        (
            "resources/table.yaml",
            "schema: agent-graph.resource.file.v1\nid: table.schema\nkind: context-view\n"
            "mediaType: text/plain\npath: schemas/table.json\n",
            "schema-invalid",
        ),
        # The host-action input is validated against the input schema at load.
        (
            "resources/report.yaml",
            "schema: agent-graph.resource.host-action.v1\nid: report.data\nkind: template\n"
            "mediaType: application/json\nmaterializer: actions/fetch.yaml\n"
            "input: {schema: acme.report-request/v1, value: {week: twelve}}\n",
            "host-action-input-invalid",
        ),
        # Each host-action schema needs a versioned protocol identity.
        (
            "schemas/report.json",
            json.dumps({"$id": "acme.report", "type": "object"}),
            "host-action-schema-identity-invalid",
        ),
        ("schemas/request.json", json.dumps({"type": "object"}), "host-action-schema-identity-invalid"),
        # A graph-action materializer must be a read command or script Action.
        (
            "actions/view.yaml",
            "schema: agent-graph.action.v1\nid: view\nrunner: host\neffect: read\nhandler: acme.view\n",
            "materializer-runner-invalid",
        ),
        (
            "actions/fetch.yaml",
            "schema: agent-graph.action.v1\nid: fetch\nrunner: host\neffect: write\nhandler: acme.fetch-report\n"
            "inputSchema: schemas/request.json\noutputSchema: schemas/report.json\n",
            "materializer-effect-invalid",
        ),
        (
            "actions/fetch.yaml",
            "schema: agent-graph.action.v1\nid: fetch\nrunner: command\neffect: read\ncommand: fetch\n",
            "materializer-runner-invalid",
        ),
    ],
)
def test_static_resource_rules(path: str, content: str, code: str) -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        _load(_files(**{f"{ROOT}/{path}": content}))
    assert raised.value.code == code
    if code == "resource-schema-legacy":
        assert "agent-graph migrate" in raised.value.message


def test_input_naming_another_schema_identity_is_refused() -> None:
    files = _files(
        **{
            f"{ROOT}/resources/report.yaml": (
                "schema: agent-graph.resource.host-action.v1\nid: report.data\nkind: template\n"
                "mediaType: application/json\nmaterializer: actions/fetch.yaml\n"
                "input: {schema: acme.other/v1, value: {week: 12}}\n"
            )
        }
    )
    with pytest.raises(ag.AgentGraphError) as raised:
        _load(files)
    assert raised.value.code == "host-action-input-schema-mismatch"


def test_receipts_mark_each_protocol_by_its_rule() -> None:
    provider = _load(_files())
    first = _route(provider)
    receipts = {
        "schema": "agent-graph.resource-read-receipts.v1",
        "provider": "acme/res",
        "receipts": [
            {"id": "table.schema", "digest": ag.digest_bytes(b'{"type": "object"}\n')},
            {"id": "status.view", "digest": "sha256:" + "0" * 64, "revision": first["revision"]},
            {"id": "report.data", "digest": "sha256:" + "0" * 64, "revision": "sha256:" + "1" * 64},
        ],
    }
    resolved = ag.route(provider, "main", workspace="/ws", receipts=receipts)
    states = [loc.read_state for loc in (*resolved.resources.required, *resolved.resources.recommended)]
    assert states == ["current", "current", "read-required"]


def test_host_action_result_is_checked_against_the_output_schema_read_at_load() -> None:
    provider = _load(_files())  # loaded from memory: nothing to read from disk afterwards
    route = ag.route(provider, "main", workspace="/ws")
    location = route.resources.recommended[0]
    assert isinstance(location, agt.HostActionLocation)

    def result(inline: Any) -> dict[str, Any]:
        return {
            "schema": "agent-graph.host-action-result.v1",
            "handler": "acme.fetch-report",
            "input_digest": ag.host_action_input_digest(location),
            "output": {"schema": "acme.report/v1", "inline": inline},
            "receipt": {"adapter": "test", "adapter_version": "1"},
        }

    ag.validate_host_action_result(location, result({"rows": []}), provider=provider)
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.validate_host_action_result(location, result([1, 2]), provider=provider)
    assert raised.value.code == "host-action-output-inline-invalid"
