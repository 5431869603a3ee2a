"""The Run store contract as a pytest suite: prove that a store keeps every promise of agent-graph's stores.

A host with its own database implements the storage seam
(:class:`agent_graph.storage.RunStorage`, blocking, or
:class:`agent_graph.storage.AsyncRunStorage`, as coroutines), opens it as a
store (``ag.BaseRunStore(storage)``, ``ag.AsyncRunStore(storage)``, or by URL
once its scheme is registered) and runs this suite against it. Subclass :class:`RunStoreContract` in a test module and give it one
fixture, ``open_run_store``: a callable that opens a store on the same (empty
at the test's start) storage each time it is called, answering the store or
an awaitable of it (an async store). Options it is called with (``clock``,
``new_id``, ``lock_timeout``) must be passed to the store::

    import pytest
    from agent_graph.testing.store_contract import RunStoreContract

    class TestMyStore(RunStoreContract):
        @pytest.fixture
        def open_run_store(self, tmp_path):
            return functools.partial(my_store.open, tmp_path / "runs")

The scenarios: a Run addressed by the ``id`` that ``start`` answers; events
numbered 1..n and paged; the head answered by writes and ``next_step``; the
revision guard (a stale record refused, nothing written), also under
concurrency; Facts and authorities; refusals and their codes; checkpoints;
export → import byte for byte; many concurrent writers (threads for a
blocking store, tasks for an async one) and, when ``open_run_store`` can be
pickled, several processes; no record lost. agent-graph runs this suite on
its own four stores and on a store in a distribution of its own, each over its
blocking and its async face.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import multiprocessing
import pickle
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

__all__ = ["PROVIDER_FILES", "RunStoreContract", "StoreFace", "contract_provider"]

#: A small Provider of two Actions and a Terminal, written into memory for the scenarios.
PROVIDER_FILES: dict[str, Any] = {
    "provider.yaml": {
        "schema": "agent-graph.provider.v1",
        "id": "contract/provider",
        "version": "1.0.0",
        "graphs": ["graphs/main.json"],
    },
    "graphs/main.json": {
        "schema": "agent-graph.graph.v1",
        "id": "main",
        "entrypoints": {"default": "draft"},
        "nodes": [
            {"id": "draft", "kind": "action", "reasonCode": "route.draft", "action": "actions/draft.yaml"},
            {"id": "review", "kind": "action", "reasonCode": "route.review", "action": "actions/review.yaml"},
            {"id": "done", "kind": "terminal", "terminalOutcome": "completed"},
        ],
        "edges": [{"from": "draft", "to": "review"}, {"from": "review", "to": "done"}],
    },
    "actions/draft.yaml": "schema: agent-graph.action.v1\nid: draft\nrunner: command\neffect: read\ncommand: 'true'\n",
    "actions/review.yaml": "schema: agent-graph.action.v1\nid: review\nrunner: command\neffect: read\ncommand: 'true'\n",
}


def contract_provider() -> Any:
    """The scenarios' Provider, loaded from memory."""
    from .memory import MemoryProviderFileSystem

    return MemoryProviderFileSystem(PROVIDER_FILES).load()


