"""Atomic file writes: a temporary file in the same directory, fsync, rename.

A reader sees the previous content or the next, never a truncated file. Run
files, bundles, migrations and generated sources are written through here (the
load cache writes its own entries, each guarded by a digest instead).
"""

from __future__ import annotations

import contextlib
import os
import tempfile


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def write_bytes_atomic(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, creating parent directories."""
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".agent-graph-", suffix=".tmp", dir=directory)
    try:
        # Keep the mode of the file being replaced; a new file gets the usual 0o666 less the umask.
        try:
            mode = os.stat(path).st_mode & 0o7777
        except OSError:
            mode = 0o666 & ~_umask()
        os.chmod(temporary, mode)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    try:
        directory_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(directory_fd)
    except OSError:
        pass
    finally:
        os.close(directory_fd)


def write_text_atomic(path: str, text: str) -> None:
    """Write UTF-8 ``text`` to ``path`` atomically."""
    write_bytes_atomic(path, text.encode("utf-8"))
