"""A store evaluates a head once per value, and never lets a kept evaluation or a fast check answer for another.

A store face keeps, per Run, the head it last checked or wrote and the
evaluation made of that very value (:class:`HeadMemo`): ``next_step`` reuses
the evaluation the last write made and the revision guard of ``record`` the one
``next_step`` made. A head another writer changed is another value: it is
checked and evaluated again, and a stale revision is refused. A write's
additions are read back by typed decoding (``_typed``) only where that answers
exactly what the Run reader and the schema answer.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import agent_graph as ag
from agent_graph._core.model import RunHead
from agent_graph._runtime import run_changes, run_codec
from agent_graph._runtime.run_operations import HeadMemo, fresh_head
from agent_graph._syntax import schema as _schema
from agent_graph._syntax.parse import parse_json
from tests.paths import WEEKLY
from tests.runtime.test_run_store_delta import same, values

AT = "2026-01-31T09:30:00.000Z"


def _head(text: str = "{}") -> RunHead:
    return RunHead(
        schema="agent-graph.run.v1",
        id="r",
        provider="p",
        graph="g",
        entry="e",
        created_at=AT,
        updated_at=AT,
        facts={"text": text},
        outcomes={},
        authorities=(),
        events=1,
    )


def _open_pair(url: str) -> tuple[Any, Any]:
    if url == "memory://":  # two faces over one storage, each with a memo of its own
        storage = ag.MemoryRunStore().storage
        return ag.BaseRunStore(storage), ag.BaseRunStore(storage)
    return ag.open_store(url), ag.open_store(url)


def test_a_head_changed_by_another_writer_between_next_step_and_record_is_refused(any_store_url: str) -> None:
    weekly = ag.load_provider(str(WEEKLY))
    mine, other = _open_pair(any_store_url)
    with mine, other:
        ref = mine.start(None, weekly, "report").id
        mine.record(ref, "report/draft", "partial", provider=weekly)  # mine wrote and evaluated this head
        step = mine.next_step(ref, weekly)  # ... and evaluates it again from its memo
        other.record(ref, "report/draft", "completed", provider=weekly)
        with pytest.raises(ag.AgentGraphError) as caught:
            mine.record(ref, "report/approve", "completed", provider=weekly, revision=step.revision)
        assert caught.value.code == "run-revision-stale"
        assert [e.outcome for e in mine.load(ref).events[1:]] == ["partial", "completed"]
        fresh = mine.next_step(ref, weekly)  # the head as it is now: evaluated, and the guard agrees
        assert fresh.revision != step.revision
        mine.record(ref, "report/approve", "completed", provider=weekly, revision=fresh.revision)


def test_the_async_face_refuses_a_head_changed_between_next_step_and_record(db_url: str) -> None:
    weekly = ag.load_provider(str(WEEKLY))

    async def scenario() -> None:
        async with await ag.open_async_store(db_url) as mine, await ag.open_async_store(db_url) as other:
            ref = (await mine.start(None, weekly, "report")).id
            step = await mine.next_step(ref, weekly)
            await other.record(ref, "report/draft", "completed", facts={"report": {"pages": 3}})
            with pytest.raises(ag.AgentGraphError) as caught:
                await mine.record(ref, "report/draft", "partial", provider=weekly, revision=step.revision)
            assert caught.value.code == "run-revision-stale"
            again = await mine.next_step(ref, weekly)
            head = await mine.record(
                ref, "report/approve", "completed", provider=weekly, revision=again.revision
            )
            assert head.events == 4  # started, facts.updated and the record of other, then this record

    asyncio.run(scenario())


@pytest.mark.parametrize("kind", ["sqlite", "postgres", "memory"])
def test_a_turn_on_a_warm_run_evaluates_its_head_once(
    kind: str, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stores that keep text (the file store answers checked Runs, evaluated as read)."""
    url = {"sqlite": f"sqlite:///{tmp_path / 'runs.db'}", "memory": "memory://"}.get(kind)
    url = url or request.getfixturevalue("postgres_url")
    weekly = ag.load_provider(str(WEEKLY))
    calls: list[Any] = []
    real = run_changes.evaluate_with_candidates

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[3])
        return real(*args, **kwargs)

    monkeypatch.setattr(run_changes, "evaluate_with_candidates", counting)
    with ag.open_store(url) as store:
        ref = store.start(None, weekly, "report").id
        store.record(ref, "report/draft", "partial", provider=weekly)
        for turn in range(3):
            calls.clear()
            step = store.next_step(ref, weekly)
            store.record(
                ref, "report/draft", "partial", provider=weekly, revision=step.revision, facts={"turn": turn}
            )
            assert len(calls) == 1 and calls[0]["turn"] == turn  # only the new head, once, after the write


def test_an_evaluation_is_kept_for_one_head_value_with_one_provider() -> None:
    weekly = ag.load_provider(str(WEEKLY))
    other_provider = ag.load_provider(str(WEEKLY))
    memo = HeadMemo()
    head = _head()
    evaluated: Any = ("evaluation", ())
    memo.remember("r", head, weekly, evaluated)  # not the kept head of r: ignored
    assert memo.evaluated("r", head, weekly) is None
    memo.keep("r", "text 1", head)
    assert memo.head("r", "text 1") is head and memo.head("r", "text 2") is None
    memo.remember("r", head, weekly, evaluated)
    assert memo.evaluated("r", head, weekly) is evaluated
    assert memo.evaluated("r", fresh_head(head), weekly) is None  # an equal value is another head
    assert memo.evaluated("r", head, other_provider) is None  # another Provider, even an equal one
    assert memo.evaluated("other", head, weekly) is None
    memo.keep("r", "text 2", _head("2"))  # the Run moved on: its old evaluation goes with its old head
    assert memo.evaluated("r", head, weekly) is None
    memo.keep("r", "text 1", head)  # the same value again starts with no evaluation
    assert memo.evaluated("r", head, weekly) is None


