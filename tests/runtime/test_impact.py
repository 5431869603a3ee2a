"""``agent_graph.toolchain.impact`` and ``agent-graph impact``: which Runs in flight a new version of their Provider changes.

A store holds a Run at every node of weekly-report (and in its terminals);
each changed version names exactly the Runs whose route changes, on SQLite
and on PostgreSQL (a real server, see ``tests/pg_server.py``). Nothing is
written: the store's Runs are byte for byte what they were.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from agent_graph._cli import main as _cli
from agent_graph.toolchain import impact

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "weekly-report"
DIGEST = "sha256:" + "5f" * 32

#: Run name -> (facts, outcomes recorded in order, authorities): one Run at every node of the report.
RUNS: dict[str, tuple[dict[str, Any], list[tuple[str, str]], list[str]]] = {
    "at-draft": ({}, [], []),
    "draft-partial": ({}, [("report/draft", "partial")], []),
    "at-approve": ({"report": {"digest": DIGEST}}, [], []),
    "approve-delegated": ({"report": {"digest": DIGEST}}, [], ["report.publish"]),
    "at-publish": ({"report": {"digest": DIGEST, "approved": True}}, [], []),
    "at-check": ({"report": {"digest": DIGEST, "approved": True}}, [("report/publish", "completed")], []),
    "done": (
        {"report": {"digest": DIGEST, "approved": True}, "publication": {"url": "https://x.invalid"}},
        [],
        [],
    ),
    "checked": (
        {"report": {"digest": DIGEST, "approved": True}},
        [("report/publish", "completed"), ("report/check-publication", "completed")],
        [],
    ),
    "rejected": ({"report": {"digest": DIGEST}}, [("report/approve", "failed")], []),
}


def _version(tmp_path: Path, name: str, *replacements: tuple[str, str]) -> ag.Provider:
    """A copy of weekly-report with its Graph's text edited."""
    target = tmp_path / name
    shutil.copytree(EXAMPLE, target)
    graph = target / "graphs" / "report.yaml"
    text = graph.read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    graph.write_text(text, encoding="utf-8")
    return ag.load_provider(str(target / "provider.yaml"))


#: Without the approval Gate: draft goes straight to publish.
NO_GATE = (
    ("  - { from: draft, to: approve }\n", "  - { from: draft, to: publish }\n"),
    ("  - { from: approve, to: publish, kind: gatedBy }\n", ""),
)
#: Publishing needs a channel the Runs do not have.
NEEDS_CHANNEL = (
    (
        "    action: actions/publish.yaml\n",
        "    action: actions/publish.yaml\n    requiresFacts:\n      - path: publication.channel\n        exists: true\n",
    ),
)
#: The check step renamed.
RENAMED = (
    ("  - id: check-publication\n", "  - id: verify-publication\n"),
    ("to: check-publication,", "to: verify-publication,"),
    ("{ from: check-publication,", "{ from: verify-publication,"),
)


def _fill(store: ag.BaseRunStore, provider: ag.Provider) -> dict[str, str]:
    """Start every Run of :data:`RUNS`; their IDs by name."""
    ids = {}
    for name, (facts, outcomes, authorities) in RUNS.items():
        run = store.start(None, provider, "report", facts=facts, authorities=authorities)
        for key, outcome in outcomes:
            store.record(run.id, key, outcome, provider=provider)
        ids[name] = run.id
    return ids


def _changed(report: ag.types.ImpactReport, ids: dict[str, str], kind: str = "route-changed") -> set[str]:
    names = {run_id: name for name, run_id in ids.items()}
    return {names[run.run] for run in report.runs if kind in run.changes}


def test_impact_names_exactly_the_runs_whose_route_changed(db_url: str, tmp_path: Path) -> None:
    old = ag.load_provider(str(EXAMPLE / "provider.yaml"))
    with ag.open_store(db_url) as store:
        ids = _fill(store, old)
        before = {run_id: msgspec.json.encode(store.load(run_id, old)) for run_id in ids.values()}

        same = impact(old, old, store)
        assert len(same.runs) == len(RUNS) and all(run.changes == () for run in same.runs)

        no_gate = impact(old, _version(tmp_path, "no-gate", *NO_GATE), store)
        assert _changed(no_gate, ids) == {"at-approve", "approve-delegated", "rejected"}
        assert _changed(no_gate, ids, "gate-skipped") == {"at-approve", "approve-delegated", "rejected"}
        at_approve = next(run for run in no_gate.runs if run.run == ids["at-approve"])
        assert (
            at_approve.before.record_node == "report/approve"
            and at_approve.before.status_code == "waiting-user"
        )
        assert at_approve.after is not None and at_approve.after.record_node == "report/publish"
        assert at_approve.skipped_gates == ("report/approve",)

        channel = impact(old, _version(tmp_path, "channel", *NEEDS_CHANNEL), store)
        # A published Run is blocked as well: requiresFacts is checked before satisfiedBy.
        assert _changed(channel, ids) == {"at-publish", "at-check", "checked", "done"}
        assert _changed(channel, ids, "blocked") == {"at-publish", "at-check", "checked", "done"}
        assert channel.counts()["gate-skipped"] == 0

        renamed = impact(old, _version(tmp_path, "renamed", *RENAMED), store)
        assert _changed(renamed, ids) == {"at-check", "checked"}
        assert _changed(renamed, ids, "keys-unknown") == {"checked"}
        checked = next(run for run in renamed.runs if run.run == ids["checked"])
        assert checked.unknown_keys == ("report/check-publication",)
        # Nothing was written.
        assert {run_id: msgspec.json.encode(store.load(run_id, old)) for run_id in ids.values()} == before


