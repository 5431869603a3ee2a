"""What the SQLite and PostgreSQL Run stores share: the tables and every statement.

A Run is stored as exactly its ``agent-graph.run.v1`` content, split in two:

* ``agent_graph_runs``: one row per Run ID with the Run's JSON text without
  its events (``head``), the number of its events and the columns ``list``
  filters on (Provider, Graph, entry, creation and last update);
* ``agent_graph_run_events``: one row per event, keyed by Run ID and sequence
  (1..n, the primary key refuses a duplicate), holding the event's JSON text;
* ``agent_graph_checkpoints``: checkpoints by name, each a whole Run's JSON.

Joining the head with its events in sequence order gives the Run back
unchanged; it is checked against the Run schema on every read and before every
write. A change reads the Run inside one transaction that holds its row
(``BEGIN IMMEDIATE`` in SQLite, ``SELECT … FOR UPDATE`` in PostgreSQL), updates
the head and appends only the new events, then commits: a writer that fails at
any point leaves the previous Run. Subclasses supply the transaction and map
driver errors to codes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from .._core.errors import AgentGraphError
from .._core.model import Run, RunSummary
from .._syntax import schema as _schema
from .run_changes import Change, checkpoint_event
from .run_store import BaseRunStore, check_provider, checked_run_bytes, convert_run

__all__ = ["SCHEMA_STATEMENTS", "Cursor", "SqlRunStore"]

SCHEMA_STATEMENTS = (
    """CREATE TABLE IF NOT EXISTS agent_graph_runs (
        id TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        graph TEXT NOT NULL,
        entry TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        event_count INTEGER NOT NULL,
        head TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS agent_graph_run_events (
        run_id TEXT NOT NULL REFERENCES agent_graph_runs (id),
        sequence INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (run_id, sequence)
    )""",
    """CREATE TABLE IF NOT EXISTS agent_graph_checkpoints (
        name TEXT PRIMARY KEY,
        run_id TEXT NOT NULL,
        document TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS agent_graph_runs_updated ON agent_graph_runs (updated_at)",
    "CREATE INDEX IF NOT EXISTS agent_graph_runs_provider_graph ON agent_graph_runs (provider, graph)",
)


class Cursor:
    """The part of a DB-API cursor the statements use, with ``?`` placeholders."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> Any:
        raise NotImplementedError

    def fetchone(self) -> Any:
        raise NotImplementedError

    def fetchall(self) -> list[Any]:
        raise NotImplementedError

    @property
    def rowcount(self) -> int:
        raise NotImplementedError


def _text(value: Any) -> str:
    return msgspec.json.encode(value).decode("utf-8")


def _head_text(run: Run) -> str:
    """The Run's JSON without its events (they are rows of their own)."""
    raw = msgspec.to_builtins(run)
    raw.pop("events", None)
    return _text(raw)


class SqlRunStore(BaseRunStore):
    """Run stores on a SQL database; a subclass opens transactions and names the store."""

    #: Appended to the SELECT that reads a Run for a change (``FOR UPDATE`` in PostgreSQL).
    lock_clause = ""

    def _transaction(self, write: bool) -> contextlib.AbstractContextManager[Cursor]:
        raise NotImplementedError

    def _where(self, ref: str) -> str:
        """How messages name the Run ``ref`` in this store."""
        raise NotImplementedError

    # ------------------------------------------------------------ rows

    def _assemble(self, head: str, events: Sequence[Any], where: str) -> Run:
        try:
            raw = msgspec.json.decode(head)
            if not isinstance(raw, dict):
                raise AgentGraphError("run-invalid", f"{where}: the stored Run is not a JSON object")
            raw["events"] = [msgspec.json.decode(row[0]) for row in events]
        except msgspec.DecodeError as error:
            raise AgentGraphError("run-invalid", f"{where}: the stored Run is not JSON: {error}") from None
        try:
            _schema.validate("run", raw, where)
        except AgentGraphError as error:
            raise AgentGraphError(
                "run-invalid",
                f"{where} is not a valid agent-graph.run.v1 ({error.code}): {error.message}",
                error.diagnostics,
            ) from None
        return convert_run(raw, where)

    def _select(self, cursor: Cursor, ref: str, *, lock: bool) -> Run:
        cursor.execute(
            "SELECT head FROM agent_graph_runs WHERE id = ?" + (self.lock_clause if lock else ""), (ref,)
        )
        row = cursor.fetchone()
        if row is None:
            raise AgentGraphError("run-missing", f"The store holds no Run {ref} ({self._where(ref)})")
        cursor.execute("SELECT event FROM agent_graph_run_events WHERE run_id = ? ORDER BY sequence", (ref,))
        return self._assemble(row[0], cursor.fetchall(), self._where(ref))

    def _insert(self, cursor: Cursor, run: Run, label: str) -> None:
        where = self._where(run.id)
        checked_run_bytes(run, where)
        cursor.execute(
            "INSERT INTO agent_graph_runs (id, provider, graph, entry, created_at, updated_at, event_count, head)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
            (run.id, run.provider, run.graph, run.entry, run.created_at, run.updated_at, len(run.events),
             _head_text(run)),
        )  # fmt: skip
        if cursor.rowcount != 1:
            raise AgentGraphError(
                "run-target-exists", f"{label}: the store already holds Run {run.id} ({where})"
            )
        self._append(cursor, run.id, run, 0)

    def _append(self, cursor: Cursor, run_id: str, run: Run, known: int) -> None:
        rows = [(run_id, event.sequence, _text(event)) for event in run.events[known:]]
        if rows:
            cursor.executemany(
                "INSERT INTO agent_graph_run_events (run_id, sequence, event) VALUES (?, ?, ?)", rows
            )

    def _write(self, cursor: Cursor, before: Run, after: Run) -> None:
        """Store ``after`` over ``before`` (same ID, events appended only)."""
        checked_run_bytes(after, self._where(after.id))
        known = len(before.events)
        if after.id != before.id or len(after.events) < known:
            raise AgentGraphError("internal-error", "A Run change must keep the ID and append events only")
        cursor.execute(
            "UPDATE agent_graph_runs SET provider = ?, graph = ?, entry = ?, updated_at = ?, event_count = ?,"
            " head = ? WHERE id = ?",
            (after.provider, after.graph, after.entry, after.updated_at, len(after.events), _head_text(after),
             after.id),
        )  # fmt: skip
        self._append(cursor, after.id, after, known)

    # ------------------------------------------------------------ primitives

    def _read(self, ref: str) -> Run:
        with self._transaction(False) as cursor:
            return self._select(cursor, ref, lock=False)

    def _modify(self, ref: str, expected: str | None, change: Change) -> Run:
        with self._transaction(True) as cursor:
            run = check_provider(self._select(cursor, ref, lock=True), expected)
            updated = change(run, self.now())
            self._write(cursor, run, updated)
        return updated

    def _create(self, ref: str, run: Run, label: str) -> None:
        with self._transaction(True) as cursor:
            self._insert(cursor, run, label)

    def _checkpoint(self, ref: str, target: str, expected: str | None) -> Run:
        with self._transaction(True) as cursor:
            cursor.execute("SELECT name FROM agent_graph_checkpoints WHERE name = ?", (target,))
            if cursor.fetchone() is not None:
                raise AgentGraphError(
                    "run-target-exists",
                    f"Checkpoint refuses to replace checkpoint {target} ({self._where(ref)})",
                )
            run = check_provider(self._select(cursor, ref, lock=True), expected)
            updated = self._stamped(checkpoint_event(target))(run, self.now())
            snapshot = msgspec.structs.replace(updated, authorities=())
            document = checked_run_bytes(snapshot, f"checkpoint {target}").decode("utf-8")
            self._write(cursor, run, updated)
            cursor.execute(
                "INSERT INTO agent_graph_checkpoints (name, run_id, document) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO NOTHING",
                (target, run.id, document),
            )
            if cursor.rowcount != 1:
                raise AgentGraphError(
                    "run-target-exists", f"Checkpoint refuses to replace checkpoint {target}"
                )
        return snapshot

    def _read_checkpoint(self, ref: str) -> tuple[Run, str]:
        from .run_store import decode_run

        with self._transaction(False) as cursor:
            cursor.execute("SELECT document FROM agent_graph_checkpoints WHERE name = ?", (ref,))
            row = cursor.fetchone()
        if row is None:
            raise AgentGraphError("run-missing", f"The store holds no checkpoint {ref} ({self._where(ref)})")
        return decode_run(row[0], f"checkpoint {ref}"), ref

    def _start_ref(self, ref: str | None) -> tuple[str, str]:
        run_id = ref if ref is not None else self._fresh_id()
        return run_id, run_id

    def _import_ref(self, run: Run) -> str:
        return run.id

    def _resume_ref(self, target: str | None, checkpoint: Run) -> tuple[str, str | None]:
        run_id = target if target is not None else self._fresh_id()
        return run_id, run_id

    def _summaries(
        self, provider: str | None, graph: str | None, after: str | None, before: str | None
    ) -> Iterator[RunSummary]:
        clauses: list[str] = []
        params: list[Any] = []
        for clause, value in (
            ("provider = ?", provider),
            ("graph = ?", graph),
            ("updated_at > ?", after),
            ("updated_at < ?", before),
        ):
            if value is not None:
                clauses.append(clause)
                params.append(value)
        sql = "SELECT id, provider, graph, entry, created_at, updated_at, event_count FROM agent_graph_runs"
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        with self._transaction(False) as cursor:
            cursor.execute(sql + " ORDER BY updated_at, id", params)
            rows = cursor.fetchall()
        for row in rows:
            yield RunSummary(
                id=row[0],
                ref=row[0],
                provider=row[1],
                graph=row[2],
                entry=row[3],
                created_at=row[4],
                updated_at=row[5],
                events=int(row[6]),
            )
