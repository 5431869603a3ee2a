"""Verify benchmarks: how long ``verify()`` and ``generate_tests()`` (agent_graph.toolchain) take on the examples and beyond.

``python -m benchmarks.verify`` measures, in process, ``verify()`` on every
example of ``examples/`` (the target: under 2 seconds each on the machine of
the report), ``generate_tests()`` on the same Providers, the realistic
45-node release workflow of :func:`benchmarks.generate.realistic` (bounded at
5,000 states, with facts that change freely and with proof that stays), the
retry trap of a
pull-request Provider (write code, a checks Subgraph, open a PR, a review
Gate, merge, verify; a ``repeat`` back to write-code on failed checks) and a
200-node chain bounded at 1,000 states, and rewrites the "Verify" section of
docs/performance.md between its markers, leaving the rest as it is.
``python -m benchmarks`` keeps that section, or measures it again unless
``--skip verify``.

Each figure is the median of several whole calls (a call explores every
reachable state of every entry, each state evaluated once; nothing is
remembered between calls), with the states and moves explored.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import generate
from .runner import Section

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
DEFAULT_OUTPUT = REPO / "docs" / "performance.md"
BEGIN = "<!-- verify:begin -->"
END = "<!-- verify:end -->"
SECTION = Section(BEGIN, END)
TARGET_SECONDS = 2.0


def _median_seconds(call: Callable[[], Any], rounds: int) -> tuple[float, float, Any]:
    """Median and minimum seconds of ``rounds`` calls, and the last answer."""
    samples = []
    answer = None
    for _ in range(rounds):
        start = time.perf_counter()
        answer = call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), min(samples), answer


def _write(root: Path, files: dict[str, Any]) -> str:
    for relative, value in files.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(value if isinstance(value, str) else json.dumps(value, indent=1), encoding="utf-8")
    return str(root / "provider.yaml")


def _action(identifier: str) -> dict[str, Any]:
    return {"schema": "agent-graph.action.v1", "id": identifier, "runner": "command", "effect": "write",
            "command": f"make {identifier}"}  # fmt: skip


def _node(identifier: str, kind: str = "action", **fields: Any) -> dict[str, Any]:
    if kind == "action":
        return {"id": identifier, "kind": "action", "reasonCode": f"route.{identifier}", "action": "actions/a.yaml",
                **fields}  # fmt: skip
    if kind == "gate":
        return {"id": identifier, "kind": "gate", "reasonCode": f"route.{identifier}",
                "gate": {"id": identifier, "prompt": "Decide?"}, **fields}  # fmt: skip
    return {"id": identifier, "kind": kind, **fields}


def _exists(path: str) -> list[dict[str, Any]]:
    return [{"path": path, "exists": True}]


def pull_request(root: Path) -> str:
    """The retry trap of the issue: a repeat back to write-code when the checks Subgraph fails."""
    pr = {
        "schema": "agent-graph.graph.v1",
        "id": "pr",
        "entrypoints": {"default": "write-code"},
        "nodes": [
            _node("write-code", satisfiedBy=_exists("code.digest")),
            _node("checks", "subgraph", graph="checks", entry="default"),
            _node("open-pr", satisfiedBy=_exists("pr.url")),
            _node("review", "gate", satisfiedBy=[{"path": "review.approved", "equals": True}]),
            _node("merge", satisfiedBy=[{"path": "pr.merged", "equals": True}]),
            _node("verify", satisfiedBy=[{"path": "deploy.healthy", "equals": True}]),
            _node("done", "terminal", terminalOutcome="completed"),
            _node("rejected", "terminal", terminalOutcome="failed"),
        ],
        "edges": [
            {"from": "write-code", "to": "checks"},
            {"from": "checks", "to": "write-code", "kind": "repeat", "outcomes": ["failed"]},
            {"from": "checks", "to": "open-pr"},
            {"from": "open-pr", "to": "review"},
            {"from": "review", "to": "merge", "kind": "gatedBy"},
            {"from": "review", "to": "rejected", "outcomes": ["failed"]},
            {"from": "merge", "to": "verify"},
            {"from": "verify", "to": "done"},
        ],
    }
    checks = {
        "schema": "agent-graph.graph.v1",
        "id": "checks",
        "entrypoints": {"default": "run-checks"},
        "nodes": [
            _node("run-checks", satisfiedBy=[{"path": "checks.passed", "equals": True}]),
            _node("passed", "terminal", terminalOutcome="completed"),
            _node("failed", "terminal", terminalOutcome="failed"),
        ],
        "edges": [
            {"from": "run-checks", "to": "passed"},
            {"from": "run-checks", "to": "failed", "outcomes": ["failed"]},
        ],
    }
    manifest = {"schema": "agent-graph.provider.v1", "id": "bench.pr", "version": "0.1.0",
                "graphs": ["graphs/pr.json", "graphs/checks.json"]}  # fmt: skip
    return _write(root, {"provider.yaml": manifest, "graphs/pr.json": pr, "graphs/checks.json": checks,
                         "actions/a.yaml": _action("a")})  # fmt: skip


def chain(root: Path, length: int) -> str:
    """``length`` nodes: Actions each proven by a fact of its own, then a terminal."""
    nodes = [_node(f"n{i}", satisfiedBy=_exists(f"work.n{i}")) for i in range(length - 1)]
    nodes.append(_node(f"n{length - 1}", "terminal", terminalOutcome="completed"))
    graph = {
        "schema": "agent-graph.graph.v1",
        "id": "big",
        "entrypoints": {"default": "n0"},
        "nodes": nodes,
        "edges": [{"from": f"n{i}", "to": f"n{i + 1}"} for i in range(length - 1)],
    }
    manifest = {"schema": "agent-graph.provider.v1", "id": "bench.chain", "version": "0.1.0",
                "graphs": ["graphs/big.json"]}  # fmt: skip
    return _write(root, {"provider.yaml": manifest, "graphs/big.json": graph,
                         "actions/a.yaml": _action("a")})  # fmt: skip


def _row(label: str, seconds: float, floor: float, report: Any, target: bool) -> str:
    states = sum(e.states for e in report.explorations)
    found = states + sum(e.frontier for e in report.explorations)
    moves = sum(e.transitions for e in report.explorations)
    complete = "yes" if report.complete else "no (bound)"
    codes = ", ".join(sorted({f.code for f in report.findings})) or "none"
    rate = f"{found / seconds:,.0f}" if seconds > 0 else "-"
    met = ("✓" if seconds <= TARGET_SECONDS else "✗") if target else ""
    return (
        f"| {label} | {seconds * 1000:,.1f} ms {met} | {floor * 1000:,.1f} ms | {states:,} | {found:,} | {moves:,} | {rate} | "
        f"{complete} | {codes} |"
    )


def run(rounds: int = 5) -> str:
    """Measure and render the section."""
    import agent_graph as ag
    from agent_graph.toolchain import generate_tests, verify

    rows = []
    generated = []
    names = sorted(p.name for p in EXAMPLES.iterdir() if (p / "provider.yaml").is_file())
    for name in names:
        provider = ag.load_provider(str(EXAMPLES / name / "provider.yaml"))
        seconds, floor, report = _median_seconds(lambda provider=provider: verify(provider), rounds)
        rows.append(_row(f"example `{name}`", seconds, floor, report, True))
        gen, _gen_floor, tests = _median_seconds(lambda provider=provider: generate_tests(provider), rounds)
        generated.append(f"| `{name}` | {gen * 1000:,.1f} ms | {len(tests)} |")
    with tempfile.TemporaryDirectory(prefix="agent-graph-verify-") as folder:
        provider = ag.load_provider(pull_request(Path(folder) / "pr"))
        seconds, floor, report = _median_seconds(lambda: verify(provider), rounds)
        rows.append(_row("retry trap (pull request, 11 nodes)", seconds, floor, report, False))
        seconds, floor, report = _median_seconds(lambda: verify(provider, fact_changes="progress"), rounds)
        rows.append(_row('retry trap, `fact_changes="progress"`', seconds, floor, report, False))
        provider = ag.load_provider(generate.realistic().write(str(Path(folder) / "realistic")))
        for mode in ("free", "progress"):
            seconds, floor, report = _median_seconds(
                lambda mode=mode: verify(provider, max_states=5_000, fact_changes=mode),
                max(2, rounds // 2),
            )
            label = f"realistic release workflow (45 nodes, 3 graphs), `max_states=5000`, `{mode}`"
            rows.append(_row(label, seconds, floor, report, False))
        provider = ag.load_provider(chain(Path(folder) / "chain", 200))
        seconds, floor, report = _median_seconds(
            lambda: verify(provider, max_states=1_000), max(2, rounds // 2)
        )
        rows.append(_row("200-node chain, `max_states=1000`", seconds, floor, report, False))
    lines = [
        BEGIN,
        "## Verify",
        "",
        f"`python -m benchmarks.verify` ({platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, median of {rounds} whole calls). `verify()` explores every state a host can "
        "reach from every entry; the target is under 2 seconds for each example. A state is found by evaluating "
        "what a move produced (a fact path read for the first time splits it), so a state costs a few "
        "evaluations. Explored: states whose moves were all followed; found: those and the ones found but not "
        "followed when the bound stopped it.",
        "",
        "| Provider | verify() median | min | states explored | found | moves | found/s | complete | findings |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |",
        *rows,
        "",
        "`generate_tests()` on the same Providers (the exploration again, then each chosen state evaluated once more):",
        "",
        "| Example | generate_tests() median | tests |",
        "| --- | ---: | ---: |",
        *generated,
        END,
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.verify", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--rounds", type=int, default=5, help="whole calls per figure (default 5)")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT), help="the report to update")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    section = run(args.rounds)
    SECTION.publish(section, args.output, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
