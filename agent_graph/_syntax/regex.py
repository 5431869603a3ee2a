"""ECMAScript patterns matched in time linear in the text: JSON Schema ``pattern`` for user schemas.

A JSON Schema ``pattern`` is an ECMAScript regular expression. Python's ``re``
backtracks, so a pattern such as ``^(a+)+$`` takes exponential time on a long
string that almost matches, and even ``a+$`` takes quadratic time in a search.
Patterns of user schemas (a Provider's host-action schemas, a host's output
schema) run on text a host supplies, so they are matched here instead, by an
automaton that reads each character once:

* the pattern is parsed (ECMAScript syntax, with the Annex B leniencies: a
  ``{`` that starts no quantifier, ``]`` and ``}`` are literals) into a
  Thompson automaton, counted repetitions written out;
* matching runs all alternatives side by side, one step per character, and
  remembers each set of live states it met together with the next character
  (a lazily built DFA, bounded), so the time is linear in the text for any
  pattern, and the memory is bounded by the pattern's size;
* a match whose new transitions would visit more than :data:`MAX_WORK`
  automaton states in all (a pattern of thousands of states whose live sets
  keep changing, on a long text) stops with ``schema-pattern-too-costly``:
  the cost of every match is bounded, not only its growth.

The meaning is ECMAScript's (without flags): ``.`` stops at ``\\n``, ``\\r``,
U+2028 and U+2029; ``\\d``, ``\\w`` and ``\\b`` are ASCII; ``\\s`` is
ECMAScript's white space and line terminators; ``^`` and ``$`` hold only at
the very start and end. Whether a pattern matches does not depend on greedy or
lazy quantifiers, so both are accepted. Characters are code points.

What an automaton cannot do is refused with :class:`PatternError`
(``unsupported``): backreferences (``\\1``, ``\\k<name>``), lookahead and
lookbehind assertions, Unicode property escapes, and patterns whose written-out
repetitions exceed :data:`MAX_STATES` states. This module is pure: no I/O.
"""

from __future__ import annotations

import bisect
import itertools
from typing import Any

from .._core.errors import AgentGraphError

__all__ = ["MAX_STATES", "MAX_WORK", "EcmaPattern", "PatternError", "compile_pattern"]

#: Automaton states one pattern may have once its counted repetitions are written out.
MAX_STATES = 5_000
#: Automaton states one match may visit while it builds transitions: the cost of a match is bounded
#: (``schema-pattern-too-costly`` beyond), whatever the pattern and the text.
MAX_WORK = 4_000_000
#: Remembered transitions, and automaton states in their keys, per pattern before the memory is emptied.
_MAX_TRANSITIONS = 65_536
_MAX_REMEMBERED_STATES = 1_000_000
_MAX_CACHED_PATTERNS = 64

_MAX_CODE_POINT = 0x10FFFF


class PatternError(ValueError):
    """A pattern that is not ECMAScript (``unsupported`` false) or that cannot be matched in linear time."""

    def __init__(self, message: str, *, unsupported: bool = False) -> None:
        super().__init__(message)
        self.unsupported = unsupported


# ---------------------------------------------------------------- character sets

Ranges = tuple[tuple[int, int], ...]


def _normalize(ranges: list[tuple[int, int]]) -> Ranges:
    ranges.sort()
    merged: list[tuple[int, int]] = []
    for low, high in ranges:
        if merged and low <= merged[-1][1] + 1:
            if high > merged[-1][1]:
                merged[-1] = (merged[-1][0], high)
        else:
            merged.append((low, high))
    return tuple(merged)


def _invert(ranges: Ranges) -> Ranges:
    result: list[tuple[int, int]] = []
    start = 0
    for low, high in ranges:
        if low > start:
            result.append((start, low - 1))
        start = high + 1
    if start <= _MAX_CODE_POINT:
        result.append((start, _MAX_CODE_POINT))
    return tuple(result)


