"""The states a host can reach from an entry of a Graph: what ``verify`` checks and ``test --generate`` covers.

A state is what evaluation reads, abstracted to what can change its answer:

* **Facts**: every fact path a check of the Graph (or of a Graph it calls)
  reads has a *class*: absent (0), present with a value no check names (1),
  or equal to the i-th value its ``equals`` checks name (2 + i). A check's
  truth is a function of its path's class, and a valuation is consistent
  along a path: below an absent path or a scalar nothing is present; above a
  present path an object is. A path no ``exists`` check reads has no
  "present, other value" class of its own (it reads as absent).
* **Outcomes**: the recorded outcome of each state key, one representative
  per class of outcomes its node reacts to alike (the same outgoing edges
  accept what it settles to, it is offered again or not, it is a failure or
  not). Recording ``pending`` is no record at all.
* **Authorities**: the session authorities the offered delegatable Gates name.

A host moves by recording an outcome of the node's alphabet at a state key
an evaluation offers (``afterAction.recordNode``), by setting one fact path
to another class, or by granting or withholding an authority. Only the paths
the evaluation reads are set (with those of a standing failure's proof): a
path no reached node reads cannot change the answer, and the host can set it
as soon as one does, so every valuation of what is read is still reached,
without a state for each value of what is not. The alphabet
of a node is ``completed``, the outcomes its outgoing edges name and, for a
Gate, ``failed`` (a refusal); with ``outcomes="all"`` it is every outcome of
the protocol. A recorded failure stands: while a node's record is
``failed``, ``partial``, ``skipped`` or ``blocked``, no move makes its
``satisfiedBy`` hold. A complete evaluation ends the Run: no move leaves it.

States are hash-consed and numbered in the order breadth-first search finds
them, so the first path to a state is a shortest one, and each state is
evaluated once, by the evaluator itself (with a trace, so the Provider's
bounded evaluation cache is neither used nor filled). The search stops when
it has found ``max_states`` states (the state being expanded then, and those
found but not evaluated, are its frontier), or when the caller's ``expired``
callable says the time is up, and records that it did. Everything is iterative; this module
reads no clock and does no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import AgentGraphError, listing
from .evaluate import Candidate, FrameTrace, evaluate_with_candidates
from .facts import scalar_equals
from .graph_coverage import frame_coverage
from .ir import ABSENT, EQUALS, EXISTS, CompiledGraph, CompiledNode, FactTest
from .model import OUTCOMES
from .provider import Provider

__all__ = [
    "AUTHORITY",
    "FACT",
    "RECORD",
    "Exploration",
    "FactSpace",
    "StateInfo",
    "explore",
    "move_text",
]

RECORD, FACT, AUTHORITY = "record", "fact", "authority"
#: The class of a fact path no reached node reads: any value the paths around it allow.
FREE = -1
#: A move: ``(RECORD, state key, outcome, representative or None)``, ``(FACT, path index, class)``
#: or ``(AUTHORITY, name, granted)``.
Move = tuple[Any, ...]

#: Outcomes that say the work was not done: while one is recorded, the node's proof does not hold.
REFUSING = frozenset({"failed", "partial", "skipped", "blocked"})
_OFFERED = ("pending", "waiting-user")
ABSENT_CLASS, PRESENT_CLASS = 0, 1


def _frame_prefix(frame: FrameTrace) -> str:
    return ">".join((*frame.call_path, frame.graph.id)) + "/"


class FactSpace:
    """The fact paths a Graph closure reads, their classes, and the Facts object of a valuation."""

    def __init__(self, tests: Iterable[FactTest]) -> None:
        values: dict[str, list[Any]] = {}
        exists: dict[str, bool] = {}
        segments: dict[str, tuple[str, ...]] = {}
        for test in tests:
            path = ".".join(test.segments)
            segments.setdefault(path, test.segments)
            found = values.setdefault(path, [])
            exists.setdefault(path, False)
            if test.mode == EQUALS:
                if not any(_same_value(test.value, known) for known in found):
                    found.append(test.value)
            else:
                exists[path] = True
        #: Paths in the order of their segments (a path before the paths below it).
        self.paths: tuple[str, ...] = tuple(sorted(values, key=lambda p: segments[p]))
        self.index: dict[str, int] = {path: i for i, path in enumerate(self.paths)}
        self.segments: tuple[tuple[str, ...], ...] = tuple(segments[p] for p in self.paths)
        self.values: tuple[tuple[Any, ...], ...] = tuple(tuple(values[p]) for p in self.paths)
        self.exists_tested: tuple[bool, ...] = tuple(exists[p] for p in self.paths)
        #: The classes a host may set each path to.
        self.choices: tuple[tuple[int, ...], ...] = tuple(
            (ABSENT_CLASS, *((PRESENT_CLASS,) if exists[p] else ()), *range(2, 2 + len(values[p])))
            for p in self.paths
        )
        by_segments = {segments[p]: i for i, p in enumerate(self.paths)}
        prefixes: list[list[int]] = [[] for _ in self.paths]
        below: list[list[int]] = [[] for _ in self.paths]
        for i, parts in enumerate(self.segments):
            for length in range(1, len(parts)):
                above = by_segments.get(parts[:length])
                if above is not None:
                    prefixes[i].append(above)
                    below[above].append(i)
        self.prefixes: tuple[tuple[int, ...], ...] = tuple(tuple(p) for p in prefixes)
        self.below: tuple[tuple[int, ...], ...] = tuple(tuple(b) for b in below)
        self._placeholders: list[str] = []
        for named in self.values:
            text = "present"
            suffix = 1
            while any(isinstance(v, str) and v == text for v in named):
                suffix += 1
                text = f"present-{suffix}"
            self._placeholders.append(text)

    def accepted(self, test: FactTest) -> tuple[int, frozenset[int]]:
        """The path index of a check and the classes under which it holds."""
        path = self.index[".".join(test.segments)]
        count = 2 + len(self.values[path])
        if test.mode == EXISTS:
            return path, frozenset(range(1, count))
        if test.mode == ABSENT:
            return path, frozenset({ABSENT_CLASS})
        position = next(i for i, v in enumerate(self.values[path]) if _same_value(test.value, v))
        return path, frozenset({2 + position})

    def initial(self) -> tuple[int, ...]:
        """Every path free: a new Run may hold any Facts."""
        return (FREE,) * len(self.paths)

    def _holds_nothing(self, path: int, value: int) -> bool:
        """Whether class ``value`` of ``path`` leaves nothing below it: absent (a path an ``exists``
        check reads) or a scalar."""
        return value >= 2 or (value == ABSENT_CLASS and self.exists_tested[path])

    def _container(self, path: int) -> int:
        """The class of ``path`` holding an object: present, or "no value a check names" for a path no
        ``exists`` check reads."""
        return PRESENT_CLASS if self.exists_tested[path] else ABSENT_CLASS

    def resolutions(self, valuation: Sequence[int], path: int) -> list[int]:
        """The classes a free ``path`` can have beside the paths around it that are not free."""
        if any(
            valuation[upper] != FREE and self._holds_nothing(upper, valuation[upper])
            for upper in self.prefixes[path]
        ):
            return [ABSENT_CLASS]  # under an absent path or a scalar
        if any(valuation[lower] > ABSENT_CLASS for lower in self.below[path]):
            return [self._container(path)]  # above a present path
        return list(self.choices[path])

    def resolve(self, valuation: tuple[int, ...], path: int, value: int) -> tuple[int, ...]:
        """``valuation`` with the free ``path`` given class ``value`` (one of its :meth:`resolutions`)."""
        return (*valuation[:path], value, *valuation[path + 1 :])

    def set(self, valuation: tuple[int, ...], path: int, value: int) -> tuple[int, ...]:
        """``valuation`` with ``path`` set to class ``value``, made consistent along the path (free paths
        around it included).

        Absent (for a path an ``exists`` check reads) or a scalar leaves every
        path below absent; a present value puts an object above it. A path no
        ``exists`` check reads has no "present" class of its own: its class 0
        means "none of the values its checks name", which an object above a
        present path is.
        """
        changed = list(valuation)
        changed[path] = value
        if self._holds_nothing(path, value):
            for lower in self.below[path]:
                changed[lower] = ABSENT_CLASS
        if value > ABSENT_CLASS:
            for upper in self.prefixes[path]:
                changed[upper] = self._container(upper)
        return tuple(changed)

    def facts(self, valuation: Sequence[int]) -> dict[str, Any]:
        """A Facts object with exactly these classes (objects along the paths, a placeholder for "present");
        a free path is left out."""
        facts: dict[str, Any] = {}
        for i, value in enumerate(valuation):
            if value <= ABSENT_CLASS:
                continue
            parts = self.segments[i]
            holder = facts
            for part in parts[:-1]:
                inner = holder.get(part)
                if not isinstance(inner, dict):
                    inner = {}
                    holder[part] = inner
                holder = inner
            if value >= 2:
                holder[parts[-1]] = self.values[i][value - 2]
            elif any(valuation[lower] > ABSENT_CLASS for lower in self.below[i]):
                if not isinstance(holder.get(parts[-1]), dict):
                    holder[parts[-1]] = {}
            else:
                holder[parts[-1]] = self._placeholders[i]
        return facts

    def describe(self, path: int, value: int) -> str:
        """``report.digest absent``, ``report.digest present``, ``report.approved = true``."""
        name = self.paths[path]
        if value == ABSENT_CLASS:
            return f"{name} absent"
        if value == PRESENT_CLASS:
            return f"{name} present"
        return f"{name} = {_json_scalar(self.values[path][value - 2])}"

    def value(self, path: int, value: int) -> Any:
        """The JSON value a trace step shows for a class: absent (``None`` with ``present`` false) or the value."""
        return self.values[path][value - 2] if value >= 2 else None


def _same_value(left: Any, right: Any) -> bool:
    return scalar_equals(left, right)


def _json_scalar(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


class NodeInfo:
    """What exploring needs of one Action or Gate node: its proof, alphabet and outcome classes."""

    __slots__ = ("delegated_to", "graph", "is_gate", "moves", "node", "proof")

    def __init__(
        self, graph: CompiledGraph, node: CompiledNode, space: FactSpace, alphabet: Sequence[str]
    ) -> None:
        self.graph = graph
        self.node = node
        self.is_gate = node.is_gate
        self.delegated_to = node.delegated_to
        self.proof: tuple[tuple[int, frozenset[int]], ...] | None = (
            tuple(space.accepted(test) for test in node.satisfied) if node.satisfied is not None else None
        )
        repeats = graph.repeat_edges

        def signature(outcome: str) -> tuple[Any, ...]:
            settled = "unverified" if node.satisfied is not None and outcome == "completed" else outcome
            return (
                tuple(settled in accepted for _target, accepted in node.flow_out),
                tuple(settled in repeats[edge][2] for edge in node.repeat_out),
                settled in _OFFERED,
                node.satisfied is not None and outcome in REFUSING,
            )

        unrecorded = signature("pending")
        seen: dict[tuple[Any, ...], str | None] = {}
        moves: list[tuple[str, str | None]] = []
        for outcome in alphabet:
            key = signature(outcome)
            if key in seen:
                continue
            representative = None if key == unrecorded else outcome
            seen[key] = representative
            moves.append((outcome, representative))
        #: ``(outcome shown, representative recorded or None for no record)``, one per class.
        self.moves: tuple[tuple[str, str | None], ...] = tuple(moves)

    def proven(self, valuation: Sequence[int]) -> bool:
        """Whether the node's ``satisfiedBy`` holds under ``valuation`` (False without one)."""
        proof = self.proof
        return proof is not None and all(valuation[path] in classes for path, classes in proof)


