"""What the command line's modules share: the parser class, the context, argument readers.

:mod:`agent_graph._cli.provider` (the commands about one Provider),
:mod:`agent_graph._cli.runtime` (``run …``), :mod:`agent_graph._cli.toolchain`
(authoring commands) and the other command modules import these plainly;
nothing here imports a command module, so there is no cycle. Every failure is
an :class:`~agent_graph.AgentGraphError`.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn

import msgspec

from .._core.errors import AgentGraphError, Diagnostic, ErrorCode, listing, os_error

if TYPE_CHECKING:
    from .._core.model import Blocker, ProofCheck
    from .._core.provider import Provider

__all__ = [
    "Context",
    "EvaluationInput",
    "Handler",
    "Parser",
    "add_evaluation_options",
    "add_finding_options",
    "add_store_options",
    "check_entry",
    "command_group",
    "evaluation_input",
    "json_argument",
    "load_run",
    "load_run_state",
    "object_argument",
    "outcomes_argument",
    "proof_lines",
    "run_file_error",
    "select_graph",
    "store_options",
    "why_lines",
]

#: What ``--store`` names, for the help of every command that takes it.
STORE_HELP = (
    "a Run store: a folder, sqlite:///runs.db, sqlite:////abs/runs.db, postgresql://…, memory:// "
    "or the URL of an installed store (entry points agent_graph.stores)"
)

Handler = Callable[[argparse.Namespace, "Context"], tuple[Any, list[str]]]


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are AgentGraphErrors, not exits."""

    def error(self, message: str) -> NoReturn:
        raise AgentGraphError("argument-invalid", f"{self.prog}: {message}")


def command_group(commands: Any, name: str, help: str, *, dest: str) -> Any:
    """A command that takes a sub-command (``agent-graph NAME WHAT …``): its sub-command parsers.

    The sub-command is required; ``dest`` names the attribute that holds it.
    """
    parser = commands.add_parser(name, help=help)
    group = parser.add_subparsers(dest=dest, metavar="WHAT", parser_class=Parser)
    group.required = True
    return group


def add_finding_options(parser: argparse.ArgumentParser, *, dest: str, prefix: str) -> None:
    """``--format`` (text or SARIF), ``--select`` and ``--ignore``: how a command of rules reports its findings.

    ``dest`` holds the format; ``prefix`` is an example of the rules' code prefixes (``AG1``).
    """
    parser.add_argument(
        "--format",
        dest=dest,
        choices=("text", "human", "sarif"),
        help="text (grouped by file), sarif (SARIF 2.1.0); the global --format json gives JSON",
    )
    parser.add_argument(
        "--select", action="append", help=f"rules to run: codes, prefixes ({prefix}) or names"
    )
    parser.add_argument("--ignore", action="append", help="rules to leave out: codes, prefixes or names")


@dataclass
class Context:
    """What a command handler needs: global options and lazily loaded things."""

    manifest: str = "provider.yaml"
    manifest_given: bool = False
    skill: str | None = None
    registry_path: str | None = None
    format: str = "human"
    exit_status: int = 0
    #: Set by a command that owns standard output itself (``mcp``): nothing more is written there.
    quiet: bool = False
    _provider: Provider | None = field(default=None, repr=False)
    _binding: Any = field(default=None, repr=False)

    def registry(self) -> dict[str, str] | None:
        if self.registry_path is None:
            return None
        from .._load.skill import read_provider_registry

        return read_provider_registry(self.registry_path)

    def binding(self) -> tuple[str, str, str, str, str] | None:
        """``(skill, locator, graph, entry, manifest)`` when ``--skill`` is given."""
        if self.skill is None:
            return None
        if self._binding is None:
            from .._load.skill import locate_binding

            self._binding = locate_binding(self.skill, self.registry())
        result: tuple[str, str, str, str, str] = self._binding
        return result

    def provider(self) -> Provider:
        """The Provider named by ``--skill`` or ``--manifest``, loaded once."""
        if self._provider is None:
            from .._load.loader import load_provider

            binding = self.binding()
            if binding is not None:
                self._provider = load_provider(
                    self.skill or "", registry=self.registry(), cache=True, pause_gc=True
                )
            else:
                if not self.manifest_given and not os.path.exists(self.manifest):
                    raise AgentGraphError(
                        "file-missing",
                        f"No provider.yaml in {os.getcwd()}: run the command in the Provider's folder, "
                        "or name its manifest with --manifest PATH (or a bound Skill with --skill SKILL.md)",
                    )
                # The command line keeps the on-disk load cache and pauses the collector while loading:
                # it is a whole process of its own, unlike a host that imports the library.
                self._provider = load_provider(self.manifest, cache=True, pause_gc=True)
        provider: Provider = self._provider
        return provider


