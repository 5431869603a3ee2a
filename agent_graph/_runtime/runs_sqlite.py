"""The SQLite Run store: many processes on one machine, one database file, no server.

Uses the standard library's ``sqlite3`` in WAL mode (readers never wait for
the writer) with full synchronous commits. Every change is one ``BEGIN
IMMEDIATE`` transaction, which takes the database's write lock before the Run
is read, so concurrent writers from any number of processes are serialized
and none is lost; a writer waits for that lock at most ``lock_timeout``
seconds (SQLite's busy timeout), then fails with ``run-lock-timeout``. Other
database failures are ``run-store-failed``.

Time only through the store's clocks: the deadline of opening a database
(while another process switches it to WAL) is read from the injected
monotonic clock. The store keeps two connections, each used by one thread at a time (a lock of
its own): one for writes and one for reads, so a read never queues behind a
write of the same store that waits for the database's write lock; open a store
per process. The tables are those of :mod:`agent_graph._runtime.runs_sql`,
created on first open and upgraded once per schema version: opening a current
database only reads it (a plain ``BEGIN``), so opening a store, like every
read, never waits for a writer. A path that is not a regular file (a device,
a folder) is refused before SQLite creates anything beside it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterable
from typing import TypeVar

from .._core.errors import AgentGraphError
from .._core.model import RunSummary
from . import run_storage as seam
from .run_codec import DEFAULT_LOCK_TIMEOUT
from .run_operations import IdFactory
from .run_store import BaseRunStore
from .runs_sql import Query, Result, SqlStatements, Statements, drive_statements
from .runs_sql_schema import OWNED_NAMES
from .store_scheme import StoreScheme

__all__ = ["SCHEME", "SqliteRunStore", "SqliteStorage", "sqlite_path"]

T = TypeVar("T")


def _is_busy(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def _run_query(cursor: sqlite3.Cursor, query: Query) -> Result:
    if query.many:
        cursor.executemany(query.sql, [tuple(row) for row in query.params])
        return Result([], cursor.rowcount)
    cursor.execute(query.sql, tuple(query.params))
    rows = cursor.fetchall() if cursor.description is not None else []
    return Result(rows, cursor.rowcount)


def sqlite_path(url: str) -> str:
    """The database path of a ``sqlite:`` URL: ``sqlite:///runs.db`` is relative, ``sqlite:////abs/runs.db`` absolute."""
    rest = url[len("sqlite://") :] if url[: len("sqlite://")].lower() == "sqlite://" else ""
    if not rest.startswith("/") or len(rest) < 2 or "?" in rest or "#" in rest:
        raise AgentGraphError(
            "store-url-invalid",
            f"Not a SQLite store URL: {url!r}; write sqlite:///relative/runs.db or sqlite:////absolute/runs.db",
        )
    return rest[1:]


_NAMES = ", ".join("?" * len(OWNED_NAMES))
#: The catalog of our names (:func:`~agent_graph._runtime.runs_sql_schema.catalog_of`): each table's
#: columns and key, each index's table, columns and whether it is plain, and any other object.
CATALOG_SQL = (
    "SELECT m.type, m.name, m.tbl_name, p.cid, p.name, p.type, p.pk > 0, 1"
    f" FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE m.type = 'table' AND m.name IN ({_NAMES})"
    " UNION ALL SELECT m.type, m.name, m.tbl_name, i.seqno, i.name, '', 0, l.\"unique\" = 0 AND l.partial = 0"
    " FROM sqlite_master AS m JOIN pragma_index_info(m.name) AS i JOIN pragma_index_list(m.tbl_name) AS l"
    f" ON l.name = m.name WHERE m.type = 'index' AND m.name IN ({_NAMES})"
    " UNION ALL SELECT m.type, m.name, m.tbl_name, 0, NULL, NULL, 0, 1 FROM sqlite_master AS m"
    f" WHERE m.type NOT IN ('table', 'index') AND m.name IN ({_NAMES}) ORDER BY 2, 4"
)


