"""The file Run store: one ``agent-graph.run.v1`` file per Run, written so that no record is lost.

A Run is host-owned execution memory (behaviour.md §9): Provider, Graph,
entry, optional workspace, Facts, the latest Outcome per state key, session
authorities and an append-only list of numbered events. This module is the
file backend of the Run store contract (:mod:`agent_graph._runtime.run_store`): it
reads and writes files and takes OS file locks; what each operation does to a
Run lives in :mod:`agent_graph._runtime.run_changes`, shared with the database stores.

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

import msgspec

from .._core.errors import AgentGraphError, os_error
from .._core.model import Run, RunEvent, RunHead, RunSummary
from .._load.atomic import FileChanges, write_bytes_atomic
from .locks import held_lock
from .run_changes import (
    RUN_SCHEMA,
    Change,
    checkpoint_event,
    evaluation_input as run_evaluation_input,
    guarded,
    head_of,
    with_events,
)
from .run_store import (
    DEFAULT_LOCK_TIMEOUT,
    MAX_RUN_BYTES,
    BaseRunStore,
    Clock,
    IdFactory,
    check_provider,
    checked_run_bytes,
    checked_timeout,
    decode_run,
    format_timestamp,
    read_run_file,
    settle,
    sized_run_bytes,
)

__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "MAX_RUN_BYTES",
    "RUN_SCHEMA",
    "FileRunStore",
    "RunStore",
    "format_timestamp",
    "read_run_file",
    "run_evaluation_input",
    "run_lock",
]


# ---------------------------------------------------------------- locking


@contextlib.contextmanager
def run_lock(path: str, timeout: float) -> Iterator[None]:
    """Hold the exclusive writer lock of the Run at ``path`` (sidecar ``<path>.lock``).

    Waits at most ``timeout`` seconds (0 to a week, else ``argument-invalid``),
    polling with a short backoff, then raises ``run-lock-timeout``. The lock
    is released when the block ends, and by the OS if the process dies. A
    lock file that cannot be made has its operating-system code
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
        with held_lock(handle, seconds, timed_out):
            yield
    finally:
        os.close(handle)


# ---------------------------------------------------------------- the store


