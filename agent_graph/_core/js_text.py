"""JavaScript's text of numbers and strings, as ``JSON.stringify`` writes them.

:func:`js_number` prints a number as ECMAScript ``Number::toString`` prints
the equivalent double; :func:`js_string` quotes and escapes a string as
``JSON.stringify`` does (lone surrogates as ``\\udxxx``). Used by the canonical
JSON writer (:mod:`agent_graph._core.canonical`). No I/O.
"""

from __future__ import annotations

import math
import re
from json.encoder import encode_basestring as _encode_basestring

__all__ = ["MAX_SAFE_INTEGER", "float_text", "js_number", "js_string"]

#: The largest integer every double holds exactly (``Number.MAX_SAFE_INTEGER`` + 1).
MAX_SAFE_INTEGER = 2**53
_MAX_SAFE_INTEGER = MAX_SAFE_INTEGER

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
    return float_text(float(x))


def float_text(x: float) -> str:
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


def js_string(s: str) -> str:
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
