"""Listing a fleet's Runs: statuses as of the last evaluated write, filters, and pages that stay correct.

Run on every store (files, SQLite, PostgreSQL, memory). ``list()`` answers a
:class:`RunPage` (a list, so callers of every Run keep working) ordered by
last update then Run ID; with ``limit``, ``next_cursor`` pages on that key,
and a Run written while a caller pages is never lost nor answered twice
unless its write moved it.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
import agent_graph.types as agt
from tests.fakes import START, FakeClock
from tests.paths import WEEKLY

#: The first timestamp of a store's fake clock here (a second more at each reading).
FIRST = START + timedelta(seconds=1)


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(str(WEEKLY))


@pytest.fixture(params=["files", "sqlite", "postgres", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ag.BaseRunStore]:
    url = {
        "files": str(tmp_path / "runs"),
        "sqlite": f"sqlite:///{tmp_path / 'runs.db'}",
        "memory": "memory://",
    }.get(request.param) or request.getfixturevalue("postgres_url")
    with ag.open_store(url, clock=FakeClock(FIRST)) as opened:
        yield opened


def code_of(call: Any) -> str:
    with pytest.raises(ag.AgentGraphError) as caught:
        call()
    return caught.value.code


def every_page(store: ag.BaseRunStore, limit: int, **filters: Any) -> list[list[str]]:
    pages: list[list[str]] = []
    cursor = None
    while True:
        page = store.list(limit=limit, cursor=cursor, **filters)
        assert len(page) <= limit
        pages.append([summary.id for summary in page])
        cursor = page.next_cursor
        if cursor is None:
            return pages
        assert len(page) == limit  # a page is short only at the end


def test_a_status_is_the_one_of_the_last_write_that_had_the_provider(
    store: ag.BaseRunStore, weekly: ag.Provider
) -> None:
    def status(ref: str) -> str | None:
        (summary,) = [s for s in store.list() if s.id == ref]
        return summary.status

    def now(ref: str) -> str:
        return store.next_step(ref, weekly).evaluation.status_code

    store.start("evaluated", weekly, "report")
    store.start("by-id", "examples/weekly-report", "report")
    assert status("evaluated") == now("evaluated") and status("by-id") is None  # no Provider: not known
    step = store.next_step("evaluated", weekly)
    digest = {"report": {"digest": "sha256:" + "0" * 64}}
    store.record(
        "evaluated", "report/draft", "completed", provider=weekly, revision=step.revision, facts=digest
    )
    assert status("evaluated") == now("evaluated") == "waiting-user"  # the approval Gate waits for the user
    assert [s.id for s in store.list(status="waiting-user")] == ["evaluated"]
    store.record("evaluated", "report/approve", "completed")  # no Provider: the status stands as it was
    assert status("evaluated") == "waiting-user" != now("evaluated")
    store.update_authorities("evaluated", add=["report.publish"], provider=weekly)
    assert status("evaluated") == now("evaluated") != "waiting-user"
    store.record("by-id", "report/draft", "failed", provider=weekly)
    assert status("by-id") == now("by-id")
    assert store.list(status="complete") == []
    assert code_of(lambda: store.list(status="waiting")) == "argument-invalid"


def test_pages_partition_the_listing_in_both_orders(store: ag.BaseRunStore, weekly: ag.Provider) -> None:
    for n in range(7):
        store.start(f"r{n}", weekly, "report", facts={"n": n})
        if n % 2:
            store.update_facts(f"r{n - 1}", {"touched": n})
    everything = [s.id for s in store.list()]
    assert everything == [f"r{n}" for n in range(7)]  # by creation: a write does not move a Run
    for newest_first in (False, True):
        expected = list(reversed(everything)) if newest_first else everything
        assert [s.id for s in store.list(newest_first=newest_first)] == expected
        for limit in range(1, 9):
            pages = every_page(store, limit, newest_first=newest_first)
            assert [ref for page in pages for ref in page] == expected
    assert isinstance(store.list(), list) and store.list(limit=7).next_cursor is None


def test_a_cursor_stays_correct_while_runs_are_written(store: ag.BaseRunStore, weekly: ag.Provider) -> None:
    chance = random.Random(7)
    for n in range(12):
        store.start(f"r{n:02}", weekly, "report")
    before = [s.id for s in store.list()]
    seen: list[str] = []
    written: set[str] = set()
    cursor = None
    while True:
        page = store.list(limit=3, cursor=cursor)
        seen += [s.id for s in page]
        cursor = page.next_cursor
        if cursor is None:
            break
        if len(seen) > 9:
            continue  # writes stop, so the listing ends
        for ref in chance.sample(before, 2):  # Runs already answered and Runs still to come are written
            store.record(ref, "report/draft", "partial")
            written.add(ref)
        store.start(f"new-{len(seen)}", weekly, "report")
    assert written and [ref for ref in seen if ref in before] == before  # each once, in order, written or not
    assert len(seen) == len(set(seen))  # Runs created meanwhile come after the cursor: answered once each
    assert [ref for ref in seen if ref not in before] == sorted(
        (ref for ref in set(seen) if ref not in before), key=lambda ref: (store.head(ref).created_at, ref)
    )


def test_filters_page_alike(store: ag.BaseRunStore, weekly: ag.Provider) -> None:
    for n in range(6):
        store.start(f"w{n}", weekly, "report")
        store.start(f"o{n}", "someone/else", "report")
    mine = [s.id for s in store.list(provider=weekly)]
    assert mine == [f"w{n}" for n in range(6)]
    assert [ref for page in every_page(store, 4, provider=weekly) for ref in page] == mine
    middle = store.head("w3").updated_at
    later = [s.id for s in store.list(updated_after=middle)]
    assert later == ["o3", "w4", "o4", "w5", "o5"]
    assert [ref for page in every_page(store, 2, updated_after=middle) for ref in page] == later
    assert [s.id for s in store.list(updated_before=middle, provider="someone/else", limit=2)] == ["o0", "o1"]


def test_a_cursor_is_checked(store: ag.BaseRunStore, weekly: ag.Provider) -> None:
    for n in range(3):
        store.start(f"r{n}", weekly, "report")
    cursor = store.list(limit=1).next_cursor
    assert cursor is not None
    assert code_of(lambda: store.list(limit=1, cursor=cursor, newest_first=True)) == "argument-invalid"
    for bad in ("", "not a cursor", "W10", cursor[:-3], 7):
        assert code_of(lambda: store.list(limit=1, cursor=bad)) == "argument-invalid"  # noqa: B023
    for limit in (0, -1, True, 1.5, 100_001):
        assert code_of(lambda: store.list(limit=limit)) == "argument-invalid"  # noqa: B023


def test_a_page_is_a_list_with_its_cursor() -> None:
    summary = agt.RunSummary(
        id="a", ref="a", provider="p", graph="g", entry="default", created_at="t", updated_at="t", events=1
    )
    page = agt.RunPage([summary], "next")
    assert page == [summary] and isinstance(page, list) and page.next_cursor == "next"
    again = pickle.loads(pickle.dumps(page))
    assert again == page and again.next_cursor == "next"
    assert agt.RunPage().next_cursor is None and "next_cursor='next'" in repr(page)