_DIGIT: Ranges = ((0x30, 0x39),)
_WORD: Ranges = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_SPACE: Ranges = _normalize(
    [
        (0x09, 0x0D),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ]
)
_LINE_ENDS: Ranges = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))
_DOT: Ranges = _invert(_LINE_ENDS)
_CLASS_ESCAPES: dict[str, Ranges] = {
    "d": _DIGIT,
    "D": _invert(_DIGIT),
    "w": _WORD,
    "W": _invert(_WORD),
    "s": _SPACE,
    "S": _invert(_SPACE),
}
_CONTROL_ESCAPES = {"t": 0x09, "n": 0x0A, "v": 0x0B, "f": 0x0C, "r": 0x0D}
_WORD_CHARACTERS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")


def _contains(ranges: Ranges, code: int) -> bool:
    index = bisect.bisect_right(ranges, (code, _MAX_CODE_POINT + 1)) - 1
    return index >= 0 and ranges[index][0] <= code <= ranges[index][1]


# ---------------------------------------------------------------- parsing
#
# Nodes are tuples: ("set", ranges), ("cat", [nodes]), ("alt", [nodes]),
# ("rep", node, low, high or None), ("assert", "^" | "$" | "b" | "B").

_SYNTAX = frozenset("^$\\.*+?()[]{}|")


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.position = 0

    def fail(self, reason: str, *, unsupported: bool = False) -> PatternError:
        return PatternError(
            f"pattern {self.source!r:.200}: {reason} (at {self.position})", unsupported=unsupported
        )

    def peek(self, offset: int = 0) -> str:
        index = self.position + offset
        return self.source[index] if index < len(self.source) else ""

    def parse(self) -> Any:
        node = self.disjunction()
        if self.position < len(self.source):
            raise self.fail("unmatched )")
        return node

    def disjunction(self) -> Any:
        branches = [self.alternative()]
        while self.peek() == "|":
            self.position += 1
            branches.append(self.alternative())
        return branches[0] if len(branches) == 1 else ("alt", branches)

    def alternative(self) -> Any:
        terms: list[Any] = []
        while True:
            ch = self.peek()
            if ch == "" or ch == "|" or ch == ")":
                break
            terms.append(self.term())
        return terms[0] if len(terms) == 1 else ("cat", terms)

    def term(self) -> Any:
        ch = self.peek()
        if ch == "^" or ch == "$":
            self.position += 1
            self._no_quantifier()
            return ("assert", ch)
        if ch == "\\" and self.peek(1) in ("b", "B"):
            self.position += 2
            self._no_quantifier()
            return ("assert", self.source[self.position - 1])
        if ch == "(" and self.peek(1) == "?" and self.peek(2) in ("=", "!"):
            raise self.fail("lookahead assertions are not supported", unsupported=True)
        if self.source.startswith(("(?<=", "(?<!"), self.position):
            raise self.fail("lookbehind assertions are not supported", unsupported=True)
        atom = self.atom()
        return self.quantified(atom)

    def _no_quantifier(self) -> None:
        ch = self.peek()
        if ch in ("*", "+", "?") or (ch == "{" and self._braces() is not None):
            raise self.fail("nothing to repeat")

    def _braces(self) -> tuple[int, int | None, int] | None:
        """``{n}``, ``{n,}`` or ``{n,m}`` at the position: (low, high, length), else None (a literal ``{``)."""
        source = self.source
        index = self.position + 1
        start = index
        while index < len(source) and source[index].isdigit() and source[index].isascii():
            index += 1
        if index == start:
            return None
        low = int(source[start:index])
        high: int | None = low
        if index < len(source) and source[index] == ",":
            index += 1
            second = index
            while index < len(source) and source[index].isdigit() and source[index].isascii():
                index += 1
            high = int(source[second:index]) if index > second else None
        if index >= len(source) or source[index] != "}":
            return None
        return low, high, index + 1 - self.position

    def quantified(self, atom: Any) -> Any:
        ch = self.peek()
        low: int
        high: int | None
        if ch == "*":
            low, high, length = 0, None, 1
        elif ch == "+":
            low, high, length = 1, None, 1
        elif ch == "?":
            low, high, length = 0, 1, 1
        elif ch == "{":
            braces = self._braces()
            if braces is None:
                return atom
            low, high, length = braces
            if high is not None and high < low:
                raise self.fail("numbers out of order in {} quantifier")
            if low > MAX_STATES or (high is not None and high > MAX_STATES):
                raise self.fail(f"a repetition count above {MAX_STATES}", unsupported=True)
        else:
            return atom
        self.position += length
        if self.peek() == "?":  # lazy: the same set of matches
            self.position += 1
        if self.peek() in ("*", "+", "?") or (self.peek() == "{" and self._braces() is not None):
            raise self.fail("nothing to repeat")
        return ("rep", atom, low, high)

    def atom(self) -> Any:
        ch = self.peek()
        if ch == ".":
            self.position += 1
            return ("set", _DOT)
        if ch == "(":
            return self.group()
        if ch == "[":
            return self.char_class()
        if ch == "\\":
            return self.atom_escape()
        if ch in ("*", "+", "?"):
            raise self.fail("nothing to repeat")
        if ch == "{" and self._braces() is not None:
            raise self.fail("nothing to repeat")
        if ch == ")":
            raise self.fail("unmatched )")
        self.position += 1
        code = ord(ch)
        return ("set", ((code, code),))

    def group(self) -> Any:
        self.position += 1
        if self.peek() == "?":
            if self.peek(1) == ":":
                self.position += 2
            elif self.peek(1) == "<":
                end = self.source.find(">", self.position + 2)
                name = self.source[self.position + 2 : end] if end > 0 else ""
                if (
                    not name
                    or not (name[0].isalpha() or name[0] in "_$")
                    or not all(c.isalnum() or c in "_$" for c in name)
                ):
                    raise self.fail("invalid group name")
                self.position = end + 1
            else:
                raise self.fail("invalid group")
        node = self.disjunction()
        if self.peek() != ")":
            raise self.fail("missing )")
        self.position += 1
        return node

    def _hex(self, count: int) -> int | None:
        text = self.source[self.position : self.position + count]
        if len(text) == count and all(c in "0123456789abcdefABCDEF" for c in text):
            self.position += count
            return int(text, 16)
        return None

    def _character_escape(self) -> int:
        """The code point of the escape after a backslash (the backslash already read)."""
        ch = self.peek()
        if ch == "":
            raise self.fail("\\ at end of pattern")
        self.position += 1
        if ch in _CONTROL_ESCAPES:
            return _CONTROL_ESCAPES[ch]
        if ch == "0" and not self.peek().isdigit():
            return 0
        if ch == "c":
            letter = self.peek()
            if letter.isascii() and letter.isalpha():
                self.position += 1
                return ord(letter) % 32
            self.position -= 1  # Annex B: a lone \c is the characters \ and c
            return ord("\\")
        if ch == "x":
            code = self._hex(2)
            return ord("x") if code is None else code
        if ch == "u":
            if self.peek() == "{":
                end = self.source.find("}", self.position)
                digits = self.source[self.position + 1 : end] if end > 0 else ""
                if (
                    digits
                    and all(c in "0123456789abcdefABCDEF" for c in digits)
                    and int(digits, 16) <= _MAX_CODE_POINT
                ):
                    self.position = end + 1
                    return int(digits, 16)
                return ord("u")
            code = self._hex(4)
            if code is None:
                return ord("u")
            if 0xD800 <= code <= 0xDBFF and self.source.startswith("\\u", self.position):
                saved = self.position
                self.position += 2
                low = self._hex(4)
                if low is not None and 0xDC00 <= low <= 0xDFFF:
                    return 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                self.position = saved
            return code
        if ch.isdigit() and ch.isascii():
            raise self.fail("backreferences are not supported", unsupported=True)
        if ch == "k" and self.peek() == "<":
            raise self.fail("backreferences are not supported", unsupported=True)
        if ch in ("p", "P") and self.peek() == "{":
            raise self.fail("Unicode property escapes are not supported", unsupported=True)
        return ord(ch)

    def atom_escape(self) -> Any:
        self.position += 1
        ch = self.peek()
        if ch in _CLASS_ESCAPES:
            self.position += 1
            return ("set", _CLASS_ESCAPES[ch])
        code = self._character_escape()
        return ("set", ((code, code),))

    def _class_atom(self) -> tuple[Ranges | None, int]:
        """One class atom: (a set escape's ranges, -1) or (None, code point)."""
        ch = self.peek()
        if ch == "":
            raise self.fail("missing ]")
        if ch == "\\":
            self.position += 1
            escape = self.peek()
            if escape in _CLASS_ESCAPES:
                self.position += 1
                return _CLASS_ESCAPES[escape], -1
            if escape == "b":
                self.position += 1
                return None, 0x08
            if escape == "-":
                self.position += 1
                return None, ord("-")
            return None, self._character_escape()
        self.position += 1
        return None, ord(ch)

    def char_class(self) -> Any:
        self.position += 1
        negated = self.peek() == "^"
        if negated:
            self.position += 1
        ranges: list[tuple[int, int]] = []
        while self.peek() != "]":
            first_set, first = self._class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.position += 1
                second_set, second = self._class_atom()
                if first_set is not None or second_set is not None:  # Annex B: [\d-z] is \d, - and z
                    for part_set, part in ((first_set, first), (None, ord("-")), (second_set, second)):
                        if part_set is not None:
                            ranges.extend(part_set)
                        else:
                            ranges.append((part, part))
                    continue
                if second < first:
                    raise self.fail("range out of order in character class")
                ranges.append((first, second))
            elif first_set is not None:
                ranges.extend(first_set)
            else:
                ranges.append((first, first))
        self.position += 1
        normalized = _normalize(ranges)
        return ("set", _invert(normalized) if negated else normalized)


