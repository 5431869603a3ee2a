"""The v1 objects of the protocol as frozen msgspec Structs.

Definitions read from Provider files (provider, graph, action, resource
descriptors, code catalog) and the answers agent-graph gives (evaluation,
route, resource locations, run, step) live here; the graph tests, bundles,
error envelopes and Skill bindings live in :mod:`.documents` and are
re-exported, so every v1 shape is importable from this module. Python
attributes are snake_case; ``msgspec.json.encode(obj)`` writes the wire JSON:
camelCase keys in the protocol's field order, absent optional fields omitted.
This module holds data shapes only: no I/O, no evaluation logic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

import msgspec

from .documents import (
    Bundle,
    BundleEntry,
    BundleFile,
    BundleProvider,
    ErrorBody,
    ErrorEnvelope,
    SkillBinding,
    TestCase,
    TestExpect,
    TestResult,
    TestState,
)
from .errors import AgentGraphError, Diagnostic, did_you_mean
from .wire import _Wire

__all__ = [
    "OUTCOMES",
    "Action",
    "AfterAction",
    "Availability",
    "Blocker",
    "Bundle",
    "BundleEntry",
    "BundleFile",
    "BundleProvider",
    "Catalogs",
    "CodeCatalog",
    "CodeCatalogEntry",
    "CodeLocation",
    "CommandStep",
    "Compatibility",
    "Delegated",
    "Diagnostic",
    "Edge",
    "Effect",
    "ErrorBody",
    "ErrorEnvelope",
    "Evaluation",
    "FactCheck",
    "FileLocation",
    "FileResource",
    "Gate",
    "GateActionPlan",
    "Graph",
    "GraphActionLocation",
    "GraphActionResource",
    "HandlerStep",
    "HostActionInput",
    "HostActionLocation",
    "HostActionMaterialize",
    "HostActionOutput",
    "HostActionOutputResource",
    "HostActionReceipt",
    "HostActionResource",
    "HostActionResult",
    "LocationReadState",
    "MaterializeRef",
    "Node",
    "NodeResources",
    "Outcome",
    "OutcomeRecord",
    "PlanStep",
    "ProofCheck",
    "ProviderManifest",
    "ReadReceipt",
    "ReadReceipts",
    "ReadState",
    "ResourceLocation",
    "Route",
    "RouteAction",
    "RouteGate",
    "RouteResources",
    "RouteSummary",
    "Run",
    "RunEvent",
    "RunHead",
    "RunPage",
    "RunSummary",
    "Runner",
    "SkillBinding",
    "StatusCode",
    "Step",
    "TestCase",
    "TestExpect",
    "TestResult",
    "TestState",
    "WorkingDirectory",
]

Outcome = Literal[
    "completed", "partial", "failed", "unverified", "skipped", "pending", "blocked", "waiting-user"
]
OUTCOMES: tuple[str, ...] = (
    "completed",
    "partial",
    "failed",
    "unverified",
    "skipped",
    "pending",
    "blocked",
    "waiting-user",
)


def expected_outcome(value: object) -> str:
    """``expected one of completed, partial, … (did you mean "completed"?)``: the end of a bad outcome's message."""
    hint = did_you_mean(value, OUTCOMES, quote='"') if isinstance(value, str) else ""
    return f"expected one of {', '.join(OUTCOMES)}{hint}"


StatusCode = Literal["actionable", "waiting-user", "blocked", "complete", "error"]
Availability = Literal["immediate", "requires-user", "blocked"]
ReadState = Literal["current", "read-required"]
#: A location's read state; empty outside a route (the wire JSON omits it).
LocationReadState = Literal["current", "read-required", ""]
Runner = Literal["command", "script", "agent", "host"]
Effect = Literal["read", "write", "external"]
WorkingDirectory = Literal["workspace", "provider"]


# ---------------------------------------------------------------- definitions


class Catalogs(_Wire, frozen=True, kw_only=True):
    codes: str | None = None


class Compatibility(_Wire, frozen=True, kw_only=True):
    agent_graph: str | None = None
    node: str | None = None


class ProviderManifest(_Wire, frozen=True, kw_only=True):
    """``agent-graph.provider.v1``."""

    schema: str
    id: str
    version: str
    graphs: tuple[str, ...]
    name: str | None = None
    description: str | None = None
    catalogs: Catalogs | None = None
    compatibility: Compatibility | None = None


