"""``migrate``: a 0.2 Provider rewritten in place to the 0.3 resource protocols."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import agent_graph as ag
from agent_graph._cli import main as _cli
from agent_graph._runtime.testing import run_graph_tests
from agent_graph._toolchain.migrate import migrate_provider

# A 0.2 Provider: agent-graph.resource.v1 descriptors for a static file (YAML, with comments),
# a context view (JSON), a delegated Gate resource and a Code Catalog document.
PROVIDER_02: dict[str, str] = {
    "provider.yaml": """\
schema: agent-graph.provider.v1
id: legacy/release
version: 0.4.0
graphs:
  - graphs/release.yaml
catalogs:
  codes: codes.yaml
compatibility:
  agentGraph: ^0.2.0   # written for 0.2
  node: ">=20"
""",
    "graphs/release.yaml": """\
schema: agent-graph.graph.v1
id: release
entrypoints: {default: draft}
nodes:
  - id: draft
    kind: action
    reasonCode: route.release.draft
    action: actions/draft.yaml
    resources:
      required: [resources/procedure.md, resources/notes-schema.yaml]
      recommended: [resources/status.json]
  - id: approve
    kind: gate
    reasonCode: route.release.approve
    gate: {id: approve, prompt: Ship it?, authority: release, delegatable: true}
    delegated:
      resources: {required: [resources/policy.yml]}
  - {id: done, kind: terminal, terminalOutcome: completed}
edges:
  - {from: draft, to: approve}
  - {from: approve, to: done, kind: gatedBy}
""",
    "actions/draft.yaml": "schema: agent-graph.action.v1\nid: draft\nrunner: command\neffect: write\ncommand: make draft\n",
    "actions/status.yaml": "schema: agent-graph.action.v1\nid: status\nrunner: command\neffect: read\ncommand: git status\n",
    "resources/procedure.md": "---\nid: procedure.draft\nkind: procedure\nmedia-type: text/markdown\n---\n# Draft\n",
    "resources/notes-schema.yaml": """\
# The release notes schema, as a typed resource.
schema: agent-graph.resource.v1   # 0.2 protocol
id: schema.notes
kind: schema
mediaType: application/schema+json
path: schemas/notes.schema.json
description: Shape of the release notes.
""",
    "schemas/notes.schema.json": '{"type": "object"}\n',
    "resources/status.json": json.dumps(
        {
            "schema": "agent-graph.resource.v1",
            "id": "view.status",
            "kind": "context-view",
            "mediaType": "text/plain",
            "materializer": "actions/status.yaml",
        },
        indent=2,
    )
    + "\n",
    "resources/policy.yml": (
        "schema: 'agent-graph.resource.v1'\nid: template.policy\nkind: template\nmediaType: text/plain\npath: resources/policy.txt\n"
    ),
    "resources/policy.txt": "Delegated releases need a changelog.\n",
    "resources/codes.yaml": (
        "schema: agent-graph.resource.v1\nid: guide.codes\nkind: diagnostic\nmediaType: text/plain\npath: resources/codes.txt\n"
    ),
    "resources/codes.txt": "What the codes mean.\n",
    "codes.yaml": """\
schema: agent-graph.code-catalog.v1
codes:
  - {code: route.release.draft, kind: route-reason, summary: Draft it., document: resources/codes.yaml}
  - {code: route.release.approve, kind: route-reason, summary: Approve it.}
""",
    "tests/01-draft.yaml": """\
schema: agent-graph.test.v1
name: drafting needs the procedure and the notes schema
graph: release
entry: default
expect:
  statusCode: actionable
  primaryNode: draft
  requiredResources: [procedure.draft, schema.notes]
  recommendedResources: [view.status]
""",
    "tests/02-delegated.yaml": """\
schema: agent-graph.test.v1
name: a delegated approval reads the policy
graph: release
entry: default
state:
  outcomes: {release/draft: completed}
  authorities: [release]
expect:
  statusCode: actionable
  primaryNode: approve
  gateResolution: session-authority
  requiredResources: [template.policy]
