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

Collation
---------
For ASCII the order is exact (checked against ICU root): ignorable control
characters are skipped, TAB, LF, VT, FF and CR sort as whitespace before the
space, then the punctuation, symbols and digits listed in ``_ASCII_ORDER``,
then letters with upper case equal to lower case at the primary level; case
breaks remaining ties, lower case first.

Outside ASCII the result is an approximation of ICU root, built from the
Unicode database that ships with Python:

* compatibility decomposition (NFKD) gives the primary letters; ``ß``,
  ``æ``, ``œ`` sort as ``ss``, ``ae``, ``oe`` plus an accent, and ``ł``,
  ``đ``, ``ħ``, ``ø``, ``ð``, ``ſ``, ``ŀ`` as their base letter plus an accent;
* combining marks are secondary weights, in ICU's order for U+0300-U+036F;
* case and the kind of compatibility mapping (wide, font, circled,
  superscript, ...) are tertiary weights;
* other Latin letters with a name ``... LETTER X WITH ...`` sort right after
  ``x``; non-ASCII digits equal their ASCII digit; other format and control
  characters are ignored.

Known divergences from ICU root: non-ASCII punctuation, symbols and currency
signs are grouped after ``%``, ``~`` and ``$`` respectively in code-point
order instead of ICU's hand-made order; letters of other scripts (Greek,
Cyrillic, CJK, ...) sort after all Latin letters in code-point order of their
lower-case form; contractions and script-specific rules (Thai reordering,
Hangul jamo, ...) are not modelled. Keys of real Providers are ASCII, where
the order is exact.
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections.abc import Iterable
from json.encoder import encode_basestring as _encode_basestring
from typing import Any

import msgspec

from .cache import FACT_TEXT_MAX, FACT_TEXTS_BUDGET, EvaluationCache
from .json_writer import Text, write_json

__all__ = [
    "canonical_json",
    "collation_key",
    "compare_collated",
    "digest_bytes",
    "digest_value",
    "js_number",
    "sort_collated",
]

_MAX_SAFE_INTEGER = 2**53
_MAX_ARRAY_INDEX = 2**32 - 1  # index keys are strictly below this value
_MAX_DEPTH = 1_000_000  # far beyond any real document; stops runaway cyclic input
_MAX_REVISITS = 1 << 16  # objects written again because two parents share them (a cycle never ends)
_MSGSPEC_DEPTH = 200  # deeper trees are written by the iterative writer

CollationKey = tuple[str, str, str]

# ---------------------------------------------------------------------------
# Numbers


def js_number(x: int | float) -> str:
    """Print a number as ECMAScript ``Number::toString`` prints the equivalent double.

    Integers beyond 2**53 in magnitude are first rounded to the nearest double
    (``Infinity`` when they overflow). NaN and the infinities give ``"null"``,
    which is what ``JSON.stringify`` writes for them. ``bool`` is rejected.
    """
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"js_number() takes an int or a float, not {type(x).__name__}")
    if isinstance(x, int):
        if -_MAX_SAFE_INTEGER <= x <= _MAX_SAFE_INTEGER:
            return str(int(x))
        try:
            x = float(x)
        except OverflowError:
            return "null"
    return _float_text(float(x))


def _float_text(x: float) -> str:
    if x != x or x in (math.inf, -math.inf):
        return "null"
    if x == 0.0:
        return "0"
    text = repr(x)
    if "e" not in text:
        # Python writes plain notation for 1e-4 <= |x| < 1e16, a sub-range of
        # the plain range of JavaScript, with the same shortest digits.
        return text[:-2] if text.endswith(".0") else text
    sign = ""
    if text[0] == "-":
        sign, text = "-", text[1:]
    mantissa, _, exp_text = text.partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    all_digits = int_part + frac_part
    significant = all_digits.lstrip("0")
    point = len(int_part) + int(exp_text) - (len(all_digits) - len(significant))
    digits = significant.rstrip("0")
    return sign + _ecma_layout(digits, point)