class SqliteStorage(SqlStatements, seam.RunStorage):
    """Runs in a SQLite database file (created if missing): the storage of :class:`SqliteRunStore`."""

    kind = "sqlite"

    catalog_sql = CATALOG_SQL

    @staticmethod
    def catalog_params() -> list[str]:
        return list(OWNED_NAMES) * 3

    def __init__(
        self,
        path: str,
        *,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        monotonic: seam.MonotonicClock | None = None,
    ) -> None:
        super().__init__(lock_timeout=lock_timeout, monotonic=monotonic)
        if not isinstance(path, str) or not path or "\x00" in path:
            raise AgentGraphError("argument-invalid", "The SQLite Run store needs a database file path")
        self.path = os.path.abspath(path)
        self._lock = threading.Lock()
        self._read_lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._closed = False
        self._connection = self._open()

    def __repr__(self) -> str:
        return f"<SqliteStorage {self.path}>"

    def where(self, ref: str) -> str:
        return f"sqlite:///{self.path}" + (f" run {ref}" if ref else "")

    def _failed(self, error: sqlite3.Error) -> AgentGraphError:
        if _is_busy(error):
            return AgentGraphError(
                "run-lock-timeout",
                f"Another writer held the SQLite database {self.path} for more than {self.lock_timeout:g} s",
            )
        return AgentGraphError("run-store-failed", f"The SQLite Run store {self.path} failed: {error}")

    def _check_file(self) -> None:
        """Refuse, before SQLite creates anything beside it, a path that cannot be a database file."""
        directory = os.path.dirname(self.path)
        if not os.path.isdir(directory):
            raise AgentGraphError(
                "run-store-failed", f"The folder of the SQLite Run store does not exist: {directory}"
            )
        try:
            mode = os.stat(self.path).st_mode
        except FileNotFoundError:
            return
        except OSError as error:
            raise AgentGraphError(
                "run-store-failed", f"Cannot open the SQLite Run store {self.path}: {error}"
            ) from None
        if not stat.S_ISREG(mode):
            raise AgentGraphError(
                "run-store-failed",
                f"The SQLite Run store {self.path} is not a regular file (a device or folder?)",
            )

    def _open(self) -> sqlite3.Connection:
        self._check_file()
        deadline = self.monotonic() + self.lock_timeout
        while True:
            connection: sqlite3.Connection | None = None
            try:
                connection = sqlite3.connect(
                    self.path, timeout=self.lock_timeout, isolation_level=None, check_same_thread=False
                )
                connection.execute("PRAGMA synchronous=FULL")
                connection.execute("PRAGMA foreign_keys=ON")
                self._connection = connection
                # The tables are checked before anything changes (a database that is not ours is left
                # byte for byte as it was); set-up happens once per schema version.
                current = self._in_transaction(connection, False, self.q_schema_current())
                mode = connection.execute("PRAGMA journal_mode").fetchone()
                if mode is None or str(mode[0]).lower() != "wal":
                    mode = connection.execute("PRAGMA journal_mode=WAL").fetchone()
                    if mode is None or str(mode[0]).lower() != "wal":
                        raise AgentGraphError("run-store-failed", f"SQLite cannot use WAL for {self.path}")
                if not current:
                    self._in_transaction(connection, True, self.q_schema_setup())
                return connection
            except sqlite3.Error as error:
                self._connection = None
                if connection is not None:
                    connection.close()
                if _is_busy(error) and self.monotonic() < deadline:
                    time.sleep(0.01)  # WAL is being switched on by another process
                    continue
                raise self._failed(error) from None
            except BaseException:
                self._connection = None
                if connection is not None:
                    connection.close()
                raise

    def close(self) -> None:
        """Close the database connections; the store cannot be used afterwards."""
        with self._lock, self._read_lock:
            self._closed = True
            for connection in (self._connection, self._reader):
                if connection is not None:
                    connection.close()
            self._connection = self._reader = None

    def _read_connection(self) -> sqlite3.Connection:
        """The connection reads use (opened on first use; it never writes)."""
        if self._reader is None:
            reader = sqlite3.connect(
                self.path, timeout=self.lock_timeout, isolation_level=None, check_same_thread=False
            )
            try:
                reader.execute("PRAGMA query_only=ON")
            except BaseException:
                reader.close()
                raise
            self._reader = reader
        return self._reader

    def _in_transaction(
        self, connection: sqlite3.Connection, write: bool, statements: Statements[T], single: bool = False
    ) -> T:
        """Run ``statements`` in one transaction: ``BEGIN IMMEDIATE`` to write, a plain ``BEGIN`` to read.

        A reader in WAL mode never waits for a writer. ``single``: the reads are one statement, which
        sees one snapshot of its own (no ``BEGIN`` and ``COMMIT`` around it).
        """
        if not write and single:  # one statement reads one snapshot without BEGIN and COMMIT
            cursor = connection.cursor()
            return drive_statements(statements, lambda query: _run_query(cursor, query))
        connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            cursor = connection.cursor()
            result = drive_statements(statements, lambda query: _run_query(cursor, query))
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                connection.execute("ROLLBACK")
            raise
        try:
            connection.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                connection.execute("ROLLBACK")
            raise
        return result

    def _execute(self, write: bool, statements: Statements[T]) -> T:
        """A write in ``BEGIN IMMEDIATE … COMMIT``; a read of the seam, always one statement, without a transaction."""
        with self._lock if write else self._read_lock:
            if self._closed or self._connection is None:
                statements.close()
                raise AgentGraphError("run-store-closed", f"The SQLite Run store {self.path} is closed")
            try:
                connection = self._connection if write else self._read_connection()
                return self._in_transaction(connection, write, statements, single=not write)
            except sqlite3.Error as error:
                raise self._failed(error) from None

    # ------------------------------------------------------------ the seam

    def read_head(self, ref: str) -> seam.StoredHead:
        return self._execute(False, self.q_read_head(ref))

    def read_events(self, ref: str, after: int, limit: int) -> seam.StoredPage:
        return self._execute(False, self.q_read_events(ref, after, limit))

    def append(self, ref: str, write: seam.Write) -> seam.Appended:
        return self._execute(True, self.q_append(ref, write))

    def create(self, new: seam.NewRun) -> None:
        self._execute(True, self.q_create(new))

    def list_runs(self, query: seam.RunQuery) -> Iterable[RunSummary]:
        return self._execute(False, self.q_list(query))

    def checkpoint(self, ref: str, name: str, write: seam.CheckpointWrite) -> seam.Checkpointed:
        return self._execute(True, self.q_checkpoint(ref, name, write))

    def read_checkpoint(self, name: str) -> seam.StoredCheckpoint:
        return self._execute(False, self.q_read_checkpoint(name))


