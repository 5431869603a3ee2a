"""The ``agent-graph mcp`` command: a Model Context Protocol server on standard input and output.

``_cli.main.build_parser`` calls :func:`add_commands`. The command loads the
Provider (``--manifest`` or ``--skill``), opens the Run store (``--store``),
and serves until the client closes the connection; it answers nothing on
standard output itself, which belongs to the protocol. Failures before serving
(a Provider that does not load, a store that does not open, the SDK missing)
are ordinary command-line errors on standard error, exit status 1.

The MCP SDK is the optional extra ``agent-graph[mcp]``: without it the
command fails with ``mcp-unavailable`` and says how to install it.

Without ``--store`` the Runs live in a temporary folder removed when the
server stops (a notice on standard error says so); without
``--materialize-cache`` graph-action views are cached in a temporary folder
too. The server never changes anything else on disk. SIGTERM stops it as
Ctrl-C does, so the temporary folder is removed then too.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .._core.errors import AgentGraphError

if TYPE_CHECKING:
    from .._core.model import HostActionLocation, HostActionResult
    from .._core.provider import Provider
    from .._runtime.run_store import BaseRunStore

__all__ = ["MCP_MAJOR", "add_commands", "check_sdk", "serve_mcp"]

#: The major version of the ``mcp`` SDK this server is written for.
MCP_MAJOR = 2
_INSTALL = 'pip install "agent-graph[mcp]"'


def check_sdk() -> str:
    """The installed ``mcp`` SDK version, or ``mcp-unavailable`` saying how to install a usable one."""
    import importlib.metadata

    try:
        import mcp  # noqa: F401
    except ImportError:
        raise AgentGraphError(
            "mcp-unavailable", f"agent-graph mcp needs the MCP Python SDK, an optional extra: {_INSTALL}"
        ) from None
    try:
        version = importlib.metadata.version("mcp")
    except importlib.metadata.PackageNotFoundError:
        version = "0"
    major = version.split(".", 1)[0]
    if not major.isdigit() or int(major) != MCP_MAJOR:
        raise AgentGraphError(
            "mcp-unavailable",
            f"agent-graph mcp needs version {MCP_MAJOR}.x of the MCP Python SDK, not {version}: {_INSTALL}",
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
) -> None:
    """Serve ``provider`` to one MCP client on standard input and output, as ``agent-graph mcp`` does.

    For a host that runs the server itself, for example to answer
    host-action resources: ``host_handlers`` maps a handler name to the
    function that produces its ``agent-graph.host-action-result.v1``.
    ``authorities`` are the server's (see docs/mcp.md); ``workspace``
    defaults to the current folder; graph-action views are readable only
    with a ``materialize_cache`` folder; ``graph`` and ``entry`` are
    ``start_run``'s defaults. Returns when the client closes the connection;
    the store stays open (it is the caller's). Needs the extra
    ``agent-graph[mcp]`` (``mcp-unavailable`` otherwise).
    """
    check_sdk()
    from .._core.version import __version__
    from .mcp_server import serve_stdio
    from .mcp_service import McpService

    service = McpService(
        provider,
        store,
        authorities=tuple(authorities),
        workspace=os.path.abspath(workspace) if workspace is not None else os.getcwd(),
        materialize_cache=os.path.abspath(materialize_cache) if materialize_cache is not None else None,
        host_handlers=host_handlers,
        default_graph=graph,
        default_entry=entry,
    )
    serve_stdio(service, version=__version__)


def cmd_mcp(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    check_sdk()
    import shutil
    import signal
    import tempfile

    from .._runtime.runs import FileRunStore
    from .._runtime.stores import open_store

    provider = ctx.provider()
    binding = ctx.binding()
    workspace = os.path.abspath(args.workspace) if args.workspace else os.getcwd()
    if not os.path.isdir(workspace):
        raise AgentGraphError("workspace-missing", f"The workspace folder does not exist: {workspace}")
    scratch: str | None = None
    previous = _stop_on_terminate()
    try:
        if args.store is None or args.materialize_cache is None:
            scratch = tempfile.mkdtemp(prefix="agent-graph-mcp-")
        if args.store is not None:
            store = open_store(args.store)
            if isinstance(store, FileRunStore) and store.root is not None:
                os.makedirs(store.root, exist_ok=True)  # the folder the user named for the Runs
        else:
            runs = os.path.join(scratch or "", "runs")
            os.mkdir(runs)
            store = open_store(runs)
            sys.stderr.write(
                f"agent-graph mcp: no --store given; Runs are kept in {runs} and removed when the server stops\n"
            )
        cache = args.materialize_cache or os.path.join(scratch or "", "cache")
        with store:
            serve_mcp(
                provider,
                store,
                authorities=args.authority or (),
                workspace=workspace,
                materialize_cache=cache,
                graph=binding[2] if binding else None,
                entry=binding[3] if binding else None,
            )
    except OSError as error:
        raise AgentGraphError("os-error", f"agent-graph mcp: {error}") from None
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    ctx.quiet = True
    return None, []


def _terminated(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def _stop_on_terminate() -> Any:
    """Make SIGTERM stop the server like Ctrl-C (so its temporary folder is removed); the old handler."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _terminated)


def add_commands(commands: Any, groups: dict[str, Any]) -> None:
    """Add ``mcp`` to the top-level commands."""
    parser = commands.add_parser(
        "mcp",
        help="serve the Provider to MCP clients on stdin/stdout (extra: agent-graph[mcp])",
        description=(
            "A Model Context Protocol server over the step API: tools start_run, next_step, read_resource, "
            "record_outcome, update_facts, list_runs and run_events; the Provider's static resources; one "
            "prompt per graph entry. Needs " + _INSTALL + "."
        ),
    )
    parser.add_argument(
        "--store",
        help="Run store: a folder, sqlite:///runs.db, sqlite:////abs/runs.db or postgresql://… "
        "(default: a temporary folder removed at exit)",
    )
    parser.add_argument(
        "--authority",
        nargs="+",
        action="extend",
        help="authorities this server holds: granted to the Runs it starts, and the only way an agent may "
        "resolve a delegatable Gate",
    )
    parser.add_argument(
        "--materialize-cache",
        dest="materialize_cache",
        help="folder that caches graph-action views (default: a temporary folder removed at exit)",
    )
    parser.add_argument(
        "--workspace", help="workspace of the Runs and materializers (default: current directory)"
    )
    parser.set_defaults(handler=cmd_mcp)