def _ecma_layout(digits: str, n: int) -> str:
    """Lay out shortest digits ``d1d2...dk`` with value ``0.d1...dk * 10**n`` as ECMAScript does."""
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    exponent = n - 1
    exp_text = ("+" if exponent >= 0 else "-") + str(abs(exponent))
    if k == 1:
        return digits + "e" + exp_text
    return digits[0] + "." + digits[1:] + "e" + exp_text


# ---------------------------------------------------------------------------
# Strings

_SURROGATES = re.compile("[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]")


def _surrogate_replacement(match: re.Match[str]) -> str:
    text = match.group()
    if len(text) == 2:
        high, low = ord(text[0]), ord(text[1])
        return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    return f"\\u{ord(text):04x}"


def _js_string(s: str) -> str:
    """Quote and escape a string exactly as ``JSON.stringify`` does."""
    text: str = _encode_basestring(s)
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Surrogate pairs held as two code points join into one character;
        # lone surrogates are escaped (well-formed JSON.stringify, ES2019).
        return _SURROGATES.sub(_surrogate_replacement, text)
    return text


# ---------------------------------------------------------------------------
# Collation
#
# A key is three strings, one per level (primary, secondary, tertiary);
# Python compares them lexicographically with the shorter prefix first, which
# is how a collation sort key compares. Each primary weight takes two
# characters: a group (the rank in ``_ASCII_ORDER``) and a sub-position inside
# the group (0 for the ASCII character itself, a code point for characters
# placed after it).

# Whitespace, punctuation, symbols, currency, digits and letters, lowest first.
_ASCII_ORDER = "\t\n\x0b\x0c\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"
_RANK = {ch: i + 1 for i, ch in enumerate(_ASCII_ORDER)}

_SEC_COMMON = "\x01"
_TER_LOWER = 2
_TER_UPPER = 8

# Secondary order of the combining marks U+0300-U+036F in ICU root; marks in
# one group have equal weight. Marks that decompose canonically (U+0340,
# U+0341, U+0343, U+0344) are reached through their decomposition.
_MARK_GROUPS = (
    "\u0332",
    "\u0313",
    "\u0314",
    "\u0301",
    "\u0300",
    "\u0306",
    "\u0302",
    "\u030c",
    "\u030a",
    "\u0342",
    "\u0308",
    "\u030b",
    "\u0303",
    "\u0307",
    "\u0338",
    "\u0327",
    "\u0328",
    "\u0304",
    "\u030d\u030e\u0312\u0315\u031a\u033d\u033e\u033f\u0346\u034a\u034b\u034c\u0350\u0351\u0352\u0357\u035b\u035d\u035e",
    "\u0316\u0317\u0318\u0319\u031c\u031d\u031e\u031f\u0320\u0329\u032a\u032b\u032c\u032f\u0333\u033a\u033b\u033c"
    "\u0347\u0348\u0349\u034d\u034e\u0353\u0354\u0355\u0356\u0359\u035a\u035c\u035f\u0362",
    "\u0336\u0337",
    "\u0335",
    "\u0305",
    "\u0309",
    "\u030f",
    "\u0310",
    "\u0311",
    "\u031b",
    "\u0321",
    "\u0322",
    "\u0323",
    "\u0324",
    "\u0325",
    "\u0326",
    "\u032d",
    "\u032e",
    "\u0330",
    "\u0331",
    "\u0334",
    "\u0339",
    "\u0345",
    "\u0358",
    "\u0360",
    "\u0361",
)
_MARK_WEIGHT = {mark: 2 + group for group, marks in enumerate(_MARK_GROUPS) for mark in marks}
_ETH_MARK = 2 + len(_MARK_GROUPS)  # the accent that tells ð from d
_LIGATURE_MARK = _ETH_MARK + 1  # the accent that tells ß from ss, æ from ae
_OTHER_MARK_BASE = 0x100  # marks outside the table: after it, in code-point order

# Letters U+0363-U+036F are small letters written above: primary letters in ICU.
_SUPERSCRIPT_LETTERS = dict(
    zip(
        "\u0363\u0364\u0365\u0366\u0367\u0368\u0369\u036a\u036b\u036c\u036d\u036e\u036f",
        "aeioucdhmrtvx",
        strict=True,
    )
)

