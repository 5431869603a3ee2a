"""The file Run store: one ``agent-graph.run.v1`` file per Run, written so that no record is lost.

A Run is host-owned execution memory (behaviour.md §9): Provider, Graph,
entry, optional workspace, Facts, the latest Outcome per state key, session
authorities and an append-only list of numbered events. This module is the
file storage of the Run stores (:class:`FileStorage`, a
:class:`~agent_graph._runtime.run_storage.RunStorage`): it reads and writes
files and takes OS file locks; what each operation does to a Run lives in the
face (:mod:`agent_graph._runtime.run_operations`), shared with every store.

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
* A Run is addressed by its path or by its Run ID (the file ``start`` and
  ``import`` name after it); a relative path is resolved against the store's
  folder (``root``; default: the current directory at each call), and with a
  ``root`` no reference leads out of it (``run-ref-outside-store``).
* A write reads the file once, checks only what it adds (the new head and
  events) and encodes the Run once: the file store is the small-scale store,
  its writes grow with the Run's history (docs/scaling.md).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from .._core.errors import AgentGraphError, os_error
from .._core.model import Run, RunSummary
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
def run_lock(path: str, timeout: float, monotonic: seam.MonotonicClock | None = None) -> Iterator[None]:
    """Hold the exclusive writer lock of the Run at ``path`` (sidecar ``<path>.lock``).

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
            yield
    finally:
        os.close(handle)


# ---------------------------------------------------------------- the storage


class FileStorage(seam.RunStorage):
    """Runs as ``agent-graph.run.v1`` files in a folder: the storage of :class:`FileRunStore`.

    ``root`` is the folder relative Run paths are resolved against (None: the
    current directory at each call). A Run is addressed by its path or by its
    Run ID (``<id>.json``, the file ``start`` and ``import`` name after it).
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

    def __repr__(self) -> str:
        return f"<FileStorage {self.root or '.'}>"

    def path(self, ref: str) -> str:
        """The absolute path of the Run ``ref``: a path, or a Run ID the store named its file after.

        With a ``root``, a reference that leads out of the folder (``../x.json``,
        an absolute path elsewhere) is ``run-ref-outside-store``.
        """
        folder = self.root or os.getcwd()
        absolute = os.path.abspath(os.path.join(folder, ref))
        if self.root is not None and os.path.commonpath([self.root, absolute]) != self.root:
            raise AgentGraphError(
                "run-ref-outside-store",
                f"Run {ref!r:.200} is outside the store's folder {self.root}; name a Run inside it (or its ID)",
            )
        if (
            not os.path.lexists(absolute)
            and os.sep not in ref
            and "/" not in ref
            and not ref.endswith(".json")
        ):
            by_id = os.path.join(folder, _file_name(ref))
            if os.path.lexists(by_id):
                return by_id
        return absolute

    def where(self, ref: str) -> str:
        return self.path(ref) if ref else f"the Run folder {self.root or os.getcwd()}"

    @staticmethod
    def _stored(run: Run) -> seam.StoredHead:
        return seam.StoredHead(head_of(run), len(run.events))

    def _existing(self, ref: str) -> tuple[str, Run]:
        """The real path and Run of an existing, valid Run."""
        absolute = os.path.realpath(self.path(ref))
        if not os.path.isfile(absolute):
            raise AgentGraphError("run-missing", f"Run file does not exist: {absolute}")
        return absolute, read_run_file(absolute)

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
        with run_lock(absolute, self.lock_timeout, self.monotonic):
            run = read_run_file(absolute)
            appended = write(self._stored(run))
            whole = with_events(appended.head, (*run.events, *appended.events))
            write_bytes_atomic(absolute, sized_run_bytes(whole, absolute))
        return appended

    def create(self, new: seam.NewRun) -> None:
        run = new.run
        if new.ref is not None:
            absolute = self.path(new.ref)
        else:
            if new.purpose == "import":
                for summary in self.list_runs(seam.RunQuery()):
                    if summary.id == run.id:
                        raise AgentGraphError(
                            "run-target-exists",
                            f"Run import: the store already holds Run {run.id} ({summary.ref})",
                        )
            absolute = self.path(_file_name(run.id))
        create_exclusive(absolute, new.document, new.label)

    def checkpoint(self, ref: str, name: str, write: seam.CheckpointWrite) -> seam.Checkpointed:
        destination = self.path(name)
        if os.path.lexists(destination):
            raise AgentGraphError(
                "run-target-exists", f"Checkpoint refuses to replace an existing path: {destination}"
            )
        named = os.path.basename(destination)
        absolute, current = self._existing(ref)
        if not os.path.lexists(absolute + ".lock"):  # as in append: a refusal creates no lock file
            write.check(seam.StoredPage(self._stored(current), current.events), named)
        with run_lock(absolute, self.lock_timeout, self.monotonic):
            run = read_run_file(absolute)
            done = write(seam.StoredPage(self._stored(run), run.events), named)
            whole = with_events(done.appended.head, (*run.events, *done.appended.events))
            with FileChanges("run-target-exists", "Checkpoint") as changes:  # both or neither
                changes.create(destination, done.document)
                write_bytes_atomic(absolute, sized_run_bytes(whole, absolute))
        return done

    def read_checkpoint(self, name: str) -> seam.StoredCheckpoint:
        absolute = self.path(name)
        return seam.StoredCheckpoint(read_run_file(absolute), os.path.basename(absolute))

    def list_runs(self, query: seam.RunQuery) -> Iterator[RunSummary]:
        folder = self.root or os.getcwd()
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
                run = read_run_file(path)
            except AgentGraphError:
                continue  # not a Run: other JSON files may share the folder
            yield seam.summary_of(run, path)


# ---------------------------------------------------------------- the store


class FileRunStore(BaseRunStore):
    """Runs as ``agent-graph.run.v1`` files, byte-compatible with the TypeScript toolchain.

    ``root`` is the folder relative Run paths are resolved against, where
    ``start(None, …)`` and ``import_run`` put ``<run id>.json`` and which
    ``list`` reads (default: the current directory at each call). A Run
    reached through a symbolic link is updated (and locked) where it points.
    ``lock_timeout`` bounds the wait for another writer, as ``monotonic``
    counts it.
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
