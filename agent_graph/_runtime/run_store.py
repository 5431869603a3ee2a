"""The blocking face of every Run store: the operations hosts call, over a storage that keeps the Runs.

:class:`BaseRunStore` is what ``ag.open_store(url)`` answers: ``start``,
``next_step``, ``record``, ``load`` … with the same checks, answers and error
codes over every storage. It holds a :class:`~agent_graph._runtime.run_storage.RunStorage`
(files, SQLite, PostgreSQL, memory, or a host's own) and runs the operations of
:class:`~agent_graph._runtime.run_methods.RunStoreMethods` on it, each
storage call performed as it is asked for; the async face
(:mod:`agent_graph._runtime.run_store_async`) runs the very same operations
with coroutines (one definition each: signature, docs and checks).

Rules every store keeps (the storage seam's docs say what a storage keeps):
a write checks only what it adds and stores every value exactly as the reader
reads it back, so a Run written by many small records reads back, exports and
re-imports byte for byte; a Run that lies (a repeated key, events not numbered
1..n, a row whose JSON disagrees with its key) is ``run-invalid``; a Run of
another Provider is refused with ``run-provider-mismatch`` before anything
changes; ``record(…, revision=…)`` evaluates the Run's head inside the
storage's guard and refuses with ``run-revision-stale`` unless it still
evaluates to that revision. Whole-Run validation happens on ``load``,
``export`` and ``import``.
"""

from __future__ import annotations

from typing import Any, TypeVar

from .run_methods import RunStoreMethods
from .run_operations import IdFactory, Operation
from .run_storage import Clock, RunStorage

__all__ = ["BaseRunStore"]

T = TypeVar("T")


class BaseRunStore(RunStoreMethods):
    """The operations every Run store offers, over a :class:`~agent_graph.storage.RunStorage` that keeps the Runs.

    ``storage`` is where the Runs are kept (``ag.open_store(url)`` opens one
    by URL); ``clock`` returns the current time (timezone-aware; default: the
    system clock in UTC) and ``new_id`` a fresh Run ID (default: a random
    UUID). Methods that take ``provider`` (a Provider, a Provider ID, or None
    to skip the check) refuse a Run of another Provider with
    ``run-provider-mismatch`` before changing anything; a write given the
    loaded Provider also evaluates the Run it leaves and keeps its status for
    :meth:`list`. Every store is a
    context manager; ``close()`` closes its storage.
    """

    def __init__(
        self, storage: RunStorage, *, clock: Clock | None = None, new_id: IdFactory | None = None
    ) -> None:
        self._setup(storage, clock, new_id)
        self.storage = storage

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.storage!r}>"

    def _drive(self, operation: Operation[T]) -> T:
        """Run an operation, performing each storage call it asks for on this store's storage."""
        storage = self.storage
        answer: Any = None
        try:
            while True:
                answer = operation.send(answer).call(storage)
        except StopIteration as done:
            result: T = done.value
            return result
        finally:
            operation.close()

    def close(self) -> None:
        """Close the storage (its connections); the store cannot be used afterwards."""
        self.storage.close()

    def __enter__(self) -> BaseRunStore:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