def _alphabet(graph: CompiledGraph, node: CompiledNode, every: bool) -> list[str]:
    if every:
        return list(OUTCOMES)
    named = {"completed"}
    for _target, accepted in node.flow_out:
        named.update(accepted)
    for edge in node.repeat_out:
        named.update(graph.repeat_edges[edge][2])
    if node.is_gate:
        named.add("failed")
    return [o for o in OUTCOMES if o in named] + sorted(o for o in named if o not in OUTCOMES)


@dataclass(slots=True, eq=False)
class StateInfo:
    """What the evaluation of one state answered, as verify and test generation read it.

    ``candidates`` are ``(state key, node info, availability)`` in rank order;
    ``firing`` the repeat edges whose source is reached with an outcome they
    accept, and ``released`` those whose source is reached with another, as
    ``(frame prefix, repeat edge index)``; ``terminals`` the IDs of the terminals the top frame
    reached; ``codes`` the diagnostic codes in order.
    """

    status: str
    outcome: str | None
    candidates: tuple[tuple[str, NodeInfo, str], ...]
    firing: frozenset[tuple[str, int]]
    released: frozenset[tuple[str, int]]
    terminals: tuple[str, ...]
    codes: tuple[str, ...]

    @property
    def primary(self) -> str | None:
        """The node ID of the primary route (None when no route is offered)."""
        return self.candidates[0][1].node.id if self.candidates else None


