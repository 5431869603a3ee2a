"""YAML core-schema scalars and JavaScript's view of numbers and keys, shared by both YAML readers.

The line-based fast path (:mod:`agent_graph._syntax.parse`) and the event
reader (:mod:`agent_graph._syntax.yaml_events`) build the same values with
these rules: core-schema scalars, numbers as JavaScript holds them (an integer
beyond 2**53 becomes the nearest double, an integral float within 2**53 an
``int``), mapping keys written as JavaScript's ``String()`` writes them, and
object keys ordered as JavaScript orders an object's own properties.
Pure functions of text; nothing here reads files.
"""

from __future__ import annotations

import math
import re
from typing import Any, NoReturn

from .._core.errors import AgentGraphError, Diagnostic

_MAX_SAFE_INTEGER = 2**53
_INF = math.inf
_NAN = math.nan

_YAML_NULL = "tag:yaml.org,2002:null"
_YAML_BOOL = "tag:yaml.org,2002:bool"
_YAML_INT = "tag:yaml.org,2002:int"
_YAML_FLOAT = "tag:yaml.org,2002:float"


def _fail(
    path: str,
    reason: str,
    line: int | None = None,
    column: int | None = None,
    hint: str | None = None,
    language: str = "YAML",
) -> NoReturn:
    """Raise ``parse-failed``: ``Cannot parse {path}: {reason} (line L, column C); {hint}``.

    With a position, the error's one diagnostic carries ``{line, column,
    problem, hint?, language}`` so that a caller that names the file otherwise
    (the loader, relative to the Provider root) can place it
    (:func:`~agent_graph._syntax.syntax_hints.placed_syntax_error`).
    """
    if line is None or column is None:
        raise AgentGraphError("parse-failed", f"Cannot parse {path}: {reason}")
    message = f"Cannot parse {path}: {reason} (line {line}, column {column})"
    detail: dict[str, object] = {"line": line, "column": column, "problem": reason, "language": language}
    if hint:
        message += f"; {hint}"
        detail["hint"] = hint
    raise AgentGraphError(
        "parse-failed", message, (Diagnostic("parse-failed", "error", message, path=path, detail=detail),)
    )


# --------------------------------------------------------------------------- numbers


def _js_int(value: int) -> int | float:
    """An integer as a JavaScript number: beyond 2**53 it becomes the nearest double."""
    if -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER:
        return value
    try:
        return float(value)
    except OverflowError:
        return _INF if value > 0 else -_INF


def _js_float(value: float) -> int | float:
    """A float as a JavaScript number: integral, finite, not -0.0 and within 2**53 becomes ``int``."""
    if value.is_integer() and -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER:
        if value == 0 and math.copysign(1.0, value) < 0:
            return value
        return int(value)
    return value


def _decimal_int(text: str) -> int | float:
    """``parseInt(text, 10)`` for text already known to be ``[-+]?[0-9]+``."""
    sign = text[:1]
    digits = text[1:] if sign in "+-" else text
    digits = digits.lstrip("0") or "0"
    if len(digits) > 400:  # far beyond the largest double; also avoids int()'s digit limit
        return -_INF if sign == "-" else _INF
    value = int(digits)
    if value == 0 and sign == "-":
        return -0.0  # JavaScript keeps the sign of zero
    return _js_int(-value if sign == "-" else value)


def _float_text(text: str) -> int | float:
    """``parseFloat(text)`` for text that is already a valid decimal float literal."""
    return _js_float(float(text))


def _js_number_to_string(value: int | float) -> str:
    """ECMAScript ``Number::toString`` for an int or float (used for non-string mapping keys)."""
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    # position of the decimal point relative to the first significant digit
    point = len(whole.lstrip("0")) if whole.strip("0") else -(len(fraction) - len(fraction.lstrip("0")))
    point += int(exponent) if exponent else 0
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= point <= 21:
        body = digits + "0" * (point - k)
    elif 0 < point <= 21:
        body = digits[:point] + "." + digits[point:]
    elif -6 < point <= 0:
        body = "0." + "0" * (-point) + digits
    else:
        e = point - 1
        body = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + body


# --------------------------------------------------------------------------- YAML scalars

