"""Runtime commands of the command line: ``run …`` and ``resource materialize``.

``_cli.parser.build_parser`` calls :func:`add_commands`; each handler turns its
arguments into one call of the Run store (:mod:`agent_graph._runtime.runs`) or the
materializer (:mod:`agent_graph._runtime.materialize`) and answers
``(answer, human lines)``. Failures are AgentGraphErrors, which the command
line prints as the error envelope. Nothing here evaluates by itself or
touches files directly.

A Run is named by ``--state PATH`` (a Run file) or by ``--store URL`` with
``--run ID`` (a SQLite or PostgreSQL store, or a folder of Run files; see
:func:`agent_graph.open_store`). Commands that only change a Run
(``record`` without ``--revision``, ``facts``, ``authority``, ``checkpoint``,
``resume``, ``events``, ``export``, ``import``) work on the Run alone, as the
reference toolchain's do; when a Provider is at hand (``--skill``, or the
``--manifest`` file exists, ``provider.yaml`` by default) they also refuse a
Run of another Provider (``run-provider-mismatch``).
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from .._core.errors import AgentGraphError
from .._core.why import step_blockers
from .._runtime.run_changes import evaluate_run
from .common import (
    STORE_HELP,
    add_store_options,
    check_entry,
    command_group,
    json_argument,
    object_argument,
    proof_lines,
    run_file_error,
    select_graph,
    store_options,
    why_lines,
)

__all__ = ["add_commands"]


def _open(args: argparse.Namespace, *, need_run: bool = True, folder: bool = False) -> tuple[Any, str | None]:
    """The store and Run ref of a command: ``--state PATH`` (a Run file) or ``--store URL`` with ``--run ID``."""
    from .._runtime.stores import open_store

    state = getattr(args, "state", None)
    url = getattr(args, "store", None)
    ref = getattr(args, "run", None)
    if state is not None and (url is not None or ref is not None):
        raise AgentGraphError(
            "argument-invalid", "Give either --state PATH or --store URL with --run ID, not both"
        )
    options = {"lock_timeout": args.lock_timeout, **store_options(args)}
    if state is not None:
        return open_store(None, **options), state
    if url is None and (ref is not None or folder):
        url = "."
    if url is None:
        raise AgentGraphError("argument-invalid", "Name the Run: --state PATH, or --store URL with --run ID")
    if need_run and ref is None:
        raise AgentGraphError("argument-invalid", f"--store {url} needs --run ID to name the Run")
    return open_store(url, **options), ref


def _where(args: argparse.Namespace, run: Any, store: Any) -> dict[str, str]:
    """How the answer names the Run: its file (``state``) or its store and ref."""
    if getattr(args, "state", None) is not None:
        return {"state": os.path.abspath(args.state)}
    from .._runtime.runs import FileRunStore

    ref = args.run if getattr(args, "run", None) is not None else run.id
    if isinstance(store, FileRunStore):
        return {"store": args.store or ".", "run": ref, "state": store.path(ref)}
    return {"store": args.store, "run": ref}


def _next_command(where: dict[str, str]) -> str:
    if "store" in where:
        return f"--store {where['store']} --run {where['run']}"
    return f"--state {where['state']}"


def _loaded_provider(ctx: Any) -> Any:
    """The Provider named on the command line, loaded, when there is one to load (else None)."""
    if ctx.skill is None and not os.path.isfile(os.path.abspath(ctx.manifest)):
        return None
    return ctx.provider()


def _expected_provider(ctx: Any) -> str | None:
    """The ID of the Provider named on the command line, when there is one to load."""
    provider = _loaded_provider(ctx)
    if provider is None:
        return None
    identity: str = provider.manifest.id
    return identity


# ---------------------------------------------------------------- run commands


def cmd_run_start(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    store, ref = _open(args, need_run=False)  # name the Run first: --state PATH or --store URL
    with store:
        provider = ctx.provider()
        binding = ctx.binding()
        graph = select_graph(provider, args.graph or (binding[2] if binding else None), "run start")
        entry = args.entry or (binding[3] if binding else None) or "default"
        check_entry(provider, graph, entry)
        facts = object_argument(args.facts, "facts") if args.facts else {}
        run = store.start(
            ref,
            provider,
            graph,
            entry,
            workspace=args.workspace or os.getcwd(),
            facts=facts,
            authorities=args.authority or [],
        )
        if ref is None and getattr(args, "state", None) is None:
            args.run = run.id  # the Run's address in every store
        where = _where(args, run, store)
    lines = [f"Started run {run.id}"]
    lines.extend(f"{key.capitalize()}: {value}" for key, value in where.items())
    lines.append(f"Next: agent-graph run next {_next_command(where)}")
    return run, lines


def cmd_run_status(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    provider = ctx.provider()
    store, ref = _open(args)
    with store:
        run = store.load(ref, provider)
        where = _where(args, run, store)
    evaluation = evaluate_run(provider, run)
    answer = {"run": {"id": run.id, **where, "updatedAt": run.updated_at}, "evaluation": evaluation.to_json()}
    lines = [
        f"Run: {run.id}",
        f"State: {evaluation.status_code}" + (f" ({evaluation.outcome})" if evaluation.outcome else ""),
    ]
    if evaluation.primary_route is not None:
        lines.append(f"Next: {evaluation.primary_route.node} ({evaluation.primary_route.availability})")
        lines.append(f"Route: {evaluation.primary_route.route_id}")
    lines.extend(why_lines(step_blockers(provider, evaluation, run.facts, run.outcomes, run.authorities)))
    lines.append(f"Revision: {evaluation.revision}")
    lines.extend(f"{d.severity.upper()} {d.code}: {d.message}" for d in evaluation.diagnostics)
    return answer, lines


def cmd_run_next(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    provider = ctx.provider()
    receipts = object_argument(args.receipts, "receipts") if args.receipts else None
    store, ref = _open(args)
    with store:
        step = store.next_step(ref, provider, receipts=receipts, route_id=args.route_id)
    answer = {
        "revision": step.revision,
        "evaluation": step.evaluation.to_json(),
        "route": step.route.to_json() if step.route is not None else None,
        "proof": [check.to_json() for check in step.proof],
        "blockers": [blocker.to_json() for blocker in step.blockers],
    }
    evaluation = step.evaluation
    lines = [
        f"Run: {step.run.id}",
        f"State: {evaluation.status_code}" + (f" ({evaluation.outcome})" if evaluation.outcome else ""),
    ]
    if step.route is not None:
        lines.append(f"Next: {step.route.node} ({step.route.availability})")
        if step.route.gate is not None and step.route.gate.prompt:
            lines.append(f"Gate: {step.route.gate.prompt}")
        lines.extend(proof_lines(step.proof))
        lines.append(f"Record: {step.route.after_action.record_node}")
    lines.extend(why_lines(step.blockers))
    lines.append(f"Revision: {step.revision}")
    lines.extend(f"{d.severity.upper()} {d.code}: {d.message}" for d in evaluation.diagnostics)
    return answer, lines


def cmd_run_record(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    import msgspec

    from .._core.model import OUTCOMES

    if args.outcome not in OUTCOMES:
        raise AgentGraphError(
            "outcome-invalid", f"Unsupported outcome: {args.outcome} (one of {', '.join(OUTCOMES)})"
        )
    detail = json_argument(args.detail, "detail") if args.detail is not None else msgspec.UNSET
    # With the Provider at hand the store refuses a state key that names no node of the Run's graph
    # (state-key-unknown) and keeps the Run's status for run list.
    provider = _loaded_provider(ctx)
    if args.revision is not None and provider is None:
        raise AgentGraphError(
            "argument-invalid",
            "run record --revision needs the Provider (--manifest FILE or --skill) to evaluate the Run",
        )
    store, ref = _open(args)
    with store:
        store.record(ref, args.node, args.outcome, detail=detail, provider=provider, revision=args.revision)
        run = store.load(ref)  # the command prints the whole Run file
    lines = [f"Recorded {args.node}: {args.outcome}"]
    if (
        provider is not None and run.graph in ctx.provider().graphs
    ):  # what holds the Run back now, if anything
        loaded = ctx.provider()
        evaluation = evaluate_run(loaded, run)
        lines.append(f"State: {evaluation.status_code}")
        lines.extend(why_lines(step_blockers(loaded, evaluation, run.facts, run.outcomes, run.authorities)))
    lines.append("Evaluate the run again; a recorded outcome does not prove any Fact.")
    return run, lines


def cmd_run_facts(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    facts = object_argument(args.set, "facts")
    store, ref = _open(args)
    with store:
        store.update_facts(ref, facts, replace=args.replace, deep=args.deep, provider=_loaded_provider(ctx))
        run = store.load(ref)  # the command prints the whole Run file
    verb = "Replaced" if args.replace else "Updated"
    return run, [f"{verb} facts of run {run.id}: {', '.join(run.events[-1].detail['keys']) or '<none>'}"]


def cmd_run_authority(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    # As the reference: without --set (or with --set and no ID) the authorities are replaced by none.
    changes = args.set is not None or args.add or args.remove
    replacement = [] if args.clear or not changes else args.set
    store, ref = _open(args)
    with store:
        store.update_authorities(
            ref,
            replace=replacement,
            add=args.add or (),
            remove=args.remove or (),
            provider=_loaded_provider(ctx),
        )
        run = store.load(ref)  # the command prints the whole Run file
    return run, [f"Authorities: {', '.join(run.authorities) or '<none>'}"]


def cmd_run_checkpoint(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    target = args.out or args.to
    if not target:
        raise AgentGraphError(
            "argument-invalid", "run checkpoint needs --out FILE (or a checkpoint name in a database store)"
        )
    store, ref = _open(args)
    with store:
        store.checkpoint(ref, target, provider=_loaded_provider(ctx))
    if getattr(args, "state", None) is not None:
        answer = {"run": os.path.abspath(args.state), "checkpoint": os.path.abspath(target)}
    else:
        answer = {"store": args.store or ".", "run": ref, "checkpoint": target}
    return answer, [f"Checkpoint: {answer['checkpoint']}", "The checkpoint carries no authorities."]


def cmd_run_resume(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    checkpoint = args.checkpoint_option or args.checkpoint
    if not checkpoint:
        raise AgentGraphError("argument-invalid", "run resume needs --checkpoint FILE")
    if args.checkpoint_option and args.checkpoint and args.checkpoint_option != args.checkpoint:
        raise AgentGraphError("argument-invalid", "run resume got two different checkpoints")
    store, ref = _open(args, need_run=False)
    with store:
        run = store.resume(checkpoint, ref, provider=_loaded_provider(ctx))
        if ref is None:
            args.run = run.id
        where = _where(args, run, store)
    return run, [
        f"Resumed run {run.id} at {where.get('state') or where['run']}",
        "Authorities were cleared; grant them again explicitly if the session still holds them.",
    ]


def cmd_run_events(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    store, ref = _open(args)
    with store:
        run = store.load(ref, _expected_provider(ctx))
    events = [event.to_json() for event in run.events]
    lines = [
        f"{e.sequence} {e.at} {e.type}"
        + (f" {e.node}" if e.node else "")
        + (f" {e.outcome}" if e.outcome else "")
        for e in run.events
    ]
    return {"run": run.id, "events": events}, lines


def cmd_run_list(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    store, _ = _open(args, need_run=False, folder=True)
    with store:
        page = store.list(
            provider=args.provider,
            graph=args.graph,
            status=args.status,
            updated_after=args.updated_after,
            updated_before=args.updated_before,
            limit=args.limit,
            cursor=args.cursor,
            newest_first=args.newest_first,
        )
    lines = [
        f"{r.id} {r.provider} {r.graph}#{r.entry} {r.status or 'status-unknown'} events={r.events}"
        f" updated={r.updated_at}" + (f" {r.ref}" if r.ref != r.id else "")
        for r in page
    ]
    if page.next_cursor is not None:
        lines.append(f"More: --cursor {page.next_cursor}")
    return {"runs": [r.to_json() for r in page], "nextCursor": page.next_cursor}, lines or ["No runs."]


def cmd_run_export(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    store, ref = _open(args)
    with store:
        run = store.export(ref, args.out, provider=_expected_provider(ctx))
    path = os.path.abspath(args.out)
    return {"run": run.id, "file": path}, [f"Exported run {run.id} to {path}"]


def cmd_run_import(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    store, _ = _open(args, need_run=False, folder=True)
    with store:
        run = store.import_run(args.file, provider=_loaded_provider(ctx))
    return run, [f"Imported run {run.id} from {os.path.abspath(args.file)}"]


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
    """``handler`` with Run-file errors given the reference command line's codes (see ``common.run_file_error``).

    Only a Run named by ``--state PATH`` (a Run file, as the reference names it) is mapped.
    """

    def run(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
        try:
            answer: tuple[Any, list[str]] = handler(args, ctx)
        except AgentGraphError as error:
            if getattr(args, "state", None) is None:
                raise  # a Run in a store (--store, --run) keeps the store's codes
            mapped = run_file_error(error)
            if mapped is error:
                raise
            raise mapped from None
        return answer

    return run


def add_commands(commands: Any, groups: dict[str, Any]) -> None:
    """Add ``run …`` to the top-level commands and ``materialize`` to ``resource``."""

    run_commands = command_group(
        commands,
        "run",
        "manage a host-owned Run (agent-graph.run.v1) in a file or a store",
        dest="run_command",
    )

    def target(
        parser: Any,
        *,
        state_help: str = "the Run file",
        run_help: str = "the Run's ID (its path in a folder)",
    ) -> None:
        parser.add_argument("--state", help=state_help)
        add_store_options(parser)
        parser.add_argument("--run", help=run_help)
        parser.add_argument(
            "--lock-timeout",
            dest="lock_timeout",
            type=float,
            default=30.0,
            help="seconds to wait for another writer",
        )

    start = run_commands.add_parser("start", help="create a Run for a graph entry (refuses an existing one)")
    start.add_argument("graph", nargs="?")
    target(start, state_help="the new Run file", run_help="the new Run's ID (default: a random one)")
    start.add_argument("--entry", help="graph entrypoint (default: default)")
    start.add_argument("--workspace", help="workspace of cwd: workspace actions (default: current directory)")
    start.add_argument("--facts", help="initial facts as a JSON object or @file")
    start.add_argument("--authority", nargs="+", action="extend", help="session authorities")
    start.set_defaults(handler=_reference_codes(cmd_run_start))

    status = run_commands.add_parser("status", help="evaluate the Run's graph with its state")
    target(status)
    status.set_defaults(handler=_reference_codes(cmd_run_status))

    step = run_commands.add_parser("next", help="the next step: evaluation and route at the Run's revision")
    target(step)
    step.add_argument("--route", dest="route_id", help="an alternative route ID (default: the primary route)")
    step.add_argument(
        "--receipts", help="read receipts (agent-graph.resource-read-receipts.v1) as JSON or @file"
    )
    step.set_defaults(handler=cmd_run_next)

    record = run_commands.add_parser("record", help="record an outcome under route.afterAction.recordNode")
    record.add_argument("node", help="state key, as route.afterAction.recordNode gives it")
    record.add_argument(
        "outcome", help="completed, partial, failed, unverified, skipped, pending, blocked or waiting-user"
    )
    target(record)
    record.add_argument("--detail", help="JSON detail or @file, kept on the record and its event")
    record.add_argument(
        "--revision", help="the step's revision: refused (run-revision-stale) if the Run changed since"
    )
    record.set_defaults(handler=_reference_codes(cmd_run_record))

    facts = run_commands.add_parser("facts", help="merge (or replace) the Run's facts")
    target(facts)
    facts.add_argument("--set", required=True, help="facts as a JSON object or @file")
    mode = facts.add_mutually_exclusive_group()
    mode.add_argument("--replace", action="store_true", help="replace all facts instead of merging")
    mode.add_argument("--deep", action="store_true", help="merge nested objects key by key")
    facts.set_defaults(handler=_reference_codes(cmd_run_facts))

    authority = run_commands.add_parser("authority", help="change the Run's session authorities")
    target(authority)
    authority.add_argument("--set", nargs="*", help="replace the authorities with these (none: clear)")
    authority.add_argument("--add", nargs="+", action="extend", help="grant these authorities")
    authority.add_argument("--remove", nargs="+", action="extend", help="withdraw these authorities")
    authority.add_argument(
        "--clear", action="store_true", help="withdraw every authority (as giving no option does)"
    )
    authority.set_defaults(handler=_reference_codes(cmd_run_authority))

    checkpoint = run_commands.add_parser(
        "checkpoint", help="copy the Run, without authorities, to a new checkpoint"
    )
    target(checkpoint)
    checkpoint.add_argument("--out", help="the new checkpoint file (a checkpoint name in a database store)")
    checkpoint.add_argument("--to", help=argparse.SUPPRESS)
    checkpoint.set_defaults(handler=_reference_codes(cmd_run_checkpoint))

    resume = run_commands.add_parser("resume", help="start a new Run from a checkpoint (authorities cleared)")
    resume.add_argument("checkpoint", nargs="?", help=argparse.SUPPRESS)
    resume.add_argument("--checkpoint", dest="checkpoint_option", help="the checkpoint file or name")
    target(resume, state_help="the new Run file", run_help="the new Run's ID (default: a random one)")
    resume.set_defaults(handler=_reference_codes(cmd_run_resume))

    events = run_commands.add_parser("events", help="list the Run's events")
    target(events)
    events.set_defaults(handler=_reference_codes(cmd_run_events))

    listing = run_commands.add_parser("list", help="list the Runs of a store (default: the current folder)")
    add_store_options(listing, STORE_HELP + " (default: the current folder)")
    listing.add_argument("--provider", help="only Runs of this Provider ID")
    listing.add_argument("--graph", help="only Runs of this Graph ID")
    listing.add_argument(
        "--updated-after", dest="updated_after", help="only Runs updated after this timestamp"
    )
    listing.add_argument(
        "--updated-before", dest="updated_before", help="only Runs updated before this timestamp"
    )
    listing.add_argument(
        "--status",
        choices=("actionable", "waiting-user", "blocked", "complete", "error"),
        help="only Runs of this status (as of their last write that had the Provider)",
    )
    listing.add_argument(
        "--limit", type=int, help="at most this many Runs (then --cursor gives the next page)"
    )
    listing.add_argument("--cursor", help="the nextCursor of the page before")
    listing.add_argument("--newest-first", dest="newest_first", action="store_true", help="newest Runs first")
    listing.add_argument(
        "--lock-timeout", dest="lock_timeout", type=float, default=30.0, help=argparse.SUPPRESS
    )
    listing.set_defaults(handler=cmd_run_list, run=None, state=None)

    export = run_commands.add_parser("export", help="write a Run to a new agent-graph.run.v1 file")
    target(export)
    export.add_argument("--out", required=True, help="the new file")
    export.set_defaults(handler=cmd_run_export)

    imported = run_commands.add_parser(
        "import", help="store the Run of an agent-graph.run.v1 file under its own ID"
    )
    imported.add_argument("file", help="the Run file")
    add_store_options(imported, STORE_HELP + " (default: the current folder)")
    imported.add_argument(
        "--lock-timeout", dest="lock_timeout", type=float, default=30.0, help=argparse.SUPPRESS
    )
    imported.set_defaults(handler=cmd_run_import, run=None, state=None)

    materialize = groups["resource"].add_parser(
        "materialize", help="run a graph-action resource's read materializer into a content-addressed cache"
    )
    materialize.add_argument("resource", help="resource ID or Provider-relative path")
    materialize.add_argument("--cache", required=True, help="cache directory")
    materialize.add_argument(
        "--revision", required=True, help="revision of the route that selected the resource"
    )
    materialize.add_argument("--workspace", help="AGENT_GRAPH_WORKSPACE (default: current directory)")
    materialize.add_argument("--input", help="AGENT_GRAPH_INPUT as JSON or @file (default: null)")
    materialize.add_argument(
        "--env",
        action="append",
        metavar="NAME[=VALUE]",
        help="pass a variable to the materializer (repeatable)",
    )
    materialize.add_argument(
        "--timeout-ms", dest="timeout_ms", type=_positive, default=30000, help="default 30000"
    )
    materialize.add_argument(
        "--max-output-bytes",
        dest="max_output_bytes",
        type=_positive,
        default=10 * 1024 * 1024,
        help="default 10 MiB",
    )
    materialize.add_argument(
        "--max-error-bytes", dest="max_error_bytes", type=_positive, default=1024 * 1024, help="default 1 MiB"
    )
    materialize.set_defaults(handler=cmd_resource_materialize)
