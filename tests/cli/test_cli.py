"""The ``agent-graph`` command line (behaviour.md §13), run in-process and, twice, as a real process.

Answers go to stdout (one line of JSON with ``--format json``); every failure
is one ``agent-graph.error.v1`` line on stderr (``ERROR <code>: <message>`` in
human format) with exit status 1. Global options stand before or after the
command.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from agent_graph._syntax import schema as _schema
from tests.conftest import REPO, VECTORS, vector_json
from tests.load_fixtures import base_documents, write_tree

PASSING_CASE = {
    "schema": "agent-graph.test.v1",
    "name": "build first",
    "graph": "main",
    "entry": "default",
    "expect": {"statusCode": "actionable", "primaryNode": "build", "command": "make build"},
}
FAILING_CASE = {
    "schema": "agent-graph.test.v1",
    "name": "approve first",
    "graph": "main",
    "entry": "default",
    "expect": {"statusCode": "actionable", "primaryNode": "approve"},
}
SKILL = (
    "---\nname: bound\ndescription: Runs the release.\nmetadata:\n"
    "  agent-graph: path:../../provider.yaml\n  agent-graph.graph: main\n  agent-graph.entry: default\n---\nBody.\n"
)


@pytest.fixture
def provider_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The base Provider on disk with one passing graph test and a bound Skill; the working directory."""
    documents = base_documents()
    documents["tests/01-build.yaml"] = PASSING_CASE
    documents["skills/bound/SKILL.md"] = SKILL
    write_tree(tmp_path, documents)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def manifest_of(root: Path) -> str:
    return str(root / "provider.yaml")


# ---------------------------------------------------------------- validate and inspect


def test_validate_human(cli: Any, provider_dir: Path) -> None:
    result = cli("validate")
    assert result.status == 0
    assert result.out.splitlines()[0] == "Valid provider acme/base@1.0.0"
    assert result.err == ""


def test_validate_json_is_state_plus_inspection(cli: Any, provider_dir: Path) -> None:
    answer = cli("validate", "--format", "json").json()
    inspection = cli("inspect", "provider", "--format", "json").json()
    assert answer.pop("state") == "valid"
    answer.pop("diagnostics", None)
    assert answer == inspection


def test_inspect_provider_shape(cli: Any, provider_dir: Path) -> None:
    answer = cli("--format", "json", "inspect", "provider").json()
    _schema.validate("inspect", answer, "inspect")
    assert answer["schema"] == "agent-graph.inspect.v1"
    assert answer["provider"] == {
        "id": "acme/base",
        "version": "1.0.0",
        "manifest": manifest_of(provider_dir),
    }
    assert answer["counts"] == {"graphs": 2, "nodes": 8, "edges": 7, "actions": 9, "resources": 5, "codes": 6}
    graphs = {graph["id"]: graph for graph in answer["graphs"]}
    main_graph = graphs["main"]
    assert main_graph["description"] == "Build, approve, check, write and run."
    assert main_graph["path"] == "graphs/main.yaml"
    assert main_graph["entrypoints"] == {"default": "build"}
    assert main_graph["dependencies"] == ["child"]
    assert graphs["child"]["dependencies"] == []
    assert "description" not in graphs["child"]
    nodes = {item["id"]: item for item in main_graph["nodes"]}
    assert nodes["build"] == {
        "id": "build",
        "kind": "action",
        "description": "Build the release",
        "reasonCode": "route.main.build",
        "priority": 0,
    }
    assert nodes["run"]["priority"] == 5
    assert nodes["done"] == {"id": "done", "kind": "terminal", "priority": 0}
    actions = {item["id"]: item for item in answer["actions"]}
    assert actions["run"] == {"id": "run", "runner": "script", "effect": "write", "path": "actions/run.yaml"}
    assert actions["report-materializer"]["runner"] == "host"
    resources = {item["id"]: item for item in answer["resources"]}
    assert resources["procedure.build"] == {
        "id": "procedure.build",
        "kind": "procedure",
        "dynamic": False,
        "path": "resources/procedure.md",
    }
    assert resources["view.status"]["dynamic"] is True
    assert {code["code"] for code in answer["codes"]} >= {"route.main.build", "diag.build-failed"}


def test_inspect_provider_human(cli: Any, provider_dir: Path) -> None:
    result = cli("inspect", "provider")
    assert result.status == 0
    assert result.out.splitlines()[0] == "acme/base@1.0.0"