def test_the_memo_forgets_what_it_cannot_vouch_for() -> None:
    memo = HeadMemo()
    head = _head()
    memo.keep("r", "text", head)
    memo.agreed("r", head, '{"sequence":1}')
    assert memo.agrees("r", head, '{"sequence":1}')
    assert not memo.agrees("r", head, '{"sequence":2}')
    assert not memo.agrees("r", fresh_head(head), '{"sequence":1}')
    memo.keep("r", "x" * (HeadMemo.largest + 1), head)  # too large to keep: forgotten
    assert memo.head("r", "text") is None and not memo.agrees("r", head, '{"sequence":1}')
    for n in range(HeadMemo.entries + 1):
        memo.keep(f"r{n}", "text", head)
    assert memo.head("r0", "text") is None and memo.head(f"r{HeadMemo.entries}", "text") is head


def test_a_last_event_row_changed_behind_a_sqlite_store_is_found_by_the_same_store(tmp_path: Path) -> None:
    """The last event text a store wrote is not parsed again, unless the row holds another text."""
    from tests.raw_sql import Sql

    db_url = f"sqlite:///{tmp_path / 'runs.db'}"
    weekly = ag.load_provider(str(WEEKLY))
    with ag.open_store(db_url) as store:
        ref = store.start(None, weekly, "report").id
        store.record(ref, "report/draft", "partial")  # the store wrote this last event
        sql = Sql(db_url)
        sql.run(
            (
                "UPDATE agent_graph_run_events SET event = ? WHERE run_id = ? AND sequence = 2",
                ('{"sequence":3,"at":"2026-01-31T09:30:00.000Z","type":"x"}', ref),
            )
        )
        with pytest.raises(ag.AgentGraphError) as caught:
            store.record(ref, "report/draft", "completed")
        assert caught.value.code == "run-invalid"


def _document(facts: Any, detail: Any, authorities: list[str]) -> dict[str, Any]:
    return {
        "schema": "agent-graph.run.v1",
        "id": "r",
        "provider": "p",
        "graph": "g",
        "entry": "e",
        "createdAt": AT,
        "updatedAt": AT,
        "facts": facts,
        "outcomes": {"a": {"outcome": "completed", "recordedAt": AT, "detail": detail}},
        "authorities": authorities,
        "events": [{"sequence": 2, "at": AT, "type": "facts.updated", "detail": {"set": facts}}],
    }


_BREAKS: list[tuple[str, Any]] = [
    ("none", None),
    ("timestamp", ("updatedAt", "2026-01-31T09:30:00Z")),
    ("year", ("createdAt", "999-01-31T09:30:00.000Z")),
    ("outcome", ("outcomes", {"a": {"outcome": "done", "recordedAt": AT}})),
    ("unknown", ("extra", 1)),
    ("authorities", ("authorities", ["x", "x"])),
    ("empty id", ("id", "")),
    ("sequence", ("events", [{"sequence": 0, "at": AT, "type": "t"}])),
    ("event field", ("events", [{"sequence": 1, "at": AT, "type": "t", "by": "me"}])),
    ("facts", ("facts", [1])),
    ("schema", ("schema", "agent-graph.run.v2")),
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.text(max_size=6), values, max_size=4),
    values,
    st.lists(st.sampled_from(["a", "b", "c"]), max_size=3, unique=True),
    st.sampled_from(_BREAKS),
)
def test_typed_decoding_answers_what_the_reader_and_the_schema_answer(
    facts: dict[str, Any], detail: Any, authorities: list[str], broken: tuple[str, Any]
) -> None:
    document = _document(facts, detail, authorities)
    if broken[1] is not None:
        key, value = broken[1]
        document[key] = value
    data = msgspec.json.encode(document)
    typed = run_codec._typed(data)
    try:
        expected = parse_json(data.decode("utf-8"), "x", unique_keys=True)
        _schema.validate("run", expected, "x")
    except ag.AgentGraphError:
        assert typed is None  # every refusal goes to the reader, which gives its own error
        return
    if typed is not None:
        assert same(typed, expected)  # numbers, key order and -0 as JSON.parse gives them


def test_typed_decoding_takes_a_plain_turn_and_leaves_what_json_parse_changes_to_the_reader() -> None:
    digest = "sha256:" + "0123456789" * 6 + "abcd"  # digits in a string do not count
    plain = msgspec.json.encode(_document({"turn": 3, "report": {"digest": digest}}, [1.5, -2], ["a"]))
    assert run_codec._typed(plain) is not None
    for facts in ({"big": 2**60}, {"7": 1, "a": 2}):  # a double; an array-index key that goes first
        assert run_codec._typed(msgspec.json.encode(_document(facts, None, []))) is None


def test_the_typed_timestamp_is_the_run_schemas() -> None:
    """The typed decoding checks a timestamp with the very pattern ``run.schema.json`` declares."""
    import json

    from agent_graph._syntax.schema import schema_root

    document = json.loads((schema_root() / "run.schema.json").read_text(encoding="utf-8"))
    assert document["definitions"]["timestamp"]["pattern"] == run_codec.TIMESTAMP_PATTERN
