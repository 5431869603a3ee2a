"""JSON Schema validation of every Agent Graph v1 object, with one diagnostic per violation.

What lives here:

* the names and locations of the shipped draft-07 schemas (``schemas/<name>.schema.json`` at the
  top of the repository, package data of this layer in a wheel);
* :func:`validate`, which runs the ahead-of-time generated validators of
  ``agent_graph._syntax.validators`` (a fast, first-failure check) and, only when that
  check fails, walks the value again with the collector of :mod:`.violations`,
  which lists every violation in the style of ajv's ``allErrors`` output;
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
import functools
import importlib.resources
import json
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._core.errors import AgentGraphError, Diagnostic
from .patterns import ecma_regex
from .regex import PatternError, compile_pattern
from .violations import SchemaViolation, canonical_text, collect_violations, pointer_token

if TYPE_CHECKING:
    from importlib.abc import Traversable  # (importlib.resources.abc from Python 3.11 on)

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


@functools.cache
def _schemas() -> Traversable:
    """The folder of the shipped schemas, the one source of which is the repository's top-level ``schemas/``.

    An installed wheel holds them as package data of this layer
    (``agent_graph/_syntax/schemas``, mapped there when the wheel is built);
    an editable install or a checkout on ``PYTHONPATH`` has no such folder and
    reads the checkout's ``schemas/`` beside the package instead.
    """
    packaged = importlib.resources.files(_PACKAGE).joinpath("schemas")
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "schemas"
    if checkout.is_dir():
        return checkout
    raise AgentGraphError(
        "schema-document-invalid",
        f"The shipped JSON Schemas are missing: neither {_PACKAGE}/schemas nor {checkout} is a folder "
        "(reinstall agent-graph)",
    )


def schema_root() -> Path:
    """The folder holding the shipped schemas (package data, or the checkout's ``schemas/``)."""
    with importlib.resources.as_file(_schemas()) as path:
        return Path(path)


def schema_path(name: str) -> Path:
    """The path of the shipped ``<name>.schema.json`` file.

    Raises ``AgentGraphError("schema-type-unknown")`` for a name not in :data:`SCHEMA_NAMES`.
    """
    _check_name(name)
    with importlib.resources.as_file(_schemas().joinpath(f"{name}.schema.json")) as path:
        return Path(path)


def _schema_text(name: str) -> str:
    """The text of a shipped schema (wheel, zip, editable install or checkout alike)."""
    return _schemas().joinpath(f"{name}.schema.json").read_text(encoding="utf-8")


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
    pointer = "".join("/" + pointer_token(token) for token in tokens)
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
    from .schema_failure import JsonSchemaValueException

    validators: Mapping[str, Callable[..., object]] = _validators.VALIDATORS
    return validators[name], JsonSchemaValueException


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
        return canonical_text(schema)
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
