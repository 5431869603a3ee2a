"""The step: locate, route at one revision, read resources — the one front door of a host.

Every answer to "what now?" goes through this module: the public
:func:`route`, the Run stores' ``next_step`` (:func:`run_step`) and the MCP
server (which also uses :func:`step_location` and :func:`regular_files`).

Rules:

* One evaluation per step: :func:`run_step` evaluates the Run's state once
  and resolves the route among the candidates of that evaluation, so the
  step's revision is computed once and the route is always at that revision.
* The workspace of a route is an absolute path: the Run's (or the one given
  to :func:`route`), else the current directory.
* A resource is located on the step's route first (its resources, the
  Action's Skill and schemas, a Gate's inspection and resolution Actions),
  then among the Provider's static files; a context view is readable only
  while a step lists it, at that step's revision.
* Reading never blocks on something that is not a regular file: a FIFO or a
  device found where a resource was is refused, not waited on.

Pure but for the current directory (a default workspace) and the reads of
:class:`RegularFileSystem`.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .._core import route as _route
from .._core.errors import AgentGraphError
from .._core.evaluate import Candidate, evaluate_with_candidates
from .._core.model import (
    Evaluation,
    FileLocation,
    GraphActionLocation,
    HostActionLocation,
    ReadReceipts,
    Route,
    Run,
    RunHead,
    Step,
)
from .._core.provider import Provider
from .._core.receipts import Receipts
from .._core.why import proof_checks, step_blockers
from .._load.api import REVISION_PATTERN, locate_resource
from .._load.fs import OSFileSystem
from .run_changes import evaluate_run_candidates, head_of

__all__ = ["RegularFileSystem", "route", "run_step", "static_locations", "step_location"]

Location = FileLocation | GraphActionLocation | HostActionLocation
AnyReceipts = Receipts | ReadReceipts | Mapping[str, Any] | None


def _workspace(workspace: object) -> str:
    """An absolute workspace: the current directory when None (``argument-invalid`` for a non-path)."""
    if workspace is None:
        return os.getcwd()
    if not isinstance(workspace, str):
        raise AgentGraphError(
            "argument-invalid", f"workspace must be a path string, not {type(workspace).__name__}"
        )
    workspace = str.__str__(workspace)
    return workspace if os.path.isabs(workspace) else os.path.abspath(workspace)


def route(
    provider: Provider,
    graph: str,
    entry: str = "default",
    route_id: str | None = None,
    *,
    facts: Mapping[str, Any] | None = None,
    outcomes: Mapping[str, Any] | None = None,
    authorities: Iterable[str] | None = None,
    revision: str | None = None,
    workspace: str | None = None,
    receipts: AnyReceipts = None,
) -> Route:
    """Resolve one route of ``graph``/``entry`` into an ``agent-graph.route.v1``.

    The arguments come in the order of :func:`evaluate` (``provider, graph,
    entry``), then the route ID.

    Evaluates with the given state, then checks ``revision`` (when given,
    ``route-revision-stale`` if the state changed) and that ``route_id`` is still
    a candidate (``route-stale``); ``route_id=None`` takes the primary route
    (``route-unavailable`` when there is none). A ``revision`` that is not a
    ``sha256:`` digest is ``revision-invalid``.
    ``workspace`` is where ``cwd: workspace`` Actions run (default: the current
    directory). ``receipts`` (``agent-graph.resource-read-receipts.v1``) mark
    resources the conversation already read as ``current`` (an
    :class:`~agent_graph.Receipts` works too); they never change
    which route is chosen. No file is read. For a stored Run, the store's
    ``next_step`` gives the evaluation and the route of one evaluation.
    """
    # Names are exact strings from here on: a subclass's own __eq__ or startswith takes no part.
    if type(graph) is not str and isinstance(graph, str):
        graph = str.__str__(graph)
    if type(entry) is not str and isinstance(entry, str):
        entry = str.__str__(entry)
    if type(route_id) is not str and isinstance(route_id, str):
        route_id = str.__str__(route_id)
    if type(revision) is not str and isinstance(revision, str):
        revision = str.__str__(revision)
    if isinstance(entry, str) and entry.startswith("route:") and _looks_like_route_id(provider, graph, entry):
        raise AgentGraphError(
            "argument-invalid",
            f"route() takes the entry before the route ID, as evaluate() does: route(provider, graph, entry, "
            f"route_id); {entry} was given as the entry",
        )
    if revision is not None and not (isinstance(revision, str) and REVISION_PATTERN.fullmatch(revision)):
        raise AgentGraphError(
            "revision-invalid",
            f"A revision is sha256: and 64 lower-case hex digits, as evaluate() returns it; got {revision!r:.80}",
        )
    workspace = _workspace(workspace)
    evaluation, candidates = evaluate_with_candidates(provider, graph, entry, facts, outcomes, authorities)
    if route_id is None and evaluation.primary_route is None:
        raise _route.no_route(provider, graph, evaluation, facts, outcomes, authorities)
    return _route.route_evaluated(
        provider,
        evaluation,
        candidates,
        route_id,
        revision=revision,
        workspace=workspace,
        receipts=receipts,
        graph=graph,
    )


def _looks_like_route_id(provider: Provider, graph: str, entry: str) -> bool:
    """Whether ``entry`` is a route ID passed in the entry's place (the earlier argument order)."""
    compiled = provider.graphs.get(graph) if isinstance(graph, str) else None
    if compiled is not None and entry in compiled.definition.entrypoints:
        return False
    return len(entry) == 26 and all(c in "0123456789abcdef" for c in entry[6:])


