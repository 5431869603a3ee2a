"""Opening a Run store by URL: a folder of Run files, or a ``scheme://`` that names a store.

A scheme is a :class:`~agent_graph._runtime.store_scheme.StoreScheme`. The
built-in ones (``sqlite:``, ``postgresql:`` and ``postgres:``, ``memory:``)
are consulted first, from :data:`BUILT_IN`; any other scheme is looked up
among the entry points of the group ``agent_graph.stores``
(:data:`ENTRY_POINTS`) of the installed distributions, where agent-graph
registers its own schemes too. So a store in a separate distribution is found
by ``open_store``, ``open_async_store``, the command line (``--store``) and
``agent-graph mcp --store`` alike, once it is installed; the entry points are
read anew at each look-up (nothing is cached in the process). A string
without ``scheme://`` is a folder of Run files.

The one place that knows every store; a store module knows none of the others.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._core.errors import AgentGraphError
from .run_store import BaseRunStore
from .store_scheme import StoreScheme

if TYPE_CHECKING:
    from .run_store_async import AsyncRunStore

__all__ = ["BUILT_IN", "ENTRY_POINTS", "installed_schemes", "open_async_store", "open_store", "store_scheme"]

#: The entry-point group of store URL schemes: each entry point's name is a scheme, its object a StoreScheme.
ENTRY_POINTS = "agent_graph.stores"


def _sqlite() -> StoreScheme:
    from .runs_sqlite import SCHEME

    return SCHEME


def _postgres() -> StoreScheme:
    from .runs_postgres_async import SCHEME

    return SCHEME


def _memory() -> StoreScheme:
    from .runs_memory import SCHEME

    return SCHEME


#: The schemes agent-graph brings, consulted before any entry point (one cannot be replaced).
BUILT_IN: dict[str, Callable[[], StoreScheme]] = {
    "sqlite": _sqlite,
    "postgresql": _postgres,
    "postgres": _postgres,
    "memory": _memory,
}


def _scheme_name(url_or_folder: str | None) -> str | None:
    """The scheme a URL names (lower case), or None for a folder."""
    if url_or_folder is not None and (not isinstance(url_or_folder, str) or not url_or_folder):
        raise AgentGraphError("store-url-invalid", "A Run store is named by a URL or a folder path")
    if url_or_folder is None:
        return None
    scheme, separator, _ = url_or_folder.partition("://")
    if separator and scheme.isidentifier():
        return scheme.lower()
    return None


def _entry_points() -> list[Any]:
    import importlib.metadata

    return list(importlib.metadata.entry_points(group=ENTRY_POINTS))


def installed_schemes() -> list[str]:
    """Every scheme a store URL may use here: the built-in ones and those of installed distributions, sorted."""
    return sorted({*BUILT_IN, *(entry.name.lower() for entry in _entry_points())})


def _unknown(scheme: str) -> AgentGraphError:
    known = ", ".join(f"{name}://" for name in installed_schemes())
    return AgentGraphError(
        "store-url-invalid",
        f"Unknown Run store {scheme}://; use a folder path or a URL of an installed store: {known} "
        f"(a store in another distribution registers its scheme under the entry points {ENTRY_POINTS})",
    )


def store_scheme(url_or_folder: str | None) -> StoreScheme | None:
    """The scheme a URL names (None: a folder of Run files); ``store-url-invalid`` for one not installed.

    A built-in scheme first, then the entry points of the group
    ``agent_graph.stores``. An entry point that cannot be loaded is
    ``run-store-unavailable``; one that does not name a :class:`StoreScheme`
    is ``store-url-invalid``.
    """
    scheme = _scheme_name(url_or_folder)
    if scheme is None:
        return None
    built_in = BUILT_IN.get(scheme)
    if built_in is not None:
        return built_in()
    for entry in _entry_points():
        if entry.name.lower() != scheme:
            continue
        try:
            found = entry.load()
        except Exception as error:
            raise AgentGraphError(
                "run-store-unavailable",
                f"The Run store of {scheme}:// ({entry.value}) cannot be loaded: {type(error).__name__}: {error}",
            ) from None
        if not isinstance(found, StoreScheme):
            raise AgentGraphError(
                "store-url-invalid",
                f"The entry point {scheme} of {ENTRY_POINTS} ({entry.value}) names a {type(found).__name__}, "
                "not an agent_graph.storage.StoreScheme",
            )
        return found
    raise _unknown(scheme)


def check_options(opener: Callable[..., Any], label: str, options: dict[str, Any]) -> None:
    """``argument-invalid`` for an option the store ``opener`` does not take, naming the ones it does."""
    parameters = inspect.signature(opener).parameters.values()
    if any(parameter.kind is inspect.Parameter.VAR_KEYWORD for parameter in parameters):
        return
    taken = [parameter.name for parameter in parameters if parameter.kind is inspect.Parameter.KEYWORD_ONLY]
    unknown = sorted(name for name in options if name not in taken)
    if unknown:
        raise AgentGraphError(
            "argument-invalid",
            f"The {label} Run store takes no option {', '.join(unknown)}; its options: {', '.join(taken)}",
        )


def _label(scheme: StoreScheme, url: str) -> str:
    return scheme.name or url.partition("://")[0]


def open_store(url_or_folder: str | None = None, **options: Any) -> BaseRunStore:
    """The Run store a URL names.

    ``sqlite:///runs.db`` (relative to the current folder) and
    ``sqlite:////var/lib/runs.db`` (absolute) open a :class:`SqliteRunStore`;
    ``postgresql://…`` (or ``postgres://…``) a :class:`PostgresRunStore`,
    the URL handed to libpq as it is; ``memory://`` a new, empty
    :class:`MemoryRunStore`; another ``scheme://`` the store an installed
    distribution registers for it (entry points ``agent_graph.stores``), and
    one that none does is ``store-url-invalid``, naming the installed ones.
    Anything else is a folder of Run files (:class:`FileRunStore`, a Run
    addressed by its path or its Run ID), and None the current folder.
    ``options`` (``clock``, ``new_id``, ``lock_timeout``, ``monotonic``, and
    the store's own) are passed on; one the store does not take is
    ``argument-invalid``. :func:`open_async_store` opens the same stores with
    an async face.
    """
    scheme = store_scheme(url_or_folder)
    if scheme is None:
        from .runs import FileRunStore

        check_options(FileRunStore.__init__, "folder", options)
        return FileRunStore(url_or_folder, **options)
    assert url_or_folder is not None
    check_options(scheme.open, _label(scheme, url_or_folder), options)
    store = scheme.open(url_or_folder, **options)
    if not isinstance(store, BaseRunStore):
        raise AgentGraphError(
            "store-url-invalid",
            f"The Run store of {url_or_folder.partition('://')[0]}:// opened a {type(store).__name__}, "
            "not an agent_graph.BaseRunStore",
        )
    return store


async def open_async_store(url_or_folder: str | None = None, **options: Any) -> AsyncRunStore:
    """The async Run store a URL names (the URLs of :func:`~agent_graph._runtime.stores.open_store`).

    ``postgresql://…`` opens an :class:`AsyncPostgresRunStore` on psycopg's
    ``AsyncConnectionPool`` (``pool=`` takes a host's own
    ``AsyncConnectionPool``); ``memory://`` a memory store with the async
    face; a scheme whose :class:`StoreScheme` has ``open_async`` that; any
    other store (a folder, ``sqlite:///…``) is opened in a worker thread and
    its storage runs on worker threads of its own
    (:class:`ThreadedAsyncRunStore`).
    """
    from .run_store_async import AsyncRunStore, ThreadedAsyncRunStore

    scheme = await asyncio.to_thread(store_scheme, url_or_folder)
    if scheme is not None and scheme.open_async is not None:
        assert url_or_folder is not None
        check_options(scheme.open_async, _label(scheme, url_or_folder), options)
        store = await scheme.open_async(url_or_folder, **options)
        if not isinstance(store, AsyncRunStore):
            raise AgentGraphError(
                "store-url-invalid",
                f"The Run store of {url_or_folder.partition('://')[0]}:// opened a {type(store).__name__}, "
                "not an agent_graph.AsyncRunStore",
            )
        return store
    blocking = await asyncio.to_thread(functools.partial(open_store, url_or_folder, **options))
    return ThreadedAsyncRunStore(blocking)
