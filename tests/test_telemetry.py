"""Spans and log records: what a host that watches agent-graph sees, through the OpenTelemetry SDK's in-memory exporter."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from agent_graph._runtime.telemetry import ATTRIBUTES, Operation, observed

trace = pytest.importorskip("opentelemetry.trace", reason="the [test] extra brings opentelemetry-sdk")
sdk_trace = pytest.importorskip("opentelemetry.sdk.trace")
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
WEEKLY = str(ROOT / "examples" / "weekly-report" / "provider.yaml")
FACTS = {"report": {"digest": "sha256:1"}}

_EXPORTER = InMemorySpanExporter()


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    """The process's tracer provider (set once: OpenTelemetry allows one) writing to a fresh in-memory exporter."""
    current = trace.get_tracer_provider()
    if not isinstance(current, sdk_trace.TracerProvider):
        provider = sdk_trace.TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(_EXPORTER))
        trace.set_tracer_provider(provider)
    _EXPORTER.clear()
    yield _EXPORTER
    _EXPORTER.clear()


def _one(exporter: InMemorySpanExporter, name: str) -> Any:
    found = [span for span in exporter.get_finished_spans() if span.name == name]
    assert len(found) == 1, [span.name for span in exporter.get_finished_spans()]
    return found[0]


def test_load_evaluate_and_route_each_emit_a_span_with_their_attributes(spans: InMemorySpanExporter) -> None:
    provider = ag.load_provider(WEEKLY)
    ev = ag.evaluate(provider, "report", "default", facts=FACTS, outcomes={}, authorities=["report.publish"])
    assert ev.primary_route is not None
    r = ag.route(
        provider,
        "report",
        "default",
        ev.primary_route.route_id,
        facts=FACTS,
        authorities=["report.publish"],
        revision=ev.revision,
        workspace=str(ROOT),
    )
    loaded = _one(spans, "agent_graph.load_provider")
    assert loaded.attributes["agent_graph.provider"] == provider.manifest.id
    assert loaded.attributes["agent_graph.graphs"] == len(provider.graphs)
    evaluated = _one(spans, "agent_graph.evaluate")
    assert evaluated.attributes["agent_graph.graph"] == "report"
    assert evaluated.attributes["agent_graph.entry"] == "default"
    assert evaluated.attributes["agent_graph.revision"] == ev.revision
    assert evaluated.attributes["agent_graph.status"] == ev.status_code
    assert evaluated.attributes["agent_graph.node"] == ev.primary_route.node
    routed = _one(spans, "agent_graph.route")
    assert routed.attributes["agent_graph.node"] == r.node
    assert routed.attributes["agent_graph.status"] == r.status_code
    assert routed.attributes["agent_graph.revision"] == ev.revision
    assert routed.status.is_ok
    assert set(dict(routed.attributes)) <= set(ATTRIBUTES)


def test_a_refused_call_is_an_error_span_with_its_code_and_raises_unchanged(
    spans: InMemorySpanExporter,
) -> None:
    provider = ag.load_provider(WEEKLY)
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.route(provider, "report", "default", "no-such-route", facts=FACTS, revision="sha256:0")
    span = _one(spans, "agent_graph.route")
    assert span.attributes["agent_graph.error_code"] == raised.value.code
    assert not span.status.is_ok
    assert span.status.description == raised.value.code
    assert [event.name for event in span.events] == ["exception"]


def test_answers_are_the_same_with_and_without_tracing(spans: InMemorySpanExporter) -> None:
    from agent_graph._core.evaluate import evaluate as plain_evaluate

    provider = ag.load_provider(WEEKLY)
    traced = ag.evaluate(provider, "report", facts=FACTS, outcomes={}, authorities=[])
    assert traced == plain_evaluate(provider, "report", facts=FACTS, outcomes={}, authorities=[])
    assert ag.evaluate.__doc__ == plain_evaluate.__doc__


def test_spans_nest_under_the_hosts_own_span(spans: InMemorySpanExporter) -> None:
    provider = ag.load_provider(WEEKLY)
    tracer = trace.get_tracer("host")
    with tracer.start_as_current_span("turn") as turn:
        ag.evaluate(provider, "report", facts=FACTS)
    evaluated = _one(spans, "agent_graph.evaluate")
    assert evaluated.parent is not None
    assert evaluated.parent.span_id == turn.get_span_context().span_id