# Tertiary weight of a compatibility mapping, lower case and upper case.
_TAG_TERTIARY = {
    "": (_TER_LOWER, _TER_UPPER),
    "<wide>": (3, 9),
    "<compat>": (4, 10),
    "<font>": (5, 11),
    "<circle>": (6, 12),
    "<small>": (13, 13),
    "<narrow>": (14, 14),
    "<initial>": (16, 16),
    "<medial>": (17, 17),
    "<final>": (18, 18),
    "<isolated>": (19, 19),
    "<super>": (20, 20),
    "<sub>": (21, 21),
    "<vertical>": (22, 22),
    "<noBreak>": (27, 27),
    "<square>": (28, 28),
    "<fraction>": (30, 30),
}

# Latin letters without a decomposition that ICU sorts as a base letter plus
# an accent: (base, secondary weight).
_ACCENTED_LETTERS = {
    "ł": ("l", _MARK_WEIGHT["\u0335"]),
    "đ": ("d", _MARK_WEIGHT["\u0335"]),
    "ħ": ("h", _MARK_WEIGHT["\u0335"]),
    "ø": ("o", _MARK_WEIGHT["\u0338"]),
    "ð": ("d", _ETH_MARK),
    "ſ": ("s", _ETH_MARK),
    "ŀ": ("l", _ETH_MARK),
}
# Letters ICU sorts as two letters with an accent between them (after the
# plain pair and after the pair with any ordinary accent): ss < ß < st.
_LETTER_SEQUENCES = {"ß": "ss", "æ": "ae", "œ": "oe"}
# Letters ICU places just after a base letter as a letter of their own.
_LETTERS_AFTER = {"ı": "i", "ĸ": "q", "ŋ": "n"}
_LATIN_NAME = re.compile(r"LATIN (SMALL|CAPITAL) LETTER ([A-Z]) WITH ")

_Fragment = tuple[str, str, str]
_IGNORED: _Fragment = ("", "", "")


def _primary(group_char: str, sub: int = 0) -> str:
    return chr(_RANK[group_char]) + chr(sub)


def _letter_fragment(primary: str, tertiary: int, count: int = 1) -> _Fragment:
    return primary, _SEC_COMMON * count, chr(tertiary) * count


def _build_ascii_tables() -> tuple[dict[int, str | None], dict[int, str | None]]:
    primary: dict[int, str | None] = {}
    tertiary: dict[int, str | None] = {}
    for code in range(128):
        ch = chr(code)
        base = ch.lower()
        if base in _RANK:
            primary[code] = _primary(base)
            tertiary[code] = chr(_TER_UPPER if ch != base else _TER_LOWER)
        else:
            primary[code] = None
            tertiary[code] = None
    return primary, tertiary


_ASCII_PRIMARY, _ASCII_TERTIARY = _build_ascii_tables()
_CHAR_CACHE: dict[str, _Fragment] = {}


def _join(fragments: Iterable[_Fragment]) -> _Fragment:
    parts = list(fragments)
    return "".join(p[0] for p in parts), "".join(p[1] for p in parts), "".join(p[2] for p in parts)


def _char_fragment(ch: str) -> _Fragment:
    """The collation elements of one character, as per-level fragments."""
    cached = _CHAR_CACHE.get(ch)
    if cached is None:
        cached = _compute_char_fragment(ch)
        _CHAR_CACHE[ch] = cached
    return cached


