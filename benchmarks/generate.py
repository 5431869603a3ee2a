"""Synthetic Providers for the benchmarks, written as plain files.

Each generator returns a :class:`Workload`: the Provider's files (relative path
→ text), the graph and entry to evaluate, and a mid-workflow state (facts,
outcomes, authorities). Shapes:

* :func:`chain` — ``n0 → n1 → … → terminal``, half of the steps satisfied by facts;
* :func:`layered` — a layered DAG of a given width, each node joining two
  parents of the layer above, ``join: any`` and ``join: all`` alternating;
* :func:`fanout` — one start step and many alternatives (Actions and
  delegatable Gates with priorities) that all lead to one ``join: any`` terminal;
* :func:`nested` — graphs of ten nodes calling each other as Subgraphs in a
  binary tree; :func:`deep` — a straight line of Subgraph calls;
* :func:`realistic` — a release workflow of 45 nodes in three graphs with
  136 files (Actions of every runner, Skills with several files, front-matter
  and descriptor resources, dynamic resources, a Code Catalog), mid-workflow;
* :func:`large_facts` — about ``size`` bytes of canonical JSON of varied facts.

Large graphs are written as JSON (``.json``) by default; :func:`to_yaml` writes
the block-style YAML authors write, used by the realistic Provider. Nothing
here imports the library.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Files = dict[str, str]

# --------------------------------------------------------------------------- YAML

_PLAIN = re.compile(r"[A-Za-z_./][A-Za-z0-9_./@ -]*\Z")
_RESERVED = {"true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"}


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    text = str(value)
    if (
        _PLAIN.match(text)
        and text.lower() not in _RESERVED
        and not text.endswith(" ")
        and " #" not in text
        and ": " not in text
        and not text.startswith("- ")
    ):
        return text
    return json.dumps(text, ensure_ascii=False)


def _is_flat(value: Any) -> bool:
    """Short lists of scalars and small mappings of scalars are written in flow style."""
    if isinstance(value, list):
        return len(value) <= 6 and all(not isinstance(v, (dict, list)) for v in value)
    if isinstance(value, dict):
        return len(value) <= 4 and all(not isinstance(v, (dict, list)) for v in value.values())
    return False


def _flow(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    return "{ " + ", ".join(f"{k}: {_scalar(v)}" for k, v in value.items()) + " }"


def to_yaml(value: Mapping[str, Any], header: str = "") -> str:
    """Block-style YAML of a mapping of plain data (iterative; flow style for short leaves)."""
    lines: list[str] = [f"# {line}" for line in header.splitlines()]
    # (indent, key or None for a list item, value, first-line prefix)
    stack: list[tuple[int, Any, Any]] = [(0, k, v) for k, v in reversed(list(value.items()))]
    while stack:
        indent, key, item = stack.pop()
        pad = " " * indent
        lead = f"{pad}{key}:" if key is not None else f"{pad}-"
        if isinstance(item, dict) and item and not (key is None and _is_flat(item) and "from" in item):
            if key is None:
                # a list item holding a mapping: its first key shares the dash line
                entries = list(item.items())
                first_key, first_value = entries[0]
                rest = [(indent + 2, k, v) for k, v in reversed(entries[1:])]
                if isinstance(first_value, (dict, list)) and first_value and not _is_flat(first_value):
                    lines.append(f"{pad}- {first_key}:")
                    stack.extend(rest)
                    stack.extend(_children(indent + 4, first_value))
                else:
                    shown = (
                        _flow(first_value) if isinstance(first_value, (dict, list)) else _scalar(first_value)
                    )
                    lines.append(f"{pad}- {first_key}: {shown}")
                    stack.extend(rest)
                continue
            lines.append(lead)
            stack.extend(_children(indent + 2, item))
        elif isinstance(item, list) and item and not _is_flat(item):
            lines.append(lead)
            stack.extend(_children(indent + 2, item))
        elif isinstance(item, (dict, list)):
            lines.append(f"{lead} {_flow(item)}")
        else:
            lines.append(f"{lead} {_scalar(item)}")
    return "\n".join(lines) + "\n"


def _children(indent: int, value: Any) -> list[tuple[int, Any, Any]]:
    if isinstance(value, dict):
        return [(indent, k, v) for k, v in reversed(list(value.items()))]
    return [(indent, None, v) for v in reversed(value)]


def _json(value: Any) -> str:
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def front_matter(header: Mapping[str, Any], body: str) -> str:
    """A Markdown file with a YAML front-matter header."""
    return "---\n" + to_yaml(header) + "---\n" + body


# --------------------------------------------------------------------------- workloads


@dataclass
class Workload:
    """A Provider's files and one state to evaluate it in."""

    name: str
    files: Files
    graph: str
    entry: str = "default"
    facts: dict[str, Any] = field(default_factory=dict)
    outcomes: dict[str, Any] = field(default_factory=dict)
    authorities: list[str] = field(default_factory=list)
    nodes: int = 0

    def write(self, root: str) -> str:
        """Write the files under ``root``; returns the manifest path."""
        for relative, text in self.files.items():
            path = os.path.join(root, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
        return os.path.join(root, "provider.yaml")


def _manifest(provider_id: str, graphs: list[str], catalog: bool = False) -> str:
    manifest: dict[str, Any] = {
        "schema": "agent-graph.provider.v1",
        "id": provider_id,
        "version": "1.0.0",
        "name": provider_id,
        "graphs": graphs,
    }
    if catalog:
        manifest["catalogs"] = {"codes": "codes.yaml"}
    manifest["compatibility"] = {"agentGraph": "^0.3.0"}
    return to_yaml(manifest)


def _common_files() -> Files:
    """Actions and resources shared by the synthetic graphs (four runners, one Skill)."""
    return {
        "actions/step.yaml": to_yaml(
            {
                "schema": "agent-graph.action.v1",
                "id": "step",
                "runner": "command",
                "effect": "write",
                "command": "make step",
            }
        ),
        "actions/check.yaml": to_yaml(
            {
                "schema": "agent-graph.action.v1",
                "id": "check",
                "runner": "script",
                "effect": "read",
                "runtime": "python",
                "entry": "scripts/check.py",
                "args": ["--strict"],
                "cwd": "provider",
            }
        ),
        "actions/write.yaml": to_yaml(
            {
                "schema": "agent-graph.action.v1",
                "id": "write",
                "runner": "agent",
                "effect": "write",
                "skill": "skills/writer/SKILL.md",
                "outputSchema": "schemas/write-output.schema.json",
            }
        ),
        "actions/publish.yaml": to_yaml(
            {
                "schema": "agent-graph.action.v1",
                "id": "publish",
                "runner": "host",
                "effect": "external",
                "handler": "host.publish",
            }
        ),
        "actions/inspect.yaml": to_yaml(
            {
                "schema": "agent-graph.action.v1",
                "id": "inspect",
                "runner": "command",
                "effect": "read",
                "command": "git status",
            }
        ),
        "actions/resolve.yaml": to_yaml(
            {
                "schema": "agent-graph.action.v1",
                "id": "resolve",
                "runner": "host",
                "effect": "write",
                "handler": "gate.record",
            }
        ),
        "scripts/check.py": "print('ok')\n",
        "schemas/write-output.schema.json": _json(
            {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "required": ["path"]}
        ),
        "skills/writer/SKILL.md": front_matter(
            {"name": "writer", "description": "Writes one part."}, "# Writer\n"
        ),
        "skills/writer/reference.md": "# Reference\n",
        "resources/procedure.md": front_matter(
            {"id": "procedure.step", "kind": "procedure", "media-type": "text/markdown"}, "# Procedure\n"
        ),
        "resources/template.md": front_matter({"id": "template.step", "kind": "template"}, "# Template\n"),
    }


_ACTIONS = ("actions/step.yaml", "actions/check.yaml", "actions/write.yaml", "actions/publish.yaml")


def _action_node(node_id: str, index: int, fact: str | None, **extra: Any) -> dict[str, Any]:
    node: dict[str, Any] = {
        "id": node_id,
        "kind": "action",
        "description": f"Step {node_id}",
        "reasonCode": "route.step",
        "action": _ACTIONS[index % len(_ACTIONS)],
    }
    if index % 5 == 0:
        node["resources"] = {"required": ["resources/procedure.md"], "recommended": ["resources/template.md"]}
    if fact is not None:
        node["satisfiedBy"] = [{"path": fact, "exists": True}]
    node.update(extra)
    return node


def _graph_text(graph: dict[str, Any], fmt: str) -> str:
    if fmt == "json":  # compact: a 100,000-node graph stays well under the 32 MiB file limit
        return json.dumps(graph, separators=(",", ":"), ensure_ascii=False) + "\n"
    return to_yaml(graph)


def _graph(
    graph_id: str, entry: str, nodes: list[dict[str, Any]], edges: list[dict[str, Any]]
) -> dict[str, Any]:
    """A Graph document with one entry, ``default``, at ``entry``."""
    return {
        "schema": "agent-graph.graph.v1",
        "id": graph_id,
        "entrypoints": {"default": entry},
        "nodes": nodes,
        "edges": edges,
    }


def _one_graph_provider(provider_id: str, graph: dict[str, Any], fmt: str) -> dict[str, str]:
    """The files every synthetic Provider has, ``graph`` (its one Graph) in ``fmt``, and the manifest."""
    path = f"graphs/{graph['id']}.{'json' if fmt == 'json' else 'yaml'}"
    files = _common_files()
    files[path] = _graph_text(graph, fmt)
    files["provider.yaml"] = _manifest(provider_id, [path])
    return files


def _set_path(facts: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split(".")
    current = facts
    for part in parts[:-1]:
        current = current.setdefault(part, {})
    current[parts[-1]] = value


def chain(n: int, fmt: str = "json") -> Workload:
    """An ``n``-node chain (``n - 1`` Actions, one terminal), the first half satisfied by facts."""
    steps = n - 1
    nodes = [_action_node(f"n{i}", i, f"steps.n{i}") for i in range(steps)]
    nodes.append({"id": "end", "kind": "terminal", "description": "Done", "terminalOutcome": "completed"})
    edges = [{"from": f"n{i}", "to": f"n{i + 1}"} for i in range(steps - 1)]
    edges.append({"from": f"n{steps - 1}", "to": "end"})
    graph = _graph("main", "n0", nodes, edges)
    files = _one_graph_provider("bench.chain", graph, fmt)
    facts = {"steps": {f"n{i}": True for i in range(steps // 2)}}
    return Workload(f"chain-{n}", files, "main", facts=facts, nodes=n)


def layered(n: int, width: int = 10, fmt: str = "json") -> Workload:
    """A layered DAG of about ``n`` nodes: ``width`` nodes per layer, each joining two parents."""
    layers = max(1, (n - 2) // width)
    nodes: list[dict[str, Any]] = [_action_node("start", 0, "dag.start")]
    edges: list[dict[str, Any]] = []
    half = layers // 2
    facts: dict[str, Any] = {"dag": {"start": True}}
    for layer in range(layers):
        for column in range(width):
            node_id = f"l{layer}c{column}"
            fact = f"dag.l{layer}c{column}"
            node = _action_node(
                node_id, layer * width + column, fact, join="any" if column % 2 == 0 else "all"
            )
            node["priority"] = column % 3
            nodes.append(node)
            if layer < half:
                facts["dag"][node_id] = True
            if layer == 0:
                edges.append({"from": "start", "to": node_id})
            else:
                edges.append({"from": f"l{layer - 1}c{column}", "to": node_id})
                edges.append({"from": f"l{layer - 1}c{(column + 1) % width}", "to": node_id})
    nodes.append(
        {
            "id": "end",
            "kind": "terminal",
            "description": "Done",
            "join": "all",
            "terminalOutcome": "completed",
        }
    )
    edges.extend({"from": f"l{layers - 1}c{c}", "to": "end"} for c in range(width))
    graph = _graph("dag", "start", nodes, edges)
    files = _one_graph_provider("bench.layered", graph, fmt)
    return Workload(f"layered-{n}", files, "dag", facts=facts, nodes=len(nodes))


def fanout(n: int, fmt: str = "json") -> Workload:
    """One start step and ``n - 2`` alternatives (Actions and delegatable Gates) joining one terminal."""
    nodes: list[dict[str, Any]] = [_action_node("start", 0, "fan.start")]
    edges: list[dict[str, Any]] = []
    for i in range(n - 2):
        node_id = f"alt{i}"
        if i % 3 == 2:
            node: dict[str, Any] = {
                "id": node_id,
                "kind": "gate",
                "description": f"Approve {node_id}",
                "reasonCode": "route.approve",
                "priority": i % 7,
                "gate": {
                    "id": f"gate-{i}",
                    "prompt": "Approve?",
                    "authority": f"team.a{i % 4}",
                    "delegatable": True,
                },
                "inspectionAction": "actions/inspect.yaml",
                "resolutionAction": "actions/resolve.yaml",
                "resources": {"required": ["resources/procedure.md"]},
            }
        else:
            node = _action_node(node_id, i, None, priority=i % 7)
        nodes.append(node)
        edges.append({"from": "start", "to": node_id})
        edges.append({"from": node_id, "to": "end"})
    nodes.append(
        {
            "id": "end",
            "kind": "terminal",
            "description": "Done",
            "join": "any",
            "terminalOutcome": "completed",
        }
    )
    graph = _graph("fan", "start", nodes, edges)
    files = _one_graph_provider("bench.fanout", graph, fmt)
    return Workload(
        f"fanout-{n}",
        files,
        "fan",
        facts={"fan": {"start": True}},
        authorities=["team.a1", "team.a3"],
        nodes=n,
    )


def _tree_graph(index: int, count: int, size: int) -> dict[str, Any]:
    children = [c for c in (2 * index + 1, 2 * index + 2) if c < count]
    steps = size - 1 - len(children)
    nodes = [_action_node(f"s{i}", i, f"g{index}.s{i}") for i in range(steps)]
    order = [f"s{i}" for i in range(steps)]
    for child in children:
        nodes.append({"id": f"call{child}", "kind": "subgraph", "graph": f"g{child}", "entry": "default"})
        order.append(f"call{child}")
    nodes.append({"id": "end", "kind": "terminal", "terminalOutcome": "completed"})
    order.append("end")
    edges = [{"from": a, "to": b} for a, b in itertools.pairwise(order)]
    return _graph(f"g{index}", order[0], nodes, edges)


def nested(n: int, size: int = 10, fmt: str = "json") -> Workload:
    """About ``n`` nodes in graphs of ``size`` nodes calling each other as a binary tree of Subgraphs.

    Every step is satisfied except in the last graph (the deepest on the
    right), so evaluation walks nearly every frame and offers that graph's first step.
    """
    count = max(1, n // size)
    files = _common_files()
    extension = "json" if fmt == "json" else "yaml"
    graphs = []
    facts: dict[str, Any] = {}
    total = 0
    for index in range(count):
        graph = _tree_graph(index, count, size)
        total += len(graph["nodes"])
        path = f"graphs/g{index}.{extension}"
        files[path] = _graph_text(graph, fmt)
        graphs.append(path)
        if index < count - 1:
            facts[f"g{index}"] = {node["id"]: True for node in graph["nodes"] if node["kind"] == "action"}
    files["provider.yaml"] = _manifest("bench.nested", graphs)
    return Workload(f"nested-{n}", files, "g0", facts=facts, nodes=total)


def deep(depth: int) -> Workload:
    """``depth`` graphs in a line, each calling the next as a Subgraph; all steps pending."""
    files = _common_files()
    graphs = []
    for index in range(depth):
        nodes: list[dict[str, Any]] = [_action_node("work", index, f"d{index}.work")]
        if index + 1 < depth:
            nodes.insert(0, {"id": "call", "kind": "subgraph", "graph": f"d{index + 1}", "entry": "default"})
            edges = [{"from": "call", "to": "work"}, {"from": "work", "to": "end"}]
        else:
            edges = [{"from": "work", "to": "end"}]
        nodes.append({"id": "end", "kind": "terminal", "terminalOutcome": "completed"})
        graph = _graph(f"d{index}", nodes[0]["id"], nodes, edges)
        path = f"graphs/d{index}.json"
        files[path] = _json(graph)
        graphs.append(path)
    files["provider.yaml"] = _manifest("bench.deep", graphs)
    return Workload(f"deep-{depth}", files, "d0", nodes=3 * depth)


# --------------------------------------------------------------------------- facts


def large_facts(size: int = 1_000_000, seed: int = 7, *, mixed: bool = False) -> dict[str, Any]:
    """About ``size`` bytes of canonical JSON: records with strings, numbers, flags, lists and nesting.

    By default the facts look as they arrive from JSON text: snake_case ASCII
    keys, integers, and floats with a fractional part. ``mixed=True`` adds what
    only Python-built facts hold: capitalised keys that collate differently
    from their code points, and integral floats such as ``12.0``.
    """
    rng = random.Random(seed)
    words = [
        "alpha",
        "beta",
        "gamma",
        "delta",
        "epsilon",
        "zeta",
        "eta",
        "theta",
        "release",
        "build",
        "check",
    ]
    records: dict[str, Any] = {}
    written = 0
    index = 0
    while written < size:
        score: float = round(rng.random() * 100, 3)
        if score.is_integer() and not mixed:
            score += 0.5
        record = {
            "id": f"item-{index:06d}",
            "title": " ".join(rng.choice(words) for _ in range(6)),
            "status": rng.choice(["open", "done", "blocked", "review"]),
            "score": float(index % 50) if mixed and index % 10 == 0 else score,
            "count": rng.randrange(1_000_000),
            "ok": rng.random() < 0.5,
            "tags": [rng.choice(words) for _ in range(3)],
            "owner": {
                "name": rng.choice(words).title(),
                "team": rng.choice(words),
                "since": 2020 + index % 6,
            },
            "note": None if index % 3 else "needs a second look",
        }
        word = rng.choice(words)
        key = f"{word.title() if mixed and index % 7 == 0 else word}_{index}"
        records[key] = record
        written += len(json.dumps(record, separators=(",", ":"))) + len(key) + 4
        index += 1
    return {"inventory": records, "summary": {"items": index, "source": "benchmark"}}


# --------------------------------------------------------------------------- the realistic Provider

_RUNNERS = ("command", "script", "agent", "host")


def _realistic_stages() -> list[list[tuple[str, str]]]:
    """Stages of the main graph: (node id, kind) in each; consecutive stages are fully connected."""
    return [
        [("intake", "agent")],
        [("triage", "agent")],
        [("plan", "agent")],
        [("approve-plan", "gate")],
        [("freeze", "command")],
        [("branch", "command")],
        [("bump-version", "script"), ("update-deps", "command")],
        [("build", "subgraph:build"), ("docs", "agent"), ("changelog", "agent")],
        [("assemble", "script")],
        [("verify", "subgraph:verify")],
        [("license-check", "script"), ("sbom", "command")],
        [("poll-ci", "host")],
        [("release-notes", "agent"), ("draft-blog", "agent")],
        [("notes-review", "gate")],
        [("tag", "command")],
        [("sign", "script")],
        [("upload", "host")],
        [("approve-release", "gate")],
        [("publish", "host")],
        [("announce", "command"), ("update-docs-site", "script")],
        [("notify-partners", "host")],
        [("close-milestone", "host")],
        [("cleanup", "command")],
        [("archive", "command")],
        [("done", "terminal")],
    ]


def realistic() -> Workload:
    """A 45-node release workflow in three graphs, 136 files, mid-workflow (about 40 facts)."""
    files: Files = {}
    codes: list[dict[str, Any]] = []
    skills = ["triage", "planner", "writer", "reviewer", "release-notes", "docs"]
    for name in skills:
        base = f"skills/{name}"
        files[f"{base}/SKILL.md"] = front_matter(
            {"name": name, "description": f"The {name} skill: how to do this part of a release well."},
            f"# {name.title()}\n\nUse the references below. Write results as facts.\n\n"
            + "".join(f"- Rule {i}: keep the change small and reviewable.\n" for i in range(12)),
        )
        files[f"{base}/references/guide.md"] = f"# {name} guide\n\n" + "Details.\n" * 20
        files[f"{base}/references/examples.md"] = f"# {name} examples\n\n" + "Example.\n" * 20
        if name != "docs":
            files[f"{base}/templates/output.md"] = "# Output\n\n- summary:\n- evidence:\n"

    def add_action(action_id: str, runner: str, effect: str, skill: str | None = None) -> str:
        action: dict[str, Any] = {
            "schema": "agent-graph.action.v1",
            "id": action_id,
            "description": f"{action_id.replace('-', ' ').capitalize()} for the current release.",
            "runner": runner,
            "effect": effect,
        }
        if runner == "command":
            action["command"] = f"make {action_id}"
        elif runner == "script":
            action.update(
                {"runtime": "python", "entry": f"scripts/{action_id}.py", "args": ["--release", "current"]}
            )
            files[f"scripts/{action_id}.py"] = f"# {action_id}\nimport sys\nprint('ok', sys.argv[1:])\n"
        elif runner == "agent":
            action["skill"] = f"skills/{skill or 'writer'}/SKILL.md"
            action["inputSchema"] = f"schemas/{action_id}.input.schema.json"
            action["outputSchema"] = f"schemas/{action_id}.output.schema.json"
            for direction in ("input", "output"):
                files[f"schemas/{action_id}.{direction}.schema.json"] = _json(
                    {
                        "$schema": "http://json-schema.org/draft-07/schema#",
                        "type": "object",
                        "properties": {
                            "release": {"type": "string"},
                            "notes": {"type": "array", "items": {"type": "string"}},
                        },
                        "required": ["release"],
                    }
                )
        else:
            action["handler"] = f"release.{action_id}"
        path = f"actions/{action_id}.yaml"
        files[path] = to_yaml(action)
        return path

    resource_index = 0

    def add_resource(kind: str) -> str:
        nonlocal resource_index
        resource_index += 1
        rid = f"{kind}.r{resource_index}"
        path = f"resources/{kind}-{resource_index}.md"
        files[path] = front_matter(
            {"id": rid, "kind": kind, "media-type": "text/markdown"},
            f"# {kind.title()} {resource_index}\n\n" + "Follow these steps carefully.\n" * 8,
        )
        return path

    templates: list[str] = []

    def template(index: int) -> str:
        """Templates are shared: three of them serve every node."""
        if len(templates) < 3:
            templates.append(add_resource("template"))
        return templates[index % len(templates)]

    def node_for(graph: str, node_id: str, kind: str, index: int) -> dict[str, Any]:
        code = f"route.{graph}.{node_id}"
        if kind == "terminal":
            return {
                "id": node_id,
                "kind": "terminal",
                "description": "Released",
                "join": "any",
                "terminalOutcome": "completed",
            }
        if kind.startswith("subgraph:"):
            return {
                "id": node_id,
                "kind": "subgraph",
                "description": f"Run the {node_id} stage",
                "graph": kind[9:],
                "entry": "default",
            }
        document = add_resource("diagnostic") if index % 4 == 0 else None
        entry: dict[str, Any] = {
            "code": code,
            "kind": "route-reason",
            "summary": f"{node_id} has not happened yet.",
        }
        if document:
            entry["document"] = document
        codes.append(entry)
        node: dict[str, Any] = {
            "id": node_id,
            "kind": kind,
            "description": node_id.replace("-", " ").capitalize(),
            "reasonCode": code,
        }
        if kind == "gate":
            node["kind"] = "gate"
            node["gate"] = {
                "id": f"{graph}-{node_id}",
                "prompt": f"Approve {node_id.replace('-', ' ')}?",
                "authority": f"release.{node_id}",
                "delegatable": True,
            }
            node["inspectionAction"] = add_action(f"{graph}-{node_id}-inspect", "command", "read")
            node["resolutionAction"] = add_action(f"{graph}-{node_id}-record", "host", "write")
            node["delegated"] = {
                "inspection": "skip",
                "resources": {"required": [add_resource("procedure")], "recommended": []},
            }
            node["resources"] = {"required": [add_resource("procedure")], "recommended": [template(index)]}
            node["satisfiedBy"] = [{"path": f"{graph}.{node_id}.approved", "equals": True}]
            return node
        skill = skills[index % len(skills)]
        effect = (
            "read" if kind == "script" and index % 3 == 0 else ("external" if kind == "host" else "write")
        )
        node["action"] = add_action(f"{graph}-{node_id}", {"agent": "agent"}.get(kind, kind), effect, skill)
        node["kind"] = "action"
        if index % 3 == 0:
            node["resources"] = {"required": [add_resource("procedure")], "recommended": [template(index)]}
        node["satisfiedBy"] = [{"path": f"{graph}.{node_id}.done", "equals": True}]
        if index % 5 == 3:
            node["requiresFacts"] = [{"path": "meta.version", "exists": True}]
        return node

    def stage_graph(graph_id: str, description: str, stages: list[list[tuple[str, str]]]) -> dict[str, Any]:
        nodes: list[dict[str, Any]] = []
        edges: list[dict[str, Any]] = []
        index = 0
        for stage in stages:
            for node_id, kind in stage:
                nodes.append(node_for(graph_id, node_id, kind, index))
                index += 1
        for before, after in itertools.pairwise(stages):
            for source, source_kind in before:
                for target, _ in after:
                    edge: dict[str, Any] = {"from": source, "to": target}
                    if source_kind == "gate":
                        edge["kind"] = "gatedBy"
                    edges.append(edge)
        return {
            "schema": "agent-graph.graph.v1",
            "id": graph_id,
            "description": description,
            "entrypoints": {"default": stages[0][0][0]},
            "nodes": nodes,
            "edges": edges,
        }

    main = stage_graph("release", "Cut, verify, approve and publish one release.", _realistic_stages())
    main["nodes"].append(
        {"id": "abandoned", "kind": "terminal", "description": "Abandoned", "terminalOutcome": "failed"}
    )
    main["edges"].append({"from": "approve-plan", "to": "abandoned", "outcomes": ["failed"]})
    main["edges"].append({"from": "poll-ci", "to": "poll-ci", "kind": "repeat", "outcomes": ["partial"]})
    build = stage_graph(
        "build",
        "Compile, test and package.",
        [
            [("compile", "command")],
            [("unit-tests", "script"), ("lint", "command"), ("typecheck", "command")],
            [("integration-tests", "script")],
            [("package", "command")],
            [("built", "terminal")],
        ],
    )
    verify = stage_graph(
        "verify",
        "Check the packaged release.",
        [
            [("smoke", "script")],
            [("security-scan", "host"), ("fuzz", "command")],
            [("review-findings", "agent")],
            [("sign-off", "gate")],
            [("verified", "terminal")],
        ],
    )
    graph_paths = []
    for graph in (main, build, verify):
        path = f"graphs/{graph['id']}.yaml"
        files[path] = to_yaml(graph, header=f"The {graph['id']} graph.")
        graph_paths.append(path)

    # Descriptor resources and dynamic resources, attached to the first actions.
    extra_required = []
    for i in range(2):
        files[f"resources/data-{i}.yaml"] = to_yaml(
            {
                "schema": "agent-graph.resource.file.v1",
                "id": f"data.release-matrix-{i}",
                "kind": "template",
                "mediaType": "application/json",
                "path": f"resources/data/matrix-{i}.json",
            }
        )
        files[f"resources/data/matrix-{i}.json"] = _json(
            {"platforms": ["linux", "macos", "windows"], "index": i}
        )
        extra_required.append(f"resources/data-{i}.yaml")
    files["resources/ci-status.yaml"] = to_yaml(
        {
            "schema": "agent-graph.resource.graph-action.v1",
            "id": "view.ci-status",
            "kind": "context-view",
            "mediaType": "application/json",
            "materializer": "actions/materialize-ci-status.yaml",
        }
    )
    files["actions/materialize-ci-status.yaml"] = to_yaml(
        {
            "schema": "agent-graph.action.v1",
            "id": "materialize-ci-status",
            "runner": "command",
            "effect": "read",
            "command": "ci status --json",
        }
    )
    files["resources/open-issues.yaml"] = to_yaml(
        {
            "schema": "agent-graph.resource.host-action.v1",
            "id": "view.open-issues",
            "kind": "context-view",
            "mediaType": "application/json",
            "materializer": "actions/materialize-open-issues.yaml",
            "input": {
                "schema": "release.issue-query/v1",
                "value": {"milestone": "next", "labels": ["blocker"]},
            },
        }
    )
    files["actions/materialize-open-issues.yaml"] = to_yaml(
        {
            "schema": "agent-graph.action.v1",
            "id": "materialize-open-issues",
            "runner": "host",
            "effect": "read",
            "handler": "issues.query",
            "inputSchema": "schemas/issue-query.schema.json",
            "outputSchema": "schemas/issue-list.schema.json",
        }
    )
    files["schemas/issue-query.schema.json"] = _json(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "$id": "release.issue-query/v1",
            "type": "object",
            "properties": {
                "milestone": {"type": "string"},
                "labels": {"type": "array", "items": {"type": "string"}},
            },
            "required": ["milestone"],
            "additionalProperties": False,
        }
    )
    files["schemas/issue-list.schema.json"] = _json(
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "$id": "release.issue-list/v1",
            "type": "array",
        }
    )
    extra_required += ["resources/ci-status.yaml", "resources/open-issues.yaml"]
    for node in main["nodes"]:
        if node["id"] in ("assemble", "poll-ci", "release-notes"):
            node.setdefault("resources", {"required": [], "recommended": []})
            node["resources"]["required"] = list(node["resources"].get("required", [])) + extra_required
    files["graphs/release.yaml"] = to_yaml(main, header="The release graph.")

    files["codes.yaml"] = to_yaml({"schema": "agent-graph.code-catalog.v1", "codes": codes})
    files["provider.yaml"] = _manifest("acme.release", graph_paths, catalog=True)
    files["README.md"] = "# acme.release\n\nA release workflow.\n"

    # Mid-workflow: the first half of the release graph is done, build is done, verify has started.
    facts: dict[str, Any] = {
        "meta": {"version": "2.4.0", "branch": "release/2.4", "milestone": "2.4", "owner": "release-bot"},
        "repo": {"name": "acme/app", "default_branch": "main", "ci": "https://ci.example/acme/app"},
    }
    done_release = [
        "intake",
        "triage",
        "plan",
        "freeze",
        "branch",
        "bump-version",
        "update-deps",
        "docs",
        "changelog",
        "assemble",
    ]
    for node_id in done_release:
        _set_path(facts, f"release.{node_id}.done", True)
        _set_path(facts, f"release.{node_id}.at", "2026-11-01T10:00:00Z")
    _set_path(facts, "release.approve-plan.approved", True)
    for node_id in ("compile", "unit-tests", "lint", "typecheck", "integration-tests", "package"):
        _set_path(facts, f"build.{node_id}.done", True)
        _set_path(facts, f"build.{node_id}.artifact", f"dist/{node_id}.tar.gz")
    _set_path(facts, "verify.smoke.done", True)
    _set_path(facts, "verify.security-scan.done", True)
    _set_path(facts, "verify.security-scan.findings", 0)
    outcomes = {
        "release/poll-ci": {"outcome": "partial", "recordedAt": "2026-11-01T11:00:00Z"},
        "release/intake": "completed",
    }
    nodes = sum(len(g["nodes"]) for g in (main, build, verify))
    return Workload(
        "realistic",
        files,
        "release",
        facts=facts,
        outcomes=outcomes,
        authorities=["release.notes-review"],
        nodes=nodes,
    )


def count_facts(value: Any) -> int:
    """The number of leaf values in a facts object."""
    count = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            count += 1
    return count
