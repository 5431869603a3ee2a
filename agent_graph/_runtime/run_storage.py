"""The storage seam of the Run stores: the one interface a backend implements.

A Run store has two parts:

* its **face**, :class:`~agent_graph.BaseRunStore` (blocking) or
  :class:`~agent_graph.AsyncRunStore` (coroutines): what a host calls
  (``start``, ``next_step``, ``record`` …). The face checks every argument,
  refuses a Run of another Provider, evaluates the revision guard, builds the
  Run transition, checks what a write adds (:func:`~agent_graph._runtime.run_codec.settle`),
  checks what a storage reads back, and keeps the bookkeeping of heads and
  sizes. Both faces run the very same operations
  (:mod:`agent_graph._runtime.run_methods`, over :mod:`agent_graph._runtime.run_operations`).
* its **storage**, :class:`RunStorage` (or :class:`AsyncRunStorage`, the same
  methods as coroutines): where Runs are kept. Eight methods, no Run logic:
  read a head, read a page of events, append under the Run's guard, create,
  list, checkpoint, read a checkpoint, close.

What a storage keeps is text: the JSON of a Run's head (every field but its
events) and of each event, exactly as the face hands them over
(:class:`Appended`, :class:`NewRun`); it gives the same text back and the face
checks it (a text the face wrote or checked before is not checked again). A
storage that keeps whole documents may answer checked values instead
(:class:`~agent_graph.types.RunHead`, :class:`~agent_graph.types.RunEvent`,
:class:`~agent_graph.Run`), which the face takes as they are.

Rules a storage keeps:

* ``append`` and ``checkpoint`` hold the Run against every other writer
  (a lock, a transaction, or an optimistic guard that writes only if the head
  is still the one read), call the :class:`Write` they are given with the head
  as it is then, and store all of its answer or none of it. A ``Write`` is
  pure and may be called again (on a newer head, when another writer came
  first); what raises is never stored.
* Events are numbered 1..n; the ones a write adds follow the head's count.
* A missing Run is ``run-missing``, a taken ID or name ``run-target-exists``,
  a closed storage ``run-store-closed``, a wait for another writer longer than
  :attr:`~StorageOptions.lock_timeout` ``run-lock-timeout``, any other failure
  of the storage ``run-store-failed`` or ``run-store-unavailable``; never
  another exception.
* Deadlines are read from :meth:`~StorageOptions.monotonic`, the store's
  injected monotonic clock, never from :mod:`time` directly.

A scheme of store URLs (``redis://…``) is a
:class:`~agent_graph._runtime.store_scheme.StoreScheme` registered under the
entry-point group ``agent_graph.stores`` (docs/host-integration.md).
"""

from __future__ import annotations

import abc
import dataclasses
import functools
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Literal, NamedTuple

from .._core.model import Run, RunEvent, RunHead, RunSummary, StatusCode
from .._core.plain import json_bytes
from .run_codec import DEFAULT_LOCK_TIMEOUT, checked_clock, checked_timeout, monotonic_seconds

__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "Appended",
    "AsyncRunStorage",
    "CheckpointWrite",
    "Checkpointed",
    "Clock",
    "MonotonicClock",
    "NewRun",
    "RunQuery",
    "RunStorage",
    "StorageOptions",
    "StoredCheckpoint",
    "StoredHead",
    "StoredPage",
    "Write",
    "run_key",
    "summary_of",
]

#: The wall clock of a store: the current time, timezone-aware (Run timestamps come from it).
Clock = Callable[[], datetime]
#: The monotonic clock of a store: seconds that never go back (lock deadlines and timeouts come from it).
MonotonicClock = Callable[[], float]

#: Why a Run is created: ``start``, ``resume``, ``fork`` or ``import_run``.
Purpose = Literal["start", "resume", "fork", "import"]


class StoredHead(NamedTuple):
    """A Run's head as a storage read it.

    ``head`` is the JSON text of the Run without its ``events`` (as
    :attr:`Appended.head_json` or :attr:`NewRun.head_json` gave it), or a
    :class:`~agent_graph.types.RunHead` the storage checked itself. ``events`` is the
    number of events stored for it. ``size`` is the bytes (UTF-8) of the
    Run's stored JSON, its head and every event, when the storage counts it
    (the face then refuses a write that would take the Run past half the
    limit of Runs with ``run-too-large``, and answers the new size in
    :attr:`Appended.size`); None when the storage bounds the Run's size itself.
    """

    head: RunHead | str | bytes
    events: int
    size: int | None = None
    last: RunEvent | str | bytes | None = None


class StoredPage(NamedTuple):
    """A Run's head and a page of its events, read together: ``events`` as JSON texts or checked values."""

    head: StoredHead
    events: Sequence[RunEvent | str | bytes]