class Exploration:
    """The explored state space of one Graph entry.

    States are numbered in the order they were found; ``valuations``,
    ``records`` (sorted ``(state key, outcome)`` pairs) and ``authorities``
    (sorted) are their parts, ``parents`` and ``moves`` the step that found
    them (-1 and None for the start), ``infos`` their evaluations (None for a
    state found but never evaluated: the frontier) and ``successors`` the
    distinct states each evaluated state moves to. ``stopped`` is None when
    every reachable state was evaluated, else ``"max-states"`` or ``"time"``.
    ``reached`` and ``taken`` are the node indices and edge positions that
    some evaluation reached, and ``settled`` the ``(node index, outcome)``
    pairs, per Graph ID.
    """

    def __init__(self, provider: Provider, graph: str, entry: str, space: FactSpace) -> None:
        self.provider = provider
        self.graph = graph
        self.entry = entry
        self.space = space
        self.valuations: list[tuple[int, ...]] = []
        self.records: list[tuple[tuple[str, str], ...]] = []
        self.authorities: list[tuple[str, ...]] = []
        self.parents: list[int] = []
        self.moves: list[Move | None] = []
        self.infos: list[StateInfo | None] = []
        self.successors: list[tuple[int, ...]] = []
        self.stopped: str | None = None
        self.transitions = 0
        self.reached: dict[str, set[int]] = {}
        self.taken: dict[str, set[int]] = {}
        self.nodes: dict[str, NodeInfo] = {}
        self._reverse: list[list[int]] | None = None

    @property
    def evaluated(self) -> int:
        """How many states were evaluated (the frontier left out)."""
        return len(self.successors)

    @property
    def complete(self) -> bool:
        """Whether every reachable state was evaluated."""
        return self.stopped is None

    def state(self, index: int) -> tuple[dict[str, Any], dict[str, str], list[str]]:
        """The Facts, Outcomes and authorities of a state, as evaluation takes them."""
        return (
            self.space.facts(self.valuations[index]),
            dict(self.records[index]),
            list(self.authorities[index]),
        )

    def path(self, index: int) -> list[int]:
        """The states from the start to ``index`` (a shortest path)."""
        chain = [index]
        while self.parents[chain[-1]] >= 0:
            chain.append(self.parents[chain[-1]])
        chain.reverse()
        return chain

    def trace(self, index: int) -> list[Move]:
        """The moves of a shortest path from the start to ``index``."""
        return [move for state in self.path(index)[1:] if (move := self.moves[state]) is not None]

    def predecessors(self) -> list[list[int]]:
        """The reverse of ``successors`` (computed once; do not change it)."""
        if self._reverse is None or len(self._reverse) != len(self.valuations):
            reverse: list[list[int]] = [[] for _ in self.valuations]
            for source, targets in enumerate(self.successors):
                for target in targets:
                    reverse[target].append(source)
            self._reverse = reverse
        return self._reverse

    def reaching(self, targets: Iterable[int]) -> bytearray:
        """Which states can reach one of ``targets`` (themselves included)."""
        return _spread(targets, self.predecessors(), len(self.valuations))

    def reaching_from(self, starts: Iterable[int]) -> bytearray:
        """Which states ``starts`` reach (themselves included)."""
        return _spread(starts, self.successors, len(self.valuations))

    def held(self, index: int) -> list[str]:
        """What the Facts held, of what the checks read, when the Run of a state's shortest path started
        (``report.digest present``, ``report.approved = true``)."""
        valuation = self.valuations[self.path(index)[0]]
        return [self.space.describe(path, value) for path, value in enumerate(valuation) if value > 0]

    def describe(self, move: Move) -> str:
        """A move in words (see :func:`move_text`)."""
        return move_text(self.space, move)


