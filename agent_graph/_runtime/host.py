"""Host glue: reading a route's resources and checking an Action's input.

:class:`ResourceReader` turns any location a route gives into content for the
Agent and the read receipt to keep, for the three kinds of location:

* a static file (Markdown, a Skill, a schema) is read through the file system
  the Provider was loaded from (a :class:`~agent_graph.MemoryFileSystem`'s
  Provider never touches the disk) and must still have the digest the
  Provider was loaded with (``resource-digest-mismatch`` otherwise: load the
  Provider again);
* a graph-action view is materialized at the route's revision into the cache
  folder the host names (``materialize_cache``, on disk), through
  :func:`~agent_graph.materialize_resource`;
* a host-action resource is produced by the handler the host registered for
  it (``host_handlers``), and its answer is checked with
  :func:`~agent_graph.validate_host_action_result` before it is used.

:func:`validate_action_input` checks a value against an Action's
``inputSchema``, read through the Provider's file system with its digest checked. Nothing here writes anything but the materialization cache
the host named, and nothing is remembered between calls.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from .._core.canonical import digest_bytes
from .._core.errors import AgentGraphError
from .._core.model import (
    FileLocation,
    GraphActionLocation,
    HostActionLocation,
    HostActionResult,
    ReadReceipt,
    Route,
    RouteAction,
)
from .._core.provider import Provider

__all__ = ["HostHandler", "ResourceContent", "ResourceReader", "validate_action_input"]

#: A host handler: gets the host-action location, answers an ``agent-graph.host-action-result.v1``.
HostHandler = Callable[[HostActionLocation], "HostActionResult | Mapping[str, Any]"]

Location = FileLocation | GraphActionLocation | HostActionLocation


class ResourceContent(msgspec.Struct, frozen=True, kw_only=True):
    """What reading a location gave: the text for the Agent, the exact bytes and the receipt to keep.

    ``location`` is the location read (a graph-action view's carries its
    ``digest`` and ``filePath`` in the cache); ``result`` is the validated
    host-action result for a host-action resource, else None.
    """

    content: str
    data: bytes
    receipt: ReadReceipt
    location: FileLocation | GraphActionLocation | HostActionLocation
    media_type: str
    result: HostActionResult | None = None


class ResourceReader:
    """Reads the locations of a Provider's routes (see the module docs for the three kinds).

    ``workspace`` is the workspace of graph-action materializers;
    ``materialize_cache`` the folder their output is cached in (needed only
    to read graph-action views); ``host_handlers`` maps a handler name to the
    function that answers it; ``materialize_env``, ``materialize_timeout``
    and ``max_output_bytes`` are handed to the materializer, with
    ``monotonic``, the clock its timeout is read from (default
    :func:`time.monotonic`); ``file_system`` reads static files (default: the
    one the Provider was loaded from).
    """

    __slots__ = (
        "file_system",
        "host_handlers",
        "materialize_cache",
        "materialize_env",
        "materialize_timeout",
        "max_output_bytes",
        "monotonic",
        "provider",
        "workspace",
    )

    def __init__(
        self,
        provider: Provider,
        *,
        workspace: str,
        materialize_cache: str | None = None,
        host_handlers: Mapping[str, HostHandler] | None = None,
        materialize_env: Mapping[str, str] | None = None,
        materialize_timeout: float = 30.0,
        max_output_bytes: int = 10 * 1024 * 1024,
        file_system: Any = None,
        monotonic: Callable[[], float] | None = None,
    ) -> None:
        if getattr(provider, "graphs", None) is None:
            raise AgentGraphError(
                "argument-invalid", "ResourceReader needs the loaded Provider (ag.load_provider)"
            )
        if not isinstance(workspace, str) or not workspace:
            raise AgentGraphError("argument-invalid", "ResourceReader needs the workspace folder")
        if host_handlers is not None and not isinstance(host_handlers, Mapping):
            raise AgentGraphError("argument-invalid", "host_handlers must map handler names to functions")
        self.provider = provider
        self.workspace = workspace
        self.materialize_cache = materialize_cache
        self.host_handlers: dict[str, HostHandler] = dict(host_handlers or {})
        self.materialize_env = dict(materialize_env or {})
        self.materialize_timeout = materialize_timeout
        self.max_output_bytes = max_output_bytes
        self.monotonic = monotonic
        #: None: the Provider's own file system (see :func:`agent_graph._load.files.read_provider_file`).
        self.file_system = file_system

    def register(self, handler: str, function: HostHandler) -> None:
        """Register (or replace) the function that answers host-action ``handler``."""
        if not isinstance(handler, str) or not handler or not callable(function):
            raise AgentGraphError("argument-invalid", "register needs a handler name and a function")
        self.host_handlers[handler] = function

    def read(self, location: Location) -> ResourceContent:
        """Content and read receipt of a location taken from a route."""
        if isinstance(location, FileLocation):
            return self._read_file(location)
        if isinstance(location, GraphActionLocation):
            return self._read_view(location)
        if isinstance(location, HostActionLocation):
            return self._read_host(location)
        raise AgentGraphError("argument-invalid", "read needs a location from a route's resources")

    # ------------------------------------------------------------ the three kinds

    def _read_file(self, location: FileLocation) -> ResourceContent:
        if self.file_system is None:
            from .._load.files import read_provider_file

            data = read_provider_file(
                self.provider, location.file_path, f"resource {location.id}", location.digest
            )
        else:
            try:
                data = self.file_system.read_bytes(location.file_path)
            except OSError as error:
                raise AgentGraphError(
                    "file-read-failed", f"Cannot read resource {location.id} at {location.file_path}: {error}"
                ) from None
            if digest_bytes(data) != location.digest:
                raise AgentGraphError(
                    "resource-digest-mismatch",
                    f"Resource {location.id} at {location.file_path} changed since the Provider was loaded "
                    f"({digest_bytes(data)}, not {location.digest}); load the Provider again",
                )
        receipt = ReadReceipt(id=location.id, digest=location.digest)
        return ResourceContent(
            content=data.decode("utf-8", errors="replace"),
            data=data,
            receipt=receipt,
            location=location,
            media_type=location.media_type,
        )

    def _read_view(self, location: GraphActionLocation) -> ResourceContent:
        from .materialize import materialize_resource

        if self.materialize_cache is None:
            raise AgentGraphError(
                "argument-invalid",
                f"Reading graph-action view {location.id} needs a cache folder: ResourceReader(materialize_cache=…)",
            )
        if not location.revision:
            raise AgentGraphError(
                "revision-invalid",
                f"Location {location.id} has no revision; take the location from the route that selected it",
            )
        view = materialize_resource(
            self.provider,
            location.materialize.resource_id,
            cache=self.materialize_cache,
            revision=location.revision,
            workspace=self.workspace,
            env=self.materialize_env,
            timeout=self.materialize_timeout,
            max_output_bytes=self.max_output_bytes,
            monotonic=self.monotonic,
        )
        path = view.file_path or ""
        from .._load.fs import read_regular_file

        data = read_regular_file(path, f"the view {location.id}", self.max_output_bytes)  # the host's cache
        if digest_bytes(data) != view.digest:
            raise AgentGraphError(
                "resource-digest-mismatch",
                f"The cached view {path} of {location.id} changed while it was read",
            )
        receipt = ReadReceipt(id=location.id, digest=view.digest, revision=location.revision)
        return ResourceContent(
            content=data.decode("utf-8", errors="replace"),
            data=data,
            receipt=receipt,
            location=msgspec.structs.replace(view, read_state=location.read_state),
            media_type=view.media_type,
        )

    def _read_host(self, location: HostActionLocation) -> ResourceContent:
        from .host_action import host_action_read_receipt, validate_host_action_result

        handler_name = location.materialize.handler
        handler = self.host_handlers.get(handler_name)
        if handler is None:
            raise AgentGraphError(
                "host-action-handler-missing",
                f"No handler is registered for host action {handler_name} of {location.id}: "
                "ResourceReader(host_handlers={…}) or reader.register(…)",
            )
        answer = handler(location)
        checked = validate_host_action_result(location, answer, provider=self.provider)
        receipt = host_action_read_receipt(location, checked, provider=self.provider)
        output = checked.output
        value: Any = output.inline if output.resource is None else msgspec.to_builtins(output.resource)
        text = json.dumps(value, ensure_ascii=False)
        return ResourceContent(
            content=text,
            data=text.encode("utf-8"),
            receipt=receipt,
            location=location,
            media_type=location.media_type,
            result=checked,
        )


def _input_schema_location(
    provider: Provider, action: Route | RouteAction | str
) -> tuple[str, FileLocation | None]:
    if isinstance(action, Route):
        if action.action is None:
            raise AgentGraphError(
                "argument-invalid", f"Route {action.route_id} has no Action (a Gate route?)"
            )
        return action.action.id, action.action.input_schema
    if isinstance(action, RouteAction):
        return action.id, action.input_schema
    if isinstance(action, str):
        for loaded in provider.actions.values():
            if loaded.definition.id == action:
                schema = loaded.route_action.input_schema if loaded.route_action is not None else None
                return action, schema
        raise AgentGraphError("action-missing", f"Provider {provider.manifest.id} has no Action {action}")
    raise AgentGraphError("argument-invalid", "action must be a Route, a route's action or an Action ID")


def validate_action_input(provider: Provider, action: Route | RouteAction | str, value: Any) -> Any:
    """Check ``value`` against the ``inputSchema`` of an Action; returns ``value``.

    ``action`` is a Route (its Action), a route's ``action`` or an Action ID.
    An Action without an input schema accepts any value. A value that does
    not match is ``action-input-invalid``, with one diagnostic per violation.
    """
    from .._syntax.parse import parse_structured
    from .._syntax.schema import validate_with_schema

    if getattr(provider, "graphs", None) is None:
        raise AgentGraphError("argument-invalid", "validate_action_input needs the loaded Provider")
    action_id, location = _input_schema_location(provider, action)
    if location is None:
        return value
    from .._load.files import read_provider_file

    data = read_provider_file(
        provider, location.file_path, f"the input schema of {action_id}", location.digest
    )
    document = parse_structured(data, location.file_path)
    try:
        validate_with_schema(document, value, f"input of {action_id}", name=location.file_path)
    except AgentGraphError as error:
        if error.code != "schema-invalid":
            raise
        raise AgentGraphError(
            "action-input-invalid",
            f"The input of Action {action_id} does not match its inputSchema {location.file_path}",
            error.diagnostics,
        ) from None
    return value