class Appended(NamedTuple):
    """What a write stores: the Run's new head and the events it adds, as values and as the text to keep.

    ``head_json`` replaces the stored head; ``event_json`` are the new
    events, numbered after the old head's count (``head.events`` is the new
    count). ``size`` is the Run's stored size afterwards (None unless the
    storage gave one in :attr:`StoredHead.size`). ``status`` is the Run's
    evaluation status after the write (``actionable``, ``waiting-user``,
    ``blocked``, ``complete``, ``error``) when the write had the Provider at
    hand, to keep for :meth:`RunStorage.list_runs`; None: keep the status the
    Run had (the write was not evaluated).
    """

    head: RunHead
    events: tuple[RunEvent, ...]
    head_json: str
    event_json: tuple[str, ...]
    size: int | None
    status: StatusCode | None = None


class Checkpointed(NamedTuple):
    """What a checkpoint stores: the write to the Run (``run.checkpointed``) and the checkpoint.

    ``snapshot`` is the Run as of that event, without authorities, and
    ``document`` its ``agent-graph.run.v1`` file bytes, to keep under the
    checkpoint's name.
    """

    appended: Appended
    snapshot: Run
    document: bytes


class StoredCheckpoint(NamedTuple):
    """A checkpoint as a storage read it: its Run (file text, or a checked Run) and the name it is kept under."""

    document: Run | str | bytes
    name: str


class RunQuery(NamedTuple):
    """What ``list`` asks for: filters (each None: any), where a page starts, the order and a bound.

    Timestamps are Run timestamps (``updated_after`` and ``updated_before``
    are strict bounds); ``status`` an evaluation status (a Run whose status is
    not known is never selected by one). ``after`` is the key
    (:func:`run_key`) of the last Run of the page before: the answer holds
    the Runs that come after it in the order (None: from the first).
    ``newest_first`` orders by creation descending (else ascending), ties
    by Run ID then ref. ``limit`` bounds the page (None: every Run).

    A storage answers the Runs the query selects, in that order, at most
    ``limit`` of them (an index serves that), or any superset of them in any
    order: the face filters, orders and cuts again (:meth:`selects`,
    :func:`run_key`). Only a storage that applies every filter and the order
    may apply ``limit`` (the face asks for one Run more than a page, to know
    whether another page follows).
    """

    provider: str | None = None
    graph: str | None = None
    updated_after: str | None = None
    updated_before: str | None = None
    status: StatusCode | None = None
    after: tuple[str, str, str] | None = None
    newest_first: bool = False
    limit: int | None = None

    def selects(self, summary: RunSummary) -> bool:
        """Whether ``summary`` passes every filter and comes after :attr:`after` in the order."""
        if (
            (self.provider is not None and summary.provider != self.provider)
            or (self.graph is not None and summary.graph != self.graph)
            or (self.status is not None and summary.status != self.status)
            or (self.updated_after is not None and not summary.updated_at > self.updated_after)
            or (self.updated_before is not None and not summary.updated_at < self.updated_before)
        ):
            return False
        if self.after is None:
            return True
        key = run_key(summary)
        return key < self.after if self.newest_first else key > self.after


def run_key(summary: RunSummary) -> tuple[str, str, str]:
    """The key a listing orders Runs by and pages on: ``(created_at, id, ref)`` (a write never moves a Run)."""
    return (summary.created_at, summary.id, summary.ref)


class Write:
    """One change to one Run, as the face hands it to :meth:`RunStorage.append`.

    Call it with the Run's head as it is inside the storage's guard: it checks
    the head, applies the change at the current time and answers what to store
    (:class:`Appended`), or raises (``run-revision-stale``,
    ``run-provider-mismatch``, ``run-too-large`` …), and then nothing is
    stored. It is pure: calling it again on a newer head is allowed.
    :meth:`check` raises what a call would, without taking the time; a storage
    that must create something before it can hold the Run (a lock file) calls
    it first, so a refused change leaves nothing behind.
    """

    __slots__ = ("_decide",)

    def __init__(self, decide: Callable[[StoredHead, bool], Appended]) -> None:
        self._decide = decide

    def __call__(self, head: StoredHead) -> Appended:
        return self._decide(head, False)

    def check(self, head: StoredHead) -> None:
        """Raise what ``self(head)`` would raise; nothing is remembered."""
        self._decide(head, True)


