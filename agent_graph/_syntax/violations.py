"""Every violation of a JSON Schema (draft-07), listed as ajv's ``allErrors`` lists them.

:func:`collect_violations` walks a value against a schema once more after the
fast check of :mod:`.schema` has failed, and lists every violation with its
keyword, instance path, schema path and parameters, in ajv's order and words.
It walks with an explicit stack (nothing here recurses on the value's depth),
follows local ``$ref``s with a bound on hops, and matches ``pattern`` in
linear time (:mod:`.regex`; ``re`` only for the shipped schemas' lookaheads).
The JSON helpers below compare and write values as JSON does (numbers by
value, booleans apart from numbers, canonical text for ``enum`` and ``const``).
"""

from __future__ import annotations

import json
import math
import operator
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple
from urllib.parse import urljoin

from .._core.json_writer import Text, write_json
from .explain import NOWHERE, pointer_target
from .patterns import ecma_regex
from .regex import PatternError, compile_pattern

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


def canonical_text(value: object) -> str:
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


def _missing(names: list[Any], value: dict[Any, Any]) -> Iterator[str]:
    """The property names a schema's list asks for (``required``, a ``dependencies`` entry) that ``value`` lacks."""
    return (name for name in names if isinstance(name, str) and name not in value)


def pointer_token(token: str | int) -> str:
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

#: The size keywords of a string, an array and an object: (keyword, whether a size breaks it, ajv's word).
_SizeBounds = tuple[tuple[str, Callable[[int, float], bool], str], ...]
_LENGTH_BOUNDS: _SizeBounds = (("maxLength", operator.gt, "more"), ("minLength", operator.lt, "fewer"))
_ITEMS_BOUNDS: _SizeBounds = (("maxItems", operator.gt, "more"), ("minItems", operator.lt, "fewer"))
_PROPERTIES_BOUNDS: _SizeBounds = (
    ("maxProperties", operator.gt, "more"),
    ("minProperties", operator.lt, "fewer"),
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

    def _check_size(
        self,
        schema: dict[str, Any],
        size: int,
        bounds: _SizeBounds,
        unit: str,
        ipath: str,
        spath: str,
        sink: _Sink,
    ) -> None:
        """A string's length, an array's items or an object's properties against the schema's bounds of them."""
        for keyword, breaks, word in bounds:
            limit = _limit(schema, keyword)
            if limit is not None and breaks(size, limit):
                self._violation(
                    sink,
                    keyword,
                    ipath,
                    f"{spath}/{keyword}",
                    {"limit": limit},
                    f"must NOT have {word} than {limit} {unit}",
                )

    def _check_string(self, schema: dict[str, Any], value: str, ipath: str, spath: str, sink: _Sink) -> None:
        self._check_size(schema, len(value), _LENGTH_BOUNDS, "characters", ipath, spath, sink)
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
        self._check_size(schema, len(value), _ITEMS_BOUNDS, "items", ipath, spath, sink)
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
                key = canonical_text(value[index])
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
        self._check_size(schema, len(value), _PROPERTIES_BOUNDS, "properties", ipath, spath, sink)
        required = schema.get("required")
        if isinstance(required, list):
            for name in _missing(required, value):
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
                where = f"{spath}/dependencies/{pointer_token(trigger)}"
                if isinstance(needed, list):
                    for name in _missing(needed, value):
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
                        f"{ipath}/{pointer_token(text)}",
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
                    f"{ipath}/{pointer_token(key)}",
                    f"{spath}/properties/{pointer_token(key)}",
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
                        f"{ipath}/{pointer_token(str(key))}",
                        f"{spath}/patternProperties/{pointer_token(pattern)}",
                        child,
                    )

    def _check_values(
        self, schema: dict[str, Any], value: object, ipath: str, spath: str, sink: _Sink
    ) -> None:
        allowed = schema.get("enum")
        if isinstance(allowed, list):
            text = canonical_text(value)
            if not any(canonical_text(candidate) == text for candidate in allowed):
                self._violation(
                    sink,
                    "enum",
                    ipath,
                    spath + "/enum",
                    {"allowedValues": allowed},
                    "must be equal to one of the allowed values",
                )
        if "const" in schema and canonical_text(schema["const"]) != canonical_text(value):
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
