"""Tests of the shipped JSON Schemas, the generated validators and the schema validation API."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from agent_graph._core.errors import AgentGraphError
from agent_graph._syntax import schema as _schema
from agent_graph._syntax.schema import (
    SCHEMA_NAMES,
    collect_violations,
    ecma_regex,
    schema_document,
    schema_path,
    validate,
    validate_with_schema,
)
from agent_graph._syntax.violations import SchemaViolation
from agent_graph._toolchain import schemagen as _schemagen
from tests.conftest import VECTORS
from tests.paths import REPO

D0 = "sha256:" + "0" * 64
D1 = "sha256:" + "ab" * 32
STAMP = "2026-03-01T12:30:45.123Z"

STATIC_LOCATION = {
    "schema": "agent-graph.resource-location.file.v1",
    "id": "skill.worker",
    "kind": "skill",
    "mediaType": "text/markdown",
    "digest": D0,
    "filePath": "/srv/provider/skills/worker/SKILL.md",
    "readState": "read-required",
}
FILE_LOCATION = {
    "schema": "agent-graph.resource-location.file.v1",
    "id": "schema.report",
    "kind": "schema",
    "mediaType": "application/schema+json",
    "digest": D1,
    "filePath": "/srv/provider/resources/report.schema.json",
    "readState": "current",
}
GRAPH_ACTION_LOCATION = {
    "schema": "agent-graph.resource-location.graph-action.v1",
    "id": "view.status",
    "kind": "context-view",
    "mediaType": "application/json",
    "revision": D0,
    "materialize": {"resourceId": "view.status"},
    "readState": "read-required",
}
HOST_ACTION_LOCATION = {
    "schema": "agent-graph.resource-location.host-action.v1",
    "id": "report.context",
    "kind": "context-view",
    "mediaType": "application/json",
    "revision": D1,
    "materialize": {
        "handler": "host.report-context",
        "input": {"schema": "acme.report-request/v1", "value": {"week": 12, "teams": ["a", "b"]}},
        "output_schema": "acme.report-context/v2",
    },
    "readState": "current",
}
ROUTE_ACTION = {
    "id": "agent",
    "runner": "agent",
    "effect": "write",
    "skill": STATIC_LOCATION,
    "inputSchema": FILE_LOCATION,
}

EXAMPLES: dict[str, Any] = {
    "provider": {
        "schema": "agent-graph.provider.v1",
        "id": "company/release",
        "version": "0.1.0-rc.1",
        "name": "Release",
        "description": "Release work",
        "graphs": ["graphs/release.yaml", "graphs/child.json"],
        "catalogs": {"codes": "codes.yaml"},
        "compatibility": {"agentGraph": "^0.3.0", "node": ">=20"},
    },
    "graph": {
        "schema": "agent-graph.graph.v1",
        "id": "release",
        "description": "Ship a release",
        "entrypoints": {"default": "build", "review": "approve"},
        "nodes": [
            {
                "id": "build",
                "kind": "action",
                "reasonCode": "route.release.build",
                "action": "actions/build.yaml",
                "priority": 5,
                "join": "all",
                "requiresFacts": [{"path": "sources.ready", "equals": True}],
                "satisfiedBy": [{"path": "artifact.digest", "exists": True}],
                "resources": {"required": ["resources/build.md"], "recommended": []},
            },
            {
                "id": "approve",
                "kind": "gate",
                "reasonCode": "route.release.approve",
                "gate": {"id": "approval", "prompt": "Publish?", "authority": "release", "delegatable": True},
                "inspectionAction": "actions/inspect.yaml",
                "resolutionAction": "actions/apply.yaml",
                "delegated": {
                    "inspection": "skip",
                    "resolutionAction": "actions/accept.yaml",
                    "resources": {"required": [], "recommended": ["resources/policy.md"]},
                },
            },
            {"id": "child", "kind": "subgraph", "graph": "child", "entry": "default", "join": "any"},
            {"id": "done", "kind": "terminal", "terminalOutcome": "completed", "description": "Done"},
        ],
        "edges": [
            {"from": "build", "to": "approve"},
            {"from": "approve", "to": "child", "kind": "gatedBy"},
            {"from": "child", "to": "done", "outcomes": ["completed", "skipped"]},
            {"from": "build", "to": "build", "kind": "repeat", "outcomes": ["partial"]},
        ],
    },
    "action": {
        "schema": "agent-graph.action.v1",
        "id": "check",
        "description": "Run the checks",
        "runner": "script",
        "effect": "read",
        "entry": "scripts/check.py",
        "runtime": "python",
        "args": ["--strict"],
        "files": ["scripts/lib.py"],
        "cwd": "provider",
        "inputSchema": "schemas/in.schema.json",
        "outputSchema": "schemas/out.schema.json",
    },
    "code-catalog": {
        "schema": "agent-graph.code-catalog.v1",
        "codes": [
            {
                "code": "route.release.build",
                "kind": "route-reason",
                "summary": "Build it",
                "document": "docs/build.md",
            },
            {"code": "release.stale", "kind": "diagnostic", "summary": "Stale", "severity": "info"},
        ],
    },
    "code-location": {
        "schema": "agent-graph.code-location.v1",
        "provider": "company/release",
        "code": "route.release.build",
        "kind": "route-reason",
        "summary": "Build it",
        "document": {**STATIC_LOCATION, "id": "docs.build", "kind": "procedure"},
    },
    "error": {
        "schema": "agent-graph.error.v1",
        "state": "error",
        "error": {
            "code": "schema-invalid",
            "message": "x does not match graph.schema.json",
            "diagnostics": [
                {
                    "code": "schema.required",
                    "severity": "error",
                    "message": "/ must have required property 'id'",
                    "path": "/x",
                    "documentRef": "graphs/x.yaml",
                    "detail": {"schemaPath": "#/required"},
                },
            ],
        },
    },
    "evaluation": {
        "schema": "agent-graph.evaluation.v1",
        "provider": "company/release",
        "graph": "release",
        "entry": "default",
        "revision": D0,
        "statusCode": "actionable",
        "primaryRoute": {
            "routeId": "route:0123456789abcdef0123",
            "graph": "release",
            "node": "build",
            "statusCode": "actionable",
            "reasonCode": "route.release.build",
            "hint": "Build it",
            "availability": "immediate",
            "label": "build",
        },
        "alternativeRoutes": [],
        "diagnostics": [
            {
                "code": "route-alternatives-truncated",
                "severity": "info",
                "message": "more",
                "detail": {"available": 5, "returned": 3},
            }
        ],
    },
    "host-action-result": {
        "schema": "agent-graph.host-action-result.v1",
        "handler": "host.report-context",
        "input_digest": D1,
        "output": {"schema": "acme.report-context/v2", "inline": {"rows": [1, 2, 3]}},
        "receipt": {"adapter": "acme-host", "adapter_version": "1.2.0"},
    },
    "inspect": {
        "schema": "agent-graph.inspect.v1",
        "provider": {"id": "company/release", "version": "0.1.0", "manifest": "/srv/provider/provider.yaml"},
        "counts": {"graphs": 1, "nodes": 2, "edges": 1, "actions": 1, "resources": 1, "codes": 1},
        "graphs": [
            {
                "id": "release",
                "description": "Ship",
                "path": "graphs/release.yaml",
                "entrypoints": {"default": "build"},
                "nodes": [
                    {
                        "id": "build",
                        "kind": "action",
                        "description": "Build",
                        "reasonCode": "route.release.build",
                        "priority": 0,
                    },
                    {"id": "done", "kind": "terminal", "priority": 0},
                ],
                "dependencies": [],
            }
        ],
        "actions": [{"id": "build", "runner": "command", "effect": "write", "path": "actions/build.yaml"}],
        "resources": [
            {"id": "view.status", "kind": "context-view", "dynamic": True, "path": "resources/v.yaml"}
        ],
        "codes": [{"code": "route.release.build", "kind": "route-reason", "summary": "Build it"}],
    },
    "resource-file": {
        "schema": "agent-graph.resource.file.v1",
        "id": "schema.report",
        "kind": "schema",
        "mediaType": "application/schema+json",
        "path": "resources/report.schema.json",
        "description": "Report shape",
    },
    "resource": {
        "schema": "agent-graph.resource.graph-action.v1",
        "id": "view.status",
        "kind": "context-view",
        "mediaType": "application/json",
        "materializer": "actions/read-status.yaml",
    },
    "resource-graph-action": {
        "schema": "agent-graph.resource.graph-action.v1",
        "id": "view.status",
        "kind": "context-view",
        "mediaType": "application/json",
        "materializer": "actions/read-status.yaml",
        "description": "Current status",
    },
    "resource-host-action": {
        "schema": "agent-graph.resource.host-action.v1",
        "id": "report.context",
        "kind": "template",
        "mediaType": "application/json",
        "materializer": "actions/report-context.yaml",
        "input": {"schema": "acme.report-request/v1", "value": None},
        "description": "Host context",
    },
    "resource-location": HOST_ACTION_LOCATION,
    "resource-location-file": FILE_LOCATION,
    "resource-location-graph-action": GRAPH_ACTION_LOCATION,
    "resource-location-host-action": HOST_ACTION_LOCATION,
    "resource-read-receipts": {
        "schema": "agent-graph.resource-read-receipts.v1",
        "provider": "company/release",
        "receipts": [
            {"id": "skill.worker", "digest": D0},
            {"id": "report.context", "digest": D1, "revision": D0},
        ],
    },
    "route": {
        "schema": "agent-graph.route.v1",
        "provider": "company/release",
        "revision": D0,
        "routeId": "route:0123456789abcdef0123",
        "graph": "release",
        "node": "approve",
        "statusCode": "actionable",
        "reasonCode": "route.release.approve",
        "hint": "Approve it",
        "availability": "immediate",
        "callPath": ["main/child"],
        "action": ROUTE_ACTION,
        "commandPlan": [
            {"command": "make build", "effect": "write", "cwd": "workspace", "workingDirectory": "/work"},
            {
                "handler": "host.publish",
                "effect": "external",
                "cwd": "provider",
                "workingDirectory": "/srv/p",
            },
        ],
        "resources": {
            "required": [STATIC_LOCATION, FILE_LOCATION, GRAPH_ACTION_LOCATION, HOST_ACTION_LOCATION],
            "recommended": [],
        },
        "gate": {
            "id": "approval",
            "prompt": "Publish?",
            "authority": "release",
            "delegatable": True,
            "resolution": "session-authority",
            "inspectionAction": {
                "action": {"id": "inspect", "runner": "host", "effect": "read"},
                "commandPlan": [],
            },
            "resolutionAction": {"action": ROUTE_ACTION, "commandPlan": []},
        },
        "diagnostics": [],
        "afterAction": {"evaluate": True, "recordNode": "main/child>release/approve"},
    },
    "run": {
        "schema": "agent-graph.run.v1",
        "id": "6f1c2b7e-0000-4000-8000-000000000000",
        "provider": "company/release",
        "graph": "release",
        "entry": "default",
        "workspace": "/work",
        "createdAt": STAMP,
        "updatedAt": STAMP,
        "facts": {"artifact": {"digest": "x"}},
        "outcomes": {"release/build": {"outcome": "partial", "recordedAt": STAMP, "detail": {"n": 1}}},
        "authorities": ["release"],
        "events": [
            {"sequence": 1, "at": STAMP, "type": "run.started"},
            {
                "sequence": 2,
                "at": STAMP,
                "type": "node.outcome-recorded",
                "node": "release/build",
                "outcome": "partial",
                "detail": None,
            },
        ],
    },
    "skill-binding": {
        "schema": "agent-graph.skill-binding.v1",
        "skillPath": "/skills/release/SKILL.md",
        "locator": "path:../provider.yaml",
        "graph": "release",
        "entry": "default",
        "manifestPath": "/provider.yaml",
        "provider": "company/release",
    },
    "test-case": {
        "schema": "agent-graph.test.v1",
        "name": "initial",
        "graph": "release",
        "entry": "default",
        "state": {
            "facts": {},
            "outcomes": {
                "release/build": "completed",
                "release/approve": {"outcome": "partial", "recordedAt": "2026-01-01T00:00:00+02:00"},
            },
            "authorities": ["release"],
        },
        "expect": {
            "statusCode": "actionable",
            "primaryNode": "approve",
            "requiredResources": ["skill.worker"],
            "gateResolution": "session-authority",
            "outcome": "completed",
            "diagnosticsInclude": ["no-route"],
        },
    },
    "verify": {
        "schema": "agent-graph.verify.v1",
        "graph": "release",
        "entry": "default",
        "properties": [
            {"name": "every release can end", "alwaysReachable": {"statusCode": "complete"}},
            {"name": "never an error", "never": {"statusCode": ["error", "blocked"]}},
            {"name": "tagging is offered", "reachable": {"offers": "release/tag", "primaryNode": ["tag"]}},
            {"name": "ends well", "always": {"outcome": ["completed", "failed"], "terminal": "released"}},
        ],
    },
    "bundle": {
        "schema": "agent-graph.bundle.v1",
        "provider": {"id": "company/release", "version": "0.1.0"},
        "providerManifest": "provider.yaml",
        "graphs": [{"id": "release", "path": "graphs/release.yaml", "digest": D0}],
        "actions": [{"id": "build", "path": "actions/build.yaml", "digest": D1}],
        "resources": [],
        "schemas": [{"id": "schema.report", "path": "resources/report.schema.json", "digest": D0}],
        "files": [{"path": "provider.yaml", "digest": D0}],
        "graphDependencies": {"release": ["child"], "child": []},
        "digest": D1,
    },
}

# JSON Pointers of objects whose keys are data, not field names (adding a key may stay valid).
FREE_FORM = {
    "graph": {"/entrypoints"},
    "run": {"/facts", "/facts/artifact", "/outcomes", "/outcomes/release~1build/detail"},
    "route": {"/resources/required/3/materialize/input/value"},
    "error": {"/error/diagnostics/0/detail"},
    "evaluation": {"/diagnostics/0/detail"},
    "host-action-result": {"/output/inline"},
    "inspect": {"/graphs/0/entrypoints"},
    "test-case": {"/state/facts", "/state/outcomes"},
    "resource-location": {"/materialize/input/value"},
    "resource-location-host-action": {"/materialize/input/value"},
    "bundle": {"/graphDependencies"},
}


def _ok(name: str, value: object) -> None:
    validate(name, value, f"{name}.json")


def _diagnostics(name: str, value: object) -> list[tuple[str, str]]:
    with pytest.raises(AgentGraphError) as caught:
        validate(name, value, f"/data/{name}.json")
    error = caught.value
    assert error.code == "schema-invalid"
    assert error.message == f"/data/{name}.json does not match {name}.schema.json"
    assert error.diagnostics, "a schema-invalid error carries at least one diagnostic"
    return [(d.code, d.detail["pointer"] or "/") for d in error.diagnostics]


def _objects(value: object) -> list[tuple[str, dict[str, Any]]]:
    """Every object inside a JSON value, with its JSON Pointer."""
    found: list[tuple[str, dict[str, Any]]] = []
    stack: list[tuple[str, object]] = [("", value)]
    while stack:
        pointer, item = stack.pop()
        if isinstance(item, dict):
            found.append((pointer, item))
            for key, child in item.items():
                stack.append((f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}", child))
        elif isinstance(item, list):
            for index, child in enumerate(item):
                stack.append((f"{pointer}/{index}", child))
    return found


def _at(value: Any, pointer: str) -> Any:
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        value = value[int(token)] if isinstance(value, list) else value[token]
    return value


def _copy(value: Any) -> Any:
    """A deep copy that does not keep shared sub-objects shared (the examples reuse some)."""
    return json.loads(json.dumps(value))


def _set(value: Any, pointer: str, new: object) -> Any:
    out = _copy(value)
    parent_pointer, _, last = pointer.rpartition("/")
    parent = _at(out, parent_pointer)
    key = last.replace("~1", "/").replace("~0", "~")
    if isinstance(parent, list):
        parent[int(key)] = new
    else:
        parent[key] = new
    return out


def _load(path: Path) -> object:
    if path.suffix.lower() == ".json":
        return json.loads(path.read_text(encoding="utf-8"))
    try:
        from agent_graph._syntax.parse import parse_structured
    except ImportError:  # the reader is optional for these tests
        from ruamel.yaml import YAML

        return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    return parse_structured(path.read_bytes(), str(path))


# --------------------------------------------------------------------------- generated module


def _same_generator() -> bool:
    import fastjsonschema

    text = (REPO / "agent_graph" / "_syntax" / "validators.py").read_text(encoding="utf-8")
    return f"GENERATED_WITH = 'fastjsonschema {fastjsonschema.VERSION}'" in text


@pytest.fixture(scope="module")
def generated() -> str:
    if not _same_generator():
        pytest.skip("the checked-in validators come from another fastjsonschema release")
    return _schemagen.generate_module()


@pytest.mark.slow
def test_schemagen_check_passes() -> None:
    ok, message = _schemagen.check()
    assert ok, message


@pytest.mark.slow
def test_generated_validators_match_the_schema_files(generated: str) -> None:
    assert (REPO / "agent_graph" / "_syntax" / "validators.py").read_text(encoding="utf-8") == generated


@pytest.mark.slow
def test_schemagen_check_and_write(
    generated: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(_schemagen, "generate_module", lambda: generated)
    assert _schemagen.main(["--check"]) == 0  # the checked-in module

    target = tmp_path / "_validators.py"
    monkeypatch.setattr(_schemagen, "_target", lambda: target)
    assert _schemagen.main(["--check"]) == 1  # missing
    target.write_text(generated.replace("def validate_graph(", "def validate_graph_(", 1), encoding="utf-8")
    assert _schemagen.main(["--check"]) == 1  # edited
    assert "stale" in capsys.readouterr().err
    assert _schemagen.main([]) == 0
    assert target.read_text(encoding="utf-8") == generated
    assert _schemagen.main(["--check"]) == 0

    # made by another fastjsonschema release: only the schema digest can be compared
    other = generated.replace(
        "GENERATED_WITH = 'fastjsonschema ", "GENERATED_WITH = 'fastjsonschema 0.0.0+", 1
    )
    target.write_text(other.replace("def validate_graph(", "def validate_graph_(", 1), encoding="utf-8")
    assert _schemagen.main(["--check"]) == 0
    target.write_text(
        other.replace("SCHEMAS_DIGEST = 'sha256:", "SCHEMAS_DIGEST = 'sha256:0", 1), encoding="utf-8"
    )
    assert _schemagen.main(["--check"]) == 1


def test_generated_module_lists_one_validator_per_schema() -> None:
    from agent_graph._syntax import validators as _validators

    assert sorted(_validators.VALIDATORS) == sorted(SCHEMA_NAMES)
    for name, function in _validators.VALIDATORS.items():
        assert function.__name__ == "validate_" + name.replace("-", "_")
    assert "import fastjsonschema" not in (REPO / "agent_graph" / "_syntax" / "validators.py").read_text(
        encoding="utf-8"
    )


def test_generated_patterns_end_at_the_very_end() -> None:
    from agent_graph._syntax import validators as _validators

    for pattern, compiled in _validators.REGEX_PATTERNS.items():
        assert compiled.pattern == ecma_regex(pattern)
        if pattern.endswith("$"):
            assert "$" not in compiled.pattern


# --------------------------------------------------------------------------- schema files


def test_schema_names_are_sorted_and_match_the_folder() -> None:
    assert list(SCHEMA_NAMES) == sorted(SCHEMA_NAMES)
    on_disk = sorted(p.name[: -len(".schema.json")] for p in (REPO / "schemas").glob("*.schema.json"))
    assert on_disk == list(SCHEMA_NAMES)
    for name in SCHEMA_NAMES:
        assert schema_path(name).is_file()
        assert schema_path(name).name == f"{name}.schema.json"


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_schema_file_is_our_own_draft_07(name: str) -> None:
    document = json.loads(schema_path(name).read_text(encoding="utf-8"))
    assert document["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert document["$id"] == f"https://agent-graph.dev/schemas/0.3.1/{name}.schema.json"
    assert document["title"] and document["description"]
    for pointer, node in _objects(document):
        assert "$defs" not in node, pointer
        assert "format" not in node or not isinstance(node["format"], str), pointer
        if "$ref" in node and not pointer.endswith("/properties"):
            assert set(node) == {"$ref"}, f"{pointer}: keywords beside $ref are ignored in draft-07"
            assert node["$ref"].startswith("#/definitions/"), pointer
        if node.get("type") == "object" and "properties" in node and "oneOf" not in node:
            # (a oneOf dispatcher leaves unknown fields to its envelopes, each closed)
            assert node.get("additionalProperties") is False, f"{name}{pointer} must refuse unknown fields"


LOCATION_SCHEMAS = {
    "fileLocation": "resource-location-file",
    "graphActionLocation": "resource-location-graph-action",
    "hostActionLocation": "resource-location-host-action",
}


def test_embedded_location_definitions_match_the_location_schemas() -> None:
    route = schema_document("route")["definitions"]
    code = schema_document("code-location")["definitions"]
    assert route["resourceLocation"]["oneOf"] == [
        {"$ref": f"#/definitions/{name}"} for name in LOCATION_SCHEMAS
    ]
    assert "staticLocation" not in route and "staticLocation" not in code
    for definition, name in LOCATION_SCHEMAS.items():
        document = schema_document(name)
        body = {
            k: v
            for k, v in document.items()
            if k not in ("$schema", "$id", "title", "description", "definitions")
        }
        assert {k: v for k, v in route[definition].items() if k != "description"} == body, name
        assert route[definition]["description"] == document["description"], name
        for helper, value in document["definitions"].items():
            assert route[helper] == value, (name, helper)
    assert code["fileLocation"] == route["fileLocation"]


def test_no_schema_admits_the_0_2_location_identity() -> None:
    legacy = {**FILE_LOCATION, "schema": "agent-graph.resource-location.v1"}
    assert _diagnostics("resource-location-file", legacy)
    assert _diagnostics("route", _set(EXAMPLES["route"], "/resources/recommended", [legacy]))
    for name in SCHEMA_NAMES:
        assert "agent-graph.resource-location.v1" not in schema_path(name).read_text(encoding="utf-8"), name


def test_schema_document_returns_a_fresh_copy() -> None:
    first = schema_document("graph")
    first["properties"].clear()
    assert schema_document("graph")["properties"]


@pytest.mark.parametrize("call", [schema_path, schema_document, lambda n: validate(n, {}, "x")])
def test_unknown_schema_name(call: Any) -> None:
    with pytest.raises(AgentGraphError) as caught:
        call("resources")
    assert caught.value.code == "schema-type-unknown"
    assert caught.value.message == "Unknown schema type: resources"


UNIONS = {
    "resource-location": {
        "fileLocation": "resource-location-file",
        "graphActionLocation": "resource-location-graph-action",
        "hostActionLocation": "resource-location-host-action",
    },
    "resource": {
        "fileResource": "resource-file",
        "graphActionResource": "resource-graph-action",
        "hostActionResource": "resource-host-action",
    },
}


@pytest.mark.parametrize("name", sorted(UNIONS))
def test_the_reference_schema_names_are_the_union_of_the_protocol_schemas(name: str) -> None:
    union = schema_document(name)
    parts = UNIONS[name]
    assert union["oneOf"] == [{"$ref": f"#/definitions/{definition}"} for definition in parts]
    identities = []
    for definition, part in parts.items():
        document = schema_document(part)
        body = {k: v for k, v in document.items() if k not in ("$schema", "$id", "title", "definitions")}
        assert union["definitions"][definition] == body, part
        for helper, value in document.get("definitions", {}).items():
            assert union["definitions"][helper] == value, (part, helper)
        identities.append(document["properties"]["schema"]["const"])
    assert union["properties"]["schema"]["enum"] == identities


def test_resource_location_accepts_exactly_the_three_location_protocols() -> None:
    for location in (STATIC_LOCATION, FILE_LOCATION, GRAPH_ACTION_LOCATION, HOST_ACTION_LOCATION):
        _ok("resource-location", location)
    assert _diagnostics("resource-location", {**FILE_LOCATION, "schema": "agent-graph.resource-location.v1"})
    assert _diagnostics("resource-location", {**GRAPH_ACTION_LOCATION, "filePath": "/x"})
    assert _diagnostics("resource-location", {**FILE_LOCATION, "kind": "context-view"})
    assert _diagnostics("resource-location", EXAMPLES["resource-file"])


def test_resource_accepts_exactly_the_three_descriptor_protocols() -> None:
    for name in ("resource-file", "resource-graph-action", "resource-host-action"):
        _ok("resource", EXAMPLES[name])
    legacy = {**EXAMPLES["resource-file"], "schema": "agent-graph.resource.v1"}
    assert _diagnostics("resource", legacy)
    assert _diagnostics("resource", {**EXAMPLES["resource-graph-action"], "path": "x.json"})
    assert _diagnostics("resource", FILE_LOCATION)


# --------------------------------------------------------------------------- examples and rules


def test_every_schema_has_an_example() -> None:
    assert sorted(EXAMPLES) == sorted(SCHEMA_NAMES)


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_valid_example_is_accepted(name: str) -> None:
    _ok(name, EXAMPLES[name])


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_unknown_fields_are_rejected_in_every_object(name: str) -> None:
    example = EXAMPLES[name]
    skip = FREE_FORM.get(name, set())
    checked = 0
    for pointer, _node in _objects(example):
        if pointer in skip or any(pointer.startswith(s + "/") for s in skip):
            continue
        broken = (
            _set(example, pointer + "/unexpectedField", "x") if pointer else {**example, "unexpectedField": 1}
        )
        diagnostics = _diagnostics(name, broken)
        checked += 1
        # a location envelope (a oneOf of closed objects) reports its single oneOf failure
        assert any(code in ("schema.additionalProperties", "schema.oneOf") for code, _ in diagnostics), (
            pointer,
            diagnostics,
        )
    assert checked


def test_unknown_field_diagnostic_names_the_field() -> None:
    graph = _set(EXAMPLES["graph"], "/nodes/1/gate/delegateable", True)
    with pytest.raises(AgentGraphError) as caught:
        validate("graph", graph, "/p/graphs/release.yaml")
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == "schema.additionalProperties"
    assert diagnostic.severity == "error"
    assert (
        diagnostic.message
        == 'node approve, gate: unknown property "delegateable" (did you mean "delegatable"?)'
    )
    assert diagnostic.path == "/p/graphs/release.yaml"
    assert diagnostic.detail == {
        "schemaPath": "#/definitions/node/properties/gate/additionalProperties",
        "params": {"additionalProperty": "delegateable"},
        "pointer": "/nodes/1/gate",
    }


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_wrong_schema_identity_is_rejected(name: str) -> None:
    example = EXAMPLES[name]
    broken = {**example, "schema": example["schema"].replace(".v1", ".v2")}
    diagnostics = _diagnostics(name, broken)
    assert any(message == "/schema" for _, message in diagnostics)
    # a union of protocols (resource, resource-location) names the identities it accepts
    assert ("schema.enum" if name in UNIONS else "schema.const", "/schema") in diagnostics


ID_FIELDS = [
    ("provider", "/id"),
    ("graph", "/id"),
    ("graph", "/nodes/0/id"),
    ("graph", "/entrypoints/default"),
    ("graph", "/edges/0/from"),
    ("graph", "/nodes/1/gate/authority"),
    ("action", "/id"),
    ("code-catalog", "/codes/1/code"),
    ("resource-file", "/id"),
    ("resource-graph-action", "/id"),
    ("resource-host-action", "/id"),
    ("resource-read-receipts", "/provider"),
    ("resource-read-receipts", "/receipts/0/id"),
]


@pytest.mark.parametrize(("name", "pointer"), ID_FIELDS)
@pytest.mark.parametrize("bad", ["abc\n", "Upper", "-lead", "trail-", "a b", "x" * 161, ""])
def test_bad_identifiers_are_rejected(name: str, pointer: str, bad: str) -> None:
    diagnostics = _diagnostics(name, _set(EXAMPLES[name], pointer, bad))
    assert any(message == pointer for _, message in diagnostics), diagnostics


def test_identifier_length_limit_is_a_max_length_violation() -> None:
    assert ("schema.maxLength", "/id") in _diagnostics("graph", _set(EXAMPLES["graph"], "/id", "a" * 161))
    _ok("graph", _set(EXAMPLES["graph"], "/id", "a" * 160))


TRAILING_NEWLINE = [
    ("provider", "/version", "1.0.0"),
    ("graph", "/nodes/0/reasonCode", "route.release.build"),
    ("graph", "/nodes/0/satisfiedBy/0/path", "artifact.digest"),
    ("evaluation", "/revision", D0),
    ("evaluation", "/primaryRoute/routeId", "route:0123456789abcdef0123"),
    ("run", "/createdAt", STAMP),
    ("resource-host-action", "/input/schema", "acme.report-request/v1"),
    ("host-action-result", "/input_digest", D1),
    ("route", "/resources/required/3/materialize/output_schema", "acme.report-context/v2"),
    ("bundle", "/files/0/digest", D0),
]


@pytest.mark.parametrize(("name", "pointer", "good"), TRAILING_NEWLINE)
def test_anchored_patterns_refuse_a_trailing_newline(name: str, pointer: str, good: str) -> None:
    _ok(name, _set(EXAMPLES[name], pointer, good))
    if name == "route":
        assert _diagnostics(name, _set(EXAMPLES[name], pointer, good + "\n"))
    else:
        diagnostics = _diagnostics(name, _set(EXAMPLES[name], pointer, good + "\n"))
        assert any(code == "schema.pattern" and message == pointer for code, message in diagnostics)


RELATIVE_PATHS = [
    ("provider", "/graphs/0"),
    ("provider", "/catalogs/codes"),
    ("graph", "/nodes/0/action"),
    ("graph", "/nodes/0/resources/required/0"),
    ("graph", "/nodes/1/inspectionAction"),
    ("graph", "/nodes/1/resolutionAction"),
    ("graph", "/nodes/1/delegated/resolutionAction"),
    ("graph", "/nodes/1/delegated/resources/recommended/0"),
    ("action", "/entry"),
    ("action", "/files/0"),
    ("action", "/inputSchema"),
    ("action", "/outputSchema"),
    ("code-catalog", "/codes/0/document"),
    ("resource-file", "/path"),
    ("resource-graph-action", "/materializer"),
    ("resource-host-action", "/materializer"),
    ("bundle", "/providerManifest"),
    ("bundle", "/graphs/0/path"),
    ("bundle", "/files/0/path"),
]


@pytest.mark.parametrize(("name", "pointer"), RELATIVE_PATHS)
@pytest.mark.parametrize(
    "bad", ["/etc/passwd", "C:/x.yaml", "c:x", "..", "../x.yaml", "a/../b.yaml", "a/..", ""]
)
def test_relative_path_fields_refuse_absolute_and_parent_paths(name: str, pointer: str, bad: str) -> None:
    diagnostics = _diagnostics(name, _set(EXAMPLES[name], pointer, bad))
    assert any(message == pointer for _, message in diagnostics), diagnostics


@pytest.mark.parametrize("good", ["a..b/c.yaml", "..a/b", "a/..b", "a/b..", "./a.yaml", "dir/sub/x.md"])
def test_relative_path_allows_dots_that_are_not_parent_segments(good: str) -> None:
    _ok("action", _set(EXAMPLES["action"], "/entry", good))


def test_skill_action_paths_are_relative_too() -> None:
    action = {
        "schema": "agent-graph.action.v1",
        "id": "a",
        "runner": "agent",
        "effect": "write",
        "skill": "skills/w/SKILL.md",
    }
    _ok("action", action)
    assert _diagnostics("action", {**action, "skill": "/abs/SKILL.md"})


INTEGER_FIELDS = [
    ("graph", "/nodes/0/priority"),
    ("run", "/events/0/sequence"),
    ("inspect", "/counts/nodes"),
    ("inspect", "/graphs/0/nodes/0/priority"),
]


@pytest.mark.parametrize(("name", "pointer"), INTEGER_FIELDS)
@pytest.mark.parametrize("bad", [True, False, 1.5, "1", None])
def test_integers_refuse_booleans_fractions_and_strings(name: str, pointer: str, bad: object) -> None:
    diagnostics = _diagnostics(name, _set(EXAMPLES[name], pointer, bad))
    assert ("schema.type", f"{pointer}") in diagnostics


def test_integral_float_is_an_integer() -> None:
    _ok("graph", _set(EXAMPLES["graph"], "/nodes/0/priority", 3.0))


def test_priority_bounds() -> None:
    _ok("graph", _set(EXAMPLES["graph"], "/nodes/0/priority", -1000))
    assert _diagnostics("graph", _set(EXAMPLES["graph"], "/nodes/0/priority", 1001)) == [
        ("schema.maximum", "/nodes/0/priority")
    ]
    assert _diagnostics("graph", _set(EXAMPLES["graph"], "/nodes/0/priority", -1001)) == [
        ("schema.minimum", "/nodes/0/priority")
    ]


def test_booleans_are_not_numbers_in_constants() -> None:
    route = EXAMPLES["route"]
    assert _diagnostics("route", _set(route, "/afterAction/evaluate", 1)) == [
        ("schema.const", "/afterAction/evaluate")
    ]
    assert _diagnostics("route", _set(route, "/afterAction/evaluate", False))


def test_fact_check_values_are_scalars_and_exclusive() -> None:
    graph = EXAMPLES["graph"]
    for scalar in ("passed", 2.5, 0, False, None):
        _ok("graph", _set(graph, "/nodes/0/requiresFacts/0/equals", scalar))
    assert ("schema.type", "/nodes/0/requiresFacts/0/equals") in _diagnostics(
        "graph", _set(graph, "/nodes/0/requiresFacts/0/equals", [1])
    )
    both = _set(graph, "/nodes/0/requiresFacts/0", {"path": "a", "equals": 1, "exists": True})
    assert ("schema.not", "/nodes/0/requiresFacts/0/exists") in _diagnostics("graph", both)
    neither = _set(graph, "/nodes/0/requiresFacts/0", {"path": "a"})
    assert ("schema.required", "/nodes/0/requiresFacts/0") in _diagnostics("graph", neither)


def test_node_kind_fields_are_exclusive() -> None:
    graph = EXAMPLES["graph"]
    assert _diagnostics("graph", _set(graph, "/nodes/3/action", "actions/x.yaml")) == [
        ("schema.not", "/nodes/3/action"),
    ]
    no_reason = copy.deepcopy(graph)
    del no_reason["nodes"][0]["reasonCode"]
    assert ("schema.required", "/nodes/0") in _diagnostics("graph", no_reason)
    subgraph_resources = _set(graph, "/nodes/2/resources", {"required": []})
    assert ("schema.not", "/nodes/2/resources") in _diagnostics("graph", subgraph_resources)


def test_action_runner_fields_are_exclusive() -> None:
    command = {
        "schema": "agent-graph.action.v1",
        "id": "c",
        "runner": "command",
        "effect": "read",
        "command": "ls",
    }
    _ok("action", command)
    assert ("schema.not", "/handler") in _diagnostics("action", {**command, "handler": "h"})
    host = {
        "schema": "agent-graph.action.v1",
        "id": "h",
        "runner": "host",
        "effect": "read",
        "handler": "x.y",
    }
    _ok("action", host)
    assert ("schema.required", "/") in _diagnostics(
        "action", {k: v for k, v in host.items() if k != "handler"}
    )
    script = EXAMPLES["action"]
    assert ("schema.enum", "/runtime") in _diagnostics("action", {**script, "runtime": "ruby"})


def test_route_reason_codes_have_the_route_prefix_and_no_severity() -> None:
    catalog = EXAMPLES["code-catalog"]
    assert _diagnostics("code-catalog", _set(catalog, "/codes/0/code", "release.build")) == [
        ("schema.pattern", "/codes/0/code"),
    ]
    assert ("schema.not", "/codes/0") in _diagnostics(
        "code-catalog", _set(catalog, "/codes/0/severity", "info")
    )
    _ok("code-catalog", _set(catalog, "/codes/1/code", "anything.goes"))


def test_multiple_violations_give_one_diagnostic_each() -> None:
    graph = copy.deepcopy(EXAMPLES["graph"])
    graph["id"] = "Release"
    graph["nodes"][0]["priority"] = True
    graph["nodes"][2]["kind"] = "sub-graph"
    del graph["edges"][1]["to"]
    graph["edges"][2]["outcomes"] = ["completed", "completed"]
    graph["owner"] = "me"
    assert _diagnostics("graph", graph) == [
        ("schema.additionalProperties", "/"),
        ("schema.pattern", "/id"),
        ("schema.type", "/nodes/0/priority"),
        ("schema.enum", "/nodes/2/kind"),
        ("schema.required", "/edges/1"),
        ("schema.uniqueItems", "/edges/2/outcomes"),
    ]


def test_missing_required_fields_are_listed_one_by_one() -> None:
    assert _diagnostics("provider", {"schema": "agent-graph.provider.v1"}) == [
        ("schema.required", "/"),
        ("schema.required", "/"),
        ("schema.required", "/"),
    ]


def test_diagnostic_detail_carries_schema_path_and_params() -> None:
    with pytest.raises(AgentGraphError) as caught:
        validate("provider", {**EXAMPLES["provider"], "graphs": []}, "provider.yaml")
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.to_json() == {
        "code": "schema.minItems",
        "severity": "error",
        "message": "provider company/release: graphs has 0 items; expected at least 1",
        "path": "provider.yaml",
        "detail": {
            "schemaPath": "#/properties/graphs/minItems",
            "params": {"limit": 1},
            "pointer": "/graphs",
        },
    }


def test_non_object_document() -> None:
    assert _diagnostics("graph", ["not", "an", "object"]) == [("schema.type", "/")]


def test_validation_never_fills_in_defaults() -> None:
    graph = copy.deepcopy(EXAMPLES["graph"])
    before = copy.deepcopy(graph)
    _ok("graph", graph)
    assert graph == before
    assert "priority" not in graph["nodes"][1]


# --------------------------------------------------------------------------- resource protocols


@pytest.mark.parametrize(
    ("name", "location"),
    [
        ("resource-location-file", STATIC_LOCATION),
        ("resource-location-file", FILE_LOCATION),
        ("resource-location-graph-action", GRAPH_ACTION_LOCATION),
        ("resource-location-host-action", HOST_ACTION_LOCATION),
    ],
)
def test_each_location_envelope_is_accepted(name: str, location: dict[str, Any]) -> None:
    _ok(name, location)
    _ok("route", _set(EXAMPLES["route"], "/resources/recommended", [location]))
    _ok("route", _set(EXAMPLES["route"], "/action/outputSchema", location))


def test_location_envelope_problems_are_one_diagnostic() -> None:
    assert _diagnostics("resource-location-file", {**FILE_LOCATION, "materialize": {"resourceId": "x"}}) == [
        ("schema.additionalProperties", "/")
    ]
    assert _diagnostics("route", _set(EXAMPLES["route"], "/resources/required/1/extra", 1)) == [
        ("schema.oneOf", "/resources/required/1")
    ]


def test_location_envelope_rules() -> None:
    materialized = {**GRAPH_ACTION_LOCATION, "digest": D1, "filePath": "/cache/abc.json"}
    _ok("resource-location-graph-action", materialized)
    assert _diagnostics("resource-location-graph-action", {**GRAPH_ACTION_LOCATION, "digest": D1})
    assert _diagnostics("resource-location-file", {**STATIC_LOCATION, "kind": "context-view"})
    assert _diagnostics("resource-location-file", {k: v for k, v in FILE_LOCATION.items() if k != "digest"})
    assert _diagnostics("resource-location-file", GRAPH_ACTION_LOCATION)
    bad_output = copy.deepcopy(HOST_ACTION_LOCATION)
    bad_output["materialize"]["output_schema"] = "acme.report-context"
    assert _diagnostics("resource-location-host-action", bad_output)
    camel = copy.deepcopy(HOST_ACTION_LOCATION)
    camel["materialize"]["outputSchema"] = camel["materialize"].pop("output_schema")
    assert _diagnostics("resource-location-host-action", camel)
    for kind in ("procedure", "diagnostic", "template", "schema", "skill", "context-view"):
        _ok("resource-location-host-action", {**HOST_ACTION_LOCATION, "kind": kind})


def test_resource_descriptor_kinds() -> None:
    for kind in ("procedure", "diagnostic", "template", "schema", "skill"):
        _ok("resource-file", {**EXAMPLES["resource-file"], "kind": kind})
    assert _diagnostics("resource-file", {**EXAMPLES["resource-file"], "kind": "context-view"})
    assert _diagnostics(
        "resource-graph-action", {**EXAMPLES["resource-graph-action"], "kind": "procedure"}
    ) == [("schema.const", "/kind")]
    for kind in ("procedure", "diagnostic", "template", "schema", "skill", "context-view"):
        _ok("resource-host-action", {**EXAMPLES["resource-host-action"], "kind": kind})
    no_value = _set(EXAMPLES["resource-host-action"], "/input", {"schema": "acme.report-request/v1"})
    assert _diagnostics("resource-host-action", no_value) == [("schema.required", "/input")]


@pytest.mark.parametrize("identity", ["acme.report/v1", "a/b/c/v10", "x_y-z.1/v0"])
def test_versioned_protocol_identities(identity: str) -> None:
    _ok("resource-host-action", _set(EXAMPLES["resource-host-action"], "/input/schema", identity))


@pytest.mark.parametrize(
    "identity", ["acme.report", "acme/v", "Acme/v1", "/v1", "acme//v1", "acme/v1/", "acme/V1"]
)
def test_unversioned_protocol_identities_are_rejected(identity: str) -> None:
    assert _diagnostics(
        "resource-host-action", _set(EXAMPLES["resource-host-action"], "/input/schema", identity)
    )


def test_host_action_result_has_exactly_one_output() -> None:
    result = EXAMPLES["host-action-result"]
    stored = _set(
        result, "/output", {"schema": "acme.report-context/v2", "resource": {"ref": "blob:1", "digest": D0}}
    )
    _ok("host-action-result", stored)
    _ok("host-action-result", _set(result, "/output/inline", None))
    both = _set(stored, "/output/inline", 1)
    assert _diagnostics("host-action-result", both) == [("schema.oneOf", "/output")]
    neither = _set(result, "/output", {"schema": "acme.report-context/v2"})
    assert _diagnostics("host-action-result", neither) == [("schema.oneOf", "/output")]
    assert _diagnostics("host-action-result", _set(result, "/receipt", {"adapter": "a"})) == [
        ("schema.required", "/receipt")
    ]


def test_read_receipts_keep_digest_required() -> None:
    receipts = EXAMPLES["resource-read-receipts"]
    assert _diagnostics("resource-read-receipts", _set(receipts, "/receipts/0", {"id": "x"})) == [
        ("schema.required", "/receipts/0")
    ]


def test_run_timestamps_are_utc_with_milliseconds() -> None:
    run = EXAMPLES["run"]
    for bad in (
        "2026-03-01T12:30:45Z",
        "2026-03-01T12:30:45.123+00:00",
        "2026-13-01T12:30:45.123Z",
        "yesterday",
    ):
        assert ("schema.pattern", "/updatedAt") in _diagnostics("run", _set(run, "/updatedAt", bad))
    assert _diagnostics("run", _set(run, "/outcomes/release~1build/recordedAt", "2026-03-01"))
    assert _diagnostics("run", _set(run, "/authorities", ["a", "a"]))
    assert _diagnostics("run", _set(run, "/events/0/sequence", 0))


def test_inspect_shape() -> None:
    inspection = EXAMPLES["inspect"]
    assert _diagnostics("inspect", _set(inspection, "/counts/codes", -1)) == [
        ("schema.minimum", "/counts/codes")
    ]
    assert _diagnostics("inspect", _set(inspection, "/resources/0/dynamic", "yes")) == [
        ("schema.type", "/resources/0/dynamic")
    ]


# --------------------------------------------------------------------------- vectors


def _providers() -> list[Path]:
    return sorted((VECTORS / "providers").iterdir())


def test_vector_providers_and_graphs_validate() -> None:
    refused: dict[str, list[tuple[str, str]]] = {}
    checked = 0
    for root in _providers():
        manifest = root / "provider.json"
        validate("provider", _load(manifest), str(manifest))
        for graph in sorted((root / "graphs").iterdir()):
            checked += 1
            try:
                validate("graph", _load(graph), str(graph))
            except AgentGraphError as error:
                refused[f"{root.name}/graphs/{graph.name}"] = [
                    (d.code, d.detail["pointer"]) for d in error.diagnostics
                ]
        for action in sorted((root / "actions").iterdir()):
            validate("action", _load(action), str(action))
        codes = root / "codes.json"
        if codes.exists():
            validate("code-catalog", _load(codes), str(codes))
    assert checked > 100
    # the one vector whose expected load error is schema-invalid: a misspelled node field
    assert refused == {"seed-46/graphs/main.json": [("schema.additionalProperties", "/nodes/0")]}


def test_vector_routes_and_evaluations_validate() -> None:
    cases_file = VECTORS / "cases.json"
    count = 0
    # read the recorded 0.2 location identity as 0.3.1's file location (see the vectors' README)
    text = cases_file.read_text(encoding="utf-8").replace(
        '"agent-graph.resource-location.v1"', '"agent-graph.resource-location.file.v1"'
    )
    for case in json.loads(text):
        if "evaluation" in case:
            validate("evaluation", case["evaluation"], "evaluation")
            count += 1
        answer = case.get("route")
        if isinstance(answer, dict) and answer.get("schema") == "agent-graph.route.v1":
            validate("route", answer, "route")
            count += 1
    assert count > 300


# --------------------------------------------------------------------------- collector against the fast path


def _mutations(value: Any, rng: random.Random) -> Any:
    out = _copy(value)
    objects = _objects(out)
    _pointer, node = objects[rng.randrange(len(objects))]
    choice = rng.randrange(6)
    if choice == 0 and node:
        del node[rng.choice(sorted(node))]
    elif choice == 1:
        node[rng.choice(["zz", "id", "kind", "schema", "path"])] = rng.choice([1, "x", None, True, [], {}])
    elif node:
        key = rng.choice(sorted(node))
        node[key] = rng.choice(
            [
                True,
                0,
                1.5,
                -5,
                "",
                "x\n",
                "/abs",
                "../up",
                "Route.x",
                [],
                [1, 1],
                {},
                None,
                "route.ok",
                D0,
                STAMP,
            ]
        )
    return out


def test_collector_agrees_with_the_generated_validators() -> None:
    from agent_graph._syntax import validators as _validators

    rng = random.Random(20260301)
    disagreements = []
    for round_ in range(400):
        name = SCHEMA_NAMES[round_ % len(SCHEMA_NAMES)]
        value = _mutations(EXAMPLES[name], rng)
        try:
            _validators.VALIDATORS[name](value)
            fast_ok = True
        except _validators.JsonSchemaValueException:
            fast_ok = False
        collected = collect_violations(schema_document(name), value)
        if fast_ok != (not collected):
            disagreements.append((name, value, collected))
    assert not disagreements, disagreements[:3]


@pytest.mark.parametrize(
    ("bound", "value", "message"),
    [
        ({"maxLength": 2}, "abc", "must NOT have more than 2 characters"),
        ({"minLength": 4}, "abc", "must NOT have fewer than 4 characters"),
        ({"maxItems": 1}, [1, 2], "must NOT have more than 1 items"),
        ({"minItems": 3}, [1, 2], "must NOT have fewer than 3 items"),
        ({"maxProperties": 0}, {"a": 1}, "must NOT have more than 0 properties"),
        ({"minProperties": 2}, {"a": 1}, "must NOT have fewer than 2 properties"),
    ],
)
def test_collector_words_size_bounds_as_ajv_does(bound: dict[str, int], value: Any, message: str) -> None:
    [(keyword, limit)] = bound.items()
    assert collect_violations(bound, value) == [
        SchemaViolation(keyword, "", f"#/{keyword}", {"limit": limit}, message)
    ]
    within = limit + 1 if keyword.startswith("max") else limit - 1
    assert collect_violations({keyword: within}, value) == []


# --------------------------------------------------------------------------- depth


def _nested(depth: int) -> list[Any]:
    root: list[Any] = []
    cursor = root
    for _ in range(depth):
        child: list[Any] = []
        cursor.append(child)
        cursor = child
    return root


def test_deep_values_do_not_recurse() -> None:
    deep = _nested(20000)
    run = copy.deepcopy(EXAMPLES["run"])
    run["facts"] = {"tree": deep}
    run["events"][1]["detail"] = deep
    _ok("run", run)
    run["authorities"] = [deep, deep]
    assert _diagnostics("run", run) == [
        ("schema.type", "/authorities/0"),
        ("schema.type", "/authorities/1"),
        ("schema.uniqueItems", "/authorities"),
    ]


def test_collector_walks_deep_values_iteratively() -> None:
    deep = _nested(20000)
    violations = collect_violations({"items": {"$ref": "#"}, "minItems": 1}, deep)
    assert [v.instance_path for v in violations] == ["/0" * 20000]


# --------------------------------------------------------------------------- user schemas


def test_user_schema_accepts_and_rejects() -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "week": {"type": "integer", "minimum": 1},
            "team": {"type": "string", "pattern": "^[a-z]+$"},
        },
        "required": ["week"],
        "additionalProperties": False,
    }
    validate_with_schema(schema, {"week": 3, "team": "ops"}, "input", name="acme.report-request/v1")
    with pytest.raises(AgentGraphError) as caught:
        validate_with_schema(
            schema, {"week": True, "team": "ops\n", "x": 1}, "input", name="acme.report-request/v1"
        )
    assert caught.value.code == "schema-invalid"
    assert caught.value.message == "input does not match acme.report-request/v1"
    assert [(d.code, d.message) for d in caught.value.diagnostics] == [
        ("schema.additionalProperties", 'value: unknown property "x"; allowed: week, team'),
        ("schema.type", "value: week is boolean true; expected integer"),
        ("schema.pattern", 'value: team is "ops\\n", which does not match ^[a-z]+$'),
    ]


def test_user_schemas_are_compiled_once_per_content(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[object] = []
    real = _schema._compile_user_schema

    def counting(schema: Any, name: str) -> Any:
        compiled.append(schema)
        return real(schema, name)

    monkeypatch.setattr(_schema, "_compile_user_schema", counting)
    monkeypatch.setattr(_schema, "_user_validators", {})
    for _ in range(3):
        validate_with_schema({"type": "object", "required": ["a"], "title": "once"}, {"a": 1}, "v", name="s")
    validate_with_schema({"title": "once", "required": ["a"], "type": "object"}, {"a": 1}, "v", name="s")
    assert len(compiled) == 1
    validate_with_schema({"type": "object", "required": ["b"], "title": "once"}, {"b": 1}, "v", name="s")
    validate_with_schema({"const": 1}, 1, "v", name="s")
    with pytest.raises(AgentGraphError):
        validate_with_schema({"const": True}, 1, "v", name="s")
    assert len(compiled) == 4


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "nonsense"},
        {"$ref": "http://example.com/schema.json"},
        {"$ref": "other.json"},
        {"pattern": "("},
        ["not", "a", "schema"],
        {"minimum": float("nan")},
    ],
)
def test_broken_user_schemas(schema: Any) -> None:
    with pytest.raises(AgentGraphError) as caught:
        validate_with_schema(schema, 1, "input", name="in.schema.json")
    assert caught.value.code == "schema-document-invalid"
    assert "in.schema.json" in caught.value.message


def test_user_schema_failure_outside_the_collector_falls_back_to_one_diagnostic() -> None:
    schema = {"type": "string", "format": "date-time"}
    validate_with_schema(schema, "2026-03-01T12:00:00Z", "when", name="when/v1")
    with pytest.raises(AgentGraphError) as caught:
        validate_with_schema(schema, "soon", "when", name="when/v1")
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == "schema.format"
    assert diagnostic.message.startswith("/ ")
    assert diagnostic.path == "when"


def test_user_schema_with_deep_recursive_value() -> None:
    tree = {"items": {"$ref": "#"}, "type": "array"}
    validate_with_schema(tree, _nested(20000), "deep", name="tree/v1")
    deep = _nested(20000)
    cursor = deep
    for _ in range(19999):
        cursor = cursor[0]
    cursor.append("leaf")
    with pytest.raises(AgentGraphError) as caught:
        validate_with_schema(tree, deep, "deep", name="tree/v1")
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == "schema.type"
    assert diagnostic.detail["pointer"] == "/0" * 19999 + "/1"
    assert diagnostic.message.endswith('[0][0][1] is string "leaf"; expected array')
    assert len(diagnostic.message) < 300  # a deep pointer is cut in the message, kept whole in the detail


def test_user_schema_boolean_and_integer_semantics() -> None:
    validate_with_schema({"type": "integer"}, 4.0, "n", name="n")
    for bad in (True, 4.5, "4"):
        with pytest.raises(AgentGraphError):
            validate_with_schema({"type": "integer"}, bad, "n", name="n")
    with pytest.raises(AgentGraphError):
        validate_with_schema({"type": "number"}, False, "n", name="n")
    with pytest.raises(AgentGraphError):
        validate_with_schema({"enum": [1, 2]}, True, "n", name="n")
    validate_with_schema({"enum": [[1, {"a": True}]]}, [1.0, {"a": True}], "n", name="n")
    with pytest.raises(AgentGraphError):
        validate_with_schema({"uniqueItems": True}, [1, 1.0], "n", name="n")
    validate_with_schema({"uniqueItems": True}, [1, True, "1", [1], {"a": 1}], "n", name="n")


def test_user_schema_pattern_properties_follow_ecmascript() -> None:
    schema = {
        "type": "object",
        "patternProperties": {"^x$": {"type": "integer"}},
        "additionalProperties": False,
    }
    validate_with_schema(schema, {"x": 1}, "o", name="o")
    with pytest.raises(AgentGraphError) as caught:
        validate_with_schema(schema, {"x\n": 1}, "o", name="o")
    assert [d.code for d in caught.value.diagnostics] == ["schema.additionalProperties"]


# --------------------------------------------------------------------------- ECMAScript patterns


@pytest.mark.parametrize(
    ("pattern", "python"),
    [
        ("^a$", "^a\\Z"),
        ("^a\\$", "^a\\$"),
        ("^[$]x$", "^[$]x\\Z"),
        ("^[\\]$]$", "^[\\]$]\\Z"),
        ("a.b", "a[^\\n\\r\\u2028\\u2029]b"),
        ("[.]", "[.]"),
        ("\\d+", "[0-9]+"),
        ("[\\d_]", "[0-9_]"),
        ("\\W", "[^A-Za-z0-9_]"),
        ("[]", "(?!)"),
        ("[^]", "[\\s\\S]"),
        ("(?<year>\\d{4})-\\k<year>", "(?P<year>[0-9]{4})-(?P=year)"),
        ("(?<=a)b(?<!c)", "(?<=a)b(?<!c)"),
        ("[^a]$", "[^a]\\Z"),
    ],
)
def test_ecma_regex(pattern: str, python: str) -> None:
    assert ecma_regex(pattern) == python


def test_ecma_regex_semantics() -> None:
    import re

    assert re.search(ecma_regex("^[a-z]+$"), "abc")
    assert not re.search(ecma_regex("^[a-z]+$"), "abc\n")
    assert not re.search(ecma_regex("^\\d$"), "\u0663")  # ARABIC-INDIC DIGIT THREE is not an ECMAScript digit
    assert not re.search(ecma_regex("^a.c$"), "a\rc")


# --------------------------------------------------------------------------- laziness


def test_importing_the_module_reads_and_compiles_nothing() -> None:
    script = textwrap.dedent(
        f"""
        import builtins, io, json, sys, types
        package = types.ModuleType("agent_graph")
        package.__path__ = [{str(REPO / "agent_graph")!r}]
        sys.modules["agent_graph"] = package
        import agent_graph._core.errors
        opened = []
        real_open = builtins.open
        def spy(*args, **kwargs):
            opened.append(str(args[0] if args else kwargs.get("file")))
            return real_open(*args, **kwargs)
        builtins.open = spy
        io.open = spy
        before = set(sys.modules)
        import agent_graph._syntax.schema
        builtins.open = real_open
        io.open = real_open
        print(json.dumps({{"opened": opened, "new": sorted(set(sys.modules) - before)}}))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["opened"] == []
    assert "agent_graph._syntax.schema" in report["new"]
    for module in ("agent_graph._syntax.validators", "agent_graph._toolchain.schemagen", "fastjsonschema"):
        assert module not in report["new"]
