"""Diagrams of a Graph as a Mermaid flowchart or Graphviz DOT, optionally with an evaluation overlay.

Node kinds get distinct shapes (Action box, Gate diamond, Subgraph
subroutine, Terminal stadium), edges carry their outcomes and non-flow kinds
as labels, ``repeat`` edges are dashed loops, and Subgraph calls are drawn as
clusters of the child Graph (one per call path) linked from the calling node.
With an overlay, every reached node shows its settled Outcome, unreached nodes
are greyed, the primary Route is highlighted and the alternatives marked.

Settled Outcomes per node are not part of the public Evaluation;
:func:`settle_frame` takes them from the evaluator's own settling of one frame.
Pure: no I/O.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .._core.errors import AgentGraphError
from .._core.evaluate import evaluate, settled_outcomes
from .._core.graph_coverage import GraphCoverage, edge_label
from .._core.identity import make_route_id
from .._core.ir import CompiledGraph
from .._core.model import Evaluation
from .._core.normalize import normalize_authorities, normalize_facts, normalize_outcomes, plain_facts
from .._core.provider import Provider

__all__ = ["DiagramState", "render_diagram", "settle_frame"]

Format = Literal["mermaid", "dot"]
FORMATS: tuple[str, ...] = ("mermaid", "dot")
#: Subgraph clusters drawn at most; further calls are drawn as links only.
MAX_CLUSTERS = 64

_OUTCOME_STYLE = {
    "completed": ("#d4edda", "#2e7d32"),
    "pending": ("#fff3cd", "#b8860b"),
    "waiting-user": ("#dbe9f9", "#1f5fa8"),
    "partial": ("#ffe0b2", "#e65100"),
    "unverified": ("#ffe0b2", "#e65100"),
    "failed": ("#f8d7da", "#c62828"),
    "blocked": ("#f8d7da", "#c62828"),
    "skipped": ("#eeeeee", "#757575"),
}
_UNREACHED = ("#ffffff", "#bdbdbd")
_COVERED = ("#d4edda", "#2e7d32")
_UNCOVERED = ("#f8d7da", "#c62828")
_PARTLY = ("#ffe0b2", "#e65100")
_ROUTE_COLOR = "#6a1b9a"


# ---------------------------------------------------------------- settled outcomes


#: Node ID → settled Outcome for every node one frame reaches, in the order reached: the evaluator's
#: own settling (behaviour.md §5 step 2), for ``(provider, graph, entry, call_path, facts, outcomes,
#: authorities)`` with normalized outcomes keyed by full state keys; an unknown entry reaches nothing.
settle_frame = settled_outcomes


# ---------------------------------------------------------------- the overlay


@dataclass(frozen=True)
class DiagramState:
    """The evaluation input of an overlay: entry, Facts, Outcomes and authorities."""

    entry: str = "default"
    facts: Mapping[str, Any] = field(default_factory=dict)
    outcomes: Mapping[str, Any] = field(default_factory=dict)
    authorities: Sequence[str] = ()


@dataclass
class _Frame:
    index: int
    graph: CompiledGraph
    entry: str | None
    call_path: tuple[str, ...]
    ancestors: tuple[str, ...] = ()
    parent: _Frame | None = None
    caller_node: str | None = None
    caller: str | None = None
    settled: dict[str, str] | None = None
    coverage: _CoverageMarks | None = None


@dataclass
class _CoverageMarks:
    """What graph tests left out of one Graph (node IDs, edge indices, per node its gaps)."""

    nodes: frozenset[str]
    edges: frozenset[int]
    gaps: dict[str, list[str]]

    @classmethod
    def of(cls, graph: CompiledGraph, coverage: GraphCoverage) -> _CoverageMarks:
        missing = coverage.missing
        labels = set(missing.edges)
        gaps: dict[str, list[str]] = {}
        for kind, items in (("outcome", missing.outcomes), ("gate", missing.gate_resolutions)):
            for item in items:
                node, _, value = item.partition(": ")
                gaps.setdefault(node, []).append(f"untested {kind}: {value}")
        return cls(
            nodes=frozenset(missing.nodes),
            edges=frozenset(i for i, e in enumerate(graph.definition.edges) if edge_label(e) in labels),
            gaps=gaps,
        )

    def edge_covered(self, index: int) -> bool:
        return index not in self.edges

    def node_class(self, node: str) -> str:
        """``tested``, ``partly`` (reached, some outcome or Gate resolution not) or ``untested``."""
        if node in self.nodes:
            return "untested"
        return "partly" if node in self.gaps else "tested"


@dataclass
class _Overlay:
    evaluation: Evaluation
    facts: Mapping[str, Any]
    outcomes: dict[str, str]
    authorities: list[str]
    primary: str | None
    alternatives: frozenset[str]
    #: With ``explain``: (call path, node ID) → the node's reason, as :func:`~agent_graph.explain` words it.
    reasons: dict[tuple[tuple[str, ...], str], str] = field(default_factory=dict)


def _frames(provider: Provider, graph: CompiledGraph, entry: str | None, expand: bool) -> list[_Frame]:
    frames = [_Frame(0, graph, entry, ())]
    pending = [frames[0]]
    while pending and expand:
        frame = pending.pop(0)
        for node in frame.graph.nodes:
            if not node.is_subgraph:
                continue
            child = provider.graphs.get(node.child_graph or "")
            ancestors = (*frame.ancestors, frame.graph.id)
            if child is None or child.id in ancestors or len(frames) > MAX_CLUSTERS:
                continue
            child_frame = _Frame(
                len(frames),
                child,
                node.child_entry,
                (*frame.call_path, f"{frame.graph.id}/{node.id}"),
                ancestors=ancestors,
                parent=frame,
                caller_node=node.id,
                caller=f"f{frame.index}_n{node.index}",
            )
            frames.append(child_frame)
            pending.append(child_frame)
    return frames


def _node_lines(
    frame: _Frame, node_index: int, overlay: _Overlay | None
) -> tuple[list[str], str | None, str | None]:
    """Label lines of a node, its settled outcome (or None) and its route mark (primary/alternative)."""
    node = frame.graph.nodes[node_index]
    definition = node.definition
    lines = [node.id]
    if definition.description:
        text = definition.description
        lines.append(text if len(text) <= 60 else text[:57] + "...")
    if node.is_action:
        lines.append("action")
    elif node.is_gate:
        gate = definition.gate
        lines.append(
            "gate" + (f" · authority {gate.authority}" if gate is not None and gate.authority else "")
        )
    elif node.is_subgraph:
        lines.append(f"subgraph → {definition.graph}#{definition.entry}")
    else:
        lines.append(f"terminal: {definition.terminal_outcome}")
    settled = mark = None
    if overlay is not None and frame.settled is not None:
        settled = frame.settled.get(node.id)
        if settled is not None:
            lines.append(f"= {settled}")
            if (node.is_action or node.is_gate) and settled in ("pending", "waiting-user"):
                route_id = make_route_id(
                    overlay.evaluation.revision, frame.graph.id, node.id, frame.call_path
                )
                if route_id == overlay.primary:
                    mark = "primary"
                    lines.append("▶ primary route")
                elif route_id in overlay.alternatives:
                    mark = "alternative"
                    lines.append("◇ alternative")
        else:
            lines.append("not reached")
        reason = overlay.reasons.get((frame.call_path, node.id))
        if reason is not None:
            lines.append("why: " + (reason if len(reason) <= 80 else reason[:77] + "..."))
    if frame.coverage is not None:
        lines.append("✗ not tested" if node.id in frame.coverage.nodes else "✓ tested")
        lines.extend(frame.coverage.gaps.get(node.id, ()))
    return lines, settled, mark


def _edge_label(kind: str | None, outcomes: Sequence[str] | None) -> str:
    listed = ", ".join(outcomes) if outcomes is not None else "completed"
    if kind == "repeat":
        return f"↻ repeat: {listed}"
    if kind and kind != "flow":
        return f"{kind}: {listed}"
    return listed


def _fires(frame: _Frame, source: str, outcomes: Sequence[str] | None) -> bool:
    if frame.settled is None:
        return False
    value = frame.settled.get(source)
    return value is not None and value in (outcomes if outcomes is not None else ("completed",))


# ---------------------------------------------------------------- Mermaid


def _mermaid_text(text: str) -> str:
    return (
        text.replace("#", "#35;")
        .replace('"', "#quot;")
        .replace("<", "#lt;")
        .replace(">", "#gt;")
        .replace("`", "#96;")
        .replace("\n", " ")
    )


def _entries(frame: _Frame) -> list[tuple[int, str, int]]:
    """The entry points drawn before the top frame: (position, entry name, index of the node it enters at)."""
    if frame.index > 0:
        return []
    graph = frame.graph
    names = [frame.entry] if frame.entry is not None else list(graph.entrypoints)
    found = []
    for position, name in enumerate(names):
        target = graph.entrypoints.get(name or "")
        if target is not None:
            found.append((position, name or "", graph.index[target]))
    return found


def _called(frame: _Frame) -> tuple[str, str, int] | None:
    """How a called frame is entered: (the calling node's identifier, entry name, index of the node entered)."""
    if frame.index == 0 or frame.caller is None or frame.entry not in frame.graph.entrypoints:
        return None
    entry = frame.entry or ""
    return frame.caller, entry, frame.graph.index[frame.graph.entrypoints[entry]]


_MERMAID_SHAPES = {
    "action": ('["', '"]'),
    "gate": ('{"', '"}'),
    "subgraph": ('[["', '"]]'),
    "terminal": ('(["', '"])'),
}


def _render_mermaid(frames: list[_Frame], title: str, overlay: _Overlay | None) -> str:
    out = [f"%% {title}", "flowchart LR"]
    links: list[str] = []
    link_styles: list[str] = []
    node_styles: list[str] = []
    classes: dict[str, list[str]] = {}

    def link(text: str, style: str | None = None) -> None:
        if style is not None:
            link_styles.append(f"  linkStyle {len(links)} {style}")
        links.append(text)

    for frame in frames:
        indent = "  "
        if frame.index > 0:
            name = f"{frame.graph.id}#{frame.entry} via {frame.call_path[-1]}"
            out.append(f'  subgraph f{frame.index}["{_mermaid_text(name)}"]')
            out.append("    direction LR")
            indent = "    "
        for node in frame.graph.nodes:
            identifier = f"f{frame.index}_n{node.index}"
            lines, settled, mark = _node_lines(frame, node.index, overlay)
            start, end = _MERMAID_SHAPES[node.kind]
            out.append(
                f"{indent}{identifier}{start}{'<br/>'.join(_mermaid_text(line) for line in lines)}{end}"
            )
            if overlay is not None and frame.settled is not None:
                classes.setdefault(settled if settled is not None else "unreached", []).append(identifier)
            if frame.coverage is not None:
                classes.setdefault(frame.coverage.node_class(node.id), []).append(identifier)
            if mark == "primary":
                node_styles.append(f"  style {identifier} stroke:{_ROUTE_COLOR},stroke-width:4px")
            elif mark == "alternative":
                node_styles.append(
                    f"  style {identifier} stroke:{_ROUTE_COLOR},stroke-width:2px,stroke-dasharray:5 3"
                )
        if frame.index > 0:
            out.append("  end")
    for frame in frames:
        graph = frame.graph
        prefix = f"f{frame.index}"
        for position, name, entered in _entries(frame):
            out.append(f'  {prefix}_entry{position}(("{_mermaid_text(name)}"))')
            link(f"  {prefix}_entry{position} --> {prefix}_n{entered}")
        called = _called(frame)
        if called is not None:
            caller, name, entered = called
            link(f'  {caller} -.->|"calls {_mermaid_text(name)}"| {prefix}_n{entered}')
        for position, edge in enumerate(graph.definition.edges):
            source = f"{prefix}_n{graph.index[edge.from_]}"
            target = f"{prefix}_n{graph.index[edge.to]}"
            label = _mermaid_text(_edge_label(edge.kind, edge.outcomes))
            arrow = "-.->" if edge.kind == "repeat" else ("==>" if edge.kind == "gatedBy" else "-->")
            style = None
            if _fires(frame, edge.from_, edge.outcomes):
                style = f"stroke:{_ROUTE_COLOR},stroke-width:3px"
            if frame.coverage is not None:
                if frame.coverage.edge_covered(position):
                    style = f"stroke:{_COVERED[1]},stroke-width:2px"
                else:
                    style = f"stroke:{_UNCOVERED[1]},stroke-width:2px,stroke-dasharray:4 3"
                    label = _mermaid_text("✗ " + _edge_label(edge.kind, edge.outcomes))
            link(f'  {source} {arrow}|"{label}"| {target}', style)
    out.extend(links)
    if overlay is not None:
        for name in (*_OUTCOME_STYLE, "unreached"):
            fill, stroke = _OUTCOME_STYLE.get(name, _UNREACHED)
            color = ",color:#9e9e9e" if name == "unreached" else ""
            out.append(f"  classDef {name.replace('-', '_')} fill:{fill},stroke:{stroke}{color}")
        for name, identifiers in classes.items():
            if name in _OUTCOME_STYLE or name == "unreached":
                out.append(f"  class {','.join(identifiers)} {name.replace('-', '_')}")
    if frames[0].coverage is not None:
        for name, (fill, stroke) in (("tested", _COVERED), ("partly", _PARTLY), ("untested", _UNCOVERED)):
            out.append(f"  classDef {name} fill:{fill},stroke:{stroke}")
            if classes.get(name):
                out.append(f"  class {','.join(classes[name])} {name}")
    out.extend(link_styles)
    out.extend(node_styles)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- DOT


def _dot_text(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


_DOT_SHAPES = {
    "action": ("shape=box", "rounded,filled"),
    "gate": ("shape=diamond, margin=0", "filled"),
    "subgraph": ("shape=box3d", "filled"),
    "terminal": ("shape=ellipse, peripheries=2", "filled"),
}


def _render_dot(frames: list[_Frame], title: str, overlay: _Overlay | None) -> str:
    out = [
        f"digraph {_dot_text(frames[0].graph.id)} {{",
        f"  label={_dot_text(title)};",
        "  labelloc=t;",
        '  fontname="Helvetica";',
        "  rankdir=LR;",
        '  node [fontname="Helvetica", fontsize=11, fillcolor="#ffffff"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    edges: list[str] = []
    for frame in frames:
        indent = "  "
        if frame.index > 0:
            out.append(f"  subgraph cluster_f{frame.index} {{")
            out.append(f"    label={_dot_text(f'{frame.graph.id}#{frame.entry} via {frame.call_path[-1]}')};")
            out.append('    style="rounded,dashed";')
            indent = "    "
        for node in frame.graph.nodes:
            lines, settled, mark = _node_lines(frame, node.index, overlay)
            shape, style = _DOT_SHAPES[node.kind]
            attributes = [f"label={_dot_text(chr(10).join(lines))}", shape]
            stroke = None
            if overlay is not None and frame.settled is not None:
                fill, stroke = _OUTCOME_STYLE.get(settled or "", _UNREACHED)
                attributes.append(f'fillcolor="{fill}"')
                if settled is None:
                    attributes.append('fontcolor="#9e9e9e"')
            if frame.coverage is not None:
                fill, stroke = {"tested": _COVERED, "partly": _PARTLY}.get(
                    frame.coverage.node_class(node.id), _UNCOVERED
                )
                attributes.append(f'fillcolor="{fill}"')
            if mark is not None:
                stroke = _ROUTE_COLOR
                attributes.append("penwidth=4" if mark == "primary" else "penwidth=2")
                style += ",dashed" if mark == "alternative" else ""
            if stroke is not None:
                attributes.append(f'color="{stroke}"')
            attributes.append(f'style="{style}"')
            out.append(f"{indent}f{frame.index}_n{node.index} [{', '.join(attributes)}];")
        if frame.index > 0:
            out.append("  }")
    for frame in frames:
        graph = frame.graph
        prefix = f"f{frame.index}"
        for position, name, entered in _entries(frame):
            out.append(f"  {prefix}_entry{position} [label={_dot_text(name)}, shape=circle, fontsize=9];")
            edges.append(f"  {prefix}_entry{position} -> {prefix}_n{entered};")
        called = _called(frame)
        if called is not None:
            caller, name, entered = called
            edges.append(
                f"  {caller} -> {prefix}_n{entered} [style=dotted, label={_dot_text('calls ' + name)}];"
            )
        for position, edge in enumerate(graph.definition.edges):
            attributes = [f"label={_dot_text(_edge_label(edge.kind, edge.outcomes))}"]
            if frame.coverage is not None:
                if frame.coverage.edge_covered(position):
                    attributes.append(f'color="{_COVERED[1]}", penwidth=2')
                else:
                    attributes[0] = f"label={_dot_text('✗ ' + _edge_label(edge.kind, edge.outcomes))}"
                    attributes.append(f'color="{_UNCOVERED[1]}", style=dashed')
            if edge.kind == "repeat":
                attributes.append("style=dashed, constraint=false")
            elif edge.kind == "gatedBy":
                attributes.append("style=bold")
            if _fires(frame, edge.from_, edge.outcomes):
                attributes.append(f'color="{_ROUTE_COLOR}", penwidth=2.5')
            edges.append(
                f"  {prefix}_n{graph.index[edge.from_]} -> {prefix}_n{graph.index[edge.to]} [{', '.join(attributes)}];"
            )
    out.extend(edges)
    out.append("}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- entry point


def render_diagram(
    provider: Provider,
    graph: str,
    *,
    fmt: str = "mermaid",
    state: DiagramState | None = None,
    expand_subgraphs: bool = True,
    explain: bool = False,
    coverage: GraphCoverage | None = None,
) -> str:
    """The Graph ``graph`` of ``provider`` as Mermaid (``fmt="mermaid"``) or Graphviz DOT (``"dot"``).

    Without ``state`` the diagram shows every entrypoint; with it, the
    evaluation of ``state.entry`` is overlaid, and with ``explain`` each node
    also shows its reason (:func:`~agent_graph.explain`). With ``coverage`` (the
    :class:`~agent_graph.GraphCoverage` of this Graph from a
    :class:`~agent_graph.testing.CoverageCollector`), tested nodes and edges are green
    and untested ones red, each node listing its untested outcomes and Gate
    resolutions; Subgraph calls are then drawn as links. Subgraph calls become clusters
    (at most :data:`MAX_CLUSTERS`) unless ``expand_subgraphs`` is false.
    Raises ``graph-missing`` for an unknown Graph and ``diagram-format-invalid``
    for another format.
    """
    if fmt not in FORMATS:
        raise AgentGraphError(
            "diagram-format-invalid", f"Unsupported diagram format: {fmt} (use mermaid or dot)"
        )
    if isinstance(graph, str):
        graph = str.__str__(graph)
    compiled = provider.graphs.get(graph) if isinstance(graph, str) else None
    if compiled is None:
        raise provider.graph_missing(graph)
    overlay: _Overlay | None = None
    title = f"{provider.manifest.id}@{provider.manifest.version} · {graph}"
    if state is not None and isinstance(state.entry, str) and type(state.entry) is not str:
        state = dataclasses.replace(state, entry=str.__str__(state.entry))
    frames = _frames(
        provider,
        compiled,
        state.entry if state is not None else None,
        expand_subgraphs and coverage is None,
    )
    if coverage is not None:
        frames[0].coverage = _CoverageMarks.of(compiled, coverage)
        title += " · test coverage " + f"{coverage.total.percent:g}%"
    if state is not None:
        outcomes = normalize_outcomes(state.outcomes)
        authorities = normalize_authorities(state.authorities)
        facts = plain_facts(normalize_facts(state.facts))
        evaluation = evaluate(
            provider, graph, state.entry, facts=facts, outcomes=outcomes, authorities=authorities
        )
        overlay = _Overlay(
            evaluation=evaluation,
            facts=facts,
            outcomes=outcomes,
            authorities=authorities,
            primary=evaluation.primary_route.route_id if evaluation.primary_route is not None else None,
            alternatives=frozenset(r.route_id for r in evaluation.alternative_routes),
        )
        if explain:
            from .._core.why import explain as explain_state

            explanation = explain_state(
                provider, graph, state.entry, facts=facts, outcomes=outcomes, authorities=authorities
            )
            for explained in explanation.frames:
                for item in explained.nodes:
                    overlay.reasons[(tuple(explained.call_path), item.node)] = item.message
        for frame in frames:
            parent = frame.parent
            if parent is not None and (parent.settled is None or frame.caller_node not in parent.settled):
                frame.settled = {}  # the call is not reached: nothing in it is
                continue
            frame.settled = settle_frame(
                provider, frame.graph, frame.entry or "", frame.call_path, facts, outcomes, authorities
            )
        status = evaluation.status_code + (f" ({evaluation.outcome})" if evaluation.outcome else "")
        title += f"#{state.entry} · {status}"
    render = _render_mermaid if fmt == "mermaid" else _render_dot
    return render(frames, title, overlay)
