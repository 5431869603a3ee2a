"""Reading YAML and JSON text into plain Python data, as the reference toolchain reads it.

The reference reads YAML with the ``yaml`` npm package (YAML 1.2, core schema,
``YAML.parse`` defaults) and JSON with ``JSON.parse``; the values land in
JavaScript, which has one number type. This module reproduces those answers:

* YAML syntax comes from ruamel.yaml's event stream (reader, scanner and parser
  only), read in :mod:`agent_graph._syntax.yaml_events`: values are built from the
  events with an explicit stack, with the core-schema scalar rules, the
  reference's duplicate-key check and its alias accounting (``count × weight >
  100`` is refused). Plain block-style YAML (indented mappings and sequences,
  one-line scalars, short flow collections, comments) is read by a line-based
  fast path here that gives the same values and hands anything else, errors
  included, to the full reader; ruamel.yaml is imported only then.
* Numbers follow JavaScript: an integer beyond 2**53 becomes the nearest double,
  an integral finite float within 2**53 becomes an ``int`` (``1.0`` and ``1e3``
  are integers for JSON Schema), ``-0.0`` stays a float.
* Mapping keys are strings, as in a JavaScript object: scalar keys are written
  as JavaScript's ``String()`` writes them (``1`` → ``"1"``, ``true`` →
  ``"true"``, null → ``""``); collection keys are refused. Keys that are array
  indices (``"0"``, ``"7"``, below 2**32 - 1) come first in ascending numeric
  order, the others keep their first insertion order, as JavaScript orders an
  object's own properties.
* Nesting deeper than ``max_depth`` is refused; nothing here recurses on the
  depth of the input.
* YAML text that is plain JSON (a common way to write YAML) is read by the C
  JSON decoder, with YAML's duplicate-key rule; the answer is the same.

Results are plain ``dict``/``list``/``str``/``int``/``float``/``bool``/``None``.
A YAML alias yields the very object its anchor produced (as in JavaScript), so
treat parsed data as read-only or copy before changing it.

Known differences from the reference, all in corners real files avoid:
collection keys (the reference writes them as flow-style strings) and
recursive aliases (the reference builds a cyclic value) are ``parse-failed``
here; ``%YAML 1.1`` documents (the reference switches to the YAML 1.1 schema)
are refused; ``!!timestamp``, ``!!binary``, ``!!set``, ``!!omap`` and
``!!pairs`` give the plain string, mapping or sequence instead of a date, bytes,
set or map; a few
syntax corners differ (lone ``\r`` or U+2028 as line breaks, implicit flow
keys spanning lines, a plain scalar ending in ``:`` before a flow indicator).

This module knows nothing of files on disk, Providers or graphs: callers pass
the bytes or text and a path used only in messages.
"""

from __future__ import annotations

import json
import re
from typing import Any, NoReturn

import msgspec

from .._core.errors import AgentGraphError
from .scalars import (
    _NO_MATCH,
    _decimal_int,
    _fail,
    _float_text,
    _order_like_js,
    _plain_scalar,
)
from .syntax_hints import syntax_hint

__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "MAX_ALIAS_COUNT",
    "MAX_DEPTH",
    "parse_front_matter",
    "parse_json",
    "parse_structured",
    "parse_yaml",
    "utf8_text",
]

DEFAULT_MAX_FILE_BYTES = 32 * 1024 * 1024
"""Largest file :func:`parse_structured` reads (32 MiB; a 100,000-node graph is about 20 MB of JSON)."""

MAX_DEPTH = 512
"""Deepest nesting of collections accepted (``[]`` is depth 1).

Real files nest a few dozen levels at most. The limit sits well below the
interpreter's recursion limit, so that deep input is refused here, quickly and
with ``parse-failed``, and never reaches recursive code in other libraries.
(JSON text is decoded by the standard library's C decoder, which also stops at
the interpreter's recursion limit; that is reported as ``parse-failed`` too.)
"""

MAX_ALIAS_COUNT = 100
"""The reference's alias budget: resolving an alias when ``count × weight`` exceeds it fails."""