class StoreFace:
    """One store, blocking or async, called the same way: every method answers its result."""

    def __init__(self, store: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.store = store
        self.loop = loop
        self.is_async = inspect.iscoroutinefunction(getattr(store, "record", None))

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.store, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            answer = method(*args, **kwargs)
            return self.loop.run_until_complete(answer) if inspect.isawaitable(answer) else answer

        return call

    def together(self, calls: list[Callable[[], Any]]) -> list[Any]:
        """Run the calls at once (tasks of one event loop, or threads): each one's answer or exception."""
        if self.is_async:

            async def everything() -> list[Any]:
                return list(await asyncio.gather(*(call() for call in calls), return_exceptions=True))

            return self.loop.run_until_complete(everything())

        def caught(call: Callable[[], Any]) -> Any:
            try:
                return call()
            except Exception as error:
                return error

        with ThreadPoolExecutor(max_workers=min(len(calls), 16)) as pool:
            return list(pool.map(caught, calls))


def _close_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Close ``loop`` after its default executor's threads have ended (``close`` alone leaves them running)."""
    try:
        loop.run_until_complete(loop.shutdown_default_executor())
    finally:
        loop.close()


def _record_in_process(opener: Any, ref: str, prefix: str, count: int) -> int:
    """A process's writer: ``count`` records on one Run; how many landed."""
    loop = asyncio.new_event_loop()
    try:
        opened = opener()
        store = loop.run_until_complete(opened) if inspect.isawaitable(opened) else opened
        face = StoreFace(store, loop)
        for n in range(count):
            face.record(ref, f"{prefix}/n{n}", "completed")
        if face.is_async:
            face.aclose()
        else:
            face.close()
        return count
    finally:
        _close_loop(loop)


class RunStoreContract:
    """The contract's scenarios; subclass it (as ``Test…``) and give the fixture ``open_run_store``."""

    @pytest.fixture
    def open_run_store(self) -> Callable[..., Any]:
        raise NotImplementedError("give your subclass an open_run_store fixture")

    @pytest.fixture
    def contract_loop(self) -> Iterator[asyncio.AbstractEventLoop]:
        loop = asyncio.new_event_loop()
        try:
            yield loop
        finally:
            _close_loop(loop)

    @pytest.fixture
    def face(
        self, open_run_store: Callable[..., Any], contract_loop: asyncio.AbstractEventLoop
    ) -> Iterator[StoreFace]:
        opened = open_run_store()
        store = contract_loop.run_until_complete(opened) if inspect.isawaitable(opened) else opened
        face = StoreFace(store, contract_loop)
        try:
            yield face
        finally:
            face.aclose() if face.is_async else face.close()

    @pytest.fixture(scope="class")
    @classmethod
    def provider(cls) -> Any:
        return contract_provider()

    # ------------------------------------------------------------ helpers

    @staticmethod
    def code_of(call: Callable[[], Any]) -> str:
        from .._core.errors import AgentGraphError

        with pytest.raises(AgentGraphError) as caught:
            call()
        return caught.value.code

    @staticmethod
    def record_node(face: StoreFace, ref: str, provider: Any) -> tuple[str, str]:
        step = face.next_step(ref, provider)
        assert step.route is not None and step.route.after_action is not None
        return step.route.after_action.record_node, step.revision

    # ------------------------------------------------------------ scenarios

    def test_a_started_run_is_addressed_by_its_id(self, face: StoreFace, provider: Any) -> None:
        run = face.start(None, provider, "main", facts={"team": "web"}, authorities=["b", "a"])
        assert [event.type for event in run.events] == ["run.started"] and run.authorities == ("a", "b")
        assert face.load(run.id) == run
        head = face.head(run.id)
        assert head.id == run.id and head.events == 1 and head.facts == {"team": "web"}
        assert [summary.id for summary in face.list()] == [run.id]
        assert face.list(graph="other") == []

    def test_records_are_numbered_and_the_head_is_answered(self, face: StoreFace, provider: Any) -> None:
        run = face.start(None, provider, "main")
        node, revision = self.record_node(face, run.id, provider)
        head = face.record(
            run.id, node, "partial", detail={"missing": ["x"]}, provider=provider, revision=revision
        )
        assert head.events == 2 and head.outcomes[node].outcome == "partial"
        for n in range(3):
            head = face.record(run.id, node, "completed" if n == 2 else "partial", detail=n)
        whole = face.load(run.id)
        assert [event.sequence for event in whole.events] == [1, 2, 3, 4, 5]
        assert head.events == 5 and head.facts == whole.facts and head.outcomes == whole.outcomes
        assert head.updated_at == whole.updated_at == whole.events[-1].at
        assert face.events(run.id) == whole.events
        assert (
            face.events(run.id, after=2, limit=2) == whole.events[2:4] and face.events(run.id, after=5) == ()
        )
        step = face.next_step(run.id, provider)
        assert step.run == head and step.route is not None and step.route.node == "review"

    def test_a_stale_revision_is_refused_and_nothing_is_written(self, face: StoreFace, provider: Any) -> None:
        run = face.start(None, provider, "main")
        node, revision = self.record_node(face, run.id, provider)
        face.record(run.id, node, "completed", provider=provider, revision=revision)
        before = face.load(run.id)
        stale = self.code_of(
            lambda: face.record(run.id, node, "failed", provider=provider, revision=revision)
        )
        assert stale == "run-revision-stale" and face.load(run.id) == before
        with_facts = lambda: face.record(  # noqa: E731
            run.id, node, "failed", provider=provider, revision=revision, facts={"x": 1}
        )
        assert self.code_of(with_facts) == "run-revision-stale" and face.load(run.id) == before

    def test_only_one_of_many_concurrent_guarded_records_lands(self, face: StoreFace, provider: Any) -> None:
        from .._core.errors import AgentGraphError

        run = face.start(None, provider, "main")
        node, revision = self.record_node(face, run.id, provider)
        store = face.store
        calls: list[Callable[[], Any]] = [
            functools.partial(
                store.record, run.id, node, "completed", detail=n, provider=provider, revision=revision
            )
            for n in range(8)
        ]
        answers = face.together(calls)
        landed = [answer for answer in answers if not isinstance(answer, BaseException)]
        refused = [answer for answer in answers if isinstance(answer, AgentGraphError)]
        assert len(landed) == 1 and len(refused) == 7, answers
        assert {error.code for error in refused} == {"run-revision-stale"}
        assert face.head(run.id).events == 2

    def test_many_concurrent_writers_lose_nothing(self, face: StoreFace, provider: Any) -> None:
        run = face.start(None, provider, "main")
        store = face.store
        calls: list[Callable[[], Any]] = [
            functools.partial(store.record, run.id, f"w/n{n}", "completed") for n in range(24)
        ]
        answers = face.together(calls)
        assert not [answer for answer in answers if isinstance(answer, BaseException)], answers
        whole = face.load(run.id)
        assert [event.sequence for event in whole.events] == list(range(1, 26))
        assert {f"w/n{n}" for n in range(24)} <= set(whole.outcomes)

    def test_several_processes_lose_nothing(
        self, face: StoreFace, provider: Any, open_run_store: Callable[..., Any]
    ) -> None:
        try:
            pickle.dumps(open_run_store)
        except Exception as error:
            pytest.skip(
                f"open_run_store cannot be sent to another process ({error}); threads and tasks cover it"
            )
        run = face.start(None, provider, "main")
        context = multiprocessing.get_context("spawn")
        with context.Pool(3) as pool:
            counts = pool.starmap(
                _record_in_process, [(open_run_store, run.id, f"p{p}", 5) for p in range(3)]
            )
        assert counts == [5, 5, 5]
        whole = face.load(run.id)
        assert [event.sequence for event in whole.events] == list(range(1, 17))

    def test_facts_and_authorities(self, face: StoreFace, provider: Any) -> None:
        run = face.start(None, provider, "main", facts={"report": {"title": "W5", "sections": {"a": 1}}})
        head = face.update_facts(run.id, {"report": {"sections": {"b": 2}}}, deep=True)
        assert head.facts == {"report": {"title": "W5", "sections": {"a": 1, "b": 2}}}
        assert face.update_facts(run.id, {"team": "web"}).facts["team"] == "web"
        assert face.update_facts(run.id, {"only": 1}, replace=True).facts == {"only": 1}
        head = face.update_authorities(run.id, replace=["b"], add=["a", "c"], remove=["c"])
        assert (
            head.authorities == ("a", "b") and face.update_authorities(run.id, replace=[]).authorities == ()
        )
        kinds = [(event.type, event.detail) for event in face.events(run.id, after=1)]
        assert kinds == [  # each Facts event records what it changed (a deep merge: what it merged)
            ("facts.updated", {"keys": ["report"], "merge": {"report": {"sections": {"b": 2}}}}),
            ("facts.updated", {"keys": ["team"], "set": {"team": "web"}}),
            ("facts.replaced", {"keys": ["only"], "set": {"only": 1}}),
            ("authorities.updated", {"authorities": ["a", "b"]}),
            ("authorities.updated", {"authorities": []}),
        ]

    def test_refusals_have_their_codes_and_change_nothing(self, face: StoreFace, provider: Any) -> None:
        run = face.start(None, provider, "main")
        before = face.load(run.id)
        assert self.code_of(lambda: face.load("no-such-run")) == "run-missing"
        assert self.code_of(lambda: face.record("no-such-run", "main/draft", "completed")) == "run-missing"
        assert self.code_of(lambda: face.record(run.id, "main/draft", "done")) == "outcome-invalid"
        assert self.code_of(lambda: face.record(run.id, "", "completed")) == "run-node-invalid"
        assert self.code_of(lambda: face.update_facts(run.id, {"x": {1, 2}})) == "json-invalid"
        assert self.code_of(lambda: face.update_facts(run.id, {"x": float("nan")})) == "json-invalid"
        other = lambda: face.record(run.id, "main/draft", "completed", provider="someone/else")  # noqa: E731
        assert self.code_of(other) == "run-provider-mismatch"
        assert self.code_of(lambda: face.start(None, provider, "nope")) == "graph-missing"
        assert self.code_of(lambda: face.events(run.id, after=-1)) == "argument-invalid"
        assert face.load(run.id) == before

    def test_checkpoint_and_resume(self, face: StoreFace, provider: Any) -> None:
        run = face.start(None, provider, "main", authorities=["a"])
        face.record(run.id, "main/draft", "completed")
        snapshot = face.checkpoint(run.id, "kept.json")
        assert snapshot.authorities == () and snapshot.events[-1].type == "run.checkpointed"
        assert face.head(run.id).events == 3
        assert self.code_of(lambda: face.checkpoint(run.id, "kept.json")) == "run-target-exists"
        resumed = face.resume("kept.json", None)
        assert resumed.id != run.id
        assert resumed.events[-1].type == "run.resumed" and resumed.outcomes == snapshot.outcomes
        assert face.load(resumed.id) == resumed

    def test_export_and_import_are_byte_identical(
        self, face: StoreFace, provider: Any, tmp_path: Path
    ) -> None:
        awkward = {"big": 1152921504606846977, "10": 1, "2": 2, "zero": 0.0, "text": "a\udcffb"}
        run = face.start(None, provider, "main", facts=awkward)
        for n in range(5):
            face.record(run.id, f"main/n{n}", "partial", detail=awkward)
        first = tmp_path / "first.json"
        exported = face.export(run.id, str(first))
        assert exported == face.load(run.id)
        assert self.code_of(lambda: face.export(run.id, str(first))) == "run-target-exists"
        assert self.code_of(lambda: face.import_run(str(first))) == "run-target-exists"
        from .._runtime.runs import FileRunStore

        again = FileRunStore(str(tmp_path / "again"))
        again.import_run(str(first))
        second = tmp_path / "second.json"
        again.export(run.id, str(second))
        assert second.read_bytes() == first.read_bytes()
