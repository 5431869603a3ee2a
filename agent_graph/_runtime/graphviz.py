"""Run Graphviz ``dot`` to lay out a diagram as SVG, when it is installed.

The one place agent-graph starts ``dot``: found on ``PATH``, given the DOT
text on standard input, bounded in time, its SVG read from standard output.
A ``dot`` that is missing answers None (callers fall back to their own layout)
unless it is required (``replay-layout-unavailable``); one that fails or
hangs is ``replay-layout-failed`` with what it printed.
"""

from __future__ import annotations

import shutil
import subprocess

from .._core.errors import AgentGraphError

__all__ = ["DOT_TIMEOUT", "run_dot"]

#: Seconds ``dot`` may take for one diagram.
DOT_TIMEOUT = 120.0


def run_dot(source: str, *, required: bool = False, program: str = "dot") -> str | None:
    """The SVG ``dot -Tsvg`` draws for ``source``; None when ``dot`` is not installed (and not ``required``)."""
    executable = shutil.which(program)
    if executable is None:
        if required:
            raise AgentGraphError(
                "replay-layout-unavailable",
                f"Graphviz {program!r} is not on PATH; install Graphviz (Debian: apt-get install graphviz) "
                "or use the built-in layout (--layout builtin)",
            )
        return None
    try:
        done = subprocess.run(
            [executable, "-Tsvg"],
            input=source.encode("utf-8"),
            capture_output=True,
            timeout=DOT_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise AgentGraphError(
            "replay-layout-failed",
            f"Graphviz {executable} took longer than {DOT_TIMEOUT:g} s; use --layout builtin",
        ) from None
    except OSError as error:
        raise AgentGraphError(
            "replay-layout-failed", f"Graphviz {executable} could not be started: {error}"
        ) from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip()[:400]
        raise AgentGraphError(
            "replay-layout-failed", f"Graphviz {executable} exited with status {done.returncode}: {message}"
        )
    return done.stdout.decode("utf-8", "replace")
