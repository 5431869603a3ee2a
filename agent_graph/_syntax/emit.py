"""Writing YAML: JSON data as the block-style YAML 1.2 that authors write and both readers read back.

Rules of this module:

* What it writes reads back as the very value it was given, by this library's
  reader (:mod:`agent_graph._syntax.parse`) and by the TypeScript toolchain's:
  a string is written plain only when that reads back as the same string, else
  double-quoted (JSON's escapes, plus YAML's for the characters JSON leaves
  alone); numbers as JavaScript prints them.
* The same value always gives the same text (mappings keep their key order),
  so a file's digest depends only on its value.
* ``flow_width`` > 0 writes the short collections hand-written Providers write
  on one line: a list of scalars (``[partial, failed]``) and, inside a list, a
  mapping of such values (``- { from: a, to: b }``), when the line stays within
  ``flow_width`` characters. ``0`` writes every collection in block style.
* Nothing recurses on the depth of the value.

It knows nothing of files, Providers or graphs.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Any

from .._core.canonical import js_number
from .._core.errors import AgentGraphError
from .parse import parse_yaml

__all__ = ["dump_yaml", "emit_yaml", "yaml_scalar"]

_PLAIN = re.compile(r"[A-Za-z0-9_./^~(][A-Za-z0-9 _./^~()=+<>@%,:;!?*&'\"-]*")
# Characters a YAML double-quoted scalar must escape beyond what JSON escapes.
_YAML_UNPRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")
_SIMPLE = re.compile(r"[A-Za-z_/][A-Za-z0-9_./-]*")
# Starts with a letter, has no ':' or '#' and no indicator that matters after the first character:
# YAML reads such text as the string itself unless it is one of the core schema's words.
_SAFE_BLOCK = re.compile(r"[A-Za-z_/][A-Za-z0-9 _./(),;!?'+=<>@%&*~^-]*")
_KEYWORDS = frozenset({"null", "true", "false"})
_JS_SAFE = 2**53
# Flow mapping keys the reader's fast path takes.
_FLOW_KEY = re.compile(r"[A-Za-z_$][A-Za-z0-9_$./<>@+-]*")


@functools.lru_cache(maxsize=4096)
def _is_plain(text: str) -> bool:
    if _SIMPLE.fullmatch(text) or (_SAFE_BLOCK.fullmatch(text) and not text.endswith(" ")):
        # Starts with a letter, '_' or '/', no ':' or '#': only the core schema's words read as something else.
        return text.lower() not in _KEYWORDS
    if not _PLAIN.fullmatch(text) or text.endswith((" ", ":")) or " #" in text or ": " in text:
        return False
    try:
        return bool(parse_yaml(f"k: {text}\n") == {"k": text})
    except AgentGraphError:
        return False


def _quoted(text: str) -> str:
    encoded = json.dumps(text, ensure_ascii=False)
    return _YAML_UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", encoded)


def yaml_scalar(value: Any) -> str:
    """One scalar (or empty collection) written as YAML: plain when that reads back the same, else quoted."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        if isinstance(value, float) and value != value:
            return ".nan"
        if isinstance(value, float) and value in (float("inf"), float("-inf")):
            return ".inf" if value > 0 else "-.inf"
        return js_number(value)
    if isinstance(value, str):
        return value if _is_plain(value) else _quoted(value)
    if isinstance(value, Mapping) and not value:
        return "{}"
    if isinstance(value, (list, tuple)) and not value:
        return "[]"
    raise TypeError(f"not a YAML scalar: {type(value).__name__}")


