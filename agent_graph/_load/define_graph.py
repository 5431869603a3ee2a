"""Graphs and a Provider declared in Python: nodes, edges, entries, the Code Catalog and extra files.

:class:`GraphBuilder` declares the nodes and edges of one Graph, checking at once what the builder
can say better than the loader (a node named twice, an edge to a node of another Graph, an outcome
a node cannot have); :class:`ProviderDeclarations` holds the Graphs, codes, files and entry Skills of
one Provider. :class:`~agent_graph._load.define.ProviderBuilder` adds the files they make
(:mod:`agent_graph._load.define_render`). No I/O.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal, TypedDict, TypeVar, cast, overload

from .._core.errors import did_you_mean, listing
from .._core.model import Outcome
from .define_objects import (
    _RESOURCE_TYPES,
    ActionDef,
    Check,
    Checks,
    DelegatedPolicy,
    EdgeKind,
    File,
    FlowKind,
    GateDef,
    Join,
    Outcomes,
    Resource,
    Site,
    Skill,
    _action_arg,
    _caller,
    _check_relative,
    _checks,
    _error,
    _Origin,
    _resources_arg,
    _wrong_type,
)

if TYPE_CHECKING:
    from typing_extensions import Unpack
else:
    from .define_objects import Unpack

# ---------------------------------------------------------------- nodes and edges


class FrameOptions(TypedDict, total=False):
    """What every node may have: a description, a join rule, a priority and Facts it requires."""

    description: str
    #: ``all`` (the default): every incoming edge must match; ``any``: one is enough.
    join: Join
    #: Ranks routes legal at the same time (-1000 to 1000, higher first; default 0).
    priority: int
    #: Checks that must hold for the node to be legal (``requiresFacts``).
    requires_facts: Checks


class NodeOptions(FrameOptions, total=False):
    """What an Action or a Gate node may also have (a Subgraph or a terminal node may not)."""

    #: The reason code (default ``route.<graph>.<node>``).
    reason: str
    #: The checks that prove the node done (``satisfiedBy``).
    proof: Checks
    #: The resources its route asks the Agent to read, and those it recommends.
    required: Sequence[Resource]
    recommended: Sequence[Resource]


_NODE_OPTIONS = frozenset(NodeOptions.__annotations__)
_FRAME_OPTIONS = frozenset(FrameOptions.__annotations__)


def _node_fields(options: Any, site: Site | None, *, routed: bool = True) -> dict[str, Any]:
    """The fields of a node from its keyword options (``argument-invalid`` for one it does not take).

    ``routed``: an Action or a Gate node, which also takes :class:`NodeOptions`.
    """
    allowed = _NODE_OPTIONS if routed else _FRAME_OPTIONS
    unknown = options.keys() - allowed
    if unknown:
        which = "An Action or a Gate" if routed else "A Subgraph or a terminal"
        raise _error(
            "argument-invalid",
            f"{which} node takes no option {', '.join(sorted(unknown))}{did_you_mean(min(unknown), allowed)}; "
            f"its options: {', '.join(sorted(allowed))}",
            site,
        )
    fields: dict[str, Any] = {
        "description": options.get("description"),
        "priority": options.get("priority"),
        "join": options.get("join"),
        "requires_facts": _checks(options.get("requires_facts"), "requires_facts", site),
        "_site": site,
    }
    if routed:
        fields["reason"] = options.get("reason")
        fields["proof"] = _checks(options.get("proof"), "proof", site)
        fields["required"] = _resources_arg(options.get("required"), "required", site)
        fields["recommended"] = _resources_arg(options.get("recommended"), "recommended", site)
    return fields


@dataclasses.dataclass(eq=False)
class _NodeBase:
    id: str
    graph: GraphBuilder = dataclasses.field(repr=False)
    description: str | None = None
    priority: int | None = None
    join: Join | None = None
    reason: str | None = None
    requires_facts: list[Check] | None = None
    proof: list[Check] | None = None
    required: list[Resource] | None = None
    recommended: list[Resource] | None = None
    _site: Site | None = dataclasses.field(default=None, repr=False)


N = TypeVar("N", "ActionNode", "GateNode", "SubgraphNode", "TerminalNode")
A = TypeVar("A", "ActionNode", "GateNode")


class _Source(_NodeBase):
    """A node edges may start at (every kind but a terminal)."""

    @overload
    def to(self, target: A, *, kind: Literal["repeat"], on: Outcomes | None = None) -> A: ...
    @overload
    def to(self, target: N, *, kind: FlowKind | None = None, on: Outcomes | None = None) -> N: ...
    def to(self, target: Any, *, kind: Any = None, on: Outcomes | None = None) -> Any:
        """Add an edge from this node to ``target`` (on ``on``, default ``completed``) and answer ``target``.

        ``a.to(b).to(c)`` chains; ``kind`` records intent (``flow`` by default,
        ``repeat`` re-arms ``target``).
        """
        self.graph._add_edge(self, target, kind, on, _caller())
        return target


@dataclasses.dataclass(eq=False)
class ActionNode(_Source):
    """An Action node: ``action`` runs when the node is pending and reached."""

    action: ActionDef = dataclasses.field(kw_only=True, repr=False)
    kind: Literal["action"] = "action"


@dataclasses.dataclass(eq=False)
class GateNode(_Source):
    """A Gate node: the user (or a session holding a delegatable authority) decides."""

    gate: GateDef = dataclasses.field(kw_only=True)
    inspection: ActionDef | None = None
    resolution: ActionDef | None = None
    delegated: DelegatedPolicy | None = None
    kind: Literal["gate"] = "gate"

    @overload
    def to(self, target: A, *, kind: Literal["repeat"], on: Outcomes | None = None) -> A: ...
    @overload
    def to(
        self, target: N, *, kind: FlowKind | Literal["gatedBy"] | None = None, on: Outcomes | None = None
    ) -> N: ...
    def to(self, target: Any, *, kind: Any = None, on: Outcomes | None = None) -> Any:
        """Add an edge from this Gate to ``target`` (``kind="gatedBy"``: the Gate resolves its policy boundary)."""
        self.graph._add_edge(self, target, kind, on, _caller())
        return target


@dataclasses.dataclass(eq=False)
class SubgraphNode(_Source):
    """A Subgraph node: runs ``target``'s ``entry``; its outcome is the one that Graph ends with."""

    target: GraphBuilder | str = dataclasses.field(kw_only=True)
    entry: str = "default"
    kind: Literal["subgraph"] = "subgraph"


