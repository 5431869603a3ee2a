"""Schema violations as diagnostics a person can act on.

:func:`explain` turns the collector's violations (keyword, JSON Pointer,
schema path, parameters) into :class:`~agent_graph.types.Diagnostic` records whose
message says what is wrong and where:

* the thing the value belongs to, named by its identity rather than only by
  its pointer: ``node draft``, ``edge approve -> publish``, ``code
  route.report.draft``, ``graph report`` (an array item named by its ``id``,
  ``code`` or ``from``/``to``);
* the problem in words: the unknown property and the closest allowed one,
  the bad value and the allowed values, the missing property, the property a
  condition forbids (``"graph" is not allowed when kind is "action"``);
* with the source text at hand, the file, line and column
  (``graphs/report.yaml:17:5: ...``).

Violations that only repeat another one are folded away: the ``if`` keyword
whose ``then``/``else`` branch already reported its own violations, and
exact repeats. The machine-readable part stays in ``detail``: ``schemaPath``
and ``params`` as before, plus ``pointer`` and, when known, ``line`` and
``column`` (1-based). Nothing here recurses on the depth of the value; this
module knows the shape of JSON, not what a Graph means.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import unquote

from .._core.errors import Diagnostic, did_you_mean, listing
from .._core.plain import json_type
from .._core.suggest import CloseNames

__all__ = ["MAX_LOCATED_TEXT", "explain"]

#: Positions are looked up only in texts up to this size (the lookup reads the whole text again).
MAX_LOCATED_TEXT = 2 * 1024 * 1024

_SHORT = 60
_LONGEST_FIELD = 120


def _tokens(pointer: str) -> list[str]:
    if not pointer:
        return []
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def _short(value: Any) -> str:
    """A JSON value for a message, cut at a few dozen characters (a large collection only counted)."""
    if isinstance(value, dict) and len(value) > 8:
        return f"an object of {len(value)} properties"
    if isinstance(value, (list, tuple)) and len(value) > 8:
        return f"an array of {len(value)} items"
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= _SHORT else text[: _SHORT - 1] + "…"


def _singular(name: str) -> str:
    return name[:-1] if name.endswith("s") and len(name) > 1 else name


def _item_name(container_key: str, item: Any) -> str | None:
    """How an array item is called in a message, when it carries an identity."""
    if not isinstance(item, dict):
        return None
    kind = _singular(container_key)
    for field in ("id", "code", "name"):
        identity = item.get(field)
        if isinstance(identity, str) and identity:
            return f"{kind} {identity}"
    source, target = item.get("from"), item.get("to")
    if isinstance(source, str) and isinstance(target, str):
        return f"{kind} {source} -> {target}"
    if isinstance(source, str):
        return f"{kind} from {source}"
    if isinstance(target, str):
        return f"{kind} to {target}"
    return None


def _describe(root_name: str, value: Any, tokens: Sequence[str]) -> tuple[str, str]:
    """``(thing, field)``: the innermost named item on the way to ``tokens`` and the path below it."""
    thing = root_name
    if isinstance(value, dict):
        identity = next(
            (value[k] for k in ("id", "name") if isinstance(value.get(k), str) and value[k]), None
        )
        if identity is not None:
            thing = f"{root_name} {identity}"
    field: list[str] = []  # ".name" and "[index]" segments below ``thing``
    current: Any = value
    parent_key = ""
    for token in tokens:
        if isinstance(current, list) and token.isdigit() and int(token) < len(current):
            current = current[int(token)]
            named = _item_name(parent_key, current)
            if named is not None:
                thing, field = named, []
            else:
                field.append(f"[{token}]")
            continue
        current = current.get(token) if isinstance(current, dict) else None
        field.append(f".{token}")
        parent_key = token
    text = "".join(field).removeprefix(".")
    if len(text) > _LONGEST_FIELD:  # a very deep pointer: its end says most (the detail keeps it whole)
        text = "…" + text[-_LONGEST_FIELD:]
    return thing, text


#: What :func:`pointer_target` gives for a pointer that leads nowhere.
NOWHERE = object()


def pointer_target(node: Any, tokens: Sequence[str]) -> Any:
    """The value that the JSON Pointer tokens (still ``%``- and ``~``-escaped) lead to, or :data:`NOWHERE`."""
    for raw in tokens:
        token = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return NOWHERE
    return node


def _schema_at(schema: Any, schema_path: str) -> Any:
    """The schema object at ``#/…`` in ``schema``, or None."""
    fragment = schema_path.partition("#")[2]
    node = pointer_target(schema, fragment.split("/")[1:] if fragment else [])
    return None if node is NOWHERE else node


