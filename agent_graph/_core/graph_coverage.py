"""Coverage of graph tests: which nodes, edges, outcomes and Gate resolutions the tests exercised.

A :class:`CoverageCollector` evaluates with the evaluator's trace
(:class:`~agent_graph._core.evaluate.FrameTrace`) and keeps, per Graph, what
each evaluation reached. Every frame counts, Subgraph frames for their own
Graph. The items measured, per Graph:

* nodes: every node; covered when an evaluation reached it;
* edges: every edge; covered when its source settled (or was re-armed from)
  an outcome the edge accepts;
* outcomes: each outcome an outgoing edge of a node accepts; covered when
  the node settled with it (a node that is re-armed counts the outcome it had);
* Gate resolutions: ``user`` for every Gate, ``delegated`` for a Gate that
  is delegatable and names an authority, ``refused`` for every Gate; covered
  when the Gate was offered to the user, resolved by the session's authority,
  or settled with a recorded outcome other than ``completed``, ``pending``
  and ``waiting-user``.

:meth:`CoverageCollector.report` gives a :class:`CoverageReport` (per Graph
and in total, with what is missing). Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from .errors import AgentGraphError
from .evaluate import WHY_RECORDED, FrameTrace, evaluate_with_candidates
from .ir import CompiledGraph
from .model import Edge, Evaluation
from .provider import Provider

__all__ = [
    "CoverageCollector",
    "CoverageCount",
    "CoverageReport",
    "Exercised",
    "GraphCoverage",
    "coverage_table",
    "edge_label",
    "falls_short",
    "frame_coverage",
]

#: Gate resolutions, in report order.
RESOLUTIONS = ("user", "delegated", "refused")
_NOT_REFUSED = frozenset({"completed", "pending", "waiting-user"})


class _Struct(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    def to_json(self) -> Any:
        """The wire form as plain JSON data."""
        return msgspec.to_builtins(self)


class CoverageCount(_Struct, frozen=True, kw_only=True):
    """``covered`` of ``total`` items; ``percent`` is 100 when there is nothing to cover."""

    covered: int
    total: int
    percent: float


class CoverageMissing(_Struct, frozen=True, kw_only=True):
    """What no test exercised, in Graph order: node IDs, edge labels, ``node: outcome`` and ``gate: resolution``."""

    nodes: list[str]
    edges: list[str]
    outcomes: list[str]
    gate_resolutions: list[str]


class GraphCoverage(_Struct, frozen=True, kw_only=True):
    """Coverage of one Graph."""

    graph: str
    nodes: CoverageCount
    edges: CoverageCount
    outcomes: CoverageCount
    gate_resolutions: CoverageCount
    total: CoverageCount
    missing: CoverageMissing


class CoverageTotals(_Struct, frozen=True, kw_only=True):
    """Every Graph together."""

    nodes: CoverageCount
    edges: CoverageCount
    outcomes: CoverageCount
    gate_resolutions: CoverageCount
    total: CoverageCount


class CoverageReport(_Struct, frozen=True, kw_only=True):
    """``agent-graph.coverage.v1``: per Graph (manifest order) and in total."""

    schema: str
    provider: str
    evaluations: int
    graphs: list[GraphCoverage]
    total: CoverageTotals


def count(covered: int, total: int) -> CoverageCount:
    """A :class:`CoverageCount`, its percentage rounded to two decimals."""
    return CoverageCount(
        covered=covered, total=total, percent=round(100.0 * covered / total, 2) if total else 100.0
    )


def fail_under_percent(percent: Any) -> float:
    """``percent`` if it is a number from 0 to 100 (``--fail-under``), else ``argument-invalid``."""
    if (
        isinstance(percent, bool)
        or not isinstance(percent, (int, float))
        or not math.isfinite(percent)
        or not 0 <= percent <= 100
    ):
        raise AgentGraphError(
            "argument-invalid",
            f"The coverage to fail under must be a percent from 0 to 100, not {percent!r:.40}",
        )
    return float(percent)


def falls_short(report: CoverageReport, percent: float) -> bool:
    """Whether total coverage (unrounded) is under ``percent``, as ``--fail-under`` checks it."""
    percent = fail_under_percent(percent)
    total = report.total.total
    return (100.0 * total.covered / total.total if total.total else 100.0) < percent


def edge_label(edge: Edge) -> str:
    """``from -> to [kind: outcomes]``: how coverage names an edge (unique in a valid Graph)."""
    outcomes = ", ".join(edge.outcomes) if edge.outcomes is not None else "completed"
    return f"{edge.from_} -> {edge.to} [{edge.kind or 'flow'}: {outcomes}]"


class Exercised:
    """What evaluations exercised in one Graph: node indices, edge positions, ``(node, outcome)`` and ``(gate, resolution)``."""

    __slots__ = ("edges", "nodes", "outcomes", "resolutions")

    def __init__(self) -> None:
        self.nodes: set[int] = set()
        self.edges: set[int] = set()
        self.outcomes: set[tuple[int, str]] = set()
        self.resolutions: set[tuple[int, str]] = set()


def _items(value: Any) -> list[Any]:
    """The items of a snapshot's list (none when absent); anything else is ``argument-invalid``."""
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise AgentGraphError("argument-invalid", "merge takes a CoverageCollector.snapshot()")
    return list(value)