# --------------------------------------------------------------------------- YAML

# Block-style YAML as authors write it (indented mappings and sequences, plain
# or quoted one-line scalars, short flow collections, comments) is read here
# line by line, much faster than through the full scanner. Anything outside
# that subset (anchors, tags, block or multi-line scalars, document markers,
# tabs, duplicate or non-identifier keys, odd indentation, ...) makes
# ``_simple_yaml`` give up with ``_NO_MATCH`` and the full reader decides,
# errors included; for text it accepts, both readers give the same value.

# Characters the fast path accepts: no tab, CR, NEL, line or paragraph
# separator, byte-order mark, control character, surrogate or non-character.
# (Written as the set to refuse: a negated class over the astral planes costs milliseconds to compile.)
_SIMPLE_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
_SIMPLE_KEY = re.compile(r"([A-Za-z_$][A-Za-z0-9_$./<>@+-]{0,199}):(?: +|\Z)")
_SIMPLE_FLOW_KEY = re.compile(r"([A-Za-z_$][A-Za-z0-9_$./<>@+-]{0,199}): +")
_SIMPLE_FLOW_PLAIN = re.compile(r"[^,\[\]{}#:\"']+")
# A plain scalar may not start with an indicator (``-`` followed by a space is a sequence entry).
_PLAIN_FIRST_UNSAFE = frozenset("?:,[]{}#&*!|>'\"%@`")
_SIMPLE_MAX_DEPTH = 64  # documents are read here only when max_depth allows this much nesting
_SIMPLE_FLOW_DEPTH = 3  # flow collections nested on one line, at most
_MISSING = object()


def _simple_key(name: str) -> bool:
    """A key the fast path takes: its plain scalar is the string itself (not null, a bool or a number)."""
    return type(_plain_scalar(name)) is str


def _quoted_end(text: str, start: int) -> int:
    """Index just past the one-line quoted scalar at ``text[start]``, or -1."""
    if text[start] == '"':
        end = text.find('"', start + 1)
        if end < 0 or "\\" in text[start + 1 : end]:
            return -1
        return end + 1
    position = start + 1
    while True:
        end = text.find("'", position)
        if end < 0:
            return -1
        if text.startswith("''", end):
            position = end + 2
            continue
        return end + 1


def _quoted_value(quoted: str) -> str:
    if quoted[0] == '"':
        return quoted[1:-1]
    return quoted[1:-1].replace("''", "'")


def _skip_spaces(text: str, position: int) -> int:
    while text.startswith(" ", position):
        position += 1
    return position


def _simple_flow(text: str, position: int, depth: int) -> tuple[Any, int] | None:
    """The one-line flow collection starting at ``text[position]`` and the index after it, or None.

    Items are quoted or plain scalars (no ``:`` or ``#`` in plain ones) and
    collections at most :data:`_SIMPLE_FLOW_DEPTH` deep; mapping keys are identifiers.
    """
    if depth > _SIMPLE_FLOW_DEPTH:
        return None
    is_map = text[position] == "{"
    closing = "}" if is_map else "]"
    container: Any = {} if is_map else []
    position = _skip_spaces(text, position + 1)
    if text.startswith(closing, position):
        return container, position + 1
    while True:
        position = _skip_spaces(text, position)
        key = ""
        if is_map:
            match = _SIMPLE_FLOW_KEY.match(text, position)
            if match is None:
                return None
            key = match.group(1)
            if key in container or not _simple_key(key):
                return None
            position = match.end()
        first = text[position : position + 1]
        value: Any
        if first == "[" or first == "{":
            nested = _simple_flow(text, position, depth + 1)
            if nested is None:
                return None
            value, position = nested
        elif first == '"' or first == "'":
            end = _quoted_end(text, position)
            if end < 0:
                return None
            value = _quoted_value(text[position:end])
            position = end
        else:
            match = _SIMPLE_FLOW_PLAIN.match(text, position)
            if match is None:
                return None
            plain = match.group().rstrip(" ")
            if not plain or plain[0] in _PLAIN_FIRST_UNSAFE or plain[0] == "-":
                return None
            value = _plain_scalar(plain)
            position = match.end()
        if is_map:
            container[key] = value
        else:
            container.append(value)
        position = _skip_spaces(text, position)
        if text.startswith(closing, position):
            return container, position + 1
        if not text.startswith(",", position):
            return None
        position += 1
        if text.startswith(closing, _skip_spaces(text, position)):
            return None  # a trailing comma


