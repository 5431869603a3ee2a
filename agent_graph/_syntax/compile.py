"""Compiling JSON Schemas to Python with fastjsonschema, patterns rewritten as ECMAScript.

The generated code of ``fastjsonschema.compile_to_code`` is reshaped here so
that it is self-contained and exact:

* the compiled ``pattern`` / ``patternProperties`` regular expressions are
  rebuilt with :func:`agent_graph._syntax.schema.ecma_regex`, because JSON
  Schema patterns are ECMAScript (``$`` matches only at the very end) and
  Python's ``$`` also matches before a final newline;
* ``default`` injection is off, so validating never changes the value;
* item and member names passed down for messages are written as f-strings.

:func:`python_source` and :func:`load_generated` compile a user-supplied schema
at run time; the build-time generator of the shipped validators
(``agent_graph._toolchain.schemagen``) uses the same pieces. This module knows
nothing of Providers or Graphs.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from .patterns import ecma_regex
from .regex import compile_pattern

__all__ = ["GenerationError", "load_generated", "python_source"]

_HEADER = """\
from decimal import Decimal
import re

from fastjsonschema import JsonSchemaValueException

try:
    from fastjsonschema import JsonSchemaValuesException
except ImportError:  # fastjsonschema releases without the collected-errors exception
    JsonSchemaValuesException = JsonSchemaValueException

NoneType = type(None)
"""

# The shipped module does not import fastjsonschema at all (its package import is slow):
# it raises agent-graph's own exception, with the attributes the generated code passes.
HEADER_SHIPPED = """\
from decimal import Decimal
import re

from .schema_failure import JsonSchemaValueException

JsonSchemaValuesException = JsonSchemaValueException
NoneType = type(None)
"""

_KNOWN_FASTJSONSCHEMA_NAMES = frozenset({"JsonSchemaValueException", "JsonSchemaValuesException"})
_KNOWN_PLAIN_IMPORTS = frozenset({"re", "decimal"})

_Handlers = Mapping[str, Callable[[str], Any]]


class GenerationError(Exception):
    """fastjsonschema produced code this generator does not know how to assemble."""


class _Piece(NamedTuple):
    version: str
    patterns: dict[str, str]  # pattern key -> Python source of the compiled value
    functions: list[str]  # names of the top-level functions, entry point first
    body: str


def schema_patterns(schema: object) -> set[str]:
    """Every ``pattern`` value and ``patternProperties`` key in a schema (walked iteratively)."""
    found: set[str] = set()
    stack: list[object] = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            pattern = node.get("pattern")
            if isinstance(pattern, str):
                found.add(pattern)
            keyed = node.get("patternProperties")
            if isinstance(keyed, Mapping):
                found.update(key for key in keyed if isinstance(key, str))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _regex_source(pattern: str, linear: bool) -> str:
    if linear:
        compile_pattern(pattern)  # fail here (PatternError), at generation, rather than at import
        return f"_pattern({pattern!r})"
    converted = ecma_regex(pattern)
    re.compile(converted)  # fail here, at generation, rather than at import
    return f"re.compile({converted!r})"


class _Format:
    """A ``format`` check with ``re``'s ``match`` interface, answering as fastjsonschema's regular expression
    does, in linear time (those expressions backtrack quadratically on long strings)."""

    __slots__ = ("_check",)

    def __init__(self, check: Callable[[str], bool]) -> None:
        self._check = check

    def match(self, text: str) -> bool | None:
        return True if self._check(text) else None


def _domain_part(domain: str) -> bool:
    """``[^@]+\\.[^@]+\\Z``: no ``@``, and a dot with something before and after it."""
    return "@" not in domain and "." in domain[1:-1]


def _email(text: str) -> bool:
    """fastjsonschema's ``email``: ``^(?!.*\\.\\..*@)[^@.][^@]*(?<!\\.)@[^@]+\\.[^@]+\\Z``."""
    first_line = text.split("\n", 1)[0]  # ``.`` stops at a line feed
    doubled = first_line.find("..")
    if doubled >= 0 and "@" in first_line[doubled + 2 :]:
        return False
    at = text.find("@")
    if at <= 0 or text[0] == "." or text[at - 1] == ".":
        return False
    return _domain_part(text[at + 1 :])


def _idn_email(text: str) -> bool:
    """fastjsonschema's ``idn-email``: ``^[^@]+@[^@]+\\.[^@]+\\Z``."""
    at = text.find("@")
    return at > 0 and _domain_part(text[at + 1 :])


#: Format expressions replaced by linear checks in user schemas (the others do not backtrack badly).
_LINEAR_FORMATS = {"email_re_pattern": "_EMAIL_FORMAT", "idn-email_re_pattern": "_IDN_EMAIL_FORMAT"}


