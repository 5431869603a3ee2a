"""The calls an operation makes on a storage, one typed class per method of the storage seam.

An operation of the store faces (:mod:`agent_graph._runtime.run_methods`)
is a generator that yields these and is sent their answers: ``head = yield
from ReadHead(ref)`` gives a typed ``head``. Each class calls its one method
of :class:`~agent_graph._runtime.run_storage.RunStorage` (:meth:`Request.call`)
or awaits it on an :class:`~agent_graph._runtime.run_storage.AsyncRunStorage`
(:meth:`Request.acall`), by name, so a reader, a type checker and vulture can
follow every call from an operation to each storage. Two more write and read a
Run file outside the store (``export``, ``import_run``); the async face runs
them in a worker thread.
"""

from __future__ import annotations

import abc
import asyncio
from collections.abc import Generator, Iterable
from typing import Any, Generic, TypeVar

from .._core.errors import AgentGraphError
from .._core.model import Run, RunSummary
from . import run_storage as seam
from .run_codec import read_run_file

__all__ = [
    "Append",
    "Checkpoint",
    "Create",
    "ListRuns",
    "Operation",
    "ReadCheckpoint",
    "ReadEvents",
    "ReadHead",
    "ReadRunFile",
    "Request",
    "SaveFile",
]

T = TypeVar("T")


class Request(abc.ABC, Generic[T]):
    """A call of the storage seam an operation needs; ``answer = yield from request`` gives its typed answer."""

    __slots__ = ()

    def __iter__(self) -> Generator[Request[Any], Any, T]:
        answer: T = yield self
        return answer

    @abc.abstractmethod
    def call(self, storage: seam.RunStorage) -> T:
        """Perform the call on a blocking storage."""

    @abc.abstractmethod
    async def acall(self, storage: seam.AsyncRunStorage) -> T:
        """Perform the call on an async storage."""


#: An operation: yields the requests it needs, is sent their answers, returns its answer.
Operation = Generator[Request[Any], Any, T]


class ReadHead(Request[seam.StoredHead]):
    __slots__ = ("ref",)

    def __init__(self, ref: str) -> None:
        self.ref = ref

    def call(self, storage: seam.RunStorage) -> seam.StoredHead:
        return storage.read_head(self.ref)

    async def acall(self, storage: seam.AsyncRunStorage) -> seam.StoredHead:
        return await storage.read_head(self.ref)


class ReadEvents(Request[seam.StoredPage]):
    __slots__ = ("after", "limit", "ref")

    def __init__(self, ref: str, after: int, limit: int) -> None:
        self.ref, self.after, self.limit = ref, after, limit

    def call(self, storage: seam.RunStorage) -> seam.StoredPage:
        return storage.read_events(self.ref, self.after, self.limit)

    async def acall(self, storage: seam.AsyncRunStorage) -> seam.StoredPage:
        return await storage.read_events(self.ref, self.after, self.limit)


class Append(Request[seam.Appended]):
    __slots__ = ("ref", "write")

    def __init__(self, ref: str, write: seam.Write) -> None:
        self.ref, self.write = ref, write

    def call(self, storage: seam.RunStorage) -> seam.Appended:
        return storage.append(self.ref, self.write)

    async def acall(self, storage: seam.AsyncRunStorage) -> seam.Appended:
        return await storage.append(self.ref, self.write)


class Create(Request[None]):
    __slots__ = ("new",)

    def __init__(self, new: seam.NewRun) -> None:
        self.new = new

    def call(self, storage: seam.RunStorage) -> None:
        storage.create(self.new)

    async def acall(self, storage: seam.AsyncRunStorage) -> None:
        await storage.create(self.new)


class ListRuns(Request[Iterable[RunSummary]]):
    __slots__ = ("query",)

    def __init__(self, query: seam.RunQuery) -> None:
        self.query = query

    def call(self, storage: seam.RunStorage) -> Iterable[RunSummary]:
        return storage.list_runs(self.query)

    async def acall(self, storage: seam.AsyncRunStorage) -> Iterable[RunSummary]:
        return await storage.list_runs(self.query)


class Checkpoint(Request[seam.Checkpointed]):
    __slots__ = ("name", "ref", "write")

    def __init__(self, ref: str, name: str, write: seam.CheckpointWrite) -> None:
        self.ref, self.name, self.write = ref, name, write

    def call(self, storage: seam.RunStorage) -> seam.Checkpointed:
        return storage.checkpoint(self.ref, self.name, self.write)

    async def acall(self, storage: seam.AsyncRunStorage) -> seam.Checkpointed:
        return await storage.checkpoint(self.ref, self.name, self.write)


class ReadCheckpoint(Request[seam.StoredCheckpoint]):
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def call(self, storage: seam.RunStorage) -> seam.StoredCheckpoint:
        return storage.read_checkpoint(self.name)

    async def acall(self, storage: seam.AsyncRunStorage) -> seam.StoredCheckpoint:
        return await storage.read_checkpoint(self.name)


class SaveFile(Request[None]):
    """A new file outside the store (``export``); the async face writes it in a worker thread."""

    __slots__ = ("data", "label", "path")

    def __init__(self, path: str, data: bytes, label: str) -> None:
        self.path, self.data, self.label = path, data, label

    def save(self) -> None:
        from .._load.atomic import create_exclusive

        create_exclusive(self.path, self.data, self.label)

    def call(self, storage: seam.RunStorage) -> None:
        self.save()

    async def acall(self, storage: seam.AsyncRunStorage) -> None:
        await asyncio.to_thread(self.save)


class ReadRunFile(Request[Run]):
    """A Run file outside the store (``import_run``); the async face reads it in a worker thread."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        self.path = path

    def read(self) -> Run:
        if not isinstance(self.path, str) or not self.path:
            raise AgentGraphError("argument-invalid", "import needs the path of a Run file")
        return read_run_file(self.path)

    def call(self, storage: seam.RunStorage) -> Run:
        return self.read()

    async def acall(self, storage: seam.AsyncRunStorage) -> Run:
        return await asyncio.to_thread(self.read)
