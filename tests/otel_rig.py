"""One OpenTelemetry set-up per test process, with hosts' faults on demand.

OpenTelemetry takes one tracer provider and one meter provider per process, so
every test module that watches agent-graph's telemetry uses this one:
:func:`install` sets (once) an SDK tracer provider writing to an in-memory span
exporter and an SDK meter provider read by an in-memory metric reader, each
behind a thin provider of our own that raises where :data:`FAULTS` says — as a
host's broken span processor, tracer or meter provider, instrument or log
filter would. :data:`POINTS` names every place a host's code runs inside an
agent-graph call.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

#: Where a host's telemetry code runs during a call, each a place it may raise.
POINTS: tuple[str, ...] = (
    "get_tracer",  # the tracer provider
    "start_span",  # the tracer
    "on_start",  # a span processor, as the span starts
    "set_attributes",  # the span, as attributes are added
    "set_status",  # the span, marking an error
    "record_exception",  # the span, recording the exception
    "end",  # the span's end itself
    "on_end",  # a span processor, as the span ends (after a write committed)
    "get_meter",  # the meter provider
    "create_instrument",  # the meter
    "record",  # an instrument, recording a measurement
    "log",  # a filter of a handler of the agent_graph logger
    "level",  # the agent_graph loggers, asked whether they log at a level (a host's Logger class)
)

#: The points that raise now (see :func:`faults`).
FAULTS: set[str] = set()


class HostFault(RuntimeError):
    """What a host's broken telemetry raises."""


def _fault(point: str) -> None:
    if point in FAULTS:
        raise HostFault(f"the host's telemetry failed at {point}")


class _FaultyProcessor(SpanProcessor):
    def on_start(self, span: Any, parent_context: Any = None) -> None:
        _fault("on_start")

    def on_end(self, span: Any) -> None:
        _fault("on_end")