def test_inspect_skill_answers_the_binding_and_its_provider(cli: Any, provider_dir: Path) -> None:
    answer = cli("inspect", "skill", "skills/bound/SKILL.md", "--format", "json").json()
    assert list(answer) == ["binding", "provider"]
    assert answer["binding"] == {
        "schema": "agent-graph.skill-binding.v1",
        "skillPath": str(provider_dir / "skills/bound/SKILL.md"),
        "locator": "path:../../provider.yaml",
        "graph": "main",
        "entry": "default",
        "manifestPath": manifest_of(provider_dir),
        "provider": "acme/base",
    }
    assert answer["provider"] == cli("inspect", "provider", "--format", "json").json()


def test_skill_option_selects_graph_and_entry(cli: Any, provider_dir: Path, tmp_path_factory: Any) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    os.chdir(elsewhere)
    skill = str(provider_dir / "skills/bound/SKILL.md")
    answer = cli("evaluate", "--skill", skill, "--format", "json").json()
    assert (answer["provider"], answer["graph"], answer["entry"]) == ("acme/base", "main", "default")


# ---------------------------------------------------------------- evaluate and route


def test_evaluate_matches_the_library(cli: Any, provider_dir: Path) -> None:
    facts = {"build": {"digest": "sha256:1"}}
    answer = cli("evaluate", "main", "--facts", json.dumps(facts), "--format", "json").json()
    _schema.validate("evaluation", answer, "evaluation")
    provider = ag.load_provider(manifest_of(provider_dir))
    expected = ag.evaluate(provider, "main", "default", facts=facts, outcomes={}, authorities=[])
    assert answer["revision"] == expected.revision
    assert answer["statusCode"] == "waiting-user"
    assert answer["primaryRoute"]["node"] == "approve"


def test_evaluate_with_authority_and_outcomes(cli: Any, provider_dir: Path) -> None:
    answer = cli(
        "evaluate",
        "main",
        "--facts",
        '{"build": {"digest": "x"}}',
        "--authority",
        "release",
        "--outcomes",
        '{"main/approve": "completed", "main/quality>child/check": "failed"}',
        "--format",
        "json",
    ).json()
    assert answer["statusCode"] == "blocked"


def test_evaluate_facts_from_a_file(cli: Any, provider_dir: Path) -> None:
    (provider_dir / "facts.json").write_text('{"build": {"digest": "x"}}')
    answer = cli("evaluate", "main", "--facts", "@facts.json", "--format", "json").json()
    assert answer["primaryRoute"]["node"] == "approve"


def test_evaluate_outcomes_from_a_yaml_file(cli: Any, provider_dir: Path) -> None:
    (provider_dir / "outcomes.yaml").write_text("main/build: completed\n")
    answer = cli("evaluate", "main", "--outcomes", "@outcomes.yaml", "--format", "json").json()
    assert answer["statusCode"] == "blocked"  # completed without the satisfying fact is unverified
    (provider_dir / "outcomes.yaml").write_text("main/build: finished\n")
    assert cli("evaluate", "main", "--outcomes", "@outcomes.yaml", "--format", "json").envelope()["error"][
        "code"
    ] == ("outcome-invalid")


@pytest.mark.parametrize(
    ("given", "shown", "hint"),
    [("sent", '"sent"', ""), ("complete", '"complete"', ' (did you mean "completed"?)'), (3, "3", "")],
)
def test_a_bad_outcome_is_named_with_the_valid_ones(
    cli: Any, provider_dir: Path, given: Any, shown: str, hint: str
) -> None:
    from agent_graph._core.model import OUTCOMES

    expected = f"expected one of {', '.join(OUTCOMES)}{hint}"
    message = cli("evaluate", "--outcomes", json.dumps({"main/build": given}), "--format", "json").envelope()[
        "error"
    ]["message"]
    assert message == f"--outcomes: the outcome for main/build is {shown}; {expected}"
    # The same value in a graph test: the file, line and column, the value and the valid ones.
    case = (
        f"schema: agent-graph.test.v1\nname: bad\ngraph: main\nstate:\n  outcomes:\n    main/build: {shown}\n"
    )
    (provider_dir / "tests/09-bad-outcome.yaml").write_text(case + "expect: {statusCode: blocked}\n")
    answer = cli("test", "tests/09-bad-outcome.yaml", "--format", "json").json()
    (diagnostic,) = answer["results"][0]["error"]["diagnostics"]
    assert diagnostic["message"] == (
        f"tests/09-bad-outcome.yaml:6:17: test case bad: state.outcomes.main/build is {shown}; "
        f"{expected.replace(hint, '')}, or an object with outcome, recordedAt{hint}"
    )