def _spread(starts: Iterable[int], links: Sequence[Sequence[int]], size: int) -> bytearray:
    """Which of ``size`` states ``starts`` reach along ``links`` (a state without links has none)."""
    seen = bytearray(size)
    stack = []
    for start in starts:
        if not seen[start]:
            seen[start] = 1
            stack.append(start)
    while stack:
        current = stack.pop()
        if current < len(links):
            for other in links[current]:
                if not seen[other]:
                    seen[other] = 1
                    stack.append(other)
    return seen


def move_text(space: FactSpace, move: Move) -> str:
    """``record failed at report/approve``, ``set report.digest present``, ``grant report.publish``."""
    kind = move[0]
    if kind == RECORD:
        return f"record {move[2]} at {move[1]}"
    if kind == FACT:
        return f"set {space.describe(move[1], move[2])}"
    return f"{'grant' if move[2] else 'withhold'} authority {move[1]}"


def closure(provider: Provider, graph: str, entry: str) -> list[tuple[CompiledGraph, CompiledNode]]:
    """The nodes an evaluation of ``graph``/``entry`` can reach by the Graph's shape, Subgraphs entered.

    Walks flow and repeat edges from the entry, and each Subgraph node's child
    from its entry, each Graph entry once (iteratively).
    """
    found: list[tuple[CompiledGraph, CompiledNode]] = []
    seen_nodes: set[tuple[str, int]] = set()
    seen_entries: set[tuple[str, str]] = set()
    work: list[tuple[str, str]] = [(graph, entry)]
    while work:
        graph_id, entry_name = work.pop()
        if (graph_id, entry_name) in seen_entries:
            continue
        seen_entries.add((graph_id, entry_name))
        compiled = provider.graphs.get(graph_id)
        if compiled is None:
            continue
        start = compiled.entrypoints.get(entry_name)
        if start is None or start not in compiled.index:
            continue
        stack = [compiled.index[start]]
        while stack:
            index = stack.pop()
            if (graph_id, index) in seen_nodes:
                continue
            seen_nodes.add((graph_id, index))
            node = compiled.nodes[index]
            found.append((compiled, node))
            if node.is_subgraph and node.child_graph:
                work.append((node.child_graph, node.child_entry or ""))
            stack.extend(target for target, _accepted in node.flow_out)
            stack.extend(compiled.repeat_edges[edge][1] for edge in node.repeat_out)
    return found


