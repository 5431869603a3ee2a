"""The loaded, immutable Provider that evaluation and routing work on.

:class:`Provider` is what :func:`agent_graph.load_provider` returns. It holds
the parsed definitions, the compiled graph IR and everything ``route()`` needs
(resource locations, command-plan templates, digests), all computed at load so
that evaluation and routing do no I/O. Only the loader builds one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cache import EvaluationCache
from .errors import AgentGraphError, did_you_mean, listing, shown
from .filesystem import FileSystem
from .ir import CompiledGraph
from .model import (
    Action,
    Bundle,
    CodeCatalogEntry,
    FileLocation,
    FileResource,
    GraphActionLocation,
    GraphActionResource,
    HostActionLocation,
    HostActionResource,
    PlanStep,
    ProviderManifest,
    RouteAction,
)


@dataclass(frozen=True)
class LoadedAction:
    """An Action with its route parts precomputed.

    ``plan`` is the command plan with ``working_directory`` left empty when the
    Action runs in the workspace (filled per route); ``route_action`` is the
    route's ``action`` object without read states. ``route_error`` is a failure
    to report when the Action is routed (a Skill without front matter, say).
    """

    path: str
    definition: Action
    files: tuple[str, ...]
    route_action: RouteAction | None
    plan: tuple[PlanStep, ...]
    route_error: AgentGraphError | None = None


@dataclass(frozen=True)
class LoadedResource:
    """A static or dynamic resource with its location template."""

    path: str
    content_path: str
    id: str
    kind: str
    media_type: str
    dynamic: bool
    protocol: str
    location: FileLocation | GraphActionLocation | HostActionLocation
    #: The parsed descriptor; None for a Markdown resource with front matter.
    definition: FileResource | GraphActionResource | HostActionResource | None = None
    materializer: str | None = None
    #: For a host-action resource: its materializer's output JSON Schema, read at load.
    output_schema: Any = None


@dataclass(frozen=True)
class NodeRoute:
    """What routing a node needs beyond the IR: actions and resource lists, by key."""

    action: str | None = None
    inspection: str | None = None
    resolution: str | None = None
    delegated_resolution: str | None = None
    required: tuple[str, ...] = ()
    recommended: tuple[str, ...] = ()
    delegated_required: tuple[str, ...] | None = None
    delegated_recommended: tuple[str, ...] | None = None


@dataclass(frozen=True, eq=False)
class Provider:
    """A loaded Provider: definitions, compiled graphs and precomputed route data.

    Attributes are read-only. ``graphs`` maps Graph IDs to compiled graphs (their
    ``definition`` is the parsed :class:`~agent_graph.types.Graph`); ``actions`` and
    ``resources`` are keyed by absolute path; ``files`` is the Provider's file set
    (absolute paths) and ``file_digests`` their digests. ``file_system`` is the
    file system it was loaded from (``None``: the operating system's); every
    later read of its files (input schemas, resources, materializers' scripts,
    graph tests) goes through it, read-only, with the digests checked.
    """

    manifest: ProviderManifest
    manifest_path: str
    root: str
    raw_manifest: Mapping[str, Any]
    graphs: Mapping[str, CompiledGraph]
    actions: Mapping[str, LoadedAction]
    resources: Mapping[str, LoadedResource]
    codes: Mapping[str, CodeCatalogEntry]
    code_documents: Mapping[str, str]
    code_catalog_path: str | None
    files: tuple[str, ...]
    file_digests: Mapping[str, str]
    graph_dependencies: Mapping[str, tuple[str, ...]]
    digest: str
    node_routes: Mapping[tuple[str, str], NodeRoute] = field(default_factory=dict)
    resources_by_id: Mapping[str, str] = field(default_factory=dict)
    #: The verified bundle manifest when the Provider was loaded from a bundle's ``manifest.json``.
    bundle: Bundle | None = None
    #: The file system the Provider was loaded from (None: the operating system's); used read-only.
    file_system: FileSystem | None = field(default=None, repr=False, compare=False)
    #: What evaluations remember (bounded; never part of an answer). See :class:`EvaluationCache`.
    cache: EvaluationCache = field(default_factory=EvaluationCache, init=False, repr=False, compare=False)

    @property
    def id(self) -> str:
        """The Provider ID."""
        return self.manifest.id

    @property
    def version(self) -> str:
        """The Provider version."""
        return self.manifest.version

    @property
    def graph_digests(self) -> dict[str, str]:
        """Graph ID → digest of its dependency closure."""
        return {gid: g.digest for gid, g in self.graphs.items()}

    def hint(self, reason_code: str) -> str | None:
        """The Code Catalog summary of ``reason_code``, if the catalog has it."""
        entry = self.codes.get(reason_code)
        return entry.summary if entry is not None else None

    def graph_missing(self, graph: object) -> AgentGraphError:
        """The ``graph-missing`` error for ``graph``, listing the Graphs this Provider has."""
        name = shown(graph)
        return AgentGraphError(
            "graph-missing",
            f"Provider {self.manifest.id} has no graph {name}{did_you_mean(name, self.graphs)}; "
            f"its graphs: {listing(self.graphs)}",
        )

    def entry_missing(self, graph: str, entry: object) -> AgentGraphError:
        """The ``entry-missing`` error for ``entry`` of an existing ``graph``, listing its entries."""
        entries = list(self.graphs[graph].definition.entrypoints)
        name = shown(entry)
        return AgentGraphError(
            "entry-missing",
            f"Graph {graph} has no entry {name}{did_you_mean(name, entries)}; its entries: {listing(entries)}",
        )

    def relative(self, path: str) -> str:
        """``path`` relative to the Provider root, ``/``-separated.

        A backslash is a separator only in a root written with backslashes
        (Windows); under a ``/`` root it is part of a file's name and stays.
        """
        rest = path[len(self.root.rstrip("/\\")) + 1 :]
        return rest if "/" in self.root else rest.replace("\\", "/")

    def __repr__(self) -> str:
        return f"<Provider {self.manifest.id}@{self.manifest.version} graphs={list(self.graphs)}>"


def loaded_provider(value: object, who: str, how: str = "ag.load_provider") -> Provider:
    """``value`` when it is a loaded Provider; else ``argument-invalid``: ``{who} needs the loaded Provider ({how})``."""
    if not isinstance(value, Provider):
        raise AgentGraphError("argument-invalid", f"{who} needs the loaded Provider ({how})")
    return value
