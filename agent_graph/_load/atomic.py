"""Writing files: the one module that writes them (a temporary file in the same folder, fsync, rename or link).

A reader sees the previous content or the next, never a truncated file. Run
files, bundles, migrations, imports, scaffolds, materialized views, extracted
schemas, the generated validators and load-cache entries are written through
here. :func:`write_bytes_atomic` replaces a file (``durable=False`` for
load-cache entries, which carry their own digest); :func:`create_exclusive`
creates one and never replaces anything; :class:`FileChanges` writes several,
all or none; :func:`write_staged` writes a file of a folder that is published
later by renaming the folder (a build's working folder), where a temporary
file beside it would be left behind by a kill.

Every operating-system failure becomes an :class:`~agent_graph.AgentGraphError`
with the code :func:`agent_graph._core.errors.os_error` gives it
(``file-permission-denied``, ``path-not-directory``, ``disk-full`` …) and the
path in its message; the temporary file is removed and the target is left as
it was. New files get the usual ``0o666`` less the process umask (applied by
the operating system: the umask is never read or changed here); a replaced
file keeps its mode.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat

from .._core.errors import AgentGraphError, ErrorCode, os_error

__all__ = [
    "FileChanges",
    "create_exclusive",
    "create_folder",
    "fsync_directory",
    "make_directories",
    "write_bytes_atomic",
    "write_staged",
]


def create_folder(path: str, place: str, verb: str) -> bool:
    """Create the one folder ``path``: True when made, False when its name is taken.

    Any other failure raises :func:`~agent_graph._core.errors.os_error` for
    ``place`` and ``verb`` (what the message says was being done where).
    """
    try:
        os.mkdir(path)
    except FileExistsError:
        return False
    except (OSError, ValueError) as error:
        raise os_error(error, place, verb) from None
    return True


def make_directories(directory: str) -> None:
    """Create ``directory`` and its missing parents (coded errors: a regular file in the way is ``path-not-directory``)."""
    try:
        os.makedirs(directory, exist_ok=True)
    except FileExistsError:
        raise AgentGraphError(
            "path-not-directory",
            f"Cannot create the folder {directory}: a file that is not a folder is in the way",
        ) from None
    except (OSError, ValueError) as error:
        raise os_error(error, directory, "create the folder") from None


def _temporary(directory: str) -> tuple[int, str]:
    """A new, empty file beside the target (``0o666`` less the umask), opened for writing."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        path = os.path.join(directory, f".agent-graph-{secrets.token_hex(8)}.tmp")
        try:
            return os.open(path, flags, 0o666), path
        except FileExistsError:
            continue
        except (OSError, ValueError) as error:
            raise os_error(error, directory, "create a file in the folder") from None
    raise AgentGraphError("file-write-failed", f"Cannot create a temporary file in {directory}")


def _fill(
    handle: int, temporary: str, data: bytes, target: str, mode: int | None, durable: bool = True
) -> None:
    """Write, mode and fsync the temporary file (closed in every case)."""
    try:
        with os.fdopen(handle, "wb") as stream:
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(stream.fileno(), mode)
            stream.write(data)
            if durable:
                stream.flush()
                os.fsync(stream.fileno())
    except (OSError, ValueError) as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise os_error(error, target, "write") from None


def fsync_directory(directory: str) -> None:
    """Flush a folder's entries (a rename into it) to disk; a file system that cannot is left as it is."""
    try:
        handle = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def write_bytes_atomic(path: str, data: bytes, *, durable: bool = True) -> None:
    """Write ``data`` to ``path`` atomically, creating parent directories.

    ``durable=False`` skips the flushes to disk, for content that checks itself
    on every read (load-cache entries carry their own digest).
    """
    target = os.path.abspath(path)
    directory = os.path.dirname(target)
    make_directories(directory)
    mode: int | None = None
    try:
        info = os.stat(target)
    except (OSError, ValueError):
        pass
    else:
        if stat.S_ISDIR(info.st_mode):
            raise AgentGraphError("path-is-directory", f"Cannot write {target}: it is a folder")
        mode = info.st_mode & 0o7777
    handle, temporary = _temporary(directory)
    _fill(handle, temporary, data, target, mode, durable)
    try:
        os.replace(temporary, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, (OSError, ValueError)):
            raise os_error(error, target, "replace") from None
        raise
    if durable:
        fsync_directory(directory)


