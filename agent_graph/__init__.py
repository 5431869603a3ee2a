"""agent-graph: model-free work contracts for AI agents.

Load an Agent Graph Provider once, then ask it, as often as you like, for the
one legal next step::

    import agent_graph as ag

    provider = ag.load_provider("provider.yaml")
    ev = ag.evaluate(provider, "report", "default", facts={}, outcomes={}, authorities=[])
    if ev.primary_route is not None:
        r = ag.route(provider, "report", "default", ev.primary_route.route_id, revision=ev.revision)

``evaluate()`` and ``route()`` are pure and in-process: they never read files,
run a model or execute an Action. Every failure is an :class:`AgentGraphError`
with a stable ``code``. Results are msgspec Structs; ``msgspec.json.encode()``
writes their wire JSON.
"""

from __future__ import annotations

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing at start-up

# For type checkers: every public name, re-exported explicitly (the deprecated ones
# too, until they go). At run time the names load lazily through ``_EXPORTS`` and
# ``_DEPRECATED`` below; a test checks that both agree.
if TYPE_CHECKING:
    from ._core.canonical import (
        canonical_json as canonical_json,
        digest_bytes as digest_bytes,
        digest_value as digest_value,
    )
    from ._core.errors import (
        AgentGraphError as AgentGraphError,
        Diagnostic as Diagnostic,
        Severity as Severity,
    )
    from ._core.graph_coverage import (
        CoverageCollector as CoverageCollector,
        CoverageCount as CoverageCount,
        CoverageMissing as CoverageMissing,
        CoverageReport as CoverageReport,
        CoverageTotals as CoverageTotals,
        GraphCoverage as GraphCoverage,
    )
    from ._core.ir import (
        CompiledGraph as CompiledGraph,
    )
    from ._core.lint import (
        Finding as Finding,
    )
    from ._core.model import (
        OUTCOMES as OUTCOMES,
        Action as Action,
        AfterAction as AfterAction,
        Availability as Availability,
        Bundle as Bundle,
        BundleEntry as BundleEntry,
        BundleFile as BundleFile,
        BundleProvider as BundleProvider,
        Catalogs as Catalogs,
        CodeCatalog as CodeCatalog,
        CodeCatalogEntry as CodeCatalogEntry,
        CodeLocation as CodeLocation,
        CommandStep as CommandStep,
        Compatibility as Compatibility,
        Delegated as Delegated,
        Edge as Edge,
        Effect as Effect,
        ErrorBody as ErrorBody,
        ErrorEnvelope as ErrorEnvelope,
        Evaluation as Evaluation,
        FactCheck as FactCheck,
        FileLocation as FileLocation,
        FileResource as FileResource,
        Gate as Gate,
        GateActionPlan as GateActionPlan,
        Graph as Graph,
        GraphActionLocation as GraphActionLocation,
        GraphActionResource as GraphActionResource,
        HandlerStep as HandlerStep,
        HostActionInput as HostActionInput,
        HostActionLocation as HostActionLocation,
        HostActionMaterialize as HostActionMaterialize,
        HostActionOutput as HostActionOutput,
        HostActionOutputResource as HostActionOutputResource,
        HostActionReceipt as HostActionReceipt,
        HostActionResource as HostActionResource,
        HostActionResult as HostActionResult,
        LocationReadState as LocationReadState,
        MaterializeRef as MaterializeRef,
        Node as Node,
        NodeResources as NodeResources,
        Outcome as Outcome,
        OutcomeRecord as OutcomeRecord,
        PlanStep as PlanStep,
        ProviderManifest as ProviderManifest,
        ReadReceipt as ReadReceipt,
        ReadReceipts as ReadReceipts,
        ReadState as ReadState,
        ResourceLocation as ResourceLocation,
        Route as Route,
        RouteAction as RouteAction,
        RouteGate as RouteGate,
        RouteResources as RouteResources,
        RouteSummary as RouteSummary,
        Run as Run,
        RunEvent as RunEvent,
        RunHead as RunHead,
        Runner as Runner,
        RunSummary as RunSummary,
        SkillBinding as SkillBinding,
        StatusCode as StatusCode,
        Step as Step,
        TestCase as TestCase,
        TestExpect as TestExpect,
        TestResult as TestResult,
        TestState as TestState,
        WorkingDirectory as WorkingDirectory,
    )
    from ._core.provider import (
        LoadedAction as LoadedAction,
        LoadedResource as LoadedResource,
        NodeRoute as NodeRoute,
        Provider as Provider,
    )
    from ._core.receipts import (
        Receipts as Receipts,
    )
    from ._core.replay import (
        ReplayStep as ReplayStep,
        StateChange as StateChange,
        replay as replay,
    )
    from ._core.state import (
        check_state as check_state,
    )
    from ._core.why import (
        CandidateExplanation as CandidateExplanation,
        CheckExplanation as CheckExplanation,
        EdgeExplanation as EdgeExplanation,
        Explanation as Explanation,
        FrameExplanation as FrameExplanation,
        GateExplanation as GateExplanation,
        NodeExplanation as NodeExplanation,
        explain as explain,
        explanation_text as explanation_text,
    )
    from ._load.api import (
        locate_code as locate_code,
        locate_resource as locate_resource,
    )
    from ._load.fs import (
        FileSystem as FileSystem,
        MemoryFileSystem as MemoryFileSystem,
        OSFileSystem as OSFileSystem,
    )
    from ._load.loader import (
        Limits as Limits,
        resolve_skill_binding as resolve_skill_binding,
    )
    from ._mcp.serve import (
        serve_mcp as serve_mcp,
    )
    from ._runtime.gate_policy import (
        GateGuard as GateGuard,
    )
    from ._runtime.host import (
        ResourceContent as ResourceContent,
        ResourceReader as ResourceReader,
        validate_action_input as validate_action_input,
    )
    from ._runtime.host_action import (
        host_action_input_digest as host_action_input_digest,
        host_action_output_digest as host_action_output_digest,
        host_action_read_receipt as host_action_read_receipt,
        validate_host_action_result as validate_host_action_result,
    )
    from ._runtime.lint import (
        lint as lint,
    )
    from ._runtime.materialize import (
        materialize_resource as materialize_resource,
    )
    from ._runtime.observed import (
        evaluate as evaluate,
        load_provider as load_provider,
        route as route,
    )
    from ._runtime.run_storage import (
        Clock as Clock,
        MonotonicClock as MonotonicClock,
    )
    from ._runtime.run_store import (
        BaseRunStore as BaseRunStore,
    )
    from ._runtime.run_store_async import (
        AsyncRunStore as AsyncRunStore,
    )
    from ._runtime.runs import (
        FileRunStore as FileRunStore,
        run_evaluation_input as run_evaluation_input,
    )
    from ._runtime.runs_memory import (
        MemoryRunStore as MemoryRunStore,
    )
    from ._runtime.runs_postgres import (
        PostgresRunStore as PostgresRunStore,
    )
    from ._runtime.runs_postgres_async import (
        AsyncPostgresRunStore as AsyncPostgresRunStore,
    )
    from ._runtime.runs_sqlite import (
        SqliteRunStore as SqliteRunStore,
    )
    from ._runtime.stores import (
        open_async_store as open_async_store,
        open_store as open_store,
    )
    from ._runtime.testing import (
        run_graph_tests as run_graph_tests,
    )
    from ._toolchain.bundle import (
        build_bundle as build_bundle,
    )
    from ._toolchain.diagram import (
        DiagramState as DiagramState,
        render_diagram as render_diagram,
    )
    from ._toolchain.importers import (
        ImportResult as ImportResult,
        import_scripts as import_scripts,
        import_skill as import_skill,
        import_workflow as import_workflow,
    )
    from ._toolchain.migrate import (
        MigrationChange as MigrationChange,
        MigrationReport as MigrationReport,
        migrate_provider as migrate_provider,
    )
    from ._toolchain.scaffold import (
        init_provider as init_provider,
    )

