"""The tables of the SQL Run stores, version by version, and the check that they are ours before anything is done.

Versions (kept in ``agent_graph_schema``, one row, one integer):

1. the first release: ``agent_graph_runs``, ``agent_graph_run_events``,
   ``agent_graph_checkpoints`` and two indexes, no version table;
2. ``agent_graph_runs.stored_bytes`` (the bytes of each Run's JSON, counted
   at a Run's next write where the release before kept none) and the version
   table;
3. ``agent_graph_runs.status`` (the Run's status as of its last evaluated
   write) and the indexes ``list`` paged on: the key ``(updated_at, id)``, by
   Provider and Graph, and by status, each ending in the key;
4. ``list`` pages on the key ``(created_at, id)``, and its indexes end in it
   (``…_by_creation``, ``…_by_graph``, ``…_by_state``): no index holds a
   column every write changes, so a write that keeps the Run's status
   updates its head row in place (PostgreSQL's heap-only update, no index
   entry). A head row keeps its JSON from ``"facts"`` on when the fields
   before are exactly its columns' (:func:`~.runs_sql.stored_head`); a head
   written whole (by version 3, or with a ``workspace``) is read as it is.
   A write's events go in one event row, a JSON array of them under the last
   one's sequence when there are several (:func:`~.runs_sql.row_text`); a
   row of one event, as every earlier version kept each, reads as before. So
   an upgrade rewrites no row.

Opening a store reads the catalog of every name agent-graph owns (tables and
indexes of every version) and the version row, and decides
(:func:`schema_state`): ``current``, ``create`` (none of our names exists),
``upgrade`` (an older version, each table and index exactly as that version
made it), or a refusal. A table or index of our name but another shape (other
columns, other types, another kind of object, an index on other columns, a
unique or partial one), a version that is not one integer row (``'v3'``,
``2.5``, a blob, NULL, several rows, none), or tables without their version
are ``run-store-schema-invalid``; a newer version is
``run-store-schema-newer``. A refusal changes nothing: no row is written,
nothing is created beside what is there. An upgrade drops only indexes it has
just found to be ours.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .._core.errors import AgentGraphError

__all__ = [
    "OWNED_NAMES",
    "SCHEMA_VERSION",
    "Catalog",
    "catalog_of",
    "check_version_table",
    "creation_statements",
    "schema_state",
    "upgrade_statements",
]

#: The version of the tables this release writes.
SCHEMA_VERSION = 4

RUNS = "agent_graph_runs"
EVENTS = "agent_graph_run_events"
CHECKPOINTS = "agent_graph_checkpoints"
VERSION_TABLE = "agent_graph_schema"

#: A table's columns in order: (name, type), and its primary key's columns.
Columns = tuple[tuple[str, str], ...]

_RUNS_V1: Columns = (
    ("id", "text"),
    ("provider", "text"),
    ("graph", "text"),
    ("entry", "text"),
    ("created_at", "text"),
    ("updated_at", "text"),
    ("event_count", "integer"),
    ("head", "text"),
)
_RUNS_V2: Columns = (*_RUNS_V1, ("stored_bytes", "integer"))
_RUNS_V3: Columns = (*_RUNS_V2, ("status", "text"))
_EVENTS: Columns = (("run_id", "text"), ("sequence", "integer"), ("event", "text"))
_CHECKPOINTS: Columns = (("name", "text"), ("run_id", "text"), ("document", "text"))
_VERSION: Columns = (("version", "integer"),)

_KEYS = {RUNS: ("id",), EVENTS: ("run_id", "sequence"), CHECKPOINTS: ("name",), VERSION_TABLE: ()}

#: The tables of each version: name -> the column lists it may have (version 2 was briefly without stored_bytes).
_TABLES: dict[int, dict[str, tuple[Columns, ...]]] = {
    1: {RUNS: (_RUNS_V1,), EVENTS: (_EVENTS,), CHECKPOINTS: (_CHECKPOINTS,)},
    2: {
        RUNS: (_RUNS_V2, _RUNS_V1),
        EVENTS: (_EVENTS,),
        CHECKPOINTS: (_CHECKPOINTS,),
        VERSION_TABLE: (_VERSION,),
    },
    3: {RUNS: (_RUNS_V3,), EVENTS: (_EVENTS,), CHECKPOINTS: (_CHECKPOINTS,), VERSION_TABLE: (_VERSION,)},
}
_TABLES[4] = _TABLES[3]

_OLD_INDEXES = {
    "agent_graph_runs_updated": (RUNS, ("updated_at",)),
    "agent_graph_runs_provider_graph": (RUNS, ("provider", "graph")),
}
_INDEXES_V3 = {
    "agent_graph_runs_by_update": (RUNS, ("updated_at", "id")),
    "agent_graph_runs_by_provider": (RUNS, ("provider", "graph", "updated_at", "id")),
    "agent_graph_runs_by_status": (RUNS, ("status", "updated_at", "id")),
}
_INDEXES_V4 = {
    "agent_graph_runs_by_creation": (RUNS, ("created_at", "id")),
    "agent_graph_runs_by_graph": (RUNS, ("provider", "graph", "created_at", "id")),
    "agent_graph_runs_by_state": (RUNS, ("status", "created_at", "id")),
}
#: The indexes of each version: name -> (table, columns).
_INDEXES: dict[int, dict[str, tuple[str, tuple[str, ...]]]] = {
    1: _OLD_INDEXES,
    2: _OLD_INDEXES,
    3: _INDEXES_V3,
    4: _INDEXES_V4,
}
_CURRENT_INDEXES = _INDEXES[SCHEMA_VERSION]
#: The index names of every version, once each.
_INDEX_NAMES = tuple(dict.fromkeys(name for indexes in _INDEXES.values() for name in indexes))

#: Every name agent-graph owns or owned in a database: its tables and the indexes of every version.
OWNED_NAMES = (RUNS, EVENTS, CHECKPOINTS, VERSION_TABLE, *_INDEX_NAMES)

_CREATE_TABLES = (
    f"""CREATE TABLE {RUNS} (
        id TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        graph TEXT NOT NULL,
        entry TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        event_count INTEGER NOT NULL,
        head TEXT NOT NULL,
        stored_bytes INTEGER,
        status TEXT
    )""",
    f"""CREATE TABLE {EVENTS} (
        run_id TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (run_id, sequence)
    )""",
    f"""CREATE TABLE {CHECKPOINTS} (
        name TEXT PRIMARY KEY,
        run_id TEXT NOT NULL,
        document TEXT NOT NULL
    )""",
    f"CREATE TABLE {VERSION_TABLE} (version INTEGER NOT NULL)",
)


def _create_indexes() -> list[str]:
    return [
        f"CREATE INDEX {name} ON {table} ({', '.join(columns)})"
        for name, (table, columns) in _CURRENT_INDEXES.items()
    ]


def creation_statements() -> list[tuple[str, Sequence[Any]]]:
    """The statements that make the tables of :data:`SCHEMA_VERSION` in a database that holds none of our names."""
    statements: list[tuple[str, Sequence[Any]]] = [(sql, ()) for sql in _CREATE_TABLES]
    statements += [(sql, ()) for sql in _create_indexes()]
    statements.append((f"INSERT INTO {VERSION_TABLE} (version) VALUES (?)", (SCHEMA_VERSION,)))
    return statements


class Relation(NamedTuple):
    """One object of our names in the catalog: its kind, the table it is on, its columns, and its flags.

    ``kind`` is ``table``, ``index`` or another word (a view …). ``columns``
    are (name, type) in order for a table, (name, "") for an index.
    ``key`` lists a table's primary key columns; ``plain`` is whether an
    index is neither unique nor partial nor on expressions.
    """

    kind: str
    table: str
    columns: Columns
    key: tuple[str, ...]
    plain: bool


#: The catalog of our names: name -> relation.
Catalog = dict[str, Relation]


def catalog_of(rows: Iterable[Sequence[Any]]) -> Catalog:
    """The catalog from rows ``(kind, name, table, position, column, type, in_key, plain)``, ordered by position.

    ``in_key`` is whether a table's column is in its primary key; ``plain``
    whether an index is neither unique, partial nor on expressions (the
    statement of each database answers these; :mod:`.runs_sqlite`,
    :mod:`.runs_postgres`).
    """
    found: dict[str, dict[str, Any]] = {}
    for kind, name, table, _, column, kind_of_column, in_key, plain in rows:
        entry = found.setdefault(
            str(name), {"kind": str(kind), "table": str(table), "columns": [], "key": [], "plain": True}
        )
        if column is not None:
            entry["columns"].append((str(column), str(kind_of_column or "").lower()))
            if in_key:
                entry["key"].append(str(column))
        elif entry["kind"] == "index":  # an index column that is an expression has no name
            entry["plain"] = False
        entry["plain"] = entry["plain"] and bool(plain)
    return {
        name: Relation(e["kind"], e["table"], tuple(e["columns"]), tuple(e["key"]), e["plain"])
        for name, e in found.items()
    }


def _foreign(where: str, name: str, what: str) -> AgentGraphError:
    return AgentGraphError(
        "run-store-schema-invalid",
        f"{where} holds {name}, which is not agent-graph's ({what}); nothing was changed: give the Run store a "
        "database (or a PostgreSQL schema, ?options=-csearch_path%3D…) of its own, or rename that object",
    )


def _shown(columns: Columns) -> str:
    return ", ".join(f"{name} {kind}" for name, kind in columns) or "no columns"


def _check_table(where: str, name: str, relation: Relation, shapes: tuple[Columns, ...]) -> None:
    if relation.kind != "table":
        raise _foreign(where, name, f"a {relation.kind}, not a table")
    if relation.columns not in shapes or relation.key != _KEYS[name]:
        raise _foreign(
            where,
            name,
            f"columns {_shown(relation.columns)}, key ({', '.join(relation.key)}); agent-graph's has "
            f"{_shown(shapes[0])}, key ({', '.join(_KEYS[name])})",
        )


def _check_index(where: str, name: str, relation: Relation, table: str, columns: tuple[str, ...]) -> None:
    if relation.kind != "index":
        raise _foreign(where, name, f"a {relation.kind}, not an index")
    have = tuple(column for column, _ in relation.columns)
    if relation.table != table or have != columns or not relation.plain:
        raise _foreign(
            where,
            name,
            f"an index on {relation.table} ({', '.join(have)})"
            + ("" if relation.plain else ", unique, partial or on expressions")
            + f"; agent-graph's is on {table} ({', '.join(columns)})",
        )


def _version_of(where: str, rows: Sequence[Sequence[Any]]) -> int:
    """The one integer row of the version table (``run-store-schema-invalid`` for anything else)."""
    values = [row[0] for row in rows]
    if len(values) != 1 or type(values[0]) is not int or values[0] < 2:
        shown = ", ".join(repr(value)[:40] for value in values[:3]) + (" …" if len(values) > 3 else "")
        raise AgentGraphError(
            "run-store-schema-invalid",
            f"{where}: {VERSION_TABLE} holds {len(values)} row(s) ({shown or 'none'}), not one agent-graph schema "
            "version (an integer); nothing was changed: give the Run store a database of its own",
        )
    return values[0]


def check_version_table(where: str, catalog: Mapping[str, Relation]) -> bool:
    """Whether the catalog holds a version table, refusing one that is not ours (read its rows only then)."""
    relation = catalog.get(VERSION_TABLE)
    if relation is None:
        return False
    _check_table(where, VERSION_TABLE, relation, (_VERSION,))
    return True


def schema_state(
    where: str, catalog: Mapping[str, Relation], version_rows: Sequence[Sequence[Any]] | None
) -> int:
    """The version the database's tables are at (0: none of ours yet), checked; refuses what is not ours.

    ``version_rows`` are the rows of the version table (None: it was not read,
    because the catalog holds no such table). ``run-store-schema-newer`` for
    a version after :data:`SCHEMA_VERSION`.
    """
    if check_version_table(where, catalog):
        version = _version_of(where, version_rows or ())
        if version > SCHEMA_VERSION:
            raise AgentGraphError(
                "run-store-schema-newer",
                f"The Run store {where} was written by a newer agent-graph (schema version {version}, this release "
                f"reads up to {SCHEMA_VERSION}); upgrade agent-graph to open it",
            )
    elif any(name in catalog for name in (RUNS, EVENTS, CHECKPOINTS)):
        version = 1
    else:
        version = 0
    tables = _TABLES.get(version, {})
    for name in (RUNS, EVENTS, CHECKPOINTS, VERSION_TABLE):
        relation = catalog.get(name)
        if name in tables:
            if relation is None:
                raise AgentGraphError(
                    "run-store-schema-invalid",
                    f"{where} holds some of agent-graph's tables (schema version {version}) but not {name}; "
                    "nothing was changed: restore the missing table, or give the Run store a database of its own",
                )
            _check_table(where, name, relation, tables[name])
    indexes = _INDEXES.get(version, {})
    for name in _INDEX_NAMES:
        relation = catalog.get(name)
        if relation is None:
            continue
        if name in indexes:
            table, columns = indexes[name]
            _check_index(where, name, relation, table, columns)
        elif name in _CURRENT_INDEXES:  # a name this release would create
            raise _foreign(where, name, f"a {relation.kind} agent-graph did not make")
    return version


def upgrade_statements(version: int, catalog: Mapping[str, Relation]) -> list[tuple[str, Sequence[Any]]]:
    """The statements that bring tables of ``version`` (checked by :func:`schema_state`) to :data:`SCHEMA_VERSION`."""
    if version == 0:
        return creation_statements()
    statements: list[tuple[str, Sequence[Any]]] = []
    columns = {name for name, _ in catalog[RUNS].columns}
    if "stored_bytes" not in columns:  # the size of a Run's JSON is counted at its next write
        statements.append((f"ALTER TABLE {RUNS} ADD COLUMN stored_bytes INTEGER", ()))
    if version < 3:  # unknown until a write evaluates
        statements.append((f"ALTER TABLE {RUNS} ADD COLUMN status TEXT", ()))
    # the indexes of the version found, each checked to be ours, make way for this version's
    statements += [(f"DROP INDEX {name}", ()) for name in _INDEXES[version] if name in catalog]
    statements += [(sql, ()) for sql in _create_indexes()]
    if version == 1:
        statements.append((_CREATE_TABLES[3], ()))
        statements.append((f"INSERT INTO {VERSION_TABLE} (version) VALUES (?)", (SCHEMA_VERSION,)))
    else:
        statements.append((f"UPDATE {VERSION_TABLE} SET version = ?", (SCHEMA_VERSION,)))
    return statements
