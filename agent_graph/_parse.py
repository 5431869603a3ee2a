"""Reading YAML and JSON text into plain Python data, as the reference toolchain reads it.

The reference reads YAML with the ``yaml`` npm package (YAML 1.2, core schema,
``YAML.parse`` defaults) and JSON with ``JSON.parse``; the values land in
JavaScript, which has one number type. This module reproduces those answers:

* YAML syntax comes from ruamel.yaml's event stream (reader, scanner and parser
  only). Values are built here from the events with an explicit stack, with the
  core-schema scalar rules, the reference's duplicate-key check and its alias
  accounting (``count × weight > 100`` is refused).
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
import math
import re
from typing import Any, NoReturn

from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)
from ruamel.yaml.parser import Parser, ParserError
from ruamel.yaml.reader import Reader, ReaderError
from ruamel.yaml.scanner import Scanner, ScannerError
from ruamel.yaml.tokens import DocumentEndToken, StreamEndToken

from ._errors import AgentGraphError

__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "MAX_ALIAS_COUNT",
    "MAX_DEPTH",
    "parse_front_matter",
    "parse_json",
    "parse_structured",
    "parse_yaml",
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

_MAX_SAFE_INTEGER = 2**53
_INF = math.inf
_NAN = math.nan

_YAML_NULL = "tag:yaml.org,2002:null"
_YAML_BOOL = "tag:yaml.org,2002:bool"
_YAML_INT = "tag:yaml.org,2002:int"
_YAML_FLOAT = "tag:yaml.org,2002:float"


def _fail(path: str, reason: str) -> NoReturn:
    raise AgentGraphError("parse-failed", f"Cannot parse {path}: {reason}")


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


# --------------------------------------------------------------------------- YAML events


class _EventSource(Reader, Scanner, Parser):
    """ruamel.yaml's reader, scanner and parser, without composer, resolver or constructor."""

    processing_version = (1, 2)
    # The base classes find each other through properties; one object plays
    # every part here, so plain attributes (set in __init__) save the lookups.
    reader: Any = None
    scanner: Any = None
    resolver: Any = None

    def __init__(self, text: str, max_depth: int) -> None:
        self.reader = self.scanner = self.resolver = self._resolver = self
        self.comment_handling = None
        self._max_depth = max_depth
        self.doc_infos: list[Any] = [_DocInfo()]
        Reader.__init__(self, text, loader=self)
        Scanner.__init__(self, loader=self)
        Parser.__init__(self, loader=self)

    @classmethod
    def _get_non_printable(cls, data: str) -> tuple[int, str] | None:
        # The reference accepts control characters; only NUL is refused, because
        # the reader uses it as the end-of-input marker.
        position = data.find("\0")
        return None if position < 0 else (position, "\0")

    # ruamel.yaml refuses tabs wherever the block context allows only spaces.
    # YAML 1.2 (and the reference) accept a tab as separation inside a line,
    # on blank lines and before comments; only indentation must be spaces. The
    # four methods below widen the scanner accordingly.

    # The scanner asks these two for every token; these versions skip the work
    # when no simple key is pending, which is most of the time.

    def need_more_tokens(self) -> bool:
        """Whether the queue must grow before a token can be handed out."""
        if self.done:
            return False
        if not self.tokens:
            return True
        keys = self.possible_simple_keys
        if not keys:
            return False
        self.stale_possible_simple_keys()
        return bool(keys) and min(key.token_number for key in keys.values()) == self.tokens_taken

    def stale_possible_simple_keys(self) -> None:
        """Forget possible simple keys that can no longer be keys (another line, or 1024 characters on)."""
        keys = self.possible_simple_keys
        if not keys:
            return
        reader = self.reader
        line = reader.line
        index = reader.index
        for level, key in list(keys.items()):
            if key.line != line or index - key.index > 1024:
                if key.required:
                    raise ScannerError(
                        "while scanning a simple key",
                        key.mark,
                        "could not find expected ':'",
                        reader.get_mark(),
                    )
                del keys[level]

    def fetch_flow_collection_start(self, TokenClass: Any, to_push: str) -> None:
        """Stop at ``max_depth`` flow levels, before the scanner's look-ahead grows costly."""
        if len(self.flow_context) >= self._max_depth:
            raise ScannerError(
                None, None, f"collections nested deeper than {self._max_depth} levels", self.reader.get_mark()
            )
        super().fetch_flow_collection_start(TokenClass, to_push)

    def scan_to_next_token(self) -> None:
        """Skip separation whitespace, comments and line breaks before the next token."""
        reader = self.reader
        peek = reader.peek
        forward = reader.forward
        if reader.index == 0 and peek() == "\ufeff":
            forward()
        in_flow = bool(self.flow_context)
        crossed_break = False
        while True:
            ch = peek()
            while ch == " " or (in_flow and ch == "\t"):
                forward()
                ch = peek()
            if in_flow and crossed_break and ch not in _COMMENT_OR_END:
                self._check_continuation_indent(closing_allowed=True)
            if ch == "\t":
                before = reader.buffer[reader.pointer - reader.column : reader.pointer]
                while ch == " " or ch == "\t":
                    forward()
                    ch = peek()
                if ch not in _COMMENT_OR_END:
                    # A tab after indentation that does not reach past the block
                    # parent indents the line; at the top level only a flow
                    # collection may follow a tab at the start of a line.
                    if not before.strip(" ") and (
                        len(before) <= self.indent or (not before and ch not in "[{")
                    ):
                        raise ScannerError(
                            None, None, "tabs are not allowed as indentation", reader.get_mark()
                        )
                    # a tab may separate, but nothing after it may open a block key or entry
                    self.allow_simple_key = False
            if ch == "#":
                if reader.pointer and reader.buffer[reader.pointer - 1] not in _COMMENT_MAY_FOLLOW:
                    raise ScannerError(
                        None,
                        None,
                        "comments must be separated from other tokens by whitespace",
                        reader.get_mark(),
                    )
                while peek() not in _LINE_END:
                    forward()
            if not self.scan_line_break():
                return
            crossed_break = True
            if not in_flow:
                self.allow_simple_key = True

    def _check_continuation_indent(self, closing_allowed: bool) -> None:
        """Refuse a line of a flow collection or quoted scalar not indented past its block parent.

        ``closing_allowed``: the line may start at any column with the bracket
        that closes the outermost flow collection.
        """
        if self.indent < 0:
            return
        reader = self.reader
        line = reader.buffer[reader.pointer - reader.column : reader.pointer]
        spaces = len(line) - len(line.lstrip(" "))
        if spaces > self.indent:
            return
        if closing_allowed and reader.peek() in "]}" and len(self.flow_context) == 1:
            return
        raise ScannerError(
            None, None, "lines inside a flow collection or quoted scalar must be indented", reader.get_mark()
        )

    def scan_flow_scalar_breaks(self, double: Any, start_mark: Any) -> Any:
        """Line breaks inside a quoted scalar; the next line must be indented past the block parent."""
        chunks = super().scan_flow_scalar_breaks(double, start_mark)
        self._check_continuation_indent(closing_allowed=False)
        return chunks

    def scan_plain_spaces(self, indent: int, start_mark: Any) -> list[str] | None:
        """Whitespace after a chunk of a plain scalar: kept inside a line, folded across lines."""
        reader = self.reader
        peek = reader.peek
        forward = reader.forward
        length = 0
        while peek(length) in " \t":
            length += 1
        whitespace = reader.prefix(length)
        forward(length)
        if peek() not in _BREAKS:
            return [whitespace] if whitespace else []
        first_break = self.scan_line_break()
        self.allow_simple_key = True
        if self._at_document_marker():
            return None
        breaks: list[str] = []
        while True:
            ch = peek()
            if ch == " ":
                forward()
            elif ch == "\t":
                if reader.column < indent:
                    # a tab in the indentation is allowed only on an otherwise blank line
                    ahead = 1
                    while peek(ahead) in " \t":
                        ahead += 1
                    if peek(ahead) not in _BREAKS:
                        break
                forward()
            elif ch in _BREAKS:
                breaks.append(self.scan_line_break())
                if self._at_document_marker():
                    return None
            else:
                break
        if self.flow_context and peek() not in _COMMENT_OR_END:
            self._check_continuation_indent(closing_allowed=True)
        chunks: list[str] = []
        if first_break != "\n":
            chunks.append(first_break)
        elif not breaks:
            chunks.append(" ")
        chunks.extend(breaks)
        return chunks

    def check_key(self) -> Any:
        """``?`` opens an explicit key only before whitespace, in flow context too (YAML 1.2)."""
        return self.reader.peek(1) in _THE_END_SPACE_TAB

    def check_plain(self) -> Any:
        """In flow context a plain scalar may start with ``?`` followed by a safe character."""
        peek = self.reader.peek
        if peek() == "?" and self.flow_context:
            return peek(1) not in _THE_END_SPACE_TAB and peek(1) not in ",[]{}"
        return super().check_plain()

    def parse_implicit_document_start(self) -> Any:
        """A document end marker opening the stream ends an empty document; a second one starts another."""
        scanner = self.scanner
        if scanner.check_token(DocumentEndToken):
            mark = scanner.get_token().start_mark
            if not isinstance(self.last_event, StreamStartEvent) or not scanner.check_token(StreamEndToken):
                raise ParserError(None, None, "source contains more than one document", mark)
        return super().parse_implicit_document_start()

    def _at_document_marker(self) -> bool:
        prefix = self.reader.prefix(3)
        return (prefix == "---" or prefix == "...") and self.reader.peek(3) in _THE_END_SPACE_TAB

    def scan_tag(self) -> Any:
        """A tag may be followed by a tab as well as by a space."""
        self._tab_to_space(self.reader.pointer, " \t\r\n\0\x85\u2028\u2029")
        return super().scan_tag()

    def scan_block_scalar_indicators(self, start_mark: Any) -> Any:
        """Tabs may separate a block scalar header from its comment."""
        reader = self.reader
        position = reader.pointer
        buffer = reader.buffer
        while buffer[position] in "+-0123456789":
            position += 1
        while buffer[position] in " \t":
            if buffer[position] == "\t":
                self._tab_to_space(position, "\t")
            position += 1
        return super().scan_block_scalar_indicators(start_mark)

    def _tab_to_space(self, position: int, stops: str) -> None:
        """Replace with a space the first tab at or after ``position`` that ends a run of non-``stops``."""
        reader = self.reader
        buffer = reader.buffer
        end = position
        while buffer[end] not in stops:
            end += 1
        if buffer[end] == "\t":
            reader.buffer = buffer[:end] + " " + buffer[end + 1 :]


