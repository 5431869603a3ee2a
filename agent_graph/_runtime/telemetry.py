"""Spans and log records for hosts that watch agent-graph in production.

Rules this module keeps:

* OpenTelemetry is optional (the ``[otel]`` extra brings ``opentelemetry-api``).
  Spans are emitted once the process has imported ``opentelemetry.trace`` —
  which every host that configures OpenTelemetry has done — so without it each
  helper here is a cheap no-op and nothing is imported, at start-up or later.
* The library configures nothing: it never sets a tracer provider, never adds a
  logging handler and never changes a level. Spans go to the tracer provider
  the host set, under the instrumentation scope ``agent_graph``; log records go
  to the standard logger ``agent_graph`` and its children (``agent_graph.load``,
  ``agent_graph.evaluate``, ``agent_graph.route``, ``agent_graph.store``,
  ``agent_graph.mcp``).
* Every attribute is named ``agent_graph.<what>`` (:data:`ATTRIBUTES` lists
  them) and holds a string or an integer.
* A call that succeeds logs one DEBUG record; a call refused with an
  :class:`~agent_graph.AgentGraphError` marks its span as an error, records the
  error's code and logs one INFO record; any exception is re-raised unchanged.
  Nothing here changes what a call answers.
"""

from __future__ import annotations

import functools
import inspect
import logging
import sys
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, ParamSpec, TypeVar, cast

from .._core.errors import AgentGraphError
from .._core.version import __version__

__all__ = ["ATTRIBUTES", "Operation", "describe_result", "observed", "provider_id", "store_operation"]

P = ParamSpec("P")
R = TypeVar("R")

#: The span attributes an operation may carry, and what each holds.
ATTRIBUTES: Mapping[str, str] = {
    "agent_graph.provider": "the Provider's ID",
    "agent_graph.graph": "the Graph ID",
    "agent_graph.entry": "the entry name",
    "agent_graph.node": "the node a route, record or step concerns",
    "agent_graph.run_id": "the Run's ID (store operations and MCP tools)",
    "agent_graph.revision": "the revision an answer or a guarded write concerns",
    "agent_graph.status": "the status code of the evaluation or route",
    "agent_graph.error_code": "the AgentGraphError code of a refused call",
    "agent_graph.store": "the kind of Run store (files, sqlite, postgresql)",
    "agent_graph.events": "the Run's event count after a store operation",
    "agent_graph.manifest": "the manifest path ``load_provider`` was given",
    "agent_graph.graphs": "how many graphs a loaded Provider holds",
    "agent_graph.tool": "the MCP tool called",
}

Attributes = dict[str, "str | int"]
Describe = Callable[[tuple[Any, ...], Mapping[str, Any]], Mapping[str, Any]]

_TRACE_MODULE = "opentelemetry.trace"


def _tracing() -> Any | None:
    """The ``opentelemetry.trace`` module when the process has imported it, else None."""
    return sys.modules.get(_TRACE_MODULE)


def _clean(values: Mapping[str, Any]) -> Attributes:
    """Attributes named ``agent_graph.<key>`` for the values that are strings or integers."""
    out: Attributes = {}
    for key, value in values.items():
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, str):
            out["agent_graph." + key] = value
        elif isinstance(value, int):
            out["agent_graph." + key] = int(value)
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


