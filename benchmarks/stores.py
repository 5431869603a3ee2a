"""Run store benchmarks: records per second with 1 and 8 writers, ``next_step`` latency, cost per turn at 10 and 10,000 events.

``python -m benchmarks.stores`` measures the file, SQLite and PostgreSQL
stores (PostgreSQL on a throwaway server started for the run, as the tests
do; skipped with the reason when none can be started) and rewrites the "Run
stores" section of docs/performance.md, between its markers, leaving the rest
of the report as it is. ``python -m benchmarks`` keeps that section too.

Writers are separate processes released together by one start signal; the
rate is the records of all writers over the wall time from the signal to the
last writer's end. Each writer records into a Run that starts empty, so the
Runs grow during the measurement.

Cost per turn: ``record`` and ``next_step`` on a Run of 10 events and on one
of 10,000 (imported), the median of many calls, and their ratio (the target:
at most 1.5); and the store time of a whole 5,000-turn Run (``next_step`` and
a guarded ``record`` per turn). When LangGraph's savers are installed
(``pip install langgraph langgraph-checkpoint-sqlite
langgraph-checkpoint-postgres``: a benchmark dependency only) the same
measurements run on ``SqliteSaver``/``PostgresSaver`` (a turn: ``get_tuple``,
then ``put_writes`` and ``put``) and the ratio to ours is printed.

Against LangGraph's savers (``--throughput-only`` measures just this): records
per second of ours (``record``) and theirs (``put_writes`` then ``put``), every
commit flushed to disk, with one SQLite writer and with 8 PostgreSQL writer
processes on a Run each (on a server of its own with ``fsync=on``), measured
in turn for ``--rounds`` rounds; the medians and the median ratio of a round.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .runner import Section

REPO = Path(__file__).resolve().parents[1]
WEEKLY = REPO / "examples" / "weekly-report" / "provider.yaml"
DEFAULT_OUTPUT = REPO / "docs" / "performance.md"
BEGIN = "<!-- run-stores:begin -->"
#: Checkpoints of the long thread of LangGraph's savers (written one by one, as their API allows).
LANGGRAPH_HISTORY = 1000
END = "<!-- run-stores:end -->"
SECTION = Section(BEGIN, END)

_LG_WRITER = r"""
import os, sys, time
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.checkpoint.base.id import uuid6
url, go, prefix, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
import psycopg
connection = psycopg.connect(url, autocommit=True, prepare_threshold=0)
saver = PostgresSaver(connection)
config = {"configurable": {"thread_id": f"t{prefix}", "checkpoint_ns": ""}}
while not os.path.exists(go):
    time.sleep(0.001)
for n in range(count):
    checkpoint = empty_checkpoint()
    checkpoint["id"] = str(uuid6(clock_seq=n))
    checkpoint["channel_values"] = {"facts": {"n": n}}
    checkpoint["channel_versions"] = {"facts": n + 1}
    if "checkpoint_id" in config["configurable"]:
        saver.put_writes(config, [("facts", {"n": n})], task_id=f"task-{n}")
    config = saver.put(config, checkpoint, {"source": "loop", "step": n, "parents": {}}, {"facts": n + 1})
connection.close()
print(time.time())
"""

_WRITER = r"""
import os, sys, time
import agent_graph as ag
url, go, prefix, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
refs = sys.argv[5:]
store = ag.open_store(url)
store.load(refs[0])  # connect before the signal
while not os.path.exists(go):
    time.sleep(0.001)
ref = refs[int(prefix) % len(refs)]
for n in range(count):
    store.record(ref, f"w{prefix}/n{n}", "completed")
store.close()
print(time.time())
"""


@contextmanager
def _postgres(durable: bool = False, settings: dict[str, str] | None = None) -> Iterator[str | None]:
    """A throwaway PostgreSQL server's URL, or None when none can be started (``durable``: fsync on)."""
    sys.path.insert(0, str(REPO))
    try:
        from tests import pg_server
    except ImportError:
        yield None
        return
    try:
        import psycopg  # noqa: F401
    except ImportError:
        yield None
        return
    try:
        server = pg_server.start(durable=durable, settings=settings)
    except RuntimeError as error:
        print(f"PostgreSQL skipped: {error}", file=sys.stderr)
        yield None
        return
    try:
        yield server.url
    finally:
        server.stop()


def _writers(url: str, refs: list[str], writers: int, records: int, folder: Path) -> float:
    """Records per second of ``writers`` processes recording ``records`` each."""
    return _released(_WRITER, [url], refs, writers, records, folder)


