"""The async face of every Run store: the same operations, contract and codes, as coroutines.

Agent runtimes run on an event loop; a store call must not stall it.
:class:`AsyncRunStore` drives the very operations of
:class:`~agent_graph._runtime.run_store.RunStoreLogic` (argument checks, Run
transitions, revision guard, evaluation, routing) and awaits each storage
primitive:

* PostgreSQL (:class:`~agent_graph._runtime.runs_postgres_async.AsyncPostgresRunStore`)
  is asynchronous all the way down, on psycopg's ``AsyncConnectionPool``;
* the file store and SQLite (:class:`ThreadedAsyncRunStore`) run each
  primitive of their blocking store on a small pool of worker threads owned by
  the store, so the event loop never waits for a file lock or the disk.

Evaluation and routing stay synchronous: they take microseconds. A
cancelled call whose primitive already runs in a worker thread finishes that
primitive (a write lands whole or not at all, as always).
"""

from __future__ import annotations

import asyncio
import builtins
import functools
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

import msgspec

from .._core.model import ReadReceipts, Run, RunEvent, RunHead, RunSummary, Step
from .._core.provider import Provider
from .._core.receipts import Receipts
from .run_store import (
    BaseRunStore,
    Call,
    Operation,
    ProviderRef,
    RunStoreLogic,
    T,
    authority_list,
    warn_set_authorities,
)
from .telemetry import store_operation

__all__ = ["AsyncRunStore", "ThreadedAsyncRunStore"]

#: Worker threads of a thread-backed async store.
WORKERS = 4


class AsyncRunStore(RunStoreLogic):
    """A Run store whose operations are coroutines; the same contract as :class:`BaseRunStore`.

    Use ``async with await ag.open_async_store(url) as store:`` (or ``await
    store.aclose()``). Every method answers what the blocking store's method
    of the same name answers, and raises the same codes.
    """

    async def _primitive(self, call: Call) -> Any:
        raise NotImplementedError

    async def _adrive(self, operation: Operation[T]) -> T:
        answer: Any = None
        try:
            while True:
                call = operation.send(answer)
                answer = await self._primitive(call)
        except StopIteration as done:
            result: T = done.value
            return result
        finally:
            operation.close()

    async def aclose(self) -> None:
        """Release what the store holds (connections, worker threads)."""

    async def __aenter__(self) -> AsyncRunStore:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    # ------------------------------------------------------------ reading

    @store_operation("load")
    async def load(self, ref: str, provider: ProviderRef = None) -> Run:
        """The whole Run, checked (``run-missing``, ``run-invalid``, ``run-provider-mismatch``)."""
        return await self._adrive(self._op_load(ref, provider))

    @store_operation("head")
    async def head(self, ref: str, provider: ProviderRef = None) -> RunHead:
        """The Run's head: its state and number of events, read without its history."""
        return await self._adrive(self._op_head(ref, provider))

    @store_operation("events")
    async def events(
        self, ref: str, provider: ProviderRef = None, *, after: int = 0, limit: int | None = None
    ) -> tuple[RunEvent, ...]:
        """The Run's events numbered after ``after``, at most ``limit`` of them (default 1,000)."""
        return await self._adrive(self._op_events(ref, provider, after, limit))

    @store_operation("list")
    async def list(
        self,
        *,
        provider: ProviderRef = None,
        graph: str | None = None,
        updated_after: datetime | str | None = None,
        updated_before: datetime | str | None = None,
    ) -> builtins.list[RunSummary]:
        """Summaries of the stored Runs, oldest update first (the filters of :meth:`BaseRunStore.list`)."""
        return await self._adrive(self._op_list(provider, graph, updated_after, updated_before))

    @store_operation("next_step")
    async def next_step(
        self,
        ref: str,
        provider: Provider,
        *,
        receipts: Receipts | ReadReceipts | Mapping[str, Any] | None = None,
        route_id: str | None = None,
    ) -> Step:
        """Read the Run's head, evaluate it and route at that revision: the step to take now."""
        return await self._adrive(self._op_next_step(ref, provider, receipts, route_id))

    # ------------------------------------------------------------ writing

    @store_operation("start")
    async def start(
        self,
        ref: str | None,
        provider: Provider | str,
        graph: str,
        entry: str = "default",
        *,
        workspace: str | None = None,
        facts: Mapping[str, Any] | None = None,
        authorities: Iterable[str] | None = None,
    ) -> Run:
        """Create a new Run with event 1 ``run.started``; its ``id`` addresses it from then on."""
        return await self._adrive(self._op_start(ref, provider, graph, entry, workspace, facts, authorities))

    @store_operation("record")
    async def record(
        self,
        ref: str,
        node: str,
        outcome: str,
        *,
        detail: Any = msgspec.UNSET,
        provider: ProviderRef = None,
        revision: str | None = None,
        facts: Mapping[str, Any] | None = None,
        deep: bool = False,
    ) -> RunHead:
        """Record an outcome (guarded by ``revision`` inside the lock or transaction); the new head."""
        return await self._adrive(
            self._op_record(ref, node, outcome, detail, provider, revision, facts, deep)
        )

    @store_operation("update_facts")
    async def update_facts(
        self,
        ref: str,
        facts: Mapping[str, Any],
        *,
        replace: bool = False,
        deep: bool = False,
        provider: ProviderRef = None,
    ) -> RunHead:
        """Merge (or ``deep``-merge, or ``replace``) the Run's Facts; the new head."""
        return await self._adrive(self._op_update_facts(ref, facts, replace, deep, provider))

    @store_operation("update_authorities")
    async def update_authorities(
        self,
        ref: str,
        *,
        replace: Iterable[str] | None = None,
        add: Iterable[str] = (),
        remove: Iterable[str] = (),
        provider: ProviderRef = None,
    ) -> RunHead:
        """Replace, then add and remove session authorities; the new head."""
        return await self._adrive(self._op_update_authorities(ref, replace, add, remove, provider))

    async def set_authorities(
        self, ref: str, authorities: Iterable[str], *, provider: ProviderRef = None
    ) -> RunHead:
        """Deprecated: ``await update_authorities(ref, replace=authorities)`` does the same."""
        warn_set_authorities(type(self).__name__)
        return await self.update_authorities(ref, replace=authority_list(authorities), provider=provider)

    @store_operation("checkpoint")
    async def checkpoint(self, ref: str, target: str, *, provider: ProviderRef = None) -> Run:
        """Keep a copy of the Run without authorities under ``target``; the checkpoint."""
        return await self._adrive(self._op_checkpoint(ref, target, provider))

    @store_operation("resume")
    async def resume(self, checkpoint: str, target: str | None, *, provider: ProviderRef = None) -> Run:
        """Start a new Run from a checkpoint (authorities cleared, ``run.resumed`` appended)."""
        return await self._adrive(self._op_resume(checkpoint, target, provider))

    @store_operation("export")
    async def export(self, ref: str, path: str, *, provider: ProviderRef = None) -> Run:
        """Write the Run to a new ``agent-graph.run.v1`` file ``path``."""
        return await self._adrive(self._op_export(ref, path, provider))

    @store_operation("import_run")
    async def import_run(self, path: str, *, provider: ProviderRef = None) -> Run:
        """Store the Run of an ``agent-graph.run.v1`` file under its own Run ID."""
        return await self._adrive(self._op_import(path, provider))

    @store_operation("fork")
    async def fork(
        self,
        ref: str,
        at: int,
        target: str | None = None,
        *,
        provider: ProviderRef = None,
        facts: Mapping[str, Any] | None = None,
    ) -> Run:
        """A new Run from the state right after event ``at``, ending in ``run.forked`` (as the blocking store's)."""
        return await self._adrive(self._op_fork(ref, at, target, provider, facts))


