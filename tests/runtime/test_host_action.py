"""Host-action resources (behaviour.md §11): input digest, result validation (one code per failure), read receipts."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from agent_graph._core.errors import AgentGraphError
from agent_graph._core.model import HostActionLocation, HostActionResult, ReadReceipt
from agent_graph._runtime.host_action import (
    host_action_input_digest,
    host_action_output_digest,
    host_action_read_receipt,
    validate_host_action_result,
)

HANDLER = "acme.build-report"
INPUT_SCHEMA = "acme.report-request/v1"
OUTPUT_SCHEMA = "acme.report/v1"
INPUT_VALUE = {"week": "2026-W05"}

FILES: dict[str, Any] = {
    "provider.yaml": "schema: agent-graph.provider.v1\nid: tests/host-action\nversion: 1.0.0\ngraphs: [graphs/main.yaml]\n",
    "graphs/main.yaml": """schema: agent-graph.graph.v1
id: main
entrypoints: {default: write}
nodes:
  - id: write
    kind: action
    reasonCode: route.main.write
    action: actions/write.yaml
    resources:
      required: [resources/report.yaml]
  - id: done
    kind: terminal
    terminalOutcome: completed
edges:
  - {from: write, to: done}
""",
    "actions/write.yaml": "schema: agent-graph.action.v1\nid: write\nrunner: command\neffect: write\ncommand: make report\n",
    "actions/report.yaml": f"""schema: agent-graph.action.v1
