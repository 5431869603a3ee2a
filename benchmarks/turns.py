"""A host turn against its commit: Python CPU, the medium's floor, records per second and the server's counts.

A turn is what a host does each step of a Run: ``next_step`` (read the head,
evaluate, route), then ``record`` with the step's revision and some Facts
(the revision guard on). LangGraph's turn is ``get_tuple``, ``put_writes`` and
``put`` with the same Facts. ``python -m benchmarks.turns`` measures, in one
run, and rewrites the "Host turns" section of docs/performance.md:

* **Python CPU of a turn** with durability off (SQLite ``synchronous=OFF``,
  the memory store, PostgreSQL with ``fsync=off``: the client's CPU time), so
  the disk is out of the figure;
* **the turn against the medium's floor**: the wall time of a turn on a store
  that flushes every commit, beside one durable commit of the same bytes on
  the same medium (SQLite: ``BEGIN IMMEDIATE``, the head row updated, the event
  row inserted, ``COMMIT`` with ``synchronous=FULL``; PostgreSQL: one statement
  updating the head row and inserting the event row, ``fsync=on``);
* **records per second**, 1 and 8 writer processes (a Run or thread each),
  ours and LangGraph's savers in turn, every commit flushed to disk;
* **the PostgreSQL server's own counts per turn** (statements from
  ``pg_stat_statements``, transactions from ``pg_stat_database``, WAL bytes
  from ``pg_current_wal_lsn()``, WAL flushes from ``pg_stat_wal``, growth from
  ``pg_database_size``), for ours and LangGraph's ``PostgresSaver``.

Server counts are taken by difference: each side runs a short and a long Run
in a fresh database of its own, in a process of its own, and the counts of the
long one minus the short one, divided by the turns between them, are the
counts of a turn (opening, set-up and the first turn cancel out). They are
counts, so they hold on a busy machine; the times vary with the machine's
load, so ours and theirs are measured in interleaved rounds and the medians
and the range of the ratios are given.

LangGraph's savers are a benchmark dependency only (``pip install langgraph
langgraph-checkpoint-sqlite langgraph-checkpoint-postgres``, or ``nox -s stores``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .runner import Section
from .stores import WEEKLY, _paired, _postgres, _released, langgraph_available

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "docs" / "performance.md"
BEGIN = "<!-- run-turns:begin -->"
END = "<!-- run-turns:end -->"
SECTION = Section(BEGIN, END)

#: The targets of a turn (issue: a host turn that costs its one durable commit and little else).
CPU_TARGET_US = 150.0
FLOOR_TARGET = 1.3
RATE_TARGET = 1.5
COUNT_TARGET = 0.5
STATEMENTS_TARGET = 3.0

#: The Facts a turn records: the same for ours and LangGraph's.
FACTS = (
    'facts = {"turn": n, "report": {"digest": "sha256:" + hashlib.sha256(b"%d" % n).hexdigest(),'
    ' "pages": [n, n + 1, n + 2]}}'
)


def _writer(setup: str, turn: str, finish: str) -> str:
    """A writer process: ``setup``, then (once the start signal is there) ``turns`` turns of ``turn``, ``finish``.

    Its arguments: the store, the start signal's file (``-``: none), its index, the turns, the Provider.
    """
    indent = "\n    "
    return (
        "import hashlib, os, sys, time\n"
        "target, go, index, turns = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])\n"
        f"{setup.strip()}\n"
        'while go != "-" and not os.path.exists(go):\n    time.sleep(0.001)\n'
        f"for n in range(turns):{indent}{FACTS}{indent}{indent.join(turn.strip().splitlines())}\n"
        f"{finish.strip()}\nprint(time.time())\n"
    )


#: Our writer: host turns into a new Run of its own.
_OURS = _writer(
    """
import agent_graph as ag
provider = ag.load_provider(sys.argv[5])
store = ag.open_store(target)
ref = store.start(None, provider, "report").id
""",
    """
