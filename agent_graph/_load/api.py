"""Conveniences at the edge of the core: defaults that need the process environment.

``route()`` here resolves the workspace (default: the current directory; a
relative one against it) before calling the pure router, and the locate
functions answer the ``resource locate`` and ``code locate`` questions.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from typing import Any

from .._core import route as _route
from .._core.errors import AgentGraphError
from .._core.model import (
    CodeLocation,
    FileLocation,
    GraphActionLocation,
    HostActionLocation,
    ReadReceipts,
    Route,
)
from .._core.provider import Provider
from .._core.receipts import Receipts

REVISION_PATTERN = re.compile(r"sha256:[0-9a-f]{64}")


def route(
    provider: Provider,
    graph: str,
    entry: str = "default",
    route_id: str | None = None,
    *,
    facts: Mapping[str, Any] | None = None,
    outcomes: Mapping[str, Any] | None = None,
    authorities: Iterable[str] | None = None,
    revision: str | None = None,
    workspace: str | None = None,
    receipts: Receipts | ReadReceipts | Mapping[str, Any] | None = None,
) -> Route:
    """Resolve one route of ``graph``/``entry`` into an ``agent-graph.route.v1``.

    The arguments come in the order of :func:`evaluate` (``provider, graph,
    entry``), then the route ID.

    Evaluates again with the given state, then checks ``revision`` (when given,
    ``route-revision-stale`` if the state changed) and that ``route_id`` is still
    a candidate (``route-stale``); ``route_id=None`` takes the primary route
    (``route-unavailable`` when there is none). A ``revision`` that is not a
    ``sha256:`` digest is ``revision-invalid``.
    ``workspace`` is where ``cwd: workspace`` Actions run (default: the current
    directory). ``receipts`` (``agent-graph.resource-read-receipts.v1``) mark
    resources the conversation already read as ``current`` (an
    :class:`~agent_graph.Receipts` works too); they never change
    which route is chosen. No file is read.
    """
    # Names are exact strings from here on: a subclass's own __eq__ or startswith takes no part.
    if type(graph) is not str and isinstance(graph, str):
        graph = str.__str__(graph)
    if type(entry) is not str and isinstance(entry, str):
        entry = str.__str__(entry)
    if type(route_id) is not str and isinstance(route_id, str):
        route_id = str.__str__(route_id)
    if type(revision) is not str and isinstance(revision, str):
        revision = str.__str__(revision)
    if isinstance(entry, str) and entry.startswith("route:") and _looks_like_route_id(provider, graph, entry):
        raise AgentGraphError(
            "argument-invalid",
            f"route() takes the entry before the route ID, as evaluate() does: route(provider, graph, entry, "
            f"route_id); {entry} was given as the entry",
        )
    if revision is not None and not (isinstance(revision, str) and REVISION_PATTERN.fullmatch(revision)):
        raise AgentGraphError(
            "revision-invalid",
            f"A revision is sha256: and 64 lower-case hex digits, as evaluate() returns it; got {revision!r:.80}",
        )
    if workspace is None:
        workspace = os.getcwd()
    elif not isinstance(workspace, str):
        raise AgentGraphError(
            "argument-invalid", f"workspace must be a path string, not {type(workspace).__name__}"
        )
    else:
        workspace = str.__str__(workspace)
        if not os.path.isabs(workspace):
            workspace = os.path.abspath(workspace)
    return _route.route(
        provider,
        graph,
        entry,
        route_id,
        facts=facts,
        outcomes=outcomes,
        authorities=authorities,
        revision=revision,
        workspace=workspace,
        receipts=receipts,
    )


def _looks_like_route_id(provider: Provider, graph: str, entry: str) -> bool:
    """Whether ``entry`` is a route ID passed in the entry's place (the earlier argument order)."""
    compiled = provider.graphs.get(graph) if isinstance(graph, str) else None
    if compiled is not None and entry in compiled.definition.entrypoints:
        return False
    return len(entry) == 26 and all(c in "0123456789abcdef" for c in entry[6:])


def locate_resource(
    provider: Provider, reference_or_id: str, revision: str | None = None
) -> FileLocation | GraphActionLocation | HostActionLocation:
    """The location of a resource, by ID or by Provider-relative path (``resource-missing`` otherwise)."""
    import msgspec

    from .fs import contained_path

    path = provider.resources_by_id.get(reference_or_id)
    if path is None:
        try:
            candidate = contained_path(provider.root, reference_or_id, "resource reference")
        except AgentGraphError:
            candidate = ""
        if candidate in provider.resources:
            path = candidate
    if path is None:
        raise AgentGraphError(
            "resource-missing", f"Provider {provider.manifest.id} has no resource {reference_or_id}"
        )
    location = provider.resources[path].location
    if revision is not None and not isinstance(location, FileLocation):
        location = msgspec.structs.replace(location, revision=revision)
    return location


def locate_code(provider: Provider, code: str) -> CodeLocation:
    """A Code Catalog entry with its document located (``code-missing`` otherwise)."""
    entry = provider.codes.get(code)
    if entry is None:
        raise AgentGraphError(
            "code-missing", f"Provider {provider.manifest.id} has no catalog entry for {code}"
        )
    document_path = provider.code_documents.get(code)
    document = provider.resources[document_path].location if document_path else None
    return CodeLocation(
        schema="agent-graph.code-location.v1",
        provider=provider.manifest.id,
        code=entry.code,
        kind=entry.kind,
        summary=entry.summary,
        severity=entry.severity,
        document=document if isinstance(document, FileLocation) else None,
    )
