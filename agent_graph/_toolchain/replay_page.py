"""The replay page of a Run: one self-contained HTML file to step through it event by event.

:func:`render_replay_page` replays the Run (:func:`agent_graph.replay`, the one
evaluator) and writes a single page: the Run's Graph as SVG
(:mod:`.replay_layout`), a timeline with a slider, the changes and the route
offered at the selected event, each node coloured by its status then, and a
card per node on hover or focus. The page's style sheet and script are package
data (``replay_assets/``) inlined into the file with the replay as JSON: it
loads nothing from anywhere, and opens from disk in any current browser.

The page grows linearly with the Run: per event it keeps only what differs
from the event before, and everything repeated is stored once. The data block
(``#replay-data``, read by ``replay.js``) holds:

* ``routes``, ``lists`` and ``values``: each distinct route offered, each
  distinct list (alternative routes, their node indexes, diagnostics) and each
  distinct shown value (a Fact or authority list as JSON text, cut to
  :data:`VALUE_LIMIT` characters), once; steps refer to them by index;
* per event (``steps``): the event itself (time, type, node, outcome, who,
  comment, its detail without the values a Facts event records, since the
  changes show them), the status, revision and outcome after it, the
  route offered (``p``), the node status letters that changed since the event
  before (``nd``; the first event has them all, ``ns``), the changes (``ch``:
  part, key, the value indexes before and after, what is not recorded) and,
  where the events do not record the whole state, flags and the keys that
  became or stopped being unrecorded (``x``).

The script rebuilds the full state of any event from these deltas (keeping a
copy every :data:`KEYFRAME` events, so a jump costs at most that many steps).

Node status at an event (``nodeStatus``): the Outcome the evaluator settles the
node to (:func:`agent_graph._core.evaluate.settled_outcomes` for the Run's own
frame), ``offered`` for the node of the primary route (or the Subgraph node
whose call holds it), ``alternative`` for the nodes of the other routes,
``not-reached`` otherwise.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from importlib import resources
from typing import Any

import msgspec

from .._core.canonical import utf16_key
from .._core.evaluate import evaluate_with_candidates, settled_outcomes
from .._core.ir import CompiledGraph
from .._core.model import OUTCOMES, Run
from .._core.normalize import normalize_authorities, normalize_facts, normalize_outcomes, plain_facts
from .._core.provider import Provider
from .._core.replay import ReplayStep, replay
from .replay_layout import Layout, graph_svg

__all__ = [
    "STATUS_LETTERS",
    "VALUE_LIMIT",
    "node_statuses",
    "page_data",
    "render_replay_page",
    "replay_page",
]

#: Characters of a value (a Fact, a detail) the page shows before cutting it.
VALUE_LIMIT = 600
#: One letter per node status, in the page's data (``.`` not reached).
STATUS_LETTERS: dict[str, str] = {
    "completed": "c",
    "partial": "p",
    "failed": "f",
    "unverified": "u",
    "skipped": "s",
    "pending": "n",
    "blocked": "b",
    "waiting-user": "w",
}
_UNSET = msgspec.UNSET
#: Event types whose detail records Facts values (the changes show them).
_FACTS_EVENTS = frozenset({"run.started", "facts.updated", "facts.replaced", "run.forked"})


def _leaf_text(value: Any, limit: int) -> str:
    if isinstance(value, str) and len(value) > limit:
        value = value[: limit + 1]  # the rest is never shown: a long string costs what is shown
    return json.dumps(value, ensure_ascii=False, default=str)


def _members(value: dict[str, Any] | list[Any] | tuple[Any, ...]) -> Iterator[tuple[str, Any]]:
    """The parts of a container as the page writes them: ``(text, None)`` or ``("", member)``, lazily."""
    if isinstance(value, dict):
        yield "{", None
        for index, (key, member) in enumerate(value.items()):
            yield f"{', ' if index else ''}{_leaf_text(key, VALUE_LIMIT)}: ", None
            yield "", member
        yield "}", None
    else:
        yield "[", None
        for index, member in enumerate(value):
            if index:
                yield ", ", None
            yield "", member
        yield "]", None


def _shown(value: Any, limit: int = VALUE_LIMIT) -> str:
    """A value as compact JSON text (``", "`` and ``": "``), cut to ``limit`` characters.

    Written part by part and stopped once past the limit, without recursion:
    a value costs what is shown of it, however large or deep it is (a Facts
    event of a Run whose Facts grow shows each value before and after it).
    """
    pieces: list[str] = []
    size = 0
    stack: list[Iterator[tuple[str, Any]]] = [iter((("", value),))]
    while stack and size <= limit:
        part = next(stack[-1], None)
        if part is None:
            stack.pop()
            continue
        text, member = part
        if not text and isinstance(member, (dict, list, tuple)):
            stack.append(_members(member))
            continue
        if not text:
            text = _leaf_text(member, limit)
        pieces.append(text)
        size += len(text)
    shown = "".join(pieces)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _top_node(graph: CompiledGraph, call_path: Iterable[str], node: str) -> int | None:
    """The index of the node of ``graph`` a candidate sits at or below (through its call path)."""
    path = list(call_path)
    node_id = path[0].split("/", 1)[1] if path else node
    return graph.index.get(node_id)


def node_statuses(provider: Provider, run: Run, step: ReplayStep) -> dict[str, str]:
    """Node ID → status at ``step`` (an Outcome, ``offered``, ``alternative`` or ``not-reached``).

    What the page shows, computed by the evaluator: a node a route is offered
    at shows the route first (a draft recorded ``partial`` and offered again
    is ``offered``).
    """
    graph = provider.graphs[run.graph]
    letters, primary, alternatives = _status_letters(provider, run, step)
    names = {letter: name for name, letter in STATUS_LETTERS.items()}
    result: dict[str, str] = {}
    for node in graph.nodes:
        if node.index == primary:
            result[node.id] = "offered"
        elif node.index in alternatives:
            result[node.id] = "alternative"
        else:
            result[node.id] = names.get(letters[node.index], "not-reached")
    return result


def _status_letters(provider: Provider, run: Run, step: ReplayStep) -> tuple[str, int | None, set[int]]:
    graph = provider.graphs[run.graph]
    outcomes = {key: record.outcome for key, record in step.outcomes.items()}
    _evaluation, candidates = evaluate_with_candidates(
        provider, run.graph, run.entry, step.facts, outcomes, step.authorities
    )
    facts = plain_facts(normalize_facts(step.facts))
    settled = settled_outcomes(
        provider,
        graph,
        run.entry,
        (),
        facts,
        normalize_outcomes(outcomes),
        normalize_authorities(step.authorities),
    )
    letters = "".join(STATUS_LETTERS.get(str(settled.get(node.id, "")), ".") for node in graph.nodes)
    primary = None
    alternatives: set[int] = set()
    for position, candidate in enumerate(candidates):
        index = _top_node(graph, candidate.call_path, candidate.node.id)
        if index is None:
            continue
        if position == 0:
            primary = index
        elif index != primary:
            alternatives.add(index)
    return letters, primary, alternatives


def _node_card(provider: Provider, graph: CompiledGraph, index: int) -> dict[str, Any]:
    node = graph.nodes[index]
    definition = node.definition
    card: dict[str, Any] = {"id": node.id, "kind": node.kind, "key": f"{graph.id}/{node.id}"}
    if definition.description:
        card["description"] = definition.description
    if definition.reason_code:
        card["reasonCode"] = definition.reason_code
    route = provider.node_routes.get((graph.id, node.id))
    action_path = route.action if route is not None else None
    loaded = provider.actions.get(action_path) if action_path else None
    if loaded is not None:
        action = loaded.definition
        card["action"] = {
            "id": action.id,
            "runner": action.runner,
            "effect": action.effect,
            **({"description": action.description} if action.description else {}),
            **({"command": action.command} if action.command else {}),
            **({"handler": action.handler} if action.handler else {}),
        }
    elif definition.action:
        card["action"] = {"id": definition.action}
    if definition.resources is not None:
        card["resources"] = {
            "required": list(definition.resources.required or ()),
            "recommended": list(definition.resources.recommended or ()),
        }
    if definition.gate is not None:
        gate = definition.gate
        card["gate"] = {
            "prompt": gate.prompt,
            **({"authority": gate.authority} if gate.authority else {}),
            **({"delegatable": gate.delegatable} if gate.delegatable is not None else {}),
        }
    if definition.graph:
        card["calls"] = f"{definition.graph}#{definition.entry or 'default'}"
    if definition.terminal_outcome:
        card["terminalOutcome"] = definition.terminal_outcome
    for name, checks in (
        ("satisfiedBy", definition.satisfied_by),
        ("requiresFacts", definition.requires_facts),
    ):
        if checks:
            card[name] = [_check_text(check) for check in checks]
    return card


def _check_text(check: Any) -> str:
    if check.exists is not _UNSET:
        return f"{check.path} {'exists' if check.exists else 'is absent'}"
    return f"{check.path} = {_shown(check.equals, 80)}"


def _recorder(detail: Any) -> str:
    """Who or what recorded an event, when its detail says (``by``, ``recordedBy``, ``actor``, ``agent``)."""
    if isinstance(detail, dict):
        for key in ("by", "recordedBy", "actor", "agent", "user"):
            value = detail.get(key)
            if isinstance(value, str) and value:
                return value
    return ""


def _comment(detail: Any) -> str:
    if isinstance(detail, dict):
        for key in ("comment", "reason", "note", "message"):
            value = detail.get(key)
            if isinstance(value, str) and value:
                return value
    elif isinstance(detail, str):
        return detail
    return ""


#: Detail fields of a Facts event that the changes already show (the values it records).
_RECORDED_VALUES = frozenset({"set", "merge", "facts"})


class _Tables:
    """What steps share, each distinct item once: routes, lists and shown values, by index."""

    def __init__(self) -> None:
        self.routes: dict[str, int] = {}
        self.lists: dict[str, int] = {}
        self.values: dict[str, int] = {}

    @staticmethod
    def _index(table: dict[str, int], key: str) -> int:
        found = table.get(key)
        if found is None:
            found = table[key] = len(table)
        return found

    def route(self, offered: dict[str, Any]) -> int:
        return self._index(self.routes, json.dumps(offered, sort_keys=True))

    def list(self, items: list[Any]) -> int:
        return self._index(self.lists, json.dumps(items))

    def value(self, value: Any) -> int:
        """The index of ``value`` shown (cut to :data:`VALUE_LIMIT`), or -1 when absent or not recorded."""
        if value is _UNSET:
            return -1
        return self._index(self.values, _shown(value))


def _letters_delta(before: str, after: str) -> list[Any]:
    """``[first, count, letter, …]``: the runs of consecutive nodes whose status letter changed to one letter."""
    changed: list[Any] = []
    for index, (old, new) in enumerate(zip(before, after, strict=True)):
        if old == new:
            continue
        if changed and changed[-1] == new and changed[-3] + changed[-2] == index:
            changed[-2] += 1
        else:
            changed.extend((index, 1, new))
    return changed


def _step_data(
    provider: Provider,
    run: Run,
    graph: CompiledGraph,
    step: ReplayStep,
    tables: _Tables,
    previous: tuple[str, tuple[str, ...]] | None,
) -> tuple[dict[str, Any], tuple[str, tuple[str, ...]]]:
    """One event as the page keeps it, and its letters and unrecorded keys (what the next one differs from)."""
    event = step.event
    evaluation = step.evaluation
    letters, primary_index, alternative_indexes = _status_letters(provider, run, step)
    data: dict[str, Any] = {
        "s": event.sequence,
        "t": event.at,
        "y": event.type,
        "st": evaluation.status_code,
        "rv": evaluation.revision,
    }
    if previous is None:
        data["ns"] = letters
    else:
        delta = _letters_delta(previous[0], letters)
        if delta:
            data["nd"] = delta
    if event.node is not None:
        data["n"] = event.node
        local = event.node.split("/", 1)
        if len(local) == 2 and local[0] == graph.id and ">" not in local[1] and local[1] in graph.index:
            data["ni"] = graph.index[local[1]]
    if event.outcome is not None:
        data["o"] = event.outcome
    if event.detail is not _UNSET:
        by = _recorder(event.detail)
        if by:
            data["by"] = by
        comment = _comment(event.detail)
        if comment:
            data["cm"] = comment[:VALUE_LIMIT]
        rest = event.detail
        if isinstance(rest, dict):
            values = _RECORDED_VALUES if event.type in _FACTS_EVENTS else frozenset()
            rest = {k: v for k, v in rest.items() if v not in (by, comment) and k not in values}
        if rest != {}:
            data["d"] = _shown(rest)
    if evaluation.outcome:
        data["oc"] = evaluation.outcome
    route = evaluation.primary_route
    if route is not None:
        offered = {
            "i": -1 if primary_index is None else primary_index,
            "g": route.graph,
            "n": route.node,
            "l": route.label,
            "r": route.reason_code,
            "st": route.status_code,
            "av": route.availability,
            **({"h": route.hint} if route.hint else {}),
        }
        data["p"] = tables.route(offered)
    if alternative_indexes:
        data["al"] = tables.list(sorted(alternative_indexes))
    if evaluation.alternative_routes:
        triples = [[r.node, r.reason_code, r.status_code] for r in evaluation.alternative_routes[:8]]
        data["ar"] = tables.list(triples)
        data["an"] = len(evaluation.alternative_routes)
    if evaluation.diagnostics:
        data["dg"] = tables.list([f"{d.code}: {d.message}"[:VALUE_LIMIT] for d in evaluation.diagnostics[:5]])
    changes = []
    for change in step.changes:
        if change.part == "outcomes":  # the record's time and detail are the event's own
            before = change.before["outcome"] if isinstance(change.before, dict) else None
            changes.append([change.part, change.key, before, change.after["outcome"], 0])
            continue
        changes.append(
            [
                change.part,
                change.key,
                tables.value(change.before if change.before_recorded else _UNSET),
                tables.value(change.after if change.after_recorded else _UNSET),
                (0 if change.before_recorded else 1) | (0 if change.after_recorded else 2),
            ]
        )
    if changes:
        data["ch"] = changes
    unrecorded = step.unrecorded_facts
    if not step.exact:
        data["x"] = {
            **({"f": 1} if unrecorded else {}),
            **({"af": 1} if step.all_facts_unrecorded else {}),
            **({"au": 1} if step.authorities_unrecorded else {}),
        }
    known = previous[1] if previous is not None else ()
    # The keys that became, or stopped being, unrecorded; the replay shares the tuple while they stay.
    if unrecorded is not known and unrecorded != known:
        now, then = frozenset(unrecorded), frozenset(known)
        data["xd"] = [sorted(now - then, key=utf16_key), sorted(then - now, key=utf16_key)]
    return data, (letters, unrecorded)


def page_data(provider: Provider, run: Run) -> dict[str, Any]:
    """The replay as the page's script reads it (see the module docstring)."""
    graph = provider.graphs.get(run.graph)
    tables = _Tables()
    steps = []
    previous: tuple[str, tuple[str, ...]] | None = None
    for step in replay(provider, run):
        data, previous = _step_data(provider, run, provider.graphs[run.graph], step, tables, previous)
        steps.append(data)
    assert graph is not None  # replay refused a missing Graph
    return {
        "keyframe": KEYFRAME,
        "routes": [json.loads(key) for key in tables.routes],
        "lists": [json.loads(key) for key in tables.lists],
        "values": list(tables.values),
        "provider": f"{provider.manifest.id}@{provider.manifest.version}",
        "run": {"id": run.id, "graph": run.graph, "entry": run.entry, "createdAt": run.created_at},
        "outcomes": list(OUTCOMES),
        "nodes": [_node_card(provider, graph, node.index) for node in graph.nodes],
        "steps": steps,
    }