def _condition(schema: Any, schema_path: str) -> str:
    """`` when kind is "action"`` for a violation inside an ``if``/``then``/``else``, else an empty string."""
    parts = schema_path.split("/")
    for index in range(len(parts) - 1, 0, -1):
        if parts[index] not in ("then", "else"):
            continue
        holder = _schema_at(schema, "/".join(parts[:index]))
        condition = holder.get("if") if isinstance(holder, dict) else None
        if not isinstance(condition, dict):
            return ""
        negate = parts[index] == "else"
        properties = condition.get("properties")
        if isinstance(properties, dict) and len(properties) == 1:
            ((name, rule),) = properties.items()
            if isinstance(rule, dict) and "const" in rule:
                return f" when {name} is {'not ' if negate else ''}{_short(rule['const'])}"
        required = condition.get("required")
        if isinstance(required, list) and len(required) == 1 and not properties:
            return f" when {required[0]} is {'absent' if negate else 'given'}"
        return ""
    return ""


def _where(thing: str, field: str) -> str:
    return f"{thing}, {field}" if field else thing


def _subject(thing: str, field: str) -> str:
    """``node draft: kind`` for a value's problem, ``node draft`` for the item's own."""
    return f"{thing}: {field}" if field else thing


def _names(indexes: dict[str, CloseNames], key: str, names: Sequence[str]) -> CloseNames:
    """The suggestion index of ``names`` (a schema's at ``key``), built once per explanation."""
    found = indexes.get(key)
    if found is None:
        found = indexes[key] = CloseNames(names)
    return found


def _message(
    keyword: str,
    violation: Any,
    value: Any,
    thing: str,
    field: str,
    schema: Any,
    indexes: dict[str, CloseNames],
) -> str:
    params: Mapping[str, Any] = violation.params
    where = _where(thing, field)
    subject = _subject(thing, field)
    if keyword == "additionalProperties":
        name = str(params.get("additionalProperty"))
        owner_path = violation.schema_path.rsplit("/", 1)[0]
        owner = _schema_at(schema, owner_path)
        allowed = list(owner.get("properties", {})) if isinstance(owner, dict) else []
        hint = did_you_mean(name, _names(indexes, owner_path, allowed), quote='"')
        text = f'{where}: unknown property "{name}"{hint}'
        if not hint and allowed:
            text += f"; allowed: {listing(allowed, 20)}"
        return text
    if keyword == "required":
        missing = params.get("missingProperty")
        return f'{where}: missing required property "{missing}"{_condition(schema, violation.schema_path)}'
    if keyword == "enum":
        allowed = params.get("allowedValues") or []
        choices = [item for item in allowed if isinstance(item, str)]
        hint = (
            did_you_mean(value, _names(indexes, violation.schema_path, choices), quote='"')
            if isinstance(value, str)
            else ""
        )
        shown = ", ".join(_short(item) if not isinstance(item, str) else item for item in allowed)
        return f"{subject} is {_short(value)}; expected one of {shown}{hint}"
    if keyword == "const":
        return f"{subject} is {_short(value)}; expected {_short(params.get('allowedValue'))}"
    if keyword == "type":
        expected = params.get("type")
        names = " or ".join(expected) if isinstance(expected, list) else str(expected)
        return f"{subject} is {json_type(value, integers=True)} {_short(value)}; expected {names}"
    if keyword == "pattern":
        rule = _schema_at(schema, violation.schema_path.rsplit("/", 1)[0])
        described = rule.get("description") if isinstance(rule, dict) else None
        if isinstance(described, str) and described:
            return f"{subject} is {_short(value)}; expected {described[0].lower()}{described[1:].rstrip('.')}"
        return f"{subject} is {_short(value)}, which does not match {params.get('pattern')}"
    if keyword == "not":
        negated = _schema_at(schema, violation.schema_path)
        condition = _condition(schema, violation.schema_path)
        if negated == {} and field:
            owner, _, name = field.rpartition(".")
            return f'{_where(thing, owner)}: "{name}" is not allowed{condition}'
        if (
            isinstance(negated, dict)
            and list(negated) == ["required"]
            and isinstance(negated["required"], list)
        ):
            names = ", ".join(f'"{n}"' for n in negated["required"])
            return f"{where}: {names} is not allowed{condition}"
        return f"{where}: {violation.message}{condition}"
    limit = params.get("limit")
    if keyword in ("minItems", "maxItems") and isinstance(value, (list, tuple)):
        bound = "at least" if keyword == "minItems" else "at most"
        return f"{subject} has {len(value)} item{'s' if len(value) != 1 else ''}; expected {bound} {limit}"
    if keyword in ("minLength", "maxLength") and isinstance(value, str):
        bound = "at least" if keyword == "minLength" else "at most"
        return f"{subject} is {len(value)} characters long; expected {bound} {limit}"
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return f"{subject} is {_short(value)}; expected {params.get('comparison')} {limit}"
    if keyword == "uniqueItems" and isinstance(value, (list, tuple)):
        first, second = params.get("j"), params.get("i")
        repeated = value[second] if isinstance(second, int) and second < len(value) else None
        return f"{subject} lists {_short(repeated)} twice (items {first} and {second})"
    if keyword in ("oneOf", "anyOf"):
        inner = _named_member(schema, violation.schema_path, value, indexes)
        if inner is not None:
            key, names = inner
            return f"{subject}.{key} is {_short(value[key])}; expected {names}"
        alternatives = _choices(schema, violation.schema_path, value, indexes)
        if alternatives is not None:
            return f"{subject} is {_short(value)}; expected {alternatives}"
        if keyword == "oneOf":
            return f"{subject} matches none of the allowed shapes (or more than one)"
        return f"{subject} matches none of the allowed shapes"
    return f"{where}: {violation.message}{_condition(schema, violation.schema_path)}"


