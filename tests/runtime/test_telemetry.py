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
from agent_graph._runtime.telemetry import ATTRIBUTES, METRICS, Operation, observed

trace = pytest.importorskip("opentelemetry.trace", reason="the [test] extra brings opentelemetry-sdk")
pytest.importorskip("opentelemetry.sdk.trace")
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

from tests import otel_rig  # noqa: E402
from tests.paths import REPO as ROOT  # noqa: E402

WEEKLY = str(ROOT / "examples" / "weekly-report" / "provider.yaml")
FACTS = {"report": {"digest": "sha256:1"}}


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    """The process's tracer provider (OpenTelemetry allows one: tests/otel_rig.py) and a fresh in-memory exporter."""
    rig = otel_rig.install()
    yield rig.spans
    rig.spans.clear()


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


# ---------------------------------------------------------------- record status, database attributes, metrics


def _total(rig: otel_rig.Rig, name: str, **wanted: Any) -> float:
    """The sum over the data points of metric ``name`` whose attributes hold ``wanted``: counts, or values."""
    total = 0.0
    for attributes, point in rig.points(name):
        if all(attributes.get(key.replace("__", ".")) == value for key, value in wanted.items()):
            total += getattr(point, "count", None) or getattr(point, "value", 0)
    return total


def test_a_record_span_carries_its_outcome_and_the_run_status_after_it(
    spans: InMemorySpanExporter, tmp_path: Path
) -> None:
    provider = ag.load_provider(WEEKLY)
    with ag.open_store(str(tmp_path / "runs")) as store:
        run = store.start(None, provider, "report")
        step = store.next_step(run.id, provider)
        head = store.record(
            run.id, "report/draft", "completed", provider=provider, revision=step.revision, facts=FACTS
        )
        bare = store.record(run.id, "report/approve", "failed")  # no Provider: no status to tell
    after = ag.evaluate(
        provider, "report", facts=head.facts, outcomes=head.outcomes, authorities=head.authorities
    )
    recorded, unchecked = (
        span.attributes for span in spans.get_finished_spans() if span.name.endswith(".record")
    )
    assert recorded["agent_graph.outcome"] == "completed"
    assert recorded["agent_graph.status"] == after.status_code == "waiting-user"
    assert unchecked["agent_graph.outcome"] == "failed" and "agent_graph.status" not in unchecked
    assert bare.events == 4


@pytest.mark.parametrize("kind", ["files", "sqlite"])
def test_database_stores_make_client_spans_with_the_database_attributes(
    spans: InMemorySpanExporter, tmp_path: Path, kind: str
) -> None:
    provider = ag.load_provider(WEEKLY)
    path = tmp_path / "runs.db"
    url = str(tmp_path / "runs") if kind == "files" else f"sqlite:///{path}"
    with ag.open_store(url) as store:
        run = store.start(None, provider, "report")
        with pytest.raises(ag.AgentGraphError):
            store.load("no-such-run")

    async def async_face() -> None:
        async with await ag.open_async_store(url) as store:
            await store.head(run.id, provider)

    asyncio.run(async_face())
    started, missing, headed = (
        span for span in spans.get_finished_spans() if span.name.startswith("agent_graph.store")
    )
    if kind == "files":  # a folder is no database: internal spans, no database attributes
        assert {span.kind for span in (started, missing, headed)} == {trace.SpanKind.INTERNAL}
        assert not any(key.startswith("db.") for key in started.attributes)
        return
    for span, operation in ((started, "start"), (missing, "load"), (headed, "head")):
        assert span.kind == trace.SpanKind.CLIENT
        assert span.attributes["db.system.name"] == "sqlite"
        assert span.attributes["db.operation.name"] == operation
        assert span.attributes["db.namespace"] == str(path)
    assert missing.attributes["error.type"] == "run-missing"
    assert "error.type" not in started.attributes