class FactCheck(_Wire, frozen=True, kw_only=True):
    """One check on Facts: a dotted ``path`` and exactly one of ``exists`` / ``equals``."""

    path: str
    equals: Any = msgspec.UNSET
    exists: bool | msgspec.UnsetType = msgspec.UNSET


class NodeResources(_Wire, frozen=True, kw_only=True):
    required: tuple[str, ...] | None = None
    recommended: tuple[str, ...] | None = None


class Gate(_Wire, frozen=True, kw_only=True):
    """A Gate node's ``gate``: its prompt, and the session authority that resolves it when ``delegatable``."""

    id: str
    prompt: str
    authority: str | None = None
    delegatable: bool | None = None


class Delegated(_Wire, frozen=True, kw_only=True):
    inspection: Literal["required", "skip"] | None = None
    resolution_action: str | None = None
    resources: NodeResources | None = None


class Node(_Wire, frozen=True, kw_only=True):
    """A Graph node (action, gate, subgraph or terminal)."""

    id: str
    kind: Literal["action", "gate", "subgraph", "terminal"]
    description: str | None = None
    reason_code: str | None = None
    priority: int | None = None
    join: Literal["all", "any"] | None = None
    action: str | None = None
    graph: str | None = None
    entry: str | None = None
    gate: Gate | None = None
    inspection_action: str | None = None
    resolution_action: str | None = None
    delegated: Delegated | None = None
    terminal_outcome: str | None = None
    requires_facts: tuple[FactCheck, ...] | None = None
    satisfied_by: tuple[FactCheck, ...] | None = None
    resources: NodeResources | None = None


class Edge(_Wire, frozen=True, kw_only=True):
    from_: str = msgspec.field(name="from")
    to: str
    kind: Literal["flow", "consumes", "requires", "gatedBy", "repeat"] | None = None
    outcomes: tuple[str, ...] | None = None


class Graph(_Wire, frozen=True, kw_only=True):
    """``agent-graph.graph.v1``."""

    schema: str
    id: str
    entrypoints: dict[str, str]
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    description: str | None = None


class Action(_Wire, frozen=True, kw_only=True):
    """``agent-graph.action.v1``."""

    schema: str
    id: str
    runner: Runner
    effect: Effect
    description: str | None = None
    command: str | None = None
    entry: str | None = None
    runtime: Literal["node", "bun", "python", "shell"] | None = None
    handler: str | None = None
    skill: str | None = None
    args: tuple[str, ...] | None = None
    files: tuple[str, ...] | None = None
    cwd: WorkingDirectory | None = None
    input_schema: str | None = None
    output_schema: str | None = None


class _ResourceFields(_Wire, frozen=True, kw_only=True):
    """The fields every resource descriptor and resource location starts with, in the protocol's order."""

    schema: str
    id: str
    kind: str
    media_type: str


class FileResource(_ResourceFields, frozen=True, kw_only=True):
    """``agent-graph.resource.file.v1``: a non-Markdown static file."""

    path: str
    description: str | None = None


class GraphActionResource(_ResourceFields, frozen=True, kw_only=True):
    """``agent-graph.resource.graph-action.v1``: a context view a read Action materializes."""

    materializer: str
    description: str | None = None


class HostActionInput(_Wire, frozen=True, kw_only=True):
    schema: str
    value: Any = None


class HostActionResource(_ResourceFields, frozen=True, kw_only=True):
    """``agent-graph.resource.host-action.v1``: content a host handler produces."""

    materializer: str
    input: HostActionInput
    description: str | None = None


class CodeCatalogEntry(_Wire, frozen=True, kw_only=True):
    code: str
    kind: Literal["route-reason", "diagnostic"]
    summary: str
    severity: Literal["info", "warning", "error"] | None = None
    document: str | None = None


class CodeCatalog(_Wire, frozen=True, kw_only=True):
    """``agent-graph.code-catalog.v1``."""

    schema: str
    codes: tuple[CodeCatalogEntry, ...]


# ---------------------------------------------------------------- answers


class RouteSummary(_Wire, frozen=True, kw_only=True):
    """A candidate route as an Evaluation lists it."""

    route_id: str
    graph: str
    node: str
    status_code: StatusCode
    reason_code: str
    hint: str | None = None
    availability: Availability
    label: str


