"""The router: resolve one route ID of an Evaluation into an ``agent-graph.route.v1``.

Implements behaviour.md §6 and the read-receipt rule of the spec. Everything a
route needs (locations, digests, command plans) was precomputed when the
Provider loaded — the loader calls :func:`command_plan` here once per Action,
so how an Action becomes a shell command is the router's rule, in one place —
and routing is assembly only: no file is read here, and the workspace
directory arrives as an argument.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from .errors import AgentGraphError, shown
from .evaluate import Candidate
from .model import (
    Action,
    AfterAction,
    CommandStep,
    Evaluation,
    FileLocation,
    GateActionPlan,
    GraphActionLocation,
    HandlerStep,
    HostActionLocation,
    PlanStep,
    ReadReceipts,
    Route,
    RouteAction,
    RouteGate,
    RouteResources,
)
from .plain import plain_json
from .provider import LoadedAction, Provider
from .receipts import Receipts

Location = FileLocation | GraphActionLocation | HostActionLocation

#: The program that runs a script Action of each ``runtime`` (any other runtime runs as named).
RUNTIME_PROGRAMS: dict[str, str] = {"node": "node", "bun": "bun", "python": "python3", "shell": "sh"}


def runtime_program(runtime: str | None) -> str:
    """The program a script Action's ``runtime`` names (``python`` → ``python3``)."""
    return RUNTIME_PROGRAMS.get(runtime or "", runtime or "")


def shell_quote(value: str) -> str:
    """Single-quote ``value`` for ``sh`` (a ``'`` is written ``'"'"'``)."""
    return "'" + value.replace("'", "'\"'\"'") + "'"


def command_plan(action: Action, root: str, entry: str) -> tuple[PlanStep, ...]:
    """The command plan of ``action`` (behaviour.md §6), computed once when the Provider loads.

    ``root`` is the Provider root and ``entry`` a script Action's entry, resolved
    inside it. ``working_directory`` is the root for ``cwd: provider`` and left
    empty for ``cwd: workspace`` (each route fills in its workspace). A command
    runs as written; a script as ``<program> '<entry>' '<arg>'…``; a host Action
    is a handler step; an agent Action has no plan.
    """
    cwd = action.cwd or "workspace"
    working = root if cwd == "provider" else ""
    if action.runner == "command":
        return (
            CommandStep(
                command=action.command or "", effect=action.effect, cwd=cwd, working_directory=working
            ),
        )
    if action.runner == "script":
        args = " ".join(shell_quote(a) for a in action.args or ())
        command = f"{runtime_program(action.runtime)} {shell_quote(entry)}" + (f" {args}" if args else "")
        return (CommandStep(command=command, effect=action.effect, cwd=cwd, working_directory=working),)
    if action.runner == "host":
        return (
            HandlerStep(
                handler=action.handler or "", effect=action.effect, cwd=cwd, working_directory=working
            ),
        )
    return ()


class _Receipts:
    """Read receipts indexed for the two matching rules."""

    __slots__ = ("dynamic", "static")

    def __init__(
        self, receipts: Receipts | ReadReceipts | Mapping[str, Any] | None, provider: Provider
    ) -> None:
        self.static: set[tuple[str, str]] = set()
        self.dynamic: set[tuple[str, str]] = set()
        if receipts is None:
            return
        if isinstance(receipts, Receipts):
            receipts = receipts.read_receipts(provider.manifest.id)
        if isinstance(receipts, ReadReceipts):
            provider_id = receipts.provider
            items: Iterable[Any] = [msgspec.to_builtins(r) for r in receipts.receipts]
        elif isinstance(receipts, Mapping):
            plain: dict[str, Any] = plain_json(
                receipts if isinstance(receipts, dict) else dict(receipts.items()), "read receipts"
            )
            named = plain.get("provider")
            provider_id = named if isinstance(named, str) else shown(named)
            raw_items = plain.get("receipts", [])
            if not isinstance(raw_items, list):
                raise AgentGraphError("resource-receipts-invalid", "receipts must be a list")
            items = raw_items
        else:
            raise AgentGraphError(
                "resource-receipts-invalid",
                "receipts must be an agent-graph.resource-read-receipts.v1 object",
            )
        if provider_id != provider.manifest.id:
            raise AgentGraphError(
                "resource-receipts-provider-mismatch",
                f"Read receipts belong to Provider {provider_id}, not {provider.manifest.id}",
            )
        for item in items:
            if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
                raise AgentGraphError("resource-receipts-invalid", "each receipt needs a string id")
            rid = item["id"]
            digest = item.get("digest")
            revision = item.get("revision")
            if isinstance(digest, str):
                self.static.add((rid, digest))
            if isinstance(revision, str):
                self.dynamic.add((rid, revision))

    def state(self, location: Location, revision: str) -> str:
        if isinstance(location, FileLocation):
            return "current" if (location.id, location.digest) in self.static else "read-required"
        if isinstance(location, GraphActionLocation) and location.digest and not location.revision:
            return "current" if (location.id, location.digest) in self.static else "read-required"
        return "current" if (location.id, revision) in self.dynamic else "read-required"


