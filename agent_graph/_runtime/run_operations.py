"""What every Run store operation relies on, written once for both faces: checks of what is read, writes decided.

The public operations (``load``, ``record`` …: :mod:`agent_graph._runtime.run_methods`)
are generators that check their arguments, build the Run transition of
:mod:`agent_graph._runtime.run_changes` and yield the storage calls they need
(:mod:`agent_graph._runtime.run_requests`). :class:`RunStoreOperations`
holds what they share: the store's clock, Run IDs and memo, and the checks
and decisions below. The blocking face
(:class:`~agent_graph._runtime.run_store.BaseRunStore`) and the async one
(:class:`~agent_graph._runtime.run_store_async.AsyncRunStore`) differ only in
the loop that performs the requests.

What a storage reads is checked here (a head text this store checked or wrote
lately is neither checked nor decoded again, and its evaluation is made once:
:class:`HeadMemo`); what it writes is decided here (:class:`~agent_graph._runtime.run_storage.Write`): the Provider check,
the revision guard, the change at the clock's time, :func:`settle` and the
bookkeeping of the Run's stored size. A storage only keeps and gives back.
"""

from __future__ import annotations

import threading
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timezone
from typing import Any, TypeVar

import msgspec

from .._core.errors import AgentGraphError
from .._core.model import Evaluation, Run, RunEvent, RunHead, StatusCode
from .._core.plain import json_bytes, plain_string
from .._core.provider import Provider
from .._core.state import unknown_state_key
from .._syntax import schema as _schema
from . import run_codec, run_storage as seam
from .run_changes import (
    Change,
    checkpoint_event,
    evaluate_run,
    evaluate_run_candidates,
    guarded,
    head_of,
    with_events,
)
from .run_codec import (
    checked_run_bytes,
    convert_run,
    decode_run,
    format_timestamp,
    key_text,
    not_a_run,
    parse_stored,
    settle,
    sized_run_bytes,
)
from .run_requests import (
    Operation,
)

__all__ = [
    "DEFAULT_EVENTS_LIMIT",
    "MAX_EVENT_NUMBER",
    "HeadMemo",
    "IdFactory",
    "Operation",
    "ProviderRef",
    "RunStoreOperations",
    "check_provider",
    "fresh_head",
    "provider_id",
]

T = TypeVar("T")
H = TypeVar("H", Run, RunHead)
#: A Provider, its ID, or None (no Provider check).
ProviderRef = Provider | str | None
#: A function answering a fresh Run ID.
IdFactory = Callable[[], str]
#: An evaluation of a Run's head and its candidate routes, as ``evaluate_run_candidates`` answers them.
Evaluated = tuple[Evaluation, Sequence[Any]]

#: A bound above any Run's count of events, for ``events(after=…, limit=…)`` (a 32-bit integer).
MAX_EVENT_NUMBER = 2**31 - 1
#: Events ``events()`` answers when no ``limit`` is given.
DEFAULT_EVENTS_LIMIT = 1000


def _system_clock() -> datetime:
    return datetime.now(timezone.utc)


def _random_id() -> str:
    return str(uuid.uuid4())


def provider_id(provider: Provider | str | None) -> str | None:
    """A Provider ID from a Provider, a string or None."""
    if provider is None:
        return None
    if isinstance(provider, str):
        return plain_string(provider, "provider")
    manifest = getattr(provider, "manifest", None)
    identity = getattr(manifest, "id", None)
    if not isinstance(identity, str):
        raise AgentGraphError("argument-invalid", "provider must be a Provider, a Provider ID or None")
    return plain_string(identity, "provider")


def check_provider(run: H, expected: str | None) -> H:
    """``run-provider-mismatch`` unless ``run`` belongs to ``expected`` (None: any Provider)."""
    if expected is not None and run.provider != expected:
        raise AgentGraphError(
            "run-provider-mismatch", f"Run {run.id} belongs to Provider {run.provider}, not {expected}"
        )
    return run


def _text_bytes(text: str | bytes) -> int:
    return len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))


# ---------------------------------------------------------------- the memo of checked heads