def _released(
    script: str, before: list[str], after: list[str], writers: int, records: int, folder: Path
) -> float:
    """Records per second of ``writers`` processes of ``script``, released together once all have started.

    Each is given ``*before, go-file, index, records, *after`` and prints the time it ended.
    """
    go = folder / f"go-{time.monotonic_ns()}"
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", script, *before, str(go), str(index), str(records), *after],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for index in range(writers)
    ]
    time.sleep(1.0 + 0.4 * writers)  # let every writer import and connect
    start = time.time()
    go.write_text("go", "utf-8")
    ends = []
    for process in processes:
        out, err = process.communicate(timeout=600)
        if process.returncode != 0:
            raise RuntimeError(err)
        ends.append(float(out.strip()))
    return writers * records / (max(ends) - start)


def _latency(fn: Callable[[], Any], count: int = 200) -> tuple[float, float, float]:
    for _ in range(10):
        fn()
    samples = []
    for _ in range(count):
        began = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - began)
    return statistics.median(samples), min(samples), max(samples)


def measure_store(name: str, url: str, folder: Path, records: int) -> dict[str, Any]:
    import agent_graph as ag

    provider = ag.load_provider(str(WEEKLY))
    result: dict[str, Any] = {"store": name}
    with ag.open_store(url) as store:

        def new_ref() -> str:
            run = store.start(None, provider, "report")
            return run.id

        single = new_ref()
        shared = new_ref()
        own = [new_ref() for _ in range(8)]
        stepped = new_ref()
        for n in range(10):
            store.record(stepped, f"warm/n{n}", "completed")
        result["next_step"] = _latency(lambda: store.next_step(stepped, provider))
    result["one writer"] = _writers(url, [single], 1, records * 4, folder)
    result["8 writers, one Run"] = _writers(url, [shared], 8, records, folder)
    result["8 writers, a Run each"] = _writers(url, own, 8, records, folder)
    return result


def _long_run_file(provider: Any, folder: Path, events: int) -> Path:
    """A Run file of ``events`` events (the history of a long Run), to import."""
    import msgspec

    import agent_graph as ag
    from agent_graph._core.model import RunEvent
    from agent_graph._runtime.run_codec import encode_run

    path = folder / f"long-{events}-{time.monotonic_ns()}.json"
    scratch = ag.open_store(str(folder / "scratch"))
    run = scratch.start(None, provider, "report")
    history = (*run.events, *(
        RunEvent(sequence=n, at=run.created_at, type="node.outcome-recorded", node=f"old/n{n % 50}",
                 outcome="completed", detail={"n": n})
        for n in range(2, events + 1)
    ))  # fmt: skip
    path.write_bytes(
        encode_run(msgspec.structs.replace(run, events=history, id=f"long-{events}-{path.stem}"))
    )
    return path


def measure_scaling(name: str, url: str, folder: Path, calls: int = 60) -> dict[str, Any]:
    """``record`` and ``next_step`` medians on a Run of 10 and of 10,000 events, the calls interleaved."""
    import agent_graph as ag

    provider = ag.load_provider(str(WEEKLY))
    sizes = (10, 10_000)
    samples: dict[str, list[float]] = {
        f"{what} {size}": [] for what in ("record", "next_step") for size in sizes
    }
    with ag.open_store(url) as store:
        runs = {size: store.import_run(str(_long_run_file(provider, folder, size))).id for size in sizes}
        for call in range(calls + 10):  # the first 10 warm up
            for size in sizes:
                began = time.perf_counter()
                store.record(runs[size], f"new/n{call % 20}", "completed")
                recorded = time.perf_counter() - began
                began = time.perf_counter()
                store.next_step(runs[size], provider)
                stepped = time.perf_counter() - began
                if call >= 10:
                    samples[f"record {size}"].append(recorded)
                    samples[f"next_step {size}"].append(stepped)
    return {"store": name, **{key: statistics.median(values) for key, values in samples.items()}}


def measure_turns(url: str, turns: int) -> float:
    """Seconds of store time of a ``turns``-turn Run: ``next_step`` then a guarded ``record`` per turn."""
    import agent_graph as ag

    provider = ag.load_provider(str(WEEKLY))
    with ag.open_store(url) as store:
        run = store.start(None, provider, "report")
        began = time.perf_counter()
        for turn in range(turns):
            step = store.next_step(run.id, provider)
            store.record(run.id, f"turn/n{turn % 50}", "completed", provider=provider, revision=step.revision)
        return time.perf_counter() - began


def langgraph_available() -> bool:
    try:
        import langgraph.checkpoint.postgres
        import langgraph.checkpoint.sqlite  # noqa: F401
    except ImportError:
        return False
    return True