def explore(
    provider: Provider,
    graph: str,
    entry: str = "default",
    *,
    max_states: int = 100_000,
    expired: Callable[[], bool] | None = None,
    outcomes: str = "declared",
    fact_changes: str = "free",
) -> Exploration:
    """Explore the states a host can reach from ``graph``/``entry`` (see the module's description).

    ``max_states`` bounds the states found (and so the memory); ``expired`` is asked every few
    states whether the time is up; ``outcomes`` is ``declared`` (each node's
    alphabet) or ``all`` (every outcome); ``fact_changes`` is ``free`` (any fact path
    read may change at any time) or ``progress`` (the same, except that a
    node's ``satisfiedBy`` that holds stays true: published proof is never
    withdrawn, so a record of a proven node no longer counts). Raises ``graph-missing``,
    ``entry-missing`` and ``argument-invalid``.
    """
    if not isinstance(provider, Provider):
        raise AgentGraphError("argument-invalid", "verify needs the loaded Provider (ag.load_provider)")
    compiled = provider.graphs.get(graph) if isinstance(graph, str) else None
    if compiled is None:
        raise provider.graph_missing(graph)
    if not isinstance(entry, str) or entry not in compiled.entrypoints:
        raise provider.entry_missing(graph, entry)
    if isinstance(max_states, bool) or not isinstance(max_states, int) or max_states < 1:
        raise AgentGraphError(
            "argument-invalid", f"max_states must be a positive number of states, not {max_states!r:.40}"
        )
    if fact_changes not in ("free", "progress"):
        raise AgentGraphError(
            "argument-invalid",
            f"fact_changes must be free or progress, not {fact_changes!r:.40} "
            f"(choices: {listing(['free', 'progress'])})",
        )
    if outcomes not in ("declared", "all"):
        raise AgentGraphError(
            "argument-invalid",
            f"outcomes must be declared or all, not {outcomes!r:.40} (choices: {listing(['declared', 'all'])})",
        )
    nodes = closure(provider, graph, entry)
    space = FactSpace(
        test for _graph, node in nodes for tests in (node.requires, node.satisfied) if tests for test in tests
    )
    every = outcomes == "all"
    result = Exploration(provider, graph, entry, space)
    infos: dict[tuple[str, int], NodeInfo] = {}
    for owner, node in nodes:
        if node.is_action or node.is_gate:
            infos[(owner.id, node.index)] = NodeInfo(owner, node, space, _alphabet(owner, node, every))
    known = result.nodes  # state key -> node info, as candidates offer them
    # The fact paths each node reads (requiresFacts and satisfiedBy), by (graph, node index).
    reads: dict[tuple[str, int], tuple[int, ...]] = {
        (owner.id, node.index): tuple(
            dict.fromkeys(
                space.index[".".join(test.segments)]
                for tests in (node.requires, node.satisfied)
                if tests
                for test in tests
            )
        )
        for owner, node in nodes
    }
    numbers: dict[tuple[Any, ...], int] = {}
    settled: dict[tuple[Any, ...], tuple[int, ...]] = {}  # what a move led to, by what it produced
    # Found, not expanded: the evaluation, the paths read, and (fact_changes="progress") the nodes proven.
    waiting: dict[int, tuple[StateInfo, frozenset[int], tuple[NodeInfo, ...]]] = {}
    progress = fact_changes == "progress"

    def settle(
        valuation: tuple[int, ...],
        records: tuple[tuple[str, str], ...],
        granted: tuple[str, ...],
        parent: int,
        move: Move | None,
    ) -> tuple[int, ...]:
        """The states a move leads to: its free paths that a reached node reads take each value they can
        (one state per choice), and the paths nothing reads are then free again."""
        produced = (valuation, records, granted)
        known_states = settled.get(produced)
        if known_states is not None:
            return known_states
        recorded = dict(records)
        refusing = [
            known[key] for key, outcome in records if outcome in REFUSING and known[key].proof is not None
        ]
        protected = {path for held in refusing for path, _classes in held.proof or ()}
        found: list[int] = []
        work = [valuation]
        while work:
            current = work.pop()
            trace: list[FrameTrace] = []
            evaluation, candidates = evaluate_with_candidates(
                provider, graph, entry, space.facts(current), recorded, granted, trace=trace
            )
            read: set[int] = set()
            reached_nodes: list[tuple[str, int]] = []
            for frame in trace:
                if frame.error is None:
                    graph_id = frame.graph.id
                    for index in frame.reached:
                        reached_nodes.append((graph_id, index))
                        read.update(reads.get((graph_id, index), ()))
            free = sorted(path for path in read if current[path] == FREE)
            if free:  # a path read for the first time: the host may have set it to anything
                path = free[0]
                options = [
                    value
                    for value in space.resolutions(current, path)
                    if not any(held.proven(space.resolve(current, path, value)) for held in refusing)
                ]
                work.extend(space.resolve(current, path, value) for value in reversed(options))
                continue
            kept = read | protected
            canonical = tuple(value if i in kept else FREE for i, value in enumerate(current))
            proven: tuple[NodeInfo, ...] = ()
            kept_records = records
            if progress:  # a proof, once published, stays: a record of a proven node never matters again
                proven = tuple(
                    dict.fromkeys(
                        node
                        for where in reached_nodes
                        if (node := infos.get(where)) is not None and node.proven(canonical)
                    )
                )
                kept_records = tuple((k, o) for k, o in records if o in REFUSING or known[k] not in proven)
            key = (canonical, kept_records, granted)
            number = numbers.get(key)
            if number is None:
                number = len(result.valuations)
                if number >= max_states:
                    raise _Bound
                numbers[key] = number
                result.valuations.append(canonical)
                result.records.append(kept_records)
                result.authorities.append(granted)
                result.parents.append(parent)
                result.moves.append(move)
                result.infos.append(None)
                info = _state_info(
                    evaluation.status_code,
                    evaluation.outcome,
                    tuple(d.code for d in evaluation.diagnostics),
                    candidates,
                    trace,
                    infos,
                    known,
                )
                waiting[number] = (info, frozenset(kept), proven)
                for frame in trace:
                    if frame.error is None:
                        reached = result.reached.setdefault(frame.graph.id, set())
                        taken = result.taken.setdefault(frame.graph.id, set())
                        if len(reached) < len(frame.graph.nodes) or len(taken) < len(
                            frame.graph.definition.edges
                        ):
                            seen = frame_coverage(frame)
                            reached |= seen.nodes
                            taken |= seen.edges
            found.append(number)
        answer = tuple(dict.fromkeys(found))
        if len(settled) >= _SETTLED_LIMIT:
            settled.clear()  # only saves evaluations: bounded, and nothing is lost but time
        settled[produced] = answer
        return answer

    try:
        settle(space.initial(), (), (), -1, None)
    except _Bound:
        result.stopped = "max-states"
        return result
    choices = space.choices
    expanded = 0
    while expanded < len(result.valuations):
        if expired is not None and expanded % 32 == 0 and expired():
            result.stopped = "time"
            break
        current = expanded
        info, movable, proven_nodes = waiting[current]
        try:
            targets = (
                _moves(
                    space,
                    choices,
                    settle,
                    current,
                    result.valuations[current],
                    result.records[current],
                    result.authorities[current],
                    info,
                    known,
                    movable,
                    proven_nodes,
                )
                if info.status != "complete"
                else []
            )
        except _Bound:
            # The states found reached the bound: this state's moves are left unexplored (it joins the
            # frontier, with the states found while expanding it), and the exploration stops.
            result.stopped = "max-states"
            break
        del waiting[current]
        result.infos[current] = info
        expanded += 1
        unique = tuple(dict.fromkeys(t for t in targets if t != current))
        result.transitions += len(unique)
        result.successors.append(unique)
    return result


