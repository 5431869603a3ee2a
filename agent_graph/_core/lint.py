"""Static findings about a loaded Provider: the rules of ``agent-graph lint``.

``validate`` is the protocol's check and stays exactly that; lint looks for
what is valid but almost certainly wrong: nodes no entry reaches, loops with
no way out, fact paths nothing writes (``report.aproved``), edges on outcomes
their source never records, Gates whose authority nobody grants, Actions
nothing proves complete, files and catalog codes nothing uses.

This module is pure: it reads the loaded Provider plus what the caller read
for it (graph tests, the paths the Actions' JSON Schemas name, documentation
texts, Provider files the loader never reached) and answers :class:`Issue` records that point into
files with JSON pointers. The caller (``agent_graph._runtime.lint``) turns
pointers into lines and columns, applies suppressions and builds the public
:class:`Finding` values. Every walk is iterative and linear in the size of
the Provider (plus, for a misspelled fact path, one closest-match search of
bounded work in an index built once: :mod:`.suggest`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import msgspec

from .errors import AgentGraphError, did_you_mean, listing, shown
from .ir import CompiledGraph
from .model import FactCheck, TestCase
from .provider import Provider
from .suggest import CloseNames

__all__ = ["RULES", "Finding", "Issue", "LintRule", "LintSources", "analyse", "selected_rules"]

LintSeverity = Literal["error", "warning", "info"]


class LintRule(msgspec.Struct, frozen=True, kw_only=True):
    """One lint rule: a stable ``code`` (``AG101``), a ``name``, its severity and what it finds."""

    code: str
    name: str
    severity: LintSeverity
    summary: str


class Finding(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, rename="camel"):
    """One lint finding.

    ``code`` and ``rule`` name the rule (``AG202``, ``fact-path-misspelled``);
    ``file`` is relative to the Provider root (``/``-separated), ``line`` and
    ``column`` are 1-based (0 when the position is unknown, as in a source
    over 2 MiB); ``graph``, ``node`` and ``edge`` (``from->to``) say which
    definition it is about, ``pointer`` is the JSON pointer of the value
    inside ``file``; ``hint`` says how to fix it.
    """

    code: str
    rule: str
    severity: LintSeverity
    message: str
    file: str
    line: int = 0
    column: int = 0
    graph: str | None = None
    node: str | None = None
    edge: str | None = None
    pointer: str = ""
    hint: str = ""

    def to_json(self) -> Any:
        """The finding as plain JSON data."""
        return msgspec.to_builtins(self)


def rules_by_code(*rules: LintRule) -> Mapping[str, LintRule]:
    """A table of rules: each by its code, in the order given."""
    return {rule.code: rule for rule in rules}


#: Every rule by code, in code order.
RULES: Mapping[str, LintRule] = rules_by_code(
    LintRule(
        code="AG101",
        name="unreachable-node",
        severity="warning",
        summary="No entry of its Graph reaches the node",
    ),
    LintRule(
        code="AG102",
        name="terminal-unreachable",
        severity="error",
        summary="No terminal node can be reached from the node: its frame can never complete through it",
    ),
    LintRule(
        code="AG103",
        name="repeat-without-exit",
        severity="error",
        summary="A repeat loop has no edge leaving it and no terminal inside it",
    ),
    LintRule(
        code="AG104",
        name="outcome-never-recorded",
        severity="warning",
        summary="An edge waits for an outcome its source node never settles to",
    ),
    LintRule(
        code="AG105",
        name="repeat-through-subgraph",
        severity="warning",
        summary="A repeat loop runs through a Subgraph node, which keeps its child frame's outcomes when the "
        "repeat re-arms only its target",
    ),
    LintRule(
        code="AG201",
        name="fact-path-unknown",
        severity="warning",
        summary="A fact path is read but no Action schema and no graph test names it",
    ),
    LintRule(
        code="AG202",
        name="fact-path-misspelled",
        severity="error",
        summary="A fact path nothing writes is close to one that is written: most likely a typo",
    ),
    LintRule(
        code="AG301",
        name="authority-never-granted",
        severity="warning",
        summary="No graph test and no document of the Provider grants the authority of a delegatable Gate",
    ),
    LintRule(
        code="AG302",
        name="delegation-incomplete",
        severity="info",
        summary="A Gate names an authority without being delegatable, or is delegatable without an authority",
    ),
    LintRule(
        code="AG401",
        name="completion-unproven",
        severity="warning",
        summary="An Action node has no satisfiedBy and no node after it requires facts: nothing proves its work",
    ),
    LintRule(
        code="AG501",
        name="action-unused",
        severity="warning",
        summary="An Action file in the Provider folder that nothing references",
    ),
    LintRule(
        code="AG502",
        name="resource-unused",
        severity="warning",
        summary="A resource file in the Provider folder that nothing references",
    ),
    LintRule(
        code="AG503",
        name="schema-unused",
        severity="warning",
        summary="A JSON Schema file in the Provider folder that nothing references",
    ),
    LintRule(
        code="AG504",
        name="code-unused",
        severity="warning",
        summary="A route-reason code of the Code Catalog that no node uses",
    ),
    LintRule(
        code="AG505",
        name="reason-code-uncatalogued",
        severity="info",
        summary="A node's reason code is documented nowhere: the Provider has no Code Catalog",
    ),
)


def _matching(token: str, rules: Mapping[str, LintRule] = RULES) -> list[str]:
    """The rule codes ``token`` names: a code, a code prefix (``AG1``, ``AG``) or a rule name."""
    word = token.strip()
    names = {rule.name: rule.code for rule in rules.values()}
    if word in names:
        return [names[word]]
    upper = word.upper()
    found = [code for code in rules if code.startswith(upper)] if upper.startswith("AG") else []
    if not found:
        first = next(iter(rules), "AG101")
        raise AgentGraphError(
            "lint-rule-unknown",
            f"Unknown rule {word!r}{did_you_mean(word, [*rules, *names])}: give a code ({first}), "
            f"a code prefix ({first[:-2]}) or a rule name; the rules: {listing(rules, limit=len(rules))}",
        )
    return found


def selected_rules(
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    rules: Mapping[str, LintRule] = RULES,
) -> frozenset[str]:
    """The rule codes to run: ``select`` (default all) without ``ignore``; unknown names are ``lint-rule-unknown``."""
    chosen: set[str] = set(rules)
    if select is not None:
        chosen = {code for token in _tokens(select, "select") for code in _matching(token, rules)}
    for token in _tokens(ignore or (), "ignore"):
        chosen.difference_update(_matching(token, rules))
    return frozenset(chosen)


def _tokens(given: Any, name: str) -> list[str]:
    """The rule names of ``select`` or ``ignore``: one string, or an iterable of strings (``argument-invalid``)."""
    if isinstance(given, str):
        return [given]
    if isinstance(given, (bytes, bytearray, Mapping)) or not isinstance(given, Iterable):
        raise AgentGraphError(
            "argument-invalid", f"{name} must be rule names (a list of strings), not {shown(given)}"
        )
    tokens = list(given)
    for token in tokens:
        if not isinstance(token, str):
            raise AgentGraphError(
                "argument-invalid", f"{name} must be rule names (strings); {shown(token)} is not one"
            )
    return tokens


@dataclass(frozen=True)
class Issue:
    """A finding before it has a position: the file (absolute), the JSON pointer of the value and of its anchor.

    ``anchor`` is the pointer of the definition the finding belongs to (the
    node or edge, or ``""`` for a whole file): a suppression comment on its
    line silences the finding.
    """

    code: str
    message: str
    path: str
    pointer: str = ""
    anchor: str = ""
    hint: str = ""
    graph: str | None = None
    node: str | None = None
    edge: str | None = None


@dataclass(frozen=True)
class LintSources:
    """What the caller read for lint, beyond the Provider itself.

    ``tests``: the graph tests; ``declared``: the dotted paths the JSON
    Schemas of the Actions name (inputs and outputs, a Gate's resolution form
    among them; ``*`` for an array's items) and ``open_maps``: those of their
    objects whose keys are left free (``additionalProperties`` or
    ``patternProperties`` given as a schema; ``""`` for the top);
    ``documents``: texts of Skills, Markdown resources, catalog documents and
    the README; ``stray``: files of the Provider folder the loader never
    reached, as ``(absolute path, kind)`` with kind ``action``, ``resource``
    or ``schema``.
    """

    tests: Sequence[TestCase] = ()
    declared: frozenset[str] = frozenset()
    open_maps: frozenset[str] = frozenset()
    documents: Sequence[str] = ()
    stray: Sequence[tuple[str, str]] = ()


# ------------------------------------------------------------------ graph structure


def _adjacency(graph: CompiledGraph) -> tuple[list[list[int]], list[list[int]]]:
    """Successors and predecessors over every edge, repeat edges included."""
    count = len(graph.nodes)
    forward: list[list[int]] = [[] for _ in range(count)]
    backward: list[list[int]] = [[] for _ in range(count)]
    for node in graph.nodes:
        for target, _outcomes in node.flow_out:
            forward[node.index].append(target)
            backward[target].append(node.index)
    for source, target, _outcomes in graph.repeat_edges:
        forward[source].append(target)
        backward[target].append(source)
    return forward, backward


def _spread(starts: Iterable[int], links: Sequence[Sequence[int]], count: int) -> list[bool]:
    """Which nodes ``starts`` reach along ``links`` (the starts included)."""
    seen = [False] * count
    stack: list[int] = []
    for start in starts:
        if not seen[start]:
            seen[start] = True
            stack.append(start)
    while stack:
        current = stack.pop()
        for following in links[current]:
            if not seen[following]:
                seen[following] = True
                stack.append(following)
    return seen


def components(forward: Sequence[Sequence[int]]) -> list[int]:
    """The strongly connected component of each node (Tarjan's algorithm, iteratively)."""
    count = len(forward)
    index = [-1] * count
    low = [0] * count
    component = [-1] * count
    on_stack = [False] * count
    stack: list[int] = []
    counter = 0
    components = 0
    for root in range(count):
        if index[root] >= 0:
            continue
        work: list[tuple[int, int]] = [(root, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            links = forward[node]
            descended = False
            while position < len(links):
                following = links[position]
                position += 1
                if index[following] < 0:
                    work.append((node, position))
                    work.append((following, 0))
                    descended = True
                    break
                if on_stack[following]:
                    low[node] = min(low[node], index[following])
            if descended:
                continue
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component[member] = components
                    if member == node:
                        break
                components += 1
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return component


def _edge_name(source: str, target: str) -> str:
    return f"{source}->{target}"


def _graph_issues(provider: Provider, graph: CompiledGraph, wanted: frozenset[str], out: list[Issue]) -> None:
    nodes = graph.nodes
    count = len(nodes)
    definition = graph.definition
    forward, backward = _adjacency(graph)
    entries = [graph.index[target] for target in graph.entrypoints.values() if target in graph.index]
    reached = _spread(entries, forward, count)
    finishing = _spread(graph.terminals, backward, count)

    def node_issue(code: str, index: int, message: str, hint: str, pointer: str = "") -> None:
        node_id = nodes[index].id
        out.append(
            Issue(
                code,
                message,
                graph.path,
                pointer or f"/nodes/{index}",
                f"/nodes/{index}",
                hint,
                graph=graph.id,
                node=node_id,
            )
        )

    for node in nodes:
        where = f"Node {graph.id}/{node.id}"
        if "AG101" in wanted and not reached[node.index]:
            node_issue(
                "AG101",
                node.index,
                f"{where} is reached from no entry of the Graph (entries: {listing(graph.entrypoints)})",
                "add an edge into it from a node an entry reaches, name it in entrypoints, or delete it",
            )
        if "AG102" in wanted and reached[node.index] and not finishing[node.index]:
            node_issue(
                "AG102",
                node.index,
                f"{where} leads to no terminal node: no path from it ends the frame",
                "add an edge from it (or from a node after it) towards a terminal node",
            )
    # The loops: strongly connected parts of the Graph, over every edge (only where a repeat edge closes one).
    component = components(forward) if graph.repeat_edges and ("AG103" in wanted or "AG105" in wanted) else []
    if "AG103" in wanted and graph.repeat_edges:
        exits: set[int] = set()  # components with an edge out of them or a terminal inside
        for node in nodes:
            own = component[node.index]
            if node.is_terminal:
                exits.add(own)
            for following in forward[node.index]:
                if component[following] != own:
                    exits.add(own)
        reported: set[int] = set()
        repeat_indices = [index for index, edge in enumerate(definition.edges) if edge.kind == "repeat"]
        for position, (source, target, _outcomes) in enumerate(graph.repeat_edges):
            loop = component[source]
            if loop != component[target] or loop in exits or loop in reported:
                continue
            reported.add(loop)
            edge_index = repeat_indices[position]
            name = _edge_name(nodes[source].id, nodes[target].id)
            out.append(
                Issue(
                    "AG103",
                    f"Repeat edge {graph.id}: {name} closes a loop that no edge leaves and that holds "
                    "no terminal: once entered, the frame never completes",
                    graph.path,
                    f"/edges/{edge_index}",
                    f"/edges/{edge_index}",
                    "add an edge from a node of the loop to a node outside it, on the outcome that ends the "
                    "loop (say completed)",
                    graph=graph.id,
                    edge=name,
                )
            )
    if "AG105" in wanted and graph.repeat_edges:
        _repeat_subgraph_issues(graph, component, out)
    if "AG104" in wanted:
        _outcome_issues(provider, graph, out)
    if "AG401" in wanted:
        flow_backward: list[list[int]] = [[] for _ in range(count)]
        for node in nodes:
            for target, _outcomes in node.flow_out:
                flow_backward[target].append(node.index)
        # Proven: every node from which a node that requires facts can be reached.
        requiring = (before for node in nodes if node.requires for before in flow_backward[node.index])
        proven = _spread(requiring, flow_backward, count)
        for node in nodes:
            if node.is_action and not node.satisfied and not proven[node.index]:
                node_issue(
                    "AG401",
                    node.index,
                    f"Action node {graph.id}/{node.id} has no satisfiedBy and no node after it requires facts: "
                    "a recorded completed is all that says its work was done",
                    "add satisfiedBy with the fact its work publishes (a digest, a URL), or requiresFacts "
                    "on the node that needs that fact",
                )


def _repeat_subgraph_issues(graph: CompiledGraph, component: Sequence[int], out: list[Issue]) -> None:
    """AG105: a repeat edge whose loop (the strongly connected part of the Graph it closes) holds a Subgraph node.

    A repeat re-arms its target only. A Subgraph node inside the loop settles
    from its child frame, whose recorded outcomes stay: the retry meets the
    same child outcome again (a failed check stays failed). Linear: one pass
    over the nodes and one over the repeat edges (``component``: each node's).
    """
    calls: dict[int, int] = {}  # component -> its first Subgraph node
    for node in graph.nodes:
        if node.is_subgraph:
            calls.setdefault(component[node.index], node.index)
    if not calls:
        return
    nodes = graph.nodes
    repeat_indices = [index for index, edge in enumerate(graph.definition.edges) if edge.kind == "repeat"]
    for position, (source, target, _outcomes) in enumerate(graph.repeat_edges):
        loop = component[source]
        call = calls.get(loop)
        if call is None or loop != component[target]:
            continue
        edge_index = repeat_indices[position]
        name = _edge_name(nodes[source].id, nodes[target].id)
        child = nodes[call].child_graph or "its Graph"
        out.append(
            Issue(
                "AG105",
                f"Repeat edge {graph.id}: {name} loops through Subgraph node {nodes[call].id}: a repeat re-arms "
                f"only its target {nodes[target].id}, so {nodes[call].id} keeps the outcomes its call of "
                f"{child} recorded, and a failed {child} stays failed on every retry",
                graph.path,
                f"/edges/{edge_index}",
                f"/edges/{edge_index}",
                f"retry inside {child} instead (a repeat edge there, from the node to try again to itself, on "
                "the outcome that asks for another try, say partial), and leave the Subgraph node outside loops",
                graph=graph.id,
                edge=name,
            )
        )


def _outcome_issues(provider: Provider, graph: CompiledGraph, out: list[Issue]) -> None:
    """AG104: edges out of Subgraph nodes on outcomes the child frame never gives.

    A Subgraph node ignores recorded outcomes: it settles to its child's terminal
    outcome, ``failed`` (child error), ``waiting-user``, ``pending``, or
    ``blocked`` (its own or a child terminal's ``requiresFacts``).
    """
    possible: dict[str, frozenset[str]] = {}
    for node in graph.nodes:
        if not node.is_subgraph:
            continue
        child = provider.graphs.get(node.child_graph or "")
        if child is None:
            continue
        outcomes = {"failed", "waiting-user", "pending"}
        if node.requires is not None:
            outcomes.add("blocked")
        for terminal in child.terminals:
            child_node = child.nodes[terminal]
            if child_node.terminal_outcome is not None:
                outcomes.add(child_node.terminal_outcome)
            if child_node.requires is not None:
                outcomes.add("blocked")
        possible[node.id] = frozenset(outcomes)
    if not possible:
        return
    for index, edge in enumerate(graph.definition.edges):
        allowed = possible.get(edge.from_)
        if allowed is None:
            continue
        wanted = edge.outcomes if edge.outcomes is not None else ("completed",)
        never = [outcome for outcome in wanted if outcome not in allowed]
        if not never:
            continue
        name = _edge_name(edge.from_, edge.to)
        source = graph.nodes[graph.index[edge.from_]]
        out.append(
            Issue(
                "AG104",
                f"Edge {graph.id}: {name} waits for {', '.join(never)}, which Subgraph node {edge.from_} never "
                f"settles to: Graph {source.child_graph} ends in {listing(sorted(allowed))}",
                graph.path,
                f"/edges/{index}/outcomes" if edge.outcomes is not None else f"/edges/{index}",
                f"/edges/{index}",
                "name the outcomes the child Graph's terminals end with, or add the terminal that ends so",
                graph=graph.id,
                edge=name,
            )
        )


# ------------------------------------------------------------------ facts


def _is_index(segment: str) -> bool:
    return segment.isdigit() and segment.isascii() and (segment == "0" or segment[0] != "0")


def _fact_tree_paths(facts: Any, into: set[str]) -> None:
    """Every dotted path present in a facts object (objects and arrays walked iteratively)."""
    stack: list[tuple[str, Any]] = [("", facts)]
    while stack:
        prefix, value = stack.pop()
        if isinstance(value, Mapping):
            items: Iterable[tuple[str, Any]] = ((str(key), item) for key, item in value.items())
        elif isinstance(value, (list, tuple)):
            items = ((str(position), item) for position, item in enumerate(value))
        else:
            continue
        for key, item in items:
            path = f"{prefix}.{key}" if prefix else key
            into.add(path)
            stack.append((path, item))


def _known(path: str, tested: set[str], declared: frozenset[str], open_maps: frozenset[str]) -> bool:
    """Whether a graph test gives ``path``, or a schema names it or a path it ends with.

    Schema paths may sit below a prefix (a host publishes an Action's output
    under a key of its own): ``job.export.status`` is known when a schema names
    ``export.status``; ``*`` stands for an array index, and a path at or below
    an ``open_maps`` entry (an object whose keys the schema leaves free) is known.
    """
    if path in tested:
        return True
    if "" in open_maps:
        return True
    segments = path.split(".")
    general = [("*" if _is_index(segment) else segment) for segment in segments]
    for start in range(len(segments)):
        if ".".join(segments[start:]) in declared or ".".join(general[start:]) in declared:
            return True
        if open_maps:
            for end in range(start + 1, len(segments)):
                if ".".join(general[start:end]) in open_maps:
                    return True
    return False


def _closest(path: str, candidates: CloseNames, memo: dict[str, str | None]) -> str | None:
    """The written path closest to ``path`` (each path searched once, in bounded work: :mod:`.suggest`)."""
    if path not in memo:
        close = candidates.closest(path, 1, 0.8)
        memo[path] = close[0] if close else None
    return memo[path]


def _fact_issues(provider: Provider, sources: LintSources, wanted: frozenset[str], out: list[Issue]) -> None:
    tested: set[str] = set()
    for case in sources.tests:
        if case.state is not None and case.state.facts is not None:
            _fact_tree_paths(case.state.facts, tested)
    declared = sources.declared
    candidates = CloseNames(sorted(tested | {p for p in declared if "*" not in p}))
    memo: dict[str, str | None] = {}
    for graph in provider.graphs.values():
        for index, node in enumerate(graph.definition.nodes):
            checks: list[tuple[str, int, FactCheck]] = []
            for field, name in ((node.requires_facts, "requiresFacts"), (node.satisfied_by, "satisfiedBy")):
                checks.extend((name, position, check) for position, check in enumerate(field or ()))
            for name, position, check in checks:
                path = check.path
                if _known(path, tested, declared, sources.open_maps):
                    continue
                close = _closest(path, candidates, memo)
                code = "AG202" if close is not None else "AG201"
                if code not in wanted:
                    continue
                where = f"{name} of node {graph.id}/{node.id} reads fact {path}"
                if close is not None:
                    message = f"{where}, which nothing writes; {close} is written (did you mean {close}?)"
                    hint = f"change the path to {close}"
                else:
                    message = f"{where}, which no Action schema and no graph test names"
                    hint = (
                        "declare the fact in the output schema of the Action that produces it, or give it "
                        "in the state of a graph test that reaches this node"
                    )
                out.append(
                    Issue(
                        code,
                        message,
                        graph.path,
                        f"/nodes/{index}/{name}/{position}/path",
                        f"/nodes/{index}",
                        hint,
                        graph=graph.id,
                        node=node.id,
                    )
                )


# ------------------------------------------------------------------ gates


def _gate_issues(provider: Provider, sources: LintSources, wanted: frozenset[str], out: list[Issue]) -> None:
    granted: set[str] = set()
    for case in sources.tests:
        if case.state is not None and case.state.authorities:
            granted.update(case.state.authorities)
    documented: dict[str, bool] = {}  # each authority looked up in the documents once

    def named(authority: str) -> bool:
        if authority not in documented:
            documented[authority] = any(authority in text for text in sources.documents)
        return documented[authority]

    for graph in provider.graphs.values():
        for index, node in enumerate(graph.definition.nodes):
            gate = node.gate
            if gate is None:
                continue
            where = f"Gate {graph.id}/{node.id}"
            pointer = f"/nodes/{index}/gate"
            if gate.authority is not None and gate.delegatable is True:
                if "AG301" in wanted and gate.authority not in granted and not named(gate.authority):
                    out.append(
                        Issue(
                            "AG301",
                            f"{where} is delegatable to authority {gate.authority}, which no graph test grants "
                            "and no Skill or document of the Provider names",
                            graph.path,
                            f"{pointer}/authority",
                            f"/nodes/{index}",
                            f"add a graph test whose state has authorities: [{gate.authority}], and say in the "
                            "Skill or a resource who holds it",
                            graph=graph.id,
                            node=node.id,
                        )
                    )
            elif "AG302" in wanted and (gate.authority is not None or gate.delegatable is True):
                if gate.authority is not None:
                    message = (
                        f"{where} names authority {gate.authority} but is not delegatable: "
                        "no session authority ever resolves it"
                    )
                    hint = "add delegatable: true if a session may decide, or drop the authority"
                else:
                    message = (
                        f"{where} is delegatable but names no authority: no session authority resolves it"
                    )
                    hint = "name the authority that may resolve it"
                out.append(
                    Issue(
                        "AG302",
                        message,
                        graph.path,
                        pointer,
                        f"/nodes/{index}",
                        hint,
                        graph=graph.id,
                        node=node.id,
                    )
                )


# ------------------------------------------------------------------ references


_STRAY = {"action": "AG501", "resource": "AG502", "schema": "AG503"}


def _reference_issues(
    provider: Provider, sources: LintSources, wanted: frozenset[str], out: list[Issue]
) -> None:
    for path, kind in sources.stray:
        code = _STRAY.get(kind)
        if code is None or code not in wanted:
            continue
        shown = provider.relative(path)
        out.append(
            Issue(
                code,
                f"{kind.capitalize()} file {shown} is referenced by no Graph, Action or resource of the Provider",
                path,
                hint=f"reference it where it is needed, or delete {shown}",
            )
        )
    used: set[str] = set()
    nodes_with_codes: list[tuple[CompiledGraph, int, str, str]] = []
    for graph in provider.graphs.values():
        for index, node in enumerate(graph.definition.nodes):
            if node.reason_code:
                used.add(node.reason_code)
                nodes_with_codes.append((graph, index, node.id, node.reason_code))
    catalog = provider.code_catalog_path
    if catalog is None:
        if "AG505" in wanted:
            for graph, index, node_id, code in nodes_with_codes:
                out.append(
                    Issue(
                        "AG505",
                        f"Node {graph.id}/{node_id} reason code {code} is in no Code Catalog (the Provider has none)",
                        graph.path,
                        f"/nodes/{index}/reasonCode",
                        f"/nodes/{index}",
                        "add a Code Catalog (catalogs.codes in provider.yaml) with a route-reason entry for it",
                        graph=graph.id,
                        node=node_id,
                    )
                )
        return
    if "AG504" in wanted:
        for position, entry in enumerate(provider.codes.values()):
            if entry.kind == "route-reason" and entry.code not in used:
                out.append(
                    Issue(
                        "AG504",
                        f"Route-reason code {entry.code} of the Code Catalog is the reason code of no node",
                        catalog,
                        f"/codes/{position}",
                        f"/codes/{position}",
                        "use it as a node's reasonCode, or delete the entry",
                    )
                )


def analyse(provider: Provider, sources: LintSources, wanted: frozenset[str]) -> list[Issue]:
    """The issues of the rules in ``wanted`` (rule codes), in rule-group order."""
    out: list[Issue] = []
    for graph in provider.graphs.values():
        _graph_issues(provider, graph, wanted, out)
    if wanted & {"AG201", "AG202"}:
        _fact_issues(provider, sources, wanted, out)
    if wanted & {"AG301", "AG302"}:
        _gate_issues(provider, sources, wanted, out)
    _reference_issues(provider, sources, wanted, out)
    return out