class Operation:
    """One observed call: its span (when tracing is on) and its log record.

    Use as a context manager; :meth:`add` adds attributes once the call knows
    more (the Run ID after a read, the status after an evaluation).
    """

    __slots__ = ("_attributes", "_logger", "_name", "_refused", "_scope", "_span")

    def __init__(
        self, name: str, logger: logging.Logger, attributes: Mapping[str, Any] | None = None
    ) -> None:
        self._name = name
        self._logger = logger
        self._attributes = _clean(attributes or {})
        self._scope: Any = None
        self._span: Any = None
        self._refused: str | None = None

    def add(self, values: Mapping[str, Any]) -> None:
        """Add attributes (``run_id=…``, ``status=…``) to the span and the log record."""
        cleaned = _clean(values)
        self._attributes.update(cleaned)
        if self._span is not None and cleaned:
            self._span.set_attributes(cleaned)

    def refused(self, code: str) -> None:
        """Mark a call that answers a refusal without raising (an MCP tool's error result) with its code."""
        self._refused = code

    def __enter__(self) -> Operation:
        trace = _tracing()
        if trace is not None:
            tracer = trace.get_tracer("agent_graph", __version__)
            self._scope = tracer.start_as_current_span(
                self._name,
                attributes=dict(self._attributes),
                record_exception=False,
                set_status_on_exception=False,
            )
            self._span = self._scope.__enter__()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: Any) -> None:
        code = error.code if isinstance(error, AgentGraphError) else self._refused if error is None else None
        if code is not None:
            self.add({"error_code": code})
            self._mark_error(code, error)
            if self._logger.isEnabledFor(logging.INFO):
                self._logger.info(
                    "%s refused: %s", self._name, code, extra={"agent_graph": dict(self._attributes)}
                )
        elif error is not None:
            self._mark_error(type(error).__name__, error)
        elif self._logger.isEnabledFor(logging.DEBUG):
            self._logger.debug(
                "%s %s",
                self._name,
                " ".join(f"{key[len('agent_graph.') :]}={value}" for key, value in self._attributes.items()),
                extra={"agent_graph": dict(self._attributes)},
            )
        if self._scope is not None:
            self._scope.__exit__(kind, error, tb)

    def _mark_error(self, description: str, error: BaseException | None) -> None:
        span = self._span
        if span is None:
            return
        trace = _tracing()
        status = getattr(trace, "Status", None)
        codes = getattr(trace, "StatusCode", None)
        if status is not None and codes is not None:
            span.set_status(status(codes.ERROR, description))
        if error is not None:
            span.record_exception(error)


def observed(
    name: str,
    logger: str,
    describe: Describe | None = None,
    result: Callable[[Any], Mapping[str, Any]] = describe_result,
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Wrap a function (or a coroutine function) so that each call is one :class:`Operation`.

    ``describe(args, kwargs)`` gives the attributes known before the call;
    ``result(answer)`` those the answer adds. When neither tracing nor the
    logger's DEBUG level is on, the wrapper calls straight through.
    """
    log = logging.getLogger(logger)

    def wrap(function: Callable[P, R]) -> Callable[P, R]:
        if inspect.iscoroutinefunction(function):
            coroutine = cast(Callable[..., Coroutine[Any, Any, Any]], function)

            @functools.wraps(function)
            async def run_async(*args: Any, **kwargs: Any) -> Any:
                if _tracing() is None and not log.isEnabledFor(logging.INFO):
                    return await coroutine(*args, **kwargs)
                with Operation(name, log, describe(args, kwargs) if describe else None) as operation:
                    answer = await coroutine(*args, **kwargs)
                    operation.add(result(answer))
                    return answer

            return cast("Callable[P, R]", run_async)

        @functools.wraps(function)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            if _tracing() is None and not log.isEnabledFor(logging.INFO):
                return function(*args, **kwargs)
            with Operation(name, log, describe(args, kwargs) if describe else None) as operation:
                answer = function(*args, **kwargs)
                operation.add(result(answer))
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


def store_operation(name: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Observe the Run store method ``name`` (blocking or async): span ``agent_graph.store.<name>``.

    Attributes: the store's kind, the Run's reference (its ID in every store),
    the node, graph, entry, Provider and revision the call names, then what
    the answer tells (:func:`describe_result`).
    """
    parameters = _STORE_PARAMETERS.get(name, ("ref", "provider"))

    def describe(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> dict[str, Any]:
        given = dict(zip(parameters, args[1:], strict=False))
        given.update(kwargs)
        found: dict[str, Any] = {"store": getattr(args[0], "store_kind", None) if args else None}
        ref = given.get("ref")
        if isinstance(ref, str):
            found["run_id"] = ref
        for key in ("graph", "entry", "node", "revision"):
            found[key] = given.get(key)
        found["provider"] = provider_id(given.get("provider"))
        return found

    return observed(f"agent_graph.store.{name}", "agent_graph.store", describe)