#: What a move led to, remembered for at most this many moves.
_SETTLED_LIMIT = 100_000


class _Bound(Exception):
    """The number of states found reached ``max_states``."""


def _moves(
    space: FactSpace,
    choices: Sequence[Sequence[int]],
    settle: Callable[..., tuple[int, ...]],
    current: int,
    valuation: tuple[int, ...],
    records: tuple[tuple[str, str], ...],
    granted: tuple[str, ...],
    info: StateInfo,
    known: Mapping[str, NodeInfo],
    movable: frozenset[int],
    proven: Sequence[NodeInfo] = (),
) -> list[int]:
    """The states one host move leads to from a state that is not complete.

    Records at the offered state keys, in rank order; the authorities of the
    offered Gates; then a change of one fact path the evaluation reads (or of
    a standing failure's proof). A path nothing reads is free: it cannot change
    the answer, and whatever the host set it to is taken when a node reads it.
    """
    targets: list[int] = []
    recorded = dict(records)
    constrained = [
        known[key] for key, outcome in records if outcome in REFUSING and known[key].proof is not None
    ]
    for key, offered, _availability in info.candidates:
        before = recorded.get(key)
        for shown, representative in offered.moves:
            if representative == before:
                continue
            if representative in REFUSING and offered.proven(valuation):
                continue  # a failure is not recorded over the proof of the work
            changed = dict(recorded)
            if representative is None:
                del changed[key]
            else:
                changed[key] = representative
            targets.extend(
                settle(
                    valuation,
                    tuple(sorted(changed.items())),
                    granted,
                    current,
                    (RECORD, key, shown, representative),
                )
            )
    for name in sorted({o.delegated_to for _k, o, _a in info.candidates if o.delegated_to}):
        present = name in granted
        changed_authorities = (
            tuple(a for a in granted if a != name) if present else tuple(sorted((*granted, name)))
        )
        targets.extend(
            settle(valuation, records, changed_authorities, current, (AUTHORITY, name, not present))
        )
    for path in sorted(movable):
        for value in choices[path]:
            if value == valuation[path]:
                continue
            changed_valuation = space.set(valuation, path, value)
            if changed_valuation == valuation:
                continue
            if any(held.proven(changed_valuation) for held in constrained):
                continue  # a recorded failure stands
            if any(not node.proven(changed_valuation) for node in proven):
                continue  # fact_changes="progress": a published proof stays
            targets.extend(settle(changed_valuation, records, granted, current, (FACT, path, value)))
    return targets