class _DocInfo:
    """Where the scanner records a ``%YAML`` directive's version."""

    __slots__ = ("doc_version",)

    def __init__(self) -> None:
        self.doc_version: Any = None


class _Anchor:
    """An anchored node and the reference's alias accounting for it."""

    __slots__ = ("count", "has_scalar", "is_scalar", "open", "refs", "value", "weight")

    def __init__(self, value: Any, is_scalar: bool) -> None:
        self.value = value
        self.is_scalar = is_scalar
        self.open = not is_scalar  # a collection is open until its end event
        self.count = 1
        self.weight = 0
        self.has_scalar = False
        self.refs: set[_Anchor] | None = None

    def compute_weight(self) -> int:
        """The reference's weight: 1 for a scalar; for a collection the largest item weight."""
        if self.is_scalar:
            return 1
        weight = 1 if self.has_scalar else 0
        if self.refs:
            for ref in self.refs:
                weight = max(weight, ref.count * ref.weight)
        return weight


class _Frame:
    """A collection under construction."""

    __slots__ = ("anchor", "container", "has_index_key", "has_scalar", "is_map", "key", "refs", "seen")

    def __init__(self, container: Any, is_map: bool, anchor: _Anchor | None) -> None:
        self.container = container
        self.is_map = is_map
        self.anchor = anchor
        self.key: str | None = None  # mapping: the key waiting for its value
        self.seen: set[Any] | None = None  # mapping: key identities, once a key is not a plain string
        self.has_index_key = False
        self.has_scalar = False
        self.refs: set[_Anchor] | None = None


