"""The MCP service's seam to what may wait: the Run store and resource reads.

:class:`StoreCalls` is the one place :class:`~agent_graph._mcp.service.McpService`
calls its Run store, and every call is awaited. A store whose methods are
coroutines (an asynchronous Run store) is awaited directly; a synchronous
store's calls run in worker threads, several at a time, so a call that waits
for a lock or the database never holds up the others.

:func:`bounded` runs a read (a resource, a context view, a host handler) in a
thread of its own and answers within a time limit: past it the call is
``resource-read-timeout`` and the thread is left to end on its own (it is a
daemon thread, so it never keeps the process alive). One slow read never
stalls another call.

Needs ``anyio`` (installed with the MCP SDK).
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread

from .._core.errors import AgentGraphError
from .._core.model import Run, RunEvent, RunHead, RunPage
from .._core.provider import Provider

__all__ = ["STORE_WORKERS", "StoreCalls", "bounded"]

_T = TypeVar("_T")

#: Store calls that may run at the same time (worker threads of a synchronous store).
STORE_WORKERS = 8


class StoreCalls:
    """Every call the MCP service makes to its Run store, awaited (see the module docs)."""

    def __init__(self, store: Any, provider: Provider, *, workers: int = STORE_WORKERS) -> None:
        self.store = store
        self.provider = provider
        self._workers = workers
        self._limiter: anyio.CapacityLimiter | None = None

    async def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        method = getattr(self.store, name)
        if inspect.iscoroutinefunction(method):
            return await method(*args, **kwargs)
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self._workers)
        return await anyio.to_thread.run_sync(
            functools.partial(method, *args, **kwargs), limiter=self._limiter
        )

    async def ref(self, run_id: str) -> str:
        """The store's reference of a Run ID: every store addresses a Run by the ID ``start`` answered."""
        return run_id

    async def head(self, ref: str) -> RunHead:
        """What a turn needs of a Run (facts, outcomes, authorities, event count), without its history."""
        head: RunHead = await self._call("head", ref, self.provider)
        return head

    async def events(self, ref: str, after: int, limit: int) -> tuple[RunEvent, ...]:
        page: tuple[RunEvent, ...] = await self._call("events", ref, self.provider, after=after, limit=limit)
        return page

    async def start(
        self,
        graph: str,
        entry: str,
        *,
        workspace: str,
        facts: Mapping[str, Any],
        authorities: Iterable[str],
    ) -> Run:
        run: Run = await self._call(
            "start",
            None,
            self.provider,
            graph,
            entry,
            workspace=workspace,
            facts=facts,
            authorities=authorities,
        )
        return run

    async def record(self, ref: str, node: str, outcome: str, **options: Any) -> RunHead:
        run: RunHead = await self._call(
            "record", ref, node, outcome, provider=self.provider, deep=True, **options
        )
        return run

    async def update_facts(self, ref: str, facts: Mapping[str, Any]) -> RunHead:
        run: RunHead = await self._call("update_facts", ref, facts, deep=True, provider=self.provider)
        return run

    async def list(self, **filters: Any) -> RunPage:
        page: RunPage = await self._call("list", **filters)
        return page


async def bounded(function: Callable[[], _T], timeout: float, what: str) -> _T:
    """``function()`` run in a daemon thread of its own; ``resource-read-timeout`` after ``timeout`` seconds."""
    token = anyio.lowlevel.current_token()
    send, receive = anyio.create_memory_object_stream[tuple[bool, Any]](1)

    def work() -> None:
        try:
            outcome: tuple[bool, Any] = (True, function())
        except BaseException as error:  # handed to the caller, whatever it is
            outcome = (False, error)

        def deliver() -> None:
            with send:
                send.send_nowait(outcome)

        try:
            anyio.from_thread.run_sync(deliver, token=token)
        except Exception:  # the caller gave up or the server stopped: nobody waits for this answer
            send.close()

    threading.Thread(target=work, name="agent-graph-mcp-read", daemon=True).start()
    with receive, anyio.move_on_after(timeout):
        succeeded, value = await receive.receive()
        if succeeded:
            result: _T = value
            return result
        raise value
    raise AgentGraphError(
        "resource-read-timeout",
        f"Reading {what} took longer than {timeout:g} s; the server gave up on it (a file that never ends, "
        "a host handler or materializer that does not answer). Check the resource and try again.",
    )