_WORDS: dict[str, Any] = {
    "~": None,
    "null": None,
    "Null": None,
    "NULL": None,
    "true": True,
    "True": True,
    "TRUE": True,
    "false": False,
    "False": False,
    "FALSE": False,
    ".inf": _INF,
    ".Inf": _INF,
    ".INF": _INF,
    "+.inf": _INF,
    "+.Inf": _INF,
    "+.INF": _INF,
    "-.inf": -_INF,
    "-.Inf": -_INF,
    "-.INF": -_INF,
    ".nan": _NAN,
    ".NaN": _NAN,
    ".NAN": _NAN,
}
_NUMBER_START = frozenset("0123456789+-.")
_WORD_START = frozenset("~nNtTfF.+-")

_INT10 = re.compile(r"[-+]?[0-9]+")
_INT8 = re.compile(r"0o[0-7]+")
_INT16 = re.compile(r"0x[0-9a-fA-F]+")
# the core schema's ``float`` and ``floatExp`` patterns together
_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?")

_NO_MATCH = object()

_BREAKS = "\r\n\x85\u2028\u2029"
_LINE_END = "\0" + _BREAKS
_COMMENT_OR_END = "#" + _LINE_END
_THE_END_SPACE_TAB = " \t" + _LINE_END
_COMMENT_MAY_FOLLOW = " \t\ufeff" + _BREAKS


def _core_number(text: str) -> Any:
    """The value of a core-schema int or float literal, or ``_NO_MATCH``."""
    if _INT10.fullmatch(text):
        return _decimal_int(text)
    if _INT8.fullmatch(text):
        return _js_int(int(text[2:], 8))
    if _INT16.fullmatch(text):
        return _js_int(int(text[2:], 16))
    if _FLOAT.fullmatch(text):
        return _float_text(text)
    return _NO_MATCH


def _plain_scalar(text: str) -> Any:
    """Resolve an untagged plain scalar with the YAML 1.2 core schema."""
    if not text:
        return None
    first = text[0]
    if first in _WORD_START:
        word = _WORDS.get(text, _NO_MATCH)
        if word is not _NO_MATCH:
            return word
    if first in _NUMBER_START:
        number = _core_number(text)
        if number is not _NO_MATCH:
            return number
    return text


def _tagged_scalar(tag: str, text: str) -> Any:
    """Resolve a scalar with an explicit tag: the core type applies only when the text matches it."""
    if tag == _YAML_NULL:
        if text in ("", "~", "null", "Null", "NULL"):
            return None
    elif tag == _YAML_BOOL:
        if text in ("true", "True", "TRUE", "false", "False", "FALSE"):
            return _WORDS[text]
    elif tag == _YAML_INT:
        if _INT10.fullmatch(text) or _INT8.fullmatch(text) or _INT16.fullmatch(text):
            return _core_number(text)
    elif tag == _YAML_FLOAT:
        special = _WORDS.get(text, _NO_MATCH)
        if isinstance(special, float):
            return special
        if _FLOAT.fullmatch(text) and not _INT10.fullmatch(text):
            return _float_text(text)
    # ``!!str``, ``!``, unknown and non-matching tags: the text itself
    return text


_SURROGATE = re.compile("[\ud800-\udfff]")


def _join_surrogates(text: str) -> str:
    """Combine ``\\uD83D\\uDE00``-style escaped pairs into one character, as a JavaScript string holds them."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _key_string(value: Any) -> str:
    """A scalar mapping key as JavaScript's ``String()`` writes it (null → ``""``)."""
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return value
    return _js_number_to_string(value)


class _NaNKey:
    """Identity of a NaN key for the duplicate check: NaN never equals anything."""

    __slots__ = ()


def _key_identity(value: Any) -> Any:
    """What the reference compares (``===``) to find duplicate scalar keys."""
    if isinstance(value, str):
        return value
    if value is None:
        return ("null",)
    if value is True or value is False:
        return ("bool", value)
    if value != value:
        return _NaNKey()
    return ("number", value)


def _is_index_key(key: str) -> bool:
    """Whether JavaScript treats ``key`` as an array index (ordered first in objects)."""
    if not key or key[0] not in "0123456789" or not (key.isascii() and key.isdigit()):
        return False
    if key[0] == "0":
        return key == "0"
    return len(key) <= 10 and int(key) < 4294967295


def _order_like_js(mapping: dict[str, Any]) -> None:
    """Reorder ``mapping`` in place as a JavaScript object orders its own keys."""
    index_keys = [k for k in mapping if _is_index_key(k)]
    if not index_keys:
        return
    index_keys.sort(key=int)
    ordered = [(k, mapping[k]) for k in index_keys]
    ordered.extend((k, v) for k, v in mapping.items() if not _is_index_key(k))
    mapping.clear()
    mapping.update(ordered)
