"""Listing a store's Runs a page at a time: the query, its cursor, and the page the face answers.

``list()`` of every store (both faces) orders Runs by their key
``(created_at, id, ref)`` (:func:`~agent_graph._runtime.run_storage.run_key`;
``ref`` is the Run ID except for a Run file the file store holds under
another name), ascending or ``newest_first``, and pages on it: a page ends
with the key of its last Run, handed to the caller as an opaque cursor, and
the next page holds the Runs whose key comes after it. A keyset, not an
offset, on a key no write changes: a Run written while a caller pages is
never skipped nor answered twice, a Run created meanwhile is answered once
if its key comes after the cursor, and a page costs what it holds where the
storage has an index on the key. (The key is the creation, not the last
update, so that no index of a SQL store holds a column every turn writes:
the last update is a filter, ``updated_after`` and ``updated_before``.)

Rules: the face checks every argument here, hands the storage a
:class:`~agent_graph._runtime.run_storage.RunQuery` (asking for one Run more
than the page, to know whether another follows) and filters, orders and cuts
what the storage answers again, so a storage that ignores some of the query
still gives the right page. The cursor is base64url text of a JSON array
(``[order, created_at, id, ref]``); callers treat it as opaque.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from typing import Any

import msgspec

from .._core.errors import AgentGraphError
from .._core.model import RunPage, RunSummary
from .._core.plain import json_bytes
from .run_codec import key_text
from .run_storage import RunQuery, run_key

__all__ = ["MAX_LIMIT", "STATUSES", "checked_query", "decode_cursor", "encode_cursor", "page_of"]

#: The evaluation statuses a Run summary may carry (and ``list(status=…)`` filter on).
STATUSES = ("actionable", "waiting-user", "blocked", "complete", "error")
#: The largest page a listing answers.
MAX_LIMIT = 100_000

_ORDERS = {False: "created", True: "newest-created"}


def encode_cursor(summary: RunSummary, newest_first: bool) -> str:
    """The cursor that follows ``summary`` in a listing of that order."""
    raw = json_bytes([_ORDERS[newest_first], *run_key(summary)])
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: Any, newest_first: bool) -> tuple[str, str, str]:
    """The key a cursor stands for (``argument-invalid`` unless this store's ``list`` gave it, in this order)."""
    problem = "list's cursor must be the next_cursor a page of list() answered"
    if not isinstance(cursor, str) or not cursor or len(cursor) > 4 * 1024 * 1024 or not cursor.isascii():
        raise AgentGraphError("argument-invalid", problem)
    try:
        raw = msgspec.json.decode(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (binascii.Error, ValueError, msgspec.DecodeError):
        raise AgentGraphError("argument-invalid", f"{problem} (this one is not)") from None
    if (
        not isinstance(raw, list)
        or len(raw) != 4
        or not all(isinstance(part, str) for part in raw)
        or raw[0] not in _ORDERS.values()
    ):
        raise AgentGraphError("argument-invalid", f"{problem} (this one is not)")
    if raw[0] != _ORDERS[newest_first]:
        raise AgentGraphError(
            "argument-invalid",
            "list's cursor belongs to a listing in the other order: pass the same newest_first as for its page",
        )
    return (raw[1], raw[2], raw[3])


def checked_query(
    provider: str | None,
    graph: Any,
    status: Any,
    updated_after: str | None,
    updated_before: str | None,
    limit: Any,
    cursor: Any,
    newest_first: Any,
) -> RunQuery:
    """The storage's query for ``list(…)``'s arguments (``argument-invalid`` for one it cannot take)."""
    if graph is not None and not isinstance(graph, str):
        raise AgentGraphError("argument-invalid", f"graph must be a graph ID (a string), not {graph!r:.60}")
    if status is not None and status not in STATUSES:
        raise AgentGraphError(
            "argument-invalid", f"status must be one of {', '.join(STATUSES)} (or None), not {status!r:.60}"
        )
    if limit is not None and (
        isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT
    ):
        raise AgentGraphError(
            "argument-invalid", f"limit must be a number of Runs from 1 to {MAX_LIMIT} (or None: every Run)"
        )
    if not isinstance(newest_first, bool):
        raise AgentGraphError("argument-invalid", "newest_first must be True or False")
    for value, label in ((provider, "provider"), (graph, "graph"), (updated_after, "updated_after"),
                         (updated_before, "updated_before")):  # fmt: skip
        if value is not None:
            key_text(value, f"list's {label}")
    after = None if cursor is None else decode_cursor(cursor, newest_first)
    return RunQuery(
        provider=provider,
        graph=graph,
        updated_after=updated_after,
        updated_before=updated_before,
        status=status,
        after=after,
        newest_first=newest_first,
        limit=None if limit is None else limit + 1,
    )


def page_of(found: Iterable[RunSummary], query: RunQuery, limit: int | None) -> RunPage:
    """The page a storage's answer gives: filtered, ordered and cut again, with the cursor of what follows.

    A status no evaluation answers (a storage's row holding another word) is read as None.
    """
    chosen: list[RunSummary] = []
    for summary in found:
        if not isinstance(summary, RunSummary):
            raise AgentGraphError(
                "run-store-failed",
                f"The store's list_runs answered a {type(summary).__name__}, not a RunSummary",
            )
        if summary.status is not None and summary.status not in STATUSES:
            summary = msgspec.structs.replace(summary, status=None)
        if query.selects(summary):
            chosen.append(summary)
    chosen.sort(key=run_key, reverse=query.newest_first)
    if limit is None or len(chosen) <= limit:
        return RunPage(chosen)
    del chosen[limit:]
    return RunPage(chosen, encode_cursor(chosen[-1], query.newest_first))
