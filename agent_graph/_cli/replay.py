"""The ``replay`` command: write a Run's replay page, one self-contained HTML file.

``agent-graph replay (--state FILE | --store URL --run ID) --out run.html``
reads the Run (read only), replays it against the Provider of ``--manifest``
and writes the page of :mod:`agent_graph._toolchain.replay_page` to ``--out``
atomically (replacing an older page there). ``--layout`` picks the Graph's
layout: ``auto`` (Graphviz ``dot`` when installed, else built in), ``dot`` or
``builtin``.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from .._core.errors import AgentGraphError
from .common import STORE_HELP, Context, add_store_options, load_run

__all__ = ["add_commands"]


def cmd_replay(args: argparse.Namespace, ctx: Context) -> tuple[Any, list[str]]:
    from .._load.atomic import FileChanges
    from .._toolchain.replay_page import replay_page

    if args.state is None and args.store is None:
        raise AgentGraphError(
            "argument-invalid", "Name the Run to replay: --state FILE, or --store URL with --run ID"
        )
    provider = ctx.provider()
    run = load_run(args, provider.manifest.id)
    page, layout = replay_page(provider, run, args.layout)
    data = page.encode("utf-8")
    destination = os.path.abspath(args.out)
    with FileChanges(label="Replay page") as changes:
        changes.write(destination, data)
    answer = {
        "state": "written",
        "path": destination,
        "run": run.id,
        "events": len(run.events),
        "layout": layout,
        "bytes": len(data),
    }
    return answer, [
        f"Wrote {destination}",
        f"Run {run.id}: {len(run.events)} events, {layout} layout, {len(data)} bytes",
    ]


def add_commands(commands: Any, groups: Any) -> None:
    """Register ``replay`` on the top-level sub-command parser."""
    replay = commands.add_parser("replay", help="write a Run's replay page (one self-contained HTML file)")
    replay.add_argument("--state", help="the Run file to replay")
    add_store_options(replay, STORE_HELP + ", holding --run")
    replay.add_argument("--run", help="the Run to replay in --store")
    replay.add_argument("--out", required=True, help="the HTML file to write (replaced if it exists)")
    replay.add_argument(
        "--layout",
        choices=("auto", "dot", "builtin"),
        default="auto",
        help="Graph layout: Graphviz dot when installed (auto, the default), dot, or the built-in one",
    )
    replay.set_defaults(handler=cmd_replay)
