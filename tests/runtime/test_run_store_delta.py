"""A write checks only what it changes, and a store re-reads a head it already checked cheaply, never wrongly.

``settle(head, added, where, before)`` checks and reads back only what a change
set anew over ``before``; it must answer exactly what settling the whole head
answers (values, key order, text). A store's memo of checked head texts must
never let a changed row through, nor let a caller's edit of an answer reach the
next one.
"""

from __future__ import annotations

import math
import time
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import agent_graph as ag
from agent_graph._core.model import OUTCOMES
from agent_graph._runtime.run_changes import (
    authorities_change,
    facts_change,
    guarded,
    head_of,
    new_run,
    record_change,
)
from agent_graph._runtime.run_codec import settle
from agent_graph._runtime.run_operations import HeadMemo
from tests.paths import WEEKLY
from tests.raw_sql import Sql

AT = "2026-01-31T09:30:00.000Z"

# Keys and values a reader treats specially: array-index keys go first, big integers become
# doubles, 0.0 reads back as 0, -0 stays, text with escapes and non-ASCII.
keys = st.one_of(
    st.sampled_from(["0", "7", "10", "4294967295", "01", "-1", "a", "b/c", "é", "x y", "\u2028"]),
    st.text(min_size=1, max_size=6),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0.0, -0.0, 1.0, 1e300, 2.5e-8, 2**53 + 1.0, 123456789012345678.0]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)),
    max_leaves=8,
)
nodes = st.one_of(st.sampled_from(["report/draft", "a", "3", "0", "12", "report/send"]), keys)


def change_of(kind: str, node: str, detail: Any, facts: dict[str, Any]) -> Any:
    if kind == "record":
        return record_change(node, OUTCOMES[len(node) % len(OUTCOMES)], detail)
    if kind == "merge":
        return facts_change(facts)
    if kind == "deep":
        return facts_change(facts, deep=True)
    if kind == "replace":
        return facts_change(facts, replace=True)
    return authorities_change(add=[node])


changes = st.tuples(
    st.sampled_from(["record", "record", "merge", "deep", "replace", "authorities"]),
    nodes,
    values,
    st.dictionaries(keys, values, max_size=3),
)


