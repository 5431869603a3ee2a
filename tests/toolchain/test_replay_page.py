"""The replay page: self-contained, small, safe with any Run content, and the ``replay`` command."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from agent_graph._cli.main import main
from agent_graph._core.replay import replay
from agent_graph._runtime import run_changes as rc
from agent_graph._runtime.graphviz import run_dot
from agent_graph._toolchain.replay_layout import dot_source, graph_svg
from agent_graph._toolchain.replay_page import (
    _status_letters,
    node_statuses,
    page_data,
    render_replay_page,
    replay_page,
)
from tests.core.test_replay import legacy
from tests.paths import WEEKLY

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
    letters = ""
    for shown, step in zip(data["steps"], steps, strict=True):
        letters = shown.get("ns", letters)
        changed = shown.get("nd", [])
        for index in range(0, len(changed), 3):
            first, count, letter = changed[index : index + 3]
            letters = letters[:first] + letter * count + letters[first + count :]
        assert shown["s"] == step.event.sequence and shown["y"] == step.event.type
        assert shown["st"] == step.status and shown["rv"] == step.revision
        route = step.primary_route
        offered = data["routes"][shown["p"]] if "p" in shown else None
        assert (offered or {}).get("n") == (route.node if route is not None else None)
        statuses = node_statuses(weekly, run, step)
        if route is not None and route.graph == "report":
            assert statuses[route.node] == "offered"
        assert letters == _status_letters(weekly, run, step)[0]  # rebuilt from the deltas
    # Event 7: the approval, with who decided and the comment.
    approval = data["steps"][6]
    assert (approval["n"], approval["o"], approval["by"], approval["cm"]) == (
        "report/approve",
        "completed",
        "session:alice",
        "Ship it",
    )
    values = data["values"]
    # Event 9 sets a Fact first set there: before it, absent; after it, its value (each value once).
    [(part, key, before, after, flags)] = data["steps"][8]["ch"]
    assert (part, key, before, values[after], flags) == (
        "facts",
        "publication",
        -1,
        '{"url": "https://intranet.example/w05"}',
        0,
    )
    # Event 6 merges into the report: before is event 3's after, stored once.
    [(_, key, before, after, flags)] = data["steps"][5]["ch"]
    assert key == "report" and before == data["steps"][2]["ch"][0][3] and flags == 0
    assert values[after] == '{"digest": "sha256:5f0c", "approved": true}'
    assert not any("x" in shown for shown in data["steps"])  # every event exact
    assert "set" not in data["steps"][2].get("d", "")  # the values show in the changes, not twice
    assert data["steps"][3]["ch"] == [["outcomes", "report/draft", "partial", "completed", 0]]
    # Written without values, the events say what they do not know.
    old = page_data(weekly, legacy(run))["steps"]
    assert old[7]["x"] == {"f": 1} and old[2]["ch"] == [["facts", "report", -1, -1, 3]]
    assert old[0]["xd"] == [["publication", "report"], []] and old[5]["xd"] == [[], ["report"]]
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
    from tests import providers as P

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
    from tests import providers as P

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


# ---------------------------------------------------------------- size, placeholders, surrogates


def mixed_run(provider: ag.Provider, events: int, *, new_keys: bool = False, seed: int = 1) -> ag.Run:
    """A Run of ``events`` events of every kind: records with details, shallow and deep Facts changes, a
    replacement now and then, authority changes; ``new_keys``: each Facts change sets a key of its own."""
    rng = random.Random(seed)
    run = rc.new_run(
        "mixed", provider.manifest.id, "report", "default", _at(1), workspace=None, facts={"team": "web"},
        authorities=[],
    )  # fmt: skip
    for index in range(2, events + 1):
        kind = rng.randrange(6)
        change: rc.Change
        if kind == 0:
            node = rng.choice(("report/draft", "report/approve", "report/publish"))
            outcome = rng.choice(("partial", "completed", "failed"))
            change = rc.record_change(node, outcome, {"by": "agent:writer", "attempt": index})
        elif kind == 1:
            change = rc.facts_change({"report": {"digest": f"sha256:{index:064x}"}})
        elif kind == 2:
            change = rc.facts_change({"report": {"approved": rng.random() < 0.5}}, deep=True)
        elif kind == 3:
            change = rc.facts_change({f"key{index}" if new_keys else f"note{index % 5}": "lorem ipsum " * 3})
        elif kind == 4:
            change = rc.authorities_change(add=["report.publish"] if rng.random() < 0.5 else [], remove=["x"])
        else:
            url = {"publication": {"url": f"https://intranet.example/{index}"}}
            change = rc.facts_change(url, replace=rng.random() < 0.1)
        run = rc.apply_change(run, change, _at(index))[0]
    return run


def chain_run(events: int) -> tuple[ag.Provider, ag.Run]:
    """A 300-node chain completed node by node, then its first node failing and passing in turn: every
    node's status changes at each of those events."""
    from tests import providers as P

    provider = P.build(P.chain("main", 301))
    run = rc.new_run(
        "chain", provider.manifest.id, "main", "default", _at(1), workspace=None, facts={}, authorities=[]
    )
    for index in range(2, events + 1):
        if index <= 301:
            change = rc.record_change(f"main/n{index - 2}", "completed", msgspec.UNSET)
        else:
            change = rc.record_change("main/n0", "failed" if index % 2 else "completed", msgspec.UNSET)
        run = rc.apply_change(run, change, _at(index))[0]
    return provider, run


