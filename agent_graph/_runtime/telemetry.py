"""Spans, metrics and log records for hosts that watch agent-graph in production.

Rules this module keeps:

* OpenTelemetry is optional (the ``[otel]`` extra brings ``opentelemetry-api``).
  Spans are emitted once the process has imported ``opentelemetry.trace``,
  metrics once it has imported ``opentelemetry.metrics`` — which every host
  that configures OpenTelemetry has done — so without them each helper here is
  a cheap no-op and nothing is imported, at start-up or later.
* The library configures nothing: it never sets a tracer or meter provider,
  never adds a logging handler and never changes a level. Spans and metrics go
  to the providers the host set, under the instrumentation scope
  ``agent_graph``; log records go to the standard logger ``agent_graph`` and
  its children (``agent_graph.load``, ``agent_graph.evaluate``,
  ``agent_graph.route``, ``agent_graph.store``, ``agent_graph.mcp``).
* Our attributes are named ``agent_graph.<what>``; a Run store on a database
  adds OpenTelemetry's database attributes (``db.system.name``,
  ``db.operation.name``, ``db.namespace``, ``server.address``,
  ``server.port``) and a failed call ``error.type``. :data:`ATTRIBUTES` lists
  them all, :data:`METRICS` the instruments.
* A call that succeeds logs one DEBUG record; a call refused with an
  :class:`~agent_graph.AgentGraphError` marks its span as an error, records the
  error's code and logs one INFO record; any exception is re-raised unchanged.
* Nothing here changes what a call answers or raises. Every call into
  OpenTelemetry and logging — getting a tracer or a meter, starting a span,
  setting its attributes and status, attaching and detaching its context,
  ending it (which runs the host's span processors), recording a measurement,
  writing a log record — is guarded: what a host's tracer provider, span
  processor, meter provider, reader or log filter raises is dropped with that
  piece of telemetry, after the call's own work is done and its answer or
  exception is kept.
* The instruments are made once per process, the first time a call is
  measured, and kept here: OpenTelemetry's meter provider is itself set once
  per process (before it is set, the API answers proxies that follow it).
"""

from __future__ import annotations

import functools
import inspect
import logging
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, ParamSpec, TypeVar, cast

from .._core.errors import AgentGraphError
from .._core.version import __version__

__all__ = [
    "ATTRIBUTES",
    "METRICS",
    "Operation",
    "describe_result",
    "observed",
    "provider_id",
    "store_operation",
]

P = ParamSpec("P")
R = TypeVar("R")

#: The span attributes an operation may carry, and what each holds.
ATTRIBUTES: Mapping[str, str] = {
    "agent_graph.provider": "the Provider's ID",
    "agent_graph.graph": "the Graph ID",
    "agent_graph.entry": "the entry name",
    "agent_graph.node": "the node a route, record or step concerns",
    "agent_graph.outcome": "the outcome a record writes",
    "agent_graph.run_id": "the Run's ID (store operations and MCP tools)",
    "agent_graph.revision": "the revision an answer or a guarded write concerns",
    "agent_graph.status": "the status code of the evaluation or route; of a record, the Run's status after it",
    "agent_graph.error_code": "the AgentGraphError code of a refused call",
    "agent_graph.store": "the kind of Run store (files, sqlite, postgresql)",
    "agent_graph.events": "the Run's event count after a store operation",
    "agent_graph.manifest": "the manifest path ``load_provider`` was given",
    "agent_graph.graphs": "how many graphs a loaded Provider holds",
    "agent_graph.tool": "the MCP tool called",
    "agent_graph.operation": "the operation a measurement is of (evaluate, route, record, …): metrics only",
    "db.system.name": "the database of a SQL Run store: sqlite or postgresql",
    "db.operation.name": "the Run store operation on a database (record, next_step, …)",
    "db.namespace": "the database: a PostgreSQL database (and its schema), an SQLite file",
    "server.address": "the PostgreSQL server's host name, address or socket directory",
    "server.port": "the PostgreSQL server's port, when the connection names one",
    "error.type": "the class of a failed call's error: its AgentGraphError code, else the exception's type",
    "db.response.status_code": "the PostgreSQL SQLSTATE of a failed database call, when the server gave one",
}

