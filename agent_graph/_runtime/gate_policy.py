"""Host policy: which Facts and outcomes belong to Gates, and when an agent may touch them.

Any host that lets an agent write to a Run (the MCP server of
``agent-graph mcp``, an agent runtime of its own) applies the same rules
through :class:`GateGuard` (``ag.GateGuard``) before it writes what the agent
claims. A Gate's ``satisfiedBy`` Facts and its outcome are the user's or the
host's.
:class:`GateGuard` knows every Gate of a Provider and refuses an agent's write
that could change one (``gate-fact-refused``, ``gate-outcome-refused``),
unless the Gate is open to the agent: delegatable, naming an authority that
the server was started with and the Run holds. Pure: no I/O, no state beyond
what the Provider gives at construction.

The Fact rule follows the deep merge the Run stores apply, and is decided from
the update alone (never from the Run, which another writer may change
meanwhile): see :meth:`GateGuard.check_facts`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._core.errors import AgentGraphError
from .._core.provider import Provider

__all__ = ["GateGuard"]


@dataclass(frozen=True)
class _GateRef:
    graph: str
    node: str
    gate: str
    authority: str | None
    delegatable: bool
    held: bool

    def allowed(self, run_authorities: frozenset[str]) -> bool:
        return self.held and self.authority is not None and self.authority in run_authorities

    def why_not(self) -> str:
        where = f"Gate {self.gate} ({self.graph}/{self.node})"
        if not self.delegatable:
            return f"{where} is not delegatable: only the user resolves it"
        if self.authority is None:
            return f"{where} names no authority: only the user resolves it"
        if not self.held:
            return f"this server was not started with the authority {self.authority} of {where}; the user resolves it"
        return f"the Run does not hold the authority {self.authority} of {where}; the user resolves it"


def _is_index(segment: str) -> bool:
    return segment.isdigit() and segment.isascii() and (segment == "0" or segment[0] != "0")


class GateGuard:
    """Which Facts and state keys belong to Gates, and whether the agent may touch them.

    Built once from the Provider and the authorities the host holds (the
    server's, for ``agent-graph mcp``). A Gate is
    *open to the agent* when it is delegatable and names an authority that
    the server was started with and the Run holds (so that next_step offers
    it with resolution ``session-authority``); every other Gate's Facts and
    outcome are refused.
    """

    def __init__(self, provider: Provider, authorities: Iterable[str]) -> None:
        held = frozenset(authorities)
        self._paths: dict[tuple[str, ...], list[_GateRef]] = {}
        self._nodes: dict[tuple[str, str], _GateRef] = {}
        self._graph_nodes: dict[str, frozenset[str]] = {}
        for graph_id, compiled in provider.graphs.items():
            definition = compiled.definition
            self._graph_nodes[graph_id] = frozenset(node.id for node in definition.nodes)
            for node in definition.nodes:
                if node.kind != "gate" or node.gate is None:
                    continue
                delegatable = node.gate.delegatable is True
                ref = _GateRef(
                    graph_id,
                    node.id,
                    node.gate.id,
                    node.gate.authority,
                    delegatable,
                    delegatable and node.gate.authority is not None and node.gate.authority in held,
                )
                self._nodes[(graph_id, node.id)] = ref
                for check in node.satisfied_by or ():
                    self._paths.setdefault(tuple(check.path.split(".")), []).append(ref)

    def fact_paths(self) -> list[str]:
        """Every Fact path some Gate reads, sorted."""
        return sorted(".".join(path) for path in self._paths)

    def open_to_agent(self, graph: str, node: str, run_authorities: Iterable[str] = ()) -> bool:
        """Whether the agent may resolve the Gate at ``graph``/``node`` for a Run holding ``run_authorities``."""
        gate = self._nodes.get((graph, node))
        return gate is not None and gate.allowed(frozenset(run_authorities))

    def check_facts(self, facts: Mapping[str, Any], run_authorities: Iterable[str] = ()) -> None:
        """``gate-fact-refused`` if merging ``facts`` could change a Fact a closed Gate reads.

        Deep-merge semantics, decided from ``facts`` alone (never from the
        Run, which another writer may change meanwhile): a Gate Fact is
        touched when ``facts`` gives a value at its path, or a value that is
        not an object at a shorter path (which replaces what is below), or an
        object where the path goes on with an array index (an object replaces
        an array).
        """
        held = frozenset(run_authorities)
        for path, gates in self._paths.items():
            closed = [gate for gate in gates if not gate.allowed(held)]
            if closed and _touches(facts, path):
                raise AgentGraphError(
                    "gate-fact-refused",
                    f"The Fact {'.'.join(path)} is read by a Gate and belongs to the user or the host: "
                    f"{closed[0].why_not()}. Ask the user; the agent cannot set it.",
                )

    def node_of(self, state_key: str) -> tuple[str, str]:
        """``(graph, node)`` of a state key (``[frame>]graph/node``), or ``run-node-invalid``."""
        tail = state_key.rsplit(">", 1)[-1]
        for graph_id, nodes in self._graph_nodes.items():
            if tail.startswith(graph_id + "/") and tail[len(graph_id) + 1 :] in nodes:
                return graph_id, tail[len(graph_id) + 1 :]
        raise AgentGraphError(
            "run-node-invalid",
            f"{state_key[:200]!r} is not a state key of this Provider's graphs; record the node next_step gave "
            "(record.node)",
        )

    def check_record(self, state_key: str, run_authorities: Iterable[str] = ()) -> None:
        """``gate-outcome-refused`` if ``state_key`` is a closed Gate's; ``run-node-invalid`` if no node's."""
        gate = self._nodes.get(self.node_of(state_key))
        if gate is not None and not gate.allowed(frozenset(run_authorities)):
            raise AgentGraphError(
                "gate-outcome-refused",
                f"{state_key} is the outcome of a Gate and belongs to the user or the host: {gate.why_not()}.",
            )


def _touches(facts: Mapping[str, Any], path: Sequence[str]) -> bool:
    current: Any = facts
    for index, segment in enumerate(path):
        if index > 0:
            if not isinstance(current, Mapping):
                return True  # a scalar or an array replaces everything below it
            if _is_index(segment):
                return True  # an object may replace the array this path goes through
        if segment not in current:
            return False
        current = current[segment]
    return True
