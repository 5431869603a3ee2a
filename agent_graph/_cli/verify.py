"""The ``agent-graph verify`` and ``agent-graph impact`` commands, and the writer of ``test --generate``.

``verify`` explores the states a host can reach (see
:func:`agent_graph._runtime.verify.verify`) and answers its findings as text
grouped by file (each with its trace and the graph test that reproduces
it), JSON or SARIF 2.1.0 (lint's writer, with a code flow per trace). The
exit status is 1 when an error-level finding remains. ``--write-tests DIR``
writes each finding's reproducing test into DIR.

``impact OLD NEW`` evaluates each Run of a store (``--store URL``) or each
Run file under both versions of a Provider and names the Runs whose course
changes; its exit status is 1 when a Run has a change named by
``--fail-on`` (default: blocked, error, gate-skipped, graph-missing).
Nothing is written.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from .._core.errors import AgentGraphError
from .._core.lint import Finding
from .._core.verify import RULES, VerifyFinding, VerifyReport
from .common import Context, add_finding_options
from .lint import _names, _plural, _shown, sarif_log, text_lines

__all__ = ["add_commands", "cmd_generate", "verify_lines"]


def _indented(text: str, prefix: str) -> list[str]:
    return [prefix + line for line in text.rstrip("\n").split("\n")]


def verify_lines(report: VerifyReport, root: str, base: str) -> list[str]:
    """Human text: what was explored, then the findings grouped by file, each with its trace and test."""
    lines = []
    for run in report.explorations:
        how = (
            "every reachable state"
            if run.complete
            else f"stopped at its {'bound of states' if run.stopped == 'max-states' else 'time budget'}"
        )
        lines.append(f"{run.graph}#{run.entry}: {run.states} states, {run.transitions} moves ({how})")
    for result in report.properties:
        lines.append(
            f"property {result.name!r} ({result.kind}, {result.graph}#{result.entry}): {result.result}"
        )
    lines.append("")
    if not report.findings:
        lines.append(
            "No findings: every state a host can reach was explored."
            if report.complete
            else "No findings in the states explored; the exploration stopped at its bound, so nothing more is proven."
        )
        return lines
    return lines + text_lines(report.findings, root, base, _details)


def _details(finding: Finding) -> list[str]:
    """A verify finding's trace and reproducing test, indented under it."""
    from .._toolchain.generate import render_test

    lines: list[str] = []
    trace = getattr(finding, "trace", ())
    if trace:
        lines.append("    trace from a new Run:")
        lines.extend(f"      {number}. {step.text}" for number, step in enumerate(trace, 1))
    test = getattr(finding, "test", None)
    if test is not None:
        lines.append("    reproducing graph test:")
        lines.extend(_indented(render_test(test, header=False), "      "))
    return lines


def _write_finding_tests(findings: tuple[VerifyFinding, ...], folder: str) -> list[str]:
    """Each finding's reproducing test as ``<code>-<n>.yaml`` in ``folder`` (all or none)."""
    from .._toolchain.generate import GeneratedTest, write_tests

    tests = []
    for number, finding in enumerate((f for f in findings if f.test is not None), 1):
        from .._toolchain.generate import render_test

        assert finding.test is not None
        text = render_test(finding.test, [step.text for step in finding.trace])
        tests.append(
            GeneratedTest(
                file=f"{finding.code.lower()}-{number:02d}.yaml",
                name=str(finding.test["name"]),
                text=text,
                document=finding.test,
            )
        )
    return write_tests(tests, folder)


