"""The ``agent-graph`` command line: argument parsing, output and the error envelope.

Every command answers on stdout (one line of JSON with ``--format json``, short
readable lines otherwise); every failure ends in the ``agent-graph.error.v1``
envelope on stderr (``ERROR <code>: <message>`` in human format) and exit
status 1, never a traceback. Global options (``--manifest``, ``--skill``,
``--registry``, ``--format``) are accepted before or after the command.
Commands of other capabilities come from the modules of ``COMMAND_MODULES``;
what the command modules share is in :mod:`agent_graph._cli.common`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from .._core.errors import AgentGraphError, Diagnostic, os_error
from .._core.version import PROTOCOL_VERSION, __version__
from . import lint, mcp, replay, runtime, toolchain, verify
from .common import (
    Context,
    Parser,
    add_evaluation_options,
    evaluation_input,
    json_argument,
    proof_lines,
    why_lines,
)

if TYPE_CHECKING:
    from .._core.provider import Provider

#: Modules that add commands, imported plainly (a broken one fails loudly): each has
#: ``add_commands(subparsers, groups)``.
COMMAND_MODULES = (runtime, toolchain, mcp, lint, replay, verify)

GLOBAL_OPTIONS = {
    "--manifest": "manifest",
    "-m": "manifest",
    "--skill": "skill",
    "--registry": "registry",
    "--format": "format",
}
OUTPUT_FORMATS = ("human", "json")

# ---------------------------------------------------------------- commands


def inspect_provider(provider: Provider) -> dict[str, Any]:
    """The ``agent-graph.inspect.v1`` answer for a loaded Provider."""
    from .._core.canonical import sort_collated

    def by_id(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        order = {key: i for i, key in enumerate(sort_collated(item["id"] for item in items))}
        return sorted(items, key=lambda item: order[item["id"]])

    graphs = []
    node_total = edge_total = 0
    for compiled in provider.graphs.values():
        definition = compiled.definition
        node_total += len(definition.nodes)
        edge_total += len(definition.edges)
        nodes = []
        for node in definition.nodes:
            item: dict[str, Any] = {"id": node.id, "kind": node.kind}
            if node.description is not None:
                item["description"] = node.description
            if node.reason_code is not None:
                item["reasonCode"] = node.reason_code
            item["priority"] = node.priority if node.priority is not None else 0
            nodes.append(item)
        graph: dict[str, Any] = {"id": definition.id}
        if definition.description is not None:
            graph["description"] = definition.description
        graph.update(
            {
                "path": provider.relative(compiled.path),
                "entrypoints": dict(definition.entrypoints),
                "nodes": nodes,
                "dependencies": sorted(provider.graph_dependencies.get(definition.id, ())),
            }
        )
        graphs.append(graph)
    actions = [
        {
            "id": a.definition.id,
            "runner": a.definition.runner,
            "effect": a.definition.effect,
            "path": provider.relative(a.path),
        }
        for a in provider.actions.values()
    ]
    resources = [
        {"id": r.id, "kind": r.kind, "dynamic": r.dynamic, "path": provider.relative(r.path)}
        for r in provider.resources.values()
    ]
    codes = [msgspec.to_builtins(entry) for entry in provider.codes.values()]  # in the catalog's order
    return {
        "schema": "agent-graph.inspect.v1",
        "provider": {
            "id": provider.manifest.id,
            "version": provider.manifest.version,
            "manifest": provider.manifest_path,
        },
        "counts": {
            "graphs": len(provider.graphs),
            "nodes": node_total,
            "edges": edge_total,
            "actions": len(provider.actions),
            "resources": len(provider.resources),
            "codes": len(provider.codes),
        },
        "graphs": by_id(graphs),
        "actions": by_id(actions),
        "resources": by_id(resources),
        "codes": codes,
    }


def cmd_validate(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    provider = ctx.provider()
    inspection = inspect_provider(provider)
    answer = {"state": "valid", **inspection}
    diagnostics = (
        compatibility_diagnostics(provider)
        + unpackaged_file_diagnostics(provider)
        + test_file_diagnostics(provider)
    )
    if diagnostics:
        answer["diagnostics"] = [d.to_json() for d in diagnostics]
    lines = [
        f"Valid provider {provider.manifest.id}@{provider.manifest.version}",
        f"{len(provider.graphs)} graph(s), {len(provider.actions)} action(s), {len(provider.resources)} resource(s)",
        *(f"{d.severity.upper()} {d.code}: {d.message}" for d in diagnostics),
    ]
    return answer, lines


def unpackaged_file_diagnostics(provider: Provider) -> list[Diagnostic]:
    """Warnings for files Actions run that a bundle would leave out (``build`` refuses them).

    The protocol does not look into commands, so the Provider stays valid: a warning, not a failure.
    """
    from .._toolchain.bundle import unpackaged_action_files

    found = unpackaged_action_files(provider, os.path.isfile)
    return [msgspec.structs.replace(d, severity="warning") for d in found]


def test_file_diagnostics(provider: Provider) -> list[Diagnostic]:
    """Warnings about the Provider's own graph tests (``tests/``): files that cannot be read, unknown state keys."""
    from .._core.state import check_state
    from .._load.fs import OSFileSystem
    from .._runtime.testing import discover_tests, read_test_case

    folder = os.path.join(provider.root, "tests")
    if provider.bundle is not None or not os.path.isdir(folder):
        return []
    found: list[Diagnostic] = []
    for file in discover_tests(folder, OSFileSystem()):
        shown = provider.relative(file)
        try:
            with open(file, "rb") as handle:
                case = read_test_case(handle.read(), file, display=shown)
            if case.graph not in provider.graphs:
                raise provider.graph_missing(case.graph)
            outcomes = case.state.outcomes if case.state is not None else None
            checked = check_state(provider, case.graph, case.entry, outcomes=outcomes)
            problems = [d for d in checked if d.code == "state-key-unknown"]
        except AgentGraphError as error:
            problems = [Diagnostic(code=error.code, severity="error", message=error.message)]
        except OSError as error:
            problems = [
                Diagnostic(code="file-read-failed", severity="error", message=f"Cannot read {file}: {error}")
            ]
        found.extend(
            Diagnostic(code=d.code, severity="warning", message=f"graph test {shown}: {d.message}", path=file)
            for d in problems
        )
    return found