class CheckpointWrite:
    """A checkpoint of one Run, as the face hands it to :meth:`RunStorage.checkpoint`.

    Call it with the whole Run (its head and every event, read inside the
    storage's guard) and the name the checkpoint is kept under: it appends
    ``run.checkpointed`` and answers the write and the checkpoint
    (:class:`Checkpointed`). Pure, like :class:`Write`; :meth:`check` raises
    what a call would, without taking the time.
    """

    __slots__ = ("_decide",)

    def __init__(self, decide: Callable[[StoredPage, str, bool], Checkpointed]) -> None:
        self._decide = decide

    def __call__(self, run: StoredPage, name: str) -> Checkpointed:
        return self._decide(run, name, False)

    def check(self, run: StoredPage, name: str) -> None:
        """Raise what ``self(run, name)`` would raise; nothing is remembered."""
        self._decide(run, name, True)


@dataclasses.dataclass(eq=False, repr=False)
class NewRun:
    """A Run to create, checked: what :meth:`RunStorage.create` keeps.

    ``run`` is the whole Run (its ``id`` is its address in a store of Run IDs),
    ``ref`` the address the caller asked for (a path in the file store) or
    None, ``purpose`` why it is created. ``document`` is its
    ``agent-graph.run.v1`` file bytes, checked with the Run reader;
    ``head_json`` and ``event_json`` the texts to keep for a store of heads
    and events, and ``size`` their bytes (computed when first asked for).
    ``status`` is the new Run's evaluation status when it was created with
    the Provider at hand (None: not evaluated), to keep for ``list_runs``.
    """

    run: Run
    ref: str | None
    purpose: Purpose
    document: bytes
    status: StatusCode | None = None

    @property
    def label(self) -> str:
        """How messages name the creation: ``Run start``, ``Run resume``, ``Run fork``, ``Run import``."""
        return "Run " + self.purpose

    @functools.cached_property
    def _texts(self) -> tuple[str, tuple[str, ...]]:
        raw = self.run.to_json()
        events = raw.pop("events")
        return json_bytes(raw).decode("utf-8"), tuple(json_bytes(event).decode("utf-8") for event in events)

    @property
    def head_json(self) -> str:
        """The Run's JSON without its events (compact)."""
        return self._texts[0]

    @property
    def event_json(self) -> tuple[str, ...]:
        """Each event's JSON (compact), numbered 1..n."""
        return self._texts[1]

    @property
    def size(self) -> int:
        """The bytes (UTF-8) of :attr:`head_json` and every text of :attr:`event_json`."""
        head, events = self._texts
        return len(head.encode("utf-8")) + sum(len(text.encode("utf-8")) for text in events)


def summary_of(run: Run | RunHead, ref: str, status: StatusCode | None = None) -> RunSummary:
    """The :class:`~agent_graph.types.RunSummary` of a Run (or of a head) kept under ``ref``, for ``list_runs``.

    ``status`` is the Run's status as of its last evaluated write (:attr:`Appended.status`,
    :attr:`NewRun.status`), None when none was.
    """
    return RunSummary(
        id=run.id,
        ref=ref,
        provider=run.provider,
        graph=run.graph,
        entry=run.entry,
        created_at=run.created_at,
        updated_at=run.updated_at,
        events=run.events if isinstance(run, RunHead) else len(run.events),
        status=status,
    )


class StorageOptions:
    """The options every storage takes: ``lock_timeout`` and the monotonic clock of its deadlines.

    ``lock_timeout`` (seconds, 0 to a week) bounds the wait for another writer
    of a Run (``run-lock-timeout`` after it); ``monotonic`` is the clock that
    deadlines are read from (default :func:`time.monotonic`), so a host's or a
    test's clock reaches them.
    """

    #: The kind of store, as spans name it (``agent_graph.store``): files, sqlite, postgresql, memory …
    kind: str = "store"
    #: What addresses a Run: ``id`` (its Run ID; a ref given to ``start``, ``resume`` or ``fork``
    #: becomes the new Run's ID) or ``path`` (the file store: a Run ID, or the path of a Run file).
    ref_kind: Literal["id", "path"] = "id"

    _lock_timeout: float = DEFAULT_LOCK_TIMEOUT
    _monotonic: MonotonicClock | None = None

    def __init__(
        self, *, lock_timeout: float = DEFAULT_LOCK_TIMEOUT, monotonic: MonotonicClock | None = None
    ) -> None:
        self.lock_timeout = lock_timeout
        self._monotonic = checked_clock(monotonic)

    @property
    def lock_timeout(self) -> float:
        """Seconds a writer waits for another writer (0 to a week; ``run-lock-timeout`` after that)."""
        return self._lock_timeout

    @lock_timeout.setter
    def lock_timeout(self, value: float) -> None:
        self._lock_timeout = checked_timeout(value, "lock_timeout")

    def monotonic(self) -> float:
        """The store's monotonic clock, in seconds: read every deadline from it."""
        return monotonic_seconds(self._monotonic, "The Run store's")

    def where(self, ref: str) -> str:
        """How messages name the Run ``ref`` in this storage (or the storage itself, for an empty ``ref``)."""
        return f"Run {ref}" if ref else f"the {self.kind} Run store"

    def run_id_for(self, ref: str) -> str | None:
        """The Run ID of a Run that ``start``, ``resume`` or ``fork`` create under ``ref``: ``ref`` itself.

        None gives the new Run a fresh ID (the file store does for a ref that
        is the path of a Run file); a storage that can address a Run only by
        its ID keeps this default.
        """
        return ref