def _after_value(text: str, position: int) -> bool:
    """Whether only a comment (after whitespace) follows a value ending at ``position``."""
    return position == len(text) or (text[position] == " " and text[_skip_spaces(text, position)] == "#")


def _simple_value(text: str) -> Any:
    """The value written after ``key: `` or ``- `` on one line, or ``_MISSING``."""
    first = text[0]
    if first == '"' or first == "'":
        end = _quoted_end(text, 0)
        if end < 0 or not _after_value(text, end):
            return _MISSING
        return _quoted_value(text[:end])
    if first == "[" or first == "{":
        parsed = _simple_flow(text, 0, 1)
        if parsed is None or not _after_value(text, parsed[1]):
            return _MISSING
        return parsed[0]
    if first in _PLAIN_FIRST_UNSAFE or text.startswith(("- ", "---", "...")) or text == "-":
        return _MISSING
    cut = text.find(" #")
    if cut >= 0:
        text = text[:cut].rstrip(" ")
    if ": " in text or text.endswith(":"):
        return _MISSING
    return _plain_scalar(text)


class _SimpleFrame:
    """An open block collection of the fast path: its column and its container."""

    __slots__ = ("container", "indent", "indentless", "is_map")

    def __init__(self, indent: int, container: Any, is_map: bool, indentless: bool = False) -> None:
        self.indent = indent
        self.container = container
        self.is_map = is_map
        self.indentless = indentless


def _simple_yaml(text: str, max_depth: int) -> Any:
    """The value of ``text`` if it is simple block-style YAML, else ``_NO_MATCH``."""
    # Block collections stay below depth_limit, flow collections add at most _SIMPLE_FLOW_DEPTH.
    if max_depth < _SIMPLE_MAX_DEPTH or _SIMPLE_UNSAFE.search(text) is not None:
        return _NO_MATCH
    depth_limit = _SIMPLE_MAX_DEPTH - _SIMPLE_FLOW_DEPTH - 1
    stack: list[_SimpleFrame] = []
    root: Any = _MISSING
    # A key or sequence entry written without a value, waiting for a nested block.
    pending: _SimpleFrame | None = None
    pending_key: Any = None
    pending_column = -1
    # After a value on the same line, the next line may not be indented past this column.
    floor = -1
    for raw in text.split("\n"):
        line = raw.rstrip(" ")
        content = line.lstrip(" ")
        if not content or content[0] == "#":
            continue
        indent = len(line) - len(content)
        entry = content == "-" or content.startswith("- ")
        if indent == 0 and content.startswith(("---", "...", "%")):
            return _NO_MATCH
        if pending is not None:
            if indent > pending_column or (indent == pending_column and entry and pending.is_map):
                if len(stack) >= depth_limit:
                    return _NO_MATCH
                nested = _SimpleFrame(indent, [] if entry else {}, not entry, indent == pending_column)
                pending.container[pending_key] = nested.container  # replaces the None written before
                stack.append(nested)
            pending = None
        elif floor >= 0 and indent > floor:
            return _NO_MATCH  # a scalar continued on the next line
        floor = -1
        if root is _MISSING:
            root_frame = _SimpleFrame(indent, [] if entry else {}, not entry)
            root = root_frame.container
            stack.append(root_frame)
        while stack and stack[-1].indent > indent:
            stack.pop()
        if stack and stack[-1].indentless and stack[-1].indent == indent and not entry:
            stack.pop()
        if not stack or stack[-1].indent != indent:
            return _NO_MATCH
        frame = stack[-1]
        column = indent
        if not frame.is_map:
            if not entry:
                return _NO_MATCH
            rest = content[2:]
            body = rest.lstrip(" ")
            column = indent + 2 + len(rest) - len(body)
            if not body or body[0] == "#":
                frame.container.append(None)
                pending, pending_key, pending_column = frame, len(frame.container) - 1, indent
                continue
            if _SIMPLE_KEY.match(body) is None:
                value = _simple_value(body)
                if value is _MISSING:
                    return _NO_MATCH
                frame.container.append(value)
                floor = indent
                continue
            # ``- key: value``: a mapping opens on the entry's line.
            if len(stack) >= depth_limit:
                return _NO_MATCH
            nested = _SimpleFrame(column, {}, True)
            frame.container.append(nested.container)
            stack.append(nested)
            frame = nested
            content = body
        elif entry:
            return _NO_MATCH
        match = _SIMPLE_KEY.match(content)
        if match is None:
            return _NO_MATCH
        key = match.group(1)
        mapping = frame.container
        if key in mapping or not _simple_key(key):
            return _NO_MATCH
        body = content[match.end() :]
        if not body or body[0] == "#":
            mapping[key] = None
            pending, pending_key, pending_column = frame, key, column
            continue
        value = _simple_value(body)
        if value is _MISSING:
            return _NO_MATCH
        mapping[key] = value
        floor = column
    if root is _MISSING:
        return None
    return root