@dataclasses.dataclass(eq=False)
class TerminalNode(_NodeBase):
    """A terminal node: reaching it ends the frame with ``outcome``."""

    outcome: Outcome = "completed"
    kind: Literal["terminal"] = "terminal"


Node = ActionNode | GateNode | SubgraphNode | TerminalNode
_NODE_TYPES = (ActionNode, GateNode, SubgraphNode, TerminalNode)
_EDGE_KINDS = ("flow", "consumes", "requires", "gatedBy", "repeat")
_OUTCOMES = ("completed", "partial", "failed", "unverified", "skipped", "pending", "blocked", "waiting-user")


@dataclasses.dataclass(eq=False)
class EdgeDef:
    """An edge: ``source`` to ``target`` (nodes, or node IDs checked when the Provider is built)."""

    source: Node | str
    target: Node | str
    kind: EdgeKind | None = None
    outcomes: list[Outcome] | None = None
    _site: Site | None = dataclasses.field(default=None, repr=False)


@dataclasses.dataclass(eq=False)
class Code:
    """A Code Catalog entry: a reason code (``route-reason``) or a product ``diagnostic``, with its summary."""

    code: str
    summary: str
    kind: Literal["route-reason", "diagnostic"] = "route-reason"
    severity: Literal["info", "warning", "error"] | None = None
    document: Resource | None = None
    _site: Site | None = dataclasses.field(default=None, repr=False)


