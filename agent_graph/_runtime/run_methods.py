"""The public operations of a Run store, each defined once for both faces: parameters, docs, checks.

Each operation (``load``, ``record`` …) is one generator method ``op_*`` of
:class:`RunStoreMethods` with the public signature and docstring: it checks
its arguments, builds the Run transition of
:mod:`agent_graph._runtime.run_changes` and yields the storage calls it
needs (:mod:`agent_graph._runtime.run_requests`). ``load =
StoreMethod(op_load)`` offers it on both faces: on the blocking face
(:class:`~agent_graph._runtime.run_store.BaseRunStore`) ``store.load(…)``
performs each call at once; on the async face
(:class:`~agent_graph._runtime.run_store_async.AsyncRunStore`) it is a
coroutine that awaits each call. Either way it is a real function with the
operation's signature and docstring (``help``, ``inspect.signature``),
observed as the span ``agent_graph.store.<name>``, and typed as its face
answers it (mypy reads :meth:`StoreMethod.__get__`).
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Callable, Coroutine, Iterable, Mapping
from datetime import datetime
from typing import Any, ClassVar, Concatenate, Generic, ParamSpec, Protocol, TypeVar, overload

import msgspec

from .._core.errors import AgentGraphError
from .._core.model import ReadReceipts, Run, RunEvent, RunHead, RunPage, StatusCode, Step
from .._core.plain import plain_string
from .._core.provider import Provider
from .._core.receipts import Receipts
from . import run_listing
from .run_changes import (
    Change,
    authorities_change,
    facts_change,
    guarded,
    head_of,
    new_run,
    record_change,
    with_events,
)
from .run_codec import checked_run_bytes, format_timestamp, key_text, settle
from .run_operations import (
    DEFAULT_EVENTS_LIMIT,
    MAX_EVENT_NUMBER,
    ProviderRef,
    RunStoreOperations,
    check_provider,
    fresh_head,
    provider_id,
)
from .run_requests import (
    Append,
    Checkpoint,
    Create,
    ListRuns,
    Operation,
    ReadCheckpoint,
    ReadEvents,
    ReadHead,
    ReadRunFile,
    SaveFile,
)
from .telemetry import store_operation

__all__ = ["RunStoreMethods", "StoreMethod"]

P = ParamSpec("P")
T = TypeVar("T")

_ANSWER = re.compile(r"Operation\[(.+)\]")


def _moment(value: datetime | str | None, label: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return format_timestamp(value)
    if isinstance(value, str):
        return value
    raise AgentGraphError("argument-invalid", f"{label} must be a datetime or a Run timestamp string")


class _Blocking(Protocol):
    """The blocking face: performs an operation's requests at once."""

    def _drive(self, operation: Operation[T], /) -> T: ...


class _Async(Protocol):
    """The async face: awaits each request of an operation."""

    async def _adrive(self, operation: Operation[T], /) -> T: ...