# ---------------------------------------------------------------- arguments


def proof_lines(proof: Iterable[ProofCheck]) -> list[str]:
    """``Proof: report.digest exists ✗``: what proves a route's node done, one line per check."""
    from .._core.why import proof_text

    return [f"Proof: {proof_text(check)}" for check in proof]


def why_lines(blockers: Iterable[Blocker]) -> list[str]:
    """``Why: report/draft unverified: …`` and each unmet check beneath: what holds the Run back."""
    from .._core.why import blocker_lines

    return [
        f"{'Why: ' if not line.startswith(' ') else '    '}{line.strip()}" for line in blocker_lines(blockers)
    ]


def json_argument(value: str, label: str) -> Any:
    """Parse a JSON argument, or read ``@file`` (YAML or JSON by extension)."""
    from .._syntax.parse import DEFAULT_MAX_FILE_BYTES, parse_json, parse_structured

    if value.startswith("@"):
        path = os.path.abspath(value[1:])
        if not os.path.isfile(path):
            from .._load.fs import file_not_found

            raise file_not_found(label, path)
        try:
            size = os.path.getsize(path)
            if size > DEFAULT_MAX_FILE_BYTES:
                raise AgentGraphError(
                    "file-too-large",
                    f"{path} is {size} bytes, over the limit of {DEFAULT_MAX_FILE_BYTES} bytes",
                )
            with open(path, "rb") as handle:
                data = handle.read(DEFAULT_MAX_FILE_BYTES + 1)  # a file that grew is still refused
        except OSError as error:
            raise os_error(error, path, "read", writing=False) from None
        return parse_structured(data, path)
    try:
        return parse_json(value, label)
    except AgentGraphError as error:
        raise AgentGraphError("json-invalid", f"Invalid JSON for {label}: {error.message}") from None


def object_argument(value: str, label: str) -> dict[str, Any]:
    parsed = json_argument(value, label)
    if not isinstance(parsed, dict):
        raise AgentGraphError("json-object-required", f"{label} must be a JSON object")
    return parsed


def outcomes_argument(value: str) -> dict[str, str]:
    from .._core.model import OUTCOMES, expected_outcome

    parsed = object_argument(value, "outcomes")
    for key, outcome in parsed.items():
        if not isinstance(outcome, str) or outcome not in OUTCOMES:
            raise AgentGraphError(
                "outcome-invalid",
                f"--outcomes: the outcome for {key} is {json.dumps(outcome)}; {expected_outcome(outcome)}",
            )
    return parsed


def run_file_error(error: AgentGraphError) -> AgentGraphError:
    """A Run store's error with the code the reference command line gives.

    A missing Run file is ``file-read-failed`` and a file that is not a Run is
    ``schema-invalid`` (or the reading error itself, such as ``parse-failed``);
    the store's finer code (``run-missing``, ``run-invalid``) comes first among
    the diagnostics. Other errors pass unchanged.
    """
    if error.code not in ("run-missing", "run-invalid"):
        return error
    code: ErrorCode = "file-read-failed" if error.code == "run-missing" else "schema-invalid"
    cause = error.__cause__ or error.__context__  # the reading error the store wrapped
    if isinstance(cause, AgentGraphError) and cause.code != "schema-invalid":
        code = cause.code
    first = Diagnostic(code=error.code, severity="error", message=error.message)
    return AgentGraphError(code, error.message, (first, *error.diagnostics))


def load_run_state(path: str, provider_id: str) -> Any:
    """Read a Run file for evaluation input (``file-read-failed``, ``schema-invalid``, ``run-provider-mismatch``)."""
    from .._runtime.runs import FileRunStore

    try:
        return FileRunStore().load(path, provider_id)
    except AgentGraphError as error:
        raise run_file_error(error) from None


def add_store_options(parser: argparse.ArgumentParser, store_help: str = STORE_HELP) -> None:
    """``--store URL`` and ``--store-option KEY=VALUE`` (repeatable), read by :func:`store_options`."""
    parser.add_argument("--store", help=store_help)
    parser.add_argument(
        "--store-option",
        dest="store_option",
        action="append",
        metavar="KEY=VALUE",
        help="an option of the store (repeatable), passed to open_store: a JSON value (pool_size=8, "
        "retries=2, lock_timeout=5) or else text",
    )


