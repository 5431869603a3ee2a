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
:class:`~agent_graph._runtime.runs_postgres.PostgresOperations`): its cost
does not grow with the Run's history. ``next_step`` reads the head row only.
Reading a whole Run (``load``, ``export``) joins the head with its events
numbered up to the head's count (events are only ever appended, so a writer
committing meanwhile cannot make the two disagree, even at READ COMMITTED)
and checks the whole Run. A row whose JSON disagrees with its key (a head naming
another Run, an event numbered other than its row) is ``run-invalid``.

Each operation is a generator yielding :class:`Query` values and receiving
:class:`Result` values: the blocking stores (SQLite, PostgreSQL) and the
async PostgreSQL store drive the same statements.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Generator, Iterator, Sequence
from typing import Any, NamedTuple, TypeVar

import msgspec

from .._core.errors import AgentGraphError
from .._core.model import Run, RunEvent, RunHead, RunSummary
from .._core.plain import json_bytes
from .._syntax import schema as _schema
from .run_changes import Change, apply_change, checkpoint_event, guarded
from .run_store import (
    BaseRunStore,
    Clock,
    IdFactory,
    RunStoreLogic,
    check_provider,
    checked_run_bytes,
    convert_run,
    decode_run,
    key_text,
    not_a_run,
    parse_stored,
    settle,
)

