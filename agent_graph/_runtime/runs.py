"""The file Run store: one ``agent-graph.run.v1`` file per Run, written so that no record is lost.

A Run is host-owned execution memory (behaviour.md §9): Provider, Graph,
entry, optional workspace, Facts, the latest Outcome per state key, session
authorities and an append-only list of numbered events. This module is the
file storage of the Run stores (:class:`FileStorage`, a
:class:`~agent_graph._runtime.run_storage.RunStorage`): it reads and writes
files and takes OS file locks; what each operation does to a Run is written
once for every store (:mod:`agent_graph._runtime.run_methods`, with the checks
and writes of :mod:`agent_graph._runtime.run_operations`).

Guarantees:

* Every write goes to a temporary file in the target's directory, is flushed
  and fsynced, then renamed over the target: a reader, or a process killed at
  any point, sees the previous Run or the next one, never a truncated file.
* Writers of one Run are serialized by an exclusive OS lock on the sidecar
  file ``<run>.lock``, held across the whole read-modify-write, so concurrent
  ``record`` calls from many processes all land. The lock is waited for at
  most ``lock_timeout`` seconds (``run-lock-timeout``), as the store's
  monotonic clock counts them. The sidecar is never
  deleted: removing a lock file while another process waits on it would let
  two writers in.
* Start, checkpoint, resume, import and export never replace an existing file
  (``run-target-exists``): the new file is linked into place, which fails if
  the name is taken.
* A missing Run is ``run-missing``, a file that is not a valid Run is
  ``run-invalid`` (a key repeated in an object and events not numbered 1..n
  included), a Run of another Provider is ``run-provider-mismatch``; none of
  them is ever overwritten.
* What is written is checked with the reader first
  (:func:`~agent_graph._runtime.run_store.checked_run_bytes`); a change that
  would be refused is refused before the lock sidecar is created, and an
  operating-system failure has its code (``file-permission-denied``,
  ``disk-full`` …) with the path.
* A Run is addressed by its Run ID, as in every store: it lives in the file
  named after it, ``<id>.json`` in the store's folder (``root``; default: the
  current directory at each call), or ``run-<digest>.json`` for an ID that is
  not a safe file name. ``start``, ``resume`` and ``fork`` make a given ref
  the new Run's ID, ``import`` keeps the file's ID, and an ID is held once in
  the folder (``run-target-exists``). A ref that is a path (it holds a
  separator or ends in ``.json``) names a Run file directly, as the
  TypeScript toolchain's ``--state`` does: a Run created at a path gets a
  fresh ID, which also finds it (the folder is read for the file holding
  it), and Run files made elsewhere are read and written where they are.
  With a ``root`` no reference leads out of it (``run-ref-outside-store``).
* Each Run's ``<run>.lock`` sidecar also keeps, as its content, the Run's
  status as of its last evaluated write with the event count it belongs to
  (``list``'s status): a Run changed elsewhere since has no known status.
* A write reads the file once, checks only what it adds (the new head and
  events) and encodes the Run once: the file store is the small-scale store,
  its writes grow with the Run's history (docs/scaling.md).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import msgspec

from .._core.errors import AgentGraphError, os_error
from .._core.model import Run, RunSummary, StatusCode
from .._core.plain import json_bytes
from .._load.atomic import FileChanges, create_exclusive, write_bytes_atomic
from . import run_storage as seam
from .locks import held_lock
from .run_changes import RUN_SCHEMA, evaluation_input as run_evaluation_input, head_of, with_events
from .run_codec import (
    DEFAULT_LOCK_TIMEOUT,
    MAX_RUN_BYTES,
    checked_timeout,
    decode_run,
    format_timestamp,
    read_run_file,
    sized_run_bytes,
)
from .run_listing import STATUSES
from .run_operations import IdFactory
from .run_store import BaseRunStore

__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "MAX_RUN_BYTES",
    "RUN_SCHEMA",
    "FileRunStore",
    "FileStorage",
    "format_timestamp",
    "read_run_file",
    "run_evaluation_input",
    "run_lock",
]


# ---------------------------------------------------------------- locking


@contextlib.contextmanager
def run_lock(path: str, timeout: float, monotonic: seam.MonotonicClock | None = None) -> Iterator[int]:
    """Hold the exclusive writer lock of the Run at ``path`` (sidecar ``<path>.lock``); the sidecar's descriptor.

    Waits at most ``timeout`` seconds (0 to a week, else ``argument-invalid``)
    as ``monotonic`` counts them (default: :func:`time.monotonic`), polling
    with a short backoff, then raises ``run-lock-timeout``. The lock is
    released when the block ends, and by the OS if the process dies. A lock
    file that cannot be made has its operating-system code
    (``file-permission-denied``, ``disk-full`` …).
    """
    lock_path = path + ".lock"
    seconds = checked_timeout(timeout, "The lock timeout")
    try:
        handle = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except (OSError, ValueError) as error:
        raise os_error(error, lock_path, "create the lock file") from None

    def timed_out() -> AgentGraphError:
        return AgentGraphError(
            "run-lock-timeout",
            f"Another writer held the lock of Run {path} for more than {seconds:g} s ({lock_path})",
        )

    try:
        with held_lock(handle, seconds, timed_out, monotonic):
            yield handle
    finally:
        os.close(handle)


# ---------------------------------------------------------------- the status sidecar

#: The most a lock sidecar's status text takes.
_STATUS_BYTES = 128


def _status_text(events: int, status: str | None) -> bytes:
    return json_bytes({"events": events, "status": status})


def _status_in(text: bytes, events: int) -> StatusCode | None:
    """The status a sidecar's text keeps for a Run of ``events`` events (None: none, or kept for another count)."""
    try:
        raw = msgspec.json.decode(text)
    except msgspec.DecodeError:
        return None
    if not isinstance(raw, dict) or raw.get("events") != events or raw.get("status") not in STATUSES:
        return None
    status: StatusCode = raw["status"]
    return status


