"""Hypothesis strategies: valid Graphs, evaluation states, hostile JSON values and mangled files.

Shared by ``tests/core/test_properties.py`` (fast settings, in the normal suite) and
the ``fuzz`` package (long runs). Graphs are generated valid by construction:
flow edges only go forward (no implicit cycle), terminals have no outgoing
edge, repeat edges target Actions or Gates, edges are never duplicated, and
only a Gate starts a ``gatedBy`` edge. A generated Provider that fails to load
is therefore a finding, not noise.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

import agent_graph as ag
from tests import providers

OUTCOMES: tuple[str, ...] = tuple(ag.types.OUTCOMES)
AUTHORITIES = ("release", "ops", "deploy")
FACT_PATHS = ("a", "b", "b.c", "list.0", "list.1", "x.y.z", "n", "flag")
ACTION_NAMES = ("cmd", "host", "script", "agent", "provider-cmd", "agent-nameless")
EDGE_KINDS = ("flow", "consumes", "requires", "gatedBy", "repeat")
CHILD = "child"
MAIN = "main"

# ------------------------------------------------------------------ hostile JSON values

#: Integers a JavaScript double cannot hold exactly, or at all.
BIG_INTEGERS = (2**53, 2**53 + 1, -(2**53) - 1, 2**64, 10**20, 10**21, 10**400, -(10**400))
#: An integer too long for ``str()`` under Python's default digit limit (built lazily: not even repr works).
huge_integers = st.builds(pow, st.just(10), st.sampled_from((5000, 20000)))
#: Floats at the edges of printing and comparison.
EDGE_FLOATS = (0.0, -0.0, 1e21, 1e-7, 1.5e-7, 5e-324, 1.7976931348623157e308, 0.1, 123456789012345680000.0)

any_text = st.text(
    alphabet=st.one_of(
        st.characters(codec=None, exclude_categories=()), st.sampled_from("\ud800\udcff\udfff\x00")
    ),
    max_size=12,
)
"""Text including lone surrogates, controls, NUL and astral characters."""

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from(BIG_INTEGERS),
    huge_integers,
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(EDGE_FLOATS),
    any_text,
)


def _assemble(parts: tuple[list[Any], int, list[str]]) -> Any:
    """Nest ``leaves`` into lists and objects as the bits of ``shape`` say (cheaper than recursive draws)."""
    leaves, shape, keys = parts
    stack: list[Any] = []
    for index, leaf in enumerate(leaves):
        operation = (shape >> (2 * index)) & 3
        if operation == 0 or (not stack and operation == 3):
            stack.append(leaf)
        elif operation == 1:
            stack.append([leaf])
        elif operation == 2:
            stack.append({keys[index % len(keys)]: leaf})
        elif isinstance(stack[-1], list):
            stack[-1].append(leaf)
        elif isinstance(stack[-1], dict):
            stack[-1][keys[(index + 1) % len(keys)]] = leaf
        else:
            stack[-1] = [stack[-1], leaf]
    mode = (shape >> 16) & 3
    if not stack:
        return ([], {}, None, "")[mode]
    if len(stack) == 1 and mode < 2:
        return stack[0]
    if mode & 1:
        return {f"{keys[j % len(keys)]}{j}": item for j, item in enumerate(stack)}
    return stack


json_values = st.tuples(
    st.lists(json_scalars, max_size=6),
    st.integers(0, (1 << 18) - 1),
    st.lists(any_text, min_size=1, max_size=3),
).map(_assemble)
"""Any value a host may hand over as JSON data (NaN, infinities and huge integers included), nested a few levels."""

#: What a hostile host may pass where the API takes an object (Facts, Outcomes): any JSON value, or an object of them.
hostile_objects = st.one_of(json_values, st.dictionaries(any_text, json_values, max_size=4))
#: What a hostile host may pass where the API takes a list (authorities): any JSON value, or a list of them.
hostile_lists = st.one_of(json_values, st.lists(json_values, max_size=4))

#: Scalars a Graph file may carry in ``equals`` (written as JSON text, so no NaN or infinity).
equals_values = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from((0, -0.0, 1, 1.0, 2, "yes", "", "0", 2**53 + 1, 0.5)),
    st.integers(-3, 3),
)


def deep_value(depth: int, kind: str = "dict") -> Any:
    """A value nested ``depth`` levels deep, built without recursion."""
    value: Any = 1
    for _ in range(depth):
        value = {"x": value} if kind == "dict" else [value]
    return value


# ------------------------------------------------------------------ graphs


_EQUALS_CHOICES = (None, True, False, 0, -0.0, 1, 1.0, 2, -1, "yes", "", "0", 2**53 + 1, 0.5)


def _fact_check(code: int) -> dict[str, Any]:
    """A fact check from one integer: path, mode and value packed together."""
    path = FACT_PATHS[code % len(FACT_PATHS)]
    code //= len(FACT_PATHS)
    if code % 2:
        return {"path": path, "exists": bool(code // 2 % 2)}
    return {"path": path, "equals": _EQUALS_CHOICES[code // 2 % len(_EQUALS_CHOICES)]}


_CHECK_CODE = st.integers(0, 2 * len(FACT_PATHS) * len(_EQUALS_CHOICES) - 1)


@st.composite
def fact_checks(draw: st.DrawFn, min_size: int = 0) -> list[dict[str, Any]]:
    """A list of fact checks over :data:`FACT_PATHS`."""
    return [_fact_check(code) for code in draw(st.lists(_CHECK_CODE, min_size=min_size, max_size=3))]


# Node flags, one bit each (integers shrink towards 0: no optional field).
_SATISFIED, _RESOURCES, _DESCRIBED, _REQUIRES, _PRIORITY, _JOIN_ANY, _JOIN_ALL = (1 << i for i in range(7))
_INSPECT, _RESOLVE, _DELEGATE, _SKIP, _DELEGATED_RESOLVE, _DELEGATED_RESOURCES = (
    1 << i for i in range(7, 13)
)
_NODE_SPEC = st.tuples(
    st.integers(0, 9), st.integers(0, (1 << 13) - 1), st.integers(-3, 3), st.integers(0, 47)
)
_EDGE_SPEC = st.tuples(st.integers(0, 4), st.integers(0, 15), st.integers(0, 15), st.integers(0, 255))


def _outcome_list(mask: int) -> list[str] | None:
    """Outcomes from a bit mask (0 = the field is absent), in a mask-dependent order."""
    chosen = [outcome for bit, outcome in enumerate(OUTCOMES) if mask & (1 << bit)]
    if mask & 1 and len(chosen) > 1:
        chosen.reverse()
    return chosen or None


@st.composite
def graph_documents(
    draw: st.DrawFn, graph_id: str = MAIN, child: str | None = None, max_nodes: int = 8
) -> dict[str, Any]:
    """One valid ``agent-graph.graph.v1`` document; ``child`` lets Subgraph nodes call that Graph."""
    specs = draw(st.lists(_NODE_SPEC, min_size=2, max_size=max_nodes))
    count = len(specs)
    kinds: list[str] = []
    for kind_code, *_rest in specs:
        if kind_code == 9 and child:
            kinds.append("subgraph")
        else:
            kinds.append(
                (
                    "action",
                    "action",
                    "action",
                    "gate",
                    "gate",
                    "terminal",
                    "terminal",
                    "action",
                    "gate",
                    "action",
                )[kind_code]
            )
    if "terminal" not in kinds:
        kinds[-1] = "terminal"
    nodes: list[dict[str, Any]] = []
    for index, (kind, (_kind_code, flags, priority, choice)) in enumerate(zip(kinds, specs, strict=True)):
        node_id = f"n{index}"
        node: dict[str, Any]
        if kind == "action":
            node = providers.action_node(node_id, ACTION_NAMES[choice % len(ACTION_NAMES)])
        elif kind == "gate":
            authority = (None, *AUTHORITIES)[choice % 4]
            delegatable = (None, True, False)[choice // 4 % 3]
            node = providers.gate_node(node_id, authority=authority, delegatable=delegatable)
            if flags & _INSPECT:
                node["inspectionAction"] = providers.INSPECT
            if flags & _RESOLVE:
                node["resolutionAction"] = providers.APPLY
            if delegatable and authority and flags & _DELEGATE:
                delegated: dict[str, Any] = {}
                if "inspectionAction" in node and flags & _SKIP:
                    delegated["inspection"] = "skip"
                if flags & _DELEGATED_RESOLVE:
                    delegated["resolutionAction"] = providers.ACCEPT
                if flags & _DELEGATED_RESOURCES:
                    delegated["resources"] = {"required": ["resources/delegated.md"]}
                node["delegated"] = delegated
        elif kind == "subgraph":
            assert child is not None
            node = providers.subgraph_node(node_id, child)
        else:
            node = providers.terminal_node(node_id, OUTCOMES[choice % len(OUTCOMES)])
        if kind in ("action", "gate"):
            if flags & _SATISFIED:
                node["satisfiedBy"] = draw(fact_checks(min_size=1))
            if flags & _RESOURCES and flags & _PRIORITY:
                node["resources"] = {
                    "required": ["resources/procedure.md"],
                    "recommended": ["resources/checklist.md"],
                }
            if flags & _DESCRIBED:
                node["description"] = draw(st.text(min_size=1, max_size=8))  # "" gives label "" (see report)
        if flags & _REQUIRES:
            node["requiresFacts"] = draw(fact_checks())
        if flags & _PRIORITY:
            node["priority"] = priority
        if flags & _JOIN_ANY:
            node["join"] = "any"
        elif flags & _JOIN_ALL:
            node["join"] = "all"
        nodes.append(node)

    edges: list[dict[str, Any]] = []
    seen: set[tuple[str, int, int, tuple[str, ...]]] = set()
    for kind_code, source, target, mask in draw(st.lists(_EDGE_SPEC, max_size=3 * count)):
        kind = EDGE_KINDS[kind_code]
        source %= count
        target %= count
        if kinds[source] == "terminal":
            continue
        if kind == "repeat":
            if kinds[target] not in ("action", "gate"):
                continue
        elif target <= source:
            continue  # flow-like edges go forward only: no implicit cycle
        if kind == "gatedBy" and kinds[source] != "gate":
            continue
        outcomes = _outcome_list(mask)
        key = (kind, source, target, tuple(outcomes or ("completed",)))
        if key in seen:
            continue
        seen.add(key)
        edge: dict[str, Any] = {"from": f"n{source}", "to": f"n{target}"}
        if kind != "flow" or mask & 2:
            edge["kind"] = kind
        if outcomes is not None:
            edge["outcomes"] = outcomes
        edges.append(edge)
    entrypoints = {"default": "n0"}
    alternative = draw(st.integers(-1, count - 1))
    if alternative >= 0:
        entrypoints["alt"] = f"n{alternative}"
    return providers.graph_doc(graph_id, nodes, edges, entrypoints)


@st.composite
def provider_files(draw: st.DrawFn, max_nodes: int = 8) -> dict[str, str | bytes]:
    """The files of a valid Provider: Graph ``main`` and, half of the time, a Subgraph ``child``."""
    with_child = draw(st.booleans())
    graphs = []
    if with_child:
        child = draw(graph_documents(CHILD, None, max_nodes=max(2, max_nodes // 2)))
        graphs.append(draw(graph_documents(MAIN, CHILD, max_nodes=max_nodes)))
        graphs.append(child)
    else:
        graphs.append(draw(graph_documents(MAIN, None, max_nodes=max_nodes)))
    return providers.files_for(graphs)


def load_files(files: Mapping[str, str | bytes]) -> ag.Provider:
    """Load a Provider from :func:`provider_files` output."""
    return providers.load(files)


# ------------------------------------------------------------------ states


def document_state_keys(files: Mapping[str, str | bytes]) -> list[str]:
    """:func:`state_keys` read from the files of :func:`provider_files`, without loading them."""
    documents = {
        document["id"]: document
        for path, text in files.items()
        if path.startswith(f"{providers.ROOT}/graphs/")
        for document in [json.loads(text)]
    }
    keys: list[str] = []
    for node in documents[MAIN]["nodes"]:
        keys.append(f"{MAIN}/{node['id']}")
        if node["kind"] == "subgraph":
            keys.extend(
                f"{MAIN}/{node['id']}>{node['graph']}/{inner['id']}"
                for inner in documents[node["graph"]]["nodes"]
            )
    return keys


def state_keys(provider: ag.Provider) -> list[str]:
    """Every node state key of ``main`` and of ``child`` called from each Subgraph node of ``main``."""
    keys: list[str] = []
    main = provider.graphs[MAIN].definition
    for node in main.nodes:
        keys.append(f"{MAIN}/{node.id}")
        if node.kind == "subgraph" and node.graph in provider.graphs:
            for inner in provider.graphs[node.graph].definition.nodes:
                keys.append(f"{MAIN}/{node.id}>{node.graph}/{inner.id}")
    return keys


def put_fact(facts: dict[str, Any], path: str, value: Any) -> None:
    """Set a dotted path in nested facts, creating objects and arrays on the way."""
    segments = path.split(".")
    current: Any = facts
    for position, segment in enumerate(segments):
        last = position == len(segments) - 1
        following = None if last else segments[position + 1]
        container: Any = [] if following is not None and following.isdigit() else {}
        if isinstance(current, list):
            index = int(segment) if segment.isdigit() else 0
            while len(current) <= index:
                current.append(None)
            if last:
                current[index] = value
                return
            if not isinstance(current[index], (dict, list)):
                current[index] = container
            current = current[index]
        else:
            if last:
                current[segment] = value
                return
            if not isinstance(current.get(segment), (dict, list)):
                current[segment] = container
            current = current[segment]


@st.composite
def facts_objects(draw: st.DrawFn, hostile: bool = True) -> dict[str, Any]:
    """Facts that hit the generated fact checks, plus (when ``hostile``) junk keys and values."""
    facts: dict[str, Any] = {}
    for path in draw(st.lists(st.sampled_from(FACT_PATHS), max_size=5)):
        value = draw(st.one_of(equals_values, json_scalars) if hostile else equals_values)
        put_fact(facts, path, value)
    if hostile:
        extra = draw(json_values)
        if isinstance(extra, dict):
            for key, value in extra.items():
                facts.setdefault(key, value)
        else:
            facts.setdefault(draw(any_text), extra)
    return facts


_RECORD_CODE = st.integers(0, 4 * len(OUTCOMES) - 1)


@st.composite
def outcome_maps(draw: st.DrawFn, keys: list[str], hostile: bool = True) -> dict[str, Any]:
    """State key → outcome string or ``{outcome, recordedAt, detail?}`` record."""
    pool = list(keys) + (["main/unknown", "other/n0", ""] if hostile else [])
    chosen = draw(st.integers(0, (1 << len(pool)) - 1)) if pool else 0
    outcomes: dict[str, Any] = {}
    for bit, key in enumerate(pool):
        if not chosen & (1 << bit):
            continue
        code = draw(_RECORD_CODE)
        outcome = OUTCOMES[code % len(OUTCOMES)]
        form = code // len(OUTCOMES)
        if form == 0 or form == 1:
            outcomes[key] = outcome
        else:
            record: dict[str, Any] = {"outcome": outcome, "recordedAt": "2026-01-01T00:00:00.000Z"}
            if hostile and form == 3:
                record["detail"] = draw(json_scalars)
            outcomes[key] = record
    return outcomes


@st.composite
def authority_lists(draw: st.DrawFn, hostile: bool = True) -> list[str]:
    """Authorities with duplicates; with ``hostile``, any text too."""
    pool = st.one_of(st.sampled_from(AUTHORITIES), any_text) if hostile else st.sampled_from(AUTHORITIES)
    return draw(st.lists(pool, max_size=5))


@st.composite
def scenarios(
    draw: st.DrawFn, hostile: bool = True, max_nodes: int = 8
) -> tuple[dict[str, str | bytes], dict[str, Any], dict[str, Any], list[str], str]:
    """``(files, facts, outcomes, authorities, entry)`` for one evaluation."""
    files = draw(provider_files(max_nodes=max_nodes))
    facts = draw(facts_objects(hostile=hostile))
    outcomes = draw(outcome_maps(document_state_keys(files), hostile=hostile))
    authorities = draw(authority_lists(hostile=hostile))
    entry = draw(st.sampled_from(("default", "default", "alt", "missing")))
    return files, facts, outcomes, authorities, entry


# ------------------------------------------------------------------ helpers for properties


def reorder_keys(value: Any, seed: int) -> Any:
    """``value`` with every object's keys in another order (rotated by ``seed``); same content."""
    if isinstance(value, dict):
        items = list(value.items())
        if items:
            shift = seed % len(items)
            items = items[shift:] + items[:shift]
            items.reverse()
        return {key: reorder_keys(item, seed + 1) for key, item in items}
    if isinstance(value, list):
        return [reorder_keys(item, seed + 1) for item in value]
    return value


