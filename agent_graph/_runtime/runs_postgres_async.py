"""The async PostgreSQL Run store: psycopg's ``AsyncConnectionPool``, the same statements as the blocking store.

Every operation is the one of the store faces
(:mod:`agent_graph._runtime.run_methods`) and every statement the one of
:class:`~agent_graph._runtime.runs_sql.SqlStatements`; this module only awaits
them. The optimistic write and its guarded statement
(:class:`~agent_graph._runtime.runs_postgres.PostgresStatements`), transactions,
the row lock (``FOR UPDATE``, ``lock_timeout``), the retry of a write whose
connection was lost before its commit, the set-up once per schema version, the
pool's trust of connections that answered lately and the error codes are those
of :class:`~agent_graph._runtime.runs_postgres.PostgresRunStore`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .._core.errors import AgentGraphError
from .._core.model import RunSummary
from . import run_storage as seam
from .run_codec import DEFAULT_LOCK_TIMEOUT
from .run_operations import IdFactory
from .run_store_async import AsyncRunStore
from .runs_postgres import (
    Lost,
    PostgresRunStore,
    PostgresStatements,
    RecentConnections,
    WrittenHeads,
    checked_pool_options,
    connect_options,
    has_rows,
    pg_driver,
    pg_statement,
    setup_failed,
)
from .runs_sql import Result, Statements
from .store_scheme import StoreScheme

__all__ = ["SCHEME", "AsyncPostgresRunStore", "AsyncPostgresStorage"]

T = TypeVar("T")


#: Seconds the end of the event loop waits for the pool of a store left open to close.
CLOSE_AT_LOOP_END = 5.0


class AsyncPostgresStorage(PostgresStatements, seam.AsyncRunStorage):
    """Runs in a PostgreSQL database, awaited: the storage of :class:`AsyncPostgresRunStore`.

    Not opened yet when made: :meth:`AsyncPostgresRunStore.open` opens it.

    A pool belongs to the event loop that opened it: the store is used on
    that loop only, and a call from another loop is refused at once
    (``run-store-loop-mismatch``) instead of waiting for a connection that
    loop can never hand out. A store left open when its loop ends (no
    ``async with``, no ``aclose``) closes its own pool then: a task of the
    store waits for the end of the loop (``asyncio.run`` cancels every task
    as it ends) and closes the pool, whose workers would otherwise keep the
    loop from ending.
    """

    kind = "postgresql"

    def __init__(
        self,
        conninfo: str,
        *,
        retries: int = 1,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        monotonic: seam.MonotonicClock | None = None,
    ) -> None:
        super().__init__(lock_timeout=lock_timeout, monotonic=monotonic)
        self.conninfo = conninfo
        self.retries = retries
        self._written = WrittenHeads()
        self._psycopg, pool_module = pg_driver()
        self._pool_class = pool_module.AsyncConnectionPool
        self._recent = RecentConnections(self.monotonic)
        self._pool_timeout = pool_module.PoolTimeout
        self._pool: Any = None
        self._owns_pool = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._keeper: asyncio.Task[None] | None = None

    def __repr__(self) -> str:
        return "<AsyncPostgresStorage>"

    def _on_its_loop(self) -> None:
        """``run-store-loop-mismatch`` unless this is the event loop the store was opened on."""
        if self._loop is not None and asyncio.get_running_loop() is not self._loop:
            raise AgentGraphError(
                "run-store-loop-mismatch",
                "This async PostgreSQL Run store was opened on another event loop, and its connection pool "
                "belongs to that loop: open a store on each loop (a store per asyncio.run), or use the store "
                "from the loop that opened it",
            )

    async def _close_at_loop_end(self) -> None:
        """Wait until cancelled (the loop ends, or ``aclose``), then close a pool still open."""
        try:
            await asyncio.Event().wait()
        finally:
            pool, self._pool = self._pool, None
            if pool is not None:
                await pool.close(timeout=CLOSE_AT_LOOP_END)

    async def open(self, pool: Any, pool_size: int, pool_min_size: int) -> None:
        """Use the host's ``pool`` (tables set up through it), or connect once and open a pool of our own."""
        _, pool_module = pg_driver()
        self._loop = asyncio.get_running_loop()
        if pool is not None:
            if not isinstance(pool, pool_module.AsyncConnectionPool):
                raise AgentGraphError(
                    "argument-invalid",
                    f"pool= of the async store must be a psycopg_pool.AsyncConnectionPool, not a {type(pool).__name__}"
                    "; a ConnectionPool belongs to ag.PostgresRunStore",
                )
            self._pool = pool
            if not await self._retrying(self.q_schema_current):
                await self._retrying(self.q_schema_setup)
            return
        await self._set_up_directly()
        created = pool_module.AsyncConnectionPool(
            self.conninfo,
            min_size=pool_min_size,
            max_size=pool_size,
            kwargs={"autocommit": True, **connect_options(self.conninfo)},
            check=self._check,
            configure=self._configure,
            timeout=max(self.lock_timeout, 0.001),
            open=False,
            name="agent-graph-runs-async",
        )
        try:
            await created.open(wait=False)
        except Exception as error:
            with contextlib.suppress(Exception):
                await created.close()
            raise AgentGraphError(
                "run-store-unavailable", f"Cannot connect to the PostgreSQL Run store: {error}"
            ) from None
        self._pool = created
        self._owns_pool = True
        self._keeper = self._loop.create_task(self._close_at_loop_end(), name="agent-graph-runs-async-keeper")

    async def _configure(self, connection: Any) -> None:
        await connection.execute(f"SET lock_timeout = {max(int(self.lock_timeout * 1000), 1)}")

    async def _check(self, connection: Any) -> None:
        """The pool's check of a connection it hands out: none when it answered lately."""
        if not self._recent.trusted(connection):
            await self._pool_class.check_connection(connection)

    async def _set_up_directly(self) -> None:
        psycopg = self._psycopg
        try:
            connection = await psycopg.AsyncConnection.connect(
                self.conninfo, autocommit=True, **connect_options(self.conninfo)
            )
        except psycopg.Error as error:
            raise AgentGraphError(
                "run-store-unavailable", f"Cannot connect to the PostgreSQL Run store: {error}".strip()
            ) from None
        try:
            await self._configure(connection)
            if not await self._on_connection(connection, self.q_schema_current()):
                await self._on_connection(connection, self.q_schema_setup())
        except psycopg.Error as error:
            raise setup_failed(psycopg, self._pool_timeout, error, self.lock_timeout) from None
        finally:
            await connection.close()

    @staticmethod
    async def _on_connection(
        connection: Any, statements: Statements[T], stage: list[str] | None = None, atomic: bool = True
    ) -> T:
        """Run ``statements`` as :meth:`PostgresStorage._on_connection` does, awaiting each."""
        transaction = (
            connection.transaction() if atomic or not connection.autocommit else contextlib.nullcontext()
        )
        async with transaction:
            cursor = connection.cursor()
            answer: Any = None
            try:
                while True:
                    sql, params, many = pg_statement(statements.send(answer), stage)
                    if many:
                        await cursor.executemany(sql, params)
                    else:
                        await cursor.execute(sql, params)
                    if stage is not None:
                        stage[0] = "work"
                    rows = await cursor.fetchall() if not many and has_rows(cursor) else []
                    answer = Result(rows, cursor.rowcount)
            except StopIteration as done:
                result: T = done.value
                if stage is not None:
                    stage[0] = "commit"
                return result
            finally:
                statements.close()

    async def _once(self, statements: Statements[T], atomic: bool = True) -> T:
        try:
            self._on_its_loop()
        except AgentGraphError:
            statements.close()
            raise
        pool = self._open_pool(statements)
        stage = ["connect"]
        try:
            async with pool.connection(timeout=max(self.lock_timeout, 0.001)) as connection:
                stage[0] = "work"
                try:
                    return await self._on_connection(connection, statements, stage, atomic)
                finally:
                    self._recent.answered(connection)
        except AgentGraphError:
            raise
        except (self._psycopg.Error, self._pool_timeout) as error:
            raise self._failure(error, stage[0], atomic) from None

    async def _retrying(self, make: Callable[[], Statements[T]], atomic: bool = True) -> T:
        tries = 0
        while True:
            try:
                return await self._once(make(), atomic)
            except Lost as lost:
                tries = self._retry_or_fail(lost, tries)

    # ------------------------------------------------------------ the seam, retried (reads and appends
    # outside a transaction, as the blocking storage's)

    async def read_head(self, ref: str) -> seam.StoredHead:
        return await self._retrying(lambda: self.q_read_head(ref), atomic=False)

    async def read_events(self, ref: str, after: int, limit: int) -> seam.StoredPage:
        return await self._retrying(lambda: self.q_read_events(ref, after, limit), atomic=False)

    async def append(self, ref: str, write: seam.Write) -> seam.Appended:
        pending: list[Any] = []  # the guarded statement sent, shared by the tries
        return await self._retrying(lambda: self.q_append(ref, write, pending), atomic=False)

    async def create(self, new: seam.NewRun) -> None:
        await self._retrying(lambda: self.q_create(new))

    async def list_runs(self, query: seam.RunQuery) -> Iterable[RunSummary]:
        return await self._retrying(lambda: self.q_list(query), atomic=False)

    async def checkpoint(self, ref: str, name: str, write: seam.CheckpointWrite) -> seam.Checkpointed:
        return await self._retrying(lambda: self.q_checkpoint(ref, name, write))

    async def read_checkpoint(self, name: str) -> seam.StoredCheckpoint:
        return await self._retrying(lambda: self.q_read_checkpoint(name), atomic=False)

    async def aclose(self) -> None:
        """Close the store's pool (a pool the host passed stays open); on its own event loop only."""
        if self._pool is None:
            return
        self._on_its_loop()
        pool, self._pool = self._pool, None
        keeper, self._keeper = self._keeper, None
        if keeper is not None:
            keeper.cancel()
        if self._owns_pool:
            await pool.close()


