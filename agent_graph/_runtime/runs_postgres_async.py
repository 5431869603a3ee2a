"""The async PostgreSQL Run store: psycopg's ``AsyncConnectionPool``, the same statements as the blocking store.

Every operation is the one of :class:`~agent_graph._runtime.run_store.RunStoreLogic`
and every statement the one of :class:`~agent_graph._runtime.runs_sql.SqlOperations`;
this module only awaits them. The optimistic write and its guarded statement
(:class:`~agent_graph._runtime.runs_postgres.PostgresOperations`), transactions,
the row lock (``FOR UPDATE``, ``lock_timeout``), the retry of a write whose connection was lost before its
commit, the set-up once per schema version and the error codes are those of
:class:`~agent_graph._runtime.runs_postgres.PostgresRunStore`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable
from typing import Any

from .._core.errors import AgentGraphError
from .run_store import DEFAULT_LOCK_TIMEOUT, Call, Clock, IdFactory, T
from .run_store_async import AsyncRunStore
from .runs_postgres import (
    Lost,
    PostgresOperations,
    RecentConnections,
    checked_pool_options,
    connect_options,
    failed,
    is_lost,
    pg_driver,
    pg_query,
    setup_failed,
)
from .runs_sql import PRIMITIVES, Query, Result, Statements

__all__ = ["AsyncPostgresRunStore"]


class AsyncPostgresRunStore(PostgresOperations, AsyncRunStore):
    """Runs in a PostgreSQL database, with coroutines; open it with ``await AsyncPostgresRunStore.open(url)``.

    The options are those of :class:`PostgresRunStore`; ``pool=`` takes a
    host's ``psycopg_pool.AsyncConnectionPool`` (autocommit connections), which
    stays the host's.
    """

    store_kind = "postgresql"

    def __init__(
        self,
        conninfo: str,
        *,
        retries: int = 1,
        clock: Clock | None = None,
        new_id: IdFactory | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    ) -> None:
        """Not opened yet: use :meth:`open`."""
        self._setup(clock, new_id, lock_timeout)
        self.conninfo = conninfo
        self.retries = retries
        self._psycopg, pool_module = pg_driver()
        self._pool_class = pool_module.AsyncConnectionPool
        self._recent = RecentConnections()
        self._pool_timeout = pool_module.PoolTimeout
        self._pool: Any = None
        self._owns_pool = False

    @classmethod
    async def open(
        cls,
        conninfo: str,
        *,
        pool_size: int = 4,
        pool_min_size: int = 1,
        pool: Any = None,
        retries: int = 1,
        clock: Clock | None = None,
        new_id: IdFactory | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    ) -> AsyncPostgresRunStore:
        """Connect (libpq's own error at once when it cannot), set the tables up if needed, open the pool."""
        checked_pool_options(conninfo, pool, pool_size, pool_min_size, retries)
        store = cls(conninfo, retries=retries, clock=clock, new_id=new_id, lock_timeout=lock_timeout)
        _, pool_module = pg_driver()
        if pool is not None:
            if not isinstance(pool, pool_module.AsyncConnectionPool):
                raise AgentGraphError(
                    "argument-invalid",
                    f"pool= of the async store must be a psycopg_pool.AsyncConnectionPool, not a {type(pool).__name__}"
                    "; a ConnectionPool belongs to ag.PostgresRunStore",
                )
            store._pool = pool
            if await store._retrying(False, store._q_schema_state) != "current":
                await store._retrying(True, store._q_schema_setup)
            return store
        await store._set_up_directly()
        created = pool_module.AsyncConnectionPool(
            conninfo,
            min_size=pool_min_size,
            max_size=pool_size,
            kwargs={"autocommit": True, **connect_options(conninfo)},
            check=store._check,
            configure=store._configure,
            timeout=max(store.lock_timeout, 0.001),
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
        store._pool = created
        store._owns_pool = True
        return store

    def __repr__(self) -> str:
        return "<AsyncPostgresRunStore>"

    def _where(self, ref: str) -> str:
        return f"PostgreSQL run {ref}" if ref else "the PostgreSQL Run store"

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
            if await self._on_connection(connection, self._q_schema_state()) != "current":
                await self._on_connection(connection, self._q_schema_setup())
        except psycopg.Error as error:
            raise setup_failed(psycopg, self._pool_timeout, error, self.lock_timeout) from None
        finally:
            await connection.close()

    @staticmethod
    async def _on_connection(
        connection: Any, statements: Statements[T], stage: list[str] | None = None, atomic: bool = True
    ) -> T:
        """Run ``statements`` as :meth:`PostgresRunStore._on_connection` does, awaiting each."""
        transaction = (
            connection.transaction() if atomic or not connection.autocommit else contextlib.nullcontext()
        )
        async with transaction:
            cursor = connection.cursor()
            answer: Any = None
            try:
                while True:
                    query: Query = statements.send(answer)
                    sql, params = pg_query(query)
                    if query.many and len(params) != 1:
                        await cursor.executemany(sql, params)
                        if stage is not None:
                            stage[0] = "work"
                        answer = Result([], cursor.rowcount)
                    else:
                        if (
                            query.many
                        ):  # one row (a turn's event): a plain statement, without a pipeline's syncs
                            params = params[0]
                        if query.commits and stage is not None:
                            stage[0] = "commit"
                        await cursor.execute(sql, params)
                        if stage is not None:
                            stage[0] = "work"
                        rows = await cursor.fetchall() if cursor.description is not None else []
                        answer = Result(rows, cursor.rowcount)
            except StopIteration as done:
                result: T = done.value
                if stage is not None:
                    stage[0] = "commit"
                return result
            finally:
                statements.close()

    async def _once(self, statements: Statements[T], atomic: bool = True) -> T:
        pool = self._pool
        if pool is None:
            statements.close()
            raise AgentGraphError("run-store-closed", "The PostgreSQL Run store is closed")
        psycopg = self._psycopg
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
        except (psycopg.Error, self._pool_timeout) as error:
            self._recent.forget()
            committing = stage[0] == "commit" and (atomic or isinstance(error, psycopg.OperationalError))
            if is_lost(psycopg, error) and not (committing and atomic):
                raise Lost(error, committing) from None
            raise failed(psycopg, self._pool_timeout, error, committing, self.lock_timeout) from None

    async def _retrying(self, write: bool, make: Callable[[], Statements[T]], atomic: bool = True) -> T:
        tries = 0
        while True:
            try:
                return await self._once(make(), atomic)
            except Lost as lost:
                if tries >= self.retries:
                    raise failed(
                        self._psycopg, self._pool_timeout, lost.error, lost.ambiguous, self.lock_timeout
                    ) from None
                tries += 1

    async def _primitive(self, call: Call) -> Any:
        found = PRIMITIVES.get(call.name)
        if found is not None:
            name, write = found
            optimistic = name in self.optimistic
            args = (
                (*call.args, []) if optimistic else call.args
            )  # an optimistic write's tries share what was sent
            atomic = write and not optimistic  # a read needs no transaction (see PostgresRunStore._read)
            return await self._retrying(write, functools.partial(getattr(self, name), *args), atomic)
        function = getattr(self, "_" + call.name)
        if call.name in ("write_new_file", "read_file"):
            return await asyncio.to_thread(function, *call.args)
        return function(*call.args)

    async def aclose(self) -> None:
        """Close the store's pool (a pool the host passed stays open)."""
        pool, self._pool = self._pool, None
        if self._owns_pool and pool is not None:
            await pool.close()
