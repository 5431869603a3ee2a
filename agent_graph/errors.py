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

from ._core import errors as _errors
from ._core.errors import *  # noqa: F403 - the exception, its families and codes: that module's __all__

__all__ = list(_errors.__all__)
