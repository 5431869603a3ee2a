"""The store contract's scenarios of ``list()``: filters, statuses, order, pages and cursors.

Each scenario's docstring is the promise it checks. Scenarios open their
Runs with the contract's clock (a millisecond per call), so times are
distinct and known.
"""

from __future__ import annotations

import functools
from datetime import datetime, timedelta, timezone
from typing import Any

from ._contract_support import StoreFace, code_of

__all__ = ["ListScenarios"]


def _ids(page: Any) -> list[str]:
    return [summary.id for summary in page]


def _pages(face: StoreFace, limit: int, **filters: Any) -> list[list[str]]:
    """Every page of a listing, following ``next_cursor`` (each full but the last)."""
    pages: list[list[str]] = []
    cursor = None
    for _ in range(10_000):
        page = face.list(limit=limit, cursor=cursor, **filters)
        assert len(page) <= limit, "a page holds at most limit Runs"
        pages.append(_ids(page))
        cursor = page.next_cursor
        if cursor is None:
            return pages
        assert len(page) == limit, "a page before the last is full"
    raise AssertionError("the cursors never reach the end of the listing")


class ListScenarios:
    """Scenarios of ``list()`` (fixtures ``face`` and ``provider``)."""

    def test_list_answers_every_run_oldest_first(self, face: StoreFace, provider: Any) -> None:
        """``list()`` answers a summary of every Run, ordered by creation then Run ID, as a list."""
        first = face.start("b-first", provider, "main", facts={"n": 1})
        second = face.start("a-second", provider, "gated")
        face.record(first.id, "main/draft", "partial")
        page = face.list()
        assert isinstance(page, list) and getattr(page, "next_cursor", "none") is None
        assert [(s.id, s.ref, s.events) for s in page] == [  # a write does not move a Run
            ("b-first", "b-first", 2),
            ("a-second", "a-second", 1),
        ]
        summary = page[0]
        head = face.head(first.id)
        assert (summary.provider, summary.graph, summary.entry) == ("contract/provider", "main", "default")
        assert (summary.created_at, summary.updated_at) == (first.created_at, head.updated_at)
        assert _ids(face.list(newest_first=True)) == ["a-second", "b-first"]
        assert second.id == "a-second"

    def test_list_filters_by_provider(self, face: StoreFace, provider: Any) -> None:
        """``list(provider=)`` (a Provider or its ID) answers only that Provider's Runs."""
        face.start("mine", provider, "main")
        face.start("theirs", "someone/else", "main")
        assert _ids(face.list(provider=provider)) == ["mine"]
        assert _ids(face.list(provider="someone/else")) == ["theirs"]
        assert face.list(provider="nobody/at-all") == []

    def test_list_filters_by_graph(self, face: StoreFace, provider: Any) -> None:
        """``list(graph=)`` answers only the Runs of that graph."""
        face.start("m", provider, "main")
        face.start("g", provider, "gated")
        assert _ids(face.list(graph="gated")) == ["g"] and _ids(face.list(graph="main")) == ["m"]
        assert face.list(graph="other") == []
        assert code_of(lambda: face.list(graph=7)) == "argument-invalid"

    def test_list_filters_by_last_update_strictly(self, face: StoreFace, provider: Any) -> None:
        """``updated_after`` / ``updated_before`` (datetimes or Run timestamps) are strict bounds of the last update."""
        for name in ("r1", "r2", "r3", "r4"):
            face.start(name, provider, "main")
        times = {s.id: s.updated_at for s in face.list()}
        assert _ids(face.list(updated_after=times["r2"])) == ["r3", "r4"]
        assert _ids(face.list(updated_before=times["r2"])) == ["r1"]
        assert _ids(face.list(updated_after=times["r1"], updated_before=times["r4"])) == ["r2", "r3"]
        moment = datetime.strptime(times["r3"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
        assert _ids(face.list(updated_before=moment)) == ["r1", "r2"]
        assert _ids(face.list(updated_after=moment - timedelta(microseconds=500))) == ["r3", "r4"]
        assert code_of(lambda: face.list(updated_after=3)) == "argument-invalid"

    def test_list_filters_by_status_as_of_the_last_evaluated_write(
        self, face: StoreFace, provider: Any
    ) -> None:
        """A write with the loaded Provider keeps the Run's status; ``list(status=)`` filters on it."""
        face.start("act", provider, "main")
        face.start("wait", provider, "gated")
        face.start("done", provider, "main")
        face.start("unknown", "contract/provider", "main")  # by ID: not evaluated
        face.record("done", "main/draft", "completed", provider=provider)
        face.record("done", "main/review", "completed", provider=provider)
        face.start("stuck", provider, "main")
        face.record("stuck", "main/draft", "failed", provider=provider)
        statuses = {s.id: s.status for s in face.list()}
        assert statuses == {
            "act": "actionable",
            "wait": "waiting-user",
            "done": "complete",
            "unknown": None,
            "stuck": "blocked",
        }
        assert _ids(face.list(status="waiting-user")) == ["wait"]
        assert _ids(face.list(status="actionable")) == ["act"]
        face.record("act", "main/draft", "failed")  # without the Provider: the status stands
        assert _ids(face.list(status="actionable")) == ["act"]
        face.update_authorities("wait", add=["contract.approve"], provider=provider)
        assert _ids(face.list(status="waiting-user")) == ["wait"]  # the authority does not answer the Gate
        face.update_facts("act", {"x": 1}, provider=provider)
        assert _ids(face.list(status="blocked")) == ["act", "stuck"]
        assert face.list(status="error") == []
        assert code_of(lambda: face.list(status="waiting")) == "argument-invalid"

    def test_list_pages_partition_the_listing_in_both_orders(self, face: StoreFace, provider: Any) -> None:
        """With ``limit``, ``next_cursor`` gives the next page: the pages hold every Run once, in order."""
        for n in range(9):
            face.start(f"r{n}", provider, "main" if n % 3 else "gated")
        face.record("r4", "main/draft", "partial")
        for newest_first in (False, True):
            everything = _ids(face.list(newest_first=newest_first))
            assert len(everything) == 9
            for limit in (1, 2, 4, 8, 9, 10):
                pages = _pages(face, limit, newest_first=newest_first)
                assert [ref for page in pages for ref in page] == everything
        main = _ids(face.list(graph="main"))
        assert [ref for page in _pages(face, 2, graph="main") for ref in page] == main

    def test_a_cursor_stays_correct_while_runs_are_written(self, face: StoreFace, provider: Any) -> None:
        """While Runs are written and created, every Run is answered exactly once, in order, in both orders.

        A Run created while a caller pages comes after the cursor (answered once, at the end) in the
        ascending order and before it (not answered) newest first; a write moves no Run.
        """
        for n in range(10):
            face.start(f"r{n}", provider, "main")
        for newest_first in (False, True):
            before = _ids(face.list(newest_first=newest_first))
            seen: list[str] = []
            created: list[str] = []
            cursor = None
            writes = iter([("r0", "r7"), ("r3", "r9"), ("r1", "r8")])
            while True:
                page = face.list(limit=3, cursor=cursor, newest_first=newest_first)
                seen += _ids(page)
                cursor = page.next_cursor
                if cursor is None:
                    break
                for ref in next(writes, ()):
                    face.record(ref, "main/draft", "partial")
                created.append(f"new-{int(newest_first)}-{len(seen)}")
                face.start(created[-1], provider, "main")
            assert seen == (before if newest_first else before + created)

    def test_list_refuses_arguments_it_cannot_take(self, face: StoreFace, provider: Any) -> None:
        """A bad ``limit``, a cursor no page answered, or one of the other order is ``argument-invalid``."""
        for n in range(3):
            face.start(f"r{n}", provider, "main")
        cursor = face.list(limit=1).next_cursor
        assert cursor is not None
        assert _ids(face.list(limit=1, cursor=cursor)) == ["r1"]
        assert code_of(lambda: face.list(limit=1, cursor=cursor, newest_first=True)) == "argument-invalid"
        for bad in ("", "not a cursor", "W10", cursor[:-2] + "!!", 7):
            assert code_of(functools.partial(face.list, limit=1, cursor=bad)) == "argument-invalid"
        for limit in (0, -1, True, 1.5):
            assert code_of(functools.partial(face.list, limit=limit)) == "argument-invalid"