def compatibility_diagnostics(provider: Provider) -> list[Diagnostic]:
    """A warning when the manifest's ``compatibility.agentGraph`` range excludes this protocol version."""
    try:
        from .._core.semver import compatibility_warning
    except ImportError:
        return []
    warning = compatibility_warning(provider)
    return [warning] if warning is not None else []


def cmd_evaluate(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._core.evaluate import evaluate
    from .._core.why import step_blockers

    data = evaluation_input(args, ctx)
    result = evaluate(
        ctx.provider(),
        data.graph,
        data.entry,
        facts=data.facts,
        outcomes=data.outcomes,
        authorities=data.authorities,
    )
    lines = [f"State: {result.status_code}" + (f" ({result.outcome})" if result.outcome else "")]
    if result.primary_route is not None:
        lines.append(f"Next: {result.primary_route.node} ({result.primary_route.availability})")
        lines.append(f"Route: {result.primary_route.route_id}")
    for alternative in result.alternative_routes:
        lines.append(f"Also: {alternative.node} ({alternative.availability}) {alternative.route_id}")
    lines.extend(
        why_lines(step_blockers(ctx.provider(), result, data.facts, data.outcomes, data.authorities))
    )
    lines.append(f"Revision: {result.revision}")
    lines.extend(f"{d.severity.upper()} {d.code}: {d.message}" for d in result.diagnostics)
    return result, lines


def read_receipts_argument(value: str) -> Any:
    from .._syntax import schema as _schema

    parsed = json_argument(value, "resource receipts")
    _schema.validate("resource-read-receipts", parsed, value)
    return parsed


def cmd_route(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._runtime.step import route

    positional = list(args.arguments)
    if len(positional) > 2:
        raise AgentGraphError(
            "route-arguments-invalid",
            f"route takes at most a graph and a route ID: agent-graph route [GRAPH] [ROUTE-ID]; got {len(positional)} "
            f"arguments: {' '.join(positional)}",
        )
    if args.revision is not None:
        from .._load.api import REVISION_PATTERN

        if not REVISION_PATTERN.fullmatch(args.revision):
            raise AgentGraphError(
                "revision-invalid",
                f"--revision takes the revision evaluate printed (sha256: and 64 hex digits), not {args.revision}",
            )
    route_id = None
    graph_arg = None
    for item in positional:
        if item.startswith("route:") and route_id is None:
            route_id = item
        elif graph_arg is None:
            graph_arg = item
        else:
            route_id = item
    args.graph = graph_arg
    data = evaluation_input(args, ctx)
    receipts = read_receipts_argument(args.resource_receipts) if args.resource_receipts else None
    result = route(
        ctx.provider(),
        data.graph,
        data.entry,
        route_id,
        facts=data.facts,
        outcomes=data.outcomes,
        authorities=data.authorities,
        revision=args.revision,
        workspace=args.workspace or data.workspace,
        receipts=receipts,
    )
    lines = [f"Next: {result.node} ({result.availability})"]
    for step in result.command_plan:
        lines.append(
            f"Command: {step.command}" if hasattr(step, "command") else f"Host handler: {step.handler}"
        )
        lines.append(f"Working directory: {step.working_directory}")
    for label, locations in (
        ("Required", result.resources.required),
        ("Recommended", result.resources.recommended),
    ):
        for location in locations:
            target = getattr(location, "file_path", None) or f"materialize {location.id}"
            lines.append(f"{label}: {target} [{location.read_state}]")
    if result.gate is not None:
        lines.append(f"Gate: {result.gate.prompt} (resolution: {result.gate.resolution})")
        for label, plan in (
            ("Inspection", result.gate.inspection_action),
            ("Resolution", result.gate.resolution_action),
        ):
            if plan is None:
                continue
            for step in plan.command_plan:
                target = (
                    f"command {step.command}" if hasattr(step, "command") else f"host handler {step.handler}"
                )
                lines.append(f"{label}: {plan.action.id} ({target}, in {step.working_directory})")
            if not plan.command_plan:
                lines.append(f"{label}: {plan.action.id} ({plan.action.runner})")
    from .._core.why import proof_checks

    lines.extend(proof_lines(proof_checks(ctx.provider(), result.graph, result.node, data.facts)))
    lines.append(f"After action: record {result.after_action.record_node}, then evaluate again")
    return result, lines


def _shown_path(path: str) -> str:
    """``path`` relative to the working directory when it lies below it."""
    prefix = os.getcwd().rstrip("/") + "/"
    return path[len(prefix) :] if path.startswith(prefix) else path


def _coverage_answer(
    args: argparse.Namespace, ctx: Context, collector: Any, answer: dict[str, Any], lines: list[str]
) -> bool:
    """Add the coverage of ``agent-graph test`` to its answer and lines; true when under ``--fail-under``."""
    from .._core.graph_coverage import coverage_table, falls_short
    from .._toolchain.diagram import render_diagram

    report = collector.report()
    answer["coverage"] = report.to_json()
    if args.coverage_format is not None:
        diagrams = {
            graph.graph: render_diagram(ctx.provider(), graph.graph, fmt=args.coverage_format, coverage=graph)
            for graph in report.graphs
        }
        answer["diagrams"] = diagrams
        lines.clear()
        lines.extend(text.rstrip("\n") for text in diagrams.values())
    else:
        lines.append("")
        lines.extend(coverage_table(report))
    if args.fail_under is None:
        return False
    under = falls_short(report, args.fail_under)
    answer["failUnder"] = args.fail_under
    if under and args.coverage_format is None:
        percent = report.total.total.percent
        lines.append(f"FAIL coverage {percent:g}% is under --fail-under {args.fail_under:g}%")
    return under


def cmd_test(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._core.graph_coverage import fail_under_percent
    from .._runtime.testing import run_graph_tests

    if args.generate is not None:
        return verify.cmd_generate(args, ctx)
    if args.graph is not None or args.entry is not None:
        raise AgentGraphError("argument-invalid", "test --graph and --entry choose what --generate generates")
    if args.fail_under is not None:
        fail_under_percent(args.fail_under)  # refused before any test runs
    provider = ctx.provider()
    path = args.path or os.path.join(provider.root, "tests")
    collector = None
    if args.coverage or args.fail_under is not None or args.coverage_format is not None:
        from .._core.graph_coverage import CoverageCollector

        collector = CoverageCollector(provider)
    results = run_graph_tests(provider, path, coverage=collector)
    failed = [r for r in results if not r.passed]
    errors = [r for r in results if r.error is not None]
    answer: dict[str, Any] = {
        "state": "failed" if failed else "passed",
        "total": len(results),
        "failed": len(failed),
    }
    if errors:
        answer["errors"] = len(errors)  # files that could not be run at all (also counted as failed)
    answer["results"] = [msgspec.to_builtins(r) for r in results]
    lines: list[str] = []
    for result in results:
        where = _shown_path(result.path)
        if result.error is not None:
            lines.append(f"ERROR {where}: {result.error.code}: {result.error.message}")
            lines.extend(
                f"  {d.code}: {d.message}"
                for d in result.error.diagnostics
                if d.code != result.error.code or d.message != result.error.message  # no copy of the line
            )
        elif result.passed:
            lines.append(f"PASS {where}: {result.name}")
        else:
            lines.append(f"FAIL {where}: {result.name}")
            lines.extend(f"  {failure}" for failure in result.failures)
    passed = len(results) - len(failed)
    summary = f"{passed}/{len(results)} graph test(s) passed"
    if failed:
        summary += f", {len(failed) - len(errors)} failed" + (
            f", {len(errors)} could not run" if errors else ""
        )
    lines.append(summary)
    if failed:
        ctx.exit_status = 1
    if collector is not None and _coverage_answer(args, ctx, collector, answer, lines):
        ctx.exit_status = 1
    return answer, lines


def cmd_inspect_provider(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    inspection = inspect_provider(ctx.provider())
    counts = inspection["counts"]
    lines = [
        f"{inspection['provider']['id']}@{inspection['provider']['version']}",
        f"{counts['graphs']} graph(s), {counts['nodes']} node(s), {counts['edges']} edge(s), "
        f"{counts['actions']} action(s), {counts['resources']} resource(s), {counts['codes']} code(s)",
        *(
            f"- {g['id']} [{', '.join(g['entrypoints'])}] {len(g['nodes'])} node(s)"
            + (f" → {', '.join(g['dependencies'])}" if g["dependencies"] else "")
            for g in inspection["graphs"]
        ),
    ]
    return inspection, lines


def cmd_inspect_skill(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._load.loader import load_provider, resolve_skill_binding

    binding = resolve_skill_binding(args.skill_md, ctx.registry())
    answer = {
        "binding": msgspec.to_builtins(binding),
        "provider": inspect_provider(load_provider(binding.manifest_path, cache=True, pause_gc=True)),
    }
    lines = [
        f"Locator: {binding.locator}",
        f"Provider: {binding.provider} ({binding.manifest_path})",
        f"Graph: {binding.graph}#{binding.entry}",
    ]
    return answer, lines


def cmd_code_list(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    provider = ctx.provider()
    codes = [msgspec.to_builtins(e) for e in provider.codes.values()]  # in the catalog's order
    answer: dict[str, Any] = {"provider": provider.manifest.id}
    if provider.code_catalog_path is not None:
        answer["catalog"] = provider.code_catalog_path
    answer["codes"] = codes
    lines = [f"{c['code']} ({c['kind']}): {c['summary']}" for c in codes]
    if provider.code_catalog_path is None:
        lines.append(f"Provider {provider.manifest.id} declares no Code Catalog (catalogs.codes)")
    return answer, lines


def cmd_code_locate(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._load.api import locate_code

    location = locate_code(ctx.provider(), args.code)
    lines = [f"{location.code} ({location.kind}): {location.summary}"]
    if location.document is not None:
        lines.append(f"Document: {location.document.file_path}")
    return location, lines


def cmd_resource_locate(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._load.api import locate_resource

    location = locate_resource(ctx.provider(), args.resource, args.revision)
    target = getattr(location, "file_path", None) or f"materialize {location.id}"
    return location, [f"{location.id} ({location.kind}, {location.media_type}): {target}"]


def cmd_schema_list(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._syntax.schema import SCHEMA_NAMES, schema_root

    return {"root": str(schema_root()), "schemas": list(SCHEMA_NAMES)}, list(SCHEMA_NAMES)


def cmd_schema_path(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._syntax.schema import schema_path

    path = str(schema_path(args.name))
    return {"name": args.name, "path": path}, [path]


def _schema_text(document: Any) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def cmd_schema_extract(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._load.atomic import FileChanges
    from .._syntax.schema import SCHEMA_NAMES, schema_document

    if args.output is not None:
        if not args.name:
            raise AgentGraphError("argument-invalid", "schema extract --output FILE needs the schema's name")
        if args.out is not None:
            raise AgentGraphError(
                "argument-invalid", "schema extract takes --output FILE or --out DIR, not both"
            )
        destination = os.path.abspath(args.output)
        with FileChanges(label="Schema extraction") as changes:
            changes.write(destination, _schema_text(schema_document(args.name)).encode("utf-8"))
        return {"name": args.name, "path": destination}, [destination]
    names = [args.name] if args.name else list(SCHEMA_NAMES)
    documents = {name: schema_document(name) for name in names}
    if args.out:
        out = os.path.abspath(args.out)
        written = []
        with FileChanges(label="Schema extraction") as changes:  # every file, or none
            for name, document in documents.items():
                target = os.path.join(out, f"{name}.schema.json")
                changes.write(target, _schema_text(document).encode("utf-8"))
                written.append(target)
        return {"state": "extracted", "files": written}, [f"Wrote {path}" for path in written]
    if args.name:
        document = documents[args.name]
        return document, [json.dumps(document, indent=2, ensure_ascii=False)]
    return documents, [json.dumps(documents, indent=2, ensure_ascii=False)]


# ---------------------------------------------------------------- parser


class _Discard:
    """Stands in for the parser of a command that was not asked for: takes every call, keeps nothing."""

    def __getattr__(self, name: str) -> Any:
        return self._ignore

    def _ignore(self, *args: Any, **kwargs: Any) -> Any:
        return self


class _OnlyCommand:
    """The top-level sub-command action, adding only the command the arguments name.

    Building every sub-command parser costs more than a small evaluation
    (argparse looks up a translation for each help text).
    """

    def __init__(self, commands: Any, name: str) -> None:
        self.commands = commands
        self.name = name
        self.found = False

    def add_parser(self, name: str, **options: Any) -> Any:
        if name != self.name:
            return _Discard()
        self.found = True
        return self.commands.add_parser(name, **options)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with ``command``, only that top-level command is defined (all if it is unknown)."""
    parser = Parser(
        prog="agent-graph",
        description=f"Load, validate, evaluate and route Agent Graph Providers (protocol {PROTOCOL_VERSION}).",
        epilog="Global options may also be given after the command.",
    )
    parser.add_argument(
        "-m", "--manifest", default="provider.yaml", help="provider.yaml or a bundle's manifest.json"
    )
    parser.add_argument("--skill", help="resolve the Provider, graph and entry through a SKILL.md binding")
    parser.add_argument(
        "--registry", help="host registry of Provider IDs to manifests, for provider: locators"
    )
    parser.add_argument("--format", default="human", help="output format: human or json")
    parser.add_argument("--version", action="version", version=__version__)
    commands: Any = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    if command is not None:
        commands = _OnlyCommand(commands, command)

    validate = commands.add_parser("validate", help="validate schemas, references and invariants")
    validate.set_defaults(handler=cmd_validate)

    evaluate = commands.add_parser("evaluate", help="evaluate the current state of a graph")
    evaluate.add_argument("graph", nargs="?")
    add_evaluation_options(evaluate)
    evaluate.set_defaults(handler=cmd_evaluate)

    route = commands.add_parser(
        "route", help="resolve a route into commands, resources and a recording contract"
    )
    route.add_argument("arguments", nargs="*", metavar="[GRAPH] [ROUTE-ID]")
    add_evaluation_options(route)
    route.add_argument("--revision", help="the revision returned by evaluate")
    route.add_argument("--resource-receipts", dest="resource_receipts", help="read receipts as JSON or @file")
    route.add_argument("--workspace", help="workspace directory for cwd: workspace actions")
    route.set_defaults(handler=cmd_route)

    test = commands.add_parser("test", help="run graph tests (agent-graph.test.v1)")
    test.add_argument("path", nargs="?")
    test.add_argument(
        "--coverage",
        action="store_true",
        help="report the nodes, edges, outcomes and Gate resolutions tested",
    )
    test.add_argument(
        "--fail-under",
        dest="fail_under",
        type=float,
        metavar="PERCENT",
        help="exit 1 when total coverage is under PERCENT (implies --coverage)",
    )
    test.add_argument(
        "--format",
        dest="coverage_format",
        choices=("mermaid", "dot"),
        help="print the coverage as Mermaid or DOT diagrams instead of a table (implies --coverage)",
    )
    test.add_argument(
        "--generate",
        nargs="?",
        const="",
        metavar="DIR",
        help="write graph tests that take every edge and outcome branch into DIR (default: tests/generated)",
    )
    test.add_argument(
        "--graph", help="with --generate: the Graph to generate tests for (default: every Graph)"
    )
    test.add_argument("--entry", help="with --generate: the entry (default: every entry)")
    verify.add_exploration_options(test)
    test.set_defaults(handler=cmd_test)

    inspect = commands.add_parser("inspect", help="inspect a Provider or a Skill binding")
    inspect_commands = inspect.add_subparsers(dest="inspect_command", metavar="WHAT", parser_class=Parser)
    inspect_commands.required = True
    inspect_provider_parser = inspect_commands.add_parser(
        "provider", help="graphs, nodes, actions, resources, codes"
    )
    inspect_provider_parser.set_defaults(handler=cmd_inspect_provider)
    inspect_skill = inspect_commands.add_parser("skill", help="resolve a SKILL.md binding")
    inspect_skill.add_argument("skill_md")
    inspect_skill.set_defaults(handler=cmd_inspect_skill)

    code = commands.add_parser("code", help="the Code Catalog")
    code_commands = code.add_subparsers(dest="code_command", metavar="WHAT", parser_class=Parser)
    code_commands.required = True
    code_commands.add_parser("list", help="list catalog codes").set_defaults(handler=cmd_code_list)
    code_locate = code_commands.add_parser("locate", help="locate one code and its document")
    code_locate.add_argument("code")
    code_locate.set_defaults(handler=cmd_code_locate)

    resource = commands.add_parser("resource", help="resources")
    resource_commands = resource.add_subparsers(dest="resource_command", metavar="WHAT", parser_class=Parser)
    resource_commands.required = True
    resource_locate = resource_commands.add_parser("locate", help="locate a resource by ID or path")
    resource_locate.add_argument("resource")
    resource_locate.add_argument("--revision", help="revision for a dynamic resource location")
    resource_locate.set_defaults(handler=cmd_resource_locate)

    schema = commands.add_parser("schema", help="the JSON Schemas of the v1 objects")
    schema_commands = schema.add_subparsers(dest="schema_command", metavar="WHAT", parser_class=Parser)
    schema_commands.required = True
    schema_commands.add_parser("list", help="list schema names").set_defaults(handler=cmd_schema_list)
    schema_path_parser = schema_commands.add_parser("path", help="the installed path of a schema")
    schema_path_parser.add_argument("name")
    schema_path_parser.set_defaults(handler=cmd_schema_path)
    schema_extract = schema_commands.add_parser(
        "extract", help="print a schema, or write it to a file or schemas to a directory"
    )
    schema_extract.add_argument("name", nargs="?")
    schema_extract.add_argument("--output", help="the file to write the named schema to")
    schema_extract.add_argument("--out", help="directory to write <name>.schema.json files into")
    schema_extract.set_defaults(handler=cmd_schema_extract)

    for module in COMMAND_MODULES:
        module.add_commands(commands, {"resource": resource_commands})
    if isinstance(commands, _OnlyCommand) and not commands.found:
        return build_parser()
    return parser


def split_globals(argv: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    """Take the global options out of ``argv`` wherever they stand."""
    found: dict[str, str] = {}
    rest: list[str] = []
    items = list(argv)
    index = 0
    while index < len(items):
        item = items[index]
        if item == "--":
            rest.extend(items[index:])
            break
        name, has_value, value = item.partition("=")
        if name in GLOBAL_OPTIONS and not (
            name == "--format"
            and (value if has_value else (items[index + 1] if index + 1 < len(items) else ""))
            in ("mermaid", "dot", "sarif", "text")
        ):
            key = GLOBAL_OPTIONS[name]
            if has_value:
                found[key] = value
            else:
                if index + 1 >= len(items):
                    raise AgentGraphError("argument-invalid", f"agent-graph: option {name} needs a value")
                found[key] = items[index + 1]
                index += 1
            index += 1
            continue
        rest.append(item)
        index += 1
    return found, rest


def _escape(code: int) -> str:
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


#: What human output never writes as it is: control characters but tab and newline (a terminal runs
#: escape sequences, a carriage return hides what came before), the bidirectional overrides and
#: isolates (text shown in another order than it is) and lone surrogates (not Unicode). Each is
#: written as its escape (``\x1b``, ``\u202e``, ``\udcff``), whoever wrote it: a Provider's text,
#: a Run's Facts and comments, a file name.
_UNSHOWN = {
    code: _escape(code)
    for code in (
        *(c for c in range(0x20) if c not in (0x09, 0x0A)),
        *range(0x7F, 0xA0),
        *range(0x202A, 0x202F),
        *range(0x2066, 0x206A),
        *range(0xD800, 0xE000),
    )
}


def visible(text: str) -> str:
    """``text`` as human output writes it: what a terminal would act on, or show out of order, escaped."""
    return text.translate(_UNSHOWN)


def _write(stream: Any, text: str) -> None:
    """Write ``text``; characters the stream cannot encode (lone surrogates from undecodable
    arguments or file names) are written as ``\\uXXXX`` escapes, which JSON strings read back."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        stream.write(text.encode(encoding, "backslashreplace").decode(encoding))


def _json_line(value: Any) -> str:
    """One line of JSON that is valid UTF-8 whatever the stream: a lone surrogate (from an
    undecodable argument or file name) is written as a ``\\uXXXX`` escape, as JSON.stringify does,
    and a value nested deeper than the C encoders go is written by the iterative writer."""
    from .._core.plain import json_text

    if isinstance(value, msgspec.Struct):
        try:
            return msgspec.json.encode(value).decode("utf-8") + "\n"
        except (UnicodeEncodeError, RecursionError):  # msgspec refuses lone surrogates; json writes them
            value = msgspec.to_builtins(value)
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        text.encode("utf-8")
    except (UnicodeEncodeError, RecursionError, ValueError):
        text = json_text(value)
    return text + "\n"


def _emit_json(value: Any) -> None:
    _write(sys.stdout, _json_line(value))


def _fail(error: AgentGraphError, output_format: str) -> int:
    try:
        if output_format == "json":
            _write(sys.stderr, _json_line(error.to_envelope()))
        else:
            _write(sys.stderr, visible(f"ERROR {error.code}: {error.message}") + "\n")
            for diagnostic in error.diagnostics:
                if diagnostic.code == error.code and diagnostic.message == error.message:
                    continue  # the machine-readable copy of the line above (its detail says where)
                located = (
                    isinstance(diagnostic.detail, dict) and "line" in diagnostic.detail
                )  # the message says where
                where = f" ({diagnostic.path})" if diagnostic.path and not located else ""
                _write(sys.stderr, visible(f"  {diagnostic.code}: {diagnostic.message}{where}") + "\n")
        sys.stderr.flush()
    except OSError:  # nowhere left to report to; the exit status still says it
        pass
    return 1


def _silence_stdout() -> None:
    """After standard output failed, send what is still buffered for it nowhere (the process's own stdout only).

    Otherwise the interpreter would try to flush it again at exit and print a
    message of its own on stderr.
    """
    stream = sys.stdout
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    if stream is not sys.__stdout__:
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    try:
        os.dup2(null, descriptor)
    except OSError:
        pass
    finally:
        os.close(null)


def _answer(value: Any, lines: list[str], output_format: str) -> None:
    """Write the answer on stdout and flush it, so that a full disk or a closed pipe is noticed here."""
    if output_format == "json":
        _emit_json(value)
    else:
        _write(sys.stdout, visible("\n".join(lines)) + "\n")
    sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    output_format = (
        "json"
        if "--format=json" in arguments
        or any(a == "--format" and b == "json" for a, b in itertools.pairwise(arguments))
        else "human"
    )
    try:
        found, rest = split_globals(arguments)
        output_format = found.get("format", "human")
        if output_format not in OUTPUT_FORMATS:
            bad = output_format
            output_format = "human"
            raise AgentGraphError("format-invalid", f"Unsupported format: {bad}")
        if not rest or rest in (["-h"], ["--help"]):
            build_parser().print_help(sys.stdout)
            return 0
        parser = build_parser(None if rest[0].startswith("-") else rest[0])
        try:
            args = parser.parse_args(rest)
        except SystemExit as exit_request:  # --help or --version of a subcommand
            return int(exit_request.code or 0)
        handler = getattr(args, "handler", None)
        if handler is None:
            raise AgentGraphError(
                "argument-invalid", "agent-graph: a command is required (see agent-graph --help)"
            )
        ctx = Context(
            manifest=found.get("manifest", "provider.yaml"),
            manifest_given="manifest" in found,
            skill=found.get("skill"),
            registry_path=found.get("registry"),
            format=output_format,
        )
        value, lines = handler(args, ctx)
    except AgentGraphError as error:
        return _fail(error, output_format)
    except RecursionError:
        return _fail(AgentGraphError("input-too-deep", "Input nests too deeply to process"), output_format)
    except MemoryError:
        return _fail(AgentGraphError("input-too-large", "Input is too large to process"), output_format)
    except KeyboardInterrupt:
        return _fail(AgentGraphError("interrupted", "Interrupted"), output_format)
    except BrokenPipeError:
        _silence_stdout()
        return 1
    except OSError as error:  # an operating-system failure no adapter named: still its own code
        where = error.filename if isinstance(error.filename, str) else "a file"
        return _fail(os_error(error, where, "use"), output_format)
    except Exception as error:  # a defect: still one envelope, never a traceback
        return _fail(
            AgentGraphError("internal-error", f"Unexpected {type(error).__name__}: {error}"), output_format
        )
    if ctx.quiet:
        return ctx.exit_status
    try:
        _answer(value, lines, output_format)
    except BrokenPipeError:  # the reader went away: nothing to tell it
        _silence_stdout()
        return 1
    except OSError as error:
        _silence_stdout()
        return _fail(os_error(error, "standard output", "write the answer to"), output_format)
    return ctx.exit_status
