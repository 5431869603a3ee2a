"""The memory Run store, ``memory://``: Runs kept in the process, for tests and single-process hosts.

Written only against the public storage seam (:mod:`agent_graph.storage`; a
test checks that this module imports nothing else of agent-graph), it is the
worked example of docs/host-integration.md: a storage keeps texts and gives
them back, and the store's face does every check, the revision guard and the
bookkeeping.

What it keeps: each Run's head text, its event texts and its size, and the
checkpoints' documents, in this object only. Nothing outlives the process,
nothing is shared between two stores: every ``open_store("memory://")`` is a
new, empty store, and ``close()`` drops what it held. Every value is kept as
the JSON text the face hands over, so a read parses its own copy and nothing a
caller changes in an answer reaches the store.

Concurrency: thread-safe within the process. One lock guards the store; a
write holds it across read, decide and keep (so concurrent writers of a Run
take turns and none is lost), and a writer waits for it at most
``lock_timeout`` seconds (``run-lock-timeout``). The async face calls the same
storage at once on the event loop (``ThreadedStorage(storage, workers=0)``): no
call waits on I/O, and the lock is held only while a call runs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import NamedTuple

from .._core.errors import AgentGraphError
from .._core.model import RunSummary
from .run_storage import (
    DEFAULT_LOCK_TIMEOUT,
    Appended,
    Checkpointed,
    CheckpointWrite,
    Clock,
    MonotonicClock,
    NewRun,
    RunQuery,
    RunStorage,
    StoredCheckpoint,
    StoredHead,
    StoredPage,
    Write,
    summary_of,
)
from .run_store import BaseRunStore
from .run_store_async import AsyncRunStore, ThreadedStorage
from .store_scheme import StoreScheme

__all__ = ["SCHEME", "MemoryRunStore", "MemoryStorage"]


class _Kept(NamedTuple):
    head: str
    events: list[str]
    size: int
    summary: RunSummary


class MemoryStorage(RunStorage):
    """Runs in this object: the storage of :class:`MemoryRunStore` (see the module's docs)."""

    kind = "memory"

    def __init__(
        self, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT, monotonic: MonotonicClock | None = None
    ) -> None:
        super().__init__(lock_timeout=lock_timeout, monotonic=monotonic)
        self._lock = threading.Lock()
        self._runs: dict[str, _Kept] = {}
        self._checkpoints: dict[str, bytes] = {}
        self._closed = False

    def __repr__(self) -> str:
        return f"<MemoryStorage of {len(self._runs)} Runs>"

    def _hold(self) -> _Held:
        return _Held(self)

    def _run(self, ref: str) -> _Kept:
        kept = self._runs.get(ref)
        if kept is None:
            raise AgentGraphError("run-missing", f"The memory store holds no Run {ref}")
        return kept

    @staticmethod
    def _head(kept: _Kept) -> StoredHead:
        return StoredHead(kept.head, len(kept.events), kept.size)

    def _keep(self, ref: str, kept: _Kept, appended: Appended) -> None:
        """Store what a write answered: the new head replaces the old, the new events follow.

        A write that was not evaluated (no status) keeps the status the Run had.
        """
        status = appended.status if appended.status is not None else kept.summary.status
        self._runs[ref] = _Kept(
            appended.head_json,
            [*kept.events, *appended.event_json],
            appended.size if appended.size is not None else kept.size,
            summary_of(appended.head, ref, status),
        )

    # ------------------------------------------------------------ the seam

    def read_head(self, ref: str) -> StoredHead:
        with self._hold():
            return self._head(self._run(ref))

    def read_events(self, ref: str, after: int, limit: int) -> StoredPage:
        with self._hold():
            kept = self._run(ref)
            return StoredPage(self._head(kept), kept.events[after : after + limit])

    def append(self, ref: str, write: Write) -> Appended:
        with self._hold():
            kept = self._run(ref)
            appended = write(self._head(kept))  # raises: nothing is kept
            self._keep(ref, kept, appended)
            return appended

    def create(self, new: NewRun) -> None:
        run = new.run
        with self._hold():
            if run.id in self._runs:
                raise AgentGraphError(
                    "run-target-exists", f"{new.label}: the memory store already holds Run {run.id}"
                )
            summary = summary_of(run, run.id, new.status)
            self._runs[run.id] = _Kept(new.head_json, list(new.event_json), new.size, summary)

    def list_runs(self, query: RunQuery) -> Iterator[RunSummary]:
        """The Runs the query selects, in no order and without its limit: the face orders and cuts."""
        with self._hold():
            found = [kept.summary for kept in self._runs.values()]
        return (summary for summary in found if query.selects(summary))

    def checkpoint(self, ref: str, name: str, write: CheckpointWrite) -> Checkpointed:
        with self._hold():
            if name in self._checkpoints:
                raise AgentGraphError(
                    "run-target-exists",
                    f"Checkpoint refuses to replace checkpoint {name} of the memory store",
                )
            kept = self._run(ref)
            done = write(StoredPage(self._head(kept), kept.events), name)
            self._keep(ref, kept, done.appended)
            self._checkpoints[name] = done.document
            return done

    def read_checkpoint(self, name: str) -> StoredCheckpoint:
        with self._hold():
            document = self._checkpoints.get(name)
        if document is None:
            raise AgentGraphError("run-missing", f"The memory store holds no checkpoint {name}")
        return StoredCheckpoint(document, name)

    def close(self) -> None:
        """Drop every Run; the store cannot be used afterwards."""
        with self._lock:
            self._closed = True
            self._runs.clear()
            self._checkpoints.clear()


class _Held:
    """The store's lock, waited for at most ``lock_timeout`` seconds; ``run-store-closed`` once closed."""

    __slots__ = ("_storage",)

    def __init__(self, storage: MemoryStorage) -> None:
        self._storage = storage

    def __enter__(self) -> None:
        storage = self._storage
        if not storage._lock.acquire(timeout=storage.lock_timeout):
            raise AgentGraphError(
                "run-lock-timeout",
                f"Another writer held the memory store for more than {storage.lock_timeout:g} s",
            )
        if storage._closed:
            storage._lock.release()
            raise AgentGraphError("run-store-closed", "The memory Run store is closed")

    def __exit__(self, *_: object) -> None:
        self._storage._lock.release()


class MemoryRunStore(BaseRunStore):
    """A Run store in this process only: ``ag.MemoryRunStore()`` or ``ag.open_store("memory://")``.

    For tests and single-process hosts: every store is new and empty, keeps
    nothing across processes and drops its Runs on ``close()``; thread-safe
    within the process. The options are those of every store: ``clock``,
    ``new_id``, ``lock_timeout`` and ``monotonic``. ``await
    ag.open_async_store("memory://")`` opens one with the async face.
    """

    storage: MemoryStorage

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        new_id: Callable[[], str] | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        monotonic: MonotonicClock | None = None,
    ) -> None:
        super().__init__(
            MemoryStorage(lock_timeout=lock_timeout, monotonic=monotonic), clock=clock, new_id=new_id
        )

    def __repr__(self) -> str:
        return "<MemoryRunStore>"


