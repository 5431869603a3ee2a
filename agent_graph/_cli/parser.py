"""The parser of the command line: the global options, the commands of every command module, and
where the global options stand.

Global options (``--manifest``, ``--skill``, ``--registry``, ``--format``) are
accepted before or after the command: :func:`split_globals` takes them out
of the arguments wherever they stand, except a ``--format`` whose value is a
command's own format (``mermaid``, ``dot``, ``sarif``, ``text``). The commands
come from the modules of :data:`COMMAND_MODULES`, in that order, each with
``add_commands(subparsers, groups)``; :func:`build_parser` defines only the
command the arguments name, since every sub-command parser costs more than a
small evaluation.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from .._core.errors import AgentGraphError
from .._core.version import PROTOCOL_VERSION, __version__
from . import lint, mcp, provider, replay, runtime, toolchain, verify
from .common import Parser

__all__ = ["COMMAND_MODULES", "GLOBAL_OPTIONS", "build_parser", "split_globals"]

#: Modules that add commands, imported plainly (a broken one fails loudly): each has
#: ``add_commands(subparsers, groups)``. The Provider commands come first: they lead the help and
#: make the ``resource`` group the others add to.
COMMAND_MODULES = (provider, runtime, toolchain, mcp, lint, replay, verify)

GLOBAL_OPTIONS = {
    "--manifest": "manifest",
    "-m": "manifest",
    "--skill": "skill",
    "--registry": "registry",
    "--format": "format",
}


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

    groups: dict[str, Any] = {}
    for module in COMMAND_MODULES:
        module.add_commands(commands, groups)
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
