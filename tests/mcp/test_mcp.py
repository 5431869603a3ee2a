"""``agent-graph mcp``: the server started as a subprocess and driven by the MCP SDK's own stdio client.

Each test starts the real command (``python -m agent_graph mcp``) and talks
to it through ``mcp.client.stdio`` — the handshake-era ``ClientSession`` and,
for the 2026-07-28 input-required flow, ``mcp.Client``. Nothing of the server
is replaced: Runs go to a real folder or SQLite database.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

from tests.paths import REPO as ROOT

MANIFEST = ROOT / "examples" / "weekly-report" / "provider.yaml"
TOOL_NAMES = [
    "start_run",
    "next_step",
    "read_resource",
    "record_outcome",
    "update_facts",
    "list_runs",
    "run_events",
]

Elicit = Callable[[Any, Any], Awaitable[Any]]


def _params(args: list[str], cwd: Path, manifest: Path = MANIFEST) -> StdioServerParameters:
    env = {"PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "agent_graph", "mcp", "--manifest", str(manifest), *args],
        env=env,
        cwd=str(cwd),
    )


@asynccontextmanager
async def connect(
    args: list[str], cwd: Path, elicit: Elicit | None = None, manifest: Path = MANIFEST
) -> AsyncIterator[ClientSession]:
    """A handshake-era session with the server; tools listed so that results are checked against their schemas."""
    with open(cwd / "server-stderr.txt", "a", encoding="utf-8") as errlog:
        async with (
            stdio_client(_params(args, cwd, manifest), errlog=errlog) as (read, write),
            ClientSession(read, write, elicitation_callback=elicit) as session,
        ):
            await session.initialize()
            await session.list_tools()
            yield session


async def ok(session: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content[0].text
    assert result.content and result.content[0].type == "text" and result.content[0].text
    structured: dict[str, Any] = result.structured_content
    return structured


async def refused(session: Any, tool: str, arguments: Any) -> str:
    """The AgentGraphError code of a tool error; the text and the envelope agree."""
    result = await session.call_tool(tool, arguments)
    assert result.is_error, f"{tool} {arguments!r:.200} was not refused"
    assert result.structured_content is None  # it would have to match the tool's output schema
    assert len(result.content) == 2 and all(part.type == "text" for part in result.content)
    envelope = json.loads(result.content[1].text)
    assert envelope["schema"] == "agent-graph.error.v1"
    code: str = envelope["error"]["code"]
    assert result.content[0].text == f"ERROR {code}: {envelope['error']['message']}"
    return code


def run(coroutine: Awaitable[Any]) -> Any:
    return asyncio.run(coroutine)  # type: ignore[arg-type]


def store_url(kind: str, folder: Path) -> str:
    if kind == "folder":
        return str(folder / "runs")  # the server creates the folder it is given
    return "sqlite:///" + str(folder / "runs.db")


# ---------------------------------------------------------------- the weekly report, end to end


async def draft_step(session: Any, run_id: str) -> dict[str, Any]:
    """next_step -> read_resource -> record_outcome (with its proof) for the draft; answers the next step."""
    step = await ok(session, "next_step", {"runId": run_id})
    assert step["status"] == "actionable" and step["route"]["node"] == "draft"
    assert step["proof"] == [
        {"path": "report.digest", "operator": "exists", "expected": True, "holds": False}
    ]
    assert step["record"] == {"node": "report/draft", "revision": step["revision"]}
    required = [location["id"] for location in step["route"]["resources"]["required"]]
    assert required[0] == "skill.report-writer"
    for resource in required:
        read = await ok(session, "read_resource", {"runId": run_id, "resourceId": resource})
        assert read["content"] and read["receipt"]["id"] == resource
    again = await ok(session, "next_step", {"runId": run_id})
    assert {loc["readState"] for loc in again["route"]["resources"]["required"]} == {"current"}
    assert again["revision"] == step["revision"]  # reading never changes the Run

    record = {"runId": run_id, "node": "report/draft", "outcome": "completed", "revision": step["revision"]}
    proof = {"report": {"digest": "sha256:5f0c"}}
    recorded = await ok(session, "record_outcome", {**record, "detail": {"words": 412}, "facts": proof})
    assert recorded["keys"] == ["report"] and recorded["revision"] != step["revision"]
    # The step's revision is stale now: a second record against it is refused and nothing is written.
    before = (await ok(session, "run_events", {"runId": run_id}))["total"]
    assert await refused(session, "record_outcome", {**record, "outcome": "partial"}) == "run-revision-stale"
    assert (await ok(session, "run_events", {"runId": run_id}))["total"] == before
    # So is one against a revision that update_facts moved on.
    moved = await ok(session, "next_step", {"runId": run_id})
    await ok(session, "update_facts", {"runId": run_id, "facts": {"notes": {"reviewers": ["ana"]}}})
    assert (
        await refused(session, "record_outcome", {**record, "revision": moved["revision"]})
        == "run-revision-stale"
    )
    return await ok(session, "next_step", {"runId": run_id})


async def without_authority(store: str, workdir: Path) -> str:
    async with connect(["--store", store], workdir) as session:
        tools = await session.list_tools()
        assert [tool.name for tool in tools.tools] == TOOL_NAMES
        started = await ok(session, "start_run", {"graph": "report"})
        run_id = started["runId"]
        gate = await draft_step(session, run_id)
        # A user Gate: waiting-user with its prompt, nothing to record, and no tool passes it.
        assert gate["status"] == "waiting-user"
        assert gate["route"]["gate"]["resolution"] == "user"
        assert gate["userDecision"] == {
            "gate": "report-approval",
            "prompt": "Publish this report?",
            "node": "report/approve",
            "asked": False,
        }
        assert "record" not in gate
        revision = gate["revision"]
        approve = {"runId": run_id, "node": "report/approve", "outcome": "completed", "revision": revision}
        assert await refused(session, "record_outcome", approve) == "gate-outcome-refused"
        assert await refused(
            session, "update_facts", {"runId": run_id, "facts": {"report": {"approved": True}}}
        ) == ("gate-fact-refused")
        # Replacing the object that holds the Gate's Fact is refused as well.
        assert await refused(session, "update_facts", {"runId": run_id, "facts": {"report": "replaced"}}) == (
            "gate-fact-refused"
        )
        assert (
            await refused(session, "start_run", {"facts": {"report": {"approved": True}}})
            == "gate-fact-refused"
        )
        after = await ok(session, "next_step", {"runId": run_id})
        assert after["status"] == "waiting-user" and after["revision"] == revision
        return run_id


async def with_authority(store: str, workdir: Path, earlier: str) -> None:
    async with connect(["--store", store, "--authority", "report.publish"], workdir) as session:
        # The earlier Run holds no authority: its Gate stays the user's, whatever this server holds.
        old = await ok(session, "next_step", {"runId": earlier})
        assert old["status"] == "waiting-user"
        assert (
            await refused(
                session, "update_facts", {"runId": earlier, "facts": {"report": {"approved": True}}}
            )
            == "gate-fact-refused"
        )

        run_id = (await ok(session, "start_run", {}))["runId"]
        gate = await draft_step(session, run_id)
        assert gate["status"] == "actionable"
        assert gate["route"]["gate"]["resolution"] == "session-authority"
        # The Provider's hint for this Gate says to ask the user; with its authority held, the text does not.
        text = (await session.call_tool("next_step", {"runId": run_id})).content[0].text
        assert "ask the user" not in text.lower() and "which this server holds" in text
        assert "userDecision" not in gate
        assert gate["record"]["node"] == "report/approve"
        approve = {
            "runId": run_id,
            "node": "report/approve",
            "outcome": "completed",
            "revision": gate["revision"],
        }
        await ok(session, "record_outcome", {**approve, "facts": {"report": {"approved": True}}})
        step = await ok(session, "next_step", {"runId": run_id})
        assert step["route"]["node"] == "publish"
        assert step["route"]["commandPlan"][0]["command"].endswith("publish-report.sh")
        record = step["record"]
        publication = {"publication": {"url": "https://example.invalid/r"}}
        await ok(
            session,
            "record_outcome",
            {
                "runId": run_id,
                "node": record["node"],
                "outcome": "completed",
                "revision": record["revision"],
                "facts": publication,
            },
        )
        done = await ok(session, "next_step", {"runId": run_id})
        assert done["status"] == "complete" and done["outcome"] == "completed" and done["route"] is None

        listed = await ok(session, "list_runs", {})
        assert {r["runId"] for r in listed["runs"]} == {earlier, run_id} and listed["nextCursor"] is None
        assert listed["runs"][0]["runId"] == run_id  # most recently created first
        events = await ok(session, "run_events", {"runId": run_id, "after": 1})
        assert [e["sequence"] for e in events["events"]] == list(range(2, events["total"] + 1))
        types_seen = [e["type"] for e in events["events"]]
        assert types_seen.count("node.outcome-recorded") == 3 and "facts.updated" in types_seen


@pytest.mark.parametrize("kind", ["folder", "sqlite"])
@pytest.mark.slow
def test_weekly_report_to_the_terminal(kind: str, tmp_path: Path) -> None:
    store = store_url(kind, tmp_path)

    async def scenario() -> None:
        earlier = await without_authority(store, tmp_path)
        await with_authority(store, tmp_path, earlier)

    run(scenario())
    if kind == "sqlite":
        with sqlite3.connect(tmp_path / "runs.db") as database:
            assert database.execute("select count(*) from sqlite_master").fetchone()[0] > 0
    else:
        assert len(list((tmp_path / "runs").glob("*.json"))) == 2


# ---------------------------------------------------------------- the user answers a Gate


def _approve(comment: str) -> Elicit:
    async def answer(context: Any, params: Any) -> types.ElicitResult:
        assert params.message.startswith("Publish this report?")
        assert params.requested_schema["properties"]["decision"]["enum"] == ["approve", "reject"]
        return types.ElicitResult(action="accept", content={"decision": "approve", "comment": comment})

    return answer


@pytest.mark.slow
def test_user_gate_answered_through_elicitation(tmp_path: Path) -> None:
    answers = iter(["decline", "approve", "reject"])

    async def user(context: Any, params: Any) -> types.ElicitResult:
        choice = next(answers)
        if choice == "decline":
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content={"decision": choice, "comment": "looks good"})

    async def scenario() -> None:
        async with connect(["--store", str(tmp_path)], tmp_path, elicit=user) as session:
            drafted = {"report": {"digest": "sha256:5f0c"}}
            run_id = (await ok(session, "start_run", {"facts": drafted}))["runId"]
            gate = await ok(session, "next_step", {"runId": run_id})
            # The user declined to answer: nothing recorded, still the user's.
            assert gate["status"] == "waiting-user"
            assert gate["userDecision"]["asked"] is True and gate["userDecision"]["answer"] == "decline"
            assert (await ok(session, "run_events", {"runId": run_id}))["total"] == 1
            step = await ok(session, "next_step", {"runId": run_id})
            assert step["resolved"] == {
                "gate": "report-approval",
                "node": "report/approve",
                "decision": "approve",
            }
            assert step["route"]["node"] == "publish"
            events = (await ok(session, "run_events", {"runId": run_id}))["events"]
            approval = [e for e in events if e.get("node") == "report/approve"]
            assert approval[-1]["outcome"] == "completed"
            assert approval[-1]["detail"] == {
                "decision": "approve",
                "by": "user",
                "gate": "report-approval",
                "comment": "looks good",
            }
            # The published approval is the Gate's Fact: the user's answer, not the agent's claim.
            assert any(
                e["type"] == "facts.updated"
                and e["detail"] == {"keys": ["report"], "merge": {"report": {"approved": True}}}
                for e in events
            )

            # Rejected: the Gate fails, nothing it guards is offered, and the agent cannot undo it: the
            # report ends in its rejected terminal.
            other = (await ok(session, "start_run", {"facts": drafted}))["runId"]
            rejected = await ok(session, "next_step", {"runId": other})
            assert rejected["resolved"]["decision"] == "reject"
            assert rejected["status"] == "complete" and rejected["route"] is None
            outcomes = [
                e for e in (await ok(session, "run_events", {"runId": other}))["events"] if e.get("node")
            ]
            assert [(e["node"], e["outcome"]) for e in outcomes] == [("report/approve", "failed")]

    run(scenario())


@pytest.mark.slow
def test_user_gate_on_a_2026_connection_uses_input_required(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with Client(
            stdio_client(_params(["--store", str(tmp_path)], tmp_path)),
            mode="2026-07-28",
            elicitation_callback=_approve("ok"),
        ) as client:
            started = await client.call_tool("start_run", {})
            run_id = started.structured_content["runId"]
            await client.call_tool(
                "update_facts", {"runId": run_id, "facts": {"report": {"digest": "sha256:1"}}}
            )
            step = await client.call_tool("next_step", {"runId": run_id})
            assert not step.is_error, step.content
            assert step.structured_content["resolved"]["decision"] == "approve"
            assert step.structured_content["route"]["node"] == "publish"

    run(scenario())


# ---------------------------------------------------------------- hostile calls


@pytest.mark.slow
def test_hostile_calls_get_clean_tool_errors(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with connect(["--store", str(tmp_path)], tmp_path) as session:
            run_id = (await ok(session, "start_run", {}))["runId"]
            revision = (await ok(session, "next_step", {"runId": run_id}))["revision"]
            deep: Any = "leaf"
            for _ in range(80):
                deep = {"d": deep}
            cases: list[tuple[str, Any, str]] = [
                ("next_step", {"runId": 5}, "argument-invalid"),
                ("next_step", {}, "argument-invalid"),
                ("next_step", {"runId": run_id, "extra": 1}, "argument-invalid"),
                ("next_step", {"runId": "../../etc/passwd"}, "argument-invalid"),
                ("next_step", {"runId": "no-such-run"}, "run-missing"),
                ("next_step", {"runId": run_id, "routeId": "route:0000"}, "route-stale"),
                ("update_facts", {"runId": run_id, "facts": "x"}, "argument-invalid"),
                ("update_facts", {"runId": run_id, "facts": [1, 2]}, "argument-invalid"),
                (
                    "update_facts",
                    {"runId": run_id, "facts": {"big": "x" * (2 * 1024 * 1024)}},
                    "input-too-large",
                ),
                ("update_facts", {"runId": run_id, "facts": deep}, "input-too-deep"),
                (
                    "record_outcome",
                    {"runId": run_id, "node": "report/draft", "outcome": "done", "revision": revision},
                    "outcome-invalid",
                ),
                (
                    "record_outcome",
                    {"runId": run_id, "node": "report/draft", "outcome": "completed", "revision": "abc"},
                    "argument-invalid",
                ),
                (
                    "record_outcome",
                    {"runId": run_id, "node": "nowhere/x", "outcome": "completed", "revision": revision},
                    "state-key-unknown",
                ),
                ("read_resource", {"runId": run_id, "resourceId": "../../../etc/passwd"}, "resource-missing"),
                ("read_resource", {"runId": run_id, "resourceId": "/etc/passwd"}, "resource-missing"),
                ("read_resource", {"runId": run_id, "resourceId": "no.such.resource"}, "resource-missing"),
                ("list_runs", {"limit": "ten"}, "argument-invalid"),
                ("list_runs", {"limit": 0}, "argument-invalid"),
                ("run_events", {"runId": run_id, "after": -1}, "argument-invalid"),
                ("start_run", {"graph": "nope"}, "graph-missing"),
                ("start_run", {"graph": "report", "entry": "nope"}, "entry-missing"),
                ("no_such_tool", {}, "tool-unknown"),
                # Huge and mistyped arguments.
                (
                    "record_outcome",
                    {
                        "runId": run_id,
                        "node": "report/draft",
                        "outcome": "completed",
                        "revision": revision,
                        "detail": "x" * (65 * 1024),
                    },
                    "input-too-large",
                ),
                ("start_run", {"facts": {"a": 10**400}}, "json-invalid"),
                ("list_runs", {"limit": True}, "argument-invalid"),
                ("run_events", {"runId": run_id, "after": 1.5}, "argument-invalid"),
                ("start_run", {"graph": "report", "entry": "\u0000"}, "argument-invalid"),
                ("next_step", {"runId": run_id, "routeId": "r" * 5000}, "argument-invalid"),
                ("read_resource", {"runId": run_id, "resourceId": "x", "routeId": 7}, "argument-invalid"),
                ("update_facts", {"runId": run_id, "facts": {"a": [[[[]]]] * 200_000}}, "input-too-large"),
            ]
            for tool, arguments, code in cases:
                assert await refused(session, tool, arguments) == code, (tool, arguments)
            # Nothing above changed the Run, and the server still answers.
            events = await ok(session, "run_events", {"runId": run_id})
            assert events["total"] == 1
            assert (await ok(session, "next_step", {"runId": run_id}))["revision"] == revision

    run(scenario())


def _frame(message: dict[str, Any]) -> bytes:
    return (json.dumps(message) + "\n").encode()


@pytest.mark.slow
def test_stdout_carries_only_protocol_messages(tmp_path: Path) -> None:
    """Raw bytes on the wire: garbage and absurdly nested lines never stop the server or leak onto stdout."""
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }
    nested = (
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"start_run","arguments":{"facts":'
        + ('{"a":' * 3000)
        + "1"
        + "}" * 3000
        + "}}}"
    )
    lines = [
        _frame(initialize),
        _frame({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        b"this is not json\n",
        nested.encode() + b"\n",
        _frame(
            {
                "jsonrpc": "2.0",
                "id": 4,
                "method": "tools/call",
                "params": {"name": "start_run", "arguments": {}},
            }
        ),
    ]
    listing = _frame(
        {"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "list_runs", "arguments": {}}}
    )
    params = _params(["--store", str(tmp_path / "runs")], tmp_path)
    errlog = tmp_path / "stderr.txt"
    with open(errlog, "wb") as stderr_file:  # a file, not a pipe: standard error can never block the server
        process = subprocess.Popen(
            [params.command, *params.args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr_file,
            cwd=tmp_path,
            env={**os.environ, **(params.env or {})},
        )
    assert process.stdin is not None and process.stdout is not None
    received: queue.Queue[bytes] = queue.Queue()
    reader = threading.Thread(target=lambda: [received.put(line) for line in process.stdout], daemon=True)  # type: ignore[union-attr]
    reader.start()
    process.stdin.write(b"".join(lines))
    process.stdin.flush()
    answers: dict[int, Any] = {}
    try:
        while not {1, 3, 4, 5} <= answers.keys():
            message = json.loads(received.get(timeout=60))  # every line is one JSON-RPC message
            assert message["jsonrpc"] == "2.0"
            if "id" in message:
                answers[message["id"]] = message
            if message.get("id") == 4:  # calls run concurrently: list the Runs once the start is answered
                process.stdin.write(listing)
                process.stdin.flush()
    finally:
        process.stdin.close()
        process.wait(timeout=60)
    stderr = errlog.read_bytes()
    assert process.returncode == 0, stderr.decode(errors="replace")[-2000:]
    assert answers[1]["result"]["serverInfo"]["name"] == "agent-graph"
    assert answers[4]["result"]["isError"] is False
    assert len(answers[5]["result"]["structuredContent"]["runs"]) == 1
    # Nested deeper than the SDK reads JSON: answered all the same, as a tool error with its code.
    assert answers[3]["result"]["isError"] is True
    assert json.loads(answers[3]["result"]["content"][1]["text"])["error"]["code"] == "input-too-deep"
    reader.join(timeout=60)
    while not received.empty():  # whatever came after the answers is protocol too
        assert json.loads(received.get())["jsonrpc"] == "2.0"
    assert b"Traceback" not in stderr


# ---------------------------------------------------------------- resources, prompts, the extra


@pytest.mark.skipif(sys.platform == "win32", reason="materializers need POSIX process groups")
@pytest.mark.slow
def test_context_views_are_materialized_at_the_steps_revision(tmp_path: Path) -> None:
    from tests.runtime.test_materialize import command, write_provider

    manifest = write_provider(tmp_path / "provider", {"context.status": command("""printf '{"open": 3}'""")})
    cache = tmp_path / "cache"

    async def scenario() -> None:
        async with connect(
            ["--store", str(tmp_path), "--materialize-cache", str(cache)], tmp_path, manifest=manifest
        ) as session:
            run_id = (await ok(session, "start_run", {}))["runId"]
            step = await ok(session, "next_step", {"runId": run_id})
            views = [
                loc for loc in step["route"]["resources"]["recommended"] if loc["id"] == "context.status"
            ]
            assert views[0]["readState"] == "read-required" and views[0]["revision"] == step["revision"]
            read = await ok(session, "read_resource", {"runId": run_id, "resourceId": "context.status"})
            assert json.loads(read["content"]) == {"open": 3}
            assert read["receipt"]["revision"] == step["revision"]
            again = await ok(session, "next_step", {"runId": run_id})
            assert [
                loc["readState"]
                for loc in again["route"]["resources"]["recommended"]
                if loc["id"] == "context.status"
            ] == ["current"]
            # A host-action resource needs a handler this server was not given.
            code = await refused(session, "read_resource", {"runId": run_id, "resourceId": "host.view"})
            assert code == "host-action-handler-missing"

    run(scenario())
    assert any(cache.iterdir())  # the view was written to the cache the server was given


def _docs_block(document: Path, first_line: str) -> str:
    """The fenced Python block of ``document`` whose first line is ``first_line``."""
    blocks = document.read_text(encoding="utf-8").split("```python\n")[1:]
    found = [block.split("\n```", 1)[0] + "\n" for block in blocks if block.startswith(first_line + "\n")]
    assert len(found) == 1, f"{document.name} has no single block starting with {first_line!r}"
    return found[0]


@pytest.mark.slow
def test_the_documented_host_serves_its_own_handlers_through_serve_mcp(tmp_path: Path) -> None:
    """docs/mcp.md's serve.py, run as written: both context views of incident-brief reach the agent."""
    shutil.copytree(ROOT / "examples" / "incident-brief", tmp_path / "examples" / "incident-brief")
    (tmp_path / "serve.py").write_text(_docs_block(ROOT / "docs" / "mcp.md", "# serve.py"), encoding="utf-8")
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(tmp_path / "serve.py")],
        env=_params([], tmp_path).env,
        cwd=str(tmp_path),
    )

    async def scenario() -> None:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            run_id = (await ok(session, "start_run", {}))["runId"]
            step = await ok(session, "next_step", {"runId": run_id})
            required = {location["id"]: location for location in step["route"]["resources"]["required"]}
            assert {"context.status", "incident.timeline"} <= required.keys()
            timeline = await ok(
                session, "read_resource", {"runId": run_id, "resourceId": "incident.timeline"}
            )
            assert json.loads(timeline["content"])["events"] == [{"at": "09:14", "what": "checkout degraded"}]
            assert timeline["receipt"]["revision"] == step["revision"]
            status = await ok(session, "read_resource", {"runId": run_id, "resourceId": "context.status"})
            assert json.loads(status["content"])["state"] == "degraded"
            again = await ok(session, "next_step", {"runId": run_id})
            states = {loc["id"]: loc["readState"] for loc in again["route"]["resources"]["required"]}
            assert states["incident.timeline"] == states["context.status"] == "current"

    run(scenario())
    assert (tmp_path / "runs.db").is_file() and any((tmp_path / ".agent-graph" / "cache").iterdir())