class GraphBuilder:
    """One Graph: its nodes in order, its edges in order and its entrypoints.

    Nodes are declared with :meth:`action`, :meth:`gate`, :meth:`subgraph` and
    :meth:`terminal`, which answer the node; edges with :meth:`edge` or a
    node's ``to``. Without :meth:`entry`, the first node declared is the
    ``default`` entry.
    """

    def __init__(
        self,
        provider: ProviderDeclarations,
        id: str,
        description: str | None,
        path: str | None,
        site: Site | None,
    ) -> None:
        self.provider = provider
        self.id = id
        self.description = description
        self.path = path
        self.nodes: dict[str, Node] = {}
        self.edges: list[EdgeDef] = []
        self.entrypoints: dict[str, Node | str] = {}
        self._entry_sites: dict[str, Site | None] = {}
        self._site = site
        self._origin: _Origin | None = None

    def __repr__(self) -> str:
        return f"<GraphBuilder {self.id} nodes={len(self.nodes)} edges={len(self.edges)}>"

    # ------------------------------------------------------------ nodes

    def _add(self, node: N) -> N:
        previous = self.nodes.get(node.id)
        if previous is not None:
            where = f" (declared at {previous._site})" if previous._site else ""
            raise _error(
                "graph-node-duplicate", f"Graph {self.id} already has a node {node.id}{where}", node._site
            )
        if not isinstance(node.id, str):
            raise _wrong_type("A node ID", "a string", node.id, node._site)
        self.nodes[node.id] = node
        return node

    def action(self, id: str, action: ActionDef, **options: Unpack[NodeOptions]) -> ActionNode:
        """An Action node running ``action`` (:func:`command`, :func:`script`, :func:`agent`, :func:`host`).

        ``reason`` is its reason code (default ``route.<graph>.<node>``);
        ``proof`` the checks that prove it done (``satisfiedBy``: a path that
        must exist, a mapping of paths to values, :func:`exists`,
        :func:`equals`, or a list of them); ``requires_facts`` what must hold
        for it to be legal (``requiresFacts``); ``required``/``recommended``
        the resources its route lists; ``priority`` and ``join`` as in YAML.
        """
        site = _caller()
        if not isinstance(action, ActionDef):
            raise _wrong_type(
                f"The action of node {id}",
                "an Action (agd.command, agd.script, agd.agent, agd.host)",
                action,
                site,
            )
        return self._add(ActionNode(id, self, **_node_fields(options, site), action=action))

    def gate(
        self,
        id: str,
        gate: GateDef,
        *,
        inspection: ActionDef | None = None,
        resolution: ActionDef | None = None,
        delegated: DelegatedPolicy | None = None,
        **options: Unpack[NodeOptions],
    ) -> GateNode:
        """A Gate node asking for ``gate`` (:func:`gate`); its options are an Action node's.

        ``inspection`` is a ``read`` Action that prepares the evidence,
        ``resolution`` a ``write``/``external`` Action that applies the decision,
        ``delegated`` (:func:`delegated`) what changes when a session's authority
        resolves it.
        """
        site = _caller()
        if not isinstance(gate, GateDef):
            raise _wrong_type(f"The gate of node {id}", "a Gate (agd.gate)", gate, site)
        if delegated is not None and not isinstance(delegated, DelegatedPolicy):
            raise _wrong_type("delegated", "a delegated policy (agd.delegated)", delegated, site)
        return self._add(
            GateNode(
                id,
                self,
                **_node_fields(options, site),
                gate=gate,
                inspection=_action_arg(inspection, "inspection", site),
                resolution=_action_arg(resolution, "resolution", site),
                delegated=delegated,
            )
        )

    def subgraph(
        self, id: str, graph: GraphBuilder | str, entry: str = "default", **options: Unpack[FrameOptions]
    ) -> SubgraphNode:
        """A Subgraph node that runs ``graph`` (a Graph of this Provider, or its ID) from ``entry``."""
        site = _caller()
        if isinstance(graph, GraphBuilder) and graph.provider is not self.provider:
            raise _error(
                "subgraph-missing", f"Graph {graph.id} belongs to another Provider than Graph {self.id}", site
            )
        if not isinstance(graph, (GraphBuilder, str)):
            raise _wrong_type(f"The graph of node {id}", "a Graph of this Provider or its ID", graph, site)
        fields = _node_fields(options, site, routed=False)
        return self._add(SubgraphNode(id, self, **fields, target=graph, entry=entry))

    def terminal(
        self, id: str, outcome: Outcome = "completed", **options: Unpack[FrameOptions]
    ) -> TerminalNode:
        """A terminal node: reaching it ends the Graph with ``outcome``."""
        site = _caller()
        return self._add(TerminalNode(id, self, **_node_fields(options, site, routed=False), outcome=outcome))

    def node(self, id: str) -> Node:
        """The node ``id`` (``argument-invalid``, with the closest ID, when there is none)."""
        found = self.nodes.get(id)
        if found is None:
            raise _error(
                "argument-invalid",
                f"Graph {self.id} has no node {id}{did_you_mean(id, self.nodes)}; its nodes: {listing(self.nodes)}",
                _caller(),
            )
        return found

    # ------------------------------------------------------------ edges and entries

    @overload
    def edge(
        self,
        source: GateNode | str,
        target: Node | str,
        *,
        kind: Literal["gatedBy"],
        on: Outcomes | None = None,
    ) -> EdgeDef: ...
    @overload
    def edge(
        self,
        source: ActionNode | GateNode | SubgraphNode | str,
        target: ActionNode | GateNode | str,
        *,
        kind: Literal["repeat"],
        on: Outcomes | None = None,
    ) -> EdgeDef: ...
    @overload
    def edge(
        self,
        source: ActionNode | GateNode | SubgraphNode | str,
        target: Node | str,
        *,
        kind: FlowKind | None = None,
        on: Outcomes | None = None,
    ) -> EdgeDef: ...
    def edge(self, source: Any, target: Any, *, kind: Any = None, on: Outcomes | None = None) -> EdgeDef:
        """An edge from ``source`` to ``target``, taken on ``on`` (an outcome or several; default ``completed``).

        ``kind`` records intent (``flow`` by default): ``gatedBy`` starts at a
        Gate, ``repeat`` re-arms an Action or Gate. Nodes may be given by ID;
        an ID is checked when the Provider is built.
        """
        return self._add_edge(source, target, kind, on, _caller())

    def _add_edge(self, source: Any, target: Any, kind: Any, on: Any, site: Site | None) -> EdgeDef:
        for label, end in (("source", source), ("target", target)):
            if isinstance(end, _NODE_TYPES):
                if end.graph is not self:
                    raise _error(
                        "graph-edge-node-missing",
                        f"The edge's {label} {end.id} is a node of Graph {end.graph.id}, not of Graph {self.id}",
                        site,
                    )
            elif not isinstance(end, str):
                raise _wrong_type(f"The edge's {label}", f"a node of Graph {self.id} or its ID", end, site)
        if kind is not None and kind not in _EDGE_KINDS:
            raise _error(
                "schema-invalid",
                f"Edge kind {kind!r} is not one of {', '.join(_EDGE_KINDS)}{did_you_mean(str(kind), _EDGE_KINDS)}",
                site,
            )
        outcomes: list[Outcome] | None
        if on is None:
            outcomes = None
        else:
            outcomes = cast("list[Outcome]", [on] if isinstance(on, str) else list(on))
            for outcome in outcomes:
                if outcome not in _OUTCOMES:
                    raise _error(
                        "outcome-invalid",
                        f"Edge outcome {outcome!r} is not an outcome{did_you_mean(str(outcome), _OUTCOMES)}; "
                        f"the outcomes: {', '.join(_OUTCOMES)}",
                        site,
                    )
        if isinstance(source, TerminalNode):
            raise _error(
                "graph-terminal-edge-invalid",
                f"Terminal node {source.id} of Graph {self.id} cannot start an edge",
                site,
            )
        if kind == "gatedBy" and isinstance(source, _NODE_TYPES) and not isinstance(source, GateNode):
            raise _error(
                "graph-gated-by-source-invalid",
                f"A gatedBy edge starts at a Gate; {source.id} is a {source.kind} node",
                site,
            )
        if kind == "repeat" and isinstance(target, (SubgraphNode, TerminalNode)):
            raise _error(
                "graph-repeat-target-invalid",
                f"A repeat edge re-arms an Action or a Gate; {target.id} is a {target.kind} node",
                site,
            )
        edge = EdgeDef(source, target, kind, outcomes, site)
        self.edges.append(edge)
        return edge

    def entry(self, node: Node | str, name: str = "default") -> None:
        """Make ``node`` (or the node with that ID) the entrypoint ``name``."""
        site = _caller()
        if isinstance(node, _NODE_TYPES) and node.graph is not self:
            raise _error(
                "graph-entry-missing",
                f"Node {node.id} belongs to Graph {node.graph.id}, not to Graph {self.id}",
                site,
            )
        if not isinstance(node, (str, *_NODE_TYPES)):
            raise _wrong_type("An entry", f"a node of Graph {self.id} or its ID", node, site)
        self.entrypoints[name] = node
        self._entry_sites[name] = site