def _lg_turn(saver: Any, config: dict[str, Any], n: int, read: bool = True) -> dict[str, Any]:
    """A turn of LangGraph's saver: ``get_tuple`` (unless not ``read``), ``put_writes`` and ``put``; the new config."""
    from langgraph.checkpoint.base import empty_checkpoint
    from langgraph.checkpoint.base.id import uuid6

    if read:
        saver.get_tuple(config)
    checkpoint = empty_checkpoint()
    checkpoint["id"] = str(uuid6(clock_seq=n))
    checkpoint["channel_values"] = {"facts": {"n": n}}
    checkpoint["channel_versions"] = {"facts": n + 1}
    if "checkpoint_id" in config["configurable"]:
        saver.put_writes(config, [("facts", {"n": n})], task_id=f"task-{n}")
    new: dict[str, Any] = saver.put(
        config, checkpoint, {"source": "loop", "step": n, "parents": {}}, {"facts": n + 1}
    )
    return new


@contextmanager
def _lg_saver(kind: str, target: str) -> Iterator[Any]:
    """LangGraph's ``SqliteSaver`` (WAL, synchronous=FULL) or ``PostgresSaver`` on ``target``, its tables set up."""
    if kind == "sqlite":
        import sqlite3

        from langgraph.checkpoint.sqlite import SqliteSaver

        connection = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")
            made: Any = SqliteSaver(connection)
            made.setup()
            yield made
        finally:
            connection.close()
    else:
        import psycopg
        from langgraph.checkpoint.postgres import PostgresSaver

        with psycopg.connect(target, autocommit=True, prepare_threshold=0) as connection:
            made = PostgresSaver(connection)
            made.setup()
            yield made


def measure_langgraph(kind: str, target: str, calls: int = 60) -> dict[str, Any]:
    """LangGraph's saver: a turn at 10 and at :data:`LANGGRAPH_HISTORY` checkpoints, and the mean turn of that thread."""
    result: dict[str, Any] = {"store": f"LangGraph {kind}"}
    with _lg_saver(kind, target) as lg:
        for size in (10, LANGGRAPH_HISTORY):
            config: dict[str, Any] = {"configurable": {"thread_id": f"size-{size}", "checkpoint_ns": ""}}
            began = time.perf_counter()
            for n in range(size):
                config = _lg_turn(lg, config, n)
            result["per turn"] = (time.perf_counter() - began) / size
            counter = iter(range(size, 10**9))
            holder = [config]

            def turn(holder: list[Any] = holder, counter: Iterator[int] = counter) -> None:
                holder[0] = _lg_turn(lg, holder[0], next(counter))

            result[f"turn {size}"] = _latency(turn, calls)[0]
    return result


def _lg_writers(url: str, writers: int, records: int, folder: Path) -> float:
    with _lg_saver("postgres", url):
        pass  # the tables, before the writers start
    return _released(_LG_WRITER, [url], [], writers, records, folder)


def _lg_sqlite_rate(path: str, records: int) -> float:
    """LangGraph's ``SqliteSaver``: records per second of ``put_writes`` then ``put`` (WAL, synchronous=FULL)."""
    with _lg_saver("sqlite", path) as saver:
        config: dict[str, Any] = {"configurable": {"thread_id": "one", "checkpoint_ns": ""}}
        began = time.perf_counter()
        for n in range(records):
            config = _lg_turn(saver, config, n, read=False)
        return records / (time.perf_counter() - began)


def _sqlite_rate(path: str, records: int) -> float:
    """Ours: records per second of ``record`` into one Run of a new SQLite store (WAL, synchronous=FULL)."""
    import agent_graph as ag

    provider = ag.load_provider(str(WEEKLY))
    with ag.open_store(f"sqlite:///{path}") as store:
        ref = store.start(None, provider, "report").id
        began = time.perf_counter()
        for n in range(records):
            store.record(ref, f"w/n{n % 20}", "completed")
        return records / (time.perf_counter() - began)


def _paired(ours: Callable[[int], float], theirs: Callable[[int], float], rounds: int) -> dict[str, Any]:
    """Ours and theirs measured in turn, ``rounds`` times: the median rates and the median ratio of a round."""
    mine: list[float] = []
    other: list[float] = []
    for index in range(rounds):
        first, second = (ours, theirs) if index % 2 == 0 else (theirs, ours)
        a, b = first(index), second(index)
        mine.append(a if first is ours else b)
        other.append(b if first is ours else a)
    ratios = [m / o for m, o in zip(mine, other, strict=True)]
    return {
        "ours": statistics.median(mine),
        "theirs": statistics.median(other),
        "ratio": statistics.median(ratios),
        "low": min(ratios),
        "high": max(ratios),
    }


