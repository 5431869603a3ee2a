"""``shelf://FOLDER``: a Run store written against ``agent_graph.storage`` only, in a distribution of its own.

Each Run is one JSON file holding the texts the store's face hands over (its
head, its events, its size and its summary); checkpoints are files of their
own. One OS lock on ``FOLDER/lock`` guards the shelf: shared to read,
exclusive to write, waited for at most ``lock_timeout`` as the store's
monotonic clock counts it. Files are replaced whole (written, fsynced,
renamed), so a process killed mid-write leaves the previous Run.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from collections.abc import Iterator
from typing import Any

import agent_graph as ag
import agent_graph.storage as ags
import agent_graph.types as agt

__all__ = ["SCHEME", "ShelfStorage"]


class ShelfStorage(ags.RunStorage):
    kind = "shelf"

    def __init__(
        self,
        folder: str,
        *,
        lock_timeout: float = ags.DEFAULT_LOCK_TIMEOUT,
        monotonic: ags.MonotonicClock | None = None,
    ) -> None:
        super().__init__(lock_timeout=lock_timeout, monotonic=monotonic)
        self.folder = os.path.abspath(folder)
        self.closed = False
        for part in ("runs", "checkpoints"):
            os.makedirs(os.path.join(self.folder, part), exist_ok=True)

    def close(self) -> None:
        self.closed = True

    def where(self, ref: str) -> str:
        return f"shelf://{self.folder} Run {ref}" if ref else f"shelf://{self.folder}"

    @contextlib.contextmanager
    def _held(self, exclusive: bool) -> Iterator[None]:
        if self.closed:
            raise ag.AgentGraphError("run-store-closed", f"{self.where('')} is closed")
        handle = os.open(os.path.join(self.folder, "lock"), os.O_RDWR | os.O_CREAT, 0o644)
        try:
            deadline = self.monotonic() + self.lock_timeout
            while True:
                try:
                    fcntl.flock(handle, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if self.monotonic() >= deadline:
                        raise ag.AgentGraphError(
                            "run-lock-timeout",
                            f"Another writer held {self.where('')} for {self.lock_timeout:g} s",
                        ) from None
                    time.sleep(0.002)
            yield
        finally:
            os.close(handle)  # releases the lock

    def _path(self, part: str, name: str) -> str:
        return os.path.join(self.folder, part, name.encode("utf-8").hex() + ".json")

    def _load(self, ref: str) -> dict[str, Any]:
        try:
            with open(self._path("runs", ref), encoding="utf-8") as handle:
                kept: dict[str, Any] = json.load(handle)
                return kept
        except FileNotFoundError:
            raise ag.AgentGraphError("run-missing", f"{self.where(ref)} does not exist") from None

    @staticmethod
    def _save(path: str, data: str | bytes) -> None:
        temporary = path + ".tmp"
        with open(temporary, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)

    @staticmethod
    def _head(kept: dict[str, Any]) -> ags.StoredHead:
        return ags.StoredHead(kept["head"], len(kept["events"]), kept["size"])

    def _keep(self, ref: str, kept: dict[str, Any], appended: ags.Appended) -> None:
        kept["head"] = appended.head_json
        kept["events"].extend(appended.event_json)
        kept["size"] = appended.size
        kept["summary"].update(updated_at=appended.head.updated_at, events=appended.head.events)
        if appended.status is not None:  # a write without the Provider keeps the status the Run had
            kept["summary"]["status"] = appended.status
        self._save(self._path("runs", ref), json.dumps(kept))

    # ------------------------------------------------------------ the seam

    def read_head(self, ref: str) -> ags.StoredHead:
        with self._held(False):
            return self._head(self._load(ref))

    def read_events(self, ref: str, after: int, limit: int) -> ags.StoredPage:
        with self._held(False):
            kept = self._load(ref)
        return ags.StoredPage(self._head(kept), kept["events"][after : after + limit])

    def append(self, ref: str, write: ags.Write) -> ags.Appended:
        with self._held(True):
            kept = self._load(ref)
            appended = write(self._head(kept))
            self._keep(ref, kept, appended)
            return appended

    def create(self, new: ags.NewRun) -> None:
        run = new.run
        path = self._path("runs", run.id)
        with self._held(True):
            if os.path.exists(path):
                raise ag.AgentGraphError("run-target-exists", f"{new.label}: {self.where(run.id)} exists")
            summary = ags.summary_of(run, run.id, new.status)
            kept = {
                "head": new.head_json,
                "events": list(new.event_json),
                "size": new.size,
                "summary": {name: getattr(summary, name) for name in summary.__struct_fields__},
            }
            self._save(path, json.dumps(kept))

    def list_runs(self, query: ags.RunQuery) -> list[agt.RunSummary]:
        """Every Run: the face filters, orders and pages them (``query`` is a hint this shelf does not use)."""
        folder = os.path.join(self.folder, "runs")
        with self._held(False):
            kept = []
            for name in sorted(os.listdir(folder)):
                if name.endswith(".json"):
                    with open(os.path.join(folder, name), encoding="utf-8") as handle:
                        kept.append(json.load(handle)["summary"])
        return [agt.RunSummary(**summary) for summary in kept]

    def checkpoint(self, ref: str, name: str, write: ags.CheckpointWrite) -> ags.Checkpointed:
        path = self._path("checkpoints", name)
        with self._held(True):
            if os.path.exists(path):
                raise ag.AgentGraphError("run-target-exists", f"{self.where('')} holds a checkpoint {name}")
            kept = self._load(ref)
            done = write(ags.StoredPage(self._head(kept), kept["events"]), name)
            self._save(path, done.document)
            self._keep(ref, kept, done.appended)
            return done

    def read_checkpoint(self, name: str) -> ags.StoredCheckpoint:
        with self._held(False):
            try:
                with open(self._path("checkpoints", name), "rb") as handle:
                    return ags.StoredCheckpoint(handle.read(), name)
            except FileNotFoundError:
                raise ag.AgentGraphError(
                    "run-missing", f"{self.where('')} holds no checkpoint {name}"
                ) from None


def open_shelf(
    url: str,
    *,
    clock: ags.Clock | None = None,
    new_id: Any = None,
    lock_timeout: float = ags.DEFAULT_LOCK_TIMEOUT,
    monotonic: ags.MonotonicClock | None = None,
) -> ags.BaseRunStore:
    """The store of ``shelf:///absolute/folder`` (or ``shelf://relative/folder``)."""
    folder = url.partition("://")[2]
    if not folder:
        raise ag.AgentGraphError("store-url-invalid", f"Not a shelf URL: {url!r}; write shelf:///folder")
    storage = ShelfStorage(folder, lock_timeout=lock_timeout, monotonic=monotonic)
    return ags.BaseRunStore(storage, clock=clock, new_id=new_id)


SCHEME = ags.StoreScheme(open=open_shelf, name="shelf", example="shelf:///var/lib/runs")
