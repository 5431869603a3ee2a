"""The errors of agent-graph: :class:`AgentGraphError`, its families, and the codes they carry.

``import agent_graph.errors`` for everything about failures in one place (the
families are also on ``agent_graph`` itself). Every failure is an
:class:`AgentGraphError` with a stable ``code`` (:data:`ErrorCode`, listed in
docs/errors.md); a code belongs to at most one family (:data:`FAMILIES`), a
subclass a host catches instead of comparing codes::

    try:
        store.record(run_id, key, "completed", revision=step.revision)
    except agent_graph.errors.RevisionStale:
        ...  # read the next step again

:func:`family_of` names the class a code raises as.
"""

from __future__ import annotations

from ._core.errors import (
    FAMILIES as FAMILIES,
    AgentGraphError as AgentGraphError,
    Diagnostic as Diagnostic,
    ErrorCode as ErrorCode,
    FileAccessFailed as FileAccessFailed,
    InputInvalid as InputInvalid,
    MaterializeFailed as MaterializeFailed,
    NotFound as NotFound,
    ProviderInvalid as ProviderInvalid,
    Refused as Refused,
    RevisionStale as RevisionStale,
    RunInvalid as RunInvalid,
    Severity as Severity,
    StoreUnavailable as StoreUnavailable,
    family_of as family_of,
)

__all__ = [
    "FAMILIES",
    "AgentGraphError",
    "Diagnostic",
    "ErrorCode",
    "FileAccessFailed",
    "InputInvalid",
    "MaterializeFailed",
    "NotFound",
    "ProviderInvalid",
    "Refused",
    "RevisionStale",
    "RunInvalid",
    "Severity",
    "StoreUnavailable",
    "family_of",
]