def _compute_char_fragment(ch: str) -> _Fragment:
    code = ord(ch)
    if code < 128:
        prim = _ASCII_PRIMARY[code]
        if prim is None:
            return _IGNORED
        ter = _ASCII_TERTIARY[code]
        assert ter is not None
        return prim, _SEC_COMMON, ter
    lower = ch.lower()
    is_upper = lower != ch
    if lower in _LETTER_SEQUENCES:  # ß, æ, œ and their capitals
        pair = _LETTER_SEQUENCES[lower]
        ter = chr(_TER_UPPER if is_upper else _TAG_TERTIARY["<compat>"][0])
        return _primary(pair[0]) + _primary(pair[1]), _SEC_COMMON + chr(_LIGATURE_MARK) + _SEC_COMMON, ter * 3
    if lower in _ACCENTED_LETTERS:
        base, mark = _ACCENTED_LETTERS[lower]
        ter = chr(_TER_UPPER if is_upper else _TER_LOWER)
        return _primary(base), _SEC_COMMON + chr(mark), ter + chr(_TER_LOWER)
    if lower in _LETTERS_AFTER:
        return _letter_fragment(
            _primary(_LETTERS_AFTER[lower], ord(lower)), _TER_UPPER if is_upper else _TER_LOWER
        )
    if ch in _SUPERSCRIPT_LETTERS:
        return _letter_fragment(_primary(_SUPERSCRIPT_LETTERS[ch]), 3)

    category = unicodedata.category(ch)
    if code == 0x85 or (category[0] == "Z" and not unicodedata.decomposition(ch)):
        return _letter_fragment(_primary("\r", code), _TER_LOWER)
    if category in ("Cc", "Cf") or ch == "\u034f" or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:
        return _IGNORED

    decomposition = unicodedata.decomposition(ch)
    if decomposition:
        nfkd = unicodedata.normalize("NFKD", ch)
        if nfkd != ch:
            tag = decomposition.split(" ", 1)[0] if decomposition.startswith("<") else ""
            return _decomposed_fragment(nfkd, tag)

    if category[0] == "M":
        return "", chr(_MARK_WEIGHT.get(ch, _OTHER_MARK_BASE + code)), chr(_TER_LOWER)
    if category == "Nd":
        return _char_fragment(str(unicodedata.digit(ch)))
    if category == "Sc":
        return _letter_fragment(_primary("$", code), _TER_LOWER)
    if category[0] == "S":
        return _letter_fragment(_primary("~", code), _TER_LOWER)
    if category[0] == "P":
        return _letter_fragment(_primary("%", code), _TER_LOWER)
    if category == "Cs":
        return _letter_fragment(_primary("z", 0xFFFD), _TER_LOWER)
    match = _LATIN_NAME.match(unicodedata.name(ch, ""))
    if match:
        base = match.group(2).lower()
        return _letter_fragment(
            _primary(base, ord(lower)), _TER_UPPER if match.group(1) == "CAPITAL" else _TER_LOWER
        )
    sub = ord(lower) if len(lower) == 1 else code
    return _letter_fragment(_primary("z", sub), _TER_UPPER if is_upper else _TER_LOWER)


def _decomposed_fragment(nfkd: str, tag: str) -> _Fragment:
    """Elements of a decomposed character: its letters carry the tag's tertiary weight."""
    lower_weight, upper_weight = _TAG_TERTIARY.get(tag, (4, 10))
    parts: list[_Fragment] = []
    for part in nfkd:
        prim, sec, ter = _char_fragment(part)
        if prim and tag:
            upper = part.lower() != part
            ter = chr(upper_weight if upper else lower_weight) * len(ter)
        parts.append((prim, sec, ter))
    return _join(parts)


_KEY_CACHE: dict[str, CollationKey] = {}
_KEY_CACHE_LIMIT = 1 << 16


def collation_key(s: str) -> CollationKey:
    """A sort key for ``s`` that orders strings as JavaScript ``a.localeCompare(b)`` (ICU root).

    Keys compare with ``<``; equal keys mean ``localeCompare`` returns 0.
    Exact for ASCII; an approximation elsewhere (see the module docstring).
    """
    key = _KEY_CACHE.get(s)
    if key is not None:
        return key
    if type(s) is not str:
        if not isinstance(s, str):
            raise TypeError(f"collation_key() takes a str, not {type(s).__name__}")
        s = str.__str__(s)
    if s.isascii():
        primary = s.translate(_ASCII_PRIMARY)
        key = (primary, _SEC_COMMON * (len(primary) >> 1), s.translate(_ASCII_TERTIARY))
    else:
        key = _join(_char_fragment(ch) for ch in s)
    if len(_KEY_CACHE) >= _KEY_CACHE_LIMIT:
        _KEY_CACHE.clear()
    _KEY_CACHE[s] = key
    return key