def _locate(location: Location, revision: str, receipts: _Receipts) -> Location:
    if isinstance(location, FileLocation):
        return msgspec.structs.replace(location, read_state=receipts.state(location, revision))
    return msgspec.structs.replace(location, revision=revision, read_state=receipts.state(location, revision))


def _locate_file(location: FileLocation | None, receipts: _Receipts) -> FileLocation | None:
    if location is None:
        return None
    return msgspec.structs.replace(location, read_state=receipts.state(location, ""))


def _plan(action: LoadedAction, workspace: str) -> tuple[PlanStep, ...]:
    steps: list[PlanStep] = []
    for step in action.plan:
        if step.working_directory:
            steps.append(step)
        elif isinstance(step, CommandStep):
            steps.append(
                CommandStep(
                    command=step.command, effect=step.effect, cwd=step.cwd, working_directory=workspace
                )
            )
        else:
            assert isinstance(step, HandlerStep)
            steps.append(
                HandlerStep(
                    handler=step.handler, effect=step.effect, cwd=step.cwd, working_directory=workspace
                )
            )
    return tuple(steps)


def _route_action(action: LoadedAction, revision: str, receipts: _Receipts) -> RouteAction:
    if action.route_error is not None:
        raise action.route_error
    template = action.route_action
    assert template is not None
    return RouteAction(
        id=template.id,
        runner=template.runner,
        effect=template.effect,
        skill=_locate_file(template.skill, receipts),
        input_schema=_locate_file(template.input_schema, receipts),
        output_schema=_locate_file(template.output_schema, receipts),
    )


def _gate_plan(
    provider: Provider, key: str, workspace: str, revision: str, receipts: _Receipts
) -> GateActionPlan:
    action = provider.actions[key]
    return GateActionPlan(
        action=_route_action(action, revision, receipts), command_plan=_plan(action, workspace)
    )