del TYPE_CHECKING

from ._core.version import PROTOCOL_VERSION, __version__  # noqa: E402

# The one table of public names: name -> module (relative to this package).
# Each name loads its module on first use, so that ``import agent_graph`` costs
# next to nothing and a command or a host pays only for what it touches.
_EXPORTS: dict[str, str] = {
    "canonical_json": "_core.canonical",
    "digest_bytes": "_core.canonical",
    "digest_value": "_core.canonical",
    "AgentGraphError": "_core.errors",
    "Diagnostic": "_core.errors",
    "Severity": "_core.errors",
    "evaluate": "_runtime.observed",
    "CompiledGraph": "_core.ir",
    "Action": "_core.model",
    "AfterAction": "_core.model",
    "Availability": "_core.model",
    "Bundle": "_core.model",
    "BundleEntry": "_core.model",
    "BundleFile": "_core.model",
    "BundleProvider": "_core.model",
    "Catalogs": "_core.model",
    "CodeCatalog": "_core.model",
    "CodeCatalogEntry": "_core.model",
    "CodeLocation": "_core.model",
    "CommandStep": "_core.model",
    "Compatibility": "_core.model",
    "Delegated": "_core.model",
    "Edge": "_core.model",
    "Effect": "_core.model",
    "ErrorBody": "_core.model",
    "ErrorEnvelope": "_core.model",
    "Evaluation": "_core.model",
    "FactCheck": "_core.model",
    "FileLocation": "_core.model",
    "FileResource": "_core.model",
    "Gate": "_core.model",
    "GateActionPlan": "_core.model",
    "Graph": "_core.model",
    "GraphActionLocation": "_core.model",
    "GraphActionResource": "_core.model",
    "HandlerStep": "_core.model",
    "HostActionInput": "_core.model",
    "HostActionLocation": "_core.model",
    "HostActionMaterialize": "_core.model",
    "HostActionOutput": "_core.model",
    "HostActionOutputResource": "_core.model",
    "HostActionReceipt": "_core.model",
    "HostActionResource": "_core.model",
    "HostActionResult": "_core.model",
    "LocationReadState": "_core.model",
    "MaterializeRef": "_core.model",
    "Node": "_core.model",
    "NodeResources": "_core.model",
    "OUTCOMES": "_core.model",
    "Outcome": "_core.model",
    "OutcomeRecord": "_core.model",
    "PlanStep": "_core.model",
    "ProviderManifest": "_core.model",
    "ReadReceipt": "_core.model",
    "ReadReceipts": "_core.model",
    "ReadState": "_core.model",
    "ResourceLocation": "_core.model",
    "Route": "_core.model",
    "RouteAction": "_core.model",
    "RouteGate": "_core.model",
    "RouteResources": "_core.model",
    "RouteSummary": "_core.model",
    "Run": "_core.model",
    "RunEvent": "_core.model",
    "RunHead": "_core.model",
    "RunSummary": "_core.model",
    "Runner": "_core.model",
    "SkillBinding": "_core.model",
    "StatusCode": "_core.model",
    "Step": "_core.model",
    "TestCase": "_core.model",
    "TestExpect": "_core.model",
    "TestResult": "_core.model",
    "TestState": "_core.model",
    "WorkingDirectory": "_core.model",
    "LoadedAction": "_core.provider",
    "LoadedResource": "_core.provider",
    "NodeRoute": "_core.provider",
    "Provider": "_core.provider",
    "ReplayStep": "_core.replay",
    "StateChange": "_core.replay",
    "replay": "_core.replay",
    "check_state": "_core.state",
    "CoverageCollector": "_core.graph_coverage",
    "CoverageCount": "_core.graph_coverage",
    "CoverageMissing": "_core.graph_coverage",
    "CoverageReport": "_core.graph_coverage",
    "CoverageTotals": "_core.graph_coverage",
    "GraphCoverage": "_core.graph_coverage",
    "CandidateExplanation": "_core.why",
    "CheckExplanation": "_core.why",
    "EdgeExplanation": "_core.why",
    "Explanation": "_core.why",
    "GateExplanation": "_core.why",
    "FrameExplanation": "_core.why",
    "NodeExplanation": "_core.why",
    "explain": "_core.why",
    "explanation_text": "_core.why",
    "locate_code": "_load.api",
    "locate_resource": "_load.api",
    "route": "_runtime.observed",
    "FileSystem": "_load.fs",
    "MemoryFileSystem": "_load.fs",
    "OSFileSystem": "_load.fs",
    "Limits": "_load.loader",
    "load_provider": "_runtime.observed",
    "resolve_skill_binding": "_load.loader",
    "host_action_input_digest": "_runtime.host_action",
    "host_action_output_digest": "_runtime.host_action",
    "host_action_read_receipt": "_runtime.host_action",
    "validate_host_action_result": "_runtime.host_action",
    "materialize_resource": "_runtime.materialize",
    "run_evaluation_input": "_runtime.runs",
    "run_graph_tests": "_runtime.testing",
    "build_bundle": "_toolchain.bundle",
    "DiagramState": "_toolchain.diagram",
    "render_diagram": "_toolchain.diagram",
    "ImportResult": "_toolchain.importers",
    "import_scripts": "_toolchain.importers",
    "import_skill": "_toolchain.importers",
    "import_workflow": "_toolchain.importers",
    "MigrationChange": "_toolchain.migrate",
    "MigrationReport": "_toolchain.migrate",
    "migrate_provider": "_toolchain.migrate",
    "init_provider": "_toolchain.scaffold",
    "BaseRunStore": "_runtime.run_store",
    "AsyncRunStore": "_runtime.run_store_async",
    "open_async_store": "_runtime.stores",
    "AsyncPostgresRunStore": "_runtime.runs_postgres_async",
    "open_store": "_runtime.stores",
    "FileRunStore": "_runtime.runs",
    "MemoryRunStore": "_runtime.runs_memory",
    "Clock": "_runtime.run_storage",
    "MonotonicClock": "_runtime.run_storage",
    "SqliteRunStore": "_runtime.runs_sqlite",
    "PostgresRunStore": "_runtime.runs_postgres",
    "Receipts": "_core.receipts",
    "ResourceReader": "_runtime.host",
    "GateGuard": "_runtime.gate_policy",
    "ResourceContent": "_runtime.host",
    "validate_action_input": "_runtime.host",
    "serve_mcp": "_mcp.serve",
    "Finding": "_core.lint",
    "lint": "_runtime.lint",
}