def write_staged(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` in place and flush it to disk, for a folder published later by a rename.

    No temporary file: the folder is invisible (or the file is a marker whose
    content nobody reads) until it is renamed into place, so a half-written
    file is never seen, and a kill leaves nothing beside it.
    """
    try:
        with open(path, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
    except (OSError, ValueError) as error:
        raise os_error(error, path, "write") from None


def _target_exists(path: str, label: str, code: ErrorCode) -> AgentGraphError:
    return AgentGraphError(code, f"{label} refuses to replace an existing path: {path}")


def create_exclusive(
    path: str, data: bytes, label: str, *, exists_code: ErrorCode = "run-target-exists"
) -> None:
    """Write ``data`` to a new file ``path`` atomically; ``exists_code`` if the name is taken.

    The bytes go to a fsynced temporary file that is then hard-linked to
    ``path`` (a link never replaces an existing name). On file systems
    without hard links, an existence check and a rename are used instead.
    """
    target = os.path.abspath(path)
    if os.path.lexists(target):
        raise _target_exists(target, label, exists_code)
    directory = os.path.dirname(target)
    make_directories(directory)
    handle, temporary = _temporary(directory)
    _fill(handle, temporary, data, target, None)
    try:
        try:
            os.link(temporary, target)
        except FileExistsError:
            raise _target_exists(target, label, exists_code) from None
        except ValueError as error:  # a name the file system cannot encode (a lone surrogate)
            raise os_error(error, target, "create") from None
        except OSError as error:
            if error.errno not in (
                errno.EPERM,
                errno.ENOTSUP,
                errno.EOPNOTSUPP,
                errno.EXDEV,
                errno.ENOSYS,
                errno.EMLINK,
            ):
                raise os_error(error, target, "create") from None
            if os.path.lexists(target):
                raise _target_exists(target, label, exists_code) from None
            try:
                os.replace(temporary, target)
            except OSError as replace_error:
                raise os_error(replace_error, target, "create") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    fsync_directory(directory)


# ---------------------------------------------------------------- several files, all or none


class FileChanges:
    """Files a command writes together, undone together when one of them fails.

    :meth:`create` adds a new file (never replacing anything, folders made as
    needed), :meth:`replace` rewrites an existing one, :meth:`remove` deletes
    one; used as a context
    manager, an exception undoes every change made so far (files created and
    folders made are removed, replaced and removed files get their earlier bytes back), so
    a refused or failed command leaves the tree as it found it. Only what this
    object wrote is ever removed.
    """

    def __init__(self, exists_code: ErrorCode = "file-exists", label: str = "Writing") -> None:
        self.exists_code = exists_code
        self.label = label
        self._created: list[str] = []
        self._folders: list[str] = []
        self._replaced: list[tuple[str, bytes]] = []
        self._removed: list[tuple[str, bytes]] = []

    def __enter__(self) -> FileChanges:
        return self

    def __exit__(self, kind: object, error: object, *_: object) -> None:
        if error is not None:
            self.undo()

    def make_folder(self, folder: str) -> None:
        """Create ``folder`` and its missing parents (removed again on undo if they are still empty)."""
        self._make_parents(os.path.join(os.path.abspath(folder), "-"))

    def _make_parents(self, path: str) -> None:
        missing: list[str] = []
        folder = os.path.dirname(path)
        while folder and not os.path.lexists(folder):
            missing.append(folder)
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        for folder in reversed(missing):
            if create_folder(folder, folder, "create the folder"):
                self._folders.append(folder)
        parent = os.path.dirname(path)
        if parent and not os.path.isdir(parent):
            raise AgentGraphError("path-not-directory", f"Cannot create {path}: {parent} is not a folder")

    def create(self, path: str, data: bytes, mode: int | None = None) -> None:
        """Create the new file ``path`` (``exists_code`` if the name is taken)."""
        target = os.path.abspath(path)
        self._make_parents(target)
        create_exclusive(target, data, self.label, exists_code=self.exists_code)
        self._created.append(target)
        if mode is not None:
            try:
                os.chmod(target, mode)
            except OSError as error:
                raise os_error(error, target, "set the mode of") from None

    def replace(self, path: str, data: bytes) -> None:
        """Rewrite the existing file ``path`` atomically (its earlier bytes are kept to undo)."""
        target = os.path.abspath(path)
        try:
            with open(target, "rb") as handle:
                earlier = handle.read()
        except (OSError, ValueError) as error:
            raise os_error(error, target, "read", writing=False) from None
        write_bytes_atomic(target, data)
        self._replaced.append((target, earlier))

    def remove(self, path: str) -> None:
        """Remove the file ``path`` (its bytes are kept to put it back on undo)."""
        target = os.path.abspath(path)
        try:
            with open(target, "rb") as handle:
                earlier = handle.read()
            os.unlink(target)
        except (OSError, ValueError) as error:
            raise os_error(error, target, "remove", writing=True) from None
        self._removed.append((target, earlier))

    def write(self, path: str, data: bytes) -> None:
        """Create ``path``, or rewrite it when it exists (either is undone with the rest)."""
        if os.path.lexists(path):
            self.replace(path, data)
        else:
            self.create(path, data)

    def undo(self) -> None:
        """Put back what this object changed (best effort: a disk that refused a write may refuse this too)."""
        for target, earlier in reversed(self._removed):
            with contextlib.suppress(AgentGraphError):
                write_bytes_atomic(target, earlier)
        for target, earlier in reversed(self._replaced):
            with contextlib.suppress(AgentGraphError):
                write_bytes_atomic(target, earlier)
        for target in reversed(self._created):
            with contextlib.suppress(OSError):
                os.unlink(target)
        for folder in reversed(self._folders):
            with contextlib.suppress(OSError):
                os.rmdir(folder)
        self._created.clear()
        self._folders.clear()
        self._replaced.clear()
        self._removed.clear()
