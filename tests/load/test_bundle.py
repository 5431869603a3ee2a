"""Bundles: deterministic, relocatable builds, and every tamper detected on load (behaviour.md §10)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from agent_graph._cli import main as _cli
from agent_graph._core.canonical import collation_key, digest_bytes, digest_value
from agent_graph._syntax.parse import parse_yaml
from agent_graph._toolchain.bundle import build_bundle, manifest_json, plan_bundle
from tests.conftest import VECTORS, vector_json

# ---------------------------------------------------------------- a Provider using every kind of file

FULL_PROVIDER: dict[str, str] = {
    "provider.yaml": """\
# A Provider that reaches every kind of file a bundle carries.
schema: agent-graph.provider.v1
id: acme/full
version: 1.2.0
name: Full
graphs: [graphs/main.yaml, graphs/check.yaml]
catalogs:
  codes: codes.yaml
compatibility:
  agentGraph: ^0.3.0
""",
    "graphs/main.yaml": """\
schema: agent-graph.graph.v1
id: main
entrypoints: {default: write, review: review}
nodes:
  - id: write
    kind: action
    description: Write the draft
    reasonCode: route.main.write
    action: actions/write.yaml
    resources:
      required: [resources/procedure.md, resources/output-schema.yaml]
      recommended: [resources/status.yaml, resources/report.yaml]
  - id: check
    kind: subgraph
    graph: check
    entry: default
  - id: review
    kind: gate
    reasonCode: route.main.review
    gate: {id: review, prompt: Approve?, authority: release, delegatable: true}
    inspectionAction: actions/inspect.yaml
    resolutionAction: actions/apply.yaml
  - id: publish
    kind: action
    reasonCode: route.main.publish
    action: actions/publish.yaml
  - {id: done, kind: terminal, terminalOutcome: completed}
  - {id: failed, kind: terminal, terminalOutcome: failed}
edges:
  - {from: write, to: write, kind: repeat, outcomes: [partial]}
  - {from: write, to: check}
  - {from: check, to: failed, outcomes: [failed]}
  - {from: check, to: review}
  - {from: review, to: publish, kind: gatedBy}
  - {from: publish, to: done}
""",
    "graphs/check.yaml": """\
schema: agent-graph.graph.v1
id: check
entrypoints: {default: lint}
nodes:
  - {id: lint, kind: action, reasonCode: route.check.lint, action: actions/lint.yaml}
  - {id: ok, kind: terminal, terminalOutcome: completed}
  - {id: bad, kind: terminal, terminalOutcome: failed}
edges:
  - {from: lint, to: ok}
  - {from: lint, to: bad, outcomes: [failed]}
""",
    "actions/write.yaml": "schema: agent-graph.action.v1\nid: write\nrunner: agent\neffect: write\nskill: skills/writer/SKILL.md\n",
    "actions/lint.yaml": """\
schema: agent-graph.action.v1
id: lint
runner: script
effect: read
entry: scripts/lint.py
runtime: python
args: [--strict]
inputSchema: schemas/lint-input.schema.json
outputSchema: schemas/lint-output.schema.json
files: [scripts/lint-rules.txt]
""",
    "actions/inspect.yaml": "schema: agent-graph.action.v1\nid: inspect\nrunner: command\neffect: read\ncommand: git status\n",
    "actions/apply.yaml": "schema: agent-graph.action.v1\nid: apply\nrunner: host\neffect: write\nhandler: review.apply\n",
    "actions/publish.yaml": "schema: agent-graph.action.v1\nid: publish\nrunner: command\neffect: external\ncommand: make publish\n",
    "actions/status.yaml": "schema: agent-graph.action.v1\nid: status\nrunner: command\neffect: read\ncommand: git log -1\n",
    "actions/report.yaml": """\