def test_evaluate_human(cli: Any, provider_dir: Path) -> None:
    result = cli("evaluate", "main")
    assert result.status == 0
    assert "State: actionable" in result.out
    assert "Next: build (immediate)" in result.out


def test_route_primary_and_by_id(cli: Any, provider_dir: Path) -> None:
    evaluation = cli("evaluate", "main", "--format", "json").json()
    route_id = evaluation["primaryRoute"]["routeId"]
    primary = cli("route", "main", "--format", "json").json()
    _schema.validate("route", primary, "route")
    assert primary["routeId"] == route_id
    assert primary["commandPlan"][0]["command"] == "make build"
    by_id = cli("route", "main", route_id, "--revision", evaluation["revision"], "--format", "json").json()
    assert by_id == primary


def test_route_stale_revision(cli: Any, provider_dir: Path) -> None:
    evaluation = cli("evaluate", "main", "--format", "json").json()
    stale = cli(
        "route",
        "main",
        evaluation["primaryRoute"]["routeId"],
        "--revision",
        evaluation["revision"],
        "--facts",
        '{"changed": true}',
        "--format",
        "json",
    )
    assert stale.envelope()["error"]["code"] == "route-revision-stale"


def test_route_stale_route_id(cli: Any, provider_dir: Path) -> None:
    result = cli("route", "main", "route:00000000000000000000", "--format", "json")
    assert result.envelope()["error"]["code"] == "route-stale"


def test_route_resource_receipts(cli: Any, provider_dir: Path) -> None:
    before = cli("route", "main", "--format", "json").json()
    required = before["resources"]["required"]
    assert [item["readState"] for item in required] == ["read-required"]
    receipts = {
        "schema": "agent-graph.resource-read-receipts.v1",
        "provider": "acme/base",
        "receipts": [{"id": required[0]["id"], "digest": required[0]["digest"]}],
    }
    after = cli("route", "main", "--resource-receipts", json.dumps(receipts), "--format", "json").json()
    assert [item["readState"] for item in after["resources"]["required"]] == ["current"]
    (provider_dir / "receipts.json").write_text(json.dumps(receipts))
    from_file = cli("route", "main", "--resource-receipts", "@receipts.json", "--format", "json").json()
    assert from_file == after


def test_route_receipts_for_another_provider(cli: Any, provider_dir: Path) -> None:
    receipts = {"schema": "agent-graph.resource-read-receipts.v1", "provider": "acme/other", "receipts": []}
    result = cli("route", "main", "--resource-receipts", json.dumps(receipts), "--format", "json")
    assert result.envelope()["error"]["code"] == "resource-receipts-provider-mismatch"


# ---------------------------------------------------------------- graph tests


def test_test_command_passing(cli: Any, provider_dir: Path) -> None:
    result = cli("test", "--format", "json")
    assert result.status == 0
    answer = result.json()
    assert answer == {
        "state": "passed",
        "total": 1,
        "failed": 0,
        "results": [
            {
                "name": "build first",
                "path": str(provider_dir / "tests/01-build.yaml"),
                "passed": True,
                "failures": [],
            }
        ],
    }


def test_test_command_failing_case_exits_1(cli: Any, provider_dir: Path) -> None:
    (provider_dir / "tests/02-approve.yaml").write_text(json.dumps(FAILING_CASE))
    result = cli("test", "--format", "json")
    assert result.status == 1
    assert result.err == ""
    answer = result.json()
    assert (answer["state"], answer["total"], answer["failed"]) == ("failed", 2, 1)
    failed = [item for item in answer["results"] if not item["passed"]]
    assert failed[0]["name"] == "approve first"
    assert failed[0]["failures"] == ["primaryNode: expected approve, received build"]
    human = cli("test")
    assert human.status == 1
    assert human.out.splitlines() == [
        "PASS tests/01-build.yaml: build first",
        "FAIL tests/02-approve.yaml: approve first",
        "  primaryNode: expected approve, received build",
        "1/2 graph test(s) passed, 1 failed",
    ]


