"""What the store contract's scenarios share: their Provider, a face over either kind of store, a clock.

:mod:`agent_graph.testing.store_contract` is the suite; this module holds its
tools. :class:`StoreFace` calls a blocking or an async store the same way (an
async answer is awaited on the scenario's own event loop), so every scenario
is written once for both faces.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

__all__ = [
    "PROVIDER_FILES",
    "ContractClock",
    "StoreFace",
    "close_loop",
    "code_of",
    "contract_provider",
    "record_in_process",
]

_ACTION = "schema: agent-graph.action.v1\nid: {}\nrunner: command\neffect: read\ncommand: 'true'\n"

#: A small Provider, written into memory for the scenarios: ``main`` (two Actions and a Terminal)
#: and ``gated`` (a Gate that waits for the user, then an Action and a Terminal).
PROVIDER_FILES: dict[str, Any] = {
    "provider.yaml": {
        "schema": "agent-graph.provider.v1",
        "id": "contract/provider",
        "version": "1.0.0",
        "graphs": ["graphs/main.json", "graphs/gated.json"],
    },
    "graphs/main.json": {
        "schema": "agent-graph.graph.v1",
        "id": "main",
        "entrypoints": {"default": "draft", "review": "review"},
        "nodes": [
            {"id": "draft", "kind": "action", "reasonCode": "route.draft", "action": "actions/draft.yaml"},
            {"id": "review", "kind": "action", "reasonCode": "route.review", "action": "actions/review.yaml"},
            {"id": "done", "kind": "terminal", "terminalOutcome": "completed"},
        ],
        "edges": [{"from": "draft", "to": "review"}, {"from": "review", "to": "done"}],
    },
    "graphs/gated.json": {
        "schema": "agent-graph.graph.v1",
        "id": "gated",
        "entrypoints": {"default": "approve"},
        "nodes": [
            {
                "id": "approve",
                "kind": "gate",
                "reasonCode": "route.approve",
                "gate": {"id": "contract-approval", "prompt": "Go on?", "authority": "contract.approve"},
            },
            {"id": "ship", "kind": "action", "reasonCode": "route.ship", "action": "actions/draft.yaml"},
            {"id": "done", "kind": "terminal", "terminalOutcome": "completed"},
        ],
        "edges": [{"from": "approve", "to": "ship", "kind": "gatedBy"}, {"from": "ship", "to": "done"}],
    },
    "actions/draft.yaml": _ACTION.format("draft"),
    "actions/review.yaml": _ACTION.format("review"),
}


def contract_provider() -> Any:
    """The scenarios' Provider, loaded from memory."""
    from .memory import MemoryProviderFileSystem

    return MemoryProviderFileSystem(PROVIDER_FILES).load()


class ContractClock:
    """The clock the scenarios open stores with: a millisecond later at every call, from 2020-01-01 (thread-safe)."""

    def __init__(self) -> None:
        import threading

        self._moment = datetime(2020, 1, 1, tzinfo=timezone.utc)
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            self._moment += timedelta(milliseconds=1)
            return self._moment


def code_of(call: Callable[[], Any]) -> str:
    """The code of the AgentGraphError ``call()`` raises (the scenario fails if it raises none)."""
    from .._core.errors import AgentGraphError

    with pytest.raises(AgentGraphError) as caught:
        call()
    return caught.value.code


class StoreFace:
    """One store, blocking or async, called the same way: every method answers its result."""

    def __init__(self, store: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.store = store
        self.loop = loop
        self.is_async = callable(getattr(store, "aclose", None))

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.store, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            answer = method(*args, **kwargs)
            return self.loop.run_until_complete(answer) if inspect.isawaitable(answer) else answer

        return call

    def shut(self) -> None:
        """Close the store (``aclose`` or ``close``)."""
        if self.is_async:
            self.loop.run_until_complete(self.store.aclose())
        else:
            self.store.close()

    def together(self, calls: Iterable[Callable[[], Any]]) -> list[Any]:
        """Run the calls at once (tasks of one event loop, or threads): each one's answer or exception."""
        calls = list(calls)
        if self.is_async:

            async def everything() -> list[Any]:
                return list(await asyncio.gather(*(call() for call in calls), return_exceptions=True))

            return self.loop.run_until_complete(everything())

        def caught(call: Callable[[], Any]) -> Any:
            try:
                return call()
            except Exception as error:
                return error

        with ThreadPoolExecutor(max_workers=min(len(calls), 16)) as pool:
            return list(pool.map(caught, calls))

    def method(self, name: str, *args: Any, **kwargs: Any) -> Callable[[], Any]:
        """A call of the store's method for :meth:`together` (a coroutine function for an async store)."""
        return functools.partial(getattr(self.store, name), *args, **kwargs)


def close_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Close ``loop`` after its default executor's threads have ended (``close`` alone leaves them running)."""
    try:
        loop.run_until_complete(loop.shutdown_default_executor())
    finally:
        loop.close()


def record_in_process(opener: Any, ref: str, prefix: str, count: int) -> int:
    """A process's writer: ``count`` records on one Run; how many landed."""
    loop = asyncio.new_event_loop()
    try:
        opened = opener()
        store = loop.run_until_complete(opened) if inspect.isawaitable(opened) else opened
        face = StoreFace(store, loop)
        for n in range(count):
            face.record(ref, f"{prefix}/n{n}", "completed")
        face.shut()
        return count
    finally:
        close_loop(loop)
