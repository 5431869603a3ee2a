"""What the SQLite and PostgreSQL Run stores share: the tables and every statement, written once.

A Run is stored as exactly its ``agent-graph.run.v1`` content, split in two:

* ``agent_graph_runs``: one row per Run ID with the Run's JSON text without
  its events (``head``: what evaluation needs), the number of its events, the
  bytes of its JSON (``stored_bytes``: a write past half the limit of Runs is
  ``run-too-large``, so every Run exports to a file the reader takes) and the
  columns ``list`` filters on (Provider, Graph, entry, creation and last
  update);
* ``agent_graph_run_events``: one row per event, keyed by Run ID and sequence
  (1..n, the primary key refuses a duplicate), holding the event's JSON text;
* ``agent_graph_checkpoints``: checkpoints by name, each a whole Run's JSON;
* ``agent_graph_schema``: the schema version (:data:`SCHEMA_VERSION`). A
  database of an older version is upgraded in place when a store opens it;
  one of a newer version is refused (``run-store-schema-newer``).

JSON is kept as text, exactly as the Run reader reads it back, never as a
database JSON type that would re-parse it. A write (``record``,
``update_facts`` …) locks and reads the head row only, checks what it adds,
updates the head and appends the new event rows in one transaction (PostgreSQL
reads without a lock and writes in one guarded statement instead, see
:class:`~agent_graph._runtime.runs_postgres.PostgresStatements`): its cost
does not grow with the Run's history. ``next_step`` reads the head row only.
Reading a whole Run (``load``, ``export``) joins the head with its events
numbered up to the head's count (events are only ever appended, so a writer
committing meanwhile cannot make the two disagree, even at READ COMMITTED)
and checks the whole Run. A row whose JSON disagrees with its key (a head naming
another Run, an event numbered other than its row) is ``run-invalid``.

Each method of the storage seam (:mod:`agent_graph._runtime.run_storage`) is
a generator here (``q_*`` of :class:`SqlStatements`) yielding :class:`Query`
values and receiving :class:`Result` values: the SQLite storage, the
PostgreSQL one and the async PostgreSQL one drive the same statements. What a
head or an event row holds is checked by the store's face, which hands over
the texts to write (:class:`~agent_graph._runtime.run_storage.Appended`);
these statements keep them and check only what is theirs: a row's key
against its place.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any, NamedTuple, TypeVar

from .._core.errors import AgentGraphError
from .._core.model import RunSummary
from . import run_storage as seam
from .run_codec import key_text

__all__ = [
    "SCHEMA_STATEMENTS",
    "SCHEMA_VERSION",
    "Query",
    "Result",
    "SqlStatements",
    "Statements",
    "drive_statements",
]

T = TypeVar("T")

#: The version of the tables this release writes (1: the first release, which kept no version).
SCHEMA_VERSION = 2

SCHEMA_STATEMENTS = (
    """CREATE TABLE IF NOT EXISTS agent_graph_runs (
        id TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        graph TEXT NOT NULL,
        entry TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        event_count INTEGER NOT NULL,
        head TEXT NOT NULL,
        stored_bytes INTEGER
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
    "CREATE TABLE IF NOT EXISTS agent_graph_schema (version INTEGER NOT NULL)",
)

#: The columns each table of version 1 and later has (an older database is checked before it is upgraded).
_COLUMNS = {
    "agent_graph_runs": {
        "id",
        "provider",
        "graph",
        "entry",
        "created_at",
        "updated_at",
        "event_count",
        "head",
    },
    "agent_graph_run_events": {"run_id", "sequence", "event"},
    "agent_graph_checkpoints": {"name", "run_id", "document"},
}


class Query(NamedTuple):
    """One statement with ``?`` placeholders; ``many``: ``params`` is a list of rows.

    ``commits``: the statement commits on its own (run outside a transaction), so a
    connection lost while it runs leaves unknown whether it landed.
    """

    sql: str
    params: Sequence[Any] = ()
    many: bool = False
    commits: bool = False


class Result(NamedTuple):
    """What a statement answered: its rows (empty unless it selects) and the rows it changed."""

    rows: list[Any]
    rowcount: int


#: A store operation over SQL: yields statements, is sent their results, returns its answer.
Statements = Generator[Query, Result, T]