def test_test_command_keeps_going_past_broken_files(cli: Any, provider_dir: Path) -> None:
    (provider_dir / "tests/02-broken.yaml").write_text("schema: agent-graph.test.v1\nname: [unclosed\n")
    (provider_dir / "tests/03-misspelled.yaml").write_text(
        "schema: agent-graph.test.v1\nname: typo\ngraph: main\nexpect:\n  statusCode: actionable\n  primaryNod: build\n"
    )
    (provider_dir / "tests/04-failing.json").write_text(json.dumps(FAILING_CASE))
    (provider_dir / "tests/05-unknown-graph.yaml").write_text(
        "schema: agent-graph.test.v1\nname: no such graph\ngraph: mian\nexpect: {statusCode: actionable}\n"
    )
    result = cli("test", "--format", "json")
    assert result.status == 1 and result.err == ""
    answer = result.json()
    assert (answer["state"], answer["total"], answer["failed"], answer["errors"]) == ("failed", 5, 4, 3)
    by_file = {Path(item["path"]).name: item for item in answer["results"]}
    assert by_file["01-build.yaml"]["passed"] and "error" not in by_file["01-build.yaml"]
    assert by_file["02-broken.yaml"]["error"]["code"] == "parse-failed"
    misspelled = by_file["03-misspelled.yaml"]["error"]
    assert misspelled["code"] == "schema-invalid"
    assert misspelled["diagnostics"][0]["message"] == (
        'tests/03-misspelled.yaml:6:3: test case typo, expect: unknown property "primaryNod" (did you mean "primaryNode"?)'
    )
    assert by_file["04-failing.json"]["failures"] == ["primaryNode: expected approve, received build"]
    assert by_file["05-unknown-graph.yaml"]["name"] == "no such graph"
    assert by_file["05-unknown-graph.yaml"]["error"]["code"] == "graph-missing"
    human = cli("test").out.splitlines()
    assert [line.split(" ", 1)[0] for line in human if not line.startswith(" ")] == [
        "PASS",
        "ERROR",
        "ERROR",
        "FAIL",
        "ERROR",
        "1/5",
    ]
    assert human[1].startswith("ERROR tests/02-broken.yaml: parse-failed: ")
    assert human[-1] == "1/5 graph test(s) passed, 1 failed, 3 could not run"


def test_a_test_state_naming_no_node_fails_the_test(cli: Any, provider_dir: Path) -> None:
    case = {**PASSING_CASE, "name": "typo in a key", "state": {"outcomes": {"main/biuld": "failed"}}}
    del case["entry"]  # entry defaults to default
    (provider_dir / "tests/02-typo.json").write_text(json.dumps(case))
    answer = cli("test", "--format", "json").json()
    (typo,) = [item for item in answer["results"] if not item["passed"]]
    assert typo["failures"] == [
        "state: State key main/biuld names no node of graph main (did you mean main/build?)"
    ]


def test_test_command_with_a_path(cli: Any, provider_dir: Path) -> None:
    (provider_dir / "elsewhere").mkdir()
    (provider_dir / "elsewhere/case.json").write_text(json.dumps(FAILING_CASE))
    result = cli("test", "elsewhere/case.json", "--format", "json")
    assert result.status == 1
    assert result.json()["total"] == 1


def test_test_command_missing_path(cli: Any, provider_dir: Path) -> None:
    result = cli("test", "nowhere", "--format", "json")
    assert result.envelope()["error"]["code"] == "test-path-missing"


# ---------------------------------------------------------------- codes, resources, schemas


def test_code_list_and_locate(cli: Any, provider_dir: Path) -> None:
    listing = cli("code", "list", "--format", "json").json()
    assert list(listing) == ["provider", "catalog", "codes"]
    assert listing["catalog"] == str(provider_dir / "codes.yaml")
    catalog = base_documents()["codes.yaml"]["codes"]
    assert [item["code"] for item in listing["codes"]] == [
        entry["code"] for entry in catalog
    ]  # the catalog's order
    assert cli("inspect", "provider", "--format", "json").json()["codes"] == listing["codes"]
    located = cli("code", "locate", "route.main.build", "--format", "json").json()
    _schema.validate("code-location", located, "code")
    assert located["summary"] == "The build has not run."
    assert located["document"]["filePath"] == str(provider_dir / "resources/procedure.md")
    missing = cli("code", "locate", "route.none", "--format", "json")
    assert missing.envelope()["error"]["code"] == "code-missing"