def same(left: Any, right: Any) -> bool:
    """Equal values of equal types, in equal key order, -0.0 told from 0.0."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return list(left) == list(right) and all(same(left[k], right[k]) for k in left)
    if isinstance(left, list | tuple):
        return len(left) == len(right) and all(same(a, b) for a, b in zip(left, right, strict=True))
    if isinstance(left, float):
        return left == right and math.copysign(1, left) == math.copysign(1, right)
    if isinstance(left, msgspec.Struct):
        return same(msgspec.to_builtins(left), msgspec.to_builtins(right))
    return bool(left == right)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(keys, values, max_size=4), st.lists(changes, min_size=1, max_size=6))
def test_settling_a_change_over_the_head_it_started_from_equals_settling_the_whole_head(
    facts: dict[str, Any], steps: list[tuple[str, str, Any, dict[str, Any]]]
) -> None:
    run = new_run("r", "p", "g", "e", AT, workspace=None, facts=facts, authorities=["a"])
    head, _, _, _ = settle(head_of(run), run.events, "r")
    for kind, node, detail, more in steps:
        try:
            change = guarded(None, change_of(kind, node, detail, more))
        except ag.AgentGraphError:
            continue  # refused before any store sees it, alike on both paths
        new, added = change(head, AT)
        try:
            whole = settle(new, added, "r")
        except ag.AgentGraphError as error:
            with pytest.raises(ag.AgentGraphError) as caught:
                settle(new, added, "r", head)
            assert caught.value.code == error.code
            continue
        delta = settle(new, added, "r", head)
        assert same(delta[0], whole[0]) and delta[0] == whole[0]
        assert same(list(delta[1]), list(whole[1]))
        assert delta[2] == whole[2] and delta[3] == whole[3]
        head = delta[0]


def test_a_numeric_looking_new_outcome_key_is_ordered_as_the_reader_orders_it() -> None:
    run = new_run("r", "p", "g", "e", AT, workspace=None, facts={}, authorities=[])
    head, _, _, _ = settle(head_of(run), run.events, "r")
    for node in ("b", "a", "12", "3"):
        new, added = guarded(None, record_change(node, "completed", None))(head, AT)
        head = settle(new, added, "r", head)[0]
    assert list(head.outcomes) == ["3", "12", "b", "a"]


def test_the_memo_of_checked_heads_is_bounded_and_vouches_for_exact_texts_only() -> None:
    memo = HeadMemo()
    run = new_run("r", "p", "g", "e", AT, workspace=None, facts={}, authorities=[])
    head = head_of(run)
    for n in range(HeadMemo.entries + 10):
        memo.keep(f"r{n}", f"text {n}", head)
    assert memo.head("r0", "text 0") is None  # the least recently used went
    assert memo.head(f"r{HeadMemo.entries + 9}", f"text {HeadMemo.entries + 9}") is head
    assert memo.head("r20", "another text") is None  # a Run's other text is not vouched for
    memo.keep("big", "x" * (HeadMemo.largest + 1), head)
    assert memo.head("big", "x" * (HeadMemo.largest + 1)) is None
    memo.keep("bytes", b"{}", head)  # type: ignore[arg-type]
    assert memo.head("bytes", b"{}") is None
    memo.keep("text only", "{}")  # a text without its value vouches for nothing to decode
    assert memo.head("text only", "{}") is None


def test_a_head_row_changed_behind_the_store_is_checked_again_by_the_same_store(db_url: str) -> None:
    weekly = ag.load_provider(str(WEEKLY))
    with ag.open_store(db_url) as store:
        store.start("r", weekly, "report")
        store.record("r", "report/draft", "partial")
        store.next_step("r", weekly)  # the store has read and written this head: it is in its memo
        sql = Sql(db_url)
        text: str = sql.run(("SELECT head FROM agent_graph_runs WHERE id = ?", ("r",)))[0][0]
        sql.run(
            (
                "UPDATE agent_graph_runs SET head = ? WHERE id = ?",
                (text.replace('"partial"', '"half-done"'), "r"),
            )
        )
        with pytest.raises(ag.AgentGraphError) as caught:
            store.record("r", "report/draft", "completed")
        assert caught.value.code == "run-invalid"
        with pytest.raises(ag.AgentGraphError) as caught:
            store.next_step("r", weekly)
        assert caught.value.code == "run-invalid"
        sql.run(
            ("UPDATE agent_graph_runs SET head = ? WHERE id = ?", (text, "r"))
        )  # the text it wrote is good again
        assert store.record("r", "report/draft", "completed").outcomes["report/draft"].outcome == "completed"


def test_changing_an_answer_never_reaches_the_next_one(db_url: str) -> None:
    weekly = ag.load_provider(str(WEEKLY))
    with ag.open_store(db_url) as store:
        store.start("r", weekly, "report", facts={"topic": {"name": "week 5"}})
        answer = store.record("r", "report/draft", "partial", detail={"pages": [1, 2]})
        answer.facts["topic"]["name"] = "changed"
        answer.facts["extra"] = True
        answer.outcomes.clear()
        step = store.next_step("r", weekly)
        step.run.facts["topic"]["name"] = "changed again"
        again = store.head("r")
        assert again.facts == {"topic": {"name": "week 5"}}
        assert list(again.outcomes) == ["report/draft"]
        assert again.outcomes["report/draft"].detail == {"pages": [1, 2]}
        assert store.record("r", "report/draft", "completed").facts == {"topic": {"name": "week 5"}}


def test_the_pool_checks_a_connection_only_when_it_has_not_answered_lately(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    from agent_graph._runtime import runs_postgres
    from agent_graph._runtime.runs_postgres import RecentConnections

    recent = RecentConnections()
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        assert not recent.trusted(connection)
        recent.answered(connection)
        assert recent.trusted(connection)
        recent.forget()  # a connection was lost somewhere: every one is suspect
        assert not recent.trusted(connection)
        recent.answered(connection)
        monkeypatch.setattr(runs_postgres, "CHECK_AFTER_IDLE", 0.0)
        assert not recent.trusted(connection)  # idle longer than the bound: checked again


def test_a_connection_whose_server_went_away_is_never_trusted(postgres_url: str) -> None:
    import psycopg

    from agent_graph._runtime.runs_postgres import RecentConnections

    recent = RecentConnections()
    connection = psycopg.connect(postgres_url, autocommit=True)
    connection.execute("SELECT 1")
    recent.answered(connection)
    assert recent.trusted(connection)
    pid = connection.info.backend_pid
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        deadline = time.monotonic() + 60
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchall():
            assert time.monotonic() < deadline
            time.sleep(0.01)
    assert not recent.trusted(connection)  # the server said goodbye: checked before its next use
    with pytest.raises(psycopg.OperationalError):
        connection.execute("SELECT 1")
    assert connection.broken
    recent.answered(connection)
    assert not recent.trusted(connection)  # a broken connection never counts as answering
    connection.close()


def test_every_pooled_connection_killed_while_trusted_costs_no_write(postgres_url: str) -> None:
    from tests import pg_server

    weekly = ag.load_provider(str(WEEKLY))
    with ag.PostgresRunStore(postgres_url, pool_size=2, pool_min_size=2, retries=0) as store:
        store.start("k", weekly, "report")
        for n in range(2):
            store.record("k", f"n{n}", "completed")  # every connection has answered within the bound
            pg_server.terminate_clients(postgres_url)
        assert [e.sequence for e in store.events("k")] == [1, 2, 3]


def test_a_write_decided_on_a_remembered_head_that_went_stale_is_decided_again(postgres_url: str) -> None:
    weekly = ag.load_provider(str(WEEKLY))
    with ag.open_store(postgres_url) as mine, ag.open_store(postgres_url) as other:
        mine.start("s", weekly, "report")
        mine.record("s", "report/draft", "partial")  # mine remembers the row it wrote
        other.record("s", "report/draft", "completed")  # ... which is stale now
        revision = other.next_step("s", weekly).revision  # the revision of the Run as it is
        answer = mine.record("s", "report/approve", "completed", provider=weekly, revision=revision)
        assert answer.events == 4 and answer.outcomes["report/draft"].outcome == "completed"
        other.record("s", "report/approve", "failed")
        with pytest.raises(ag.AgentGraphError) as caught:  # a stale revision is still refused
            mine.record("s", "report/draft", "failed", provider=weekly, revision=revision)
        assert caught.value.code == "run-revision-stale"
        run = other.load("s")
    assert [e.sequence for e in run.events] == [1, 2, 3, 4, 5]
    assert [(e.node, e.outcome) for e in run.events[1:]] == [
        ("report/draft", "partial"),
        ("report/draft", "completed"),
        ("report/approve", "completed"),
        ("report/approve", "failed"),
    ]
