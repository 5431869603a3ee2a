"""Facts read and checked: the one lookup of a dotted Fact path and the one test of a ``FactTest``.

behaviour.md §5: a path looks only at own keys (and array indices written as
plain decimals), a scalar in the way is absent, and ``equals`` compares JSON
scalars as JavaScript's ``Object.is`` does. The evaluator inlines the common
case (plain dicts along the path, a string or boolean against the same type)
on its hot path; everything else comes here. No I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .ir import ABSENT, EXISTS, FactTest


class _Missing:
    """An absent fact. ``get`` gives itself back, so a chain of ``.get`` calls down a path stays absent."""

    __slots__ = ()

    def get(self, key: object, _default: object = None) -> _Missing:
        return self

    def __repr__(self) -> str:
        return "<missing>"


MISSING: Any = _Missing()
_TWO_53 = 2**53


def _is_index(segment: str) -> bool:
    return segment.isdigit() and segment.isascii() and (segment == "0" or segment[0] != "0")


def lookup_fact(facts: Mapping[str, Any], segments: Sequence[str]) -> Any:
    """The value at a dotted path, or ``MISSING``. Only own keys count; a scalar in the way is absent."""
    current: Any = facts
    for segment in segments:
        kind = type(current)
        if kind is dict or (kind is not list and isinstance(current, Mapping)):
            current = current.get(segment, MISSING)
            if current is MISSING:
                return MISSING
        elif kind is list or isinstance(current, (list, tuple)):
            if not _is_index(segment):
                return MISSING
            position = int(segment)
            if position >= len(current):
                return MISSING
            current = current[position]
        else:
            return MISSING
    return current


def _as_double(value: int | float) -> float | int:
    if isinstance(value, int) and (value > _TWO_53 or value < -_TWO_53):
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    return value


def scalar_equals(left: Any, right: Any) -> bool:
    """Strict equality of JSON scalars as JavaScript's ``Object.is`` sees them.

    Numbers compare by value (``1 == 1.0``) but booleans never equal numbers,
    ``0`` and ``-0`` differ, and NaN equals NaN.
    """
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left is right
    if left is None or right is None:
        return left is None and right is None
    if isinstance(left, str) or isinstance(right, str):
        return isinstance(left, str) and isinstance(right, str) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        a = _as_double(left)
        b = _as_double(right)
        if a != a:  # NaN
            return b != b
        if a == 0 and b == 0:
            return math.copysign(1.0, a) == math.copysign(1.0, b)
        return a == b
    return False


def facts_match(facts: Mapping[str, Any], tests: Sequence[FactTest] | None) -> bool:
    """True when every check passes (an absent list passes).

    Each test looks its path up (:func:`lookup_fact`), then ``exists`` passes
    when a value is there, ``absent`` when none is, and ``equals`` when one is
    and :func:`scalar_equals` holds. Plain dicts along the path, and ``equals``
    between two strings or two booleans, are written out inline (the hot path).
    """
    if tests is None:
        return True
    for test in tests:
        value: Any = facts
        for segment in test.segments:
            if type(value) is dict:
                value = value.get(segment, MISSING)
                if value is MISSING:
                    break
            else:
                value = lookup_fact(value, (segment,))
                if value is MISSING:
                    break
        mode = test.mode
        if mode == EXISTS:
            if value is MISSING:
                return False
        elif mode == ABSENT:
            if value is not MISSING:
                return False
        elif value is MISSING:
            return False
        else:
            expected = test.value
            kind = type(value)
            if kind is type(expected) and (kind is str or kind is bool):
                if value != expected:
                    return False
            elif not scalar_equals(value, expected):
                return False
    return True
