"""The PostgreSQL Run store: many processes on many machines sharing one database.

Needs the optional extra ``agent-graph[postgres]`` (psycopg 3 and psycopg_pool)
and libpq. The connection string is handed to libpq as it is, so every libpq
form works (``postgresql://user@/db?host=/socket/dir``, ``host=… dbname=…``,
the ``PG*`` environment variables).

Every change is one transaction at READ COMMITTED that reads the Run's row
``FOR UPDATE``: writers of one Run wait for each other (at most
``lock_timeout`` seconds, then ``run-lock-timeout``), writers of different
Runs do not. The transaction updates the Run's row and appends its new
events, then commits; PostgreSQL makes the commit durable before it answers,
and a transaction cut off at any point (a dropped connection, a killed
server process) is rolled back whole, so no half-written Run is ever seen.

A connection lost before the commit is retried on a fresh connection
(``retries`` times; the change is evaluated again from the Run as it is
then). A connection lost during the commit cannot tell whether the commit
happened: that is ``run-store-unavailable`` with the advice to load the Run.
Connections come from a ``psycopg_pool.ConnectionPool`` of ``pool_size``
connections that the store owns (or one the host passes as ``pool=``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from .._core.errors import AgentGraphError
from .._core.model import Run, RunSummary
from .run_changes import Change
from .run_store import DEFAULT_LOCK_TIMEOUT, Clock, IdFactory
from .runs_sql import SCHEMA_STATEMENTS, Cursor, SqlRunStore

__all__ = ["PostgresRunStore"]

#: Key of the advisory lock that serializes creating the tables.
_SCHEMA_LOCK = 0x61677275  # "agru"


def _driver() -> Any:
    try:
        import psycopg
        import psycopg_pool
    except ImportError as error:
        raise AgentGraphError(
            "run-store-unavailable",
            f"The PostgreSQL Run store needs psycopg 3 and psycopg_pool: pip install 'agent-graph[postgres]' ({error})",
        ) from None
    return psycopg, psycopg_pool


class _PgCursor(Cursor):
    __slots__ = ("_cursor",)

    def __init__(self, cursor: Any) -> None:
        self._cursor = cursor

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._cursor.execute(sql.replace("?", "%s"), tuple(params))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any:
        return self._cursor.executemany(sql.replace("?", "%s"), rows)

    def fetchone(self) -> Any:
        return self._cursor.fetchone()

    def fetchall(self) -> list[Any]:
        rows: list[Any] = self._cursor.fetchall()
        return rows

    @property
    def rowcount(self) -> int:
        count: int = self._cursor.rowcount
        return count


class _Lost(Exception):
    """The connection was lost before the commit: nothing of the transaction was committed."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


