"""The runtime commands: ``run …``, ``resource materialize`` and ``--state`` evaluation, plus the documented host loop."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from agent_graph._cli.main import main
from agent_graph._runtime.runs import FileRunStore
from tests.paths import REPO, WEEKLY

DOC = REPO / "docs" / "host-integration.md"

needs_weekly = pytest.mark.skipif(
    not WEEKLY.is_file(), reason="examples/weekly-report is not in this checkout"
)


class Cli:
    """Runs the command line in-process in a working directory and decodes its JSON answers."""

    def __init__(
        self, cwd: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        self.cwd = cwd
        self.capsys = capsys
        monkeypatch.chdir(cwd)

    def __call__(self, *args: str, status: int = 0) -> Any:
        code = main([*args, "--format", "json"])
        out, err = self.capsys.readouterr()
        assert code == status, (out, err)
        if status == 0:
            return json.loads(out)
        return json.loads(err)["error"]


@pytest.fixture()
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    return Cli(tmp_path, capsys, monkeypatch)


def weekly(*args: str) -> list[str]:
    return ["--manifest", str(WEEKLY), *args]


# ---------------------------------------------------------------- run commands


@needs_weekly
def test_run_lifecycle_through_the_command_line(cli: Cli, tmp_path: Path) -> None:
    run = cli(
        *weekly(
            "run",
            "start",
            "report",
            "--state",
            "run.json",
            "--facts",
            '{"team":"web"}',
            "--authority",
            "b",
            "a",
        )
    )
    assert run["schema"] == "agent-graph.run.v1" and run["provider"] == "examples/weekly-report"
    assert (
        run["workspace"] == str(tmp_path)
        and run["authorities"] == ["a", "b"]
        and run["facts"] == {"team": "web"}
    )
    assert json.loads((tmp_path / "run.json").read_text("utf-8")) == run

    recorded = cli(
        "run", "record", "report/draft", "partial", "--state", "run.json", "--detail", '{"missing":["jira"]}'
    )
    assert recorded["outcomes"]["report/draft"]["detail"] == {"missing": ["jira"]}
    assert recorded["events"][-1]["type"] == "node.outcome-recorded"

    facts = cli("run", "facts", "--state", "run.json", "--set", '{"report":{"digest":"sha256:1"}}')
    assert facts["facts"] == {"team": "web", "report": {"digest": "sha256:1"}}
    replaced = cli(
        "run", "facts", "--state", "run.json", "--set", '{"report":{"digest":"sha256:2"}}', "--replace"
    )
    assert replaced["facts"] == {"report": {"digest": "sha256:2"}}
    assert replaced["events"][-1] == {
        **replaced["events"][-1],
        "type": "facts.replaced",
        "detail": {"keys": ["report"], "set": {"report": {"digest": "sha256:2"}}},
    }

    assert cli("run", "authority", "--state", "run.json", "--add", "report.publish", "--remove", "a")[
        "authorities"
    ] == [
        "b",
        "report.publish",
    ]
    assert cli("run", "authority", "--state", "run.json", "--set", "x", "y")["authorities"] == ["x", "y"]
    assert cli("run", "authority", "--state", "run.json", "--set")["authorities"] == []
    cli("run", "authority", "--state", "run.json", "--add", "report.publish")

    status = cli(*weekly("run", "status", "--state", "run.json"))
    assert status["run"] == {
        "id": run["id"],
        "state": str(tmp_path / "run.json"),
        "updatedAt": status["run"]["updatedAt"],
    }
    assert status["evaluation"]["primaryRoute"]["node"] == "approve"
    assert status["evaluation"]["primaryRoute"]["availability"] == "immediate"

    checkpoint = cli("run", "checkpoint", "--state", "run.json", "--out", "cp/one.json")
    assert checkpoint == {"run": str(tmp_path / "run.json"), "checkpoint": str(tmp_path / "cp" / "one.json")}
    assert json.loads((tmp_path / "cp" / "one.json").read_text("utf-8"))["authorities"] == []
    resumed = cli("run", "resume", "--checkpoint", "cp/one.json", "--state", "resumed.json")
    assert resumed["authorities"] == [] and resumed["events"][-1]["type"] == "run.resumed"

    events = cli("run", "events", "--state", "resumed.json")
    assert events["run"] == resumed["id"] != run["id"]  # a resumed Run is a Run of its own
    assert [e["type"] for e in events["events"]] == [
        "run.started", "node.outcome-recorded", "facts.updated", "facts.replaced", "authorities.updated",
        "authorities.updated", "authorities.updated", "authorities.updated", "run.checkpointed", "run.resumed",
    ]  # fmt: skip
    assert [e["sequence"] for e in events["events"]] == list(range(1, 11))


@needs_weekly
def test_reference_spellings_of_checkpoint_and_resume(cli: Cli, tmp_path: Path) -> None:
    cli(*weekly("run", "start", "report", "--state", "run.json"))
    cli("run", "checkpoint", "--state", "run.json", "--to", "cp.json")
    assert cli("run", "resume", "cp.json", "--state", "new.json")["events"][-1]["detail"] == {
        "checkpoint": "cp.json"
    }


@needs_weekly
def test_targets_are_never_replaced(cli: Cli, tmp_path: Path) -> None:
    cli(*weekly("run", "start", "report", "--state", "run.json"))
    before = (tmp_path / "run.json").read_bytes()
    assert (
        cli(*weekly("run", "start", "report", "--state", "run.json"), status=1)["code"] == "run-target-exists"
    )
    (tmp_path / "taken.json").write_text("{}", "utf-8")
    assert (
        cli("run", "checkpoint", "--state", "run.json", "--out", "taken.json", status=1)["code"]
        == "run-target-exists"
    )
    assert (
        cli("run", "resume", "--checkpoint", "run.json", "--state", "taken.json", status=1)["code"]
        == "run-target-exists"
    )
    assert (tmp_path / "run.json").read_bytes() == before
    assert (tmp_path / "taken.json").read_text("utf-8") == "{}"


def test_run_authority_without_an_option_clears_as_the_reference_does(cli: Cli, tmp_path: Path) -> None:
    FileRunStore().start(str(tmp_path / "run.json"), "acme/any", "main", authorities=["a", "b"])
    assert cli("run", "authority", "--state", "run.json")["authorities"] == []
    for clearing in (["--set"], ["--clear"]):
        cli("run", "authority", "--state", "run.json", "--add", "c")
        assert cli("run", "authority", "--state", "run.json", *clearing)["authorities"] == []
    events = cli("run", "events", "--state", "run.json")["events"]
    assert [e["detail"]["authorities"] for e in events if e["type"] == "authorities.updated"] == [
        [],
        ["c"],
        [],
        ["c"],
        [],
    ]


def test_command_line_refusals(cli: Cli, tmp_path: Path) -> None:
    FileRunStore().start(str(tmp_path / "run.json"), "someone/else", "main")
    assert (
        cli("run", "record", "main/a", "done", "--state", "run.json", status=1)["code"] == "outcome-invalid"
    )
    missing = cli("run", "record", "main/a", "completed", "--state", "absent.json", status=1)
    assert (missing["code"], missing["diagnostics"][0]["code"]) == ("file-read-failed", "run-missing")
    assert cli("run", "record", "main/a", "completed", "--state", "run.json", "--detail", "{bad", status=1)[
        "code"
    ] == ("json-invalid")
    assert (
        cli("run", "facts", "--state", "run.json", "--set", "[1]", status=1)["code"] == "json-object-required"
    )
    assert cli("run", "checkpoint", "--state", "run.json", status=1)["code"] == "argument-invalid"
    (tmp_path / "corrupt.json").write_text('{"schema": "agent-graph.run.v1"', "utf-8")
    assert cli("run", "events", "--state", "corrupt.json", status=1)["code"] == "parse-failed"
    (tmp_path / "not-a-run.json").write_text('{"schema": "agent-graph.run.v1"}', "utf-8")
    wrong = cli("run", "events", "--state", "not-a-run.json", status=1)
    assert (wrong["code"], wrong["diagnostics"][0]["code"]) == ("schema-invalid", "run-invalid")
    assert {d["code"] for d in wrong["diagnostics"][1:]} == {"schema.required"}
    assert (tmp_path / "corrupt.json").read_text("utf-8") == '{"schema": "agent-graph.run.v1"'


@needs_weekly
def test_a_foreign_run_is_refused_when_a_provider_is_at_hand(cli: Cli, tmp_path: Path) -> None:
    FileRunStore().start(str(tmp_path / "run.json"), "someone/else", "report")
    before = (tmp_path / "run.json").read_bytes()
    for args in (
        ["run", "record", "report/draft", "completed", "--state", "run.json"],
        ["run", "facts", "--state", "run.json", "--set", "{}"],
        ["run", "authority", "--state", "run.json", "--add", "x"],
        ["run", "status", "--state", "run.json"],
        ["evaluate", "--state", "run.json"],
        ["route", "--state", "run.json"],
    ):
        assert cli(*weekly(*args), status=1)["code"] == "run-provider-mismatch", args
    assert (tmp_path / "run.json").read_bytes() == before


@needs_weekly
def test_the_default_manifest_in_the_working_directory_is_checked_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    root = tmp_path / "weekly"
    shutil.copytree(WEEKLY.parent, root)
    cli = Cli(root, capsys, monkeypatch)
    FileRunStore().start(str(root / "foreign.json"), "someone/else", "report")
    assert cli("run", "record", "report/draft", "completed", "--state", "foreign.json", status=1)["code"] == (
        "run-provider-mismatch"
    )
    cli("run", "start", "report", "--state", "own.json")
    assert cli("run", "record", "report/draft", "completed", "--state", "own.json")["outcomes"][
        "report/draft"
    ]


@needs_weekly
def test_state_evaluation_merges_direct_input_for_that_call_only(cli: Cli, tmp_path: Path) -> None:
    digest = "sha256:" + "5" * 64
    cli(
        *weekly(
            "run",
            "start",
            "report",
            "--state",
            "run.json",
            "--facts",
            json.dumps({"report": {"digest": digest}}),
        )
    )
    before = (tmp_path / "run.json").read_bytes()
    waiting = cli(*weekly("evaluate", "--state", "run.json"))
    assert waiting["statusCode"] == "waiting-user" and waiting["primaryRoute"]["node"] == "approve"
    delegated = cli(*weekly("evaluate", "--state", "run.json", "--authority", "report.publish"))
    assert (
        delegated["statusCode"] == "actionable" and delegated["primaryRoute"]["availability"] == "immediate"
    )
    # Direct facts replace the Run's top-level keys; direct outcomes win over recorded ones.
    again = cli(*weekly("evaluate", "--state", "run.json", "--facts", '{"report":{}}'))
    assert again["primaryRoute"]["node"] == "draft"
    cli("run", "record", "report/draft", "partial", "--state", "run.json")
    before = (tmp_path / "run.json").read_bytes()
    overridden = cli(*weekly("evaluate", "--state", "run.json", "--facts", '{"report":{}}', "--outcomes",
                             '{"report/draft":"failed"}'))  # fmt: skip
    assert overridden["statusCode"] == "blocked"
    current = cli(*weekly("evaluate", "--state", "run.json", "--authority", "report.publish"))
    assert current["revision"] != delegated["revision"]  # the record changed the state
    stale = cli(*weekly("route", "--state", "run.json", "--authority", "report.publish", "--revision",
                        delegated["revision"]), status=1)  # fmt: skip
    assert stale["code"] == "route-revision-stale"
    routed = cli(*weekly("route", "--state", "run.json", "--authority", "report.publish", "--revision",
                         current["revision"]))  # fmt: skip
    assert routed["gate"]["resolution"] == "session-authority"
    assert (tmp_path / "run.json").read_bytes() == before  # evaluation never writes the Run


# ---------------------------------------------------------------- concurrency through the command line


_WORKER = """
import os, sys, time
from agent_graph._cli.main import main
worker, state, go = sys.argv[1], sys.argv[2], sys.argv[3]
while not os.path.exists(go):
    time.sleep(0.001)