class AsyncPostgresRunStore(AsyncRunStore):
    """Runs in a PostgreSQL database, with coroutines; open it with ``await AsyncPostgresRunStore.open(url)``.

    The options are those of :class:`~agent_graph.PostgresRunStore`; ``pool=``
    takes a host's ``psycopg_pool.AsyncConnectionPool`` (autocommit
    connections), which stays the host's.
    """

    storage: AsyncPostgresStorage

    @classmethod
    async def open(
        cls,
        conninfo: str,
        *,
        pool_size: int = 4,
        pool_min_size: int = 1,
        pool: Any = None,
        retries: int = 1,
        clock: seam.Clock | None = None,
        new_id: IdFactory | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        monotonic: seam.MonotonicClock | None = None,
    ) -> AsyncPostgresRunStore:
        """Connect (libpq's own error at once when it cannot), set the tables up if needed, open the pool."""
        checked_pool_options(conninfo, pool, pool_size, pool_min_size, retries)
        storage = AsyncPostgresStorage(
            conninfo, retries=retries, lock_timeout=lock_timeout, monotonic=monotonic
        )
        store = cls(storage, clock=clock, new_id=new_id)
        await storage.open(pool, pool_size, pool_min_size)
        return store

    def __repr__(self) -> str:
        return "<AsyncPostgresRunStore>"

    @property
    def conninfo(self) -> str:
        """The connection string the store was opened with."""
        return self.storage.conninfo


#: The ``postgresql:`` (and ``postgres:``) scheme of store URLs.
SCHEME = StoreScheme(
    open=PostgresRunStore,
    open_async=AsyncPostgresRunStore.open,
    name="PostgreSQL",
    example="postgresql://user@host/db",
)
