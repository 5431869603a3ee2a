"""Plain JSON values: what a host hands over, checked and copied to exact built-in types.

Every entry point that takes JSON data from a host (Facts, Outcomes,
authorities, a Run record's ``detail``, host-action results and locations,
materializer input) runs it through :func:`plain_json` before anything looks
at it. The rules:

* ``dict``, ``list``, ``str``, ``int``, ``float``, ``bool`` and ``None`` are
  JSON; a ``tuple`` is an array. Subclasses of them are copied to the exact
  built-in type through the base type's own methods (``str.__str__``,
  ``dict.items``, ``list.__iter__`` …), so an overridden ``__eq__``,
  ``__hash__``, ``get``, ``__getitem__``, ``__iter__`` or ``__str__`` can never
  make a check answer differently from the plain value with the same content.
* Anything else (sets, bytes, Decimals, objects, msgspec Structs), an object key
  that is not a string (a number, a tuple, ``None``), and, where the caller
  says so, NaN and the infinities are refused with ``json-invalid``. Nothing is
  silently converted.
* Nesting deeper than ``max_depth`` is refused (``json-too-deep`` unless the
  caller names another code); a container met again through another parent is
  copied again, as JSON writes it, but a value that repeats shared containers
  more than :data:`MAX_REVISITS` times (a cycle, or exponential sharing) is
  ``json-invalid``. Nothing here recurses.

:func:`is_plain_json` answers the same question without copying, for fast
paths that then use the value as it is. :func:`json_text` writes any value
that passed (any depth, lone surrogates as ``\\uXXXX`` escapes, key order
kept). This module knows nothing of files, Runs or graphs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

import msgspec

from .errors import AgentGraphError, ErrorCode
from .json_writer import write_json

__all__ = [
    "DEEPEST",
    "MAX_REVISITS",
    "is_plain_json",
    "json_bytes",
    "json_text",
    "json_tree",
    "json_type",
    "plain_json",
    "plain_string",
    "well_formed",
    "well_formed_text",
]

#: Nesting accepted where the caller sets no limit of its own (Facts handed to ``evaluate()``).
DEEPEST = 1_000_000
#: Containers written again because two parents share them, before a value is refused as cyclic.
MAX_REVISITS = 1 << 16

_EXACT_LEAVES: frozenset[type] = frozenset({str, bool, type(None), int})
_EXACT_TEXT_LEAVES: frozenset[type] = frozenset({str, bool, type(None)})
_JSON_LEAVES = _EXACT_LEAVES | {float}
_INFINITIES = (math.inf, -math.inf)
#: Integers this long are beyond every double: JavaScript reads them as Infinity.
_DOUBLE_BITS = 1024


def _describe(value: Any) -> str:
    kind = type(value)
    return f"{kind.__module__}.{kind.__qualname__}" if kind.__module__ != "builtins" else kind.__name__


def json_type(value: Any, *, integers: bool = False) -> str:
    """The JSON type of ``value`` for a message (``null``, ``boolean``, ``number``, ``string``, ``array``,
    ``object``), its class name when it is none; with ``integers``, a whole number is an ``integer``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "integer" if integers and (isinstance(value, int) or value.is_integer()) else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    return "object" if isinstance(value, Mapping) else type(value).__name__


def _where(path: list[Any]) -> str:
    """A JSON Pointer-like location for messages (``/a/0/b``)."""
    if not path:
        return "the top level"
    parts = []
    for step in path[:20]:
        text = str(step)
        parts.append(text if len(text) <= 40 else text[:40] + "…")
    return "/" + "/".join(parts) + ("/…" if len(path) > 20 else "")


def plain_string(value: Any, label: str, code: ErrorCode = "argument-invalid") -> str:
    """``value`` as an exact ``str`` (a subclass is copied); ``code`` when it is not a string."""
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str.__str__(value)
    raise AgentGraphError(code, f"{label} must be a string, not {_describe(value)}")


def _leaf(value: Any, kind: type, allow_nan: bool, label: str, path: list[Any]) -> Any:
    """The exact-type copy of a scalar, or raise ``json-invalid``."""
    if kind is float:
        if not allow_nan and (value != value or value in (math.inf, -math.inf)):
            raise AgentGraphError(
                "json-invalid", f"{label} holds {value!r} at {_where(path)}, which JSON text cannot hold"
            )
        return value
    if isinstance(value, bool):  # bool cannot be subclassed, but stay safe
        return value is True
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        number = int.__index__(value)
        if not allow_nan and number.bit_length() > _DOUBLE_BITS:
            raise AgentGraphError(
                "json-invalid",
                f"{label} holds an integer of {number.bit_length()} bits at {_where(path)}, "
                "beyond every JSON number a reader can hold",
            )
        return number
    if isinstance(value, float):
        return _leaf(float.__float__(value), float, allow_nan, label, path)
    raise AgentGraphError(
        "json-invalid", f"{label} holds a {_describe(value)} at {_where(path)}; only JSON values are accepted"
    )


