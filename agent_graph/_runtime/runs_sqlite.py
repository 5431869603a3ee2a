"""The SQLite Run store: many processes on one machine, one database file, no server.

Uses the standard library's ``sqlite3`` in WAL mode (readers never wait for
the writer) with full synchronous commits. Every change is one ``BEGIN
IMMEDIATE`` transaction, which takes the database's write lock before the Run
is read, so concurrent writers from any number of processes are serialized
and none is lost; a writer waits for that lock at most ``lock_timeout``
seconds (SQLite's busy timeout), then fails with ``run-lock-timeout``. Other
database failures are ``run-store-failed``.

The store keeps one connection, used by one thread at a time (its own lock);
open a store per process. The tables are those of :mod:`agent_graph._runtime.runs_sql`,
created on first open.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from .._core.errors import AgentGraphError
from .run_store import DEFAULT_LOCK_TIMEOUT, Clock, IdFactory
from .runs_sql import SCHEMA_STATEMENTS, Cursor, SqlRunStore

__all__ = ["SqliteRunStore"]


class _SqliteCursor(Cursor):
    __slots__ = ("_cursor",)

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._cursor.execute(sql, tuple(params))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any:
        return self._cursor.executemany(sql, rows)

    def fetchone(self) -> Any:
        return self._cursor.fetchone()

    def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount


def _is_busy(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


class SqliteRunStore(SqlRunStore):
    """Runs in a SQLite database file (created if missing); a Run is addressed by its Run ID."""

    def __init__(
        self,
        path: str,
        *,
        clock: Clock | None = None,
        new_id: IdFactory | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    ) -> None:
        super().__init__(clock=clock, new_id=new_id, lock_timeout=lock_timeout)
        if not isinstance(path, str) or not path or "\x00" in path:
            raise AgentGraphError("argument-invalid", "The SQLite Run store needs a database file path")
        self.path = os.path.abspath(path)
        self._lock = threading.Lock()
        self._connection: sqlite3.Connection | None = None
        self._connection = self._open()

    def __repr__(self) -> str:
        return f"<SqliteRunStore {self.path}>"

    def _where(self, ref: str) -> str:
        return f"sqlite:///{self.path} run {ref}"

    def _failed(self, error: sqlite3.Error) -> AgentGraphError:
        if _is_busy(error):
            return AgentGraphError(
                "run-lock-timeout",
                f"Another writer held the SQLite database {self.path} for more than {self.lock_timeout:g} s",
            )
        return AgentGraphError("run-store-failed", f"The SQLite Run store {self.path} failed: {error}")

    def _open(self) -> sqlite3.Connection:
        directory = os.path.dirname(self.path)
        if not os.path.isdir(directory):
            raise AgentGraphError(
                "run-store-failed", f"The folder of the SQLite Run store does not exist: {directory}"
            )
        deadline = time.monotonic() + self.lock_timeout
        while True:
            connection: sqlite3.Connection | None = None
            try:
                connection = sqlite3.connect(
                    self.path, timeout=self.lock_timeout, isolation_level=None, check_same_thread=False
                )
                mode = connection.execute("PRAGMA journal_mode=WAL").fetchone()
                if mode is None or str(mode[0]).lower() != "wal":
                    raise AgentGraphError("run-store-failed", f"SQLite cannot use WAL for {self.path}")
                connection.execute("PRAGMA synchronous=FULL")
                connection.execute("PRAGMA foreign_keys=ON")
                connection.execute("BEGIN IMMEDIATE")
                try:
                    for statement in SCHEMA_STATEMENTS:
                        connection.execute(statement)
                    connection.execute("COMMIT")
                except BaseException:
                    connection.execute("ROLLBACK")
                    raise
                return connection
            except sqlite3.Error as error:
                if connection is not None:
                    connection.close()
                if _is_busy(error) and time.monotonic() < deadline:
                    time.sleep(0.01)  # WAL is being switched on by another process
                    continue
                raise self._failed(error) from None
            except BaseException:
                if connection is not None:
                    connection.close()
                raise

    def close(self) -> None:
        """Close the database connection; the store cannot be used afterwards."""
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    @contextlib.contextmanager
    def _transaction(self, write: bool) -> Iterator[Cursor]:
        with self._lock:
            connection = self._connection
            if connection is None:
                raise AgentGraphError("run-store-closed", f"The SQLite Run store {self.path} is closed")
            try:
                connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.Error as error:
                raise self._failed(error) from None
            try:
                yield _SqliteCursor(connection.cursor())
            except BaseException as failure:
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("ROLLBACK")
                if isinstance(failure, sqlite3.Error):
                    raise self._failed(failure) from None
                raise
            try:
                connection.execute("COMMIT")
            except sqlite3.Error as error:
                with contextlib.suppress(sqlite3.Error):
                    connection.execute("ROLLBACK")
                raise self._failed(error) from None