@pytest.mark.parametrize("kind", ["mixed", "legacy-new-keys", pytest.param("chain", marks=pytest.mark.slow)])
def test_the_page_grows_linearly_with_the_run(weekly: ag.Provider, kind: str) -> None:
    sizes = {}
    for events in (250, 500, 1000, 2000):
        if kind == "chain":
            provider, run = chain_run(events)
        elif kind == "mixed":
            provider, run = weekly, mixed_run(weekly, events)
        else:  # a Run whose events name their keys without values, each a key of its own
            provider, run = weekly, legacy(mixed_run(weekly, events, new_keys=True))
        sizes[events] = len(render_replay_page(provider, run, layout="builtin").encode("utf-8"))
    assert sizes[1000] < 1_000_000, sizes
    # Each doubling adds about twice what the one before added: no part grows with the square of the length.
    growth = [sizes[2 * n] - sizes[n] for n in (250, 500, 1000)]
    assert growth[1] < 2.3 * growth[0] and growth[2] < 2.3 * growth[1], sizes


@pytest.mark.parametrize("name", ["TITLE", "LAYOUT", "CSS", "SVG", "DATA", "JS"])
def test_content_that_spells_a_placeholder_is_never_filled_again(weekly: ag.Provider, name: str) -> None:
    spelled = "{{" + name + "}}"
    run = weekly_run(weekly, {"note": spelled, spelled: [spelled]})
    done = rc.record_change("report/done", "completed", {"comment": spelled, "by": spelled, "extra": spelled})
    run = msgspec.structs.replace(rc.apply_change(run, done, _at(30))[0], id=f"run {spelled}")
    page = render_replay_page(weekly, run, layout="builtin")
    data = _data(page)
    assert data == page_data(weekly, run)  # the data block is whole and reads back
    assert data["steps"][-1]["cm"] == spelled and data["run"]["id"] == f"run {spelled}"
    assert page.count("<script") == 2 and page.count("</script>") == 2
    assert page.count("(function () {") == 1  # the script once, in its place
    assert page.count('id="replay-data"') == 1 and page.count("<style>") == 1
    title = re.search(r"<title>(.*?)</title>", page, re.DOTALL)
    assert (
        title is not None and title.group(1) == f"Run run {spelled} · report#default · examples/weekly-report"
    )
    for other in ("TITLE", "LAYOUT", "CSS", "SVG", "DATA", "JS"):  # each spelling stays what the Run holds
        if other != name:
            assert "{{" + other + "}}" not in page


def test_a_lone_surrogate_in_the_run_gives_a_page(weekly: ag.Provider, tmp_path: Path, capsys: Any) -> None:
    lone = "half \ud800 of a pair"
    with ag.open_store(str(tmp_path / "runs")) as store:
        run = store.start(None, weekly, "report", facts={"note": lone, lone: 1})
        store.record(run.id, "report/draft", "partial", detail={"comment": lone, "by": lone})
        store.update_facts(run.id, {"report": {"digest": lone}}, deep=True)
        stored = store.load(run.id)
    page = render_replay_page(weekly, stored, layout="builtin")
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', page, re.DOTALL).group(1))  # type: ignore[union-attr]
    assert data["steps"][1]["cm"] == lone and lone in data["values"][data["steps"][2]["ch"][0][3]]
    assert page.encode("utf-8")  # the page is UTF-8: the surrogate is a \\u escape in the data
    out = tmp_path / "page.html"
    arguments = ["--manifest", str(WEEKLY), "replay", "--store", str(tmp_path / "runs"), "--run", run.id]
    assert main([*arguments, "--out", str(out), "--format", "json"]) == 0, capsys.readouterr()
    assert _data(out.read_text("utf-8")) == data
