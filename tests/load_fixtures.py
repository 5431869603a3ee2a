"""A complete, valid Provider as editable data, for tests that break one thing at a time.

``base_documents()`` returns ``{relative path: document}``: a dict or list is a
structured document (written as JSON text, which is also YAML 1.2), a string is
written as is. Tests copy it, change one thing and load it from memory
(:func:`memory_fs`, :func:`load`) or from a real directory (:func:`write_tree`).
The base exercises every loader path: a Code Catalog with a document, two
Graphs with a Subgraph, command, script, agent and host Actions, a Gate with
inspection, resolution and a delegated policy, front-matter resources, a file
descriptor, and graph-action and host-action dynamic resources.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import agent_graph as ag

ROOT = "/p"
MANIFEST = f"{ROOT}/provider.yaml"

Documents = dict[str, Any]


def _markdown(header: str, body: str = "Body.\n") -> str:
    return f"---\n{header}---\n{body}"


_BASE: Documents = {
    "provider.yaml": {
        "schema": "agent-graph.provider.v1",
        "id": "acme/base",
        "version": "1.0.0",
        "graphs": ["graphs/main.yaml", "graphs/child.yaml"],
        "catalogs": {"codes": "codes.yaml"},
    },
    "codes.yaml": {
        "schema": "agent-graph.code-catalog.v1",
        "codes": [
            {
                "code": "route.main.build",
                "kind": "route-reason",
                "summary": "The build has not run.",
                "document": "resources/procedure.md",
            },
            {"code": "route.main.approve", "kind": "route-reason", "summary": "A release needs approval."},
            {"code": "route.main.write", "kind": "route-reason", "summary": "Notes need writing."},
            {"code": "route.main.run", "kind": "route-reason", "summary": "The script has not run."},
            {"code": "route.child.check", "kind": "route-reason", "summary": "The check has not run."},
            {
                "code": "diag.build-failed",
                "kind": "diagnostic",
                "summary": "The build failed.",
                "severity": "warning",
            },
        ],
    },
    "graphs/main.yaml": {
        "schema": "agent-graph.graph.v1",
        "id": "main",
        "description": "Build, approve, check, write and run.",
        "entrypoints": {"default": "build"},
        "nodes": [
            {
                "id": "build",
                "kind": "action",
                "description": "Build the release",
                "reasonCode": "route.main.build",
                "action": "actions/build.yaml",
                "resources": {
                    "required": ["resources/procedure.md"],
                    "recommended": ["resources/data.yaml", "resources/view.yaml", "resources/report.yaml"],
                },
                "satisfiedBy": [{"path": "build.digest", "exists": True}],
            },
            {
                "id": "approve",
                "kind": "gate",
                "reasonCode": "route.main.approve",
                "gate": {
                    "id": "release-approval",
                    "prompt": "Release?",
                    "authority": "release",
                    "delegatable": True,
                },
                "inspectionAction": "actions/inspect.yaml",
                "resolutionAction": "actions/apply.yaml",
                "delegated": {
                    "inspection": "skip",
                    "resolutionAction": "actions/accept.yaml",
                    "resources": {"required": ["resources/policy.md"], "recommended": []},
                },
            },
            {"id": "quality", "kind": "subgraph", "graph": "child", "entry": "default"},
            {
                "id": "write",
                "kind": "action",
                "reasonCode": "route.main.write",
                "action": "actions/write.yaml",
            },
            {
                "id": "run",
                "kind": "action",
                "reasonCode": "route.main.run",
                "priority": 5,
                "action": "actions/run.yaml",
            },
            {"id": "done", "kind": "terminal", "terminalOutcome": "completed"},
        ],
        "edges": [
            {"from": "build", "to": "approve"},
            {"from": "approve", "to": "quality", "kind": "gatedBy"},
            {"from": "quality", "to": "write"},
            {"from": "write", "to": "write", "kind": "repeat", "outcomes": ["partial"]},
            {"from": "write", "to": "run"},
            {"from": "run", "to": "done"},
        ],
    },
    "graphs/child.yaml": {
        "schema": "agent-graph.graph.v1",
        "id": "child",
        "entrypoints": {"default": "check"},
        "nodes": [
            {
                "id": "check",
                "kind": "action",
                "reasonCode": "route.child.check",
                "action": "actions/check.yaml",
            },
            {"id": "done", "kind": "terminal", "terminalOutcome": "completed"},
        ],
        "edges": [{"from": "check", "to": "done"}],
    },
    "actions/build.yaml": {
        "schema": "agent-graph.action.v1",
        "id": "build",
        "runner": "command",
        "effect": "write",
        "command": "make build",
    },
    "actions/inspect.yaml": {
        "schema": "agent-graph.action.v1",
        "id": "inspect",
        "runner": "command",
        "effect": "read",
        "command": "git diff",
    },
    "actions/apply.yaml": {
        "schema": "agent-graph.action.v1",
        "id": "apply",
        "runner": "command",
        "effect": "write",
        "command": "git tag v1",
    },
    "actions/accept.yaml": {
        "schema": "agent-graph.action.v1",
        "id": "accept",
        "runner": "command",
        "effect": "external",
        "command": "publish --accept",
    },
    "actions/write.yaml": {
        "schema": "agent-graph.action.v1",
        "id": "write",
        "runner": "agent",
        "effect": "write",
        "skill": "skills/writer/SKILL.md",
    },
    "actions/run.yaml": {
        "schema": "agent-graph.action.v1",
        "id": "run",
        "runner": "script",
        "effect": "write",
        "entry": "scripts/run.sh",
        "runtime": "shell",
        "args": ["--fast"],
        "inputSchema": "schemas/in.schema.json",
        "files": ["scripts/lib.sh"],
    },
    "actions/check.yaml": {
        "schema": "agent-graph.action.v1",
        "id": "check",
        "runner": "host",
        "effect": "read",
        "handler": "acme.check",
    },
    "actions/view-materializer.yaml": {
        "schema": "agent-graph.action.v1",
        "id": "view-materializer",
        "runner": "command",
        "effect": "read",
        "command": "cat status.txt",
    },
    "actions/report-materializer.yaml": {
        "schema": "agent-graph.action.v1",
        "id": "report-materializer",
        "runner": "host",
        "effect": "read",
        "handler": "acme.report",
        "inputSchema": "schemas/report-in.schema.json",
        "outputSchema": "schemas/report-out.schema.json",
    },
    "resources/procedure.md": _markdown("id: procedure.build\nkind: procedure\nmedia-type: text/markdown\n"),
    "resources/policy.md": _markdown("id: policy.delegation\nkind: procedure\n"),
    "resources/data.yaml": {
        "schema": "agent-graph.resource.file.v1",
        "id": "schema.data",
        "kind": "schema",
        "mediaType": "application/schema+json",
        "path": "resources/data.schema.json",
    },
    "resources/data.schema.json": {"type": "object"},
    "resources/view.yaml": {
        "schema": "agent-graph.resource.graph-action.v1",
        "id": "view.status",
        "kind": "context-view",
        "mediaType": "text/plain",
        "materializer": "actions/view-materializer.yaml",
    },
    "resources/report.yaml": {
        "schema": "agent-graph.resource.host-action.v1",
        "id": "report.weekly",
        "kind": "context-view",
        "mediaType": "application/json",
        "materializer": "actions/report-materializer.yaml",
        "input": {"schema": "acme.report-request/v1", "value": {"week": 3}},
    },
    "schemas/in.schema.json": {"type": "object"},
    "schemas/report-in.schema.json": {
        "$id": "acme.report-request/v1",
        "type": "object",
        "required": ["week"],
        "properties": {"week": {"type": "integer"}},
    },
    "schemas/report-out.schema.json": {"$id": "acme.report/v1", "type": "object"},
    "skills/writer/SKILL.md": _markdown("name: writer\ndescription: Writes the release notes.\n"),
    "skills/writer/style.md": "Short sentences.\n",
    "scripts/run.sh": "#!/bin/sh\necho run\n",
    "scripts/lib.sh": "helper() { :; }\n",
}


def base_documents() -> Documents:
    """A fresh, deep copy of the valid base Provider's documents."""
    return copy.deepcopy(_BASE)