def _read_status(handle: int, events: int) -> StatusCode | None:
    try:
        return _status_in(os.pread(handle, _STATUS_BYTES, 0), events)
    except OSError:
        return None


def _write_status(handle: int, events: int, status: str | None) -> None:
    """Keep ``status`` for the Run's ``events`` in its lock sidecar (held): a cache, so an OS error is ignored."""
    if status is None:
        return
    text = _status_text(events, status)
    with contextlib.suppress(OSError):
        os.pwrite(handle, text, 0)
        os.ftruncate(handle, len(text))


def _status_of_file(path: str, events: int) -> StatusCode | None:
    """The status the lock sidecar of the Run file ``path`` keeps for its ``events`` (read without the lock)."""
    try:
        with open(os.path.realpath(path) + ".lock", "rb") as handle:
            return _status_in(handle.read(_STATUS_BYTES), events)
    except OSError:
        return None


# ---------------------------------------------------------------- the storage


def is_path_ref(ref: str) -> bool:
    """Whether a ref of the file store is the path of a Run file (a separator, or ``.json`` at its end), not a Run ID."""
    return "/" in ref or os.sep in ref or bool(os.altsep and os.altsep in ref) or ref.endswith(".json")


def _is_checkpoint_copy(run: Run, name: str) -> bool:
    """Whether the Run file ``name`` is a checkpoint: a copy of a Run whose last event names this very file."""
    last = run.events[-1] if run.events else None
    return (
        last is not None
        and last.type == "run.checkpointed"
        and isinstance(last.detail, dict)
        and last.detail.get("checkpoint") == name
    )


