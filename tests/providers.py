"""Small in-memory Providers built from Python dicts, for evaluator and router tests.

A test writes its Graphs as plain dicts (the shorthand constructors below keep
them short), and :func:`build` writes them as JSON text into a
:class:`~agent_graph.MemoryFileSystem` under ``/p`` beside a standard set of
Actions, Skills, schemas and resources (:data:`STANDARD_FILES`), then loads the
Provider. Files a Graph does not reference are never read, so the standard set
costs nothing and never enters a digest.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import agent_graph as ag

ROOT = "/p"
MANIFEST = f"{ROOT}/provider.yaml"
PROVIDER_ID = "test.provider"
PROVIDER_VERSION = "1.2.3"

# Action files by the short name tests use (``action_node("a", "host")``).
CMD = "actions/cmd.yaml"
HOST = "actions/host.yaml"
SCRIPT = "actions/script.yaml"
AGENT = "actions/agent.yaml"
AGENT_NAMELESS = "actions/agent-nameless.yaml"
INSPECT = "actions/inspect.yaml"
APPLY = "actions/apply.yaml"
ACCEPT = "actions/accept.yaml"
PROVIDER_CMD = "actions/provider-cmd.yaml"
ACTIONS = {
    "cmd": CMD,
    "host": HOST,
    "script": SCRIPT,
    "agent": AGENT,
    "agent-nameless": AGENT_NAMELESS,
    "inspect": INSPECT,
    "apply": APPLY,
    "accept": ACCEPT,
    "provider-cmd": PROVIDER_CMD,
}


def _md(header: str, body: str = "Body.\n") -> str:
    return f"---\n{header}---\n{body}"


STANDARD_FILES: dict[str, Any] = {
    CMD: {
        "schema": "agent-graph.action.v1",
        "id": "cmd",
        "runner": "command",
        "effect": "write",
        "command": "make build",
    },
    PROVIDER_CMD: {
        "schema": "agent-graph.action.v1",
        "id": "provider-cmd",
        "runner": "command",
        "effect": "read",
        "command": "ls -la",
        "cwd": "provider",
    },
    HOST: {
        "schema": "agent-graph.action.v1",
        "id": "host",
        "runner": "host",
        "effect": "external",
        "handler": "host.publish",
    },
    SCRIPT: {
        "schema": "agent-graph.action.v1",
        "id": "script",
        "runner": "script",
        "effect": "read",
        "runtime": "python",
        "entry": "scripts/check.py",
        "args": ["--it's", "x y"],
        "cwd": "provider",
    },
    "actions/script-node.yaml": {
        "schema": "agent-graph.action.v1",
        "id": "script-node",
        "runner": "script",
        "effect": "read",
        "runtime": "node",
        "entry": "scripts/o'k.mjs",
    },
    "actions/script-bun.yaml": {
        "schema": "agent-graph.action.v1",
        "id": "script-bun",
        "runner": "script",
        "effect": "read",
        "runtime": "bun",
        "entry": "scripts/run.ts",
        "args": ["a"],
    },
    "actions/script-shell.yaml": {
        "schema": "agent-graph.action.v1",
        "id": "script-shell",
        "runner": "script",
        "effect": "write",
        "runtime": "shell",
        "entry": "scripts/run.sh",
        "args": ["", "''"],
        "cwd": "workspace",
    },
    AGENT: {
        "schema": "agent-graph.action.v1",
        "id": "agent",
        "runner": "agent",
        "effect": "write",
        "skill": "skills/worker/SKILL.md",
        "inputSchema": "schemas/in.schema.json",
        "outputSchema": "schemas/out.schema.json",
    },
    AGENT_NAMELESS: {
        "schema": "agent-graph.action.v1",
        "id": "agent-nameless",
        "runner": "agent",
        "effect": "write",
        "skill": "skills/plain/SKILL.md",
    },
    INSPECT: {
        "schema": "agent-graph.action.v1",
        "id": "inspect",
        "runner": "host",
        "effect": "read",
        "handler": "gate.inspect",
    },
    APPLY: {
        "schema": "agent-graph.action.v1",
        "id": "apply",
        "runner": "command",
        "effect": "write",
        "command": "apply-decision --id 1",
    },
    ACCEPT: {
        "schema": "agent-graph.action.v1",
        "id": "accept",
        "runner": "host",
        "effect": "write",
        "handler": "gate.accept",
    },
    "scripts/check.py": "print('ok')\n",
    "scripts/o'k.mjs": "console.log('ok')\n",
    "scripts/run.ts": "console.log('ok')\n",
    "scripts/run.sh": "echo ok\n",
    "schemas/in.schema.json": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"},
    "schemas/out.schema.json": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"},
    "skills/worker/SKILL.md": _md("name: worker\ndescription: Does the work.\n", "# Worker\n"),
    "skills/worker/notes.txt": "extra skill file\n",
    "skills/plain/SKILL.md": _md("description: No name here.\n", "# Plain\n"),
    "resources/procedure.md": _md("id: procedure.main\nkind: procedure\nmedia-type: text/markdown\n"),
    "resources/checklist.md": _md("id: checklist.main\nkind: template\n"),
    "resources/delegated.md": _md("id: procedure.delegated\nkind: procedure\n"),
}


# ------------------------------------------------------------------ node shorthands


def action_node(node_id: str, action: str = "cmd", **fields: Any) -> dict[str, Any]:
    """An action node; ``action`` is a short name of :data:`ACTIONS` or a path. Extra fields use wire names."""
    return {
        "id": node_id,
        "kind": "action",
        "reasonCode": f"route.{node_id}",
        "action": ACTIONS.get(action, action),
        **fields,
    }


def gate_node(
    node_id: str,
    *,
    authority: str | None = None,
    delegatable: bool | None = None,
    gate_id: str | None = None,
    prompt: str = "Decide?",
    **fields: Any,
) -> dict[str, Any]:
    """A gate node; ``authority`` and ``delegatable`` are written only when given."""
    gate: dict[str, Any] = {"id": gate_id or f"g-{node_id}", "prompt": prompt}
    if authority is not None:
        gate["authority"] = authority
    if delegatable is not None:
        gate["delegatable"] = delegatable
    return {"id": node_id, "kind": "gate", "reasonCode": f"route.{node_id}", "gate": gate, **fields}


def terminal_node(node_id: str, outcome: str = "completed", **fields: Any) -> dict[str, Any]:
    """A terminal node."""
    return {"id": node_id, "kind": "terminal", "terminalOutcome": outcome, **fields}


def subgraph_node(node_id: str, graph: str, entry: str = "default", **fields: Any) -> dict[str, Any]:
    """A node calling ``graph``/``entry``."""
    return {"id": node_id, "kind": "subgraph", "graph": graph, "entry": entry, **fields}


def edge(source: str, target: str, *outcomes: str, kind: str | None = None) -> dict[str, Any]:
    """An edge; no ``outcomes`` means the field is omitted (default ``[completed]``)."""
    result: dict[str, Any] = {"from": source, "to": target}
    if kind is not None:
        result["kind"] = kind
    if outcomes:
        result["outcomes"] = list(outcomes)
    return result


def repeat(source: str, target: str, *outcomes: str) -> dict[str, Any]:
    """A repeat edge."""
    return edge(source, target, *outcomes, kind="repeat")


def graph_doc(
    graph_id: str,
    nodes: Iterable[Mapping[str, Any]],
    edges: Iterable[Mapping[str, Any]] = (),
    entrypoints: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """A Graph document; the default entry is the first node."""
    node_list = [dict(n) for n in nodes]
    return {
        "schema": "agent-graph.graph.v1",
        "id": graph_id,
        "entrypoints": dict(entrypoints) if entrypoints is not None else {"default": node_list[0]["id"]},
        "nodes": node_list,
        "edges": [dict(e) for e in edges],
    }


def chain(graph_id: str, length: int, terminal_outcome: str = "completed") -> dict[str, Any]:
    """``n0 -> n1 -> … -> n{length-2}`` actions ending in a terminal ``n{length-1}``."""
    nodes = [action_node(f"n{i}") for i in range(length - 1)]
    nodes.append(terminal_node(f"n{length - 1}", terminal_outcome))
    return graph_doc(graph_id, nodes, [edge(f"n{i}", f"n{i + 1}") for i in range(length - 1)])


# ------------------------------------------------------------------ providers


def graph_path(graph_id: str) -> str:
    """Where :func:`files_for` writes a Graph."""
    return f"graphs/{graph_id}.json"


def _text(value: Any) -> str | bytes:
    if isinstance(value, (str, bytes)):
        return value
    return json.dumps(value, indent=1)


def files_for(
    graphs: Iterable[Mapping[str, Any]],
    *,
    extra: Mapping[str, Any] | None = None,
    codes: Mapping[str, str] | None = None,
    provider_id: str = PROVIDER_ID,
    version: str = PROVIDER_VERSION,
    root: str = ROOT,
    standard: bool = True,
) -> dict[str, str | bytes]:
    """Absolute path → file text for a Provider holding ``graphs`` (in manifest order).

    ``codes`` (reason code → summary) adds a Code Catalog; ``extra`` adds or
    replaces files (dicts and lists are written as JSON text).
    """
    graph_list = list(graphs)
    manifest: dict[str, Any] = {
        "schema": "agent-graph.provider.v1",
        "id": provider_id,
        "version": version,
        "graphs": [graph_path(g["id"]) for g in graph_list],
    }
    documents: dict[str, Any] = dict(STANDARD_FILES) if standard else {}
    if codes is not None:
        manifest["catalogs"] = {"codes": "codes.yaml"}
        documents["codes.yaml"] = {
            "schema": "agent-graph.code-catalog.v1",
            "codes": [{"code": c, "kind": "route-reason", "summary": s} for c, s in codes.items()],
        }
    for g in graph_list:
        documents[graph_path(g["id"])] = g
    documents["provider.yaml"] = manifest
    documents.update(extra or {})
    return {f"{root}/{path}": _text(value) for path, value in documents.items()}


def load(files: Mapping[str, str | bytes], root: str = ROOT) -> ag.Provider:
    """Load the Provider whose manifest is ``<root>/provider.yaml`` from ``files``."""
    return ag.load_provider(f"{root}/provider.yaml", fs=ag.MemoryFileSystem(files))


def build(*graphs: Mapping[str, Any], **options: Any) -> ag.Provider:
    """Load a Provider holding ``graphs``; keyword options as for :func:`files_for`."""
    return load(files_for(graphs, **options), options.get("root", ROOT))