@pytest.mark.slow
def test_static_resources_and_entry_prompts(tmp_path: Path) -> None:
    skill = ROOT / "examples" / "weekly-report" / "skills" / "weekly-report" / "SKILL.md"

    async def scenario() -> None:
        async with connect(["--store", str(tmp_path), "--skill", str(skill)], tmp_path) as session:
            resources = (await session.list_resources()).resources
            ids = [resource.name for resource in resources]
            assert "procedure.weekly-report" in ids and ids == sorted(ids)
            # Skills and schemas are listed and read like any static file, as the read_resource tool reads them.
            assert {"skill.report-writer", "schema.draft.output"} <= set(ids)
            schema = await session.read_resource("agent-graph://resource/schema.draft.output")
            schema_text = schema.contents[0]
            assert isinstance(schema_text, types.TextResourceContents)
            assert schema_text.text == (
                ROOT / "examples/weekly-report/schemas/draft-output.schema.json"
            ).read_text(encoding="utf-8")
            assert (await session.list_resource_templates()).resource_templates == []
            procedure = next(r for r in resources if r.name == "procedure.weekly-report")
            read = await session.read_resource(procedure.uri)
            text = read.contents[0]
            assert isinstance(text, types.TextResourceContents) and "weekly" in text.text
            assert text.text == (ROOT / "examples/weekly-report/resources/procedure.md").read_text(
                encoding="utf-8"
            )
            with pytest.raises(Exception, match="resource-missing"):
                await session.read_resource("agent-graph://resource/..%2F..%2Fetc%2Fpasswd")

            prompts = (await session.list_prompts()).prompts
            assert [prompt.name for prompt in prompts] == ["report#default"]
            got = await session.get_prompt("report#default", {"facts": '{"team": "core"}'})
            message = got.messages[0].content
            assert isinstance(message, types.TextContent)
            assert "Next step: `draft`" in message.text
            listed = await ok(session, "list_runs", {"graph": "report"})
            assert len(listed["runs"]) == 1
            started = await ok(session, "start_run", {})  # the Skill's binding names the graph and entry
            assert (started["graph"], started["entry"]) == ("report", "default")
            with pytest.raises(Exception, match="gate-fact-refused"):
                await session.get_prompt("report#default", {"facts": '{"report": {"approved": true}}'})
            with pytest.raises(Exception, match="prompt-missing"):
                await session.get_prompt("nope#default", {})

    run(scenario())


