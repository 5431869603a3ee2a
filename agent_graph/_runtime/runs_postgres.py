"""The PostgreSQL Run store: many processes on many machines sharing one database.

Needs the optional extra ``agent-graph[postgres]`` (psycopg 3 and psycopg_pool)
and libpq. The connection string is handed to libpq as it is, so every libpq
form works (``postgresql://user@/db?host=/socket/dir``, ``host=… dbname=…``,
the ``PG*`` environment variables).

A change (``record``, ``update_facts`` …) is optimistic: it reads the Run's
head row without a lock (or takes the row this store wrote last, unread),
computes the change, then ONE statement in autocommit updates the row only if
it is still the version read and appends the new events
(:class:`PostgresStatements`); a writer that came second
computes its change again (for at most ``lock_timeout`` seconds, then
``run-lock-timeout``). Creating a Run and checkpoints are transactions at
READ COMMITTED that read the row ``FOR UPDATE``. Writers of different Runs
never wait for each other. PostgreSQL makes a commit durable before it
answers, and a statement or transaction cut off at any point (a dropped
connection, a killed server process) is rolled back whole, so no
half-written Run is ever seen.

A connection lost before the commit is retried on a fresh connection
(``retries`` times; the change is evaluated again from the Run as it is
then); a lost guarded write is retried by sending the same statement, which
lands at most once. A connection lost where the store cannot tell whether the
write happened (that copy did not land: an earlier one may have) is
``run-store-unavailable`` with the advice to load the Run.
Connections come from a ``psycopg_pool.ConnectionPool`` of ``pool_size``
connections that the store owns (or one the host passes as ``pool=``). A
pooled connection is checked with an empty query before it is handed out
unless it answered within :data:`CHECK_AFTER_IDLE` seconds and the server has
sent it nothing since (:class:`RecentConnections`).
Opening the store first connects once without the pool, so a bad URL fails at
once with libpq's own message; the tables are created (or upgraded) only when
their schema version is not the current one, so opening never waits for
writers. The async store (:mod:`agent_graph._runtime.runs_postgres_async`)
runs the same statements over ``psycopg_pool.AsyncConnectionPool``. Every
deadline (the retries of a write, the trust of a pooled connection) is read
from the store's monotonic clock (``monotonic=``).
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple, TypeVar

from .._core.errors import AgentGraphError
from .._core.model import RunSummary
from . import run_storage as seam
from .run_codec import DEFAULT_LOCK_TIMEOUT
from .run_operations import IdFactory
from .run_store import BaseRunStore
from .runs_sql import (
    HEAD_AND_LAST,
    HEAD_COLUMNS,
    Query,
    Result,
    SqlStatements,
    Statements,
    drive_statements,
    head_text,
    head_values,
    last_event,
    row_text,
)

__all__ = [
    "CHECK_AFTER_IDLE",
    "PostgresRunStore",
    "PostgresStatements",
    "PostgresStorage",
    "RecentConnections",
    "checked_pool_options",
    "connect_options",
    "pg_driver",
]

T = TypeVar("T")

#: Key of the advisory lock that serializes creating or upgrading the tables.
SCHEMA_LOCK = 0x61677275  # "agru"
#: Seconds the first connection of a store may take when the URL names no ``connect_timeout``.
CONNECT_TIMEOUT = 10

#: The catalog of our names in the connection's schema (:func:`~agent_graph._runtime.runs_sql_schema.catalog_of`):
#: each table's columns and key, each index's table, columns and whether it is plain, and any other relation.
CATALOG_SQL = (
    "SELECT CASE c.relkind WHEN 'r' THEN 'table' WHEN 'i' THEN 'index' ELSE 'relation of kind ' || c.relkind::text END,"
    " c.relname, COALESCE(t.relname, c.relname), a.attnum, a.attname, format_type(a.atttypid, a.atttypmod),"
    " EXISTS (SELECT 1 FROM pg_index k WHERE k.indrelid = c.oid AND k.indisprimary AND a.attnum = ANY (k.indkey)),"
    " x.indexrelid IS NULL OR (NOT x.indisunique AND x.indpred IS NULL AND x.indexprs IS NULL)"
    " FROM pg_class c LEFT JOIN pg_index x ON x.indexrelid = c.oid LEFT JOIN pg_class t ON t.oid = x.indrelid"
    " LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
    " WHERE c.relnamespace = current_schema()::regnamespace AND c.relname = ANY (?) ORDER BY 2, 4"
)


def pg_driver() -> Any:
    """``(psycopg, psycopg_pool)``, or ``run-store-unavailable`` naming the extra to install."""
    try:
        import psycopg
        import psycopg_pool
    except ImportError as error:
        raise AgentGraphError(
            "run-store-unavailable",
            f"The PostgreSQL Run store needs psycopg 3 and psycopg_pool: pip install 'agent-graph[postgres]' ({error})",
        ) from None
    return psycopg, psycopg_pool


def connect_options(conninfo: str) -> dict[str, Any]:
    """Keyword arguments of a first connection: a ``connect_timeout`` unless the URL or environment sets one."""
    if "connect_timeout" in conninfo or os.environ.get("PGCONNECT_TIMEOUT"):
        return {}
    return {"connect_timeout": CONNECT_TIMEOUT}


def checked_pool_options(conninfo: Any, pool: Any, pool_size: Any, pool_min_size: Any, retries: Any) -> None:
    """``argument-invalid`` unless a connection string (or a pool) is given and sizes and retries are sane."""
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
    if not isinstance(retries, int) or isinstance(retries, bool) or retries < 0:
        raise AgentGraphError("argument-invalid", "retries must be 0 or more")


#: libpq's ``PGRES_TUPLES_OK``: the statement answered rows (``psycopg.pq.ExecStatus.TUPLES_OK``).
TUPLES_OK = 2


def has_rows(cursor: Any) -> bool:
    """Whether the statement a cursor ran answered rows (``description`` would build its columns to tell)."""
    result = cursor.pgresult
    return result is not None and result.status == TUPLES_OK


def pg_statement(query: Query, stage: list[str] | None) -> tuple[str, Any, bool]:
    """What either face sends for ``query``: ``(sql, params, many)``, with ``%s`` placeholders; ``many``: ``executemany``.

    A statement of one row is sent plainly, without a pipeline's syncs. While a
    statement that commits on its own runs, ``stage`` is ``"commit"``: a
    connection lost then leaves unknown whether it landed. Once it answered,
    the caller sets ``stage`` back to ``"work"``.
    """
    sql, params = query.sql.replace("?", "%s"), query.params
    if query.many:
        if len(params) != 1:
            return sql, params, True
        params = params[0]
    if query.commits and stage is not None:
        stage[0] = "commit"
    return sql, params, False


class Lost(Exception):
    """The connection was lost before the commit (nothing was committed), or during a guarded write (``ambiguous``).

    A guarded write (:meth:`PostgresStatements.q_append`) is retried by sending the
    very same statement again, which lands at most once, then seeing whether it did.
    """

    def __init__(self, error: BaseException, ambiguous: bool = False) -> None:
        super().__init__(str(error))
        self.error = error
        self.ambiguous = ambiguous


def failed(
    psycopg: Any, pool_timeout: Any, error: BaseException, committing: bool, lock_timeout: float
) -> AgentGraphError:
    """The coded error of a driver failure, naming its real cause."""
    errors = psycopg.errors
    if isinstance(error, errors.LockNotAvailable):
        return lock_timed_out(lock_timeout)
    if isinstance(error, pool_timeout):
        return AgentGraphError(
            "run-store-unavailable",
            f"No PostgreSQL connection was free within {lock_timeout:g} s (all in use, or the server is down): {error}",
        )
    if committing:
        return AgentGraphError(
            "run-store-unavailable",
            "The PostgreSQL connection was lost while committing, so the write may or may not have landed; "
            f"load the Run to see: {error}",
        )
    if isinstance(error, psycopg.OperationalError):
        return AgentGraphError(
            "run-store-unavailable", f"The PostgreSQL connection was lost; nothing was written: {error}"
        )
    return AgentGraphError("run-store-failed", f"The PostgreSQL Run store failed: {error}")


def setup_failed(
    psycopg: Any, pool_timeout: Any, error: BaseException, lock_timeout: float
) -> AgentGraphError:
    """The coded error of a failure while the tables were checked or set up on opening a store."""
    if isinstance(error, psycopg.errors.LockNotAvailable):
        return AgentGraphError(
            "run-lock-timeout",
            f"Setting up the Run tables waited more than {lock_timeout:g} s for a lock that another "
            "session holds on them (a schema change or upgrade in progress)",
        )
    return failed(psycopg, pool_timeout, error, False, lock_timeout)


def is_lost(psycopg: Any, error: BaseException) -> bool:
    return isinstance(error, psycopg.OperationalError) and not isinstance(
        error, psycopg.errors.LockNotAvailable
    )


def lock_timed_out(lock_timeout: float) -> AgentGraphError:
    return AgentGraphError(
        "run-lock-timeout", f"Another writer held the Run's row for more than {lock_timeout:g} s"
    )


#: Seconds a pooled connection that answered stays trusted without a check (an empty query) when handed out.
CHECK_AFTER_IDLE = 5.0


class RecentConnections:
    """The connections of a store's pool that answered lately, so that the pool checks only the others.

    Checking every connection the pool hands out (an empty query) costs a
    round trip per operation. A connection that answered a statement within
    :data:`CHECK_AFTER_IDLE` seconds and whose socket has nothing to read is
    handed out unchecked: an idle connection is sent nothing unless the server
    is closing it (a terminated backend, a shutdown or restart) or has a
    notice for it, and then it is checked as usual. A lost connection makes
    every connection suspect again (:meth:`forget`). Safe to share among
    threads; holds connections weakly. Time is read from ``monotonic`` (the
    store's monotonic clock; default :func:`time.monotonic`).
    """

    def __init__(self, monotonic: Callable[[], float] | None = None) -> None:
        self._answered: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()
        self._monotonic = monotonic or time.monotonic

    def trusted(self, connection: Any) -> bool:
        """Whether ``connection`` answered within :data:`CHECK_AFTER_IDLE` seconds and has nothing waiting."""
        with self._lock:
            at = self._answered.get(connection)
        if (
            at is None
            or self._monotonic() - at >= CHECK_AFTER_IDLE
            or getattr(connection, "broken", False)
            or connection.closed
        ):
            return False
        try:
            readable, _, _ = select.select([connection.fileno()], [], [], 0)
        except (OSError, ValueError):  # closed, or a descriptor select cannot watch
            return False
        return not readable

    def answered(self, connection: Any) -> None:
        """``connection`` just answered (unless it broke meanwhile)."""
        if not getattr(connection, "broken", False):
            with self._lock:
                self._answered[connection] = self._monotonic()

    def forget(self) -> None:
        """A connection was lost: check every connection again before its next use."""
        with self._lock:
            self._answered.clear()


class KnownHead(NamedTuple):
    """A Run's head row as this store last wrote it: its text, event count, stored size and row version."""

    text: str
    events: int
    stored: int | None
    version: str


class WrittenHeads:
    """The head rows this store wrote last, by Run (bounded, safe to share among threads).

    A write of a Run this store wrote last is guarded by the row it wrote,
    without reading it first (:meth:`PostgresStatements.q_append`).
    """

    entries = 256

    def __init__(self) -> None:
        self._rows: OrderedDict[str, KnownHead] = OrderedDict()
        self._lock = threading.Lock()

    def latest(self, ref: str) -> KnownHead | None:
        """The head row of ``ref`` as this store last wrote it, if it remembers it."""
        with self._lock:
            return self._rows.get(ref)

    def wrote(self, ref: str, row: KnownHead) -> None:
        """Remember the head row this store has just written (the least recently written Run goes past the bound)."""
        with self._lock:
            self._rows[ref] = row
            self._rows.move_to_end(ref)
            while len(self._rows) > self.entries:
                self._rows.popitem(last=False)


class PostgresStatements(SqlStatements):
    """The statements of both PostgreSQL storages: a write is optimistic, one statement in autocommit.

    :meth:`q_append` reads the head row without a lock, has the face decide
    the change, then updates the head only if its row version (``xmin``) and
    event count are still the ones read, and appends the new events, in ONE
    statement that commits on its own: either all of it lands or none. When
    another writer came first, nothing is written and the change is decided
    again on the head as it is then, for at most ``lock_timeout`` seconds (as
    the store's monotonic clock counts them; then ``run-lock-timeout``). When
    this store wrote the Run last, the first try takes the row as written (the
    statement answers the row's new version, kept in :class:`WrittenHeads`)
    instead of reading it: if someone wrote since, nothing lands, and a change
    refused on that head is decided again on the row as read. Appends and
    every read run outside a transaction; creating a Run and checkpoints in
    one transaction.
    """

    lock_clause = " FOR UPDATE OF h"
    setup_lock_sql = f"SELECT pg_advisory_xact_lock({SCHEMA_LOCK})"
    catalog_sql = CATALOG_SQL

    _written: WrittenHeads
    _pool: Any
    _psycopg: Any
    _pool_timeout: Any
    _recent: RecentConnections
    retries: int

    def where(self, ref: str) -> str:
        return f"PostgreSQL run {ref}" if ref else "the PostgreSQL Run store"

    # ------------------------------------------------------------ what both faces' transactions share

    def _open_pool(self, statements: Statements[Any]) -> Any:
        """The pool to run ``statements`` on (``run-store-closed``, the statements closed, once the store is)."""
        if self._pool is None:
            statements.close()
            raise AgentGraphError("run-store-closed", "The PostgreSQL Run store is closed")
        return self._pool

    def _failure(self, error: BaseException, stage: str, atomic: bool) -> Exception:
        """What a driver or pool error becomes: :class:`Lost` (tried again on a fresh connection) or the coded error.

        ``stage`` is ``commit`` while the outcome of a lost connection is unknown.
        """
        self._recent.forget()
        psycopg = self._psycopg
        committing = stage == "commit" and (atomic or isinstance(error, psycopg.OperationalError))
        if is_lost(psycopg, error) and not (committing and atomic):
            return Lost(error, committing)
        return failed(psycopg, self._pool_timeout, error, committing, self.lock_timeout)

    def _retry_or_fail(self, lost: Lost, tries: int) -> int:
        """The next try's number after ``lost``, or the coded error once ``retries`` are spent."""
        if tries >= self.retries:
            raise failed(
                self._psycopg, self._pool_timeout, lost.error, lost.ambiguous, self.lock_timeout
            ) from None
        return tries + 1

    def q_append(
        self, ref: str, write: seam.Write, pending: list[Any] | None = None
    ) -> Statements[seam.Appended]:
        """Apply ``write``; ``pending`` (shared by the tries of one write) keeps the guarded statement sent.

        A try after a connection lost during that statement first sends it again: the guard lets
        at most one copy land. If none does now, an earlier copy may have landed or another writer
        came first; the store cannot tell, and answers ``run-store-unavailable``.
        """
        pending = [] if pending is None else pending
        if pending:
            sent, appended = pending
            written = yield Query(sent.sql, sent.params, commits=True)
            if written.rowcount > 0:
                self._remember(ref, appended, written)
                return appended  # type: ignore[no-any-return]
            # The first copy landed, or another writer came first: the store cannot tell which
            # (events of another writer may read the same), so it says so instead of guessing.
            raise AgentGraphError(
                "run-store-unavailable",
                "The PostgreSQL connection was lost while committing, so the write may or may not have "
                "landed; load the Run to see",
            )
        deadline = self.monotonic() + self.lock_timeout
        last = self._written.latest(ref)
        while True:
            if last is not None:  # the row as this store last wrote it: no read when no one wrote since
                count, version = last.events, last.version
                stored = seam.StoredHead(last.text, last.events, last.stored)
                last = None
                try:
                    appended = write(stored)
                except AgentGraphError:
                    continue  # decided on a head that may be stale: read the row and decide again
            else:
                found = yield Query(
                    f"SELECT h.event_count, h.stored_bytes, h.xmin::text, l.event, {HEAD_COLUMNS}"
                    + HEAD_AND_LAST,
                    (ref,),
                )
                if not found.rows:
                    raise self._missing(ref)
                count, stored_bytes, version, newest = found.rows[0][:4]
                text = head_text(found.rows[0], 4)
                if newest is None:
                    raise self._no_events(ref)
                size = yield from self.q_stored_size(ref, stored_bytes, text)
                appended = write(seam.StoredHead(text, count, size, last_event(newest)))
            query = _guarded_write(ref, appended, count, version)
            pending[:] = [query, appended]
            written = yield query
            if written.rowcount > 0:
                self._remember(ref, appended, written)
                return appended
            pending.clear()
            if self.monotonic() >= deadline:
                raise lock_timed_out(self.lock_timeout)

    def _remember(self, ref: str, appended: seam.Appended, written: Result) -> None:
        row = KnownHead(appended.head_json, appended.head.events, appended.size, written.rows[0][0])
        self._written.wrote(ref, row)


def _guarded_write(ref: str, appended: seam.Appended, count: Any, version: Any) -> Query:
    """ONE statement: the head row updated if still at ``count`` events and row ``version``, the events appended.

    The events go in one row (:func:`~.runs_sql.row_text`) under the new count.

    The guard also holds the Run's rows to its head: its last event row is
    numbered ``count`` (one probe of the primary key, from its end), so a Run
    whose rows were changed apart from its head is never extended. It answers the
    row's new version (no row: another writer came first, or the rows
    disagree with the head, which the next read finds; nothing was written).
    """
    update = (
        "UPDATE agent_graph_runs SET updated_at = ?, event_count = ?, head = ?, stored_bytes = ?,"
        " status = COALESCE(?::text, status) WHERE id = ? AND event_count = ? AND xmin = ?::xid"
        " AND (SELECT MAX(sequence) FROM agent_graph_run_events WHERE run_id = ?) = ?::integer"
        " RETURNING id, xmin::text AS version"
    )
    params = [*head_values(ref, appended), count, version, ref, count]
    if not appended.event_json:
        return Query(f"WITH u AS ({update}) SELECT version FROM u", params, commits=True)
    params += [appended.head.events, row_text(appended.event_json)]
    return Query(
        f"WITH u AS ({update}), appended AS (INSERT INTO agent_graph_run_events (run_id, sequence, event)"
        " SELECT u.id, ?::integer, ?::text FROM u) SELECT version FROM u",
        params,
        commits=True,
    )


class PostgresStorage(PostgresStatements, seam.RunStorage):
    """Runs in a PostgreSQL database: the storage of :class:`PostgresRunStore` (its options are that store's)."""

    kind = "postgresql"

    def __init__(
        self,
        conninfo: str,
        *,
        pool_size: int = 4,
        pool_min_size: int = 1,
        pool: Any = None,
        retries: int = 1,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        monotonic: seam.MonotonicClock | None = None,
    ) -> None:
        super().__init__(lock_timeout=lock_timeout, monotonic=monotonic)
        self._pool: Any = None
        self._owns_pool = False
        self._written = WrittenHeads()
        checked_pool_options(conninfo, pool, pool_size, pool_min_size, retries)
        self._psycopg, pool_module = pg_driver()
        self._pool_class = pool_module.ConnectionPool
        if pool is not None and not isinstance(pool, pool_module.ConnectionPool):
            kind = type(pool).__name__
            hint = (
                "; an AsyncConnectionPool belongs to the async store: await ag.open_async_store(url, pool=pool)"
                if isinstance(pool, pool_module.AsyncConnectionPool)
                else ""
            )
            raise AgentGraphError(
                "argument-invalid", f"pool= must be a psycopg_pool.ConnectionPool, not a {kind}{hint}"
            )
        self.conninfo = conninfo
        self.retries = retries
        self._recent = RecentConnections(self.monotonic)
        self._pool_timeout = pool_module.PoolTimeout
        if pool is None:
            self._set_up_directly(conninfo)
            self._owns_pool = True
            try:
                pool = pool_module.ConnectionPool(
                    conninfo,
                    min_size=pool_min_size,
                    max_size=pool_size,
                    kwargs={"autocommit": True, **connect_options(conninfo)},
                    check=self._check,
                    configure=self._configure,
                    timeout=max(self.lock_timeout, 0.001),
                    open=False,
                    name="agent-graph-runs",
                )
                pool.open(wait=False)
            except (self._psycopg.Error, pool_module.PoolTimeout) as error:
                with contextlib.suppress(Exception):
                    pool.close()
                raise AgentGraphError(
                    "run-store-unavailable", f"Cannot connect to the PostgreSQL Run store: {error}"
                ) from None
            self._pool = pool
        else:
            self._pool = pool
            try:
                if not self._retrying(self.q_schema_current):
                    self._retrying(self.q_schema_setup)
            except BaseException:
                self.close()
                raise

    def _set_up_directly(self, conninfo: str) -> None:
        """Connect once without a pool: libpq's own error at once; the tables set up if their version is not current."""
        psycopg = self._psycopg
        try:
            connection = psycopg.connect(conninfo, autocommit=True, **connect_options(conninfo))
        except psycopg.Error as error:
            raise AgentGraphError(
                "run-store-unavailable", f"Cannot connect to the PostgreSQL Run store: {error}".strip()
            ) from None
        try:
            self._configure(connection)
            if not self._on_connection(connection, self.q_schema_current()):
                self._on_connection(connection, self.q_schema_setup())
        except psycopg.Error as error:
            raise setup_failed(psycopg, self._pool_timeout, error, self.lock_timeout) from None
        finally:
            connection.close()

    @staticmethod
    def _on_connection(
        connection: Any, statements: Statements[T], stage: list[str] | None = None, atomic: bool = True
    ) -> T:
        """Run ``statements`` in one transaction (unless not ``atomic``: each commits on its own).

        ``stage`` is ``["commit"]`` while the outcome of a lost connection is unknown: during the
        commit, or during a statement that commits on its own.
        """
        with connection.transaction() if atomic or not connection.autocommit else contextlib.nullcontext():
            cursor = connection.cursor()

            def execute(query: Query) -> Result:
                sql, params, many = pg_statement(query, stage)
                if many:
                    cursor.executemany(sql, params)
                else:
                    cursor.execute(sql, params)
                if stage is not None:
                    stage[0] = "work"
                return Result(cursor.fetchall() if not many and has_rows(cursor) else [], cursor.rowcount)

            result = drive_statements(statements, execute)
            if stage is not None:
                stage[0] = "commit"
            return result

    def __repr__(self) -> str:
        return "<PostgresStorage>"

    def _configure(self, connection: Any) -> None:
        """Each new connection waits at most ``lock_timeout`` for a row lock."""
        connection.execute(f"SET lock_timeout = {max(int(self.lock_timeout * 1000), 1)}")

    def _check(self, connection: Any) -> None:
        """The pool's check of a connection it hands out: none when it answered lately."""
        if not self._recent.trusted(connection):
            self._pool_class.check_connection(connection)

    def close(self) -> None:
        """Close the store's connection pool (a pool the host passed stays open)."""
        if self._owns_pool and self._pool is not None:
            self._pool.close()
        self._pool = None

    # ------------------------------------------------------------ transactions

    def _once(self, statements: Statements[T], atomic: bool = True) -> T:
        pool = self._open_pool(statements)
        stage = ["connect"]
        try:
            with pool.connection(timeout=max(self.lock_timeout, 0.001)) as connection:
                stage[0] = "work"
                try:
                    return self._on_connection(connection, statements, stage, atomic)
                finally:
                    self._recent.answered(connection)
        except AgentGraphError:
            raise
        except (self._psycopg.Error, self._pool_timeout) as error:
            raise self._failure(error, stage[0], atomic) from None

    def _retrying(self, make: Callable[[], Statements[T]], atomic: bool = True) -> T:
        """Run fresh statements again on a fresh connection while connections are lost before commit."""
        tries = 0
        while True:
            try:
                return self._once(make(), atomic)
            except Lost as lost:
                tries = self._retry_or_fail(lost, tries)

    # ------------------------------------------------------------ the seam, retried

    # Reads run without a transaction: at READ COMMITTED each statement sees its own snapshot
    # either way, and a Run's events are only ever appended, so reading the head row and then
    # the events it counts gives a whole Run (BEGIN and COMMIT would cost two round trips more).

    def read_head(self, ref: str) -> seam.StoredHead:
        return self._retrying(lambda: self.q_read_head(ref), atomic=False)

    def read_events(self, ref: str, after: int, limit: int) -> seam.StoredPage:
        return self._retrying(lambda: self.q_read_events(ref, after, limit), atomic=False)

    def append(self, ref: str, write: seam.Write) -> seam.Appended:
        pending: list[Any] = []  # the guarded statement sent, shared by the tries
        return self._retrying(lambda: self.q_append(ref, write, pending), atomic=False)

    def create(self, new: seam.NewRun) -> None:
        self._retrying(lambda: self.q_create(new))

    def list_runs(self, query: seam.RunQuery) -> Iterable[RunSummary]:
        return self._retrying(lambda: self.q_list(query), atomic=False)

    def checkpoint(self, ref: str, name: str, write: seam.CheckpointWrite) -> seam.Checkpointed:
        return self._retrying(lambda: self.q_checkpoint(ref, name, write))

    def read_checkpoint(self, name: str) -> seam.StoredCheckpoint:
        return self._retrying(lambda: self.q_read_checkpoint(name), atomic=False)


class PostgresRunStore(BaseRunStore):
    """Runs in a PostgreSQL database; a Run is addressed by its Run ID.

    ``conninfo`` is a libpq connection string or URL. ``pool_size`` bounds the
    connections this store opens (``pool_min_size`` are kept open); a host
    that shares one pool among stores passes ``pool=`` (a
    ``psycopg_pool.ConnectionPool``) instead and keeps ownership of it (its
    connections must be in autocommit mode; set their ``lock_timeout`` in the
    pool's ``configure``). ``retries`` is how often a write whose connection
    was lost before its commit is tried again. ``lock_timeout`` bounds the
    wait for a row, a free connection or other writers of the Run, as
    ``monotonic`` counts it.
    """

    storage: PostgresStorage

    def __init__(
        self,
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
    ) -> None:
        storage = PostgresStorage(
            conninfo,
            pool_size=pool_size,
            pool_min_size=pool_min_size,
            pool=pool,
            retries=retries,
            lock_timeout=lock_timeout,
            monotonic=monotonic,
        )
        super().__init__(storage, clock=clock, new_id=new_id)

    def __repr__(self) -> str:
        return "<PostgresRunStore>"

    @property
    def conninfo(self) -> str:
        """The connection string the store was opened with."""
        return self.storage.conninfo

    @property
    def retries(self) -> int:
        """How often a write whose connection was lost before its commit is tried again."""
        return self.storage.retries