class FileStorage(seam.RunStorage):
    """Runs as ``agent-graph.run.v1`` files in a folder: the storage of :class:`FileRunStore`.

    ``root`` is the folder (None: the current directory at each call). A Run
    lives in the file named after its Run ID (``<id>.json``; an ID that is not
    a safe file name: ``run-<digest>.json``); a ref that is a path (it holds a
    separator or ends in ``.json``) names a Run file directly, as the
    TypeScript toolchain does. See :class:`FileRunStore`.
    """

    kind = "files"
    ref_kind = "path"

    def __init__(
        self,
        root: str | None = None,
        *,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        monotonic: seam.MonotonicClock | None = None,
    ) -> None:
        super().__init__(lock_timeout=lock_timeout, monotonic=monotonic)
        if root is not None and (not isinstance(root, str) or not root):
            raise AgentGraphError("argument-invalid", "root must be a folder path")
        self.root = os.path.abspath(root) if root is not None else None
        self._closed = False

    def __repr__(self) -> str:
        return f"<FileStorage {self.root or '.'}>"

    def close(self) -> None:
        """Refuse every call from now on (``run-store-closed``): the files stay as they are."""
        self._closed = True

    def _folder(self) -> str:
        if self._closed:
            raise AgentGraphError("run-store-closed", f"The file Run store {self.root or '.'} is closed")
        return self.root or os.getcwd()

    def _inside(self, ref: str, absolute: str) -> str:
        """``absolute`` unless a ``root`` is set and it leads out of it (``run-ref-outside-store``)."""
        if self.root is not None and os.path.commonpath([self.root, absolute]) != self.root:
            raise AgentGraphError(
                "run-ref-outside-store",
                f"Run {ref!r:.200} is outside the store's folder {self.root}; name a Run inside it (or its ID)",
            )
        return absolute

    def _named(self, ref: str) -> str:
        """The file ``ref`` names without reading the folder: a path, the file of an ID, or a file named ``ref``."""
        folder = self._folder()
        if is_path_ref(ref):
            return self._inside(ref, os.path.abspath(os.path.join(folder, ref)))
        by_id = os.path.join(folder, _file_name(ref))
        if not os.path.lexists(by_id):
            named = os.path.abspath(os.path.join(folder, ref))  # a Run file an earlier release named so
            if os.path.isfile(named) and (self.root is None or os.path.dirname(named) == self.root):
                return named
        return by_id

    def path(self, ref: str) -> str:
        """The absolute path of the Run ``ref``: a path, or the file of a Run ID (the folder is read if need be).

        A Run ID names ``<id>.json``; failing that, a file named exactly
        ``ref`` (as an earlier release named the file of ``start(ref)``);
        failing that, the one Run file of the folder holding that ID (a Run
        made at a path; ``run-ref-ambiguous`` when several do). With a
        ``root``, a path that leads out of the folder is ``run-ref-outside-store``.
        """
        named = self._named(ref)
        if is_path_ref(ref) or os.path.lexists(named):
            return named
        holders = [
            path
            for path, run in self._runs()
            if run.id == ref and not _is_checkpoint_copy(run, os.path.basename(path))
        ]
        if len(holders) > 1:
            raise AgentGraphError(
                "run-ref-ambiguous",
                f"Several Run files of {self._folder()} hold Run {ref} ({', '.join(os.path.basename(h) for h in holders[:5])}); "
                "name the one you mean by its path",
            )
        return holders[0] if holders else named

    def run_id_for(self, ref: str) -> str | None:
        return None if is_path_ref(ref) else ref

    def where(self, ref: str) -> str:
        if not ref:
            return f"the Run folder {self.root or os.getcwd()}"
        try:
            return self._named(ref)
        except AgentGraphError:
            return f"Run {ref}"

    @staticmethod
    def _stored(run: Run) -> seam.StoredHead:
        return seam.StoredHead(head_of(run), len(run.events), None, run.events[-1] if run.events else None)

    def _existing(self, ref: str) -> tuple[str, Run]:
        """The real path and Run of an existing, valid Run."""
        absolute = os.path.realpath(self.path(ref))
        if not os.path.isfile(absolute):
            raise AgentGraphError("run-missing", f"Run file does not exist: {absolute}")
        return absolute, read_run_file(absolute)

    def _runs(self) -> Iterator[tuple[str, Run]]:
        """Every Run file of the folder (``*.json``, not hidden) and its Run; files that are not Runs are passed over."""
        folder = self._folder()
        if not os.path.isdir(folder):
            return  # a folder not made yet holds no Run
        try:
            names = sorted(os.listdir(folder))
        except OSError as error:
            raise AgentGraphError(
                "file-read-failed", f"Cannot list the Run folder {folder}: {error}"
            ) from None
        for name in names:
            path = os.path.join(folder, name)
            if not name.endswith(".json") or name.startswith(".") or not os.path.isfile(path):
                continue
            try:
                yield path, read_run_file(path)
            except AgentGraphError:
                continue  # not a Run: other JSON files may share the folder

    # ------------------------------------------------------------ the seam

    def read_head(self, ref: str) -> seam.StoredHead:
        return self._stored(read_run_file(self.path(ref)))

    def read_events(self, ref: str, after: int, limit: int) -> seam.StoredPage:
        run = read_run_file(self.path(ref))
        return seam.StoredPage(self._stored(run), run.events[after : after + limit])

    def append(self, ref: str, write: seam.Write) -> seam.Appended:
        absolute, current = self._existing(ref)
        if not os.path.lexists(absolute + ".lock"):
            write.check(self._stored(current))  # nothing is created for a change that would be refused
        with run_lock(absolute, self.lock_timeout, self.monotonic) as handle:
            run = read_run_file(absolute)
            appended = write(self._stored(run))
            whole = with_events(appended.head, (*run.events, *appended.events))
            write_bytes_atomic(absolute, sized_run_bytes(whole, absolute))
            kept = appended.status or _read_status(handle, len(run.events))
            _write_status(handle, appended.head.events, kept)
        return appended

    def create(self, new: seam.NewRun) -> None:
        run = new.run
        if new.ref is not None and is_path_ref(new.ref):
            absolute = self._named(new.ref)
        else:
            absolute = os.path.join(self._folder(), _file_name(run.id))
            if new.ref is not None or new.purpose == "import":  # an ID chosen by the caller: held once
                for path, held in self._runs():
                    if held.id == run.id and not _is_checkpoint_copy(held, os.path.basename(path)):
                        raise AgentGraphError(
                            "run-target-exists",
                            f"{new.label}: the store already holds Run {run.id} ({path})",
                        )
        create_exclusive(absolute, new.document, new.label)
        if new.status is not None:
            with run_lock(os.path.realpath(absolute), self.lock_timeout, self.monotonic) as handle:
                _write_status(handle, len(run.events), new.status)

    def checkpoint(self, ref: str, name: str, write: seam.CheckpointWrite) -> seam.Checkpointed:
        destination = self._inside(name, os.path.abspath(os.path.join(self._folder(), name)))
        if os.path.lexists(destination):
            raise AgentGraphError(
                "run-target-exists", f"Checkpoint refuses to replace an existing path: {destination}"
            )
        named = os.path.basename(destination)
        absolute, current = self._existing(ref)
        if not os.path.lexists(absolute + ".lock"):  # as in append: a refusal creates no lock file
            write.check(seam.StoredPage(self._stored(current), current.events), named)
        with run_lock(absolute, self.lock_timeout, self.monotonic) as handle:
            run = read_run_file(absolute)
            done = write(seam.StoredPage(self._stored(run), run.events), named)
            whole = with_events(done.appended.head, (*run.events, *done.appended.events))
            with FileChanges("run-target-exists", "Checkpoint") as changes:  # both or neither
                changes.create(destination, done.document)
                write_bytes_atomic(absolute, sized_run_bytes(whole, absolute))
            kept = done.appended.status or _read_status(handle, len(run.events))
            _write_status(handle, done.appended.head.events, kept)
        return done

    def read_checkpoint(self, name: str) -> seam.StoredCheckpoint:
        absolute = self._inside(name, os.path.abspath(os.path.join(self._folder(), name)))
        return seam.StoredCheckpoint(read_run_file(absolute), os.path.basename(absolute))

    def list_runs(self, query: seam.RunQuery) -> Iterator[RunSummary]:
        """Every Run file of the folder but checkpoints; its ref is its Run ID when the file is named after it."""
        for path, run in self._runs():
            name = os.path.basename(path)
            if _is_checkpoint_copy(run, name):
                continue
            ref = run.id if name == _file_name(run.id) else name
            summary = seam.summary_of(run, ref, _status_of_file(path, len(run.events)))
            if query.selects(summary):
                yield summary