class Evaluation(_Wire, frozen=True, kw_only=True):
    """``agent-graph.evaluation.v1``: the status of one Graph entry and its ranked routes."""

    schema: str
    provider: str
    graph: str
    entry: str
    revision: str
    status_code: StatusCode
    outcome: str | None = None
    primary_route: RouteSummary | None = None
    alternative_routes: tuple[RouteSummary, ...]
    diagnostics: tuple[Diagnostic, ...]


class MaterializeRef(_Wire, frozen=True, kw_only=True):
    """What ``resource materialize`` needs to produce a graph-action resource: its ID."""

    resource_id: str


class FileLocation(_ResourceFields, frozen=True, kw_only=True):
    """``agent-graph.resource-location.file.v1``: a static file (Markdown resource, Skill, JSON Schema, file descriptor).

    ``read_state`` is set on every location of a route and empty elsewhere (the
    wire JSON then omits it).
    """

    digest: str
    file_path: str
    read_state: LocationReadState = ""


class GraphActionLocation(_ResourceFields, frozen=True, kw_only=True):
    """``agent-graph.resource-location.graph-action.v1``: materialized on demand at a revision.

    On a route, ``revision`` and ``read_state`` are always set; ``digest`` and
    ``file_path`` once :func:`~agent_graph.materialize_resource` stored the
    content. An empty string means absent: the wire JSON omits the field.
    """

    revision: str = ""
    materialize: MaterializeRef
    digest: str = ""
    file_path: str = ""
    read_state: LocationReadState = ""


class HostActionMaterialize(_Wire, frozen=True, kw_only=True):
    """The handler a host runs for a host-action resource, its fixed input and the output's protocol identity."""

    handler: str
    input: HostActionInput
    output_schema: str = msgspec.field(name="output_schema")


class HostActionLocation(_ResourceFields, frozen=True, kw_only=True):
    """``agent-graph.resource-location.host-action.v1``: produced by a host handler.

    On a route, ``revision`` and ``read_state`` are always set; an empty string
    means absent (the wire JSON omits the field).
    """

    revision: str = ""
    materialize: HostActionMaterialize
    read_state: LocationReadState = ""


ResourceLocation = FileLocation | GraphActionLocation | HostActionLocation


class RouteAction(_Wire, frozen=True, kw_only=True):
    """The Action of an action route (or of a Gate's inspection or resolution), with its files located."""

    id: str
    runner: Runner
    effect: Effect
    skill: FileLocation | None = None
    input_schema: FileLocation | None = None
    output_schema: FileLocation | None = None


class CommandStep(_Wire, frozen=True, kw_only=True):
    """A command-plan step of a command or script Action: a shell command and where to run it."""

    command: str
    effect: Effect
    cwd: WorkingDirectory
    working_directory: str


class HandlerStep(_Wire, frozen=True, kw_only=True):
    """A command-plan step of a host Action: the host handler to call and its working directory."""

    handler: str
    effect: Effect
    cwd: WorkingDirectory
    working_directory: str


PlanStep = CommandStep | HandlerStep


class GateActionPlan(_Wire, frozen=True, kw_only=True):
    """A Gate's inspection or resolution Action with its command plan."""

    action: RouteAction
    command_plan: tuple[PlanStep, ...]


class RouteGate(Gate, frozen=True, kw_only=True):
    """The ``gate`` of a Gate route: the Gate's fields, then how it resolves and its Actions."""

    resolution: Literal["user", "session-authority"]
    inspection_action: GateActionPlan | None = None
    resolution_action: GateActionPlan | None = None


class RouteResources(_Wire, frozen=True, kw_only=True):
    """The resources a route asks the Agent to read, each with its read state."""

    required: tuple[ResourceLocation, ...]
    recommended: tuple[ResourceLocation, ...]


class AfterAction(_Wire, frozen=True, kw_only=True):
    """The recording contract: record the outcome under ``record_node``, then evaluate again."""

    evaluate: bool
    record_node: str


class Route(_Wire, frozen=True, kw_only=True):
    """``agent-graph.route.v1``: one route resolved into commands, resources and a recording contract."""

    schema: str
    provider: str
    revision: str
    route_id: str
    graph: str
    node: str
    status_code: StatusCode
    reason_code: str
    hint: str | None = None
    availability: Availability
    call_path: tuple[str, ...]
    action: RouteAction | None = None
    command_plan: tuple[PlanStep, ...]
    resources: RouteResources
    gate: RouteGate | None = None
    diagnostics: tuple[Diagnostic, ...]
    after_action: AfterAction


