"""The database stores touch nothing that is not theirs, and upgrade what is, from every earlier version.

For every name agent-graph owns in a database (its four tables and the
indexes of every version) and for every column of its tables, a database
holding an object of that name but another shape is refused with
``run-store-schema-invalid`` and left exactly as it was: the same bytes
(SQLite), the same relations and rows (PostgreSQL). A version that is not one
integer row is refused alike. Databases written by the earlier releases
(``tests/data``) are upgraded in place, keeping every Run and checkpoint.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from agent_graph._runtime import runs_sql_schema as schema
from tests.paths import WEEKLY
from tests.raw_sql import Sql

DATA = Path(__file__).resolve().parents[1] / "data"


def code_of(call: Callable[[], Any]) -> str:
    with pytest.raises(ag.AgentGraphError) as caught:
        call()
    return caught.value.code


# ---------------------------------------------------------------- the shapes of our tables, varied


def table_sql(name: str, columns: tuple[tuple[str, str], ...], key: tuple[str, ...]) -> str:
    parts = [f"{column} {kind.upper()}" for column, kind in columns]
    if key:
        parts.append(f"PRIMARY KEY ({', '.join(key)})")
    return f"CREATE TABLE {name} ({', '.join(parts)})"


CURRENT_TABLES = {name: shapes[0] for name, shapes in schema._TABLES[schema.SCHEMA_VERSION].items()}


def current_ddl(
    tables: dict[str, tuple[tuple[str, str], ...]] | None = None, skip_index: str = ""
) -> list[tuple[str, tuple[Any, ...]]]:
    """The current tables (or ``tables`` in their stead) and indexes, and version row, made by hand."""
    chosen = {**CURRENT_TABLES, **(tables or {})}
    statements: list[tuple[str, tuple[Any, ...]]] = [
        (table_sql(name, columns, schema._KEYS[name]), ()) for name, columns in chosen.items()
    ]
    statements += [  # an index on a column the varied table lacks is left out
        (f"CREATE INDEX {name} ON {table} ({', '.join(columns)})", ())
        for name, (table, columns) in schema._CURRENT_INDEXES.items()
        if name != skip_index and set(columns) <= {column for column, _ in chosen[table]}
    ]
    version = chosen["agent_graph_schema"]
    row = ", ".join([str(schema.SCHEMA_VERSION)] * len(version))
    statements.append((f"INSERT INTO agent_graph_schema VALUES ({row})", ()))
    return statements


def column_variants() -> Iterator[Any]:
    """For each of our tables and each of its columns: its type changed, the column gone, renamed; one column more."""
    other = {"text": "integer", "integer": "text"}
    for table, columns in CURRENT_TABLES.items():
        for position, (column, kind) in enumerate(columns):
            changed = (*columns[:position], (column, other[kind]), *columns[position + 1 :])
            without = columns[:position] + columns[position + 1 :]
            renamed = (*columns[:position], (column + "_x", kind), *columns[position + 1 :])
            for label, variant in (("type", changed), ("missing", without), ("renamed", renamed)):
                if (label != "type" and column in schema._KEYS[table]) or not variant:
                    continue  # a key column gone makes the table uncreatable as written; its type stands for it
                yield pytest.param(table, variant, id=f"{table}.{column}-{label}")
        yield pytest.param(table, (*columns, ("extra", "text")), id=f"{table}-extra-column")


# ---------------------------------------------------------------- databases, and what must not change


class Database:
    """A database for one test: its URL, plain SQL on it, and a snapshot of everything in it."""

    def __init__(self, url: str, folder: Path | None) -> None:
        self.url = url
        self.sql = Sql(url)
        self.folder = folder

    def snapshot(self) -> Any:
        if self.folder is not None:
            return sorted((name, (self.folder / name).read_bytes()) for name in os.listdir(self.folder))
        relations = self.sql.run((
            "SELECT c.relname, c.relkind FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace"
            " ORDER BY 1", (),
        ))  # fmt: skip
        rows = [
            (name, self.sql.run((f"SELECT * FROM {name} ORDER BY 1", ())))
            for name, kind in relations
            if kind == "r"
        ]
        return relations, rows


@pytest.fixture(params=("sqlite", "postgres"))
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    if request.param == "sqlite":
        folder = tmp_path / "db"
        folder.mkdir()
        return Database(f"sqlite:///{folder / 'runs.db'}", folder)
    return Database(request.getfixturevalue("postgres_url"), None)


def refused_untouched(database: Database) -> str:
    """Open a store on the database: its refusal's code, with the database left exactly as it was."""
    before = database.snapshot()
    code = code_of(lambda: ag.open_store(database.url))
    assert database.snapshot() == before
    return code


# ---------------------------------------------------------------- foreign objects of our names