class ThreadedAsyncRunStore(AsyncRunStore):
    """The async face of a blocking store (files, SQLite): each primitive runs on the store's worker threads.

    ``store`` is the blocking store; it belongs to this object from now on
    (``aclose`` closes it).
    """

    def __init__(self, store: BaseRunStore, *, workers: int = WORKERS) -> None:
        self.store = store
        self.ref_kind = store.ref_kind
        self.store_kind = store.store_kind
        self._executor: ThreadPoolExecutor | None = ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="agent-graph-store"
        )

    def __repr__(self) -> str:
        return f"<ThreadedAsyncRunStore {self.store!r}>"

    @property
    def lock_timeout(self) -> float:
        """Seconds a writer waits for another writer."""
        return self.store.lock_timeout

    @lock_timeout.setter
    def lock_timeout(self, value: float) -> None:
        self.store.lock_timeout = value

    def now(self) -> str:
        return self.store.now()

    def _fresh_id(self) -> str:
        return self.store._fresh_id()

    def _check_ref(self, ref: Any) -> None:
        self.store._check_ref(ref)

    async def _in_thread(self, function: Any, *args: Any) -> Any:
        from .._core.errors import AgentGraphError

        executor = self._executor
        if executor is None:
            raise AgentGraphError("run-store-closed", f"The Run store {self.store!r} is closed")
        return await asyncio.get_running_loop().run_in_executor(executor, functools.partial(function, *args))

    async def _primitive(self, call: Call) -> Any:
        return await self._in_thread(getattr(self.store, "_" + call.name), *call.args)

    async def aclose(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.get_running_loop().run_in_executor(
                None, functools.partial(executor.shutdown, wait=True)
            )
            self.store.close()