#: The metric instruments (name → kind, unit and what they measure).
METRICS: Mapping[str, str] = {
    "agent_graph.turn.duration": "histogram, s: one host turn's answer — evaluate, route or a store's next_step",
    "db.client.operation.duration": "histogram, s: one Run store operation on SQLite or PostgreSQL",
    "agent_graph.store.stale_writes": "counter, {write}: guarded writes refused with run-revision-stale",
    "agent_graph.store.errors": "counter, {error}: Run store operations that failed, by error.type",
}

Attributes = dict[str, "str | int"]
Describe = Callable[[tuple[Any, ...], Mapping[str, Any]], Mapping[str, Any]]
After = Callable[[Any, tuple[Any, ...], Mapping[str, Any]], Mapping[str, Any]]

_TRACE_MODULE = "opentelemetry.trace"
_METRICS_MODULE = "opentelemetry.metrics"
_CONTEXT_MODULE = "opentelemetry.context"
_SQL_STORES = frozenset({"sqlite", "postgresql"})
# Seconds: a turn answers in well under a millisecond to a few; database calls as OpenTelemetry advises.
_TURN_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_DB_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0)


def _tracing() -> Any | None:
    """The ``opentelemetry.trace`` module when the process has imported it, else None."""
    return sys.modules.get(_TRACE_MODULE)


def _metering() -> Any | None:
    """The ``opentelemetry.metrics`` module when the process has imported it, else None."""
    return sys.modules.get(_METRICS_MODULE)


def _clean(values: Mapping[str, Any]) -> Attributes:
    """Attributes for the values that are strings or integers: ``agent_graph.<key>``, dotted names as they are."""
    out: Attributes = {}
    for key, value in values.items():
        if isinstance(value, bool) or value is None:
            continue
        name = key if "." in key else "agent_graph." + key
        if isinstance(value, str):
            out[name] = value
        elif isinstance(value, int):
            out[name] = int(value)
    return out


def describe_result(result: Any) -> dict[str, Any]:
    """What an answer tells about itself: Run ID, Provider, graph, entry, node, revision, status.

    Works on Runs, Run heads, Steps, Evaluations and Routes by the names they
    share; anything else adds nothing.
    """
    found: dict[str, Any] = {}
    evaluation = getattr(result, "evaluation", None)
    run = getattr(result, "run", None)
    route = getattr(result, "route", None)
    for source in (result, run, evaluation, route):
        if source is None or isinstance(source, (str, bytes, int, float, list, tuple, dict)):
            continue
        for name, key in (
            ("provider", "provider"),
            ("graph", "graph"),
            ("entry", "entry"),
            ("node", "node"),
            ("revision", "revision"),
            ("status_code", "status"),
        ):
            value = getattr(source, name, None)
            if isinstance(value, str) and key not in found:
                found[key] = value
        if source is result or source is run:
            run_id = getattr(source, "id", None)
            if isinstance(run_id, str) and "run_id" not in found and hasattr(source, "events"):
                found["run_id"] = run_id
            events = getattr(source, "events", None)  # a Run's events, or a Run head's count of them
            if isinstance(events, int) and "events" not in found:
                found["events"] = events
            elif isinstance(events, tuple) and "events" not in found:
                found["events"] = len(events)
    primary = getattr(evaluation if evaluation is not None else result, "primary_route", None)
    node = getattr(primary, "node", None)
    if isinstance(node, str) and "node" not in found:
        found["node"] = node
    return found


def _error_type(error: BaseException) -> str:
    """``error.type``: an AgentGraphError's code, else the exception's qualified type name."""
    if isinstance(error, AgentGraphError):
        return error.code
    kind = type(error)
    return kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def _sqlstate(error: BaseException | None) -> str | None:
    """The SQLSTATE of the database error behind ``error`` (its cause chain, a few links deep), if any."""
    for _ in range(4):
        if error is None:
            return None
        state = getattr(error, "sqlstate", None)
        if isinstance(state, str) and state:
            return state
        error = error.__cause__ or error.__context__
    return None


class _Instruments:
    """The instruments of the ``agent_graph`` meter."""

    __slots__ = ("db", "errors", "stale", "turn")

    def __init__(self, metrics: Any) -> None:
        meter = metrics.get_meter("agent_graph", __version__)
        self.turn = _histogram(
            meter, "agent_graph.turn.duration", "Time agent-graph took to answer a host's turn", _TURN_BUCKETS
        )
        self.db = _histogram(
            meter, "db.client.operation.duration", "Duration of Run store operations", _DB_BUCKETS
        )
        self.stale = meter.create_counter(
            "agent_graph.store.stale_writes",
            unit="{write}",
            description="Guarded writes refused because the Run moved past their revision",
        )
        self.errors = meter.create_counter(
            "agent_graph.store.errors", unit="{error}", description="Run store operations that failed"
        )