def _yaml_error_reason(exc: BaseException) -> str:
    if isinstance(exc, MarkedYAMLError):
        problem = exc.problem or exc.context or "invalid YAML"
        mark = exc.problem_mark or exc.context_mark
        if mark is not None:
            return f"{problem} (line {mark.line + 1}, column {mark.column + 1})"
        return str(problem)
    if isinstance(exc, ReaderError):
        return "NUL character in YAML text"
    if isinstance(exc, RecursionError):
        return "nesting too deep"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


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
    return _parse_yaml_events(text, path, max_depth, max_alias_count)


def _parse_yaml_events(text: str, path: str, max_depth: int, max_alias_count: int) -> Any:
    """Build the value from ruamel.yaml's events with an explicit stack."""
    try:
        source = _EventSource(text, max_depth)
    except YAMLError as exc:
        _fail(path, _yaml_error_reason(exc))
    get_event = source.get_event

    anchors: dict[str, _Anchor] = {}
    stack: list[_Frame] = []
    top: _Frame | None = None
    root: Any = None
    documents = 0

    while True:
        try:
            event = get_event()
        except AgentGraphError:
            raise
        except Exception as exc:  # ruamel.yaml raises YAMLError, rarely something else
            _fail(path, _yaml_error_reason(exc))
        cls = event.__class__

        if cls is ScalarEvent:
            ctag = event.ctag
            style = event.style
            value = event.value
            if style == '"' and _SURROGATE.search(value):
                value = _join_surrogates(value)
            if ctag is not None:
                value = _tagged_scalar(str(ctag), value)
            elif style is None:
                value = _plain_scalar(value)
            if event.anchor is not None:
                anchors[event.anchor] = _Anchor(value, True)
            if top is None:
                root = value
                continue
            top.has_scalar = True
            if not top.is_map:
                top.container.append(value)
            elif top.key is None:
                _take_key(top, value, False, path)
            else:
                _put(top, value)

        elif cls is AliasEvent:
            anchor = anchors.get(event.anchor)
            if anchor is None:
                _fail(path, f"alias *{event.anchor} refers to no anchor before it")
            if anchor.open:
                _fail(path, f"alias *{event.anchor} refers to a collection that contains it")
            anchor.count += 1
            if anchor.weight == 0:
                anchor.weight = anchor.compute_weight()
            if anchor.count * anchor.weight > max_alias_count:
                _fail(path, "excessive alias count (resource exhaustion guard)")
            value = anchor.value
            if top is None:
                root = value
                continue
            if top.refs is None:
                top.refs = {anchor}
            else:
                top.refs.add(anchor)
            if not top.is_map:
                top.container.append(value)
            elif top.key is None:
                if not anchor.is_scalar:
                    _fail(path, "collection values cannot be mapping keys")
                _take_key(top, value, True, path)
            else:
                _put(top, value)

        elif cls is MappingStartEvent or cls is SequenceStartEvent:
            if top is not None and top.is_map and top.key is None:
                _fail(path, "collection values cannot be mapping keys")
            if len(stack) >= max_depth:
                _fail(path, f"collections nested deeper than {max_depth} levels")
            is_map = cls is MappingStartEvent
            container: Any = {} if is_map else []
            anchor = None
            if event.anchor is not None:
                anchor = _Anchor(container, False)
                anchors[event.anchor] = anchor
            top = _Frame(container, is_map, anchor)
            stack.append(top)

        elif cls is MappingEndEvent or cls is SequenceEndEvent:
            done = stack.pop()
            if done.has_index_key:
                _order_like_js(done.container)
            anchor = done.anchor
            if anchor is not None:
                anchor.open = False
                anchor.has_scalar = done.has_scalar
                anchor.refs = done.refs
            value = done.container
            if not stack:
                top = None
                root = value
                continue
            top = stack[-1]
            if done.has_scalar:
                top.has_scalar = True
            if done.refs:
                if top.refs is None:
                    top.refs = set(done.refs)
                else:
                    top.refs |= done.refs
            if not top.is_map:
                top.container.append(value)
            else:
                _put(top, value)

        elif cls is DocumentStartEvent:
            documents += 1
            if documents > 1:
                _fail(path, "source contains more than one document")
            if event.version is not None and tuple(event.version) == (1, 1):
                _fail(path, "YAML 1.1 documents (%YAML 1.1) are not supported")

        elif cls is StreamEndEvent:
            return root