def run_step(
    provider: Provider,
    run: Run | RunHead,
    *,
    receipts: AnyReceipts = None,
    route_id: str | None = None,
    evaluated: tuple[Evaluation, Sequence[Candidate]] | None = None,
) -> Step:
    """The step of a Run as read: its evaluation and the route at that revision, from one evaluation.

    The route is the primary route, or ``route_id`` (``route-stale`` unless it
    is a candidate of this evaluation); None when the evaluation has no route
    (complete, blocked, error) and no ``route_id`` was asked for. ``proof``
    holds the route's node's ``satisfiedBy`` checks tested against the Run's
    Facts; ``blockers`` the nodes that hold the Run back, in explain's words
    (found by a second, explained evaluation of the same state only when a
    node can hold it back: no route, a ``requiresFacts`` refused, a
    ``completed`` record without its proof). ``evaluated``: the evaluation of
    this very state and its candidates, when the caller made it already.
    """
    evaluation, candidates = evaluate_run_candidates(provider, run) if evaluated is None else evaluated
    chosen = route_id
    if chosen is None and evaluation.primary_route is not None:
        chosen = evaluation.primary_route.route_id
    found = None
    if chosen is not None:
        found = _route.route_evaluated(
            provider,
            evaluation,
            candidates,
            chosen,
            revision=evaluation.revision,
            workspace=_workspace(run.workspace),
            receipts=receipts,
            graph=run.graph,
        )
    proof = proof_checks(provider, found.graph, found.node, run.facts) if found is not None else ()
    blockers = step_blockers(provider, evaluation, run.facts, run.outcomes, run.authorities)
    return Step(
        run=run if isinstance(run, RunHead) else head_of(run),
        evaluation=evaluation,
        route=found,
        proof=proof,
        blockers=blockers,
    )


def _route_locations(found: Route) -> list[Location]:
    """Every location a route lists: resources, then the Skill and schemas of its Actions."""
    locations: list[Location] = [*found.resources.required, *found.resources.recommended]
    actions = [found.action]
    if found.gate is not None:
        for plan in (found.gate.inspection_action, found.gate.resolution_action):
            if plan is not None:
                actions.append(plan.action)
    for action in actions:
        if action is not None:
            locations.extend(
                x for x in (action.skill, action.input_schema, action.output_schema) if x is not None
            )
    return locations


def static_locations(provider: Provider) -> list[FileLocation]:
    """Every static file of the Provider an agent may read, sorted by ID: resources, Skills and schemas.

    The Provider's static resources (Markdown, files), then each Action's
    Skill, input schema and output schema; one location per ID.
    """
    found: dict[str, FileLocation] = {}
    for resource in provider.resources.values():
        if not resource.dynamic and isinstance(resource.location, FileLocation):
            found.setdefault(resource.location.id, resource.location)
    for loaded in provider.actions.values():
        action = loaded.route_action
        if action is not None:
            for location in (action.skill, action.input_schema, action.output_schema):
                if location is not None:
                    found.setdefault(location.id, location)
    return [found[key] for key in sorted(found)]


def step_location(provider: Provider, step: Step, resource_id: str) -> Location:
    """The location ``resource_id`` names at ``step``: on its route first, else a static file of the Provider.

    ``resource-not-on-route`` for a context view the step does not list;
    ``resource-missing`` for an ID the Provider does not have.
    """
    if step.route is not None:
        for location in _route_locations(step.route):
            if location.id == resource_id:
                return location
    for static in static_locations(provider):
        if static.id == resource_id:
            return static
    location = locate_resource(provider, resource_id)
    if not isinstance(location, FileLocation):
        raise AgentGraphError(
            "resource-not-on-route",
            f"{resource_id} is a context view; read it while a step lists it (next_step), at that step's revision",
        )
    return location


class RegularFileSystem(OSFileSystem):
    """The operating system's files, read only when regular: a FIFO or a device is refused, never waited on.

    The file is opened without blocking and checked on the open descriptor,
    so a FIFO swapped in after the Provider was loaded cannot stall a read.
    """

    def read_bytes(self, path: str) -> bytes:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                raise OSError(errno.EINVAL, "not a regular file", path)
            if hasattr(os, "set_blocking"):
                os.set_blocking(descriptor, True)
            with os.fdopen(descriptor, "rb", closefd=True) as handle:
                descriptor = -1
                return handle.read()
        finally:
            if descriptor >= 0:
                os.close(descriptor)