def measure_throughput(rounds: int = 5, records: int = 500, per_writer: int = 50) -> list[str]:
    """Records per second against LangGraph's ``put_writes``+``put``, fsync on: SQLite 1 writer, PostgreSQL 8 writers."""
    lines = [
        "### Records per second against LangGraph's savers",
        "",
        "The targets, with every commit flushed to disk: one writer on SQLite (WAL, `synchronous=FULL`, both)",
        "and 8 writer processes on a Run (a thread) each on PostgreSQL (`fsync=on`, `full_page_writes=on`, a",
        "server of its own over a Unix socket).",
        "Ours is `record()` (reads the head, checks what it adds, guards and appends); theirs is `put_writes` then",
        f"`put`. Measured in turn, {rounds} rounds, ours first in every other round; the medians, and the median",
        "ratio of a round with its range.",
        "",
        "| store | ours, records/s | LangGraph `put_writes`+`put`, /s | ours ÷ theirs | range |",
        "|---|---|---|---|---|",
    ]
    if not langgraph_available():
        return [*lines[:2], "LangGraph's savers are not installed: not compared.", ""]
    with tempfile.TemporaryDirectory(prefix="agent-graph-throughput-") as temporary:
        folder = Path(temporary)
        sqlite = _paired(
            lambda index: _sqlite_rate(str(folder / f"ours-{index}.db"), records),
            lambda index: _lg_sqlite_rate(str(folder / f"theirs-{index}.db"), records),
            rounds,
        )
        lines.append(_throughput_row(f"SQLite, 1 writer, {records} records", sqlite))
        with _postgres(durable=True) as url:
            if url is None:
                lines.append("| PostgreSQL | no server could be started here | | | |")
            else:
                postgres = _paired(
                    lambda index: _writers(url, [_fresh(url) for _ in range(8)], 8, per_writer, folder),
                    lambda index: _lg_writers(url, 8, per_writer, folder),
                    rounds,
                )
                lines.append(_throughput_row(f"PostgreSQL, 8 writers × {per_writer} records", postgres))
    return [*lines, ""]


def _throughput_row(name: str, result: dict[str, Any]) -> str:
    return (
        f"| {name} | {result['ours']:.0f} | {result['theirs']:.0f} | {result['ratio']:.2f} |"
        f" {result['low']:.2f}–{result['high']:.2f} |"
    )


def render_scaling(rows: list[dict[str, Any]], langgraph: list[dict[str, Any]], turns: int) -> str:
    lines = [
        "### Cost per turn",
        "",
        "Median of 60 calls on a Run of 10 and of 10,000 events (the long Run imported, then recorded into),",
        f"and the store time of a whole {turns}-turn Run (`next_step`, then `record` with the step's revision).",
        "",
        "| store | record at 10, ms | record at 10,000, ms | ratio | next_step at 10, ms | next_step at 10,000, ms"
        f" | ratio | {turns} turns, s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        r10, r10k, n10, n10k = (
            row["record 10"],
            row["record 10000"],
            row["next_step 10"],
            row["next_step 10000"],
        )
        lines.append(
            f"| {row['store']} | {_ms(r10)} | {_ms(r10k)} | {r10k / r10:.2f} | {_ms(n10)} | {_ms(n10k)} |"
            f" {n10k / n10:.2f} | {row.get('turns', float('nan')):.1f} |"
        )
    if langgraph:
        lines += [
            "",
            "LangGraph's savers on the same machine (a turn: `get_tuple`, `put_writes`, `put`):",
            "",
            f"| saver | turn at 10, ms | turn at {LANGGRAPH_HISTORY:,}, ms | ratio | mean of {LANGGRAPH_HISTORY:,} turns, ms |"
            " ours ÷ theirs (mean turn) |",
            "|---|---|---|---|---|---|",
        ]
        ours = {row["store"]: row.get("turns") for row in rows}
        for row in langgraph:
            mine = ours.get("SQLite" if "sqlite" in row["store"] else "PostgreSQL")
            ratio = f"{mine / turns / row['per turn']:.2f}" if mine else "—"
            lines.append(
                f"| {row['store']} | {_ms(row['turn 10'])} | {_ms(row[f'turn {LANGGRAPH_HISTORY}'])} |"
                f" {row[f'turn {LANGGRAPH_HISTORY}'] / row['turn 10']:.2f} | {_ms(row['per turn'])} | {ratio} |"
            )
    return "\n".join(lines)


def _ms(seconds: float) -> str:
    value = seconds * 1000
    return f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value:.0f}"