""",
}

MIGRATED = {
    "provider.yaml",
    "resources/notes-schema.yaml",
    "resources/status.json",
    "resources/policy.yml",
    "resources/codes.yaml",
}


@pytest.fixture
def legacy(tmp_path: Path) -> Path:
    root = tmp_path / "legacy"
    for relative, text in PROVIDER_02.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "provider.yaml"


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_02_descriptor_fails_to_load_naming_the_command(legacy: Path) -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.load_provider(str(legacy))
    assert raised.value.code == "resource-schema-legacy"
    assert "agent-graph migrate" in raised.value.message


def test_dry_run_reports_every_change_and_writes_nothing(legacy: Path) -> None:
    before = _snapshot(legacy.parent)
    report = migrate_provider(str(legacy), dry_run=True)
    assert _snapshot(legacy.parent) == before
    assert report.state == "planned" and report.dry_run
    assert {(c.path, c.field, c.before, c.after) for c in report.changes} == {
        ("provider.yaml", "compatibility.agentGraph", "^0.2.0", "^0.3.0"),
        ("resources/notes-schema.yaml", "schema", "agent-graph.resource.v1", "agent-graph.resource.file.v1"),
        (
            "resources/status.json",
            "schema",
            "agent-graph.resource.v1",
            "agent-graph.resource.graph-action.v1",
        ),
        ("resources/policy.yml", "schema", "agent-graph.resource.v1", "agent-graph.resource.file.v1"),
        ("resources/codes.yaml", "schema", "agent-graph.resource.v1", "agent-graph.resource.file.v1"),
    }
    assert set(report.files) == MIGRATED


def test_migrate_gives_a_provider_that_validates_and_passes_its_tests_unchanged(legacy: Path) -> None:
    tests_before = {k: v for k, v in _snapshot(legacy.parent).items() if k.startswith("tests/")}
    before = _snapshot(legacy.parent)
    report = migrate_provider(str(legacy))
    assert report.state == "migrated" and not report.dry_run
    after = _snapshot(legacy.parent)
    assert {k for k in before if before[k] != after[k]} == MIGRATED
    assert {k: v for k, v in after.items() if k.startswith("tests/")} == tests_before
    provider = ag.load_provider(str(legacy))
    results = run_graph_tests(provider, str(legacy.parent / "tests"))
    assert [(r.name, r.passed, r.failures) for r in results] == [
        ("drafting needs the procedure and the notes schema", True, ()),
        ("a delegated approval reads the policy", True, ()),
    ]
    status = next(r for r in provider.resources.values() if r.id == "view.status")
    assert status.dynamic and status.protocol == "agent-graph.resource.graph-action.v1"
    notes = next(r for r in provider.resources.values() if r.id == "schema.notes")
    assert notes.protocol == "agent-graph.resource.file.v1"
    assert notes.content_path == str(legacy.parent / "schemas" / "notes.schema.json")


def test_migrate_keeps_comments_and_layout(legacy: Path) -> None:
    migrate_provider(str(legacy))
    root = legacy.parent
    expected_notes = PROVIDER_02["resources/notes-schema.yaml"].replace(
        "schema: agent-graph.resource.v1   # 0.2 protocol",
        "schema: agent-graph.resource.file.v1   # 0.2 protocol",
    )
    assert (root / "resources" / "notes-schema.yaml").read_text() == expected_notes
    assert (
        (root / "resources" / "policy.yml").read_text().startswith("schema: 'agent-graph.resource.file.v1'\n")
    )
    assert (root / "resources" / "status.json").read_text() == PROVIDER_02["resources/status.json"].replace(
        "agent-graph.resource.v1", "agent-graph.resource.graph-action.v1"
    )
    assert legacy.read_text() == PROVIDER_02["provider.yaml"].replace("^0.2.0   #", "^0.3.0   #")


def test_migrate_twice_changes_nothing(legacy: Path) -> None:
    migrate_provider(str(legacy))
    after = _snapshot(legacy.parent)
    report = migrate_provider(str(legacy))
    assert (report.state, report.changes, report.files) == ("unchanged", (), ())
    assert _snapshot(legacy.parent) == after


def test_a_range_that_already_admits_03_is_kept(legacy: Path) -> None:
    legacy.write_text(legacy.read_text().replace("^0.2.0", '">=0.2.0"'))
    report = migrate_provider(str(legacy))
    assert "compatibility.agentGraph" not in [c.field for c in report.changes]
    assert '">=0.2.0"' in legacy.read_text()


def test_a_descriptor_that_cannot_be_migrated_stops_everything(legacy: Path) -> None:
    bad = legacy.parent / "resources" / "status.json"
    bad.write_text(
        bad.read_text().replace('"materializer": "actions/status.yaml"', '"path": "resources/policy.txt"')
    )
    before = _snapshot(legacy.parent)
    with pytest.raises(ag.AgentGraphError) as raised:
        migrate_provider(str(legacy))
    assert raised.value.code == "migration-descriptor-invalid"
    assert raised.value.diagnostics
    assert _snapshot(legacy.parent) == before


def test_a_missing_graph_stops_everything(legacy: Path) -> None:
    (legacy.parent / "graphs" / "release.yaml").unlink()
    before = _snapshot(legacy.parent)
    with pytest.raises(ag.AgentGraphError) as raised:
        migrate_provider(str(legacy))
    assert raised.value.code == "file-missing"
    assert _snapshot(legacy.parent) == before


def test_a_layout_the_edit_does_not_know_is_rewritten_whole(legacy: Path) -> None:
    odd = legacy.parent / "resources" / "notes-schema.yaml"
    odd.write_text(
        "{schema: agent-graph.resource.v1, id: schema.notes, kind: schema,\n mediaType: application/schema+json, path: schemas/notes.schema.json}\n"
    )
    migrate_provider(str(legacy))
    ag.load_provider(str(legacy))
    assert odd.read_text().startswith("schema: agent-graph.resource.file.v1\nid: schema.notes\n")


def test_cli_migrate(legacy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _snapshot(legacy.parent)
    assert _cli.main(["migrate", "--dry-run", "--manifest", str(legacy), "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["state"] == "planned" and answer["dryRun"] is True
    assert len(answer["changes"]) == 5
    assert set(answer["changes"][0]) == {"path", "field", "before", "after", "reason"}
    assert _snapshot(legacy.parent) == before
    assert _cli.main(["--manifest", str(legacy), "migrate"]) == 0
    out = capsys.readouterr().out
    assert (
        "Changed resources/status.json: schema agent-graph.resource.v1 → agent-graph.resource.graph-action.v1"
        in out
    )
    assert _cli.main(["--manifest", str(legacy), "validate"]) == 0
    capsys.readouterr()
    assert _cli.main(["--manifest", str(legacy), "test"]) == 0
    assert "2/2 graph test(s) passed" in capsys.readouterr().out
    assert _cli.main(["--manifest", str(legacy), "migrate"]) == 0
    assert capsys.readouterr().out.startswith("Nothing to migrate")