def parse_yaml(
    text: str,
    path: str = "<string>",
    *,
    max_depth: int = MAX_DEPTH,
    max_alias_count: int = MAX_ALIAS_COUNT,
) -> Any:
    """Parse one YAML 1.2 document as the reference toolchain does.

    Core-schema scalars only (``yes``/``on`` are strings, timestamps stay
    strings, ``<<`` is an ordinary key), aliases limited by
    ``max_alias_count``, collections nested at most ``max_depth`` deep. Empty
    text gives ``None``. A duplicate key, more than one document, a complex
    (collection) key, a recursive alias or any syntax error raises
    ``AgentGraphError("parse-failed", "Cannot parse {path}: ...")``.
    """
    if _looks_like_json(text):
        value = _json_in_yaml(text, max_depth)
        if value is not _NO_MATCH:
            return value
    value = _simple_yaml(text, max_depth)
    if value is not _NO_MATCH:
        return value
    from .yaml_events import parse_yaml_events

    return parse_yaml_events(text, path, max_depth, max_alias_count)


# --------------------------------------------------------------------------- JSON

# Integers the default decoder would misread: 16+ digits (beyond 2**53) and
# JavaScript's negative zero, which JSON.parse keeps as -0.
_NEGATIVE_ZERO = re.compile(r"-0(?![0-9.eE])")
# Digits to "0", every other byte to a space: a run of 16 digits becomes "0" * 16.
_DIGITS_ONLY = bytes(48 if 48 <= byte <= 57 else 32 for byte in range(256))
_SIXTEEN_DIGITS = b"0" * 16


def _needs_exact_integers(text: str) -> bool:
    """Whether ``text`` holds a 16-digit run or a ``-0`` integer (the regex scan, at byte speed)."""
    if "-0" in text and _NEGATIVE_ZERO.search(text) is not None:
        return True
    return _SIXTEEN_DIGITS in text.encode("utf-8", "surrogatepass").translate(_DIGITS_ONLY)


_INDEX_KEY_JSON = re.compile(r'"(?:0|[1-9][0-9]{0,9})"\s*:')


class _RejectedConstant(ValueError):
    """``NaN``/``Infinity`` literals, which JSON.parse refuses."""


def _reject_constant(name: str) -> NoReturn:
    raise _RejectedConstant(name)


def _json_int(text: str) -> int | float:
    return _decimal_int(text)


_JSON_DECODER = json.JSONDecoder(parse_float=_float_text, parse_constant=_reject_constant)
_JSON_DECODER_BIG = json.JSONDecoder(
    parse_float=_float_text, parse_int=_json_int, parse_constant=_reject_constant
)


