"""``serve_mcp``: serve a loaded Provider to one MCP client on standard input and output.

The entry point of the MCP layer for hosts (``ag.serve_mcp``) and for the
``agent-graph mcp`` command. The MCP SDK is the optional extra
``agent-graph[mcp]``: :func:`check_sdk` refuses a missing or wrong SDK with
``mcp-unavailable``, saying how to install a usable one, before anything of
the SDK is imported.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .._core.errors import AgentGraphError

if TYPE_CHECKING:
    from .._core.model import HostActionLocation, HostActionResult
    from .._core.provider import Provider
    from .._runtime.run_store import BaseRunStore
    from .._runtime.run_store_async import AsyncRunStore
    from .service import McpService

__all__ = ["INSTALL", "MCP_MAJOR", "check_sdk", "serve", "serve_mcp"]

#: The major version of the ``mcp`` SDK this server is written for.
MCP_MAJOR = 2
INSTALL = 'pip install "agent-graph[mcp]"'


def check_sdk() -> str:
    """The installed ``mcp`` SDK version, or ``mcp-unavailable`` saying how to install a usable one."""
    import importlib.metadata

    try:
        import mcp  # noqa: F401
    except ImportError:
        raise AgentGraphError(
            "mcp-unavailable", f"agent-graph mcp needs the MCP Python SDK, an optional extra: {INSTALL}"
        ) from None
    try:
        version = importlib.metadata.version("mcp")
    except importlib.metadata.PackageNotFoundError:
        version = "0"
    major = version.split(".", 1)[0]
    if not major.isdigit() or int(major) != MCP_MAJOR:
        raise AgentGraphError(
            "mcp-unavailable",
            f"agent-graph mcp needs version {MCP_MAJOR}.x of the MCP Python SDK, not {version}: {INSTALL}",
        )
    return version


def serve_mcp(
    provider: Provider,
    store: BaseRunStore,
    *,
    authorities: Iterable[str] = (),
    workspace: str | None = None,
    materialize_cache: str | None = None,
    host_handlers: Mapping[str, Callable[[HostActionLocation], HostActionResult | Mapping[str, Any]]]
    | None = None,
    graph: str | None = None,
    entry: str | None = None,
    read_timeout: float = 60.0,
) -> None:
    """Serve ``provider`` to one MCP client on standard input and output, as ``agent-graph mcp`` does.

    For a host that runs the server itself, for example to answer
    host-action resources: ``host_handlers`` maps a handler name to the
    function that produces its ``agent-graph.host-action-result.v1``.
    ``authorities`` are the server's (see docs/mcp.md); ``workspace``
    defaults to the current folder; graph-action views are readable only
    with a ``materialize_cache`` folder; ``graph`` and ``entry`` are
    ``start_run``'s defaults; ``read_timeout`` bounds each resource read in
    seconds (``resource-read-timeout``). Returns when the client closes the connection;
    the store stays open (it is the caller's). Needs the extra
    ``agent-graph[mcp]`` (``mcp-unavailable`` otherwise).
    """
    check_sdk()
    if isinstance(read_timeout, bool) or not isinstance(read_timeout, (int, float)) or not read_timeout > 0:
        raise AgentGraphError("argument-invalid", "read_timeout must be a number of seconds above 0")
    if store is None:
        raise AgentGraphError("argument-invalid", "The MCP server needs a Run store (store=…)")
    from .._core.provider import loaded_provider
    from .._runtime.run_store import BaseRunStore
    from .._runtime.run_store_async import AsyncRunStore

    loaded_provider(provider, "The MCP server")
    if not isinstance(store, (BaseRunStore, AsyncRunStore)):
        raise AgentGraphError(
            "argument-invalid",
            f"store must be a Run store (ag.open_store(…)), not {type(store).__name__}",
        )
    from .service import McpService

    service = McpService(
        provider,
        store,
        authorities=tuple(authorities),
        workspace=os.path.abspath(workspace) if workspace is not None else os.getcwd(),
        materialize_cache=os.path.abspath(materialize_cache) if materialize_cache is not None else None,
        host_handlers=host_handlers,
        default_graph=graph,
        default_entry=entry,
        read_timeout=float(read_timeout),
    )
    serve(service)


def serve(
    service: McpService,
    *,
    stop_signals: bool = False,
    store_url: str | None = None,
    store_options: Mapping[str, Any] | None = None,
) -> None:
    """Serve ``service`` (:func:`serve_mcp`'s); with ``stop_signals`` SIGTERM and SIGINT stop it cleanly (the ``mcp`` command).

    With ``store_url`` (and no store in ``service``) the server opens that Run
    store's async face in its own event loop (``open_async_store``, given
    ``store_options``) and closes it when it stops: a slow write then never
    holds up the server's other requests. The caller checked the SDK (:func:`check_sdk`).
    """
    from .._core.version import __version__
    from .server import serve_stdio

    opener = None
    if store_url is not None:
        from .._runtime.stores import open_async_store

        url, options = store_url, dict(store_options or {})

        async def opener() -> AsyncRunStore:
            return await open_async_store(url, **options)

    serve_stdio(service, version=__version__, stop_signals=stop_signals, open_store=opener)
