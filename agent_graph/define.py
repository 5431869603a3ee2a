"""Providers in typed Python: ``import agent_graph.define as agd``.

A builder declares a Provider's Graphs, nodes, edges, Actions, resources,
Skills, schemas and Code Catalog as Python objects and turns them into the
protocol's files, in one stable YAML form; the files stay the contract::

    import agent_graph.define as agd

    p = agd.provider("acme/notes")
    g = p.graph("main")
    work = g.action("work", agd.command("make notes", effect="write"), proof="notes.digest")
    work.to(g.terminal("done"))
    provider = p.load()          # an agent_graph.Provider, loaded from memory
    p.write("acme-notes")        # or the same files on disk

Outcomes, edge kinds, runners, effects and joins are ``Literal`` types, so a
type checker refuses ``on="done"``; a mistake found later (a node named by an
ID that does not exist, a file the loader refuses) is an
:class:`~agent_graph.AgentGraphError` located at your own ``file:line``.
:func:`from_provider` gives a builder back from a loaded Provider, keeping the
bytes of every file you do not change. See docs/authoring.md.
"""

from __future__ import annotations

from ._core.model import (
    Effect as Effect,
    Outcome as Outcome,
    Runner as Runner,
    WorkingDirectory as WorkingDirectory,
)
from ._load.define import (
    ActionDef as ActionDef,
    ActionNode as ActionNode,
    ActionOptions as ActionOptions,
    Check as Check,
    Checks as Checks,
    Code as Code,
    DelegatedPolicy as DelegatedPolicy,
    EdgeDef as EdgeDef,
    EdgeKind as EdgeKind,
    File as File,
    FileResourceDef as FileResourceDef,
    FlowKind as FlowKind,
    FrameOptions as FrameOptions,
    GateDef as GateDef,
    GateNode as GateNode,
    GraphActionResourceDef as GraphActionResourceDef,
    GraphBuilder as GraphBuilder,
    HostActionResourceDef as HostActionResourceDef,
    Join as Join,
    Markdown as Markdown,
    Node as Node,
    NodeKind as NodeKind,
    NodeOptions as NodeOptions,
    Outcomes as Outcomes,
    ProviderBuilder as ProviderBuilder,
    Resource as Resource,
    ResourceKind as ResourceKind,
    Runtime as Runtime,
    Scalar as Scalar,
    Schema as Schema,
    Site as Site,
    Skill as Skill,
    SubgraphNode as SubgraphNode,
    TerminalNode as TerminalNode,
    agent as agent,
    command as command,
    delegated as delegated,
    equals as equals,
    exists as exists,
    file as file,
    file_resource as file_resource,
    gate as gate,
    graph_action_resource as graph_action_resource,
    host as host,
    host_action_resource as host_action_resource,
    json_schema as json_schema,
    markdown as markdown,
    provider as provider,
    script as script,
    skill as skill,
)
from ._load.define_import import from_provider as from_provider

__all__ = [
    "ActionDef",
    "ActionNode",
    "ActionOptions",
    "Check",
    "Checks",
    "Code",
    "DelegatedPolicy",
    "EdgeDef",
    "EdgeKind",
    "Effect",
    "File",
    "FileResourceDef",
    "FlowKind",
    "FrameOptions",
    "GateDef",
    "GateNode",
    "GraphActionResourceDef",
    "GraphBuilder",
    "HostActionResourceDef",
    "Join",
    "Markdown",
    "Node",
    "NodeKind",
    "NodeOptions",
    "Outcome",
    "Outcomes",
    "ProviderBuilder",
    "Resource",
    "ResourceKind",
    "Runner",
    "Runtime",
    "Scalar",
    "Schema",
    "Site",
    "Skill",
    "SubgraphNode",
    "TerminalNode",
    "WorkingDirectory",
    "agent",
    "command",
    "delegated",
    "equals",
    "exists",
    "file",
    "file_resource",
    "from_provider",
    "gate",
    "graph_action_resource",
    "host",
    "host_action_resource",
    "json_schema",
    "markdown",
    "provider",
    "script",
    "skill",
]
