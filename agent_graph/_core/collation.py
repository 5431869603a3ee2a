"""The key collation of canonical JSON: ICU root order, approximated from the Unicode database.

Canonical JSON sorts object keys as the reference does: canonical array-index
keys first in numeric order, then the rest by ``localeCompare`` (ICU root
collation). :func:`key_order` gives that order; :func:`utf16_key` gives
JavaScript's default (code-unit) order. No I/O.

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

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

__all__ = ["CollationKey", "collation_key", "compare_collated", "key_order", "sort_collated", "utf16_key"]

_MAX_ARRAY_INDEX = 2**32 - 1  # index keys are strictly below this value

CollationKey = tuple[str, str, str]

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


def key_order(keys: tuple[Any, ...]) -> tuple[str, ...]:
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


def utf16_key(text: str) -> bytes:
    """Sort key giving JavaScript's default (UTF-16 code unit) string order.

    Always bytes, so ASCII and non-ASCII strings compare with each other.
    """
    return text.encode("utf-16-be", "surrogatepass")