def _stale_snapshot(graph: str, name: str) -> AgentGraphError:
    return AgentGraphError(
        "coverage-provider-mismatch",
        f"The coverage snapshot's {name} of graph {graph} do not fit this Provider's graph "
        "(was it counted on other files?)",
    )


def _universe(graph: CompiledGraph) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The outcomes and Gate resolutions of ``graph`` to cover, in node order."""
    accepted: dict[int, list[str]] = {}
    for edge in graph.definition.edges:
        names = accepted.setdefault(graph.index[edge.from_], [])
        for outcome in edge.outcomes if edge.outcomes is not None else ("completed",):
            if outcome not in names:
                names.append(outcome)
    outcomes = [(node.index, o) for node in graph.nodes for o in accepted.get(node.index, [])]
    resolutions = [
        (node.index, resolution)
        for node in graph.nodes
        if node.is_gate
        for resolution in RESOLUTIONS
        if resolution != "delegated" or node.delegated_to is not None
    ]
    return outcomes, resolutions


def frame_coverage(frame: FrameTrace, seen: Exercised | None = None) -> Exercised:
    """What one frame of a traced evaluation exercised in its Graph, added to ``seen`` (a new one by default).

    Nodes it reached; edges whose source settled (or was re-armed from) an
    outcome the edge accepts; ``(node index, outcome)`` pairs a node settled
    with; Gate resolutions offered, delegated or refused.
    """
    if seen is None:
        seen = Exercised()
    graph = frame.graph
    outcomes = frame.outcomes
    first: dict[int, Any] = {}
    fired: set[int] = set()
    for edge_index, old in frame.rearmed:
        target = graph.repeat_edges[edge_index][1]
        fired.add(edge_index)
        if old is not None:
            first.setdefault(target, old)
            seen.outcomes.add((target, old))
    for index in frame.reached:
        seen.nodes.add(index)
        seen.outcomes.add((index, outcomes[index]))
        node = graph.nodes[index]
        if (
            node.is_gate
            and frame.why.get(index) == WHY_RECORDED
            and first.get(index, outcomes[index]) not in _NOT_REFUSED
        ):
            seen.resolutions.add((index, "refused"))
    repeat_index = 0
    for position, edge in enumerate(graph.definition.edges):
        source = graph.index[edge.from_]
        accepted = edge.outcomes if edge.outcomes is not None else ("completed",)
        settled = {outcomes[source], first.get(source)}
        if edge.kind == "repeat":
            if repeat_index in fired or any(o in accepted for o in settled if o is not None):
                seen.edges.add(position)
            repeat_index += 1
        elif any(o in accepted for o in settled if o is not None):
            seen.edges.add(position)
    for candidate in frame.candidates:
        if candidate.graph is graph and candidate.node.is_gate:
            kind = "delegated" if candidate.resolution == "session-authority" else "user"
            seen.resolutions.add((candidate.node.index, kind))
    return seen


class CoverageCollector:
    """Collects what evaluations exercised in one Provider's Graphs.

    Call :meth:`evaluate` in place of :func:`~agent_graph.evaluate` (the
    answer is the same), or :meth:`record` with a trace; then :meth:`report`.
    Not shared between threads.
    """

    def __init__(self, provider: Provider) -> None:
        if not isinstance(provider, Provider):
            raise AgentGraphError(
                "argument-invalid", "CoverageCollector needs the loaded Provider (ag.load_provider)"
            )
        self.provider = provider
        self.evaluations = 0
        self._seen: dict[str, Exercised] = {}

    def evaluate(
        self,
        graph: str,
        entry: str = "default",
        *,
        facts: Mapping[str, Any] | None = None,
        outcomes: Mapping[str, Any] | None = None,
        authorities: Iterable[str] | None = None,
    ) -> Evaluation:
        """Evaluate as :func:`~agent_graph.evaluate` does, and count what the evaluation reached."""
        trace: list[FrameTrace] = []
        evaluation, _ = evaluate_with_candidates(
            self.provider, graph, entry, facts, outcomes, authorities, trace=trace
        )
        self.record(trace)
        return evaluation

    def record(self, trace: Iterable[FrameTrace]) -> None:
        """Count the frames of one traced evaluation (``argument-invalid``, nothing counted, for anything else)."""
        if isinstance(trace, (str, bytes, Mapping)) or not isinstance(trace, Iterable):
            raise AgentGraphError("argument-invalid", "record takes the frames of one traced evaluation")
        frames = list(trace)
        if not all(isinstance(frame, FrameTrace) for frame in frames):
            raise AgentGraphError("argument-invalid", "record takes the frames of one traced evaluation")
        self.evaluations += 1
        for frame in frames:
            if frame.error is not None:
                continue
            frame_coverage(frame, self._seen.setdefault(frame.graph.id, Exercised()))

    def snapshot(self) -> dict[str, Any]:
        """What this collector counted, as plain JSON data, for :meth:`merge` in another process.

        Test runners that spread graph tests over processes (pytest-xdist's
        workers) send each process's snapshot to one collector of the same
        Provider, which then reports the whole run.
        """
        return {
            "provider": self.provider.manifest.id,
            "evaluations": self.evaluations,
            "graphs": {
                graph: {
                    "nodes": sorted(seen.nodes),
                    "edges": sorted(seen.edges),
                    "outcomes": sorted([index, outcome] for index, outcome in seen.outcomes),
                    "resolutions": sorted([index, kind] for index, kind in seen.resolutions),
                }
                for graph, seen in self._seen.items()
            },
        }

    def merge(self, snapshot: Mapping[str, Any]) -> None:
        """Add what another collector of the same Provider counted (its :meth:`snapshot`).

        A snapshot of another Provider, or naming a Graph or node this one does
        not have, is ``coverage-provider-mismatch``; a value that is no snapshot
        is ``argument-invalid``. Nothing is added then.
        """
        if not isinstance(snapshot, Mapping) or not isinstance(snapshot.get("graphs"), Mapping):
            raise AgentGraphError("argument-invalid", "merge takes a CoverageCollector.snapshot()")
        evaluations = snapshot.get("evaluations")
        if type(evaluations) is not int or evaluations < 0:
            raise AgentGraphError("argument-invalid", "merge takes a CoverageCollector.snapshot()")
        if snapshot.get("provider") != self.provider.manifest.id:
            raise AgentGraphError(
                "coverage-provider-mismatch",
                f"The coverage snapshot is of Provider {snapshot.get('provider')!r:.80}, "
                f"not {self.provider.manifest.id}",
            )
        found: dict[str, Exercised] = {}
        for graph_id, counted in snapshot["graphs"].items():
            graph = self.provider.graphs.get(graph_id) if isinstance(graph_id, str) else None
            if graph is None or not isinstance(counted, Mapping):
                raise AgentGraphError(
                    "coverage-provider-mismatch",
                    f"The coverage snapshot counts graph {graph_id!r:.80}, which Provider "
                    f"{self.provider.manifest.id} does not have",
                )
            seen = found[graph_id] = Exercised()
            sizes = (len(graph.nodes), len(graph.definition.edges))
            for name, into, size in (("nodes", seen.nodes, sizes[0]), ("edges", seen.edges, sizes[1])):
                for item in _items(counted.get(name)):
                    if type(item) is not int or not 0 <= item < size:
                        raise _stale_snapshot(graph_id, name)
                    into.add(item)
            for name, pairs in (("outcomes", seen.outcomes), ("resolutions", seen.resolutions)):
                for item in _items(counted.get(name)):
                    if (
                        not isinstance(item, (list, tuple))
                        or len(item) != 2
                        or type(item[0]) is not int
                        or not 0 <= item[0] < sizes[0]
                        or type(item[1]) is not str
                    ):
                        raise _stale_snapshot(graph_id, name)
                    pairs.add((item[0], item[1]))
        self.evaluations += evaluations
        for graph_id, seen in found.items():
            mine = self._seen.setdefault(graph_id, Exercised())
            mine.nodes |= seen.nodes
            mine.edges |= seen.edges
            mine.outcomes |= seen.outcomes
            mine.resolutions |= seen.resolutions

    def report(self) -> CoverageReport:
        """Coverage per Graph (manifest order) and in total."""
        graphs: list[GraphCoverage] = []
        sums = [[0, 0] for _ in range(4)]
        for graph in self.provider.graphs.values():
            seen = self._seen.get(graph.id) or Exercised()
            outcome_items, resolution_items = _universe(graph)
            nodes = graph.nodes
            edges = graph.definition.edges
            kinds = (
                (len(seen.nodes), len(nodes)),
                (len(seen.edges), len(edges)),
                (sum(1 for item in outcome_items if item in seen.outcomes), len(outcome_items)),
                (sum(1 for item in resolution_items if item in seen.resolutions), len(resolution_items)),
            )
            for total, (covered, size) in zip(sums, kinds, strict=True):
                total[0] += covered
                total[1] += size
            missing = CoverageMissing(
                nodes=[node.id for node in nodes if node.index not in seen.nodes],
                edges=[edge_label(edge) for i, edge in enumerate(edges) if i not in seen.edges],
                outcomes=[f"{nodes[i].id}: {o}" for i, o in outcome_items if (i, o) not in seen.outcomes],
                gate_resolutions=[
                    f"{nodes[i].id}: {r}" for i, r in resolution_items if (i, r) not in seen.resolutions
                ],
            )
            graphs.append(
                GraphCoverage(
                    graph=graph.id,
                    nodes=count(*kinds[0]),
                    edges=count(*kinds[1]),
                    outcomes=count(*kinds[2]),
                    gate_resolutions=count(*kinds[3]),
                    total=count(sum(k[0] for k in kinds), sum(k[1] for k in kinds)),
                    missing=missing,
                )
            )
        return CoverageReport(
            schema="agent-graph.coverage.v1",
            provider=self.provider.manifest.id,
            evaluations=self.evaluations,
            graphs=graphs,
            total=CoverageTotals(
                nodes=count(*sums[0]),
                edges=count(*sums[1]),
                outcomes=count(*sums[2]),
                gate_resolutions=count(*sums[3]),
                total=count(sum(s[0] for s in sums), sum(s[1] for s in sums)),
            ),
        )


def coverage_table(report: CoverageReport) -> list[str]:
    """The terminal table: one row per Graph and a total, then what is missing."""
    header = ("Graph", "Nodes", "Edges", "Outcomes", "Gates", "Total")
    rows: list[tuple[str, ...]] = [header]

    def cell(value: CoverageCount) -> str:
        return f"{value.covered}/{value.total} {value.percent:g}%"

    for graph in report.graphs:
        rows.append(
            (
                graph.graph,
                cell(graph.nodes),
                cell(graph.edges),
                cell(graph.outcomes),
                cell(graph.gate_resolutions),
                cell(graph.total),
            )
        )
    totals = report.total
    rows.append(
        (
            "TOTAL",
            cell(totals.nodes),
            cell(totals.edges),
            cell(totals.outcomes),
            cell(totals.gate_resolutions),
            cell(totals.total),
        )
    )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = []
    for position, row in enumerate(rows):
        lines.append(
            "  ".join(
                text.ljust(widths[i]) if i == 0 else text.rjust(widths[i]) for i, text in enumerate(row)
            ).rstrip()
        )
        if position == 0 or position == len(rows) - 2:
            lines.append("  ".join("-" * width for width in widths))
    for graph in report.graphs:
        gaps = graph.missing
        for label, items in (
            ("node", gaps.nodes),
            ("edge", gaps.edges),
            ("outcome", gaps.outcomes),
            ("gate", gaps.gate_resolutions),
        ):
            lines.extend(f"missing {graph.graph} {label}: {item}" for item in items)
    return lines
