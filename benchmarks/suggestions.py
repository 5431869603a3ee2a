"""Close-name suggestions at scale: lint and ``check_state`` with thousands of near-miss names.

``python -m benchmarks.suggestions`` builds a Provider of ``n`` Actions, each
reading the fact ``data.entry<i>.value``, and a graph test writing
``data.entyr<i>.value`` for each of them: ``n`` unknown fact paths among ``n``
written ones, every one a near miss (AG202). It times ``ag.lint`` (AG2 rules)
and ``check_state`` with ``n`` misspelt state keys, counts the comparisons the
suggestions made (``difflib.SequenceMatcher`` bounds and full ratios), and
sets beside them what comparing every name with every name costs: ``n × n``
comparisons, timed on a sample of lookups and scaled. It rewrites the
"Suggestions" section of docs/performance.md between its markers
(``--no-write`` prints it only); ``python -m benchmarks`` keeps that section.
"""

from __future__ import annotations

import argparse
import difflib
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .runner import Section

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "docs" / "performance.md"
BEGIN = "<!-- suggestions:begin -->"
END = "<!-- suggestions:end -->"
SECTION = Section(BEGIN, END)
SIZES = (500, 1_000, 2_000, 4_000)


class _Counts:
    compared = 0
    scored = 0


@contextmanager
def _counting() -> Iterator[type[_Counts]]:
    """Count the name comparisons (and full ratios) every suggestion makes while the block runs."""
    from agent_graph._core import suggest

    counts = _Counts
    counts.compared = counts.scored = 0
    original = difflib.SequenceMatcher

    class Counting(original):  # type: ignore[misc,valid-type]
        def real_quick_ratio(self) -> float:
            counts.compared += 1
            return float(super().real_quick_ratio())

        def ratio(self) -> float:
            counts.scored += 1
            return float(super().ratio())

    suggest.SequenceMatcher = Counting  # type: ignore[misc]
    difflib.SequenceMatcher = Counting  # type: ignore[misc]
    try:
        yield counts
    finally:
        suggest.SequenceMatcher = original  # type: ignore[misc]
        difflib.SequenceMatcher = original  # type: ignore[misc]


def _provider(size: int) -> tuple[Any, Any]:
    import agent_graph as ag
    from tests.providers import ROOT, action_node, edge, files_for, graph_doc, terminal_node

    nodes = [
        action_node(f"n{i}", "agent", satisfiedBy=[{"path": f"data.entry{i:05d}.value", "exists": True}])
        for i in range(size)
    ]
    nodes.append(terminal_node("done"))
    edges = [edge(f"n{i}", f"n{i + 1}") for i in range(size - 1)] + [edge(f"n{size - 1}", "done")]
    test = {
        "schema": "agent-graph.test.v1",
        "name": "near misses",
        "graph": "main",
        "state": {"facts": {"data": {f"entyr{i:05d}": {"value": 1} for i in range(size)}}},
        "expect": {"statusCode": "actionable"},
    }
    fs = ag.MemoryFileSystem(
        files_for([graph_doc("main", nodes, edges)], extra={"tests/01.json": json.dumps(test)})
    )
    return ag.load_provider(f"{ROOT}/provider.yaml", fs=fs), fs


def _timed(call: Callable[[], Any], rounds: int) -> tuple[float, Any]:
    """The median wall time of ``rounds`` calls, and the last answer."""
    samples = []
    answer = None
    for _ in range(rounds):
        started = time.perf_counter()
        answer = call()
        samples.append(time.perf_counter() - started)
    return statistics.median(samples), answer


def _all_pairs(size: int, sample: int = 20) -> float:
    """Seconds that comparing every unknown path with every written one takes (``sample`` lookups, scaled)."""
    names = sorted(f"data.entyr{i:05d}.value" for i in range(size))
    started = time.perf_counter()
    for i in range(sample):
        difflib.get_close_matches(f"data.entry{i:05d}.value", names, n=1, cutoff=0.8)
    return (time.perf_counter() - started) / sample * size


def measure(size: int, rounds: int) -> dict[str, Any]:
    import agent_graph as ag

    provider, fs = _provider(size)
    with _counting() as counts:
        lint_time, findings = _timed(lambda: ag.lint(provider, select=["AG2"], fs=fs), rounds)
        compared, scored = counts.compared // rounds, counts.scored // rounds
    assert len(findings) == size and all(f.code == "AG202" for f in findings)
    outcomes = {f"main/x{i:05d}": "completed" for i in range(size)}
    state_time, diagnostics = _timed(lambda: ag.check_state(provider, "main", outcomes=outcomes), rounds)
    assert len(diagnostics) == size
    return {
        "size": size,
        "lint": lint_time,
        "compared": compared,
        "scored": scored,
        "state": state_time,
        "pairs": size * size,
        "all_pairs": _all_pairs(size),
    }


def render(rows: list[dict[str, Any]]) -> str:
    lines = [
        BEGIN,
        "## Suggestions",
        "",
        "Lint of a Provider of *n* Actions each reading `data.entry<i>.value`, whose graph test writes",
        "`data.entyr<i>.value`: *n* unknown fact paths among *n* written ones, every one a near miss that",
        "lint names (AG202, `did you mean …`); and `check_state` of *n* misspelt state keys among *n* nodes.",
        "Comparisons are the names the suggestions compared (`difflib`'s quick bounds); full ratios, the",
        "costly part, are at most 8 a lookup. Comparing every name with every name costs *n* × *n*",
        "comparisons; its time is measured on 20 lookups and scaled. Times are medians on a machine shared",
        "with other work; the counts are exact. `python -m benchmarks.suggestions` rewrites this section.",
        "",
        "| n | lint (AG2) | comparisons | full ratios | check_state | every name with every name |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row['size']:,} | {row['lint']:.2f} s | {row['compared']:,} | {row['scored']:,} "
            f"| {row['state'] * 1000:.0f} ms | {row['pairs']:,} comparisons, about {row['all_pairs']:.0f} s |"
        )
    lines.append("")
    lines.append(END)
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.suggestions", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--sizes", default=",".join(str(size) for size in SIZES), help="comma-separated n")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds per size (the median is shown)")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT))
    parser.add_argument("--no-write", action="store_true", help="print the section only")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    rows = [measure(int(size), args.rounds) for size in args.sizes.split(",")]
    section = render(rows)
    SECTION.publish(section, args.output, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
