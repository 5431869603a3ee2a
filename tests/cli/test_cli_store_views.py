"""replay, explain and diagram of a Run in a store, named by the ID that ``run start`` answered, on every store."""

from __future__ import annotations

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
        return "sqlite:///runs.db"
    postgres: str = request.getfixturevalue("postgres_url")
    return postgres


@needs_weekly
def test_replay_explain_and_diagram_take_the_id_run_start_answered(
    cli: Cli, url: str, tmp_path: Path
) -> None:
    run_id = cli(*weekly("run", "start", "report", "--store", url, "--facts", '{"team":"web"}'))["id"]
    named = ["--store", url, "--run", run_id]
    cli(*weekly("run", "record", "report/draft", "completed", *named, "--detail", '{"by":"agent:w"}'))
    page = cli(*weekly("replay", *named, "--out", "page.html", "--layout", "builtin"))
    assert page["run"] == run_id and page["events"] == 2
    assert (tmp_path / "page.html").read_bytes().startswith(b"<!DOCTYPE html>")
    explained = cli(*weekly("explain", *named))
    evaluated = cli(*weekly("evaluate", *named))
    assert explained["evaluation"] == evaluated
    drawn = cli(*weekly("diagram", *named))
    assert drawn["diagram"] != cli(*weekly("diagram", "report"))["diagram"]
    # Forking is the library's: the fork is another Run of the same store, replayed the same way.
    import agent_graph as ag

    with ag.open_store(str(tmp_path / "runs") if url == "runs" else url) as store:
        provider = ag.load_provider(
            str(Path(__file__).resolve().parents[2] / "examples/weekly-report/provider.yaml")
        )
        fork = store.fork(run_id, 1, provider=provider, facts={"team": "web"})
    forked = cli(
        *weekly("replay", "--store", url, "--run", fork.id, "--out", "fork.html", "--layout", "builtin")
    )
    assert forked["events"] == 2
    assert (
        cli(*weekly("explain", "--store", url, "--run", fork.id))["evaluation"]["statusCode"] == "actionable"
    )


@needs_weekly
@pytest.mark.parametrize("command", [["replay", "--out", "x.html"], ["explain"], ["diagram"], ["evaluate"]])
def test_an_empty_store_or_state_is_refused_not_read_as_the_current_folder(
    cli: Cli, command: list[str]
) -> None:
    assert cli(*weekly(*command, "--store", "", "--run", "r"), status=1)["code"] == "store-url-invalid"
    assert cli(*weekly(*command, "report", "--state", ""), status=1)["code"] == "argument-invalid"