def test_impact_takes_runs_and_refuses_those_of_another_provider(tmp_path: Path) -> None:
    old = ag.load_provider(str(EXAMPLE / "provider.yaml"))
    store = ag.open_store(str(tmp_path / "runs"))
    ids = _fill(store, old)
    heads = [store.head(ids["at-approve"], old), store.load(ids["done"], old)]
    report = impact(old, _version(tmp_path, "no-gate", *NO_GATE), heads)
    assert [run.changes for run in report.runs] == [("route-changed", "gate-skipped"), ()]
    stranger = msgspec.structs.replace(heads[1], provider="someone/else")
    with pytest.raises(ag.AgentGraphError) as caught:
        impact(old, old, [stranger])
    assert caught.value.code == "run-provider-mismatch"
    for bad in ("runs", heads[0], 3):
        with pytest.raises(ag.AgentGraphError) as caught:
            impact(old, old, bad)  # type: ignore[arg-type]
        assert caught.value.code == "argument-invalid"


def test_a_new_version_without_the_graph_is_graph_missing(tmp_path: Path) -> None:
    old = ag.load_provider(str(EXAMPLE / "provider.yaml"))
    store = ag.open_store(str(tmp_path / "runs"))
    ids = _fill(store, old)
    other = _version(tmp_path, "entry", ("  default: draft\n", "  start: draft\n"))
    report = impact(old, other, store)
    assert _changed(report, ids, "graph-missing") == set(RUNS)
    assert all(run.after is None for run in report.runs)


def test_a_subgraph_run_skipping_a_gate_inside_its_child(tmp_path: Path) -> None:
    from tests import providers as P

    def release(gated: bool) -> ag.Provider:
        child_edges = (
            [P.edge("review", "ship", kind="gatedBy"), P.edge("ship", "ok")]
            if gated
            else [
                P.edge("prepare", "ship"),
                P.edge("ship", "ok"),
            ]
        )
        if gated:
            child_edges.insert(0, P.edge("prepare", "review"))
        child = P.graph_doc(
            "child",
            [P.action_node("prepare"), P.gate_node("review"), P.action_node("ship"), P.terminal_node("ok")],
            child_edges,
        )
        main = P.graph_doc(
            "main", [P.subgraph_node("call", "child"), P.terminal_node("done")], [P.edge("call", "done")]
        )
        return P.build(main, child)

    old, new = release(True), release(False)
    run = ag.types.RunHead(
        schema="agent-graph.run.v1", id="r1", provider=old.manifest.id, graph="main", entry="default",
        created_at="2026-01-01T00:00:00.000Z", updated_at="2026-01-01T00:00:00.000Z", facts={},
        outcomes={"main/call>child/prepare": ag.types.OutcomeRecord(outcome="completed", recorded_at="2026-01-01T00:00:00.000Z")},
        authorities=(), events=2,
    )  # fmt: skip
    [changed] = impact(old, new, [run]).runs
    assert changed.before.record_node == "main/call>child/review"
    assert changed.after is not None and changed.after.record_node == "main/call>child/ship"
    assert changed.skipped_gates == ("main/call>child/review",)


def test_the_command_line_gates_a_deployment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = ag.load_provider(str(EXAMPLE / "provider.yaml"))
    url = f"sqlite:///{tmp_path / 'runs.db'}"
    with ag.open_store(url) as store:
        ids = _fill(store, old)
    old_manifest = str(EXAMPLE / "provider.yaml")
    no_gate = str(Path(_version(tmp_path, "no-gate", *NO_GATE).root) / "provider.yaml")
    renamed = str(Path(_version(tmp_path, "renamed", *RENAMED).root) / "provider.yaml")

    assert _cli.main(["impact", old_manifest, no_gate, "--store", url]) == 1
    out = capsys.readouterr().out
    assert (
        f"{ids['at-approve']} report#default: waiting-user report/approve -> actionable report/publish" in out
    )
    assert "skips report/approve" in out
    assert "9 Runs, 3 changed (route-changed 3, gate-skipped 3)" in out
    assert "FAIL 3 Runs with blocked or error or gate-skipped or graph-missing (--fail-on)" in out

    assert _cli.main(["impact", old_manifest, renamed, "--store", url]) == 0  # no change the default fails on
    capsys.readouterr()
    assert (
        _cli.main(
            ["impact", old_manifest, renamed, "--store", url, "--fail-on", "keys-unknown", "--format", "json"]
        )
        == 1
    )
    answer = json.loads(capsys.readouterr().out)
    assert answer["state"] == "failed" and answer["failing"] == [ids["checked"]]
    assert answer["counts"] == {
        "route-changed": 2, "blocked": 0, "error": 0, "gate-skipped": 0, "keys-unknown": 1, "graph-missing": 0,
    }  # fmt: skip
    assert _cli.main(["impact", old_manifest, no_gate, "--store", url, "--fail-on", "none"]) == 0
    capsys.readouterr()

    # Run files instead of a store.
    files = []
    with ag.open_store(url) as store:
        for name in ("at-approve", "done"):
            path = tmp_path / f"{name}.json"
            path.write_bytes(msgspec.json.encode(store.load(ids[name], old)))
            files.append(str(path))
    assert _cli.main(["impact", old_manifest, no_gate, *files, "--format", "json"]) == 1
    answer = json.loads(capsys.readouterr().out)
    assert [run["changes"] for run in answer["runs"]] == [["route-changed", "gate-skipped"], []]

    for arguments in (
        [old_manifest, no_gate],
        [old_manifest, no_gate, files[0], "--store", url],
        [old_manifest, no_gate, "--store", url, "--fail-on", "sometimes"],
    ):
        assert _cli.main(["impact", *arguments, "--format", "json"]) == 1
        assert json.loads(capsys.readouterr().err)["error"]["code"] == "argument-invalid"
