"""The Run store contract: one API over files, SQLite and PostgreSQL, sync and async.

Every public operation is written once, as a generator (``_op_*``) that checks
its arguments, builds the Run transition of
:mod:`agent_graph._runtime.run_changes` and yields the storage primitives it
needs as :class:`Call` values; :class:`BaseRunStore` drives it with its
backend's blocking primitives and :class:`~agent_graph._runtime.run_store_async.AsyncRunStore`
with coroutines. A backend supplies:

* ``_read(ref)``: the whole Run, checked (``run-missing``, ``run-invalid``);
* ``_head(ref)``: the Run's head only (``run-missing``, ``run-invalid``);
* ``_page(ref, expected, after, limit)``: events after a sequence number;
* ``_apply(ref, expected, change)``: lock the Run, read its head, apply the
  change, write the new head and append the new events atomically; a change
  that raises leaves the stored Run as it was;
* ``_create(ref, run, label)``: store a new Run, refusing a taken ref or ID
  (``run-target-exists``);
* ``_checkpoint``/``_read_checkpoint``: keep and find checkpoints;
* ``_summaries()``: every stored Run, for ``list``.

Rules every store keeps: a write checks only what it adds (:func:`settle`:
plain JSON values, the depth and size a reader takes, the Run schema over the
new head and events) and stores every value exactly as the reader reads it
back (numbers and key order as ``JSON.parse`` gives them), so a Run written
by many small records reads back, exports and re-imports byte for byte; a
Run that lies (a repeated key, events not numbered 1..n, a row whose JSON
disagrees with its key) is ``run-invalid``; a Run of another Provider is
refused with ``run-provider-mismatch`` before anything changes;
``record(…, revision=…)`` evaluates the Run's head inside the lock or
transaction and refuses with ``run-revision-stale`` unless it still evaluates
to that revision. Whole-Run validation happens on ``load``, ``export`` and
``import``.
"""

from __future__ import annotations

import builtins
import math
import os
import uuid
import warnings
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from datetime import datetime, timezone
from typing import Any, TypeVar

import msgspec

from .._core.errors import AgentGraphError, ErrorCode, os_error
from .._core.model import OutcomeRecord, ReadReceipts, Run, RunEvent, RunHead, RunSummary, Step
from .._core.plain import is_plain_json, json_bytes, plain_string
from .._core.provider import Provider
from .._core.receipts import Receipts
from .._syntax import schema as _schema
from .run_changes import (
    DETAIL_MAX_DEPTH,
    FACTS_MAX_DEPTH,
    Change,
    authorities_change,
    check_events,
    evaluate_run,
    facts_change,
    guarded,
    new_run,
    record_change,
    run_detail,
    run_facts,
)
from .telemetry import store_operation

__all__ = [
    "DEFAULT_EVENTS_LIMIT",
    "DEFAULT_LOCK_TIMEOUT",
    "MAX_LOCK_TIMEOUT",
    "MAX_RUN_BYTES",
    "BaseRunStore",
    "Call",
    "Clock",
    "IdFactory",
    "RunStoreLogic",
    "check_run_writable",
    "checked_run_bytes",
    "checked_timeout",
    "decode_run",
    "encode_run",
    "format_timestamp",
    "key_text",
    "not_a_run",
    "parse_stored",
    "read_run_file",
    "settle",
    "sized_run_bytes",
]

T = TypeVar("T")

#: A bound above any Run's count of events, for ``events(after=…, limit=…)`` (a 32-bit integer).
MAX_EVENT_NUMBER = 2**31 - 1
#: Events ``events()`` answers when no ``limit`` is given.
DEFAULT_EVENTS_LIMIT = 1000

#: Seconds a writer waits for the lock of a Run before ``run-lock-timeout``.
DEFAULT_LOCK_TIMEOUT = 30.0
#: The largest Run read (bytes); Runs grow with their events.
MAX_RUN_BYTES = 256 * 1024 * 1024
#: The longest wait for a lock (or a process) that can be asked for: a week, in seconds.
MAX_LOCK_TIMEOUT = 7 * 24 * 3600.0

Clock = Callable[[], datetime]
H = TypeVar("H", Run, RunHead)
#: A Provider, its ID, or None (no Provider check).
ProviderRef = Provider | str | None
IdFactory = Callable[[], str]


def format_timestamp(moment: datetime) -> str:
    """ISO-8601 UTC with milliseconds (``2026-01-31T09:30:00.000Z``); a naive time is taken as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    moment = moment.astimezone(timezone.utc)
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{moment.microsecond // 1000:03d}Z"


def warn_set_authorities(store: str) -> None:
    """Warn the caller of ``set_authorities`` (two frames up) that it goes in the next release."""
    warnings.warn(
        f"agent_graph: {store}.set_authorities is deprecated and goes in the next release: "
        "use update_authorities(ref, replace=authorities), which does the same",
        DeprecationWarning,
        stacklevel=3,
    )


def _system_clock() -> datetime:
    return datetime.now(timezone.utc)


def _random_id() -> str:
    return str(uuid.uuid4())


def checked_timeout(value: Any, label: str, *, maximum: float = MAX_LOCK_TIMEOUT, zero: bool = True) -> float:
    """``value`` as a number of seconds: finite, not negative (or positive when ``zero`` is false), at most ``maximum``.

    Anything else is ``argument-invalid``: an infinite or NaN wait never ends,
    and the operating system refuses waits beyond a few weeks.
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise AgentGraphError("argument-invalid", f"{label} must be a number of seconds, not {value!r:.60}")
    try:
        seconds = float(value)
    except OverflowError:
        seconds = math.inf
    if not (0.0 <= seconds <= maximum) or (seconds == 0.0 and not zero):
        bound = "0" if zero else "more than 0"
        raise AgentGraphError(
            "argument-invalid", f"{label} must be between {bound} and {maximum:g} seconds, not {value!r:.60}"
        )
    return seconds


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