@pytest.mark.parametrize("name", [*CURRENT_TABLES])
def test_another_applications_table_of_our_name_is_refused_and_kept(database: Database, name: str) -> None:
    database.sql.run(
        (f"CREATE TABLE {name} (name TEXT, version INTEGER, note TEXT)", ()),
        (f"INSERT INTO {name} VALUES ('theirs', 7, 'keep me')", ()),
        (f"INSERT INTO {name} VALUES ('also theirs', 8, NULL)", ()),
    )
    assert refused_untouched(database) == "run-store-schema-invalid"


@pytest.mark.parametrize(("table", "columns"), list(column_variants()))
def test_our_table_with_a_column_of_another_shape_is_refused_and_kept(
    database: Database, table: str, columns: tuple[tuple[str, str], ...]
) -> None:
    database.sql.run(*current_ddl({table: columns}))
    assert refused_untouched(database) == "run-store-schema-invalid"


@pytest.mark.parametrize("table", [name for name, key in schema._KEYS.items() if key])
def test_our_table_without_its_key_is_refused_and_kept(database: Database, table: str) -> None:
    statements = current_ddl()
    statements[list(CURRENT_TABLES).index(table)] = (table_sql(table, CURRENT_TABLES[table], ()), ())
    database.sql.run(*statements)
    assert refused_untouched(database) == "run-store-schema-invalid"


INDEX_NAMES = [*schema._CURRENT_INDEXES]


@pytest.mark.parametrize("name", INDEX_NAMES)
@pytest.mark.parametrize("how", ["another table's", "other columns", "unique", "partial", "a table"])
def test_an_object_of_our_index_names_that_is_not_our_index_is_refused_and_kept(
    database: Database, name: str, how: str
) -> None:
    table, columns = schema._CURRENT_INDEXES[name]
    if how == "another table's":  # in a database that holds nothing of ours yet
        database.sql.run(
            ("CREATE TABLE other_app (a TEXT, b TEXT)", ()),
            ("INSERT INTO other_app VALUES ('x', 'y')", ()),
            (f"CREATE INDEX {name} ON other_app (a, b)", ()),
        )
    elif how == "a table":
        database.sql.run((f"CREATE TABLE {name} (a TEXT)", ()), (f"INSERT INTO {name} VALUES ('x')", ()))
    else:
        index = {
            "other columns": f"CREATE INDEX {name} ON {table} ({', '.join(reversed(columns))})",
            "unique": f"CREATE UNIQUE INDEX {name} ON {table} ({', '.join(columns)})",
            "partial": f"CREATE INDEX {name} ON {table} ({', '.join(columns)}) WHERE provider = 'x'",
        }[how]
        database.sql.run(*current_ddl(skip_index=name), (index, ()))
    assert refused_untouched(database) == "run-store-schema-invalid"


def test_a_view_of_our_name_is_refused_and_kept(database: Database) -> None:
    database.sql.run(("CREATE VIEW agent_graph_runs AS SELECT 1 AS id", ()))
    assert refused_untouched(database) == "run-store-schema-invalid"


def test_some_of_our_tables_without_the_others_are_refused_and_kept(database: Database) -> None:
    statements = current_ddl()
    database.sql.run(*[item for item in statements if "agent_graph_checkpoints (" not in item[0]])
    assert refused_untouched(database) == "run-store-schema-invalid"


# ---------------------------------------------------------------- versions that are not one integer


SQLITE_VERSIONS = {
    "text": ("'v3'",),
    "real": ("2.5",),
    "blob": ("x'03'",),
    "null": ("NULL",),
    "several rows": ("3", "3"),
    "no row": (),
    "one": ("1",),
    "zero": ("0",),
    "negative": ("-3",),
}
POSTGRES_VERSIONS = {  # a column of another type is refused by its shape; these fit an integer column
    "null": ("NULL",),
    "several rows": ("3", "3"),
    "no row": (),
    "one": ("1",),
    "negative": ("-3",),
}


@pytest.mark.parametrize(
    ("database", "version"),
    [
        *((engine, version) for engine in ("sqlite", "postgres") for version in ("a text column",)),
        *(("sqlite", version) for version in sorted(SQLITE_VERSIONS)),
        *(("postgres", version) for version in sorted(POSTGRES_VERSIONS)),
    ],
    indirect=["database"],
)
def test_a_version_that_is_not_one_integer_is_refused_and_not_rewritten(
    database: Database, version: str
) -> None:
    sqlite = database.folder is not None
    statements = current_ddl()[:-1]
    if version == "a text column":
        statements[3] = ("CREATE TABLE agent_graph_schema (version TEXT NOT NULL)", ())
        values: tuple[str, ...] = ("'3'",) if not sqlite else ("'v3'",)
    else:
        values = (SQLITE_VERSIONS if sqlite else POSTGRES_VERSIONS)[version]
        statements[3] = ("CREATE TABLE agent_graph_schema (version INTEGER)", ())
    statements += [(f"INSERT INTO agent_graph_schema (version) VALUES ({value})", ()) for value in values]
    database.sql.run(*statements)
    assert refused_untouched(database) == "run-store-schema-invalid"


