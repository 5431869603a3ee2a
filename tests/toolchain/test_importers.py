"""Importers: Skills, scripts and workflows become Provider sources, literally and without overwriting."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

import agent_graph as ag
import agent_graph.toolchain as agtool
from agent_graph._cli import main as _cli
from agent_graph._toolchain.importers import import_scripts, import_skill, import_workflow, runtime_for
from agent_graph._toolchain.scaffold import init_provider


@pytest.fixture
def provider_root(tmp_path: Path) -> Path:
    init_provider(str(tmp_path / "p"), "demo")
    return tmp_path / "p"


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _legacy_skill(tmp_path: Path, name: str = "deploy-it", front: str | None = None) -> Path:
    directory = tmp_path / "legacy" / name
    (directory / "reference").mkdir(parents=True)
    header = front if front is not None else f"name: {name}\ndescription: Deploys the service.\n"
    (directory / "SKILL.md").write_text(f"---\n{header}---\n# Deploy\n\nStep one.\nStep two.\n")
    (directory / "reference" / "runbook.md").write_text("# Runbook\n")
    (directory / "logo.bin").write_bytes(bytes(range(256)))
    return directory / "SKILL.md"


# ---------------------------------------------------------------- import skill


def test_import_skill_copies_binds_and_wraps_it(provider_root: Path, tmp_path: Path) -> None:
    skill = _legacy_skill(tmp_path)
    result = import_skill(str(skill), str(provider_root))
    assert (result.kind, result.graph_id) == ("skill", "deploy-it")
    assert result.graph_path == str(provider_root / "graphs" / "deploy-it.yaml")
    copied = provider_root / "skills" / "deploy-it"
    assert (copied / "reference" / "runbook.md").read_text() == "# Runbook\n"
    assert (copied / "logo.bin").read_bytes() == bytes(range(256))
    text = (copied / "SKILL.md").read_text()
    assert text.endswith("---\n# Deploy\n\nStep one.\nStep two.\n")  # instructions unchanged, not split
    binding = ag.resolve_skill_binding(str(copied / "SKILL.md"))
    assert (binding.locator, binding.graph, binding.entry, binding.provider) == (
        "path:../../provider.yaml",
        "deploy-it",
        "default",
        "demo",
    )
    provider = ag.load_provider(str(provider_root / "provider.yaml"))
    assert list(provider.graphs) == ["main", "deploy-it"]
    assert provider.codes["route.deploy-it.use-skill"].kind == "route-reason"
    evaluation = ag.evaluate(provider, "deploy-it")
    assert evaluation.primary_route is not None and evaluation.primary_route.node == "use-skill"
    route = ag.route(provider, "deploy-it", route_id=evaluation.primary_route.route_id)
    assert route.action is not None and (route.action.runner, route.action.effect) == ("agent", "write")
    assert route.resources.required[0].id == "skill.deploy-it"
    report = (provider_root / "IMPORT_REPORT.md").read_text()
    assert report.startswith("# Import report\n\n## Skill deploy-it\n")
    assert "`../legacy/deploy-it/SKILL.md`" in report and "Review" in report


def test_import_keeps_the_authored_manifest_and_catalog(provider_root: Path, tmp_path: Path) -> None:
    manifest = provider_root / "provider.yaml"
    manifest.write_text(
        "# my Provider\n" + manifest.read_text().replace("graphs:\n", "graphs:  # listed by hand\n")
    )
    codes = provider_root / "codes.yaml"
    codes.write_text("# reasons\n" + codes.read_text())
    import_skill(str(_legacy_skill(tmp_path)), str(provider_root), "legacy")
    assert manifest.read_text().startswith("# my Provider\n")
    assert "graphs:  # listed by hand\n  - graphs/main.yaml\n  - graphs/legacy.yaml\n" in manifest.read_text()
    assert codes.read_text().startswith("# reasons\n")
    assert "  - code: route.legacy.use-skill\n    kind: route-reason\n" in codes.read_text()


def test_a_flow_style_graph_list_is_extended(provider_root: Path, tmp_path: Path) -> None:
    manifest = provider_root / "provider.yaml"
    manifest.write_text(
        manifest.read_text().replace(
            "graphs:\n  - graphs/main.yaml\n", "graphs: [graphs/main.yaml]  # flow\n"
        )
    )
    import_skill(str(_legacy_skill(tmp_path)), str(provider_root))
    assert "graphs: [graphs/main.yaml, graphs/deploy-it.yaml]  # flow\n" in manifest.read_text()
    ag.load_provider(str(manifest))


def test_two_imports_append_two_report_sections(provider_root: Path, tmp_path: Path) -> None:
    import_skill(str(_legacy_skill(tmp_path, "one")), str(provider_root))
    import_skill(str(_legacy_skill(tmp_path, "two")), str(provider_root))
    report = (provider_root / "IMPORT_REPORT.md").read_text()
    assert report.count("\n## Skill ") == 2
    assert report.index("## Skill one") < report.index("## Skill two")


def test_import_refuses_to_replace_anything(provider_root: Path, tmp_path: Path) -> None:
    skill = _legacy_skill(tmp_path)
    import_skill(str(skill), str(provider_root))
    before = _snapshot(provider_root)
    with pytest.raises(ag.AgentGraphError) as raised:
        import_skill(str(skill), str(provider_root))
    assert raised.value.code == "import-target-exists"
    assert _snapshot(provider_root) == before
    (provider_root / "graphs" / "other.yaml").write_text("mine\n")
    before = _snapshot(provider_root)
    with pytest.raises(ag.AgentGraphError) as raised:
        import_skill(str(skill), str(provider_root), "other")
    assert raised.value.code == "import-target-exists"
    assert _snapshot(provider_root) == before


def test_import_skill_records_what_it_replaced_and_skipped(provider_root: Path, tmp_path: Path) -> None:
    skill = _legacy_skill(
        tmp_path, front="description: Old.\nmetadata:\n  agent-graph: provider:old\n  owner: me\n"
    )
    os.symlink("/etc/hostname", skill.parent / "link")
    import_skill(str(skill), str(provider_root))
    copied = provider_root / "skills" / "deploy-it"
    assert not (copied / "link").exists()
    front = (copied / "SKILL.md").read_text()
    assert "name: deploy-it\n" in front and "  owner: me\n" in front
    report = (provider_root / "IMPORT_REPORT.md").read_text()
    assert "Replaced the Skill's previous binding `provider:old`" in report
    assert "Not copied (symbolic links): `link`" in report


def test_import_skill_without_a_catalog_still_gives_reason_codes(tmp_path: Path) -> None:
    root = tmp_path / "p"
    init_provider(str(root), "demo")
    manifest = root / "provider.yaml"
    manifest.write_text(manifest.read_text().replace("catalogs:\n  codes: codes.yaml\n", ""))
    import_skill(str(_legacy_skill(tmp_path)), str(root))
    provider = ag.load_provider(str(manifest))
    assert provider.graphs["deploy-it"].definition.nodes[0].reason_code == "route.deploy-it.use-skill"
    assert "route.deploy-it.use-skill" not in (root / "codes.yaml").read_text()


def test_import_skill_errors(provider_root: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare" / "SKILL.md"
    bare.parent.mkdir()
    bare.write_text("# no front matter\n")
    cases = [
        (lambda: import_skill(str(bare), str(provider_root)), "frontmatter-missing"),
        (lambda: import_skill(str(tmp_path / "none" / "SKILL.md"), str(provider_root)), "file-missing"),
        (lambda: import_skill(str(_legacy_skill(tmp_path)), str(tmp_path / "nowhere")), "file-missing"),
        (lambda: import_skill(str(_legacy_skill(tmp_path, "x")), str(provider_root), "!!!"), "id-invalid"),
    ]
    before = _snapshot(provider_root)
    for call, code in cases:
        with pytest.raises(ag.AgentGraphError) as raised:
            call()
        assert raised.value.code == code
    assert _snapshot(provider_root) == before


def test_a_skill_directory_holding_the_provider_is_refused(tmp_path: Path) -> None:
    (tmp_path / "SKILL.md").write_text("---\nname: big\n---\nBody\n")
    init_provider(str(tmp_path / "p"), "demo")
    with pytest.raises(ag.AgentGraphError) as raised:
        import_skill(str(tmp_path / "SKILL.md"), str(tmp_path / "p"))
    assert raised.value.code == "import-source-overlaps-target"


# ---------------------------------------------------------------- import scripts


def test_import_scripts_makes_a_sequential_graph(provider_root: Path, tmp_path: Path) -> None:
    sources = []
    for name, body in (
        ("inspect.sh", "echo inspect\n"),
        ("package.py", "print(1)\n"),
        ("publish.mjs", "1\n"),
    ):
        path = tmp_path / name
        path.write_text(body)
        sources.append(str(path))
    os.chmod(sources[0], 0o755)
    result = import_scripts(sources, str(provider_root), "package flow")
    assert result.graph_id == "package-flow"
    copied = provider_root / "scripts" / "package-flow"
    assert sorted(p.name for p in copied.iterdir()) == ["01-inspect.sh", "02-package.py", "03-publish.mjs"]
    assert (copied / "02-package.py").read_text() == "print(1)\n"
    assert os.stat(copied / "01-inspect.sh").st_mode & stat.S_IXUSR
    provider = ag.load_provider(str(provider_root / "provider.yaml"))
    graph = provider.graphs["package-flow"].definition
    assert [n.id for n in graph.nodes] == ["step-1", "step-2", "step-3", "done"]
    assert [(e.from_, e.to) for e in graph.edges] == [
        ("step-1", "step-2"),
        ("step-2", "step-3"),
        ("step-3", "done"),
    ]
    runners = {
        a.definition.id: (a.definition.runtime, a.definition.effect) for a in provider.actions.values()
    }
    assert runners["package-flow.step-1"] == ("shell", "write")
    assert runners["package-flow.step-2"] == ("python", "write")
    assert runners["package-flow.step-3"] == ("node", "write")
    evaluation = ag.evaluate(provider, "package-flow", outcomes={"package-flow/step-1": "completed"})
    assert evaluation.primary_route is not None and evaluation.primary_route.node == "step-2"
    route = ag.route(
        provider,
        "package-flow",
        route_id=evaluation.primary_route.route_id,
        outcomes={"package-flow/step-1": "completed"},
    )
    assert route.command_plan[0].command == f"python3 '{copied / '02-package.py'}'"  # type: ignore[union-attr]
    report = (provider_root / "IMPORT_REPORT.md").read_text()
    assert "## Scripts package-flow" in report and "effect `write`" in report


def test_runtime_follows_the_extension() -> None:
    assert [runtime_for(n) for n in ("a.js", "a.CJS", "a.ts", "a.py", "a.sh", "a")] == [
        "node", "node", "bun", "python", "shell", "shell",
    ]  # fmt: skip


def test_import_scripts_errors(provider_root: Path, tmp_path: Path) -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        import_scripts([], str(provider_root))
    assert raised.value.code == "import-empty"
    with pytest.raises(ag.AgentGraphError) as raised:
        import_scripts([str(tmp_path / "missing.sh")], str(provider_root))
    assert raised.value.code == "file-missing"
    script = tmp_path / "a.sh"
    script.write_text("true\n")
    import_scripts([str(script)], str(provider_root))
    before = _snapshot(provider_root)
    with pytest.raises(ag.AgentGraphError) as raised:
        import_scripts([str(script)], str(provider_root))
    assert raised.value.code == "import-target-exists"
    assert _snapshot(provider_root) == before


# ---------------------------------------------------------------- import workflow

WORKFLOW = """\
id: release
steps:
  - id: test
    command: npm test
    effect: read
  - id: lint
    command: npm run lint
    effect: read
  - id: build
    command: npm run build
    description: Build the package
    dependsOn: [test, lint, test]
  - id: publish
    command: npm publish
    dependsOn: [build]
    effect: external
    retry: 3
    if: github.ref == 'main'
  - id: docs
    command: make docs
    dependsOn: [test]