id: report
runner: host
effect: read
handler: {HANDLER}
inputSchema: schemas/request.schema.json
outputSchema: schemas/report.schema.json
""",
    "schemas/request.schema.json": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": INPUT_SCHEMA,
        "type": "object",
        "required": ["week"],
        "properties": {"week": {"type": "string", "pattern": "^[0-9]{4}-W[0-9]{2}$"}},
        "additionalProperties": False,
    },
    "schemas/report.schema.json": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": OUTPUT_SCHEMA,
        "type": "object",
        "required": ["title"],
        "properties": {"title": {"type": "string"}, "items": {"type": "array"}},
    },
    "resources/report.yaml": {
        "schema": "agent-graph.resource.host-action.v1",
        "id": "report.weekly",
        "kind": "context-view",
        "mediaType": "application/json",
        "materializer": "actions/report.yaml",
        "input": {"schema": INPUT_SCHEMA, "value": INPUT_VALUE},
    },
}


def write_files(root: Path, files: dict[str, Any]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return root / "provider.yaml"


@pytest.fixture()
def provider(tmp_path: Path) -> ag.Provider:
    return ag.load_provider(str(write_files(tmp_path / "p", FILES)))


@pytest.fixture()
def location(provider: ag.Provider, tmp_path: Path) -> HostActionLocation:
    """The location as the route hands it to the host (with the route's revision)."""
    route = ag.route(provider, "main", workspace=str(tmp_path))
    found = route.resources.required[0]
    assert isinstance(found, HostActionLocation)
    return found


def expected_input_digest() -> str:
    text = json.dumps(
        {"handler": HANDLER, "input": {"schema": INPUT_SCHEMA, "value": INPUT_VALUE}}, separators=(",", ":")
    )
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def inline_result(**changes: Any) -> dict[str, Any]:
    result: dict[str, Any] = {
        "schema": "agent-graph.host-action-result.v1",
        "handler": HANDLER,
        "input_digest": expected_input_digest(),
        "output": {"schema": OUTPUT_SCHEMA, "inline": {"title": "Week 5", "items": []}},
        "receipt": {"adapter": "acme-host", "adapter_version": "1.4.0"},
    }
    result.update(changes)
    return result


def resource_result() -> dict[str, Any]:
    result = inline_result()
    result["output"] = {
        "schema": OUTPUT_SCHEMA,
        "resource": {"ref": "blob://reports/w05", "digest": "sha256:" + "c" * 64},
    }
    return result


def expect(code: str, location: Any, result: Any, **options: Any) -> AgentGraphError:
    with pytest.raises(AgentGraphError) as error:
        validate_host_action_result(location, result, **options)
    assert error.value.code == code, error.value
    return error.value


# ---------------------------------------------------------------- loading and the location


def test_the_route_gives_the_host_a_complete_location(
    location: HostActionLocation, provider: ag.Provider
) -> None:
    wire = json.loads(msgspec.json.encode(location))
    assert wire["materialize"] == {
        "handler": HANDLER,
        "input": {"schema": INPUT_SCHEMA, "value": INPUT_VALUE},
        "output_schema": OUTPUT_SCHEMA,
    }
    assert wire["schema"] == "agent-graph.resource-location.host-action.v1"
    assert wire["revision"].startswith("sha256:") and wire["readState"] == "read-required"


def test_input_is_validated_against_its_schema_when_the_provider_loads(tmp_path: Path) -> None:
    bad = copy.deepcopy(FILES)
    bad["resources/report.yaml"]["input"]["value"] = {"week": "last week"}
    with pytest.raises(AgentGraphError) as error:
        ag.load_provider(str(write_files(tmp_path / "bad", bad)))
    assert error.value.code == "host-action-input-invalid"
    other = copy.deepcopy(FILES)
    other["resources/report.yaml"]["input"]["schema"] = "acme.other-request/v1"
    with pytest.raises(AgentGraphError) as error:
        ag.load_provider(str(write_files(tmp_path / "other", other)))
    assert error.value.code == "host-action-input-schema-mismatch"


def test_input_digest_covers_handler_and_input(location: HostActionLocation) -> None:
    assert host_action_input_digest(location) == expected_input_digest()
    assert host_action_input_digest(json.loads(msgspec.json.encode(location))) == expected_input_digest()
    changed = msgspec.structs.replace(
        location, materialize=msgspec.structs.replace(location.materialize, handler="acme.other")
    )
    assert host_action_input_digest(changed) != expected_input_digest()


def test_a_location_of_another_protocol_is_refused() -> None:
    with pytest.raises(AgentGraphError) as error:
        host_action_input_digest({"schema": "agent-graph.resource-location.file.v1", "id": "x"})
    assert error.value.code == "resource-location-invalid"


# ---------------------------------------------------------------- validation: accepted results


def test_a_valid_inline_result_is_accepted(location: HostActionLocation, provider: ag.Provider) -> None:
    checked = validate_host_action_result(location, inline_result(), provider=provider)
    assert isinstance(checked, HostActionResult)
    assert checked.output.inline == {"title": "Week 5", "items": []}
    assert json.loads(msgspec.json.encode(checked)) == inline_result()
    # A Struct is accepted as well as plain JSON data, and the location may be plain JSON.
    wire_location = json.loads(msgspec.json.encode(location))
    assert validate_host_action_result(wire_location, checked, provider=provider) == checked


def test_a_valid_resource_result_is_accepted(location: HostActionLocation, provider: ag.Provider) -> None:
    checked = validate_host_action_result(location, resource_result(), provider=provider)
    assert checked.output.resource is not None and checked.output.resource.ref == "blob://reports/w05"


def test_an_inline_null_counts_as_inline(location: HostActionLocation) -> None:
    result = inline_result(output={"schema": OUTPUT_SCHEMA, "inline": None})
    checked = validate_host_action_result(location, result, output_schema={"type": "null"})
    assert host_action_output_digest(checked) == ag.digest_value(None)


# ---------------------------------------------------------------- validation: one code per failure


@pytest.mark.parametrize(
    "broken",
    [
        "not an object",
        {k: v for k, v in inline_result().items() if k != "receipt"},
        inline_result(schema="agent-graph.host-action-result.v2"),
        inline_result(extra=True),
        inline_result(input_digest="sha256:short"),
        inline_result(handler=""),
        inline_result(output={"schema": "Not An Identity", "inline": {}}),
        inline_result(output={"schema": OUTPUT_SCHEMA, "inline": {}, "note": 1}),
        inline_result(receipt={"adapter": "acme-host"}),
        {**resource_result(), "output": {"schema": OUTPUT_SCHEMA, "resource": {"ref": "x"}}},
    ],
)
def test_malformed_envelope(location: HostActionLocation, broken: Any) -> None:
    expect("host-action-result-invalid", location, broken)


def test_wrong_handler(location: HostActionLocation) -> None:
    error = expect("host-action-handler-mismatch", location, inline_result(handler="acme.other"))
    assert HANDLER in error.message


def test_wrong_input_digest(location: HostActionLocation) -> None:
    other = ag.digest_value(
        {"handler": HANDLER, "input": {"schema": INPUT_SCHEMA, "value": {"week": "2026-W06"}}}
    )
    expect("host-action-input-digest-mismatch", location, inline_result(input_digest=other))


def test_wrong_output_schema_identity(location: HostActionLocation) -> None:
    expect(
        "host-action-output-schema-mismatch",
        location,
        inline_result(output={"schema": "acme.report/v2", "inline": {"title": "x"}}),
    )


@pytest.mark.parametrize(
    "output",
    [
        {"schema": OUTPUT_SCHEMA},
        {
            "schema": OUTPUT_SCHEMA,
            "inline": {"title": "x"},
            "resource": {"ref": "r", "digest": "sha256:" + "a" * 64},
        },
    ],
)
def test_both_or_neither_of_inline_and_resource(location: HostActionLocation, output: Any) -> None:
    expect("host-action-output-exactly-one", location, inline_result(output=output))


def test_inline_value_invalid_against_the_output_schema(
    location: HostActionLocation, provider: ag.Provider
) -> None:
    bad = inline_result(output={"schema": OUTPUT_SCHEMA, "inline": {"items": "not a list"}})
    error = expect("host-action-output-inline-invalid", location, bad, provider=provider)
    assert error.diagnostics  # one per violation
    document = FILES["schemas/report.schema.json"]
    expect("host-action-output-inline-invalid", location, bad, output_schema=document)
    # Without a schema to check against, only the envelope is checked.
    assert validate_host_action_result(location, bad).output.inline == {"items": "not a list"}


def test_checks_run_in_the_documented_order(location: HostActionLocation) -> None:
    wrong_everything = inline_result(
        handler="acme.other",
        input_digest="sha256:" + "0" * 64,
        output={"schema": "acme.other/v1"},
    )
    expect("host-action-handler-mismatch", location, wrong_everything)
    wrong_everything["handler"] = HANDLER
    expect("host-action-input-digest-mismatch", location, wrong_everything)
    wrong_everything["input_digest"] = expected_input_digest()
    expect("host-action-output-schema-mismatch", location, wrong_everything)
    wrong_everything["output"]["schema"] = OUTPUT_SCHEMA
    expect("host-action-output-exactly-one", location, wrong_everything)


# ---------------------------------------------------------------- read receipts


def test_read_receipt_of_an_inline_result(location: HostActionLocation, provider: ag.Provider) -> None:
    receipt = host_action_read_receipt(location, inline_result(), provider=provider)
    assert receipt == ReadReceipt(
        id="report.weekly",
        digest=ag.digest_value({"title": "Week 5", "items": []}),
        revision=location.revision,
    )


def test_read_receipt_of_a_stored_resource(location: HostActionLocation) -> None:
    receipt = host_action_read_receipt(location, resource_result())
    assert json.loads(msgspec.json.encode(receipt)) == {
        "id": "report.weekly",
        "digest": "sha256:" + "c" * 64,
        "revision": location.revision,
    }


def test_read_receipt_validates_first_and_needs_the_route_revision(
    location: HostActionLocation, provider: ag.Provider
) -> None:
    with pytest.raises(AgentGraphError) as error:
        host_action_read_receipt(location, inline_result(handler="acme.other"))
    assert error.value.code == "host-action-handler-mismatch"
    unrouted = ag.locate_resource(provider, "report.weekly")
    assert isinstance(unrouted, HostActionLocation) and unrouted.revision == ""
    with pytest.raises(AgentGraphError) as error:
        host_action_read_receipt(unrouted, inline_result())
    assert error.value.code == "revision-invalid"


def test_a_host_action_receipt_makes_the_resource_current_on_the_same_revision(
    location: HostActionLocation, provider: ag.Provider, tmp_path: Path
) -> None:
    receipt = host_action_read_receipt(location, inline_result(), provider=provider)
    receipts = {"schema": "agent-graph.resource-read-receipts.v1", "provider": "tests/host-action",
                "receipts": [json.loads(msgspec.json.encode(receipt))]}  # fmt: skip
    again = ag.route(provider, "main", workspace=str(tmp_path), receipts=receipts)
    assert again.resources.required[0].read_state == "current"
    moved = ag.route(provider, "main", workspace=str(tmp_path), facts={"new": 1}, receipts=receipts)
    assert moved.revision != location.revision
    assert moved.resources.required[0].read_state == "read-required"