def test_resource_locate(cli: Any, provider_dir: Path) -> None:
    by_id = cli("resource", "locate", "procedure.build", "--format", "json").json()
    by_path = cli("resource", "locate", "resources/procedure.md", "--format", "json").json()
    assert by_id == by_path
    assert by_id["filePath"] == str(provider_dir / "resources/procedure.md")
    assert by_id["digest"].startswith("sha256:")
    missing = cli("resource", "locate", "/etc/passwd", "--format", "json")
    assert missing.envelope()["error"]["code"] == "resource-missing"


def test_schema_list_path_extract(cli: Any, tmp_path: Path) -> None:
    listing = cli("schema", "list", "--format", "json").json()
    assert list(listing) == ["root", "schemas"]
    names = listing["schemas"]
    assert {"provider", "graph", "action", "error", "inspect"} <= set(names)
    assert {
        "resource",
        "resource-location",
        "resource-location-file",
        "resource-location-graph-action",
        "resource-location-host-action",
    } <= set(names)
    for name in ("resource", "resource-location"):  # the reference toolchain's names, used by its scripts
        found = cli("schema", "path", name, "--format", "json").json()
        assert found == {"name": name, "path": str(Path(listing["root"]) / f"{name}.schema.json")}
        assert json.loads(Path(found["path"]).read_text())["oneOf"]
    assert cli("schema", "list").out.splitlines() == names
    path = cli("schema", "path", "graph", "--format", "json").json()
    assert path == {"name": "graph", "path": str(Path(listing["root"]) / "graph.schema.json")}
    assert Path(path["path"]).is_file()
    extracted = cli("schema", "extract", "graph", "--format", "json").json()
    assert extracted == json.loads(Path(path["path"]).read_text())
    target = tmp_path / "one" / "graph.json"
    written_one = cli("schema", "extract", "graph", "--output", str(target), "--format", "json").json()
    assert written_one == {"name": "graph", "path": str(target)}
    assert json.loads(target.read_text()) == extracted
    assert cli("schema", "extract", "--output", str(target), "--format", "json").envelope()["error"][
        "code"
    ] == ("argument-invalid")
    written = cli("schema", "extract", "--out", str(tmp_path / "out"), "--format", "json").json()
    assert written["state"] == "extracted"
    assert sorted(Path(item).name for item in written["files"]) == sorted(
        f"{name}.schema.json" for name in names
    )


# ---------------------------------------------------------------- global options and output


@pytest.mark.parametrize(
    "argv",
    [
        ["--manifest", "{m}", "--format", "json", "validate"],
        ["validate", "--manifest", "{m}", "--format", "json"],
        ["--format=json", "validate", "--manifest={m}"],
        ["-m", "{m}", "validate", "--format", "json"],
        ["--format", "json", "evaluate", "main", "--manifest", "{m}"],
        ["inspect", "--format", "json", "provider", "--manifest", "{m}"],
        ["evaluate", "main", "--authority", "release", "--format", "json", "--manifest", "{m}"],
    ],
)
def test_global_options_before_and_after(
    cli: Any, provider_dir: Path, tmp_path_factory: Any, argv: list[str]
) -> None:
    os.chdir(tmp_path_factory.mktemp("away"))
    result = cli(*(item.replace("{m}", manifest_of(provider_dir)) for item in argv))
    assert result.status == 0, result.err
    assert result.json()


@pytest.mark.parametrize(
    "argv",
    [
        ["validate"],
        ["inspect", "provider"],
        ["evaluate", "main"],
        ["route", "main"],
        ["code", "list"],
        ["code", "locate", "route.main.build"],
        ["resource", "locate", "view.status"],
        ["schema", "list"],
        ["schema", "path", "run"],
        ["schema", "extract", "error"],
        ["test"],
    ],
)
def test_json_format_prints_exactly_one_line(cli: Any, provider_dir: Path, argv: list[str]) -> None:
    result = cli(*argv, "--format", "json")
    assert result.status == 0, result.err
    assert result.out.endswith("\n")
    assert result.out.count("\n") == 1
    json.loads(result.out)
    assert result.err == ""


