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
from collections.abc import Iterator, Mapping
from typing import Any

from .._core.canonical import js_number
from .._core.errors import AgentGraphError
from .parse import parse_yaml

__all__ = ["YamlWriter", "dump_yaml", "emit_yaml", "yaml_scalar"]

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


class YamlWriter:
    """Writes documents with :meth:`emit`, remembering scalars as text (keys and values repeat across nodes and files)."""

    __slots__ = ("block", "exact", "flow", "keys", "keys_text")

    def __init__(self) -> None:
        self.block: dict[str, str] = {}
        self.flow: dict[str, str] = {}
        self.keys: dict[str, bool] = {}
        self.keys_text: dict[str, str] = {}
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
        known = self.keys_text.get(key) if type(key) is str else None
        if known is not None:
            return known
        text = str(key)
        if text.isdigit() and (text == "0" or text[0] != "0"):
            self.exact = False
            return self.scalar(text)
        written = self.scalar(text)
        if type(key) is str:
            self.keys_text[key] = written
        return written

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

    def emit(
        self, value: Any, *, flow_width: int = 0, flow_keys: frozenset[str] = frozenset()
    ) -> tuple[str, bool]:
        """One document as :func:`emit_yaml` writes it."""
        self.exact = True
        kind = _kind(value)
        if kind == 0:
            return self.scalar(value) + "\n", self.exact
        lines: list[str] = []
        append = lines.append
        stack = [_Frame(value, kind == 1, "", None, False)]
        while stack:
            frame = stack[-1]
            entry: Any = next(frame.items, _END)
            if entry is _END:
                stack.pop()
                continue
            prefix = frame.first if frame.first is not None else frame.pad
            frame.first = None
            if frame.mapping:
                key, item = entry
                head = f"{prefix}{self.key(key)}:"
                item_kind = _kind(item)
                if item_kind == 0:
                    append(f"{head} {self.scalar(item)}")
                    continue
                if flow_width and item_kind == 2:
                    flow = self.flow_list(item)
                    if flow is not None and len(head) + 1 + len(flow) <= flow_width:
                        append(f"{head} {flow}")
                        continue
                append(head)
                stack.append(_Frame(item, item_kind == 1, frame.pad + "  ", None, key in flow_keys))
                continue
            item = entry
            prefix += "- "
            item_kind = _kind(item)
            if item_kind == 0:
                append(prefix + self.scalar(item))
                continue
            if flow_width and (item_kind == 2 or frame.flow_items):
                flow = self.flow_mapping(item) if item_kind == 1 else self.flow_list(item)
                if flow is not None and len(prefix) + len(flow) <= flow_width:
                    append(prefix + flow)
                    continue
            stack.append(_Frame(item, item_kind == 1, frame.pad + "  ", prefix, False))
        lines.append("")
        return "\n".join(lines), self.exact


class _Frame:
    """An open collection of :func:`emit_yaml`: its items still to write, its indentation, its first prefix."""

    __slots__ = ("first", "flow_items", "items", "mapping", "pad")

    def __init__(self, value: Any, mapping: bool, pad: str, first: str | None, flow_items: bool) -> None:
        self.items: Iterator[Any] = iter(value.items()) if mapping else iter(value)
        self.mapping = mapping
        self.pad = pad
        #: The prefix of the collection's first line (``- `` of the list item holding it), then None.
        self.first = first
        self.flow_items = flow_items


_END = object()


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
    return YamlWriter().emit(value, flow_width=flow_width, flow_keys=flow_keys)