def plain_json(
    value: Any,
    label: str,
    *,
    max_depth: int = DEEPEST,
    allow_nan: bool = True,
    too_deep: ErrorCode = "json-too-deep",
) -> Any:
    """An exact-type copy of the JSON value ``value`` (see the module rules).

    ``label`` names the value in messages (``"Run detail"``). ``max_depth``
    counts containers (``[]`` is depth 1). Raises ``json-invalid`` for anything
    that is not JSON and ``too_deep`` for nesting beyond ``max_depth``.
    """
    kind = type(value)
    exact = _EXACT_LEAVES if allow_nan else _EXACT_TEXT_LEAVES
    if kind in exact:
        return value
    if not isinstance(value, (dict, list, tuple)):
        return _leaf(value, kind, allow_nan, label, [])
    holder: list[Any] = [None]
    # (source, parent, slot, depth, key path for messages)
    stack: list[tuple[Any, Any, Any, int, list[Any]]] = [(value, holder, 0, 1, [])]
    pop = stack.pop
    push = stack.append
    seen: set[int] = set()
    revisits = 0
    while stack:
        source, parent, slot, depth, path = pop()
        if depth > max_depth:
            raise AgentGraphError(
                too_deep, f"{label} nests deeper than {max_depth} levels (at {_where(path[:20])})"
            )
        identity = id(source)
        if identity in seen:
            revisits += 1
            if revisits > MAX_REVISITS:
                raise AgentGraphError(
                    "json-invalid", f"{label} is cyclic, or repeats shared objects too often, to be JSON"
                )
        else:
            seen.add(identity)
        inner = depth + 1
        out: Any
        if isinstance(source, dict):
            out = {}
            for key, item in dict.items(source):
                if type(key) is not str:
                    if not isinstance(key, str):
                        raise AgentGraphError(
                            "json-invalid",
                            f"{label} has an object key that is not a string ({_describe(key)} {key!r:.60}) "
                            f"at {_where(path)}",
                        )
                    key = str.__str__(key)
                item_kind = type(item)
                if item_kind in exact or (item_kind is float and allow_nan):
                    out[key] = item
                elif isinstance(item, (dict, list, tuple)):
                    out[key] = None
                    push((item, out, key, inner, [*path, key] if len(path) < 20 else path))
                else:
                    out[key] = _leaf(item, item_kind, allow_nan, label, [*path, key])
        else:
            items = list.__iter__(source) if isinstance(source, list) else tuple.__iter__(source)
            out = []
            append = out.append
            for index, item in enumerate(items):
                item_kind = type(item)
                if item_kind in exact or (item_kind is float and allow_nan):
                    append(item)
                elif isinstance(item, (dict, list, tuple)):
                    append(None)
                    push((item, out, index, inner, [*path, index] if len(path) < 20 else path))
                else:
                    append(_leaf(item, item_kind, allow_nan, label, [*path, index]))
        parent[slot] = out
    return holder[0]


def json_tree(
    value: dict[Any, Any] | list[Any], max_depth: int, leaves: frozenset[type]
) -> tuple[list[dict[Any, Any]], list[Any]] | None:
    """The objects of ``value`` (itself first if it is one), and its leaves of types not in ``leaves``.

    Only an exact ``dict`` or ``list`` is a container; anything else is a leaf,
    left to the caller to judge. None when nesting goes deeper than
    ``max_depth``, or a container is met twice (a cycle, or one that two
    parents share): such a value is no tree. Walks level by level, so that
    nesting too deep ends the walk early; nothing hashes an object's keys.
    """
    objects: list[dict[Any, Any]] = []
    others: list[Any] = []
    seen = {id(value)}
    level: list[Any] = [value]
    depth = 0
    while level:
        depth += 1
        if depth > max_depth:
            return None
        below: list[Any] = []
        for source in level:
            items: Any
            if type(source) is dict:
                objects.append(source)
                items = source.values()
            else:
                items = source
            for item in items:
                kind = type(item)
                if kind in leaves:
                    continue
                if kind is dict or kind is list:
                    identity = id(item)
                    if identity in seen:
                        return None
                    seen.add(identity)
                    below.append(item)
                else:
                    others.append(item)
        level = below
    return objects, others


