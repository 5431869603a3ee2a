"""The Graph of a replay page as SVG: laid out by Graphviz ``dot`` when installed, else layered here.

Both layouts give the same contract to the page's script: one ``<g>`` per node
with ``id="node-<index>"`` and the classes ``node kind-<kind>`` (index in the
Graph's node order), edges in ``<g class="edge">``. Colours come from the
page's style sheet, keyed by classes the script sets per event, so the SVG
itself holds no state.

The built-in layout is a layered (Sugiyama-style) drawing, left to right:
layers by longest path over the non-repeat edges, a dummy point on every layer
an edge skips (so long edges pass between nodes, not through them), a few
barycentre sweeps to cut crossings, then coordinates. ``repeat`` edges are
drawn as loops above their layers. Every step is iterative and linear or
near-linear in nodes plus edges. Pure: ``dot`` runs in
:mod:`agent_graph._runtime.graphviz`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Literal

from .._core.ir import CompiledGraph
from .._runtime.graphviz import run_dot

__all__ = ["Layout", "graph_svg"]

Layout = Literal["auto", "dot", "builtin"]

NODE_HEIGHT = 46.0
LAYER_GAP = 70.0
ROW_GAP = 26.0
MARGIN = 24.0
SWEEPS = 6


def _label(node_id: str, limit: int = 28) -> str:
    return node_id if len(node_id) <= limit else node_id[: limit - 1] + "…"


def _edge_text(kind: str | None, outcomes: Sequence[str] | None) -> str:
    listed = ", ".join(outcomes) if outcomes is not None else ""
    if kind == "repeat":
        return f"repeat: {listed or 'completed'}"
    if kind and kind != "flow":
        return f"{kind}" + (f": {listed}" if listed else "")
    return listed


# ---------------------------------------------------------------- Graphviz


def _dot_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


_DOT_SHAPES = {
    "action": 'shape=box, style="rounded,filled"',
    "gate": 'shape=hexagon, style="filled"',
    "subgraph": 'shape=box, peripheries=2, style="filled"',
    "terminal": 'shape=box, style="rounded,filled,bold"',
}


def dot_source(graph: CompiledGraph) -> str:
    """DOT for ``graph``: node IDs ``node-<index>`` and classes the page's style sheet colours."""
    out = [
        "digraph replay {",
        "  rankdir=LR; nodesep=0.35; ranksep=0.55;",
        '  bgcolor="transparent";',
        '  node [fontname="Helvetica", fontsize=12, fillcolor="#ffffff", color="#424242", height=0.5];',
        '  edge [fontname="Helvetica", fontsize=10, color="#616161", fontcolor="#424242"];',
    ]
    for node in graph.nodes:
        label = _dot_string(f"{_label(node.id)}\n{node.kind}")
        out.append(
            f'  n{node.index} [id="node-{node.index}", class="kind-{node.kind}", '
            f"label={label}, {_DOT_SHAPES[node.kind]}];"
        )
    for position, edge in enumerate(graph.definition.edges):
        attributes = [f'id="edge-{position}"', 'class="edge"']
        text = _edge_text(edge.kind, edge.outcomes)
        if text:
            attributes.append(f"label={_dot_string(text)}")
        if edge.kind == "repeat":
            attributes.append("style=dashed, constraint=false")
        source, target = graph.index[edge.from_], graph.index[edge.to]
        out.append(f"  n{source} -> n{target} [{', '.join(attributes)}];")
    out.append("}")
    return "\n".join(out) + "\n"


