"""The Provider loader: files in, an immutable :class:`Provider` out.

Implements behaviour.md §2–§4, §7 and the loading half of §10 and §11: path
containment, parsing, schema and semantic validation in the protocol's order
of checks, the Provider's file set and digests, and everything ``route()``
needs precomputed. All storage access goes through an injected
:class:`~agent_graph.FileSystem`; nothing here evaluates graphs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import posixpath
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from .._core.canonical import digest_bytes, digest_value, sort_collated, utf16_key
from .._core.checks import closest_names, find_cycle, validate_graph_semantics
from .._core.errors import AgentGraphError, Diagnostic, ErrorCode, os_error
from .._core.ir import CompiledGraph
from .._core.model import (
    Action,
    Bundle,
    CodeCatalog,
    CodeCatalogEntry,
    FileLocation,
    FileResource,
    Graph,
    GraphActionLocation,
    GraphActionResource,
    HostActionInput,
    HostActionLocation,
    HostActionMaterialize,
    HostActionResource,
    MaterializeRef,
    Node,
    ProviderManifest,
    RouteAction,
    SkillBinding,
)
from .._core.provider import LoadedAction, LoadedResource, NodeRoute, Provider
from .._core.route import command_plan
from .._core.suggest import close_names
from .._syntax import schema as _schema
from .._syntax.explain import MAX_LOCATED_TEXT
from .._syntax.parse import (
    DEFAULT_MAX_FILE_BYTES,
    MAX_ALIAS_COUNT,
    MAX_DEPTH,
    parse_front_matter,
    parse_structured,
)
from .._syntax.syntax_hints import placed_syntax_error
from .._syntax.yaml_events import locate_pointers
from .bundle import check_bundle_catalogs, verify_bundle_manifest
from .cache import CachedValue, LoadCache, open_cache
from .fs import FileSystem, OSFileSystem, contained_path, inside
from .skill import check_binding, front_matter_position, locate_binding

FILE_LOCATION = "agent-graph.resource-location.file.v1"
RESOURCE_PROTOCOLS = {
    "agent-graph.resource.file.v1": "resource-file",
    "agent-graph.resource.graph-action.v1": "resource-graph-action",
    "agent-graph.resource.host-action.v1": "resource-host-action",
}
LEGACY_RESOURCE = "agent-graph.resource.v1"
STATIC_KINDS = frozenset({"procedure", "diagnostic", "template", "schema", "skill"})
PROTOCOL_IDENTITY = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+\Z")

#: Registry of Provider IDs to manifest paths, for ``provider:`` Skill locators.
ProviderRegistry = Mapping[str, str]


@dataclass(frozen=True)
class Limits:
    """Explicit limits on what a Provider may be; a host may raise any of them.

    ``max_file_bytes`` is the largest file read (``file-too-large``);
    ``max_depth`` the deepest nesting of a YAML or JSON value and
    ``max_alias_count`` the YAML alias budget (``parse-failed``); ``max_nodes``
    the most nodes one Graph may have (``graph-too-large``); ``max_files`` the
    most files a Provider's file set may hold (``provider-too-large``).
    """

    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    max_depth: int = MAX_DEPTH
    max_alias_count: int = MAX_ALIAS_COUNT
    max_nodes: int = 1_000_000
    max_files: int = 100_000


DEFAULT_LIMITS = Limits()


def __getattr__(name: str) -> object:
    """``LoadLimits``, the former name of :class:`Limits`: still importable for one release, with a warning."""
    if name == "LoadLimits":
        import warnings

        warnings.warn(
            "agent_graph._load.loader.LoadLimits is deprecated and goes in the next release: use agent_graph.Limits",
            DeprecationWarning,
            stacklevel=2,
        )
        return Limits
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------- paths and files


class _Reader:
    """Reads files once through the file system, with containment checks and limits.

    With a :class:`~agent_graph._load.cache.LoadCache` (``store``), parsed values,
    front-matter headers and passed schema checks are looked up by the file's
    digest and written back by :meth:`flush`; without one, every file is parsed
    and checked on each load.
    """

    def __init__(self, fs: FileSystem, root: str, limits: Limits, store: LoadCache | None = None) -> None:
        self.fs = fs
        self.root = root
        self.limits = limits
        self.store = store
        self.cache: dict[str, bytes] = {}
        self.digests: dict[str, str] = {}
        self.values: dict[str, CachedValue] = {}
        self.headers: dict[str, CachedValue] = {}
        self._real_root: str | None = None

    def take_over(self, other: _Reader) -> None:
        """Reuse what ``other`` (the reader that found the manifest) already read and parsed."""
        self.cache.update(other.cache)
        self.digests.update(other.digests)
        self.values.update(other.values)
        self.headers.update(other.headers)

    def ensure_file(self, path: str, label: str) -> None:
        if self.fs.kind(path) != "file":
            raise AgentGraphError("file-missing", f"{label} does not exist: {path}{self.nearby(path)}")

    def nearby(self, path: str) -> str:
        """`` (did you mean <file>?)`` naming the file beside missing ``path`` whose name is closest, if one is close.

        Only files of the same folder below the Provider root are considered (the
        root itself is not listed: it may hold anything), and only on failure.
        """
        folder = posixpath.dirname(path)
        root = self.root.rstrip("/")
        if not folder.startswith(root + "/") or self.fs.kind(folder) != "directory":
            return ""
        try:
            files = [f for f in self.fs.list_files(folder) if posixpath.dirname(f) == folder][:10_000]
        except OSError:
            return ""
        stems: dict[str, str] = {}
        for file in files:  # names are compared without their extensions: .yaml and .json match too well
            stems.setdefault(posixpath.splitext(posixpath.basename(file))[0], file)
        wanted = posixpath.splitext(posixpath.basename(path))[0]
        close = close_names(wanted, stems)
        return f" (did you mean {self.display(stems[close[0]])}?)" if close else ""

    def ensure_contained(self, path: str, label: str) -> None:
        self.ensure_file(path, label)
        if self._real_root is None:
            self._real_root = self.fs.realpath(self.root)
        real = self.fs.realpath(path)
        if not inside(posixpath.normpath(real), posixpath.normpath(self._real_root)):
            raise AgentGraphError(
                "path-symlink-outside-provider", f"{label} resolves outside the provider root: {path}"
            )

    def read(self, path: str) -> bytes:
        data = self.cache.get(path)
        if data is not None:
            return data
        try:
            size = self.fs.size(path)
        except OSError as error:
            raise os_error(error, path, "read", writing=False) from None
        if size > self.limits.max_file_bytes:
            raise AgentGraphError(
                "file-too-large",
                f"{path} is {size} bytes, over the limit of {self.limits.max_file_bytes} bytes",
            )
        try:
            data = self.fs.read_bytes(path)
        except OSError as error:
            raise os_error(error, path, "read", writing=False) from None
        if len(data) > self.limits.max_file_bytes:
            raise AgentGraphError(
                "file-too-large", f"{path} is over the limit of {self.limits.max_file_bytes} bytes"
            )
        self.cache[path] = data
        return data

    def structured(self, path: str) -> Any:
        try:
            return self._structured(path)
        except AgentGraphError as error:
            raise placed_syntax_error(error, self.display(path)) from None

    def _structured(self, path: str) -> Any:
        limits = self.limits
        data = self.read(path)
        if self.store is None:
            return parse_structured(
                data,
                path,
                max_bytes=limits.max_file_bytes,
                max_depth=limits.max_depth,
                max_alias_count=limits.max_alias_count,
            )
        cached = self.values.get(path)
        if cached is None:
            variant = f"{'json' if path.lower().endswith('.json') else 'yaml'}:{limits.max_depth}:{limits.max_alias_count}"
            digest = self.digest(path)
            cached = self.store.lookup(digest, variant, len(data))
            if cached is None:
                value = parse_structured(
                    data,
                    path,
                    max_bytes=limits.max_file_bytes,
                    max_depth=limits.max_depth,
                    max_alias_count=limits.max_alias_count,
                )
                cached = CachedValue(digest, variant, value, (), len(data), dirty=True)
            self.values[path] = cached
        return cached.value

    def validate(self, name: str, value: Any, path: str) -> None:
        """``_schema.validate(name, value, path)``, skipped when the cache knows this file's value passes.

        Violations are reported with the file's Provider-relative name, line and column.
        """
        cached = self.values.get(path)
        if cached is not None and cached.value is value and name in cached.validated:
            return
        _schema.validate(name, value, path, source=lambda: self.text(path), display=self.display(path))
        if cached is not None and cached.value is value:
            cached.validated.add(name)
            cached.dirty = True

    def display(self, path: str) -> str:
        """``path`` as messages name it: relative to the Provider root when inside it."""
        prefix = self.root.rstrip("/") + "/"
        return path[len(prefix) :] if path.startswith(prefix) else path

    def validate_input(self, schema_path: str, schema: Any, value: Any, path: str, name: str) -> None:
        """``_schema.validate_with_schema`` of a host-action resource's input (the file at ``path``).

        Skipped when the cache knows that this resource file's input passed the
        schema file with these very bytes: compiling a user schema costs more
        than everything else a small Provider's load does.
        """
        cached = self.values.get(path)
        marker = f"input:{self.digest(schema_path)}" if cached is not None else ""
        if cached is not None and marker in cached.validated:
            return
        _schema.validate_with_schema(schema, value, path, name=name)
        if cached is not None:
            cached.validated.add(marker)
            cached.dirty = True

    def front_matter(self, path: str) -> dict[str, Any]:
        """The front-matter header of a Markdown file (as ``parse_front_matter`` reads it)."""
        try:
            return self._front_matter(path)
        except AgentGraphError as error:
            raise placed_syntax_error(error, self.display(path)) from None

    def _front_matter(self, path: str) -> dict[str, Any]:
        if self.store is None:
            return parse_front_matter(self.text(path), path)[0]
        cached = self.headers.get(path)
        if cached is None:
            size = len(self.read(path))
            digest = self.digest(path)
            cached = self.store.lookup(digest, "front-matter", size)
            if cached is None or type(cached.value) is not dict:
                cached = CachedValue(
                    digest, "front-matter", parse_front_matter(self.text(path), path)[0], (), size, True
                )
            self.headers[path] = cached
        header: dict[str, Any] = cached.value
        return header

    def flush(self) -> None:
        """Write what this load learnt to the cache."""
        if self.store is not None:
            self.store.store_all([*self.values.values(), *self.headers.values()])

    def text(self, path: str) -> str:
        return self.read(path).decode("utf-8", errors="replace")

    def position(self, path: str, pointer: str, *, key: bool = False) -> tuple[int, int] | None:
        """Line and column (1-based) of the value at JSON ``pointer`` in the file at ``path``, or None.

        ``key=True`` answers the position of the value's key. In a Markdown file
        the pointer is into its front-matter header. Only for messages: a file
        that cannot be read or parsed, or is too large to walk, has no positions.
        """
        try:
            text = self.text(path)
        except AgentGraphError:
            return None
        if path.lower().endswith(".md"):
            found = front_matter_position(text, pointer, self.limits.max_depth)
        elif len(text) > MAX_LOCATED_TEXT:
            return None
        else:
            found = locate_pointers(text, {pointer}, self.limits.max_depth).get(pointer)
        if found is None:
            return None
        return (found[0], found[1]) if key else (found[2], found[3])

    def place(self, path: str, pointer: str, *, key: bool = False) -> str:
        """``file:line:column`` of the value at ``pointer`` in ``path`` (just the file when it cannot be placed)."""
        found = self.position(path, pointer, key=key)
        display = self.display(path)
        return display if found is None else f"{display}:{found[0]}:{found[1]}"

    def error_at(
        self, code: ErrorCode, message: str, path: str, pointer: str, *, key: bool = False
    ) -> AgentGraphError:
        """``AgentGraphError(code, "file:line:column: message")`` for the value at ``pointer`` in ``path``.

        Its one diagnostic has ``path`` and ``detail = {pointer, line?, column?}``.
        """
        found = self.position(path, pointer, key=key)
        detail: dict[str, Any] = {"pointer": pointer}
        label = self.display(path)
        if found is not None:
            detail["line"], detail["column"] = found
            label = f"{label}:{found[0]}:{found[1]}"
        text = f"{label}: {message}"
        return AgentGraphError(code, text, (Diagnostic(code, "error", text, path=path, detail=detail),))

    def placed_within(self, diagnostic: Diagnostic, path: str, prefix: str) -> Diagnostic:
        """A schema diagnostic about a value written at ``prefix`` in ``path``, placed: ``file:line:column: …``."""
        detail = diagnostic.detail
        if not isinstance(detail, dict) or not isinstance(detail.get("pointer"), str) or "line" in detail:
            return diagnostic
        found = self.position(path, prefix + detail["pointer"])
        if found is None:
            return msgspec.structs.replace(diagnostic, path=path)
        line, column = found
        return msgspec.structs.replace(
            diagnostic,
            message=f"{self.display(path)}:{line}:{column}: {diagnostic.message}",
            path=path,
            detail={**detail, "line": line, "column": column},
        )

    def located(self, error: AgentGraphError, path: str) -> AgentGraphError:
        """``error`` placed in ``path`` when it carries a JSON Pointer (see :func:`~agent_graph._core.checks.at_pointer`)."""
        for diagnostic in error.diagnostics:
            detail = diagnostic.detail
            if isinstance(detail, dict) and isinstance(detail.get("pointer"), str) and "line" not in detail:
                return self.error_at(error.code, error.message, path, detail["pointer"])
        return error

    def digest(self, path: str) -> str:
        digest = self.digests.get(path)
        if digest is None:
            digest = digest_bytes(self.read(path))
            self.digests[path] = digest
        return digest


def _convert(value: Any, kind: type[Any], path: str) -> Any:
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError as error:  # schema validation should have caught this
        raise AgentGraphError("schema-invalid", f"{path}: {error}") from None


# ---------------------------------------------------------------- the loader


@dataclass
class _State:
    fs: FileSystem
    root: str
    reader: _Reader
    manifest_path: str
    files: dict[str, None] = field(default_factory=dict)
    actions: dict[str, LoadedAction] = field(default_factory=dict)
    action_ids: dict[str, str] = field(default_factory=dict)
    action_files: dict[str, tuple[str, ...]] = field(default_factory=dict)
    resources: dict[str, LoadedResource] = field(default_factory=dict)
    resource_ids: dict[str, str] = field(default_factory=dict)
    resolved: dict[str, str] = field(default_factory=dict)
    included_actions: dict[str, tuple[str, Action, tuple[str, ...]]] = field(default_factory=dict)

    def contained(self, reference: str, label: str) -> str:
        """:func:`contained_path` under the root, remembered per reference (graphs repeat them per node)."""
        path = self.resolved.get(reference)
        if path is None:
            path = contained_path(self.root, reference, label)
            self.resolved[reference] = path
        return path

    def add_file(self, path: str) -> None:
        self.files[path] = None
        if len(self.files) > self.reader.limits.max_files:
            raise AgentGraphError(
                "provider-too-large",
                f"Provider file set exceeds the limit of {self.reader.limits.max_files} files",
            )


def _load_action_definition(state: _State, reference: str) -> tuple[str, Action]:
    path = state.contained(reference, "action reference")
    existing = state.actions.get(path)
    if existing is not None:
        return path, existing.definition
    state.reader.ensure_contained(path, "action")
    raw = state.reader.structured(path)
    state.reader.validate("action", raw, path)
    definition: Action = _convert(raw, Action, path)
    previous = state.action_ids.get(definition.id)
    if previous is not None and previous != path:
        raise state.reader.error_at(
            "action-id-duplicate",
            f"Action id {definition.id} is declared by both {state.reader.display(previous)} and "
            f"{state.reader.display(path)}",
            path,
            "/id",
        )
    state.action_ids[definition.id] = path
    return path, definition


def _action_files(state: _State, path: str, action: Action, label: str) -> tuple[str, ...]:
    cached = state.action_files.get(path)
    if cached is not None:
        return cached
    found: dict[str, None] = {path: None}
    reader = state.reader
    fields = (
        ("entry", action.entry),
        ("inputSchema", action.input_schema),
        ("outputSchema", action.output_schema),
        *((f"files/{i}", reference) for i, reference in enumerate(action.files or ())),
    )
    for field_name, reference in fields:
        if not reference:
            continue
        try:
            resolved = contained_path(state.root, reference, label)
            reader.ensure_contained(resolved, label)
        except AgentGraphError as error:
            where = f"named by {field_name.split('/')[0]} of Action {action.id} at {reader.place(path, '/' + field_name)}"
            raise _referenced(error, where) from None
        found[resolved] = None
    if action.skill:
        try:
            skill_path = contained_path(state.root, action.skill, "agent skill reference")
            reader.ensure_contained(skill_path, "agent skill")
        except AgentGraphError as error:
            where = f"named by skill of Action {action.id} at {reader.place(path, '/skill')}"
            raise _referenced(error, where) from None
        skill_root = posixpath.dirname(skill_path)
        if skill_root == state.root:
            found[skill_path] = None
        else:
            for file in state.fs.list_files(skill_root):
                found[file] = None
    result = tuple(found)
    state.action_files[path] = result
    return result


#: Codes of a reference that cannot be followed: messages of these say who made the reference.
_REFERENCE_CODES = frozenset(
    {
        "file-missing",
        "file-read-failed",
        "file-too-large",
        "file-encoding-invalid",
        "absolute-path-forbidden",
        "path-outside-provider",
        "path-symlink-outside-provider",
        "frontmatter-missing",
        "frontmatter-invalid",
    }
)


#: Who refers to a file, for messages: a text, or a function that writes it (positions are found only on failure).
Where = str | Callable[[], str]


def _referenced(error: AgentGraphError, where: Where) -> AgentGraphError:
    """``error`` with ``(<where>)`` added (who refers to the file), for a file or path that cannot be followed."""
    if error.code not in _REFERENCE_CODES or not where or getattr(error, "referrer", None):
        return error
    if callable(where):
        where = where()
    located = AgentGraphError(error.code, f"{error.message} ({where})", error.diagnostics)
    located.referrer = where  # type: ignore[attr-defined]
    return located


def _include_action(
    state: _State, reference: str, direct: dict[str, None], label: str, where: Where = ""
) -> tuple[str, Action]:
    included = state.included_actions.get(reference)
    if included is None:
        try:
            path, definition = _load_action_definition(state, reference)
            if path not in state.actions:
                # Registered with its route parts once the file set is known (see _finish_actions).
                state.actions[path] = LoadedAction(
                    path=path, definition=definition, files=(), route_action=None, plan=()
                )
            included = (path, definition, _action_files(state, path, definition, label))
        except AgentGraphError as error:
            raise _referenced(error, where) from None
        state.included_actions[reference] = included
    path, definition, files = included
    for file in files:
        if file not in direct:
            state.add_file(file)
            direct[file] = None
    return path, definition


def _front_matter_resource(state: _State, path: str) -> LoadedResource:
    metadata = state.reader.front_matter(path)
    rid = metadata.get("id")
    kind = metadata.get("kind")
    media_type = metadata.get("media-type")
    if media_type is None:
        media_type = metadata.get("mediaType")
    if media_type is None:
        media_type = "text/markdown"
    if not isinstance(rid, str) or not isinstance(kind, str) or not isinstance(media_type, str):
        wrong = next(
            (k for k, v in (("id", rid), ("kind", kind)) if not isinstance(v, str)),
            "media-type" if "media-type" in metadata else "mediaType",
        )
        raise state.reader.error_at(
            "resource-metadata-invalid",
            f"Resource {state.reader.display(path)} must declare string id, kind, and media-type "
            f"in its front matter ({wrong} is {'missing' if wrong not in metadata else 'not a string'})",
            path,
            f"/{wrong}" if wrong in metadata else "",
        )
    if kind not in STATIC_KINDS:
        raise state.reader.error_at(
            "resource-kind-invalid",
            f"Static resource {state.reader.display(path)} has unsupported kind: {kind}"
            + closest_names(kind, sorted(STATIC_KINDS), "static kinds"),
            path,
            "/kind",
        )
    location = FileLocation(
        schema=FILE_LOCATION, id=rid, kind=kind, media_type=media_type, digest="", file_path=path
    )
    return LoadedResource(
        path=path,
        content_path=path,
        id=rid,
        kind=kind,
        media_type=media_type,
        dynamic=False,
        protocol="front-matter",
        location=location,
    )


def _load_resource(state: _State, reference: str) -> LoadedResource:
    path = contained_path(state.root, reference, "resource reference")
    state.reader.ensure_contained(path, "resource")
    extension = posixpath.splitext(path)[1].lower()
    if extension in (".yaml", ".yml", ".json"):
        candidate = state.reader.structured(path)
        schema = candidate.get("schema") if isinstance(candidate, dict) else None
        if schema == LEGACY_RESOURCE:
            raise state.reader.error_at(
                "resource-schema-legacy",
                f"{state.reader.display(path)} uses the 0.2 resource protocol agent-graph.resource.v1; "
                "run `agent-graph migrate` to rewrite it as agent-graph.resource.file.v1 or .graph-action.v1",
                path,
                "/schema",
            )
        if isinstance(schema, str) and schema in RESOURCE_PROTOCOLS:
            state.reader.validate(RESOURCE_PROTOCOLS[schema], candidate, path)
            if schema == "agent-graph.resource.file.v1":
                file_definition: FileResource = _convert(candidate, FileResource, path)
                content = contained_path(state.root, file_definition.path, "static resource content")
                state.reader.ensure_contained(content, "static resource content")
                location = FileLocation(
                    schema=FILE_LOCATION,
                    id=file_definition.id,
                    kind=file_definition.kind,
                    media_type=file_definition.media_type,
                    digest="",
                    file_path=content,
                )
                return LoadedResource(
                    path=path,
                    content_path=content,
                    id=file_definition.id,
                    kind=file_definition.kind,
                    media_type=file_definition.media_type,
                    dynamic=False,
                    protocol=schema,
                    location=location,
                    definition=file_definition,
                )
            if schema == "agent-graph.resource.graph-action.v1":
                graph_action: GraphActionResource = _convert(candidate, GraphActionResource, path)
                return LoadedResource(
                    path=path,
                    content_path=path,
                    id=graph_action.id,
                    kind=graph_action.kind,
                    media_type=graph_action.media_type,
                    dynamic=True,
                    protocol=schema,
                    location=GraphActionLocation(
                        schema="agent-graph.resource-location.graph-action.v1",
                        id=graph_action.id,
                        kind=graph_action.kind,
                        media_type=graph_action.media_type,
                        materialize=MaterializeRef(resource_id=graph_action.id),
                    ),
                    definition=graph_action,
                    materializer=graph_action.materializer,
                )
            host_action: HostActionResource = _convert(candidate, HostActionResource, path)
            return LoadedResource(
                path=path,
                content_path=path,
                id=host_action.id,
                kind=host_action.kind,
                media_type=host_action.media_type,
                dynamic=True,
                protocol=schema,
                location=HostActionLocation(
                    schema="agent-graph.resource-location.host-action.v1",
                    id=host_action.id,
                    kind=host_action.kind,
                    media_type=host_action.media_type,
                    materialize=HostActionMaterialize(handler="", input=host_action.input, output_schema=""),
                ),
                definition=host_action,
                materializer=host_action.materializer,
            )
    return _front_matter_resource(state, path)


def _include_resource(state: _State, reference: str, where: Where = "") -> LoadedResource:
    try:
        path = state.contained(reference, "resource reference")
        existing = state.resources.get(path)
        if existing is not None:
            return existing
        resource = _load_resource(state, reference)
    except AgentGraphError as error:
        raise _referenced(error, where) from None
    previous = state.resource_ids.get(resource.id)
    if previous is not None and previous != resource.path:
        raise _duplicate_resource(state, resource, previous)
    state.resource_ids[resource.id] = resource.path
    state.resources[resource.path] = resource
    state.add_file(resource.path)
    state.add_file(resource.content_path)
    return resource


def _duplicate_resource(state: _State, resource: LoadedResource, previous: str) -> AgentGraphError:
    reader = state.reader
    return reader.error_at(
        "resource-id-duplicate",
        f"Resource id {resource.id} is declared by both {reader.display(previous)} and "
        f"{reader.display(resource.path)}",
        resource.path,
        "/id",
    )


def _check_host_materializer(
    state: _State, resource: LoadedResource, action_path: str, action: Action
) -> LoadedResource:
    """Host-action rules of §11: a read host Action with handler and two identified schemas; input validated."""
    if action.runner != "host" or not action.handler or not action.input_schema or not action.output_schema:
        raise state.reader.error_at(
            "materializer-runner-invalid",
            f"Resource materializer {action.id} of host-action resource {resource.id} must be a host Action "
            "with handler, inputSchema and outputSchema",
            action_path,
            "/runner",
        )
    identities: list[str] = []
    documents: list[Any] = []
    schema_paths: list[str] = []
    for reference in (action.input_schema, action.output_schema):
        schema_path = contained_path(state.root, reference, "materializer referenced file")
        schema_paths.append(schema_path)
        document = state.reader.structured(schema_path)
        identity = document.get("$id") if isinstance(document, dict) else None
        if not isinstance(identity, str) or not PROTOCOL_IDENTITY.match(identity):
            raise state.reader.error_at(
                "host-action-schema-identity-invalid",
                f"Schema {state.reader.display(schema_path)} of host Action {action.id} must declare a "
                "versioned protocol identity in $id (like acme.example/report-input/v1)",
                schema_path,
                "/$id" if isinstance(document, dict) and "$id" in document else "",
            )
        _schema.check_schema_patterns(document, schema_path)
        identities.append(identity)
        documents.append(document)
    definition = resource.definition
    assert isinstance(definition, HostActionResource)
    if definition.input.schema != identities[0]:
        raise state.reader.error_at(
            "host-action-input-schema-mismatch",
            f"Resource {resource.id} input schema {definition.input.schema} does not match {identities[0]}, "
            f"the $id of its materializer's inputSchema",
            resource.path,
            "/input/schema",
        )
    try:
        state.reader.validate_input(
            schema_paths[0], documents[0], definition.input.value, resource.path, identities[0]
        )
    except AgentGraphError as error:
        if error.code != "schema-invalid":
            raise
        reader = state.reader
        raise AgentGraphError(
            "host-action-input-invalid",
            f"{reader.place(resource.path, '/input/value')}: Resource {resource.id} input does not match "
            f"{identities[0]}",
            [reader.placed_within(d, resource.path, "/input/value") for d in error.diagnostics],
        ) from None
    location = HostActionLocation(
        schema="agent-graph.resource-location.host-action.v1",
        id=resource.id,
        kind=resource.kind,
        media_type=resource.media_type,
        materialize=HostActionMaterialize(
            handler=action.handler,
            input=HostActionInput(schema=definition.input.schema, value=definition.input.value),
            output_schema=identities[1],
        ),
    )
    return dataclasses.replace(
        resource, location=location, materializer=action_path, output_schema=documents[1]
    )


def _node_resource_refs(refs: Any) -> tuple[str, ...]:
    return tuple(refs) if refs else ()


def load_provider(
    manifest: str = "provider.yaml",
    fs: FileSystem | None = None,
    registry: ProviderRegistry | None = None,
    *,
    limits: Limits | None = None,
    max_file_bytes: int | None = None,
    cache: str | os.PathLike[str] | bool | None = None,
    pause_gc: bool = False,
) -> Provider:
    """Load and validate a Provider from its manifest (or a bundle's ``manifest.json``).

    ``fs`` is the file system to read through (the OS by default; pass a
    :class:`~agent_graph.MemoryFileSystem` to load from memory). ``registry``
    maps Provider IDs to manifest paths for ``provider:`` Skill locators when
    ``manifest`` names a ``SKILL.md``. ``limits`` (a :class:`Limits`) bounds file
    sizes, nesting, aliases, nodes and files; ``max_file_bytes`` is a shortcut
    for its first field. Every failure raises
    :class:`~agent_graph.AgentGraphError` with the protocol's code.

    Nothing is written unless asked. ``cache`` opts in to keeping parsed and
    schema-checked file contents between loads, keyed by the digests of the
    files' bytes (every file is still read on every load): a directory path, or
    ``True`` for the platform cache directory; ``None`` or ``False`` (the
    default) keeps nothing. It never changes an answer, but whoever can write
    the cache folder can change what a Provider loads as: see
    :mod:`agent_graph._load.cache` and docs/security.md.

    ``pause_gc=True`` pauses Python's cyclic garbage collector while loading
    (restored after, errors included). It is process-wide, so it is off by
    default; it pays for very large Providers (the command line uses it).
    """
    if pause_gc:
        with collector_paused():
            return _load(manifest, fs, registry, limits=limits, max_file_bytes=max_file_bytes, cache=cache)
    return _load(manifest, fs, registry, limits=limits, max_file_bytes=max_file_bytes, cache=cache)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector, and restore its state after (errors included).

    Loading a large Provider allocates objects by the hundred thousand and makes
    no garbage cycles; a full collection in the middle would walk every object
    of the process again. Only used when the caller asks (``pause_gc=True``).
    """
    enabled = gc.isenabled()
    if enabled:
        gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _load(
    manifest: str,
    fs: FileSystem | None,
    registry: ProviderRegistry | None,
    *,
    limits: Limits | None,
    max_file_bytes: int | None,
    cache: str | os.PathLike[str] | bool | None,
) -> Provider:
    """The order of loading (behaviour.md §7): each step below is one function, called in this order."""
    limits = limits or DEFAULT_LIMITS
    if max_file_bytes is not None:
        limits = dataclasses.replace(limits, max_file_bytes=max_file_bytes)
    opened = _open_manifest(manifest, fs or OSFileSystem(), registry, limits, open_cache(cache))
    state, provider_manifest = opened.state, opened.manifest
    codes, code_documents, catalog_path = _load_code_catalog(state, provider_manifest)
    graphs, graph_files = _load_graphs(state, provider_manifest)
    dependencies: dict[str, dict[str, None]] = {}
    node_routes: dict[tuple[str, str], NodeRoute] = {}
    for graph_id, (graph_path, graph) in graphs.items():
        dependencies[graph_id] = _link_graph(
            state, graph_id, graph_path, graph, graphs, graph_files[graph_id], node_routes
        )
    cycle = find_cycle(list(dependencies), {k: list(v) for k, v in dependencies.items()})
    if cycle is not None:
        parent_path, parent = graphs[cycle[-2]]
        index = next(i for i, n in enumerate(parent.nodes) if n.kind == "subgraph" and n.graph == cycle[-1])
        raise state.reader.error_at(
            "graph-recursion",
            f"Cross-graph recursion is not allowed: {' -> '.join(cycle)}",
            parent_path,
            f"/nodes/{index}/graph",
        )
    if catalog_path is not None:
        _check_reason_codes(state, graphs, codes)
    _link_materializers(state, graph_files)
    provider = _assemble(
        state,
        provider_manifest,
        opened.raw_manifest,
        graphs,
        graph_files,
        dependencies,
        node_routes,
        codes,
        code_documents,
        catalog_path,
        opened.bundle,
    )
    if opened.bundle is not None:
        check_bundle_catalogs(opened.bundle, provider)
    if opened.binding is not None:
        binding = opened.binding
        check_binding(provider, binding[0], binding[1], binding[2], binding[3], state.fs)
    state.reader.flush()
    return provider


@dataclass
class _Opened:
    """What opening the manifest gives: the loading state, the Provider manifest, a bundle, a Skill binding."""

    state: _State
    manifest: ProviderManifest
    raw_manifest: Any
    bundle: Bundle | None
    binding: tuple[str, str, str, str, str] | None


def _open_manifest(
    manifest: str, fs: FileSystem, registry: ProviderRegistry | None, limits: Limits, store: LoadCache | None
) -> _Opened:
    """Step 1: follow a ``SKILL.md`` binding or a bundle's ``manifest.json`` to the Provider manifest, and read it."""
    initial = fs.absolute(manifest)
    binding: tuple[str, str, str, str, str] | None = None
    if initial.lower().endswith(".md"):
        binding = locate_binding(initial, registry, fs=fs, max_file_bytes=limits.max_file_bytes)
        initial = binding[4]
    bootstrap = _Reader(fs, posixpath.dirname(initial), limits, store)
    bootstrap.ensure_file(initial, "provider manifest")
    bundle = None
    manifest_path = initial
    parsed_initial = bootstrap.structured(initial)
    if isinstance(parsed_initial, dict) and parsed_initial.get("schema") == "agent-graph.bundle.v1":
        bundle, manifest_path = verify_bundle_manifest(bootstrap, initial, parsed_initial)
        bootstrap.ensure_file(manifest_path, "provider manifest")
    root = posixpath.dirname(manifest_path)
    reader = _Reader(fs, root, limits, store)
    reader.take_over(bootstrap)
    raw_manifest = parsed_initial if manifest_path == initial else reader.structured(manifest_path)
    reader.validate("provider", raw_manifest, manifest_path)
    provider_manifest: ProviderManifest = _convert(raw_manifest, ProviderManifest, manifest_path)
    if bundle is not None and (
        bundle.provider.id != provider_manifest.id or bundle.provider.version != provider_manifest.version
    ):
        raise AgentGraphError(
            "bundle-provider-mismatch",
            f"Bundle identifies {bundle.provider.id}@{bundle.provider.version}, but its Provider manifest "
            f"identifies {provider_manifest.id}@{provider_manifest.version}",
        )
    state = _State(fs=fs, root=root, reader=reader, manifest_path=manifest_path)
    state.add_file(manifest_path)
    return _Opened(state, provider_manifest, raw_manifest, bundle, binding)


def _load_code_catalog(
    state: _State, provider_manifest: ProviderManifest
) -> tuple[dict[str, CodeCatalogEntry], dict[str, str], str | None]:
    """Step 2: the Code Catalog, its codes once each, and each code's static document resource."""
    reader, root, manifest_path = state.reader, state.root, state.manifest_path
    codes: dict[str, CodeCatalogEntry] = {}
    code_documents: dict[str, str] = {}
    catalog_path: str | None = None
    if provider_manifest.catalogs is not None and provider_manifest.catalogs.codes:
        try:
            catalog_path = contained_path(root, provider_manifest.catalogs.codes, "code catalog reference")
            reader.ensure_contained(catalog_path, "code catalog")
            raw_catalog = reader.structured(catalog_path)
        except AgentGraphError as error:
            raise _referenced(
                error, f"named by catalogs.codes at {reader.place(manifest_path, '/catalogs/codes')}"
            ) from None
        reader.validate("code-catalog", raw_catalog, catalog_path)
        catalog: CodeCatalog = _convert(raw_catalog, CodeCatalog, catalog_path)
        for index, entry in enumerate(catalog.codes):
            if entry.code in codes:
                raise reader.error_at(
                    "code-catalog-code-duplicate",
                    f"Code catalog contains duplicate code: {entry.code}",
                    catalog_path,
                    f"/codes/{index}/code",
                )
            codes[entry.code] = entry
        state.add_file(catalog_path)
        for index, entry in enumerate(catalog.codes):
            if not entry.document:
                continue
            try:
                document_path = contained_path(root, entry.document, "code document reference")
                resource = state.resources.get(document_path) or _load_resource(state, entry.document)
            except AgentGraphError as error:
                raise _referenced(
                    error,
                    f"the document of code {entry.code} at {reader.place(catalog_path, f'/codes/{index}/document')}",
                ) from None
            if document_path not in state.resources:
                previous = state.resource_ids.get(resource.id)
                if previous is not None and previous != resource.path:
                    raise _duplicate_resource(state, resource, previous)
                if resource.dynamic:
                    raise reader.error_at(
                        "code-document-dynamic",
                        f"Code {entry.code} must reference a static document resource",
                        catalog_path,
                        f"/codes/{index}/document",
                    )
                state.resource_ids[resource.id] = resource.path
                state.resources[resource.path] = resource
                state.add_file(resource.path)
                state.add_file(resource.content_path)
            code_documents[entry.code] = document_path

    return codes, code_documents, catalog_path


def _load_graphs(
    state: _State, provider_manifest: ProviderManifest
) -> tuple[dict[str, tuple[str, Graph]], dict[str, dict[str, None]]]:
    """Step 3: the Graphs, in manifest order: size limit, schema, semantics, IDs once each."""
    reader, root, manifest_path, limits = state.reader, state.root, state.manifest_path, state.reader.limits
    graphs: dict[str, tuple[str, Graph]] = {}
    graph_files: dict[str, dict[str, None]] = {}
    for index, reference in enumerate(provider_manifest.graphs):
        try:
            graph_path = contained_path(root, reference, "graph reference")
            reader.ensure_contained(graph_path, "graph")
            raw_graph = reader.structured(graph_path)
        except AgentGraphError as error:
            raise _referenced(
                error, f"listed under graphs at {reader.place(manifest_path, f'/graphs/{index}')}"
            ) from None
        nodes_value = raw_graph.get("nodes") if isinstance(raw_graph, dict) else None
        if isinstance(nodes_value, list) and len(nodes_value) > limits.max_nodes:
            raise AgentGraphError(
                "graph-too-large",
                f"{reader.display(graph_path)} has {len(nodes_value)} nodes, over the limit of {limits.max_nodes}",
            )
        reader.validate("graph", raw_graph, graph_path)
        graph: Graph = _convert(raw_graph, Graph, graph_path)
        try:
            validate_graph_semantics(graph)
        except AgentGraphError as error:
            raise reader.located(error, graph_path) from None
        if graph.id in graphs:
            raise reader.error_at(
                "graph-id-duplicate",
                f"Provider {provider_manifest.id} contains duplicate graph id: {graph.id} "
                f"(also declared by {reader.display(graphs[graph.id][0])})",
                graph_path,
                "/id",
            )
        graphs[graph.id] = (graph_path, graph)
        graph_files[graph.id] = {graph_path: None}
        state.add_file(graph_path)

    return graphs, graph_files


def _link_graph(
    state: _State,
    graph_id: str,
    graph_path: str,
    graph: Graph,
    graphs: Mapping[str, tuple[str, Graph]],
    direct: dict[str, None],
    node_routes: dict[tuple[str, str], NodeRoute],
) -> dict[str, None]:
    """Step 4, per Graph and node: Subgraphs, Actions, Gate rules and resources; the Graph's Subgraph IDs."""
    children: dict[str, None] = {}
    used_resources: dict[str, None] = {}
    reader = state.reader
    for index, node in enumerate(graph.nodes):

        def where(field: str, node_id: str = node.id, index: int = index) -> Where:
            return lambda: (
                f"referenced by node {node_id} of graph {graph_id} "
                f"at {reader.place(graph_path, f'/nodes/{index}/{field}')}"
            )

        action_key = inspection_key = resolution_key = delegated_key = None
        if node.kind == "subgraph":
            child_id = node.graph or ""
            child = graphs.get(child_id)
            if child is None:
                raise reader.error_at(
                    "subgraph-missing",
                    f"Graph {graph_id} node {node.id} references missing subgraph {child_id}"
                    + _unlisted_graph(state, child_id, graphs),
                    graph_path,
                    f"/nodes/{index}/graph",
                )
            if (node.entry or "") not in child[1].entrypoints:
                raise reader.error_at(
                    "subgraph-entry-missing",
                    f"Graph {graph_id} node {node.id} references missing entry {child_id}#{node.entry}"
                    + closest_names(node.entry or "", child[1].entrypoints, f"entries of graph {child_id}"),
                    graph_path,
                    f"/nodes/{index}/entry",
                )
            children[child_id] = None
        if node.kind == "action" and node.action:
            action_key, _ = _include_action(
                state, node.action, direct, "action referenced file", where("action")
            )
        if node.kind == "gate":
            inspection_key, resolution_key, delegated_key = _link_gate(
                state, graph_id, graph_path, index, node, direct, where
            )
        required: tuple[str, ...] = ()
        recommended: tuple[str, ...] = ()
        delegated_required: tuple[str, ...] | None = None
        delegated_recommended: tuple[str, ...] | None = None
        if node.kind in ("action", "gate"):
            references: list[tuple[str, str]] = []
            if node.resources is not None:
                required = _node_resource_refs(node.resources.required)
                recommended = _node_resource_refs(node.resources.recommended)
                references.extend((f"resources/required/{i}", r) for i, r in enumerate(required))
                references.extend((f"resources/recommended/{i}", r) for i, r in enumerate(recommended))
            if node.delegated is not None and node.delegated.resources is not None:
                delegated_required = _node_resource_refs(node.delegated.resources.required)
                delegated_recommended = _node_resource_refs(node.delegated.resources.recommended)
                references.extend(
                    (f"delegated/resources/required/{i}", r) for i, r in enumerate(delegated_required)
                )
                references.extend(
                    (f"delegated/resources/recommended/{i}", r) for i, r in enumerate(delegated_recommended)
                )
            keys: dict[str, tuple[str, ...]] = {}
            for field_name, reference in references:
                resource = _include_resource(state, reference, where(field_name))
                keys[reference] = (resource.path,)
                direct[resource.path] = None
                direct[resource.content_path] = None
                used_resources[resource.path] = None

            def resolve(refs: tuple[str, ...] | None, keys: dict[str, tuple[str, ...]] = keys) -> Any:
                return None if refs is None else tuple(keys[r][0] for r in refs)

            required = resolve(required)
            recommended = resolve(recommended)
            delegated_required = resolve(delegated_required)
            delegated_recommended = resolve(delegated_recommended)
        node_routes[(graph_id, node.id)] = NodeRoute(
            action=action_key,
            inspection=inspection_key,
            resolution=resolution_key,
            delegated_resolution=delegated_key,
            required=required,
            recommended=recommended,
            delegated_required=delegated_required,
            delegated_recommended=delegated_recommended,
        )
    return children


def _unlisted_graph(state: _State, graph_id: str, graphs: Mapping[str, tuple[str, Graph]]) -> str:
    """The end of a ``subgraph-missing`` message: a graph file with this ID the manifest does not list, or the
    closest listed Graph IDs.

    Looks (only when loading has already failed) at the structured files in the Provider root and in the
    folders of the listed Graphs.
    """
    reader = state.reader
    folders = dict.fromkeys([state.root, *(posixpath.dirname(path) for path, _ in graphs.values())])
    listed = {path for path, _ in graphs.values()}
    for folder in folders:
        try:
            names = [p for p in state.fs.list_files(folder) if posixpath.dirname(p) == folder]
        except OSError:
            continue
        for candidate in names[:1000]:
            if candidate in listed or not candidate.lower().endswith((".yaml", ".yml", ".json")):
                continue
            try:
                value = reader.structured(candidate)
            except AgentGraphError:
                continue
            if (
                isinstance(value, dict)
                and value.get("schema") == "agent-graph.graph.v1"
                and value.get("id") == graph_id
            ):
                return (
                    f"; {reader.display(candidate)} declares graph {graph_id} but is not listed under graphs "
                    f"in {reader.display(state.manifest_path)}: add it there"
                )
    return closest_names(graph_id, graphs, f"graphs listed in {reader.display(state.manifest_path)}")


def _link_gate(
    state: _State,
    graph_id: str,
    graph_path: str,
    index: int,
    node: Node,
    direct: dict[str, None],
    where: Callable[[str], Where],
) -> tuple[str | None, str | None, str | None]:
    """A Gate's Actions and rules: a read-only inspection, a delegated policy only where delegatable, resolutions
    that write; the keys of its inspection, resolution and delegated resolution Actions."""
    inspection_key = resolution_key = delegated_key = None
    gate = node.gate
    reader = state.reader

    def fail(code: ErrorCode, message: str, field: str) -> AgentGraphError:
        return reader.error_at(code, message, graph_path, f"/nodes/{index}/{field}")

    if node.inspection_action:
        inspection_key, inspection = _include_action(
            state,
            node.inspection_action,
            direct,
            "gate inspection action referenced file",
            where("inspectionAction"),
        )
        if inspection.effect != "read":
            raise fail(
                "gate-inspection-effect-invalid",
                f"Gate {graph_id}/{node.id} inspection Action {inspection.id} must use effect: read",
                "inspectionAction",
            )
    if node.delegated is not None:
        if not (gate is not None and gate.delegatable is True and gate.authority):
            raise fail(
                "gate-delegated-policy-invalid",
                f"Gate {graph_id}/{node.id} declares a delegated policy but is not delegatable "
                "with an authority",
                "delegated",
            )
        if node.delegated.inspection == "skip" and not node.inspection_action:
            raise fail(
                "gate-delegated-inspection-missing",
                f"Gate {graph_id}/{node.id} skips inspection on its delegated route "
                "but declares no inspectionAction",
                "delegated/inspection",
            )
    if node.resolution_action:
        resolution_key, resolution = _include_action(
            state,
            node.resolution_action,
            direct,
            "gate resolution action referenced file",
            where("resolutionAction"),
        )
        if resolution.effect == "read":
            raise fail(
                "gate-resolution-effect-invalid",
                f"Gate {graph_id}/{node.id} resolution Action {resolution.id} must use effect: write or external",
                "resolutionAction",
            )
    if node.delegated is not None and node.delegated.resolution_action:
        delegated_key, delegated_action = _include_action(
            state,
            node.delegated.resolution_action,
            direct,
            "gate resolution action referenced file",
            where("delegated/resolutionAction"),
        )
        if delegated_action.effect == "read":
            raise fail(
                "gate-resolution-effect-invalid",
                f"Gate {graph_id}/{node.id} delegated resolution Action {delegated_action.id} "
                "must use effect: write or external",
                "delegated/resolutionAction",
            )
    return inspection_key, resolution_key, delegated_key


def _check_reason_codes(
    state: _State, graphs: Mapping[str, tuple[str, Graph]], codes: Mapping[str, CodeCatalogEntry]
) -> None:
    """Step 5, with a Code Catalog: every Action and Gate names a route-reason code of it."""
    reader = state.reader
    for graph_id, (graph_path, graph) in graphs.items():
        for index, node in enumerate(graph.nodes):
            if node.kind not in ("action", "gate"):
                continue
            catalog_entry = codes.get(node.reason_code or "")
            if catalog_entry is None:
                reasons = [code for code, entry in codes.items() if entry.kind == "route-reason"]
                raise reader.error_at(
                    "route-reason-code-missing",
                    f"Graph {graph_id} node {node.id} reasonCode is not declared by the Provider code catalog: "
                    f"{node.reason_code}"
                    + closest_names(node.reason_code or "", reasons, "route-reason codes"),
                    graph_path,
                    f"/nodes/{index}/reasonCode",
                )
            if catalog_entry.kind != "route-reason":
                raise reader.error_at(
                    "route-reason-code-kind-invalid",
                    f"Graph {graph_id} node {node.id} reasonCode must use a route-reason catalog entry: "
                    f"{node.reason_code} is a {catalog_entry.kind} code",
                    graph_path,
                    f"/nodes/{index}/reasonCode",
                )


def _link_materializers(state: _State, graph_files: Mapping[str, dict[str, None]]) -> None:
    """Step 6: the materializer Action of every dynamic resource, checked and added to the file sets."""
    reader = state.reader
    for resource_path, resource in list(state.resources.items()):
        if not resource.dynamic or resource.materializer is None:
            continue
        try:
            action_path, action = _load_action_definition(state, resource.materializer)
        except AgentGraphError as error:
            raise _referenced(
                error,
                f"the materializer of resource {resource.id} at {reader.place(resource.path, '/materializer')}",
            ) from None
        if action_path not in state.actions:
            state.actions[action_path] = LoadedAction(
                path=action_path, definition=action, files=(), route_action=None, plan=()
            )
            state.add_file(action_path)
        if action.effect != "read":
            raise reader.error_at(
                "materializer-effect-invalid",
                f"Resource materializer {action.id} of resource {resource.id} must have effect: read",
                action_path,
                "/effect",
            )
        if resource.protocol == "agent-graph.resource.host-action.v1":
            materializer_files = _action_files(state, action_path, action, "materializer referenced file")
            state.resources[resource_path] = _check_host_materializer(state, resource, action_path, action)
        else:
            if action.runner not in ("command", "script"):
                raise reader.error_at(
                    "materializer-runner-invalid",
                    f"Resource materializer {action.id} of resource {resource.id} must use command or script runner",
                    action_path,
                    "/runner",
                )
            materializer_files = _action_files(state, action_path, action, "materializer referenced file")
            state.resources[resource_path] = dataclasses.replace(resource, materializer=action_path)
        for file in materializer_files:
            state.add_file(file)
        for direct in graph_files.values():
            if resource.path in direct:
                for file in materializer_files:
                    direct[file] = None


def _assemble(
    state: _State,
    manifest: ProviderManifest,
    raw_manifest: Any,
    graphs: dict[str, tuple[str, Graph]],
    graph_files: dict[str, dict[str, None]],
    dependencies: dict[str, dict[str, None]],
    node_routes: dict[tuple[str, str], NodeRoute],
    codes: dict[str, CodeCatalogEntry],
    code_documents: dict[str, str],
    catalog_path: str | None,
    bundle: Any,
) -> Provider:
    root = state.root
    reader = state.reader
    prefix = len(root.rstrip("/")) + 1

    def rel(path: str) -> str:
        return path[prefix:]

    file_digests = {path: reader.digest(path) for path in state.files if path != state.manifest_path}
    provider_files = sorted(file_digests, key=lambda p: utf16_key(rel(p)))
    provider_digest = digest_value(
        {"manifest": raw_manifest, "files": [[rel(p), file_digests[p]] for p in provider_files]}
    )

    # Graph closures, iteratively, children before parents.
    closures: dict[str, set[str]] = {}
    for start in graphs:
        if start in closures:
            continue
        stack: list[tuple[str, bool]] = [(start, False)]
        while stack:
            gid, expanded = stack.pop()
            if gid in closures:
                continue
            if not expanded:
                stack.append((gid, True))
                stack.extend((child, False) for child in dependencies[gid] if child not in closures)
                continue
            closure = set(graph_files[gid])
            for child in dependencies[gid]:
                closure |= closures[child]
            closures[gid] = closure
    compiled: dict[str, CompiledGraph] = {}
    for gid, (graph_path, graph) in graphs.items():
        relative_files = {rel(p): file_digests[p] for p in closures[gid]}
        ordered = sort_collated(relative_files)
        digest = digest_value(
            {
                "provider": {"id": manifest.id, "version": manifest.version},
                "graph": gid,
                "files": [[p, relative_files[p]] for p in ordered],
            }
        )
        compiled[gid] = CompiledGraph(graph, graph_path, digest)

    resources: dict[str, LoadedResource] = {}
    for path, resource in state.resources.items():
        location = resource.location
        if isinstance(location, FileLocation):
            location = msgspec.structs.replace(location, digest=file_digests[resource.content_path])
            resource = dataclasses.replace(resource, location=location)
        resources[path] = resource

    actions = {
        path: _finish_action(state, loaded.path, loaded.definition, file_digests)
        for path, loaded in state.actions.items()
    }

    return Provider(
        manifest=manifest,
        manifest_path=state.manifest_path,
        root=root,
        raw_manifest=raw_manifest,
        graphs=compiled,
        actions=actions,
        resources=resources,
        codes=codes,
        code_documents=code_documents,
        code_catalog_path=catalog_path,
        files=tuple(state.files),
        file_digests=file_digests,
        graph_dependencies={gid: tuple(children) for gid, children in dependencies.items()},
        digest=provider_digest,
        node_routes=node_routes,
        resources_by_id={resource.id: path for path, resource in resources.items()},
        bundle=bundle,
        file_system=None if type(state.fs) is OSFileSystem else state.fs,
    )


def _finish_action(state: _State, path: str, action: Action, digests: Mapping[str, str]) -> LoadedAction:
    """Precompute the route ``action`` object and command plan of one Action."""
    root = state.root
    route_error: AgentGraphError | None = None

    def schema_location(reference: str | None, direction: str) -> FileLocation | None:
        if not reference:
            return None
        resolved = contained_path(root, reference, f"{direction} schema reference")
        digest = digests.get(resolved) or state.reader.digest(resolved)
        return FileLocation(
            schema=FILE_LOCATION,
            id=f"schema.{action.id}.{direction}",
            kind="schema",
            media_type="application/schema+json",
            digest=digest,
            file_path=resolved,
        )

    skill_location: FileLocation | None = None
    route_action: RouteAction | None = None
    try:
        if action.runner == "agent" and action.skill:
            skill_path = contained_path(root, action.skill, "agent skill reference")
            metadata = state.reader.front_matter(skill_path)
            name = metadata.get("name")
            skill_location = FileLocation(
                schema=FILE_LOCATION,
                id=f"skill.{name if isinstance(name, str) else 'agent-skill'}",
                kind="skill",
                media_type="text/markdown",
                digest=digests.get(skill_path) or state.reader.digest(skill_path),
                file_path=skill_path,
            )
        route_action = RouteAction(
            id=action.id,
            runner=action.runner,
            effect=action.effect,
            skill=skill_location,
            input_schema=schema_location(action.input_schema, "input"),
            output_schema=schema_location(action.output_schema, "output"),
        )
    except AgentGraphError as error:
        route_error = error
    entry = contained_path(root, action.entry or "", "script entry") if action.runner == "script" else ""
    plan = command_plan(action, root, entry)
    return LoadedAction(
        path=path,
        definition=action,
        files=state.action_files.get(path, (path,)),
        route_action=route_action,
        plan=plan,
        route_error=route_error,
    )


def resolve_skill_binding(
    skill_md: str,
    registry: Mapping[str, str] | None = None,
    *,
    fs: FileSystem | None = None,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
) -> SkillBinding:
    """Resolve a ``SKILL.md`` binding: load its Provider and check the Graph and Entry exist.

    ``registry`` maps Provider IDs to manifest paths for ``provider:`` locators.
    Codes: ``skill-binding-missing``, ``skill-locator-invalid``,
    ``skill-locator-absolute``, ``provider-unresolved``, ``provider-id-mismatch``,
    ``skill-graph-missing``, ``skill-entry-missing`` (and any load error).
    """
    fs = fs or OSFileSystem()
    path, locator, graph, entry, manifest_path = locate_binding(
        skill_md, registry, fs=fs, max_file_bytes=max_file_bytes
    )
    provider = load_provider(manifest_path, fs=fs, max_file_bytes=max_file_bytes)
    check_binding(provider, path, locator, graph, entry, fs)
    return SkillBinding(
        schema="agent-graph.skill-binding.v1",
        skill_path=path,
        locator=locator,
        graph=graph,
        entry=entry,
        manifest_path=manifest_path,
        provider=provider.manifest.id,
    )
