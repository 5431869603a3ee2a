"""The replay page: self-contained, small, safe with any Run content, and the ``replay`` command."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from agent_graph._cli.main import main
from agent_graph._core.replay import replay
from agent_graph._runtime import run_changes as rc
from agent_graph._runtime.graphviz import run_dot
from agent_graph._toolchain.replay_layout import dot_source, graph_svg
from agent_graph._toolchain.replay_page import node_statuses, page_data, render_replay_page, replay_page

REPO = Path(__file__).resolve().parents[1]
WEEKLY = REPO / "examples" / "weekly-report" / "provider.yaml"
HAS_DOT = shutil.which("dot") is not None


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(str(WEEKLY))


def _at(index: int) -> str:
    return f"2026-01-31T{9 + index // 3600:02d}:{index // 60 % 60:02d}:{index % 60:02d}.000Z"


def weekly_run(provider: ag.Provider, extra_facts: Any = None) -> ag.Run:
    """The weekly report, start to finish: draft (partial, then done), approval, publication, check."""
    run = rc.new_run(
        "weekly-1",
        provider.manifest.id,
        "report",
        "default",
        _at(1),
        workspace=None,
        facts={"team": "web", **(extra_facts or {})},
        authorities=[],
    )
    changes = [
        rc.record_change("report/draft", "partial", {"by": "agent:writer", "comment": "half written"}),
        rc.facts_change({"report": {"digest": "sha256:5f0c"}}),
        rc.record_change("report/draft", "completed", {"by": "agent:writer"}),
        rc.authorities_change(add=["report.publish"]),
        rc.facts_change({"report": {"approved": True}}, deep=True),
        rc.record_change("report/approve", "completed", {"by": "session:alice", "comment": "Ship it"}),
        rc.record_change("report/publish", "unverified", {"by": "host:publish"}),
        rc.facts_change({"publication": {"url": "https://intranet.example/w05"}}),
        rc.record_change("report/check-publication", "completed", {"by": "host:check"}),
    ]
    for index, change in enumerate(changes, start=2):
        run = rc.apply_change(run, change, _at(index))[0]
    return run


def long_run(provider: ag.Provider, events: int) -> ag.Run:
    run = rc.new_run(
        "long", provider.manifest.id, "report", "default", _at(1), workspace=None, facts={}, authorities=[]
    )
    for index in range(2, events + 1):
        change = rc.record_change("report/draft", "partial", {"by": "agent:writer", "attempt": index})
        run = rc.apply_change(run, change, _at(index))[0]
    return run


def _data(page: str) -> Any:
    match = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.DOTALL)
    assert match is not None
    return json.loads(match.group(1))


@pytest.mark.parametrize(
    "layout",
    [
        "builtin",
        pytest.param("dot", marks=pytest.mark.skipif(not HAS_DOT, reason="Graphviz dot is not installed")),
    ],
)
def test_the_page_is_one_self_contained_file(weekly: ag.Provider, layout: Any) -> None:
    run = weekly_run(weekly)
    page, used = replay_page(weekly, run, layout)
    assert used == layout
    assert page.startswith("<!DOCTYPE html>")
    # Nothing is loaded from anywhere: no external scripts, styles, images, fonts or imports.
    for pattern in (r"<script[^>]+src=", r"<link\b", r"@import", r"url\((?!#)", r"<img\b", r"<iframe\b"):
        assert re.search(pattern, page) is None, pattern
    # The only absolute URLs are SVG namespaces and the Run's own data (shown as text).
    for url in re.findall(r"https?://[^\s\"'<>]+", page):
        assert url.startswith(("http://www.w3.org/", "https://intranet.example/")), url
    assert "default-src 'none'" in page  # and the page forbids itself any request
    for index in range(len(weekly.graphs["report"].nodes)):
        assert f'id="node-{index}"' in page
    assert _data(page) == page_data(weekly, run)


def test_the_page_data_is_the_replay(weekly: ag.Provider) -> None:
    run = weekly_run(weekly)
    data = page_data(weekly, run)
    steps = list(replay(weekly, run))
    assert len(data["steps"]) == len(steps) == 10
    graph = weekly.graphs["report"]
    for shown, step in zip(data["steps"], steps, strict=True):
        assert shown["s"] == step.event.sequence and shown["y"] == step.event.type
        assert shown["st"] == step.status and shown["rv"] == step.revision
        route = step.primary_route
        offered = data["routes"][shown["p"]] if "p" in shown else None
        assert (offered or {}).get("n") == (route.node if route is not None else None)
        statuses = node_statuses(weekly, run, step)
        if route is not None and route.graph == "report":
            assert statuses[route.node] == "offered"
        assert len(shown["ns"]) == len(graph.nodes)
    # Event 7: the approval, with who decided and the comment.
    approval = data["steps"][6]
    assert (approval["n"], approval["o"], approval["by"], approval["cm"]) == (
        "report/approve",
        "completed",
        "session:alice",
        "Ship it",
    )
    # Event 9 sets a Fact first set there: before it, not recorded; after it, its value.
    assert data["steps"][8]["ch"] == [
        ["facts", "publication", None, '{"url": "https://intranet.example/w05"}', 1]
    ]
    assert data["steps"][7]["x"] == {"f": ["publication"]}
    assert "x" not in data["steps"][-1]
    assert data["steps"][2]["ch"] == [["facts", "report", None, None, 3]]  # changed again at event 6
    assert data["steps"][3]["ch"] == [["outcomes", "report/draft", "partial", "completed", 0]]
    card = data["nodes"][graph.index["draft"]]
    assert card["action"]["runner"] == "agent" and card["resources"]["required"] == ["resources/procedure.md"]
    assert card["satisfiedBy"] == ["report.digest exists"]


def test_a_1000_event_run_makes_a_page_of_a_few_hundred_kilobytes(weekly: ag.Provider) -> None:
    run = long_run(weekly, 1000)
    page = render_replay_page(weekly, run, layout="builtin")
    assert len(_data(page)["steps"]) == 1000
    assert len(page.encode("utf-8")) < 400_000


def test_run_content_cannot_break_out_of_the_page(weekly: ag.Provider) -> None:
    hostile = "</script><script>alert(1)</script><!-- \u2028 &amp;"
    run = weekly_run(weekly, {"note": hostile})
    done = rc.record_change("report/done", "completed", {"comment": hostile, "by": "<b>x</b>"})
    run = rc.apply_change(run, done, _at(30))[0]
    page = render_replay_page(weekly, run, layout="builtin")
    assert "<script>alert" not in page and "<b>x</b>" not in page
    assert page.count("<script") == 2  # the data and the page's own script
    assert _data(page)["steps"][-1]["cm"] == hostile


def test_the_builtin_layout_keeps_nodes_apart(weekly: ag.Provider) -> None:
    graph = P_graph()
    svg, used = graph_svg(graph, "builtin")
    assert used == "builtin"
    boxes = [
        tuple(float(v) for v in match)
        for match in re.findall(
            r'<rect class="shape" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg
        )
    ]
    assert len(boxes) == sum(1 for n in graph.nodes if n.kind != "gate")
    for first, (x, y, w, h) in enumerate(boxes):
        for x2, y2, w2, h2 in boxes[first + 1 :]:
            assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y
    assert len(re.findall(r'<g class="edge[ "]', svg)) == len(graph.definition.edges)


def P_graph() -> Any:
    """A Graph with a long edge, a diamond and a repeat: start → a, b → join → end, start → end."""
    from . import providers as P

    graph = P.graph_doc(
        "wide",
        [
            P.action_node("start"),
            P.action_node("a"),
            P.action_node("b"),
            P.gate_node("join"),
            P.action_node("after"),
            P.terminal_node("end"),
        ],
        [
            P.edge("start", "a"),
            P.edge("start", "b"),
            P.edge("a", "join"),
            P.edge("b", "join"),
            P.edge("join", "after", kind="gatedBy"),
            P.edge("after", "end"),
            P.edge("start", "end", "failed"),
            P.repeat("a", "a", "partial"),
        ],
    )
    return P.build(graph).graphs["wide"]


def test_dot_is_run_when_asked_and_fails_with_a_code(monkeypatch: pytest.MonkeyPatch) -> None:
    graph = P_graph()
    assert 'id="node-0"' in dot_source(graph)
    with pytest.raises(ag.AgentGraphError) as caught:
        run_dot("digraph {", required=True, program="false")  # a program that fails
    assert caught.value.code == "replay-layout-failed"
    monkeypatch.setenv("PATH", "")
    assert run_dot("digraph {}") is None
    with pytest.raises(ag.AgentGraphError) as caught:
        graph_svg(graph, "dot")
    assert caught.value.code == "replay-layout-unavailable"
    assert graph_svg(graph, "auto")[1] == "builtin"


@pytest.mark.skipif(not HAS_DOT, reason="Graphviz dot is not installed")
def test_dot_draws_every_node_with_its_id() -> None:
    graph = P_graph()
    svg, used = graph_svg(graph, "dot")
    assert used == "dot" and svg.startswith("<svg")
    for node in graph.nodes:
        assert f'id="node-{node.index}"' in svg
    assert "<title>" not in svg and "<?xml" not in svg


def test_the_replay_command_writes_the_page(weekly: ag.Provider, tmp_path: Path, capsys: Any) -> None:
    store = tmp_path / "runs"
    with ag.open_store(str(store)) as opened:
        run = opened.start("w.json", weekly, "report")
        opened.record("w.json", "report/draft", "partial", detail={"by": "agent"})
    out = tmp_path / "out" / "run.html"
    manifest = ["--manifest", str(WEEKLY)]
    assert (
        main([*manifest, "replay", "--state", str(store / "w.json"), "--out", str(out), "--format", "json"])
        == 0
    )
    answer = json.loads(capsys.readouterr().out)
    assert answer["run"] == run.id and answer["events"] == 2 and answer["bytes"] == out.stat().st_size
    assert _data(out.read_text("utf-8"))["run"]["id"] == run.id
    again = tmp_path / "again.html"
    args = [
        *manifest,
        "replay",
        "--store",
        str(store),
        "--run",
        "w.json",
        "--out",
        str(again),
        "--layout",
        "builtin",
    ]
    assert main([*args, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["layout"] == "builtin"
    assert again.read_text("utf-8") == render_replay_page(
        weekly, ag.FileRunStore().load(str(store / "w.json")), layout="builtin"
    )
    for bad, code in (
        ([], "argument-invalid"),
        (["--state", str(store / "missing.json")], "file-read-failed"),
        (["--state", str(store / "w.json"), "--store", str(store), "--run", "w.json"], "argument-invalid"),
    ):
        assert main([*manifest, "replay", *bad, "--out", str(tmp_path / "x.html"), "--format", "json"]) == 1
        captured = capsys.readouterr()
        assert json.loads(captured.out or captured.err)["error"]["code"] == code
    assert not (tmp_path / "x.html").exists()


def test_a_route_inside_a_called_graph_marks_the_calling_node(tmp_path: Path) -> None:
    from . import providers as P

    main_graph = P.graph_doc(
        "main",
        [P.action_node("prepare"), P.subgraph_node("review", "child"), P.terminal_node("end")],
        [P.edge("prepare", "review"), P.edge("review", "end")],
    )
    child = P.graph_doc("child", [P.action_node("read"), P.terminal_node("ok")], [P.edge("read", "ok")])
    provider = P.build(main_graph, child)
    run = rc.new_run(
        "r", provider.manifest.id, "main", "default", _at(1), workspace=None, facts={}, authorities=[]
    )
    run = rc.apply_change(run, rc.record_change("main/prepare", "completed", {"by": "agent"}), _at(2))[0]
    steps = list(replay(provider, run))
    assert steps[-1].primary_route is not None and steps[-1].primary_route.graph == "child"
    assert node_statuses(provider, run, steps[-1]) == {
        "prepare": "completed",
        "review": "offered",
        "end": "not-reached",
    }
    data = page_data(provider, run)
    offered = data["routes"][data["steps"][-1]["p"]]
    assert (offered["g"], offered["n"], offered["i"]) == ("child", "read", 1)
    assert data["nodes"][1]["calls"] == "child#default"
    page = render_replay_page(provider, run, layout="builtin")
    assert page.count('class="node kind-subgraph"') == 1