#: The wire types that moved to :mod:`agent_graph.types`: still importable from here for one release,
#: with a DeprecationWarning (type checkers see them here until then).
_MOVED_TO_TYPES: tuple[str, ...] = (
    "Action",
    "AfterAction",
    "Availability",
    "BundleEntry",
    "BundleFile",
    "BundleProvider",
    "Catalogs",
    "CodeCatalog",
    "CodeCatalogEntry",
    "Compatibility",
    "CompiledGraph",
    "Delegated",
    "Edge",
    "Effect",
    "ErrorBody",
    "ErrorEnvelope",
    "FactCheck",
    "FileResource",
    "Gate",
    "GateActionPlan",
    "Graph",
    "GraphActionResource",
    "HostActionInput",
    "HostActionMaterialize",
    "HostActionOutput",
    "HostActionOutputResource",
    "HostActionReceipt",
    "HostActionResource",
    "LoadedAction",
    "LoadedResource",
    "LocationReadState",
    "MaterializeRef",
    "Node",
    "NodeResources",
    "NodeRoute",
    "OUTCOMES",
    "Outcome",
    "OutcomeRecord",
    "PlanStep",
    "ProviderManifest",
    "ReadReceipt",
    "ReadReceipts",
    "ReadState",
    "ResourceLocation",
    "RouteAction",
    "RouteGate",
    "RouteResources",
    "RouteSummary",
    "Runner",
    "Severity",
    "StatusCode",
    "TestCase",
    "TestExpect",
    "TestState",
    "WorkingDirectory",
)
#: Names deprecated at the top level: name -> (its module, what to use instead). Each access warns.
_DEPRECATED: dict[str, tuple[str, str]] = {
    **{name: (_EXPORTS.pop(name), f"import it from agent_graph.types ({name})") for name in _MOVED_TO_TYPES},
    "run_evaluation_input": (
        _EXPORTS.pop("run_evaluation_input"),
        "evaluate a stored Run with store.next_step(), or pass run.facts, run.outcomes and run.authorities "
        "to evaluate()",
    ),
}

__all__ = ["PROTOCOL_VERSION", "__version__", "types", *sorted(_EXPORTS)]


def __getattr__(name: str) -> object:
    import importlib

    module_name = _EXPORTS.get(name)
    if module_name is not None:
        value = getattr(importlib.import_module(f"agent_graph.{module_name}"), name)
        globals()[name] = value
        return value
    if name == "types":
        return importlib.import_module("agent_graph.types")
    deprecated = _DEPRECATED.get(name)
    if deprecated is None:
        raise AttributeError(f"module 'agent_graph' has no attribute {name!r}")
    import warnings

    warnings.warn(
        f"agent_graph.{name} is deprecated and goes in the next release: {deprecated[1]}",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module(f"agent_graph.{deprecated[0]}"), name)  # not kept: every use warns


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS, "types"})