def parse_json(
    text: str, path: str = "<string>", *, max_depth: int = MAX_DEPTH, unique_keys: bool = False
) -> Any:
    """Parse JSON text as JavaScript's ``JSON.parse`` does.

    A repeated key keeps its first position and its last value (with
    ``unique_keys``, a repeated key is ``parse-failed`` instead: files this
    library writes never repeat one, so a repetition is an edit that lies);
    ``NaN`` and ``Infinity`` literals and a leading byte-order mark are
    refused; numbers follow the JavaScript rules of this module. Nesting
    deeper than ``max_depth`` (or than the interpreter's recursion limit
    allows the decoder) and every syntax error raise
    ``AgentGraphError("parse-failed")``.
    """
    if text.startswith("\ufeff"):
        _fail(path, "unexpected byte-order mark at the start of JSON text")
    exact = _needs_exact_integers(text)
    if unique_keys:
        decoder = _YAML_JSON_DECODER_BIG if exact else _YAML_JSON_DECODER
    else:
        decoder = _JSON_DECODER_BIG if exact else _JSON_DECODER
    try:
        value = decoder.decode(text)
    except json.JSONDecodeError as exc:
        hint = syntax_hint(text, exc.msg, exc.lineno, exc.colno)
        _fail(path, exc.msg, exc.lineno, exc.colno, hint, "JSON")
    except _RejectedConstant as exc:
        _fail(path, f"{exc} is not valid JSON")
    except _DuplicateKey as exc:
        _fail(path, f"the key {exc} appears twice in one object")
    except RecursionError:
        _fail(path, f"arrays and objects nested deeper than {max_depth} levels")
    if not _settle_json_value(value, text, max_depth):
        _fail(path, f"arrays and objects nested deeper than {max_depth} levels")
    return value


def _settle_json_value(value: Any, text: str, max_depth: int) -> bool:
    """Give decoded JSON JavaScript's key order and check its depth; ``False`` when too deep."""
    reorder = _INDEX_KEY_JSON.search(text) is not None
    if reorder or text.count("[") + text.count("{") > max_depth:
        return _walk_json_value(value, max_depth, reorder)
    return True


def _walk_json_value(value: Any, max_depth: int, reorder: bool) -> bool:
    """Walk the decoded value without recursion: check ``max_depth``, reorder keys if asked."""
    if type(value) is not dict and type(value) is not list:
        return True
    stack: list[tuple[Any, int]] = [(value, 1)]
    pop = stack.pop
    push = stack.append
    while stack:
        node, depth = pop()
        if depth > max_depth:
            return False
        if type(node) is dict:
            if reorder:
                _order_like_js(node)
            items = node.values()
        else:
            items = node
        inner = depth + 1
        for item in items:
            kind = type(item)
            if kind is dict or kind is list:
                push((item, inner))
    return True


# YAML text that is JSON (many tools write it so) is read by the C JSON decoder:
# for such text the reference's YAML reading and JSON.parse agree, except for a
# duplicate key (an error in YAML) and for characters YAML treats as line
# breaks or that it reads differently inside quotes; those go the YAML way.
_JSON_UNSAFE_IN_YAML = re.compile("[\x7f-\x9f\u2028\u2029\ufeff]|\r(?!\n)")
_JSON_START = re.compile("\ufeff?[ \t\r\n]*[\\[{]")
_JSON_TRAILER = re.compile("[ \t\r\n]*")


class _DuplicateKey(ValueError):
    """A repeated key in JSON text read as YAML."""


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    mapping = dict(pairs)
    if len(mapping) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(json.dumps(key, ensure_ascii=True)[:80])
            seen.add(key)
    return mapping


_YAML_JSON_DECODER = json.JSONDecoder(
    parse_float=_float_text, parse_constant=_reject_constant, object_pairs_hook=_unique_pairs
)
_YAML_JSON_DECODER_BIG = json.JSONDecoder(
    parse_float=_float_text,
    parse_int=_json_int,
    parse_constant=_reject_constant,
    object_pairs_hook=_unique_pairs,
)


def _looks_like_json(text: str) -> bool:
    start = _JSON_START.match(text)
    return start is not None and _JSON_UNSAFE_IN_YAML.search(text, 1 if text[:1] == "\ufeff" else 0) is None


