"""Listing a fleet: ``list()`` pages and filters among 100,000 Runs on SQLite and PostgreSQL.

``python -m benchmarks.listing`` fills a SQLite database and a PostgreSQL
schema (a throwaway server started for the run, as the tests do; skipped with
the reason when none can be started) with ``--runs`` Runs (default 100,000)
of one Provider: 1 % waiting for a user, the rest actionable, complete or
blocked, written straight into the tables in one transaction, each row as a
store writes it. It then times, as the median of many calls:

* the first page of the Runs waiting for a user (``list(status="waiting-user", limit=50)``),
  and every page of them, cursor after cursor;
* the same, newest first;
* a page deep in the whole listing (the key of a Run near its end as the cursor);
* a page of one Provider's graph;
* for comparison, what a host did before statuses and pages: every Run's
  summary (``list()``), filtered in Python.

It rewrites the "Listing a fleet" section of docs/performance.md between its
markers (``--no-write`` prints only). Nothing here is asserted: the tests
prove the answers, this measures their cost.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .runner import publish_section
from .stores import _postgres

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "docs" / "performance.md"
BEGIN = "<!-- run-listing:begin -->"
END = "<!-- run-listing:end -->"
PROVIDER = "examples/weekly-report"
COLUMNS = "id, provider, graph, entry, created_at, updated_at, event_count, head, stored_bytes, status"


def _status(n: int) -> str:
    """1 % waiting for a user, spread through the listing; the rest actionable, complete or blocked."""
    if n % 100 == 37:
        return "waiting-user"
    return ("actionable", "actionable", "complete", "blocked")[n % 4]


def _rows(count: int) -> Iterator[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """The head row and the event row of each Run, as a store writes them (times a millisecond apart)."""
    from types import SimpleNamespace

    from agent_graph._runtime.runs_sql import stored_head

    base = 1_767_225_600_000  # 2026-01-01T00:00:00.000Z, in milliseconds
    for n in range(count):
        moment = (
            time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime((base + n) // 1000)) + f".{(base + n) % 1000:03d}Z"
        )
        run_id = f"run-{n:06d}"
        head = {
            "schema": "agent-graph.run.v1",
            "id": run_id,
            "provider": PROVIDER,
            "graph": "report",
            "entry": "default",
            "createdAt": moment,
            "updatedAt": moment,
            "facts": {},
            "outcomes": {},
            "authorities": [],
        }
        head_text = json.dumps(head, separators=(",", ":"))
        columns = SimpleNamespace(
            id=run_id,
            provider=PROVIDER,
            graph="report",
            entry="default",
            created_at=moment,
            updated_at=moment,
        )
        kept = stored_head(head_text, columns)  # as a store keeps it: the fields before the Facts are columns
        event = json.dumps({"sequence": 1, "at": moment, "type": "run.started"}, separators=(",", ":"))
        size = len(head_text) + len(event)
        yield (
            (run_id, PROVIDER, "report", "default", moment, moment, 1, kept, size, _status(n)),
            (run_id, 1, event),
        )


def _fill_sqlite(path: str, count: int) -> None:
    import sqlite3

    import agent_graph as ag

    ag.open_store(f"sqlite:///{path}").close()  # the tables, as a store makes them
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("BEGIN")
        rows = list(_rows(count))
        connection.executemany(f"INSERT INTO agent_graph_runs ({COLUMNS}) VALUES ({', '.join('?' * 10)})",
                               [head for head, _ in rows])  # fmt: skip
        connection.executemany(
            "INSERT INTO agent_graph_run_events VALUES (?, ?, ?)", [event for _, event in rows]
        )
        connection.execute("COMMIT")
        connection.execute("ANALYZE")
    finally:
        connection.close()


def _fill_postgres(url: str, count: int) -> None:
    import psycopg

    import agent_graph as ag

    ag.open_store(url).close()
    with psycopg.connect(url) as connection, connection.cursor() as cursor:
        rows = list(_rows(count))
        with cursor.copy(f"COPY agent_graph_runs ({COLUMNS}) FROM STDIN") as copy:
            for head, _ in rows:
                copy.write_row(head)
        with cursor.copy("COPY agent_graph_run_events (run_id, sequence, event) FROM STDIN") as copy:
            for _, event in rows:
                copy.write_row(event)
        connection.commit()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("VACUUM ANALYZE agent_graph_runs")


def _median_ms(fn: Callable[[], Any], count: int) -> float:
    fn()  # warm: the first call pays for connections and the page cache
    samples = []
    for _ in range(count):
        started = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples) * 1000


def measure(url: str, count: int) -> list[tuple[str, float]]:
    """Milliseconds per call of each listing, on the store at ``url`` holding ``count`` Runs."""
    import agent_graph as ag
    from agent_graph._runtime.run_listing import encode_cursor

    waiting = count // 100
    with ag.open_store(url) as store:
        page = store.list(status="waiting-user", limit=50)
        assert len(page) == min(50, waiting) and all(s.status == "waiting-user" for s in page)

        def every_waiting(newest_first: bool) -> int:
            found, cursor = 0, None
            while True:
                page = store.list(status="waiting-user", limit=50, cursor=cursor, newest_first=newest_first)
                found += len(page)
                cursor = page.next_cursor
                if cursor is None:
                    return found

        assert every_waiting(False) == waiting
        deep = store.list(limit=100, newest_first=True)[-1]  # the 100th Run from the end
        deep_cursor = encode_cursor(deep, False)
        pages = max(waiting // 50, 1)
        rows = [
            ("first page of the Runs waiting for a user (50)", _median_ms(lambda: store.list(status="waiting-user", limit=50), 50)),
            (f"every page of them ({waiting} Runs, {pages} pages), per page",
             _median_ms(lambda: every_waiting(False), 5) / pages),
            ("the same, newest first, per page", _median_ms(lambda: every_waiting(True), 5) / pages),
            ("a page at the end of the whole listing (keyset cursor)",
             _median_ms(lambda: store.list(limit=50, cursor=deep_cursor), 50)),
            ("a page of one Provider's graph", _median_ms(lambda: store.list(provider=PROVIDER, graph="report", limit=50), 50)),
            ("before: every Run's summary, filtered in Python",
             _median_ms(lambda: [s for s in store.list() if s.status == "waiting-user"], 3)),
        ]  # fmt: skip
    return rows


def run(count: int) -> str:
    results: list[tuple[str, list[tuple[str, float]]]] = []
    notes: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "fleet.db")
        _fill_sqlite(path, count)
        results.append(("SQLite", measure(f"sqlite:///{path}", count)))
    with _postgres() as server:
        if server is None:
            notes.append("PostgreSQL was skipped: no server could be started here.")
        else:
            _fill_postgres(server, count)
            results.append(("PostgreSQL", measure(server, count)))
    lines = [
        BEGIN,
        "## Listing a fleet",
        "",
        f"`python -m benchmarks.listing` on {platform.system()} {platform.machine()}, Python"
        f" {platform.python_version()}: {count:,} Runs of one Provider, 1 % of them waiting for a user,"
        " milliseconds per call (median). `list()` follows an index that starts with the filtered column and"
        " ends in the key (creation, Run ID), so a page costs what it holds, wherever it is in the listing.",
        "",
        "| store | listing | ms |",
        "| --- | --- | ---: |",
    ]
    for store, rows in results:
        lines += [f"| {store} | {label} | {ms:.2f} |" for label, ms in rows]
    lines += [f"\n{note}" for note in notes]
    lines.append(END)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.listing", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--runs", type=int, default=100_000, help="Runs in each store (default 100,000)")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT), help="the report to update")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    publish_section(run(args.runs), args.output, BEGIN, END, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