def test_postgresql_spans_name_the_database_schema_and_server(
    spans: InMemorySpanExporter, postgres_url: str
) -> None:
    provider = ag.load_provider(WEEKLY)
    with ag.open_store(postgres_url) as store:
        run = store.start(None, provider, "report")
    (span,) = (span for span in spans.get_finished_spans() if span.name == "agent_graph.store.start")
    schema = postgres_url.rpartition("search_path%3D")[2]
    socket_folder = postgres_url.partition("host=")[2].partition("&")[0]
    assert span.kind == trace.SpanKind.CLIENT
    assert span.attributes["db.system.name"] == "postgresql"
    assert span.attributes["db.namespace"] == f"postgres.{schema}"
    assert span.attributes["server.address"] == socket_folder
    assert span.attributes["agent_graph.run_id"] == run.id


@pytest.mark.parametrize("kind", ["files", "sqlite"])
def test_metrics_count_turns_stale_writes_and_store_errors(
    spans: InMemorySpanExporter, tmp_path: Path, kind: str
) -> None:
    rig = otel_rig.install()
    provider = ag.load_provider(WEEKLY)
    url = str(tmp_path / "runs") if kind == "files" else f"sqlite:///{tmp_path / 'runs.db'}"
    names = ("agent_graph.turn.duration", "agent_graph.store.stale_writes", "agent_graph.store.errors")
    turns, stale, errors = names

    def measured() -> dict[str, float]:
        return {
            "evaluate": _total(rig, turns, agent_graph__operation="evaluate", agent_graph__graph="report"),
            "next_step": _total(rig, turns, agent_graph__operation="next_step", agent_graph__store=kind),
            "stale": _total(rig, stale, agent_graph__operation="record", agent_graph__store=kind),
            "errors": _total(rig, errors, error__type="run-revision-stale", agent_graph__store=kind),
            "missing": _total(rig, errors, error__type="run-missing", agent_graph__operation="load"),
            "database": _total(
                rig, "db.client.operation.duration", db__system__name="sqlite", db__operation__name="record"
            ),
        }

    before = measured()
    ev = ag.evaluate(provider, "report", facts=FACTS)
    ag.evaluate(provider, "report")
    with ag.open_store(url) as store:
        run = store.start(None, provider, "report")
        step = store.next_step(run.id, provider)
        store.record(run.id, "report/draft", "completed", provider=provider, revision=step.revision)
        for _ in range(2):
            with pytest.raises(ag.AgentGraphError):
                store.record(run.id, "report/draft", "completed", provider=provider, revision=step.revision)
        with pytest.raises(ag.AgentGraphError):
            store.load("no-such-run")
    after = measured()
    grown = {key: after[key] - before[key] for key in before}
    assert grown == {
        "evaluate": 2,
        "next_step": 1,
        "stale": 2,
        "errors": 2,
        "missing": 1,
        "database": 3 if kind == "sqlite" else 0,
    }
    statuses = {attributes.get("agent_graph.status") for attributes, _ in rig.points(turns)}
    assert ev.status_code in statuses
    for attributes, point in rig.points(turns):
        assert point.sum >= 0 and set(attributes) <= set(ATTRIBUTES)
    assert set(METRICS) >= set(names) | {"db.client.operation.duration"}


def test_a_database_error_gives_its_sqlstate_to_the_client_span(spans: InMemorySpanExporter) -> None:
    class ServerError(Exception):
        sqlstate = "57014"

    log = logging.getLogger("agent_graph.test")
    with pytest.raises(ag.AgentGraphError), Operation("agent_graph.test.db", log, client=True):
        try:
            raise ServerError("canceling statement due to statement timeout")
        except ServerError:
            raise ag.AgentGraphError("run-store-failed", "the statement timed out") from None
    span = _one(spans, "agent_graph.test.db")
    assert span.kind == trace.SpanKind.CLIENT
    assert span.attributes["db.response.status_code"] == "57014"
    assert span.attributes["error.type"] == "run-store-failed"