def encode_run(run: Run) -> bytes:
    """The file form of a Run: JSON indented by two spaces, a final newline (as the TypeScript toolchain writes).

    A lone surrogate (an undecodable file name, say) is written as a ``\\uXXXX``
    escape. Use :func:`checked_run_bytes` to write: it also checks the bytes.
    """
    try:
        data = msgspec.json.encode(run)
    except UnicodeEncodeError:
        return json_bytes(msgspec.to_builtins(run), indent=2) + b"\n"
    except (TypeError, ValueError, OverflowError, RecursionError) as error:
        raise AgentGraphError(
            "json-invalid", f"Run {run.id!r:.80} holds a value that is not JSON: {error}"
        ) from None
    return msgspec.json.format(data, indent=2) + b"\n"


def _plain_detail(detail: Any, label: str) -> Any:
    if detail is msgspec.UNSET or is_plain_json(detail, max_depth=DETAIL_MAX_DEPTH, allow_nan=False):
        return detail
    return run_detail(detail, label)


def _plain_run(run: Run) -> Run:
    """``run`` with every user value plain JSON a Run file can hold (the same values when they already are)."""
    facts = run.facts
    if not (type(facts) is dict and is_plain_json(facts, max_depth=FACTS_MAX_DEPTH, allow_nan=False)):
        facts = run_facts(facts)
    outcomes = {
        key: record
        if record.detail is msgspec.UNSET
        else msgspec.structs.replace(
            record, detail=_plain_detail(record.detail, f"the detail recorded for {key!r}")
        )
        for key, record in run.outcomes.items()
    }
    events = tuple(
        event
        if event.detail is msgspec.UNSET
        else msgspec.structs.replace(
            event, detail=_plain_detail(event.detail, f"the detail of event {event.sequence}")
        )
        for event in run.events
    )
    return msgspec.structs.replace(run, facts=facts, outcomes=outcomes, events=events)


def checked_run_bytes(run: Run, where: str) -> bytes:
    """The bytes to store for ``run``, after checking that :func:`decode_run` reads them back.

    Every store calls this before it writes a Run. Raises, before anything is
    written: ``json-invalid`` (a value that is not JSON: a set, bytes, a
    non-string key, NaN, infinity), ``json-too-deep`` (Facts or a detail
    nested deeper than the reader takes), ``run-too-large`` (over
    :data:`MAX_RUN_BYTES`), ``run-invalid`` (events not numbered 1..n) and
    ``argument-invalid`` (a field the Run schema refuses: an empty graph name,
    an ID that is not a string …).
    """
    run = _plain_run(run)
    check_events(run, where)
    data = sized_run_bytes(run, where)
    try:
        decode_run(data, where)
    except AgentGraphError as error:
        raise unreadable_run(error, where) from None
    return data


def sized_run_bytes(run: Run, where: str) -> bytes:
    """The file bytes of ``run`` (:func:`encode_run`); ``run-too-large`` over :data:`MAX_RUN_BYTES`."""
    data = encode_run(run)
    if len(data) > MAX_RUN_BYTES:
        raise AgentGraphError(
            "run-too-large",
            f"Run {where} would be {len(data)} bytes, over the {MAX_RUN_BYTES}-byte limit of Runs; "
            "start a new Run (or checkpoint and resume) instead of growing this one",
        )
    return data


def unreadable_run(error: AgentGraphError, where: str) -> AgentGraphError:
    """``argument-invalid`` for a Run about to be written that its reader refuses with ``error``."""
    return AgentGraphError(
        "argument-invalid",
        f"Refusing to write {where}: the Run would not read back ({error.message})",
        error.diagnostics,
    )


def not_a_run(error: AgentGraphError, where: str) -> AgentGraphError:
    """``run-invalid`` for stored Run text that ``error`` refused (its code and message kept)."""
    return AgentGraphError(
        "run-invalid",
        f"{where} is not a valid agent-graph.run.v1 ({error.code}): {error.message}",
        error.diagnostics,
    )


def check_run_writable(run: Run, where: str = "<run>") -> None:
    """Raise exactly what :func:`checked_run_bytes` raises when ``run`` cannot be stored and read back."""
    checked_run_bytes(run, where)