def _check_url(url: str) -> None:
    if not isinstance(url, str) or url.lower() != "memory://":
        raise AgentGraphError(
            "store-url-invalid", f"Not a memory store URL: {url!r:.80}; write memory:// (nothing after it)"
        )


def open_memory(
    url: str,
    *,
    clock: Clock | None = None,
    new_id: Callable[[], str] | None = None,
    lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    monotonic: MonotonicClock | None = None,
) -> MemoryRunStore:
    """A new, empty memory store for the URL ``memory://``."""
    _check_url(url)
    return MemoryRunStore(clock=clock, new_id=new_id, lock_timeout=lock_timeout, monotonic=monotonic)


async def open_memory_async(
    url: str,
    *,
    clock: Clock | None = None,
    new_id: Callable[[], str] | None = None,
    lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    monotonic: MonotonicClock | None = None,
) -> AsyncRunStore:
    """A new, empty memory store for the URL ``memory://``, with the async face."""
    _check_url(url)
    storage = MemoryStorage(lock_timeout=lock_timeout, monotonic=monotonic)
    return AsyncRunStore(ThreadedStorage(storage, workers=0), clock=clock, new_id=new_id)


#: The ``memory:`` scheme of store URLs.
SCHEME = StoreScheme(open=open_memory, open_async=open_memory_async, name="memory", example="memory://")