for i in range(10):
    status = main(["run", "record", f"w{worker}/n{i}", "completed", "--state", state,
                   "--detail", '{"worker": %s, "i": %d}' % (worker, i), "--format", "json"])
    if status != 0:
        sys.exit(status)
"""


def test_eight_processes_recording_ten_outcomes_each_lose_nothing(tmp_path: Path) -> None:
    state = tmp_path / "run.json"
    go = tmp_path / "go"
    FileRunStore().start(str(state), "tests/concurrency", "main")
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, str(n), str(state), str(go)],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(8)
    ]
    time.sleep(0.2)
    go.write_text("go", "utf-8")
    failures = []
    for worker in workers:
        _, err = worker.communicate(timeout=120)
        if worker.returncode != 0:
            failures.append(err)
    assert not failures, failures
    run = json.loads(state.read_text("utf-8"))
    assert len(run["outcomes"]) == 80
    assert set(run["outcomes"]) == {f"w{w}/n{i}" for w in range(8) for i in range(10)}
    assert len(run["events"]) == 81
    assert [e["sequence"] for e in run["events"]] == list(range(1, 82))
    recorded = [e["node"] for e in run["events"][1:]]
    assert sorted(recorded) == sorted(run["outcomes"])
    for w in range(8):  # each worker's records land in its own order
        mine = [e["detail"]["i"] for e in run["events"][1:] if e["detail"]["worker"] == w]
        assert mine == list(range(10))


# ---------------------------------------------------------------- resource materialize


MATERIALIZE_FILES: dict[str, Any] = {
    "provider.yaml": "schema: agent-graph.provider.v1\nid: tests/cli-materialize\nversion: 1.0.0\ngraphs: [graphs/main.yaml]\n",
    "graphs/main.yaml": """schema: agent-graph.graph.v1