def _histogram(meter: Any, name: str, description: str, buckets: tuple[float, ...]) -> Any:
    try:
        return meter.create_histogram(
            name, unit="s", description=description, explicit_bucket_boundaries_advisory=buckets
        )
    except TypeError:  # an API before 1.23 takes no bucket advice
        return meter.create_histogram(name, unit="s", description=description)


_instruments: list[_Instruments] = []  # at most one: see the module's last rule
_instruments_lock = threading.Lock()


def _meter_instruments() -> _Instruments | None:
    """The process's instruments once ``opentelemetry.metrics`` is imported (None when making them failed)."""
    metrics = _metering()
    if metrics is None:
        return None
    if not _instruments:
        with _instruments_lock:
            if not _instruments:
                try:
                    _instruments.append(_Instruments(metrics))
                except Exception:  # a host's meter provider that raises: no metrics, the call goes on
                    return None
    return _instruments[0]


def _database(store: Any) -> dict[str, Any]:
    """OpenTelemetry's database attributes of a SQL Run store (blocking or async face), else nothing."""
    kind = getattr(store, "store_kind", None)
    if kind not in _SQL_STORES:
        return {}
    found: dict[str, Any] = {"db.system.name": kind}
    inner = getattr(store, "store", None)  # the blocking store behind a threaded async face
    if kind == "sqlite":
        path = getattr(store, "path", None) or getattr(inner, "path", None)
        found["db.namespace"] = path if isinstance(path, str) else None
        return found
    conninfo = getattr(store, "conninfo", None)
    if not isinstance(conninfo, str):
        return found
    try:
        from psycopg.conninfo import conninfo_to_dict

        parts = conninfo_to_dict(conninfo)
    except Exception:  # a conninfo the driver cannot read names nothing more
        return found
    database = parts.get("dbname")
    options = str(parts.get("options") or "")
    schema = options.partition("search_path=")[2].split(" ")[0] if "search_path=" in options else ""
    if isinstance(database, str) and database:
        found["db.namespace"] = f"{database}.{schema}" if schema and "," not in schema else database
    host = parts.get("host")
    if isinstance(host, str) and host and "," not in host:
        found["server.address"] = host
    port = parts.get("port")
    if isinstance(port, str) and port.isdigit():
        found["server.port"] = int(port)
    return found


