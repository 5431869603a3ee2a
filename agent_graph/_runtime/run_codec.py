"""Run text: the one reader and writer of ``agent-graph.run.v1``, and the check of what a write adds.

Pure functions over Runs and their JSON text, shared by every store and both
faces (:mod:`agent_graph._runtime.run_store`): the file form of a Run
(:func:`encode_run`, :func:`checked_run_bytes`), the one reader of Run text
(:func:`decode_run`, :func:`read_run_file`), the reading of JSON a store kept
(:func:`parse_stored`) and :func:`settle`, which checks the new head and events
of a write and gives them exactly as the reader reads them back.

Rules: a write checks only what it adds (plain JSON values, the depth and size
a reader takes, the Run schema over the new head fields, outcome records, Facts
members and events: by typed decoding where that answers exactly what the
reader and the schema answer, else by them) and stores every
value exactly as the reader reads it back (numbers and key order as
``JSON.parse`` gives them), so a Run written by many small records reads back,
exports and re-imports byte for byte; a Run that lies (a repeated key, events
not numbered 1..n) is ``run-invalid``. Nothing here reads the clock; only
:func:`read_run_file` touches a file.
"""

from __future__ import annotations

import math
import os
import re
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Annotated, Any, Literal

import msgspec

from .._core.errors import AgentGraphError, ErrorCode, os_error
from .._core.model import Outcome, OutcomeRecord, Run, RunEvent, RunHead
from .._core.plain import is_plain_json, json_bytes, plain_string
from .._syntax import schema as _schema
from .._syntax.parse import _INDEX_KEY_JSON, _needs_exact_integers
from .._syntax.scalars import _float_text
from .run_changes import DETAIL_MAX_DEPTH, FACTS_MAX_DEPTH, check_events, run_detail, run_facts

__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "MAX_LOCK_TIMEOUT",
    "MAX_RUN_BYTES",
    "check_run_writable",
    "checked_run_bytes",
    "checked_timeout",
    "convert_run",
    "decode_run",
    "encode_run",
    "format_timestamp",
    "key_text",
    "not_a_run",
    "parse_stored",
    "read_run_file",
    "settle",
    "sized_run_bytes",
    "unreadable_run",
]

#: Seconds a writer waits for the lock of a Run before ``run-lock-timeout``.
DEFAULT_LOCK_TIMEOUT = 30.0
#: The largest Run read (bytes); Runs grow with their events.
MAX_RUN_BYTES = 256 * 1024 * 1024
#: A Run timestamp: ISO-8601 UTC with milliseconds (``run.schema.json``'s ``timestamp``, the same pattern: a test checks).
TIMESTAMP_PATTERN = "^[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\\.[0-9]{3}Z$"
#: The longest wait for a lock (or a process) that can be asked for: a week, in seconds.
MAX_LOCK_TIMEOUT = 7 * 24 * 3600.0


