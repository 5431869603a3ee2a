"""Schema violations say what and where: the thing by its ID, the problem in words, file, line and column.

The Provider files here are written as YAML text (and one as JSON), so each
test knows the line and column a message must point to.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
import agent_graph.types as agt
from agent_graph._cli.main import main
from agent_graph._syntax import explain
from agent_graph._syntax.schema import validate
from tests.load_fixtures import base_documents, memory_fs, render

GRAPH = """\
schema: agent-graph.graph.v1
id: report
entrypoints:
  default: draft
nodes:
  - id: draft
    kind: action
    reasonCode: route.main.build
    action: actions/build.yaml
    satisifedBy:
      - path: report.digest
        exists: true
  - id: approve
    kind: gate
    reasonCode: route.main.approve
    gate: {id: approval, prompt: Publish?}
    graph: child
  - id: done
    kind: terminal
    terminalOutcome: completed
edges:
  - {from: draft, to: approve}
  - {from: approve, to: done, kind: gatedby}
"""


def _position(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """1-based line and column of the ``occurrence``-th ``needle`` in ``text``."""
    index = -1
    for _ in range(occurrence + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def _load_error(files: dict[str, Any]) -> ag.AgentGraphError:
    documents = base_documents()
    documents.update(files)
    documents["provider.yaml"] = {**documents["provider.yaml"], "graphs": ["graphs/report.yaml"]}
    documents.pop("codes.yaml")
    documents["provider.yaml"].pop("catalogs")
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.load_provider("/p/provider.yaml", fs=memory_fs(documents), cache=False)
    assert raised.value.code == "schema-invalid"
    return raised.value


def _by_code(error: ag.AgentGraphError) -> dict[str, list[agt.Diagnostic]]:
    found: dict[str, list[agt.Diagnostic]] = {}
    for diagnostic in error.diagnostics:
        found.setdefault(diagnostic.code, []).append(diagnostic)
    return found


def test_a_misspelled_property_names_the_node_the_suggestion_and_the_position() -> None:
    error = _load_error({"graphs/report.yaml": GRAPH})
    assert error.message == "graphs/report.yaml does not match graph.schema.json"
    (diagnostic,) = _by_code(error)["schema.additionalProperties"]
    line, column = _position(GRAPH, "satisifedBy")
    assert diagnostic.message == (
        f'graphs/report.yaml:{line}:{column}: node draft: unknown property "satisifedBy" (did you mean "satisfiedBy"?)'
    )
    assert diagnostic.path == "/p/graphs/report.yaml"
    assert diagnostic.detail["pointer"] == "/nodes/0"
    assert (diagnostic.detail["line"], diagnostic.detail["column"]) == (line, column)


def test_a_bad_value_names_the_edge_the_allowed_values_and_the_position() -> None:
    error = _load_error({"graphs/report.yaml": GRAPH})
    (diagnostic,) = _by_code(error)["schema.enum"]
    line, column = _position(GRAPH, "gatedby")
    assert diagnostic.message == (
        f'graphs/report.yaml:{line}:{column}: edge approve -> done: kind is "gatedby"; '
        'expected one of flow, consumes, requires, gatedBy, repeat (did you mean "gatedBy"?)'
    )


def test_a_property_a_condition_forbids_is_named_with_the_condition_and_if_noise_is_folded() -> None:
    error = _load_error({"graphs/report.yaml": GRAPH})
    (forbidden,) = _by_code(error)["schema.not"]
    line, column = _position(GRAPH, "graph: child")
    assert (
        forbidden.message
        == f'graphs/report.yaml:{line}:{column}: node approve: "graph" is not allowed when kind is "gate"'
    )
    assert "schema.if" not in _by_code(error)  # the then-branch said it already
    assert len(error.diagnostics) == 3


def test_if_violations_stay_when_their_branch_says_nothing_of_its_own() -> None:
    violations = explain.explain(
        [_violation("if", "/x", "#/if", {"failingKeyword": "then"})],
        {"x": 1},
        "doc.json",
        schema={},
        root_name="doc",
    )
    assert [d.code for d in violations] == ["schema.if"]


def _violation(keyword: str, pointer: str, schema_path: str, params: dict[str, Any]) -> Any:
    from agent_graph._syntax.schema import SchemaViolation

    return SchemaViolation(keyword, pointer, schema_path, params, "must match")


def test_positions_in_json_files() -> None:
    action = {
        "schema": "agent-graph.action.v1",
        "id": "build",
        "runner": "comand",
        "effect": "write",
        "command": "make",
    }
    text = json.dumps(action, indent=2)
    documents = base_documents()
    documents["actions/build.json"] = text
    graph = documents["graphs/main.yaml"]
    for node in graph["nodes"]:
        if node.get("action") == "actions/build.yaml":
            node["action"] = "actions/build.json"
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.load_provider("/p/provider.yaml", fs=memory_fs(documents), cache=False)
    (diagnostic,) = raised.value.diagnostics
    line, column = _position(text, '"comand"')
    assert diagnostic.message == (
        f'actions/build.json:{line}:{column}: action build: runner is "comand"; '
        'expected one of command, script, agent, host (did you mean "command"?)'
    )


def test_a_missing_property_and_a_wrong_type() -> None:
    graph = GRAPH.replace("  - {from: draft, to: approve}\n", "  - {from: draft}\n").replace(
        "terminalOutcome: completed", "terminalOutcome: completed\n    priority: high"
    )
    graph = graph.replace("    satisifedBy:", "    satisfiedBy:").replace("kind: gatedby", "kind: gatedBy")
    graph = graph.replace("    graph: child\n", "")
    error = _load_error({"graphs/report.yaml": graph})
    messages = [d.message.split(": ", 1)[1] for d in error.diagnostics]
    assert messages == [
        'node done: priority is string "high"; expected integer',
        'edge from draft: missing required property "to"',
    ]


def test_texts_beyond_the_located_size_keep_their_messages_without_positions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(explain, "MAX_LOCATED_TEXT", 10)
    error = _load_error({"graphs/report.yaml": GRAPH})
    (diagnostic,) = _by_code(error)["schema.additionalProperties"]
    assert diagnostic.message == 'node draft: unknown property "satisifedBy" (did you mean "satisfiedBy"?)'
    assert "line" not in diagnostic.detail


def test_an_identity_in_a_document_without_source_names_the_document() -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        validate(
            "provider",
            {"schema": "agent-graph.provider.v1", "id": "acme/x", "version": "1", "graphs": []},
            "p.yaml",
        )
    assert [d.message for d in raised.value.diagnostics] == [
        'provider acme/x: version is "1"; expected semantic version of the Provider',
        "provider acme/x: graphs has 0 items; expected at least 1",
    ]


def test_str_of_an_error_shows_the_first_diagnostics() -> None:
    diagnostics = [agt.Diagnostic(code=f"c{i}", severity="error", message=f"problem {i}") for i in range(5)]
    text = str(ag.AgentGraphError("schema-invalid", "x does not match", diagnostics))
    assert text.splitlines() == [
        "schema-invalid: x does not match",
        "  c0: problem 0",
        "  c1: problem 1",
        "  c2: problem 2",
        "  … and 2 more diagnostics",
    ]
    assert str(ag.AgentGraphError("graph-missing", "no graph")) == "graph-missing: no graph"
    assert "satisifedBy" in str(_load_error({"graphs/report.yaml": GRAPH}))


def test_the_command_line_prints_located_diagnostics_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    documents = base_documents()
    documents["graphs/main.yaml"] = (
        render(documents["graphs/main.yaml"]).decode().replace('"kind": "gate"', '"kind": "gaet"')
    )
    for name, document in documents.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(document.encode() if isinstance(document, str) else render(document))
    monkeypatch.chdir(tmp_path)
    assert main(["validate"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "ERROR schema-invalid: graphs/main.yaml does not match graph.schema.json"
    assert err[1].startswith("  schema.enum: graphs/main.yaml:") and '"gaet"' in err[1]
    assert '(did you mean "gate"?)' in err[1] and not err[1].endswith(")" + str(tmp_path))
    assert str(tmp_path) not in err[1]


def _missing(change: Any) -> ag.AgentGraphError:
    documents = base_documents()
    change(documents)
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.load_provider("/p/provider.yaml", fs=memory_fs(documents), cache=False)
    assert raised.value.code == "file-missing"
    return raised.value


def _node(documents: dict[str, Any], node_id: str) -> dict[str, Any]:
    return next(n for n in documents["graphs/main.yaml"]["nodes"] if n["id"] == node_id)


def test_a_missing_file_says_who_refers_to_it() -> None:
    def action(documents: dict[str, Any]) -> None:
        _node(documents, "build")["action"] = "actions/bulid.yaml"

    def resource(documents: dict[str, Any]) -> None:
        _node(documents, "build").setdefault("resources", {})["recommended"] = ["resources/none.md"]

    def graph(documents: dict[str, Any]) -> None:
        documents["provider.yaml"]["graphs"].append("graphs/none.yaml")

    def document(documents: dict[str, Any]) -> None:
        documents["codes.yaml"]["codes"][0]["document"] = "resources/none.md"

    cases = {
        action: "action does not exist: /p/actions/bulid.yaml (did you mean actions/build.yaml?) "
        "(referenced by node build of graph main at graphs/main.yaml:14:14)",
        resource: "(referenced by node build of graph main at graphs/main.yaml:20:6)",
        graph: "graph does not exist: /p/graphs/none.yaml (listed under graphs at provider.yaml:8:3)",
        document: "(the document of code route.main.build at codes.yaml:8:16)",
    }
    for change, expected in cases.items():
        assert _missing(change).message.endswith(expected), change.__name__


def test_every_node_reports_its_own_problem_and_no_if_noise() -> None:
    nodes = [
        {"id": f"n{i}", "kind": "action", "reasonCode": "route.x", "action": "a.yaml", "graph": "g"}
        for i in range(3000)
    ]
    nodes.append({"id": "t", "kind": "terminal", "terminalOutcome": "completed"})
    graph = {
        "schema": "agent-graph.graph.v1",
        "id": "big",
        "entrypoints": {"default": "n0"},
        "nodes": nodes,
        "edges": [],
    }
    with pytest.raises(ag.AgentGraphError) as raised:
        validate("graph", graph, "big.json")
    diagnostics = raised.value.diagnostics
    assert [d.code for d in diagnostics] == ["schema.not"] * 3000
    assert diagnostics[2999].message == 'node n2999: "graph" is not allowed when kind is "action"'
