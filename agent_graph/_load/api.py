"""Conveniences at the edge of the core: the locate functions.

They answer the ``resource locate`` and ``code locate`` questions.
``route()`` is the step's, in :mod:`agent_graph._runtime.step`.
"""

from __future__ import annotations

import re

from .._core.errors import AgentGraphError
from .._core.model import (
    CodeLocation,
    FileLocation,
    GraphActionLocation,
    HostActionLocation,
)
from .._core.provider import Provider

REVISION_PATTERN = re.compile(r"sha256:[0-9a-f]{64}")


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
