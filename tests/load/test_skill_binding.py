"""Skill bindings: a ``SKILL.md`` selects one Provider, Graph and Entry, or fails with its own code.

``metadata.agent-graph`` (a ``path:`` locator relative to the ``SKILL.md`` or a
``provider:`` locator a host registry resolves), ``metadata.agent-graph.graph``
and ``metadata.agent-graph.entry`` are validated together, through
``resolve_skill_binding`` and through ``load_provider("…/SKILL.md")``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
import agent_graph.types as agt
from agent_graph._syntax import schema as _schema
from tests.load_fixtures import MANIFEST, ROOT, Documents, base_documents, memory_fs, write_tree

SKILL = "skills/bound/SKILL.md"
SKILL_PATH = f"{ROOT}/{SKILL}"


def skill_text(binding: dict[str, Any] | str | None, name: str = "bound") -> str:
    """A SKILL.md whose front matter declares ``binding`` under ``metadata`` (raw text when a string)."""
    lines = ["---", f"name: {name}", "description: Runs the release."]
    if isinstance(binding, str):
        lines.append(binding.rstrip("\n"))
    elif binding is not None:
        lines.append("metadata:")
        for key, value in binding.items():
            lines.append(f"  {key}: {value!r}" if not isinstance(value, str) else f"  {key}: '{value}'")
    lines += ["---", "Follow the graph.", ""]
    return "\n".join(lines)


def binding(**overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "agent-graph": "path:../../provider.yaml",
        "agent-graph.graph": "main",
        "agent-graph.entry": "default",
    }
    for key, value in overrides.items():
        name = {"locator": "agent-graph", "graph": "agent-graph.graph", "entry": "agent-graph.entry"}[key]
        if value is None:
            del values[name]
        else:
            values[name] = value
    return values


def documents_with(skill: str) -> Documents:
    documents = base_documents()
    documents[SKILL] = skill
    return documents


def resolve(skill: str, registry: dict[str, str] | None = None) -> agt.SkillBinding:
    return ag.resolve_skill_binding(SKILL_PATH, registry, fs=memory_fs(documents_with(skill)))


def fails(skill: str, code: str, registry: dict[str, str] | None = None) -> ag.AgentGraphError:
    """Both entry points refuse the Skill with ``code``."""
    fs = memory_fs(documents_with(skill))
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.resolve_skill_binding(SKILL_PATH, registry, fs=fs)
    assert raised.value.code == code, f"{raised.value.code}: {raised.value.message}"
    with pytest.raises(ag.AgentGraphError) as loaded:
        ag.load_provider(SKILL_PATH, fs=fs, registry=registry)
    assert loaded.value.code == code, f"{loaded.value.code}: {loaded.value.message}"
    return raised.value


# ---------------------------------------------------------------- resolving


def test_path_locator() -> None:
    result = resolve(skill_text(binding()))
    wire = msgspec.to_builtins(result)
    assert wire == {
        "schema": "agent-graph.skill-binding.v1",
        "skillPath": SKILL_PATH,
        "locator": "path:../../provider.yaml",
        "graph": "main",
        "entry": "default",
        "manifestPath": MANIFEST,
        "provider": "acme/base",
    }
    _schema.validate("skill-binding", wire, "binding")


def test_load_provider_through_a_skill() -> None:
    fs = memory_fs(documents_with(skill_text(binding())))
    provider = ag.load_provider(SKILL_PATH, fs=fs)
    assert provider.manifest.id == "acme/base"
    assert provider.manifest_path == MANIFEST


def test_entry_of_a_second_graph() -> None:
    result = resolve(skill_text(binding(graph="child")))
    assert (result.graph, result.entry) == ("child", "default")


def test_provider_locator_with_a_registry() -> None:
    registry = {"acme/base": MANIFEST}
    result = resolve(skill_text(binding(locator="provider:acme/base")), registry)
    assert result.locator == "provider:acme/base"
    assert result.manifest_path == MANIFEST
    assert result.provider == "acme/base"
    fs = memory_fs(documents_with(skill_text(binding(locator="provider:acme/base"))))
    assert ag.load_provider(SKILL_PATH, fs=fs, registry=registry).manifest.id == "acme/base"


def test_path_locator_next_to_the_manifest() -> None:
    documents = base_documents()
    documents["SKILL.md"] = skill_text(binding(locator="path:provider.yaml"))
    result = ag.resolve_skill_binding(f"{ROOT}/SKILL.md", fs=memory_fs(documents))
    assert result.manifest_path == MANIFEST


def test_on_disk_with_a_relative_skill_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(tmp_path, documents_with(skill_text(binding())))
    monkeypatch.chdir(tmp_path / "skills")
    result = ag.resolve_skill_binding("bound/SKILL.md")
    assert Path(result.skill_path) == tmp_path / SKILL
    assert Path(result.manifest_path) == tmp_path / "provider.yaml"
    assert ag.load_provider("bound/SKILL.md").manifest.id == "acme/base"


# ---------------------------------------------------------------- skill-binding-missing


def test_no_metadata() -> None:
    fails(skill_text(None), "skill-binding-missing")


def test_metadata_not_an_object() -> None:
    fails(skill_text("metadata: agent-graph"), "skill-binding-missing")


@pytest.mark.parametrize("missing", ["locator", "graph", "entry"])
def test_each_key_missing(missing: str) -> None:
    error = fails(skill_text(binding(**{missing: None})), "skill-binding-missing")
    key = {"locator": "agent-graph", "graph": "agent-graph.graph", "entry": "agent-graph.entry"}[missing]
    assert key in error.message


@pytest.mark.parametrize("missing", ["locator", "graph", "entry"])
@pytest.mark.parametrize("value", ["", "   ", 7, True])
def test_each_key_empty_or_not_a_string(missing: str, value: Any) -> None:
    fails(skill_text(binding(**{missing: value})), "skill-binding-missing")


def test_keys_outside_metadata_do_not_bind() -> None:
    text = "---\nname: bound\nagent-graph: path:../../provider.yaml\nagent-graph.graph: main\nagent-graph.entry: default\n---\n"
    fails(text, "skill-binding-missing")


def test_nested_keys_are_not_the_dotted_keys() -> None:
    text = (
        "metadata:\n  agent-graph: path:../../provider.yaml\n"
        "  agent-graph-graph: main\n  graph: main\n  entry: default\n"
    )
    fails(skill_text(text), "skill-binding-missing")


# ---------------------------------------------------------------- locators


@pytest.mark.parametrize("locator", ["file:../../provider.yaml", "../../provider.yaml", "path:", "PATH:x"])
def test_skill_locator_invalid(locator: str) -> None:
    fails(skill_text(binding(locator=locator)), "skill-locator-invalid")


@pytest.mark.parametrize(
    "locator", ["path:/p/provider.yaml", "path:C:/p/provider.yaml", "path:C:\\p\\provider.yaml"]
)
def test_skill_locator_absolute(locator: str) -> None:
    fails(skill_text(binding(locator=locator)), "skill-locator-absolute")


def test_path_locator_to_a_missing_manifest() -> None:
    fails(skill_text(binding(locator="path:../missing.yaml")), "file-missing")


@pytest.mark.parametrize("registry", [None, {}, {"acme/other": MANIFEST}])
def test_provider_unresolved(registry: dict[str, str] | None) -> None:
    error = fails(skill_text(binding(locator="provider:acme/base")), "provider-unresolved", registry)
    assert "acme/base" in error.message


def test_provider_id_mismatch() -> None:
    registry = {"acme/other": MANIFEST}
    fails(skill_text(binding(locator="provider:acme/other")), "provider-id-mismatch", registry)


def test_registered_manifest_missing() -> None:
    registry = {"acme/base": f"{ROOT}/absent.yaml"}
    fails(skill_text(binding(locator="provider:acme/base")), "file-missing", registry)


# ---------------------------------------------------------------- graph and entry


def test_skill_graph_missing() -> None:
    assert "release" in fails(skill_text(binding(graph="release")), "skill-graph-missing").message


@pytest.mark.parametrize("entry", ["publish", "build"])  # "build" is a node ID, not an entry name
def test_skill_entry_missing(entry: str) -> None:
    fails(skill_text(binding(entry=entry)), "skill-entry-missing")


def test_graph_is_checked_before_entry() -> None:
    fails(skill_text(binding(graph="release", entry="publish")), "skill-graph-missing")


def test_provider_identity_is_checked_before_graph() -> None:
    registry = {"acme/other": MANIFEST}
    fails(
        skill_text(binding(locator="provider:acme/other", graph="release")), "provider-id-mismatch", registry
    )


def test_the_provider_must_load() -> None:
    documents = documents_with(skill_text(binding()))
    del documents["graphs/child.yaml"]
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.resolve_skill_binding(SKILL_PATH, fs=memory_fs(documents))
    assert raised.value.code == "file-missing"


# ---------------------------------------------------------------- the SKILL.md itself


def test_skill_file_missing() -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.resolve_skill_binding(f"{ROOT}/skills/none/SKILL.md", fs=memory_fs(base_documents()))
    assert raised.value.code == "file-read-failed"  # as the reference reads it
    assert [d.code for d in raised.value.diagnostics] == ["file-missing"]


def test_skill_without_front_matter() -> None:
    fails("# Bound\n\nNo header.\n", "frontmatter-missing")


def test_skill_with_broken_front_matter() -> None:
    fails("---\nmetadata: [\n---\n", "frontmatter-invalid")


def test_binding_errors_say_where_in_the_front_matter() -> None:
    # lines: 1 ---, 2 name, 3 description, 4 metadata:, 5 agent-graph, 6 graph, 7 entry
    error = fails(skill_text(binding(graph="mian")), "skill-graph-missing")
    assert error.message.startswith(f"{SKILL_PATH}:6:22: "), error.message
    assert error.message.endswith("selects missing Graph mian (did you mean main?)")
    error = fails(skill_text(binding(entry="defualt")), "skill-entry-missing")
    assert error.message.startswith(f"{SKILL_PATH}:7:22: "), error.message
    assert error.message.endswith("(did you mean default?)")
    error = fails(skill_text(binding(locator="/p/provider.yaml")), "skill-locator-invalid")
    assert error.message.startswith(f"{SKILL_PATH}:5:16: "), error.message
    error = fails(skill_text(binding(entry=None)), "skill-binding-missing")
    assert error.message.startswith(f"{SKILL_PATH}:4:1"), error.message
    assert error.message.endswith("does not declare metadata.agent-graph.entry (it is missing)")
