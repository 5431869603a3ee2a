"""Skill bindings: from a ``SKILL.md`` to the Provider, Graph and Entry it selects.

A bound Skill declares ``metadata.agent-graph`` (a ``path:`` locator relative to
the ``SKILL.md`` or a ``provider:`` locator a host registry resolves),
``metadata.agent-graph.graph`` and ``metadata.agent-graph.entry``. The three are
validated together; an Agent never infers them from prose. File access goes
through the injected file system.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import Any

from .._core.checks import closest_names
from .._core.errors import AgentGraphError, os_error
from .._core.provider import Provider
from .._syntax.parse import DEFAULT_MAX_FILE_BYTES, parse_front_matter, parse_structured
from .._syntax.yaml_events import locate_pointers
from .fs import WINDOWS_ABSOLUTE, FileSystem, OSFileSystem, file_not_found


def _read_text(fs: FileSystem, path: str, label: str, max_bytes: int) -> str:
    if fs.kind(path) != "file":
        raise file_not_found(label, path)
    try:
        if fs.size(path) > max_bytes:
            raise AgentGraphError("file-too-large", f"{path} is over the limit of {max_bytes} bytes")
        return fs.read_bytes(path).decode("utf-8", errors="replace")
    except OSError as error:
        raise os_error(error, path, "read", writing=False) from None


#: The largest text whose positions are looked up for a message.
_MAX_LOCATED_TEXT = 2 * 1024 * 1024


def front_matter_position(text: str, pointer: str, max_depth: int = 512) -> tuple[int, int, int, int] | None:
    """Where the value at JSON ``pointer`` of a Markdown file's front matter is written in ``text``.

    ``(key line, key column, value line, value column)``, 1-based and counted
    in the whole file; None when there is no front matter or the pointer is not
    found (positions only ever help a message).
    """
    lines = text.split("\n")
    if not lines or lines[0].rstrip("\r") != "---" or len(text) > _MAX_LOCATED_TEXT:
        return None
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r") == "---"), len(lines))
    found = locate_pointers("\n".join(lines[1:end]), {pointer}, max_depth).get(pointer)
    if found is None:
        return None
    return found[0] + 1, found[1], found[2] + 1, found[3]


def _placed(
    fs: FileSystem, path: str, pointer: str, max_bytes: int = DEFAULT_MAX_FILE_BYTES, *, key: bool = False
) -> str:
    """``path:line:column`` of the front-matter value (``key=True``: its key) at ``pointer``, else just ``path``."""
    try:
        found = front_matter_position(_read_text(fs, path, "skill", max_bytes), pointer)
    except AgentGraphError:
        found = None
    if found is None:
        return path
    return f"{path}:{found[0]}:{found[1]}" if key else f"{path}:{found[2]}:{found[3]}"


def read_skill_binding(
    skill_md: str, fs: FileSystem | None = None, *, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
) -> tuple[str, str, str]:
    """The ``(locator, graph, entry)`` a ``SKILL.md`` declares, trimmed; ``skill-binding-missing`` if incomplete."""
    fs = fs or OSFileSystem()
    path = fs.absolute(skill_md)
    metadata, _ = parse_front_matter(_read_text(fs, path, "skill", max_file_bytes), path)
    extension = metadata.get("metadata")
    if not isinstance(extension, Mapping):
        raise AgentGraphError("skill-binding-missing", f"Skill {path} does not declare Agent Graph metadata")
    values: list[str] = []
    for key in ("agent-graph", "agent-graph.graph", "agent-graph.entry"):
        value = extension.get(key)
        if not isinstance(value, str) or not value.strip():
            where = _placed(
                fs, path, f"/metadata/{key}" if key in extension else "/metadata", max_file_bytes, key=True
            )
            state = "is empty or not a string" if key in extension else "is missing"
            raise AgentGraphError(
                "skill-binding-missing", f"{where}: Skill {path} does not declare metadata.{key} (it {state})"
            )
        values.append(value.strip())
    return values[0], values[1], values[2]


def read_provider_registry(path: str, fs: FileSystem | None = None) -> dict[str, str]:
    """Read a registry file: ``{providers: {id: manifest}}`` or ``{id: manifest}``, paths relative to the file."""
    fs = fs or OSFileSystem()
    absolute = fs.absolute(path)
    if fs.kind(absolute) != "file":
        raise AgentGraphError("file-missing", f"provider registry does not exist: {absolute}")
    try:
        size = fs.size(absolute)
        if size > DEFAULT_MAX_FILE_BYTES:
            raise AgentGraphError(
                "file-too-large",
                f"{absolute} is {size} bytes, over the limit of {DEFAULT_MAX_FILE_BYTES} bytes",
            )
        data = fs.read_bytes(absolute)
    except OSError as error:
        raise os_error(error, absolute, "read", writing=False) from None
    parsed = parse_structured(data, absolute)
    if not isinstance(parsed, dict):
        raise AgentGraphError("registry-invalid", f"Provider registry must be an object: {path}")
    candidate: Any = parsed.get("providers", parsed)
    if not isinstance(candidate, dict):
        raise AgentGraphError("registry-invalid", f"Provider registry providers must be an object: {path}")
    result: dict[str, str] = {}
    base = posixpath.dirname(absolute)
    for provider_id, manifest in candidate.items():
        if not isinstance(manifest, str):
            raise AgentGraphError("registry-invalid", f"Provider {provider_id} must map to a manifest path")
        result[provider_id] = posixpath.normpath(posixpath.join(base, manifest))
    return result


def locate_binding(
    skill_md: str,
    registry: Mapping[str, str] | None = None,
    *,
    fs: FileSystem | None = None,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
) -> tuple[str, str, str, str, str]:
    """``(skill path, locator, graph, entry, manifest path)`` of a ``SKILL.md``, without loading the Provider."""
    fs = fs or OSFileSystem()
    path = fs.absolute(skill_md)
    locator, graph, entry = read_skill_binding(path, fs, max_file_bytes=max_file_bytes)
    if locator.startswith("path:"):
        reference = locator[len("path:") :]
        if not reference:
            raise AgentGraphError(
                "skill-locator-invalid",
                f"{_placed(fs, path, '/metadata/agent-graph')}: Skill path locator is empty: {path}",
            )
        if reference.startswith("/") or WINDOWS_ABSOLUTE.match(reference):
            raise AgentGraphError(
                "skill-locator-absolute",
                f"{_placed(fs, path, '/metadata/agent-graph')}: Skill path locator must be relative: {path}",
            )
        manifest_path = posixpath.normpath(posixpath.join(posixpath.dirname(path), reference))
        if fs.kind(manifest_path) != "file":
            raise AgentGraphError(
                "file-missing",
                f"skill provider manifest does not exist: {manifest_path} "
                f"(named by metadata.agent-graph at {_placed(fs, path, '/metadata/agent-graph')})",
            )
    elif locator.startswith("provider:"):
        provider_id = locator[len("provider:") :]
        registered = (registry or {}).get(provider_id)
        if not registered:
            raise AgentGraphError(
                "provider-unresolved",
                f"Provider {provider_id} is not available; supply a host registry or --registry",
            )
        manifest_path = fs.absolute(registered)
    else:
        raise AgentGraphError(
            "skill-locator-invalid",
            f"{_placed(fs, path, '/metadata/agent-graph')}: Unsupported agent-graph locator in {path}: {locator} "
            "(use path:RELATIVE/provider.yaml or provider:PROVIDER-ID)",
        )
    if fs.kind(manifest_path) != "file":
        raise AgentGraphError("file-missing", f"registered provider manifest does not exist: {manifest_path}")
    return path, locator, graph, entry, manifest_path


def check_binding(
    provider: Provider, path: str, locator: str, graph: str, entry: str, fs: FileSystem | None = None
) -> None:
    """The checks a loaded Provider must pass for a binding (``fs`` reads the ``SKILL.md`` to place an error)."""
    fs = fs or OSFileSystem()
    if locator.startswith("provider:") and provider.manifest.id != locator[len("provider:") :]:
        raise AgentGraphError(
            "provider-id-mismatch",
            f"Registry key {locator[len('provider:') :]} resolved to Provider {provider.manifest.id}",
        )
    compiled = provider.graphs.get(graph)
    if compiled is None:
        raise AgentGraphError(
            "skill-graph-missing",
            f"{_placed(fs, path, '/metadata/agent-graph.graph')}: Skill {path} selects missing Graph {graph}"
            + closest_names(graph, provider.graphs, f"graphs of Provider {provider.manifest.id}"),
        )
    if entry not in compiled.entrypoints:
        raise AgentGraphError(
            "skill-entry-missing",
            f"{_placed(fs, path, '/metadata/agent-graph.entry')}: Skill {path} selects missing Entry "
            f"{graph}#{entry}" + closest_names(entry, compiled.entrypoints, f"entries of graph {graph}"),
        )