step = store.next_step(ref, provider)
store.record(ref, "report/draft", "completed", provider=provider, revision=step.revision, facts=facts)
""",
    "store.close()",
)

#: LangGraph's writer: turns of ``get_tuple``, ``put_writes``, ``put`` into a thread of its own.
_THEIRS = _writer(
    """
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.checkpoint.base.id import uuid6
if target.startswith("postgresql"):
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver
    connection = psycopg.connect(target, autocommit=True, prepare_threshold=0)
    saver = PostgresSaver(connection)
else:
    import sqlite3
    from langgraph.checkpoint.sqlite import SqliteSaver
    connection = sqlite3.connect(target, check_same_thread=False, isolation_level=None, timeout=60)
    for attempt in range(1200):  # writers set up at once: turning WAL on is refused, not waited for, while busy
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            break
        except sqlite3.OperationalError:
            time.sleep(0.05)
    connection.execute("PRAGMA synchronous=FULL")
    saver = SqliteSaver(connection)
saver.setup()
config = {"configurable": {"thread_id": f"thread-{index}-{os.getpid()}", "checkpoint_ns": ""}}
""",
    """
saver.get_tuple(config)
checkpoint = empty_checkpoint()
checkpoint["id"] = str(uuid6(clock_seq=n))
checkpoint["channel_values"] = {"facts": facts}
checkpoint["channel_versions"] = {"facts": n + 1}
if "checkpoint_id" in config["configurable"]:
    saver.put_writes(config, [("facts", facts)], task_id=f"task-{n}")
config = saver.put(config, checkpoint, {"source": "loop", "step": n, "parents": {}}, {"facts": n + 1})
""",
    "connection.close()",
)


def _spread(values: list[float]) -> tuple[float, float, float]:
    return statistics.median(values), min(values), max(values)


# ---------------------------------------------------------------- Python CPU, durability off


def _turns(store: Any, provider: Any, ref: str, first: int, count: int) -> None:
    for n in range(first, first + count):
        facts = {
            "turn": n,
            "report": {
                "digest": "sha256:" + hashlib.sha256(b"%d" % n).hexdigest(),
                "pages": [n, n + 1, n + 2],
            },
        }
        step = store.next_step(ref, provider)
        store.record(ref, "report/draft", "completed", provider=provider, revision=step.revision, facts=facts)


def measure_cpu(pg_url: str | None, rounds: int, turns: int) -> dict[str, tuple[float, float, float]]:
    """Microseconds of this process's CPU per turn, per store, durability off; rounds interleaved."""
    import agent_graph as ag

    provider = ag.load_provider(str(WEEKLY))
    samples: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="agent-graph-cpu-") as folder:
        stores: dict[str, Any] = {"memory": ag.MemoryRunStore()}
        sqlite = ag.open_store(f"sqlite:///{folder}/runs.db")
        sqlite.storage._connection.execute("PRAGMA synchronous=OFF")  # the disk out of the figure
        stores["SQLite"] = sqlite
        if pg_url is not None:
            stores["PostgreSQL"] = ag.open_store(pg_url)
        try:
            refs = {name: store.start(None, provider, "report").id for name, store in stores.items()}
            for name, store in stores.items():
                _turns(store, provider, refs[name], 0, 50)  # warm
            for index in range(rounds):
                for name, store in stores.items():
                    began = time.process_time()
                    _turns(store, provider, refs[name], (index + 1) * turns, turns)
                    samples.setdefault(name, []).append((time.process_time() - began) / turns * 1e6)
        finally:
            for store in stores.values():
                store.close()
    return {name: _spread(values) for name, values in samples.items()}


# ---------------------------------------------------------------- the medium's floor


