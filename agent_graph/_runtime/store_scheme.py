"""A scheme of Run store URLs: how ``open_store`` finds the store a ``scheme://`` URL names.

The built-in stores define one each (``SCHEME`` of :mod:`~agent_graph._runtime.runs_sqlite`,
:mod:`~agent_graph._runtime.runs_postgres_async`, :mod:`~agent_graph._runtime.runs_memory`); a
store in another distribution names its own in an entry point of the group
``agent_graph.stores`` (:mod:`agent_graph._runtime.stores` looks them up).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import NamedTuple

from .run_store import BaseRunStore
from .run_store_async import AsyncRunStore

__all__ = ["StoreScheme"]


class StoreScheme(NamedTuple):
    """A scheme of Run store URLs: what an entry point of the group ``agent_graph.stores`` names.

    The entry point's name is the scheme (``redis`` for ``redis://…``).
    ``open(url, **options)`` answers the blocking store; ``open_async(url,
    **options)`` (a coroutine function) the async one, and without it
    ``open_async_store`` runs the blocking store's storage on worker threads.
    Options a function does not take (keyword-only parameters; ``clock``,
    ``new_id``, ``lock_timeout`` and ``monotonic`` are the common ones) are
    refused with ``argument-invalid`` before it is called. ``name`` names the
    store in messages and ``example`` shows a URL of the scheme.
    """

    open: Callable[..., BaseRunStore]
    open_async: Callable[..., Awaitable[AsyncRunStore]] | None = None
    name: str = ""
    example: str = ""
