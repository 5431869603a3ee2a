"""JSON Schema validation of every Agent Graph v1 object, with one diagnostic per violation.

What lives here:

* the names and locations of the shipped draft-07 schemas (``schemas/<name>.schema.json``);
* :func:`validate`, which runs the ahead-of-time generated validators of
  ``agent_graph._syntax.validators`` (a fast, first-failure check) and, only when that
  check fails, walks the value again with a small collector that lists every
  violation in the style of ajv's ``allErrors`` output;
* :func:`validate_with_schema` for user-supplied draft-07 schemas (Action input and
  output schemas, Host-action schemas), compiled once per distinct schema;
* :func:`ecma_regex`, which rewrites an ECMAScript ``pattern`` into a Python regular
  expression with the same meaning (``$`` matches only at the very end, ``\\d`` and
  ``\\w`` are ASCII, ``.`` stops at every line terminator).

Importing this module reads no file and compiles nothing: schema documents,
the generated validators and ``fastjsonschema`` are loaded on first use. Nothing
here recurses on the depth of the validated value. This module knows nothing of
Providers, Graphs or the command line.
"""

from __future__ import annotations

import copy
import importlib.resources
import json
import math
import operator
import re
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urljoin

from .._core.errors import AgentGraphError, Diagnostic
from .._core.json_writer import Text, write_json
from .explain import NOWHERE, pointer_target
from .patterns import ecma_regex
from .regex import PatternError, compile_pattern

__all__ = [
    "SCHEMA_NAMES",
    "SchemaViolation",
    "check_schema_patterns",
    "collect_violations",
    "ecma_regex",
    "schema_document",
    "schema_path",
    "schema_root",
    "validate",
    "validate_with_schema",
]

SCHEMA_NAMES: tuple[str, ...] = (
    "action",
    "bundle",
    "code-catalog",
    "code-location",
    "error",
    "evaluation",
    "graph",
    "host-action-result",
    "inspect",
    "provider",
    "resource",
    "resource-file",
    "resource-graph-action",
    "resource-host-action",
    "resource-location",
    "resource-location-file",
    "resource-location-graph-action",
    "resource-location-host-action",
    "resource-read-receipts",
    "route",
    "run",
    "skill-binding",
    "test-case",
    "verify",
)

_SCHEMA_SET = frozenset(SCHEMA_NAMES)
_PACKAGE = __package__ or "agent_graph._syntax"
_lock = threading.Lock()
_documents: dict[str, dict[str, Any]] = {}


# --------------------------------------------------------------------------- schema files


def _check_name(name: str) -> None:
    if name not in _SCHEMA_SET:
        raise AgentGraphError("schema-type-unknown", f"Unknown schema type: {name}")


def schema_root() -> Path:
    """The folder holding the shipped schemas (package data of this layer)."""
    resource = importlib.resources.files(_PACKAGE).joinpath("schemas")
    with importlib.resources.as_file(resource) as path:
        return Path(path)


def schema_path(name: str) -> Path:
    """The path of the shipped ``<name>.schema.json`` file (package data of this layer).

    Raises ``AgentGraphError("schema-type-unknown")`` for a name not in :data:`SCHEMA_NAMES`.
    """
    _check_name(name)
    resource = importlib.resources.files(_PACKAGE).joinpath("schemas").joinpath(f"{name}.schema.json")
    with importlib.resources.as_file(resource) as path:
        return Path(path)


def _schema_text(name: str) -> str:
    """The text of a shipped schema, read as package data (wheel, zip or source tree alike)."""
    resource = importlib.resources.files(_PACKAGE).joinpath("schemas").joinpath(f"{name}.schema.json")
    return resource.read_text(encoding="utf-8")


def _document(name: str) -> dict[str, Any]:
    """The parsed schema, shared and cached: callers must not modify it."""
    cached = _documents.get(name)
    if cached is not None:
        return cached
    _check_name(name)
    loaded = json.loads(_schema_text(name))
    if not isinstance(loaded, dict):
        raise AgentGraphError("schema-document-invalid", f"{name}.schema.json is not a JSON object")
    with _lock:
        return _documents.setdefault(name, loaded)


def schema_document(name: str) -> dict[str, Any]:
    """A fresh copy of the parsed ``<name>.schema.json`` document."""
    return copy.deepcopy(_document(name))


_regex_cache: dict[str, Any] = {}
_REGEX_CACHE_LIMIT = 512