_PROLOG = re.compile(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>|<!--.*?-->", re.DOTALL)
_TITLES = re.compile(r"<title>[^<]*</title>")
_SIZE = re.compile(r'<svg width="[^"]*" height="[^"]*"')


def _clean_dot_svg(svg: str) -> str:
    svg = _PROLOG.sub("", svg).replace("&#45;", "-")
    svg = _TITLES.sub("", svg)
    svg = _SIZE.sub('<svg class="graph" role="group" aria-label="Graph"', svg, count=1)
    return svg.strip()


# ---------------------------------------------------------------- built-in layered layout


@dataclass
class _Item:
    """A node or a dummy point of the layered drawing."""

    layer: int
    width: float
    node: int | None  # the node index; None for a dummy point
    order: float = 0.0
    x: float = 0.0
    y: float = 0.0
    up: list[int] = field(default_factory=list)
    down: list[int] = field(default_factory=list)


def _layers(graph: CompiledGraph) -> list[int]:
    """Longest-path layer per node over non-repeat edges (Kahn order; a node on a cycle goes last)."""
    count = len(graph.nodes)
    out: list[list[int]] = [[] for _ in range(count)]
    indegree = [0] * count
    for edge in graph.definition.edges:
        if edge.kind == "repeat":
            continue
        source, target = graph.index[edge.from_], graph.index[edge.to]
        if source == target:
            continue
        out[source].append(target)
        indegree[target] += 1
    layer = [0] * count
    ready = [index for index in range(count) if indegree[index] == 0]
    seen = 0
    while ready:
        index = ready.pop()
        seen += 1
        for target in out[index]:
            layer[target] = max(layer[target], layer[index] + 1)
            indegree[target] -= 1
            if indegree[target] == 0:
                ready.append(target)
    if seen < count:  # a cycle: the loader refuses one, but a drawing never hangs on it
        deepest = max(layer) + 1
        for index in range(count):
            if indegree[index] > 0:
                layer[index] = deepest
    return layer


def _node_width(node_id: str, kind: str) -> float:
    return max(96.0, 7.4 * max(len(_label(node_id)), len(kind) + 2) + 34.0)


def _builtin_svg(graph: CompiledGraph) -> str:
    layer_of = _layers(graph)
    items = [_Item(layer_of[n.index], _node_width(n.id, n.kind), n.index) for n in graph.nodes]
    chains: list[tuple[int, list[int]]] = []  # (edge position, node/dummy path)
    for position, edge in enumerate(graph.definition.edges):
        source, target = graph.index[edge.from_], graph.index[edge.to]
        if edge.kind == "repeat" or layer_of[target] <= layer_of[source]:
            continue
        path = [source]
        for layer in range(layer_of[source] + 1, layer_of[target]):
            items.append(_Item(layer, 8.0, None))
            path.append(len(items) - 1)
        path.append(target)
        for upper, lower in itertools.pairwise(path):
            items[upper].down.append(lower)
            items[lower].up.append(upper)
        chains.append((position, path))

    depth = max((item.layer for item in items), default=0) + 1
    rows: list[list[int]] = [[] for _ in range(depth)]
    for index, item in enumerate(items):
        rows[item.layer].append(index)
    for row in rows:
        for position, index in enumerate(row):
            items[index].order = float(position)
    for sweep in range(SWEEPS):
        downward = sweep % 2 == 0
        sequence = rows[1:] if downward else list(reversed(rows[:-1]))
        for row in sequence:
            for index in row:
                near = items[index].up if downward else items[index].down
                if near:
                    items[index].order = sum(items[other].order for other in near) / len(near)
            row.sort(key=lambda index: (items[index].order, index))
            for position, index in enumerate(row):
                items[index].order = float(position)

    # Coordinates: layers left to right, rows top to bottom, each layer centred.
    widths = [max((items[i].width for i in row), default=0.0) for row in rows]
    heights = [
        sum(NODE_HEIGHT if items[i].node is not None else 10.0 for i in row) + ROW_GAP * max(len(row) - 1, 0)
        for row in rows
    ]
    tallest = max(heights, default=0.0)
    loop_room = 34.0 if any(e.kind == "repeat" for e in graph.definition.edges) else 0.0
    x = MARGIN
    for layer, row in enumerate(rows):
        y = MARGIN + loop_room + (tallest - heights[layer]) / 2
        for index in row:
            item = items[index]
            size = NODE_HEIGHT if item.node is not None else 10.0
            item.x = x + widths[layer] / 2
            item.y = y + size / 2
            y += size + ROW_GAP
        x += widths[layer] + LAYER_GAP
    width = x - LAYER_GAP + MARGIN
    height = MARGIN * 2 + loop_room + tallest

    parts: list[str] = [
        f'<svg class="graph" role="group" aria-label="Graph" viewBox="0 0 {width:.0f} {height:.0f}" '
        'xmlns="http://www.w3.org/2000/svg">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#616161"/></marker></defs>',
    ]
    edges = graph.definition.edges
    for position, path in chains:
        points = [(items[path[0]].x + items[path[0]].width / 2, items[path[0]].y)]
        for index in path[1:-1]:
            points.append((items[index].x, items[index].y))
        last = items[path[-1]]
        points.append((last.x - last.width / 2, last.y))
        d = f"M{points[0][0]:.1f},{points[0][1]:.1f}"
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            middle = (x0 + x1) / 2
            d += f" C{middle:.1f},{y0:.1f} {middle:.1f},{y1:.1f} {x1:.1f},{y1:.1f}"
        edge = edges[position]
        dashed = ' stroke-dasharray="5 3"' if edge.kind in ("consumes", "requires") else ""
        bold = " bold" if edge.kind == "gatedBy" else ""
        parts.append(
            f'<g class="edge{bold}" id="edge-{position}"><path d="{d}" fill="none" stroke="#616161" '
            f'stroke-width="1.4"{dashed} marker-end="url(#arrow)"/>'
        )
        text = _edge_text(edge.kind, edge.outcomes)
        if text:
            (x0, y0), (x1, y1) = points[0], points[1]
            parts.append(
                f'<text class="edge-label" x="{(x0 + x1) / 2:.1f}" y="{(y0 + y1) / 2 - 5:.1f}" '
                f'text-anchor="middle">{escape(text)}</text>'
            )
        parts.append("</g>")
    for position, edge in enumerate(edges):
        source, target = graph.index[edge.from_], graph.index[edge.to]
        if not (edge.kind == "repeat" or layer_of[target] <= layer_of[source]):
            continue
        a, b = items[source], items[target]
        top = min(a.y, b.y) - NODE_HEIGHT / 2 - 26
        start = (a.x + min(a.width / 2, 24.0), a.y - NODE_HEIGHT / 2)
        end = (b.x - min(b.width / 2, 24.0), b.y - NODE_HEIGHT / 2)
        d = (
            f"M{start[0]:.1f},{start[1]:.1f} C{start[0]:.1f},{top:.1f} "
            f"{end[0]:.1f},{top:.1f} {end[0]:.1f},{end[1]:.1f}"
        )
        parts.append(
            f'<g class="edge repeat" id="edge-{position}"><path d="{d}" fill="none" stroke="#616161" '
            'stroke-width="1.4" stroke-dasharray="5 3" marker-end="url(#arrow)"/>'
            f'<text class="edge-label" x="{(start[0] + end[0]) / 2:.1f}" y="{top + 6:.1f}" '
            f'text-anchor="middle">{escape(_edge_text(edge.kind, edge.outcomes))}</text></g>'
        )
    for item in items:
        if item.node is None:
            continue
        node = graph.nodes[item.node]
        left, top_y = item.x - item.width / 2, item.y - NODE_HEIGHT / 2
        if node.kind == "gate":
            inset = 12.0
            shape = (
                f'<polygon class="shape" points="{left:.1f},{item.y:.1f} {left + inset:.1f},{top_y:.1f} '
                f"{left + item.width - inset:.1f},{top_y:.1f} {left + item.width:.1f},{item.y:.1f} "
                f"{left + item.width - inset:.1f},{top_y + NODE_HEIGHT:.1f} "
                f'{left + inset:.1f},{top_y + NODE_HEIGHT:.1f}"/>'
            )
        else:
            radius = {"action": 8.0, "terminal": NODE_HEIGHT / 2, "subgraph": 2.0}[node.kind]
            shape = (
                f'<rect class="shape" x="{left:.1f}" y="{top_y:.1f}" width="{item.width:.1f}" '
                f'height="{NODE_HEIGHT:.1f}" rx="{radius:.1f}"/>'
            )
            if node.kind == "subgraph":
                shape += (
                    f'<rect class="inner" x="{left + 4:.1f}" y="{top_y + 4:.1f}" width="{item.width - 8:.1f}" '
                    f'height="{NODE_HEIGHT - 8:.1f}" rx="1" fill="none"/>'
                )
        parts.append(
            f'<g class="node kind-{node.kind}" id="node-{node.index}">{shape}'
            f'<text x="{item.x:.1f}" y="{item.y - 3:.1f}" text-anchor="middle" class="name">'
            f"{escape(_label(node.id))}</text>"
            f'<text x="{item.x:.1f}" y="{item.y + 13:.1f}" text-anchor="middle" class="kind">'
            f"{escape(node.kind)}</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)


def graph_svg(graph: CompiledGraph, layout: Layout = "auto") -> tuple[str, str]:
    """``(svg, layout used)``: Graphviz when ``layout`` is ``dot`` (``replay-layout-unavailable`` if
    it is not installed) or ``auto`` and installed, else the built-in layered layout."""
    if layout in ("auto", "dot"):
        svg = run_dot(dot_source(graph), required=layout == "dot")
        if svg is not None:
            return _clean_dot_svg(svg), "dot"
    return _builtin_svg(graph), "builtin"