def test_coroutines_are_observed_as_one_operation(spans: InMemorySpanExporter) -> None:
    @observed("agent_graph.test.async", "agent_graph.test")
    async def answer(ref: str) -> str:
        await asyncio.sleep(0)
        if ref == "bad":
            raise ag.AgentGraphError("run-missing", "no such Run")
        return ref

    assert asyncio.run(answer("good")) == "good"
    with pytest.raises(ag.AgentGraphError):
        asyncio.run(answer("bad"))
    finished = [span for span in spans.get_finished_spans() if span.name == "agent_graph.test.async"]
    assert [span.attributes.get("agent_graph.error_code") for span in finished] == [None, "run-missing"]


def test_log_records_go_to_the_agent_graph_logger_with_their_attributes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    provider = ag.load_provider(WEEKLY)
    with caplog.at_level(logging.DEBUG, logger="agent_graph"):
        ev = ag.evaluate(provider, "report", facts=FACTS)
        with pytest.raises(ag.AgentGraphError):
            ag.evaluate(provider, "no-such-graph")
    records = [record for record in caplog.records if record.name == "agent_graph.evaluate"]
    assert [record.levelno for record in records] == [logging.DEBUG, logging.INFO]
    assert records[0].agent_graph["agent_graph.revision"] == ev.revision  # type: ignore[attr-defined]
    assert "graph-missing" in records[1].getMessage()
    assert records[1].agent_graph["agent_graph.error_code"] == "graph-missing"  # type: ignore[attr-defined]


def test_the_library_installs_no_handler_and_sets_no_level() -> None:
    for name in ("agent_graph", "agent_graph.evaluate", "agent_graph.load", "agent_graph.store"):
        logger = logging.getLogger(name)
        assert logger.handlers == []
        assert logger.level == logging.NOTSET


def test_an_operation_adds_attributes_it_learns_late(spans: InMemorySpanExporter) -> None:
    with Operation("agent_graph.test.late", logging.getLogger("agent_graph.test"), {"graph": "g"}) as op:
        op.add({"run_id": "r1", "events": 3, "ignored": None, "flag": True})
    span = _one(spans, "agent_graph.test.late")
    assert dict(span.attributes) == {
        "agent_graph.graph": "g",
        "agent_graph.run_id": "r1",
        "agent_graph.events": 3,
    }


def test_without_opentelemetry_imported_nothing_is_imported_and_answers_stay() -> None:
    code = (
        "import sys, agent_graph as ag\n"
        f"p = ag.load_provider({WEEKLY!r})\n"
        f"ev = ag.evaluate(p, 'report', facts={FACTS!r})\n"
        "print(ev.status_code)\n"
        "print(sorted(m for m in sys.modules if m.startswith('opentelemetry')))\n"
    )
    env = {key: value for key, value in os.environ.items() if not key.startswith("OTEL_")}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120, check=True
    )
    status, imported = done.stdout.splitlines()
    assert status == "waiting-user"
    assert imported == "[]"


def test_each_mcp_tool_call_is_a_span_and_a_refusal_carries_its_code(
    spans: InMemorySpanExporter, tmp_path: Path
) -> None:
    from mcp import types

    from agent_graph._mcp.server import _Handlers
    from agent_graph._mcp.service import McpService

    provider = ag.load_provider(WEEKLY)
    service = McpService(provider, ag.open_store(str(tmp_path)), authorities=(), workspace=str(tmp_path))
    handlers = _Handlers(service)

    async def calls() -> tuple[Any, Any]:
        started = await handlers.call_tool(
            None, types.CallToolRequestParams(name="start_run", arguments={"graph": "report"})
        )
        missing = await handlers.call_tool(
            None, types.CallToolRequestParams(name="run_events", arguments={"runId": "no-such-run"})
        )
        return started, missing

    started, missing = asyncio.run(calls())
    assert not started.is_error and missing.is_error
    start_span = _one(spans, "agent_graph.mcp.start_run")
    assert start_span.attributes["agent_graph.tool"] == "start_run"
    assert start_span.attributes["agent_graph.run_id"] == started.structured_content["runId"]
    assert start_span.attributes["agent_graph.graph"] == "report"
    assert start_span.status.is_ok
    events_span = _one(spans, "agent_graph.mcp.run_events")
    assert events_span.attributes["agent_graph.run_id"] == "no-such-run"
    assert events_span.attributes["agent_graph.error_code"] == "run-missing"
    assert events_span.status.description == "run-missing"