def render(document: Any) -> bytes:
    """The bytes written for one document."""
    if isinstance(document, bytes):
        return document
    if isinstance(document, str):
        return document.encode("utf-8")
    return (json.dumps(document, indent=1) + "\n").encode("utf-8")


def memory_fs(
    documents: Documents, links: dict[str, str] | None = None, outside: Documents | None = None
) -> ag.MemoryFileSystem:
    """The documents under ``/p`` in memory.

    ``links`` maps Provider-relative link paths to their targets; ``outside``
    maps absolute paths (outside the root) to documents.
    """
    files = {f"{ROOT}/{path}": render(document) for path, document in documents.items()}
    files.update({path: render(document) for path, document in (outside or {}).items()})
    return ag.MemoryFileSystem(
        files, links={f"{ROOT}/{path}": target for path, target in (links or {}).items()}
    )


def load(
    documents: Documents,
    links: dict[str, str] | None = None,
    outside: Documents | None = None,
    **options: Any,
) -> ag.Provider:
    """Load the documents from memory."""
    return ag.load_provider(MANIFEST, fs=memory_fs(documents, links, outside), **options)


def write_tree(root: Path, documents: Documents) -> Path:
    """Write the documents below ``root``; returns the manifest path."""
    for path, document in documents.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(render(document))
    return root / "provider.yaml"


def node(documents: Documents, node_id: str, graph: str = "graphs/main.yaml") -> dict[str, Any]:
    """The node ``node_id`` of a graph document, for editing in place."""
    for item in documents[graph]["nodes"]:
        if item["id"] == node_id:
            result: dict[str, Any] = item
            return result
    raise KeyError(node_id)