#: The page template's placeholders, each filled once, in one pass (content never read as a placeholder).
_PLACEHOLDER = re.compile(r"\{\{(TITLE|LAYOUT|CSS|SVG|DATA|JS)\}\}")
#: Events between the states the script keeps whole (replay.js reads the same number from the data).
KEYFRAME = 64
_SURROGATE = re.compile("[\ud800-\udfff]")


def _asset(name: str) -> str:
    return (resources.files("agent_graph._toolchain") / "replay_assets" / name).read_text("utf-8")


def _script_json(value: Any) -> str:
    """JSON safe inside ``<script>``: no ``<`` (so no ``</script>``), no line separators that end strings,
    and a lone surrogate (which a Run may hold) as its ``\\uXXXX`` escape, so the page is UTF-8."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return _SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def _html_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _markup(text: str) -> str:
    """Markup that encodes as UTF-8: a lone surrogate (an ID read from a JSON file's escape) shown as U+FFFD."""
    return _SURROGATE.sub("\ufffd", text)


def render_replay_page(provider: Provider, run: Run, *, layout: Layout = "auto") -> str:
    """The replay page of ``run`` as one self-contained HTML document.

    ``layout``: ``auto`` (Graphviz ``dot`` when installed, else built in),
    ``dot`` (``replay-layout-unavailable`` without it) or ``builtin``. Raises
    what :func:`agent_graph.replay` raises for a Run it cannot replay.
    """
    return replay_page(provider, run, layout)[0]


def replay_page(provider: Provider, run: Run, layout: Layout = "auto") -> tuple[str, str]:
    """``(page, layout used)``: :func:`render_replay_page` and whether ``dot`` or the built-in layout drew it."""
    data = page_data(provider, run)
    svg, used = graph_svg(provider.graphs[run.graph], layout)
    title = f"Run {run.id} · {run.graph}#{run.entry} · {provider.manifest.id}"
    parts = {
        "TITLE": _markup(_html_text(title)),
        "LAYOUT": used,
        "CSS": _asset("replay.css"),
        "SVG": _markup(svg),
        "DATA": _script_json(data),
        "JS": _asset("replay.js"),
    }
    # One pass over the template: what a part holds (a Fact spelling {{DATA}}, say) is never filled again.
    page = _PLACEHOLDER.sub(lambda found: parts[found.group(1)], _asset("replay.html"))
    return page, used
