"""What the SQLite and PostgreSQL Run stores share: the tables and every statement, written once.

A Run is stored as exactly its ``agent-graph.run.v1`` content, split in two:

* ``agent_graph_runs``: one row per Run ID with the Run's JSON text without
  its events (``head``: what evaluation needs), the number of its events, the
  bytes of its JSON (``stored_bytes``: a write past half the limit of Runs is
  ``run-too-large``, so every Run exports to a file the reader takes), the
  Run's status as of its last evaluated write (``status``) and the columns
  ``list`` filters and pages on (Provider, Graph, entry, creation and last
  update), with an index per filter that ends in the key ``(created_at, id)``
  (no index holds a column every write changes, so a write that keeps the
  status updates the row in place: PostgreSQL's heap-only update). The head
  keeps its JSON from ``"facts"`` on: the fields before are the row's columns
  (:func:`stored_head`, :func:`head_text`), so a write logs and stores each once;
* ``agent_graph_run_events``: the events in rows keyed by Run ID and
  sequence (the primary key refuses a duplicate): a row holds one event's JSON
  text under its sequence or, for a write that adds several (a record with
  Facts), a JSON array of them under the last one's sequence
  (:func:`row_text`, :func:`row_events`), so a turn adds one row and one key;
* ``agent_graph_checkpoints``: checkpoints by name, each a whole Run's JSON;
* ``agent_graph_schema``: the schema version (:mod:`.runs_sql_schema`, which
  also checks, on every opening, that every table and index of our names is
  ours, and upgrades an older version in place).

JSON is kept as text, exactly as the Run reader reads it back, never as a
database JSON type that would re-parse it. A write (``record``,
``update_facts`` …) locks and reads the head row and the Run's last event row
(by primary key), checks what it adds, updates the head and appends the new
event rows in one transaction (PostgreSQL reads without a lock and writes in
one guarded statement instead, see
:class:`~agent_graph._runtime.runs_postgres.PostgresStatements`): its cost
does not grow with the Run's history. ``next_step`` reads the head row only.
Reading events (``load``, ``export``, ``events``) reads the head row, the
last event row and the page of events in ONE statement, so the three agree
even while writers commit (PostgreSQL, READ COMMITTED); the face refuses a
Run whose head and rows disagree (``run-invalid``: a head counting fewer or
more events than the rows hold). A row whose JSON disagrees with its key (a
head naming another Run, an event numbered other than its row) is
``run-invalid`` too.

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

import msgspec

from .._core.errors import AgentGraphError
from .._core.model import RunSummary
from . import run_storage as seam
from .run_changes import RUN_SCHEMA
from .runs_sql_schema import (
    OWNED_NAMES,
    SCHEMA_VERSION,
    VERSION_TABLE,
    catalog_of,
    check_version_table,
    schema_state,
    upgrade_statements,
)

__all__ = [
    "HEAD_AND_LAST",
    "HEAD_COLUMNS",
    "SCHEMA_VERSION",
    "Query",
    "Result",
    "SqlStatements",
    "Statements",
    "drive_statements",
    "head_text",
    "head_values",
    "last_event",
    "row_events",
    "row_text",
    "stored_head",
]

T = TypeVar("T")

#: The head row and the Run's last event row (the row of the highest sequence, found by primary key).
HEAD_AND_LAST = (
    " FROM agent_graph_runs h LEFT JOIN agent_graph_run_events l ON l.run_id = h.id AND l.sequence ="
    " (SELECT MAX(m.sequence) FROM agent_graph_run_events m WHERE m.run_id = h.id) WHERE h.id = ?"
)

_ROW_OF_EVENTS = msgspec.json.Decoder(list[msgspec.Raw])


def row_text(texts: Sequence[str]) -> str:
    """What one event row keeps of a write's consecutive events: the event's JSON, or a JSON array of them."""
    return texts[0] if len(texts) == 1 else "[" + ",".join(texts) + "]"


def row_events(text: Any) -> list[Any]:
    """The event texts one event row holds, first to last (a row that holds no array is one event, as it is)."""
    if isinstance(text, str) and text.startswith("["):
        try:
            events = _ROW_OF_EVENTS.decode(text)
        except msgspec.DecodeError:  # the face refuses the text as it is
            return [text]
        if events:
            return [bytes(event).decode("utf-8") for event in events]
    return [text]


def last_event(text: Any) -> Any:
    """The last event an event row holds (:func:`row_events`): a Run's last event, from its last row."""
    return row_events(text)[-1]


#: The columns of a head row that hold the first fields of its JSON, read with it (:func:`head_text`).
HEAD_COLUMNS = "h.head, h.id, h.provider, h.graph, h.entry, h.created_at, h.updated_at"


def _head_start(run_id: Any, provider: Any, graph: Any, entry: Any, created_at: Any, updated_at: Any) -> str:
    """The JSON a Run's head begins with, up to its ``facts``, for these column values."""
    fields = {"schema": RUN_SCHEMA, "id": run_id, "provider": provider, "graph": graph, "entry": entry,
              "createdAt": created_at, "updatedAt": updated_at}  # fmt: skip
    return msgspec.json.encode(fields).decode("utf-8")[:-1] + ","


