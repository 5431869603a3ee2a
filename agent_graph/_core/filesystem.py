"""What the loader needs from storage: the :class:`FileSystem` protocol (no I/O here).

The protocol lives in the core because a loaded :class:`~agent_graph.Provider`
keeps the file system it was loaded from; the implementations (the operating
system's, :class:`~agent_graph.MemoryFileSystem`) are in
:mod:`agent_graph._load.fs`.
"""

from __future__ import annotations

from typing import Literal, Protocol, runtime_checkable

__all__ = ["EntryKind", "FileSystem"]

EntryKind = Literal["file", "directory", "other"]


@runtime_checkable
class FileSystem(Protocol):
    """What the loader needs from storage. Paths are absolute and ``/``-separated."""

    def kind(self, path: str) -> EntryKind | None:
        """The kind of entry at ``path`` after following symbolic links, or None if nothing is there."""
        ...

    def read_bytes(self, path: str) -> bytes:
        """The whole content of the regular file at ``path`` (raises OSError on failure)."""
        ...

    def size(self, path: str) -> int:
        """The size in bytes of the regular file at ``path``."""
        ...

    def realpath(self, path: str) -> str:
        """``path`` with every symbolic link resolved."""
        ...

    def list_files(self, directory: str) -> list[str]:
        """Every regular file below ``directory`` (recursively, not following links), sorted by path."""
        ...

    def absolute(self, path: str) -> str:
        """``path`` made absolute against the file system's working directory, normalised."""
        ...