def _sqlite_floor(path: str, head: str, events: list[str], count: int) -> float:
    """Seconds of one durable SQLite commit of a head row update and event row inserts of these bytes."""
    import sqlite3

    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("CREATE TABLE IF NOT EXISTS heads (id TEXT PRIMARY KEY, head TEXT)")
        connection.execute(
            "CREATE TABLE IF NOT EXISTS events (run_id TEXT, sequence INTEGER, event TEXT,"
            " PRIMARY KEY (run_id, sequence))"
        )
        connection.execute("INSERT OR REPLACE INTO heads VALUES ('r', ?)", (head,))
        first = connection.execute("SELECT COALESCE(MAX(sequence), 0) FROM events").fetchone()[0] + 1
        rows = ", ".join(["('r', ?, ?)"] * len(events))
        began = time.perf_counter()
        for sequence in range(first, first + count * len(events), len(events)):
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("UPDATE heads SET head = ? WHERE id = 'r'", (head,))
            values = [x for n, event in enumerate(events) for x in (sequence + n, event)]
            connection.execute(f"INSERT INTO events VALUES {rows}", values)
            connection.execute("COMMIT")
        return (time.perf_counter() - began) / count
    finally:
        connection.close()


def _pg_floor(url: str, head: str, events: list[str], count: int) -> float:
    """Seconds of one durable PostgreSQL statement updating a head row and inserting event rows of these bytes."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("CREATE TABLE IF NOT EXISTS floor_heads (id text PRIMARY KEY, head text)")
        connection.execute(
            "CREATE TABLE IF NOT EXISTS floor_events (run_id text, sequence integer, event text,"
            " PRIMARY KEY (run_id, sequence))"
        )
        connection.execute(
            "INSERT INTO floor_heads VALUES ('r', %s) ON CONFLICT (id) DO UPDATE SET head = excluded.head",
            (head,),
        )
        row = connection.execute("SELECT COALESCE(MAX(sequence), 0) FROM floor_events").fetchone()
        first = int(row[0]) + 1 if row else 1
        rows = ", ".join(["(%s::integer, %s::text)"] * len(events))
        began = time.perf_counter()
        for sequence in range(first, first + count * len(events), len(events)):
            values = [x for n, event in enumerate(events) for x in (sequence + n, event)]
            connection.execute(
                "WITH u AS (UPDATE floor_heads SET head = %s WHERE id = 'r' RETURNING id)"
                f" INSERT INTO floor_events SELECT u.id, v.s, v.e FROM u, (VALUES {rows}) AS v (s, e)",
                [head, *values],
            )
        return (time.perf_counter() - began) / count


def _turn_texts(store: Any, ref: str) -> tuple[str, list[str]]:
    """The head row's text and the event row's text of the last turn, as a SQL store keeps them (a floor of the same bytes)."""
    import msgspec

    from agent_graph._runtime.runs_sql import row_text, stored_head

    head = store.head(ref)
    raw = msgspec.to_builtins(head)
    raw.pop("events", None)
    added = [e for e in store.events(ref, after=head.events - 2) if e.at == head.updated_at]
    row = row_text([msgspec.json.encode(e).decode() for e in added])
    return stored_head(msgspec.json.encode(raw).decode(), head), [row]


def measure_floor(
    name: str, url: str, floor: Callable[[str, list[str], int], float], rounds: int, turns: int
) -> dict[str, Any]:
    """A turn's wall time on a durable store against one durable commit of its bytes, interleaved rounds."""
    import agent_graph as ag

    provider = ag.load_provider(str(WEEKLY))
    ours: list[float] = []
    base: list[float] = []
    with ag.open_store(url) as store:
        ref = store.start(None, provider, "report").id
        _turns(store, provider, ref, 0, 20)
        head, events = _turn_texts(store, ref)
        floor(head, events, 20)
        for index in range(rounds):
            began = time.perf_counter()
            _turns(store, provider, ref, (index + 1) * turns, turns)
            ours.append((time.perf_counter() - began) / turns)
            base.append(floor(head, events, turns))
    ratios = [a / b for a, b in zip(ours, base, strict=True)]
    return {
        "store": name,
        "turn": statistics.median(ours),
        "floor": statistics.median(base),
        "ratio": statistics.median(ratios),
        "low": min(ratios),
        "high": max(ratios),
        "bytes": len(head.encode()) + sum(len(event.encode()) for event in events),
    }