def resolve_candidate(
    provider: Provider,
    candidate: Candidate,
    revision: str,
    workspace: str,
    receipts: _Receipts,
) -> Route:
    """Assemble the route of one candidate."""
    graph_id = candidate.graph.id
    node = candidate.node
    info = provider.node_routes[(graph_id, node.id)]
    delegated = candidate.resolution == "session-authority"
    required_keys: tuple[str, ...] = info.required
    recommended_keys: tuple[str, ...] = info.recommended
    if delegated and (info.delegated_required is not None or info.delegated_recommended is not None):
        required_keys = info.delegated_required or ()
        recommended_keys = info.delegated_recommended or ()
    required = [_locate(provider.resources[k].location, revision, receipts) for k in required_keys]
    recommended = [_locate(provider.resources[k].location, revision, receipts) for k in recommended_keys]

    route_action: RouteAction | None = None
    command_plan: tuple[PlanStep, ...] = ()
    gate: RouteGate | None = None
    if node.is_action and info.action is not None:
        loaded = provider.actions[info.action]
        route_action = _route_action(loaded, revision, receipts)
        command_plan = _plan(loaded, workspace)
        if route_action.skill is not None:
            required.insert(0, route_action.skill)
    elif node.is_gate:
        definition = node.definition.gate
        assert definition is not None
        policy = node.definition.delegated
        inspection = info.inspection
        resolution = info.resolution
        if delegated and policy is not None:
            if policy.inspection == "skip":
                inspection = None
            if info.delegated_resolution is not None:
                resolution = info.delegated_resolution
        gate = RouteGate(
            id=definition.id,
            prompt=definition.prompt,
            authority=definition.authority,
            delegatable=definition.delegatable,
            resolution="session-authority" if delegated else "user",
            inspection_action=_gate_plan(provider, inspection, workspace, revision, receipts)
            if inspection
            else None,
            resolution_action=_gate_plan(provider, resolution, workspace, revision, receipts)
            if resolution
            else None,
        )
    return Route(
        schema="agent-graph.route.v1",
        provider=provider.manifest.id,
        revision=revision,
        route_id=candidate.route_id,
        graph=graph_id,
        node=node.id,
        status_code=candidate.status_code,  # type: ignore[arg-type]
        reason_code=node.reason_code,
        hint=provider.hint(node.reason_code),
        availability=candidate.availability,  # type: ignore[arg-type]
        call_path=candidate.call_path,
        action=route_action,
        command_plan=command_plan,
        resources=RouteResources(required=tuple(required), recommended=tuple(recommended)),
        gate=gate,
        diagnostics=(),
        after_action=AfterAction(evaluate=True, record_node=candidate.state_key),
    )


def no_route(
    provider: Provider,
    graph: object,
    evaluation: Evaluation,
    facts: Mapping[str, Any] | None,
    outcomes: Mapping[str, Any] | None,
    authorities: Iterable[str] | None,
) -> AgentGraphError:
    """``route-unavailable`` for an evaluation of this state without a primary route, with why.

    The explanation (the nodes that hold the state back) is made only here,
    when there is no route.
    """
    from .why import blocker_lines, step_blockers

    why = blocker_lines(step_blockers(provider, evaluation, facts, outcomes, authorities))
    return AgentGraphError(
        "route-unavailable",
        _unavailable(graph, evaluation)
        + ("; why: " + "; ".join(line.strip() for line in why) if why else ""),
        evaluation.diagnostics,
    )


def _unavailable(graph: object, evaluation: Evaluation) -> str:
    return f"Graph {shown(graph)} has no available route (status {evaluation.status_code})"


def route_evaluated(
    provider: Provider,
    evaluation: Evaluation,
    candidates: Sequence[Candidate],
    route_id: str | None = None,
    *,
    revision: str | None = None,
    workspace: str,
    receipts: Receipts | ReadReceipts | Mapping[str, Any] | None = None,
    graph: str = "",
) -> Route:
    """Resolve ``route_id`` (the primary route when None) among the candidates of an evaluation just made.

    ``evaluation`` and ``candidates`` are what ``evaluate_with_candidates``
    answered (no second evaluation). Raises ``route-unavailable`` when
    ``route_id`` is None and there is no primary route (whatever the
    revision, as the reference command line answers; ``graph`` names the
    graph in its message), ``route-revision-stale`` when ``revision`` is given
    and differs, ``route-stale`` when the route is not a candidate, and
    ``resource-receipts-provider-mismatch`` for receipts of another Provider.
    ``workspace`` must be absolute.
    """
    if route_id is None:
        if evaluation.primary_route is None:
            raise AgentGraphError(
                "route-unavailable", _unavailable(graph, evaluation), evaluation.diagnostics
            )
        route_id = evaluation.primary_route.route_id
    if revision is not None and (type(revision) is not str or evaluation.revision != revision):
        raise AgentGraphError(
            "route-revision-stale",
            f"Expected revision {shown(revision)}, current revision is {evaluation.revision}",
        )
    selected = (
        next((c for c in candidates if c.route_id == route_id), None) if type(route_id) is str else None
    )
    if selected is None:
        raise AgentGraphError(
            "route-stale", f"Route {shown(route_id)} is not available at revision {evaluation.revision}"
        )
    indexed = _Receipts(receipts, provider)
    return resolve_candidate(provider, selected, evaluation.revision, posixpath.normpath(workspace), indexed)
