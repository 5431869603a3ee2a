"""Checks of an evaluation state against a Graph: what ``evaluate()`` silently ignores.

``evaluate()`` answers exactly as the reference toolchain does, and that
includes ignoring an outcome recorded under a state key that names no node
(``report/drfat``): the answer's JSON must stay identical. A typo there is
still a mistake a host wants to hear about, so :func:`check_state` lists it,
with the closest existing key, before or beside the evaluation. The command
line refuses such a key in ``run record`` and reports it from ``test`` and
``validate``.

A state key is ``frame/node`` where the frame is the Graph ID at top level
and ``parent/subgraphNode>child`` inside Subgraphs (behaviour.md §3). Each
segment starts with a known Graph ID, so a key is checked segment by segment
in time linear in its length, without enumerating call paths. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .errors import AgentGraphError, Diagnostic, did_you_mean, shown
from .ir import CompiledGraph
from .model import OUTCOMES, expected_outcome
from .provider import Provider
from .suggest import CloseNames

__all__ = ["check_state", "state_key_problem", "unknown_state_key"]

_OUTCOMES = frozenset(OUTCOMES)


def state_key_problem(
    provider: Provider, graph: str, key: str, indexes: dict[str, CloseNames] | None = None
) -> str | None:
    """Why ``key`` names no node of ``graph`` (with a suggestion), or None when it names one.

    ``indexes`` keeps, per Graph and Subgraph prefix, the index of its state
    keys that suggestions search, for a caller checking many keys (each built
    once; see :mod:`.suggest`).
    """
    if graph not in provider.graphs:
        raise provider.graph_missing(graph)
    if not isinstance(key, str):
        return f"State key {shown(key)} is not a string"
    prefix = ""
    current = graph
    rest = key
    while True:
        compiled = provider.graphs.get(current)
        if compiled is None:  # a Subgraph node naming a missing Graph: the loader refuses those
            return f"State key {key} enters graph {current}, which the Provider does not have"
        nodes = compiled.index
        head = f"{current}/"
        if not rest.startswith(head):
            return (
                f"State key {key} names no node of graph {graph}: expected it to start with {prefix}{head}"
                f"{did_you_mean(key, _keys(indexes, compiled, prefix))}"
            )
        tail = rest[len(head) :]
        node_id, nested, deeper = tail.partition(">")
        position = nodes.get(node_id)
        if position is None:
            wanted = prefix + rest.partition(">")[0]
            return f"State key {key} names no node of graph {current}{did_you_mean(wanted, _keys(indexes, compiled, prefix))}"
        node = compiled.definition.nodes[position]
        if not nested:
            return None
        if node.kind != "subgraph" or not node.graph:
            return f"State key {key} goes into node {current}/{node_id}, which is not a Subgraph node"
        prefix = f"{prefix}{current}/{node_id}>"
        current = node.graph
        rest = deeper


def _keys(indexes: dict[str, CloseNames] | None, compiled: CompiledGraph, prefix: str) -> CloseNames:
    """The index of the state keys of ``compiled``'s nodes under ``prefix`` (kept in ``indexes`` when given)."""
    name = f"{prefix}{compiled.id}/"
    found = indexes.get(name) if indexes is not None else None
    if found is None:
        found = CloseNames(name + node.id for node in compiled.definition.nodes)
        if indexes is not None:
            indexes[name] = found
    return found


def check_state(
    provider: Provider,
    graph: str,
    entry: str = "default",
    *,
    facts: Mapping[str, Any] | None = None,
    outcomes: Mapping[str, Any] | None = None,
    authorities: Iterable[str] | None = None,
) -> tuple[Diagnostic, ...]:
    """What is wrong with a state for ``graph``/``entry`` that :func:`~agent_graph.evaluate` would ignore.

    One diagnostic (severity ``error``) per problem, in input order:
    ``entry-missing`` for an unknown entry, ``state-key-unknown`` for each
    outcome key that names no node of the Graph or of a Subgraph it calls
    (the message suggests the closest key), ``outcome-invalid`` for an outcome
    that is neither an outcome string nor ``{outcome, recordedAt, detail?}``,
    ``json-object-required`` for facts that are not an object and
    ``authorities-invalid`` for authorities that are not strings. An empty
    tuple means the state is sound. Raises ``graph-missing`` for an unknown
    Graph, as ``evaluate()`` does. Never changes what ``evaluate()`` answers.
    """
    if not isinstance(graph, str) or graph not in provider.graphs:
        raise provider.graph_missing(graph)
    found: list[Diagnostic] = []
    if entry not in provider.graphs[graph].definition.entrypoints:
        found.append(_error("entry-missing", provider.entry_missing(graph, entry).message))
    if facts is not None and not isinstance(facts, Mapping):
        found.append(
            _error("json-object-required", f"Facts must be a JSON object, not {type(facts).__name__}")
        )
    if outcomes is not None:
        if not isinstance(outcomes, Mapping):
            found.append(
                _error(
                    "json-object-required", f"Outcomes must be a JSON object, not {type(outcomes).__name__}"
                )
            )
        else:
            indexes: dict[str, CloseNames] = {}
            for key, value in outcomes.items():
                problem = state_key_problem(provider, graph, key, indexes)
                if problem is not None:
                    found.append(_error("state-key-unknown", problem, {"key": shown(key)}))
                outcome = value.get("outcome") if isinstance(value, Mapping) else value
                if not isinstance(outcome, str) or outcome not in _OUTCOMES:
                    found.append(
                        _error(
                            "outcome-invalid",
                            f"Outcome of {shown(key)} is {shown(outcome)}; {expected_outcome(outcome)}",
                        )
                    )
    if authorities is not None:
        if isinstance(authorities, (str, bytes)) or not isinstance(authorities, Iterable):
            found.append(_error("authorities-invalid", "Authorities must be a list of strings"))
        else:
            for authority in authorities:
                if not isinstance(authority, str):
                    found.append(
                        _error("authorities-invalid", f"Authority {shown(authority)} is not a string")
                    )
    return tuple(found)


def _error(code: str, message: str, detail: Any = None) -> Diagnostic:
    return Diagnostic(code=code, severity="error", message=message, detail=detail)


def unknown_state_key(provider: Provider, graph: str, key: str) -> AgentGraphError | None:
    """The ``state-key-unknown`` error for recording under ``key`` in a Run of ``graph``, or None."""
    problem = state_key_problem(provider, graph, key)
    return None if problem is None else AgentGraphError("state-key-unknown", problem)