def _regex(pattern: str) -> Any:
    """A matcher with ``search`` for a ``pattern`` (None for a pattern that is not valid).

    The linear-time matcher of :mod:`agent_graph._syntax.regex`, so that no
    pattern backtracks on long input; ``re`` only for a pattern it cannot
    take (a lookahead, say), which only the shipped schemas can hold here:
    :func:`validate_with_schema` refuses such a pattern in a user schema first.
    """
    compiled = _regex_cache.get(pattern)
    if compiled is None:
        try:
            compiled = compile_pattern(pattern)
        except PatternError as error:
            if not error.unsupported:
                return None
            try:
                compiled = re.compile(ecma_regex(pattern))
            except re.error:
                return None
        if len(_regex_cache) >= _REGEX_CACHE_LIMIT:
            _regex_cache.clear()
        _regex_cache[pattern] = compiled
    return compiled


# --------------------------------------------------------------------------- JSON helpers


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _limit(schema: Mapping[str, Any], keyword: str) -> int | float | None:
    bound = schema.get(keyword)
    return bound if _is_number(bound) else None


def _is_type(value: object, name: str) -> bool:
    if name == "string":
        return isinstance(value, str)
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, (list, tuple))
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "number":
        return _is_number(value)
    if name == "integer":
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    return False


def _number_text(value: int | float) -> str:
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return repr(value)
        if value.is_integer():
            return str(int(value))
        return repr(value)
    if value.bit_length() > 14_000:  # beyond str()'s digit limit; no float is this large
        return f"0x{value:x}"
    return str(value)


def _sorted_entries(value: dict[Any, Any]) -> list[tuple[Any, Any]]:
    return [(key, value[key]) for key in sorted(value, key=str)]


def _repr_text(value: object) -> Text:
    return Text(repr(value))


def _canonical(value: object) -> str:
    """A canonical text of a JSON value: equal JSON values give equal texts (the one JSON writer's walk).

    Objects are written with sorted keys, ``1`` and ``1.0`` are the same number,
    booleans are never numbers.
    """
    return write_json(
        value, string=json.dumps, number=_number_text, entries=_sorted_entries, convert=_repr_text
    )


def _is_multiple(value: int | float, divisor: int | float) -> bool:
    if isinstance(value, int) and isinstance(divisor, int):
        return value % divisor == 0
    quotient = value / divisor
    return math.isfinite(quotient) and float(quotient).is_integer()