def stored_head(head_json: str, head: Any) -> str:
    """What a head row keeps of ``head_json``: from ``"facts"`` on when the fields before are its columns'.

    Otherwise (a head with a ``workspace``) the whole text, which :func:`head_text` reads as it is.
    """
    try:
        start = _head_start(head.id, head.provider, head.graph, head.entry, head.created_at, head.updated_at)
    except ValueError:  # text JSON cannot hold as it is: kept whole, as the face wrote it
        return head_json
    return head_json[len(start) :] if head_json.startswith(start) else head_json


def head_values(ref: str, appended: seam.Appended) -> list[Any]:
    """What a write sets in the head row ``ref`` (updated_at, event_count, head, stored_bytes, status), then ``ref``."""
    head = appended.head
    kept = stored_head(appended.head_json, head)
    return [head.updated_at, head.events, kept, appended.size, appended.status, ref]


def head_text(row: Sequence[Any], at: int) -> Any:
    """A head's whole JSON from a row holding :data:`HEAD_COLUMNS` from index ``at`` (a whole head as it is)."""
    text, columns = row[at], row[at + 1 : at + 7]
    if isinstance(text, str) and text.startswith('"') and all(isinstance(value, str) for value in columns):
        try:
            return _head_start(*columns) + text
        except ValueError:  # columns no head could have written: the face refuses the text as it is
            pass
    return text


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

    #: Appended to the SELECT that reads a Run for a change (``FOR UPDATE OF h`` in PostgreSQL).
    lock_clause = ""
    #: Serializes set-up among processes inside its transaction (PostgreSQL: an advisory lock).
    setup_lock_sql = ""
    #: One statement answering the catalog rows of the names given (:func:`~.runs_sql_schema.catalog_of`).
    catalog_sql = ""

    @staticmethod
    def catalog_params() -> Sequence[Any]:
        """The parameters of :attr:`catalog_sql`: the names agent-graph owns, as it takes them."""
        return (list(OWNED_NAMES),)

    # ------------------------------------------------------------ schema

    def q_schema_state(self) -> Statements[tuple[int, Any]]:
        """The version of the tables and their catalog (``run-store-schema-newer``, ``run-store-schema-invalid``).

        Reads only: the catalog of our names, then the version row once its table is found to be ours.
        """
        found = yield Query(self.catalog_sql, self.catalog_params())
        catalog = catalog_of(found.rows)
        rows = None
        if check_version_table(self.where(""), catalog):
            rows = (yield Query(f"SELECT version FROM {VERSION_TABLE} LIMIT 5")).rows
        return schema_state(self.where(""), catalog, rows), catalog

    def q_schema_current(self) -> Statements[bool]:
        """Whether the tables are at :data:`SCHEMA_VERSION` (checked as :meth:`q_schema_state` checks them)."""
        version, _ = yield from self.q_schema_state()
        return bool(version == SCHEMA_VERSION)

    def q_schema_setup(self) -> Statements[None]:
        """Create the tables or upgrade them to :data:`SCHEMA_VERSION` (inside the write transaction)."""
        if self.setup_lock_sql:
            yield Query(self.setup_lock_sql)
        version, catalog = yield from self.q_schema_state()  # again, now that set-up is ours alone
        if version == SCHEMA_VERSION:
            return
        for sql, params in upgrade_statements(version, catalog):
            yield Query(sql, params)

    # ------------------------------------------------------------ reading

    def _missing(self, ref: str) -> AgentGraphError:
        return AgentGraphError("run-missing", f"The store holds no Run {ref} ({self.where(ref)})")

    def _no_events(self, ref: str) -> AgentGraphError:
        return AgentGraphError(
            "run-invalid",
            f"{self.where(ref)} disagrees with itself: its head row has no event rows; nothing is served or "
            "written (restore the Run from a backup or an export)",
        )

    def q_read_head(self, ref: str) -> Statements[seam.StoredHead]:
        found = yield Query(
            f"SELECT h.event_count, {HEAD_COLUMNS} FROM agent_graph_runs h WHERE h.id = ?", (ref,)
        )
        if not found.rows:
            raise self._missing(ref)
        row = found.rows[0]
        return seam.StoredHead(head_text(row, 1), row[0])

    def q_read_events(self, ref: str, after: int, limit: int) -> Statements[seam.StoredPage]:
        """The head, the last event and the events after ``after``, in ONE statement (one snapshot)."""
        query = Query(
            f"SELECT 0, l.event, h.event_count, l.sequence, {HEAD_COLUMNS}"
            + HEAD_AND_LAST
            + " UNION ALL SELECT * FROM (SELECT e.sequence, e.event, CAST(NULL AS INTEGER), CAST(NULL AS INTEGER)"
            + ", CAST(NULL AS TEXT)" * (HEAD_COLUMNS.count(",") + 1)
            + " FROM agent_graph_run_events e"
            " WHERE e.run_id = ? AND e.sequence > ? ORDER BY e.sequence LIMIT ?) AS page ORDER BY 1",
            (ref, ref, after, limit),
        )
        rows = (yield query).rows
        if not rows or rows[0][0] != 0:
            raise self._missing(ref)
        first = rows[0]
        last, count = first[1], first[2]
        if last is None:
            raise self._no_events(ref)
        return seam.StoredPage(
            seam.StoredHead(head_text(first, 4), count, None, last_event(last)),
            self._event_texts(ref, rows[1:], after + 1)[:limit],
        )

    def _event_texts(self, ref: str, rows: Sequence[Any], first: int) -> list[Any]:
        """The event texts of rows ``(sequence, event, …)`` that must hold events ``first``, ``first + 1`` …

        A row holds the events up to its key (:func:`row_events`); the first row may also hold
        events before ``first`` (a page that starts inside a write's row), which are left out.
        """
        texts: list[Any] = []
        expected = first
        for row in rows:
            events = row_events(row[1])
            key = row[0]
            start = key - len(events) + 1 if type(key) is int else 0  # the row's first event
            if not 1 <= start <= expected <= key or (texts and start != expected):
                raise AgentGraphError(
                    "run-invalid",
                    f"{self.where(ref)}: event row {row[0]} found where event {expected} belongs",
                )
            texts += events[expected - start :]
            expected = key + 1
        return texts

    # ------------------------------------------------------------ writing

    def q_stored_size(self, ref: str, stored: Any, head: Any) -> Statements[int]:
        """The Run's stored size: its ``stored_bytes``, or (schema version 1 kept none) its rows counted once."""
        if isinstance(stored, int) and not isinstance(stored, bool):
            return stored
        rows = (yield Query("SELECT event FROM agent_graph_run_events WHERE run_id = ?", (ref,))).rows
        return len(str(head).encode("utf-8", "surrogatepass")) + sum(
            len(str(event).encode("utf-8", "surrogatepass")) for row in rows for event in row_events(row[0])
        )

    @staticmethod
    def _update_head(ref: str, appended: seam.Appended) -> Query:
        return Query(
            "UPDATE agent_graph_runs SET updated_at = ?, event_count = ?, head = ?, stored_bytes = ?,"
            " status = COALESCE(?, status) WHERE id = ?",
            head_values(ref, appended),
        )

    @staticmethod
    def _insert_events(ref: str, appended: seam.Appended) -> Query:
        """The write's one event row: its events (:func:`row_text`) under the sequence of the last."""
        return Query(
            "INSERT INTO agent_graph_run_events (run_id, sequence, event) VALUES (?, ?, ?)",
            (ref, appended.head.events, row_text(appended.event_json)),
        )

    def q_held_head(self, ref: str) -> Statements[seam.StoredHead]:
        """The head row and the last event row read to change the Run (locked where that locks), with its size."""
        found = yield Query(
            f"SELECT h.event_count, h.stored_bytes, l.event, {HEAD_COLUMNS}"
            + HEAD_AND_LAST
            + self.lock_clause,
            (ref,),
        )
        if not found.rows:
            raise self._missing(ref)
        count, stored, last = found.rows[0][:3]
        text = head_text(found.rows[0], 3)
        if last is None:
            raise self._no_events(ref)
        size = yield from self.q_stored_size(ref, stored, text)
        return seam.StoredHead(text, count, size, last_event(last))

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
            " stored_bytes, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
            (run.id, run.provider, run.graph, run.entry, run.created_at, run.updated_at, len(run.events),
             stored_head(new.head_json, run), new.size, new.status),
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
                "SELECT sequence, event FROM agent_graph_run_events WHERE run_id = ? ORDER BY sequence",
                (ref,),
            )
        ).rows  # every row: the Run is held, and the face checks them against the head
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
        """The Runs the query selects, in its order, at most its limit: one indexed range of the key.

        Every filter but the bounds of ``updated_at`` is an equality and the
        order is the key ``(created_at, id)``, so an index that starts with
        the filtered column and ends in the key serves a page
        (``agent_graph_runs_by_state``, ``…_by_graph``, ``…_by_creation``);
        ``updated_after`` and ``updated_before`` are checked on the rows that
        range reads.
        """
        clauses: list[str] = []
        params: list[Any] = []
        for clause, value in (
            ("provider = ?", query.provider),
            ("graph = ?", query.graph),
            ("status = ?", query.status),
            ("updated_at > ?", query.updated_after),
            ("updated_at < ?", query.updated_before),
        ):
            if value is not None:
                clauses.append(clause)
                params.append(value)
        order = " DESC" if query.newest_first else ""
        if query.after is not None:
            clauses.append(f"(created_at, id) {'<' if query.newest_first else '>'} (?, ?)")
            params += query.after[:2]
        sql = "SELECT id, provider, graph, entry, created_at, updated_at, event_count, status FROM agent_graph_runs"
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        sql += f" ORDER BY created_at{order}, id{order}"
        if query.limit is not None:
            sql += " LIMIT ?"
            params.append(query.limit)
        rows = (yield Query(sql, params)).rows
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
                status=row[7],
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