@pytest.mark.parametrize("kind", ["files", "sqlite"])
def test_each_store_operation_is_a_span_on_both_faces(
    spans: InMemorySpanExporter, tmp_path: Path, kind: str
) -> None:
    provider = ag.load_provider(WEEKLY)
    url = str(tmp_path / "runs") if kind == "files" else f"sqlite:///{tmp_path / 'runs.db'}"
    with ag.open_store(url) as store:
        run = store.start(None, provider, "report")
        step = store.next_step(run.id, provider)
        store.record(run.id, "report/draft", "completed", provider=provider, revision=step.revision)
        with pytest.raises(ag.AgentGraphError):
            store.record(run.id, "report/draft", "completed", provider=provider, revision=step.revision)

    async def async_face() -> None:
        async with await ag.open_async_store(url) as store:
            await store.head(run.id, provider)

    asyncio.run(async_face())
    recorded = [span for span in spans.get_finished_spans() if span.name == "agent_graph.store.record"]
    assert [span.attributes.get("agent_graph.error_code") for span in recorded] == [
        None,
        "run-revision-stale",
    ]
    first = recorded[0].attributes
    assert first["agent_graph.store"] == kind
    assert first["agent_graph.run_id"] == run.id
    assert first["agent_graph.node"] == "report/draft"
    assert first["agent_graph.revision"] == step.revision
    assert first["agent_graph.events"] == 2
    started = _one(spans, "agent_graph.store.start")
    assert started.attributes["agent_graph.run_id"] == run.id
    assert started.attributes["agent_graph.graph"] == "report"
    stepped = _one(spans, "agent_graph.store.next_step")
    assert stepped.attributes["agent_graph.status"] == step.evaluation.status_code
    headed = _one(spans, "agent_graph.store.head")
    assert headed.attributes["agent_graph.store"] == kind
    assert headed.attributes["agent_graph.run_id"] == run.id


def test_each_operation_of_the_async_postgresql_store_is_a_span(
    spans: InMemorySpanExporter, postgres_url: str
) -> None:
    provider = ag.load_provider(WEEKLY)

    async def scenario() -> tuple[Any, Any, Any]:
        async with await ag.open_async_store(postgres_url) as store:
            run = await store.start(None, provider, "report", facts={"team": "web"})
            step = await store.next_step(run.id, provider)
            await store.record(run.id, "report/draft", "completed", provider=provider, revision=step.revision)
            with pytest.raises(ag.AgentGraphError):
                await store.record(
                    run.id, "report/draft", "completed", provider=provider, revision=step.revision
                )
            fork = await store.fork(run.id, 1, provider=provider, facts={"team": "web"})
            with pytest.raises(ag.AgentGraphError):
                await store.fork(run.id, 99, provider=provider)
            await store.events(run.id, after=1)
            return run, step, fork

    run, step, fork = asyncio.run(scenario())
    finished = spans.get_finished_spans()
    store_spans = [span for span in finished if span.name.startswith("agent_graph.store.")]
    assert {span.attributes["agent_graph.store"] for span in store_spans} == {"postgresql"}
    started = _one(spans, "agent_graph.store.start")
    assert started.attributes["agent_graph.run_id"] == run.id
    assert started.attributes["agent_graph.graph"] == "report"
    stepped = _one(spans, "agent_graph.store.next_step")
    assert stepped.attributes["agent_graph.run_id"] == run.id
    assert stepped.attributes["agent_graph.status"] == step.evaluation.status_code
    assert stepped.attributes["agent_graph.revision"] == step.revision
    recorded = [span for span in finished if span.name == "agent_graph.store.record"]
    assert [span.attributes.get("agent_graph.error_code") for span in recorded] == [
        None,
        "run-revision-stale",
    ]
    assert recorded[0].attributes["agent_graph.node"] == "report/draft"
    assert recorded[0].attributes["agent_graph.events"] == 2
    assert recorded[1].status.description == "run-revision-stale"
    forked = [span for span in finished if span.name == "agent_graph.store.fork"]
    assert [span.attributes.get("agent_graph.error_code") for span in forked] == [None, "argument-invalid"]
    # The span of a call that answers a Run names that Run: the fork, not its source.
    assert forked[0].attributes["agent_graph.run_id"] == fork.id != run.id
    assert forked[1].attributes["agent_graph.run_id"] == run.id
    listed = _one(spans, "agent_graph.store.events")
    assert listed.attributes["agent_graph.run_id"] == run.id
    for span in store_spans:
        assert set(dict(span.attributes)) <= set(ATTRIBUTES)
