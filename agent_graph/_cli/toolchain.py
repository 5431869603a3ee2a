"""Authoring commands of the command line: ``build``, ``init``, ``import``, ``migrate``, ``diagram``, ``export-python``.

``agent_graph._cli.parser`` imports this module and calls :func:`add_commands`; each
handler returns ``(answer, human lines)`` and raises ``AgentGraphError`` on
failure, so output and the error envelope stay the core command line's job.
The work itself lives in the bundle, scaffold, importer, migration and
diagram modules; this module only parses arguments and words the answers.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from .common import Context, add_evaluation_options, command_group, evaluation_input, select_graph

__all__ = ["add_commands"]

_REVIEW = "Review IMPORT_REPORT.md before relying on generated semantics."


def cmd_build(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._toolchain.bundle import build_bundle

    bundle = build_bundle(ctx.provider(), args.out)
    destination = os.path.abspath(args.out)
    return bundle, [
        f"Built {bundle.provider.id}@{bundle.provider.version} at {destination}",
        f"{len(bundle.files)} file(s), {len(bundle.graphs)} graph(s), {len(bundle.actions)} action(s), "
        f"{len(bundle.resources)} resource(s)",
        f"Bundle digest: {bundle.digest}",
        f"Load it with: agent-graph validate --manifest {os.path.join(destination, 'manifest.json')}",
    ]


def cmd_init(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._toolchain.scaffold import init_provider

    manifest = init_provider(args.directory, args.id)
    return {"state": "created", "manifest": manifest}, [
        f"Created Agent Graph provider: {manifest}",
        f"Next: agent-graph validate --manifest {manifest}",
        f"Then: agent-graph test --manifest {manifest}",
    ]


def _imported(result: Any) -> tuple[Any, list[str]]:
    lines = [f"Imported {result.kind} into {result.graph_path} (graph {result.graph_id})"]
    lines.extend(f"Created: {path}" for path in result.created)
    lines.extend(f"Changed: {path}" for path in result.changed)
    lines.append(_REVIEW)
    return result.to_json(), lines


def cmd_import_skill(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._toolchain.importers import import_skill

    return _imported(import_skill(args.skill_md, args.into, args.graph))


def cmd_import_scripts(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._toolchain.importers import import_scripts

    return _imported(import_scripts(args.scripts, args.into, args.graph))


def cmd_import_workflow(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._toolchain.importers import import_workflow

    return _imported(import_workflow(args.workflow, args.into, args.graph))


def cmd_migrate(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._toolchain.migrate import migrate_provider

    report = migrate_provider(ctx.manifest, dry_run=args.dry_run)
    if not report.changes:
        return report, [f"Nothing to migrate: {report.manifest} already uses the 0.3 protocols"]
    verb = "Would change" if args.dry_run else "Changed"
    lines = [
        f"{verb} {change.path}: {change.field} {change.before} → {change.after} ({change.reason})"
        for change in report.changes
    ]
    if args.dry_run:
        lines.append("Dry run: no file was written")
    else:
        lines.append(
            f"Migrated {len(report.files)} file(s). Next: agent-graph validate --manifest {report.manifest}"
        )
    return report, lines


def cmd_diagram(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._toolchain.diagram import DiagramState, render_diagram

    provider = ctx.provider()
    overlay = (
        args.evaluate
        or args.explain
        or any(getattr(args, name, None) for name in ("entry", "facts", "outcomes", "authority"))
        or any(getattr(args, name, None) is not None for name in ("state", "store", "run"))
    )
    state = None
    if overlay:
        data = evaluation_input(args, ctx)
        graph = data.graph
        state = DiagramState(
            entry=data.entry, facts=data.facts, outcomes=data.outcomes, authorities=data.authorities
        )
    else:
        binding = ctx.binding()
        graph = select_graph(provider, args.graph or (binding[2] if binding is not None else None), "diagram")
    text = render_diagram(
        provider,
        graph,
        fmt=args.diagram_format,
        state=state,
        expand_subgraphs=not args.no_subgraphs,
        explain=args.explain,
    )
    answer = {"graph": graph, "format": args.diagram_format, "overlay": state is not None, "diagram": text}
    return answer, [text.rstrip("\n")]


def cmd_explain(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._core.why import explain, explanation_text

    graphs = ctx.provider().graphs
    from_state = args.state or args.run or ctx.skill
    if args.node is None and args.graph is not None and args.graph not in graphs and from_state:
        args.node, args.graph = args.graph, None  # `explain NODE --state RUN`: the Run names the graph
    data = evaluation_input(args, ctx)
    explanation = explain(
        ctx.provider(),
        data.graph,
        data.entry,
        args.node,
        facts=data.facts,
        outcomes=data.outcomes,
        authorities=data.authorities,
    )
    return explanation, [explanation_text(explanation).rstrip("\n")]


def cmd_export_python(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._toolchain.export_python import python_source

    provider = ctx.provider()
    text = python_source(provider)
    return {"provider": provider.id, "version": provider.version, "python": text}, [text.rstrip("\n")]


def add_commands(commands: Any, groups: Any) -> None:
    """Register the authoring commands on the top-level sub-command parser."""
    build = commands.add_parser("build", help="build a deterministic, relocatable provider bundle")
    build.add_argument(
        "out", nargs="?", default="dist/provider", help="output directory (default: dist/provider)"
    )
    build.set_defaults(handler=cmd_build)

    init = commands.add_parser("init", help="create a minimal provider that passes its own graph tests")
    init.add_argument("directory", nargs="?", default=".", help="destination directory (default: .)")
    init.add_argument("--id", required=True, help="provider id (normalized to an identifier)")
    init.set_defaults(handler=cmd_init)

    import_commands = command_group(
        commands, "import", "turn a Skill, scripts or a workflow into provider sources", dest="import_kind"
    )
    skill = import_commands.add_parser(
        "skill", help="copy a Skill directory, bind it and wrap it in one Graph"
    )
    skill.add_argument("skill_md", metavar="SKILL.md")
    scripts = import_commands.add_parser("scripts", help="copy scripts and chain them in a sequential Graph")
    scripts.add_argument("scripts", nargs="+", metavar="SCRIPT")
    workflow = import_commands.add_parser(
        "workflow", help="turn a dependency workflow (YAML or JSON) into a Graph"
    )
    workflow.add_argument("workflow", metavar="WORKFLOW")
    for parser, handler in (
        (skill, cmd_import_skill),
        (scripts, cmd_import_scripts),
        (workflow, cmd_import_workflow),
    ):
        parser.add_argument(
            "--into", required=True, help="root of an existing provider (holding provider.yaml)"
        )
        parser.add_argument("--graph", help="id of the generated graph")
        parser.set_defaults(handler=handler)

    migrate = commands.add_parser("migrate", help="rewrite a 0.2 provider to the 0.3 resource protocols")
    migrate.add_argument(
        "--dry-run", dest="dry_run", action="store_true", help="report the changes, write nothing"
    )
    migrate.set_defaults(handler=cmd_migrate)

    diagram = commands.add_parser("diagram", help="print a graph as a Mermaid flowchart or Graphviz DOT")
    diagram.add_argument("graph", nargs="?")
    diagram.add_argument(
        "--format",
        dest="diagram_format",
        choices=("mermaid", "dot"),
        default="mermaid",
        help="mermaid (default) or dot",
    )
    diagram.add_argument(
        "--no-subgraphs", dest="no_subgraphs", action="store_true", help="draw Subgraph calls as links only"
    )
    diagram.add_argument(
        "--evaluate", action="store_true", help="overlay the evaluation even without state options"
    )
    diagram.add_argument(
        "--explain", action="store_true", help="write each node's reason on it (implies the overlay)"
    )
    add_evaluation_options(diagram)
    diagram.set_defaults(handler=cmd_diagram)

    export = commands.add_parser(
        "export-python", help="print the Python that declares the provider with agent_graph.define"
    )
    export.set_defaults(handler=cmd_export_python)

    explain = commands.add_parser(
        "explain", help="why an evaluation is what it is: each node's status, checks, edges and route"
    )
    explain.add_argument("graph", nargs="?")
    explain.add_argument("node", nargs="?", help="explain this node only (a node ID or a state key)")
    add_evaluation_options(explain)
    explain.set_defaults(handler=cmd_explain)
