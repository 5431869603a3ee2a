"""Providers built in memory from dicts, for hosts' tests: :class:`MemoryProviderFileSystem`.

Nothing here imports pytest: a host's own test harness (unittest, a fixture of
its own, a script) builds a Provider from plain data the same way the
``agent_graph_memory_fs`` pytest fixture does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._load.fs import MemoryFileSystem

if TYPE_CHECKING:
    from .._core.provider import Provider

__all__ = ["MemoryProviderFileSystem"]


class MemoryProviderFileSystem(MemoryFileSystem):
    """A :class:`~agent_graph.MemoryFileSystem` rooted at ``/provider`` that writes dicts as YAML or JSON.

    >>> fs = MemoryProviderFileSystem()
    >>> fs.add("graphs/main.yaml", {"schema": "agent-graph.graph.v1", "id": "main"})
    '/provider/graphs/main.yaml'
    """

    def __init__(self, files: Mapping[str, Any] | None = None, *, root: str = "/provider") -> None:
        super().__init__(cwd=root)
        self.root = self.cwd
        for path, content in (files or {}).items():
            self.add(path, content)

    def add(self, path: str, content: Any) -> str:
        """Write one file: text or bytes as given, other JSON data as YAML (JSON for ``.json``). Returns its path."""
        if isinstance(content, (str, bytes, bytearray)):
            self.write(path, bytes(content) if isinstance(content, bytearray) else content)
        elif path.lower().endswith(".json"):
            self.write(path, json.dumps(content, indent=2, ensure_ascii=False) + "\n")
        else:
            from .._toolchain.scaffold import dump_yaml

            self.write(path, dump_yaml(content))
        return self.absolute(path)

    def load(self, manifest: str = "provider.yaml") -> Provider:
        """Load the Provider whose manifest is at ``manifest`` (relative to the root)."""
        from .._load.loader import load_provider

        return load_provider(self.absolute(manifest), fs=self)
