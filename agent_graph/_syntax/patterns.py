"""ECMAScript regular expressions (JSON Schema ``pattern``) rewritten for Python's ``re``.

JSON Schema patterns are ECMAScript: ``$`` matches only at the very end, ``\\d``
and ``\\w`` are ASCII, ``.`` stops at four line terminators. :func:`ecma_regex`
rewrites a pattern so that ``re.search`` gives ECMAScript's answer, for the
shipped schemas (whose patterns are known not to backtrack badly). Patterns of
user schemas are matched in linear time by :mod:`agent_graph._syntax.regex`
instead, with the same meaning. Pure text; no I/O.
"""

from __future__ import annotations

# ECMAScript's white space and line terminators (Python's ``\\s`` also takes U+001C-U+001F and U+0085).
_SPACE = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_WORD = "A-Za-z0-9_"
_CLASS_ESCAPES_OUTSIDE = {
    "d": "[0-9]",
    "D": "[^0-9]",
    "w": f"[{_WORD}]",
    "W": f"[^{_WORD}]",
    "s": f"[{_SPACE}]",
    "S": f"[^{_SPACE}]",
    # word boundaries with ASCII word characters, as ECMAScript has them
    "b": f"(?:(?<![{_WORD}])(?=[{_WORD}])|(?<=[{_WORD}])(?![{_WORD}]))",
    "B": f"(?:(?<=[{_WORD}])(?=[{_WORD}])|(?<![{_WORD}])(?![{_WORD}]))",
}
_CLASS_ESCAPES_INSIDE = {"d": "0-9", "w": _WORD, "s": _SPACE}
_ANY_BUT_LINE_END = "[^\\n\\r\\u2028\\u2029]"


def ecma_regex(pattern: str) -> str:
    """Rewrite an ECMAScript (JSON Schema) regular expression for Python's ``re.search``.

    * an unescaped ``$`` outside a character class becomes ``\\Z``: without the
      multiline flag ECMAScript's ``$`` matches only at the very end, while
      Python's also matches before a final newline;
    * ``.`` outside a class becomes "any character but a line terminator"
      (``\\n``, ``\\r``, U+2028, U+2029), as in ECMAScript;
    * ``\\d``, ``\\D``, ``\\w``, ``\\W`` and ``\\b``, ``\\B`` are ASCII (``\\d`` and ``\\w`` inside a
      class too); ``\\s`` and ``\\S`` are ECMAScript's white space and line terminators (``\\s`` inside
      a class too);
    * ``[]`` (never matches) and ``[^]`` (any character) keep their ECMAScript meaning;
    * named groups ``(?<name>…)`` and ``\\k<name>`` use Python's spelling.
    """
    out: list[str] = []
    i = 0
    n = len(pattern)
    in_class = False
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            if in_class and nxt in _CLASS_ESCAPES_INSIDE:
                out.append(_CLASS_ESCAPES_INSIDE[nxt])
            elif not in_class and nxt in _CLASS_ESCAPES_OUTSIDE:
                out.append(_CLASS_ESCAPES_OUTSIDE[nxt])
            elif not in_class and nxt == "k" and pattern.startswith("<", i + 2) and ">" in pattern[i + 3 :]:
                end = pattern.index(">", i + 3)
                out.append(f"(?P={pattern[i + 3 : end]})")
                i = end + 1
                continue
            else:
                out.append(ch + nxt)
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
            out.append(ch)
            i += 1
            continue
        if ch == "[":
            if pattern.startswith("[]", i):
                out.append("(?!)")
                i += 2
                continue
            if pattern.startswith("[^]", i):
                out.append("[\\s\\S]")
                i += 3
                continue
            in_class = True
            out.append(ch)
            if pattern.startswith("[^", i):
                out.append("^")
                i += 1
            i += 1
            continue
        if ch == "$":
            out.append("\\Z")
        elif ch == ".":
            out.append(_ANY_BUT_LINE_END)
        elif ch == "(" and pattern.startswith("(?<", i) and not pattern.startswith(("(?<=", "(?<!"), i):
            out.append("(?P<")
            i += 3
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out)
