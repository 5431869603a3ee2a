"""Ahead-of-time generation of the schema validators (``agent_graph/_validators.py``).

``python -m agent_graph._schemagen`` compiles every shipped ``schemas/<name>.schema.json``
with ``fastjsonschema.compile_to_code`` into one checked-in module, so that no
schema is compiled when the library is imported or run; ``--check`` exits with
status 1 when that module no longer matches the schemas.

While assembling the code it:

* renames each schema's entry point to ``validate_<name>`` (``-`` → ``_``) and its
  helpers to private names unique to that schema, and lists them in ``VALIDATORS``;
* rebuilds the compiled ``pattern`` / ``patternProperties`` regular expressions
  with :func:`agent_graph._schema.ecma_regex`, because JSON Schema patterns are
  ECMAScript (``$`` matches only at the very end) and Python's ``$`` also matches
  before a final newline;
* turns off ``default`` injection, so validating never changes the value;
* writes the names of array items and object members that it passes down for
  messages (``"...[{i}]".format(**locals())``) as f-strings, which cost a
  fraction of building a dictionary of every local variable per item.

The same code path (:func:`python_source`, :func:`load_generated`) compiles
user-supplied schemas at run time. This module knows nothing of Providers or Graphs.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from agent_graph._schema import SCHEMA_NAMES, ecma_regex, schema_path

__all__ = ["generate_module", "load_generated", "main", "python_source"]

# Bump when the shape of the generated module changes without any schema changing.
GENERATOR_FORMAT = "2"

_HEADER = '''\
from decimal import Decimal
import re

from fastjsonschema import JsonSchemaValueException

try:
    from fastjsonschema import JsonSchemaValuesException
except ImportError:  # fastjsonschema releases without the collected-errors exception
    JsonSchemaValuesException = JsonSchemaValueException

NoneType = type(None)
'''

# The shipped module does not import fastjsonschema at all (its package import is slow):
# it raises its own exception with the attributes the generated code passes.
_HEADER_SHIPPED = '''\
from decimal import Decimal
import re


class JsonSchemaValueException(ValueError):
    """The first violation a generated validator found."""

    def __init__(self, message, value=None, name=None, definition=None, rule=None):
        super().__init__(message)
        self.message = message
        self.value = value
        self.name = name
        self.definition = definition
        self.rule = rule

    @property
    def path(self):
        return [part for part in re.split(r"[.\\[\\]]+", self.name or "") if part]


JsonSchemaValuesException = JsonSchemaValueException
NoneType = type(None)
'''

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


def _schema_patterns(schema: object) -> set[str]:
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


def _regex_source(pattern: str) -> str:
    converted = ecma_regex(pattern)
    re.compile(converted)  # fail here, at generation, rather than at import
    return f"re.compile({converted!r})"


def _split(code: str, schema: object) -> _Piece:
    """Take fastjsonschema's module apart: header facts, regexes and the function definitions."""
    tree = ast.parse(code)
    lines = code.splitlines(keepends=True)
    version = ""
    patterns: dict[str, str] = {}
    ecma_patterns = _schema_patterns(schema)
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
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
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
                        patterns[key.value] = _regex_source(key.value)
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


def _rename(body: str, renames: Mapping[str, str]) -> str:
    if not renames:
        return body
    names = sorted(renames, key=len, reverse=True)
    rx = re.compile(r"\b(" + "|".join(re.escape(name) for name in names) + r")\b")
    return rx.sub(lambda match: renames[match.group(1)], body)


def _patterns_block(patterns: Mapping[str, str]) -> str:
    if not patterns:
        return "REGEX_PATTERNS = {}\n"
    entries = "".join(f"    {key!r}: {patterns[key]},\n" for key in sorted(patterns))
    return "REGEX_PATTERNS = {\n" + entries + "}\n"


def _fastjsonschema_code(schema: Mapping[str, Any] | bool, handlers: _Handlers) -> str:
    import fastjsonschema

    definition: dict[str, Any] | bool = schema if isinstance(schema, bool) else dict(schema)
    code: str = fastjsonschema.compile_to_code(
        definition, handlers=dict(handlers), use_default=False, use_formats=True
    )
    return code


def python_source(schema: Mapping[str, Any] | bool, *, handlers: _Handlers | None = None) -> str:
    """A self-contained Python module validating ``schema``; its entry point is ``validate``."""
    piece = _split(_fastjsonschema_code(schema, handlers or {}), schema)
    entry = piece.functions[0]
    body = _rename(piece.body, {entry: "validate"} if entry != "validate" else {})
    return _HEADER + "\n" + _patterns_block(piece.patterns) + "\n\n" + body


def load_generated(code: str, filename: str) -> Callable[..., object]:
    """Execute a module made by :func:`python_source` and return its ``validate`` function."""
    namespace: dict[str, Any] = {"__name__": "agent_graph._generated_schema"}
    exec(compile(code, filename, "exec"), namespace)
    entry: Callable[..., object] = namespace["validate"]
    return entry