class _Kept:
    """What :class:`HeadMemo` keeps of one Run: a head text, its checked value and one evaluation of it."""

    __slots__ = ("evaluated", "head", "last", "provider", "text")

    def __init__(self, text: str, head: RunHead | None) -> None:
        self.text = text
        self.head = head
        self.last: Any = None
        self.provider: weakref.ref[Provider] | None = None
        self.evaluated: Evaluated | None = None


class HeadMemo:
    """The heads a store has checked or written lately, by Run: a head read again as the same text is not decoded again.

    For each Run (at most :attr:`entries`, heads up to :attr:`largest`
    characters) it keeps the head's text, the head checked from it (or
    written as it) and the evaluation of that head with one Provider
    (:meth:`evaluated`), so that ``next_step`` and the revision guard of the
    ``record`` that follows evaluate the head once, or not at all when the
    store wrote it and evaluated it then. An evaluation is keyed by the very
    head value it was made of (and the Provider, held weakly): a head read
    as another text is checked again and evaluated again. Owned by one store
    face and safe to share among its threads. The heads it keeps are never
    handed to a caller: the face answers copies (:func:`fresh_head`), so
    nothing a caller changes in an answer reaches the next one.
    """

    entries = 256
    largest = 64 * 1024

    def __init__(self) -> None:
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def head(self, ref: str, text: Any) -> RunHead | None:
        """The checked head of ``text`` if this memo keeps exactly that text for ``ref``."""
        with self._lock:
            kept = self._kept.get(ref)
            if kept is None or kept.head is None or kept.text != text:
                return None
            self._kept.move_to_end(ref)
            return kept.head

    def keep(self, ref: str, text: Any, head: RunHead | None = None) -> None:
        """Remember ``text`` as a checked head of ``ref`` (and ``head``, its value); the least recently used Run goes past the bound."""
        with self._lock:
            if type(text) is not str or len(text) > self.largest:
                self._kept.pop(ref, None)  # a head too large to keep is forgotten
                return
            kept = self._kept.get(ref)
            if kept is None or kept.text != text or (head is not None and kept.head is not head):
                self._kept[ref] = _Kept(text, head)
            self._kept.move_to_end(ref)
            while len(self._kept) > self.entries:
                self._kept.popitem(last=False)

    def agrees(self, ref: str, head: RunHead, last: Any) -> bool:
        """Whether ``last`` is the last event text found to agree with exactly ``head`` (or written with it)."""
        with self._lock:
            kept = self._kept.get(ref)
            return kept is not None and kept.head is head and type(last) is str and kept.last == last

    def agreed(self, ref: str, head: RunHead, last: Any) -> None:
        """Remember ``last`` as the last event text of ``head`` (while ``head`` is the Run's kept head)."""
        with self._lock:
            kept = self._kept.get(ref)
            if kept is not None and kept.head is head and type(last) is str and len(last) <= self.largest:
                kept.last = last

    def evaluated(self, ref: str, head: RunHead, provider: Provider) -> Evaluated | None:
        """The evaluation kept of exactly ``head`` (this value, not an equal one) with ``provider``, if any."""
        with self._lock:
            kept = self._kept.get(ref)
            if (
                kept is None
                or kept.head is not head
                or kept.provider is None
                or kept.provider() is not provider
            ):
                return None
            return kept.evaluated

    def remember(self, ref: str, head: RunHead, provider: Provider, evaluated: Evaluated) -> None:
        """Keep ``evaluated`` as the evaluation of ``head`` with ``provider`` (while ``head`` is the Run's kept head)."""
        with self._lock:
            kept = self._kept.get(ref)
            if kept is not None and kept.head is head:
                kept.provider = weakref.ref(provider)
                kept.evaluated = evaluated


def fresh_head(head: RunHead) -> RunHead:
    """A copy of ``head`` that shares no object with it (a kept head is never handed to a caller)."""
    copy: RunHead = msgspec.convert(msgspec.to_builtins(head), RunHead)
    return copy


# ---------------------------------------------------------------- the operations