class SqliteRunStore(BaseRunStore):
    """Runs in a SQLite database file (created if missing); a Run is addressed by its Run ID.

    ``lock_timeout`` bounds the wait for the database's write lock, and the
    opening of a database another process is setting up, as ``monotonic``
    counts it.
    """

    storage: SqliteStorage

    def __init__(
        self,
        path: str,
        *,
        clock: seam.Clock | None = None,
        new_id: IdFactory | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        monotonic: seam.MonotonicClock | None = None,
    ) -> None:
        super().__init__(
            SqliteStorage(path, lock_timeout=lock_timeout, monotonic=monotonic), clock=clock, new_id=new_id
        )

    def __repr__(self) -> str:
        return f"<SqliteRunStore {self.path}>"

    @property
    def path(self) -> str:
        """The database file (absolute)."""
        return self.storage.path


def open_sqlite(
    url: str,
    *,
    clock: seam.Clock | None = None,
    new_id: IdFactory | None = None,
    lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    monotonic: seam.MonotonicClock | None = None,
) -> SqliteRunStore:
    """The store of a ``sqlite:///relative.db`` or ``sqlite:////absolute.db`` URL."""
    return SqliteRunStore(
        sqlite_path(url), clock=clock, new_id=new_id, lock_timeout=lock_timeout, monotonic=monotonic
    )


#: The ``sqlite:`` scheme of store URLs.
SCHEME = StoreScheme(open=open_sqlite, name="SQLite", example="sqlite:///runs.db")