def _take_key(frame: _Frame, value: Any, from_alias: bool, path: str) -> None:
    """Record the next key of a mapping, refusing a duplicate as the reference does."""
    mapping = frame.container
    if type(value) is str and not from_alias and frame.seen is None:
        if value in mapping:
            _fail(path, f"duplicate mapping key {value!r}")
        key = value
    else:
        seen = frame.seen
        if seen is None:
            seen = frame.seen = set(mapping)
        key = _key_string(value)
        if not from_alias:  # an alias key never counts as a duplicate of another node
            identity = _key_identity(value)
            if identity in seen:
                _fail(path, f"duplicate mapping key {key!r}")
            seen.add(identity)
    if key and key[0] in "0123456789" and _is_index_key(key):
        frame.has_index_key = True
    frame.key = key


def _put(frame: _Frame, value: Any) -> None:
    """Store the value for the waiting key; a repeated key string keeps its first position."""
    frame.container[frame.key] = value
    frame.key = None


# --------------------------------------------------------------------------- JSON

# Integers the default decoder would misread: 16+ digits (beyond 2**53) and
# JavaScript's negative zero, which JSON.parse keeps as -0.
_LONG_DIGITS = re.compile(r"[0-9]{16}|-0(?![0-9.eE])")
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


def parse_json(text: str, path: str = "<string>", *, max_depth: int = MAX_DEPTH) -> Any:
    """Parse JSON text as JavaScript's ``JSON.parse`` does.

    A repeated key keeps its first position and its last value; ``NaN`` and
    ``Infinity`` literals and a leading byte-order mark are refused; numbers
    follow the JavaScript rules of this module. Nesting deeper than
    ``max_depth`` (or than the interpreter's recursion limit allows the
    decoder) and every syntax error raise ``AgentGraphError("parse-failed")``.
    """
    if text.startswith("\ufeff"):
        _fail(path, "unexpected byte-order mark at the start of JSON text")
    decoder = _JSON_DECODER_BIG if _LONG_DIGITS.search(text) else _JSON_DECODER
    try:
        value = decoder.decode(text)
    except json.JSONDecodeError as exc:
        _fail(path, f"{exc.msg} (line {exc.lineno}, column {exc.colno})")
    except _RejectedConstant as exc:
        _fail(path, f"{exc} is not valid JSON")
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
        raise _DuplicateKey
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
    decoder = _YAML_JSON_DECODER_BIG if _LONG_DIGITS.search(text) else _YAML_JSON_DECODER
    try:
        value, end = decoder.raw_decode(text, start.end() - 1)
    except (ValueError, RecursionError):  # JSONDecodeError, NaN/Infinity, duplicate keys, depth
        return _NO_MATCH
    if _JSON_TRAILER.fullmatch(text, end) is None or not _settle_json_value(value, text, max_depth):
        return _NO_MATCH
    return value


# --------------------------------------------------------------------------- files and front matter


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
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AgentGraphError(
            "file-encoding-invalid", f"File is not valid UTF-8: {path} (byte {exc.start})"
        ) from None
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
        metadata = parse_yaml(normalised[4:end], path, max_depth=max_depth, max_alias_count=max_alias_count)
    except AgentGraphError as exc:
        raise AgentGraphError(
            "frontmatter-invalid", f"Markdown frontmatter is not valid YAML: {exc.message}"
        ) from None
    if type(metadata) is not dict:
        raise AgentGraphError("frontmatter-invalid", f"Markdown frontmatter must be an object: {path}")
    return metadata, normalised[end + 5 :]
