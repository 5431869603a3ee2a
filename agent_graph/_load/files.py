"""A loaded Provider's files, read again through the file system it was loaded from.

A :class:`~agent_graph.Provider` keeps the file system it was loaded from
(``provider.file_system``; ``None`` means the operating system's) and uses it
read-only. Every later read of one of its files — an input schema, a static
resource, a materializer's script or output schema, graph tests — goes
through :func:`provider_file_system` and :func:`read_provider_file`, so a
Provider loaded from a :class:`~agent_graph.MemoryFileSystem` never touches
the disk. A file must still have the digest it was loaded with
(``resource-digest-mismatch`` otherwise: load the Provider again).
"""

from __future__ import annotations

from .._core.canonical import digest_bytes
from .._core.errors import AgentGraphError, os_error
from .._core.provider import Provider
from .fs import DEFAULT_READ_LIMIT, FileSystem, OSFileSystem, read_regular_file

__all__ = ["on_disk", "provider_file_system", "read_provider_file"]


def provider_file_system(provider: Provider) -> FileSystem:
    """The file system ``provider`` was loaded from (the operating system's when it kept none)."""
    return provider.file_system if provider.file_system is not None else OSFileSystem()


def on_disk(provider: Provider) -> bool:
    """Whether ``provider`` was loaded from the operating system's file system."""
    return provider.file_system is None or type(provider.file_system) is OSFileSystem


def read_provider_file(
    provider: Provider,
    path: str,
    label: str,
    digest: str | None,
    *,
    max_bytes: int = DEFAULT_READ_LIMIT,
    verify: bool = True,
) -> bytes:
    """The bytes of the Provider file at ``path`` (absolute), read through the Provider's file system.

    ``label`` names the file in messages (``"resource report.brief"``);
    ``digest`` is the digest it was loaded with (``None``: the one the Provider
    recorded for ``path``, if any). A file that cannot be read is
    ``file-read-failed`` (or the code of its operating-system error), one over
    ``max_bytes`` ``file-too-large``, one whose bytes changed since loading
    ``resource-digest-mismatch`` (``verify=False``: the caller compares digests itself).
    """
    expected = None
    if verify:
        expected = digest if digest is not None else provider.file_digests.get(path)
    if on_disk(provider):
        try:
            data = read_regular_file(path, label, max_bytes)
        except AgentGraphError as error:
            if error.code != "file-missing":
                raise
            raise AgentGraphError("file-read-failed", f"Cannot read {label} at {path}: it is gone") from None
    else:
        fs = provider_file_system(provider)
        try:
            if fs.kind(path) != "file":
                raise AgentGraphError("file-read-failed", f"Cannot read {label} at {path}: it is gone")
            size = fs.size(path)
            if size > max_bytes:
                raise AgentGraphError(
                    "file-too-large", f"{path} is {size} bytes, over the limit of {max_bytes} bytes"
                )
            data = fs.read_bytes(path)
        except OSError as error:
            raise os_error(error, path, f"read {label}", writing=False) from None
    if expected is not None:
        actual = digest_bytes(data)
        if actual != expected:
            raise AgentGraphError(
                "resource-digest-mismatch",
                f"{label[:1].upper()}{label[1:]} at {path} changed since the Provider was loaded "
                f"({actual}, not {expected}); load the Provider again",
            )
    return data