# ---------------------------------------------------------------- the automaton

# Instructions: ("set", ranges, next), ("split", a, b), ("jump", a), ("assert", kind, next), ("match",)


class _Builder:
    def __init__(self) -> None:
        self.program: list[list[Any]] = []

    def emit(self, instruction: list[Any]) -> int:
        if len(self.program) >= MAX_STATES:
            raise PatternError(
                f"the pattern needs more than {MAX_STATES} states once its repetitions are written out",
                unsupported=True,
            )
        self.program.append(instruction)
        return len(self.program) - 1

    def build(self, root: Any) -> list[list[Any]]:
        """Compile without recursion: each task fills the ``next`` slots of a fragment."""
        # A fragment is (start, list of holes) where a hole is (instruction index, slot).
        fragment = self._compile(root)
        end = self.emit(["match"])
        self._patch(fragment[1], end)
        self.start = fragment[0]
        return self.program

    def _patch(self, holes: list[tuple[int, int]], target: int) -> None:
        for index, slot in holes:
            self.program[index][slot] = target

    def _compile(self, root: Any) -> tuple[int, list[tuple[int, int]]]:
        # Post-order over the tree with an explicit stack; results on a value stack.
        results: list[tuple[int, list[tuple[int, int]]]] = []
        stack: list[tuple[Any, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            kind = node[0]
            if kind == "set":
                index = self.emit(["set", node[1], -1])
                results.append((index, [(index, 2)]))
            elif kind == "assert":
                index = self.emit(["assert", node[1], -1])
                results.append((index, [(index, 2)]))
            elif kind == "empty":
                index = self.emit(["jump", -1])
                results.append((index, [(index, 1)]))
            elif not expanded:
                stack.append((node, True))
                children = self._repetition_children(node) if kind == "rep" else node[1]
                for child in reversed(children):
                    stack.append((child, False))
            elif kind == "cat":
                count = len(node[1])
                parts = results[len(results) - count :]
                del results[len(results) - count :]
                if not parts:
                    index = self.emit(["jump", -1])
                    results.append((index, [(index, 1)]))
                    continue
                for earlier, later in itertools.pairwise(parts):
                    self._patch(earlier[1], later[0])
                results.append((parts[0][0], parts[-1][1]))
            elif kind == "alt":
                count = len(node[1])
                parts = results[len(results) - count :]
                del results[len(results) - count :]
                exits: list[tuple[int, int]] = list(parts[-1][1])
                start = parts[-1][0]
                for part_start, part_holes in reversed(parts[:-1]):
                    start = self.emit(["split", part_start, start])
                    exits.extend(part_holes)
                results.append((start, exits))
            elif kind == "rep":
                results.append(self._finish_repetition(node, results))
            else:  # pragma: no cover - the parser makes no other node
                raise PatternError(f"unknown node {kind}")
        return results[0]

    @staticmethod
    def _repetition_children(node: Any) -> list[Any]:
        """The copies of the repeated atom: ``low`` required ones, then the optional part's one or more."""
        _, atom, low, high = node
        optional = 1 if high is None else high - low
        return [atom] * (low + optional)

    def _finish_repetition(self, node: Any, results: list[tuple[int, list[tuple[int, int]]]]) -> Any:
        _, _, low, high = node
        optional = 1 if high is None else high - low
        count = low + optional
        parts = results[len(results) - count :]
        del results[len(results) - count :]
        required, extra = parts[:low], parts[low:]
        # the optional tail: x? x? … (nested, so that x{0,k} costs k copies), or x* for an open bound
        tail_start: int
        tail_holes: list[tuple[int, int]]
        if high is None:
            start, holes = extra[0]
            loop = self.emit(["split", start, -1])
            self._patch(holes, loop)
            tail_start, tail_holes = loop, [(loop, 2)]
        elif extra:
            # split_i: try copy i or leave; each copy then goes to the next split
            exit_holes: list[tuple[int, int]] = []
            splits: list[int] = []
            for start, _ in extra:
                splits.append(self.emit(["split", start, -1]))
                exit_holes.append((splits[-1], 2))
            for position, (_, holes) in enumerate(extra):
                if position + 1 < len(extra):
                    self._patch(holes, splits[position + 1])
                else:
                    exit_holes.extend(holes)
            tail_start, tail_holes = splits[0], exit_holes
        else:
            index = self.emit(["jump", -1])
            tail_start, tail_holes = index, [(index, 1)]
        if not required:
            return tail_start, tail_holes
        for earlier, later in itertools.pairwise(required):
            self._patch(earlier[1], later[0])
        self._patch(required[-1][1], tail_start)
        return required[0][0], tail_holes


_MATCHED = -1
_Key = tuple[
    frozenset[int], bool, bool
]  # live states, at the start, the previous character is a word character


class _Memory:
    """The lazily built DFA of one matching mode: states by key, each with its transitions by character."""

    __slots__ = ("index", "size", "table")

    def __init__(self) -> None:
        self.table: list[tuple[_Key, dict[str, int]]] = []
        self.index: dict[_Key, int] = {}
        self.size = 0

    def state(self, key: _Key) -> int:
        found = self.index.get(key)
        if found is None:
            self.table.append((key, {}))
            found = len(self.table) - 1
            self.index[key] = found
            self.size += len(key[0])
        return found

    def full(self) -> bool:
        return self.size > _MAX_REMEMBERED_STATES or len(self.table) > _MAX_TRANSITIONS

    def clear(self) -> None:
        self.table.clear()
        self.index.clear()
        self.size = 0


class EcmaPattern:
    """A compiled ECMAScript pattern: ``search(text)`` and ``match(text)`` (anchored at the start) in linear time.

    Both return ``True`` or ``None`` (as ``re`` returns a match or ``None``).
    """

    __slots__ = ("_anchored", "_match", "_program", "_search", "_start", "source")

    def __init__(self, source: str) -> None:
        if not isinstance(source, str):
            raise PatternError("a pattern must be a string")
        self.source = source
        tree = _Parser(source).parse()
        builder = _Builder()
        self._program = builder.build(tree)
        self._start = builder.start
        self._search = _Memory()
        self._match = _Memory()
        # A pattern that can only begin at the start of the text (``^…``) has no match once its live states die.
        self._anchored = not any(
            any(self._closure(frozenset(), False, at_end, previous, following, True))
            for at_end in (False, True)
            for previous in (False, True)
            for following in (False, True)
        )

    def _closure(
        self,
        seeds: frozenset[int],
        at_start: bool,
        at_end: bool,
        prev_word: bool,
        next_word: bool,
        add_start: bool,
    ) -> tuple[frozenset[int], bool]:
        """The consuming states reached from ``seeds`` (and the start) without reading, and whether one matches."""
        program = self._program
        found: set[int] = set()
        seen: set[int] = set()
        pending = list(seeds)
        if add_start:
            pending.append(self._start)
        matched = False
        while pending:
            index = pending.pop()
            if index in seen:
                continue
            seen.add(index)
            instruction = program[index]
            kind = instruction[0]
            if kind == "set":
                found.add(index)
            elif kind == "split":
                pending.append(instruction[2])
                pending.append(instruction[1])
            elif kind == "jump":
                pending.append(instruction[1])
            elif kind == "assert":
                which = instruction[1]
                if (
                    (which == "^" and at_start)
                    or (which == "$" and at_end)
                    or (which == "b" and prev_word != next_word)
                    or (which == "B" and prev_word == next_word)
                ):
                    pending.append(instruction[2])
            else:
                matched = True
        return frozenset(found), matched

    def _run(self, text: str, searching: bool) -> bool:
        memory = self._search if searching else self._match
        if memory.full():
            memory.clear()
        table = memory.table
        program = self._program
        stop_when_dead = self._anchored or not searching
        current = memory.state((frozenset(), True, False))
        work = 0
        for ch in text:
            key, transitions = table[current]
            following = transitions.get(ch)
            if following is None:
                live, at_start, prev_word = key
                word = ch in _WORD_CHARACTERS
                reached, matched = self._closure(
                    live, at_start, False, prev_word, word, searching or at_start
                )
                work += len(live) + len(reached) + 1
                if work > MAX_WORK:
                    raise AgentGraphError(
                        "schema-pattern-too-costly",
                        f"Matching the pattern {self.source!r:.120} against a text of {len(text)} characters "
                        f"took more than {MAX_WORK} automaton steps; simplify the pattern or shorten the text",
                    )
                if memory.full():  # forget, keep going from here: the cost per character stays bounded
                    memory.clear()
                    current = memory.state(key)
                    transitions = table[current][1]
                if matched:
                    following = _MATCHED
                else:
                    code = ord(ch)
                    advanced = frozenset(
                        program[index][2] for index in reached if _contains(program[index][1], code)
                    )
                    following = memory.state((advanced, False, word))
                transitions[ch] = following
            if following == _MATCHED:
                return True
            current = following
            if stop_when_dead and not table[current][0][0]:
                return False
        live, at_start, prev_word = table[current][0]
        return self._closure(live, at_start, True, prev_word, False, searching or at_start)[1]

    def search(self, text: str) -> bool | None:
        """Whether the pattern matches anywhere in ``text`` (``True`` or ``None``)."""
        return True if self._run(text, True) else None

    def match(self, text: str) -> bool | None:
        """Whether the pattern matches at the start of ``text`` (``True`` or ``None``)."""
        return True if self._run(text, False) else None

    def __repr__(self) -> str:
        return f"EcmaPattern({self.source!r})"


_compiled: dict[str, EcmaPattern] = {}


def compile_pattern(source: str) -> EcmaPattern:
    """A compiled pattern, shared for equal sources (a bounded table); :class:`PatternError` for a bad one."""
    pattern = _compiled.get(source)
    if pattern is None:
        pattern = EcmaPattern(source)
        if len(_compiled) >= _MAX_CACHED_PATTERNS:
            _compiled.clear()
        _compiled[source] = pattern
    return pattern
