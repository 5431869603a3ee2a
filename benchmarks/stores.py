"""Run store benchmarks: records per second with 1 and 8 writers, and ``next_step`` latency, per store.

``python -m benchmarks.stores`` measures the file, SQLite and PostgreSQL
stores (PostgreSQL on a throwaway server started for the run, as the tests
do; skipped with the reason when none can be started) and rewrites the "Run
stores" section of docs/performance.md, between its markers, leaving the rest
of the report as it is. ``python -m benchmarks`` keeps that section too.

Writers are separate processes released together by one start signal; the
rate is the records of all writers over the wall time from the signal to the
last writer's end. Each writer records into a Run that starts empty, so the
Runs grow during the measurement (every write reads and checks the whole Run).
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

REPO = Path(__file__).resolve().parents[1]
WEEKLY = REPO / "examples" / "weekly-report" / "provider.yaml"
DEFAULT_OUTPUT = REPO / "docs" / "performance.md"
BEGIN = "<!-- run-stores:begin -->"
END = "<!-- run-stores:end -->"

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
def _postgres() -> Iterator[str | None]:
    """A throwaway PostgreSQL server's URL, or None when none can be started."""
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
        server = pg_server.start()
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
    go = folder / f"go-{time.monotonic_ns()}"
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, url, str(go), str(index), str(records), *refs],
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
            return run.id + ".json" if isinstance(store, ag.FileRunStore) else run.id

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


def _ms(seconds: float) -> str:
    value = seconds * 1000
    return f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value:.0f}"


def render(results: list[dict[str, Any]], records: int, notes: list[str]) -> str:
    lines = [
        BEGIN,
        "## Run stores",
        "",
        "Records per second through each Run store (`record()` without a revision; each write reads, checks and",
        "writes under the store's lock or transaction), and the latency of `next_step()` (read the Run, evaluate,",
        "route) on a Run of 11 events, the same state each call (so mostly reading the Run: the Provider remembers",
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


def splice(document: str, section: str) -> str:
    """``document`` with its Run stores section replaced by ``section`` (appended when it has none)."""
    if BEGIN in document and END in document:
        head, _, rest = document.partition(BEGIN)
        _, _, tail = rest.partition(END)
        return head + section.rstrip("\n") + tail
    return document.rstrip("\n") + "\n\n" + section


def kept_section(document: str) -> str | None:
    """The Run stores section of an existing report, if it has one."""
    if BEGIN in document and END in document:
        return BEGIN + document.partition(BEGIN)[2].partition(END)[0] + END + "\n"
    return None


def run(records: int) -> str:
    notes = [
        f"Measured on {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores;"
        " PostgreSQL on a local server over a Unix socket, with `fsync=off` (as the test server: this measures",
        "agent-graph and the protocol round trips, not the disk). SQLite commits with `synchronous=FULL` in WAL",
        "mode and files are fsynced, so their rates include the disk's flushes.",
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
    return render(results, records, notes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.stores", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--records", type=int, default=25, help="records per writer of the 8 (default 25)")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT), help="the report to update")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    section = run(args.records)
    print(section)
    if not args.no_write:
        output = Path(args.output)
        document = output.read_text("utf-8") if output.exists() else ""
        output.write_text(splice(document, section), "utf-8")
        print(f"wrote {output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
