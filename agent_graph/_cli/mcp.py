"""The ``agent-graph mcp`` command: a Model Context Protocol server on standard input and output.

``_cli.parser.build_parser`` calls :func:`add_commands`. The command loads the
Provider (``--manifest`` or ``--skill``), opens the Run store (``--store``, with
``--store-option KEY=VALUE`` passed to it),
and serves until the client closes the connection; it answers nothing on
standard output itself, which belongs to the protocol. Failures before serving
(a Provider that does not load, a store that does not open, the SDK missing)
are ordinary command-line errors on standard error, exit status 1.

The server itself is the MCP layer (:mod:`agent_graph._mcp`); this module
only parses the options and opens what the server needs. The MCP SDK is the
optional extra ``agent-graph[mcp]``: without it the command fails with
``mcp-unavailable`` and says how to install it.

Without ``--store`` the Runs live in a temporary folder removed when the
server stops (a notice on standard error says so); without
``--materialize-cache`` graph-action views are cached in a temporary folder
too. The server never changes anything else on disk. SIGTERM (and Ctrl-C
while serving) stops it cleanly with exit status 0: the store is closed and
the temporary folder removed.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .._core.errors import AgentGraphError
from .._mcp.serve import INSTALL, check_sdk, serve
from .common import STORE_HELP, add_store_options, store_options

__all__ = ["add_commands"]


def cmd_mcp(args: argparse.Namespace, ctx: Any) -> tuple[Any, list[str]]:
    check_sdk()
    import shutil
    import signal
    import tempfile

    from .._load.atomic import make_directories
    from .._mcp.service import McpService
    from .._runtime.runs import FileRunStore
    from .._runtime.stores import open_store

    scratch: str | None = None
    previous = _stop_on_terminate()
    try:
        provider = ctx.provider()
        binding = ctx.binding()
        workspace = os.path.abspath(args.workspace) if args.workspace else os.getcwd()
        if not os.path.isdir(workspace):
            raise AgentGraphError("workspace-missing", f"The workspace folder does not exist: {workspace}")
        if args.store is None or args.materialize_cache is None:
            scratch = tempfile.mkdtemp(prefix="agent-graph-mcp-")
        options = store_options(args)
        if args.store is not None:
            url = args.store
            # The URL and options are checked, and the folder the user named for the Runs made, before serving.
            with open_store(url, **options) as store:
                if isinstance(store, FileRunStore) and store.root is not None:
                    make_directories(store.root)  # a file in the way is path-not-directory
        else:
            url = os.path.join(scratch or "", "runs")
            os.mkdir(url)
            sys.stderr.write(
                f"agent-graph mcp: no --store given; Runs are kept in {url} and removed when the server stops\n"
            )
        cache = os.path.abspath(args.materialize_cache or os.path.join(scratch or "", "cache"))
        service = McpService(
            provider,
            None,
            authorities=tuple(args.authority or ()),
            workspace=workspace,
            materialize_cache=cache,
            default_graph=binding[2] if binding else None,
            default_entry=binding[3] if binding else None,
        )
        # The server opens the store's async face in its own event loop: a slow write never
        # holds up its other requests.
        serve(service, stop_signals=True, store_url=url, store_options=options)
    except _Terminated:
        pass  # SIGTERM before serving (loading, opening the store): stop as cleanly as the server does
    except OSError as error:
        raise AgentGraphError("os-error", f"agent-graph mcp: {error}") from None
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    ctx.quiet = True
    return None, []


class _Terminated(BaseException):
    """SIGTERM arrived before the server was serving (it then stops on it by itself)."""


def _terminated(_signum: int, _frame: Any) -> None:
    raise _Terminated


def _stop_on_terminate() -> Any:
    """Make SIGTERM stop the command cleanly, exit status 0 (its temporary folder removed); the old handler."""
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
            "prompt per graph entry. Needs " + INSTALL + "."
        ),
    )
    add_store_options(parser, STORE_HELP + " (default: a temporary folder removed at exit)")
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