class SqlStatements(seam.StorageOptions):
    """The storage seam as statement generators, shared by every SQL storage and driver."""

    #: Appended to the SELECT that reads a Run for a change (``FOR UPDATE`` in PostgreSQL).
    lock_clause = ""
    #: Serializes set-up among processes inside its transaction (PostgreSQL: an advisory lock).
    setup_lock_sql = ""
    #: Lists which of the given tables exist (parameters: the names).
    tables_sql = ""
    #: Lists the columns of one table (parameter: its name); rows of (name,).
    columns_sql = ""

    # ------------------------------------------------------------ schema

    def q_schema_state(self) -> Statements[str]:
        """``current``, ``create`` or ``upgrade`` (``run-store-schema-newer``, ``run-store-schema-invalid``)."""
        names = (*_COLUMNS, "agent_graph_schema")
        found = yield Query(self.tables_sql, names)
        tables = {row[0] for row in found.rows}
        if "agent_graph_schema" in tables:
            version_rows = (yield Query("SELECT MAX(version) FROM agent_graph_schema")).rows
            version = version_rows[0][0] if version_rows else None
            if isinstance(version, int) and version > SCHEMA_VERSION:
                raise AgentGraphError(
                    "run-store-schema-newer",
                    f"The Run store {self.where('')} was written by a newer agent-graph (schema version {version}, "
                    f"this release reads up to {SCHEMA_VERSION}); upgrade agent-graph to open it",
                )
            if version == SCHEMA_VERSION:
                return "current"
        if not tables:
            return "create"
        for table, columns in _COLUMNS.items():
            if table not in tables:
                continue
            have = {str(row[0]) for row in (yield Query(self.columns_sql, (table,))).rows}
            if not columns <= have:
                raise AgentGraphError(
                    "run-store-schema-invalid",
                    f"The table {table} of {self.where('')} is not an agent-graph Run table "
                    f"(it lacks {', '.join(sorted(columns - have))}); use another database or remove the table",
                )
        return "upgrade"

    def q_schema_setup(self) -> Statements[None]:
        """Create the tables or upgrade them to :data:`SCHEMA_VERSION` (inside the write transaction)."""
        if self.setup_lock_sql:
            yield Query(self.setup_lock_sql)
        state = yield from self.q_schema_state()
        if state == "current":
            return
        for statement in SCHEMA_STATEMENTS:
            yield Query(statement)
        have = {str(row[0]) for row in (yield Query(self.columns_sql, ("agent_graph_runs",))).rows}
        if "stored_bytes" not in have:  # version 1: the size of a Run's JSON is counted at its next write
            yield Query("ALTER TABLE agent_graph_runs ADD COLUMN stored_bytes INTEGER")
        yield Query("DELETE FROM agent_graph_schema")
        yield Query("INSERT INTO agent_graph_schema (version) VALUES (?)", (SCHEMA_VERSION,))

    # ------------------------------------------------------------ reading

    def _missing(self, ref: str) -> AgentGraphError:
        return AgentGraphError("run-missing", f"The store holds no Run {ref} ({self.where(ref)})")

    def q_read_head(self, ref: str) -> Statements[seam.StoredHead]:
        found = yield Query("SELECT head, event_count FROM agent_graph_runs WHERE id = ?", (ref,))
        if not found.rows:
            raise self._missing(ref)
        row = found.rows[0]
        return seam.StoredHead(row[0], row[1])

    def q_read_events(self, ref: str, after: int, limit: int) -> Statements[seam.StoredPage]:
        """The head, then its events after ``after`` up to the head's count (events are only ever appended)."""
        head = yield from self.q_read_head(ref)
        count = head.events
        if not isinstance(count, int) or after >= count:
            return seam.StoredPage(head, ())
        if after == 0 and limit >= count:
            query = Query(
                "SELECT sequence, event FROM agent_graph_run_events WHERE run_id = ? AND sequence <= ?"
                " ORDER BY sequence",
                (ref, count),
            )
        else:
            query = Query(
                "SELECT sequence, event FROM agent_graph_run_events WHERE run_id = ? AND sequence > ?"
                " AND sequence <= ? ORDER BY sequence LIMIT ?",
                (ref, after, count, limit),
            )
        rows = (yield query).rows
        return seam.StoredPage(head, self._event_texts(ref, rows, after + 1))

    def _event_texts(self, ref: str, rows: Sequence[Any], first: int) -> list[Any]:
        """The event texts of rows ``(sequence, event)`` that must be numbered ``first``, ``first + 1`` …"""
        for expected, row in enumerate(rows, start=first):
            if row[0] != expected:
                raise AgentGraphError(
                    "run-invalid",
                    f"{self.where(ref)}: event row {row[0]} found where event {expected} belongs",
                )
        return [row[1] for row in rows]

    # ------------------------------------------------------------ writing

    def q_stored_size(self, ref: str, stored: Any, head: Any) -> Statements[int]:
        """The Run's stored size: its ``stored_bytes``, or (schema version 1 kept none) its rows counted once."""
        if isinstance(stored, int) and not isinstance(stored, bool):
            return stored
        rows = (yield Query("SELECT event FROM agent_graph_run_events WHERE run_id = ?", (ref,))).rows
        return len(str(head).encode("utf-8", "surrogatepass")) + sum(
            len(str(event[0]).encode("utf-8", "surrogatepass")) for event in rows
        )

    @staticmethod
    def _update_head(ref: str, appended: seam.Appended) -> Query:
        head = appended.head
        return Query(
            "UPDATE agent_graph_runs SET updated_at = ?, event_count = ?, head = ?, stored_bytes = ? WHERE id = ?",
            (head.updated_at, head.events, appended.head_json, appended.size, ref),
        )

    @staticmethod
    def _insert_events(ref: str, appended: seam.Appended) -> Query:
        first = appended.head.events - len(appended.event_json) + 1
        return Query(
            "INSERT INTO agent_graph_run_events (run_id, sequence, event) VALUES (?, ?, ?)",
            [(ref, sequence, text) for sequence, text in enumerate(appended.event_json, start=first)],
            many=True,
        )

    def q_held_head(self, ref: str) -> Statements[seam.StoredHead]:
        """The head row read to change it (``FOR UPDATE`` where that locks), with the Run's stored size."""
        found = yield Query(
            "SELECT head, event_count, stored_bytes FROM agent_graph_runs WHERE id = ?" + self.lock_clause,
            (ref,),
        )
        if not found.rows:
            raise self._missing(ref)
        text, count, stored = found.rows[0]
        size = yield from self.q_stored_size(ref, stored, text)
        return seam.StoredHead(text, count, size)

    def q_append(self, ref: str, write: seam.Write) -> Statements[seam.Appended]:
        """Read the head row, apply ``write``, update the head, append the events (in the caller's transaction)."""
        appended = write((yield from self.q_held_head(ref)))
        yield self._update_head(ref, appended)
        if appended.event_json:
            yield self._insert_events(ref, appended)
        return appended

    def q_create(self, new: seam.NewRun) -> Statements[None]:
        run = new.run
        found = yield Query(
            "INSERT INTO agent_graph_runs (id, provider, graph, entry, created_at, updated_at, event_count, head,"
            " stored_bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
            (run.id, run.provider, run.graph, run.entry, run.created_at, run.updated_at, len(run.events),
             new.head_json, new.size),
        )  # fmt: skip
        if found.rowcount != 1:
            raise AgentGraphError(
                "run-target-exists",
                f"{new.label}: the store already holds Run {run.id} ({self.where(run.id)})",
            )
        yield Query(
            "INSERT INTO agent_graph_run_events (run_id, sequence, event) VALUES (?, ?, ?)",
            [(run.id, sequence, text) for sequence, text in enumerate(new.event_json, start=1)],
            many=True,
        )

    def q_checkpoint(self, ref: str, name: str, write: seam.CheckpointWrite) -> Statements[seam.Checkpointed]:
        taken = yield Query("SELECT name FROM agent_graph_checkpoints WHERE name = ?", (name,))
        if taken.rows:
            raise AgentGraphError(
                "run-target-exists", f"Checkpoint refuses to replace checkpoint {name} ({self.where(ref)})"
            )
        head = yield from self.q_held_head(ref)
        rows = (
            yield Query(
                "SELECT sequence, event FROM agent_graph_run_events WHERE run_id = ? AND sequence <= ?"
                " ORDER BY sequence",
                (ref, head.events),
            )
        ).rows
        done = write(seam.StoredPage(head, self._event_texts(ref, rows, 1)), name)
        yield self._update_head(ref, done.appended)
        yield self._insert_events(ref, done.appended)
        inserted = yield Query(
            "INSERT INTO agent_graph_checkpoints (name, run_id, document) VALUES (?, ?, ?)"
            " ON CONFLICT (name) DO NOTHING",
            (name, ref, done.document.decode("utf-8")),
        )
        if inserted.rowcount != 1:
            raise AgentGraphError("run-target-exists", f"Checkpoint refuses to replace checkpoint {name}")
        return done

    def q_read_checkpoint(self, name: str) -> Statements[seam.StoredCheckpoint]:
        found = yield Query("SELECT document FROM agent_graph_checkpoints WHERE name = ?", (name,))
        if not found.rows:
            raise AgentGraphError("run-missing", f"The store holds no checkpoint {name} ({self.where(name)})")
        return seam.StoredCheckpoint(found.rows[0][0], name)

    def q_list(self, query: seam.RunQuery) -> Statements[list[RunSummary]]:
        clauses: list[str] = []
        params: list[Any] = []
        for clause, value in (
            ("provider = ?", query.provider),
            ("graph = ?", query.graph),
            ("updated_at > ?", query.updated_after),
            ("updated_at < ?", query.updated_before),
        ):
            if value is not None:
                key_text(value, "A filter")
                clauses.append(clause)
                params.append(value)
        sql = "SELECT id, provider, graph, entry, created_at, updated_at, event_count FROM agent_graph_runs"
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        rows = (yield Query(sql + " ORDER BY updated_at, id", params)).rows
        return [
            RunSummary(
                id=row[0],
                ref=row[0],
                provider=row[1],
                graph=row[2],
                entry=row[3],
                created_at=row[4],
                updated_at=row[5],
                events=int(row[6]),
            )
            for row in rows
        ]


def drive_statements(statements: Statements[T], execute: Any) -> T:
    """Run statements with ``execute(query) -> Result`` (a blocking driver)."""
    answer: Any = None
    try:
        while True:
            answer = execute(statements.send(answer))
    except StopIteration as done:
        result: T = done.value
        return result
    finally:
        statements.close()
