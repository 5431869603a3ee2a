"""The evaluation's input made exact: authorities, outcomes and facts as the protocol reads them.

Host values come in as any Mapping, ``str`` subclass or record object; what
leaves here are exact built-in types (behaviour.md §3): authorities de-duplicated
and sorted by code units, outcomes as state key → outcome string (records keep
only ``outcome``), facts as the object given or a plain JSON copy. Anything else
is a coded error (``authorities-invalid``, ``outcome-invalid``,
``json-object-required``, ``json-invalid``). No I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .canonical import utf16_key
from .errors import AgentGraphError, shown
from .facts import MISSING
from .model import expected_outcome
from .plain import plain_json


def normalize_authorities(authorities: Iterable[str] | None) -> list[str]:
    """De-duplicated and sorted by code units, as the reference sorts them (exact ``str`` items)."""
    if authorities is None:
        return []
    if (
        type(authorities) is list
        and all(type(item) is str for item in authorities)
        and "".join(authorities).isascii()  # code units and code points agree
    ):
        return sorted(set(authorities))
    if isinstance(authorities, (str, bytes)) or not isinstance(authorities, Iterable):
        raise AgentGraphError("authorities-invalid", "authorities must be a list of strings")
    unique = set()
    for item in authorities:
        if not isinstance(item, str):
            raise AgentGraphError("authorities-invalid", f"Authority must be a string: {shown(item)}")
        unique.add(item if type(item) is str else str.__str__(item))
    return sorted(unique, key=utf16_key)


def _outcome_string(key: Any, value: Any) -> str:
    if not isinstance(value, str):
        raise AgentGraphError(
            "outcome-invalid",
            f"Outcome for {shown(key)} is invalid: {shown(value)}; {expected_outcome(value)}",
        )
    return value if type(value) is str else str.__str__(value)


def _record_outcome(record: Mapping[Any, Any]) -> Any:
    """The ``outcome`` of a record object, read from its stored items (a key of a ``str`` subclass counts by its text)."""
    if type(record) is dict:
        return record.get("outcome", MISSING)
    found: Any = MISSING
    for key, value in dict.items(record) if isinstance(record, dict) else list(record.items()):
        if isinstance(key, str) and str.__str__(key) == "outcome":
            found = value
    return found


def normalize_outcomes(outcomes: Mapping[str, Any] | None) -> dict[str, Any]:
    """State key → outcome string; records ``{outcome, recordedAt, detail?}`` keep only ``outcome``.

    Keys and outcomes come out as exact ``str`` (a subclass is copied through
    ``str.__str__``, so its own ``__eq__`` or ``__hash__`` never takes part);
    a key that is not a string is ``json-invalid``.
    """
    if outcomes is None:
        return {}
    if type(outcomes) is not dict and not isinstance(outcomes, Mapping):
        raise AgentGraphError("json-object-required", "outcomes must be a JSON object")
    result: dict[str, Any] = {}
    items = dict.items(outcomes) if isinstance(outcomes, dict) else outcomes.items()
    for key, value in items:
        if type(key) is not str:
            if not isinstance(key, str):
                raise AgentGraphError("json-invalid", f"Outcome keys must be strings, not {shown(key)}")
            key = str.__str__(key)
        kind = type(value)
        if kind is str:
            result[key] = value
        elif kind is dict:
            recorded = value.get("outcome", MISSING)
            if recorded is not MISSING:
                result[key] = recorded if type(recorded) is str else _outcome_string(key, recorded)
        elif isinstance(value, str):
            result[key] = str.__str__(value)
        elif isinstance(value, Mapping):
            recorded = _record_outcome(value)
            if recorded is not MISSING:
                result[key] = _outcome_string(key, recorded)
        else:
            outcome = getattr(value, "outcome", MISSING)
            if outcome is MISSING:
                raise AgentGraphError(
                    "outcome-invalid",
                    f"Outcome for {shown(key)} is invalid: {shown(value)}; {expected_outcome(value)}",
                )
            result[key] = _outcome_string(key, outcome)
    return result


def normalize_facts(facts: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """The Facts object as given (a Mapping that is not a dict is copied once); see :func:`plain_facts`."""
    if facts is None:
        return {}
    if type(facts) is dict:
        return facts
    if not isinstance(facts, Mapping):
        raise AgentGraphError("json-object-required", "facts must be a JSON object")
    if isinstance(facts, dict):
        return facts
    return dict(facts.items())


def plain_facts(facts: Mapping[str, Any]) -> dict[str, Any]:
    """Facts as plain JSON (``json-invalid`` otherwise): exact built-in types, any depth up to a million levels."""
    plain: dict[str, Any] = plain_json(facts, "Facts", too_deep="json-invalid")
    return plain
