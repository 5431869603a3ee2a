"""Runtime commands of the command line: ``run …`` and ``resource materialize``.

``_cli.build_parser`` calls :func:`add_commands`; each handler turns its
arguments into one call of the Run store (:mod:`agent_graph._runtime.runs`) or the
materializer (:mod:`agent_graph._runtime.materialize`) and answers
``(answer, human lines)``. Failures are AgentGraphErrors, which the command
line prints as the error envelope. Nothing here evaluates by itself or
touches files directly.

Commands that only change a Run (``record``, ``facts``, ``authority``,
``checkpoint``, ``resume``, ``events``) work on the Run file alone, as the
reference toolchain's do; when a Provider is at hand (``--skill``, or the
``--manifest`` file exists, ``provider.yaml`` by default) they also refuse a
Run of another Provider (``run-provider-mismatch``).
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from .._core.errors import AgentGraphError

__all__ = ["add_commands"]


def _store() -> Any:
    from .._runtime.runs import RunStore

    return RunStore()


def _expected_provider(ctx: Any) -> str | None:
    """The ID of the Provider named on the command line, when there is one to load."""
    if ctx.skill is None and not os.path.isfile(os.path.abspath(ctx.manifest)):
        return None
    identity: str = ctx.provider().manifest.id
    return identity


# ---------------------------------------------------------------- run commands


def cmd_run_start(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    from .main import check_entry, object_argument, select_graph

    provider = ctx.provider()
    binding = ctx.binding()
    graph = select_graph(provider, args.graph or (binding[2] if binding else None), "run start")
    entry = args.entry or (binding[3] if binding else None) or "default"
    check_entry(provider, graph, entry)
    facts = object_argument(args.facts, "facts") if args.facts else {}
    run = _store().start(
        args.state,
        provider,
        graph,
        entry,
        workspace=args.workspace or os.getcwd(),
        facts=facts,
        authorities=args.authority or [],
    )
    state = os.path.abspath(args.state)
    return run, [
        f"Started run {run.id}",
        f"State: {state}",
        f"Next: agent-graph run status --state {state}",
    ]


def cmd_run_status(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    from .._core.evaluate import evaluate
    from .._runtime.runs import run_evaluation_input

    provider = ctx.provider()
    run = _store().load(args.state, provider)
    data = run_evaluation_input(run)
    evaluation = evaluate(
        provider, run.graph, run.entry, facts=data["facts"], outcomes=data["outcomes"], authorities=data["authorities"]
    )
    answer = {
        "run": {"id": run.id, "state": os.path.abspath(args.state), "updatedAt": run.updated_at},
        "evaluation": evaluation.to_json(),
    }
    lines = [f"Run: {run.id}", f"State: {evaluation.status_code}" + (f" ({evaluation.outcome})" if evaluation.outcome else "")]
    if evaluation.primary_route is not None:
        lines.append(f"Next: {evaluation.primary_route.node} ({evaluation.primary_route.availability})")
        lines.append(f"Route: {evaluation.primary_route.route_id}")
    lines.append(f"Revision: {evaluation.revision}")
    lines.extend(f"{d.severity.upper()} {d.code}: {d.message}" for d in evaluation.diagnostics)
    return answer, lines


def cmd_run_record(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    import msgspec

    from .._core.model import OUTCOMES
    from .main import json_argument

    if args.outcome not in OUTCOMES:
        raise AgentGraphError("outcome-invalid", f"Unsupported outcome: {args.outcome} (one of {', '.join(OUTCOMES)})")
    detail = json_argument(args.detail, "detail") if args.detail is not None else msgspec.UNSET
    expected = _expected_provider(ctx)
    store = _store()
    if expected is not None and args.node:
        # With the Provider at hand, a state key that names no node of the Run's graph is a typo to refuse.
        from .._core.state import unknown_state_key

        provider = ctx.provider()
        current = store.load(args.state, expected)
        if current.graph in provider.graphs:
            unknown = unknown_state_key(provider, current.graph, args.node)
            if unknown is not None:
                raise unknown
    run = store.record(args.state, args.node, args.outcome, detail=detail, provider=expected)
    return run, [
        f"Recorded {args.node}: {args.outcome}",
        "Evaluate the run again; a recorded outcome does not prove any Fact.",
    ]


def cmd_run_facts(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    from .main import object_argument

    facts = object_argument(args.set, "facts")
    run = _store().update_facts(args.state, facts, replace=args.replace, provider=_expected_provider(ctx))
    verb = "Replaced" if args.replace else "Updated"
    return run, [f"{verb} facts of run {run.id}: {', '.join(run.events[-1].detail['keys']) or '<none>'}"]


def cmd_run_authority(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    # As the reference: without --set (or with --set and no ID) the authorities are replaced by none.
    changes = args.set is not None or args.add or args.remove
    replacement = [] if args.clear or not changes else args.set
    run = _store().update_authorities(
        args.state,
        replace=replacement,
        add=args.add or (),
        remove=args.remove or (),
        provider=_expected_provider(ctx),
    )
    return run, [f"Authorities: {', '.join(run.authorities) or '<none>'}"]


def cmd_run_checkpoint(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    target = args.out or args.to
    if not target:
        raise AgentGraphError("argument-invalid", "run checkpoint needs --out FILE")
    _store().checkpoint(args.state, target, provider=_expected_provider(ctx))
    answer = {"run": os.path.abspath(args.state), "checkpoint": os.path.abspath(target)}
    return answer, [f"Checkpoint: {answer['checkpoint']}", "The checkpoint carries no authorities."]


def cmd_run_resume(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    checkpoint = args.checkpoint_option or args.checkpoint
    if not checkpoint:
        raise AgentGraphError("argument-invalid", "run resume needs --checkpoint FILE")
    if args.checkpoint_option and args.checkpoint and args.checkpoint_option != args.checkpoint:
        raise AgentGraphError("argument-invalid", "run resume got two different checkpoints")
    run = _store().resume(checkpoint, args.state, provider=_expected_provider(ctx))
    return run, [
        f"Resumed run {run.id} at {os.path.abspath(args.state)}",
        "Authorities were cleared; grant them again explicitly if the session still holds them.",
    ]


def cmd_run_events(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    run = _store().load(args.state, _expected_provider(ctx))
    events = [event.to_json() for event in run.events]
    lines = [
        f"{e.sequence} {e.at} {e.type}" + (f" {e.node}" if e.node else "") + (f" {e.outcome}" if e.outcome else "")
        for e in run.events
    ]
    return {"run": run.id, "events": events}, lines


# ---------------------------------------------------------------- resource materialize


def _environment_options(values: list[str] | None) -> dict[str, str]:
    """``NAME=VALUE`` sets a variable; a bare ``NAME`` passes the current value through."""
    result: dict[str, str] = {}
    for item in values or []:
        name, has_value, value = item.partition("=")
        if not has_value:
            if name not in os.environ:
                raise AgentGraphError("materializer-env-invalid", f"--env {name}: the variable is not set")
            value = os.environ[name]
        result[name] = value
    return result


def cmd_resource_materialize(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    from .._runtime.materialize import materialize_resource
    from .main import json_argument

    input_value = json_argument(args.input, "input") if args.input is not None else None
    location = materialize_resource(
        ctx.provider(),
        args.resource,
        cache=args.cache,
        revision=args.revision,
        workspace=args.workspace,
        input=input_value,
        env=_environment_options(args.env),
        timeout=args.timeout_ms / 1000.0,
        max_output_bytes=args.max_output_bytes,
        max_error_bytes=args.max_error_bytes,
    )
    return location, [f"Materialized {location.id}: {location.file_path}", f"Digest: {location.digest}"]


def _positive(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {value}") from None
    if number <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {value}")
    return number


# ---------------------------------------------------------------- wiring


def _reference_codes(handler: Any) -> Any:
    """``handler`` with Run-file errors given the reference command line's codes (see ``_cli.run_file_error``)."""

    def run(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
        from .main import run_file_error

        try:
            answer: tuple[Any, list[str]] = handler(args, ctx)
        except AgentGraphError as error:
            mapped = run_file_error(error)
            if mapped is error:
                raise
            raise mapped from None
        return answer

    return run


def add_commands(commands: Any, groups: dict[str, Any]) -> None:
    """Add ``run …`` to the top-level commands and ``materialize`` to ``resource``."""
    from .main import _Parser

    run = commands.add_parser("run", help="manage an explicit, host-owned Run file (agent-graph.run.v1)")
    run_commands = run.add_subparsers(dest="run_command", metavar="WHAT", parser_class=_Parser)
    run_commands.required = True

    start = run_commands.add_parser("start", help="create a Run for a graph entry (refuses an existing file)")
    start.add_argument("graph", nargs="?")
    start.add_argument("--state", required=True, help="the new Run file")
    start.add_argument("--entry", help="graph entrypoint (default: default)")
    start.add_argument("--workspace", help="workspace of cwd: workspace actions (default: current directory)")
    start.add_argument("--facts", help="initial facts as a JSON object or @file")
    start.add_argument("--authority", nargs="+", action="extend", help="session authorities")
    start.set_defaults(handler=_reference_codes(cmd_run_start))

    status = run_commands.add_parser("status", help="evaluate the Run's graph with its state")
    status.add_argument("--state", required=True, help="the Run file")
    status.set_defaults(handler=_reference_codes(cmd_run_status))

    record = run_commands.add_parser("record", help="record an outcome under route.afterAction.recordNode")
    record.add_argument("node", help="state key, as route.afterAction.recordNode gives it")
    record.add_argument("outcome", help="completed, partial, failed, unverified, skipped, pending, blocked or waiting-user")
    record.add_argument("--state", required=True, help="the Run file")
    record.add_argument("--detail", help="JSON detail or @file, kept on the record and its event")
    record.set_defaults(handler=_reference_codes(cmd_run_record))

    facts = run_commands.add_parser("facts", help="merge (or replace) the Run's facts")
    facts.add_argument("--state", required=True, help="the Run file")
    facts.add_argument("--set", required=True, help="facts as a JSON object or @file")
    facts.add_argument("--replace", action="store_true", help="replace all facts instead of merging")
    facts.set_defaults(handler=_reference_codes(cmd_run_facts))

    authority = run_commands.add_parser("authority", help="change the Run's session authorities")
    authority.add_argument("--state", required=True, help="the Run file")
    authority.add_argument("--set", nargs="*", help="replace the authorities with these (none: clear)")
    authority.add_argument("--add", nargs="+", action="extend", help="grant these authorities")
    authority.add_argument("--remove", nargs="+", action="extend", help="withdraw these authorities")
    authority.add_argument("--clear", action="store_true", help="withdraw every authority (as giving no option does)")
    authority.set_defaults(handler=_reference_codes(cmd_run_authority))

    checkpoint = run_commands.add_parser("checkpoint", help="copy the Run, without authorities, to a new file")
    checkpoint.add_argument("--state", required=True, help="the Run file")
    checkpoint.add_argument("--out", help="the new checkpoint file")
    checkpoint.add_argument("--to", help=argparse.SUPPRESS)
    checkpoint.set_defaults(handler=_reference_codes(cmd_run_checkpoint))

    resume = run_commands.add_parser("resume", help="start a new Run file from a checkpoint (authorities cleared)")
    resume.add_argument("checkpoint", nargs="?", help=argparse.SUPPRESS)
    resume.add_argument("--checkpoint", dest="checkpoint_option", help="the checkpoint file")
    resume.add_argument("--state", required=True, help="the new Run file")
    resume.set_defaults(handler=_reference_codes(cmd_run_resume))

    events = run_commands.add_parser("events", help="list the Run's events")
    events.add_argument("--state", required=True, help="the Run file")
    events.set_defaults(handler=_reference_codes(cmd_run_events))

    materialize = groups["resource"].add_parser(
        "materialize", help="run a graph-action resource's read materializer into a content-addressed cache"
    )
    materialize.add_argument("resource", help="resource ID or Provider-relative path")
    materialize.add_argument("--cache", required=True, help="cache directory")
    materialize.add_argument("--revision", required=True, help="revision of the route that selected the resource")
    materialize.add_argument("--workspace", help="AGENT_GRAPH_WORKSPACE (default: current directory)")
    materialize.add_argument("--input", help="AGENT_GRAPH_INPUT as JSON or @file (default: null)")
    materialize.add_argument(
        "--env", action="append", metavar="NAME[=VALUE]", help="pass a variable to the materializer (repeatable)"
    )
    materialize.add_argument("--timeout-ms", dest="timeout_ms", type=_positive, default=30000, help="default 30000")
    materialize.add_argument(
        "--max-output-bytes", dest="max_output_bytes", type=_positive, default=10 * 1024 * 1024, help="default 10 MiB"
    )
    materialize.add_argument(
        "--max-error-bytes", dest="max_error_bytes", type=_positive, default=1024 * 1024, help="default 1 MiB"
    )
    materialize.set_defaults(handler=cmd_resource_materialize)
