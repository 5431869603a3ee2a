"""Filesystem adapters: the only place where the loader touches storage.

The loader and bundle code never call :mod:`os` directly; they take a
:class:`FileSystem` (the OS by default, :class:`MemoryFileSystem` for hosts and
tests). Paths handed to a file system are absolute POSIX-style strings. This
module knows nothing of Providers, graphs or the protocol.
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
import stat as stat_module
from collections.abc import Mapping

from .._core.errors import AgentGraphError, os_error
from .._core.filesystem import EntryKind, FileSystem

__all__ = [
    "DEFAULT_READ_LIMIT",
    "EntryKind",
    "FileSystem",
    "MemoryFileSystem",
    "OSFileSystem",
    "contained_path",
    "file_not_found",
    "inside",
    "read_regular_file",
]


class OSFileSystem:
    """The operating system's file system."""

    def kind(self, path: str) -> EntryKind | None:
        try:
            mode = os.stat(path).st_mode
        except (OSError, ValueError):
            return None
        if stat_module.S_ISREG(mode):
            return "file"
        if stat_module.S_ISDIR(mode):
            return "directory"
        return "other"

    def read_bytes(self, path: str) -> bytes:
        with open(path, "rb") as handle:
            return handle.read()

    def size(self, path: str) -> int:
        return os.stat(path).st_size

    def realpath(self, path: str) -> str:
        return os.path.realpath(path)

    def list_files(self, directory: str) -> list[str]:
        found: list[str] = []
        pending = [directory]
        while pending:
            current = pending.pop()
            try:
                entries = list(os.scandir(current))
            except OSError:
                continue
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    found.append(entry.path)
        found.sort()
        return found

    def absolute(self, path: str) -> str:
        return os.path.normpath(os.path.abspath(path))


class MemoryFileSystem:
    """An in-memory file system that hosts and tests fill with files.

    >>> fs = MemoryFileSystem({"/p/provider.yaml": "schema: agent-graph.provider.v1\\n"})
    >>> fs.kind("/p/provider.yaml")
    'file'

    ``links`` maps a path to the target of a symbolic link (absolute, or
    relative to the link's directory).
    """

    def __init__(
        self,
        files: Mapping[str, bytes | str] | None = None,
        *,
        links: Mapping[str, str] | None = None,
        cwd: str = "/",
    ) -> None:
        self._files: dict[str, bytes] = {}
        self._links: dict[str, str] = {}
        # Made again after a change: the folders, the files in order, resolved paths.
        self._dirs: set[str] | None = None
        self._sorted: list[str] | None = None
        self._real: dict[str, str] = {}
        self.cwd = posixpath.normpath(cwd)
        for path, content in (files or {}).items():
            self.write(path, content)
        for path, target in (links or {}).items():
            self.link(path, target)

    def write(self, path: str, content: bytes | str) -> None:
        """Add or replace a file."""
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        self._files[self.absolute(path)] = data
        self._changed()

    def link(self, path: str, target: str) -> None:
        """Add a symbolic link at ``path`` pointing to ``target``."""
        self._links[self.absolute(path)] = target
        self._changed()

    def remove(self, path: str) -> None:
        """Remove a file or link (no error if absent)."""
        key = self.absolute(path)
        self._files.pop(key, None)
        self._links.pop(key, None)
        self._changed()

    def _changed(self) -> None:
        self._dirs = None
        self._sorted = None
        self._real = {}

    @property
    def files(self) -> dict[str, bytes]:
        """A copy of the stored files."""
        return dict(self._files)

    def absolute(self, path: str) -> str:
        return posixpath.normpath(posixpath.join(self.cwd, path))

    def realpath(self, path: str) -> str:
        absolute = self.absolute(path)
        known = self._real.get(absolute)
        if known is not None:
            return known
        resolved = self._resolve(absolute)
        if len(self._real) < 100_000:  # a bound: a host may look up any number of paths
            self._real[absolute] = resolved
        return resolved

    def _resolve(self, absolute: str) -> str:
        parts = [p for p in absolute.split("/") if p]
        resolved = "/"
        hops = 0
        while parts:
            candidate = posixpath.join(resolved, parts.pop(0))
            target = self._links.get(candidate)
            if target is None:
                resolved = candidate
                continue
            hops += 1
            if hops > 40:
                return candidate
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(candidate), target))
            parts = [p for p in joined.split("/") if p] + parts
            resolved = "/"
        return resolved

    def _directories(self) -> set[str]:
        if self._dirs is not None:
            return self._dirs
        dirs = {"/"}
        for path in list(self._files) + list(self._links):
            parent = posixpath.dirname(path)
            while parent not in dirs:
                dirs.add(parent)
                parent = posixpath.dirname(parent)
        self._dirs = dirs
        return dirs

    def kind(self, path: str) -> EntryKind | None:
        real = self.realpath(path)
        if real in self._files:
            return "file"
        if real in self._directories():
            return "directory"
        return None

    def read_bytes(self, path: str) -> bytes:
        real = self.realpath(path)
        try:
            return self._files[real]
        except KeyError:
            raise FileNotFoundError(path) from None

    def size(self, path: str) -> int:
        return len(self.read_bytes(path))

    def list_files(self, directory: str) -> list[str]:
        base = self.absolute(directory).rstrip("/") + "/"
        if self._sorted is None:
            self._sorted = sorted(self._files)
        ordered = self._sorted
        found = []
        for index in range(bisect.bisect_left(ordered, base), len(ordered)):
            path = ordered[index]
            if not path.startswith(base):
                break
            # Entries reached through a link are not regular files of this tree.
            rest = path[len(base) :].split("/")
            prefix = base.rstrip("/")
            through_link = False
            for part in rest:
                prefix = f"{prefix}/{part}"
                if prefix in self._links:
                    through_link = True
                    break
            if not through_link:
                found.append(path)
        found.sort()
        return found


