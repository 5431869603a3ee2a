"""Exclusive OS locks on open files and folders, waited for with a bound.

Run files (``<run>.lock`` sidecars) and ``build`` (a lock on the output's
parent folder itself) take turns through here: ``fcntl.flock`` on POSIX,
``msvcrt.locking`` on Windows. The wait is bounded by the caller's timeout;
the operating system releases a lock when its process dies. The deadline is
read from the caller's monotonic clock (a store's injected one), so a host's
or a test's clock reaches it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import time
from collections.abc import Callable, Iterator

from .._core.errors import AgentGraphError

__all__ = ["held_lock"]


def _try_lock(handle: int) -> bool:
    """Take an exclusive lock on an open file (or folder) without waiting; False if another holder has it."""
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        try:
            msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
            return False
        raise AgentGraphError(
            "file-lock-failed", f"Cannot take a file lock: {error.strerror or error}"
        ) from None
    return True


def _unlock(handle: int) -> None:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        with contextlib.suppress(OSError):
            os.lseek(handle, 0, os.SEEK_SET)
            msvcrt.locking(handle, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    with contextlib.suppress(OSError):
        fcntl.flock(handle, fcntl.LOCK_UN)


@contextlib.contextmanager
def held_lock(
    handle: int,
    seconds: float,
    timed_out: Callable[[], AgentGraphError],
    monotonic: Callable[[], float] | None = None,
) -> Iterator[None]:
    """Hold an exclusive OS lock on the open ``handle`` for the block.

    Waits at most ``seconds`` as ``monotonic`` counts them (default:
    :func:`time.monotonic`), polling with a short backoff, then raises
    ``timed_out()``. The lock is released when the block ends, and by the
    operating system if the process dies; the handle stays open (the caller's).
    """
    clock = monotonic or time.monotonic
    deadline = clock() + seconds
    pause = 0.001
    while not _try_lock(handle):
        if clock() >= deadline:
            raise timed_out()
        time.sleep(pause)
        pause = min(pause * 2, 0.005)
    try:
        yield
    finally:
        _unlock(handle)
