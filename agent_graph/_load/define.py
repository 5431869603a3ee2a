"""Providers written in Python: a typed builder whose only product is the protocol's files.

Rules of this module:

* The files are the contract. A :class:`ProviderBuilder` holds typed objects
  (Graphs, nodes, edges, Actions, resources, Skills, schemas, a Code Catalog)
  and turns them into the files a Provider folder holds, in one stable YAML
  form (:func:`~agent_graph._syntax.emit.dump_yaml`, JSON for ``.json``
  paths): the same objects always give the same bytes. ``load()`` reads those
  bytes through the loader from a :class:`~agent_graph.MemoryFileSystem`
  (nothing touches the disk) and ``write(folder)`` writes them, so a Provider
  has the same revisions, evaluations and routes whichever way it was loaded.
* A file read from a Provider (:mod:`agent_graph._load.define_import`) keeps
  its original bytes while the objects made from it are unchanged: only what
  was changed is written anew.
* Mistakes are reported where the user wrote them. Every declaration records
  the file and line of the call that made it (the first frame outside this
  package); an error the builder finds, or the loader finds in a generated
  file, is an :class:`~agent_graph.AgentGraphError` whose message starts with
  that ``file:line`` and whose diagnostic has ``path`` = that file and
  ``detail.line``.
* The loader checks everything it checks for a folder; the builder checks
  first only what it can say better (references between objects, names).
* Nothing here keeps state between builders; a builder is not shared between
  threads while it changes.

The builder's parts: :mod:`.define_objects` (files, schemas, Skills, Actions,
resources, checks, Gates), :mod:`.define_graph` (nodes, edges, Graphs, what a
Provider declares), :mod:`.define_render` (from objects to files) and
:mod:`.define_import` (a builder from a loaded Provider). This module is the
:class:`ProviderBuilder` and lists the public names (``agent_graph.define``).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .._core.errors import AgentGraphError
from .fs import inside

if TYPE_CHECKING:
    from .._core.provider import Provider
    from .reader import Limits

from .define_graph import (
    ActionNode,
    Code,
    EdgeDef,
    FrameOptions,
    GateNode,
    GraphBuilder,
    Node,
    NodeOptions,
    ProviderDeclarations,
    SubgraphNode,
    TerminalNode,
)
from .define_objects import (
    ActionDef,
    ActionOptions,
    Check,
    Checks,
    DelegatedPolicy,
    EdgeKind,
    File,
    FileResourceDef,
    FlowKind,
    GateDef,
    GraphActionResourceDef,
    HostActionResourceDef,
    Join,
    Markdown,
    NodeKind,
    Outcomes,
    Resource,
    ResourceKind,
    Runtime,
    Scalar,
    Schema,
    Site,
    Skill,
    _caller,
    agent,
    command,
    delegated,
    equals,
    exists,
    file,
    file_resource,
    gate,
    graph_action_resource,
    host,
    host_action_resource,
    json_schema,
    markdown,
    script,
    skill,
)

__all__ = [
    "ActionDef",
    "ActionNode",
    "ActionOptions",
    "Check",
    "Checks",
    "Code",
    "DelegatedPolicy",
    "EdgeDef",
    "EdgeKind",
    "File",
    "FileResourceDef",
    "FlowKind",
    "FrameOptions",
    "GateDef",
    "GateNode",
    "GraphActionResourceDef",
    "GraphBuilder",
    "HostActionResourceDef",
    "Join",
    "Markdown",
    "Node",
    "NodeKind",
    "NodeOptions",
    "Outcomes",
    "ProviderBuilder",
    "Resource",
    "ResourceKind",
    "Runtime",
    "Scalar",
    "Schema",
    "Site",
    "Skill",
    "SubgraphNode",
    "TerminalNode",
    "agent",
    "command",
    "delegated",
    "equals",
    "exists",
    "file",
    "file_resource",
    "gate",
    "graph_action_resource",
    "host",
    "host_action_resource",
    "json_schema",
    "markdown",
    "provider",
    "script",
    "skill",
]


class ProviderBuilder(ProviderDeclarations):
    """A Provider written in Python. Make one with :func:`provider` (or ``from_provider`` for an existing one).

    ``graph()`` declares a Graph; ``code()`` a Code Catalog entry; ``file()`` a
    file to write as given. ``load()`` answers the :class:`~agent_graph.Provider`
    (in memory), ``write(folder)`` writes its files, ``files()`` answers them.
    """

    def files(self, *, fresh: bool = False) -> dict[str, bytes]:
        """The Provider's files: path relative to the root → bytes, the manifest first.

        A file read from a folder (``from_provider``) keeps its bytes while its
        objects are unchanged; ``fresh=True`` writes every file in the builder's
        own form.
        """
        from .define_render import _Render

        return dict(_Render(self, fresh=fresh).run().files)

    def load(self, *, root: str = "/provider", limits: Limits | None = None, fresh: bool = False) -> Provider:
        """The Provider these files make, loaded from memory (``root`` is its folder there).

        Raises what loading the written folder would raise, located at the
        declaration in your code. ``fresh`` as for :meth:`files`.
        """
        from .define_render import _Render
        from .loader import load_provider

        rendered = _Render(self, fresh=fresh).run()
        return rendered.load(root, limits, load_provider)

    def write(
        self, folder: str | os.PathLike[str], *, replace: bool = False, fresh: bool = False
    ) -> list[str]:
        """Write the files under ``folder`` (made if missing) and answer the paths written.

        The Provider is loaded first (in memory), so nothing is written that
        would not load. A file that exists with other bytes is ``file-exists``
        unless ``replace=True``; one with the same bytes is left alone; nothing
        else in the folder is touched. All or none: a failure undoes the writes.
        ``fresh`` as for :meth:`files`.
        """
        from .atomic import FileChanges
        from .define_render import _Render
        from .loader import load_provider

        rendered = _Render(self, fresh=fresh).run()
        rendered.load("/provider", None, load_provider)
        base = os.path.abspath(os.fspath(folder))
        written: list[str] = []
        with FileChanges(label="Writing the Provider") as changes:
            real_base = os.path.realpath(base)
            for relative, data in rendered.files.items():
                target = os.path.join(base, *relative.split("/"))
                if not inside(os.path.realpath(os.path.dirname(target)), real_base):
                    raise AgentGraphError(
                        "path-symlink-outside-provider",
                        f"Cannot write {relative}: its folder leads out of {base} through a symbolic link",
                    )
                current = _read_existing(target)
                if current == data:
                    continue
                if current is None:
                    changes.create(target, data)
                elif replace:
                    changes.replace(target, data)
                else:
                    raise AgentGraphError(
                        "file-exists",
                        f"{target} exists with other content; pass replace=True to write over it",
                    )
                if rendered.executable.get(relative):
                    _make_executable(target)
                written.append(target)
        return written


def _read_existing(path: str) -> bytes | None:
    """The bytes of the file ``path`` about to be written, None if there is none (an OS error is coded)."""
    if not os.path.lexists(path):
        return None
    if not os.path.isfile(path):
        raise AgentGraphError(
            "path-is-directory", f"Cannot write {path}: something other than a file is there"
        )
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        from .._core.errors import os_error

        raise os_error(error, path, "read", writing=False) from None


def _make_executable(path: str) -> None:
    from .._core.errors import os_error

    try:
        mode = os.stat(path).st_mode
        os.chmod(path, mode | ((mode & 0o444) >> 2))
    except OSError as error:
        raise os_error(error, path, "set the mode of") from None


def provider(
    id: str,
    version: str = "0.1.0",
    *,
    name: str | None = None,
    description: str | None = None,
    agent_graph: str | None = None,
    node: str | None = None,
) -> ProviderBuilder:
    """A new Provider ``id`` at ``version``; ``agent_graph`` is the toolchain range it supports (``^0.3.0``)."""
    return ProviderBuilder(
        id=id,
        version=version,
        name=name,
        description=description,
        agent_graph=agent_graph,
        node=node,
        _site=_caller(),
    )
