"""``init``, the YAML writer and the safe file creation the authoring commands share."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

import agent_graph as ag
from agent_graph._cli import main as _cli
from agent_graph._core.canonical import canonical_json
from agent_graph._runtime.testing import run_graph_tests
from agent_graph._syntax.parse import parse_yaml
from agent_graph._toolchain.scaffold import (
    dump_yaml,
    edit_or_dump,
    init_files,
    init_provider,
    slug,
    yaml_scalar,
)

INIT_FILES = sorted(
    [
        "provider.yaml",
        "graphs/main.yaml",
        "actions/work.yaml",
        "skills/getting-started/SKILL.md",
        "resources/procedure.md",
        "codes.yaml",
        "tests/01-start.yaml",
        "tests/02-done.yaml",
    ]
)


def _tree(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


# ---------------------------------------------------------------- init


def test_init_writes_a_provider_that_passes_its_tests(tmp_path: Path) -> None:
    manifest = init_provider(str(tmp_path / "p"), "Acme Release")
    assert manifest == str(tmp_path / "p" / "provider.yaml")
    assert _tree(tmp_path / "p") == INIT_FILES
    provider = ag.load_provider(manifest)
    assert provider.manifest.id == "acme-release"
    assert provider.manifest.name == "Acme Release"
    assert (
        provider.manifest.compatibility is not None
        and provider.manifest.compatibility.agent_graph == "^0.3.0"
    )
    results = run_graph_tests(provider, str(tmp_path / "p" / "tests"))
    assert [r.passed for r in results] == [True, True]
    assert all(not r.failures for r in results)


def test_init_has_an_agent_action_a_bound_skill_a_procedure_and_a_catalog(tmp_path: Path) -> None:
    manifest = init_provider(str(tmp_path), "demo")
    provider = ag.load_provider(manifest)
    (action,) = provider.actions.values()
    assert (action.definition.runner, action.definition.effect) == ("agent", "write")
    assert provider.code_catalog_path == str(tmp_path / "codes.yaml")
    assert set(provider.codes) == {"route.main.work"}
    assert {r.id: r.kind for r in provider.resources.values()} == {"procedure.start": "procedure"}
    binding = ag.resolve_skill_binding(str(tmp_path / "skills" / "getting-started" / "SKILL.md"))
    assert (binding.locator, binding.graph, binding.entry, binding.provider) == (
        "path:../../provider.yaml",
        "main",
        "default",
        "demo",
    )
    evaluation = ag.evaluate(provider, "main")
    assert evaluation.primary_route is not None
    route = ag.route(
        provider, "main", route_id=evaluation.primary_route.route_id, revision=evaluation.revision
    )
    assert [loc.id for loc in route.resources.required] == ["skill.getting-started", "procedure.start"]
    assert ag.load_provider(str(tmp_path / "skills" / "getting-started" / "SKILL.md")).manifest.id == "demo"


@pytest.mark.parametrize("existing", INIT_FILES)
def test_init_refuses_to_overwrite_anything(tmp_path: Path, existing: str) -> None:
    target = tmp_path / existing
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("mine\n")
    with pytest.raises(ag.AgentGraphError) as raised:
        init_provider(str(tmp_path), "demo")
    assert raised.value.code == "provider-target-exists"
    assert _tree(tmp_path) == [existing]
    assert target.read_text() == "mine\n"


def test_init_refuses_a_file_where_a_directory_goes(tmp_path: Path) -> None:
    (tmp_path / "graphs").write_text("a file\n")
    with pytest.raises(ag.AgentGraphError) as raised:
        init_provider(str(tmp_path), "demo")
    assert raised.value.code == "path-not-directory"
    assert _tree(tmp_path) == ["graphs"]


@pytest.mark.parametrize(
    ("given_id", "identifier"),
    [
        ("My Product!", "my-product"),
        ("Acme/Release", "acme-release"),
        ("a..b", "a-b"),
        ("  x  ", "x"),
        ("true", "true"),
        ("1.0", "1.0"),
    ],
)
def test_ids_are_normalized_and_stay_strings(tmp_path: Path, given_id: str, identifier: str) -> None:
    assert slug(given_id) == identifier
    manifest = init_provider(str(tmp_path), given_id)
    assert ag.load_provider(manifest).manifest.id == identifier


@pytest.mark.parametrize("given_id", ["", "---", "!!!", "x" * 200])
def test_an_id_without_identifier_characters_is_refused(tmp_path: Path, given_id: str) -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        init_provider(str(tmp_path), given_id)
    assert raised.value.code == "id-invalid"
    assert _tree(tmp_path) == []


def test_init_files_are_schema_valid_yaml() -> None:
    from agent_graph._syntax import schema as _schema

    files = init_files("demo")
    for relative, schema in (
        ("provider.yaml", "provider"),
        ("graphs/main.yaml", "graph"),
        ("actions/work.yaml", "action"),
        ("codes.yaml", "code-catalog"),
        ("tests/01-start.yaml", "test-case"),
        ("tests/02-done.yaml", "test-case"),
    ):
        _schema.validate(schema, parse_yaml(files[relative]), relative)


def test_init_names_each_yaml_files_schema_for_editors_and_the_loader_reads_the_same_values(
    tmp_path: Path,
) -> None:
    from agent_graph._syntax.schema import schema_document

    schemas = {
        "agent-graph.provider.v1": "provider",
        "agent-graph.graph.v1": "graph",
        "agent-graph.action.v1": "action",
        "agent-graph.code-catalog.v1": "code-catalog",
        "agent-graph.test.v1": "test-case",
    }
    files = init_files("demo")
    plain = {}
    for path, text in files.items():
        if not path.endswith(".yaml"):
            assert "yaml-language-server" not in text
            plain[path] = text
            continue
        first, rest = text.split("\n", 1)
        name = schemas[parse_yaml(text)["schema"]]
        assert first == f"# yaml-language-server: $schema={schema_document(name)['$id']}"
        assert first.endswith(f"/{name}.schema.json")
        assert parse_yaml(rest) == parse_yaml(text)  # a comment: the same value
        plain[path] = rest
    with_line = ag.load_provider(init_provider(str(tmp_path / "with"), "demo"))
    for path, text in plain.items():
        target = tmp_path / "without" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    without = ag.load_provider(str(tmp_path / "without" / "provider.yaml"))
    assert with_line.raw_manifest == without.raw_manifest
    assert [msgspec.to_builtins(g.definition) for g in with_line.graphs.values()] == [
        msgspec.to_builtins(g.definition) for g in without.graphs.values()
    ]
    assert with_line.codes == without.codes
    assert {p.rpartition("/with/")[2] for p in with_line.files} == {
        p.rpartition("/without/")[2] for p in without.files
    }
    # what differs is what the files' bytes imply: their digests, so the Provider's and the revisions
    assert with_line.digest != without.digest
    state = {"facts": {}, "outcomes": {}, "authorities": []}
    before, after = ag.evaluate(with_line, "main", **state), ag.evaluate(without, "main", **state)
    assert before.revision != after.revision
    assert (before.status_code, before.primary_route and before.primary_route.node) == (
        after.status_code,
        after.primary_route and after.primary_route.node,
    )
    assert run_graph_tests(with_line, str(tmp_path / "with" / "tests"))[0].passed


def test_cli_init(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli.main(["init", str(tmp_path / "p"), "--id", "demo", "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer == {"state": "created", "manifest": str(tmp_path / "p" / "provider.yaml")}
    assert _cli.main(["init", str(tmp_path / "p"), "--id", "demo"]) == 1
    assert capsys.readouterr().err.startswith("ERROR provider-target-exists:")
    assert _cli.main(["init", str(tmp_path / "q")]) == 1
    assert "argument-invalid" in capsys.readouterr().err
    cwd = os.getcwd()
    os.chdir(tmp_path / "p")
    try:
        (tmp_path / "r").mkdir()
        os.chdir(tmp_path / "r")
        assert _cli.main(["init", "--id", "here"]) == 0
    finally:
        os.chdir(cwd)
    assert (tmp_path / "r" / "provider.yaml").is_file()
    assert "Created Agent Graph provider" in capsys.readouterr().out


# ---------------------------------------------------------------- the YAML writer

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(["yes", "no", "on", "null", "~", "true", "1.0", "0x1F", "0o17", "1_000", ".inf", "- a", "a: b",
                       "#x", "x #y", "'q'", '"q"', "@a", "`a", "%a", "!a", "&a", "*a", "|", ">", "[a]", "{a}", "a,b",
                       "2026-01-01", "-", "?", ":", " lead", "trail ", "multi\nline", "tab\tx", "\u2028", "é", "\x7f"])
)  # fmt: skip
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(json_values)
def test_dump_yaml_reads_back_the_same_value(value: Any) -> None:
    assert canonical_json(parse_yaml(dump_yaml(value))) == canonical_json(value)


def test_dump_yaml_layout() -> None:
    value = {
        "schema": "x",
        "graphs": ["a.yaml", "b.yaml"],
        "nested": {"list": [{"a": 1, "b": [True, None]}], "empty": {}},
    }
    assert dump_yaml(value) == (
        "schema: x\n"
        "graphs:\n"
        "  - a.yaml\n"
        "  - b.yaml\n"
        "nested:\n"
        "  list:\n"
        "    - a: 1\n"
        "      b:\n"
        "        - true\n"
        "        - null\n"
        "  empty: {}\n"
    )
    assert yaml_scalar(">=20") == '">=20"'
    assert yaml_scalar("^0.3.0") == "^0.3.0"
    assert yaml_scalar("yes") == "yes"  # a string in YAML 1.2
    assert yaml_scalar("true") == '"true"'
    assert yaml_scalar(1e21) == "1e+21"
    assert yaml_scalar(math.inf) == ".inf"


def test_dump_yaml_handles_deep_values() -> None:
    value: Any = "leaf"
    for _ in range(3000):
        value = [value]
    text = dump_yaml(value)
    assert text.count("- ") == 3000


def test_edit_or_dump_keeps_comments_when_the_edit_is_right() -> None:
    text = "# comment\nitems:\n  - a # first\n"

    def append_b(source: str) -> str:
        return source + "  - b\n"

    assert edit_or_dump(text, {"items": ["a", "b"]}, [append_b]) == text + "  - b\n"
    # An edit giving another value is ignored: the value is written fresh.
    assert edit_or_dump(text, {"items": ["a", "c"]}, [append_b]) == "items:\n  - a\n  - c\n"
    assert edit_or_dump('{"a": 1}', {"a": 2}, [], path="x.json") == '{\n  "a": 2\n}\n'