def _state_info(
    status: str,
    outcome: str | None,
    codes: tuple[str, ...],
    candidates: Sequence[Candidate],
    trace: Sequence[FrameTrace],
    infos: Mapping[tuple[str, int], NodeInfo],
    known: dict[str, NodeInfo],
) -> StateInfo:
    offered: list[tuple[str, NodeInfo, str]] = []
    for candidate in candidates:
        node = infos.get((candidate.graph.id, candidate.node.index))
        if node is None:  # not in the closure: cannot happen for a loaded Provider
            continue
        known.setdefault(candidate.state_key, node)
        offered.append((candidate.state_key, node, candidate.availability))
    firing: set[tuple[str, int]] = set()
    released: set[tuple[str, int]] = set()
    terminals: tuple[str, ...] = ()
    for frame in trace:
        if frame.error is not None:
            continue
        graph = frame.graph
        settled = frame.outcomes
        if graph.repeat_edges:
            prefix = _frame_prefix(frame)
            for position, (source, _target, accepted) in enumerate(graph.repeat_edges):
                if settled[source] is not None:
                    (firing if settled[source] in accepted else released).add((prefix, position))
    if trace:
        top = trace[-1]
        if top.error is None:
            terminals = tuple(
                top.graph.nodes[i].id
                for i in top.reached
                if top.graph.nodes[i].is_terminal and top.outcomes[i]
            )
    return StateInfo(
        status, outcome, tuple(offered), frozenset(firing), frozenset(released), terminals, codes
    )