class PostgresRunStore(SqlRunStore):
    """Runs in a PostgreSQL database; a Run is addressed by its Run ID.

    ``conninfo`` is a libpq connection string or URL. ``pool_size`` bounds the
    connections this store opens (``pool_min_size`` are kept open); a host
    that shares one pool among stores passes ``pool=`` instead and keeps
    ownership of it (its connections must be in autocommit mode; set their
    ``lock_timeout`` in the pool's ``configure``). ``retries`` is how often a write whose connection was
    lost before its commit is tried again.
    """

    lock_clause = " FOR UPDATE"

    def __init__(
        self,
        conninfo: str,
        *,
        pool_size: int = 4,
        pool_min_size: int = 1,
        pool: Any = None,
        retries: int = 1,
        clock: Clock | None = None,
        new_id: IdFactory | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    ) -> None:
        super().__init__(clock=clock, new_id=new_id, lock_timeout=lock_timeout)
        if pool is None and (not isinstance(conninfo, str) or "\x00" in conninfo):
            raise AgentGraphError("argument-invalid", "The PostgreSQL Run store needs a connection string")
        if (
            not isinstance(pool_size, int)
            or not isinstance(pool_min_size, int)
            or not 0 <= pool_min_size <= pool_size
            or pool_size < 1
        ):
            raise AgentGraphError(
                "argument-invalid", "pool_size must be at least 1 and pool_min_size within 0..pool_size"
            )
        if not isinstance(retries, int) or retries < 0:
            raise AgentGraphError("argument-invalid", "retries must be 0 or more")
        self._psycopg, pool_module = _driver()
        self.conninfo = conninfo
        self.retries = retries
        self._owns_pool = pool is None
        if pool is None:
            try:
                pool = pool_module.ConnectionPool(
                    conninfo,
                    min_size=pool_min_size,
                    max_size=pool_size,
                    kwargs={"autocommit": True},
                    check=pool_module.ConnectionPool.check_connection,
                    configure=self._configure,
                    timeout=max(self.lock_timeout, 0.001),
                    open=False,
                    name="agent-graph-runs",
                )
                pool.open(wait=pool_min_size > 0, timeout=max(self.lock_timeout, 0.001))
            except (self._psycopg.Error, pool_module.PoolTimeout) as error:
                with contextlib.suppress(Exception):
                    pool.close()
                raise AgentGraphError(
                    "run-store-unavailable", f"Cannot connect to the PostgreSQL Run store: {error}"
                ) from None
        self._pool = pool
        self._pool_timeout = pool_module.PoolTimeout
        try:
            self._retrying(self._create_tables)
        except BaseException:
            self.close()
            raise

    def _create_tables(self) -> None:
        with self._transaction(True) as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(?)", (_SCHEMA_LOCK,))
            for statement in SCHEMA_STATEMENTS:
                cursor.execute(statement)

    def __repr__(self) -> str:
        return "<PostgresRunStore>"

    def _where(self, ref: str) -> str:
        return f"PostgreSQL run {ref}"

    def _configure(self, connection: Any) -> None:
        """Each new connection of the pool waits at most ``lock_timeout`` for a row lock."""
        connection.execute(f"SET lock_timeout = {max(int(self.lock_timeout * 1000), 1)}")

    def close(self) -> None:
        """Close the store's connection pool (a pool the host passed stays open)."""
        if self._owns_pool and self._pool is not None:
            self._pool.close()
        self._pool = None

    # ------------------------------------------------------------ transactions

    def _failed(self, error: BaseException, committing: bool) -> AgentGraphError:
        errors = self._psycopg.errors
        if isinstance(error, errors.LockNotAvailable):
            return AgentGraphError(
                "run-lock-timeout",
                f"Another writer held the Run's row for more than {self.lock_timeout:g} s",
            )
        if isinstance(error, self._pool_timeout):
            return AgentGraphError(
                "run-store-unavailable",
                f"No PostgreSQL connection was free within {self.lock_timeout:g} s: {error}",
            )
        if committing:
            return AgentGraphError(
                "run-store-unavailable",
                f"The PostgreSQL connection was lost while committing, so the write may or may not have landed; "
                f"load the Run to see: {error}",
            )
        if isinstance(error, self._psycopg.OperationalError):
            return AgentGraphError(
                "run-store-unavailable", f"The PostgreSQL connection was lost; nothing was written: {error}"
            )
        return AgentGraphError("run-store-failed", f"The PostgreSQL Run store failed: {error}")

    @contextlib.contextmanager
    def _transaction(self, write: bool) -> Iterator[Cursor]:
        pool = self._pool
        if pool is None:
            raise AgentGraphError("run-store-closed", "The PostgreSQL Run store is closed")
        psycopg = self._psycopg
        stage = "connect"
        try:
            with (
                pool.connection(timeout=max(self.lock_timeout, 0.001)) as connection,
                connection.transaction(),
            ):
                stage = "work"
                yield _PgCursor(connection.cursor())
                stage = "commit"
        except AgentGraphError:
            raise
        except (psycopg.Error, self._pool_timeout) as error:
            lost = isinstance(error, psycopg.OperationalError) and not isinstance(
                error, psycopg.errors.LockNotAvailable
            )
            if lost and stage != "commit":
                raise _Lost(error) from None
            raise self._failed(error, stage == "commit") from None

    def _retrying(self, attempt: Any) -> Any:
        """Run ``attempt()`` again on a fresh connection while connections are lost before commit."""
        tries = 0
        while True:
            try:
                return attempt()
            except _Lost as lost:
                if tries >= self.retries:
                    raise self._failed(lost.error, False) from None
                tries += 1

    # ------------------------------------------------------------ primitives, retried

    def _read(self, ref: str) -> Run:
        run: Run = self._retrying(lambda: SqlRunStore._read(self, ref))
        return run

    def _modify(self, ref: str, expected: str | None, change: Change) -> Run:
        run: Run = self._retrying(lambda: SqlRunStore._modify(self, ref, expected, change))
        return run

    def _create(self, ref: str, run: Run, label: str) -> None:
        self._retrying(lambda: SqlRunStore._create(self, ref, run, label))

    def _checkpoint(self, ref: str, target: str, expected: str | None) -> Run:
        run: Run = self._retrying(lambda: SqlRunStore._checkpoint(self, ref, target, expected))
        return run

    def _read_checkpoint(self, ref: str) -> tuple[Run, str]:
        found: tuple[Run, str] = self._retrying(lambda: SqlRunStore._read_checkpoint(self, ref))
        return found

    def _summaries(
        self, provider: str | None, graph: str | None, after: str | None, before: str | None
    ) -> Iterator[RunSummary]:
        found: list[RunSummary] = self._retrying(
            lambda: list(SqlRunStore._summaries(self, provider, graph, after, before))
        )
        return iter(found)