def compare_collated(a: str, b: str) -> int:
    """-1, 0 or 1 as ``a.localeCompare(b)`` would answer (its sign)."""
    ka, kb = collation_key(a), collation_key(b)
    return -1 if ka < kb else (1 if ka > kb else 0)


def sort_collated(items: Iterable[str]) -> list[str]:
    """Strings sorted by :func:`collation_key`; equal strings keep their input order."""
    return sorted(items, key=collation_key)


# ---------------------------------------------------------------------------
# Object key order

_ORDER_CACHE: dict[tuple[str, ...], tuple[str, ...]] = {}
_ORDER_CACHE_LIMIT = 1 << 14


def _is_index_key(key: str) -> bool:
    """True for canonical array indices: JavaScript lists these keys first, in numeric order."""
    return (
        0 < len(key) <= 10
        and key.isascii()
        and key.isdigit()
        and (key[0] != "0" or key == "0")
        and int(key) < _MAX_ARRAY_INDEX
    )


def _key_order(keys: tuple[Any, ...]) -> tuple[str, ...]:
    """The canonical order of an object's keys (cached by the keys in their given order)."""
    order = _ORDER_CACHE.get(keys)
    if order is not None:
        return order
    plain: list[str] = []
    for key in keys:
        if type(key) is not str:
            if not isinstance(key, str):
                raise TypeError(f"object keys must be str, not {type(key).__name__}")
            key = str.__str__(key)
        plain.append(key)
    indices = sorted((k for k in plain if _is_index_key(k)), key=int)
    names = sorted((k for k in plain if not _is_index_key(k)), key=collation_key)
    order = tuple(indices + names)
    if all(type(k) is str for k in keys):
        if len(_ORDER_CACHE) >= _ORDER_CACHE_LIMIT:
            _ORDER_CACHE.clear()
        _ORDER_CACHE[keys] = order
    return order


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
    raw = msgspec.Raw
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
                    text = repr(item)
                    if "e" in text or "n" in text or text[-2:] == ".0":
                        out[key] = _number_node(item)
                    else:  # plain notation in Python is plain in JavaScript too
                        out[key] = raw(text)
                else:
                    item = _coerce(item)
                    out[key] = item
                    if type(item) is dict or type(item) is list:
                        push((item, out, key, child_depth))
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
                    text = repr(item)
                    if "e" in text or "n" in text or text[-2:] == ".0":
                        out[index] = _number_node(item)
                    else:
                        out[index] = raw(text)
                else:
                    item = _coerce(item)
                    out[index] = item
                    if type(item) is dict or type(item) is list:
                        push((item, out, index, child_depth))
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
_PLAIN_LEAF_TYPES = frozenset({str, bool, type(None)})
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

    Walks level by level, so that nesting deeper than msgspec writes ends the
    walk early; a container met twice (a cycle, or one shared by two parents)
    ends it too. Object keys are gathered into one set and
    checked once; only when that set as a whole does not sort the same both
    ways is each object's key order checked on its own.
    """
    safe = _MAX_SAFE_INTEGER
    low = _PLAIN_FLOAT_MIN
    high = _PLAIN_FLOAT_MAX
    plain = _PLAIN_LEAF_TYPES
    keys: set[Any] = set()
    gather = keys.update
    containers = {id(value)}
    counted = 1
    level: list[Any] = [value]
    depth = 0
    while level:
        depth += 1
        if depth > _MSGSPEC_DEPTH:
            return _OFF_FAST_PATH
        below: list[Any] = []
        push = below.append
        for src in level:
            items: Any
            if type(src) is dict:
                gather(src)
                items = src.values()
            else:
                items = src
            for item in items:
                kind = type(item)
                if kind in plain:
                    continue
                if kind is dict or kind is list:
                    push(item)
                elif kind is int:
                    if not -safe <= item <= safe:
                        return _OFF_FAST_PATH
                elif kind is float:
                    if item.is_integer() or not low <= abs(item) < high:
                        return _OFF_FAST_PATH
                else:
                    return _OFF_FAST_PATH
        if below:  # a container met twice (shared, or a cycle) is left to the general path
            counted += len(below)
            containers.update(map(id, below))
            if len(containers) != counted:
                return _OFF_FAST_PATH
        level = below
    if _key_set_sorts_canonically(frozenset(keys)):
        return _KEYS_APART
    # Each object on its own (the walk above bounded the depth and met only dicts, lists and leaves).
    known = _SORTED_IS_CANONICAL.get
    pending: list[Any] = [value]
    while pending:
        src = pending.pop()
        items = src
        if type(src) is dict:
            order = tuple(src)
            ordered = known(order)
            if ordered is None:
                ordered = _keys_sort_canonically(order)
            if not ordered:
                return _OFF_FAST_PATH
            items = src.values()
        pending.extend(item for item in items if type(item) is dict or type(item) is list)
    return _KEYS_IN_ORDER


def _outcomes_are_canonical(outcomes: dict[Any, Any]) -> bool:
    """Whether a map of outcome strings takes the fast path: exact ``str`` keys and values, keys sorting alike."""
    keys = tuple(outcomes)
    if len(keys) == 1:
        return type(keys[0]) is str and type(outcomes[keys[0]]) is str
    return _keys_sort_canonically(keys) and all(type(item) is str for item in outcomes.values())


#: Per top-level fact key, the last object or array seen under it whose canonical text was found with
#: every key collating apart: ``(text, plain copy decoded from the text)``, the copy ``None`` until the
#: same text is seen a second time (one-off values cost no copy). A value equal to the copy has the
#: copy's shape, so encoding it is bounded (even if it shares objects), and when msgspec then writes the
#: same text the value has that canonical text: facts that stay as they were, from turn to turn or
#: parsed again from JSON, are not walked again. The table belongs to the caller (a Provider's
#: :class:`~agent_graph._core.cache.EvaluationCache`), bounded by its ``FACT_TEXTS_BUDGET``.
_SORTED = msgspec.json.Encoder(order="sorted")
_PLAIN = msgspec.json.Decoder()
_ENCODE_ERRORS = (TypeError, ValueError, UnicodeEncodeError, RecursionError, OverflowError)


def _remembered_fact_text(entry: tuple[bytes, Any], value: dict[str, Any] | list[Any]) -> bytes | None:
    """The text of a fact-text ``entry`` (text, plain copy) if ``value`` has it, else None.

    The value is compared with the remembered plain copy before it is
    encoded: a value shared exponentially (or cyclic) would make msgspec write
    without end, and one equal to the copy has the copy's size.
    """
    try:
        if entry[1] != value:
            return None
        text = _SORTED.encode(value)
    except Exception:  # a foreign object's __eq__, or msgspec refusing: the walk decides
        return None
    return text if text == entry[0] else None  # the same text also tells True from 1.0


def _remember_fact_text(memo: EvaluationCache, key: str, text: bytes) -> None:
    """Keep a text found canonical, keys collating apart, under its top-level fact key (a copy on second sight)."""
    if len(text) > FACT_TEXT_MAX:
        return
    table = memo.fact_texts
    entry = table.get(key)
    if entry is not None and entry[0] == text:
        if entry[1] is None:  # seen twice: worth a copy
            table[key] = (text, _PLAIN.decode(text))
        return
    if entry is not None:
        memo.fact_texts_size -= len(entry[0])
    if memo.fact_texts_size + len(text) > FACT_TEXTS_BUDGET:
        table.clear()
        memo.fact_texts_size = 0
    table[key] = (text, None)
    memo.fact_texts_size += len(text)


def _facts_on_fast_path(
    facts: dict[Any, Any], memo: EvaluationCache
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """``facts`` with each object or array value replaced by its canonical text (``msgspec.Raw``), or None.

    Also gives the facts to check: ``facts`` itself when every value was
    walked (exact built-in types only), else a copy in which a remembered
    value is replaced by the memo's plain copy, which has the very same
    canonical text (so a value of a subclass that compares equal never
    reaches the checks). Objects and arrays not remembered from an earlier
    call are walked together, once, before any of them is encoded.
    """
    keys = tuple(facts)
    if len(keys) > 1:
        if not _keys_sort_canonically(keys):
            return None
    elif keys and type(keys[0]) is not str:
        return None
    plain = _PLAIN_LEAF_TYPES
    raw = msgspec.Raw
    texts = memo.fact_texts
    result: dict[str, Any] = {}
    copies: dict[str, Any] | None = None
    unknown: list[tuple[str, Any]] = []
    for key, value in facts.items():
        kind = type(value)
        if kind is dict or kind is list:
            entry = texts.get(key)
            text = _remembered_fact_text(entry, value) if entry is not None and entry[1] is not None else None
            if text is None:
                unknown.append((key, value))
            else:
                result[key] = raw(text)
                if copies is None:
                    copies = {}
                copies[key] = memo.fact_texts[key][1]
        elif kind in plain:
            result[key] = value
        elif kind is int:
            if not -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER:
                return None
            result[key] = value
        elif kind is float:
            if value.is_integer() or not _PLAIN_FLOAT_MIN <= abs(value) < _PLAIN_FLOAT_MAX:
                return None
            result[key] = value
        else:
            return None
    if unknown:
        # One walk over them all, bounded (it stops at a container met twice); their keys collate
        # apart together only if each one's do.
        verdict = _fast_path_check([value for _, value in unknown])
        if verdict == _OFF_FAST_PATH:
            return None
        for key, value in unknown:
            try:
                text = _SORTED.encode(value)
            except _ENCODE_ERRORS:  # a lone surrogate
                return None
            if verdict == _KEYS_APART:
                _remember_fact_text(memo, key, text)
            result[key] = raw(text)
    if copies is None:
        return result, facts
    return result, {key: copies.get(key, value) for key, value in facts.items()}


def revision_bytes_fast(
    provider: str,
    graph_id: str,
    entry: Any,
    facts: Any,
    outcomes: Any,
    authorities: Any,
    memo: EvaluationCache,
) -> tuple[bytes, dict[str, Any]] | None:
    """The revision text of a state of exact built-in types, and the facts to check; None off the fast path.

    ``outcomes`` (keys to outcome strings) and ``authorities`` (a list of
    strings) are normalized by the evaluator, so only their own few keys and
    types are looked at before the facts, whose top-level objects and arrays
    are compared with the texts ``memo`` remembers first. The text determines
    the state (see :func:`canonical_bytes_exact`).
    """
    if (
        type(entry) is str
        and type(facts) is dict
        and type(outcomes) is dict
        and type(authorities) is list
        and (not authorities or all(type(item) is str for item in authorities))
        and (not outcomes or _outcomes_are_canonical(outcomes))
    ):
        fast = _facts_on_fast_path(facts, memo)
        if fast is not None:
            state = {
                "authorities": authorities,
                "entry": entry,
                "facts": fast[0],
                "graphId": graph_id,
                "outcomes": outcomes,
                "provider": provider,
            }
            try:  # these six keys sort alike both ways
                return _SORTED.encode(state), fast[1]
            except (UnicodeEncodeError, RecursionError):
                pass
    return None


def revision_bytes_exact(
    provider: str,
    graph_id: str,
    entry: Any,
    facts: Any,
    outcomes: Any,
    authorities: Any,
    memo: EvaluationCache,
) -> tuple[bytes, bool]:
    """``canonical_bytes_exact({provider, graphId, entry, facts, outcomes, authorities})``, fast when it can be."""
    fast = revision_bytes_fast(provider, graph_id, entry, facts, outcomes, authorities, memo)
    if fast is not None:
        return fast[0], True
    state = {
        "authorities": authorities,
        "entry": entry,
        "facts": facts,
        "graphId": graph_id,
        "outcomes": outcomes,
        "provider": provider,
    }
    return canonical_bytes_exact(state)


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


def utf16_key(text: str) -> bytes:
    """Sort key giving JavaScript's default (UTF-16 code unit) string order.

    Always bytes, so ASCII and non-ASCII strings compare with each other.
    """
    return text.encode("utf-16-be", "surrogatepass")
