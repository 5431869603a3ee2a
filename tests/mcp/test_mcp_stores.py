"""``agent-graph mcp`` on every kind of Run store, PostgreSQL included, through the MCP SDK's stdio client.

The server opens the store's async face inside its own event loop; these
tests drive a whole Run, many concurrent tool calls and a stale record on a
real PostgreSQL server (a throwaway cluster, see tests/pg_server.py), an
SQLite database and a folder.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from tests.mcp.test_mcp import (
    _frame,
    _initialize,
    _params,
    _raw_server,
    connect,
    ok,
    refused,
    run,
    with_authority,
    without_authority,
)


def _url(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "postgresql":
        return str(request.getfixturevalue("postgres_url"))
    if kind == "sqlite":
        return "sqlite:///" + str(tmp_path / "runs.db")
    if kind == "memory":
        return "memory://"
    return str(tmp_path / "runs")


@pytest.mark.slow
def test_weekly_report_to_the_terminal_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    async def scenario() -> None:
        earlier = await without_authority(postgres_url, tmp_path)
        await with_authority(postgres_url, tmp_path, earlier)

    run(scenario())
    assert "Traceback" not in (tmp_path / "server-stderr.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("kind", ["folder", "sqlite", "postgresql", "memory"])
def test_concurrent_calls_each_land_once_and_a_stale_record_is_refused(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    store = _url(kind, tmp_path, request)

    async def scenario() -> None:
        async with connect(["--store", store], tmp_path) as session:
            started = await asyncio.gather(
                *(ok(session, "start_run", {"graph": "report"}) for _ in range(12))
            )
            ids = [answer["runId"] for answer in started]
            assert len(set(ids)) == 12
            steps = await asyncio.gather(*(ok(session, "next_step", {"runId": run_id}) for run_id in ids))
            assert {step["route"]["node"] for step in steps} == {"draft"}
            records: list[Any] = []
            for run_id, step in zip(ids, steps, strict=True):
                record = {
                    "runId": run_id,
                    "node": step["record"]["node"],
                    "outcome": "completed",
                    "revision": step["record"]["revision"],
                    "facts": {"report": {"digest": "sha256:1"}},
                }
                records.append(record)
            # The same record twice for each Run, all at once: exactly one of each pair lands.
            answers = await asyncio.gather(
                *(session.call_tool("record_outcome", record) for record in records + records)
            )
            for first, second in zip(answers[:12], answers[12:], strict=True):
                assert sorted([first.is_error, second.is_error]) == [False, True]
                loser = first if first.is_error else second
                assert loser.content[0].text.startswith("ERROR run-revision-stale:"), loser.content[0].text
            for record in records:
                assert await refused(session, "record_outcome", record) == "run-revision-stale"
                events = await ok(session, "run_events", {"runId": record["runId"]})
                kinds = [event["type"] for event in events["events"]]
                assert kinds.count("node.outcome-recorded") == 1
            listed = await ok(session, "list_runs", {"limit": 100})
            assert len(listed["runs"]) == 12 and listed["nextCursor"] is None
            first = await ok(session, "list_runs", {"limit": 5})
            rest = await ok(session, "list_runs", {"limit": 100, "cursor": first["nextCursor"]})
            assert [r["runId"] for r in first["runs"] + rest["runs"]] == [r["runId"] for r in listed["runs"]]
            assert None not in {r["status"] for r in listed["runs"]}  # each written with the Provider

    run(scenario())
    assert "Traceback" not in (tmp_path / "server-stderr.txt").read_text(encoding="utf-8")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigterm_stops_a_server_on_postgresql_cleanly_and_its_run_is_stored(
    tmp_path: Path, postgres_url: str
) -> None:
    process, received, errlog = _raw_server(tmp_path, ["--store", postgres_url])
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
    answer = json.loads(received.get(timeout=60))["result"]
    assert answer["isError"] is False
    process.send_signal(signal.SIGTERM)
    try:
        assert process.wait(timeout=120) == 0, errlog.read_text(errors="replace")[-2000:]
    finally:
        process.kill()
        process.stdin.close()
    assert b"Traceback" not in errlog.read_bytes()
    with ag.open_store(postgres_url) as store:
        assert [summary.id for summary in store.list()] == [answer["structuredContent"]["runId"]]


@pytest.mark.parametrize(
    ("store", "code"),
    [
        ("a-file", "path-not-directory"),
        ("a-file/runs", "path-not-directory"),
        ("sqlite:///not-a-database", "run-store-failed"),
        ("sqlite:///missing/runs.db", "run-store-failed"),
    ],
)
def test_a_store_that_cannot_be_opened_is_a_coded_failure_before_serving(
    store: str, code: str, tmp_path: Path
) -> None:
    (tmp_path / "a-file").write_text("a file, not a folder\n", encoding="utf-8")
    (tmp_path / "not-a-database").write_text("not SQLite\n", encoding="utf-8")
    params = _params(["--store", store, "--format", "json"], tmp_path)
    done = subprocess.run(
        [params.command, *params.args],
        cwd=tmp_path,
        env={**os.environ, **(params.env or {})},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1 and done.stdout == b""
    assert json.loads(done.stderr.decode().strip().splitlines()[-1])["error"]["code"] == code
    assert b"Traceback" not in done.stderr