def test_without_the_sdk_the_command_says_how_to_install_it(tmp_path: Path) -> None:
    blocked = (
        "import sys; sys.modules['mcp'] = None; from agent_graph._cli.main import main; "
        f"sys.exit(main(['mcp', '--manifest', {str(MANIFEST)!r}, '--format', 'json']))"
    )
    process = subprocess.run(
        [sys.executable, "-c", blocked],
        capture_output=True,
        cwd=tmp_path,
        timeout=60,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.returncode == 1
    assert process.stdout == ""
    envelope = json.loads(process.stderr)
    assert envelope["error"]["code"] == "mcp-unavailable"
    assert 'pip install "agent-graph[mcp]"' in envelope["error"]["message"]
    assert not list(tmp_path.iterdir())  # nothing written


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.slow
def test_without_a_store_the_runs_live_in_a_folder_removed_when_the_server_stops(tmp_path: Path) -> None:
    params = _params([], tmp_path)
    process = subprocess.Popen(
        [params.command, *params.args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env={**os.environ, **(params.env or {})},
    )
    assert process.stderr is not None and process.stdin is not None
    notice = process.stderr.readline().decode()
    folder = Path(notice.split(" are kept in ", 1)[1].split(" and removed", 1)[0])
    assert folder.is_dir()
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 0  # stopped on request: a clean exit
    process.stdin.close()
    assert not folder.exists() and not folder.parent.exists()
    assert list(tmp_path.iterdir()) == []  # nothing written in the folder it ran in


# ---------------------------------------------------------------- the TypeScript SDK's client

NODE_TESTS = ROOT / "tests" / "node"


def _node_client() -> list[str]:
    """The command that runs the TypeScript SDK driver (its packages installed with ``npm ci`` if missing)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are not installed: the TypeScript SDK client cannot run")
    if not (NODE_TESTS / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json").is_file():
        installed = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=NODE_TESTS,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert installed.returncode == 0, f"npm ci in tests/node failed:\n{installed.stderr[-2000:]}"
    return [node, str(NODE_TESTS / "mcp_client.mjs")]


@pytest.mark.slow
def test_the_typescript_sdk_client_sees_every_result_and_every_error(tmp_path: Path) -> None:
    """A whole Run through @modelcontextprotocol/sdk, which checks structured content against output schemas."""
    client = _node_client()
    params = _params(["--store", str(tmp_path / "runs")], tmp_path)
    server = {
        "command": params.command,
        "args": params.args,
        "cwd": str(tmp_path),
        "env": {**os.environ, **(params.env or {})},
    }
    with open(tmp_path / "stderr.txt", "wb") as errlog:
        done = subprocess.run(
            [*client, json.dumps(server)], stdout=subprocess.PIPE, stderr=errlog, cwd=NODE_TESTS, timeout=300
        )
    stderr = (tmp_path / "stderr.txt").read_text(encoding="utf-8", errors="replace")
    assert done.returncode == 0, stderr[-3000:]
    transcript = json.loads(done.stdout)
    calls = transcript["calls"]
    assert [c for c in calls if "thrown" in c and "tool" in c] == []  # the SDK accepted every tool result
    tools = [c for c in calls if "tool" in c]

    def errors() -> list[str]:
        found = []
        for entry in tools:
            if entry["isError"]:
                assert entry["structured"] is None
                envelope = json.loads(entry["texts"][1])
                assert (
                    entry["texts"][0] == f"ERROR {envelope['error']['code']}: {envelope['error']['message']}"
                )
                found.append(envelope["error"]["code"])
        return found

    assert errors() == ["run-revision-stale", "gate-fact-refused", "gate-outcome-refused", "run-missing"]
    assert (
        transcript["eventsBeforeGate"] == 3
    )  # started, the draft's Facts and outcome: nothing refused was written
    assert len(transcript["asked"]) == 1 and transcript["asked"][0].startswith("Publish this report?")
    last_step = [c for c in tools if c["tool"] == "next_step"][-1]
    assert last_step["structured"]["status"] == "complete" and last_step["structured"]["route"] is None
    events = tools[-1]["structured"]["events"]
    assert [(e["node"], e["outcome"]) for e in events if e.get("node")] == [
        ("report/draft", "completed"),
        ("report/approve", "completed"),
        ("report/publish", "completed"),
    ]
    requests = {c["request"]: c for c in calls if "request" in c}
    listed = {r["name"] for r in requests["resources/list"]["result"]["resources"]}
    assert {"procedure.weekly-report", "skill.report-writer", "schema.draft.output"} <= listed
    schema = requests["resources/read schema.draft.output"]["result"]["contents"][0]
    assert json.loads(schema["text"])["type"] == "object"
    assert "resource-missing" in requests["resources/read missing"]["thrown"]
    assert requests["resources/templates/list"]["result"]["resourceTemplates"] == []


# ---------------------------------------------------------------- slow reads, signals, floods

_BLOCKING_HOST = """
import sys, time
from pathlib import Path

import agent_graph as ag

here = Path(sys.argv[1])


def fetch_timeline(location):
    (here / "entered").write_text("yes")
    while not (here / "release").exists():  # a handler that does not answer until the test says so
        time.sleep(0.05)
    return {
        "schema": "agent-graph.host-action-result.v1",
        "handler": location.materialize.handler,
        "input_digest": ag.host_action_input_digest(location),
        "output": {"schema": location.materialize.output_schema, "inline": {"incident": "INC-1042", "events": []}},
        "receipt": {"adapter": "test", "adapter_version": "1.0.0"},
    }


provider = ag.load_provider(str(here / "examples" / "incident-brief" / "provider.yaml"))
with ag.open_store(str(here / "runs")) as store:
    ag.serve_mcp(
        provider,
        store,
        host_handlers={"acme.incident-timeline": fetch_timeline},
        materialize_cache=str(here / "cache"),
        read_timeout=float(sys.argv[2]),
    )
"""


@asynccontextmanager
async def blocking_host(workdir: Path, read_timeout: float) -> AsyncIterator[ClientSession]:
    shutil.copytree(ROOT / "examples" / "incident-brief", workdir / "examples" / "incident-brief")
    (workdir / "serve.py").write_text(_BLOCKING_HOST, encoding="utf-8")
    params = StdioServerParameters(
        command=sys.executable,
        args=[str(workdir / "serve.py"), str(workdir), str(read_timeout)],
        env=_params([], workdir).env,
        cwd=str(workdir),
    )
    with open(workdir / "server-stderr.txt", "a", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            await session.list_tools()
            yield session


def test_a_read_that_does_not_answer_never_holds_up_other_calls(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with blocking_host(tmp_path, read_timeout=600) as session:
            run_id = (await ok(session, "start_run", {}))["runId"]
            pending = asyncio.ensure_future(
                session.call_tool("read_resource", {"runId": run_id, "resourceId": "incident.timeline"})
            )
            for _ in range(1200):  # the handler is entered (at most 60 s)
                if (tmp_path / "entered").exists():
                    break
                await asyncio.sleep(0.05)
            assert (tmp_path / "entered").exists()
            # While the handler holds its read, other calls are answered, a write included.
            other = (await ok(session, "start_run", {}))["runId"]
            assert len((await ok(session, "list_runs", {}))["runs"]) == 2
            step = await ok(session, "next_step", {"runId": other})
            assert step["status"] == "actionable"
            procedure = [
                loc["id"] for loc in step["route"]["resources"]["required"] if loc["kind"] != "host-action"
            ]
            assert procedure and (
                await ok(session, "read_resource", {"runId": other, "resourceId": procedure[0]})
            )
            assert not pending.done()
            (tmp_path / "release").write_text("go")
            read = await asyncio.wait_for(pending, 60)
            assert (
                not read.is_error and json.loads(read.structured_content["content"])["incident"] == "INC-1042"
            )

    run(scenario())


def test_a_read_past_its_time_limit_is_a_coded_error(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with blocking_host(tmp_path, read_timeout=1) as session:
            run_id = (await ok(session, "start_run", {}))["runId"]
            arguments = {"runId": run_id, "resourceId": "incident.timeline"}
            assert await refused(session, "read_resource", arguments) == "resource-read-timeout"
            assert len((await ok(session, "list_runs", {}))["runs"]) == 1  # still answering
        # The client closed the connection with the handler still waiting: the server ended anyway.

    run(scenario())
    assert "Traceback" not in (tmp_path / "server-stderr.txt").read_text(encoding="utf-8")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_swapped_in_for_a_resource_is_refused_and_the_server_keeps_answering(tmp_path: Path) -> None:
    provider = tmp_path / "provider"
    shutil.copytree(ROOT / "examples" / "weekly-report", provider)
    procedure = provider / "resources" / "procedure.md"

    async def scenario() -> None:
        async with connect(
            ["--store", str(tmp_path / "runs")], tmp_path, manifest=provider / "provider.yaml"
        ) as s:
            run_id = (await ok(s, "start_run", {}))["runId"]
            procedure.unlink()
            os.mkfifo(procedure)  # nobody ever writes to it: a read that waited would never end
            arguments = {"runId": run_id, "resourceId": "procedure.weekly-report"}
            assert await refused(s, "read_resource", arguments) == "file-read-failed"
            with pytest.raises(Exception, match="file-read-failed"):
                await s.read_resource("agent-graph://resource/procedure.weekly-report")
            assert (await ok(s, "next_step", {"runId": run_id}))["status"] == "actionable"

    run(scenario())


def _raw_server(workdir: Path, args: list[str]) -> tuple[subprocess.Popen[bytes], queue.Queue[bytes], Path]:
    params = _params(args, workdir)
    errlog = workdir / "stderr.txt"
    with open(errlog, "wb") as stderr_file:
        process = subprocess.Popen(
            [params.command, *params.args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr_file,
            cwd=workdir,
            env={**os.environ, **(params.env or {})},
        )
    received: queue.Queue[bytes] = queue.Queue()
    assert process.stdout is not None
    stdout = process.stdout
    threading.Thread(target=lambda: [received.put(line) for line in stdout], daemon=True).start()
    return process, received, errlog


def _initialize(process: subprocess.Popen[bytes], received: queue.Queue[bytes]) -> None:
    assert process.stdin is not None
    initialize = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }
    process.stdin.write(
        _frame(initialize) + _frame({"jsonrpc": "2.0", "method": "notifications/initialized"})
    )
    process.stdin.flush()
    assert json.loads(received.get(timeout=60))["id"] == 0


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigterm_stops_a_serving_server_with_exit_status_0(tmp_path: Path) -> None:
    process, received, errlog = _raw_server(tmp_path, ["--store", "sqlite:///" + str(tmp_path / "runs.db")])
    _initialize(process, received)
    assert process.stdin is not None
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "start_run", "arguments": {}},
    }
    process.stdin.write(_frame(call))
    process.stdin.flush()
    assert json.loads(received.get(timeout=60))["result"]["isError"] is False
    process.send_signal(signal.SIGTERM)  # the client keeps its end open: the server must not wait for it
    try:
        assert process.wait(timeout=60) == 0, errlog.read_text(errors="replace")[-2000:]
    finally:
        process.kill()
        process.stdin.close()
    assert b"Traceback" not in errlog.read_bytes()
    with sqlite3.connect(tmp_path / "runs.db") as database:  # the store was closed cleanly, the Run is there
        assert database.execute("pragma integrity_check").fetchone()[0] == "ok"


@pytest.mark.slow
def test_a_flood_of_rapid_and_hostile_calls_is_answered_and_stdout_stays_protocol(tmp_path: Path) -> None:
    """1,000 calls written at once, a third of them hostile; every one answered, every stdout line JSON-RPC."""
    process, received, errlog = _raw_server(tmp_path, ["--store", str(tmp_path / "runs")])
    _initialize(process, received)
    assert process.stdin is not None
    deep: Any = 1
    for _ in range(200):
        deep = [deep]
    hostile: list[dict[str, Any]] = [
        {"name": "update_facts", "arguments": {"runId": "x", "facts": {"a": deep}}},
        {"name": "update_facts", "arguments": {"runId": "x", "facts": {"big": "y" * (1024 * 1024 + 1)}}},
        {"name": "record_outcome", "arguments": {"runId": ["x"], "node": 3, "outcome": None, "revision": {}}},
        {"name": "next_step", "arguments": "not an object"},
        {"name": "list_runs", "arguments": {"limit": 10**30}},
        {"name": "read_resource", "arguments": {"runId": "x" * 100_000, "resourceId": "\u0000"}},
        {"name": "start_run", "arguments": {"graph": {"nested": True}, "facts": None}},
        {"name": "start_run", "arguments": {"facts": {"\ud800": "lone \udfff surrogates"}}},
        {
            "name": "record_outcome",
            "arguments": {"runId": "x", "node": "a", "outcome": "completed", "revision": 7},
        },
    ]
    calls = []
    for index in range(1000):
        if index % 3 == 0:
            params = hostile[(index // 3) % len(hostile)]
        elif index % 3 == 1:
            params = {"name": "list_runs", "arguments": {}}
        else:
            params = {"name": "start_run", "arguments": {}}
        calls.append(_frame({"jsonrpc": "2.0", "id": index + 1, "method": "tools/call", "params": params}))
    writer = threading.Thread(target=lambda: (process.stdin.write(b"".join(calls)), process.stdin.flush()))  # type: ignore[union-attr]
    writer.start()
    answers: dict[int, Any] = {}
    try:
        while len(answers) < 1000:
            message = json.loads(received.get(timeout=120))  # every line on stdout is one JSON-RPC message
            assert message["jsonrpc"] == "2.0"
            if "id" in message:
                answers[message["id"]] = message
        writer.join(timeout=60)
    finally:
        process.stdin.close()
        process.wait(timeout=60)
    assert process.returncode == 0
    for index in range(1000):
        answer = answers[index + 1]
        if index % 3 == 0:  # refused: a tool error or a JSON-RPC error, never a crash
            assert "error" in answer or answer["result"]["isError"] is True, answer
        else:
            assert answer["result"]["isError"] is False, answer
    started = sum(1 for index in range(1000) if index % 3 == 2)
    assert len(list((tmp_path / "runs").glob("*.json"))) == started
    assert b"Traceback" not in errlog.read_bytes()