"""


def _workflow(tmp_path: Path, text: str, name: str = "workflow.yaml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_import_workflow_keeps_dependencies(provider_root: Path, tmp_path: Path) -> None:
    result = import_workflow(_workflow(tmp_path, WORKFLOW), str(provider_root))
    assert result.graph_id == "release"
    provider = ag.load_provider(str(provider_root / "provider.yaml"))
    graph = provider.graphs["release"].definition
    assert graph.entrypoints == {"default": "start"}
    assert [n.id for n in graph.nodes] == ["start", "test", "lint", "build", "publish", "docs", "done"]
    assert sorted((e.from_, e.to) for e in graph.edges) == sorted(
        [
            ("test", "build"), ("lint", "build"), ("build", "publish"), ("test", "docs"),
            ("start", "test"), ("start", "lint"), ("publish", "done"), ("docs", "done"),
        ]
    )  # fmt: skip
    done = graph.nodes[-1]
    assert (done.kind, done.join) == ("terminal", "all")
    effects = {
        a.definition.id: (a.definition.command, a.definition.effect) for a in provider.actions.values()
    }
    assert effects["release.start"] == ("true", "read")
    assert effects["release.build"] == ("npm run build", "write")
    assert effects["release.publish"] == ("npm publish", "external")
    assert graph.nodes[3].description == "Build the package"
    # Fan-out and fan-in as written: build waits for both test and lint.
    state = {"release/start": "completed", "release/test": "completed"}
    evaluation = ag.evaluate(provider, "release", outcomes=state)
    nodes = [r.node for r in (evaluation.primary_route, *evaluation.alternative_routes) if r is not None]
    assert sorted(nodes) == ["docs", "lint"]
    report = (provider_root / "IMPORT_REPORT.md").read_text()
    assert "written as `write` until reviewed: `build`, `docs`" in report
    assert "`publish`: `if`, `retry`" in report


def test_import_workflow_json_and_id_from_file_name(provider_root: Path, tmp_path: Path) -> None:
    data = {"steps": [{"id": "Only Step", "command": "make"}]}
    result = import_workflow(_workflow(tmp_path, json.dumps(data), "Nightly Job.json"), str(provider_root))
    assert result.graph_id == "nightly-job"
    provider = ag.load_provider(str(provider_root / "provider.yaml"))
    assert [n.id for n in provider.graphs["nightly-job"].definition.nodes] == ["start", "only-step", "done"]


@pytest.mark.parametrize(
    ("text", "code", "fragment"),
    [
        ("[1, 2]\n", "workflow-invalid", "object"),
        ("steps: []\n", "workflow-invalid", "non-empty steps"),
        ("id: ''\nsteps: [{id: a, command: x}]\n", "workflow-invalid", "id must be"),
        ("steps: [{id: a}]\n", "workflow-invalid", "step 1"),
        ("steps: [{id: a, command: x, description: 3}]\n", "workflow-invalid", "description"),
        ("steps: [{id: a, command: x, dependsOn: b}]\n", "workflow-invalid", "dependsOn"),
        ("steps: [{id: a, command: x, effect: delete}]\n", "workflow-invalid", "effect"),
        ("steps: [{id: a, command: x}, {id: a, command: y}]\n", "workflow-step-duplicate", "unique"),
        (
            "steps: [{id: A b, command: x}, {id: a-b, command: y}]\n",
            "workflow-step-id-collision",
            "normalization",
        ),
        ("steps: [{id: Done, command: x}]\n", "workflow-step-id-reserved", "start or done"),
        ("steps: [{id: a, command: x, dependsOn: [ghost]}]\n", "workflow-dependency-missing", "ghost"),
        (
            "steps: [{id: a, command: x, dependsOn: [c]}, {id: b, command: y, dependsOn: [a]}, {id: c, command: z, dependsOn: [b]}]\n",
            "workflow-cycle",
            "a -> c -> b -> a",
        ),
        ("steps: [{id: a, command: x, dependsOn: [a]}]\n", "workflow-cycle", "a -> a"),
    ],
)
def test_import_workflow_rejects_bad_workflows(
    provider_root: Path, tmp_path: Path, text: str, code: str, fragment: str
) -> None:
    before = _snapshot(provider_root)
    with pytest.raises(ag.AgentGraphError) as raised:
        import_workflow(_workflow(tmp_path, text), str(provider_root))
    assert raised.value.code == code
    assert fragment in raised.value.message
    assert _snapshot(provider_root) == before


def test_a_long_dependency_chain_is_checked_without_recursion(provider_root: Path, tmp_path: Path) -> None:
    steps = [
        {"id": f"s{i}", "command": "true", **({"dependsOn": [f"s{i - 1}"]} if i else {})} for i in range(3000)
    ]
    steps[0]["dependsOn"] = ["s2999"]
    with pytest.raises(ag.AgentGraphError) as raised:
        import_workflow(_workflow(tmp_path, json.dumps({"steps": steps}), "w.json"), str(provider_root))
    assert raised.value.code == "workflow-cycle"


# ---------------------------------------------------------------- command line


def test_cli_import_commands(provider_root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    skill = _legacy_skill(tmp_path)
    assert _cli.main(["import", "skill", str(skill), "--into", str(provider_root), "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["state"], answer["kind"], answer["graphId"]) == ("imported", "skill", "deploy-it")
    assert answer["graph"] == str(provider_root / "graphs" / "deploy-it.yaml")
    script = tmp_path / "go.sh"
    script.write_text("true\n")
    assert _cli.main(["import", "scripts", str(script), "--into", str(provider_root), "--graph", "go"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Imported scripts into {provider_root / 'graphs' / 'go.yaml'} (graph go)")
    assert "Review IMPORT_REPORT.md" in out
    workflow = _workflow(tmp_path, WORKFLOW)
    assert _cli.main(["import", "workflow", workflow, "--into", str(provider_root), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["kind"] == "workflow"
    assert _cli.main(["--manifest", str(provider_root / "provider.yaml"), "validate"]) == 0
    capsys.readouterr()
    assert _cli.main(["import", "workflow", workflow, "--into", str(provider_root), "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().err)["error"]["code"] == "import-target-exists"
    assert _cli.main(["import", "skill", str(skill)]) == 1
    assert "argument-invalid" in capsys.readouterr().err


def test_imports_record_source_paths_relative_to_the_provider(provider_root: Path, tmp_path: Path) -> None:
    skill = _legacy_skill(tmp_path)
    import_skill(str(skill), str(provider_root))
    script = tmp_path / "scripts" / "go.sh"
    script.parent.mkdir()
    script.write_text("true\n")
    import_scripts([str(script)], str(provider_root), "go")
    import_workflow(_workflow(tmp_path, WORKFLOW), str(provider_root))
    written = {path: data.decode("utf-8", "replace") for path, data in _snapshot(provider_root).items()}
    leaking = sorted(path for path, text in written.items() if str(tmp_path) in text)
    assert leaking == []
    report = written["IMPORT_REPORT.md"]
    assert "`../legacy/deploy-it/SKILL.md`" in report
    assert "`../scripts/go.sh` → `scripts/go/01-go.sh`" in report
    assert "Imported workflow `../" in report
    # and so the Provider still builds: no reached file holds the source folder's absolute path
    agtool.build_bundle(ag.load_provider(str(provider_root / "provider.yaml")), str(tmp_path / "bundle"))
