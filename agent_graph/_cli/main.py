"""The ``agent-graph`` command line: read the global options, build the parser, run the command, answer.

Every command answers on stdout (one line of JSON with ``--format json``, short
readable lines otherwise); every failure ends in the ``agent-graph.error.v1``
envelope on stderr (``ERROR <code>: <message>`` in human format) and exit
status 1, never a traceback. The parts: :mod:`agent_graph._cli.parser` (the
global options and every command's parser), the command modules it lists
(:mod:`agent_graph._cli.provider` and the others), what they share
(:mod:`agent_graph._cli.common`) and :mod:`agent_graph._cli.output` (the
answer and the envelope). This module dispatches and maps every failure to
its code.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Sequence

from .._core.errors import AgentGraphError, os_error
from .common import Context
from .output import OUTPUT_FORMATS, answer, fail, silence_stdout
from .parser import build_parser, split_globals

__all__ = ["main"]


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
        return fail(error, output_format)
    except RecursionError:
        return fail(AgentGraphError("input-too-deep", "Input nests too deeply to process"), output_format)
    except MemoryError:
        return fail(AgentGraphError("input-too-large", "Input is too large to process"), output_format)
    except KeyboardInterrupt:
        return fail(AgentGraphError("interrupted", "Interrupted"), output_format)
    except BrokenPipeError:
        silence_stdout()
        return 1
    except OSError as error:  # an operating-system failure no adapter named: still its own code
        where = error.filename if isinstance(error.filename, str) else "a file"
        return fail(os_error(error, where, "use"), output_format)
    except Exception as error:  # a defect: still one envelope, never a traceback
        return fail(
            AgentGraphError("internal-error", f"Unexpected {type(error).__name__}: {error}"), output_format
        )
    if ctx.quiet:
        return ctx.exit_status
    try:
        answer(value, lines, output_format)
    except BrokenPipeError:  # the reader went away: nothing to tell it
        silence_stdout()
        return 1
    except OSError as error:
        silence_stdout()
        return fail(os_error(error, "standard output", "write the answer to"), output_format)
    return ctx.exit_status