# ---------------------------------------------------------------- the store


class FileRunStore(BaseRunStore):
    """Runs as ``agent-graph.run.v1`` files, byte-compatible with the TypeScript toolchain.

    ``root`` is the store's folder: a Run lives in ``<run id>.json`` there,
    which ``start``, ``resume``, ``fork`` and ``import_run`` create and
    ``list`` reads (default: the current directory at each call). A ref that
    is a path (``runs/weekly.json``, ``run.json``) names a Run file directly
    (see the module's docs). A Run reached through a symbolic link is updated
    (and locked) where it points. ``lock_timeout`` bounds the wait for another
    writer, as ``monotonic`` counts it.
    """

    storage: FileStorage

    def __init__(
        self,
        root: str | None = None,
        *,
        clock: seam.Clock | None = None,
        new_id: IdFactory | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
        monotonic: seam.MonotonicClock | None = None,
    ) -> None:
        super().__init__(
            FileStorage(root, lock_timeout=lock_timeout, monotonic=monotonic), clock=clock, new_id=new_id
        )

    def __repr__(self) -> str:
        return f"<FileRunStore {self.root or '.'}>"

    @property
    def root(self) -> str | None:
        """The store's folder (absolute), or None: the current directory at each call."""
        return self.storage.root

    def path(self, ref: str) -> str:
        """The absolute path of the Run ``ref`` (see :meth:`FileStorage.path`)."""
        return self.storage.path(ref)

    @staticmethod
    def decode(data: bytes, path: str) -> Run:
        """A Run from the bytes of a file at ``path`` (``run-invalid`` unless it is a valid Run)."""
        return decode_run(data, path)


def _file_name(run_id: str) -> str:
    """``<run id>.json`` when the ID is a safe file name, else its digest."""
    safe = run_id.replace("-", "").replace("_", "").replace(".", "")
    if safe.isalnum() and safe.isascii() and not run_id.startswith(".") and len(run_id) <= 200:
        return run_id + ".json"
    from .._core.canonical import digest_value

    return "run-" + digest_value(run_id).split(":", 1)[1][:32] + ".json"
