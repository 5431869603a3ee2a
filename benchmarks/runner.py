"""The benchmark runner: time agent-graph at several sizes and rewrite docs/performance.md.

``python -m benchmarks`` (or ``nox -s bench``) measures, on synthetic Providers
from :mod:`benchmarks.generate`:

* in process: loading (from source without a cache, and again with a warm
  cache), ``evaluate()`` and ``route()`` for chains, layered DAGs, wide
  fan-out and Subgraph trees of 100 to 100,000 nodes; the same on a
  realistic 45-node, 136-file Provider mid-workflow, also as a cold host
  sees it (the first ten evaluations after a load); canonical JSON and
  digest of 1 MB of facts;
* as processes: ``import agent_graph`` and the ``agent-graph`` command line
  (wall time and the child's peak resident set size from ``wait4``).

Every figure is a distribution of samples (median, min, max). Fast operations
are timed in batches so that one sample lasts about two milliseconds; the
garbage collector stays on but runs before each sample. The machine may be
busy with other work: the medians are what to read, the minimums show the
floor. Options: ``--quick`` (sizes up to 10,000, fewer samples),
``--sizes 100,1000``, ``--output PATH``, ``--no-write``.
"""

from __future__ import annotations

import argparse
import compileall
import gc
import itertools
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import generate

REPO = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = REPO / "docs" / "performance.md"
SHAPES = ("chain", "layered", "fanout", "nested")
SIZES = (100, 1_000, 10_000, 100_000)


# --------------------------------------------------------------------------- measuring


@dataclass
class Result:
    """One measured quantity: its samples (seconds, or MiB for memory) and how to show it."""

    key: str
    label: str
    samples: list[float]
    unit: str = "ms"  # "us", "ms", "s" for times, "MiB" for memory
    target: float | None = None  # in ``unit``
    size: int | None = None
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def scaled(self, value: float) -> float:
        factor = {"us": 1e6, "ms": 1e3, "s": 1.0, "MiB": 1.0}[self.unit]
        return value * factor

    @property
    def median(self) -> float:
        return self.scaled(statistics.median(self.samples))

    @property
    def minimum(self) -> float:
        return self.scaled(min(self.samples))

    @property
    def maximum(self) -> float:
        return self.scaled(max(self.samples))

    @property
    def met(self) -> bool | None:
        return None if self.target is None else self.median <= self.target


