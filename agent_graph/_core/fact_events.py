"""Facts events: what a change does to a Run's Facts, and the values its event records.

One definition serves the writer and the reader: every Run store writes a
Facts change through :mod:`agent_graph._runtime.run_changes` (the detail built
here), and :mod:`agent_graph._core.replay` applies the recorded values back,
event by event, with the same merge.

The ``detail`` of an event (the Run schema leaves it open) records, beside the
``keys`` the reference toolchain writes:

* ``run.started``: ``{facts, authorities}``, the state the Run started with;
* ``facts.updated``, a shallow merge: ``{keys, set}``, the top-level values
  that changed (a key given with its current value is listed in ``keys`` only);
* ``facts.updated``, a deep merge: ``{keys, merge}``, the part of the given
  object that changed something (:func:`merge_delta`), which :func:`deep_merge`
  applies exactly to the Facts before the event;
* ``facts.replaced``: ``{keys, set}``, the whole new Facts.

A value is recorded only when the detail stays within the nesting a Run file
is read back with; otherwise the event keeps ``{keys}`` alone, as an event of
the reference toolchain does, and a replay is inexact there. Every function
here is iterative (no recursion on the values' depth) and costs time linear in
the change, not in the Facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NamedTuple

__all__ = [
    "FactsChange",
    "deep_merge",
    "facts_change_of",
    "merge_delta",
    "same_json",
    "set_delta",
]

_MISSING: Any = object()


def deep_merge(base: Mapping[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    """``update`` merged over ``base``: nested objects merge key by key, anything else replaces.

    Neither argument is changed; merged objects are new dicts. Walks with an
    explicit stack, so deeply nested Facts cannot exhaust the interpreter stack.
    """
    result = dict(base)
    stack: list[tuple[dict[str, Any], Mapping[str, Any]]] = [(result, update)]
    while stack:
        target, changes = stack.pop()
        for key, value in changes.items():
            current = target.get(key)
            if isinstance(value, Mapping) and isinstance(current, Mapping):
                merged = dict(current)
                target[key] = merged
                stack.append((merged, value))
            else:
                target[key] = value
    return result


def same_json(left: Any, right: Any) -> bool:
    """Whether two plain JSON values are the same value: objects regardless of key order, numbers by value,
    ``true`` never ``1``. Stops at the first difference."""
    stack = [(left, right)]
    while stack:
        a, b = stack.pop()
        kind_a, kind_b = type(a), type(b)
        if kind_a is dict:
            if kind_b is not dict or len(a) != len(b):
                return False
            for key, value in a.items():
                other = b.get(key, _MISSING)
                if other is _MISSING:
                    return False
                stack.append((value, other))
        elif kind_a is list:
            if kind_b is not list or len(a) != len(b):
                return False
            stack.extend(zip(a, b, strict=True))
        elif kind_a is bool or kind_b is bool or kind_a is str or kind_b is str or a is None or b is None:
            if kind_a is not kind_b or a != b:
                return False
        elif not (kind_a in (int, float) and kind_b in (int, float) and a == b):
            return False
    return True


def set_delta(base: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """The top-level values of ``given`` that a shallow merge changes in ``base``."""
    return {
        key: value
        for key, value in given.items()
        if (current := base.get(key, _MISSING)) is _MISSING or not same_json(current, value)
    }


def merge_delta(base: Mapping[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
    """The part of ``update`` that a :func:`deep_merge` over ``base`` changes something with.

    ``deep_merge(base, merge_delta(base, update)) == deep_merge(base, update)``:
    a leaf equal to the one it would replace is left out, and so is an object
    merged over an object that it leaves as it was.
    """
    result: dict[str, Any] = {}
    made: list[tuple[dict[str, Any], str, dict[str, Any]]] = []  # (parent, key, child) in the order made
    stack: list[tuple[Any, Mapping[str, Any], dict[str, Any]]] = [(base, update, result)]
    while stack:
        current, changes, out = stack.pop()
        for key, value in changes.items():
            old = current.get(key, _MISSING) if isinstance(current, Mapping) else _MISSING
            if isinstance(value, Mapping) and isinstance(old, Mapping):
                child: dict[str, Any] = {}
                out[key] = child
                made.append((out, key, child))
                stack.append((old, value, child))
            elif old is _MISSING or not same_json(old, value):
                out[key] = value
    for parent, key, child in reversed(made):  # children were made after their parents
        if not child:
            del parent[key]
    return result


class FactsChange(NamedTuple):
    """What one event does to the Facts, read from its type and detail.

    ``mode``: ``start`` (the Run's first Facts), ``set`` (top-level keys
    assigned), ``merge`` (a deep merge) or ``replace`` (the whole Facts).
    ``keys``: the top-level keys the event names (None when its detail does not
    say). ``values``: what it records (``set``/``merge``/``replace``: the
    object; ``start``: the Facts), or None when it records no values.
    """

    mode: Literal["start", "set", "merge", "replace"]
    keys: tuple[str, ...] | None
    values: dict[str, Any] | None


def _object(detail: Mapping[str, Any], name: str) -> dict[str, Any] | None:
    value = detail.get(name)
    return value if type(value) is dict else None


def facts_change_of(type_: str, detail: Any) -> FactsChange | None:
    """The Facts change of an event of type ``type_`` with ``detail`` (None: the event leaves the Facts).

    A ``facts.updated`` whose detail names no readable keys may have changed
    anything: it reads as a replacement that records nothing. A ``run.forked``
    changes the Facts only when it names keys (the fork was given its own).
    """
    readable = detail if isinstance(detail, Mapping) else {}
    raw_keys = readable.get("keys")
    keys = (
        tuple(raw_keys) if isinstance(raw_keys, list) and all(isinstance(k, str) for k in raw_keys) else None
    )
    if type_ == "run.started":
        return FactsChange("start", None, _object(readable, "facts"))
    if type_ == "facts.updated":
        if keys is None:
            return FactsChange("replace", None, None)
        merged = _object(readable, "merge")
        if merged is not None:
            return FactsChange("merge", keys, merged)
        return FactsChange("set", keys, _object(readable, "set"))
    if type_ == "facts.replaced" or (type_ == "run.forked" and keys is not None):
        return FactsChange("replace", keys, _object(readable, "set"))
    return None