schema: agent-graph.action.v1
id: report
runner: host
effect: read
handler: acme.report
inputSchema: schemas/report-request.schema.json
outputSchema: schemas/report.schema.json
""",
    "skills/writer/SKILL.md": "---\nname: writer\ndescription: Writes drafts.\n---\n# Writer\n",
    "skills/writer/reference/style.md": "# Style\n",
    "scripts/lint.py": "print('lint')\n",
    "scripts/lint-rules.txt": "no-tabs\n",
    "schemas/lint-input.schema.json": '{"type": "object"}\n',
    "schemas/lint-output.schema.json": '{"type": "object"}\n',
    "schemas/output.schema.json": '{"type": "object", "required": ["digest"]}\n',
    "schemas/report-request.schema.json": (
        '{"$id": "acme.report-request/v1", "type": "object", "required": ["week"],'
        ' "properties": {"week": {"type": "integer"}}}\n'
    ),
    "schemas/report.schema.json": '{"$id": "acme.report/v1", "type": "object"}\n',
    "resources/procedure.md": "---\nid: procedure.write\nkind: procedure\nmedia-type: text/markdown\n---\n# Procedure\n",
    "resources/output-schema.yaml": (
        "schema: agent-graph.resource.file.v1\nid: schema.output\nkind: schema\n"
        "mediaType: application/schema+json\npath: schemas/output.schema.json\n"
    ),
    "resources/status.yaml": (
        "schema: agent-graph.resource.graph-action.v1\nid: view.status\nkind: context-view\n"
        "mediaType: text/plain\nmaterializer: actions/status.yaml\n"
    ),
    "resources/report.yaml": (
        "schema: agent-graph.resource.host-action.v1\nid: view.report\nkind: context-view\n"
        "mediaType: application/json\nmaterializer: actions/report.yaml\n"
        "input: {schema: acme.report-request/v1, value: {week: 7}}\n"
    ),
    "resources/codes-guide.md": "---\nid: guide.codes\nkind: diagnostic\n---\n# Codes\n",
    "codes.yaml": """\
schema: agent-graph.code-catalog.v1
codes:
  - {code: route.main.write, kind: route-reason, summary: Write it., document: resources/codes-guide.md}
  - {code: route.main.review, kind: route-reason, summary: Review it.}
  - {code: route.main.publish, kind: route-reason, summary: Publish it.}
  - {code: route.check.lint, kind: route-reason, summary: Lint it.}
""",
    "tests/start.yaml": (
        "schema: agent-graph.test.v1\nname: starts with write\ngraph: main\nentry: default\n"
        "expect: {statusCode: actionable, primaryNode: write}\n"
    ),
    "notes/unrelated.txt": "not part of the Provider\n",
}

#: Files of FULL_PROVIDER a bundle must not carry.
NOT_BUNDLED = {"tests/start.yaml", "notes/unrelated.txt"}

STATES: list[dict[str, Any]] = [
    {},
    {"outcomes": {"main/write": "partial"}},
    {"outcomes": {"main/write": "completed"}},
    {"outcomes": {"main/write": "completed", "main/check>check/lint": "completed"}},
    {
        "outcomes": {"main/write": "completed", "main/check>check/lint": "completed"},
        "authorities": ["release"],
    },
    {"outcomes": {"main/write": "completed", "main/check>check/lint": "failed"}},
]


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (relative path → text) below ``root``; return the manifest path."""
    for relative, text in files.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root / "provider.yaml"


@pytest.fixture
def source(tmp_path: Path) -> ag.Provider:
    manifest = write_tree(tmp_path / "src", FULL_PROVIDER)
    return ag.load_provider(str(manifest))


