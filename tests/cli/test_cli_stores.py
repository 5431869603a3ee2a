"""The run commands on a store: --store URL --run ID, run record --revision, run next/list/export/import."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli_runtime import Cli, needs_weekly, weekly


@pytest.fixture()
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    return Cli(tmp_path, capsys, monkeypatch)


@pytest.fixture(params=["folder", "sqlite", "postgres"])
def url(request: pytest.FixtureRequest) -> str:
    if request.param == "folder":
        return "runs"
    if request.param == "sqlite":
        return "sqlite:///runs.db"  # relative to the working directory
    postgres: str = request.getfixturevalue("postgres_url")
    return postgres


@needs_weekly
def test_a_run_lives_in_a_store_addressed_by_its_id(cli: Cli, url: str, tmp_path: Path) -> None:
    run = cli(*weekly("run", "start", "report", "--store", url, "--authority", "report.publish"))
    ref = run["id"]  # the Run's address in every store, a folder too
    assert run["schema"] == "agent-graph.run.v1" and run["authorities"] == ["report.publish"]
    if url == "sqlite:///runs.db":
        assert (tmp_path / "runs.db").is_file()
    status = cli(*weekly("run", "status", "--store", url, "--run", ref))
    assert status["run"]["id"] == run["id"] and status["evaluation"]["statusCode"] == "actionable"
    step = cli(*weekly("run", "next", "--store", url, "--run", ref))
    assert step["revision"] == status["evaluation"]["revision"] and step["route"]["node"] == "draft"
    node = step["route"]["afterAction"]["recordNode"]
    recorded = cli(
        *weekly(
            "run", "record", node, "partial", "--store", url, "--run", ref, "--revision", step["revision"]
        )
    )
    assert [e["sequence"] for e in recorded["events"]] == [1, 2]
    stale = cli(*weekly("run", "record", node, "completed", "--store", url, "--run", ref, "--revision", step["revision"]),
                status=1)  # fmt: skip
    assert stale["code"] == "run-revision-stale"
    facts = cli("run", "facts", "--store", url, "--run", ref, "--set", '{"report":{"a":{"b":1}}}')
    facts = cli("run", "facts", "--store", url, "--run", ref, "--set", '{"report":{"a":{"c":2}}}', "--deep")
    assert facts["facts"] == {"report": {"a": {"b": 1, "c": 2}}}
    assert cli("run", "authority", "--store", url, "--run", ref, "--clear")["authorities"] == []
    events = cli("run", "events", "--store", url, "--run", ref)
    assert [e["sequence"] for e in events["events"]] == [1, 2, 3, 4, 5]
    evaluated = cli(*weekly("evaluate", "--store", url, "--run", ref))
    assert evaluated["revision"] == cli(*weekly("run", "next", "--store", url, "--run", ref))["revision"]
    listed = cli("run", "list", "--store", url, "--graph", "report")
    assert [(r["id"], r["events"]) for r in listed["runs"]] == [(run["id"], 5)]
    assert cli("run", "list", "--store", url, "--provider", "someone/else")["runs"] == []
    exported = cli("run", "export", "--store", url, "--run", ref, "--out", "exported.json")
    assert json.loads((tmp_path / "exported.json").read_text("utf-8"))["id"] == run["id"] == exported["run"]
    duplicate = cli("run", "import", "exported.json", "--store", url, status=1)
    assert duplicate["code"] == "run-target-exists"
    imported = cli("run", "import", "exported.json", "--store", "sqlite:///copy.db")
    assert imported["id"] == run["id"]
    assert (
        cli("run", "events", "--store", "sqlite:///copy.db", "--run", run["id"])["events"] == events["events"]
    )


@needs_weekly
def test_checkpoints_and_resume_in_a_store(cli: Cli, url: str) -> None:
    run = cli(*weekly("run", "start", "report", "--store", url, "--run", "r1", "--authority", "x"))
    name = "before-handoff"
    assert cli("run", "checkpoint", "--store", url, "--run", "r1", "--out", name)["checkpoint"] == name
    resumed = cli("run", "resume", "--checkpoint", name, "--store", url, "--run", "r2")
    assert resumed["authorities"] == [] and resumed["events"][-1]["type"] == "run.resumed"
    assert (run["id"], resumed["id"]) == ("r1", "r2")
    assert sorted(r["id"] for r in cli("run", "list", "--store", url)["runs"]) == ["r1", "r2"]


@needs_weekly
def test_run_list_pages_the_runs_of_a_status(cli: Cli, url: str) -> None:
    for n in range(5):
        cli(*weekly("run", "start", "report", "--store", url, "--run", f"w{n}"))
    everything = cli("run", "list", "--store", url)
    assert everything["nextCursor"] is None and {r["status"] for r in everything["runs"]} == {"actionable"}
    seen: list[str] = []
    cursor: list[str] = []
    while True:
        page = cli("run", "list", "--store", url, "--status", "actionable", "--limit", "2", *cursor)
        seen += [r["id"] for r in page["runs"]]
        if page["nextCursor"] is None:
            break
        cursor = ["--cursor", page["nextCursor"]]
    assert seen == [f"w{n}" for n in range(5)]
    newest = cli("run", "list", "--store", url, "--newest-first", "--limit", "1")
    assert [r["id"] for r in newest["runs"]] == ["w4"] and newest["nextCursor"] is not None
    assert cli("run", "list", "--store", url, "--status", "waiting-user")["runs"] == []
    assert cli("run", "list", "--store", url, "--limit", "1", "--cursor", "nope", status=1)["code"] == (
        "argument-invalid"
    )


@needs_weekly
def test_naming_the_run_twice_or_not_at_all_is_refused(cli: Cli) -> None:
    assert cli("run", "events", "--store", "sqlite:///runs.db", status=1)["code"] == "argument-invalid"
    assert (
        cli("run", "events", "--state", "a.json", "--store", "runs", status=1)["code"] == "argument-invalid"
    )
    assert cli(*weekly("run", "start", "report"), status=1)["code"] == "argument-invalid"
    assert cli("run", "list", "--store", "mysql://x/y", status=1)["code"] == "store-url-invalid"
    assert cli(*weekly("run", "start", "report", "--store", "sqlite:///runs.db", "--run", "a"))["id"] == "a"
    stale = cli("run", "record", "report/draft", "completed", "--store", "sqlite:///runs.db", "--run", "a",
                "--revision", "sha256:" + "0" * 64, "--manifest", "missing.yaml", status=1)  # fmt: skip
    assert stale["code"] == "argument-invalid"  # a revision needs the Provider to evaluate the Run


@needs_weekly
@pytest.mark.parametrize("kind", ["folder", "sqlite"])
def test_diagram_of_a_run_in_a_store_shows_its_state(cli: Cli, kind: str) -> None:
    url, ref = ("runs", "r1.json") if kind == "folder" else ("sqlite:///runs.db", "r1")
    plain = cli(*weekly("diagram", "report"))
    assert plain["overlay"] is False
    cli(*weekly("run", "start", "report", "--store", url, "--run", ref))
    fresh = cli(*weekly("diagram", "--store", url, "--run", ref))
    assert fresh["overlay"] is True and fresh["graph"] == "report"
    assert fresh["diagram"] != plain["diagram"]
    cli(*weekly("run", "record", "report/draft", "completed", "--store", url, "--run", ref))
    cli("run", "facts", "--store", url, "--run", ref, "--set", '{"report":{"digest":"sha256:1"}}')
    drafted = cli(*weekly("diagram", "--store", url, "--run", ref))
    assert drafted["diagram"] != fresh["diagram"]
    # The same state given as options draws the same picture.
    given = cli(*weekly("diagram", "report", "--outcomes", '{"report/draft":"completed"}',
                        "--facts", '{"report":{"digest":"sha256:1"}}'))  # fmt: skip
    assert given["diagram"] == drafted["diagram"]
    missing = cli(*weekly("diagram", "--store", url, "--run", "nobody.json" if kind == "folder" else "nobody"),
                  status=1)  # fmt: skip
    assert missing["code"] == "run-missing"


def test_every_store_takes_the_run_id_and_a_folder_keeps_runs_inside(
    cli: Cli, url: str, tmp_path: Path
) -> None:
    run = cli(*weekly("run", "start", "report", "--store", url))
    status = cli(*weekly("run", "status", "--store", url, "--run", run["id"]))
    assert status["run"]["id"] == run["id"]
    if url == "runs":
        (tmp_path / "x.json").write_bytes((tmp_path / "runs" / f"{run['id']}.json").read_bytes())
        refused = cli(
            "run", "record", "report/draft", "partial", "--store", url, "--run", "../x.json", status=1
        )
        assert refused["code"] == "run-ref-outside-store"
        assert json.loads((tmp_path / "x.json").read_text())["events"][-1]["type"] == "run.started"
