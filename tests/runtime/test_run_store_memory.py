"""The memory store: its own promises (no state shared, nothing kept after close), and the proof that the seam suffices.

The contract suite runs it on both faces (tests/runtime/test_store_contract.py), and
the shared store tests with the other stores (tests/runtime/test_run_stores.py).
"""

from __future__ import annotations

import ast
import asyncio
import threading

import pytest

import agent_graph as ag
import agent_graph.storage as ags
import agent_graph.types as agt
from tests.in_process import code_of
from tests.paths import REPO, WEEKLY


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(str(WEEKLY))


MODULE = REPO / "agent_graph" / "_runtime" / "runs_memory.py"


def test_the_memory_store_is_written_only_against_the_public_seam() -> None:
    """Every name it takes from agent-graph is public: agent_graph.storage's, agent_graph.types' or agent_graph's own."""
    public = set(ags.__all__) | set(agt.__all__) | set(ag.__all__)
    tree = ast.parse(MODULE.read_text("utf-8"))
    taken: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (
            node.level > 0 or (node.module or "").startswith("agent_graph")
        ):
            taken.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            assert not any(alias.name.startswith("agent_graph") for alias in node.names)
    assert taken and sorted(set(taken) - public) == []


def test_every_open_is_a_new_empty_store(weekly: ag.Provider) -> None:
    first, second = ag.open_store("memory://"), ag.open_store("MEMORY://")
    assert isinstance(first, ag.MemoryRunStore) and isinstance(second, ag.MemoryRunStore)
    run = first.start(None, weekly, "report")
    assert [summary.id for summary in first.list()] == [run.id]
    assert second.list() == [] and code_of(lambda: second.load(run.id)) == "run-missing"
    assert ag.MemoryRunStore().list() == []


@pytest.mark.parametrize("url", ["memory://runs", "memory:///", "memory://?x=1"])
def test_a_memory_url_names_nothing_else(url: str) -> None:
    assert code_of(lambda: ag.open_store(url)) == "store-url-invalid"


def test_a_closed_store_keeps_nothing_and_refuses_every_call(weekly: ag.Provider) -> None:
    store = ag.MemoryRunStore()
    run = store.start(None, weekly, "report")
    store.close()
    assert code_of(lambda: store.load(run.id)) == "run-store-closed"
    assert code_of(lambda: store.record(run.id, "report/draft", "completed")) == "run-store-closed"
    assert code_of(lambda: store.start(None, weekly, "report")) == "run-store-closed"
    assert code_of(store.list) == "run-store-closed"


def test_a_writer_waits_at_most_lock_timeout_for_another(weekly: ag.Provider) -> None:
    store = ag.MemoryRunStore(lock_timeout=0.05)
    run = store.start(None, weekly, "report")
    assert store.storage._lock.acquire()  # another writer, holding the store
    try:
        assert code_of(lambda: store.record(run.id, "report/draft", "completed")) == "run-lock-timeout"
    finally:
        store.storage._lock.release()
    assert store.record(run.id, "report/draft", "completed").events == 2
    assert code_of(lambda: ag.MemoryRunStore(lock_timeout=-1)) == "argument-invalid"


def test_threads_of_one_process_lose_no_record(weekly: ag.Provider) -> None:
    store = ag.MemoryRunStore()
    run = store.start(None, weekly, "report")

    def writer(n: int) -> None:
        for k in range(25):
            store.record(run.id, f"t{n}/k{k}", "completed")

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    whole = store.load(run.id)
    assert [event.sequence for event in whole.events] == list(range(1, 202)) and len(whole.outcomes) == 200


def test_a_changed_answer_never_reaches_the_store(weekly: ag.Provider) -> None:
    store = ag.MemoryRunStore()
    run = store.start("r", weekly, "report", facts={"topic": {"name": "week 5"}})
    assert run.id == "r"
    answer = store.record("r", "report/draft", "partial", detail={"pages": [1, 2]})
    answer.facts["topic"]["name"] = "changed"
    answer.outcomes.clear()
    store.load("r").facts["topic"]["name"] = "changed again"
    again = store.head("r")
    assert again.facts == {"topic": {"name": "week 5"}} and list(again.outcomes) == ["report/draft"]


def test_the_async_face_is_the_same_store_on_the_event_loop(weekly: ag.Provider) -> None:
    async def scenario() -> None:
        async with await ag.open_async_store("memory://", lock_timeout=5) as store:
            assert isinstance(store, ag.AsyncRunStore) and store.store_kind == "memory"
            assert store.lock_timeout == 5
            run = await store.start(None, weekly, "report")
            await asyncio.gather(*(store.record(run.id, f"n{n}", "completed") for n in range(10)))
            assert (await store.head(run.id)).events == 11
            other = await ag.open_async_store("memory://")
            assert await other.list() == []
            await other.aclose()
        with pytest.raises(ag.AgentGraphError) as caught:
            await store.head(run.id)
        assert caught.value.code == "run-store-closed"

    asyncio.run(scenario())


def test_an_option_the_memory_store_does_not_take_is_refused() -> None:
    with pytest.raises(ag.AgentGraphError) as caught:
        ag.open_store("memory://", pool_size=3)
    assert caught.value.code == "argument-invalid" and "lock_timeout" in caught.value.message
