"""What a new version of a Provider does to the Runs in flight: each Run evaluated under both versions.

For every Run, :func:`run_impact` evaluates its Facts, Outcomes and
authorities under the Provider it ran on and under the new one, and names
what changes:

* ``route-changed``: the status, the outcome or the primary route's state key
  differs (the Run's next step is another one);
* ``blocked``: the new version leaves it blocked where the old one did not;
* ``error``: the new version evaluates it to ``error`` where the old one did not;
* ``gate-skipped``: the new version offers a step (or reaches a terminal)
  that the old version put behind a Gate the Run has not passed, and the
  new version does not count that Gate as passed either;
* ``keys-unknown``: the Run holds outcomes under state keys the new version
  has no node for;
* ``graph-missing``: the new version has no such Graph or entry at all.

"Behind a Gate" is read from the old Graph's shape: a Gate must be passed
before a node when every flow path from the entry to the node goes through
it (``join: all`` needs all its incoming paths, ``join: any`` one of them),
and for a node inside a Subgraph, also before the Subgraph node of each
frame around it. Pure: nothing is read or written.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from .errors import AgentGraphError, shown
from .evaluate import FrameTrace, evaluate_with_candidates
from .ir import CompiledGraph
from .model import Run, RunHead
from .provider import Provider
from .state import state_key_problem

__all__ = ["IMPACT_KINDS", "ImpactReport", "RouteSnapshot", "RunImpact", "impact_report", "run_impact"]

#: What can change for a Run, in report order.
IMPACT_KINDS = ("route-changed", "blocked", "error", "gate-skipped", "keys-unknown", "graph-missing")


class RouteSnapshot(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, rename="camel"):
    """A Run's evaluation in short: status, outcome, the primary route's node and state key, the revision."""

    status_code: str
    revision: str
    outcome: str | None = None
    node: str | None = None
    record_node: str | None = None
    availability: str | None = None


class RunImpact(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, rename="camel"):
    """One Run under both versions: ``before`` (the Provider it ran on), ``after`` (the new one; absent
    when the new one lacks its Graph or entry), what changed (:data:`IMPACT_KINDS`), the state keys the new
    version does not know and the Gates it would skip (state keys)."""

    run: str
    graph: str
    entry: str
    before: RouteSnapshot
    changes: tuple[str, ...]
    unknown_keys: tuple[str, ...]
    skipped_gates: tuple[str, ...]
    after: RouteSnapshot | None = None


class ProviderVersion(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """A Provider's identity: ID, version and digest."""

    id: str
    version: str
    digest: str


