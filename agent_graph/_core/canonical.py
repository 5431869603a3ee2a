"""Canonical JSON text, sha256 digests and the key collation they depend on.

Every digest of the protocol (Provider digest, graph digest, revision, route ID)
is ``sha256`` over the canonical JSON text of some plain JSON value, and that
text must be byte-identical to what the TypeScript reference toolchain writes.
The reference builds it with ``JSON.stringify`` over objects whose keys were
sorted with ``String.prototype.localeCompare`` (ICU root collation), so this
module reproduces three JavaScript behaviours:

* key order: canonical array-index keys first in numeric order (JavaScript
  object property order), then the rest in ICU root collation order;
* string escaping of ``JSON.stringify`` (including its escaping of lone
  surrogates as ``\\udxxx``);
* ``Number::toString`` for numbers, after turning Python ints beyond 2**53
  into the nearest double.

Input is plain JSON data only (``dict`` with ``str`` keys, ``list``, ``tuple``,
``str``, ``int``, ``float``, ``bool``, ``None``). This module knows nothing of
Providers, graphs, files or msgspec Structs; callers convert those first.
Nothing here recurses on the nesting depth of the input.

The subjects live in modules of their own: JavaScript's number and string
text in :mod:`agent_graph._core.js_text`, the key collation in
:mod:`agent_graph._core.collation`, the evaluation's fast path to a revision
text in :mod:`agent_graph._core.revision_text`; this module is the writer.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from typing import Any

import msgspec

from .collation import (
    _ORDER_CACHE,
    _ORDER_CACHE_LIMIT,
    CollationKey,
    collation_key,
    compare_collated,
    key_order as _key_order,
    sort_collated,
    utf16_key,
)
from .js_text import (
    MAX_SAFE_INTEGER as _MAX_SAFE_INTEGER,
    float_text as _float_text,
    js_number,
    js_string as _js_string,
)
from .json_writer import Text, write_json
from .plain import json_tree

__all__ = [
    "CollationKey",
    "canonical_bytes_exact",
    "canonical_json",
    "collation_key",
    "compare_collated",
    "digest_bytes",
    "digest_value",
    "js_number",
    "sort_collated",
    "utf16_key",
]

_MAX_DEPTH = 1_000_000  # far beyond any real document; stops runaway cyclic input
_MAX_REVISITS = 1 << 16  # objects written again because two parents share them (a cycle never ends)
_MSGSPEC_DEPTH = 200  # deeper trees are written by the iterative writer

# ---------------------------------------------------------------------------
# Canonical JSON
#
# ``_normalize`` walks the input once with an explicit stack and builds a
# tree msgspec can write as is: objects rebuilt in canonical key order,
# numbers outside the exact-integer range pre-printed as ``msgspec.Raw``.
# msgspec then writes the text in C; its string escaping is byte-for-byte
# that of JSON.stringify. Very deep trees (msgspec recurses) and strings with
# surrogates go to ``_write_tree``, an iterative writer with the same output.


def _number_node(x: float) -> Any:
    if x != x or x in (math.inf, -math.inf):
        return None
    if x.is_integer() and -_MAX_SAFE_INTEGER <= x <= _MAX_SAFE_INTEGER:
        return int(x)
    return msgspec.Raw(_float_text(x))


def _float_node(x: float) -> Any:
    """:func:`_number_node`, with a shortcut: plain notation in Python (``repr``) is plain in JavaScript too."""
    text = repr(x)
    if "e" in text or "n" in text or text[-2:] == ".0":
        return _number_node(x)
    return msgspec.Raw(text)


def _big_int_node(x: int) -> Any:
    try:
        return _number_node(float(x))
    except OverflowError:
        return None


def _coerce(value: Any) -> Any:
    """Plain JSON data from an unusual but acceptable value; TypeError otherwise."""
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        x = int.__int__(value)
        return x if -_MAX_SAFE_INTEGER <= x <= _MAX_SAFE_INTEGER else _big_int_node(x)
    if isinstance(value, float):
        return _number_node(float.__float__(value))
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, (list, tuple)):
        return list(value)
    raise TypeError(f"canonical JSON takes plain JSON data; got {type(value).__name__}")


def _place_coerced(item: Any, out: Any, slot: Any, depth: int, push: Callable[[Any], None]) -> None:
    """Put the plain JSON form of an unusual value at ``out[slot]``, and a container on the stack to walk."""
    item = _coerce(item)
    out[slot] = item
    if type(item) is dict or type(item) is list:
        push((item, out, slot, depth))


def _normalize(value: Any) -> tuple[Any, int]:
    """The msgspec-ready tree of ``value`` and its nesting depth."""
    kind = type(value)
    if kind is not dict and kind is not list and kind is not tuple:
        if kind is str or kind is bool or value is None:
            return value, 0
        if kind is int:
            return (value if -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER else _big_int_node(value)), 0
        if kind is float:
            return _number_node(value), 0
        value = _coerce(value)
        kind = type(value)
        if kind is not dict and kind is not list:
            return value, 0

    safe = _MAX_SAFE_INTEGER
    cached_order = _ORDER_CACHE.get
    holder: list[Any] = [None]
    stack: list[tuple[Any, Any, Any, int]] = [(value, holder, 0, 1)]
    push = stack.append
    pop = stack.pop
    max_depth = 1
    visited: set[int] = set()
    revisits = 0
    while stack:
        src, parent, slot, depth = pop()
        if depth > max_depth:
            max_depth = depth
            if depth > _MAX_DEPTH:
                raise ValueError("input nested too deeply (or cyclic) for canonical JSON")
        identity = id(src)
        if identity in visited:  # shared by two parents (written twice, as JavaScript does) or a cycle
            revisits += 1
            if revisits > _MAX_REVISITS:
                raise ValueError("input is cyclic, or repeats shared objects too often, for canonical JSON")
        else:
            visited.add(identity)
        child_depth = depth + 1
        out: Any
        if type(src) is dict:
            keys = tuple(src)
            order = cached_order(keys)
            if order is None:
                order = _key_order(keys)
            out = {}
            for key in order:
                item = src[key]
                kind = type(item)
                if kind is str or kind is bool or item is None:
                    out[key] = item
                elif kind is int:
                    out[key] = item if -safe <= item <= safe else _big_int_node(item)
                elif kind is list:
                    for element in item:
                        element_kind = type(element)
                        if element_kind is not str and element_kind is not bool and element is not None:
                            out[key] = None
                            push((item, out, key, child_depth))
                            break
                    else:  # strings, booleans and nulls only: written as is
                        out[key] = item
                elif kind is dict or kind is tuple:
                    out[key] = None
                    push((item, out, key, child_depth))
                elif kind is float:
                    out[key] = _float_node(item)
                else:
                    _place_coerced(item, out, key, child_depth, push)
        else:
            out = list(src)
            for index, item in enumerate(out):
                kind = type(item)
                if kind is str or kind is bool or item is None:
                    continue
                if kind is int:
                    if not -safe <= item <= safe:
                        out[index] = _big_int_node(item)
                elif kind is dict or kind is list or kind is tuple:
                    push((item, out, index, child_depth))
                elif kind is float:
                    out[index] = _float_node(item)
                else:
                    _place_coerced(item, out, index, child_depth, push)
        parent[slot] = out
    return holder[0], max_depth


def _raw_text(raw: Any) -> Text:
    """A number the normalizer pre-printed (``msgspec.Raw``), written as it is."""
    return Text(bytes(raw).decode("ascii"))


def _write_tree(tree: Any) -> str:
    """Write a normalized tree without recursion (any depth, any string), through the one JSON writer."""
    return write_json(tree, string=_js_string, number=str, convert=_raw_text)


# Fast path. When every object's keys are ASCII and already sort the same in
# code-point order as in canonical order, every number is an exact integer
# within 2**53 or a float that is not integral and lies where Python's
# shortest repr is plain notation (1e-4 <= |x| < 1e16, where msgspec, repr and
# Number::toString print the same digits), and nothing but dict, list, str,
# int, float, bool and None occurs, msgspec's sorted encoding is the canonical
# text and no normalized copy is needed. One walk checks this; anything else
# (and lone surrogates, which msgspec refuses) takes the general path.

_SORTED_IS_CANONICAL: dict[tuple[Any, ...], bool] = {}
_KEY_SETS: dict[frozenset[Any], bool] = {}
_PLAIN_LEAF_TYPES: frozenset[type] = frozenset({str, bool, type(None)})
_PLAIN_FLOAT_MIN = 1e-4
_PLAIN_FLOAT_MAX = 1e16


def _keys_sort_canonically(keys: tuple[Any, ...]) -> bool:
    """Whether ``keys`` are ASCII strings whose code-point order is their canonical order (cached)."""
    result = _SORTED_IS_CANONICAL.get(keys)
    if result is None:
        result = (
            all(type(key) is str for key in keys)
            and "".join(keys).isascii()
            and _key_order(keys) == tuple(sorted(keys))
        )
        if len(_SORTED_IS_CANONICAL) >= _ORDER_CACHE_LIMIT:
            _SORTED_IS_CANONICAL.clear()
        _SORTED_IS_CANONICAL[keys] = result
    return result


def _key_set_sorts_canonically(keys: frozenset[Any]) -> bool:
    """Whether every subset of ``keys`` sorts the same by code points as in canonical order (cached).

    It is enough that the whole set does (an order restricted to a subset is
    the subset's order) and that no two keys collate equal (equal keys keep
    each object's own order).
    """
    result = _KEY_SETS.get(keys)
    if result is None:
        result = (
            all(type(key) is str for key in keys)
            and _keys_sort_canonically(tuple(sorted(keys)))
            and len({collation_key(key) for key in keys}) == len(keys)
        )
        if len(_KEY_SETS) >= _ORDER_CACHE_LIMIT:
            _KEY_SETS.clear()
        _KEY_SETS[keys] = result
    return result


def _sorted_encoding_is_canonical(value: dict[str, Any] | list[Any]) -> bool:
    """Whether ``msgspec.json.encode(value, order="sorted")`` is the canonical text of ``value``."""
    return _fast_path_check(value) != _OFF_FAST_PATH


#: Verdicts of :func:`_fast_path_check`.
_OFF_FAST_PATH, _KEYS_APART, _KEYS_IN_ORDER = 0, 1, 2


def _fast_path_check(value: dict[str, Any] | list[Any]) -> int:
    """Whether msgspec's sorted encoding of ``value`` is its canonical text, and why.

    ``_KEYS_APART``: every object key collates apart from the others, so the
    text follows from the content alone; ``_KEYS_IN_ORDER``: some keys collate
    equal and each object's own order happens to agree; ``_OFF_FAST_PATH``.

    The walk (:func:`~agent_graph._core.plain.json_tree`) ends early at
    nesting deeper than msgspec writes and at a container met twice (a cycle,
    or one shared by two parents). Object keys are gathered into one set and
    checked once; only when that set as a whole does not sort the same both
    ways is each object's key order checked on its own.
    """
    tree = json_tree(value, _MSGSPEC_DEPTH, _PLAIN_LEAF_TYPES)
    if tree is None:
        return _OFF_FAST_PATH
    objects, numbers = tree
    safe = _MAX_SAFE_INTEGER
    low = _PLAIN_FLOAT_MIN
    high = _PLAIN_FLOAT_MAX
    for item in numbers:
        kind = type(item)
        if kind is int:
            if not -safe <= item <= safe:
                return _OFF_FAST_PATH
        elif kind is float:
            if item.is_integer() or not low <= abs(item) < high:
                return _OFF_FAST_PATH
        else:
            return _OFF_FAST_PATH
    if _key_set_sorts_canonically(frozenset().union(*objects)):
        return _KEYS_APART
    # Each object on its own.
    known = _SORTED_IS_CANONICAL.get
    for source in objects:
        order = tuple(source)
        ordered = known(order)
        if ordered is None:
            ordered = _keys_sort_canonically(order)
        if not ordered:
            return _OFF_FAST_PATH
    return _KEYS_IN_ORDER


def canonical_bytes_exact(value: Any) -> tuple[bytes, bool]:
    """The canonical JSON bytes of ``value``, and whether they came from the fast path.

    On the fast path the text determines the value up to object key order: no
    two such values (an ``int`` against an integral ``float``, NaN against
    ``null``, ``-0.0`` against ``0`` are all off the path) share a text.
    """
    kind = type(value)
    if (kind is dict or kind is list) and _sorted_encoding_is_canonical(value):
        try:
            return msgspec.json.encode(value, order="sorted"), True
        except (UnicodeEncodeError, RecursionError):  # a lone surrogate, or nesting too deep for msgspec
            pass
    return _canonical_bytes_general(value), False


def _canonical_bytes(value: Any) -> bytes:
    return canonical_bytes_exact(value)[0]


def _canonical_bytes_general(value: Any) -> bytes:
    tree, depth = _normalize(value)
    if depth <= _MSGSPEC_DEPTH:
        try:
            return msgspec.json.encode(tree)
        except (UnicodeEncodeError, RecursionError):
            pass
    return _write_tree(tree).encode("utf-8")


def canonical_json(value: object) -> str:
    """The canonical JSON text of plain JSON data, as the reference toolchain writes it.

    Compact; object keys in canonical order (array-index keys first, then
    ``localeCompare`` order); strings escaped as ``JSON.stringify`` escapes
    them; numbers printed by :func:`js_number`. Raises ``TypeError`` for
    values that are not plain JSON data.
    """
    return _canonical_bytes(value).decode("utf-8")


def digest_bytes(data: bytes) -> str:
    """``"sha256:"`` followed by the lower-case hex sha256 of ``data``."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def digest_value(value: object) -> str:
    """``"sha256:"`` + hex sha256 of the UTF-8 bytes of :func:`canonical_json` of ``value``."""
    return "sha256:" + hashlib.sha256(_canonical_bytes(value)).hexdigest()