def has_collation_ties(value: Any) -> bool:
    """True when some object in ``value`` has two keys that collate equal (their order is kept as given)."""
    from agent_graph._core.canonical import collation_key

    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            keys = [collation_key(key) for key in item]
            if len(set(keys)) != len(keys):
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def fresh_text(taken: Any, prefix: str) -> str:
    """A string not among ``taken``."""
    index = 0
    while f"{prefix}{index}" in taken:
        index += 1
    return f"{prefix}{index}"


def is_json_number(value: Any) -> bool:
    """A finite number (bools excluded)."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and (isinstance(value, int) or math.isfinite(value))
    )


# ------------------------------------------------------------------ mangled files


YAML_FRAGMENTS = (
    "&a",
    "*a",
    "<<: *a",
    "!!int",
    "!!str",
    "!!binary",
    "!foo",
    "? ",
    ": ",
    "- ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "---\n",
    "...\n",
    "%YAML 1.2\n",
    "%YAML 1.1\n",
    "%TAG ! tag:x,2000:\n",
    "|\n",
    ">-\n",
    "'",
    '"',
    "#",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\x00",
    "\ufeff",
    "\u2028",
    "\x85",
    "\\u",
    "\\x",
    "~",
    "null",
    "true",
    "0o17",
    "0x1F",
    ".inf",
    "-.nan",
    "1_000",
    "1e400",
    "-0",
    "9" * 30,
    "&b [*a, *a, *a]",
    "\ud800",
)


@st.composite
def mangled_text(draw: st.DrawFn, base: str) -> str:
    """``base`` with YAML fragments spliced in, slices removed or repeated."""
    text = base
    for _ in range(draw(st.integers(1, 4))):
        position = draw(st.integers(0, len(text)))
        action = draw(st.integers(0, 3))
        if action == 0:
            text = text[:position] + draw(st.sampled_from(YAML_FRAGMENTS)) + text[position:]
        elif action == 1:
            end = draw(st.integers(position, min(len(text), position + 20)))
            text = text[:position] + text[end:]
        elif action == 2:
            text = text[:position] + draw(any_text) + text[position:]
        else:
            end = draw(st.integers(position, min(len(text), position + 20)))
            text = text[:end] + text[position:end] * draw(st.integers(1, 3)) + text[end:]
    return text


@st.composite
def mangled_bytes(draw: st.DrawFn, base: bytes) -> bytes:
    """``base`` with bytes flipped, truncated or invalid UTF-8 inserted."""
    data = bytearray(base)
    for _ in range(draw(st.integers(1, 3))):
        action = draw(st.integers(0, 2))
        if action == 0 and data:
            position = draw(st.integers(0, len(data) - 1))
            data[position] ^= 1 << draw(st.integers(0, 7))
        elif action == 1:
            del data[draw(st.integers(0, len(data))) :]
        else:
            position = draw(st.integers(0, len(data)))
            data[position:position] = draw(
                st.sampled_from((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xef\xbb\xbf"))
            )
    return bytes(data)


def copy_json(value: Any) -> Any:
    """A deep copy of JSON data."""
    if isinstance(value, dict):
        return {key: copy_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_json(item) for item in value]
    return value


def render_json(document: Any) -> bytes:
    """JSON text of ``document``, also for integers too long for ``str()`` (written digit by digit)."""
    try:
        return json.dumps(document, indent=1, ensure_ascii=False).encode("utf-8", "surrogatepass")
    except ValueError:
        pass
    digits: dict[str, str] = {}

    def swap(value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 10_000:
            marker = f"@@huge-{len(digits)}@@"
            digits[marker] = _long_digits(value)
            return marker
        if isinstance(value, dict):
            return {key: swap(item) for key, item in value.items()}
        if isinstance(value, list):
            return [swap(item) for item in value]
        return value

    text = json.dumps(swap(document), indent=1, ensure_ascii=False)
    for marker, number in digits.items():
        text = text.replace(json.dumps(marker), number)
    return text.encode("utf-8", "surrogatepass")


def _long_digits(value: int) -> str:
    """Decimal digits of any integer, without ``str()`` and its digit limit."""
    sign = "-" if value < 0 else ""
    value = abs(value)
    chunks = []
    while value:
        value, chunk = divmod(value, 10**1000)
        chunks.append(f"{chunk:0>1000}" if value else f"{chunk}")
    return sign + "".join(reversed(chunks)) if chunks else "0"


def replace_somewhere(document: Any, path: list[Any], value: Any) -> Any:
    """A copy of ``document`` (JSON data) with the item at ``path`` replaced (or a key added)."""
    copy = copy_json(document)
    if not path:
        return value
    current = copy
    for step in path[:-1]:
        current = current[step]
    last = path[-1]
    if isinstance(current, list) and isinstance(last, int) and last >= len(current):
        current.append(value)
    else:
        current[last] = value
    return copy


def document_paths(document: Any) -> list[list[Any]]:
    """Every path into a JSON document (objects and arrays), the root included. Iterative."""
    found: list[list[Any]] = [[]]
    stack: list[tuple[Any, list[Any]]] = [(document, [])]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                found.append([*path, key])
                stack.append((item, [*path, key]))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                found.append([*path, index])
                stack.append((item, [*path, index]))
    return found