class ImpactReport(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """The impact of ``new`` on the Runs of ``old``: one :class:`RunImpact` per Run, in the order given."""

    old: ProviderVersion
    new: ProviderVersion
    runs: tuple[RunImpact, ...]

    def counts(self) -> dict[str, int]:
        """How many Runs each kind of change touches (every kind listed, in :data:`IMPACT_KINDS` order)."""
        totals = dict.fromkeys(IMPACT_KINDS, 0)
        for run in self.runs:
            for kind in run.changes:
                totals[kind] += 1
        return totals

    def failing(self, kinds: Iterable[str]) -> list[RunImpact]:
        """The Runs with a change of one of ``kinds``."""
        wanted = set(kinds)
        return [run for run in self.runs if wanted.intersection(run.changes)]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data: old, new, counts, the changed Runs' count and every Run."""
        return {
            "old": msgspec.to_builtins(self.old),
            "new": msgspec.to_builtins(self.new),
            "total": len(self.runs),
            "changed": sum(1 for run in self.runs if run.changes),
            "counts": self.counts(),
            "runs": msgspec.to_builtins(self.runs),
        }


def _version(provider: Provider) -> ProviderVersion:
    return ProviderVersion(id=provider.manifest.id, version=provider.manifest.version, digest=provider.digest)


def _evaluate(provider: Provider, run: Run | RunHead) -> tuple[RouteSnapshot, list[FrameTrace], list[Any]]:
    trace: list[FrameTrace] = []
    evaluation, candidates = evaluate_with_candidates(
        provider, run.graph, run.entry, run.facts, run.outcomes, run.authorities, trace=trace
    )
    primary = evaluation.primary_route
    snapshot = RouteSnapshot(
        status_code=evaluation.status_code,
        revision=evaluation.revision,
        outcome=evaluation.outcome,
        node=primary.node if primary is not None else None,
        record_node=candidates[0].state_key if candidates else None,
        availability=primary.availability if primary is not None else None,
    )
    return snapshot, trace, candidates


def _gates_before(graph: CompiledGraph, entry_index: int) -> list[int]:
    """Per node, a bit set of the Gates every flow path from the entry to it goes through (itself included).

    Flow edges form a DAG; nodes no flow path reaches get 0 (nothing is known
    to be required). Iterative, linear in nodes and edges times a word.
    """
    count = len(graph.nodes)
    gate_bit = {
        node.index: 1 << position for position, node in enumerate(n for n in graph.nodes if n.is_gate)
    }
    predecessors: list[list[int]] = [[] for _ in range(count)]
    indegree = [0] * count
    for node in graph.nodes:
        for target, _accepted in node.flow_out:
            predecessors[target].append(node.index)
            indegree[target] += 1
    order: list[int] = [i for i in range(count) if indegree[i] == 0]
    position = 0
    while position < len(order):
        for target, _accepted in graph.nodes[order[position]].flow_out:
            indegree[target] -= 1
            if indegree[target] == 0:
                order.append(target)
        position += 1
    reached = [False] * count
    reached[entry_index] = True
    must = [0] * count
    for index in order:
        node = graph.nodes[index]
        own = gate_bit.get(index, 0)
        if index == entry_index:
            must[index] = own
            continue
        sources = [p for p in predecessors[index] if reached[p]]
        if not sources:
            continue
        reached[index] = True
        if node.join_any:
            common = must[sources[0]]
            for source in sources[1:]:
                common &= must[source]
            must[index] = own | common
        else:
            union = 0
            for source in sources:
                union |= must[source]
            must[index] = own | union
    return must


class _Shape:
    """The old Provider's "Gates before a node", computed once per Graph entry."""

    def __init__(self, provider: Provider) -> None:
        self.provider = provider
        self._must: dict[tuple[str, str], tuple[list[int], list[int]]] = {}

    def gates_before(self, graph_id: str, entry: str, node_id: str) -> list[int]:
        """The indices of the Gates of ``graph_id`` that must be passed before ``node_id`` (entered at ``entry``)."""
        graph = self.provider.graphs.get(graph_id)
        if graph is None or node_id not in graph.index:
            return []
        start = graph.entrypoints.get(entry)
        if start is None or start not in graph.index:
            return []
        key = (graph_id, entry)
        if key not in self._must:
            gates = [node.index for node in graph.nodes if node.is_gate]
            self._must[key] = (_gates_before(graph, graph.index[start]), gates)
        must, gates = self._must[key]
        bits = must[graph.index[node_id]]
        return [
            gate
            for position, gate in enumerate(gates)
            if bits >> position & 1 and gate != graph.index[node_id]
        ]


def _settled(trace: Sequence[FrameTrace]) -> dict[str, Any]:
    """State key → settled outcome of every node the evaluation reached."""
    found: dict[str, Any] = {}
    for frame in trace:
        if frame.error is not None:
            continue
        prefix = ">".join((*frame.call_path, frame.graph.id)) + "/"
        for index in frame.reached:
            found[prefix + frame.graph.nodes[index].id] = frame.outcomes[index]
    return found


def _positions(
    trace: Sequence[FrameTrace], candidates: Sequence[Any]
) -> list[tuple[tuple[str, ...], str, str]]:
    """Where a Run stands: ``(call path, graph, node)`` of every candidate, or of the top frame's reached terminals."""
    found = [(tuple(c.call_path), c.graph.id, c.node.id) for c in candidates]
    if not found and trace and trace[-1].error is None:
        top = trace[-1]
        found = [
            ((), top.graph.id, top.graph.nodes[i].id)
            for i in top.reached
            if top.graph.nodes[i].is_terminal and top.outcomes[i] is not None
        ]
    return found


def _behind(
    shape: _Shape, run: Run | RunHead, positions: Iterable[tuple[tuple[str, ...], str, str]]
) -> set[str]:
    """The state keys of the Gates the old Graph puts before these positions (see :func:`_positions`)."""
    found: set[str] = set()
    for call_path, graph_id, node_id in positions:
        # This node, then the Subgraph node of each frame around it, with the entry each frame was entered at.
        levels: list[tuple[tuple[str, ...], str, str, str]] = []
        entry = run.entry
        path: tuple[str, ...] = ()
        for item in call_path:
            parent, subgraph = item.split("/", 1)
            levels.append((path, parent, entry, subgraph))
            outer = shape.provider.graphs.get(parent)
            node = (
                outer.nodes[outer.index[subgraph]] if outer is not None and subgraph in outer.index else None
            )
            path = (*path, item)
            entry = (node.child_entry or "") if node is not None else ""
        levels.append((path, graph_id, entry, node_id))
        for level_path, level_graph, level_entry, level_node in levels:
            graph = shape.provider.graphs.get(level_graph)
            if graph is None:
                continue
            prefix = ">".join((*level_path, level_graph)) + "/"
            found.update(
                prefix + graph.nodes[gate].id
                for gate in shape.gates_before(level_graph, level_entry, level_node)
            )
    return found


def _skipped(
    shape: _Shape,
    run: Run | RunHead,
    old: tuple[Sequence[FrameTrace], Sequence[Any]],
    new: tuple[Sequence[FrameTrace], Sequence[Any]],
) -> list[str]:
    """Gates the old Graph puts before where the new version moves the Run, passed under neither version.

    Only positions the Run did not hold under the old version count: a Run
    that stands where it stood skips nothing.
    """
    old_settled = _settled(old[0])
    new_settled = _settled(new[0])
    before = set(_positions(*old))
    moved = [position for position in _positions(*new) if position not in before]
    return sorted(
        key
        for key in _behind(shape, run, moved)
        if old_settled.get(key) != "completed" and new_settled.get(key) != "completed"
    )


def run_impact(old: Provider, new: Provider, run: Run | RunHead, shape: _Shape | None = None) -> RunImpact:
    """The impact of ``new`` on one Run of ``old`` (see the module's description)."""
    if not isinstance(run, (Run, RunHead)):
        raise AgentGraphError("argument-invalid", f"impact takes Runs (or their heads), not {shown(run)}")
    if run.provider != old.manifest.id:
        raise AgentGraphError(
            "run-provider-mismatch",
            f"Run {run.id} belongs to Provider {run.provider}, not {old.manifest.id}: impact compares the Runs of "
            "the old Provider",
        )
    if run.graph not in old.graphs or run.entry not in old.graphs[run.graph].entrypoints:
        raise AgentGraphError(
            "graph-missing" if run.graph not in old.graphs else "entry-missing",
            f"Run {run.id} is on {run.graph}#{run.entry}, which the old Provider does not have: is it the "
            "version the Run ran on?",
        )
    before, old_trace, old_candidates = _evaluate(old, run)
    graph = new.graphs.get(run.graph)
    if graph is None or run.entry not in graph.entrypoints:
        return RunImpact(
            run=run.id,
            graph=run.graph,
            entry=run.entry,
            before=before,
            changes=("graph-missing",),
            unknown_keys=tuple(run.outcomes),
            skipped_gates=(),
        )
    after, new_trace, new_candidates = _evaluate(new, run)
    unknown = tuple(key for key in run.outcomes if state_key_problem(new, run.graph, key) is not None)
    skipped = _skipped(shape or _Shape(old), run, (old_trace, old_candidates), (new_trace, new_candidates))
    changes = []
    if (before.status_code, before.outcome, before.record_node) != (
        after.status_code,
        after.outcome,
        after.record_node,
    ):
        changes.append("route-changed")
    if after.status_code == "blocked" and before.status_code != "blocked":
        changes.append("blocked")
    if after.status_code == "error" and before.status_code != "error":
        changes.append("error")
    if skipped:
        changes.append("gate-skipped")
    if unknown:
        changes.append("keys-unknown")
    return RunImpact(
        run=run.id,
        graph=run.graph,
        entry=run.entry,
        before=before,
        after=after,
        changes=tuple(changes),
        unknown_keys=unknown,
        skipped_gates=tuple(skipped),
    )


def impact_report(old: Provider, new: Provider, runs: Iterable[Run | RunHead]) -> ImpactReport:
    """The impact of ``new`` on each of ``runs`` (Runs of ``old``)."""
    for provider, name in ((old, "old"), (new, "new")):
        if not isinstance(provider, Provider):
            raise AgentGraphError(
                "argument-invalid", f"impact needs the loaded {name} Provider (ag.load_provider)"
            )
    if new.manifest.id != old.manifest.id:
        raise AgentGraphError(
            "run-provider-mismatch",
            f"The new Provider is {new.manifest.id} and the old one {old.manifest.id}: impact compares two versions "
            "of one Provider",
        )
    shape = _Shape(old)
    return ImpactReport(
        old=_version(old), new=_version(new), runs=tuple(run_impact(old, new, run, shape) for run in runs)
    )
