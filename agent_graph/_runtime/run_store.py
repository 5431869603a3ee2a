"""The blocking face of every Run store: the operations hosts call, over a storage that keeps the Runs.

:class:`BaseRunStore` is what ``ag.open_store(url)`` answers: ``start``,
``next_step``, ``record``, ``load`` … with the same checks, answers and error
codes over every storage. It holds a :class:`~agent_graph._runtime.run_storage.RunStorage`
(files, SQLite, PostgreSQL, memory, or a host's own) and runs the operations of
:class:`~agent_graph._runtime.run_operations.RunStoreOperations` on it, each
storage call performed as it is asked for; the async face
(:mod:`agent_graph._runtime.run_store_async`) runs the very same operations
with coroutines.

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

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, TypeVar

import msgspec

from .._core.model import ReadReceipts, Run, RunEvent, RunHead, RunPage, StatusCode, Step
from .._core.provider import Provider
from .._core.receipts import Receipts
from .run_operations import IdFactory, Operation, ProviderRef, RunStoreOperations
from .run_storage import Clock, RunStorage
from .telemetry import store_operation

__all__ = ["BaseRunStore"]

T = TypeVar("T")


class BaseRunStore(RunStoreOperations):
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

    # ------------------------------------------------------------ reading

    @store_operation("load")
    def load(self, ref: str, provider: ProviderRef = None) -> Run:
        """Read and validate the whole Run (``run-missing``, ``run-invalid``, ``run-provider-mismatch``)."""
        return self._drive(self.op_load(ref, provider))

    @store_operation("head")
    def head(self, ref: str, provider: ProviderRef = None) -> RunHead:
        """The Run's head: its state and number of events, read without its history."""
        return self._drive(self.op_head(ref, provider))

    @store_operation("events")
    def events(
        self, ref: str, provider: ProviderRef = None, *, after: int = 0, limit: int | None = None
    ) -> tuple[RunEvent, ...]:
        """The Run's events numbered after ``after``, at most ``limit`` of them (default 1,000), in order.

        Page through a long history with ``after=page[-1].sequence``; an empty
        answer is the end.
        """
        return self._drive(self.op_events(ref, provider, after, limit))

    @store_operation("list")
    def list(
        self,
        *,
        provider: ProviderRef = None,
        graph: str | None = None,
        status: StatusCode | None = None,
        updated_after: datetime | str | None = None,
        updated_before: datetime | str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        newest_first: bool = False,
    ) -> RunPage:
        """Summaries of the stored Runs, oldest update first (``newest_first``: latest first), a page at a time.

        Filters: ``provider`` (a Provider or its ID), ``graph`` (a Graph ID),
        ``status`` (the Run's status as of its last write that had the
        Provider at hand: ``actionable``, ``waiting-user``, ``blocked``,
        ``complete`` or ``error``; see ``RunSummary.status``) and the last
        update strictly after ``updated_after`` / strictly before
        ``updated_before`` (a ``datetime`` or a Run timestamp). The answer is
        a list (:class:`~agent_graph.types.RunPage`): every Run that matches,
        or with ``limit`` at most that many, and then ``page.next_cursor``,
        passed as ``cursor`` with the same filters and order, gives the next
        page (None: no Run follows). Pages follow the key (last update, Run
        ID): a Run written while you page moves to its new place in the order.
        """
        return self._drive(
            self.op_list(provider, graph, status, updated_after, updated_before, limit, cursor, newest_first)
        )

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
        return self._drive(self.op_next_step(ref, provider, receipts, route_id))

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
        return self._drive(self.op_start(ref, provider, graph, entry, workspace, facts, authorities))

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

        With the loaded Provider (``provider=``), ``node`` must name a node of
        the Run's graph or of a Subgraph it calls (``state-key-unknown``,
        naming the closest key; nothing is written), and the Run's status
        after the write is kept for ``list``. With a Provider ID or None only
        the Run's Provider is checked (``run-provider-mismatch``): a state key
        that names no node is stored, and ``evaluate`` ignores it; the status
        ``list`` knows stays the one of the last write that had the Provider.
        """
        return self._drive(self.op_record(ref, node, outcome, detail, provider, revision, facts, deep))

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
        return self._drive(self.op_update_facts(ref, facts, replace, deep, provider))

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
        return self._drive(self.op_update_authorities(ref, replace, add, remove, provider))

    @store_operation("checkpoint")
    def checkpoint(self, ref: str, target: str, *, provider: ProviderRef = None) -> Run:
        """Keep a copy of the Run without authorities under ``target``; returns the checkpoint.

        The Run gets ``run.checkpointed`` ``{checkpoint: <name>}`` and the
        checkpoint holds the Run as of that event. ``run-target-exists`` if
        ``target`` is taken; nothing changes then.
        """
        return self._drive(self.op_checkpoint(ref, target, provider))

    @store_operation("resume")
    def resume(self, checkpoint: str, target: str | None, *, provider: ProviderRef = None) -> Run:
        """Start a new Run from a checkpoint: authorities cleared, ``run.resumed`` ``{checkpoint}`` appended.

        ``run-target-exists`` if ``target`` is taken.
        """
        return self._drive(self.op_resume(checkpoint, target, provider))

    # ------------------------------------------------------------ files in and out

    @store_operation("export")
    def export(self, ref: str, path: str, *, provider: ProviderRef = None) -> Run:
        """Write the Run to a new ``agent-graph.run.v1`` file ``path`` (``run-target-exists`` if taken).

        The file is byte for byte what the file store writes, readable by the
        TypeScript toolchain.
        """
        return self._drive(self.op_export(ref, path, provider))

    @store_operation("import_run")
    def import_run(self, path: str, *, provider: ProviderRef = None) -> Run:
        """Store the Run of an ``agent-graph.run.v1`` file under its own Run ID.

        Refuses a file that is not a valid Run (``run-invalid``, events not
        numbered 1..n included) and an ID the store already holds
        (``run-target-exists``).
        """
        return self._drive(self.op_import(path, provider))

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
        return self._drive(self.op_fork(ref, at, target, provider, facts))
