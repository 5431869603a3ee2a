"""The full YAML reader: ruamel.yaml's event stream turned into plain values.

:func:`parse_yaml_events` is what :func:`agent_graph._syntax.parse.parse_yaml` falls
back to for YAML that is neither JSON nor the simple block style its fast path
reads: ruamel.yaml's reader, scanner and parser (no composer, resolver or
constructor) produce events, and the values are built here with an explicit
stack, with the core-schema scalar rules, the reference's duplicate-key check
and its alias accounting. This module is imported only when such a document is
read, so that importing the library never loads ruamel.yaml. It knows nothing
of files, Providers or graphs.
"""

from __future__ import annotations

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

from .._core.errors import AgentGraphError
from .scalars import (
    _BREAKS,
    _COMMENT_MAY_FOLLOW,
    _COMMENT_OR_END,
    _LINE_END,
    _SURROGATE,
    _THE_END_SPACE_TAB,
    _fail,
    _is_index_key,
    _join_surrogates,
    _key_identity,
    _key_string,
    _order_like_js,
    _plain_scalar,
    _tagged_scalar,
)
from .syntax_hints import DUPLICATE_KEY_HINT, syntax_hint

__all__ = ["parse_yaml_events"]


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


def _syntax_failure(text: str, path: str, exc: BaseException) -> NoReturn:
    """Raise ``parse-failed`` for a ruamel.yaml error: its problem, position and the likely cause."""
    if isinstance(exc, MarkedYAMLError):
        problem = str(exc.problem or exc.context or "invalid YAML")
        mark = exc.problem_mark or exc.context_mark
        if mark is None:
            _fail(path, problem)
        context = exc.context_mark if exc.problem_mark is not None else None
        line, column = mark.line + 1, mark.column + 1
        hint = syntax_hint(
            text,
            problem,
            line,
            column,
            exc.context,
            context.line + 1 if context is not None else None,
            context.column + 1 if context is not None else None,
        )
        _fail(path, problem, line, column, hint)
    if isinstance(exc, ReaderError):
        _fail(path, "NUL character in YAML text")
    if isinstance(exc, RecursionError):
        _fail(path, "nesting too deep")
    _fail(path, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)


def parse_yaml_events(text: str, path: str, max_depth: int, max_alias_count: int) -> Any:
    """Build the value from ruamel.yaml's events with an explicit stack."""
    try:
        source = _EventSource(text, max_depth)
    except YAMLError as exc:
        _syntax_failure(text, path, exc)
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
            _syntax_failure(text, path, exc)
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
                _take_key(top, value, False, path, event.start_mark)
            else:
                _put(top, value)

        elif cls is AliasEvent:
            anchor = anchors.get(event.anchor)
            if anchor is None:
                _fail(path, f"alias *{event.anchor} refers to no anchor before it", *_at(event.start_mark))
            if anchor.open:
                _fail(
                    path,
                    f"alias *{event.anchor} refers to a collection that contains it",
                    *_at(event.start_mark),
                )
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
                _take_key(top, value, True, path, event.start_mark)
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


def _at(mark: Any) -> tuple[int, int]:
    """Line and column of a ruamel mark (1-based), as parse errors say where."""
    return mark.line + 1, mark.column + 1


def _take_key(frame: _Frame, value: Any, from_alias: bool, path: str, mark: Any) -> None:
    """Record the next key of a mapping, refusing a duplicate as the reference does."""
    mapping = frame.container
    if type(value) is str and not from_alias and frame.seen is None:
        if value in mapping:
            _fail(path, f"duplicate mapping key {value!r}", *_at(mark), DUPLICATE_KEY_HINT)
        key = value
    else:
        seen = frame.seen
        if seen is None:
            seen = frame.seen = set(mapping)
        key = _key_string(value)
        if not from_alias:  # an alias key never counts as a duplicate of another node
            identity = _key_identity(value)
            if identity in seen:
                _fail(path, f"duplicate mapping key {key!r}", *_at(mark), DUPLICATE_KEY_HINT)
            seen.add(identity)
    if key and key[0] in "0123456789" and _is_index_key(key):
        frame.has_index_key = True
    frame.key = key


def _put(frame: _Frame, value: Any) -> None:
    """Store the value for the waiting key; a repeated key string keeps its first position."""
    frame.container[frame.key] = value
    frame.key = None


class _Place:
    """A collection being walked by :func:`locate_pointers`: its pointer and where its next item goes."""

    __slots__ = ("is_map", "key", "key_mark", "next_index", "pointer")

    def __init__(self, pointer: str, is_map: bool) -> None:
        self.pointer = pointer
        self.is_map = is_map
        self.next_index = 0
        self.key: str | None = None  # a mapping's key waiting for its value
        self.key_mark: Any = None


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def locate_pointers(
    text: str, pointers: set[str], max_depth: int = 512
) -> dict[str, tuple[int, int, int, int]]:
    """Where the values at JSON ``pointers`` are written in YAML (or JSON) ``text``.

    Answers ``pointer -> (key line, key column, value line, value column)``,
    1-based; for an array item or the document itself the key position is the
    value's. Pointers through an alias, and every pointer when the text does
    not parse, are left out: positions only ever help a message.
    """
    found: dict[str, tuple[int, int, int, int]] = {}
    try:
        source = _EventSource(text, max_depth)
        stack: list[_Place] = []

        def place(mark: Any) -> tuple[str, Any] | None:
            """The pointer of the value starting at ``mark`` and its key's mark (None for a mapping key)."""
            if not stack:
                return "", mark
            top = stack[-1]
            if top.is_map:
                if top.key is None:
                    return None
                pointer, key_mark = f"{top.pointer}/{_escape(top.key)}", top.key_mark
                top.key = None
                return pointer, key_mark
            pointer = f"{top.pointer}/{top.next_index}"
            top.next_index += 1
            return pointer, mark

        def record(pointer: str, key_mark: Any, mark: Any) -> None:
            if pointer in pointers and pointer not in found:
                found[pointer] = (key_mark.line + 1, key_mark.column + 1, mark.line + 1, mark.column + 1)

        while len(found) < len(pointers):
            event = source.get_event()
            cls = event.__class__
            if cls is StreamEndEvent:
                break
            if cls is ScalarEvent or cls is AliasEvent:
                if stack and stack[-1].is_map and stack[-1].key is None:
                    top = stack[-1]
                    top.key = event.value if cls is ScalarEvent else str(event.anchor)
                    top.key_mark = event.start_mark
                    continue
                where = place(event.start_mark)
                if where is not None:
                    record(where[0], where[1], event.start_mark)
            elif cls is MappingStartEvent or cls is SequenceStartEvent:
                where = place(event.start_mark)
                if where is None:  # a collection as a mapping key: nothing below it is addressable
                    return found
                record(where[0], where[1], event.start_mark)
                stack.append(_Place(where[0], cls is MappingStartEvent))
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                stack.pop()
    except Exception:  # a text that does not parse (already refused elsewhere) has no positions
        return found
    return found