def _dressed(function: Any, operation: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``function`` with the name, docstring and signature of ``operation``, answering what it returns."""
    annotations = dict(operation.__annotations__)
    found = _ANSWER.fullmatch(str(annotations.get("return")))
    if found is None:
        raise TypeError(f"{operation.__qualname__} must be annotated as returning Operation[...]")
    annotations["return"] = found.group(1)
    function.__name__ = name
    function.__qualname__ = f"{operation.__qualname__.rpartition('.')[0]}.{name}"
    function.__module__ = operation.__module__
    function.__doc__ = operation.__doc__
    function.__annotations__ = annotations
    function.__signature__ = inspect.signature(operation).replace(return_annotation=annotations["return"])
    return store_operation(name)(function)


class StoreMethod(Generic[P, T]):
    """One public operation of a Run store: a method of the blocking face, a coroutine method of the async one.

    ``operation`` is the operation's one definition (a generator method named
    ``op_<name>``); the face the store belongs to decides which of the two
    functions made of it ``store.<name>`` is.
    """

    __slots__ = ("blocking", "coroutine")

    def __init__(self, operation: Callable[Concatenate[Any, P], Operation[T]]) -> None:
        name = operation.__name__.removeprefix("op_")

        def blocking(self: Any, /, *args: Any, **kwargs: Any) -> Any:
            return self._drive(operation(self, *args, **kwargs))

        async def coroutine(self: Any, /, *args: Any, **kwargs: Any) -> Any:
            return await self._adrive(operation(self, *args, **kwargs))

        self.blocking = _dressed(blocking, operation, name)
        self.coroutine = _dressed(coroutine, operation, name)

    @overload
    def __get__(self, instance: None, owner: type[Any]) -> Callable[..., Any]: ...

    @overload
    def __get__(self, instance: _Blocking, owner: type[Any] | None = None) -> Callable[P, T]: ...

    @overload
    def __get__(
        self, instance: _Async, owner: type[Any] | None = None
    ) -> Callable[P, Coroutine[Any, Any, T]]: ...

    def __get__(self, instance: Any, owner: type[Any] | None = None) -> Callable[..., Any]:
        face = type(instance) if owner is None else owner
        function = self.coroutine if face._coroutines else self.blocking
        return function if instance is None else function.__get__(instance, face)


class RunStoreMethods(RunStoreOperations):
    """The public operations of both store faces, each written once (see :class:`StoreMethod`)."""

    #: Whether this face's operations are coroutines (the async face) or answer at once (the blocking face).
    _coroutines: ClassVar[bool] = False

    # ------------------------------------------------------------ reading

    def op_load(self, ref: str, provider: ProviderRef = None) -> Operation[Run]:
        """Read and validate the whole Run (``run-missing``, ``run-invalid``, ``run-provider-mismatch``)."""
        self._check_ref(ref)
        expected = provider_id(provider)
        page = yield from ReadEvents(ref, 0, MAX_EVENT_NUMBER)
        return check_provider(self._run_of(ref, page), expected)

    def _checked_head(self, ref: str, provider: ProviderRef) -> Operation[RunHead]:
        """The Run's head, checked and of ``provider``: the value this store keeps (never handed to a caller)."""
        self._check_ref(ref)
        expected = provider_id(provider)
        stored = yield from ReadHead(ref)
        return check_provider(self._head_of(ref, stored), expected)

    def op_head(self, ref: str, provider: ProviderRef = None) -> Operation[RunHead]:
        """The Run's head: its state and number of events, read without its history."""
        head = yield from self._checked_head(ref, provider)
        return fresh_head(head)

    def op_events(
        self, ref: str, provider: ProviderRef = None, *, after: int = 0, limit: int | None = None
    ) -> Operation[tuple[RunEvent, ...]]:
        """The Run's events numbered after ``after``, at most ``limit`` of them (default 1,000), in order.

        Page through a long history with ``after=page[-1].sequence``; an empty
        answer is the end.
        """
        self._check_ref(ref)
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise AgentGraphError("argument-invalid", "after must be an event sequence number (0 or more)")
        if limit is None:
            limit = DEFAULT_EVENTS_LIMIT
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise AgentGraphError("argument-invalid", "limit must be a positive number of events")
        expected = provider_id(provider)
        # No Run holds this many events (its size is bounded): larger numbers mean the same, and
        # every database takes this one.
        after, limit = min(after, MAX_EVENT_NUMBER), min(limit, MAX_EVENT_NUMBER)
        page = yield from ReadEvents(ref, after, limit)
        head, events = self._events_of(ref, page, after, limit)
        check_provider(head, expected)
        return events

    def op_list(
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
    ) -> Operation[RunPage]:
        """Summaries of the stored Runs, oldest first (``newest_first``: newest first), a page at a time.

        Filters: ``provider`` (a Provider or its ID), ``graph`` (a Graph ID),
        ``status`` (the Run's status as of its last write that had the
        Provider at hand: ``actionable``, ``waiting-user``, ``blocked``,
        ``complete`` or ``error``; see ``RunSummary.status``) and the last
        update strictly after ``updated_after`` / strictly before
        ``updated_before`` (a ``datetime`` or a Run timestamp). The answer is
        a list (:class:`~agent_graph.types.RunPage`): every Run that matches,
        or with ``limit`` at most that many, and then ``page.next_cursor``,
        passed as ``cursor`` with the same filters and order, gives the next
        page (None: no Run follows). Pages follow the key (creation, Run ID),
        which no write changes: a Run written while you page stays in its
        place, and one created meanwhile is answered once if it comes after
        the cursor.
        """
        query = run_listing.checked_query(
            provider_id(provider),
            graph,
            status,
            _moment(updated_after, "updated_after"),
            _moment(updated_before, "updated_before"),
            limit,
            cursor,
            newest_first,
        )
        found = yield from ListRuns(query)
        return run_listing.page_of(found, query, limit)

    def op_next_step(
        self,
        ref: str,
        provider: Provider,
        *,
        receipts: Receipts | ReadReceipts | Mapping[str, Any] | None = None,
        route_id: str | None = None,
    ) -> Operation[Step]:
        """Read the Run's head, evaluate it and route at that revision: the step to take now.

        The route is the primary route, or ``route_id`` (``route-stale`` unless
        it is a candidate now); it is None when the evaluation has no route
        (complete, blocked, error). Record the step's outcome with
        ``record(…, revision=step.revision)``. ``step.run`` is the Run's head.
        """
        from .step import run_step

        self._need_provider(provider, "next_step")
        head = yield from self._checked_head(ref, provider)
        evaluated = self._evaluated(ref, provider, head) if head.graph in provider.graphs else None
        return run_step(provider, fresh_head(head), receipts=receipts, route_id=route_id, evaluated=evaluated)

    # ------------------------------------------------------------ writing

    def op_start(
        self,
        ref: str | None,
        provider: Provider | str,
        graph: str,
        entry: str = "default",
        *,
        workspace: str | None = None,
        facts: Mapping[str, Any] | None = None,
        authorities: Iterable[str] | None = None,
    ) -> Operation[Run]:
        """Create a new Run with event 1 ``run.started`` (``run-target-exists`` if its ref is taken).

        ``provider`` is the Provider (its Graph and entry are then checked:
        ``graph-missing``, ``entry-missing``) or its ID. ``workspace`` is
        stored as an absolute path. Every store takes the answer's ``id`` as
        the Run's reference from then on.
        """
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
        run_id = self._new_identity(ref)
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
        yield from Create(self._new_run(run, ref, "start", provider))
        return run

    def _change(
        self, ref: str, provider: ProviderRef, change: Change, guard: Callable[[RunHead], None] | None = None
    ) -> Operation[RunHead]:
        self._check_ref(ref)
        provider_id(provider)  # checked before anything is read
        appended = yield from Append(ref, self._write(ref, provider, change, guard))
        return fresh_head(appended.head)

    def op_record(
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
    ) -> Operation[RunHead]:
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
        guards: list[Callable[[RunHead], None]] = []
        if revision is not None:
            guards.append(self._revision_guard(provider, revision, ref))
        self._check_ref(ref)
        changes = [record_change(node, outcome, detail)]
        if isinstance(provider, Provider):
            guards.insert(0, self._state_key_guard(provider, node))
        if facts is not None:
            changes.insert(0, facts_change(facts, deep=deep))

        def guard(head: RunHead) -> None:
            for check in guards:
                check(head)

        return (yield from self._change(ref, provider, guarded(None, *changes), guard if guards else None))

    def op_update_facts(
        self,
        ref: str,
        facts: Mapping[str, Any],
        *,
        replace: bool = False,
        deep: bool = False,
        provider: ProviderRef = None,
    ) -> Operation[RunHead]:
        """Merge ``facts`` over the Run's (``facts.updated``) or replace them (``facts.replaced``); the new head.

        ``deep=True`` merges nested objects key by key instead of replacing a
        top-level key's value. The event's detail is ``{keys, set}`` (the given
        top-level keys, sorted, and the values that changed; a replacement: the
        new Facts) or, deep, ``{keys, merge}`` (what the merge changed).
        """
        self._check_ref(ref)
        change = guarded(None, facts_change(facts, replace=replace, deep=deep))
        return (yield from self._change(ref, provider, change))

    def op_update_authorities(
        self,
        ref: str,
        *,
        replace: Iterable[str] | None = None,
        add: Iterable[str] = (),
        remove: Iterable[str] = (),
        provider: ProviderRef = None,
    ) -> Operation[RunHead]:
        """Change the Run's session authorities and append ``authorities.updated`` ``{authorities}``.

        ``replace`` replaces the list (``replace=[]`` clears it); then ``add``
        and ``remove`` apply. The stored list is de-duplicated and sorted.
        """
        self._check_ref(ref)
        change = guarded(None, authorities_change(replace, add, remove))
        return (yield from self._change(ref, provider, change))

    def op_checkpoint(self, ref: str, target: str, *, provider: ProviderRef = None) -> Operation[Run]:
        """Keep a copy of the Run without authorities under ``target``; returns the checkpoint.

        The Run gets ``run.checkpointed`` ``{checkpoint: <name>}`` and the
        checkpoint holds the Run as of that event. ``run-target-exists`` if
        ``target`` is taken; nothing changes then.
        """
        self._check_ref(ref)
        self._check_ref(target)
        provider_id(provider)  # checked before anything is read
        done = yield from Checkpoint(ref, target, self._checkpoint_write(ref, provider))
        return done.snapshot

    def op_resume(
        self, checkpoint: str, target: str | None, *, provider: ProviderRef = None
    ) -> Operation[Run]:
        """Start a new Run from a checkpoint: authorities cleared, ``run.resumed`` ``{checkpoint}`` appended.

        ``run-target-exists`` if ``target`` is taken.
        """
        from .run_changes import resumed_run

        self._check_ref(checkpoint)
        if target is not None:
            self._check_ref(target)
        expected = provider_id(provider)
        stored = yield from ReadCheckpoint(checkpoint)
        source = check_provider(self._checkpoint_run(stored), expected)
        resumed = resumed_run(source, stored.name, self.now(), self._new_identity(target))
        yield from Create(self._new_run(resumed, target, "resume", provider))
        return resumed

    # ------------------------------------------------------------ files in and out

    def op_export(self, ref: str, path: str, *, provider: ProviderRef = None) -> Operation[Run]:
        """Write the Run to a new ``agent-graph.run.v1`` file ``path`` (``run-target-exists`` if taken).

        The file is byte for byte what the file store writes, readable by the
        TypeScript toolchain.
        """
        if not isinstance(path, str) or not path or "\x00" in path:
            raise AgentGraphError("argument-invalid", "export needs the path of a new Run file")
        run = yield from self.op_load(ref, provider)
        destination = os.path.abspath(path)
        yield from SaveFile(destination, checked_run_bytes(run, destination), "Run export")
        return run

    def op_import_run(self, path: str, *, provider: ProviderRef = None) -> Operation[Run]:
        """Store the Run of an ``agent-graph.run.v1`` file under its own Run ID.

        Refuses a file that is not a valid Run (``run-invalid``, events not
        numbered 1..n included) and an ID the store already holds
        (``run-target-exists``).
        """
        expected = provider_id(provider)
        run = yield from ReadRunFile(path)
        check_provider(run, expected)
        key_text(run.id, "The Run ID", "run-invalid")
        yield from Create(self._new_run(run, None, "import", provider))
        return run

    def op_fork(
        self,
        ref: str,
        at: int,
        target: str | None = None,
        *,
        provider: ProviderRef = None,
        facts: Mapping[str, Any] | None = None,
    ) -> Operation[Run]:
        """A new Run from the state right after event ``at``, ending in ``run.forked`` (see :mod:`.run_fork`).

        ``target`` is the new Run's reference (None: a fresh one); ``facts``
        replace the Facts of event ``at`` where the events do not record them.
        Raises what ``load`` raises, ``argument-invalid`` for an event the Run
        does not have, ``run-fork-unrecorded`` and ``run-target-exists``;
        nothing is written then.
        """
        from .run_fork import forked_run

        source = yield from self.op_load(ref, provider)
        forked_run(source, at, "-", "-", facts)  # refuse before taking a ref
        if target is not None:
            self._check_ref(target)
        run = forked_run(source, at, self._new_identity(target), self.now(), facts)
        yield from Create(self._new_run(run, target, "fork", provider))
        return run

    # ------------------------------------------------------------ the operations on both faces

    load = StoreMethod(op_load)
    head = StoreMethod(op_head)
    events = StoreMethod(op_events)
    list = StoreMethod(op_list)
    next_step = StoreMethod(op_next_step)
    start = StoreMethod(op_start)
    record = StoreMethod(op_record)
    update_facts = StoreMethod(op_update_facts)
    update_authorities = StoreMethod(op_update_authorities)
    checkpoint = StoreMethod(op_checkpoint)
    resume = StoreMethod(op_resume)
    export = StoreMethod(op_export)
    import_run = StoreMethod(op_import_run)
    fork = StoreMethod(op_fork)
