"""Nothing in telemetry changes what a call answers or raises, however a host's telemetry fails.

Every surface that emits spans, metrics or log records — every Run store
operation on the three stores and both faces, ``load_provider``, ``evaluate``,
``route`` and the MCP tool calls — runs one script three ways: without
OpenTelemetry imported (the plain answers), with the SDK watching, and with a
host's telemetry raising at each point where its code runs
(:data:`tests.otel_rig.POINTS`: the tracer provider, the tracer, a span
processor as the span starts and ends, the span's attributes, status,
exception and end, the meter provider, the meter, an instrument, a log
filter). The script's transcript — every answer, every refusal's code, the
Runs as stored at the end — must be the same each time: a write reported as
landed landed once, and nothing a host raises reaches the caller.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from agent_graph._runtime import telemetry

pytest.importorskip("opentelemetry.sdk.trace", reason="the [test] extra brings opentelemetry-sdk")

from tests import otel_rig
from tests.fakes import FakeClock, Ids
from tests.paths import REPO as ROOT

WEEKLY = str(ROOT / "examples" / "weekly-report" / "provider.yaml")
FACTS = {"report": {"digest": "sha256:1"}}
_schemas = itertools.count(1)

Call = Callable[..., Any]


def _plain(value: Any, tmp: Path) -> str:
    """An answer as comparable text: JSON data, the run's own folder written ``<tmp>``."""
    if isinstance(value, ag.Provider):
        value = {"manifest": value.manifest, "graphs": list(value.graphs), "root": value.root}
    text = json.dumps(msgspec.to_builtins(value), sort_keys=True, default=repr)
    return text.replace(str(tmp), "<tmp>")


