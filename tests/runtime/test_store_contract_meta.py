"""Every scenario of the store contract is proved: a store broken on purpose fails it, a sound one passes.

Each broken store wraps a sound one (the memory store, or its storage) and
breaks one promise: it ignores a ref, a filter, an argument, the Facts of a
record, the revision guard, the lock … The table says which scenarios each
must fail. The quick tests run each broken store's scenarios and the sound
wrapper through every scenario, on both faces; the slow one runs every
broken store through every scenario and checks it fails exactly its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import json
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
import agent_graph.storage as ags
from agent_graph.testing import store_contract
from agent_graph.testing._contract_support import ContractClock, StoreFace, close_loop, contract_provider

SCENARIOS = store_contract.scenarios()


# ---------------------------------------------------------------- wrapping a sound store


def then(answer: Any, follow: Callable[[Any], Any]) -> Any:
    """``follow(answer)``, after awaiting the answer when the store is async."""
    if inspect.isawaitable(answer):

        async def awaited() -> Any:
            result = follow(await answer)
            return await result if inspect.isawaitable(result) else result

        return awaited()
    return follow(answer)


def recovering(call: Callable[[], Any], recover: Callable[[ag.AgentGraphError], Any]) -> Any:
    """``call()``, or ``recover(error)`` when it raises an AgentGraphError, raised at once or when awaited."""
    try:
        answer = call()
    except ag.AgentGraphError as error:
        return recover(error)
    if not inspect.isawaitable(answer):
        return answer

    async def awaited() -> Any:
        try:
            return await answer
        except ag.AgentGraphError as error:
            result = recover(error)
            return await result if inspect.isawaitable(result) else result

    return awaited()


class Broken:
    """A sound store with some methods replaced: ``override(method, store, *args, **kwargs)``."""

    def __init__(self, store: Any, overrides: dict[str, Callable[..., Any]]) -> None:
        self._store = store
        self._overrides = overrides

    def __getattr__(self, name: str) -> Any:
        method = getattr(self._store, name)
        override = self._overrides.get(name)
        return method if override is None else functools.partial(override, method, self._store)


def _without(*names: str) -> Callable[..., Any]:
    """A method that drops the keyword arguments ``names``."""

    def call(method: Any, store: Any, *args: Any, **kwargs: Any) -> Any:
        for name in names:
            kwargs.pop(name, None)
        return method(*args, **kwargs)

    return call


def _surrogates_as_question_marks(method: Any, store: Any, ref: Any, *args: Any, **kwargs: Any) -> Any:
    if isinstance(ref, str):
        ref = ref.encode("utf-8", "replace").decode("utf-8")
    return method(ref, *args, **kwargs)


def _fork_at_the_end(method: Any, store: Any, ref: str, at: int, *args: Any, **kwargs: Any) -> Any:
    return then(store.head(ref), lambda head: method(ref, head.events, *args, **kwargs))


def _answers_another_id(method: Any, store: Any, *args: Any, **kwargs: Any) -> Any:
    return then(method(*args, **kwargs), lambda run: msgspec.structs.replace(run, id=run.id + "-copy"))


def _start_fresh(method: Any, store: Any, ref: Any, *args: Any, **kwargs: Any) -> Any:
    return method(None, *args, **kwargs)


def _resume_fresh(method: Any, store: Any, checkpoint: str, target: Any, **kwargs: Any) -> Any:
    return method(checkpoint, None, **kwargs)


def _start_unchecked(
    method: Any, store: Any, ref: Any, provider: Any, graph: str, *args: Any, **kwargs: Any
) -> Any:
    """Starts a Run of a graph or entry the Provider lacks (by its ID, so nothing checks them)."""
    entry = args[0] if args else kwargs.get("entry", "default")
    if not isinstance(provider, str):
        compiled = provider.graphs.get(graph)
        if compiled is None or entry not in compiled.definition.entrypoints:
            provider = provider.manifest.id
    return method(ref, provider, graph, *args, **kwargs)


def _start_forgetting(method: Any, store: Any, *args: Any, **kwargs: Any) -> Any:
    kwargs.pop("workspace", None)
    return method(*args, **kwargs)


def _record_unknown_keys(method: Any, store: Any, ref: str, node: str, outcome: str, **kwargs: Any) -> Any:
    """A state key the Provider refuses is recorded anyway (by the Provider's ID)."""

    def anyway(error: ag.AgentGraphError) -> Any:
        if error.code != "state-key-unknown":
            raise error
        return method(ref, node, outcome, **{**kwargs, "provider": kwargs["provider"].manifest.id})

    return recovering(lambda: method(ref, node, outcome, **kwargs), anyway)


def _record_any_outcome(method: Any, store: Any, ref: str, node: str, outcome: str, **kwargs: Any) -> Any:
    return method(
        ref, node or "main/empty", outcome if outcome in ag.types.OUTCOMES else "completed", **kwargs
    )


def _load_ignoring_provider(method: Any, store: Any, ref: str, provider: Any = None) -> Any:
    return method(ref)


def _missing_as_nothing(method: Any, store: Any, ref: str, *args: Any, **kwargs: Any) -> Any:
    def nothing(error: ag.AgentGraphError) -> Any:
        if error.code != "run-missing":
            raise error
        return None

    return recovering(lambda: method(ref, *args, **kwargs), nothing)


def _events_from_the_start(method: Any, store: Any, ref: str, provider: Any = None, **kwargs: Any) -> Any:
    if (
        kwargs.get("limit") is not None
    ):  # a page of at most limit events starts at event 1, whatever after says
        kwargs.pop("after", None)
    return method(ref, provider, **kwargs)


def _events_unbounded(method: Any, store: Any, ref: str, provider: Any = None, **kwargs: Any) -> Any:
    if kwargs.get("limit") is not None:
        kwargs["limit"] = 1000
    return method(ref, provider, **kwargs)


def _snapshot_with_authorities(method: Any, store: Any, ref: str, target: str, **kwargs: Any) -> Any:
    return then(
        store.head(ref),
        lambda head: then(
            method(ref, target, **kwargs),
            lambda run: msgspec.structs.replace(run, authorities=head.authorities),
        ),
    )


def _import_under_a_fresh_id(method: Any, store: Any, path: str, **kwargs: Any) -> Any:
    raw = json.loads(Path(path).read_text("utf-8"))
    raw["id"] += "-fresh"
    moved = Path(path).with_suffix(".moved.json")
    moved.write_text(json.dumps(raw, indent=2) + "\n", "utf-8")
    return method(str(moved), **kwargs)


def _export_reformatted(method: Any, store: Any, ref: str, path: str, **kwargs: Any) -> Any:
    def reformat(run: Any) -> Any:
        raw = json.loads(Path(path).read_text("utf-8"))
        Path(path).write_text(json.dumps(raw, indent=1, sort_keys=True), "utf-8")
        return run

    return then(method(ref, path, **kwargs), reformat)


def _never_closes(method: Any, store: Any, *args: Any) -> Any:
    return None if not inspect.iscoroutinefunction(method) else asyncio.sleep(0)


def _list_by_id(method: Any, store: Any, **kwargs: Any) -> Any:
    return then(
        method(**kwargs), lambda page: ag.types.RunPage(sorted(page, key=lambda s: s.id), page.next_cursor)
    )


def _list_by_update(method: Any, store: Any, **kwargs: Any) -> Any:
    def order(page: Any) -> Any:
        return ag.types.RunPage(sorted(page, key=lambda s: (s.updated_at, s.id)), page.next_cursor)

    return then(method(**kwargs), order)


def _list_without_limit(method: Any, store: Any, **kwargs: Any) -> Any:
    kwargs.pop("limit", None)
    kwargs.pop("cursor", None)
    return method(**kwargs)


def _list_any_cursor(method: Any, store: Any, **kwargs: Any) -> Any:
    """A cursor it cannot read (or one of the other order) starts the listing again instead of being refused."""

    def again(error: ag.AgentGraphError) -> Any:
        kwargs.pop("cursor", None)
        return method(**kwargs)

    return recovering(lambda: method(**kwargs), again)


def _list_by_offset(method: Any, store: Any, **kwargs: Any) -> Any:
    """Pages by position in the listing: right while no Run is created, wrong newest first while Runs are."""
    cursor = kwargs.pop("cursor", None)
    limit = kwargs.pop("limit", None)

    def cut(page: Any) -> Any:
        if cursor is not None and not (isinstance(cursor, str) and cursor.isdigit()):
            raise ag.AgentGraphError("argument-invalid", "not a cursor of this listing")
        start = int(cursor) if cursor else 0
        chosen = list(page)[start : start + limit] if limit is not None else list(page)
        more = limit is not None and start + limit < len(page)
        return ag.types.RunPage(chosen, str(start + limit) if more else None)

    return then(method(**kwargs), cut)


# ---------------------------------------------------------------- storages broken under the face


class UnguardedStorage(ags.RunStorage):
    """The memory storage, deciding each write on the head it read before taking its turn: writers overwrite."""

    kind = "unguarded"

    def __init__(self, inner: ags.RunStorage) -> None:
        super().__init__(lock_timeout=inner.lock_timeout)
        self.inner = inner
        self.waiting = threading.Condition()
        self.readers = 0

    def read_head(self, ref: str) -> ags.StoredHead:
        return self.inner.read_head(ref)

    def read_events(self, ref: str, after: int, limit: int) -> ags.StoredPage:
        return self.inner.read_events(ref, after, limit)

    def append(self, ref: str, write: ags.Write) -> ags.Appended:
        head = self.inner.read_head(ref)
        with self.waiting:  # every writer that comes within a moment reads this same head
            self.readers += 1
            self.waiting.notify_all()
            self.waiting.wait_for(lambda: self.readers > 1, timeout=0.2)
        appended = write(head)
        with self.waiting:
            self.readers -= 1
        return self.inner.append(ref, ags.Write(lambda stored, trial: appended))

    def create(self, new: ags.NewRun) -> None:
        self.inner.create(new)

    def list_runs(self, query: ags.RunQuery) -> Any:
        return self.inner.list_runs(query)

    def checkpoint(self, ref: str, name: str, write: ags.CheckpointWrite) -> ags.Checkpointed:
        return self.inner.checkpoint(ref, name, write)

    def read_checkpoint(self, name: str) -> ags.StoredCheckpoint:
        return self.inner.read_checkpoint(name)

    def close(self) -> None:
        self.inner.close()


class StatuslessStorage(UnguardedStorage):
    """The memory storage, dropping the status each write evaluated."""

    def append(self, ref: str, write: ags.Write) -> ags.Appended:
        def decide(stored: ags.StoredHead, trial: bool) -> ags.Appended:
            return write(stored)._replace(status=None)

        return self.inner.append(ref, ags.Write(decide))

    def create(self, new: ags.NewRun) -> None:
        new.status = None
        self.inner.create(new)


def _lossy_append(self: Any, ref: str, write: ags.Write) -> ags.Appended:
    """A SQLite write that reads the head in one transaction and writes in another: writers collide."""
    head = self.read_head(ref)
    time.sleep(0.05)  # writers of other processes read the same head meanwhile
    appended = write(ags.StoredHead(head.head, head.events, None, None))

    def statements() -> Any:
        yield self._update_head(ref, appended)
        yield self._insert_events(ref, appended)
        return appended

    return self._execute(True, statements())  # type: ignore[no-any-return]


def open_lossy_sqlite(path: str, **options: Any) -> ag.BaseRunStore:
    """A SQLite store whose writes are not atomic: a picklable opener, for the contract's processes."""
    from agent_graph._runtime.runs_sqlite import SqliteStorage

    class Lossy(SqliteStorage):
        append = _lossy_append

    clock, new_id = options.pop("clock", None), options.pop("new_id", None)
    return ag.BaseRunStore(Lossy(path, **options), clock=clock, new_id=new_id)


# ---------------------------------------------------------------- the table


def _face(overrides: dict[str, Callable[..., Any]]) -> Callable[[str], Callable[..., Any]]:
    """An opener of a memory store (blocking or async) with ``overrides``."""

    def opener(face: str) -> Callable[..., Any]:
        if face == "sync":
            return lambda **options: Broken(ag.MemoryRunStore(**options), overrides)

        async def opened(**options: Any) -> Any:
            return Broken(await ag.open_async_store("memory://", **options), overrides)

        return opened

    return opener


def _storage(kind: type[UnguardedStorage]) -> Callable[[str], Callable[..., Any]]:
    def opener(face: str) -> Callable[..., Any]:
        def storage() -> Any:
            return kind(ag.MemoryRunStore().storage)

        if face == "sync":
            return lambda **options: ag.BaseRunStore(storage(), **options)

        async def opened(**options: Any) -> Any:
            return ag.AsyncRunStore(ags.ThreadedStorage(storage(), workers=4), **options)

        return opened

    return opener


async def open_lossy_sqlite_async(path: str, **options: Any) -> ag.AsyncRunStore:
    """The async face of :func:`open_lossy_sqlite` (its storage on worker threads), also picklable."""
    store = open_lossy_sqlite(path, **options)
    return ag.AsyncRunStore(ags.ThreadedStorage(store.storage), clock=store._clock, new_id=store._new_id)


def _lossy(face: str, folder: Path) -> Callable[..., Any]:
    opener = open_lossy_sqlite if face == "sync" else open_lossy_sqlite_async
    return functools.partial(opener, str(folder / "runs.db"))


#: Scenarios that use the ID ``start`` answers: a store whose answer does not address the Run fails them all.
EVERY_USE_OF_AN_ANSWERED_ID = {
    "test_a_checkpoint_keeps_the_run_without_authorities",
    "test_a_fork_starts_from_the_state_right_after_event_at",
    "test_a_fork_takes_the_facts_given_where_the_events_do_not_record_them",
    "test_a_record_appends_one_event_and_answers_the_head",
    "test_a_record_lands_the_facts_it_carries_in_the_same_write",
    "test_a_record_refuses_what_is_not_an_outcome_or_a_state_key",
    "test_a_record_with_the_provider_refuses_a_state_key_that_names_no_node",
    "test_a_stale_revision_is_refused_and_nothing_is_written",
    "test_authorities_are_replaced_then_added_and_removed",
    "test_events_page_by_after_and_limit",
    "test_export_and_import_are_byte_identical",
    "test_facts_merge_deep_merge_and_replace",
    "test_import_keeps_the_runs_id_and_refuses_what_it_cannot_keep",
    "test_list_answers_every_run_oldest_first",
    "test_many_concurrent_writers_lose_nothing",
    "test_next_step_answers_the_route_and_revision_of_the_head",
    "test_only_one_of_many_concurrent_guarded_records_lands",
    "test_resume_starts_a_run_of_its_own_from_a_checkpoint",
    "test_start_keeps_what_it_was_given",
    "test_start_makes_a_given_ref_the_runs_id",
    "test_the_provider_is_checked_on_every_call",
}
#: Scenarios that name their Runs: a store that ignores a given ref fails them all.
EVERY_USE_OF_A_GIVEN_ID = {
    "test_a_cursor_stays_correct_while_runs_are_written",
    "test_a_run_id_that_is_not_unicode_is_refused",
    "test_import_keeps_the_runs_id_and_refuses_what_it_cannot_keep",
    "test_list_answers_every_run_oldest_first",
    "test_list_filters_by_graph",
    "test_list_filters_by_last_update_strictly",
    "test_list_filters_by_provider",
    "test_list_filters_by_status_as_of_the_last_evaluated_write",
    "test_list_pages_partition_the_listing_in_both_orders",
    "test_list_refuses_arguments_it_cannot_take",
}

#: Each broken store: how it is opened (for a face), the scenarios of the promise it breaks, and the
#: other scenarios its break fails too (they rest on the same promise).
BROKEN: dict[str, tuple[Any, set[str], set[str]]] = {
    "answers an ID that does not address the Run": (
        _face({"start": _answers_another_id}),
        {"test_start_answers_a_run_addressed_by_its_id"},
        EVERY_USE_OF_AN_ANSWERED_ID,
    ),
    "gives a Run a fresh ID whatever ref it is given": (
        _face({"start": _start_fresh}),
        {"test_start_makes_a_given_ref_the_runs_id"},
        EVERY_USE_OF_A_GIVEN_ID,
    ),
    "forgets the workspace start is given": (
        _face({"start": _start_forgetting}),
        {"test_start_keeps_what_it_was_given"},
        set(),
    ),
    "starts a Run without checking its graph": (
        _face({"start": _start_unchecked}),
        {"test_start_checks_the_graph_and_entry_of_a_loaded_provider"},
        set(),
    ),
    "keeps a Run ID that is not Unicode as question marks": (
        _face({"start": _surrogates_as_question_marks, "load": _surrogates_as_question_marks}),
        {"test_a_run_id_that_is_not_unicode_is_refused"},
        set(),
    ),
    "answers nothing for a missing Run": (
        _face({"load": _missing_as_nothing}),
        {"test_a_missing_run_is_run_missing_on_every_call"},
        set(),
    ),
    "pages events from the first whatever after says": (
        _face({"events": _events_from_the_start}),
        {"test_events_page_by_after_and_limit"},
        set(),
    ),
    "answers more events than the limit": (
        _face({"events": _events_unbounded}),
        {"test_events_page_by_after_and_limit"},
        set(),
    ),
    "loads a Run of another Provider": (
        _face({"load": _load_ignoring_provider}),
        {"test_the_provider_is_checked_on_every_call"},
        set(),
    ),
    "answers the primary route whatever route_id says": (
        _face({"next_step": _without("route_id")}),
        {"test_next_step_answers_the_route_and_revision_of_the_head"},
        set(),
    ),
    "drops the detail of a record": (
        _face({"record": _without("detail")}),
        {"test_a_record_appends_one_event_and_answers_the_head"},
        {"test_a_record_refuses_what_is_not_an_outcome_or_a_state_key"},
    ),
    "records an outcome that is not one": (
        _face({"record": _record_any_outcome}),
        {"test_a_record_refuses_what_is_not_an_outcome_or_a_state_key"},
        set(),
    ),
    "records a state key that names no node": (
        _face({"record": _record_unknown_keys}),
        {"test_a_record_with_the_provider_refuses_a_state_key_that_names_no_node"},
        set(),
    ),
    "drops the Facts given to record": (
        _face({"record": _without("facts", "deep")}),
        {"test_a_record_lands_the_facts_it_carries_in_the_same_write"},
        set(),
    ),
    "records a stale revision": (
        _face({"record": _without("revision")}),
        {"test_a_stale_revision_is_refused_and_nothing_is_written"},
        {"test_only_one_of_many_concurrent_guarded_records_lands"},
    ),
    "decides each write on a head another writer changed": (
        _storage(UnguardedStorage),
        {
            "test_only_one_of_many_concurrent_guarded_records_lands",
            "test_many_concurrent_writers_lose_nothing",
        },
        set(),
    ),
    "writes in two transactions, losing writes of other processes": (
        _lossy,
        {"test_several_processes_lose_nothing", "test_many_concurrent_writers_lose_nothing"},
        {"test_only_one_of_many_concurrent_guarded_records_lands"},
    ),
    "merges Facts it was told to replace": (
        _face({"update_facts": _without("replace")}),
        {"test_facts_merge_deep_merge_and_replace"},
        set(),
    ),
    "keeps authorities it was told to remove": (
        _face({"update_authorities": _without("remove")}),
        {"test_authorities_are_replaced_then_added_and_removed"},
        set(),
    ),
    "answers a checkpoint with the Run's authorities": (
        _face({"checkpoint": _snapshot_with_authorities}),
        {"test_a_checkpoint_keeps_the_run_without_authorities"},
        set(),
    ),
    "resumes under a fresh ID whatever target it is given": (
        _face({"resume": _resume_fresh}),
        {"test_resume_starts_a_run_of_its_own_from_a_checkpoint"},
        set(),
    ),
    "forks at the end whatever at says": (
        _face({"fork": _fork_at_the_end}),
        {"test_a_fork_starts_from_the_state_right_after_event_at"},
        {"test_a_fork_takes_the_facts_given_where_the_events_do_not_record_them"},
    ),
    "drops the Facts given to fork": (
        _face({"fork": _without("facts")}),
        {"test_a_fork_takes_the_facts_given_where_the_events_do_not_record_them"},
        set(),
    ),
    "exports a Run file of other bytes": (
        _face({"export": _export_reformatted}),
        {"test_export_and_import_are_byte_identical"},
        set(),
    ),
    "imports a Run under another ID": (
        _face({"import_run": _import_under_a_fresh_id}),
        {"test_import_keeps_the_runs_id_and_refuses_what_it_cannot_keep"},
        {
            "test_a_fork_takes_the_facts_given_where_the_events_do_not_record_them",
            "test_export_and_import_are_byte_identical",
        },
    ),
    "serves calls after it was closed": (
        _face({"close": _never_closes, "aclose": _never_closes}),
        {"test_a_closed_store_refuses_every_call"},
        set(),
    ),
    "lists Runs by last update, so a write moves a Run": (
        _face({"list": _list_by_update}),
        {"test_list_answers_every_run_oldest_first"},
        {
            "test_a_cursor_stays_correct_while_runs_are_written",
            "test_list_filters_by_status_as_of_the_last_evaluated_write",
            "test_list_pages_partition_the_listing_in_both_orders",
        },
    ),
    "lists Runs by ID, not by creation": (
        _face({"list": _list_by_id}),
        {"test_list_answers_every_run_oldest_first"},
        {
            "test_list_filters_by_status_as_of_the_last_evaluated_write",
            "test_list_pages_partition_the_listing_in_both_orders",
            "test_a_cursor_stays_correct_while_runs_are_written",
        },
    ),
    "ignores list's provider filter": (
        _face({"list": _without("provider")}),
        {"test_list_filters_by_provider"},
        set(),
    ),
    "ignores list's graph filter": (
        _face({"list": _without("graph")}),
        {"test_list_filters_by_graph"},
        set(),
    ),
    "ignores list's time filters": (
        _face({"list": _without("updated_after", "updated_before")}),
        {"test_list_filters_by_last_update_strictly"},
        set(),
    ),
    "ignores list's status filter": (
        _face({"list": _without("status")}),
        {"test_list_filters_by_status_as_of_the_last_evaluated_write"},
        set(),
    ),
    "keeps no status": (
        _storage(StatuslessStorage),
        {"test_list_filters_by_status_as_of_the_last_evaluated_write"},
        set(),
    ),
    "answers every Run whatever the limit": (
        _face({"list": _list_without_limit}),
        {"test_list_pages_partition_the_listing_in_both_orders"},
        {"test_a_cursor_stays_correct_while_runs_are_written", "test_list_refuses_arguments_it_cannot_take"},
    ),
    "pages by position, not by key": (
        _face({"list": _list_by_offset}),
        {"test_a_cursor_stays_correct_while_runs_are_written"},
        {"test_list_refuses_arguments_it_cannot_take"},
    ),
    "starts again from a cursor it cannot read": (
        _face({"list": _list_any_cursor}),
        {"test_list_refuses_arguments_it_cannot_take"},
        set(),
    ),
}


# ---------------------------------------------------------------- running a scenario


_PROVIDER: list[Any] = []


def run_scenario(name: str, opener: Callable[..., Any], folder: Path) -> BaseException | None:
    """Run one scenario on a store ``opener`` opens: None if it passes, else what failed it (a skip passes)."""
    if not _PROVIDER:
        _PROVIDER.append(contract_provider())
    contract = store_contract.RunStoreContract()
    method = getattr(contract, name)
    loop = asyncio.new_event_loop()
    face: StoreFace | None = None
    try:
        opened = opener(clock=ContractClock())
        store = loop.run_until_complete(opened) if inspect.isawaitable(opened) else opened
        face = StoreFace(store, loop)
        values = {"face": face, "provider": _PROVIDER[0], "tmp_path": folder, "open_run_store": opener}
        wanted = inspect.signature(method).parameters
        method(**{key: value for key, value in values.items() if key in wanted})
        return None
    except pytest.skip.Exception:
        return None
    except (Exception, pytest.fail.Exception) as error:  # an assertion, or an answer the scenario refuses
        return error
    finally:
        if face is not None:
            with contextlib.suppress(Exception):  # a broken store may fail to close: the verdict stands
                face.shut()
        close_loop(loop)


def _opener(build: Any, face: str, folder: Path) -> Callable[..., Any]:
    return build(face, folder) if build is _lossy else build(face)


@pytest.mark.parametrize("face", ["sync", "async"])
@pytest.mark.parametrize("broken", list(BROKEN))
def test_each_broken_store_fails_the_scenarios_of_the_promise_it_breaks(
    broken: str, face: str, tmp_path: Path
) -> None:
    build, targets, _ = BROKEN[broken]
    for name in sorted(targets):
        folder = tmp_path / name
        folder.mkdir()
        failure = run_scenario(name, _opener(build, face, folder), folder)
        assert failure is not None, f"the store that {broken} passes {name}: {SCENARIOS[name]}"


def test_every_scenario_is_proved_by_a_broken_store() -> None:
    proved = set().union(*(targets for _, targets, _ in BROKEN.values()))
    assert set(SCENARIOS) == proved, f"scenarios without a broken store: {sorted(set(SCENARIOS) - proved)}"
    assert all(promise for promise in SCENARIOS.values()), "every scenario states its promise"


@pytest.mark.parametrize("face", ["sync", "async"])
def test_the_sound_store_behind_the_wrappers_passes_every_scenario(face: str, tmp_path: Path) -> None:
    failures = {}
    for name in SCENARIOS:
        folder = tmp_path / name
        folder.mkdir()
        failure = run_scenario(name, _face({})(face), folder)
        if failure is not None:
            failures[name] = repr(failure)[:300]
    assert failures == {}


@pytest.mark.slow
@pytest.mark.parametrize("face", ["sync", "async"])
@pytest.mark.parametrize("broken", list(BROKEN))
def test_each_broken_store_fails_exactly_its_own_scenarios(broken: str, face: str) -> None:
    build, targets, also = BROKEN[broken]
    failed = set()
    with tempfile.TemporaryDirectory() as root:
        for name in SCENARIOS:
            folder = Path(root) / name
            folder.mkdir()
            if run_scenario(name, _opener(build, face, folder), folder) is not None:
                failed.add(name)
    assert targets <= failed, f"the store that {broken} passes scenarios of the promise it breaks"
    assert failed <= targets | also, f"the store that {broken} fails other scenarios than its own"


def open_dying_in_children(path: str, **options: Any) -> ag.BaseRunStore:
    """A SQLite store that opens in the test's process; a process started for the contract dies opening it."""
    import multiprocessing
    import os

    if multiprocessing.parent_process() is not None:
        os._exit(3)  # as a child whose import fails would: its task is lost with it
    return ag.open_store(f"sqlite:///{path}", **options)


def test_a_writer_process_that_dies_fails_the_scenario_instead_of_hanging(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_graph.testing import _contract_runs

    monkeypatch.setattr(_contract_runs, "PROCESS_TIMEOUT", 20.0)
    opener = functools.partial(open_dying_in_children, str(tmp_path / "runs.db"))
    failure = run_scenario("test_several_processes_lose_nothing", opener, tmp_path)
    assert isinstance(failure, pytest.fail.Exception), repr(failure)
    assert "did not all answer within 20 s" in str(failure)
