"""Close-name suggestions ("did you mean …?") in bounded work per lookup, whatever the input.

Every suggestion of the library — an unknown fact path in lint, a state key
naming no node, a misspelt Graph, entry, file, rule or property — asks the
same question: which known names are closest to this word? ``difflib``
answers it by comparing the word with every candidate, so ``m`` unknown words
among ``n`` names cost ``m × n`` comparisons (2,000 by 2,000 fact paths took
minutes). :class:`CloseNames` answers it in work that does not grow with
``n``:

* A set of at most :data:`SMALL` names is compared whole, exactly as
  ``difflib.get_close_matches`` does.
* A larger set is indexed once (linear in its text): each name by its
  character triples, its start and end marked. A lookup visits the posting
  lists of the word's triples, rarest first, at most :data:`BUDGET` entries
  in all; of the names sharing the most triples (and whose length allows the
  cutoff at all), :data:`SHORTLIST` pass ``difflib``'s quick bounds and at
  most :data:`SCORED` get its full ratio, best bound first. A name close
  enough to be suggested shares most of its triples with the word, so it ranks
  high; only input made to defeat the index (thousands of names alike in all
  their triples) can hide one, and then the lookup still ends within its
  budget.
* Names and words longer than :data:`LONGEST` characters take no part: a
  comparison's cost grows with the product of the lengths.

Per lookup: at most ``BUDGET`` posting entries, ``SHORTLIST`` names compared
and ``SCORED`` full ratios (``visited``, ``compared`` and ``scored`` count
them), so ``m`` lookups among ``n`` names cost ``O(n + m)``. Pure and deterministic: ties are broken as
``difflib`` breaks them (the greater name first).
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Iterable
from difflib import SequenceMatcher

__all__ = ["BUDGET", "LONGEST", "SCORED", "SHORTLIST", "SMALL", "CloseNames", "close_names"]

#: A set of names this small is compared whole, as ``difflib`` does.
SMALL = 64
#: Posting-list entries one lookup visits at most.
BUDGET = 2048
#: Names of a large set one lookup compares with the word at most (``difflib``'s quick bounds).
SHORTLIST = 32
#: Of those, the names whose full ``difflib`` ratio one lookup computes at most (the costly part).
SCORED = 8
#: Names and words longer than this take no part in suggestions.
LONGEST = 256

_EDGE = "\x00"  # marks a name's start and end, so that its first and last characters make triples


def _grams(name: str) -> set[str]:
    """The character triples of ``name``, its start and end marked (so that short names have some)."""
    marked = f"{_EDGE}{_EDGE}{name}{_EDGE}{_EDGE}"
    return {marked[index : index + 3] for index in range(len(marked) - 2)}


class CloseNames:
    """The names closest to a word, among fixed candidates: build once, look up many times.

    ``closest(word, n, cutoff)`` answers what ``difflib.get_close_matches``
    answers for a set of at most :data:`SMALL` names, and for a larger set the
    best of a shortlist found through an index (see the module). Candidates
    that are not strings, repeats and names over :data:`LONGEST` characters
    are left out; order is kept.
    """

    __slots__ = ("_lowered", "_names", "_postings", "compared", "scored", "visited")

    def __init__(self, names: Iterable[str]) -> None:
        self._names: list[str] = list(
            dict.fromkeys(name for name in names if isinstance(name, str) and len(name) <= LONGEST)
        )
        self._lowered: dict[str, str] | None = None
        self._postings: dict[str, list[int]] | None = None
        #: Names compared with a word so far (each at least ``difflib``'s quick bounds).
        self.compared = 0
        #: Of those, the names whose full ratio was computed (the costly part).
        self.scored = 0
        #: Posting-list entries visited so far.
        self.visited = 0
        if len(self._names) > SMALL:
            postings: dict[str, list[int]] = {}
            for index, name in enumerate(self._names):
                for gram in _grams(name):
                    postings.setdefault(gram, []).append(index)
            self._postings = postings

    def __len__(self) -> int:
        return len(self._names)

    def closest(self, word: str, n: int = 1, cutoff: float = 0.6) -> list[str]:
        """Up to ``n`` names scoring at least ``cutoff`` against ``word`` (``difflib``'s ratio), best first."""
        if not isinstance(word, str) or len(word) > LONGEST or not self._names or n < 1:
            return []
        small = self._postings is None
        candidates = self._names if small else self._shortlist(word, cutoff)
        limit = len(candidates) if small else SCORED
        matcher = SequenceMatcher()
        matcher.set_seq2(word)
        bounded: list[tuple[float, str]] = []  # quick_ratio bounds ratio from above
        for name in candidates:
            self.compared += 1
            matcher.set_seq1(name)
            if matcher.real_quick_ratio() >= cutoff:
                bound = matcher.quick_ratio()
                if bound >= cutoff:
                    bounded.append((bound, name))
        bounded.sort(key=lambda item: item[0], reverse=True)  # stable: the shortlist's order among equals
        best: list[tuple[float, str]] = []  # a heap of the n best (ratio, name), as difflib ranks them
        for bound, name in bounded[:limit]:
            if len(best) == n and bound < best[0][0]:
                break  # no name left can beat the n found: their ratios are at most their bounds
            matcher.set_seq1(name)
            self.scored += 1
            score = matcher.ratio()
            if score < cutoff:
                continue
            if len(best) < n:
                heapq.heappush(best, (score, name))
            elif (score, name) > best[0]:
                heapq.heapreplace(best, (score, name))
        return [name for _, name in sorted(best, reverse=True)]

    def same_but_case(self, word: str) -> str | None:
        """The name equal to ``word`` but for letter case, if there is one (the first)."""
        if not isinstance(word, str):
            return None
        if self._lowered is None:
            lowered: dict[str, str] = {}
            for name in self._names:
                lowered.setdefault(name.lower(), name)
            self._lowered = lowered
        return self._lowered.get(word.lower())

    def _shortlist(self, word: str, cutoff: float) -> list[str]:
        """The names sharing the most character triples with ``word``, within the budget."""
        postings = self._postings
        assert postings is not None
        lists = sorted((postings.get(gram, ()) for gram in _grams(word)), key=len)
        shared: Counter[int] = Counter()
        budget = BUDGET
        for entries in lists:
            if budget <= 0:
                break
            taken = entries if len(entries) <= budget else entries[:budget]
            budget -= len(taken)
            shared.update(taken)
        self.visited += BUDGET - budget
        size = len(word)
        names = self._names
        chosen: list[str] = []
        for index, _ in shared.most_common():
            length = len(names[index])
            # ratio ≤ 2·min(a, b) / (a + b): a name whose length alone keeps it under the cutoff is no candidate.
            if 2 * min(size, length) >= cutoff * (size + length):
                chosen.append(names[index])
                if len(chosen) == SHORTLIST:
                    break
        return chosen


def close_names(word: str, names: Iterable[str], n: int = 1, cutoff: float = 0.6) -> list[str]:
    """One lookup: the up to ``n`` names closest to ``word`` (see :class:`CloseNames`), else the same name in other case."""
    index = CloseNames(names)
    found = index.closest(word, n, cutoff)
    if not found:
        same = index.same_but_case(word)
        found = [same] if same is not None else []
    return found