def decode_run(data: bytes | str, where: str, max_bytes: int = MAX_RUN_BYTES) -> Run:
    """A Run from JSON text (``run-invalid`` unless it is a valid ``agent-graph.run.v1``).

    The text must be JSON (whatever the file is called) of at most
    ``max_bytes`` bytes, nested at most ``MAX_DEPTH`` levels, with no key
    repeated in any object, matching ``run.schema.json``, with events numbered
    exactly 1 to n in order. This is the one reader of Run text; every store
    checks what it writes against it (:func:`checked_run_bytes`).
    """
    from .._syntax.parse import parse_json

    raw_bytes = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    try:
        if len(raw_bytes) > max_bytes:
            raise AgentGraphError(
                "file-too-large",
                f"{where} is larger than the {max_bytes}-byte limit of Runs ({len(raw_bytes)} bytes)",
            )
        try:
            text = raw_bytes.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise AgentGraphError(
                "file-encoding-invalid", f"{where} is not valid UTF-8 (byte {exc.start})"
            ) from None
        raw = parse_json(text, where, unique_keys=True)
        _schema.validate("run", raw, where)
    except AgentGraphError as error:
        raise not_a_run(error, where) from error
    return convert_run(raw, where)


def convert_run(raw: Any, where: str) -> Run:
    """A Run from schema-valid JSON data, its events checked (``run-invalid``)."""
    try:
        run: Run = msgspec.convert(raw, Run)
    except msgspec.ValidationError as error:
        raise AgentGraphError("run-invalid", f"{where} is not a valid agent-graph.run.v1: {error}") from None
    check_events(run, where)
    return run