id: main
entrypoints: {default: look}
nodes:
  - id: look
    kind: action
    reasonCode: route.main.look
    action: actions/look.yaml
    resources:
      required: [resources/env.yaml, resources/slow.yaml]
  - id: done
    kind: terminal
    terminalOutcome: completed
edges:
  - {from: look, to: done}
""",
    "actions/look.yaml": "schema: agent-graph.action.v1\nid: look\nrunner: command\neffect: read\ncommand: 'true'\n",
    "actions/env.yaml": (
        "schema: agent-graph.action.v1\nid: env\nrunner: command\neffect: read\n"
        'command: printf \'%s|%s|%s|%s\' "$ACME_TOKEN" "$PASSED_THROUGH" "${NOT_PASSED-unset}" "$AGENT_GRAPH_INPUT"\n'
    ),
    "actions/slow.yaml": "schema: agent-graph.action.v1\nid: slow\nrunner: command\neffect: read\ncommand: sleep 600\n",
    "resources/env.yaml": (
        "schema: agent-graph.resource.graph-action.v1\nid: view.env\nkind: context-view\n"
        "mediaType: text/plain\nmaterializer: actions/env.yaml\n"
    ),
    "resources/slow.yaml": (
        "schema: agent-graph.resource.graph-action.v1\nid: view.slow\nkind: context-view\n"
        "mediaType: text/plain\nmaterializer: actions/slow.yaml\n"
    ),
}


@pytest.mark.skipif(sys.platform == "win32", reason="materializers need POSIX process groups")
def test_resource_materialize_command(cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, text in MATERIALIZE_FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, "utf-8")
    monkeypatch.setenv("PASSED_THROUGH", "yes")
    monkeypatch.setenv("NOT_PASSED", "secret")
    revision = cli("evaluate", "main")["revision"]
    location = cli("resource", "materialize", "view.env", "--cache", "cache", "--revision", revision,
                   "--env", "ACME_TOKEN=t0k", "--env", "PASSED_THROUGH", "--input", '{"a": 1}')  # fmt: skip
    assert location["schema"] == "agent-graph.resource-location.graph-action.v1"
    assert location["revision"] == revision and location["materialize"] == {"resourceId": "view.env"}
    assert Path(location["filePath"]).read_text("utf-8") == 't0k|yes|unset|{"a":1}'
    assert Path(location["filePath"]).parent == tmp_path / "cache"
    assert location["digest"].startswith("sha256:") and location["digest"][7:] in location["filePath"]
    assert (
        cli("resource", "materialize", "view.env", "--cache", "cache", "--revision", "sha256:bad", status=1)[
            "code"
        ]
        == "revision-invalid"
    )
    assert cli("resource", "materialize", "view.env", "--cache", "c", "--revision", revision, "--env", "NOPE_UNSET",
               status=1)["code"] == "materializer-env-invalid"  # fmt: skip
    began = time.monotonic()
    error = cli("resource", "materialize", "view.slow", "--cache", "slow-cache", "--revision", revision,
                "--timeout-ms", "300", status=1)  # fmt: skip
    # A hang guard, not a speed test: the materializer sleeps 600 s.
    assert error["code"] == "materializer-timeout" and time.monotonic() - began < 300
    assert not (tmp_path / "slow-cache").exists()
    error = cli("resource", "materialize", "view.env", "--cache", "c", "--revision", revision, "--max-output-bytes", "3",
                status=1)  # fmt: skip
    assert error["code"] == "materializer-output-limit"


def test_runtime_commands_are_listed_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--help"]) == 0
    text = capsys.readouterr().out
    for command in ("start", "status", "record", "facts", "authority", "checkpoint", "resume", "events"):
        assert command in text
    assert main(["resource", "materialize", "--help"]) == 0
    assert "--revision" in capsys.readouterr().out


# ---------------------------------------------------------------- the documented host loop


def _host_loop_source() -> str:
    text = DOC.read_text("utf-8")
    section = text.split("## A complete host loop", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the host loop code block is missing"
    return match.group(1)


def _host(script: Path, cwd: Path, *args: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, str(script), "--manifest", str(WEEKLY), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


@needs_weekly
@pytest.mark.skipif(sys.platform == "win32", reason="the example publishes with sh")
def test_the_documented_host_loop_stops_at_the_user_gate_and_a_later_process_finishes_it(
    tmp_path: Path,
) -> None:
    script = tmp_path / "host.py"
    script.write_text(_host_loop_source(), "utf-8")
    first = _host(script, tmp_path)
    assert first[:2] == [
        "turn 1: draft -> completed (read 2 of 2 required)",
        "turn 2: waiting for the user: Publish this report?",
    ]
    match = re.fullmatch(r"continue with: --run (\S+) --answer yes\|no", first[2])
    assert match, first[2]
    run_id = match.group(1)
    assert [line.split()[1] for line in first[3:]] == [
        "run.started",
        "facts.updated",
        "node.outcome-recorded",
    ]
    # The Run is in the store the script named, relative to its working directory.
    with ag_open(f"sqlite:///{tmp_path / 'host-runs.db'}") as store:
        waiting = store.load(run_id)
    assert waiting.authorities == () and "report/approve" not in waiting.outcomes
    second = _host(script, tmp_path, "--run", run_id, "--answer", "yes")
    assert second[:4] == [
        "turn 1: approve -> completed (read 0 of 0 required)",
        "turn 2: publish -> completed (read 0 of 0 required)",
        "turn 3: check-publication -> completed (read 0 of 0 required)",
        "turn 4: complete (completed)",
    ]
    events = [line.split() for line in second[4:]]
    assert [int(e[0]) for e in events] == list(range(1, len(events) + 1))
    assert [e[1] for e in events] == [
        "run.started", "facts.updated", "node.outcome-recorded", "facts.updated", "node.outcome-recorded",
        "node.outcome-recorded", "facts.updated", "node.outcome-recorded",
    ]  # fmt: skip
    with ag_open(f"sqlite:///{tmp_path / 'host-runs.db'}") as store:
        done = store.load(run_id)
    assert done.facts["report"]["approved"] is True and done.facts["report"]["digest"].startswith("sha256:")
    assert done.facts["publication"]["url"].startswith("https://")
    # Once finished, running it again changes nothing.
    assert _host(script, tmp_path, "--run", run_id)[0] == "turn 1: complete (completed)"
    assert textwrap.dedent(_host_loop_source()).startswith('"""Drive a Provider\'s Graph from the step alone')


