"""The async face of every Run store: the same operations, contract and codes, as coroutines.

Agent runtimes run on an event loop; a store call must not stall it.
:class:`AsyncRunStore` runs the very operations of the blocking face
(:class:`~agent_graph._runtime.run_methods.RunStoreMethods`: argument
checks, Run transitions, revision guard, evaluation, routing) and awaits each
storage call on an :class:`~agent_graph._runtime.run_storage.AsyncRunStorage`:

* PostgreSQL (:class:`~agent_graph._runtime.runs_postgres_async.AsyncPostgresRunStore`)
  is asynchronous all the way down, on psycopg's ``AsyncConnectionPool``;
* a blocking storage (files, SQLite, a host's own) runs on a small pool of
  worker threads owned by the store (:class:`ThreadedStorage`,
  :class:`ThreadedAsyncRunStore`), so the event loop never waits for a file
  lock or the disk.

Evaluation and routing stay synchronous: they take microseconds. A
cancelled call whose storage call already runs in a worker thread finishes
that call (a write lands whole or not at all, as always).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .._core.errors import AgentGraphError
from .._core.model import RunSummary
from . import run_storage as seam
from .run_methods import RunStoreMethods
from .run_operations import IdFactory, Operation
from .run_store import BaseRunStore

__all__ = ["AsyncRunStore", "ThreadedAsyncRunStore", "ThreadedStorage"]

T = TypeVar("T")

#: Worker threads of a thread-backed async store.
WORKERS = 4


class AsyncRunStore(RunStoreMethods):
    """A Run store whose operations are coroutines, over an :class:`~agent_graph.storage.AsyncRunStorage`.

    The same contract as :class:`~agent_graph.BaseRunStore`: every method
    answers what the blocking store's method of the same name answers, and
    raises the same codes. Use ``async with await ag.open_async_store(url) as
    store:`` (or ``await store.aclose()``).
    """

    _coroutines = True

    def __init__(
        self,
        storage: seam.AsyncRunStorage,
        *,
        clock: seam.Clock | None = None,
        new_id: IdFactory | None = None,
    ) -> None:
        self._setup(storage, clock, new_id)
        self.storage = storage

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.storage!r}>"

    async def _adrive(self, operation: Operation[T]) -> T:
        """Run an operation, awaiting each storage call it asks for on this store's storage."""
        storage = self.storage
        answer: Any = None
        try:
            while True:
                answer = await operation.send(answer).acall(storage)
        except StopIteration as done:
            result: T = done.value
            return result
        finally:
            operation.close()

    async def aclose(self) -> None:
        """Close the storage (connections, worker threads); the store cannot be used afterwards."""
        await self.storage.aclose()

    async def __aenter__(self) -> AsyncRunStore:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()


class ThreadedStorage(seam.AsyncRunStorage):
    """A blocking storage as an async one: each call runs on ``workers`` threads the object owns.

    With ``workers=0`` each call runs at once on the event loop instead, for a
    storage that never waits on I/O (the memory store). ``storage`` belongs to
    this object from now on (``aclose`` closes it). Its ``lock_timeout`` and
    monotonic clock are the blocking storage's.
    """

    def __init__(self, storage: seam.RunStorage, *, workers: int = WORKERS) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 0:
            raise AgentGraphError("argument-invalid", "workers must be a number of threads (0: none)")
        self.storage = storage
        self.kind = storage.kind
        self.ref_kind = storage.ref_kind
        self._closed = False
        self._executor: ThreadPoolExecutor | None = None
        if workers:
            self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="agent-graph-store")

    def __repr__(self) -> str:
        return f"<ThreadedStorage {self.storage!r}>"

    @property
    def lock_timeout(self) -> float:
        """Seconds a writer waits for another writer (the blocking storage's)."""
        return self.storage.lock_timeout

    @lock_timeout.setter
    def lock_timeout(self, value: float) -> None:
        self.storage.lock_timeout = value

    def monotonic(self) -> float:
        return self.storage.monotonic()

    def where(self, ref: str) -> str:
        return self.storage.where(ref)

    def run_id_for(self, ref: str) -> str | None:
        return self.storage.run_id_for(ref)

    async def _in_thread(self, function: Callable[..., T], *args: Any) -> T:
        if self._closed:
            raise AgentGraphError("run-store-closed", f"The Run store {self.storage!r} is closed")
        executor = self._executor
        if executor is None:
            return function(*args)
        return await asyncio.get_running_loop().run_in_executor(executor, functools.partial(function, *args))

    async def read_head(self, ref: str) -> seam.StoredHead:
        return await self._in_thread(self.storage.read_head, ref)

    async def read_events(self, ref: str, after: int, limit: int) -> seam.StoredPage:
        return await self._in_thread(self.storage.read_events, ref, after, limit)

    async def append(self, ref: str, write: seam.Write) -> seam.Appended:
        return await self._in_thread(self.storage.append, ref, write)

    async def create(self, new: seam.NewRun) -> None:
        await self._in_thread(self.storage.create, new)

    async def list_runs(self, query: seam.RunQuery) -> Iterable[RunSummary]:
        return await self._in_thread(self.storage.list_runs, query)

    async def checkpoint(self, ref: str, name: str, write: seam.CheckpointWrite) -> seam.Checkpointed:
        return await self._in_thread(self.storage.checkpoint, ref, name, write)

    async def read_checkpoint(self, name: str) -> seam.StoredCheckpoint:
        return await self._in_thread(self.storage.read_checkpoint, name)

    async def aclose(self) -> None:
        """End the worker threads (after the calls they run), then close the blocking storage."""
        if self._closed:
            return
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.get_running_loop().run_in_executor(
                None, functools.partial(executor.shutdown, wait=True)
            )
        self.storage.close()


class ThreadedAsyncRunStore(AsyncRunStore):
    """The async face of a blocking store (files, SQLite, a host's own): its storage runs on worker threads.

    ``store`` is the blocking store; its storage belongs to this object from
    now on (``aclose`` closes it), and its clock and Run IDs are this store's.
    """

    def __init__(self, store: BaseRunStore, *, workers: int = WORKERS) -> None:
        super().__init__(
            ThreadedStorage(store.storage, workers=workers), clock=store._clock, new_id=store._new_id
        )
        self.store = store

    def __repr__(self) -> str:
        return f"<ThreadedAsyncRunStore {self.store!r}>"