def test_a_newer_version_is_refused_with_its_own_code_and_kept(database: Database) -> None:
    newer = ("INSERT INTO agent_graph_schema (version) VALUES (?)", (schema.SCHEMA_VERSION + 1,))
    database.sql.run(*current_ddl()[:-1], newer)
    assert refused_untouched(database) == "run-store-schema-newer"


def test_a_database_of_ours_opens_and_only_reads_when_current(database: Database) -> None:
    ag.open_store(database.url).close()
    before = database.snapshot()
    with ag.open_store(database.url) as store:
        assert store.list() == []
    if database.folder is None:  # SQLite's WAL files are its own business; PostgreSQL holds exactly the same
        assert database.snapshot() == before


# ---------------------------------------------------------------- earlier releases, upgraded


def _earlier_database(release: int, database: Database) -> None:
    """The database an earlier release wrote (tests/data), at the test's URL: a copy, or its statements and rows."""
    source = DATA / f"store-v{release}.db"
    if database.folder is not None:
        shutil.copyfile(source, database.folder / "runs.db")
        return
    connection = sqlite3.connect(source)
    try:
        ddl = [
            row[0]
            for row in connection.execute(
                "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"
            )
        ]
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid"
            )
        ]
        rows = [(table, connection.execute(f"SELECT * FROM {table}").fetchall()) for table in tables]
    finally:
        connection.close()
    statements: list[tuple[str, tuple[Any, ...]]] = [(sql, ()) for sql in ddl]
    for table, found in rows:
        statements += [
            (f"INSERT INTO {table} VALUES ({', '.join('?' * len(row))})", tuple(row)) for row in found
        ]
    database.sql.run(*statements)


def plain(run: ag.Run) -> Any:
    """The Run as its JSON reads back."""
    import json

    import msgspec

    return json.loads(msgspec.json.encode(run))


def _runs_as_written(database: Database) -> dict[str, dict[str, Any]]:
    """Each Run of the database as its rows hold it (head and events), read by plain SQL."""
    import json

    found: dict[str, dict[str, Any]] = {}
    for run_id, head in database.sql.run(("SELECT id, head FROM agent_graph_runs ORDER BY id", ())):
        raw = json.loads(head)
        events = database.sql.run((
            "SELECT event FROM agent_graph_run_events WHERE run_id = ? ORDER BY sequence", (run_id,),
        ))  # fmt: skip
        raw["events"] = [json.loads(event) for (event,) in events]
        found[run_id] = raw
    return found


@pytest.mark.parametrize("release", [1, 2, 3])
def test_a_database_of_an_earlier_release_is_upgraded_in_place_keeping_every_run(
    database: Database, release: int, tmp_path: Path
) -> None:
    import json

    weekly = ag.load_provider(str(WEEKLY))
    _earlier_database(release, database)
    written = _runs_as_written(database)
    assert sorted(written) == ["old-1", "resumed", "weekly"]
    known = "actionable" if release >= 3 else None  # the status of a write that had the Provider at hand
    with ag.open_store(database.url) as store:
        summaries = store.list()
        assert [(s.id, s.status) for s in summaries] == [
            ("old-1", known),
            ("resumed", None),
            ("weekly", known),
        ]
        for run_id, raw in written.items():
            assert plain(store.load(run_id, weekly)) == raw
            store.export(run_id, str(tmp_path / f"{run_id}.json"))
        step = store.next_step("resumed", weekly)
        assert step.evaluation.status_code == "waiting-user"
        store.record("resumed", "report/approve", "completed", provider=weekly, revision=step.revision)
        again = store.resume("before-approval", "resumed-again", provider=weekly)
        assert again.events[-1].type == "run.resumed"
        statuses = {
            run_id: store.next_step(run_id, weekly).evaluation.status_code
            for run_id in ("resumed", "resumed-again")
        }
    assert database.sql.run(("SELECT version FROM agent_graph_schema", ())) == [(schema.SCHEMA_VERSION,)]
    with ag.open_store(database.url) as store:  # opened again: current, nothing to do, every Run there
        everything = {"weekly": known, "old-1": known, **statuses}
        assert {s.id: s.status for s in store.list()} == everything
        for status in set(statuses.values()):
            assert sorted(s.id for s in store.list(status=status)) == sorted(
                k for k, v in everything.items() if v == status
            )
        assert plain(store.load("weekly")) == written["weekly"]
    for run_id in written:  # each export reads back as the Run the earlier release wrote
        assert json.loads((tmp_path / f"{run_id}.json").read_text("utf-8")) == written[run_id]


def test_an_index_of_an_earlier_release_that_is_not_ours_is_refused_not_dropped(database: Database) -> None:
    _earlier_database(2, database)
    database.sql.run(
        ("DROP INDEX agent_graph_runs_updated", ()),
        ("CREATE INDEX agent_graph_runs_updated ON agent_graph_runs (entry)", ()),
    )
    assert refused_untouched(database) == "run-store-schema-invalid"