@needs_weekly
def test_run_record_refuses_a_state_key_that_names_no_node_when_the_provider_is_at_hand(
    cli: Cli, tmp_path: Path
) -> None:
    cli(*weekly("run", "start", "report", "--state", "run.json"))
    before = (tmp_path / "run.json").read_bytes()
    error = cli(*weekly("run", "record", "report/drfat", "completed", "--state", "run.json"), status=1)
    assert error["code"] == "state-key-unknown"
    assert (
        error["message"]
        == "State key report/drfat names no node of graph report (did you mean report/draft?)"
    )
    assert (tmp_path / "run.json").read_bytes() == before
    assert cli(*weekly("run", "record", "report/draft", "completed", "--state", "run.json"))["outcomes"][
        "report/draft"
    ]
    # Without a Provider at hand the Run file alone decides, as the reference toolchain does.
    assert cli("run", "record", "report/drfat", "completed", "--state", "run.json")["outcomes"][
        "report/drfat"
    ]


def test_validate_warns_about_graph_tests_whose_state_names_no_node(cli: Cli, tmp_path: Path) -> None:
    from tests.load_fixtures import base_documents, write_tree

    documents = base_documents()
    documents["tests/typo.yaml"] = (
        "schema: agent-graph.test.v1\nname: typo\ngraph: main\nstate:\n  outcomes:\n    main/biuld: completed\n"
        "expect: {statusCode: actionable}\n"
    )
    documents["tests/good.yaml"] = (
        "schema: agent-graph.test.v1\nname: good\ngraph: main\nexpect: {statusCode: actionable}\n"
    )
    documents["tests/broken.yaml"] = "schema: agent-graph.test.v1\nname: broken\n"
    write_tree(tmp_path, documents)
    answer = cli("validate")
    assert answer["state"] == "valid"
    warnings = {(d["code"], d["message"].split(":", 1)[0]) for d in answer["diagnostics"]}
    assert warnings == {
        ("state-key-unknown", "graph test tests/typo.yaml"),
        ("schema-invalid", "graph test tests/broken.yaml"),
    }
    assert all(d["severity"] == "warning" for d in answer["diagnostics"])


def ag_open(url: str) -> Any:
    from agent_graph import open_store

    return open_store(url)