# --------------------------------------------------------------------------- the shipped module


def _identifier(name: str) -> str:
    return name.replace("-", "_")


def schemas_digest() -> str:
    """Digest of every shipped schema file and of the generator format."""
    digest = hashlib.sha256(f"agent-graph schemagen {GENERATOR_FORMAT}\0".encode())
    for name in SCHEMA_NAMES:
        digest.update(name.encode() + b"\0" + schema_path(name).read_bytes() + b"\0")
    return "sha256:" + digest.hexdigest()


def _fastjsonschema_version() -> str:
    import fastjsonschema

    return str(fastjsonschema.VERSION)


def _require_exact_constants() -> None:
    """Refuse a fastjsonschema release whose ``const``/``enum`` checks take ``1`` for ``true``.

    (Older releases compare with ``==``; the route schema's ``const: true`` would then
    accept ``1``.)
    """
    check = load_generated(python_source({"const": True}), "<probe>")
    try:
        check(1)
    except Exception:
        return
    raise GenerationError(
        f"fastjsonschema {_fastjsonschema_version()} treats 1 as equal to true in const checks; "
        "generate with fastjsonschema 2.22 or later"
    )


def generate_module() -> str:
    """The text of ``agent_graph/_validators.py`` for the current schema files."""
    import json

    _require_exact_constants()

    patterns: dict[str, str] = {}
    sections: list[str] = []
    for name in SCHEMA_NAMES:
        schema = json.loads(schema_path(name).read_text(encoding="utf-8"))
        piece = _split(_fastjsonschema_code(schema, {}), schema)
        for key, source in piece.patterns.items():
            if patterns.setdefault(key, source) != source:
                raise GenerationError(f"pattern {key!r} compiled two different ways")
        ident = _identifier(name)
        entry = piece.functions[0]
        renames = {entry: f"validate_{ident}"}
        for index, helper in enumerate(piece.functions[1:]):
            suffix = helper[len(entry) :] if helper.startswith(entry) else f"__ref{index}"
            renames[helper] = f"_{ident}{suffix}"
        sections.append(f"# {'-' * 70} {name}.schema.json\n\n" + _rename(piece.body, renames))
    table = "".join(f"    {name!r}: validate_{_identifier(name)},\n" for name in SCHEMA_NAMES)
    return (
        '"""Schema validators generated from ``schemas/*.schema.json`` by ``python -m agent_graph._schemagen``.\n'
        "\n"
        "Do not edit: change a schema, then regenerate (``--check`` reports a stale module).\n"
        '"""\n'
        "\n"
        f"GENERATED_WITH = {'fastjsonschema ' + _fastjsonschema_version()!r}\n"
        f"SCHEMAS_DIGEST = {schemas_digest()!r}\n"
        "\n" + _HEADER_SHIPPED + "\n" + _patterns_block(patterns) + "\n\n" + "\n\n".join(sections) + "\n\n"
        "VALIDATORS = {\n" + table + "}\n"
    )


def _target() -> Path:
    return Path(__file__).resolve().with_name("_validators.py")


def _recorded(text: str, name: str) -> str | None:
    match = re.search(rf"^{name} = '([^']*)'$", text, re.MULTILINE)
    return match.group(1) if match else None


def check() -> tuple[bool, str]:
    """Whether the checked-in module matches the schemas, with a one-line explanation.

    With the fastjsonschema release that generated the module installed, the
    whole text is compared; with another release only the recorded schema digest
    can be (the generated code differs between releases).
    """
    target = _target()
    if not target.is_file():
        return False, f"{target} is missing; run python -m agent_graph._schemagen"
    current = target.read_text(encoding="utf-8")
    installed = "fastjsonschema " + _fastjsonschema_version()
    recorded = _recorded(current, "GENERATED_WITH")
    if recorded != installed:
        if _recorded(current, "SCHEMAS_DIGEST") == schemas_digest():
            return True, (
                f"{target.name} matches the schemas (generated with {recorded}, installed {installed}: "
                "code not compared)"
            )
        return False, f"{target.name} is stale; run python -m agent_graph._schemagen"
    if current == generate_module():
        return True, f"{target.name} is up to date"
    return False, f"{target.name} is stale; run python -m agent_graph._schemagen"


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write the module, or with ``--check`` report whether it is stale."""
    parser = argparse.ArgumentParser(prog="python -m agent_graph._schemagen", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if agent_graph/_validators.py is stale")
    args = parser.parse_args(argv)
    if args.check:
        ok, message = check()
        print(message, file=sys.stdout if ok else sys.stderr)
        return 0 if ok else 1
    target = _target()
    text = generate_module()
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target} ({len(text)} characters)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