__all__ = [
    "SCHEMA_STATEMENTS",
    "SCHEMA_VERSION",
    "Query",
    "Result",
    "SqlOperations",
    "SqlRunStore",
    "Statements",
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


def _text(raw: Any) -> str:
    return json_bytes(raw).decode("utf-8")


def _run_rows(run: Run) -> tuple[str, list[tuple[int, str]]]:
    raw = run.to_json()
    events = raw.pop("events")
    return _text(raw), [(event["sequence"], _text(event)) for event in events]


class KnownHead(NamedTuple):
    """A Run's head row as this store last wrote it: its text, event count, stored size and row version."""

    ref: str
    text: str
    events: int
    stored: int
    version: str


class HeadMemo:
    """The head texts a store has checked or written lately, by Run: a head read again as the same text skips its check.

    Bounded (:attr:`entries` Runs, heads up to :attr:`largest` characters),
    owned by one store and safe to share among its threads. It holds text
    and numbers only: every read parses its own copy, so nothing a caller
    changes in an answer reaches the next one. For a head this store wrote
    last it also keeps the row's count, size and version (:meth:`latest`), so
    a PostgreSQL write can be guarded by them without reading the row first.
    """

    entries = 256
    largest = 64 * 1024

    def __init__(self) -> None:
        self._texts: OrderedDict[str, tuple[str, KnownHead | None]] = OrderedDict()
        self._lock = threading.Lock()

    def holds(self, ref: str, text: Any) -> bool:
        """Whether ``text`` is the head this memo keeps for ``ref``."""
        with self._lock:
            kept = self._texts.get(ref)
            if kept is None or kept[0] != text:
                return False
            self._texts.move_to_end(ref)
            return True

    def latest(self, ref: str) -> KnownHead | None:
        """The head row of ``ref`` as this store last wrote it, if it remembers it."""
        with self._lock:
            kept = self._texts.get(ref)
            return None if kept is None else kept[1]

    def keep(self, ref: str, text: Any) -> None:
        """Remember ``text`` as a checked head of ``ref``."""
        self._put(ref, text, None)

    def wrote(self, written: KnownHead) -> None:
        """Remember the head row this store has just written (its text is a checked head too)."""
        self._put(written.ref, written.text, written)

    def _put(self, ref: str, text: Any, written: KnownHead | None) -> None:
        """The least recently used Run goes past the bound; a head too large to keep is forgotten."""
        with self._lock:
            if type(text) is not str or len(text) > self.largest:
                self._texts.pop(ref, None)
                return
            self._texts[ref] = (text, written)
            self._texts.move_to_end(ref)
            while len(self._texts) > self.entries:
                self._texts.popitem(last=False)


class SqlOperations(RunStoreLogic):
    """The Run store primitives as statement generators, shared by every SQL store and driver."""

    def _setup(self, clock: Clock | None, new_id: IdFactory | None, lock_timeout: float) -> None:
        super()._setup(clock, new_id, lock_timeout)
        self._heads = HeadMemo()

    #: Appended to the SELECT that reads a Run for a change (``FOR UPDATE`` in PostgreSQL).
    lock_clause = ""
    #: Serializes set-up among processes inside its transaction (PostgreSQL: an advisory lock).
    setup_lock_sql = ""
    #: Lists which of the given tables exist (parameters: the names).
    tables_sql = ""
    #: Lists the columns of one table (parameter: its name); rows of (name,).
    columns_sql = ""

    def _where(self, ref: str) -> str:
        """How messages name the Run ``ref`` in this store."""
        raise NotImplementedError

    def _check_ref(self, ref: Any) -> None:
        super()._check_ref(ref)
        key_text(ref, f"The Run {self.ref_kind}")

    # ------------------------------------------------------------ schema

    def _q_schema_state(self) -> Statements[str]:
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
                    f"The Run store {self._where('')} was written by a newer agent-graph (schema version {version}, "
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
                    f"The table {table} of {self._where('')} is not an agent-graph Run table "
                    f"(it lacks {', '.join(sorted(columns - have))}); use another database or remove the table",
                )
        return "upgrade"

    def _q_schema_setup(self) -> Statements[None]:
        """Create the tables or upgrade them to :data:`SCHEMA_VERSION` (inside the write transaction)."""
        if self.setup_lock_sql:
            yield Query(self.setup_lock_sql)
        state = yield from self._q_schema_state()
        if state == "current":
            return
        for statement in SCHEMA_STATEMENTS:
            yield Query(statement)
        have = {str(row[0]) for row in (yield Query(self.columns_sql, ("agent_graph_runs",))).rows}
        if "stored_bytes" not in have:  # version 1: the size of a Run's JSON is counted at its next write
            yield Query("ALTER TABLE agent_graph_runs ADD COLUMN stored_bytes INTEGER")
        yield Query("DELETE FROM agent_graph_schema")
        yield Query("INSERT INTO agent_graph_schema (version) VALUES (?)", (SCHEMA_VERSION,))

    # ------------------------------------------------------------ rows

    def _head_from(self, ref: str, text: Any, count: Any) -> RunHead:
        where = self._where(ref)
        if (
            not isinstance(text, (str, bytes))
            or isinstance(count, bool)
            or not isinstance(count, int)
            or count < 1
        ):
            raise AgentGraphError("run-invalid", f"{where}: the stored head row is not a Run head")
        raw = parse_stored(text, where)
        if self._heads.holds(ref, text):  # this store wrote or checked exactly this text
            return msgspec.convert({**raw, "events": count}, RunHead)
        if not isinstance(raw, dict) or "events" in raw:
            raise AgentGraphError("run-invalid", f"{where}: the stored head is not a Run without its events")
        if raw.get("id") != ref:
            raise AgentGraphError(
                "run-invalid",
                f"{where}: the stored head names Run {raw.get('id')!r:.80}, not the Run of its row",
            )
        try:
            _schema.validate("run", {**raw, "events": []}, where)
            head = msgspec.convert({**raw, "events": count}, RunHead)
        except msgspec.ValidationError as error:
            raise AgentGraphError("run-invalid", f"{where} is not a valid Run head: {error}") from None
        except AgentGraphError as error:
            raise not_a_run(error, where) from None
        self._heads.keep(ref, text)
        return head

    def _events_from(self, ref: str, rows: Sequence[Any], first: int) -> list[Any]:
        """The events' JSON of rows ``(sequence, event)`` that must be numbered ``first``, ``first + 1`` …"""
        where = self._where(ref)
        events = []
        for expected, row in enumerate(rows, start=first):
            if row[0] != expected:
                raise AgentGraphError(
                    "run-invalid", f"{where}: event row {row[0]} found where event {expected} belongs"
                )
            raw = parse_stored(row[1], f"{where} event {expected}")
            if not isinstance(raw, dict) or raw.get("sequence") != expected:
                raise AgentGraphError(
                    "run-invalid",
                    f"{where}: event row {expected} holds an event that is not numbered {expected}",
                )
            events.append(raw)
        return events

    def _q_head(self, ref: str, lock: bool = False) -> Statements[RunHead]:
        found = yield Query(
            "SELECT head, event_count FROM agent_graph_runs WHERE id = ?"
            + (self.lock_clause if lock else ""),
            (ref,),
        )
        if not found.rows:
            raise AgentGraphError("run-missing", f"The store holds no Run {ref} ({self._where(ref)})")
        row = found.rows[0]
        return self._head_from(ref, row[0], row[1])

    def _q_read(self, ref: str, lock: bool = False) -> Statements[Run]:
        head = yield from self._q_head(ref, lock)
        rows = (
            yield Query(
                "SELECT sequence, event FROM agent_graph_run_events WHERE run_id = ? AND sequence <= ?"
                " ORDER BY sequence",
                (ref, head.events),
            )
        ).rows
        where = self._where(ref)
        if len(rows) != head.events:
            raise AgentGraphError(
                "run-invalid",
                f"{where}: the head counts {head.events} events but the store holds {len(rows)} of them",
            )
        raw = head.to_json()
        raw["events"] = self._events_from(ref, rows, 1)
        try:
            _schema.validate("run", raw, where)
        except AgentGraphError as error:
            raise not_a_run(error, where) from None
        return convert_run(raw, where)

    def _q_page(
        self, ref: str, expected: str | None, after: int, limit: int
    ) -> Statements[tuple[RunEvent, ...]]:
        head = check_provider((yield from self._q_head(ref)), expected)
        if after >= head.events:
            return ()
        rows = (
            yield Query(
                "SELECT sequence, event FROM agent_graph_run_events WHERE run_id = ? AND sequence > ?"
                " AND sequence <= ? ORDER BY sequence LIMIT ?",
                (ref, after, head.events, limit),
            )
        ).rows
        where = self._where(ref)
        if len(rows) != min(limit, head.events - after):
            raise AgentGraphError("run-invalid", f"{where}: events after {after} are missing from the store")
        raw = self._events_from(ref, rows, after + 1)
        try:
            _schema.validate("run", {**head.to_json(), "events": raw}, where)
            return tuple(msgspec.convert(event, RunEvent) for event in raw)
        except (AgentGraphError, msgspec.ValidationError) as error:
            raise AgentGraphError("run-invalid", f"{where} holds an invalid event: {error}") from None

    def _q_apply(self, ref: str, expected: str | None, change: Change) -> Statements[RunHead]:
        found = yield Query(
            "SELECT head, event_count, stored_bytes FROM agent_graph_runs WHERE id = ?" + self.lock_clause,
            (ref,),
        )
        if not found.rows:
            raise AgentGraphError("run-missing", f"The store holds no Run {ref} ({self._where(ref)})")
        old_text, count, stored = found.rows[0]
        head = check_provider(self._head_from(ref, old_text, count), expected)
        known = head.events
        updated, _, head_text, texts = settle(*change(head, self.now()), self._where(ref), head)
        size = yield from self._q_size(ref, stored, old_text, head_text, texts)
        yield Query(
            "UPDATE agent_graph_runs SET updated_at = ?, event_count = ?, head = ?, stored_bytes = ? WHERE id = ?",
            (updated.updated_at, updated.events, head_text, size, ref),
        )
        self._heads.keep(ref, head_text)
        if texts:
            yield Query(
                "INSERT INTO agent_graph_run_events (run_id, sequence, event) VALUES (?, ?, ?)",
                [(ref, known + offset, text) for offset, text in enumerate(texts, start=1)],
                many=True,
            )
        return updated

    def _q_size(
        self, ref: str, stored: Any, old_head: Any, head_text: str, texts: Sequence[str]
    ) -> Statements[int]:
        """The Run's stored size once ``head_text`` replaces ``old_head`` and ``texts`` are appended.

        ``run-too-large`` past half the limit of Runs (its file form is larger). A Run
        of schema version 1 has no size yet: its events are counted once.
        """
        from . import run_store

        if not isinstance(stored, int) or isinstance(stored, bool):
            rows = (yield Query("SELECT event FROM agent_graph_run_events WHERE run_id = ?", (ref,))).rows
            stored = sum(len(str(event[0]).encode("utf-8", "surrogatepass")) for event in rows)
        else:
            stored -= len(str(old_head).encode("utf-8", "surrogatepass"))
        total: int = (
            stored + len(head_text.encode("utf-8")) + sum(len(text.encode("utf-8")) for text in texts)
        )
        limit = run_store.MAX_RUN_BYTES // 2
        if total > limit:
            raise AgentGraphError(
                "run-too-large",
                f"{self._where(ref)} would hold {total} bytes of JSON, over {limit} (half the "
                f"{run_store.MAX_RUN_BYTES}-byte limit of a Run file, which is indented); nothing was written: "
                "start a new Run (or checkpoint and resume) instead of growing this one",
            )
        return total

    def _q_create(self, ref: str, run: Run, label: str) -> Statements[None]:
        where = self._where(run.id)
        for value, name in ((run.id, "Run ID"), (run.provider, "Provider ID"), (run.graph, "Graph ID"),
                            (run.entry, "entry")):  # fmt: skip
            key_text(value, f"The {name}")
        checked_run_bytes(run, where)
        head_text, events = _run_rows(run)
        found = yield Query(
            "INSERT INTO agent_graph_runs (id, provider, graph, entry, created_at, updated_at, event_count, head)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
            (run.id, run.provider, run.graph, run.entry, run.created_at, run.updated_at, len(run.events),
             head_text),
        )  # fmt: skip
        if found.rowcount != 1:
            raise AgentGraphError(
                "run-target-exists", f"{label}: the store already holds Run {run.id} ({where})"
            )
        size = len(head_text.encode("utf-8")) + sum(len(text.encode("utf-8")) for _, text in events)
        yield Query("UPDATE agent_graph_runs SET stored_bytes = ? WHERE id = ?", (size, run.id))
        yield Query(
            "INSERT INTO agent_graph_run_events (run_id, sequence, event) VALUES (?, ?, ?)",
            [(run.id, sequence, text) for sequence, text in events],
            many=True,
        )

    def _q_checkpoint(self, ref: str, target: str, expected: str | None) -> Statements[Run]:
        key_text(target, "The checkpoint name")
        taken = yield Query("SELECT name FROM agent_graph_checkpoints WHERE name = ?", (target,))
        if taken.rows:
            raise AgentGraphError(
                "run-target-exists", f"Checkpoint refuses to replace checkpoint {target} ({self._where(ref)})"
            )
        run = check_provider((yield from self._q_read(ref, lock=True)), expected)
        change = guarded(None, checkpoint_event(target))
        _, head, added = apply_change(run, change, self.now())
        head, added, head_text, texts = settle(head, added, self._where(ref))
        updated = msgspec.structs.replace(run, updated_at=head.updated_at, events=(*run.events, *added))
        snapshot = msgspec.structs.replace(updated, authorities=())
        document = checked_run_bytes(snapshot, f"checkpoint {target}").decode("utf-8")
        row = (yield Query("SELECT stored_bytes, head FROM agent_graph_runs WHERE id = ?", (ref,))).rows[0]
        size = yield from self._q_size(ref, row[0], row[1], head_text, texts)
        yield Query(
            "UPDATE agent_graph_runs SET updated_at = ?, event_count = ?, head = ?, stored_bytes = ? WHERE id = ?",
            (head.updated_at, head.events, head_text, size, ref),
        )
        yield Query(
            "INSERT INTO agent_graph_run_events (run_id, sequence, event) VALUES (?, ?, ?)",
            [(ref, event.sequence, text) for event, text in zip(added, texts, strict=True)],
            many=True,
        )
        inserted = yield Query(
            "INSERT INTO agent_graph_checkpoints (name, run_id, document) VALUES (?, ?, ?)"
            " ON CONFLICT (name) DO NOTHING",
            (target, run.id, document),
        )
        if inserted.rowcount != 1:
            raise AgentGraphError("run-target-exists", f"Checkpoint refuses to replace checkpoint {target}")
        return snapshot

    def _q_read_checkpoint(self, ref: str) -> Statements[tuple[Run, str]]:
        found = yield Query("SELECT document FROM agent_graph_checkpoints WHERE name = ?", (ref,))
        if not found.rows:
            raise AgentGraphError("run-missing", f"The store holds no checkpoint {ref} ({self._where(ref)})")
        return decode_run(found.rows[0][0], f"checkpoint {ref}"), ref

    def _q_summaries(
        self, provider: str | None, graph: str | None, after: str | None, before: str | None
    ) -> Statements[list[RunSummary]]:
        clauses: list[str] = []
        params: list[Any] = []
        for clause, value in (
            ("provider = ?", provider),
            ("graph = ?", graph),
            ("updated_at > ?", after),
            ("updated_at < ?", before),
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

    # ------------------------------------------------------------ references (no I/O)

    def _start_ref(self, ref: str | None) -> tuple[str, str]:
        run_id = ref if ref is not None else self._fresh_id()
        return run_id, run_id

    def _import_ref(self, run: Run) -> str:
        return run.id

    def _resume_ref(self, target: str | None, checkpoint: Run) -> tuple[str, str | None]:
        run_id = target if target is not None else self._fresh_id()
        return run_id, run_id


#: The statement generator behind each primitive, and whether it writes.
PRIMITIVES: dict[str, tuple[str, bool]] = {
    "read": ("_q_read", False),
    "head": ("_q_head", False),
    "page": ("_q_page", False),
    "apply": ("_q_apply", True),
    "create": ("_q_create", True),
    "checkpoint": ("_q_checkpoint", True),
    "read_checkpoint": ("_q_read_checkpoint", False),
    "summaries": ("_q_summaries", False),
}


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


class SqlRunStore(SqlOperations, BaseRunStore):
    """A blocking SQL Run store: each primitive runs its statements in one transaction (``_execute``)."""

    def _execute(self, write: bool, statements: Statements[T]) -> T:
        raise NotImplementedError

    def _read(self, ref: str) -> Run:
        return self._execute(False, self._q_read(ref))

    def _head(self, ref: str) -> RunHead:
        return self._execute(False, self._q_head(ref))

    def _page(self, ref: str, expected: str | None, after: int, limit: int) -> tuple[RunEvent, ...]:
        return self._execute(False, self._q_page(ref, expected, after, limit))

    def _apply(self, ref: str, expected: str | None, change: Change) -> RunHead:
        return self._execute(True, self._q_apply(ref, expected, change))

    def _create(self, ref: str, run: Run, label: str) -> None:
        self._execute(True, self._q_create(ref, run, label))

    def _checkpoint(self, ref: str, target: str, expected: str | None) -> Run:
        return self._execute(True, self._q_checkpoint(ref, target, expected))

    def _read_checkpoint(self, ref: str) -> tuple[Run, str]:
        return self._execute(False, self._q_read_checkpoint(ref))

    def _summaries(
        self, provider: str | None, graph: str | None, after: str | None, before: str | None
    ) -> Iterator[RunSummary]:
        return iter(self._execute(False, self._q_summaries(provider, graph, after, before)))
