"""Migration of a 0.2 Provider to the 0.3 resource protocols, in place.

0.3.0 replaced ``agent-graph.resource.v1`` descriptors by one protocol per
kind of resource: a descriptor of a static file (any kind but
``context-view``, keeping ``path``) becomes ``agent-graph.resource.file.v1``
and a context view (``materializer``) becomes
``agent-graph.resource.graph-action.v1``; the manifest's
``compatibility.agentGraph`` range, when it excludes 0.3.1, becomes ``^0.3.0``.
A 0.2 Provider does not load any more, so the migration follows the
references itself: manifest → Graphs → node and delegated resources, and the
Code Catalog's documents. Every change is planned and checked against its new
schema before the first file is written; files are rewritten atomically and
keep their comments and layout. This module is an authoring adapter: it reads
and writes the operating system's files.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from .._core.errors import AgentGraphError
from .._core.semver import TOOLCHAIN_VERSION, satisfies
from .._load.atomic import FileChanges
from .._syntax import schema as _schema
from .._syntax.parse import parse_structured
from .scaffold import check_written_source, edit_or_dump

__all__ = ["MigrationChange", "MigrationReport", "migrate_provider", "plan_migration"]

LEGACY_RESOURCE = "agent-graph.resource.v1"
FILE_RESOURCE = "agent-graph.resource.file.v1"
GRAPH_ACTION_RESOURCE = "agent-graph.resource.graph-action.v1"
TARGET_RANGE = "^0.3.0"
_SCHEMA_NAMES = {FILE_RESOURCE: "resource-file", GRAPH_ACTION_RESOURCE: "resource-graph-action"}


class MigrationChange(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """One change: the file (Provider-relative), the field, its old and new value, and why."""

    path: str
    field: str
    before: Any
    after: Any
    reason: str


class MigrationReport(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """What ``migrate`` did (or, with ``dry_run``, would do)."""

    state: str
    manifest: str
    dry_run: bool
    changes: tuple[MigrationChange, ...]
    files: tuple[str, ...]


@dataclass(frozen=True)
class _Plan:
    root: str
    manifest_path: str
    changes: tuple[MigrationChange, ...]
    rewrites: dict[str, str]


def _read(path: str, label: str) -> tuple[str, Any]:
    from .._load.fs import read_regular_file

    data = read_regular_file(path, label)
    return data.decode("utf-8", errors="replace"), parse_structured(data, path)


def _contained(root: str, reference: Any, label: str) -> str:
    from .._load.fs import contained_path

    if not isinstance(reference, str) or not reference:
        raise AgentGraphError("schema-invalid", f"{label} must be a non-empty relative path")
    return contained_path(root, reference, label)


def _node_resources(graph: Any) -> Iterator[Any]:
    """Every resource reference of a parsed Graph: node resources, then delegated resources."""
    nodes = graph.get("nodes") if isinstance(graph, Mapping) else None
    for node in nodes if isinstance(nodes, list) else ():
        if not isinstance(node, Mapping):
            continue
        holders = [node.get("resources")]
        delegated = node.get("delegated")
        if isinstance(delegated, Mapping):
            holders.append(delegated.get("resources"))
        for holder in holders:
            if not isinstance(holder, Mapping):
                continue
            for key in ("required", "recommended"):
                references = holder.get(key)
                if isinstance(references, list):
                    yield from references


def _schema_edit(old: str, new: str) -> Callable[[str], str | None]:
    """Rewrite the value of the top-level ``schema`` key, quoted or not, YAML or JSON."""
    yaml_line = re.compile(rf"^(schema:[ \t]*)(['\"]?){re.escape(old)}\2([ \t]*(?:#.*)?)$", re.MULTILINE)
    json_pair = re.compile(rf"(\"schema\"\s*:\s*)\"{re.escape(old)}\"")

    def edit(text: str) -> str | None:
        for pattern, replacement in (
            (yaml_line, rf"\g<1>\g<2>{new}\g<2>\g<3>"),
            (json_pair, rf"\g<1>\"{new}\""),
        ):
            result, count = pattern.subn(replacement, text)
            if count == 1:
                return result
        return None

    return edit


def _range_edit(old: str, new: str) -> Callable[[str], str | None]:
    """Rewrite the ``agentGraph`` value (YAML block or flow mapping, or JSON)."""
    quoted = rf"(?:\"{re.escape(old)}\"|'{re.escape(old)}'|{re.escape(old)})"
    patterns = (
        re.compile(rf"^([ \t]+agentGraph:[ \t]*){quoted}([ \t]*(?:#.*)?)$", re.MULTILINE),
        re.compile(rf"(agentGraph:[ \t]*){quoted}([ \t]*[,}}])"),
        re.compile(rf"(\"agentGraph\"\s*:\s*)\"{re.escape(old)}\"()"),
    )

    def edit(text: str) -> str | None:
        for index, pattern in enumerate(patterns):
            value = f'"{new}"' if index == 2 else new

            def replace(match: re.Match[str], value: str = value) -> str:
                return f"{match.group(1)}{value}{match.group(2)}"

            result, count = pattern.subn(replace, text)
            if count == 1:
                return result
        return None

    return edit


def plan_migration(manifest: str) -> _Plan:
    """Every change the migration of the Provider at ``manifest`` makes, with the new file texts.

    Fails (writing nothing) with the loader's codes for missing or unreadable
    files and ``migration-descriptor-invalid`` when a migrated descriptor
    would not match its 0.3 schema.
    """
    manifest_path = os.path.abspath(manifest)
    root = os.path.dirname(manifest_path)
    posix_root = root.replace(os.sep, "/")

    def rel(path: str) -> str:
        return posixpath.relpath(path.replace(os.sep, "/"), posix_root)

    manifest_text, parsed = _read(manifest_path, "provider manifest")
    if not isinstance(parsed, Mapping) or parsed.get("schema") != "agent-graph.provider.v1":
        raise AgentGraphError("schema-invalid", f"{manifest_path} is not an agent-graph.provider.v1 manifest")
    changes: list[MigrationChange] = []
    rewrites: dict[str, str] = {}

    def rewrite(
        path: str,
        text: str,
        expected: Any,
        edit: Callable[[str], str | None],
        field: str,
        before: str,
        after: str,
        reason: str,
    ) -> None:
        """Plan ``path`` rewritten by ``edit`` (checked to read back as ``expected``): ``field`` from ``before`` to ``after``."""
        rewrites[path] = edit_or_dump(text, expected, [edit], path=path)
        check_written_source(path, rewrites[path].encode("utf-8"), expected)
        changes.append(
            MigrationChange(path=rel(path), field=field, before=before, after=after, reason=reason)
        )

    compatibility = parsed.get("compatibility")
    declared = compatibility.get("agentGraph") if isinstance(compatibility, Mapping) else None
    if isinstance(declared, str) and not satisfies(TOOLCHAIN_VERSION, declared):
        expected = {**parsed, "compatibility": {**compatibility, "agentGraph": TARGET_RANGE}}  # type: ignore[dict-item]
        rewrite(
            manifest_path,
            manifest_text,
            expected,
            _range_edit(declared, TARGET_RANGE),
            "compatibility.agentGraph",
            declared,
            TARGET_RANGE,
            f"the declared range excludes agent-graph {TOOLCHAIN_VERSION}",
        )

    references: dict[str, None] = {}
    graphs = parsed.get("graphs")
    for reference in graphs if isinstance(graphs, list) else ():
        graph_path = _contained(posix_root, reference, "graph reference")
        _, graph = _read(graph_path, "graph")
        for resource in _node_resources(graph):
            references[_contained(posix_root, resource, "resource reference")] = None
    catalogs = parsed.get("catalogs")
    catalog_reference = catalogs.get("codes") if isinstance(catalogs, Mapping) else None
    if catalog_reference is not None:
        catalog_path = _contained(posix_root, catalog_reference, "code catalog reference")
        _, catalog = _read(catalog_path, "code catalog")
        entries = catalog.get("codes") if isinstance(catalog, Mapping) else None
        for entry in entries if isinstance(entries, list) else ():
            if isinstance(entry, Mapping) and entry.get("document") is not None:
                references[_contained(posix_root, entry["document"], "code document reference")] = None

    for path in references:
        if posixpath.splitext(path)[1].lower() not in (".yaml", ".yml", ".json"):
            continue
        text, descriptor = _read(path, "resource")
        if not isinstance(descriptor, Mapping) or descriptor.get("schema") != LEGACY_RESOURCE:
            continue
        dynamic = descriptor.get("kind") == "context-view"
        new_schema = GRAPH_ACTION_RESOURCE if dynamic else FILE_RESOURCE
        migrated = {**descriptor, "schema": new_schema}
        try:
            _schema.validate(_SCHEMA_NAMES[new_schema], migrated, path)
        except AgentGraphError as error:
            raise AgentGraphError(
                "migration-descriptor-invalid",
                f"{path} cannot become {new_schema}: {error.message}",
                error.diagnostics,
            ) from None
        rewrite(
            path,
            text,
            migrated,
            _schema_edit(LEGACY_RESOURCE, new_schema),
            "schema",
            LEGACY_RESOURCE,
            new_schema,
            "a context view materialized by an Action" if dynamic else "a static file resource (path kept)",
        )
    return _Plan(root=root, manifest_path=manifest_path, changes=tuple(changes), rewrites=rewrites)


def migrate_provider(manifest: str = "provider.yaml", *, dry_run: bool = False) -> MigrationReport:
    """Rewrite the 0.2 Provider at ``manifest`` to 0.3 in place and report each change.

    With ``dry_run`` nothing is written. Running it again on a migrated
    Provider changes nothing (``state: unchanged``).
    """
    plan = plan_migration(manifest)
    if not dry_run:
        with FileChanges("file-exists", "Migration") as changes:
            for path, text in plan.rewrites.items():
                changes.replace(path, text.encode("utf-8"))
    state = "unchanged" if not plan.changes else ("planned" if dry_run else "migrated")
    return MigrationReport(
        state=state,
        manifest=plan.manifest_path,
        dry_run=dry_run,
        changes=plan.changes,
        files=tuple(
            posixpath.relpath(p.replace(os.sep, "/"), plan.root.replace(os.sep, "/")) for p in plan.rewrites
        ),
    )