def split(code: str, schema: object, *, linear: bool = False) -> _Piece:
    """Take fastjsonschema's module apart: header facts, regexes and the function definitions.

    With ``linear``, ``pattern`` and ``patternProperties`` become
    :class:`~agent_graph._syntax.regex.EcmaPattern` objects (linear time, for
    patterns from users) and the ``email`` formats linear checks; without it,
    ``re`` objects (for the shipped schemas, whose patterns are known).
    """
    tree = ast.parse(code)
    lines = code.splitlines(keepends=True)
    version = ""
    patterns: dict[str, str] = {}
    ecma_patterns = schema_patterns(schema)
    first_def: int | None = None
    functions: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            if first_def is None:
                first_def = node.lineno - 1 - len(node.decorator_list)
            functions.append(node.name)
            continue
        if first_def is not None:
            raise GenerationError(f"unexpected statement after the first function: {ast.dump(node)[:80]}")
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name not in _KNOWN_PLAIN_IMPORTS:
                    raise GenerationError(f"unexpected import in generated code: {alias.name}")
        elif isinstance(node, ast.ImportFrom):
            names = {alias.name for alias in node.names}
            if node.module == "fastjsonschema" and names <= _KNOWN_FASTJSONSCHEMA_NAMES:
                continue
            if node.module == "decimal" and names == {"Decimal"}:
                continue
            raise GenerationError(f"unexpected import in generated code: from {node.module} import {names}")
        elif (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            target = node.targets[0].id
            if target == "VERSION" and isinstance(node.value, ast.Constant):
                version = str(node.value.value)
            elif target == "NoneType":
                continue
            elif target == "REGEX_PATTERNS" and isinstance(node.value, ast.Dict):
                for key, value in zip(node.value.keys, node.value.values, strict=True):
                    if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                        raise GenerationError("REGEX_PATTERNS key is not a string")
                    if key.value in ecma_patterns:
                        patterns[key.value] = _regex_source(key.value, linear)
                    elif linear and key.value in _LINEAR_FORMATS:
                        patterns[key.value] = _LINEAR_FORMATS[key.value]
                    else:  # a built-in ``format`` expression: already Python
                        source = ast.get_source_segment(code, value)
                        if source is None:
                            raise GenerationError("cannot read a REGEX_PATTERNS entry")
                        patterns[key.value] = source
            else:
                raise GenerationError(f"unexpected assignment in generated code: {target}")
        else:
            raise GenerationError(f"unexpected statement in generated code: {ast.dump(node)[:80]}")
    if first_def is None or not functions:
        raise GenerationError("generated code defines no validation function")
    body = _drop_definitions("".join(lines[first_def:]).rstrip() + "\n")
    return _Piece(version, patterns, functions, _format_as_fstrings(body))


# ``"text{name}text".format(**locals())`` with only plain names in braces.
_FORMAT_LOCALS = re.compile(r'"((?:[^"\\{}\n]|\{[A-Za-z_][A-Za-z0-9_]*\})*)"\.format\(\*\*locals\(\)\)')


def _format_as_fstrings(body: str) -> str:
    """Rewrite ``"…{name}…".format(**locals())`` as the equivalent ``f"…{name}…"``."""
    return _FORMAT_LOCALS.sub(lambda match: 'f"' + match.group(1) + '"', body)


def _drop_definitions(body: str) -> str:
    """Replace the schema copies fastjsonschema attaches to each exception (``definition=``) by ``None``.

    They are never read here and make up most of the generated text.
    """
    tree = ast.parse(body)
    spans: dict[int, list[tuple[int, int]]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg != "definition" or (isinstance(value, ast.Constant) and value.value is None):
                continue
            if value.end_lineno != value.lineno or value.end_col_offset is None:
                raise GenerationError("a definition= argument spans several lines")
            spans.setdefault(value.lineno, []).append((value.col_offset, value.end_col_offset))
    lines = body.splitlines(keepends=True)
    for lineno, ranges in spans.items():
        raw = lines[lineno - 1].encode("utf-8")  # ast offsets count UTF-8 bytes
        for start, end in sorted(ranges, reverse=True):
            raw = raw[:start] + b"None" + raw[end:]
        lines[lineno - 1] = raw.decode("utf-8")
    return "".join(lines)


def rename(body: str, renames: Mapping[str, str]) -> str:
    if not renames:
        return body
    names = sorted(renames, key=len, reverse=True)
    rx = re.compile(r"\b(" + "|".join(re.escape(name) for name in names) + r")\b")
    return rx.sub(lambda match: renames[match.group(1)], body)


def patterns_block(patterns: Mapping[str, str]) -> str:
    if not patterns:
        return "REGEX_PATTERNS = {}\n"
    entries = "".join(f"    {key!r}: {patterns[key]},\n" for key in sorted(patterns))
    return "REGEX_PATTERNS = {\n" + entries + "}\n"


def fastjsonschema_code(schema: Mapping[str, Any] | bool, handlers: _Handlers) -> str:
    import fastjsonschema

    definition: dict[str, Any] | bool = schema if isinstance(schema, bool) else dict(schema)
    code: str = fastjsonschema.compile_to_code(
        definition, handlers=dict(handlers), use_default=False, use_formats=True
    )
    return code


def python_source(schema: Mapping[str, Any] | bool, *, handlers: _Handlers | None = None) -> str:
    """A Python module validating a user's ``schema``; its entry point is ``validate``.

    Its patterns match in linear time (see :func:`split`); it runs in the
    namespace :func:`load_generated` gives it. A pattern that cannot be
    matched so raises :class:`~agent_graph._syntax.regex.PatternError`.
    """
    piece = split(fastjsonschema_code(schema, handlers or {}), schema, linear=True)
    entry = piece.functions[0]
    body = rename(piece.body, {entry: "validate"} if entry != "validate" else {})
    return _HEADER + "\n" + patterns_block(piece.patterns) + "\n\n" + body


def load_generated(code: str, filename: str) -> Callable[..., object]:
    """Execute a module made by :func:`python_source` and return its ``validate`` function."""
    namespace: dict[str, Any] = {
        "__name__": "agent_graph._generated_schema",
        "_pattern": compile_pattern,
        "_EMAIL_FORMAT": _Format(_email),
        "_IDN_EMAIL_FORMAT": _Format(_idn_email),
    }
    exec(compile(code, filename, "exec"), namespace)
    entry: Callable[..., object] = namespace["validate"]
    return entry


# --------------------------------------------------------------------------- the shipped module
