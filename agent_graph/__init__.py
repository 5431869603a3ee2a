"""agent-graph: model-free work contracts for AI agents.

Load an Agent Graph Provider once, then ask it, as often as you like, for the
one legal next step::

    import agent_graph as ag

    provider = ag.load_provider("provider.yaml")
    ev = ag.evaluate(provider, "report", "default", facts={}, outcomes={}, authorities=[])
    if ev.primary_route is not None:
        r = ag.route(provider, "report", ev.primary_route.route_id, "default", revision=ev.revision)

``evaluate()`` and ``route()`` are pure and in-process: they never read files,
run a model or execute an Action. Every failure is an :class:`AgentGraphError`
with a stable ``code``. Results are msgspec Structs; ``msgspec.json.encode()``
writes their wire JSON.
"""

from __future__ import annotations

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing at start-up

if TYPE_CHECKING:
    from ._api import locate_code, locate_resource, route
    from ._bundle import build_bundle
    from ._canonical import canonical_json, digest_bytes, digest_value
    from ._diagram import render_diagram
    from ._errors import AgentGraphError, Diagnostic
    from ._evaluate import evaluate
    from ._fs import FileSystem, MemoryFileSystem, OSFileSystem
    from ._host_action import (
        host_action_input_digest,
        host_action_output_digest,
        host_action_read_receipt,
        validate_host_action_result,
    )
    from ._importers import import_scripts, import_skill, import_workflow
    from ._loader import Limits, load_provider
    from ._materialize import materialize_resource
    from ._migrate import migrate_provider
    from ._model import (
        OUTCOMES,
        Action,
        Bundle,
        CodeCatalog,
        CodeLocation,
        Evaluation,
        FileLocation,
        Graph,
        GraphActionLocation,
        HostActionLocation,
        HostActionResult,
        ProviderManifest,
        ReadReceipts,
        Route,
        RouteSummary,
        Run,
        SkillBinding,
        TestCase,
        TestResult,
    )
    from ._provider import Provider
    from ._runs import RunStore, run_evaluation_input
    from ._scaffold import init_provider
    from ._skill import resolve_skill_binding
    from ._testing import run_graph_tests

del TYPE_CHECKING

__version__ = "0.3.1"
PROTOCOL_VERSION = "0.3.1"

# Every name loads its module on first use, so that ``import agent_graph`` costs
# next to nothing and a command or a host pays only for what it touches.
_MODEL_NAMES = (
    "OUTCOMES",
    "Action",
    "Bundle",
    "CodeCatalog",
    "CodeLocation",
    "Evaluation",
    "FileLocation",
    "Graph",
    "GraphActionLocation",
    "HostActionLocation",
    "HostActionResult",
    "ProviderManifest",
    "ReadReceipts",
    "Route",
    "RouteSummary",
    "Run",
    "SkillBinding",
    "TestCase",
    "TestResult",
)
_LAZY = {
    "locate_code": "_api",
    "locate_resource": "_api",
    "route": "_api",
    "canonical_json": "_canonical",
    "digest_bytes": "_canonical",
    "digest_value": "_canonical",
    "AgentGraphError": "_errors",
    "Diagnostic": "_errors",
    "evaluate": "_evaluate",
    "FileSystem": "_fs",
    "MemoryFileSystem": "_fs",
    "OSFileSystem": "_fs",
    "Limits": "_loader",
    "load_provider": "_loader",
    **dict.fromkeys(_MODEL_NAMES, "_model"),
    "Provider": "_provider",
    "resolve_skill_binding": "_skill",
    "run_graph_tests": "_testing",
    "build_bundle": "_bundle",
    "init_provider": "_scaffold",
    "import_skill": "_importers",
    "import_scripts": "_importers",
    "import_workflow": "_importers",
    "migrate_provider": "_migrate",
    "render_diagram": "_diagram",
    "RunStore": "_runs",
    "run_evaluation_input": "_runs",
    "materialize_resource": "_materialize",
    "host_action_input_digest": "_host_action",
    "validate_host_action_result": "_host_action",
    "host_action_read_receipt": "_host_action",
    "host_action_output_digest": "_host_action",
}


def __getattr__(name: str) -> object:
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'agent_graph' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"agent_graph.{module_name}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "OUTCOMES",
    "PROTOCOL_VERSION",
    "Action",
    "AgentGraphError",
    "Bundle",
    "CodeCatalog",
    "CodeLocation",
    "Diagnostic",
    "Evaluation",
    "FileLocation",
    "FileSystem",
    "Graph",
    "GraphActionLocation",
    "HostActionLocation",
    "HostActionResult",
    "Limits",
    "MemoryFileSystem",
    "OSFileSystem",
    "Provider",
    "ProviderManifest",
    "ReadReceipts",
    "Route",
    "RouteSummary",
    "Run",
    "RunStore",
    "SkillBinding",
    "TestCase",
    "TestResult",
    "__version__",
    "build_bundle",
    "canonical_json",
    "digest_bytes",
    "digest_value",
    "evaluate",
    "host_action_input_digest",
    "host_action_output_digest",
    "host_action_read_receipt",
    "import_scripts",
    "import_skill",
    "import_workflow",
    "init_provider",
    "load_provider",
    "locate_code",
    "locate_resource",
    "materialize_resource",
    "migrate_provider",
    "render_diagram",
    "resolve_skill_binding",
    "route",
    "run_evaluation_input",
    "run_graph_tests",
    "validate_host_action_result",
]