def file_not_found(label: str, path: str) -> AgentGraphError:
    """``file-read-failed`` for a file named on purpose that is not there (a ``file-missing`` diagnostic)."""
    from .._core.errors import Diagnostic

    message = f"Cannot read the {label} file {path}: it does not exist"
    return AgentGraphError(
        "file-read-failed",
        message,
        [Diagnostic(code="file-missing", severity="error", message=message, path=path)],
    )


#: The largest file :func:`read_regular_file` reads unless told otherwise (as the loader's default).
DEFAULT_READ_LIMIT = 32 * 1024 * 1024


def read_regular_file(path: str, label: str, max_bytes: int = DEFAULT_READ_LIMIT) -> bytes:
    """Read a regular file of the OS, refusing anything else and anything too large.

    A missing path, a directory, a FIFO or a device is ``file-missing`` (nothing
    is opened, so nothing blocks); a file over ``max_bytes`` is ``file-too-large``
    before it is read; an unreadable one is ``file-read-failed``.
    """
    try:
        info = os.stat(path)
    except PermissionError as error:
        raise os_error(error, path, f"read the {label}", writing=False) from None
    except (OSError, ValueError):
        raise AgentGraphError("file-missing", f"{label} does not exist: {path}") from None
    if not stat_module.S_ISREG(info.st_mode):
        raise AgentGraphError("file-missing", f"{label} does not exist: {path}")
    if info.st_size > max_bytes:
        raise AgentGraphError(
            "file-too-large", f"{path} is {info.st_size} bytes, over the limit of {max_bytes} bytes"
        )
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as error:
        raise os_error(error, path, f"read the {label}", writing=False) from None
    if len(data) > max_bytes:
        raise AgentGraphError("file-too-large", f"{path} is over the limit of {max_bytes} bytes")
    return data


# ---------------------------------------------------------------- Provider-relative paths

WINDOWS_ABSOLUTE = re.compile(r"^[A-Za-z]:[\\/]")


def contained_path(root: str, reference: str, label: str) -> str:
    """Resolve a Provider-relative reference, refusing absolute paths and escapes."""
    if reference.startswith("/") or WINDOWS_ABSOLUTE.match(reference):
        raise AgentGraphError("absolute-path-forbidden", f"{label} must be relative: {reference}")
    resolved = posixpath.normpath(posixpath.join(root, reference))
    if not inside(resolved, posixpath.normpath(root)):
        raise AgentGraphError("path-outside-provider", f"{label} escapes the provider root: {reference}")
    return resolved


def inside(path: str, root: str) -> bool:
    """Whether normalised absolute ``path`` is ``root`` or below it (what ``relpath`` not leaving it means)."""
    return path == root or path.startswith(root if root.endswith("/") else root + "/")