def render(results: list[dict[str, Any]], records: int, notes: list[str]) -> str:
    lines = [
        BEGIN,
        "## Run stores",
        "",
        "Records per second through each Run store (`record()` without a revision; in the database stores each",
        "write reads the Run's head row (SQLite under its write lock; PostgreSQL unlocked, or not at all when",
        "the store wrote the Run last), checks what it adds and appends event rows; the file store reads and",
        "rewrites its file), and the latency of `next_step()` (read the head, evaluate, route) on a",
        "Run of 11 events, the same state each call (the Provider remembers",
        f"the evaluation of a recent revision). The single writer records {records * 4} times into a new Run; the 8 writers",
        f"are 8 processes recording {records} times each, into one shared Run (every write waits for the one before)",
        "or into a Run each. The Runs grow while they are measured. `python -m benchmarks.stores` rewrites this",
        "section.",
        "",
        "| store | 1 writer, records/s | 8 writers, one Run, records/s | 8 writers, a Run each, records/s |"
        " next_step median ms (min–max) |",
        "|---|---|---|---|---|",
    ]
    for result in results:
        median, low, high = result["next_step"]
        lines.append(
            f"| {result['store']} | {result['one writer']:.0f} | {result['8 writers, one Run']:.0f} |"
            f" {result['8 writers, a Run each']:.0f} | {_ms(median)} ({_ms(low)}–{_ms(high)}) |"
        )
    lines.append("")
    lines.extend(notes)
    lines.append(END)
    return "\n".join(lines) + "\n"


def run(records: int, turns: int = 5000, rounds: int = 5) -> str:
    notes = [
        f"Measured on {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores;"
        " PostgreSQL on a local server over a Unix socket, with `fsync=off` (as the test server: this measures",
        "agent-graph and the protocol round trips, not the disk). SQLite commits with `synchronous=FULL` in WAL",
        "mode and files are fsynced, so their rates include the disk's flushes. On a shared machine the rates",
        "vary by half between runs.",
    ]
    results = []
    with tempfile.TemporaryDirectory(prefix="agent-graph-stores-") as temporary:
        folder = Path(temporary)
        results.append(measure_store("files", str(folder / "runs"), folder, records))
        results.append(measure_store("SQLite", f"sqlite:///{folder / 'runs.db'}", folder, records))
        with _postgres() as url:
            if url is not None:
                results.append(measure_store("PostgreSQL", url, folder, records))
            else:
                notes.append("PostgreSQL: no server could be started on this machine; not measured.")
    section = render(results, records, notes)
    throughput = "\n".join(measure_throughput(rounds))
    return section.replace(END, scaling(turns) + "\n\n" + throughput + "\n" + END)


def scaling(turns: int) -> str:
    """The "Cost per turn" part: ours at 10 and 10,000 events, and LangGraph's savers when installed."""
    rows: list[dict[str, Any]] = []
    langgraph: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="agent-graph-scaling-") as temporary:
        folder = Path(temporary)
        sqlite_url = f"sqlite:///{folder / 'scaling.db'}"
        row = measure_scaling("SQLite", sqlite_url, folder)
        row["turns"] = measure_turns(f"sqlite:///{folder / 'turns.db'}", turns)
        rows.append(row)
        if langgraph_available():
            langgraph.append(measure_langgraph("sqlite", str(folder / "langgraph.db")))
        with _postgres() as url:
            if url is not None:
                row = measure_scaling("PostgreSQL", url, folder)
                row["turns"] = measure_turns(url, turns)
                rows.append(row)
                if langgraph_available():
                    langgraph.append(measure_langgraph("postgres", url))
    return render_scaling(rows, langgraph, turns)


def _fresh(url: str) -> str:
    import agent_graph as ag

    with ag.open_store(url) as store:
        return store.start(None, ag.load_provider(str(WEEKLY)), "report").id


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.stores", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--records", type=int, default=25, help="records per writer of the 8 (default 25)")
    parser.add_argument("--turns", type=int, default=5000, help="turns of the long Run (default 5000)")
    parser.add_argument(
        "--scaling-only", action="store_true", help="measure only the cost per turn, print it"
    )
    parser.add_argument(
        "--throughput-only",
        action="store_true",
        help="measure only records per second against LangGraph's savers (fsync on), print it",
    )
    parser.add_argument(
        "--rounds", type=int, default=5, help="rounds of the comparison with LangGraph (default 5)"
    )
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT), help="the report to update")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    if args.scaling_only:
        print(scaling(args.turns))
        return 0
    if args.throughput_only:
        print("\n".join(measure_throughput(args.rounds)))
        return 0
    section = run(args.records, args.turns, args.rounds)
    SECTION.publish(section, args.output, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
