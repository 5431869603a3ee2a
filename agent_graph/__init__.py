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

# For type checkers: every public name, re-exported explicitly. At run time the
# names load lazily through ``_EXPORTS`` below; a test checks that both agree.
if TYPE_CHECKING:
    from ._core.canonical import (
        canonical_json as canonical_json,
        digest_bytes as digest_bytes,
        digest_value as digest_value,
    )
    from ._core.errors import (
        AgentGraphError as AgentGraphError,
        Diagnostic as Diagnostic,
    )
    from ._core.evaluate import (
        evaluate as evaluate,
    )
    from ._core.model import (
        OUTCOMES as OUTCOMES,
        Action as Action,
        Bundle as Bundle,
        CodeCatalog as CodeCatalog,
        CodeLocation as CodeLocation,
        Evaluation as Evaluation,
        FileLocation as FileLocation,
        Graph as Graph,
        GraphActionLocation as GraphActionLocation,
        HostActionLocation as HostActionLocation,
        HostActionResult as HostActionResult,
        ProviderManifest as ProviderManifest,
        ReadReceipts as ReadReceipts,
        Route as Route,
        RouteSummary as RouteSummary,
        Run as Run,
        SkillBinding as SkillBinding,
        TestCase as TestCase,
        TestResult as TestResult,
    )
    from ._core.provider import (
        Provider as Provider,
    )
    from ._load.api import (
        locate_code as locate_code,
        locate_resource as locate_resource,
        route as route,
    )
    from ._load.fs import (
        FileSystem as FileSystem,
        MemoryFileSystem as MemoryFileSystem,
        OSFileSystem as OSFileSystem,
    )
    from ._load.loader import (
        Limits as Limits,
        load_provider as load_provider,
        resolve_skill_binding as resolve_skill_binding,
    )
    from ._runtime.host_action import (
        host_action_input_digest as host_action_input_digest,
        host_action_output_digest as host_action_output_digest,
        host_action_read_receipt as host_action_read_receipt,
        validate_host_action_result as validate_host_action_result,
    )
    from ._runtime.materialize import (
        materialize_resource as materialize_resource,
    )
    from ._runtime.runs import (
        RunStore as RunStore,
        run_evaluation_input as run_evaluation_input,
    )
    from ._runtime.testing import (
        run_graph_tests as run_graph_tests,
    )
    from ._toolchain.bundle import (
        build_bundle as build_bundle,
    )
    from ._toolchain.diagram import (
        render_diagram as render_diagram,
    )
    from ._toolchain.importers import (
        import_scripts as import_scripts,
        import_skill as import_skill,
        import_workflow as import_workflow,
    )
    from ._toolchain.migrate import (
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
    "evaluate": "_core.evaluate",
    "Action": "_core.model",
    "Bundle": "_core.model",
    "CodeCatalog": "_core.model",
    "CodeLocation": "_core.model",
    "Evaluation": "_core.model",
    "FileLocation": "_core.model",
    "Graph": "_core.model",
    "GraphActionLocation": "_core.model",
    "HostActionLocation": "_core.model",
    "HostActionResult": "_core.model",
    "OUTCOMES": "_core.model",
    "ProviderManifest": "_core.model",
    "ReadReceipts": "_core.model",
    "Route": "_core.model",
    "RouteSummary": "_core.model",
    "Run": "_core.model",
    "SkillBinding": "_core.model",
    "TestCase": "_core.model",
    "TestResult": "_core.model",
    "Provider": "_core.provider",
    "locate_code": "_load.api",
    "locate_resource": "_load.api",
    "route": "_load.api",
    "FileSystem": "_load.fs",
    "MemoryFileSystem": "_load.fs",
    "OSFileSystem": "_load.fs",
    "Limits": "_load.loader",
    "load_provider": "_load.loader",
    "resolve_skill_binding": "_load.loader",
    "host_action_input_digest": "_runtime.host_action",
    "host_action_output_digest": "_runtime.host_action",
    "host_action_read_receipt": "_runtime.host_action",
    "validate_host_action_result": "_runtime.host_action",
    "materialize_resource": "_runtime.materialize",
    "run_evaluation_input": "_runtime.runs",
    "RunStore": "_runtime.runs",
    "run_graph_tests": "_runtime.testing",
    "build_bundle": "_toolchain.bundle",
    "render_diagram": "_toolchain.diagram",
    "import_scripts": "_toolchain.importers",
    "import_skill": "_toolchain.importers",
    "import_workflow": "_toolchain.importers",
    "migrate_provider": "_toolchain.migrate",
    "init_provider": "_toolchain.scaffold",
}

__all__ = ["PROTOCOL_VERSION", "__version__", *sorted(_EXPORTS)]


def __getattr__(name: str) -> object:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'agent_graph' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"agent_graph.{module_name}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
