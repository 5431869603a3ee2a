"""The Run store: ``agent-graph.run.v1`` files on disk, written so that no record is lost.

A Run is host-owned execution memory (behaviour.md §9): Provider, Graph,
entry, optional workspace, Facts, the latest Outcome per state key, session
authorities and an append-only list of numbered events. This module is an
adapter: it reads and writes files, takes OS file locks and asks an injected
clock and ID factory for timestamps and Run IDs. It knows nothing of
evaluation, routing or the command line.

Guarantees:

* Every write goes to a temporary file in the target's directory, is flushed
  and fsynced, then renamed over the target: a reader, or a process killed at
  any point, sees the previous Run or the next one, never a truncated file.
* Writers of one Run are serialized by an exclusive OS lock on the sidecar
  file ``<run>.lock``, held across the whole read-modify-write, so concurrent
  ``record`` calls from many processes all land. The lock is waited for at
  most ``lock_timeout`` seconds (``run-lock-timeout``). The sidecar is never
  deleted: removing a lock file while another process waits on it would let
  two writers in.
* Start, checkpoint and resume never replace an existing file
  (``run-target-exists``): the new file is linked into place, which fails if
  the name is taken.
* A missing Run is ``run-missing``, a file that is not a valid Run is
  ``run-invalid``, a Run of another Provider is ``run-provider-mismatch``;
  none of them is ever overwritten.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import datetime, timezone
from typing import Any

import msgspec

from .._core.canonical import utf16_key
from .._core.errors import AgentGraphError
from .._core.evaluate import normalize_authorities
from .._core.model import OUTCOMES, OutcomeRecord, Run, RunEvent
from .._load.atomic import write_bytes_atomic
from .._syntax import schema as _schema

__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "MAX_RUN_BYTES",
    "RUN_SCHEMA",
    "RunStore",
    "format_timestamp",
    "run_evaluation_input",
]

RUN_SCHEMA = "agent-graph.run.v1"
#: Seconds a writer waits for the lock of a Run before ``run-lock-timeout``.
DEFAULT_LOCK_TIMEOUT = 30.0
#: The largest Run file read (bytes); Runs grow with their events.
MAX_RUN_BYTES = 256 * 1024 * 1024

Clock = Callable[[], datetime]
IdFactory = Callable[[], str]


def format_timestamp(moment: datetime) -> str:
    """ISO-8601 UTC with milliseconds (``2026-01-31T09:30:00.000Z``); a naive time is taken as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    moment = moment.astimezone(timezone.utc)
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{moment.microsecond // 1000:03d}Z"


def _system_clock() -> datetime:
    return datetime.now(timezone.utc)


def _random_id() -> str:
    return str(uuid.uuid4())


def run_evaluation_input(run: Run) -> dict[str, Any]:
    """The evaluation input a Run holds: ``{facts, outcomes, authorities, workspace?}``.

    ``outcomes`` keeps the records (``{outcome, recordedAt, detail?}``); the
    evaluator reads only their ``outcome``.
    """
    data: dict[str, Any] = {
        "facts": dict(run.facts),
        "outcomes": {key: msgspec.to_builtins(record) for key, record in run.outcomes.items()},
        "authorities": list(run.authorities),
    }
    if run.workspace is not None:
        data["workspace"] = run.workspace
    return data


def _provider_id(provider: Any) -> str | None:
    """A Provider ID from a Provider, a string or None."""
    if provider is None or isinstance(provider, str):
        return provider
    manifest = getattr(provider, "manifest", None)
    identity = getattr(manifest, "id", None)
    if not isinstance(identity, str):
        raise AgentGraphError("argument-invalid", "provider must be a Provider, a Provider ID or None")
    return identity


def _sorted_keys(keys: Iterable[str]) -> list[str]:
    return sorted(keys, key=utf16_key)


def _encode(run: Run) -> bytes:
    return msgspec.json.format(msgspec.json.encode(run), indent=2) + b"\n"


def _fsync_directory(directory: str) -> None:
    try:
        handle = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def _target_exists(path: str, label: str) -> AgentGraphError:
    return AgentGraphError("run-target-exists", f"{label} refuses to replace an existing path: {path}")


def create_exclusive(path: str, data: bytes, label: str) -> None:
    """Write ``data`` to a new file ``path`` atomically; ``run-target-exists`` if the name is taken.

    The bytes go to a fsynced temporary file that is then hard-linked to
    ``path`` (a link never replaces an existing name). On file systems
    without hard links, an existence check and a rename are used instead.
    """
    if os.path.lexists(path):
        raise _target_exists(path, label)
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".agent-graph-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            raise _target_exists(path, label) from None
        except OSError as error:
            if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.ENOSYS):
                raise
            if os.path.lexists(path):
                raise _target_exists(path, label) from None
            os.replace(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
    _fsync_directory(directory)


# ---------------------------------------------------------------- locking


def _try_lock(handle: int) -> bool:
    """Take an exclusive lock on an open file without waiting; False if another holder has it."""
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        try:
            msvcrt.locking(handle, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        if error.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
            return False
        raise
    return True


def _unlock(handle: int) -> None:
    if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
        import msvcrt

        with contextlib.suppress(OSError):
            os.lseek(handle, 0, os.SEEK_SET)
            msvcrt.locking(handle, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(handle, fcntl.LOCK_UN)


@contextlib.contextmanager
def run_lock(path: str, timeout: float) -> Iterator[None]:
    """Hold the exclusive writer lock of the Run at ``path`` (sidecar ``<path>.lock``).

    Waits at most ``timeout`` seconds, polling with a short backoff, then
    raises ``run-lock-timeout``. The lock is released when the block ends,
    and by the OS if the process dies.
    """
    lock_path = path + ".lock"
    try:
        handle = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise AgentGraphError("run-lock-failed", f"Cannot open the lock file {lock_path}: {error}") from None
    try:
        deadline = time.monotonic() + max(timeout, 0.0)
        pause = 0.001
        while not _try_lock(handle):
            if time.monotonic() >= deadline:
                raise AgentGraphError(
                    "run-lock-timeout",
                    f"Another writer held the lock of Run {path} for more than {timeout:g} s ({lock_path})",
                )
            time.sleep(pause)
            pause = min(pause * 2, 0.005)
        try:
            yield
        finally:
            _unlock(handle)
    finally:
        os.close(handle)


# ---------------------------------------------------------------- the store


class RunStore:
    """Reads and writes ``agent-graph.run.v1`` files.

    ``clock`` returns the current time (a timezone-aware ``datetime``; the
    default is the system clock in UTC), ``new_id`` a fresh Run ID (default: a
    random UUID) and ``lock_timeout`` bounds the wait for another writer.
    Every method takes the Run path; relative paths are resolved against the
    current directory. Methods that accept ``provider`` (a Provider, a
    Provider ID, or None to skip the check) refuse a Run of another Provider
    with ``run-provider-mismatch`` before changing anything.
    """

    __slots__ = ("_clock", "_new_id", "lock_timeout")

    def __init__(
        self,
        *,
        clock: Clock | None = None,
        new_id: IdFactory | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    ) -> None:
        self._clock: Clock = clock or _system_clock
        self._new_id: IdFactory = new_id or _random_id
        self.lock_timeout = lock_timeout

    def now(self) -> str:
        """The current time as a Run timestamp."""
        return format_timestamp(self._clock())

    # ------------------------------------------------------------ reading

    def load(self, path: str, provider: Any = None) -> Run:
        """Read and validate a Run (``run-missing``, ``run-invalid``, ``run-provider-mismatch``)."""
        absolute = os.path.abspath(path)
        if not os.path.isfile(absolute):
            raise AgentGraphError("run-missing", f"Run file does not exist: {absolute}")
        try:
            with open(absolute, "rb") as handle:
                data = handle.read(MAX_RUN_BYTES + 1)
        except OSError as error:
            raise AgentGraphError("file-read-failed", f"Cannot read {absolute}: {error}") from None
        run = self.decode(data, absolute)
        expected = _provider_id(provider)
        if expected is not None and run.provider != expected:
            raise AgentGraphError(
                "run-provider-mismatch", f"Run {run.id} belongs to Provider {run.provider}, not {expected}"
            )
        return run

    @staticmethod
    def decode(data: bytes, path: str) -> Run:
        """A Run from the bytes of a file at ``path`` (``run-invalid`` unless it is a valid Run)."""
        from .._syntax.parse import parse_structured

        try:
            raw = parse_structured(data, path, max_bytes=MAX_RUN_BYTES)
            _schema.validate("run", raw, path)
        except AgentGraphError as error:
            raise AgentGraphError(
                "run-invalid",
                f"{path} is not a valid agent-graph.run.v1 ({error.code}): {error.message}",
                error.diagnostics,
            ) from None
        try:
            run: Run = msgspec.convert(raw, Run)
        except msgspec.ValidationError as error:
            raise AgentGraphError("run-invalid", f"{path} is not a valid agent-graph.run.v1: {error}") from None
        return run

    # ------------------------------------------------------------ writing helpers

    def _checked(self, run: Run, path: str) -> bytes:
        """Encode ``run`` after checking it against the Run schema (nothing invalid is ever written)."""
        try:
            data = _encode(run)
        except (TypeError, ValueError, OverflowError) as error:
            raise AgentGraphError("json-invalid", f"Run {run.id} holds a value that is not JSON: {error}") from None
        _schema.validate("run", msgspec.json.decode(data), path)
        return data

    @staticmethod
    def _event(run: Run, at: str, kind: str, **fields: Any) -> RunEvent:
        sequence = (run.events[-1].sequence if run.events else 0) + 1
        return RunEvent(sequence=sequence, at=at, type=kind, **fields)

    def _update(self, path: str, provider: Any, change: Callable[[Run, str], Run]) -> Run:
        """Read-modify-write under the writer lock; ``change(run, now)`` returns the new Run.

        A symbolic link is followed, so the Run it points to is updated (and locked) in place.
        """
        absolute = os.path.realpath(path)
        if not os.path.isfile(absolute):
            raise AgentGraphError("run-missing", f"Run file does not exist: {absolute}")
        self.load(absolute, provider)  # refuse a bad Run before its lock sidecar is created
        with run_lock(absolute, self.lock_timeout):
            run = self.load(absolute, provider)
            at = self.now()
            updated = msgspec.structs.replace(change(run, at), updated_at=at)
            write_bytes_atomic(absolute, self._checked(updated, absolute))
        return updated

    # ------------------------------------------------------------ operations

    def start(
        self,
        path: str,
        provider: Any,
        graph: str,
        entry: str = "default",
        *,
        workspace: str | None = None,
        facts: Mapping[str, Any] | None = None,
        authorities: Iterable[str] | None = None,
    ) -> Run:
        """Create a new Run at ``path`` with event 1 ``run.started`` (``run-target-exists`` if taken).

        ``provider`` is the Provider (its Graph and entry are then checked:
        ``graph-missing``, ``entry-missing``) or its ID. ``workspace`` is
        stored as an absolute path.
        """
        absolute = os.path.abspath(path)
        if os.path.lexists(absolute):
            raise _target_exists(absolute, "Run start")
        identity = _provider_id(provider)
        if identity is None:
            raise AgentGraphError("argument-invalid", "Run start needs the Provider or its ID")
        graphs = getattr(provider, "graphs", None)
        if graphs is not None:
            compiled = graphs.get(graph)
            if compiled is None:
                raise AgentGraphError("graph-missing", f"Provider {identity} has no graph {graph}")
            if entry not in compiled.definition.entrypoints:
                raise AgentGraphError("entry-missing", f"Graph {graph} has no entrypoint {entry}")
        if facts is not None and not isinstance(facts, Mapping):
            raise AgentGraphError("json-object-required", "facts must be a JSON object")
        at = self.now()
        run = Run(
            schema=RUN_SCHEMA,
            id=self._new_id(),
            provider=identity,
            graph=graph,
            entry=entry,
            workspace=os.path.abspath(workspace) if workspace is not None else None,
            created_at=at,
            updated_at=at,
            facts=dict(facts or {}),
            outcomes={},
            authorities=tuple(normalize_authorities(authorities)),
            events=(RunEvent(sequence=1, at=at, type="run.started"),),
        )
        create_exclusive(absolute, self._checked(run, absolute), "Run start")
        return run

    def record(self, path: str, node: str, outcome: str, *, detail: Any = msgspec.UNSET, provider: Any = None) -> Run:
        """Record ``outcome`` for the state key ``node`` and append ``node.outcome-recorded``.

        ``node`` is the route's ``afterAction.recordNode``; ``outcome`` one of
        the eight outcomes (``outcome-invalid``); ``detail`` any JSON value,
        kept on the record and the event when given.
        """
        if not isinstance(node, str) or not node:
            raise AgentGraphError("run-node-invalid", "The state key to record must be a non-empty string")
        if not isinstance(outcome, str) or outcome not in OUTCOMES:
            raise AgentGraphError("outcome-invalid", f"Unsupported outcome: {outcome!r}")

        def change(run: Run, at: str) -> Run:
            outcomes = dict(run.outcomes)
            outcomes[node] = OutcomeRecord(outcome=outcome, recorded_at=at, detail=detail)
            event = self._event(run, at, "node.outcome-recorded", node=node, outcome=outcome, detail=detail)
            return msgspec.structs.replace(run, outcomes=outcomes, events=(*run.events, event))

        return self._update(path, provider, change)

    def update_facts(
        self, path: str, facts: Mapping[str, Any], *, replace: bool = False, provider: Any = None
    ) -> Run:
        """Merge ``facts`` over the Run's (``facts.updated``) or replace them (``facts.replaced``).

        The event's detail is ``{keys}``: the given keys, sorted.
        """
        if not isinstance(facts, Mapping):
            raise AgentGraphError("json-object-required", "facts must be a JSON object")
        given = dict(facts)

        def change(run: Run, at: str) -> Run:
            merged = given if replace else {**run.facts, **given}
            kind = "facts.replaced" if replace else "facts.updated"
            event = self._event(run, at, kind, detail={"keys": _sorted_keys(given)})
            return msgspec.structs.replace(run, facts=merged, events=(*run.events, event))

        return self._update(path, provider, change)

    def update_authorities(
        self,
        path: str,
        *,
        replace: Iterable[str] | None = None,
        add: Iterable[str] = (),
        remove: Iterable[str] = (),
        provider: Any = None,
    ) -> Run:
        """Change the Run's session authorities and append ``authorities.updated`` ``{authorities}``.

        ``replace`` replaces the list (``replace=[]`` clears it); then ``add``
        and ``remove`` apply. The stored list is de-duplicated and sorted.
        """
        replacement = normalize_authorities(replace) if replace is not None else None
        added = normalize_authorities(add)
        removed = frozenset(normalize_authorities(remove))

        def change(run: Run, at: str) -> Run:
            current = replacement if replacement is not None else list(run.authorities)
            result = tuple(a for a in normalize_authorities([*current, *added]) if a not in removed)
            event = self._event(run, at, "authorities.updated", detail={"authorities": list(result)})
            return msgspec.structs.replace(run, authorities=result, events=(*run.events, event))

        return self._update(path, provider, change)

    def set_authorities(self, path: str, authorities: Iterable[str], *, provider: Any = None) -> Run:
        """Replace the Run's session authorities (the reference toolchain's ``--set``)."""
        return self.update_authorities(path, replace=list(authorities), provider=provider)

    def checkpoint(self, path: str, target: str, *, provider: Any = None) -> Run:
        """Copy the Run to a new file ``target`` without authorities; returns the checkpoint.

        The Run gets ``run.checkpointed`` ``{checkpoint: <file name>}`` and the
        checkpoint holds the Run as of that event. ``run-target-exists`` if
        ``target`` exists; nothing changes then.
        """
        absolute = os.path.realpath(path)
        destination = os.path.abspath(target)
        if os.path.lexists(destination):
            raise _target_exists(destination, "Checkpoint")
        if not os.path.isfile(absolute):
            raise AgentGraphError("run-missing", f"Run file does not exist: {absolute}")
        self.load(absolute, provider)  # refuse a bad Run before its lock sidecar is created
        with run_lock(absolute, self.lock_timeout):
            run = self.load(absolute, provider)
            at = self.now()
            event = self._event(run, at, "run.checkpointed", detail={"checkpoint": os.path.basename(destination)})
            updated = msgspec.structs.replace(run, events=(*run.events, event), updated_at=at)
            run_bytes = self._checked(updated, absolute)
            snapshot = msgspec.structs.replace(updated, authorities=())
            create_exclusive(destination, self._checked(snapshot, destination), "Checkpoint")
            write_bytes_atomic(absolute, run_bytes)
        return snapshot

    def resume(self, checkpoint: str, target: str, *, provider: Any = None) -> Run:
        """Start a new Run file ``target`` from a checkpoint: authorities cleared, ``run.resumed`` appended.

        The Run keeps its ID, Facts, Outcomes and events; the event's detail is
        ``{checkpoint: <checkpoint file name>}``. ``run-target-exists`` if
        ``target`` exists.
        """
        destination = os.path.abspath(target)
        if os.path.lexists(destination):
            raise _target_exists(destination, "Run resume")
        source = self.load(checkpoint, provider)
        at = self.now()
        event = self._event(
            source, at, "run.resumed", detail={"checkpoint": os.path.basename(os.path.abspath(checkpoint))}
        )
        resumed = msgspec.structs.replace(source, authorities=(), events=(*source.events, event), updated_at=at)
        create_exclusive(destination, self._checked(resumed, destination), "Run resume")
        return resumed