class RunStoreOperations:
    """What both faces share: the store's clock, IDs and memo, the checks of what is read, the writes it decides."""

    _options: seam.StorageOptions
    _clock: seam.Clock
    _new_id: IdFactory
    _heads: HeadMemo

    def _setup(
        self, storage: seam.StorageOptions, clock: seam.Clock | None, new_id: IdFactory | None
    ) -> None:
        if not isinstance(storage, seam.StorageOptions):
            raise AgentGraphError(
                "argument-invalid",
                f"A Run store needs a storage (ag.storage.RunStorage), not {type(storage).__name__}",
            )
        if clock is not None and not callable(clock):
            raise AgentGraphError("argument-invalid", "clock must be a function answering a datetime")
        if new_id is not None and not callable(new_id):
            raise AgentGraphError("argument-invalid", "new_id must be a function answering a Run ID")
        self._options = storage
        self._clock = clock or _system_clock
        self._new_id = new_id or _random_id
        self._heads = HeadMemo()

    @property
    def store_kind(self) -> str:
        """The kind of store, as spans name it (``agent_graph.store``): files, sqlite, postgresql, memory …"""
        return self._options.kind

    @property
    def ref_kind(self) -> str:
        """What addresses a Run in this store: ``id``, or ``path`` (the file store)."""
        return self._options.ref_kind

    @property
    def lock_timeout(self) -> float:
        """Seconds a writer waits for another writer (0 to a week; ``run-lock-timeout`` after that)."""
        return self._options.lock_timeout

    @lock_timeout.setter
    def lock_timeout(self, value: float) -> None:
        self._options.lock_timeout = value

    # ------------------------------------------------------------ time and names

    def now(self) -> str:
        """The current time as a Run timestamp."""
        moment = self._clock()
        if not isinstance(moment, datetime):
            raise AgentGraphError(
                "argument-invalid", f"The Run store's clock returned {moment!r:.60}, not a datetime"
            )
        return format_timestamp(moment)

    def _fresh_id(self) -> str:
        """A new Run ID from ``new_id`` (``argument-invalid`` unless it is a non-empty string)."""
        identity = self._new_id()
        if not isinstance(identity, str) or not identity:
            raise AgentGraphError(
                "argument-invalid", f"The Run store's new_id returned {identity!r:.60}, not a string"
            )
        return key_text(plain_string(identity, "Run ID"), "The Run ID")

    def _new_identity(self, ref: str | None) -> str:
        """The ID of a new Run asked for as ``ref``: the one the storage names for it, else a fresh one.

        In a store of Run IDs that is ``ref`` itself; the file store names none
        for a ref that is a path (:meth:`~agent_graph.storage.RunStorage.run_id_for`).
        """
        identity = None if ref is None else self._options.run_id_for(ref)
        if identity is None:
            return self._fresh_id()
        return key_text(plain_string(identity, "Run ID"), "The Run ID")

    def _check_ref(self, ref: Any) -> None:
        if not isinstance(ref, str) or not ref or "\x00" in ref:
            raise AgentGraphError(
                "argument-invalid", f"A Run {self._options.ref_kind} must be a non-empty string"
            )
        identity = self._options.run_id_for(ref)  # a ref that is a Run ID (not a file's path) is a key
        if identity is not None:
            key_text(identity, "The Run id")

    @staticmethod
    def _need_provider(provider: object, what: str) -> Provider:
        if not isinstance(provider, Provider):
            raise AgentGraphError("argument-invalid", f"{what} needs the loaded Provider (ag.load_provider)")
        return provider

    @staticmethod
    def _state_key_guard(provider: Provider, node: str) -> Callable[[RunHead], None]:
        """``state-key-unknown`` (naming the closest key) unless ``node`` names a node of the Run's graph.

        A Run of a graph the Provider lacks is not checked here (nothing of it can be evaluated).
        """

        def guard(head: RunHead) -> None:
            if head.graph in provider.graphs:
                unknown = unknown_state_key(provider, head.graph, node)
                if unknown is not None:
                    raise unknown

        return guard

    def _revision_guard(self, given: ProviderRef, revision: str, ref: str) -> Callable[[RunHead], None]:
        """``run-revision-stale`` unless the head's evaluation is at ``revision``.

        The evaluation is the one this store made of that very head value (by ``next_step``, or when it
        wrote it), else a new one: a head changed by another writer is another value, evaluated again.
        """
        provider = self._need_provider(given, "record with a revision")
        if not isinstance(revision, str) or not revision:
            raise AgentGraphError("revision-invalid", "revision must be the step's revision string")

        def guard(head: RunHead) -> None:
            current = self._evaluated(ref, provider, head)[0].revision
            if current != revision:
                raise AgentGraphError(
                    "run-revision-stale",
                    f"Run {head.id} changed since revision {revision} (it is at {current} now); "
                    "nothing was recorded: take the next step again",
                )

        return guard

    def _evaluated(self, ref: str, provider: Provider, head: RunHead) -> Evaluated:
        """The evaluation of ``head`` (and its candidates): the one kept of this very head value, else a new one."""
        found = self._heads.evaluated(ref, head, provider)
        if found is None:
            evaluation, candidates = evaluate_run_candidates(provider, head)
            found = (evaluation, tuple(candidates))  # kept: the steps made of this head share it
            if all(d.detail is None for d in found[0].diagnostics):  # a detail is a mutable dict: not shared
                self._heads.remember(ref, head, provider, found)
        return found

    def _status(self, ref: str, provider: Provider | None, head: RunHead) -> StatusCode | None:
        """What ``list`` keeps of a head just written: :func:`status_of`, from the evaluation kept of it."""
        if provider is None or head.graph not in provider.graphs:
            return None
        return self._evaluated(ref, provider, head)[0].status_code

    # ------------------------------------------------------------ what a storage reads, checked

    def _head_of(self, ref: str, stored: seam.StoredHead) -> RunHead:
        """The head a storage read: a checked value as it is, a text parsed and checked (unless remembered)."""
        value, count = stored.head, stored.events
        if isinstance(value, RunHead):
            return value
        where = self._options.where(ref)
        if (
            not isinstance(value, (str, bytes))
            or isinstance(count, bool)
            or not isinstance(count, int)
            or count < 1
        ):
            raise AgentGraphError("run-invalid", f"{where}: the stored head row is not a Run head")
        kept = self._heads.head(ref, value)
        if kept is not None and kept.events == count:  # this store wrote or checked exactly this text
            return kept
        raw = parse_stored(value, where)
        if not isinstance(raw, dict) or "events" in raw:
            raise AgentGraphError("run-invalid", f"{where}: the stored head is not a Run without its events")
        if self._options.ref_kind == "id" and raw.get("id") != ref:
            raise AgentGraphError(
                "run-invalid",
                f"{where}: the stored head names Run {raw.get('id')!r:.80}, not the Run of its row",
            )
        try:
            _schema.validate("run", {**raw, "events": []}, where)
            head = msgspec.convert({**raw, "events": count}, RunHead)
        except msgspec.ValidationError as error:
            raise AgentGraphError("run-invalid", f"{where} is not a valid Run head: {error}") from None
        except AgentGraphError as error:
            raise not_a_run(error, where) from None
        self._heads.keep(ref, value, head)
        return head

    def _agreeing(self, ref: str, head: RunHead, last: RunEvent | str | bytes | None) -> None:
        """``run-invalid`` unless the Run's last stored event agrees with its head (see :class:`~.run_storage.StoredHead`).

        It must be numbered as the head counts and not be later than the
        head's ``updatedAt`` (equal in every Run a store writes). O(1): one event.
        """
        if last is None or self._heads.agrees(ref, head, last):
            return
        where = self._options.where(ref)
        raw = last if isinstance(last, RunEvent) else parse_stored(last, f"{where} event {head.events}")
        sequence, at = (
            (raw.sequence, raw.at)
            if isinstance(raw, RunEvent)
            else (raw.get("sequence"), raw.get("at"))
            if isinstance(raw, dict)
            else (None, None)
        )
        if sequence != head.events:
            raise AgentGraphError(
                "run-invalid",
                f"{where} disagrees with itself: its head counts {head.events} events but its last stored event "
                f"is numbered {sequence!r:.40}; nothing is served or written (restore the Run from a backup or "
                "an export)",
            )
        if not isinstance(at, str) or at > head.updated_at:
            raise AgentGraphError(
                "run-invalid",
                f"{where} disagrees with itself: its last event ({at!r:.40}) is later than its head's updatedAt "
                f"({head.updated_at}); nothing is served or written (restore the Run from a backup or an export)",
            )
        self._heads.agreed(ref, head, last)

    def _page_of(self, ref: str, page: seam.StoredPage, after: int, limit: int) -> tuple[RunHead, list[Any]]:
        """The head of a page and its events: checked values as they are, or their JSON, each numbered right.

        The head must agree with the Run's last stored event (:meth:`_agreeing`): the storage's
        ``last``, or the page's last event when the page ends the Run.
        """
        head = self._head_of(ref, page.head)
        events = page.events
        where = self._options.where(ref)
        last = page.head.last
        if last is None and events and after + len(events) == head.events:
            last = events[-1]
        self._agreeing(ref, head, last)
        if len(events) != max(min(limit, head.events - after), 0):
            if after == 0:
                raise AgentGraphError(
                    "run-invalid",
                    f"{where}: the head counts {head.events} events but the store holds {len(events)} of them",
                )
            raise AgentGraphError("run-invalid", f"{where}: events after {after} are missing from the store")
        found: list[Any] = []
        for expected, event in enumerate(events, start=after + 1):
            raw = event if isinstance(event, RunEvent) else parse_stored(event, f"{where} event {expected}")
            sequence = (
                raw.sequence
                if isinstance(raw, RunEvent)
                else raw.get("sequence")
                if isinstance(raw, dict)
                else None
            )
            if sequence != expected:
                raise AgentGraphError(
                    "run-invalid",
                    f"{where}: event row {expected} holds an event that is not numbered {expected}",
                )
            found.append(raw)
        return head, found

    @staticmethod
    def _all_values(head: seam.StoredHead, events: list[Any]) -> bool:
        return isinstance(head.head, RunHead) and all(isinstance(event, RunEvent) for event in events)

    def _events_of(
        self, ref: str, page: seam.StoredPage, after: int, limit: int
    ) -> tuple[RunHead, tuple[RunEvent, ...]]:
        head, found = self._page_of(ref, page, after, limit)
        if self._all_values(page.head, found):
            return head, tuple(found)
        where = self._options.where(ref)
        raw = [event.to_json() if isinstance(event, RunEvent) else event for event in found]
        try:
            _schema.validate("run", {**head.to_json(), "events": raw}, where)
            return head, tuple(msgspec.convert(event, RunEvent) for event in raw)
        except (AgentGraphError, msgspec.ValidationError) as error:
            raise AgentGraphError("run-invalid", f"{where} holds an invalid event: {error}") from None

    def _run_of(self, ref: str, page: seam.StoredPage) -> Run:
        """The whole Run of a page read from its first event, checked as a whole."""
        head, found = self._page_of(ref, page, 0, MAX_EVENT_NUMBER)
        if self._all_values(page.head, found):
            return with_events(head, tuple(found))
        where = self._options.where(ref)
        raw = head.to_json()
        raw["events"] = [event.to_json() if isinstance(event, RunEvent) else event for event in found]
        try:
            _schema.validate("run", raw, where)
        except AgentGraphError as error:
            raise not_a_run(error, where) from None
        return convert_run(raw, where)

    @staticmethod
    def _checkpoint_run(stored: seam.StoredCheckpoint) -> Run:
        document = stored.document
        if isinstance(document, Run):
            return document
        return decode_run(document, f"checkpoint {stored.name}")

    # ------------------------------------------------------------ what a storage writes, decided

    def _size_after(
        self, ref: str, stored: seam.StoredHead, head_json: str, event_json: Iterable[str]
    ) -> int | None:
        """The Run's stored size once ``head_json`` replaces its head and ``event_json`` is appended.

        ``run-too-large`` past half the limit of Runs (its file form is larger); None when the storage does not count.
        """
        if stored.size is None:
            return None
        old = stored.head
        old_text = old if isinstance(old, (str, bytes)) else json_bytes(_without_events(old))
        total = (
            stored.size
            - _text_bytes(old_text)
            + _text_bytes(head_json)
            + sum(_text_bytes(t) for t in event_json)
        )
        limit = run_codec.MAX_RUN_BYTES // 2
        if total > limit:
            raise AgentGraphError(
                "run-too-large",
                f"{self._options.where(ref)} would hold {total} bytes of JSON, over {limit} (half the "
                f"{run_codec.MAX_RUN_BYTES}-byte limit of a Run file, which is indented); nothing was written: "
                "start a new Run (or checkpoint and resume) instead of growing this one",
            )
        return total

    def _write(
        self, ref: str, provider: ProviderRef, change: Change, guard: Callable[[RunHead], None] | None = None
    ) -> seam.Write:
        """The write of ``change``: the Provider check, agreement, ``guard``, the change, settle, size and status.

        The time is taken only once the head passed every check and the guard,
        so a refused write takes none, in every store (a clock a test injects
        counts the same writes everywhere).
        """
        where = self._options.where(ref)
        expected = provider_id(provider)
        evaluator = provider if isinstance(provider, Provider) else None

        def decide(stored: seam.StoredHead, trial: bool) -> seam.Appended:
            before = check_provider(self._head_of(ref, stored), expected)
            self._agreeing(ref, before, stored.last)
            if guard is not None:
                guard(before)
            head, added = change(before, before.updated_at if trial else self.now())
            head, events, head_json, texts = settle(head, added, where, before)
            size = self._size_after(ref, stored, head_json, texts)
            if trial:
                return seam.Appended(head, events, head_json, tuple(texts), size)
            self._heads.keep(ref, head_json, head)
            if texts:
                self._heads.agreed(ref, head, texts[-1])
            status = self._status(ref, evaluator, head)
            return seam.Appended(head, events, head_json, tuple(texts), size, status)

        return seam.Write(decide)

    def _checkpoint_write(self, ref: str, provider: ProviderRef) -> seam.CheckpointWrite:
        where = self._options.where(ref)
        expected = provider_id(provider)
        evaluator = provider if isinstance(provider, Provider) else None

        def decide(page: seam.StoredPage, name: str, trial: bool) -> seam.Checkpointed:
            run = check_provider(self._run_of(ref, page), expected)
            before = head_of(run)
            change = guarded(None, checkpoint_event(name))
            head, added = change(before, before.updated_at if trial else self.now())
            head, events, head_json, texts = settle(head, added, where, before)
            size = self._size_after(ref, page.head, head_json, texts)
            snapshot = msgspec.structs.replace(with_events(head, (*run.events, *events)), authorities=())
            document = sized_run_bytes(snapshot, f"checkpoint {name}")
            status = None
            if not trial:
                self._heads.keep(ref, head_json, head)
                status = self._status(ref, evaluator, head)
            return seam.Checkpointed(
                seam.Appended(head, events, head_json, tuple(texts), size, status), snapshot, document
            )

        return seam.CheckpointWrite(decide)

    def _new_run(
        self, run: Run, ref: str | None, purpose: seam.Purpose, provider: ProviderRef
    ) -> seam.NewRun:
        """A Run to create, checked as every store checks it (``argument-invalid`` and what the reader refuses).

        With the loaded Provider at hand its status is evaluated, for ``list``.
        """
        for value, name in ((run.id, "Run ID"), (run.provider, "Provider ID"), (run.graph, "Graph ID"),
                            (run.entry, "entry")):  # fmt: skip
            key_text(value, f"The {name}")
        document = checked_run_bytes(run, f"Run {run.id}")
        status = status_of(provider if isinstance(provider, Provider) else None, run)
        return seam.NewRun(run, ref, purpose, document, status)


def status_of(provider: Provider | None, run: Run | RunHead) -> StatusCode | None:
    """The Run's evaluation status with ``provider`` (None without one, or for a graph it lacks): what ``list`` keeps."""
    if provider is None or run.graph not in provider.graphs:
        return None
    return evaluate_run(provider, run).status_code


def _without_events(head: RunHead) -> dict[str, Any]:
    raw: dict[str, Any] = head.to_json()
    raw.pop("events", None)
    return raw
