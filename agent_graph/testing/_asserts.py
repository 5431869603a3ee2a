"""Assertions that read as the protocol speaks: ``assert_status(step, "waiting-user")``, ``assert_route(step, node=…)``.

Each takes what a host holds at that moment — a :class:`~agent_graph.Step`,
an :class:`~agent_graph.Evaluation`, a :class:`~agent_graph.Route`, a drive's
:class:`Trace` or :class:`Turn`, or a Run with the Provider that evaluates
it — and fails with an :class:`AssertionError` that lists every field that
differs as ``field: expected X, received Y``, as graph tests do, followed by
where the Run stands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._core.errors import AgentGraphError
from .._core.evaluate import evaluate
from .._core.model import (
    Availability,
    Evaluation,
    Route,
    RouteSummary,
    Run,
    RunHead,
    StatusCode,
    Step,
)
from .._core.provider import Provider
from .._runtime.drive import Trace, Turn

__all__ = ["assert_route", "assert_status"]

_NONE = "<none>"
Subject = Step | Evaluation | Trace | Turn | Run | RunHead


def _evaluation(subject: Any, provider: Provider | None) -> Evaluation:
    if isinstance(subject, Evaluation):
        return subject
    if isinstance(subject, Step):
        return subject.evaluation
    if isinstance(subject, Trace):
        return subject.final.evaluation
    if isinstance(subject, Turn):
        return subject.step.evaluation
    if isinstance(subject, (Run, RunHead)):
        if provider is None:
            raise AgentGraphError(
                "argument-invalid", "A Run has no status of its own: pass provider= to evaluate it"
            )
        outcomes = {key: record.outcome for key, record in subject.outcomes.items()}
        return evaluate(
            provider,
            subject.graph,
            subject.entry,
            facts=subject.facts,
            outcomes=outcomes,
            authorities=list(subject.authorities),
        )
    raise AgentGraphError(
        "argument-invalid",
        f"Cannot assert on {type(subject).__name__}: give a Step, an Evaluation, a Trace, a Turn or a Run",
    )


def _where(evaluation: Evaluation) -> str:
    """Where the Run stands, for the end of a failure message."""
    primary = evaluation.primary_route
    parts = [f"status {evaluation.status_code}"]
    if evaluation.outcome is not None:
        parts.append(f"outcome {evaluation.outcome}")
    if primary is not None:
        parts.append(f"route {primary.graph}/{primary.node} ({primary.availability}, {primary.reason_code})")
    for diagnostic in evaluation.diagnostics[:3]:
        parts.append(f"{diagnostic.code}: {diagnostic.message}")
    return "; ".join(parts)


def _fail(differences: list[str], evaluation: Evaluation | None) -> None:
    if differences:
        tail = f"\n  where: {_where(evaluation)}" if evaluation is not None else ""
        raise AssertionError("\n".join(differences) + tail)


def _compare(differences: list[str], label: str, expected: Any, actual: Any) -> None:
    if expected is not None and expected != actual:
        shown = list(actual) if isinstance(actual, tuple) else actual
        wanted = list(expected) if isinstance(expected, tuple) else expected
        differences.append(f"{label}: expected {wanted}, received {_NONE if shown is None else shown}")


def assert_status(
    subject: Subject, status: StatusCode, *, outcome: str | None = None, provider: Provider | None = None
) -> None:
    """Fail unless ``subject`` evaluates to ``status`` (and, for ``complete``, ``outcome`` if given).

    A Run (or its head) is evaluated with ``provider``.
    """
    evaluation = _evaluation(subject, provider)
    differences: list[str] = []
    _compare(differences, "statusCode", status, evaluation.status_code)
    _compare(differences, "outcome", outcome, evaluation.outcome)
    _fail(differences, evaluation)


def assert_route(
    subject: Subject | Route | RouteSummary,
    *,
    node: str | None = None,
    graph: str | None = None,
    availability: Availability | None = None,
    reason: str | None = None,
    record: str | None = None,
    resolution: str | None = None,
    command: str | None = None,
    handler: str | None = None,
    required: Sequence[str] | None = None,
    recommended: Sequence[str] | None = None,
    provider: Provider | None = None,
) -> None:
    """Fail unless the route (a step's, or the primary route of an evaluation) has every field given.

    ``record`` is ``afterAction.recordNode``, ``resolution`` the Gate's
    (``user`` or ``session-authority``), ``command``/``handler`` the first
    step of the command plan, ``required``/``recommended`` the resource IDs in
    order. Fields of the resolved route (all but node, graph, availability
    and reason) need a Step, a Turn, a Trace or a Route.
    """
    evaluation: Evaluation | None = None
    route: Route | None = None
    summary: RouteSummary | None = None
    if isinstance(subject, Route):
        route = subject
    elif isinstance(subject, RouteSummary):
        summary = subject
    else:
        evaluation = _evaluation(subject, provider)
        summary = evaluation.primary_route
        step = (
            subject.final
            if isinstance(subject, Trace)
            else subject.step
            if isinstance(subject, Turn)
            else subject
        )
        route = step.route if isinstance(step, Step) else None
    resolved = (record, resolution, command, handler, required, recommended)
    if route is None and summary is None:
        _fail(["route: expected a route, received <none>"], evaluation)
    if route is None and any(value is not None for value in resolved):
        raise AgentGraphError(
            "argument-invalid",
            "record, resolution, command, handler, required and recommended are fields of a resolved route: "
            "assert on a Step, a Turn, a Trace or a Route",
        )
    differences: list[str] = []
    head = route if route is not None else summary
    assert head is not None
    _compare(differences, "node", node, head.node)
    _compare(differences, "graph", graph, head.graph)
    _compare(differences, "availability", availability, head.availability)
    _compare(differences, "reasonCode", reason, head.reason_code)
    if route is not None:
        steps = route.command_plan
        _compare(differences, "recordNode", record, route.after_action.record_node)
        _compare(differences, "gateResolution", resolution, route.gate.resolution if route.gate else None)
        _compare(differences, "command", command, getattr(steps[0], "command", None) if steps else None)
        _compare(differences, "handler", handler, getattr(steps[0], "handler", None) if steps else None)
        _compare(
            differences,
            "requiredResources",
            list(required) if required is not None else None,
            [location.id for location in route.resources.required],
        )
        _compare(
            differences,
            "recommendedResources",
            list(recommended) if recommended is not None else None,
            [location.id for location in route.resources.recommended],
        )
    _fail(differences, evaluation)