def _bundle_files(directory: Path) -> dict[str, bytes]:
    return {
        path.relative_to(directory).as_posix(): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def _relative_json(value: Any, root: str) -> Any:
    return json.loads(msgspec.json.encode(value).decode("utf-8").replace(root, "{root}"))


# ---------------------------------------------------------------- shape and content


def test_build_copies_exactly_the_file_set(source: ag.Provider, tmp_path: Path) -> None:
    out = tmp_path / "dist" / "provider"
    bundle = build_bundle(source, str(out))
    written = _bundle_files(out)
    listed = [entry.path for entry in bundle.files]
    assert sorted(written) == sorted([*listed, "manifest.json"])
    expected = sorted({*FULL_PROVIDER} - NOT_BUNDLED)
    assert sorted(listed) == expected
    for relative in listed:
        if relative != "provider.yaml":
            assert written[relative] == FULL_PROVIDER[relative].encode("utf-8")


def test_manifest_has_the_bundle_shape(source: ag.Provider, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build_bundle(source, str(out))
    raw = (out / "manifest.json").read_bytes()
    manifest = json.loads(raw)
    assert list(manifest) == [
        "schema", "provider", "providerManifest", "graphs", "actions", "resources", "schemas", "files",
        "graphDependencies", "digest",
    ]  # fmt: skip
    assert raw == (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    assert manifest["schema"] == "agent-graph.bundle.v1"
    assert manifest["provider"] == {"id": "acme/full", "version": "1.2.0"}
    assert manifest["providerManifest"] == "provider.yaml"
    unsigned = {k: v for k, v in manifest.items() if k != "digest"}
    assert manifest["digest"] == digest_value(unsigned)
    for label in ("graphs", "actions", "resources"):
        ids = [entry["id"] for entry in manifest[label]]
        assert ids == sorted(ids, key=collation_key), label
    assert [e["id"] for e in manifest["graphs"]] == ["check", "main"]
    assert [e["id"] for e in manifest["actions"]] == [
        "apply",
        "inspect",
        "lint",
        "publish",
        "report",
        "status",
        "write",
    ]
    assert [e["id"] for e in manifest["resources"]] == [
        "guide.codes", "procedure.write", "schema.output", "view.report", "view.status",
    ]  # fmt: skip
    assert manifest["schemas"] == [
        {"id": "schemas/lint-input.schema.json", "path": "schemas/lint-input.schema.json",
         "digest": digest_bytes(FULL_PROVIDER["schemas/lint-input.schema.json"].encode())},
        {"id": "schemas/lint-output.schema.json", "path": "schemas/lint-output.schema.json",
         "digest": digest_bytes(FULL_PROVIDER["schemas/lint-output.schema.json"].encode())},
        {"id": "schema.output", "path": "schemas/output.schema.json",
         "digest": digest_bytes(FULL_PROVIDER["schemas/output.schema.json"].encode())},
        {"id": "schemas/report-request.schema.json", "path": "schemas/report-request.schema.json",
         "digest": digest_bytes(FULL_PROVIDER["schemas/report-request.schema.json"].encode())},
        {"id": "schemas/report.schema.json", "path": "schemas/report.schema.json",
         "digest": digest_bytes(FULL_PROVIDER["schemas/report.schema.json"].encode())},
    ]  # fmt: skip
    paths = [entry["path"] for entry in manifest["files"]]
    assert paths == sorted(paths)  # plain code-unit order
    assert manifest["graphDependencies"] == {"check": [], "main": ["check"]}
    for entry in manifest["files"]:
        assert entry["digest"] == digest_bytes((out / entry["path"]).read_bytes())


def test_provider_yaml_is_the_normalized_manifest(source: ag.Provider, tmp_path: Path) -> None:
    out = tmp_path / "out"
    build_bundle(source, str(out))
    text = (out / "provider.yaml").read_text(encoding="utf-8")
    assert "#" not in text  # comments and flow style are normalized away
    assert parse_yaml(text) == dict(source.raw_manifest)
    assert text.startswith("schema: agent-graph.provider.v1\nid: acme/full\n")


def test_same_sources_give_the_same_bytes(source: ag.Provider, tmp_path: Path) -> None:
    first = build_bundle(source, str(tmp_path / "a"))
    second = build_bundle(ag.load_provider(source.manifest_path), str(tmp_path / "b"))
    assert first == second
    assert _bundle_files(tmp_path / "a") == _bundle_files(tmp_path / "b")
    again = build_bundle(source, str(tmp_path / "a"))  # an earlier bundle is replaced
    assert again == first
    assert _bundle_files(tmp_path / "a") == _bundle_files(tmp_path / "b")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_bundle_is_relocatable(source: ag.Provider, tmp_path: Path) -> None:
    build_bundle(source, str(tmp_path / "out"))
    moved = tmp_path / "elsewhere" / "installed"
    moved.parent.mkdir()
    shutil.move(str(tmp_path / "out"), str(moved))
    for data in _bundle_files(moved).values():
        assert str(tmp_path).encode() not in data
    loaded = ag.load_provider(str(moved / "manifest.json"))
    assert loaded.root == str(moved)
    assert loaded.graph_digests == source.graph_digests
    assert loaded.digest == source.digest


def test_round_trip_gives_the_same_evaluation_and_route(source: ag.Provider, tmp_path: Path) -> None:
    build_bundle(source, str(tmp_path / "out"))
    bundle = ag.load_provider(str(tmp_path / "out" / "manifest.json"))
    for state in STATES:
        for graph, entry in (("main", "default"), ("main", "review"), ("check", "default")):
            before = ag.evaluate(source, graph, entry, **state)
            after = ag.evaluate(bundle, graph, entry, **state)
            assert after.revision == before.revision
            assert _relative_json(after, bundle.root) == _relative_json(before, source.root)
            if before.primary_route is None:
                continue
            routes = [
                ag.route(
                    p, graph, entry, e.primary_route.route_id, revision=e.revision, workspace="/w", **state
                )  # type: ignore[union-attr]
                for p, e in ((source, before), (bundle, after))
            ]
            assert _relative_json(routes[1], bundle.root) == _relative_json(routes[0], source.root)


def _vector_cases() -> list[dict[str, Any]]:
    wanted = {f"providers/seed-{n}/provider.json" for n in (2, 10, 13, 17, 22, 24)}
    return [c for c in vector_json("cases.json") if c["manifest"] in wanted and "load" not in c]


def test_round_trip_of_toolchain_vectors(tmp_path: Path) -> None:
    cases = _vector_cases()
    assert cases
    bundles: dict[str, ag.Provider] = {}
    for case in cases:
        manifest = case["manifest"]
        if manifest not in bundles:
            out = tmp_path / manifest.split("/")[1]
            build_bundle(ag.load_provider(str(VECTORS / manifest)), str(out))
            bundles[manifest] = ag.load_provider(str(out / "manifest.json"))
        bundle = bundles[manifest]
        state = case["state"]
        evaluation = ag.evaluate(
            bundle,
            case["graph"],
            case["entry"],
            facts=state.get("facts", {}),
            outcomes=state.get("outcomes", {}),
            authorities=state.get("authorities", []),
        )
        assert _relative_json(evaluation, bundle.root) == case["evaluation"]


def test_build_from_a_memory_file_system(tmp_path: Path) -> None:
    fs = ag.MemoryFileSystem({f"/mem/{k}": v for k, v in FULL_PROVIDER.items()})
    provider = ag.load_provider("/mem/provider.yaml", fs=fs)
    plan = plan_bundle(provider, fs.read_bytes)
    assert plan.manifest_bytes == manifest_json(plan.manifest)
    bundle = build_bundle(provider, str(tmp_path / "out"), read=fs.read_bytes)
    disk = ag.load_provider(write_tree(tmp_path / "disk", FULL_PROVIDER).as_posix())
    assert bundle == build_bundle(disk, str(tmp_path / "out2"))


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize("where", [".", "..", "graphs", "graphs/main.yaml", "skills"])
def test_output_overlapping_the_sources_is_refused(source: ag.Provider, where: str) -> None:
    target = os.path.normpath(os.path.join(source.root, where))
    with pytest.raises(ag.AgentGraphError) as raised:
        build_bundle(source, target)
    assert raised.value.code == "build-output-overlaps-source"


def test_output_inside_the_source_tree_is_allowed(source: ag.Provider) -> None:
    build_bundle(source, os.path.join(source.root, "dist", "provider"))
    loaded = ag.load_provider(os.path.join(source.root, "dist", "provider", "manifest.json"))
    assert loaded.manifest.id == "acme/full"


def test_a_referenced_file_holding_the_source_root_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "src"
    files = {**FULL_PROVIDER, "scripts/lint.py": f"ROOT = '{root}'\n"}
    provider = ag.load_provider(str(write_tree(root, files)))
    with pytest.raises(ag.AgentGraphError) as raised:
        build_bundle(provider, str(tmp_path / "out"))
    assert raised.value.code == "build-absolute-path-leak"
    assert "scripts/lint.py" in raised.value.message
    assert not (tmp_path / "out").exists()


def test_an_unrelated_file_holding_the_root_does_not_matter(tmp_path: Path) -> None:
    root = tmp_path / "src"
    files = {**FULL_PROVIDER, "notes/unrelated.txt": f"{root}\n"}
    build_bundle(ag.load_provider(str(write_tree(root, files))), str(tmp_path / "out"))


def test_an_existing_directory_that_is_not_a_bundle_is_kept(source: ag.Provider, tmp_path: Path) -> None:
    keep = tmp_path / "keep"
    keep.mkdir()
    (keep / "precious.txt").write_text("mine")
    with pytest.raises(ag.AgentGraphError) as raised:
        build_bundle(source, str(keep))
    assert raised.value.code == "build-output-exists"
    assert (keep / "precious.txt").read_text() == "mine"
    (tmp_path / "empty").mkdir()
    build_bundle(source, str(tmp_path / "empty"))
    assert (tmp_path / "empty" / "manifest.json").is_file()


def test_a_source_file_where_the_bundle_writes_its_own_is_refused(tmp_path: Path) -> None:
    files = {
        **FULL_PROVIDER,
        "actions/inspect.yaml": FULL_PROVIDER["actions/inspect.yaml"] + "files: [manifest.json]\n",
    }
    files["manifest.json"] = "{}\n"
    provider = ag.load_provider(str(write_tree(tmp_path / "src", files)))
    with pytest.raises(ag.AgentGraphError) as raised:
        build_bundle(provider, str(tmp_path / "out"))
    assert raised.value.code == "build-output-path-conflict"


def test_a_source_changed_after_loading_is_refused(source: ag.Provider, tmp_path: Path) -> None:
    Path(source.root, "scripts", "lint.py").write_text("print('changed')\n")
    with pytest.raises(ag.AgentGraphError) as raised:
        build_bundle(source, str(tmp_path / "out"))
    assert raised.value.code == "build-source-changed"


# ---------------------------------------------------------------- tampering


@pytest.fixture
def bundle_dir(source: ag.Provider, tmp_path: Path) -> Path:
    out = tmp_path / "bundle"
    build_bundle(source, str(out))
    return out


def _load_code(directory: Path) -> str:
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.load_provider(str(directory / "manifest.json"))
    return raised.value.code


def _rewrite_manifest(directory: Path, change: Any, *, sign: bool = True) -> None:
    manifest = json.loads((directory / "manifest.json").read_text())
    change(manifest)
    if sign:
        manifest["digest"] = digest_value({k: v for k, v in manifest.items() if k != "digest"})
    (directory / "manifest.json").write_bytes(manifest_json(manifest))


def test_every_byte_of_every_file_is_covered(bundle_dir: Path) -> None:
    listed = [e["path"] for e in json.loads((bundle_dir / "manifest.json").read_text())["files"]]
    for relative in listed:
        path = bundle_dir / relative
        original = path.read_bytes()
        for position in (0, len(original) // 2, len(original) - 1):
            changed = bytearray(original)
            changed[position] ^= 0x01
            path.write_bytes(bytes(changed))
            assert _load_code(bundle_dir) == "bundle-file-digest-mismatch", (relative, position)
        path.write_bytes(original + b" ")
        assert _load_code(bundle_dir) == "bundle-file-digest-mismatch"
        path.write_bytes(original)
    ag.load_provider(str(bundle_dir / "manifest.json"))


def test_any_change_to_the_manifest_breaks_its_digest(bundle_dir: Path) -> None:
    path = bundle_dir / "manifest.json"
    original = path.read_bytes()
    manifest = json.loads(original)
    edits = [
        lambda m: m["files"][0].update(digest="sha256:" + "0" * 64),
        lambda m: m["files"].pop(),
        lambda m: m["graphs"].reverse(),
        lambda m: m["provider"].update(version="9.9.9"),
        lambda m: m["graphDependencies"].update(check=["main"]),
        lambda m: m["schemas"].pop(0),
    ]
    for edit in edits:
        changed = json.loads(original)
        edit(changed)
        path.write_bytes(manifest_json({**changed, "digest": manifest["digest"]}))
        assert _load_code(bundle_dir) == "bundle-digest-mismatch"
    path.write_bytes(original)


def test_a_resigned_file_list_must_still_match_the_provider(bundle_dir: Path) -> None:
    _rewrite_manifest(
        bundle_dir,
        lambda m: m["files"].remove(next(f for f in m["files"] if f["path"] == "scripts/lint-rules.txt")),
    )
    assert _load_code(bundle_dir) == "bundle-files-mismatch"


def test_a_resigned_extra_file_is_rejected(bundle_dir: Path) -> None:
    (bundle_dir / "extra.txt").write_text("extra\n")
    _rewrite_manifest(
        bundle_dir, lambda m: m["files"].append({"path": "extra.txt", "digest": digest_bytes(b"extra\n")})
    )
    assert _load_code(bundle_dir) == "bundle-files-mismatch"


def test_a_listed_file_missing_on_disk_is_rejected(bundle_dir: Path) -> None:
    (bundle_dir / "scripts" / "lint-rules.txt").unlink()
    assert _load_code(bundle_dir) == "file-missing"


def test_a_file_listed_twice_is_rejected(bundle_dir: Path) -> None:
    _rewrite_manifest(bundle_dir, lambda m: m["files"].append(dict(m["files"][0])))
    assert _load_code(bundle_dir) == "bundle-file-duplicate"


def test_catalog_entries_must_match_files_and_the_provider(bundle_dir: Path) -> None:
    original = (bundle_dir / "manifest.json").read_bytes()
    _rewrite_manifest(bundle_dir, lambda m: m["actions"][0].update(digest="sha256:" + "1" * 64))
    assert _load_code(bundle_dir) == "bundle-catalog-mismatch"
    (bundle_dir / "manifest.json").write_bytes(original)
    _rewrite_manifest(bundle_dir, lambda m: m["actions"].pop())
    assert _load_code(bundle_dir) == "bundle-catalog-mismatch"
    (bundle_dir / "manifest.json").write_bytes(original)
    _rewrite_manifest(bundle_dir, lambda m: m["resources"][0].update(id="renamed"))
    assert _load_code(bundle_dir) == "bundle-catalog-mismatch"


def test_dependency_index_must_match_subgraphs(bundle_dir: Path) -> None:
    _rewrite_manifest(bundle_dir, lambda m: m["graphDependencies"].update(main=[]))
    assert _load_code(bundle_dir) == "bundle-dependencies-mismatch"


def test_identity_and_provider_manifest_entry_are_checked(bundle_dir: Path) -> None:
    original = (bundle_dir / "manifest.json").read_bytes()
    _rewrite_manifest(bundle_dir, lambda m: m["provider"].update(id="acme/other"))
    assert _load_code(bundle_dir) == "bundle-provider-mismatch"
    (bundle_dir / "manifest.json").write_bytes(original)
    _rewrite_manifest(bundle_dir, lambda m: m.update(providerManifest="graphs/../provider2.yaml"))
    assert _load_code(bundle_dir) == "schema-invalid"
    (bundle_dir / "manifest.json").write_bytes(original)
    _rewrite_manifest(bundle_dir, lambda m: m.update(providerManifest="provider2.yaml"))
    assert _load_code(bundle_dir) == "bundle-provider-unlisted"
    (bundle_dir / "manifest.json").write_bytes(original)
    _rewrite_manifest(bundle_dir, lambda m: m.update(built="2026-01-01"))
    assert _load_code(bundle_dir) == "schema-invalid"


def test_a_bundle_laid_out_differently_still_loads(bundle_dir: Path, source: ag.Provider) -> None:
    """Another toolchain's YAML and JSON layout (flow style, compact JSON) is not ours, but it verifies."""
    flow = "{" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in source.raw_manifest.items()) + "}\n"
    (bundle_dir / "provider.yaml").write_text(flow)

    def relist(manifest: dict[str, Any]) -> None:
        for entry in manifest["files"]:
            if entry["path"] == "provider.yaml":
                entry["digest"] = digest_bytes(flow.encode())

    _rewrite_manifest(bundle_dir, relist)
    compact = json.loads((bundle_dir / "manifest.json").read_text())
    (bundle_dir / "manifest.json").write_text(json.dumps(compact, separators=(",", ":")))
    loaded = ag.load_provider(str(bundle_dir / "manifest.json"))
    assert loaded.graph_digests == source.graph_digests


# ---------------------------------------------------------------- command line


def test_cli_build(source: ag.Provider, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli-out"
    assert _cli.main(["build", str(out), "--manifest", source.manifest_path, "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer == json.loads((out / "manifest.json").read_text())
    assert _cli.main(["--manifest", str(out / "manifest.json"), "validate"]) == 0
    capsys.readouterr()
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert _cli.main(["build", "--manifest", source.manifest_path]) == 0
    finally:
        os.chdir(cwd)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"Built acme/full@1.2.0 at {tmp_path / 'dist' / 'provider'}"
    assert lines[2] == f"Bundle digest: {answer['digest']}"
    assert _cli.main(["build", source.root, "--manifest", source.manifest_path, "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().err)["error"]["code"] == "build-output-overlaps-source"


# ---------------------------------------------------------------- files that commands run

_RUNS_A_SCRIPT: dict[str, str] = {
    "provider.yaml": "schema: agent-graph.provider.v1\nid: acme/accounts\nversion: 1.0.0\ngraphs: [graphs/main.yaml]\n",
    "graphs/main.yaml": """\
schema: agent-graph.graph.v1
id: main
entrypoints: {default: create}
nodes:
  - {id: create, kind: action, reasonCode: route.main.create, action: actions/create.yaml}
  - {id: done, kind: terminal, terminalOutcome: completed}
edges:
  - {from: create, to: done}
""",
    "actions/create.yaml": """\
schema: agent-graph.action.v1
id: create-account
runner: command
effect: write
cwd: provider
command: ./scripts/create-account.sh --user "$USER" > logs/out.txt
""",
    "scripts/create-account.sh": "#!/bin/sh\necho created\n",
}


def _accounts(tmp_path: Path, **changes: str) -> ag.Provider:
    return ag.load_provider(str(write_tree(tmp_path / "src", {**_RUNS_A_SCRIPT, **changes})))


def _cli_json(capsys: pytest.CaptureFixture[str], *args: str, status: int = 0) -> Any:
    assert _cli.main([*args, "--format", "json"]) == status
    captured = capsys.readouterr()
    return json.loads(captured.out if status == 0 else captured.err)


def test_build_refuses_a_script_a_command_runs_but_the_bundle_leaves_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    provider = _accounts(tmp_path)
    with pytest.raises(ag.AgentGraphError) as raised:
        build_bundle(provider, str(tmp_path / "out"))
    error = raised.value
    assert error.code == "action-file-unpackaged"
    assert not (tmp_path / "out").exists()
    (diagnostic,) = error.diagnostics
    assert diagnostic.detail == {
        "action": "create-account",
        "field": "command",
        "file": "scripts/create-account.sh",
    }
    assert "list it under files: in actions/create.yaml" in diagnostic.message
    # validate says the same, as a warning: the reference toolchain accepts this Provider.
    answer = _cli_json(capsys, "validate", "--manifest", provider.manifest_path)
    assert answer["state"] == "valid"
    assert [(d["code"], d["severity"]) for d in answer["diagnostics"]] == [
        ("action-file-unpackaged", "warning")
    ]
    assert answer["diagnostics"][0]["message"] == diagnostic.message
    refused = _cli_json(
        capsys, "build", str(tmp_path / "out"), "--manifest", provider.manifest_path, status=1
    )
    assert refused["error"]["code"] == "action-file-unpackaged"


def test_listing_the_script_under_files_builds_a_bundle_that_holds_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    action = _RUNS_A_SCRIPT["actions/create.yaml"] + "files: [scripts/create-account.sh]\n"
    provider = _accounts(tmp_path, **{"actions/create.yaml": action})
    build_bundle(provider, str(tmp_path / "out"))
    assert (tmp_path / "out" / "scripts" / "create-account.sh").is_file()
    assert "diagnostics" not in _cli_json(capsys, "validate", "--manifest", provider.manifest_path)


def test_a_missing_file_under_cwd_provider_is_refused_and_a_workspace_path_is_not(tmp_path: Path) -> None:
    missing = _RUNS_A_SCRIPT["actions/create.yaml"].replace("./scripts/create-account.sh", "bin/setup")
    provider = _accounts(tmp_path / "a", **{"actions/create.yaml": missing})
    with pytest.raises(ag.AgentGraphError) as raised:
        build_bundle(provider, str(tmp_path / "a" / "out"))
    assert raised.value.code == "action-file-unpackaged"
    assert "the Provider has no file bin/setup" in raised.value.diagnostics[0].message
    workspace = missing.replace("cwd: provider\n", "")
    build_bundle(_accounts(tmp_path / "b", **{"actions/create.yaml": workspace}), str(tmp_path / "b" / "out"))


@pytest.mark.parametrize(
    "command",
    [
        "make build",
        "curl https://example.com/x/y",
        "cat /etc/hosts",
        "echo $HOME/x",
        "ls build/*.txt",
        "echo 'unbalanced",
        "cd tools && ./setup.sh",
        "mkdir -p out/dir > logs/made.txt",
    ],
)
def test_words_that_are_not_provider_files_are_left_alone(tmp_path: Path, command: str) -> None:
    action = _RUNS_A_SCRIPT["actions/create.yaml"].replace(
        './scripts/create-account.sh --user "$USER" > logs/out.txt', json.dumps(command)
    )
    provider = _accounts(tmp_path, **{"actions/create.yaml": action})
    assert provider.actions[f"{provider.root}/actions/create.yaml"].definition.command == command
    build_bundle(provider, str(tmp_path / "out"))


def test_script_args_naming_provider_files_are_checked(tmp_path: Path) -> None:
    action = (
        "schema: agent-graph.action.v1\nid: create-account\nrunner: script\neffect: write\n"
        "runtime: shell\nentry: scripts/create-account.sh\nargs: [--data, data/users.csv]\n"
    )
    provider = _accounts(tmp_path, **{"actions/create.yaml": action, "data/users.csv": "a,b\n"})
    with pytest.raises(ag.AgentGraphError) as raised:
        build_bundle(provider, str(tmp_path / "out"))
    assert raised.value.diagnostics[0].detail == {
        "action": "create-account",
        "field": "args",
        "file": "data/users.csv",
    }