class _Span(trace.Span):
    """A span that raises at the armed points and otherwise does what the SDK's span does."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def end(self, end_time: int | None = None) -> None:
        _fault("end")
        self.inner.end(end_time)

    def get_span_context(self) -> Any:
        return self.inner.get_span_context()

    def set_attributes(self, attributes: Any) -> None:
        _fault("set_attributes")
        self.inner.set_attributes(attributes)

    def set_attribute(self, key: str, value: Any) -> None:
        _fault("set_attributes")
        self.inner.set_attribute(key, value)

    def add_event(self, name: str, attributes: Any = None, timestamp: int | None = None) -> None:
        self.inner.add_event(name, attributes, timestamp)

    def update_name(self, name: str) -> None:
        self.inner.update_name(name)

    def is_recording(self) -> bool:
        return bool(self.inner.is_recording())

    def set_status(self, status: Any, description: str | None = None) -> None:
        _fault("set_status")
        self.inner.set_status(status, description)

    def record_exception(self, exception: BaseException, *args: Any, **kwargs: Any) -> None:
        _fault("record_exception")
        self.inner.record_exception(exception, *args, **kwargs)


class _Tracer(trace.Tracer):
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def start_span(self, name: str, *args: Any, **kwargs: Any) -> Any:
        _fault("start_span")
        return _Span(self.inner.start_span(name, *args, **kwargs))

    @contextmanager
    def start_as_current_span(self, name: str, *args: Any, **kwargs: Any) -> Iterator[Any]:
        with self.inner.start_as_current_span(name, *args, **kwargs) as span:
            yield span


class _TracerProvider(trace.TracerProvider):
    def __init__(self, inner: TracerProvider) -> None:
        self.inner = inner

    def get_tracer(self, *args: Any, **kwargs: Any) -> Any:
        _fault("get_tracer")
        return _Tracer(self.inner.get_tracer(*args, **kwargs))


class _Instrument:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def add(self, amount: Any, attributes: Any = None, *args: Any, **kwargs: Any) -> None:
        _fault("record")
        self.inner.add(amount, attributes, *args, **kwargs)

    def record(self, amount: Any, attributes: Any = None, *args: Any, **kwargs: Any) -> None:
        _fault("record")
        self.inner.record(amount, attributes, *args, **kwargs)


class _Meter(metrics.Meter):
    def __init__(self, inner: Any) -> None:
        super().__init__("agent_graph-tests")
        self.inner = inner

    def _make(self, kind: str, *args: Any, **kwargs: Any) -> Any:
        _fault("create_instrument")
        return _Instrument(getattr(self.inner, kind)(*args, **kwargs))

    def create_counter(self, *args: Any, **kwargs: Any) -> Any:
        return self._make("create_counter", *args, **kwargs)

    def create_up_down_counter(self, *args: Any, **kwargs: Any) -> Any:
        return self._make("create_up_down_counter", *args, **kwargs)

    def create_histogram(self, *args: Any, **kwargs: Any) -> Any:
        return self._make("create_histogram", *args, **kwargs)

    def create_gauge(self, *args: Any, **kwargs: Any) -> Any:
        return self._make("create_gauge", *args, **kwargs)

    def create_observable_counter(self, *args: Any, **kwargs: Any) -> Any:
        return self._make("create_observable_counter", *args, **kwargs)

    def create_observable_gauge(self, *args: Any, **kwargs: Any) -> Any:
        return self._make("create_observable_gauge", *args, **kwargs)

    def create_observable_up_down_counter(self, *args: Any, **kwargs: Any) -> Any:
        return self._make("create_observable_up_down_counter", *args, **kwargs)


class _MeterProvider(metrics.MeterProvider):
    def __init__(self, inner: MeterProvider) -> None:
        self.inner = inner

    def get_meter(self, *args: Any, **kwargs: Any) -> Any:
        _fault("get_meter")
        return _Meter(self.inner.get_meter(*args, **kwargs))


class _FaultyFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        _fault("log")
        return True


class Rig:
    """The process's exporter and reader."""

    def __init__(self) -> None:
        self.spans = InMemorySpanExporter()
        self.reader = InMemoryMetricReader()
        tracing = TracerProvider()
        tracing.add_span_processor(SimpleSpanProcessor(self.spans))
        tracing.add_span_processor(_FaultyProcessor())  # after the exporter: a span is kept, then it raises
        trace.set_tracer_provider(_TracerProvider(tracing))
        metrics.set_meter_provider(_MeterProvider(MeterProvider(metric_readers=[self.reader])))
        if not isinstance(trace.get_tracer_provider(), _TracerProvider) or not isinstance(
            metrics.get_meter_provider(), _MeterProvider
        ):
            raise RuntimeError("another tracer or meter provider was set in this process before the rig")

    def finished(self, name: str | None = None) -> list[Any]:
        """The finished spans (named ``name``), oldest first."""
        spans = list(self.spans.get_finished_spans())
        return [span for span in spans if name is None or span.name == name]

    def points(self, name: str) -> list[tuple[dict[str, Any], Any]]:
        """Every data point of the metric ``name`` so far: ``(attributes, point)`` (cumulative)."""
        found: list[tuple[dict[str, Any], Any]] = []
        data = self.reader.get_metrics_data()
        for resource in data.resource_metrics if data is not None else ():
            for scope in resource.scope_metrics:
                for metric in scope.metrics:
                    if metric.name == name:
                        found.extend((dict(point.attributes), point) for point in metric.data.data_points)
        return found


_rig: list[Rig] = []


def install() -> Rig:
    """The process's rig, set up on first use."""
    if not _rig:
        _rig.append(Rig())
    _rig[0].spans.clear()
    return _rig[0]


@contextmanager
def faults(points: Sequence[str]) -> Iterator[None]:
    """Raise at ``points`` inside the block (``log``: a handler's filter of the ``agent_graph`` logger, at DEBUG;
    ``level``: each ``agent_graph`` logger asked for its level)."""
    logger = logging.getLogger("agent_graph")
    level = logger.level
    handler = logging.NullHandler()
    handler.addFilter(_FaultyFilter())
    FAULTS.update(points)
    if "log" in points:
        logger.setLevel(logging.DEBUG)
        logger.addHandler(handler)
    asked = [logger, *_children("agent_graph")] if "level" in points else []
    for each in asked:  # shadows Logger.isEnabledFor on the instance, as a host's Logger class would
        each.isEnabledFor = _raising_level  # type: ignore[method-assign]
    try:
        yield
    finally:
        FAULTS.clear()
        for each in asked:
            del each.isEnabledFor
        logger.removeHandler(handler)
        logger.setLevel(level)


def _raising_level(level: int) -> bool:
    raise HostFault("the host's logger failed when asked for its level")


def _children(name: str) -> list[logging.Logger]:
    """The loggers below ``name`` made so far (``agent_graph.store`` …)."""
    found = logging.Logger.manager.loggerDict.items()
    return [item for key, item in found if key.startswith(name + ".") and isinstance(item, logging.Logger)]