def cmd_verify(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._runtime.verify import verify

    provider = ctx.provider()
    report = verify(
        provider,
        args.graph,
        args.entry,
        max_states=args.max_states,
        time_budget=args.time_budget,
        properties=args.properties,
        outcomes=args.outcomes,
        fact_changes=args.fact_changes,
        select=_names(args.select),
        ignore=_names(args.ignore),
    )
    if report.state == "failed":
        ctx.exit_status = 1
    written = _write_finding_tests(report.findings, args.write_tests) if args.write_tests else []
    base = os.getcwd()
    given = getattr(args, "format", None)
    output = args.verify_format or (given if given in ("sarif", "text") else "text")
    if output == "sarif":
        log = sarif_log(
            report.findings, provider.root, base, RULES, "the Verify section of docs/authoring.md"
        )
        return log, [json.dumps(log, ensure_ascii=False, indent=2)]
    answer = report.to_json()
    lines = verify_lines(report, provider.root, base)
    if args.write_tests:
        answer["written"] = written
        lines.extend(f"Wrote {_shown(path, base)}" for path in written)
    return answer, lines


def cmd_generate(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    """``test --generate [DIR]``: write the generated suite (default ``tests/generated`` beside the manifest)."""
    from .._toolchain.generate import generate_tests

    if args.path is not None:
        raise AgentGraphError(
            "argument-invalid",
            "test --generate takes the folder to write as its value (test --generate DIR), not a test path",
        )
    provider = ctx.provider()
    folder = args.generate if args.generate else os.path.join(provider.root, "tests", "generated")
    tests = generate_tests(provider, args.graph, args.entry, out=folder, max_states=args.max_states)
    base = os.getcwd()
    answer = {
        "state": "generated",
        "folder": os.path.abspath(folder),
        "tests": [{"file": test.file, "name": test.name} for test in tests],
    }
    lines = [
        f"Wrote {_shown(os.path.join(os.path.abspath(folder), test.file), base)}: {test.name}"
        for test in tests
    ]
    lines.append(f"{_plural(len(tests), 'graph test')} generated; run them with agent-graph test --coverage")
    return answer, lines


#: How long ``agent-graph verify`` explores unless told otherwise (the library has no default budget).
DEFAULT_TIME_BUDGET = 60.0

#: What ``impact`` fails on unless told otherwise: a Run that would stop or pass a Gate it has not passed.
DEFAULT_FAIL_ON = ("blocked", "error", "gate-skipped", "graph-missing")


def _fail_on(values: list[str] | None) -> tuple[str, ...]:
    from .._core.impact import IMPACT_KINDS

    names = _names(values)
    if names is None:
        return DEFAULT_FAIL_ON
    chosen: list[str] = []
    for name in names:
        if name == "none":
            continue
        if name == "any":
            chosen.extend(IMPACT_KINDS)
        elif name in IMPACT_KINDS:
            chosen.append(name)
        else:
            raise AgentGraphError(
                "argument-invalid",
                f"--fail-on takes changes ({', '.join(IMPACT_KINDS)}), any or none; not {name!r:.60}",
            )
    return tuple(kind for kind in IMPACT_KINDS if kind in chosen)


def _snapshot_text(snapshot: Any) -> str:
    if snapshot is None:
        return "(no such graph or entry)"
    if snapshot.status_code == "complete":
        return f"complete ({snapshot.outcome})"
    return f"{snapshot.status_code} {snapshot.record_node}" if snapshot.record_node else snapshot.status_code


def cmd_impact(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._load.loader import load_provider
    from .._runtime.impact import impact
    from .._runtime.stores import open_store
    from .common import load_run_state

    fail_on = _fail_on(args.fail_on)
    if args.store is not None and args.runs:
        raise AgentGraphError("argument-invalid", "impact takes --store URL or Run files, not both")
    if args.store is None and not args.runs:
        raise AgentGraphError(
            "argument-invalid",
            "impact needs the Runs to compare: --store URL, or Run files after OLD and NEW",
        )
    old = load_provider(args.old, cache=True, pause_gc=True)
    new = load_provider(args.new, cache=True, pause_gc=True)
    if args.store is not None:
        with open_store(args.store) as store:
            report = impact(old, new, store)
    else:
        report = impact(old, new, [load_run_state(path, old.manifest.id) for path in args.runs])
    failing = report.failing(fail_on)
    if failing:
        ctx.exit_status = 1
    answer = report.to_json()
    answer["failOn"] = list(fail_on)
    answer["failing"] = [run.run for run in failing]
    answer["state"] = "failed" if failing else "passed"
    lines = [
        f"Provider {report.old.id}: {report.old.version} {report.old.digest} -> "
        f"{report.new.version} {report.new.digest}"
    ]
    for run in report.runs:
        if not run.changes:
            continue
        line = (
            f"{run.run} {run.graph}#{run.entry}: {_snapshot_text(run.before)} -> {_snapshot_text(run.after)} "
            f"[{', '.join(run.changes)}]"
        )
        if run.skipped_gates:
            line += f" skips {', '.join(run.skipped_gates)}"
        if run.unknown_keys:
            line += f"; unknown state keys {', '.join(run.unknown_keys)}"
        lines.append(line)
    counts = {kind: n for kind, n in report.counts().items() if n}
    changed = sum(1 for run in report.runs if run.changes)
    summary = f"{_plural(len(report.runs), 'Run')}, {changed} changed"
    if counts:
        summary += f" ({', '.join(f'{kind} {n}' for kind, n in counts.items())})"
    lines.append(summary)
    if failing:
        lines.append(f"FAIL {_plural(len(failing), 'Run')} with {' or '.join(fail_on)} (--fail-on)")
    return answer, lines


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise AgentGraphError(
            "argument-invalid", f"--max-states takes a positive whole number, not {text!r:.40}"
        ) from None
    if value < 1:
        raise AgentGraphError("argument-invalid", f"--max-states takes a positive whole number, not {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise AgentGraphError(
            "argument-invalid", f"--time-budget takes a positive number of seconds, not {text!r:.40}"
        )
    return value


def add_exploration_options(parser: Any) -> None:
    """``--max-states`` (and the Graph and entry to explore), shared by ``verify`` and ``test --generate``."""
    parser.add_argument(
        "--max-states",
        dest="max_states",
        type=_positive,
        default=100_000,
        metavar="N",
        help="evaluate at most N states per Graph entry (default 100000)",
    )


def add_commands(commands: Any, groups: Any) -> None:
    """Register ``verify`` on the top-level sub-command parser."""
    verify = commands.add_parser(
        "verify", help="explore the states a host can reach: dead ends, traps, endless repeats, properties"
    )
    verify.add_argument("graph", nargs="?", help="the Graph to verify (default: every Graph)")
    verify.add_argument("--entry", help="the entry to verify (default: every entry)")
    add_exploration_options(verify)
    verify.add_argument(
        "--time-budget",
        dest="time_budget",
        type=_seconds,
        default=DEFAULT_TIME_BUDGET,
        metavar="SECONDS",
        help=f"stop exploring after SECONDS (default {DEFAULT_TIME_BUDGET:g}; the report then says what it covered)",
    )
    verify.add_argument(
        "--properties",
        help="an agent-graph.verify.v1 file or folder (default: the verify folder beside the manifest)",
    )
    verify.add_argument(
        "--outcomes",
        choices=("declared", "all"),
        default="declared",
        help="outcomes a host records: declared (completed, those the edges name, failed for a Gate) or all",
    )
    verify.add_argument(
        "--fact-changes",
        dest="fact_changes",
        choices=("free", "progress"),
        default="free",
        help="free: any fact a check reads may change at any time; progress: proof that holds stays",
    )
    add_finding_options(verify, dest="verify_format", prefix="AGV1")
    verify.add_argument(
        "--write-tests",
        dest="write_tests",
        metavar="DIR",
        help="write each finding's reproducing graph test into DIR",
    )
    verify.set_defaults(handler=cmd_verify)

    impact = commands.add_parser(
        "impact", help="which Runs in flight a new version of their Provider would change (writes nothing)"
    )
    impact.add_argument("old", metavar="OLD", help="the manifest of the Provider the Runs ran on")
    impact.add_argument("new", metavar="NEW", help="the manifest of the new version")
    impact.add_argument("runs", nargs="*", metavar="RUN", help="Run files (agent-graph.run.v1) to compare")
    impact.add_argument(
        "--store",
        help="compare every Run of the old Provider in this store (sqlite:///…, postgresql://…, a folder)",
    )
    impact.add_argument(
        "--fail-on",
        dest="fail_on",
        action="append",
        metavar="CHANGES",
        help="exit 1 when a Run has one of these changes (comma-separated; any, none; "
        "default blocked,error,gate-skipped,graph-missing)",
    )
    impact.set_defaults(handler=cmd_impact)
