"""The evaluation's fast path to a revision text: a state of exact built-in types, written by msgspec.

:func:`revision_bytes_fast` gives the canonical text of an evaluation state
(``{provider, graphId, entry, facts, outcomes, authorities}``, see
:func:`revision_state`) on the fast path; off it, the caller writes the
state with :func:`~.canonical.canonical_bytes_exact`. Top-level fact
objects and arrays found canonical are remembered in the caller's
:class:`~agent_graph._core.cache.EvaluationCache` (bounded), so facts that stay
as they were are not walked again. Off the fast path the canonical writer
(:mod:`agent_graph._core.canonical`) writes the text. No I/O.
"""

from __future__ import annotations

from typing import Any

import msgspec

from .cache import FACT_TEXT_MAX, FACT_TEXTS_BUDGET, EvaluationCache
from .canonical import (
    _KEYS_APART,
    _OFF_FAST_PATH,
    _PLAIN_FLOAT_MAX,
    _PLAIN_FLOAT_MIN,
    _PLAIN_LEAF_TYPES,
    _fast_path_check,
    _keys_sort_canonically,
)
from .js_text import MAX_SAFE_INTEGER as _MAX_SAFE_INTEGER

__all__ = ["revision_bytes_fast", "revision_state"]


def _outcomes_are_canonical(outcomes: dict[Any, Any]) -> bool:
    """Whether a map of outcome strings takes the fast path: exact ``str`` keys and values, keys sorting alike."""
    keys = tuple(outcomes)
    if len(keys) == 1:
        return type(keys[0]) is str and type(outcomes[keys[0]]) is str
    return _keys_sort_canonically(keys) and all(type(item) is str for item in outcomes.values())


#: Per top-level fact key, the last object or array seen under it whose canonical text was found with
#: every key collating apart: ``(text, plain copy decoded from the text)``, the copy ``None`` until the
#: same text is seen a second time (one-off values cost no copy). A value equal to the copy has the
#: copy's shape, so encoding it is bounded (even if it shares objects), and when msgspec then writes the
#: same text the value has that canonical text: facts that stay as they were, from turn to turn or
#: parsed again from JSON, are not walked again. The table belongs to the caller (a Provider's
#: :class:`~agent_graph._core.cache.EvaluationCache`), bounded by its ``FACT_TEXTS_BUDGET``.
_SORTED = msgspec.json.Encoder(order="sorted")
_PLAIN = msgspec.json.Decoder()
_ENCODE_ERRORS = (TypeError, ValueError, UnicodeEncodeError, RecursionError, OverflowError)


def _remembered_fact_text(entry: tuple[bytes, Any], value: dict[str, Any] | list[Any]) -> bytes | None:
    """The text of a fact-text ``entry`` (text, plain copy) if ``value`` has it, else None.

    The value is compared with the remembered plain copy before it is
    encoded: a value shared exponentially (or cyclic) would make msgspec write
    without end, and one equal to the copy has the copy's size.
    """
    try:
        if entry[1] != value:
            return None
        text = _SORTED.encode(value)
    except Exception:  # a foreign object's __eq__, or msgspec refusing: the walk decides
        return None
    return text if text == entry[0] else None  # the same text also tells True from 1.0


def _remember_fact_text(memo: EvaluationCache, key: str, text: bytes) -> None:
    """Keep a text found canonical, keys collating apart, under its top-level fact key (a copy on second sight)."""
    if len(text) > FACT_TEXT_MAX:
        return
    table = memo.fact_texts
    entry = table.get(key)
    if entry is not None and entry[0] == text:
        if entry[1] is None:  # seen twice: worth a copy
            table[key] = (text, _PLAIN.decode(text))
        return
    if entry is not None:
        memo.fact_texts_size -= len(entry[0])
    if memo.fact_texts_size + len(text) > FACT_TEXTS_BUDGET:
        table.clear()
        memo.fact_texts_size = 0
    table[key] = (text, None)
    memo.fact_texts_size += len(text)


