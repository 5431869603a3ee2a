"""agent-graph run in the test's own process: a refused call's code, the command line in a folder, and a
guard against hangs.

:func:`code_of` answers the code of the :class:`~agent_graph.AgentGraphError`
a call raises (and fails the test when it raises none); :func:`run_cli`
answers the exit status and both streams of one ``agent-graph … --format
json``; :func:`chdir` runs a block in another folder; :func:`within` fails a
block that has not answered after a generous time (a hang guard, not a speed
test: nothing here depends on the machine's speed).
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from agent_graph._cli.main import main

__all__ = ["SECONDS", "Hang", "chdir", "code_of", "run_cli", "within"]

#: Longer than any answer takes, however loaded the machine: a block still running then hangs.
SECONDS = 60.0


class Hang(BaseException):
    """Raised by the alarm: not an Exception, so no catch-all on the way (the CLI's) swallows it."""


def code_of(call: Callable[[], Any]) -> str:
    """The code of the AgentGraphError ``call()`` raises."""
    with pytest.raises(ag.AgentGraphError) as caught:
        call()
    return caught.value.code


@contextlib.contextmanager
def within(seconds: float = SECONDS) -> Iterator[None]:
    """Fail (instead of hanging forever) when the block runs longer than ``seconds``; POSIX only."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def chdir(path: Path) -> Iterator[None]:
    """Run the block in ``path`` as the working folder, and come back."""
    previous = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(previous)


def run_cli(arguments: Sequence[str], cwd: Path) -> tuple[int, str, str]:
    """``agent-graph <arguments> --format json`` in ``cwd``: its exit status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([*arguments, "--format", "json"])
    return status, out.getvalue(), err.getvalue()