def _guarded(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``call(*args, **kwargs)``, or None when it raises: telemetry never reaches the caller."""
    try:
        return call(*args, **kwargs)
    except Exception:
        return None


class Operation:
    """One observed call: its span (when tracing is on), its measurements and its log record.

    Use as a context manager; :meth:`add` adds attributes once the call knows
    more (the Run ID after a read, the status after an evaluation).
    ``measure`` names the instruments the call feeds: ``"turn"`` (its
    duration as a host's turn) and ``"store"`` (a Run store operation: errors,
    stale writes and, on a database, its duration). ``client`` makes the span
    a client span (a call to a database).
    """

    __slots__ = (
        "_attributes",
        "_client",
        "_logger",
        "_measure",
        "_name",
        "_refused",
        "_span",
        "_started",
        "_token",
    )

    def __init__(
        self,
        name: str,
        logger: logging.Logger,
        attributes: Mapping[str, Any] | None = None,
        *,
        client: bool = False,
        measure: tuple[str, ...] = (),
    ) -> None:
        self._name = name
        self._logger = logger
        self._attributes = _clean(attributes or {})
        self._client = client
        self._measure = measure
        self._span: Any = None
        self._token: Any = None
        self._refused: str | None = None
        self._started = 0.0

    def add(self, values: Mapping[str, Any]) -> None:
        """Add attributes (``run_id=…``, ``status=…``) to the span and the log record."""
        cleaned = _clean(values)
        self._attributes.update(cleaned)
        if self._span is not None and cleaned:
            _guarded(self._span.set_attributes, cleaned)

    @property
    def detailed(self) -> bool:
        """Whether the call is traced or logged at DEBUG: details that cost work are worth finding then."""
        return self._span is not None or _guarded(self._logger.isEnabledFor, logging.DEBUG) is True

    def learn(self, describe: Callable[..., Mapping[str, Any]], *args: Any) -> None:
        """:meth:`add` what ``describe(*args)`` finds; nothing when it raises."""
        found = _guarded(describe, *args)
        if isinstance(found, Mapping):
            self.add(found)

    def refused(self, code: str) -> None:
        """Mark a call that answers a refusal without raising (an MCP tool's error result) with its code."""
        self._refused = code

    def __enter__(self) -> Operation:
        if self._measure:
            self._started = time.perf_counter()
        trace = _tracing()
        if trace is not None:
            self._start_span(trace)
        return self

    def _start_span(self, trace: Any) -> None:
        try:
            tracer = trace.get_tracer("agent_graph", __version__)
            kind = trace.SpanKind.CLIENT if self._client else trace.SpanKind.INTERNAL
            self._span = tracer.start_span(
                self._name,
                kind=kind,
                attributes=dict(self._attributes),
                record_exception=False,
                set_status_on_exception=False,
            )
        except Exception:  # a tracer provider or span processor that raises: no span
            self._span = None
            return
        context = sys.modules.get(_CONTEXT_MODULE)
        if context is not None:
            self._token = _guarded(lambda: context.attach(trace.set_span_in_context(self._span)))

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, _tb: Any) -> None:
        elapsed = time.perf_counter() - self._started if self._measure else 0.0
        code = error.code if isinstance(error, AgentGraphError) else self._refused if error is None else None
        failure = code if code is not None else (_error_type(error) if error is not None else None)
        try:
            if failure is not None:
                extra: dict[str, Any] = {"error.type": failure}
                if code is not None:
                    extra["error_code"] = code
                if self._client:
                    extra["db.response.status_code"] = _sqlstate(error)
                self.add(extra)
                self._mark_error(failure, error)
            self._log(code, error)
        finally:
            self._end_span()
            if self._measure:
                _guarded(self._record, elapsed, failure)

    def _log(self, code: str | None, error: BaseException | None) -> None:
        logger = self._logger
        try:
            if code is not None:
                if logger.isEnabledFor(logging.INFO):
                    logger.info(
                        "%s refused: %s", self._name, code, extra={"agent_graph": dict(self._attributes)}
                    )
            elif error is None and logger.isEnabledFor(logging.DEBUG):
                logger.debug(
                    "%s %s",
                    self._name,
                    " ".join(
                        f"{key.removeprefix('agent_graph.')}={value}"
                        for key, value in self._attributes.items()
                    ),
                    extra={"agent_graph": dict(self._attributes)},
                )
        except Exception:  # a log filter or record factory that raises: no record, the call goes on
            pass

    def _mark_error(self, description: str, error: BaseException | None) -> None:
        span = self._span
        if span is None:
            return
        trace = _tracing()
        status = getattr(trace, "Status", None)
        codes = getattr(trace, "StatusCode", None)
        if status is not None and codes is not None:
            _guarded(lambda: span.set_status(status(codes.ERROR, description)))
        if error is not None:
            _guarded(span.record_exception, error)

    def _end_span(self) -> None:
        span, token = self._span, self._token
        self._span = self._token = None
        if token is not None:
            context = sys.modules.get(_CONTEXT_MODULE)
            if context is not None:
                _guarded(context.detach, token)
        if span is not None:
            _guarded(span.end)

    def _record(self, elapsed: float, failure: str | None) -> None:
        instruments = _meter_instruments()
        if instruments is None:
            return
        attributes = self._attributes
        operation = self._name.rsplit(".", 1)[-1]
        common: Attributes = {"agent_graph.operation": operation}
        for key in ("agent_graph.store", "db.system.name"):
            if key in attributes:
                common[key] = attributes[key]
        if failure is not None:
            common["error.type"] = failure
        if "turn" in self._measure:
            turn = dict(common)
            for key in ("agent_graph.graph", "agent_graph.status"):
                if key in attributes:
                    turn[key] = attributes[key]
            _guarded(instruments.turn.record, elapsed, turn)
        if "store" not in self._measure:
            return
        if failure is not None:
            _guarded(instruments.errors.add, 1, common)
        if failure == "run-revision-stale":
            stale = {key: value for key, value in common.items() if key != "error.type"}
            _guarded(instruments.stale.add, 1, stale)
        if "db.system.name" in attributes:
            database = {
                key: value
                for key, value in attributes.items()
                if key.startswith(("db.", "server.")) or key == "error.type"
            }
            _guarded(instruments.db.record, elapsed, database)


def observed(
    name: str,
    logger: str,
    describe: Describe | None = None,
    result: Callable[[Any], Mapping[str, Any]] = describe_result,
    *,
    after: After | None = None,
    measure: tuple[str, ...] = (),
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Wrap a function (or a coroutine function) so that each call is one :class:`Operation`.

    ``describe(args, kwargs)`` gives the attributes known before the call;
    ``result(answer)`` those the answer adds, and ``after(answer, args,
    kwargs)`` those that need the call's arguments too. When neither tracing,
    metrics nor the logger's INFO level is on, the wrapper calls straight
    through.
    """
    log = logging.getLogger(logger)

    def quiet() -> bool:
        # A host's logger that raises when asked for its level logs nothing: the call goes straight through.
        return _tracing() is None and _metering() is None and not _guarded(log.isEnabledFor, logging.INFO)

    def start(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Operation:
        known = _guarded(describe, args, kwargs) if describe is not None else None
        store = _database(args[0]) if measure and "store" in measure and args else {}
        attributes = {**(known if isinstance(known, Mapping) else {}), **store}
        if store:
            attributes["db.operation.name"] = name.rsplit(".", 1)[-1]
        return Operation(name, log, attributes, client=bool(store), measure=measure)

    def finish(operation: Operation, answer: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> None:
        operation.learn(result, answer)
        if after is not None and operation.detailed:
            operation.learn(after, answer, args, kwargs)

    def wrap(function: Callable[P, R]) -> Callable[P, R]:
        if inspect.iscoroutinefunction(function):
            coroutine = cast(Callable[..., Coroutine[Any, Any, Any]], function)

            @functools.wraps(function)
            async def run_async(*args: Any, **kwargs: Any) -> Any:
                if quiet():
                    return await coroutine(*args, **kwargs)
                with start(args, kwargs) as operation:
                    answer = await coroutine(*args, **kwargs)
                    finish(operation, answer, args, kwargs)
                    return answer

            return cast("Callable[P, R]", run_async)

        @functools.wraps(function)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            if quiet():
                return function(*args, **kwargs)
            with start(args, kwargs) as operation:
                answer = function(*args, **kwargs)
                finish(operation, answer, args, kwargs)
                return answer

        return run

    return wrap


def provider_id(provider: Any) -> str | None:
    """The ID of a loaded Provider (or the ID itself), for an attribute."""
    if isinstance(provider, str):
        return provider
    value = getattr(getattr(provider, "manifest", None), "id", None)
    return value if isinstance(value, str) else None


#: The positional parameters of the Run store methods, after ``self``.
_STORE_PARAMETERS: Mapping[str, tuple[str, ...]] = {
    "start": ("ref", "provider", "graph", "entry"),
    "record": ("ref", "node", "outcome"),
    "resume": ("checkpoint", "target"),
    "import_run": ("path",),
    "list": (),
}


def _status_after(answer: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The Run's status after a record: the head's own, else its evaluation with the loaded Provider given."""
    status = getattr(answer, "status", None)
    if isinstance(status, str):
        return {"status": status}
    from .._core.provider import Provider
    from .run_changes import evaluate_run

    provider = kwargs.get("provider")
    if not isinstance(provider, Provider):
        return {}
    return {"status": evaluate_run(provider, answer).status_code}


def store_operation(name: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Observe the Run store method ``name`` (blocking or async): span ``agent_graph.store.<name>``.

    Attributes: the store's kind, the Run's reference (its ID in every store),
    the node, outcome, graph, entry, Provider and revision the call names, then
    what the answer tells (:func:`describe_result`); on SQLite and PostgreSQL
    the database attributes, in a client span. A ``record`` given the loaded
    Provider also carries the Run's status after it. Feeds the store metrics,
    and ``next_step`` the turn duration.
    """
    parameters = _STORE_PARAMETERS.get(name, ("ref", "provider"))

    def describe(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> dict[str, Any]:
        given = dict(zip(parameters, args[1:], strict=False))
        given.update(kwargs)
        found: dict[str, Any] = {"store": getattr(args[0], "store_kind", None) if args else None}
        ref = given.get("ref")
        if isinstance(ref, str):
            found["run_id"] = ref
        for key in ("graph", "entry", "node", "outcome", "revision"):
            found[key] = given.get(key)
        found["provider"] = provider_id(given.get("provider"))
        return found

    return observed(
        f"agent_graph.store.{name}",
        "agent_graph.store",
        describe,
        after=_status_after if name == "record" else None,
        measure=("turn", "store") if name == "next_step" else ("store",),
    )
