"""The ``agent-graph lint`` command: findings as text grouped by file, JSON or SARIF 2.1.0.

``agent_graph._cli.parser`` imports this module and calls :func:`add_commands`.
The findings come from :func:`agent_graph._runtime.lint.lint`; this module
parses the options and writes the answer. The exit status is 1 when an
error-level finding remains after ``--select``/``--ignore`` and suppressions.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path, PurePath
from typing import Any
from urllib.parse import quote

from .._core.lint import RULES, Finding, LintRule
from .._core.version import __version__
from .common import Context, add_finding_options

__all__ = ["add_commands", "sarif_log", "text_lines"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
_SOURCE_ROOT = "%SRCROOT%"


def _names(values: Sequence[str] | None) -> list[str] | None:
    """Rule lists from repeated, comma-separated options (``--select AG1,AG2 --select AG5``)."""
    if values is None:
        return None
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def _absolute(root: str, finding: Finding) -> str:
    return finding.file if os.path.isabs(finding.file) else os.path.join(root, finding.file)


def _shown(path: str, base: str) -> str:
    prefix = base.rstrip(os.sep) + os.sep
    return path[len(prefix) :] if path.startswith(prefix) else path


def _uri_reference(relative: str) -> str:
    """A relative file path as a URI reference (RFC 3986): ``/``-separated, everything else percent-encoded.

    The file name's own bytes are encoded (UTF-8, or what the OS gave), so
    decoding the reference gives the path back: a space, ``#``, ``%``, ``?``, a
    backslash in a POSIX name or a non-ASCII letter cannot end the path or
    start a query or fragment.
    """
    return quote(os.fsencode(PurePath(relative).as_posix()), safe="/")


def _counts(findings: Sequence[Finding]) -> dict[str, int]:
    counts = {"error": 0, "warning": 0, "info": 0}
    for finding in findings:
        counts[finding.severity] += 1
    return counts


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def text_lines(
    findings: Sequence[Finding],
    root: str,
    base: str,
    details: Callable[[Finding], list[str]] | None = None,
) -> list[str]:
    """Human text: findings grouped by file (shown relative to ``base``), each with its hint, then a summary.

    ``details`` gives more lines to print under a finding (``verify``: its trace and test).
    """
    if not findings:
        return ["All checks passed!"]
    lines: list[str] = []
    current = None
    for finding in findings:
        shown = _shown(_absolute(root, finding), base)
        if shown != current:
            if current is not None:
                lines.append("")
            lines.append(f"{shown}:")
            current = shown
        lines.append(
            f"  {finding.line}:{finding.column} {finding.code} {finding.severity}: {finding.message}"
        )
        if finding.hint:
            lines.append(f"    hint: {finding.hint}")
        if details is not None:
            lines.extend(details(finding))
    counts = _counts(findings)
    parts = [_plural(counts[s], s) for s in ("error", "warning") if counts[s]]
    if counts["info"]:
        parts.append(f"{counts['info']} info")
    lines.append("")
    lines.append(f"Found {_plural(len(findings), 'finding')} ({', '.join(parts)}).")
    return lines


def sarif_log(
    findings: Sequence[Finding],
    root: str,
    base: str,
    rules: Mapping[str, LintRule] = RULES,
    guide: str = "the Lint section of docs/authoring.md",
) -> dict[str, Any]:
    """A SARIF 2.1.0 log of ``findings``: every rule of ``rules`` in ``tool.driver.rules``, one result per finding.

    Files below ``base`` are written relative to it (``uriBaseId`` ``%SRCROOT%``,
    which ``originalUriBaseIds`` maps to ``base``); others as absolute file URIs.
    Every URI is percent-encoded as RFC 3986 asks (:func:`_uri_reference`).
    A finding with a ``trace`` (``verify``) also gets a ``codeFlows`` entry, one
    step per host move. ``guide`` is where each rule's help points.
    """
    codes = list(rules)
    driver_rules = [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]},
            "help": {"text": f"{rule.summary}. See {guide}."},
        }
        for rule in rules.values()
    ]
    prefix = base.rstrip(os.sep) + os.sep
    results: list[dict[str, Any]] = []
    for finding in findings:
        path = _absolute(root, finding)
        if path.startswith(prefix):
            artifact: dict[str, Any] = {"uri": _uri_reference(path[len(prefix) :]), "uriBaseId": _SOURCE_ROOT}
        else:
            artifact = {"uri": Path(path).as_uri()}
        physical: dict[str, Any] = {"artifactLocation": artifact}
        if finding.line > 0:
            physical["region"] = {"startLine": finding.line, "startColumn": max(finding.column, 1)}
        location: dict[str, Any] = {"physicalLocation": physical}
        if finding.graph is not None:
            name = finding.node or finding.edge
            location["logicalLocations"] = [
                {
                    "name": name or finding.graph,
                    "fullyQualifiedName": f"{finding.graph}/{name}" if name else finding.graph,
                    "kind": "element" if name else "module",
                }
            ]
        text = f"{finding.message}. Fix: {finding.hint}" if finding.hint else finding.message
        result: dict[str, Any] = {
            "ruleId": finding.code,
            "ruleIndex": codes.index(finding.code),
            "level": _SARIF_LEVEL[finding.severity],
            "message": {"text": text},
            "locations": [location],
        }
        trace = getattr(finding, "trace", ())
        if trace:
            steps = [{"location": {"message": {"text": step.text}}} for step in trace]
            result["codeFlows"] = [{"threadFlows": [{"locations": steps}]}]
        results.append(result)
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "agent-graph",
                        "version": __version__,
                        "rules": driver_rules,
                    }
                },
                "originalUriBaseIds": {_SOURCE_ROOT: {"uri": Path(prefix).as_uri() + "/"}},
                "results": results,
            }
        ],
    }


def cmd_lint(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._runtime.lint import lint

    provider = ctx.provider()
    findings = lint(provider, tests=args.tests, select=_names(args.select), ignore=_names(args.ignore))
    if any(finding.severity == "error" for finding in findings):
        ctx.exit_status = 1
    base = os.getcwd()
    # ``--format sarif`` before the command is parsed by the top-level parser: honour it there too.
    given = getattr(args, "format", None)
    output = args.lint_format or (given if given in ("sarif", "text") else "text")
    if output == "sarif":
        log = sarif_log(findings, provider.root, base)
        return log, [json.dumps(log, ensure_ascii=False, indent=2)]
    counts = _counts(findings)
    answer = {
        "state": "failed" if counts["error"] else "passed",
        "provider": provider.manifest.id,
        "total": len(findings),
        **{f"{severity}s" if severity != "info" else severity: n for severity, n in counts.items()},
        "findings": [finding.to_json() for finding in findings],
    }
    return answer, text_lines(findings, provider.root, base)


def add_commands(commands: Any, groups: Any) -> None:
    """Register ``lint`` on the top-level sub-command parser."""
    lint = commands.add_parser(
        "lint", help="static findings: unreachable nodes, unknown facts, unused files, …"
    )
    add_finding_options(lint, dest="lint_format", prefix="AG1")
    lint.add_argument(
        "--tests", help="graph test file or folder (default: the tests folder beside the manifest)"
    )
    lint.set_defaults(handler=cmd_lint)