def _resolved(schema: Any, branch: Any) -> Any:
    """A ``oneOf``/``anyOf`` branch with its local ``$ref`` (``#/definitions/…``) followed, a few steps at most."""
    for _ in range(8):
        ref = branch.get("$ref") if isinstance(branch, dict) else None
        if not isinstance(ref, str) or not ref.startswith("#"):
            break
        branch = _schema_at(schema, ref)
    return branch


def _choices(schema: Any, schema_path: str, value: Any, indexes: dict[str, CloseNames]) -> str | None:
    """``one of a, b, c, or an object with x, y (did you mean "a"?)`` for alternatives that list names, or None.

    Only when a branch is an ``enum`` of strings: a bad name then reads as the
    names there are, and the other branches as the shapes they take.
    """
    branches = _schema_at(schema, schema_path)
    if not isinstance(branches, list):
        return None
    names: list[str] = []
    shapes: list[str] = []
    for branch in (_resolved(schema, item) for item in branches):
        if not isinstance(branch, dict):
            return None
        enum = branch.get("enum")
        if isinstance(enum, list) and enum and all(isinstance(item, str) for item in enum):
            names.extend(item for item in enum if item not in names)
        elif branch.get("type") == "object" and isinstance(branch.get("required"), list):
            shapes.append("an object with " + ", ".join(str(name) for name in branch["required"]))
        elif isinstance(branch.get("type"), str):
            shapes.append(str(branch["type"]))
        else:
            return None
    if not names:
        return None
    text = "one of " + ", ".join(names) + "".join(f", or {shape}" for shape in shapes)
    hint = (
        did_you_mean(value, _names(indexes, schema_path, names), quote='"') if isinstance(value, str) else ""
    )
    return text + hint


def _named_member(
    schema: Any, schema_path: str, value: Any, indexes: dict[str, CloseNames]
) -> tuple[str, str] | None:
    """``(key, "one of a, b")`` when ``value`` is an object whose ``key`` is no name its object branch allows."""
    branches = _schema_at(schema, schema_path)
    if not isinstance(value, dict) or not isinstance(branches, list):
        return None
    for branch in (_resolved(schema, item) for item in branches):
        properties = branch.get("properties") if isinstance(branch, dict) else None
        if not isinstance(properties, dict):
            continue
        for key, rule in properties.items():
            enum = _resolved(schema, rule)
            names = enum.get("enum") if isinstance(enum, dict) else None
            if (
                key in value
                and isinstance(names, list)
                and all(isinstance(name, str) for name in names)
                and value[key] not in names
            ):
                known = _names(indexes, f"enum {id(names)}", names)  # the schema's list: one per place
                hint = did_you_mean(value[key], known, quote='"') if isinstance(value[key], str) else ""
                return key, "one of " + ", ".join(names) + hint
    return None