class RunStorage(StorageOptions, abc.ABC):
    """Where a blocking Run store keeps its Runs: implement these methods, and the face does the rest.

    ``ag.BaseRunStore(storage)`` is then a Run store with every operation,
    check and guarantee of the built-in ones. See the module's docs for the
    rules; :class:`~agent_graph.MemoryRunStore` is a complete example.
    """

    @abc.abstractmethod
    def read_head(self, ref: str) -> StoredHead:
        """The head of the Run ``ref`` (``run-missing`` if there is none)."""

    @abc.abstractmethod
    def read_events(self, ref: str, after: int, limit: int) -> StoredPage:
        """The Run's head and its events numbered ``after + 1`` on, at most ``limit`` of them.

        Never an event past the head's count (read the head first, then the
        events up to its count, or both at once); ``run-missing`` if there is
        no Run ``ref``.
        """

    @abc.abstractmethod
    def append(self, ref: str, write: Write) -> Appended:
        """Hold the Run against other writers, call ``write`` with its head, store its answer whole; answer it.

        Store :attr:`Appended.head_json` as the head and add
        :attr:`Appended.event_json` after the existing events, all or
        nothing. ``run-missing`` if there is no Run ``ref``; what ``write``
        raises, with nothing stored.
        """

    @abc.abstractmethod
    def create(self, new: NewRun) -> None:
        """Keep a new Run; ``run-target-exists`` (nothing stored) if its ID (or ref) is taken."""

    @abc.abstractmethod
    def list_runs(self, query: RunQuery) -> Iterable[RunSummary]:
        """A summary of every stored Run (or of those the query selects; the face filters again)."""

    @abc.abstractmethod
    def checkpoint(self, ref: str, name: str, write: CheckpointWrite) -> Checkpointed:
        """Hold the Run, call ``write`` with the whole Run and the checkpoint's name, store both parts.

        Append :attr:`Checkpointed.appended` to the Run as :meth:`append`
        does and keep :attr:`Checkpointed.document` under the checkpoint's
        name, both or neither: ``run-target-exists`` if the name is taken.
        ``name`` is the name asked for; a storage may keep it under another
        form of it (the file store: a path) and passes to ``write`` the name
        that :meth:`read_checkpoint` will answer.
        """

    @abc.abstractmethod
    def read_checkpoint(self, name: str) -> StoredCheckpoint:
        """The checkpoint kept under ``name`` (``run-missing`` if there is none)."""

    def close(self) -> None:
        """Release what the storage holds (connections, files); it cannot be used afterwards."""


class AsyncRunStorage(StorageOptions, abc.ABC):
    """The methods of :class:`RunStorage` as coroutines, for a storage that waits on an event loop.

    ``ag.AsyncRunStore(storage)`` is then an async Run store. A ``Write`` is
    still called synchronously (it does no I/O). A blocking storage gets an
    async face without this: ``ag.open_async_store`` runs it on worker threads.
    """

    @abc.abstractmethod
    async def read_head(self, ref: str) -> StoredHead:
        """As :meth:`RunStorage.read_head`."""

    @abc.abstractmethod
    async def read_events(self, ref: str, after: int, limit: int) -> StoredPage:
        """As :meth:`RunStorage.read_events`."""

    @abc.abstractmethod
    async def append(self, ref: str, write: Write) -> Appended:
        """As :meth:`RunStorage.append`."""

    @abc.abstractmethod
    async def create(self, new: NewRun) -> None:
        """As :meth:`RunStorage.create`."""

    @abc.abstractmethod
    async def list_runs(self, query: RunQuery) -> Iterable[RunSummary]:
        """As :meth:`RunStorage.list_runs`."""

    @abc.abstractmethod
    async def checkpoint(self, ref: str, name: str, write: CheckpointWrite) -> Checkpointed:
        """As :meth:`RunStorage.checkpoint`."""

    @abc.abstractmethod
    async def read_checkpoint(self, name: str) -> StoredCheckpoint:
        """As :meth:`RunStorage.read_checkpoint`."""

    async def aclose(self) -> None:
        """Release what the storage holds."""