class Transcript:
    """What a script saw: each call's answer or refusal code, in order."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.lines: list[str] = []

    def call(self, label: str, function: Call, *args: Any, **kwargs: Any) -> Any:
        try:
            answer = function(*args, **kwargs)
        except ag.AgentGraphError as error:
            self.lines.append(f"{label}: refused {error.code}")
            return None
        except Exception as error:  # what no call may raise: kept, so that every such point is reported
            self.lines.append(f"{label}: raised {type(error).__name__}: {error}")
            return None
        self.lines.append(f"{label}: {_plain(answer, self.tmp)}")
        return answer


def _store_script(
    transcript: Transcript, store: Any, run: Callable[[Any], Any], provider: ag.Provider
) -> None:
    """Every store operation once, refusals included; ``run`` turns an answer (or awaitable) into the answer."""

    def op(name: str, *args: Any, **kwargs: Any) -> Any:
        return transcript.call(name, lambda: run(getattr(store, name)(*args, **kwargs)))

    started = op("start", None, provider, "report", facts={"team": "web"})
    run_id = started.id
    op("head", run_id, provider)
    step = op("next_step", run_id, provider)
    op("record", run_id, "report/draft", "completed", provider=provider, revision=step.revision, facts=FACTS)
    op("record", run_id, "report/draft", "completed", provider=provider, revision=step.revision)  # stale
    op("update_facts", run_id, {"team": "ops"}, provider=provider)
    op("update_authorities", run_id, add=["report.publish"])
    op("next_step", run_id, provider)
    op("events", run_id, after=1, limit=10)
    op("list")
    op("checkpoint", run_id, "keep")
    op("resume", "keep", None)
    exported = transcript.tmp / "exported.json"
    op("export", run_id, str(exported))
    op("import_run", str(exported))  # the ID is taken: refused
    op("fork", run_id, 2)
    op("fork", run_id, 99)  # no such event: refused
    op("load", "no-such-run")
    for summary in run(store.list()):
        op("load", summary.id)


def _open(kind: str, tmp: Path, server: str | None) -> str:
    if kind == "files":
        return str(tmp / "runs")
    if kind == "sqlite":
        return f"sqlite:///{tmp / 'runs.db'}"
    if kind == "memory":
        return "memory://"
    import psycopg

    assert server is not None
    name = f"faults_{next(_schemas)}_{id(tmp) % 100000}"
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {name}")
    return f"{server}&options=-csearch_path%3D{name}"


def _store_transcript(
    kind: str, face: str, tmp: Path, server: str | None, provider: ag.Provider
) -> list[str]:
    tmp.mkdir(parents=True)
    transcript = Transcript(tmp)
    url = _open(kind, tmp, server)
    options = {"clock": FakeClock(), "new_id": Ids()}
    if face == "blocking":
        with ag.open_store(url, **options) as store:
            _store_script(transcript, store, lambda answer: answer, provider)
        return transcript.lines
    loop = asyncio.new_event_loop()
    try:
        store = loop.run_until_complete(ag.open_async_store(url, **options))
        try:
            _store_script(transcript, store, loop.run_until_complete, provider)
        finally:
            loop.run_until_complete(store.aclose())
    finally:
        loop.close()
    return transcript.lines


def _library_transcript(tmp: Path) -> list[str]:
    transcript = Transcript(tmp)
    provider = transcript.call("load_provider", ag.load_provider, WEEKLY)
    transcript.call("load_provider", ag.load_provider, str(tmp / "missing.yaml"))
    ev = transcript.call(
        "evaluate", ag.evaluate, provider, "report", facts=FACTS, authorities=["report.publish"]
    )
    transcript.call("evaluate", ag.evaluate, provider, "no-such-graph")
    route_id = ev.primary_route.route_id
    transcript.call(
        "route",
        ag.route,
        provider,
        "report",
        "default",
        route_id,
        facts=FACTS,
        authorities=["report.publish"],
        revision=ev.revision,
        workspace=str(tmp),
    )
    transcript.call(
        "route", ag.route, provider, "report", "default", route_id, facts=FACTS, revision="sha256:0"
    )
    return transcript.lines


def _mcp_transcript(tmp: Path, provider: ag.Provider) -> list[str]:
    from mcp import types

    from agent_graph._mcp.server import _Handlers
    from agent_graph._mcp.service import McpService

    tmp.mkdir(parents=True)
    transcript = Transcript(tmp)
    store = ag.open_store(str(tmp / "runs"), clock=FakeClock(), new_id=Ids())
    handlers = _Handlers(McpService(provider, store, authorities=(), workspace=str(tmp)))

    def tool(name: str, arguments: dict[str, Any]) -> Any:
        answer = asyncio.run(
            handlers.call_tool(None, types.CallToolRequestParams(name=name, arguments=arguments))
        )
        return {"error": answer.is_error, "content": answer.structured_content}

    started = transcript.call("start_run", tool, "start_run", {"graph": "report"})
    run_id = started["content"]["runId"]
    step = transcript.call("next_step", tool, "next_step", {"runId": run_id})
    revision = step["content"]["revision"]
    read = {"runId": run_id, "resourceId": "procedure.weekly-report"}
    transcript.call("read_resource", tool, "read_resource", read)
    transcript.call("read_resource", tool, "read_resource", {**read, "resourceId": "no-such-resource"})
    arguments = {"runId": run_id, "node": "report/draft", "outcome": "completed", "revision": revision}
    transcript.call("record_outcome", tool, "record_outcome", {**arguments, "facts": FACTS})
    transcript.call("record_outcome", tool, "record_outcome", arguments)  # stale: an error answer
    transcript.call("update_facts", tool, "update_facts", {"runId": run_id, "facts": {"team": "web"}})
    transcript.call("run_events", tool, "run_events", {"runId": run_id})
    transcript.call("run_events", tool, "run_events", {"runId": "no-such-run"})
    transcript.call("list_runs", tool, "list_runs", {})
    store.close()
    return transcript.lines


@pytest.fixture
def rig() -> Iterator[otel_rig.Rig]:
    yield otel_rig.install()
    otel_rig.FAULTS.clear()


def _compare(
    rig: otel_rig.Rig, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, script: Callable[[Path], list[str]]
) -> None:
    """The script's transcript without OpenTelemetry, watched, and with a host's fault at every point: the same."""
    with monkeypatch.context() as hidden:  # as if the host never imported OpenTelemetry
        for module in ("opentelemetry.trace", "opentelemetry.metrics"):
            hidden.delitem(sys.modules, module)
        plain = script(tmp_path / "plain")
    watched = script(tmp_path / "watched")
    assert watched == plain
    assert rig.finished(), "the watched run emitted no span: the comparison would prove nothing"
    differences = {}
    for point in otel_rig.POINTS:
        telemetry._instruments.clear()  # the instruments are made again, under the fault
        with otel_rig.faults([point]):
            faulty = script(tmp_path / f"fault-{point}")
        if faulty != plain:
            differences[point] = [(a, b) for a, b in zip(plain, faulty, strict=False) if a != b][:2] or (
                len(plain),
                len(faulty),
            )
    telemetry._instruments.clear()
    assert not differences, differences


# PostgreSQL's scripts take seconds each (fourteen runs of every operation): slow cases.
_STORES = [
    pytest.param(kind, face, id=f"{kind}-{face}", marks=[pytest.mark.slow] if kind == "postgres" else [])
    for kind in ("files", "sqlite", "memory", "postgres")
    for face in ("blocking", "async")
]


@pytest.mark.parametrize(("kind", "face"), _STORES)
def test_every_store_operation_answers_the_same_whatever_telemetry_raises(
    rig: otel_rig.Rig,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    kind: str,
    face: str,
) -> None:
    server = request.getfixturevalue("postgres_server") if kind == "postgres" else None
    provider = ag.load_provider(WEEKLY)
    _compare(rig, monkeypatch, tmp_path, lambda tmp: _store_transcript(kind, face, tmp, server, provider))


def test_load_evaluate_and_route_answer_the_same_whatever_telemetry_raises(
    rig: otel_rig.Rig, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def script(tmp: Path) -> list[str]:
        tmp.mkdir(parents=True)
        return _library_transcript(tmp)

    _compare(rig, monkeypatch, tmp_path, script)


def test_mcp_tool_calls_answer_the_same_whatever_telemetry_raises(
    rig: otel_rig.Rig, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytest.importorskip("mcp")
    provider = ag.load_provider(WEEKLY)
    _compare(rig, monkeypatch, tmp_path, lambda tmp: _mcp_transcript(tmp, provider))


def test_a_processor_raising_after_a_record_committed_does_not_make_the_host_record_twice(
    rig: otel_rig.Rig, tmp_path: Path
) -> None:
    """The reported case: on_end raises after the write; the caller gets the head, and one record landed."""
    provider = ag.load_provider(WEEKLY)
    with ag.open_store(f"sqlite:///{tmp_path / 'runs.db'}") as store:
        run = store.start(None, provider, "report")
        step = store.next_step(run.id, provider)
        with otel_rig.faults(["on_end"]):
            head = store.record(
                run.id, "report/draft", "completed", provider=provider, revision=step.revision
            )
        assert head.events == 2
        assert [event.type for event in store.events(run.id)] == ["run.started", "node.outcome-recorded"]
    assert rig.finished("agent_graph.store.record"), "the span was exported before the processor raised"