# ---------------------------------------------------------------- failures


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["evaluate", "--facts", "{bad"], "json-invalid"),
        (["evaluate", "--facts", "[1, 2]"], "json-object-required"),
        (["evaluate", "--facts", '"text"'], "json-object-required"),
        (["evaluate", "--outcomes", '{"main/build": "done"}'], "outcome-invalid"),
        (["evaluate", "--outcomes", '{"main/build": 1}'], "outcome-invalid"),
        (["evaluate", "--outcomes", "[]"], "json-object-required"),
        (["evaluate", "--outcomes", "{"], "json-invalid"),
        (["evaluate", "nope"], "graph-missing"),
        (["route", "nope"], "graph-missing"),
        (["evaluate", "--facts", "@missing.json"], "file-read-failed"),
        (["--manifest", "absent.yaml", "validate"], "file-missing"),
        (["inspect", "skill", "skills/none/SKILL.md"], "file-read-failed"),
    ],
)
def test_failures_print_one_error_envelope(cli: Any, provider_dir: Path, argv: list[str], code: str) -> None:
    result = cli(*argv, "--format", "json")
    envelope = result.envelope()
    assert envelope["error"]["code"] == code
    assert envelope["error"]["message"]


@pytest.mark.parametrize(
    "argv",
    [
        ["frobnicate"],
        ["validate", "--bogus"],
        ["inspect"],
        ["inspect", "nothing"],
        ["evaluate", "--facts"],
        ["--manifest"],
    ],
)
def test_unknown_command_or_option_is_an_error_code(cli: Any, provider_dir: Path, argv: list[str]) -> None:
    envelope = cli("--format", "json", *argv).envelope()
    assert envelope["error"]["code"]
    assert envelope["error"]["code"] != "internal-error"


def test_bad_format_is_format_invalid(cli: Any, provider_dir: Path) -> None:
    result = cli("validate", "--format", "xml")
    assert result.status == 1
    assert result.out == ""
    assert result.err.splitlines()[0].startswith("ERROR format-invalid: ")


def test_load_error_envelope_carries_diagnostics(cli: Any, provider_dir: Path) -> None:
    graph = json.loads((provider_dir / "graphs/main.yaml").read_text())
    graph["colour"] = "blue"
    (provider_dir / "graphs/main.yaml").write_text(json.dumps(graph))
    envelope = cli("validate", "--format", "json").envelope()
    assert envelope["error"]["code"] == "schema-invalid"
    assert [d["code"] for d in envelope["error"]["diagnostics"]] == ["schema.additionalProperties"]
    assert envelope["error"]["diagnostics"][0]["severity"] == "error"


def test_human_failure_prints_error_line(cli: Any, provider_dir: Path) -> None:
    result = cli("evaluate", "nope")
    assert result.status == 1
    assert result.out == ""
    first = result.err.splitlines()[0]
    assert first.startswith("ERROR graph-missing: ")
    assert "nope" in first


def test_human_failure_of_a_missing_manifest(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = cli("validate")
    assert result.status == 1
    assert result.err.startswith("ERROR file-missing: ")


# ---------------------------------------------------------------- real processes


def _process(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), environment.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "agent_graph", *argv],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_process_failure_has_no_traceback(provider_dir: Path) -> None:
    completed = _process("evaluate", "nope", "--facts", "{bad", "--format", "json", cwd=provider_dir)
    assert completed.returncode == 1
    assert "Traceback" not in completed.stderr
    assert completed.stdout == ""
    lines = completed.stderr.splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["error"]["code"] == "json-invalid"


def test_process_success(provider_dir: Path) -> None:
    completed = _process("--format", "json", "validate", cwd=provider_dir)
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == ""
    assert json.loads(completed.stdout)["state"] == "valid"


# ---------------------------------------------------------------- recorded toolchain answers


def _vector_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = vector_json("cases.json")
    return cases


def test_vector_load_errors_through_the_cli(cli: Any) -> None:
    cases = [case for case in _vector_cases() if "load" in case]
    assert cases
    for case in cases:
        envelope = cli(
            "validate", "--manifest", str(VECTORS / case["manifest"]), "--format", "json"
        ).envelope()
        assert envelope["error"]["code"] == case["load"]["error"], case["manifest"]


