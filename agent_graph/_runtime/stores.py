"""Opening a Run store by URL: ``sqlite:///…``, ``postgresql://…``, or a folder of Run files.

The one place that knows every store; a store module knows none of the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._core.errors import AgentGraphError
from .run_store import BaseRunStore

if TYPE_CHECKING:
    from .run_store_async import AsyncRunStore

__all__ = ["open_async_store", "open_store", "sqlite_path", "store_kind"]


def sqlite_path(url: str) -> str:
    """The database path of a ``sqlite:`` URL: ``sqlite:///runs.db`` is relative, ``sqlite:////abs/runs.db`` absolute."""
    rest = url[len("sqlite://") :] if url.startswith("sqlite://") else ""
    if not rest.startswith("/") or len(rest) < 2 or "?" in rest or "#" in rest:
        raise AgentGraphError(
            "store-url-invalid",
            f"Not a SQLite store URL: {url!r}; write sqlite:///relative/runs.db or sqlite:////absolute/runs.db",
        )
    return rest[1:]


def store_kind(url_or_folder: str | None) -> str:
    """``file``, ``sqlite`` or ``postgres``: which store a URL names (``store-url-invalid`` for another scheme)."""
    if url_or_folder is not None and (not isinstance(url_or_folder, str) or not url_or_folder):
        raise AgentGraphError("store-url-invalid", "A Run store is named by a URL or a folder path")
    if url_or_folder is None:
        return "file"
    scheme, separator, _ = url_or_folder.partition("://")
    if separator and scheme.lower() == "sqlite":
        return "sqlite"
    if separator and scheme.lower() in ("postgresql", "postgres"):
        return "postgres"
    if separator and scheme.isidentifier():
        raise AgentGraphError(
            "store-url-invalid",
            f"Unknown Run store {scheme}://; use sqlite:///file.db, postgresql://… or a folder path",
        )
    return "file"


def check_options(opener: Callable[..., Any], label: str, options: dict[str, Any]) -> None:
    """``argument-invalid`` for an option the store ``opener`` does not take, naming the ones it does."""
    import inspect

    taken = [
        name
        for name, parameter in inspect.signature(opener).parameters.items()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY
    ]
    unknown = sorted(name for name in options if name not in taken)
    if unknown:
        raise AgentGraphError(
            "argument-invalid",
            f"The {label} Run store takes no option {', '.join(unknown)}; its options: {', '.join(taken)}",
        )


def open_store(url_or_folder: str | None = None, **options: Any) -> BaseRunStore:
    """The Run store a URL names.

    ``sqlite:///runs.db`` (relative to the current folder) and
    ``sqlite:////var/lib/runs.db`` (absolute) open a :class:`SqliteRunStore`;
    ``postgresql://…`` (or ``postgres://…``) a :class:`PostgresRunStore`,
    the URL handed to libpq as it is; anything else is a folder of Run files
    (:class:`FileRunStore`, a Run addressed by its path or its Run ID), and
    None the current folder. Another ``scheme://`` is ``store-url-invalid``.
    ``options`` (``clock``, ``new_id``, ``lock_timeout``, and the store's
    own) are passed on; one the store does not take is ``argument-invalid``. :func:`open_async_store`
    opens the same stores with an async face.
    """
    kind = store_kind(url_or_folder)
    if kind == "sqlite":
        from .runs_sqlite import SqliteRunStore

        assert url_or_folder is not None
        check_options(SqliteRunStore.__init__, "SQLite", options)
        return SqliteRunStore(sqlite_path(url_or_folder), **options)
    if kind == "postgres":
        from .runs_postgres import PostgresRunStore

        assert url_or_folder is not None
        check_options(PostgresRunStore.__init__, "PostgreSQL", options)
        return PostgresRunStore(url_or_folder, **options)
    from .runs import FileRunStore

    check_options(FileRunStore.__init__, "folder", options)
    return FileRunStore(url_or_folder, **options)


async def open_async_store(url_or_folder: str | None = None, **options: Any) -> AsyncRunStore:
    """The async Run store a URL names (the URLs of :func:`~agent_graph._runtime.stores.open_store`).

    ``postgresql://…`` opens an :class:`AsyncPostgresRunStore` on psycopg's
    ``AsyncConnectionPool`` (``pool=`` takes a host's own
    ``AsyncConnectionPool``); ``sqlite:///…`` and a folder open the blocking
    store in a worker thread and answer its :class:`ThreadedAsyncRunStore`.
    """
    import asyncio
    import functools

    from .run_store_async import ThreadedAsyncRunStore

    if store_kind(url_or_folder) == "postgres":
        from .runs_postgres_async import AsyncPostgresRunStore

        assert url_or_folder is not None
        check_options(AsyncPostgresRunStore.open, "PostgreSQL", options)
        return await AsyncPostgresRunStore.open(url_or_folder, **options)
    store = await asyncio.to_thread(functools.partial(open_store, url_or_folder, **options))
    return ThreadedAsyncRunStore(store)
