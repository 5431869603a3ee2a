"""The files a Provider's nodes reference: Action definitions and resources, each read once.

The loading state (:class:`LoadState`: the file set so far and what was read
of each reference), Action definitions with the files they bring (entry,
schemas, listed files, an agent Skill's folder), the static and dynamic
resources of behaviour.md §10 and §11 (front matter, ``resource.file.v1``,
``graph-action.v1``, ``host-action.v1``) and the host-action materializer
rules. A reference that cannot be followed fails with a message naming who
made it (:func:`referenced`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .._core.checks import closest_names
from .._core.errors import AgentGraphError
from .._core.model import (
    Action,
    FileLocation,
    FileResource,
    GraphActionLocation,
    GraphActionResource,
    HostActionInput,
    HostActionLocation,
    HostActionMaterialize,
    HostActionResource,
    MaterializeRef,
)
from .._core.provider import LoadedAction, LoadedResource
from .._syntax import schema as _schema
from .fs import FileSystem, contained_path
from .reader import Reader, convert

FILE_LOCATION = "agent-graph.resource-location.file.v1"
Descriptor = FileResource | GraphActionResource | HostActionResource
#: Each resource protocol: the schema that checks its descriptor and the Struct it reads into.
RESOURCE_PROTOCOLS: dict[str, tuple[str, type[Descriptor]]] = {
    "agent-graph.resource.file.v1": ("resource-file", FileResource),
    "agent-graph.resource.graph-action.v1": ("resource-graph-action", GraphActionResource),
    "agent-graph.resource.host-action.v1": ("resource-host-action", HostActionResource),
}
LEGACY_RESOURCE = "agent-graph.resource.v1"
STATIC_KINDS = frozenset({"procedure", "diagnostic", "template", "schema", "skill"})
PROTOCOL_IDENTITY = re.compile(r"^[a-z0-9][a-z0-9._-]*(/[a-z0-9._-]+)*/v[0-9]+\Z")


@dataclass
class LoadState:
    fs: FileSystem
    root: str
    reader: Reader
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


def load_action_definition(state: LoadState, reference: str) -> tuple[str, Action]:
    path = state.contained(reference, "action reference")
    existing = state.actions.get(path)
    if existing is not None:
        return path, existing.definition
    state.reader.ensure_contained(path, "action")
    raw = state.reader.structured(path)
    state.reader.validate("action", raw, path)
    definition: Action = convert(raw, Action, path)
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


def action_files(state: LoadState, path: str, action: Action, label: str) -> tuple[str, ...]:
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
        named_by = f"named by {field_name.split('/')[0]} of Action {action.id}"
        with referring(reader.placed(named_by, path, "/" + field_name)):
            resolved = contained_path(state.root, reference, label)
            reader.ensure_contained(resolved, label)
        found[resolved] = None
    if action.skill:
        with referring(reader.placed(f"named by skill of Action {action.id}", path, "/skill")):
            skill_path = contained_path(state.root, action.skill, "agent skill reference")
            reader.ensure_contained(skill_path, "agent skill")
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
REFERENCE_CODES = frozenset(
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


def referenced(error: AgentGraphError, where: Where) -> AgentGraphError:
    """``error`` with ``(<where>)`` added (who refers to the file), for a file or path that cannot be followed."""
    if error.code not in REFERENCE_CODES or not where or getattr(error, "referrer", None):
        return error
    if callable(where):
        where = where()
    located = AgentGraphError(error.code, f"{error.message} ({where})", error.diagnostics)
    located.referrer = where  # type: ignore[attr-defined]
    return located


@contextlib.contextmanager
def referring(where: Where) -> Iterator[None]:
    """Re-raise an error of the block as :func:`referenced` by ``where`` (a callable is called only then)."""
    try:
        yield
    except AgentGraphError as error:
        raise referenced(error, where) from None


def include_action(
    state: LoadState, reference: str, direct: dict[str, None], label: str, where: Where = ""
) -> tuple[str, Action]:
    included = state.included_actions.get(reference)
    if included is None:
        with referring(where):
            path, definition = load_action_definition(state, reference)
            if path not in state.actions:
                # Registered with its route parts once the file set is known (see assembly._finish_action).
                state.actions[path] = LoadedAction(
                    path=path, definition=definition, files=(), route_action=None, plan=()
                )
            included = (path, definition, action_files(state, path, definition, label))
        state.included_actions[reference] = included
    path, definition, files = included
    for file in files:
        if file not in direct:
            state.add_file(file)
            direct[file] = None
    return path, definition


def _front_matter_resource(state: LoadState, path: str) -> LoadedResource:
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


def _described(path: str, content: str, schema: str, definition: Descriptor) -> LoadedResource:
    """A resource read from its descriptor at ``path``: its location carries the descriptor's ID, kind and type.

    A host-action resource's location is completed once its materializer is
    checked (:func:`check_host_materializer`); ``content`` is the static file of a
    file resource, else the descriptor itself.
    """
    rid, kind, media_type = definition.id, definition.kind, definition.media_type
    location: FileLocation | GraphActionLocation | HostActionLocation
    if isinstance(definition, FileResource):
        location = FileLocation(
            schema=FILE_LOCATION, id=rid, kind=kind, media_type=media_type, digest="", file_path=content
        )
        materializer = None
    elif isinstance(definition, GraphActionResource):
        location = GraphActionLocation(
            schema="agent-graph.resource-location.graph-action.v1",
            id=rid,
            kind=kind,
            media_type=media_type,
            materialize=MaterializeRef(resource_id=rid),
        )
        materializer = definition.materializer
    else:
        location = HostActionLocation(
            schema="agent-graph.resource-location.host-action.v1",
            id=rid,
            kind=kind,
            media_type=media_type,
            materialize=HostActionMaterialize(handler="", input=definition.input, output_schema=""),
        )
        materializer = definition.materializer
    return LoadedResource(
        path=path,
        content_path=content,
        id=rid,
        kind=kind,
        media_type=media_type,
        dynamic=materializer is not None,
        protocol=schema,
        location=location,
        definition=definition,
        materializer=materializer,
    )


def load_resource(state: LoadState, reference: str) -> LoadedResource:
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
            schema_name, struct = RESOURCE_PROTOCOLS[schema]
            state.reader.validate(schema_name, candidate, path)
            definition: Descriptor = convert(candidate, struct, path)
            content = path
            if isinstance(definition, FileResource):
                content = contained_path(state.root, definition.path, "static resource content")
                state.reader.ensure_contained(content, "static resource content")
            return _described(path, content, schema, definition)
    return _front_matter_resource(state, path)


def include_resource(state: LoadState, reference: str, where: Where = "") -> LoadedResource:
    with referring(where):
        path = state.contained(reference, "resource reference")
        existing = state.resources.get(path)
        if existing is not None:
            return existing
        resource = load_resource(state, reference)
    previous = state.resource_ids.get(resource.id)
    if previous is not None and previous != resource.path:
        raise duplicate_resource(state, resource, previous)
    state.resource_ids[resource.id] = resource.path
    state.resources[resource.path] = resource
    state.add_file(resource.path)
    state.add_file(resource.content_path)
    return resource


def duplicate_resource(state: LoadState, resource: LoadedResource, previous: str) -> AgentGraphError:
    reader = state.reader
    return reader.error_at(
        "resource-id-duplicate",
        f"Resource id {resource.id} is declared by both {reader.display(previous)} and "
        f"{reader.display(resource.path)}",
        resource.path,
        "/id",
    )


def check_host_materializer(
    state: LoadState, resource: LoadedResource, action_path: str, action: Action
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