def _json_in_yaml(text: str, max_depth: int) -> Any:
    """The value of YAML text that is plain JSON, or ``_NO_MATCH`` to read it as YAML."""
    start = _JSON_START.match(text)
    assert start is not None
    decoder = _YAML_JSON_DECODER_BIG if _needs_exact_integers(text) else _YAML_JSON_DECODER
    try:
        value, end = decoder.raw_decode(text, start.end() - 1)
    except (ValueError, RecursionError):  # JSONDecodeError, NaN/Infinity, duplicate keys, depth
        return _NO_MATCH
    if _JSON_TRAILER.fullmatch(text, end) is None or not _settle_json_value(value, text, max_depth):
        return _NO_MATCH
    return value


# --------------------------------------------------------------------------- files and front matter


def utf8_text(data: bytes, not_utf8: str) -> str:
    """``data`` decoded as UTF-8, else ``file-encoding-invalid``: ``not_utf8`` and the first bad byte's offset."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AgentGraphError("file-encoding-invalid", f"{not_utf8} (byte {exc.start})") from None


def parse_structured(
    data: bytes,
    path: str,
    *,
    max_bytes: int = DEFAULT_MAX_FILE_BYTES,
    max_depth: int = MAX_DEPTH,
    max_alias_count: int = MAX_ALIAS_COUNT,
) -> Any:
    """Parse a file's bytes: ``.json`` (any case) as JSON, anything else as YAML.

    Raises ``file-too-large`` when ``len(data) > max_bytes`` (checked before
    decoding), ``file-encoding-invalid`` for bytes that are not UTF-8, and
    ``parse-failed`` for text that does not parse (a NUL character in YAML
    included).
    """
    if len(data) > max_bytes:
        raise AgentGraphError(
            "file-too-large", f"File is larger than the {max_bytes}-byte limit: {path} ({len(data)} bytes)"
        )
    text = utf8_text(data, f"File is not valid UTF-8: {path}")
    if path.lower().endswith(".json"):
        return parse_json(text, path, max_depth=max_depth)
    if "\0" in text:
        _fail(path, "NUL character in YAML text")
    return parse_yaml(text, path, max_depth=max_depth, max_alias_count=max_alias_count)


def parse_front_matter(
    text: str,
    path: str,
    *,
    max_depth: int = MAX_DEPTH,
    max_alias_count: int = MAX_ALIAS_COUNT,
) -> tuple[dict[str, Any], str]:
    """Split a Markdown resource into its YAML front matter (a mapping) and its body.

    The text must start with ``---\\n`` or ``---\\r\\n`` (else
    ``frontmatter-missing``). With ``\\r\\n`` normalised to ``\\n``, the header
    runs from offset 4 to the first ``\\n---\\n`` at or after offset 4; the
    body is everything after that closing line. No closing line, a YAML error
    in the header or a header that is not a mapping is ``frontmatter-invalid``.
    """
    if not (text.startswith("---\n") or text.startswith("---\r\n")):
        raise AgentGraphError("frontmatter-missing", f"Markdown resource requires YAML frontmatter: {path}")
    normalised = text.replace("\r\n", "\n")
    end = normalised.find("\n---\n", 4)
    if end < 0:
        raise AgentGraphError("frontmatter-invalid", f"Markdown frontmatter is not closed: {path}")
    try:
        # One empty line in place of the opening ``---``: positions are the file's.
        metadata = parse_yaml(
            "\n" + normalised[4:end], path, max_depth=max_depth, max_alias_count=max_alias_count
        )
    except AgentGraphError as exc:
        diagnostics = tuple(
            msgspec.structs.replace(d, detail={**d.detail, "language": "YAML front matter"})
            if isinstance(d.detail, dict)
            else d
            for d in exc.diagnostics
        )
        raise AgentGraphError(
            "frontmatter-invalid", f"Markdown frontmatter is not valid YAML: {exc.message}", diagnostics
        ) from None
    if type(metadata) is not dict:
        raise AgentGraphError("frontmatter-invalid", f"Markdown frontmatter must be an object: {path}")
    return metadata, normalised[end + 5 :]
