"""Providers in typed Python: ``import agent_graph.define as agd``.

A builder declares a Provider's Graphs, nodes, edges, Actions, resources,
Skills, schemas and Code Catalog as Python objects and turns them into the
protocol's files, in one stable YAML form; the files stay the contract::

    import agent_graph.define as agd

    p = agd.provider("acme/notes")
    g = p.graph("main")
    work = g.action("work", agd.command("make notes", effect="write"), proof="notes.digest")
    work.to(g.terminal("done"))
    provider = p.load()          # an agent_graph.Provider, loaded from memory
    p.write("acme-notes")        # or the same files on disk

Outcomes, edge kinds, runners, effects and joins are ``Literal`` types, so a
type checker refuses ``on="done"``; a mistake found later (a node named by an
ID that does not exist, a file the loader refuses) is an
:class:`~agent_graph.AgentGraphError` located at your own ``file:line``.
:func:`from_provider` gives a builder back from a loaded Provider, keeping the
bytes of every file you do not change. See docs/authoring.md.
"""

from __future__ import annotations

from ._core.model import (
    Effect as Effect,
    Outcome as Outcome,
    Runner as Runner,
    WorkingDirectory as WorkingDirectory,
)
from ._load import define as _define
from ._load.define import *  # noqa: F403 - the builder: its own __all__
from ._load.define_import import from_provider as from_provider

__all__ = [
    "Effect",
    "Outcome",
    "Runner",
    "WorkingDirectory",
    "from_provider",
]
__all__ += _define.__all__