def _pointer_token(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


# --------------------------------------------------------------------------- violation collector


class SchemaViolation(NamedTuple):
    """One violated keyword: where in the value, where in the schema, and why."""

    keyword: str
    instance_path: str
    schema_path: str
    params: dict[str, Any]
    message: str


_Sink = list[Any]  # SchemaViolation items and nested sinks, flattened at the end

_EVAL = 0
_NOT = 1
_ANY_OF = 2
_ONE_OF = 3
_IF = 4
_THEN = 5
_CONTAINS = 6
_PROPERTY_NAMES = 7

_MAX_REF_HOPS = 64

_STRING_KEYWORDS = frozenset({"maxLength", "minLength", "pattern"})
_NUMBER_KEYWORDS = frozenset({"maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum", "multipleOf"})
_ARRAY_KEYWORDS = frozenset({"maxItems", "minItems", "items", "additionalItems", "contains", "uniqueItems"})
_OBJECT_KEYWORDS = frozenset(
    {
        "maxProperties",
        "minProperties",
        "required",
        "dependencies",
        "propertyNames",
        "properties",
        "patternProperties",
        "additionalProperties",
    }
)
_VALUE_KEYWORDS = frozenset({"enum", "const"})
_APPLICATOR_KEYWORDS = frozenset({"not", "anyOf", "oneOf", "allOf", "if"})

_BOUNDS: tuple[tuple[str, str, Callable[[float, float], bool]], ...] = (
    ("maximum", "<=", operator.le),
    ("minimum", ">=", operator.ge),
    ("exclusiveMaximum", "<", operator.lt),
    ("exclusiveMinimum", ">", operator.gt),
)


def _has_violation(sink: _Sink) -> bool:
    stack = [sink]
    while stack:
        for item in stack.pop():
            if isinstance(item, list):
                stack.append(item)
            else:
                return True
    return False


def _flatten(sink: _Sink) -> list[SchemaViolation]:
    out: list[SchemaViolation] = []
    stack: list[Any] = [iter(sink)]
    while stack:
        for item in stack[-1]:
            if isinstance(item, list):
                stack.append(iter(item))
                break
            out.append(item)
        else:
            stack.pop()
    return out


class _Collector:
    """Walks one value against one schema with an explicit stack, never recursing."""

    def __init__(self, root: dict[str, Any] | bool) -> None:
        self.root = root
        self.stack: list[tuple[Any, ...]] = []
        self.refs: dict[str, tuple[Any, str] | None] = {}
        self.plans: dict[int, tuple[Any, ...]] = {}

    # -- entry point

    def run(self, value: object) -> list[SchemaViolation]:
        sink: _Sink = []
        self.stack.append((_EVAL, self.root, value, "", "#", sink, 0))
        handlers: dict[int, Callable[[tuple[Any, ...]], None]] = {
            _EVAL: self._evaluate,
            _NOT: self._finish_not,
            _ANY_OF: self._finish_any_of,
            _ONE_OF: self._finish_one_of,
            _IF: self._finish_if,
            _THEN: self._finish_then,
            _CONTAINS: self._finish_contains,
            _PROPERTY_NAMES: self._finish_property_names,
        }
        while self.stack:
            task = self.stack.pop()
            handlers[task[0]](task)
        return _flatten(sink)

    # -- helpers

    def _push(
        self, schema: object, value: object, ipath: str, spath: str, sink: _Sink, hops: int = 0
    ) -> None:
        self.stack.append((_EVAL, schema, value, ipath, spath, sink, hops))

    def _resolve(self, ref: str) -> tuple[Any, str] | None:
        if ref in self.refs:
            return self.refs[ref]
        found = self._lookup(ref)
        self.refs[ref] = found
        return found

    def _lookup(self, ref: str) -> tuple[Any, str] | None:
        root = self.root
        if ref.startswith("#"):
            fragment = ref[1:]
        else:
            base = root.get("$id") if isinstance(root, dict) else None
            if not isinstance(base, str):
                return None
            target, _, fragment = urljoin(base, ref).partition("#")
            if target != base.partition("#")[0]:
                return None
        node: Any = root
        if fragment:
            if not fragment.startswith("/"):
                return None
            node = pointer_target(root, fragment[1:].split("/"))
            if node is NOWHERE:
                return None
        return node, "#" + fragment

    @staticmethod
    def _violation(
        sink: _Sink, keyword: str, ipath: str, spath: str, params: dict[str, Any], message: str
    ) -> None:
        sink.append(SchemaViolation(keyword, ipath, spath, params, message))

    # -- one schema against one value

    def _plan(self, schema: dict[str, Any]) -> tuple[Any, ...]:
        """Which keyword groups a schema object uses, computed once per object."""
        plan = self.plans.get(id(schema))
        if plan is None:
            keys = schema.keys()
            ref = schema.get("$ref")
            plan = (
                schema,  # keeps the object, and so its id, alive while cached
                ref if isinstance(ref, str) else None,
                "type" in keys,
                not keys.isdisjoint(_STRING_KEYWORDS),
                not keys.isdisjoint(_NUMBER_KEYWORDS),
                not keys.isdisjoint(_ARRAY_KEYWORDS),
                not keys.isdisjoint(_OBJECT_KEYWORDS),
                not keys.isdisjoint(_VALUE_KEYWORDS),
                not keys.isdisjoint(_APPLICATOR_KEYWORDS),
            )
            self.plans[id(schema)] = plan
        return plan

    def _evaluate(self, task: tuple[Any, ...]) -> None:
        _, schema, value, ipath, spath, sink, hops = task
        if schema is True:
            return
        if schema is False:
            self._violation(sink, "false schema", ipath, spath, {}, "boolean schema is false")
            return
        if not isinstance(schema, dict):
            return
        _, ref, typed, strings, numbers, arrays, objects, values, applicators = self._plan(schema)
        if ref is not None:
            # draft-07: a $ref replaces every sibling keyword
            found = self._resolve(ref)
            if found is not None and hops < _MAX_REF_HOPS:
                self._push(found[0], value, ipath, found[1], sink, hops + 1)
            return
        if typed:
            self._check_type(schema, value, ipath, spath, sink)
        if isinstance(value, str):
            if strings:
                self._check_string(schema, value, ipath, spath, sink)
        elif isinstance(value, dict):
            if objects:
                self._check_object(schema, value, ipath, spath, sink)
        elif isinstance(value, (list, tuple)):
            if arrays:
                self._check_array(schema, value, ipath, spath, sink)
        elif numbers and _is_number(value):
            self._check_number(schema, value, ipath, spath, sink)
        if values:
            self._check_values(schema, value, ipath, spath, sink)
        if applicators:
            self._check_applicators(schema, value, ipath, spath, sink, hops)

    def _check_type(self, schema: dict[str, Any], value: object, ipath: str, spath: str, sink: _Sink) -> None:
        expected = schema.get("type")
        if expected is None:
            return
        names = expected if isinstance(expected, list) else [expected]
        if any(isinstance(name, str) and _is_type(value, name) for name in names):
            return
        shown = ",".join(str(name) for name in names)
        self._violation(sink, "type", ipath, spath + "/type", {"type": expected}, f"must be {shown}")

    def _check_string(self, schema: dict[str, Any], value: str, ipath: str, spath: str, sink: _Sink) -> None:
        limit = _limit(schema, "maxLength")
        if limit is not None and len(value) > limit:
            self._violation(
                sink,
                "maxLength",
                ipath,
                spath + "/maxLength",
                {"limit": limit},
                f"must NOT have more than {limit} characters",
            )
        limit = _limit(schema, "minLength")
        if limit is not None and len(value) < limit:
            self._violation(
                sink,
                "minLength",
                ipath,
                spath + "/minLength",
                {"limit": limit},
                f"must NOT have fewer than {limit} characters",
            )
        pattern = schema.get("pattern")
        if isinstance(pattern, str):
            compiled = _regex(pattern)
            if compiled is not None and compiled.search(value) is None:
                self._violation(
                    sink,
                    "pattern",
                    ipath,
                    spath + "/pattern",
                    {"pattern": pattern},
                    f'must match pattern "{pattern}"',
                )

    def _check_number(
        self, schema: dict[str, Any], value: int | float, ipath: str, spath: str, sink: _Sink
    ) -> None:
        for keyword, comparison, holds in _BOUNDS:
            bound = _limit(schema, keyword)
            if bound is not None and not holds(value, bound):
                self._violation(
                    sink,
                    keyword,
                    ipath,
                    f"{spath}/{keyword}",
                    {"comparison": comparison, "limit": bound},
                    f"must be {comparison} {bound}",
                )
        divisor = _limit(schema, "multipleOf")
        if divisor is not None and divisor > 0 and not _is_multiple(value, divisor):
            self._violation(
                sink,
                "multipleOf",
                ipath,
                spath + "/multipleOf",
                {"multipleOf": divisor},
                f"must be multiple of {divisor}",
            )

    def _check_array(
        self, schema: dict[str, Any], value: list[Any] | tuple[Any, ...], ipath: str, spath: str, sink: _Sink
    ) -> None:
        limit = _limit(schema, "maxItems")
        if limit is not None and len(value) > limit:
            self._violation(
                sink,
                "maxItems",
                ipath,
                spath + "/maxItems",
                {"limit": limit},
                f"must NOT have more than {limit} items",
            )
        limit = _limit(schema, "minItems")
        if limit is not None and len(value) < limit:
            self._violation(
                sink,
                "minItems",
                ipath,
                spath + "/minItems",
                {"limit": limit},
                f"must NOT have fewer than {limit} items",
            )
        items = schema.get("items")
        if isinstance(items, (dict, bool)):
            for index, element in enumerate(value):
                child: _Sink = []
                sink.append(child)
                self._push(items, element, f"{ipath}/{index}", spath + "/items", child)
        elif isinstance(items, list):
            for index, element in enumerate(value[: len(items)]):
                child = []
                sink.append(child)
                self._push(items[index], element, f"{ipath}/{index}", f"{spath}/items/{index}", child)
            extra = schema.get("additionalItems")
            if extra is False and len(value) > len(items):
                self._violation(
                    sink,
                    "additionalItems",
                    ipath,
                    spath + "/additionalItems",
                    {"limit": len(items)},
                    f"must NOT have more than {len(items)} items",
                )
            elif isinstance(extra, dict):
                for index in range(len(items), len(value)):
                    child = []
                    sink.append(child)
                    self._push(extra, value[index], f"{ipath}/{index}", spath + "/additionalItems", child)
        contains = schema.get("contains")
        if isinstance(contains, (dict, bool)):
            branches: list[_Sink] = [[] for _ in value]
            slot: _Sink = []
            sink.append(slot)
            self.stack.append((_CONTAINS, branches, slot, ipath, spath + "/contains"))
            for index, element in enumerate(value):
                self._push(contains, element, f"{ipath}/{index}", spath + "/contains", branches[index])
        if schema.get("uniqueItems") is True:
            seen: dict[str, int] = {}
            for index in range(len(value) - 1, -1, -1):
                key = _canonical(value[index])
                if key in seen:
                    j = seen[key]
                    self._violation(
                        sink,
                        "uniqueItems",
                        ipath,
                        spath + "/uniqueItems",
                        {"i": index, "j": j},
                        f"must NOT have duplicate items (items ## {j} and {index} are identical)",
                    )
                    break
                seen[key] = index

    def _check_object(
        self, schema: dict[str, Any], value: dict[Any, Any], ipath: str, spath: str, sink: _Sink
    ) -> None:
        limit = _limit(schema, "maxProperties")
        if limit is not None and len(value) > limit:
            self._violation(
                sink,
                "maxProperties",
                ipath,
                spath + "/maxProperties",
                {"limit": limit},
                f"must NOT have more than {limit} properties",
            )
        limit = _limit(schema, "minProperties")
        if limit is not None and len(value) < limit:
            self._violation(
                sink,
                "minProperties",
                ipath,
                spath + "/minProperties",
                {"limit": limit},
                f"must NOT have fewer than {limit} properties",
            )
        required = schema.get("required")
        if isinstance(required, list):
            for name in required:
                if isinstance(name, str) and name not in value:
                    self._violation(
                        sink,
                        "required",
                        ipath,
                        spath + "/required",
                        {"missingProperty": name},
                        f"must have required property '{name}'",
                    )
        dependencies = schema.get("dependencies")
        if isinstance(dependencies, dict):
            for trigger, needed in dependencies.items():
                if trigger not in value:
                    continue
                where = f"{spath}/dependencies/{_pointer_token(trigger)}"
                if isinstance(needed, list):
                    for name in needed:
                        if isinstance(name, str) and name not in value:
                            self._violation(
                                sink,
                                "dependencies",
                                ipath,
                                spath + "/dependencies",
                                {
                                    "property": trigger,
                                    "missingProperty": name,
                                    "depsCount": len(needed),
                                    "deps": ", ".join(str(n) for n in needed),
                                },
                                f"must have property {name} when property {trigger} is present",
                            )
                else:
                    child: _Sink = []
                    sink.append(child)
                    self._push(needed, value, ipath, where, child)
        names = schema.get("propertyNames")
        if isinstance(names, (dict, bool)) and value:
            named: list[tuple[Any, _Sink]] = [(key, []) for key in value]
            slot: _Sink = []
            sink.append(slot)
            self.stack.append((_PROPERTY_NAMES, named, slot, ipath, spath + "/propertyNames"))
            for key, branch in named:
                self._push(names, key, ipath, spath + "/propertyNames", branch)
        properties = schema.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        patterns = schema.get("patternProperties")
        patterns = patterns if isinstance(patterns, dict) else {}
        additional = schema.get("additionalProperties")
        if additional is not None and additional is not True:
            compiled = [(p, _regex(p)) for p in patterns if isinstance(p, str)]
            for key in value:
                if key in properties:
                    continue
                text = str(key)
                if any(rx is not None and rx.search(text) for _, rx in compiled):
                    continue
                if additional is False:
                    self._violation(
                        sink,
                        "additionalProperties",
                        ipath,
                        spath + "/additionalProperties",
                        {"additionalProperty": text},
                        "must NOT have additional properties",
                    )
                elif isinstance(additional, dict):
                    child = []
                    sink.append(child)
                    self._push(
                        additional,
                        value[key],
                        f"{ipath}/{_pointer_token(text)}",
                        spath + "/additionalProperties",
                        child,
                    )
        for key, subschema in properties.items():
            if key in value:
                child = []
                sink.append(child)
                self._push(
                    subschema,
                    value[key],
                    f"{ipath}/{_pointer_token(key)}",
                    f"{spath}/properties/{_pointer_token(key)}",
                    child,
                )
        for pattern, subschema in patterns.items():
            rx = _regex(pattern) if isinstance(pattern, str) else None
            if rx is None:
                continue
            for key in value:
                if rx.search(str(key)):
                    child = []
                    sink.append(child)
                    self._push(
                        subschema,
                        value[key],
                        f"{ipath}/{_pointer_token(str(key))}",
                        f"{spath}/patternProperties/{_pointer_token(pattern)}",
                        child,
                    )

    def _check_values(
        self, schema: dict[str, Any], value: object, ipath: str, spath: str, sink: _Sink
    ) -> None:
        allowed = schema.get("enum")
        if isinstance(allowed, list):
            text = _canonical(value)
            if not any(_canonical(candidate) == text for candidate in allowed):
                self._violation(
                    sink,
                    "enum",
                    ipath,
                    spath + "/enum",
                    {"allowedValues": allowed},
                    "must be equal to one of the allowed values",
                )
        if "const" in schema and _canonical(schema["const"]) != _canonical(value):
            self._violation(
                sink,
                "const",
                ipath,
                spath + "/const",
                {"allowedValue": schema["const"]},
                "must be equal to constant",
            )

    def _check_applicators(
        self, schema: dict[str, Any], value: object, ipath: str, spath: str, sink: _Sink, hops: int
    ) -> None:
        negated = schema.get("not")
        if isinstance(negated, (dict, bool)):
            branch: _Sink = []
            slot: _Sink = []
            sink.append(slot)
            self.stack.append((_NOT, branch, slot, ipath, spath + "/not"))
            self._push(negated, value, ipath, spath + "/not", branch, hops)
        for keyword, kind in (("anyOf", _ANY_OF), ("oneOf", _ONE_OF)):
            options = schema.get(keyword)
            if isinstance(options, list) and options:
                branches: list[_Sink] = [[] for _ in options]
                slot = []
                sink.append(slot)
                self.stack.append((kind, branches, slot, ipath, f"{spath}/{keyword}"))
                for index, option in enumerate(options):
                    self._push(option, value, ipath, f"{spath}/{keyword}/{index}", branches[index], hops)
        every = schema.get("allOf")
        if isinstance(every, list):
            for index, option in enumerate(every):
                child: _Sink = []
                sink.append(child)
                self._push(option, value, ipath, f"{spath}/allOf/{index}", child, hops)
        condition = schema.get("if")
        if isinstance(condition, (dict, bool)) and ("then" in schema or "else" in schema):
            branch = []
            slot = []
            sink.append(slot)
            self.stack.append((_IF, branch, slot, schema, value, ipath, spath, hops))
            self._push(condition, value, ipath, spath + "/if", branch, hops)

    # -- combinators, finished once their branches are evaluated

    def _finish_not(self, task: tuple[Any, ...]) -> None:
        _, branch, slot, ipath, spath = task
        if not _has_violation(branch):
            self._violation(slot, "not", ipath, spath, {}, "must NOT be valid")

    def _finish_any_of(self, task: tuple[Any, ...]) -> None:
        _, branches, slot, ipath, spath = task
        if all(_has_violation(branch) for branch in branches):
            self._violation(slot, "anyOf", ipath, spath, {}, "must match a schema in anyOf")

    def _finish_one_of(self, task: tuple[Any, ...]) -> None:
        _, branches, slot, ipath, spath = task
        passing = [index for index, branch in enumerate(branches) if not _has_violation(branch)]
        if len(passing) != 1:
            params = {"passingSchemas": passing[:2] if passing else None}
            self._violation(slot, "oneOf", ipath, spath, params, "must match exactly one schema in oneOf")

    def _finish_if(self, task: tuple[Any, ...]) -> None:
        _, branch, slot, schema, value, ipath, spath, hops = task
        keyword = "then" if not _has_violation(branch) else "else"
        follow = schema.get(keyword)
        if not isinstance(follow, (dict, bool)):
            return
        result: _Sink = []
        slot.append(result)
        self.stack.append((_THEN, result, slot, ipath, spath, keyword))
        self._push(follow, value, ipath, f"{spath}/{keyword}", result, hops)

    def _finish_then(self, task: tuple[Any, ...]) -> None:
        _, result, slot, ipath, spath, keyword = task
        if _has_violation(result):
            self._violation(
                slot,
                "if",
                ipath,
                spath + "/if",
                {"failingKeyword": keyword},
                f'must match "{keyword}" schema',
            )

    def _finish_contains(self, task: tuple[Any, ...]) -> None:
        _, branches, slot, ipath, spath = task
        if all(_has_violation(branch) for branch in branches):
            self._violation(
                slot, "contains", ipath, spath, {"minContains": 1}, "must contain at least 1 valid item(s)"
            )

    def _finish_property_names(self, task: tuple[Any, ...]) -> None:
        _, branches, slot, ipath, spath = task
        for key, branch in branches:
            if _has_violation(branch):
                self._violation(
                    slot,
                    "propertyNames",
                    ipath,
                    spath,
                    {"propertyName": str(key)},
                    "property name must be valid",
                )


def collect_violations(schema: Mapping[str, Any] | bool, value: object) -> list[SchemaViolation]:
    """Every violation of ``schema`` (draft-07) by ``value``, in schema and value order.

    Subschemas of ``not``, ``anyOf``, ``oneOf`` and ``if`` only decide their own
    keyword: a failed ``oneOf`` is one violation, whatever its branches said.
    ``format`` is not checked. Local ``$ref`` (``#…`` or relative to the root
    ``$id``) is followed; other references are ignored.
    """
    root: dict[str, Any] | bool = schema if isinstance(schema, (dict, bool)) else dict(schema)
    return _Collector(root).run(value)


# --------------------------------------------------------------------------- diagnostics


def _fallback_diagnostic(failure: Exception, path: str) -> Diagnostic:
    """One diagnostic built from a fastjsonschema exception, when the collector found nothing."""
    rule = getattr(failure, "rule", None) or "invalid"
    name = getattr(failure, "name", None) or "data"
    text = str(getattr(failure, "message", None) or failure)
    if text.startswith(name):
        text = text[len(name) :].strip()
    steps = getattr(failure, "path", None)
    tokens = list(steps[1:]) if isinstance(steps, list) and steps else []
    pointer = "".join("/" + _pointer_token(token) for token in tokens)
    return Diagnostic(
        code=f"schema.{rule}",
        severity="error",
        message=f"{pointer or '/'} {text}",
        path=path,
        detail={"schemaPath": "#", "params": {}},
    )


def _raise_invalid(
    schema: Mapping[str, Any] | bool,
    value: object,
    path: str,
    failure: Exception | None,
    message: str,
    *,
    root_name: str,
    source: str | Callable[[], str] | None = None,
    display: str | None = None,
) -> None:
    violations = collect_violations(schema, value)
    if violations:
        from .explain import explain

        if callable(source):
            source = source()

        diagnostics = explain(
            violations, value, path, schema=schema, root_name=root_name, source=source, display=display
        )
    elif failure is not None:
        diagnostics = [_fallback_diagnostic(failure, path)]
    else:
        return
    raise AgentGraphError("schema-invalid", message, diagnostics)


# --------------------------------------------------------------------------- validation entry points


def _fast_validator(name: str) -> tuple[Callable[..., object], type[Exception]]:
    from . import validators as _validators

    validators: Mapping[str, Callable[..., object]] = _validators.VALIDATORS
    failure_type: type[Exception] = _validators.JsonSchemaValueException
    return validators[name], failure_type


def validate(
    name: str,
    value: object,
    path: str,
    *,
    source: str | Callable[[], str] | None = None,
    display: str | None = None,
) -> None:
    """Check ``value`` against the shipped ``<name>.schema.json``.

    Raises ``AgentGraphError("schema-invalid", "<display> does not match <name>.schema.json")``
    with one diagnostic per violation (``schema.<keyword>``; a message naming
    the thing and the problem, see :mod:`agent_graph._syntax.explain`;
    ``detail = {schemaPath, params, pointer, line?, column?}``), or
    ``schema-type-unknown`` for an unknown name. ``source`` is the text
    ``value`` was read from, or a function returning it, called only when
    there are violations to place (line and column); ``display`` is the
    file's name in messages (default ``path``).
    """
    _check_name(name)
    check, failure_type = _fast_validator(name)
    failure: Exception | None
    try:
        check(value)
        return
    except failure_type as exc:
        failure = exc
    except RecursionError:
        failure = None
    _raise_invalid(
        _document(name),
        value,
        path,
        failure,
        f"{display or path} does not match {name}.schema.json",
        root_name=name.replace("-", " "),
        source=source,
        display=display,
    )


# user-supplied schemas ---------------------------------------------------------------

_USER_CACHE_LIMIT = 256
_user_validators: dict[str, Callable[..., object]] = {}


def _refuse_remote(uri: str) -> object:
    raise ValueError(f"remote schema references are not followed: {uri}")


_NO_REMOTE = {scheme: _refuse_remote for scheme in ("", "http", "https", "file", "ftp", "data")}


def _schema_key(schema: object, name: str) -> str:
    """The cache key of a user schema: its canonical text, written without recursion (any depth)."""
    try:
        return _canonical(schema)
    except (TypeError, ValueError) as exc:
        raise AgentGraphError(
            "schema-document-invalid", f"{name} is not a JSON Schema document: {exc}"
        ) from exc


def check_schema_patterns(schema: object, name: str) -> None:
    """Refuse a user schema whose ``pattern`` or ``patternProperties`` could not be matched in linear time.

    ``schema-pattern-unsupported`` for a backreference, a lookahead or
    lookbehind, a Unicode property escape or a repetition too large to write
    out; ``schema-document-invalid`` for a pattern that is not ECMAScript.
    Checked when a Provider loads (host-action schemas) and before a schema
    is compiled, so that no pattern from a user ever reaches a backtracking
    matcher.
    """
    from .compile import schema_patterns

    for pattern in sorted(schema_patterns(schema)):
        try:
            compile_pattern(pattern)
        except PatternError as error:
            if error.unsupported:
                raise AgentGraphError(
                    "schema-pattern-unsupported",
                    f"{name} uses a pattern agent-graph does not match: {error} "
                    "(patterns run in linear time; write it without backreferences or lookaround)",
                ) from None
            raise AgentGraphError(
                "schema-document-invalid", f"{name} has a pattern that is not valid: {error}"
            ) from None


def _collecting_validator(schema: Mapping[str, Any] | bool) -> Callable[..., object]:
    """The non-compiled validator: the violation collector, for schemas too deep for Python's compiler."""
    from fastjsonschema import JsonSchemaValueException

    def check(value: object) -> None:
        violations = collect_violations(schema, value)
        if violations:
            first = violations[0]
            raise JsonSchemaValueException(
                f"{first.instance_path or '/'} {first.message}", value=value, rule=first.keyword
            )

    return check


def _compile_user_schema(schema: Mapping[str, Any] | bool, name: str) -> Callable[..., object]:
    """A validator for ``schema``: compiled by fastjsonschema, or the collector when Python cannot compile it.

    A valid schema nested deeper than fastjsonschema's generator or Python's
    compiler can take (statically nested blocks, parser depth, recursion) is
    checked by the iterative collector instead.
    """
    from .compile import load_generated, python_source

    check_schema_patterns(schema, name)
    try:
        code = python_source(schema, handlers=_NO_REMOTE)
        return load_generated(code, f"<schema {name}>")
    except AgentGraphError:
        raise
    except PatternError as exc:  # checked above; kept for a pattern met only by the generator
        raise AgentGraphError("schema-pattern-unsupported", f"{name}: {exc}") from None
    except (RecursionError, MemoryError, SyntaxError):
        return _collecting_validator(schema)
    except Exception as exc:  # fastjsonschema raises many kinds for a broken schema
        if "too deeply nested" in str(exc):  # its own walk stops at a fixed depth
            return _collecting_validator(schema)
        raise AgentGraphError(
            "schema-document-invalid", f"{name} is not a valid draft-07 JSON Schema: {exc}"
        ) from exc


def validate_with_schema(schema: Mapping[str, Any] | bool, value: object, path: str, *, name: str) -> None:
    """Check ``value`` against a user-supplied draft-07 ``schema`` (named ``name`` in messages).

    The schema is compiled once per distinct content (keyed by its canonical JSON,
    never by object identity); remote ``$ref`` is refused. A schema that cannot be
    compiled raises ``AgentGraphError("schema-document-invalid")``; a value that
    does not match raises ``schema-invalid`` with one diagnostic per violation.
    """
    if not isinstance(schema, (Mapping, bool)):
        raise AgentGraphError(
            "schema-document-invalid", f"{name} is not a JSON Schema document: not an object"
        )
    if not isinstance(schema, bool):
        from .._core.plain import plain_json

        try:
            source = schema if isinstance(schema, dict) else dict(schema.items())
            schema = plain_json(source, name, allow_nan=False)
        except AgentGraphError as error:
            raise AgentGraphError(
                "schema-document-invalid", f"{name} is not a JSON Schema document: {error.message}"
            ) from None
    key = _schema_key(schema, name)
    check = _user_validators.get(key)
    if check is None:
        check = _compile_user_schema(schema, name)
        with _lock:
            if len(_user_validators) >= _USER_CACHE_LIMIT:
                _user_validators.clear()
            _user_validators[key] = check
    from fastjsonschema import JsonSchemaException

    failure: Exception | None
    try:
        check(value)
        return
    except JsonSchemaException as exc:
        failure = exc
    except RecursionError:
        failure = None
    _raise_invalid(schema, value, path, failure, f"{path} does not match {name}", root_name="value")