def store_options(args: argparse.Namespace) -> dict[str, Any]:
    """The ``--store-option KEY=VALUE`` options: each VALUE read as JSON when it is JSON, else as text."""
    options: dict[str, Any] = {}
    for given in getattr(args, "store_option", None) or ():
        key, separator, text = given.partition("=")
        key = key.strip()
        if not separator or not key.isidentifier():
            raise AgentGraphError(
                "argument-invalid", f"--store-option {given!r:.80} must be KEY=VALUE (pool_size=8, say)"
            )
        if key in options:
            raise AgentGraphError("argument-invalid", f"--store-option {key} is given twice")
        try:
            options[key] = json.loads(text)
        except ValueError:
            options[key] = text
    return options


def load_run(args: argparse.Namespace, provider_id: str) -> Any:
    """The Run named by ``--state PATH`` or ``--store URL --run ID`` (read only)."""
    from .._runtime.stores import open_store

    state, url, ref = getattr(args, "state", None), getattr(args, "store", None), getattr(args, "run", None)
    if state is not None:
        if url is not None or ref is not None:
            raise AgentGraphError(
                "argument-invalid", "Give either --state PATH or --store URL with --run ID, not both"
            )
        return load_run_state(state, provider_id)
    if not ref:
        raise AgentGraphError("argument-invalid", f"--store {url} needs --run ID to name the Run")
    # An empty --store is not the current folder: open_store refuses it (store-url-invalid).
    with open_store("." if url is None else url, **store_options(args)) as store:
        return store.load(ref, provider_id)


@dataclass
class EvaluationInput:
    graph: str
    entry: str
    facts: dict[str, Any]
    outcomes: dict[str, Any]
    authorities: list[str]
    workspace: str | None = None


def evaluation_input(args: argparse.Namespace, ctx: Context) -> EvaluationInput:
    """Graph, entry and state from the evaluation options, a Run (``--state``) and ``--skill``."""
    provider = ctx.provider()
    binding = ctx.binding()
    graph = getattr(args, "graph", None)
    entry = getattr(args, "entry", None)
    facts = object_argument(args.facts, "facts") if getattr(args, "facts", None) else {}
    outcomes = outcomes_argument(args.outcomes) if getattr(args, "outcomes", None) else {}
    authorities = list(getattr(args, "authority", None) or [])
    workspace = None
    if any(getattr(args, name, None) is not None for name in ("state", "store", "run")):
        run = load_run(args, provider.manifest.id)
        facts = {**run.facts, **facts}
        outcomes = {**{k: msgspec.to_builtins(v) for k, v in run.outcomes.items()}, **outcomes}
        authorities = sorted({*run.authorities, *authorities})
        graph = graph or run.graph
        entry = entry or run.entry
        workspace = run.workspace
    if binding is not None:
        graph = graph or binding[2]
        entry = entry or binding[3]
    graph = select_graph(provider, graph, getattr(args, "command", None) or "evaluate")
    entry = entry or "default"
    check_entry(provider, graph, entry)
    return EvaluationInput(graph, entry, facts, outcomes, authorities, workspace)


def select_graph(provider: Provider, graph: str | None, command: str) -> str:
    """The Graph a command works on: the one named, else ``graph-selection-missing`` (never a guess)."""
    if graph is None:
        raise AgentGraphError(
            "graph-selection-missing",
            f"Name the graph: agent-graph {command} GRAPH (or --skill SKILL.md, or --state RUN.json); "
            f"the graphs of Provider {provider.manifest.id}: {listing(provider.graphs)}",
        )
    if graph not in provider.graphs:
        raise provider.graph_missing(graph)
    return graph


def check_entry(provider: Provider, graph: str, entry: str) -> None:
    """A command named an entry its Graph lacks: ``entry-missing``, a failure of the command."""
    if entry not in provider.graphs[graph].definition.entrypoints:
        raise provider.entry_missing(graph, entry)


def add_evaluation_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--entry", help="graph entrypoint (default: default)")
    parser.add_argument("--state", help="a Run file (agent-graph.run.v1) to evaluate")
    add_store_options(parser, STORE_HELP + ", holding --run")
    parser.add_argument("--run", help="the Run to evaluate in --store")
    parser.add_argument("--facts", help="facts as a JSON object or @file")
    parser.add_argument("--outcomes", help="outcomes (state key → outcome) as a JSON object or @file")
    parser.add_argument("--authority", nargs="+", action="extend", help="session authorities")