def _plain_leaf(value: Any, allow_nan: bool) -> bool:
    """Whether :func:`plain_json` takes the scalar ``value`` as it is (JSON text: no NaN, no integer past a double)."""
    kind = type(value)
    if kind in _EXACT_TEXT_LEAVES:
        return True
    if kind is int:
        return allow_nan or value.bit_length() <= _DOUBLE_BITS
    if kind is float:
        return allow_nan or not (value != value or value in _INFINITIES)
    return False


def is_plain_json(value: Any, *, max_depth: int = DEEPEST, allow_nan: bool = True) -> bool:
    """Whether ``value`` is already plain JSON: exact types only, a tree, within ``max_depth``.

    When it is, :func:`plain_json` would give an equal copy, so the value can be used as it is.
    """
    kind = type(value)
    if kind is not dict and kind is not list:
        return _plain_leaf(value, allow_nan)
    tree = json_tree(value, max_depth, _JSON_LEAVES if allow_nan else _EXACT_TEXT_LEAVES)
    if tree is None:
        return False
    objects, others = tree
    for item in others:  # numbers where JSON text must hold them, or what is not JSON
        if not _plain_leaf(item, allow_nan):
            return False
    for source in objects:
        for key in source:
            if type(key) is not str:
                return False
    return True


# ---------------------------------------------------------------- writing


def _string(text: str) -> str:
    """A JSON string literal, lone surrogates written as ``\\uXXXX`` escapes (valid UTF-8 always)."""
    import json

    literal = json.dumps(text, ensure_ascii=False)
    try:
        literal.encode("utf-8")
    except UnicodeEncodeError:
        literal = "".join(f"\\u{ord(ch):04x}" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in literal)
    return literal


def _number(value: int | float) -> str:
    if isinstance(value, int):
        number_int = int.__index__(value)
        if number_int.bit_length() <= _DOUBLE_BITS:
            return int.__repr__(number_int)
        return "null"  # beyond every double: Infinity, which JSON writes as null
    number = float(value)
    if number != number or number in (math.inf, -math.inf):
        return "null"
    return float.__repr__(number)


def _struct(value: Any) -> Any:
    if isinstance(value, msgspec.Struct):
        return msgspec.to_builtins(value)
    raise TypeError(f"json_text() takes JSON data, not {_describe(value)}")


def json_text(value: Any, *, indent: int | None = None) -> str:
    """JSON text of a plain JSON value, written without recursion (key order kept).

    ``indent`` gives pretty output (``None``: compact, ``", "``/``": "``-free).
    NaN and the infinities are written as ``null``, as ``JSON.stringify`` does;
    callers that must refuse them check with :func:`plain_json` first. A
    msgspec Struct is written as its built-in value. The walk is the one JSON
    writer's (:func:`agent_graph._core.json_writer.write_json`).
    """
    return write_json(value, string=_string, number=_number, convert=_struct, indent=indent)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def well_formed_text(text: str) -> str:
    """``text`` with each lone surrogate (text that was not UTF-8) as U+FFFD, for a reader that takes only Unicode."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def well_formed(value: Any) -> Any:
    """A JSON value whose strings and keys are well-formed Unicode: each lone surrogate as U+FFFD.

    For answers a writer outside agent-graph encodes and cannot hold a lone
    surrogate (the MCP SDK's, say) while the stores keep them exactly. The
    value itself is answered when it holds none (one look with the C encoder);
    otherwise a copy, made without recursion.
    """
    try:
        msgspec.json.encode(value)
        return value
    except UnicodeEncodeError:
        pass
    except (TypeError, ValueError, RecursionError, OverflowError):
        pass  # not for the C encoder (too deep, say): walk it
    if isinstance(value, str):
        return well_formed_text(value)
    if not isinstance(value, (dict, list, tuple)):
        return value
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]  # (value, container to fill, key or index)
    while stack:
        item, target, slot = stack.pop()
        if isinstance(item, str):
            target[slot] = well_formed_text(item)
        elif isinstance(item, dict):
            copy: dict[str, Any] = {}
            target[slot] = copy
            for key, member in item.items():
                name = well_formed_text(key) if isinstance(key, str) else key
                copy[name] = None
                stack.append((member, copy, name))
        elif isinstance(item, (list, tuple)):
            items: list[Any] = [None] * len(item)
            target[slot] = items
            stack.extend((member, items, index) for index, member in enumerate(item))
        else:
            target[slot] = item
    return root[0]


def json_bytes(value: Any, *, indent: int | None = None) -> bytes:
    """:func:`json_text` as UTF-8 bytes (the fast C encoders first, the iterative writer when they cannot)."""
    import json

    try:
        if indent is None:
            return msgspec.json.encode(value)
        return json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=True).encode("utf-8")
    except (TypeError, ValueError, RecursionError, OverflowError):
        return json_text(value, indent=indent).encode("utf-8")