class FileRunStore(BaseRunStore):
    """Runs as ``agent-graph.run.v1`` files, byte-compatible with the TypeScript toolchain.

    ``root`` is the folder relative Run paths are resolved against, where
    ``start(None, …)`` and ``import_run`` put ``<run id>.json`` and which
    ``list`` reads (default: the current directory at each call). A Run
    reached through a symbolic link is updated (and locked) where it points.
    """

    store_kind = "files"

    ref_kind = "path"

    def __init__(
        self,
        root: str | None = None,
        *,
        clock: Clock | None = None,
        new_id: IdFactory | None = None,
        lock_timeout: float = DEFAULT_LOCK_TIMEOUT,
    ) -> None:
        super().__init__(clock=clock, new_id=new_id, lock_timeout=lock_timeout)
        if root is not None and (not isinstance(root, str) or not root):
            raise AgentGraphError("argument-invalid", "root must be a folder path")
        self.root = os.path.abspath(root) if root is not None else None

    def __repr__(self) -> str:
        return f"<FileRunStore {self.root or '.'}>"

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

    @staticmethod
    def decode(data: bytes, path: str) -> Run:
        """A Run from the bytes of a file at ``path`` (``run-invalid`` unless it is a valid Run)."""
        return decode_run(data, path)

    # ------------------------------------------------------------ primitives

    def _read(self, ref: str) -> Run:
        return read_run_file(self.path(ref))

    def _head(self, ref: str) -> RunHead:
        return head_of(self._read(ref))

    def _page(self, ref: str, expected: str | None, after: int, limit: int) -> tuple[RunEvent, ...]:
        run = check_provider(self._read(ref), expected)
        return run.events[after : after + limit]

    def _existing(self, ref: str, expected: str | None) -> tuple[str, Run]:
        """The real path and Run of an existing, valid Run of ``expected``."""
        absolute = os.path.realpath(self.path(ref))
        if not os.path.isfile(absolute):
            raise AgentGraphError("run-missing", f"Run file does not exist: {absolute}")
        return absolute, check_provider(read_run_file(absolute), expected)

    @staticmethod
    def _changed(run: Run, change: Change, at: str, where: str) -> tuple[Run, RunHead]:
        """The whole Run after ``change`` (new values settled as the reader reads them), and its head."""
        before = head_of(run)
        head, added = change(before, at)
        head, added, _, _ = settle(head, added, where, before)
        return with_events(head, (*run.events, *added)), head

    def _apply(self, ref: str, expected: str | None, change: Change) -> RunHead:
        absolute, current = self._existing(ref, expected)
        if not os.path.lexists(absolute + ".lock"):
            # Nothing is created for a change that would be refused (too large, say): try it first.
            self._changed(current, change, current.updated_at, absolute)
        with run_lock(absolute, self.lock_timeout):
            run = check_provider(read_run_file(absolute), expected)
            updated, head = self._changed(run, change, self.now(), absolute)
            write_bytes_atomic(absolute, sized_run_bytes(updated, absolute))
        return head

    def _create(self, ref: str, run: Run, label: str) -> None:
        from .._load.atomic import create_exclusive

        absolute = self.path(ref)
        create_exclusive(absolute, checked_run_bytes(run, absolute), label)

    def _checkpoint(self, ref: str, target: str, expected: str | None) -> Run:
        destination = self.path(target)
        if os.path.lexists(destination):
            raise AgentGraphError(
                "run-target-exists", f"Checkpoint refuses to replace an existing path: {destination}"
            )
        absolute, current = self._existing(ref, expected)
        if not os.path.lexists(absolute + ".lock"):  # as in _apply: a refusal creates no lock file
            self._checkpointed(current, current.updated_at, destination, absolute)
        with run_lock(absolute, self.lock_timeout):
            run = check_provider(read_run_file(absolute), expected)
            run_bytes, snapshot = self._checkpointed(run, self.now(), destination, absolute)
            with FileChanges("run-target-exists", "Checkpoint") as changes:  # both or neither
                changes.create(destination, sized_run_bytes(snapshot, destination))
                write_bytes_atomic(absolute, run_bytes)
        return snapshot

    def _checkpointed(self, run: Run, at: str, destination: str, absolute: str) -> tuple[bytes, Run]:
        """The Run's new bytes with ``run.checkpointed``, and the checkpoint."""
        updated, _ = self._changed(
            run, guarded(None, checkpoint_event(os.path.basename(destination))), at, absolute
        )
        snapshot = msgspec.structs.replace(updated, authorities=())
        return sized_run_bytes(updated, absolute), snapshot

    def _read_checkpoint(self, ref: str) -> tuple[Run, str]:
        absolute = self.path(ref)
        return read_run_file(absolute), os.path.basename(absolute)

    def _start_ref(self, ref: str | None) -> tuple[str, str]:
        run_id = self._fresh_id()
        target = ref if ref is not None else _file_name(run_id)
        absolute = self.path(target)
        if os.path.lexists(absolute):
            raise AgentGraphError(
                "run-target-exists", f"Run start refuses to replace an existing path: {absolute}"
            )
        return target, run_id

    def _import_ref(self, run: Run) -> str:
        for summary in self._summaries(None, None, None, None):
            if summary.id == run.id:
                raise AgentGraphError(
                    "run-target-exists", f"Run import: the store already holds Run {run.id} ({summary.ref})"
                )
        return _file_name(run.id)

    def _resume_ref(self, target: str | None, checkpoint: Run) -> tuple[str, str | None]:
        if target is None:  # a new Run ID, and the file named after it (as start names one)
            run_id = self._fresh_id()
            return _file_name(run_id), run_id
        return target, None  # a named file keeps the checkpoint's Run ID, as the TypeScript toolchain does

    def _summaries(
        self, provider: str | None, graph: str | None, after: str | None, before: str | None
    ) -> Iterator[RunSummary]:
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
            yield RunSummary(
                id=run.id,
                ref=path,
                provider=run.provider,
                graph=run.graph,
                entry=run.entry,
                created_at=run.created_at,
                updated_at=run.updated_at,
                events=len(run.events),
            )


def _file_name(run_id: str) -> str:
    """``<run id>.json`` when the ID is a safe file name, else its digest."""
    safe = run_id.replace("-", "").replace("_", "").replace(".", "")
    if safe.isalnum() and safe.isascii() and not run_id.startswith(".") and len(run_id) <= 200:
        return run_id + ".json"
    from .._core.canonical import digest_value

    return "run-" + digest_value(run_id).split(":", 1)[1][:32] + ".json"


#: The name hosts have always used for the file store.
RunStore = FileRunStore