# ---------------------------------------------------------------- records per second


def _rate(script: str, target: str, writers: int, turns: int, folder: Path) -> float:
    return _released(script, [target], [str(WEEKLY)], writers, turns, folder)


def measure_rates(pg_url: str | None, rounds: int, turns: int, folder: Path) -> list[dict[str, Any]]:
    """Turns per second, ours and LangGraph's in turn (``rounds`` rounds), 1 and 8 writers, every commit flushed."""
    rows = []
    targets: list[tuple[str, Callable[[str, int], str]]] = [
        ("SQLite", lambda side, index: str(folder / f"rate-{side}-{index}-{time.monotonic_ns()}.db"))
    ]
    if pg_url is not None:
        targets.append(("PostgreSQL", lambda side, index: pg_url))
    for name, target in targets:
        for writers in (1, 8):
            each = max(turns // writers, 10) if writers > 1 else turns

            def ours(index: int, target: Any = target, writers: int = writers, each: int = each) -> float:
                where = target("ours", index)
                url = where if where.startswith("postgresql") else f"sqlite:///{where}"
                return _rate(_OURS, url, writers, each, folder)

            def theirs(index: int, target: Any = target, writers: int = writers, each: int = each) -> float:
                return _rate(_THEIRS, target("theirs", index), writers, each, folder)

            result = _paired(ours, theirs, rounds)
            result.update(store=name, writers=writers, turns=each)
            rows.append(result)
    return rows


# ---------------------------------------------------------------- the server's counts


def _server_counts(admin: Any, database: str) -> dict[str, float]:
    row = admin.execute(
        "SELECT (SELECT COALESCE(SUM(calls), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
        "  WHERE d.datname = %s),"
        " (SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s),"
        " pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0'),"
        " (SELECT wal_sync FROM pg_stat_wal),"
        " pg_database_size(%s)",
        (database, database, database),
    ).fetchone()
    keys = ("statements", "transactions", "WAL bytes", "WAL flushes", "growth")
    return {key: float(value) for key, value in zip(keys, row, strict=True)}


def _quiet(admin: Any, database: str) -> None:
    """Wait until no session is connected to ``database`` (a closing backend reports its statistics first)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        row = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (database,)
        ).fetchone()
        if row[0] == 0:
            break
        time.sleep(0.05)
    time.sleep(0.3)


def measure_counts(url: str, short: int, long: int, repeats: int) -> dict[str, dict[str, float]]:
    """Per turn, from the server's statistics: the long Run's counts minus the short one's, over the turns between."""
    import psycopg

    per: dict[str, dict[str, list[float]]] = {}
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        for repeat in range(repeats):
            for side, script in (("ours", _OURS), ("LangGraph", _THEIRS))[:: 1 if repeat % 2 == 0 else -1]:
                counts = {}
                for turns in (short, long):
                    database = f"turns_{'ours' if side == 'ours' else 'theirs'}_{repeat}_{turns}"
                    admin.execute(f"DROP DATABASE IF EXISTS {database}")
                    admin.execute(f"CREATE DATABASE {database}")
                    target = url.replace("/postgres?", f"/{database}?", 1)
                    before = _server_counts(admin, database)
                    done = subprocess.run(
                        [sys.executable, "-c", script, target, "-", "0", str(turns), str(WEEKLY)],
                        capture_output=True,
                        text=True,
                        timeout=600,
                        check=False,
                    )
                    if done.returncode != 0:
                        raise RuntimeError(done.stderr[-2000:])
                    _quiet(admin, database)
                    after = _server_counts(admin, database)
                    counts[turns] = {key: after[key] - before[key] for key in after}
                    admin.execute(f"DROP DATABASE {database}")
                for key in counts[long]:
                    value = (counts[long][key] - counts[short][key]) / (long - short)
                    per.setdefault(side, {}).setdefault(key, []).append(value)
    return {
        side: {key: statistics.median(values) for key, values in keys.items()} for side, keys in per.items()
    }


# ---------------------------------------------------------------- the report


def _us(value: float) -> str:
    return f"{value:.0f}"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def _met(ok: bool) -> str:
    return "yes" if ok else "**no**"


def _summary(
    cpu: dict[str, tuple[float, float, float]],
    floors: list[dict[str, Any]],
    rates: list[dict[str, Any]],
    counts: dict[str, dict[str, float]] | None,
) -> list[str]:
    """One line per target: met or not, with the figures."""
    lines = []
    figures = ", ".join(f"{name} {median:.0f} µs" for name, (median, _, _) in cpu.items())
    every = all(median <= CPU_TARGET_US for median, _, _ in cpu.values())
    lines.append(f"- Python CPU of a turn at most {CPU_TARGET_US:.0f} µs: {_met(every)} ({figures}).")
    figures = ", ".join(f"{row['store']} {row['ratio']:.2f}×" for row in floors)
    every = all(row["ratio"] <= FLOOR_TARGET for row in floors)
    lines.append(f"- A turn within {FLOOR_TARGET}× the medium's commit floor: {_met(every)} ({figures}).")
    if rates:
        figures = ", ".join(f"{row['store']} {row['writers']} writer(s) {row['ratio']:.2f}×" for row in rates)
        every = all(row["ratio"] >= RATE_TARGET for row in rates)
        lines.append(
            f"- Turns per second at least {RATE_TARGET}× LangGraph's on every row: {_met(every)} ({figures})."
        )
    if counts is not None:
        ours, theirs = counts["ours"], counts["LangGraph"]
        lines.append(
            f"- PostgreSQL, one WAL flush and at most {STATEMENTS_TARGET:.0f} statements per turn:"
            f" {_met(round(ours['WAL flushes']) <= 1 and ours['statements'] <= STATEMENTS_TARGET)}"
            f" ({ours['WAL flushes']:.2f} flushes, {ours['statements']:.2f} statements)."
        )
        for key in ("statements", "WAL bytes", "growth"):
            ratio = ours[key] / theirs[key] if theirs[key] else float("nan")
            lines.append(
                f"- PostgreSQL {key} per turn at most {COUNT_TARGET}× LangGraph's: {_met(ratio <= COUNT_TARGET)}"
                f" ({ratio:.2f}×: {ours[key]:,.0f} against {theirs[key]:,.0f})."
            )
    return lines


def render(
    cpu: dict[str, tuple[float, float, float]],
    floors: list[dict[str, Any]],
    rates: list[dict[str, Any]],
    counts: dict[str, dict[str, float]] | None,
    settings: dict[str, Any],
) -> str:
    lines = [
        BEGIN,
        "## Host turns",
        "",
        "A turn is `next_step` then `record` with the step's revision and a few Facts (the revision guard on), on",
        "a warm Run of the weekly-report example; LangGraph's turn is `get_tuple`, `put_writes` and `put` with the",
        "same Facts. `python -m benchmarks.turns` measures every table below in one run and rewrites this section;",
        "the method is in the module's docstring and below each table.",
        "",
        "Targets, as measured in this run:",
        "",
        *_summary(cpu, floors, rates, counts),
        "",
        "### Python CPU of a turn, durability off",
        "",
        f"CPU time of the benchmark's process per turn (`time.process_time`), {settings['cpu_rounds']} interleaved rounds of",
        f"{settings['cpu_turns']} turns: SQLite with `synchronous=OFF`, the memory store, and PostgreSQL with `fsync=off`",
        f"(the client's CPU only; the server is another process). Target: at most {CPU_TARGET_US:.0f} µs.",
        "",
        "| store | median µs | min | max | met |",
        "|---|---|---|---|---|",
    ]
    for name, (median, low, high) in cpu.items():
        lines.append(
            f"| {name} | {_us(median)} | {_us(low)} | {_us(high)} | {_met(median <= CPU_TARGET_US)} |"
        )
    lines += [
        "",
        "### A turn against the medium's floor",
        "",
        "Wall time of a turn on a store that flushes every commit (SQLite WAL with `synchronous=FULL`; PostgreSQL",
        "with `fsync=on` over a Unix socket) beside one durable commit of the same bytes on the same medium (SQLite:",
        "`BEGIN IMMEDIATE`, the head row updated and the turn's event row inserted, `COMMIT`; PostgreSQL: one statement",
        f"doing both). {settings['floor_rounds']} rounds of {settings['floor_turns']} turns, each followed by as many floor commits;",
        f"medians and the range of the round ratios. Target: at most {FLOOR_TARGET}× the floor.",
        "",
        "| store | turn ms | floor ms (bytes) | turn ÷ floor | range | met |",
        "|---|---|---|---|---|---|",
    ]
    for row in floors:
        lines.append(
            f"| {row['store']} | {_ms(row['turn'])} | {_ms(row['floor'])} ({row['bytes']}) | {row['ratio']:.2f} |"
            f" {row['low']:.2f}–{row['high']:.2f} | {_met(row['ratio'] <= FLOOR_TARGET)} |"
        )
    lines += [
        "",
        "### Turns per second against LangGraph's savers, every commit flushed",
        "",
        "Writer processes released together, each on a Run (a thread) of its own, every commit flushed (SQLite WAL",
        "with `synchronous=FULL`, both; PostgreSQL `fsync=on`); the turns of all writers over the wall time from",
        f"the start signal to the last writer's end. Ours and theirs in turn, {settings['rate_rounds']} rounds, ours first in",
        f"every other round; medians and the range of the round ratios. Target: at least {RATE_TARGET}× LangGraph's.",
        "",
        "| store | writers × turns | ours, turns/s | LangGraph, turns/s | ours ÷ theirs | range | met |",
        "|---|---|---|---|---|---|---|",
    ]
    if not rates:
        lines.append("| — | LangGraph's savers are not installed: not compared | | | | | |")
    for row in rates:
        lines.append(
            f"| {row['store']} | {row['writers']} × {row['turns']} | {row['ours']:.0f} | {row['theirs']:.0f} |"
            f" {row['ratio']:.2f} | {row['low']:.2f}–{row['high']:.2f} | {_met(row['ratio'] >= RATE_TARGET)} |"
        )
    lines += [
        "",
        "### PostgreSQL: the server's own counts per turn",
        "",
        "Counted by the server (`pg_stat_statements` calls, `pg_stat_database` transactions, WAL bytes from",
        "`pg_current_wal_lsn()`, WAL flushes from `pg_stat_wal.wal_sync`, growth from `pg_database_size`), on a",
        "server with `fsync=on` and `autovacuum=off` (so that a vacuum of either side does not land in the other's",
        f"figures): a Run of {settings['long']} turns minus one of {settings['short']}, each in a fresh database and a process of",
        f"its own, divided by the {settings['long'] - settings['short']} turns between; the median of {settings['repeats']} repeats. Targets: one WAL flush,",
        f"at most {STATEMENTS_TARGET:.0f} statements, and WAL bytes, statements and growth each at most {COUNT_TARGET}× LangGraph's.",
        "",
    ]
    if counts is None:
        lines.append("No PostgreSQL server (or LangGraph's saver) here: not counted.")
    else:
        ours, theirs = counts["ours"], counts["LangGraph"]
        lines += [
            "| per turn | ours | LangGraph `PostgresSaver` | ours ÷ theirs | target | met |",
            "|---|---|---|---|---|---|",
        ]
        targets = {
            "statements": (
                f"≤ {STATEMENTS_TARGET:.0f} and ≤ {COUNT_TARGET}×",
                lambda o, r: o <= STATEMENTS_TARGET and r <= COUNT_TARGET,
            ),
            "transactions": ("", None),
            "WAL flushes": ("1", lambda o, r: round(o) <= 1),
            "WAL bytes": (f"≤ {COUNT_TARGET}×", lambda o, r: r <= COUNT_TARGET),
            "growth": (f"≤ {COUNT_TARGET}×", lambda o, r: r <= COUNT_TARGET),
        }
        for key, (target, check) in targets.items():
            mine, other = ours[key], theirs[key]
            ratio = mine / other if other else float("nan")
            unit = " bytes" if key in ("WAL bytes", "growth") else ""
            lines.append(
                f"| {key} | {mine:,.2f}{unit} | {other:,.2f}{unit} | {ratio:.2f} | {target} |"
                f" {_met(check(mine, ratio)) if check else ''} |"
            )
    lines += [
        "",
        f"Measured on {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, psycopg"
        f" {settings['psycopg']}, load average"
        f" {settings['load']}; a shared machine, so times vary between runs (the counts do not).",
        END,
    ]
    return "\n".join(lines) + "\n"


def _psycopg_version() -> str:
    try:
        import psycopg
    except ImportError:
        return "not installed"
    return f"{psycopg.__version__} ({psycopg.pq.__impl__} implementation)"


def run(args: argparse.Namespace) -> str:
    settings: dict[str, Any] = {
        "cpu_rounds": args.rounds,
        "cpu_turns": args.cpu_turns,
        "floor_rounds": args.rounds,
        "floor_turns": args.floor_turns,
        "rate_rounds": args.rate_rounds,
        "short": args.short,
        "long": args.long,
        "repeats": args.repeats,
    }
    with _postgres() as fast_url:
        cpu = measure_cpu(fast_url, args.rounds, args.cpu_turns)
    floors = []
    rates: list[dict[str, Any]] = []
    counts = None
    with tempfile.TemporaryDirectory(prefix="agent-graph-turns-") as temporary:
        folder = Path(temporary)
        floors.append(
            measure_floor(
                "SQLite",
                f"sqlite:///{folder / 'floor.db'}",
                lambda head, events, count: _sqlite_floor(str(folder / "floor-raw.db"), head, events, count),
                args.rounds,
                args.floor_turns,
            )
        )
        with _postgres(
            durable=True, settings={"shared_preload_libraries": "pg_stat_statements", "autovacuum": "off"}
        ) as url:
            if url is not None:
                floors.append(
                    measure_floor(
                        "PostgreSQL",
                        url,
                        lambda head, events, count: _pg_floor(url, head, events, count),
                        args.rounds,
                        args.floor_turns,
                    )
                )
            if langgraph_available():
                if url is not None and not args.no_counts:
                    counts = measure_counts(url, args.short, args.long, args.repeats)
                if not args.no_rates:
                    rates = measure_rates(url, args.rate_rounds, args.rate_turns, folder)
    settings["psycopg"] = _psycopg_version()
    settings["load"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return render(cpu, floors, rates, counts, settings)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.turns", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument(
        "--rounds", type=int, default=7, help="rounds of the CPU and floor figures (default 7)"
    )
    parser.add_argument("--cpu-turns", type=int, default=300, help="turns per CPU round (default 300)")
    parser.add_argument("--floor-turns", type=int, default=100, help="turns per floor round (default 100)")
    parser.add_argument("--rate-rounds", type=int, default=5, help="rounds of the rates (default 5)")
    parser.add_argument(
        "--rate-turns", type=int, default=400, help="turns of all writers per rate (default 400)"
    )
    parser.add_argument("--short", type=int, default=50, help="turns of the short Run of the counts")
    parser.add_argument("--long", type=int, default=250, help="turns of the long Run of the counts")
    parser.add_argument("--repeats", type=int, default=3, help="repeats of the counts (default 3)")
    parser.add_argument("--no-counts", action="store_true", help="skip the server's counts")
    parser.add_argument("--no-rates", action="store_true", help="skip the rates against LangGraph")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT), help="the report to update")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    section = run(args)
    SECTION.publish(section, args.output, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
