"""agent-graph export-python: a Provider as the Python that declares it, which gives the Provider back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
import agent_graph.define as agd
from agent_graph._cli.main import main as cli
from agent_graph._toolchain.export_python import python_source
from tests.conftest import REPO, VECTORS
from tests.typecheck import mypy_strict

EXAMPLES = sorted(p.parent for p in (REPO / "examples").glob("*/provider.yaml"))
VECTOR_MANIFESTS = sorted(VECTORS.glob("providers/*/provider.*")) if VECTORS.is_dir() else []


def _run(source: str) -> agd.ProviderBuilder:
    namespace: dict[str, Any] = {}
    exec(compile(source, "exported.py", "exec"), namespace)
    builder = namespace["p"]
    assert isinstance(builder, agd.ProviderBuilder)
    return builder


def _revisions(provider: ag.Provider) -> dict[tuple[str, str], str]:
    return {
        (graph_id, entry): ag.evaluate(provider, graph_id, entry).revision
        for graph_id, graph in provider.graphs.items()
        for entry in graph.definition.entrypoints
    }


@pytest.mark.parametrize("folder", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_the_exported_python_gives_the_example_back(folder: Path, tmp_path: Path) -> None:
    provider = ag.load_provider(str(folder / "provider.yaml"))
    rebuilt = _run(python_source(provider)).load(root=provider.root)
    results = ag.run_graph_tests(rebuilt, str(folder / "tests"), fs=ag.OSFileSystem())
    assert results and [r.failures for r in results if not r.passed] == []
    # Files in the builder's own form come back byte for byte: the same revisions, the same Python.
    agd.from_provider(provider, extras=False).write(tmp_path / "a", fresh=True)
    written = ag.load_provider(str(tmp_path / "a" / "provider.yaml"))
    source = python_source(written)
    again = _run(source)
    assert _revisions(again.load(root=written.root)) == _revisions(written)
    again.write(tmp_path / "b")
    assert python_source(ag.load_provider(str(tmp_path / "b" / "provider.yaml"))) == source
    assert sorted(
        p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file()
    ) == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*") if p.is_file())


@pytest.mark.skipif(not VECTOR_MANIFESTS, reason=f"toolchain vectors not found at {VECTORS}")
def test_the_exported_python_gives_every_vector_provider_back() -> None:
    exported = 0
    for manifest in VECTOR_MANIFESTS:
        try:
            provider = ag.load_provider(str(manifest))
        except ag.AgentGraphError:
            continue  # a vector of a refused Provider
        written = agd.from_provider(provider, extras=False).load(root=provider.root, fresh=True)  # in memory
        rebuilt = _run(python_source(written)).load(root=written.root)
        assert _revisions(rebuilt) == _revisions(written), manifest
        exported += 1
    assert exported > 50


def test_the_command_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    manifest = str(REPO / "examples" / "weekly-report" / "provider.yaml")
    assert cli(["export-python", "--manifest", manifest]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith('"""The Provider examples/weekly-report@0.1.0')
    assert "report_graph.edge(approve, publish, kind='gatedBy')" in printed
    assert cli(["export-python", "--manifest", manifest, "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["provider"] == "examples/weekly-report" and answer["python"] == printed


@pytest.mark.slow
def test_the_exported_python_passes_mypy_strict(tmp_path: Path) -> None:
    files = []
    for folder in EXAMPLES:
        target = tmp_path / f"{folder.name.replace('-', '_')}.py"
        target.write_text(python_source(ag.load_provider(str(folder / "provider.yaml"))), encoding="utf-8")
        files.append(str(target))
    done = mypy_strict(files, tmp_path / "c")
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_construct_comes_back_byte_for_byte() -> None:
    from tests.load.test_define import _every_kind

    built = _every_kind()
    files = built.files()
    exported = _run(python_source(built.load())).files()
    assert exported == {
        path: data for path, data in files.items() if path != "README.md"
    }  # not in the file set