@dataclasses.dataclass(eq=False, repr=False, kw_only=True)
class ProviderDeclarations:
    """What a Provider written in Python declares: its Graphs (``graph()``), Code Catalog entries
    (``code()``), files written as given (``file()``) and entry Skills (``bind()``)."""

    id: str
    version: str
    name: str | None
    description: str | None
    #: ``compatibility.agentGraph`` (a version range such as ``^0.3.0``) and ``compatibility.node``.
    agent_graph: str | None
    node: str | None
    _site: Site | None
    graphs: dict[str, GraphBuilder] = dataclasses.field(default_factory=dict, init=False)
    codes: dict[str, Code] = dataclasses.field(default_factory=dict, init=False)
    extra_files: dict[str, File] = dataclasses.field(default_factory=dict, init=False)
    #: Skills written whether or not an Action uses them (entry Skills bound with :meth:`bind`).
    skills: list[Skill] = dataclasses.field(default_factory=list, init=False)
    manifest_path: str = dataclasses.field(default="provider.yaml", init=False)
    catalog_path: str | None = dataclasses.field(default=None, init=False)
    _origin: _Origin | None = dataclasses.field(default=None, init=False)
    _catalog_origin: _Origin | None = dataclasses.field(default=None, init=False)

    def __repr__(self) -> str:
        return f"<ProviderBuilder {self.id}@{self.version} graphs={list(self.graphs)}>"

    def graph(self, id: str, *, description: str | None = None, path: str | None = None) -> GraphBuilder:
        """Declare the Graph ``id`` (written to ``graphs/<id>.yaml``, or ``path``) and answer it."""
        site = _caller()
        if id in self.graphs:
            raise _error("graph-id-duplicate", f"Provider {self.id} already has a Graph {id}", site)
        if path is not None:
            _check_relative(path, "A Graph path", site)
        built = GraphBuilder(self, id, description, path, site)
        self.graphs[id] = built
        return built

    def bind(self, skill: Skill, graph: GraphBuilder | str, entry: str = "default") -> Skill:
        """Bind ``skill`` to ``graph``'s ``entry``: a thin entry Skill that names this Provider, written with it.

        Its front matter gets ``metadata`` ``agent-graph: path:<the manifest, from the Skill's folder>``,
        ``agent-graph.graph`` and ``agent-graph.entry``; ``agent-graph route --skill SKILL.md`` (or
        ``load_provider("…/SKILL.md")``) then finds the Provider, Graph and entry from it.
        """
        site = _caller()
        if not isinstance(skill, Skill):
            raise _wrong_type("An entry Skill", "a Skill (agd.skill)", skill, site)
        if isinstance(graph, GraphBuilder) and self.graphs.get(graph.id) is not graph:
            raise _error(
                "skill-graph-missing", f"Graph {graph.id} is not a Graph of Provider {self.id}", site
            )
        graph_id = graph.id if isinstance(graph, GraphBuilder) else graph
        folder = posixpath.dirname(skill.path or f"skills/{skill.name}/SKILL.md")
        manifest = posixpath.relpath(self.manifest_path, folder or ".")
        skill.metadata = {
            **(skill.metadata or {}),
            "agent-graph": f"path:{manifest}",
            "agent-graph.graph": graph_id,
            "agent-graph.entry": entry,
        }
        self.skills.append(skill)
        return skill

    def code(
        self,
        code: str,
        summary: str,
        *,
        kind: Literal["route-reason", "diagnostic"] = "route-reason",
        severity: Literal["info", "warning", "error"] | None = None,
        document: Resource | None = None,
    ) -> Code:
        """A Code Catalog entry (``codes.yaml``). Once there is one, every reason code must be listed."""
        site = _caller()
        if code in self.codes:
            raise _error("code-catalog-code-duplicate", f"The Code Catalog already lists {code}", site)
        if document is not None and not isinstance(document, _RESOURCE_TYPES):
            raise _wrong_type("A code's document", "a resource", document, site)
        entry = Code(code, summary, kind, severity, document, site)
        self.codes[code] = entry
        return entry

    def file(self, path: str, content: str | bytes, *, executable: bool = False) -> File:
        """A file written as given (a script a command runs, say); answers it, for ``files=`` of an Action."""
        site = _caller()
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        made = File(path, data, executable, site)
        previous = self.extra_files.get(made.path)
        if previous is not None:
            where = f" (declared at {previous._site})" if previous._site else ""
            raise _error(
                "file-path-conflict",
                f"Provider {self.id} already has the file {path}{where}; change its content with "
                f"provider.extra_files[{path!r}].content = …",
                site,
            )
        self.extra_files[made.path] = made
        return made