def _fmt(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def measure(
    fn: Callable[[], Any],
    *,
    budget: float,
    least: int = 5,
    most: int = 200,
    sample: float = 0.002,
    warm_up: float = 0.2,
) -> list[float]:
    """Seconds per call of ``fn``: samples until ``budget`` seconds are spent (between ``least`` and ``most``)."""
    gc.collect()
    # Warm up (lazy imports, the Provider's caches): up to 100
    # calls or ``warm_up`` seconds, at least 3 calls. The batch size then comes from a warm call.
    warm_until = time.perf_counter() + warm_up
    for index in range(100):
        start = time.perf_counter()
        fn()
        first = time.perf_counter() - start
        if index >= 2 and start > warm_until:
            break
    batch = max(1, int(sample / first)) if first < sample else 1
    if batch > 1:  # calibrate the batch on a warmed-up call
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        batch = max(1, int(sample / ((time.perf_counter() - start) / batch)))
    samples: list[float] = []
    spent = 0.0
    while len(samples) < least or (spent < budget and len(samples) < most):
        gc.collect()
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        elapsed = time.perf_counter() - start
        samples.append(elapsed / batch)
        spent += elapsed
    return samples


#: Takes the samples of one row of :func:`measure_interleaved`: ``(budget, first round) -> samples``.
Sampler = Callable[[float, bool], list[float]]


def calls(fn: Callable[[], Any], most: int) -> Sampler:
    """A sampler of :func:`measure` (warmed up in the first round only)."""
    return lambda budget, first: measure(fn, budget=budget, least=2, most=most, warm_up=0.2 if first else 0.0)


def first_calls(
    load: Callable[[], Any], call: Callable[[Any], Any], count: int = 10, most: int = 40
) -> Sampler:
    """A sampler of cold starts: per sample, ``load()`` afresh, then the mean seconds of the first ``count`` calls.

    ``call`` gets what ``load`` returned. Neither the load nor the collection
    of its garbage before the calls is timed, but both count against the
    budget (every sample costs a load).
    """

    def sample(budget: float, first: bool) -> list[float]:
        samples: list[float] = []
        spent = 0.0
        while len(samples) < 2 or (spent < budget and len(samples) < most):
            began = time.perf_counter()
            loaded = load()
            gc.collect()
            start = time.perf_counter()
            for _ in range(count):
                call(loaded)
            samples.append((time.perf_counter() - start) / count)
            spent += time.perf_counter() - began
        return samples

    return sample


def measure_interleaved(
    rows: Sequence[tuple[str, Sampler]], *, budget: float, rounds: int = 5
) -> dict[str, list[float]]:
    """Samples of several rows taken in interleaved rounds, ``budget`` seconds for each row in all.

    A burst of load from elsewhere on the machine then falls on one round of
    several rows instead of on the whole of one row.
    """
    samples: dict[str, list[float]] = {key: [] for key, _ in rows}
    for round_index in range(rounds):
        for key, sampler in rows:
            samples[key] += sampler(budget / rounds, round_index == 0)
    return samples


# A child forked from a large process reports at least that process's size as its
# peak RSS (the parent's high-water mark survives exec), so processes are started
# from this small helper, whose own footprint stays below what is measured.
_HELPER = r"""
import json, os, subprocess, sys, time
job = json.loads(sys.argv[1])
env = job["env"]
results = []
for index in range(job["runs"] + 1):
    start = time.perf_counter()
    child = subprocess.Popen(job["command"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    out = child.stdout.read()
    err = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        sys.stderr.write(err.decode(errors="replace")[:2000])
        sys.exit(1)
    peak = usage.ru_maxrss / (1024 * 1024) if sys.platform == "darwin" else usage.ru_maxrss / 1024
    if index:  # the first run warms the page cache (and the load cache, when there is one)
        results.append([wall, peak, out.decode(errors="replace")[-200:]])
print(json.dumps(results))
"""


def run_processes(
    command: Sequence[str], runs: int, env: dict[str, str] | None = None
) -> tuple[list[float], list[float], list[str]]:
    """Wall seconds, peak RSS (MiB) and the end of stdout of ``runs`` runs of ``command`` (after a warm-up run)."""
    job = json.dumps(
        {"command": list(command), "runs": runs, "env": dict(env if env is not None else os.environ)}
    )
    done = subprocess.run([sys.executable, "-c", _HELPER, job], capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"{' '.join(command[:4])}… failed: {done.stderr[:1000]}")
    results = json.loads(done.stdout)
    return [r[0] for r in results], [r[1] for r in results], [r[2] for r in results]


def _loaded(provider: Any) -> Any:
    """A load's full cost: the collection of the young generation its allocations call for is counted here."""
    gc.collect(0)
    return provider


def _fresh_states(facts: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    """Facts with a new ``benchmark_turn`` value per call, so that no answer is remembered between calls."""
    turns = itertools.count()

    def next_facts() -> dict[str, Any]:
        state = dict(facts)
        state["benchmark_turn"] = next(turns)
        return state

    return next_facts


def _unseen_states(facts: dict[str, Any]) -> Callable[[], dict[str, Any]]:
    """Facts whose every top-level object is new and different on each call (a turn number inside each)."""
    turns = itertools.count()

    def next_facts() -> dict[str, Any]:
        turn = next(turns)
        return {
            key: dict(value, benchmark_turn=turn) if isinstance(value, dict) else value
            for key, value in facts.items()
        }

    return next_facts


# --------------------------------------------------------------------------- sections kept between runs


def splice_section(document: str, section: str, begin: str, end: str) -> str:
    """``document`` with its section between ``begin`` and ``end`` replaced by ``section`` (appended if none)."""
    if begin in document and end in document:
        head, _, rest = document.partition(begin)
        _, _, tail = rest.partition(end)
        return head + section.rstrip("\n") + tail
    return document.rstrip("\n") + "\n\n" + section


def publish_section(section: str, output: str, begin: str, end: str, *, write: bool) -> None:
    """Print ``section`` and, when ``write``, put it in place in the report at ``output``."""
    print(section)
    if write:
        path = Path(output)
        document = path.read_text("utf-8") if path.exists() else ""
        path.write_text(splice_section(document, section, begin, end), "utf-8")
        print(f"wrote {path}", file=sys.stderr)


def kept_section(document: str, begin: str, end: str) -> str | None:
    """The section of an existing report between ``begin`` and ``end``, if it has one."""
    if begin in document and end in document:
        return begin + document.partition(begin)[2].partition(end)[0] + end + "\n"
    return None


@dataclass(frozen=True)
class Section:
    """A section of the report between two markers, measured by a module of its own and kept between runs."""

    begin: str
    end: str

    def splice(self, document: str, section: str) -> str:
        """``document`` with this section replaced by ``section`` (appended when it has none)."""
        return splice_section(document, section, self.begin, self.end)

    def kept(self, document: str) -> str | None:
        """This section of an existing report, if it has one."""
        return kept_section(document, self.begin, self.end)

    def publish(self, section: str, output: str, *, write: bool) -> None:
        """Print ``section`` and, when ``write``, put it in place in the report at ``output``."""
        publish_section(section, output, self.begin, self.end, write=write)


# --------------------------------------------------------------------------- the suite


class Suite:
    """Runs every measurement and keeps the results."""

    def __init__(self, sizes: Sequence[int], quick: bool, workdir: Path) -> None:
        self.sizes = list(sizes)
        self.quick = quick
        self.workdir = workdir
        self.results: list[Result] = []
        self.facts: dict[str, Any] = {}

    def budget(self, size: int | None = None) -> float:
        base = 0.4 if self.quick else 1.5
        if size is not None and size >= 100_000:
            return base * 2
        return base

    def add(self, result: Result) -> Result:
        self.results.append(result)
        shown = (
            f"{_fmt(result.median)} {result.unit} (min {_fmt(result.minimum)}, max {_fmt(result.maximum)})"
        )
        print(f"  {result.label:<62} {shown}", file=sys.stderr, flush=True)
        return result

    def write(self, workload: generate.Workload) -> str:
        root = self.workdir / f"{workload.name}-{len(os.listdir(self.workdir))}"
        return workload.write(str(root))

    # -- in process

    def realistic(self) -> None:
        import agent_graph as ag

        print("realistic Provider", file=sys.stderr)
        workload = generate.realistic()
        manifest = self.write(workload)
        cache = str(self.workdir / "cache-realistic")
        provider = ag.load_provider(manifest, cache=False)
        state = {"facts": workload.facts, "outcomes": workload.outcomes, "authorities": workload.authorities}
        self.facts["realistic"] = {
            "nodes": workload.nodes,
            "files": len(provider.files),
            "graphs": len(provider.graphs),
            "facts": generate.count_facts(workload.facts),
        }
        budget = self.budget()
        self.add(
            Result(
                "realistic.load",
                "load from source (no cache), 136 files",
                measure(lambda: _loaded(ag.load_provider(manifest, cache=False)), budget=budget),
                target=150,
            )
        )
        ag.load_provider(manifest, cache=cache)
        self.add(
            Result(
                "realistic.load-cached",
                "load again, unchanged files (warm cache)",
                measure(lambda: _loaded(ag.load_provider(manifest, cache=cache)), budget=budget),
                target=40,
            )
        )
        fresh = _fresh_states(workload.facts)
        unseen = _unseen_states(workload.facts)
        outcomes, authorities = workload.outcomes, workload.authorities
        graph = workload.graph

        def evaluate_new() -> Any:
            return ag.evaluate(provider, graph, facts=fresh(), outcomes=outcomes, authorities=authorities)

        def evaluate_unseen() -> Any:
            return ag.evaluate(provider, graph, facts=unseen(), outcomes=outcomes, authorities=authorities)

        def route_new() -> Any:
            return ag.route(
                provider,
                graph,
                facts=fresh(),
                outcomes=outcomes,
                authorities=authorities,
                workspace="/tmp/workspace",
            )

        def route_unseen() -> Any:
            return ag.route(
                provider,
                graph,
                facts=unseen(),
                outcomes=outcomes,
                authorities=authorities,
                workspace="/tmp/workspace",
            )

        def cold_host() -> tuple[Any, Callable[[], dict[str, Any]]]:
            # The Provider as a host has it right after loading, and the states of its first turns.
            return ag.load_provider(manifest, cache=False), _fresh_states(workload.facts)

        def evaluate_cold(loaded: tuple[Any, Callable[[], dict[str, Any]]]) -> Any:
            cold_provider, states = loaded
            return ag.evaluate(
                cold_provider, graph, facts=states(), outcomes=outcomes, authorities=authorities
            )

        most = 200 // 5  # samples per interleaved round
        rows: list[tuple[str, str, Sampler, float | None]] = [
            (
                "realistic.evaluate",
                "evaluate, mid-workflow, a new state each call",
                calls(evaluate_new, most),
                60,
            ),
            (
                "realistic.evaluate-cold",
                "evaluate, cold host: first ten calls after a load (mean)",
                first_calls(cold_host, evaluate_cold),
                None,
            ),
            (
                "realistic.evaluate-unseen",
                "evaluate, every fact object new and different each call",
                calls(evaluate_unseen, most),
                None,
            ),
            # The same state each call: answered from the evaluations remembered by revision.
            (
                "realistic.evaluate-again",
                "evaluate, the same state again (answer remembered)",
                calls(lambda: ag.evaluate(provider, graph, **state), most),
                60,
            ),
            ("realistic.route", "route, a new state each call (evaluates again)", calls(route_new, most), 80),
            (
                "realistic.route-unseen",
                "route, every fact object new and different each call",
                calls(route_unseen, most),
                None,
            ),
            # route() of the state evaluate() saw: the first call of a round evaluates, the others reuse it.
            (
                "realistic.route-after",
                "route after evaluate of the same state (the usual pair)",
                calls(lambda: ag.route(provider, graph, **state, workspace="/tmp/workspace"), most),
                80,
            ),
        ]
        samples = measure_interleaved([(key, sampler) for key, _, sampler, _ in rows], budget=budget)
        for key, label, _, target in rows:
            self.add(Result(key, label, samples[key], unit="us", target=target))
        big = dict(workload.facts, **generate.large_facts())
        fresh_big = _fresh_states(big)
        self.add(
            Result(
                "realistic.evaluate-1mb",
                "evaluate with 1 MB of facts, a new state each call",
                measure(
                    lambda: ag.evaluate(
                        provider,
                        workload.graph,
                        facts=fresh_big(),
                        outcomes=outcomes,
                        authorities=authorities,
                    ),
                    budget=budget,
                ),
            )
        )

    def canonical(self) -> None:
        import agent_graph as ag

        print("canonical JSON", file=sys.stderr)
        plain = generate.large_facts()
        mixed = generate.large_facts(mixed=True)
        self.facts["canonical"] = {
            "plain": len(ag.canonical_json(plain)),
            "mixed": len(ag.canonical_json(mixed)),
        }
        self.add(
            Result(
                "canonical.digest",
                "canonical JSON + digest, 1 MB facts (as parsed from JSON)",
                measure(lambda: ag.digest_value(plain), budget=self.budget()),
                target=30,
            )
        )
        self.add(
            Result(
                "canonical.digest-mixed",
                "the same with capitalised keys and integral floats",
                measure(lambda: ag.digest_value(mixed), budget=self.budget()),
            )
        )

    def scaling(self) -> None:
        """Growth with size."""
        import agent_graph as ag

        for shape in SHAPES:
            print(f"{shape}", file=sys.stderr)
            for size in self.sizes:
                workload = getattr(generate, shape)(size)
                manifest = self.write(workload)
                cache = str(self.workdir / f"cache-{shape}-{size}")
                budget = self.budget(size)
                least = 3 if size >= 100_000 else 5
                nodes = workload.nodes
                self.add(
                    Result(
                        f"{shape}.load",
                        f"{shape} {size:,}: load from source",
                        measure(
                            lambda m=manifest: _loaded(ag.load_provider(m, cache=False)),
                            budget=budget,
                            least=least,
                        ),
                        unit="ms",
                        size=nodes,
                    )
                )
                ag.load_provider(manifest, cache=cache)
                self.add(
                    Result(
                        f"{shape}.load-cached",
                        f"{shape} {size:,}: load again (warm cache)",
                        measure(
                            lambda m=manifest, c=cache: _loaded(ag.load_provider(m, cache=c)),
                            budget=budget,
                            least=least,
                        ),
                        unit="ms",
                        size=nodes,
                    )
                )
                provider = ag.load_provider(manifest, cache=cache)
                fresh = _fresh_states(workload.facts)
                state = {"outcomes": workload.outcomes, "authorities": workload.authorities}
                evaluation = ag.evaluate(provider, workload.graph, facts=fresh(), **state)
                self.add(
                    Result(
                        f"{shape}.evaluate",
                        f"{shape} {size:,}: evaluate",
                        measure(
                            lambda p=provider, w=workload, f=fresh, s=state: ag.evaluate(
                                p, w.graph, facts=f(), **s
                            ),
                            budget=budget,
                            least=least,
                        ),
                        unit="ms",
                        size=nodes,
                        extra={"status": evaluation.status_code},
                    )
                )
                self.add(
                    Result(
                        f"{shape}.route",
                        f"{shape} {size:,}: route the primary route",
                        measure(
                            lambda p=provider, w=workload, f=fresh, s=state: ag.route(
                                p, w.graph, facts=f(), **s, workspace="/tmp/workspace"
                            ),
                            budget=budget,
                            least=least,
                        ),
                        unit="ms",
                        size=nodes,
                    )
                )
                del provider
                gc.collect()

    # -- as processes

    def processes(self) -> None:
        print("processes", file=sys.stderr)
        runs = 8 if self.quick else 25
        python = sys.executable
        floor_walls, _, _ = run_processes([python, "-c", "pass"], runs)
        self.add(Result("process.python", "python -c pass (interpreter start, for reference)", floor_walls))
        snippet = "import time; t = time.perf_counter(); import agent_graph; print(time.perf_counter() - t)"
        self.add(
            Result("process.import", "import agent_graph", self._timed_snippet(snippet, runs), target=50)
        )
        snippet = (
            "import time; t = time.perf_counter(); import agent_graph as ag; ag.load_provider; ag.evaluate; "
            "ag.route; print(time.perf_counter() - t)"
        )
        self.add(
            Result(
                "process.import-core",
                "import agent_graph and its core (load, evaluate, route)",
                self._timed_snippet(snippet, runs),
            )
        )

        workload = generate.realistic()
        manifest = self.write(workload)
        command = self._cli()
        outcomes = {k: v if isinstance(v, str) else v["outcome"] for k, v in workload.outcomes.items()}
        evaluate = [
            *command,
            "--manifest",
            manifest,
            "--format",
            "json",
            "evaluate",
            workload.graph,
            "--facts",
            json.dumps(workload.facts),
            "--outcomes",
            json.dumps(outcomes),
            "--authority",
            *workload.authorities,
        ]
        route = [
            *command,
            "--manifest",
            manifest,
            "--format",
            "json",
            "route",
            workload.graph,
            "--facts",
            json.dumps(workload.facts),
            "--outcomes",
            json.dumps(outcomes),
            "--authority",
            *workload.authorities,
            "--workspace",
            "/tmp/workspace",
        ]
        warm = dict(os.environ, XDG_CACHE_HOME=str(self.workdir / "xdg"))
        blocked = self.workdir / "no-cache"
        blocked.write_text("a file where the cache directory would go\n")
        cold = dict(os.environ, XDG_CACHE_HOME=str(blocked / "x"))
        walls, peaks, _ = run_processes(evaluate, runs, warm)
        self.add(
            Result(
                "cli.evaluate",
                "agent-graph evaluate, 136-file Provider (warm cache): wall",
                walls,
                target=200,
            )
        )
        self.add(Result("cli.evaluate-rss", "agent-graph evaluate: peak RSS", peaks, unit="MiB", target=40))
        walls, peaks, _ = run_processes(evaluate, runs, cold)
        self.add(Result("cli.evaluate-nocache", "agent-graph evaluate, no cache: wall", walls))
        self.add(
            Result("cli.evaluate-nocache-rss", "agent-graph evaluate, no cache: peak RSS", peaks, unit="MiB")
        )
        walls, _, _ = run_processes(route, runs, warm)
        self.add(Result("cli.route", "agent-graph route (warm cache): wall", walls))
        walls, _, _ = run_processes([*command, "--version"], runs, warm)
        self.add(Result("cli.version", "agent-graph --version (start-up floor)", walls))
        self.facts["cli"] = " ".join(
            Path(part).name if index == 0 else part for index, part in enumerate(command)
        )
        self.facts["python"] = (
            "a virtual environment's python" if sys.prefix != sys.base_prefix else sys.executable
        )

    def _timed_snippet(self, snippet: str, runs: int) -> list[float]:
        _, _, outputs = run_processes([sys.executable, "-c", snippet], runs)
        return [float(out.strip()) for out in outputs]

    @staticmethod
    def _cli() -> list[str]:
        script = Path(sysconfig.get_path("scripts")) / "agent-graph"
        if script.is_file():
            return [str(script)]
        return [sys.executable, "-m", "agent_graph"]


# --------------------------------------------------------------------------- report


def _machine() -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for name in ("msgspec", "ruamel.yaml", "fastjsonschema"):
        try:
            from importlib.metadata import version

            versions[name] = version(name)
        except Exception:
            versions[name] = "?"
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        commit = ""
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "versions": ", ".join(f"{k} {v}" for k, v in versions.items()),
        "commit": commit or "unknown",
    }


def _row(result: Result, label: str | None = None) -> str:
    target = "" if result.target is None else f"≤ {_fmt(result.target)} {result.unit}"
    met = {None: "", True: "yes", False: "**no**"}[result.met]
    return (
        f"| {label or result.label} | {target} | {_fmt(result.median)} {result.unit} | {_fmt(result.minimum)} | "
        f"{_fmt(result.maximum)} | {met} |"
    )


def render(suite: Suite, started: dict[str, Any], finished: dict[str, Any]) -> str:
    by_key: dict[tuple[str, int | None], Result] = {(r.key, r.size): r for r in suite.results}
    machine = started["machine"]
    lines = [
        "# Performance",
        "",
        "Generated by `python -m benchmarks` (`nox -s bench`); do not edit by hand. The method, the",
        "machine and every figure are below; rerun the suite to refresh them.",
        "",
        "## Targets",
        "",
        "| work | target | median | min | max | met |",
        "|---|---|---|---|---|---|",
    ]
    targets = [
        ("realistic.evaluate", None, "`evaluate()`, 45-node Provider, ~40 facts, a new state each call"),
        (
            "realistic.evaluate-cold",
            None,
            "`evaluate()`, the same on a cold host: the first ten calls after a load",
        ),
        ("realistic.evaluate-again", None, "`evaluate()`, the same, state seen before"),
        ("chain.evaluate", 1_000, "`evaluate()`, 1,000-node chain, half satisfied"),
        ("chain.evaluate", 100_000, "`evaluate()`, 100,000-node chain, half satisfied"),
        ("realistic.route", None, "`route()`, 45-node Provider, a new state (evaluates again)"),
        ("realistic.route-after", None, "`route()` after `evaluate()` of the same state"),
        ("canonical.digest", None, "canonical JSON + digest of 1 MB of facts"),
        ("cli.evaluate", None, "`agent-graph evaluate`, 136-file Provider, whole process"),
        ("cli.evaluate-rss", None, "`agent-graph evaluate`, peak RSS"),
        ("process.import", None, "`import agent_graph`"),
        ("realistic.load", None, "load the 136-file Provider from source"),
        ("realistic.load-cached", None, "load it again, unchanged files (cache)"),
    ]
    limits = {("chain.evaluate", 1_000): 2.0, ("chain.evaluate", 100_000): 300.0}
    for key, size, label in targets:
        found = by_key.get((key, _node_count(suite, key, size)))
        if found is None:
            continue
        if (key, size) in limits:
            found = Result(found.key, found.label, found.samples, found.unit, limits[(key, size)], found.size)
        lines.append(_row(found, label))
    missed = [key for key, size, _ in targets if key in _EXPLANATIONS and _missed(suite, key, size)]
    if missed:
        lines += ["", "Where a target is missed:", ""]
        lines += [f"- {_EXPLANATIONS[key]}" for key in dict.fromkeys(missed)]
    lines += [
        "",
        "## Method",
        "",
        "- Synthetic Providers come from `benchmarks/generate.py`: a chain (`n0 → … → terminal`, the first half",
        "  satisfied by facts), a layered DAG (width 10, each node joining two parents, `join: any` and `all`",
        "  alternating, the first half of the layers satisfied), a wide fan-out (one step, then `n - 2`",
        "  alternatives, Actions and delegatable Gates with priorities, into one `join: any` terminal; every",
        "  alternative is a candidate) and a tree of ten-node graphs calling each other as Subgraphs (all",
        "  satisfied but the last graph, so evaluation walks every frame). Large graphs are JSON files. The",
        "  realistic Provider is a release",
        f"  workflow of {suite.facts.get('realistic', {}).get('nodes', 45)} nodes in "
        f"{suite.facts.get('realistic', {}).get('graphs', 3)} block-style YAML graphs with "
        f"{suite.facts.get('realistic', {}).get('files', 136)} files in its file set (Actions of all four runners,",
        "  Skills of several files, front-matter and descriptor resources, a graph-action and a host-action",
        f"  resource, a Code Catalog), evaluated mid-workflow with {suite.facts.get('realistic', {}).get('facts', 40)} facts,"
        " a recorded `partial` outcome and a session authority.",
        "- In-process figures are seconds per call of the public API (`load_provider`, `evaluate`, `route`,",
        "  `digest_value`), sampled until a time budget is spent; calls shorter than 2 ms are timed in batches",
        "  and divided, after a warm-up of up to 100 calls. The evaluate and route rows of the realistic",
        "  Provider are sampled in five interleaved rounds, so that a burst of load from elsewhere on this",
        "  shared machine falls on a round of several rows rather than on one whole row. The garbage",
        "  collector stays on and runs before each sample. The cold-host row has no warm-up: each of its",
        "  samples loads the Provider afresh (neither the load nor the collection of its garbage that follows",
        "  is timed) and is the mean of the first ten evaluations, each with a new state and the other facts",
        "  as they were, as a host sees its first turns; process-wide tables of canonical JSON (the collation",
        "  order of object keys) are filled by then, as in any host after its first evaluation.",
        "  `load from source` passes `cache=False`; `warm cache` loads with a cache directory that an earlier",
        "  load filled (every file is still read and hashed). The library does not pause the garbage",
        "  collector while loading; a collection of the young generation after each load (the pass over",
        "  what the load allocated) is timed with the load.",
        "  Evaluations and routes get a new state on every call (a top-level `benchmark_turn` fact), so",
        "  that no remembered answer is reused, except where a row says the state was seen before; the",
        "  other facts stay as they were, as between two turns of an agent, so their canonical texts are",
        "  remembered (see below). Rows marked `every fact object new and different` put the turn number",
        "  inside every top-level fact object, so that nothing of the state has been seen before.",
        "- What `evaluate()` keeps between calls is the Provider's `EvaluationCache` (`provider.cache`),",
        "  bounded and checked on use: the last 64 evaluations of the Provider (by graph and revision), and",
        "  per top-level fact object its canonical text with a plain copy to compare against (from its",
        "  second sighting; at most 256 KiB of text). Every frame settles on the worklist of",
        "  `agent_graph/_core/evaluate.py` on every call; no code is generated at run time.",
        "- Process figures are wall time and the child's peak resident set size (`os.wait4`), after one",
        f"  warm-up run. The command line is `{suite.facts.get('cli', 'agent-graph')}`; its load cache lives in a",
        "  fresh `XDG_CACHE_HOME`, and `no cache` points `XDG_CACHE_HOME` below a regular file so that nothing",
        "  can be cached. Bytecode is compiled before the processes run, as an installed wheel has it.",
        f"  The interpreter is `{suite.facts.get('python', 'python')}` (`nox -s bench` gives a fresh virtual",
        "  environment); `python -c pass` shows its start-up, site-packages hooks included.",
        "- 1 MB of facts: about 4,000 records (strings, integers, floats, booleans, null, a list and a nested",
        "  object each) under one object, as JSON text parses them; the `mixed` variant adds capitalised keys",
        "  and integral floats, which canonical JSON cannot take on its msgspec fast path.",
        "",
        "## Machine",
        "",
        f"- CPU: {machine['cpu']}, {machine['cores']} cores; {machine['os']}; Python {machine['python']}",
        f"- {machine['versions']}; agent-graph at commit {machine['commit']}",
        f"- Load average at start {started['load']}, at the end {finished['load']}; the suite took"
        f" {finished['elapsed']:.0f} s. This is a shared virtual machine: load from its neighbours makes",
        "  medians vary by up to a third between runs, and the `min` column shows the undisturbed cost.",
        "",
        "## Realistic Provider and processes",
        "",
        "| work | target | median | min | max | met |",
        "|---|---|---|---|---|---|",
    ]
    for result in suite.results:
        if result.key.split(".")[0] in ("realistic", "canonical", "process", "cli"):
            lines.append(_row(result))
    lines += ["", "## Scaling", ""]
    lines += _scaling(suite)
    return "\n".join(lines) + "\n"


_EXPLANATIONS = {
    "realistic.evaluate": (
        "`evaluate()` with a state it has not seen: the realistic state reaches 23 nodes in three"
        " frames (the release graph and two Subgraphs). About a fifth of the time is the revision (canonical"
        " JSON and sha256 of the state), most of the rest settling the reached nodes on the worklist (a"
        " fixed cost per frame, then a little per node) and assembling the Evaluation; the row `every fact"
        " object new and different` shows the cost when no fact text is remembered either."
    ),
    "realistic.route": (
        "`route()` with a state it has not seen evaluates first (see above); resolving the route itself"
        " takes about ten microseconds, and `route()` after `evaluate()` of the same state reuses the evaluation."
    ),
}


def _missed(suite: Suite, key: str, size: int | None) -> bool:
    for result in suite.results:
        if result.key == key and (size is None or result.size == _node_count(suite, key, size)):
            return result.met is False
    return False


def _node_count(suite: Suite, key: str, size: int | None) -> int | None:
    if size is None:
        return None
    for result in suite.results:
        if result.key == key and result.size is not None and abs(result.size - size) <= 2:
            return result.size
    return size


def _scaling(suite: Suite) -> list[str]:
    lines = [
        "Medians in milliseconds (min–max in brackets) and the median per node in microseconds. `growth` is",
        "the median at the largest size divided by the median at the smallest: linear work grows with the",
        "node count (×1,000 from 100 to 100,000 nodes), and the per-node figure stays flat or falls.",
        "",
    ]
    for shape in SHAPES:
        rows = [r for r in suite.results if r.key.startswith(shape + ".")]
        if not rows:
            continue
        sizes = sorted({r.size for r in rows if r.size is not None})
        lines += [
            f"### {shape}",
            "",
            "| nodes | load (source) | load (cache) | evaluate | route | evaluate µs/node |",
            "|---|---|---|---|---|---|",
        ]
        for size in sizes:
            cells = []
            for metric in ("load", "load-cached", "evaluate", "route"):
                found = next((r for r in rows if r.key == f"{shape}.{metric}" and r.size == size), None)
                cells.append(
                    ""
                    if found is None
                    else f"{_fmt(found.median)} ({_fmt(found.minimum)}–{_fmt(found.maximum)})"
                )
            evaluation = next((r for r in rows if r.key == f"{shape}.evaluate" and r.size == size), None)
            per_node = "" if evaluation is None else _fmt(evaluation.median * 1000 / size)
            lines.append(f"| {size:,} | " + " | ".join(cells) + f" | {per_node} |")
        if len(sizes) > 1:
            growth = []
            for metric in ("load", "load-cached", "evaluate", "route"):
                first = next((r for r in rows if r.key == f"{shape}.{metric}" and r.size == sizes[0]), None)
                last = next((r for r in rows if r.key == f"{shape}.{metric}" and r.size == sizes[-1]), None)
                growth.append("" if first is None or last is None else f"×{last.median / first.median:,.0f}")
            lines.append(f"| growth ×{sizes[-1] / sizes[0]:,.0f} nodes | " + " | ".join(growth) + " | |")
        lines.append("")
    return lines


def _load_average() -> str:
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "n/a"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the suite, print a table and (unless ``--no-write``) rewrite docs/performance.md."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes up to 10,000 and fewer samples")
    parser.add_argument("--sizes", help="comma-separated node counts (default 100,1000,10000,100000)")
    parser.add_argument("--output", default=str(DEFAULT_OUTPUT), help="where to write the report")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument(
        "--skip",
        default="",
        help="comma-separated groups to skip: realistic,canonical,scaling,processes,stores,verify,builder",
    )
    args = parser.parse_args(argv)
    sizes = (
        [int(s) for s in args.sizes.split(",")]
        if args.sizes
        else [s for s in SIZES if not args.quick or s <= 10_000]
    )
    skip = {s for s in args.skip.split(",") if s}

    import agent_graph

    compileall.compile_dir(str(Path(agent_graph.__file__).parent), quiet=1)
    started = {"machine": _machine(), "load": _load_average(), "time": time.perf_counter()}
    workdir = Path(tempfile.mkdtemp(prefix="agent-graph-bench-"))
    try:
        suite = Suite(sizes, args.quick, workdir)
        for group in ("realistic", "canonical", "scaling", "processes"):
            if group not in skip:
                getattr(suite, group)()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    finished = {"load": _load_average(), "elapsed": time.perf_counter() - started["time"]}
    report = render(suite, started, finished)
    from . import builder, stores, suggestions, turns, verify

    previous = Path(args.output).read_text("utf-8") if Path(args.output).exists() else ""
    # The Run stores, verify and Providers built in Python: measured, or the last measurement kept.
    measured: list[tuple[str, Section, Callable[[], str]]] = [
        ("stores", stores.SECTION, lambda: stores.run(25)),
        ("verify", verify.SECTION, verify.run),
        ("builder", builder.SECTION, builder.run),
    ]
    for group, part, run in measured:
        if group not in skip:
            report = part.splice(report, run())
        elif (kept := part.kept(previous)) is not None:
            report = part.splice(report, kept)
    if (held := turns.SECTION.kept(previous)) is not None:  # its own run: python -m benchmarks.turns
        report = turns.SECTION.splice(report, held)
    kept = suggestions.SECTION.kept(previous)  # its own run: python -m benchmarks.suggestions
    report = suggestions.SECTION.splice(
        report, kept if kept is not None else suggestions.render([suggestions.measure(2_000, 1)])
    )
    print(report)
    if not args.no_write:
        output = Path(args.output)
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(report, encoding="utf-8")
        print(f"wrote {output}", file=sys.stderr)
    return 0