def format_timestamp(moment: datetime) -> str:
    """ISO-8601 UTC with milliseconds (``2026-01-31T09:30:00.000Z``); a naive time is taken as UTC."""
    if moment.tzinfo is not timezone.utc:
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        moment = moment.astimezone(timezone.utc)
    if moment.year >= 1000:  # four digits: isoformat writes what strftime would, at a fraction of the cost
        return moment.isoformat(timespec="milliseconds")[:-6] + "Z"
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{moment.microsecond // 1000:03d}Z"


def checked_clock(monotonic: Any) -> Callable[[], float] | None:
    """``monotonic`` when it is None (:func:`time.monotonic`) or callable, else ``argument-invalid``."""
    if monotonic is not None and not callable(monotonic):
        raise AgentGraphError("argument-invalid", "monotonic must be a clock: a function answering seconds")
    clock: Callable[[], float] | None = monotonic
    return clock


def monotonic_seconds(clock: Callable[[], float] | None, whose: str) -> float:
    """The seconds ``clock`` answers now (:func:`time.monotonic` when None), refusing what is not a number.

    ``whose`` names the clock in the ``argument-invalid`` message (``The Run store's``).
    """
    if clock is None:
        return time.monotonic()
    seconds = clock()
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise AgentGraphError(
            "argument-invalid", f"{whose} monotonic clock returned {seconds!r:.60}, not seconds"
        )
    return float(seconds)


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
    from .._syntax.parse import parse_json, utf8_text

    raw_bytes = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    try:
        if len(raw_bytes) > max_bytes:
            raise AgentGraphError(
                "file-too-large",
                f"{where} is larger than the {max_bytes}-byte limit of Runs ({len(raw_bytes)} bytes)",
            )
        raw = parse_json(utf8_text(raw_bytes, f"{where} is not valid UTF-8"), where, unique_keys=True)
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
        changed, facts = delta
        partial = msgspec.structs.replace(head, outcomes=changed, facts=facts)
        settled = _settled(partial.to_json(), added, where)
        settled_events = settled.pop("events")
        part = msgspec.convert({**settled, "events": head.events}, RunHead)
        new_head = msgspec.structs.replace(
            part,
            facts=_merged(part.facts, before.facts, head.facts),
            outcomes=_merged(part.outcomes, before.outcomes, head.outcomes),
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


_MISSING: Any = object()


def _changed(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
    """The members ``new`` sets anew over ``old`` (a value not the very object it was); None: settle it whole.

    Whole unless ``new`` keeps every member of ``old`` in its place and adds
    new ones after them, none an array index (``JSON.parse`` puts those
    first): otherwise the order the reader gives may not be the order of ``new``.
    """
    changed: dict[str, Any] = {}
    kept = iter(old)
    fresh = 0
    for key, value in new.items():
        previous = old.get(key, _MISSING)
        if previous is _MISSING:
            if key.isdigit():
                return None
            fresh += 1
            changed[key] = value
            continue
        if fresh or next(kept, _MISSING) != key:
            return None  # a kept member moved, or a new one went before it
        if previous is not value:
            changed[key] = value
    if len(new) - fresh != len(old):
        return None
    return changed


def _merged(fresh: dict[str, Any], old: dict[str, Any], order: dict[str, Any]) -> dict[str, Any]:
    """The members of ``order`` in its order: the settled ``fresh`` ones, the rest as ``old`` holds them."""
    if not fresh:
        return old  # nothing set anew: every member kept, in its place
    return {key: fresh[key] if key in fresh else old[key] for key in order}


def _delta(before: RunHead, head: RunHead) -> tuple[dict[str, OutcomeRecord], dict[str, Any]] | None:
    """The outcome records and the Facts members ``head`` sets anew over ``before``; None: settle it whole."""
    outcomes = _changed(before.outcomes, head.outcomes)
    facts = {} if head.facts is before.facts else _changed(before.facts, head.facts)
    if outcomes is None or facts is None:
        return None
    return outcomes, facts


def _check_write_size(size: int, where: str) -> None:
    if size > MAX_RUN_BYTES // 2:
        raise AgentGraphError(
            "run-too-large",
            f"Run {where} would hold {size} bytes in one write, over half the {MAX_RUN_BYTES}-byte limit of "
            "Runs; start a new Run (or checkpoint and resume) instead of growing this one",
        )


_Timestamp = Annotated[str, msgspec.Meta(pattern=TIMESTAMP_PATTERN)]
_Name = Annotated[str, msgspec.Meta(min_length=1)]


class _RecordShape(msgspec.Struct, forbid_unknown_fields=True, rename="camel"):
    outcome: Outcome
    recorded_at: _Timestamp
    detail: Any = msgspec.UNSET


class _EventShape(msgspec.Struct, forbid_unknown_fields=True):
    sequence: Annotated[int, msgspec.Meta(ge=1)]
    at: _Timestamp
    type: _Name
    node: str | msgspec.UnsetType = msgspec.UNSET
    outcome: Outcome | msgspec.UnsetType = msgspec.UNSET
    detail: Any = msgspec.UNSET


class _RunShape(msgspec.Struct, forbid_unknown_fields=True, rename="camel"):
    """``run.schema.json`` as a typed value: what :func:`_settled` decodes a write's additions into."""

    schema: Literal["agent-graph.run.v1"]
    id: _Name
    provider: _Name
    graph: _Name
    entry: _Name
    created_at: _Timestamp
    updated_at: _Timestamp
    facts: dict[str, Any]
    outcomes: dict[str, _RecordShape]
    authorities: list[str]
    events: list[_EventShape]
    workspace: _Name | msgspec.UnsetType = msgspec.UNSET


#: Untyped JSON read as ``JSON.parse`` reads it, for text that holds no integer beyond 2**53 and no
#: array-index key (the fast path of :func:`_settled`; numbers through the same function as the reader).
_READER = msgspec.json.Decoder(float_hook=_float_text)
#: Every string of compact JSON text (what is left are its numbers, literals and punctuation).
_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')


def _typed(data: bytes) -> dict[str, Any] | None:
    """``data`` read back and checked by typed decoding, or None: read it with the reader and the schema instead.

    Accepts only what the Run schema accepts and answers exactly what
    :func:`~agent_graph._syntax.parse.parse_json` answers: text whose numbers
    or keys ``JSON.parse`` would change otherwise, and every refusal, go the
    other way (which gives the reader's own error).
    """
    text = data.decode("utf-8")
    if _INDEX_KEY_JSON.search(text) is not None or (
        _needs_exact_integers(text)
        and _needs_exact_integers(_STRINGS.sub('""', text))  # digits in strings do not count
    ):
        return None
    try:
        settled = _READER.decode(data)
        shape = msgspec.convert(settled, _RunShape)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    if len(set(shape.authorities)) != len(shape.authorities):
        return None
    result: dict[str, Any] = settled
    return result


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
    typed = _typed(data)
    if typed is not None:
        return typed
    from .._syntax.parse import parse_json

    try:
        settled: dict[str, Any] = parse_json(data.decode("utf-8"), where, unique_keys=True)
        _schema.validate("run", settled, where)
    except AgentGraphError as error:
        raise unreadable_run(error, where) from None
    return settled
