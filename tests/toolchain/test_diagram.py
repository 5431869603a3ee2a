"""Diagrams: Mermaid and DOT output, shapes, labels, loops, Subgraph clusters and the evaluation overlay."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from agent_graph._cli import main as _cli
from agent_graph._core.evaluate import evaluate_with_candidates
from agent_graph._core.normalize import normalize_authorities, normalize_outcomes
from agent_graph._toolchain.diagram import DiagramState, render_diagram, settle_frame
from tests.conftest import VECTORS, vector_json
from tests.load.test_bundle import FULL_PROVIDER, write_tree


@pytest.fixture(scope="module")
def provider(tmp_path_factory: pytest.TempPathFactory) -> ag.Provider:
    return ag.load_provider(str(write_tree(tmp_path_factory.mktemp("diagram"), FULL_PROVIDER)))


def _node_line(text: str, node: str) -> str:
    index = {"write": 0, "check": 1, "review": 2, "publish": 3, "done": 4, "failed": 5}[node]
    pattern = re.compile(rf"^\s*f0_n{index}\W.*$", re.MULTILINE)
    match = pattern.search(text)
    assert match is not None, (node, text)
    return match.group(0)


# ---------------------------------------------------------------- Mermaid


def test_mermaid_shapes_labels_and_loops(provider: ag.Provider) -> None:
    text = render_diagram(provider, "main")
    assert text.splitlines()[:2] == ["%% acme/full@1.2.0 · main", "flowchart LR"]
    assert '  f0_n0["write<br/>Write the draft<br/>action"]' in text  # action: rectangle
    assert '  f0_n1[["check<br/>subgraph → check#35;default"]]' in text  # subgraph: subroutine
    assert '  f0_n2{"review<br/>gate · authority release"}' in text  # gate: diamond
    assert '  f0_n4(["done<br/>terminal: completed"])' in text  # terminal: stadium
    assert '  f0_n0 -.->|"↻ repeat: partial"| f0_n0' in text  # a visible loop
    assert '  f0_n1 -->|"failed"| f0_n5' in text  # outcomes as labels
    assert '  f0_n2 ==>|"gatedBy: completed"| f0_n3' in text  # kind as label
    # Every entrypoint, and the Subgraph drawn as a cluster linked from its caller.
    assert '  f0_entry0(("default"))' in text and '  f0_entry1(("review"))' in text
    assert '  subgraph f1["check#35;default via main/check"]' in text
    assert '  f0_n1 -.->|"calls default"| f1_n0' in text
    assert "classDef" not in text and "= " not in text  # no overlay without state


def test_subgraphs_as_links_only(provider: ag.Provider) -> None:
    text = render_diagram(provider, "main", expand_subgraphs=False)
    assert "subgraph f1" not in text and "f1_n0" not in text
    assert "subgraph → check#35;default" in text
    dot = render_diagram(provider, "main", fmt="dot", expand_subgraphs=False)
    assert "cluster" not in dot


def test_mermaid_overlay(provider: ag.Provider) -> None:
    state = DiagramState(
        outcomes={"main/write": "completed", "main/check>check/lint": "completed"}, authorities=["release"]
    )
    text = render_diagram(provider, "main", state=state)
    assert text.startswith("%% acme/full@1.2.0 · main#default · actionable\n")
    assert "= completed" in _node_line(text, "write")
    assert "= completed" in _node_line(text, "check")  # the child frame's terminal outcome
    assert "= pending<br/>▶ primary route" in _node_line(text, "review")
    assert "not reached" in _node_line(text, "publish")
    assert "  class f0_n0,f0_n1,f1_n0,f1_n1 completed" in text
    assert re.search(r"^  class [^ ]*f0_n3[^ ]* unreached$", text, re.MULTILINE)
    assert "  style f0_n2 stroke:#6a1b9a,stroke-width:4px" in text
    # The edges that fired are highlighted.
    links = [line for line in text.splitlines() if "-->" in line or "-.->" in line or "==>" in line]
    fired = {int(m.group(1)) for m in re.finditer(r"linkStyle (\d+) ", text)}
    assert {links[i].strip() for i in fired} == {
        'f0_n0 -->|"completed"| f0_n1',
        'f0_n1 -->|"completed"| f0_n2',
        'f1_n0 -->|"completed"| f1_n1',
    }


def test_alternatives_are_marked(tmp_path: Path) -> None:
    files = dict(FULL_PROVIDER)
    files["graphs/main.yaml"] = (
        files["graphs/main.yaml"]
        .replace(
            "  - {id: done, kind: terminal, terminalOutcome: completed}",
            "  - {id: side, kind: action, reasonCode: route.main.publish, action: actions/publish.yaml, priority: -1}\n"
            "  - {id: done, kind: terminal, terminalOutcome: completed}",
        )
        .replace("  - {from: write, to: check}", "  - {from: write, to: check}\n  - {from: write, to: side}")
    )
    provider = ag.load_provider(str(write_tree(tmp_path, files)))
    state = DiagramState(outcomes={"main/write": "completed"})
    evaluation = ag.evaluate(provider, "main", outcomes={"main/write": "completed"})
    assert evaluation.primary_route is not None and [r.node for r in evaluation.alternative_routes] == [
        "side"
    ]
    text = render_diagram(provider, "main", state=state)
    side = next(line for line in text.splitlines() if line.startswith('  f0_n4["side'))
    assert "◇ alternative" in side
    assert "  style f0_n4 stroke:#6a1b9a,stroke-width:2px,stroke-dasharray:5 3" in text
    assert "▶ primary route" in text
    assert 'style="rounded,filled,dashed"' in render_diagram(provider, "main", fmt="dot", state=state)


def test_labels_are_escaped() -> None:
    description = 'Say "hi" #1 <b>x</b> `c` \\n'
    graph = {
        "schema": "agent-graph.graph.v1",
        "id": "end",
        "entrypoints": {"default": "end"},
        "nodes": [
            {
                "id": "end",
                "kind": "action",
                "reasonCode": "route.x",
                "action": "a.yaml",
                "description": description,
            },
            {"id": "subgraph", "kind": "terminal", "terminalOutcome": "completed"},
        ],
        "edges": [{"from": "end", "to": "subgraph"}],
    }
    fs = ag.MemoryFileSystem(
        {
            "/p/provider.yaml": "schema: agent-graph.provider.v1\nid: p\nversion: 1.0.0\ngraphs: [g.json]\n",
            "/p/g.json": json.dumps(graph),
            "/p/a.yaml": "schema: agent-graph.action.v1\nid: a\nrunner: command\neffect: read\ncommand: x\n",
        }
    )
    provider = ag.load_provider("/p/provider.yaml", fs=fs)
    text = render_diagram(provider, "end")
    assert "Say #quot;hi#quot; #35;1 #lt;b#gt;x#lt;/b#gt; #96;c#96; \\n" in text
    assert '"' not in text.split('["', 1)[1].split('"]', 1)[0]
    dot = render_diagram(provider, "end", fmt="dot")
    assert 'Say \\"hi\\" #1 <b>x</b> `c` \\\\n' in dot


# ---------------------------------------------------------------- DOT


def test_dot_shapes_labels_and_clusters(provider: ag.Provider) -> None:
    text = render_diagram(provider, "main", fmt="dot")
    assert text.startswith('digraph "main" {\n')
    assert text.endswith("}\n")
    assert re.search(
        r'f0_n0 \[label="write\\nWrite the draft\\naction", shape=box, style="rounded,filled"\];', text
    )
    assert (
        'f0_n2 [label="review\\ngate · authority release", shape=diamond, margin=0, style="filled"];' in text
    )
    assert "shape=box3d" in _node_line(text, "check")
    assert "peripheries=2" in _node_line(text, "done")
    assert 'f0_n0 -> f0_n0 [label="↻ repeat: partial", style=dashed, constraint=false];' in text
    assert 'f0_n2 -> f0_n3 [label="gatedBy: completed", style=bold];' in text
    assert "  subgraph cluster_f1 {" in text
    assert 'f0_n1 -> f1_n0 [style=dotted, label="calls default"];' in text


def test_dot_overlay(provider: ag.Provider) -> None:
    text = render_diagram(provider, "main", fmt="dot", state=DiagramState(outcomes={"main/write": "partial"}))
    assert 'label="acme/full@1.2.0 · main#default · actionable";' in text
    write = _node_line(text, "write")
    assert "= pending" in write and "▶ primary route" in write and "penwidth=4" in write
    assert 'fontcolor="#9e9e9e"' in _node_line(text, "check")
    # The repeat re-armed the node: it is pending again, so no edge leaves it.
    assert 'f0_n0 -> f0_n0 [label="↻ repeat: partial", style=dashed, constraint=false];' in text
    text = render_diagram(
        provider, "main", fmt="dot", state=DiagramState(outcomes={"main/write": "completed"})
    )
    assert 'f0_n0 -> f0_n1 [label="completed", color="#6a1b9a", penwidth=2.5];' in text


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_graphviz_accepts_the_output(provider: ag.Provider) -> None:
    for state in (None, DiagramState(outcomes={"main/write": "completed"}, authorities=["release"])):
        result = subprocess.run(
            ["dot", "-Tsvg"],
            input=render_diagram(provider, "main", fmt="dot", state=state),
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0 and not result.stderr, result.stderr


# ---------------------------------------------------------------- settled outcomes


def test_settle_frame_follows_the_rules(provider: ag.Provider) -> None:
    main = provider.graphs["main"]
    assert settle_frame(provider, main, "default", (), {}, {}, []) == {"write": "pending"}
    assert settle_frame(provider, main, "nope", (), {}, {}, []) == {}
    settled = settle_frame(provider, main, "default", (), {}, {"main/write": "completed"}, [])
    assert settled == {"write": "completed", "check": "pending"}
    settled = settle_frame(
        provider, main, "default", (), {}, {"main/write": "completed", "main/check>check/lint": "failed"}, []
    )
    assert settled == {"write": "completed", "check": "failed", "failed": "failed"}
    assert settle_frame(provider, main, "default", (), {}, {"main/write": "partial"}, []) == {
        "write": "pending"
    }
    check = provider.graphs["check"]
    assert settle_frame(
        provider, check, "default", ("main/check",), {}, {"main/check>check/lint": "completed"}, []
    ) == {
        "lint": "completed",
        "ok": "completed",
    }


def _vector_cases() -> list[dict[str, Any]]:
    return [c for c in vector_json("cases.json") if "load" not in c][:120]


def test_settled_outcomes_agree_with_the_evaluator() -> None:
    cases = _vector_cases()
    assert cases
    providers: dict[str, ag.Provider] = {}
    for case in cases:
        manifest = case["manifest"]
        provider = providers.setdefault(manifest, ag.load_provider(str(VECTORS / manifest)))
        state = case["state"]
        outcomes = normalize_outcomes(state.get("outcomes", {}))
        authorities = normalize_authorities(state.get("authorities", []))
        evaluation, candidates = evaluate_with_candidates(
            provider, case["graph"], case["entry"], state.get("facts", {}), outcomes, authorities
        )
        graph = provider.graphs[case["graph"]]
        settled = settle_frame(
            provider, graph, case["entry"], (), state.get("facts", {}), outcomes, authorities
        )
        kinds = {node.id: node.kind for node in graph.nodes}
        terminals = sorted({o for n, o in settled.items() if kinds[n] == "terminal"})
        if evaluation.status_code == "complete":
            assert terminals == [evaluation.outcome]
        elif evaluation.status_code != "error":
            pending = sorted(
                n
                for n, o in settled.items()
                if kinds[n] in ("action", "gate") and o in ("pending", "waiting-user")
            )
            assert pending == sorted(c.node.id for c in candidates if not c.call_path)
            assert terminals == []


def test_long_chains_are_drawn_without_recursion() -> None:
    count = 5000
    nodes = [
        {"id": f"n{i}", "kind": "action", "reasonCode": "route.x", "action": "a.yaml"} for i in range(count)
    ]
    nodes.append({"id": "done", "kind": "terminal", "terminalOutcome": "completed"})
    edges = [{"from": f"n{i}", "to": f"n{i + 1}"} for i in range(count - 1)] + [
        {"from": f"n{count - 1}", "to": "done"}
    ]
    graph = {
        "schema": "agent-graph.graph.v1",
        "id": "long",
        "entrypoints": {"default": "n0"},
        "nodes": nodes,
        "edges": edges,
    }
    fs = ag.MemoryFileSystem(
        {
            "/p/provider.yaml": "schema: agent-graph.provider.v1\nid: p\nversion: 1.0.0\ngraphs: [g.json]\n",
            "/p/g.json": json.dumps(graph),
            "/p/a.yaml": "schema: agent-graph.action.v1\nid: a\nrunner: command\neffect: read\ncommand: x\n",
        }
    )
    provider = ag.load_provider("/p/provider.yaml", fs=fs)
    outcomes = {f"long/n{i}": "completed" for i in range(count)}
    text = render_diagram(provider, "long", state=DiagramState(outcomes=outcomes))
    assert text.count("= completed") == count + 1
    assert "#default · complete (completed)" in text.splitlines()[0]


# ---------------------------------------------------------------- command line


def test_cli_diagram(provider: ag.Provider, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = provider.manifest_path
    assert _cli.main(["diagram", "--manifest", manifest, "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().err)["error"]["code"] == "graph-selection-missing"
    assert _cli.main(["diagram", "main", "--manifest", manifest]) == 0
    first = capsys.readouterr().out
    assert first == render_diagram(provider, "main")
    assert _cli.main(["diagram", "check", "--format", "dot", "--manifest", manifest]) == 0
    assert capsys.readouterr().out == render_diagram(provider, "check", fmt="dot")
    assert _cli.main(["diagram", "main", "--format=dot", "--no-subgraphs", "--manifest", manifest]) == 0
    assert "cluster" not in capsys.readouterr().out
    assert (
        _cli.main(
            [
                "diagram",
                "main",
                "--manifest",
                manifest,
                "--outcomes",
                '{"main/write": "completed"}',
                "--format",
                "json",
            ]
        )
        == 0
    )
    answer = json.loads(capsys.readouterr().out)
    assert (answer["graph"], answer["format"], answer["overlay"]) == ("main", "mermaid", True)
    assert answer["diagram"] == render_diagram(
        provider, "main", state=DiagramState(outcomes={"main/write": "completed"})
    )
    assert _cli.main(["diagram", "main", "--evaluate", "--entry", "review", "--manifest", manifest]) == 0
    assert capsys.readouterr().out.startswith("%% acme/full@1.2.0 · main#review · waiting-user\n")
    assert _cli.main(["diagram", "ghost", "--manifest", manifest, "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().err)["error"]["code"] == "graph-missing"
    assert _cli.main(["diagram", "main", "--manifest", manifest, "--outcomes", "[1]"]) == 1
    assert "json-object-required" in capsys.readouterr().err
