"""What one Provider remembers between evaluations: bounded, owned, never part of an answer.

A :class:`EvaluationCache` hangs off each loaded :class:`~agent_graph.Provider`
(``provider.cache``); nothing is kept in module globals or in the compiled IR.
It holds two memo tables, each with a bound:

* recent evaluations by ``(graph, revision)`` — the revision digests the whole
  state, so the same revision of the same Provider has the same answer;
* per top-level fact key, the last canonical text seen with a plain copy of the
  value (see :func:`agent_graph._core.revision_text.revision_bytes_fast`): a value
  equal to the copy and encoding to the same text is not walked again.

Rules: an entry only ever saves work, it is checked before use and never
changes an answer; a table that reaches its bound is emptied, not grown. One
Provider may be shared by many threads: every read and write is a single
operation on a ``dict`` (atomic in CPython), entries are immutable tuples, and
two threads that race on a table at worst both compute the same entry, or see
it emptied. No lock is taken on the hot path.
"""

from __future__ import annotations

from typing import Any

__all__ = ["EvaluationCache"]

#: Evaluations remembered per Provider (all graphs together).
EVALUATIONS_REMEMBERED = 64
#: Fact texts longer than this are not remembered.
FACT_TEXT_MAX = 16 * 1024
#: The fact-text table is emptied when its texts add up to more than this.
FACT_TEXTS_BUDGET = 256 * 1024


class EvaluationCache:
    """Bounded memo tables of one Provider (see the module header). ``clear()`` empties them."""

    __slots__ = ("evaluations", "fact_texts", "fact_texts_size")

    def __init__(self) -> None:
        self.evaluations: dict[tuple[str, str], tuple[Any, ...]] = {}
        self.fact_texts: dict[str, tuple[bytes, Any]] = {}
        self.fact_texts_size = 0

    def clear(self) -> None:
        """Forget everything (answers do not change; the next calls are slower)."""
        self.evaluations = {}
        self.fact_texts = {}
        self.fact_texts_size = 0

    def remember_evaluation(self, key: tuple[str, str], value: tuple[Any, ...]) -> None:
        table = self.evaluations
        if len(table) >= EVALUATIONS_REMEMBERED:
            table.clear()
        table[key] = value

    def __repr__(self) -> str:
        return f"<EvaluationCache evaluations={len(self.evaluations)} fact_texts={len(self.fact_texts)}>"
