"""The Run store contract as a pytest suite: prove that a store keeps every promise of agent-graph's stores.

A host with its own database implements the storage seam
(:class:`agent_graph.storage.RunStorage`, blocking, or
:class:`agent_graph.storage.AsyncRunStorage`, as coroutines), opens it as a
store (``ag.BaseRunStore(storage)``, ``ag.AsyncRunStore(storage)``, or by URL
once its scheme is registered) and runs this suite against it. Subclass
:class:`RunStoreContract` in a test module and give it one fixture,
``open_run_store``: a callable that opens a store on the same (empty at the
test's start) storage each time it is called, answering the store or an
awaitable of it (an async store). The options it is called with (``clock``,
``new_id``, ``lock_timeout``) must be passed to the store::

    import pytest
    from agent_graph.testing.store_contract import RunStoreContract

    class TestMyStore(RunStoreContract):
        @pytest.fixture
        def open_run_store(self, tmp_path):
            return functools.partial(my_store.open, tmp_path / "runs")

Every scenario is a promise of the store interface, written as its
docstring (:func:`scenarios` lists them): every method, every argument and
every refusal a host can provoke through the interface — Run IDs (a given
ref is the ID, held once; an ID that is not Unicode refused), reads and
their pages, records and their Facts, the state-key check, the revision
guard (also with eight guarded writers at once), concurrency (24 writers,
threads or tasks; three processes when the opener can be pickled), Facts
and authorities, checkpoints and resumes, forks at any event and with
Facts, export and import byte for byte, the Provider check on every call,
a closed store, and ``list()``'s filters (Provider, graph, last update,
status), order, pages and cursors, also while Runs are written. Codes of a
store's surroundings (``run-lock-timeout``, ``run-store-failed``,
``run-store-unavailable``, ``run-too-large``) are not provoked here.

agent-graph runs this suite on its own four stores and on a store in a
distribution of its own, each over its blocking and its async face, and
proves each scenario by a store broken on purpose that fails it
(tests/runtime/test_store_contract_meta.py).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from ._contract_listing import ListScenarios
from ._contract_runs import RunScenarios
from ._contract_support import (
    PROVIDER_FILES,
    ContractClock,
    StoreFace,
    close_loop,
    contract_provider,
)

__all__ = [
    "PROVIDER_FILES",
    "ContractClock",
    "RunStoreContract",
    "StoreFace",
    "contract_provider",
    "scenarios",
]


class RunStoreContract(RunScenarios, ListScenarios):
    """The contract's scenarios; subclass it (as ``Test…``) and give the fixture ``open_run_store``.

    Each scenario gets ``face``: a store opened with ``open_run_store(clock=…)``
    (the contract's clock, a millisecond per call) and called through a
    :class:`StoreFace`, closed after the scenario.
    """

    @pytest.fixture
    def open_run_store(self) -> Callable[..., Any]:
        raise NotImplementedError("give your subclass an open_run_store fixture")

    @pytest.fixture
    def contract_loop(self) -> Iterator[asyncio.AbstractEventLoop]:
        loop = asyncio.new_event_loop()
        try:
            yield loop
        finally:
            close_loop(loop)

    @pytest.fixture
    def face(
        self, open_run_store: Callable[..., Any], contract_loop: asyncio.AbstractEventLoop
    ) -> Iterator[StoreFace]:
        opened = open_run_store(clock=ContractClock())
        store = contract_loop.run_until_complete(opened) if inspect.isawaitable(opened) else opened
        face = StoreFace(store, contract_loop)
        try:
            yield face
        finally:
            face.shut()

    @pytest.fixture(scope="class")
    @classmethod
    def provider(cls) -> Any:
        return contract_provider()


def scenarios() -> dict[str, str]:
    """Every scenario of the contract by name, with the promise it checks (its docstring's first line)."""
    found: dict[str, str] = {}
    for name in dir(RunStoreContract):
        if name.startswith("test_"):
            doc = inspect.getdoc(getattr(RunStoreContract, name)) or ""
            found[name] = doc.split("\n", 1)[0]
    return found