def _facts_on_fast_path(
    facts: dict[Any, Any], memo: EvaluationCache
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """``facts`` with each object or array value replaced by its canonical text (``msgspec.Raw``), or None.

    Also gives the facts to check: ``facts`` itself when every value was
    walked (exact built-in types only), else a copy in which a remembered
    value is replaced by the memo's plain copy, which has the very same
    canonical text (so a value of a subclass that compares equal never
    reaches the checks). Objects and arrays not remembered from an earlier
    call are walked together, once, before any of them is encoded.
    """
    keys = tuple(facts)
    if len(keys) > 1:
        if not _keys_sort_canonically(keys):
            return None
    elif keys and type(keys[0]) is not str:
        return None
    plain = _PLAIN_LEAF_TYPES
    raw = msgspec.Raw
    texts = memo.fact_texts
    result: dict[str, Any] = {}
    copies: dict[str, Any] | None = None
    unknown: list[tuple[str, Any]] = []
    for key, value in facts.items():
        kind = type(value)
        if kind is dict or kind is list:
            entry = texts.get(key)
            copy = entry[1] if entry is not None else None
            # The copy comes from the entry that was checked: another thread may replace or
            # empty the table meanwhile, and a second look-up could find another value or none.
            text = _remembered_fact_text(entry, value) if entry is not None and copy is not None else None
            if text is None:
                unknown.append((key, value))
            else:
                result[key] = raw(text)
                if copies is None:
                    copies = {}
                copies[key] = copy
        elif kind in plain:
            result[key] = value
        elif kind is int:
            if not -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER:
                return None
            result[key] = value
        elif kind is float:
            if value.is_integer() or not _PLAIN_FLOAT_MIN <= abs(value) < _PLAIN_FLOAT_MAX:
                return None
            result[key] = value
        else:
            return None
    if unknown:
        # One walk over them all, bounded (it stops at a container met twice); their keys collate
        # apart together only if each one's do.
        verdict = _fast_path_check([value for _, value in unknown])
        if verdict == _OFF_FAST_PATH:
            return None
        for key, value in unknown:
            try:
                text = _SORTED.encode(value)
            except _ENCODE_ERRORS:  # a lone surrogate
                return None
            if verdict == _KEYS_APART:
                _remember_fact_text(memo, key, text)
            result[key] = raw(text)
    if copies is None:
        return result, facts
    return result, {key: copies.get(key, value) for key, value in facts.items()}


def revision_state(
    provider: str, graph_id: str, entry: Any, facts: Any, outcomes: Any, authorities: Any
) -> dict[str, Any]:
    """The value a revision digests: ``{authorities, entry, facts, graphId, outcomes, provider}`` (in this order,
    which is also their canonical order)."""
    return {
        "authorities": authorities,
        "entry": entry,
        "facts": facts,
        "graphId": graph_id,
        "outcomes": outcomes,
        "provider": provider,
    }


def revision_bytes_fast(
    provider: str,
    graph_id: str,
    entry: Any,
    facts: Any,
    outcomes: Any,
    authorities: Any,
    memo: EvaluationCache,
) -> tuple[bytes, dict[str, Any]] | None:
    """The revision text of a state of exact built-in types, and the facts to check; None off the fast path.

    ``outcomes`` (keys to outcome strings) and ``authorities`` (a list of
    strings) are normalized by the evaluator, so only their own few keys and
    types are looked at before the facts, whose top-level objects and arrays
    are compared with the texts ``memo`` remembers first. The text determines
    the state (see :func:`canonical_bytes_exact`).
    """
    if (
        type(entry) is str
        and type(facts) is dict
        and type(outcomes) is dict
        and type(authorities) is list
        and (not authorities or all(type(item) is str for item in authorities))
        and (not outcomes or _outcomes_are_canonical(outcomes))
    ):
        fast = _facts_on_fast_path(facts, memo)
        if fast is not None:
            state = revision_state(provider, graph_id, entry, fast[0], outcomes, authorities)
            try:  # these six keys sort alike both ways
                return _SORTED.encode(state), fast[1]
            except (UnicodeEncodeError, RecursionError):
                pass
    return None