def _folded(violations: Sequence[Any]) -> list[Any]:
    """Drop ``if`` violations whose branch reported its own, and exact repeats (linear in the violations).

    The collector reports an ``if`` only when its ``then``/``else`` branch failed,
    and reports that branch's own violations beside it; so an ``if`` adds nothing
    when a violation lies inside its branch at the same or a deeper pointer.
    """
    inside: set[tuple[str, str]] = set()  # (branch schema path prefix, instance pointer) reported
    for violation in violations:
        if violation.keyword == "if":
            continue
        path = violation.schema_path
        for marker in ("/then/", "/else/"):
            start = path.find(marker)
            while start >= 0:
                pointer = violation.instance_path
                branch = path[: start + len(marker)]
                while True:  # the pointer and each of its ancestors
                    inside.add((branch, pointer))
                    if not pointer:
                        break
                    pointer = pointer.rpartition("/")[0]
                start = path.find(marker, start + 1)
    kept: list[Any] = []
    seen: set[tuple[str, str, str]] = set()
    for violation in violations:
        if violation.keyword == "if":
            branch = f"{violation.schema_path[: -len('/if')]}/{violation.params.get('failingKeyword')}/"
            if (branch, violation.instance_path) in inside:
                continue
        key = (violation.keyword, violation.instance_path, _params_text(violation.params))
        if key in seen:
            continue
        seen.add(key)
        kept.append(violation)
    return kept


def _params_text(params: Any) -> str:
    """The text that tells two violations' params apart (written without recursion when they nest deeply)."""
    try:
        return json.dumps(params, sort_keys=True, default=str)
    except (RecursionError, ValueError, TypeError):
        from .._core.plain import json_text

        try:
            return json_text(params)
        except TypeError:
            return repr(type(params))


def _value_at(value: Any, tokens: Sequence[str]) -> Any:
    current = value
    for token in tokens:
        if isinstance(current, dict):
            current = current.get(token)
        elif isinstance(current, list) and token.isdigit() and int(token) < len(current):
            current = current[int(token)]
        else:
            return None
    return current


def explain(
    violations: Sequence[Any],
    value: Any,
    path: str,
    *,
    schema: Any,
    root_name: str,
    source: str | None = None,
    display: str | None = None,
) -> list[Diagnostic]:
    """One diagnostic per (folded) violation of ``value``, the document at ``path``.

    ``schema`` is the schema document the violations' schema paths point into;
    ``root_name`` names the document in messages (``graph``, ``action``...).
    With ``source`` (the document's text), messages start with
    ``display:line:column`` (``display`` defaults to ``path``).
    """
    kept = _folded(violations)
    positions: dict[str, tuple[int, int, int, int]] = {}
    wanted: list[str] = []
    for violation in kept:
        pointer = violation.instance_path
        if violation.keyword == "additionalProperties":
            name = str(violation.params.get("additionalProperty"))
            pointer = f"{pointer}/{name.replace('~', '~0').replace('/', '~1')}"
        wanted.append(pointer)
    if source is not None and len(source) <= MAX_LOCATED_TEXT and wanted:
        from .yaml_events import locate_pointers

        positions = locate_pointers(source, set(wanted))
    label = display or path
    diagnostics: list[Diagnostic] = []
    indexes: dict[str, CloseNames] = {}
    for violation, pointer in zip(kept, wanted, strict=True):
        tokens = _tokens(violation.instance_path)
        thing, field = _describe(root_name, value, tokens)
        text = _message(violation.keyword, violation, _value_at(value, tokens), thing, field, schema, indexes)
        detail: dict[str, Any] = {
            "schemaPath": violation.schema_path,
            "params": violation.params,
            "pointer": violation.instance_path,
        }
        found = positions.get(pointer)
        if found is not None:
            key_line, key_column, value_line, value_column = found
            use_key = violation.keyword in ("additionalProperties", "not")
            line, column = (key_line, key_column) if use_key else (value_line, value_column)
            detail["line"] = line
            detail["column"] = column
            text = f"{label}:{line}:{column}: {text}"
        diagnostics.append(
            Diagnostic(
                code=f"schema.{violation.keyword}", severity="error", message=text, path=path, detail=detail
            )
        )
    return diagnostics