def _kind(value: Any) -> int:
    """0 for a scalar (or an empty collection), 1 for a non-empty mapping, 2 for a non-empty list."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return 0
    if kind is dict or (kind is not list and kind is not tuple and isinstance(value, Mapping)):
        return 1 if value else 0
    if kind is list or kind is tuple:
        return 2 if value else 0
    return 0


class _Writer:
    """Scalars as text, remembered for one document (keys and values repeat across nodes)."""

    __slots__ = ("block", "exact", "flow", "keys")

    def __init__(self) -> None:
        self.block: dict[str, str] = {}
        self.flow: dict[str, str] = {}
        self.keys: dict[str, bool] = {}
        #: Whether reading the text back gives the value exactly: no float, no integer beyond 2**53.
        self.exact = True

    def scalar(self, value: Any) -> str:
        if type(value) is str:
            text = self.block.get(value)
            if text is None:
                text = self.block[value] = value if _is_plain(value) else _quoted(value)
            return text
        self.check(value)
        return yaml_scalar(value)

    def check(self, value: Any) -> None:
        kind = type(value)
        if kind is float or (kind is int and not -_JS_SAFE <= value <= _JS_SAFE):
            self.exact = False

    def key(self, key: Any) -> str:
        """A mapping key: JavaScript puts keys that are array indices first, so such a key is not exact."""
        text = str(key)
        if text.isdigit() and (text == "0" or text[0] != "0"):
            self.exact = False
        return self.scalar(text)

    def flow_scalar(self, value: Any) -> str | None:
        """A scalar as an item of a flow collection, or None when it is not a scalar."""
        if type(value) is str:
            text = self.flow.get(value)
            if text is None:
                plain = _SIMPLE.fullmatch(value) and value.lower() not in _KEYWORDS
                text = self.flow[value] = value if plain else _quoted(value)
            return text
        if _kind(value) != 0:
            return None
        self.check(value)
        return yaml_scalar(value)

    def flow_list(self, items: list[Any] | tuple[Any, ...]) -> str | None:
        parts = []
        for item in items:
            text = self.flow_scalar(item)
            if text is None:
                return None
            parts.append(text)
        return "[" + ", ".join(parts) + "]"

    def flow_mapping(self, mapping: Mapping[Any, Any]) -> str | None:
        parts = []
        for key, item in mapping.items():
            if type(key) is not str or key.isdigit():
                return None
            simple = self.keys.get(key)
            if simple is None:
                simple = self.keys[key] = bool(_FLOW_KEY.fullmatch(key)) and key.lower() not in _KEYWORDS
            if not simple:
                return None
            text = self.flow_list(item) if _kind(item) == 2 else self.flow_scalar(item)
            if text is None:
                return None
            parts.append(f"{key}: {text}")
        return "{ " + ", ".join(parts) + " }"


class _Line(str):
    """An already formatted output line (a task marker for :func:`dump_yaml`)."""


def dump_yaml(value: Any, *, flow_width: int = 0, flow_keys: frozenset[str] = frozenset()) -> str:
    """JSON data as block-style YAML (mappings keep their key order; iterative, any depth).

    With ``flow_width`` > 0, lists of scalars are written on one line when it
    fits in that width, and so are the mappings (of scalars and such lists)
    that are items of a list written under one of ``flow_keys``.
    """
    return emit_yaml(value, flow_width=flow_width, flow_keys=flow_keys)[0]


def emit_yaml(
    value: Any, *, flow_width: int = 0, flow_keys: frozenset[str] = frozenset()
) -> tuple[str, bool]:
    """:func:`dump_yaml`'s text, and whether reading it back gives ``value`` exactly.

    Exactly: the same types and the same key order. Floats (``1.0`` reads back
    as ``1``), integers beyond 2**53 and keys that are array indices (read
    first, as JavaScript orders them) are not.
    """
    writer = _Writer()
    lines: list[str] = []
    # Tasks: (value, indent, prefix of the first line or None, whether its mapping items may be flow).
    stack: list[tuple[Any, int, str | None, bool]] = [(value, 0, None, False)]
    while stack:
        node, indent, first, flow_items = stack.pop()
        if type(node) is _Line:
            lines.append(node)
            continue
        kind = _kind(node)
        pad = " " * indent
        if kind == 0:
            lines.append((first if first is not None else pad) + writer.scalar(node))
            continue
        pending: list[tuple[Any, int, str | None, bool]] = []
        if kind == 1:
            for position, (key, item) in enumerate(node.items()):
                prefix = first if position == 0 and first is not None else pad
                head = f"{prefix}{writer.key(key)}:"
                item_kind = _kind(item)
                if item_kind == 0:
                    pending.append((_Line(f"{head} {writer.scalar(item)}"), 0, None, False))
                    continue
                if flow_width and item_kind == 2:
                    flow = writer.flow_list(item)
                    if flow is not None and len(head) + 1 + len(flow) <= flow_width:
                        pending.append((_Line(f"{head} {flow}"), 0, None, False))
                        continue
                pending.append((_Line(head), 0, None, False))
                pending.append((item, indent + 2, None, key in flow_keys))
        else:
            for position, item in enumerate(node):
                prefix = (first if position == 0 and first is not None else pad) + "- "
                item_kind = _kind(item)
                if item_kind == 0:
                    pending.append((_Line(prefix + writer.scalar(item)), 0, None, False))
                    continue
                if flow_width and (item_kind == 2 or flow_items):
                    flow = writer.flow_mapping(item) if item_kind == 1 else writer.flow_list(item)
                    if flow is not None and len(prefix) + len(flow) <= flow_width:
                        pending.append((_Line(prefix + flow), 0, None, False))
                        continue
                pending.append((item, indent + 2, prefix, False))
        stack.extend(reversed(pending))
    return "".join(line + "\n" for line in lines), writer.exact