class CodeLocation(_Wire, frozen=True, kw_only=True):
    """``agent-graph.code-location.v1``: a Code Catalog entry with its document located."""

    schema: str
    provider: str
    code: str
    kind: str
    summary: str
    severity: str | None = None
    document: FileLocation | None = None


class ReadReceipt(_Wire, frozen=True, kw_only=True):
    """One resource the conversation read: by digest (static) or by revision (dynamic)."""

    id: str
    digest: str | None = None
    revision: str | None = None


class ReadReceipts(_Wire, frozen=True, kw_only=True):
    """``agent-graph.resource-read-receipts.v1``: what the current conversation has already read."""

    schema: str
    provider: str
    receipts: tuple[ReadReceipt, ...]


class HostActionOutputResource(_Wire, frozen=True, kw_only=True):
    ref: str
    digest: str


class HostActionOutput(_Wire, frozen=True, kw_only=True):
    schema: str
    inline: Any = msgspec.UNSET
    resource: HostActionOutputResource | None = None


class HostActionReceipt(_Wire, frozen=True, kw_only=True):
    adapter: str
    adapter_version: str = msgspec.field(name="adapter_version")


class HostActionResult(_Wire, frozen=True, kw_only=True):
    """``agent-graph.host-action-result.v1``: what a host returns for a host-action resource."""

    schema: str
    handler: str
    input_digest: str = msgspec.field(name="input_digest")
    output: HostActionOutput
    receipt: HostActionReceipt


class OutcomeRecord(_Wire, frozen=True, kw_only=True):
    """A recorded outcome of a Run: ``{outcome, recordedAt, detail?}``."""

    outcome: str
    recorded_at: str
    detail: Any = msgspec.UNSET


class RunEvent(_Wire, frozen=True, kw_only=True):
    """One numbered event of a Run (``run.started``, ``node.outcome-recorded``, ...)."""

    sequence: int
    at: str
    type: str
    node: str | None = None
    outcome: str | None = None
    detail: Any = msgspec.UNSET


class _RunFields(_Wire, frozen=True, kw_only=True):
    """The fields of a Run before its events, in the protocol's order (a Run and its head share them)."""

    schema: str
    id: str
    provider: str
    graph: str
    entry: str
    workspace: str | None = None
    created_at: str
    updated_at: str
    facts: dict[str, Any]
    outcomes: dict[str, OutcomeRecord]
    authorities: tuple[str, ...]


class Run(_RunFields, frozen=True, kw_only=True):
    """``agent-graph.run.v1``: host-owned execution memory."""

    events: tuple[RunEvent, ...]


class RunHead(_RunFields, frozen=True, kw_only=True):
    """A Run without its events: what evaluation needs, what writes answer and ``next_step`` reads.

    ``events`` is the number of the Run's events (they are numbered 1..events);
    page through them with the store's ``events(ref, after=…, limit=…)``.
    """

    events: int


class RunSummary(_Wire, frozen=True, kw_only=True):
    """One Run of a store, as ``list()`` answers it: where it is, what it is about, and how it stood.

    ``ref`` addresses the Run in its store (its ID, except for a Run file the
    file store holds under another name). ``status`` is the Run's evaluation
    status as of its last write that had the Provider at hand (``actionable``,
    ``waiting-user``, ``blocked``, ``complete``, ``error``); None when no write
    of the Run had it.
    """

    id: str
    ref: str
    provider: str
    graph: str
    entry: str
    created_at: str
    updated_at: str
    events: int
    status: StatusCode | None = None


class RunPage(list[RunSummary]):
    """A page of a store's ``list()``: the Run summaries (a ``list``) and ``next_cursor``.

    ``next_cursor`` is the opaque string to pass as ``list(cursor=…)`` for
    the page that follows (with the same filters), or None when no Run
    follows this page.
    """

    __slots__ = ("next_cursor",)

    def __init__(self, summaries: Iterable[RunSummary] = (), next_cursor: str | None = None) -> None:
        super().__init__(summaries)
        self.next_cursor = next_cursor

    def __repr__(self) -> str:
        return f"RunPage({list.__repr__(self)}, next_cursor={self.next_cursor!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (RunPage, (list(self), self.next_cursor))