def _moment(value: datetime | str | None, label: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return format_timestamp(value)
    if isinstance(value, str):
        return value
    raise AgentGraphError("argument-invalid", f"{label} must be a datetime or a Run timestamp string")


def read_run_file(path: str, max_bytes: int | None = None) -> Run:
    """Read and validate the Run file at ``path`` (``run-missing``, ``run-invalid``, an OS error's code).

    ``max_bytes``: the largest file read (default: :data:`MAX_RUN_BYTES`).
    """
    if max_bytes is None:
        max_bytes = MAX_RUN_BYTES
    absolute = os.path.abspath(plain_string(path, "Run path"))
    if not os.path.isfile(absolute):
        raise AgentGraphError("run-missing", f"Run file does not exist: {absolute}")
    try:
        with open(absolute, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except (OSError, ValueError) as error:
        raise os_error(error, absolute, "read the Run", writing=False) from None
    return decode_run(data, absolute, max_bytes)


def authority_list(authorities: Any) -> list[Any]:
    """The authorities ``set_authorities`` is given, as a list (``argument-invalid`` unless an iterable of them)."""
    if isinstance(authorities, (str, bytes, Mapping)) or not isinstance(authorities, Iterable):
        raise AgentGraphError(
            "argument-invalid",
            f"authorities must be a list of authority IDs, not {type(authorities).__name__}",
        )
    return list(authorities)


def key_text(value: str, label: str, code: ErrorCode = "argument-invalid") -> str:
    """``value`` unless it holds a lone surrogate (text that is not Unicode, from bytes that were not UTF-8).

    A Run ID, Provider, Graph or entry is a key of every store (a column, a
    file name); such text cannot be one, so every store refuses it alike.
    """
    if not isinstance(value, str):
        raise AgentGraphError(code, f"{label} must be a string, not {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        raise AgentGraphError(
            code,
            f"{label} {value!r:.80} holds a lone surrogate (position {error.start}), "
            "which is not Unicode text; use valid UTF-8",
        ) from None
    return value


def parse_stored(text: str | bytes, where: str) -> Any:
    """JSON text a store kept, read as the Run reader reads it (``run-invalid`` if it lies).

    A repeated key, nesting deeper than a reader takes and text that is not
    JSON are ``run-invalid``; never a Python exception.
    """
    from .._syntax.parse import parse_json

    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return parse_json(text, where, unique_keys=True)
    except UnicodeDecodeError as error:
        raise AgentGraphError(
            "run-invalid", f"{where}: the stored Run is not UTF-8 (byte {error.start})"
        ) from None
    except AgentGraphError as error:
        raise AgentGraphError(
            "run-invalid", f"{where}: the stored Run is not valid JSON: {error.message}"
        ) from None


def _compact(raw: Any) -> bytes:
    return json_bytes(raw)


def settle(
    head: RunHead, added: tuple[RunEvent, ...], where: str, before: RunHead | None = None
) -> tuple[RunHead, tuple[RunEvent, ...], str, list[str]]:
    """Check a new head and the events it adds, and give them as the reader reads them back.

    Answers ``(head, events, head text, event texts)``: the values exactly as
    ``JSON.parse`` gives them back (a 64-bit integer as the double it
    becomes, numeric-looking keys first, ``0.0`` as ``0``) and their compact
    JSON text. Costs what the head and the new events hold, never the Run's
    history. Raises what :func:`checked_run_bytes` raises.

    ``before``: the head the change started from, as the store read it back
    (so already settled). Only what differs from it is checked and read back:
    the outcome records the change set, the Facts when it replaced them, the
    head's own fields and the new events; the rest is taken as it stands. A
    change that adds a numeric-looking outcome key (``JSON.parse`` would move it
    first) or removes one settles the whole head instead.
    """
    delta = None if before is None else _delta(before, head)
    if before is None or delta is None:
        settled = _settled(head.to_json(), added, where)
        settled_events = settled.pop("events")
        new_head = msgspec.convert({**settled, "events": head.events}, RunHead)
        head_text = _compact(settled).decode("utf-8")
    else:
        changed, facts_changed = delta
        partial = msgspec.structs.replace(head, outcomes=changed, facts=head.facts if facts_changed else {})
        settled = _settled(partial.to_json(), added, where)
        settled_events = settled.pop("events")
        part = msgspec.convert({**settled, "events": head.events}, RunHead)
        fresh, old = part.outcomes, before.outcomes
        new_head = msgspec.structs.replace(
            part,
            facts=part.facts if facts_changed else before.facts,
            outcomes={key: fresh[key] if key in fresh else old[key] for key in head.outcomes},
        )
        whole = new_head.to_json()
        del whole["events"]
        head_text = _compact(whole).decode("utf-8")
    events = tuple(msgspec.convert(event, RunEvent) for event in settled_events)
    for offset, event in enumerate(events, start=head.events - len(events) + 1):
        if event.sequence != offset:
            raise AgentGraphError(
                "internal-error", f"{where}: a change numbered event {event.sequence}, not {offset}"
            )
    texts = [_compact(e).decode("utf-8") for e in settled_events]
    if delta is not None:
        _check_write_size(len(head_text.encode("utf-8")) + sum(len(t.encode("utf-8")) for t in texts), where)
    return new_head, events, head_text, texts


def _delta(before: RunHead, head: RunHead) -> tuple[dict[str, OutcomeRecord], bool] | None:
    """The outcome records ``head`` sets anew over ``before`` and whether its Facts are new; None: settle it whole."""
    old = before.outcomes
    changed: dict[str, OutcomeRecord] = {}
    fresh = 0
    for key, record in head.outcomes.items():
        previous = old.get(key)
        if previous is record:
            continue
        if previous is None:
            if key.isdigit():  # JSON.parse orders array-index keys first: the whole object settles
                return None
            fresh += 1
        changed[key] = record
    if len(head.outcomes) - fresh != len(old):
        return None  # a record was removed
    return changed, head.facts is not before.facts


def _check_write_size(size: int, where: str) -> None:
    if size > MAX_RUN_BYTES // 2:
        raise AgentGraphError(
            "run-too-large",
            f"Run {where} would hold {size} bytes in one write, over half the {MAX_RUN_BYTES}-byte limit of "
            "Runs; start a new Run (or checkpoint and resume) instead of growing this one",
        )


def _settled(raw: dict[str, Any], added: tuple[RunEvent, ...], where: str) -> dict[str, Any]:
    """A head's JSON with ``added`` as its events, checked plain and read back as the reader reads it."""
    raw.pop("events", None)
    facts = raw.get("facts")
    if not (type(facts) is dict and is_plain_json(facts, max_depth=FACTS_MAX_DEPTH, allow_nan=False)):
        raw["facts"] = run_facts(facts)
    for key, record in raw.get("outcomes", {}).items():
        if "detail" in record:
            record["detail"] = _plain_detail(record["detail"], f"the detail recorded for {key!r}")
    events_raw = [event.to_json() for event in added]
    for event in events_raw:
        if "detail" in event:
            event["detail"] = _plain_detail(event["detail"], f"the detail of event {event.get('sequence')}")
    raw["events"] = events_raw
    data = _compact(raw)
    _check_write_size(len(data), where)
    from .._syntax.parse import parse_json

    try:
        settled: dict[str, Any] = parse_json(data.decode("utf-8"), where, unique_keys=True)
        _schema.validate("run", settled, where)
    except AgentGraphError as error:
        raise unreadable_run(error, where) from None
    return settled


class Call(msgspec.Struct, frozen=True):
    """A storage primitive an operation needs: ``name`` (``apply``, ``head`` …) and its arguments."""

    name: str
    args: tuple[Any, ...]


#: An operation: yields the primitives it needs, is sent their answers, returns its answer.
Operation = Generator[Call, Any, T]


class RunStoreLogic:
    """Every Run store operation, written once as a generator over storage primitives.

    Shared by the blocking stores (:class:`BaseRunStore`) and the async ones
    (:class:`~agent_graph._runtime.run_store_async.AsyncRunStore`): the
    argument checks, the Run transitions, the revision guard, evaluation and
    routing are the same code; only the driver that performs each
    :class:`Call` differs.
    """

    #: What a Run is addressed by in this store (``path`` or ``id``), for messages.
    ref_kind = "id"
    #: The kind of store spans name (``agent_graph.store``): files, sqlite, postgresql.
    store_kind = "store"

    def _setup(self, clock: Clock | None, new_id: IdFactory | None, lock_timeout: float) -> None:
        self._clock: Clock = clock or _system_clock
        self._new_id: IdFactory = new_id or _random_id
        self._lock_timeout = checked_timeout(lock_timeout, "lock_timeout")

    @property
    def lock_timeout(self) -> float:
        """Seconds a writer waits for another writer (0 to a week; ``run-lock-timeout`` after that)."""
        return self._lock_timeout

    @lock_timeout.setter
    def lock_timeout(self, value: float) -> None:
        self._lock_timeout = checked_timeout(value, "lock_timeout")

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

    def _check_ref(self, ref: Any) -> None:
        if not isinstance(ref, str) or not ref or "\x00" in ref:
            raise AgentGraphError("argument-invalid", f"A Run {self.ref_kind} must be a non-empty string")

    @staticmethod
    def _need_provider(provider: object, what: str) -> Provider:
        if not isinstance(provider, Provider):
            raise AgentGraphError("argument-invalid", f"{what} needs the loaded Provider (ag.load_provider)")
        return provider

    def _revision_guard(self, given: ProviderRef, revision: str) -> Callable[[RunHead], None]:
        provider = self._need_provider(given, "record with a revision")
        if not isinstance(revision, str) or not revision:
            raise AgentGraphError("revision-invalid", "revision must be the step's revision string")

        def guard(head: RunHead) -> None:
            current = evaluate_run(provider, head).revision
            if current != revision:
                raise AgentGraphError(
                    "run-revision-stale",
                    f"Run {head.id} changed since revision {revision} (it is at {current} now); "
                    "nothing was recorded: take the next step again",
                )

        return guard

    # ------------------------------------------------------------ operations

    def _op_load(self, ref: str, provider: ProviderRef) -> Operation[Run]:
        self._check_ref(ref)
        expected = provider_id(provider)
        run: Run = yield Call("read", (ref,))
        return check_provider(run, expected)

    def _op_head(self, ref: str, provider: ProviderRef) -> Operation[RunHead]:
        self._check_ref(ref)
        expected = provider_id(provider)
        head: RunHead = yield Call("head", (ref,))
        return check_provider(head, expected)

    def _op_events(
        self, ref: str, provider: ProviderRef, after: int, limit: int | None
    ) -> Operation[tuple[RunEvent, ...]]:
        self._check_ref(ref)
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise AgentGraphError("argument-invalid", "after must be an event sequence number (0 or more)")
        if limit is None:
            limit = DEFAULT_EVENTS_LIMIT
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise AgentGraphError("argument-invalid", "limit must be a positive number of events")
        # No Run holds this many events (its size is bounded): larger numbers mean the same, and
        # every database takes this one.
        after, limit = min(after, MAX_EVENT_NUMBER), min(limit, MAX_EVENT_NUMBER)
        events: tuple[RunEvent, ...] = yield Call("page", (ref, provider_id(provider), after, limit))
        return events

    def _op_list(
        self,
        provider: ProviderRef,
        graph: str | None,
        updated_after: datetime | str | None,
        updated_before: datetime | str | None,
    ) -> Operation[builtins.list[RunSummary]]:
        identity = provider_id(provider)
        if graph is not None and not isinstance(graph, str):
            raise AgentGraphError(
                "argument-invalid", f"graph must be a graph ID (a string), not {graph!r:.60}"
            )
        after = _moment(updated_after, "updated_after")
        before = _moment(updated_before, "updated_before")
        found: Iterable[RunSummary] = yield Call("summaries", (identity, graph, after, before))
        chosen = [
            summary
            for summary in found
            if (identity is None or summary.provider == identity)
            and (graph is None or summary.graph == graph)
            and (after is None or summary.updated_at > after)
            and (before is None or summary.updated_at < before)
        ]
        chosen.sort(key=lambda summary: (summary.updated_at, summary.id, summary.ref))
        return chosen

    def _op_next_step(
        self,
        ref: str,
        provider: Provider,
        receipts: Receipts | ReadReceipts | Mapping[str, Any] | None,
        route_id: str | None,
    ) -> Operation[Step]:
        from .step import run_step

        self._need_provider(provider, "next_step")
        head: RunHead = yield from self._op_head(ref, provider)
        return run_step(provider, head, receipts=receipts, route_id=route_id)

    def _op_start(
        self,
        ref: str | None,
        provider: Provider | str,
        graph: str,
        entry: str,
        workspace: str | None,
        facts: Mapping[str, Any] | None,
        authorities: Iterable[str] | None,
    ) -> Operation[Run]:
        from .run_changes import head_of, with_events

        identity = provider_id(provider)
        if identity is None:
            raise AgentGraphError("argument-invalid", "Run start needs the Provider or its ID")
        if not isinstance(graph, str) or not graph or not isinstance(entry, str) or not entry:
            raise AgentGraphError("argument-invalid", "Run start needs a Graph ID and an entry")
        graph = key_text(plain_string(graph, "graph"), "The Graph ID")
        entry = key_text(plain_string(entry, "entry"), "The entry")
        key_text(identity, "The Provider ID")
        graphs = getattr(provider, "graphs", None)
        if graphs is not None:
            compiled = graphs.get(graph)
            if compiled is None:
                raise AgentGraphError("graph-missing", f"Provider {identity} has no graph {graph}")
            if entry not in compiled.definition.entrypoints:
                raise AgentGraphError("entry-missing", f"Graph {graph} has no entrypoint {entry}")
        if ref is not None:
            self._check_ref(ref)
        if workspace is not None and (not isinstance(workspace, str) or not workspace or "\0" in workspace):
            raise AgentGraphError("argument-invalid", "workspace must be a path string")
        if workspace is not None:
            workspace = plain_string(workspace, "workspace")
        target, run_id = yield Call("start_ref", (ref,))
        run = new_run(
            run_id,
            identity,
            graph,
            entry,
            self.now(),
            workspace=os.path.abspath(workspace) if workspace is not None else None,
            facts=facts,
            authorities=authorities,
        )
        head, events, _, _ = settle(head_of(run), run.events, f"Run {run_id}")
        run = with_events(head, events)
        yield Call("create", (target, run, "Run start"))
        return run

    def _op_change(self, ref: str, provider: ProviderRef, change: Change) -> Operation[RunHead]:
        self._check_ref(ref)
        head: RunHead = yield Call("apply", (ref, provider_id(provider), change))
        return head

    def _op_record(
        self,
        ref: str,
        node: str,
        outcome: str,
        detail: Any,
        provider: ProviderRef,
        revision: str | None,
        facts: Mapping[str, Any] | None,
        deep: bool,
    ) -> Operation[RunHead]:
        guard = None
        if revision is not None:
            guard = self._revision_guard(provider, revision)
        self._check_ref(ref)
        changes = [record_change(node, outcome, detail)]
        if facts is not None:
            changes.insert(0, facts_change(facts, deep=deep))
        return (yield from self._op_change(ref, provider, guarded(guard, *changes)))

    def _op_update_facts(
        self, ref: str, facts: Mapping[str, Any], replace: bool, deep: bool, provider: ProviderRef
    ) -> Operation[RunHead]:
        self._check_ref(ref)
        change = guarded(None, facts_change(facts, replace=replace, deep=deep))
        return (yield from self._op_change(ref, provider, change))

    def _op_update_authorities(
        self,
        ref: str,
        replace: Iterable[str] | None,
        add: Iterable[str],
        remove: Iterable[str],
        provider: ProviderRef,
    ) -> Operation[RunHead]:
        self._check_ref(ref)
        change = guarded(None, authorities_change(replace, add, remove))
        return (yield from self._op_change(ref, provider, change))

    def _op_checkpoint(self, ref: str, target: str, provider: ProviderRef) -> Operation[Run]:
        self._check_ref(ref)
        self._check_ref(target)
        snapshot: Run = yield Call("checkpoint", (ref, target, provider_id(provider)))
        return snapshot

    def _op_resume(self, checkpoint: str, target: str | None, provider: ProviderRef) -> Operation[Run]:
        from .run_changes import resumed_run

        self._check_ref(checkpoint)
        if target is not None:
            self._check_ref(target)
        expected = provider_id(provider)
        source, name = yield Call("read_checkpoint", (checkpoint,))
        check_provider(source, expected)
        destination, identity = yield Call("resume_ref", (target, source))
        resumed = resumed_run(source, name, self.now(), identity)
        check_run_writable(resumed, f"Run {resumed.id}")
        yield Call("create", (destination, resumed, "Run resume"))
        return resumed

    def _op_export(self, ref: str, path: str, provider: ProviderRef) -> Operation[Run]:
        if not isinstance(path, str) or not path or "\x00" in path:
            raise AgentGraphError("argument-invalid", "export needs the path of a new Run file")
        run: Run = yield from self._op_load(ref, provider)
        destination = os.path.abspath(path)
        yield Call("write_new_file", (destination, checked_run_bytes(run, destination), "Run export"))
        return run

    def _op_import(self, path: str, provider: ProviderRef) -> Operation[Run]:
        expected = provider_id(provider)
        run: Run = yield Call("read_file", (path,))
        check_provider(run, expected)
        key_text(run.id, "The Run ID", "run-invalid")
        target = yield Call("import_ref", (run,))
        yield Call("create", (target, run, "Run import"))
        return run

    def _op_fork(
        self, ref: str, at: int, target: str | None, provider: ProviderRef, facts: Mapping[str, Any] | None
    ) -> Operation[Run]:
        from .run_fork import forked_run

        source: Run = yield from self._op_load(ref, provider)
        forked_run(source, at, "-", "-", facts)  # refuse before taking a ref
        if target is not None:
            self._check_ref(target)
        destination, identity = yield Call("start_ref", (target,))
        run = forked_run(source, at, identity, self.now(), facts)
        yield Call("create", (destination, run, "Run fork"))
        return run

    # ------------------------------------------------------------ file primitives (shared)

    def _write_new_file(self, path: str, data: bytes, label: str) -> None:
        from .._load.atomic import create_exclusive

        create_exclusive(path, data, label)

    def _read_file(self, path: str) -> Run:
        if not isinstance(path, str) or not path:
            raise AgentGraphError("argument-invalid", "import needs the path of a Run file")
        return read_run_file(path)


class BaseRunStore(RunStoreLogic):
    """The operations every Run store offers; a backend supplies the blocking storage primitives.

    ``clock`` returns the current time (timezone-aware; default: the system
    clock in UTC), ``new_id`` a fresh Run ID (default: a random UUID) and
    ``lock_timeout`` bounds the wait for another writer (``run-lock-timeout``).
    Methods that take ``provider`` (a Provider, a Provider ID, or None to skip
    the check) refuse a Run of another Provider with ``run-provider-mismatch``
    before changing anything. Every store is a context manager; ``close()``
    releases its connections.
    """

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        new_id: IdFactory | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    ) -> None:
        self._setup(clock, new_id, lock_timeout)

    def _drive(self, operation: Operation[T]) -> T:
        """Run an operation, performing each primitive it asks for with this store's blocking backend."""
        answer: Any = None
        try:
            while True:
                call = operation.send(answer)
                answer = getattr(self, "_" + call.name)(*call.args)
        except StopIteration as done:
            result: T = done.value
            return result
        finally:
            operation.close()

    # ------------------------------------------------------------ backend primitives

    def _read(self, ref: str) -> Run:
        raise NotImplementedError

    def _head(self, ref: str) -> RunHead:
        raise NotImplementedError

    def _page(self, ref: str, expected: str | None, after: int, limit: int) -> tuple[RunEvent, ...]:
        raise NotImplementedError

    def _apply(self, ref: str, expected: str | None, change: Change) -> RunHead:
        raise NotImplementedError

    def _create(self, ref: str, run: Run, label: str) -> None:
        raise NotImplementedError

    def _checkpoint(self, ref: str, target: str, expected: str | None) -> Run:
        raise NotImplementedError

    def _read_checkpoint(self, ref: str) -> tuple[Run, str]:
        raise NotImplementedError

    def _summaries(
        self, provider: str | None, graph: str | None, after: str | None, before: str | None
    ) -> Iterator[RunSummary]:
        """Stored Runs; a backend may apply the filters itself (``list`` applies them again)."""
        raise NotImplementedError

    def _start_ref(self, ref: str | None) -> tuple[str, str]:
        """``(ref, run ID)`` of a new Run."""
        raise NotImplementedError

    def _import_ref(self, run: Run) -> str:
        raise NotImplementedError

    def _resume_ref(self, target: str | None, checkpoint: Run) -> tuple[str, str | None]:
        """``(ref, new run ID or None to keep the checkpoint's)`` of a resumed Run."""
        raise NotImplementedError

    def close(self) -> None:
        """Release what the store holds (connections); the file store holds nothing."""

    def __enter__(self) -> BaseRunStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ------------------------------------------------------------ reading

    @store_operation("load")
    def load(self, ref: str, provider: ProviderRef = None) -> Run:
        """Read and validate the whole Run (``run-missing``, ``run-invalid``, ``run-provider-mismatch``)."""
        return self._drive(self._op_load(ref, provider))

    @store_operation("head")
    def head(self, ref: str, provider: ProviderRef = None) -> RunHead:
        """The Run's head: its state and number of events, read without its history."""
        return self._drive(self._op_head(ref, provider))

    @store_operation("events")
    def events(
        self, ref: str, provider: ProviderRef = None, *, after: int = 0, limit: int | None = None
    ) -> tuple[RunEvent, ...]:
        """The Run's events numbered after ``after``, at most ``limit`` of them (default 1,000), in order.

        Page through a long history with ``after=page[-1].sequence``; an empty
        answer is the end.
        """
        return self._drive(self._op_events(ref, provider, after, limit))

    @store_operation("list")
    def list(
        self,
        *,
        provider: ProviderRef = None,
        graph: str | None = None,
        updated_after: datetime | str | None = None,
        updated_before: datetime | str | None = None,
    ) -> builtins.list[RunSummary]:
        """Summaries of the stored Runs, oldest update first.

        Filters: ``provider`` (a Provider or its ID), ``graph`` (a Graph ID) and
        the last update strictly after ``updated_after`` / strictly before
        ``updated_before`` (a ``datetime`` or a Run timestamp).
        """
        return self._drive(self._op_list(provider, graph, updated_after, updated_before))

    @store_operation("next_step")
    def next_step(
        self,
        ref: str,
        provider: Provider,
        *,
        receipts: Receipts | ReadReceipts | Mapping[str, Any] | None = None,
        route_id: str | None = None,
    ) -> Step:
        """Read the Run's head, evaluate it and route at that revision: the step to take now.

        The route is the primary route, or ``route_id`` (``route-stale`` unless
        it is a candidate now); it is None when the evaluation has no route
        (complete, blocked, error). Record the step's outcome with
        ``record(…, revision=step.revision)``. ``step.run`` is the Run's head.
        """
        return self._drive(self._op_next_step(ref, provider, receipts, route_id))

    # ------------------------------------------------------------ writing

    @store_operation("start")
    def start(
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
        """Create a new Run with event 1 ``run.started`` (``run-target-exists`` if its ref is taken).

        ``provider`` is the Provider (its Graph and entry are then checked:
        ``graph-missing``, ``entry-missing``) or its ID. ``workspace`` is
        stored as an absolute path. Every store takes the answer's ``id`` as
        the Run's reference from then on.
        """
        return self._drive(self._op_start(ref, provider, graph, entry, workspace, facts, authorities))

    @store_operation("record")
    def record(
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
        """Record ``outcome`` for the state key ``node`` and append ``node.outcome-recorded``; the new head.

        ``node`` is the route's ``afterAction.recordNode``; ``outcome`` one of
        the eight outcomes (``outcome-invalid``); ``detail`` any JSON value.
        With ``revision`` (the step's), the record lands only if the Run still
        evaluates to it for its graph and entry, checked inside the lock or
        transaction; otherwise ``run-revision-stale`` and nothing is written.
        A revision needs the loaded Provider. ``facts`` (merged, or
        ``deep``-merged) are the Facts the host observed while acting: they
        land in the same write, as ``facts.updated`` just before the record,
        so the revision check sees the Run as the step left it.
        """
        return self._drive(self._op_record(ref, node, outcome, detail, provider, revision, facts, deep))

    @store_operation("update_facts")
    def update_facts(
        self,
        ref: str,
        facts: Mapping[str, Any],
        *,
        replace: bool = False,
        deep: bool = False,
        provider: ProviderRef = None,
    ) -> RunHead:
        """Merge ``facts`` over the Run's (``facts.updated``) or replace them (``facts.replaced``); the new head.

        ``deep=True`` merges nested objects key by key instead of replacing a
        top-level key's value. The event's detail is ``{keys, set}`` (the given
        top-level keys, sorted, and the values that changed; a replacement: the
        new Facts) or, deep, ``{keys, merge}`` (what the merge changed).
        """
        return self._drive(self._op_update_facts(ref, facts, replace, deep, provider))

    @store_operation("update_authorities")
    def update_authorities(
        self,
        ref: str,
        *,
        replace: Iterable[str] | None = None,
        add: Iterable[str] = (),
        remove: Iterable[str] = (),
        provider: ProviderRef = None,
    ) -> RunHead:
        """Change the Run's session authorities and append ``authorities.updated`` ``{authorities}``.

        ``replace`` replaces the list (``replace=[]`` clears it); then ``add``
        and ``remove`` apply. The stored list is de-duplicated and sorted.
        """
        return self._drive(self._op_update_authorities(ref, replace, add, remove, provider))

    def set_authorities(
        self, ref: str, authorities: Iterable[str], *, provider: ProviderRef = None
    ) -> RunHead:
        """Deprecated: ``update_authorities(ref, replace=authorities)`` does the same; this goes in the next release."""
        warn_set_authorities(type(self).__name__)
        return self.update_authorities(ref, replace=authority_list(authorities), provider=provider)

    @store_operation("checkpoint")
    def checkpoint(self, ref: str, target: str, *, provider: ProviderRef = None) -> Run:
        """Keep a copy of the Run without authorities under ``target``; returns the checkpoint.

        The Run gets ``run.checkpointed`` ``{checkpoint: <name>}`` and the
        checkpoint holds the Run as of that event. ``run-target-exists`` if
        ``target`` is taken; nothing changes then.
        """
        return self._drive(self._op_checkpoint(ref, target, provider))

    @store_operation("resume")
    def resume(self, checkpoint: str, target: str | None, *, provider: ProviderRef = None) -> Run:
        """Start a new Run from a checkpoint: authorities cleared, ``run.resumed`` ``{checkpoint}`` appended.

        ``run-target-exists`` if ``target`` is taken.
        """
        return self._drive(self._op_resume(checkpoint, target, provider))

    # ------------------------------------------------------------ files in and out

    @store_operation("export")
    def export(self, ref: str, path: str, *, provider: ProviderRef = None) -> Run:
        """Write the Run to a new ``agent-graph.run.v1`` file ``path`` (``run-target-exists`` if taken).

        The file is byte for byte what the file store writes, readable by the
        TypeScript toolchain.
        """
        return self._drive(self._op_export(ref, path, provider))

    @store_operation("import_run")
    def import_run(self, path: str, *, provider: ProviderRef = None) -> Run:
        """Store the Run of an ``agent-graph.run.v1`` file under its own Run ID.

        Refuses a file that is not a valid Run (``run-invalid``, events not
        numbered 1..n included) and an ID the store already holds
        (``run-target-exists``).
        """
        return self._drive(self._op_import(path, provider))

    @store_operation("fork")
    def fork(
        self,
        ref: str,
        at: int,
        target: str | None = None,
        *,
        provider: ProviderRef = None,
        facts: Mapping[str, Any] | None = None,
    ) -> Run:
        """A new Run from the state right after event ``at``, ending in ``run.forked`` (see :mod:`.run_fork`).

        ``target`` is the new Run's reference (None: a fresh one); ``facts``
        replace the Facts of event ``at`` where the events do not record them.
        Raises what ``load`` raises, ``argument-invalid`` for an event the Run
        does not have, ``run-fork-unrecorded`` and ``run-target-exists``;
        nothing is written then.
        """
        return self._drive(self._op_fork(ref, at, target, provider, facts))