def test_vector_evaluations_through_the_cli(cli: Any) -> None:
    cases = [
        case
        for case in _vector_cases()
        if "evaluation" in case
        and all(isinstance(value, str) for value in case["state"].get("outcomes", {}).values())
    ][:12]
    assert cases
    for case in cases:
        state = case["state"]
        argv = [
            "evaluate",
            case["graph"],
            "--entry",
            case["entry"],
            "--manifest",
            str(VECTORS / case["manifest"]),
            "--facts",
            json.dumps(state.get("facts", {})),
            "--outcomes",
            json.dumps(state.get("outcomes", {})),
            "--format",
            "json",
        ]
        if state.get("authorities"):
            argv += ["--authority", *state["authorities"]]
        result = cli(*argv)
        assert result.status == 0, result.err
        root = str(VECTORS / Path(case["manifest"]).parent)
        expected = json.loads(json.dumps(case["evaluation"]).replace("{root}", root))
        assert result.json() == expected, case["manifest"]


def test_stale_revision_is_checked_before_the_route_id(cli: Any, provider_dir: Path) -> None:
    stale = "sha256:" + "0" * 64
    result = cli("route", "main", "route:00000000000000000000", "--revision", stale, "--format", "json")
    assert result.envelope()["error"]["code"] == "route-revision-stale"


# ---------------------------------------------------------------- the reference command line's answers


def test_version_prints_the_bare_version(cli: Any) -> None:
    result = cli("--version")
    assert (result.status, result.out) == (0, f"{ag.__version__}\n")


def test_evaluate_and_route_without_a_graph_name_none(cli: Any, provider_dir: Path) -> None:
    for argv in (["evaluate"], ["route"], ["route", "--entry", "default"]):
        error = cli(*argv, "--format", "json").envelope()["error"]
        assert error["code"] == "graph-selection-missing"
        assert "main, child" in error["message"]
    skill = str(provider_dir / "skills/bound/SKILL.md")
    assert cli("evaluate", "--skill", skill, "--format", "json").json()["graph"] == "main"


def test_an_unknown_graph_lists_the_graphs(cli: Any, provider_dir: Path) -> None:
    error = cli("evaluate", "mian", "--format", "json").envelope()["error"]
    assert error["code"] == "graph-missing"
    assert "did you mean main?" in error["message"] and "its graphs: main, child" in error["message"]


@pytest.mark.parametrize("command", ["evaluate", "route"])
def test_a_wrong_entry_fails_the_command(cli: Any, provider_dir: Path, command: str) -> None:
    error = cli(command, "main", "--entry", "defualt", "--format", "json").envelope()["error"]
    assert error["code"] == "entry-missing"
    assert "did you mean default?" in error["message"]


def test_too_many_route_arguments(cli: Any, provider_dir: Path) -> None:
    route_id = cli("evaluate", "main", "--format", "json").json()["primaryRoute"]["routeId"]
    error = cli("route", "main", route_id, "more", "--format", "json").envelope()["error"]
    assert error["code"] == "route-arguments-invalid"


@pytest.mark.parametrize(
    "revision", ["garbage", "sha256:" + "0" * 63, "sha256:" + "A" * 64, "SHA256:" + "0" * 64]
)
def test_a_malformed_revision_is_revision_invalid(cli: Any, provider_dir: Path, revision: str) -> None:
    assert cli("route", "main", "--revision", revision, "--format", "json").envelope()["error"]["code"] == (
        "revision-invalid"
    )
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.route(ag.load_provider(manifest_of(provider_dir)), "main", revision=revision, workspace="/w")
    assert raised.value.code == "revision-invalid"


def test_a_revision_without_an_available_route_is_route_unavailable(cli: Any, provider_dir: Path) -> None:
    outcomes = '{"main/build": "failed"}'
    evaluation = cli("evaluate", "main", "--outcomes", outcomes, "--format", "json").json()
    assert "primaryRoute" not in evaluation
    for revision in (evaluation["revision"], "sha256:" + "0" * 64):
        error = cli(
            "route", "main", "--outcomes", outcomes, "--revision", revision, "--format", "json"
        ).envelope()
        assert error["error"]["code"] == "route-unavailable"


def test_a_missing_default_manifest_suggests_the_option(
    cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    error = cli("validate", "--format", "json").envelope()["error"]
    assert error["code"] == "file-missing"
    assert "--manifest PATH" in error["message"] and str(tmp_path) in error["message"]
    named = cli("validate", "--manifest", "elsewhere.yaml", "--format", "json").envelope()["error"]
    assert named["code"] == "file-missing" and "--manifest" not in named["message"]