class ProofCheck(_Wire, frozen=True, kw_only=True):
    """One Fact check on a step: what proves its node done (or what holds a node back), and whether it holds.

    ``path`` is the dotted Fact path; ``operator`` is ``exists`` (``expected``
    true: a value must be there; false: none may be) or ``equals`` (the Fact
    must equal ``expected``, a JSON value); ``holds`` says whether the check
    holds against the Facts of the step it came with.
    """

    path: str
    operator: Literal["exists", "equals"]
    expected: Any
    holds: bool

    def facts(self, value: Any = msgspec.UNSET) -> dict[str, Any]:
        """A Facts object with ``value`` at the check's path, to merge into the Run (``deep=True``).

        ``value`` is what the host observed (a digest, a URL, an ID, a status);
        an ``equals`` check without one takes its expected value, an ``exists``
        check needs one (``argument-invalid``). ``exists: false`` is refused: a
        merge cannot remove a Fact (replace the Facts instead).
        """
        result: dict[str, Any] = {}
        _put_path(result, self.path, self.value(value))
        return result

    def value(self, observed: Any = msgspec.UNSET) -> Any:
        """What goes at the path: ``observed``, else the expected value of an ``equals`` check."""
        if self.operator == "exists" and self.expected is not True:
            raise AgentGraphError(
                "argument-invalid", f"{self.path} must be absent: no Facts merged into the Run can remove it"
            )
        if observed is not msgspec.UNSET:
            return observed
        if self.operator == "equals":
            return self.expected
        raise AgentGraphError(
            "argument-invalid", f"{self.path} must exist: give the value you observed for it"
        )


def _put_path(target: dict[str, Any], path: str, value: Any) -> None:
    """Set ``value`` at the dotted ``path`` of ``target``, making objects on the way (replacing non-objects)."""
    segments = path.split(".")
    for segment in segments[:-1]:
        inner = target.get(segment)
        if not isinstance(inner, dict):
            inner = target[segment] = {}
        target = inner
    target[segments[-1]] = value


def proof_facts(checks: tuple[ProofCheck, ...], values: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The Facts of each check of ``checks`` that does not hold yet (see :meth:`Step.proof_facts`)."""
    given = values or {}
    result: dict[str, Any] = {}
    for check in checks:
        if not check.holds:
            _put_path(result, check.path, check.value(given.get(check.path, msgspec.UNSET)))
    return result


class Blocker(_Wire, frozen=True, kw_only=True):
    """A node that holds a Run back, in the words of :func:`~agent_graph.explain`.

    ``node`` is its state key (``report/draft``, ``release/check>quality/test``);
    ``status`` the outcome it settled to (``unverified``, ``blocked``,
    ``failed`` …); ``reason`` explain's reason (``unverified``,
    ``requires-failed``, ``recorded`` …) and ``message`` explain's sentence
    (``unverified: recorded completed, but satisfiedBy does not hold
    (report.digest)``); ``checks`` the node's Fact checks that do not hold (its
    ``requiresFacts`` when it is blocked by them, else its ``satisfiedBy``).
    """

    node: str
    kind: str
    status: str
    reason: str
    message: str
    checks: tuple[ProofCheck, ...]


class Step(_Wire, frozen=True, kw_only=True):
    """The next step of a stored Run: the Run's head as read, its evaluation and the route to take (or None).

    ``proof`` lists the route's node's ``satisfiedBy`` checks, each with
    whether it holds against the Run's Facts: publish Facts that make them
    hold when recording the step done (``check.facts(value)``,
    :meth:`proof_facts`). ``blockers`` names the nodes that hold the Run back
    (unverified, blocked by their ``requiresFacts``, or, when no route is
    offered, where the Run stops) with the checks they wait for; empty when
    nothing does.
    """

    run: RunHead
    evaluation: Evaluation
    route: Route | None = None
    proof: tuple[ProofCheck, ...] = ()
    blockers: tuple[Blocker, ...] = ()

    @property
    def revision(self) -> str:
        """The revision to pass to ``record(…, revision=…)``: the evaluation's."""
        return self.evaluation.revision

    def proof_facts(self, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The Facts that make every check of :attr:`proof` that does not hold yet hold, as one object.

        ``values`` maps a check's path to the value the host observed for it
        (``{"report.digest": digest}``); an ``equals`` check without one takes
        its expected value, an ``exists`` check needs one (``argument-invalid``
        names the path). An observed value that differs from an ``equals``
        check's expected one is published as observed: the check then still
        does not hold. Merge the answer with ``deep=True``
        (``record(…, facts=step.proof_facts(…), deep=True)``).
        """
        return proof_facts(self.proof, values)
