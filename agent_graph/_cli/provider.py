"""The commands about one Provider: ``validate``, ``evaluate``, ``route``, ``test``, ``inspect``, ``code``,
``resource locate`` and ``schema``.

:mod:`agent_graph._cli.parser` calls :func:`add_commands` first, so these
commands lead the help and the ``resource`` group exists for the command
modules after it (``resource materialize`` is :mod:`agent_graph._cli.runtime`'s).
Each handler answers the value written with ``--format json`` and the lines
written otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import TYPE_CHECKING, Any

import msgspec

from .._core.errors import AgentGraphError, Diagnostic
from . import verify
from .common import (
    Context,
    add_evaluation_options,
    command_group,
    evaluation_input,
    json_argument,
    proof_lines,
    why_lines,
)

if TYPE_CHECKING:
    from .._core.provider import Provider

__all__ = ["add_commands", "inspect_provider"]


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


def add_commands(commands: Any, groups: dict[str, Any]) -> None:
    """Register the Provider commands on the top-level sub-command parser, and the ``resource`` group in ``groups``."""
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

    inspect_commands = command_group(
        commands, "inspect", "inspect a Provider or a Skill binding", dest="inspect_command"
    )
    inspect_provider_parser = inspect_commands.add_parser(
        "provider", help="graphs, nodes, actions, resources, codes"
    )
    inspect_provider_parser.set_defaults(handler=cmd_inspect_provider)
    inspect_skill = inspect_commands.add_parser("skill", help="resolve a SKILL.md binding")
    inspect_skill.add_argument("skill_md")
    inspect_skill.set_defaults(handler=cmd_inspect_skill)

    code_commands = command_group(commands, "code", "the Code Catalog", dest="code_command")
    code_commands.add_parser("list", help="list catalog codes").set_defaults(handler=cmd_code_list)
    code_locate = code_commands.add_parser("locate", help="locate one code and its document")
    code_locate.add_argument("code")
    code_locate.set_defaults(handler=cmd_code_locate)

    resource_commands = groups["resource"] = command_group(
        commands, "resource", "resources", dest="resource_command"
    )
    resource_locate = resource_commands.add_parser("locate", help="locate a resource by ID or path")
    resource_locate.add_argument("resource")
    resource_locate.add_argument("--revision", help="revision for a dynamic resource location")
    resource_locate.set_defaults(handler=cmd_resource_locate)

    schema_commands = command_group(
        commands, "schema", "the JSON Schemas of the v1 objects", dest="schema_command"
    )
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
