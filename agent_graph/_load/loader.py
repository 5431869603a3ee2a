"""The Provider loader: files in, an immutable :class:`Provider` out.

Implements behaviour.md §2–§4, §7 and the loading half of §10 and §11: path
containment, parsing, schema and semantic validation in the protocol's order
of checks, the Provider's file set and digests, and everything ``route()``
needs precomputed. All storage access goes through an injected
:class:`~agent_graph.FileSystem`; nothing here evaluates graphs.

:func:`_load` is the order of loading, one function a step: opening the
manifest (here), the Code Catalog and the Graphs (here), reading files
(:mod:`.reader`), following references to Actions and resources
(:mod:`.resources`), linking nodes, reason codes and materializers
(:mod:`.linking`), and assembling the Provider (:mod:`.assembly`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import os
import posixpath
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .._core.checks import find_cycle, validate_graph_semantics
from .._core.errors import AgentGraphError
from .._core.model import Bundle, CodeCatalog, CodeCatalogEntry, Graph, ProviderManifest, SkillBinding
from .._core.provider import NodeRoute, Provider
from .._syntax.parse import DEFAULT_MAX_FILE_BYTES
from .assembly import assemble
from .bundle import check_bundle_catalogs, verify_bundle_manifest
from .cache import LoadCache, open_cache
from .fs import FileSystem, OSFileSystem, contained_path
from .linking import check_reason_codes, link_graph, link_materializers
from .reader import DEFAULT_LIMITS, Limits, Reader, convert
from .resources import LoadState, duplicate_resource, load_resource, referring
from .skill import check_binding, locate_binding

#: Registry of Provider IDs to manifest paths, for ``provider:`` Skill locators.
ProviderRegistry = Mapping[str, str]


def load_provider(
    manifest: str = "provider.yaml",
    fs: FileSystem | None = None,
    registry: ProviderRegistry | None = None,
    *,
    limits: Limits | None = None,
    max_file_bytes: int | None = None,
    cache: str | os.PathLike[str] | bool | None = None,
    pause_gc: bool = False,
) -> Provider:
    """Load and validate a Provider from its manifest (or a bundle's ``manifest.json``).

    ``fs`` is the file system to read through (the OS by default; pass a
    :class:`~agent_graph.MemoryFileSystem` to load from memory). ``registry``
    maps Provider IDs to manifest paths for ``provider:`` Skill locators when
    ``manifest`` names a ``SKILL.md``. ``limits`` (a :class:`Limits`) bounds file
    sizes, nesting, aliases, nodes and files; ``max_file_bytes`` is a shortcut
    for its first field. Every failure raises
    :class:`~agent_graph.AgentGraphError` with the protocol's code.

    Nothing is written unless asked. ``cache`` opts in to keeping parsed and
    schema-checked file contents between loads, keyed by the digests of the
    files' bytes (every file is still read on every load): a directory path, or
    ``True`` for the platform cache directory; ``None`` or ``False`` (the
    default) keeps nothing. It never changes an answer, but whoever can write
    the cache folder can change what a Provider loads as: see
    :mod:`agent_graph._load.cache` and docs/security.md.

    ``pause_gc=True`` pauses Python's cyclic garbage collector while loading
    (restored after, errors included). It is process-wide, so it is off by
    default; it pays for very large Providers (the command line uses it).
    """
    if pause_gc:
        with collector_paused():
            return _load(manifest, fs, registry, limits=limits, max_file_bytes=max_file_bytes, cache=cache)
    return _load(manifest, fs, registry, limits=limits, max_file_bytes=max_file_bytes, cache=cache)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector, and restore its state after (errors included).

    Loading a large Provider allocates objects by the hundred thousand and makes
    no garbage cycles; a full collection in the middle would walk every object
    of the process again. Only used when the caller asks (``pause_gc=True``).
    """
    enabled = gc.isenabled()
    if enabled:
        gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _load(
    manifest: str,
    fs: FileSystem | None,
    registry: ProviderRegistry | None,
    *,
    limits: Limits | None,
    max_file_bytes: int | None,
    cache: str | os.PathLike[str] | bool | None,
) -> Provider:
    """The order of loading (behaviour.md §7): each step below is one function, called in this order."""
    limits = limits or DEFAULT_LIMITS
    if max_file_bytes is not None:
        limits = dataclasses.replace(limits, max_file_bytes=max_file_bytes)
    opened = _open_manifest(manifest, fs or OSFileSystem(), registry, limits, open_cache(cache))
    state, provider_manifest = opened.state, opened.manifest
    codes, code_documents, catalog_path = _load_code_catalog(state, provider_manifest)
    graphs, graph_files = _load_graphs(state, provider_manifest)
    dependencies: dict[str, dict[str, None]] = {}
    node_routes: dict[tuple[str, str], NodeRoute] = {}
    for graph_id, (graph_path, graph) in graphs.items():
        dependencies[graph_id] = link_graph(
            state, graph_id, graph_path, graph, graphs, graph_files[graph_id], node_routes
        )
    cycle = find_cycle(list(dependencies), {k: list(v) for k, v in dependencies.items()})
    if cycle is not None:
        parent_path, parent = graphs[cycle[-2]]
        index = next(i for i, n in enumerate(parent.nodes) if n.kind == "subgraph" and n.graph == cycle[-1])
        raise state.reader.error_at(
            "graph-recursion",
            f"Cross-graph recursion is not allowed: {' -> '.join(cycle)}",
            parent_path,
            f"/nodes/{index}/graph",
        )
    if catalog_path is not None:
        check_reason_codes(state, graphs, codes)
    link_materializers(state, graph_files)
    provider = assemble(
        state,
        provider_manifest,
        opened.raw_manifest,
        graphs,
        graph_files,
        dependencies,
        node_routes,
        codes,
        code_documents,
        catalog_path,
        opened.bundle,
    )
    if opened.bundle is not None:
        check_bundle_catalogs(opened.bundle, provider)
    if opened.binding is not None:
        binding = opened.binding
        check_binding(provider, binding[0], binding[1], binding[2], binding[3], state.fs)
    state.reader.flush()
    return provider


@dataclass
class _Opened:
    """What opening the manifest gives: the loading state, the Provider manifest, a bundle, a Skill binding."""

    state: LoadState
    manifest: ProviderManifest
    raw_manifest: Any
    bundle: Bundle | None
    binding: tuple[str, str, str, str, str] | None


def _open_manifest(
    manifest: str, fs: FileSystem, registry: ProviderRegistry | None, limits: Limits, store: LoadCache | None
) -> _Opened:
    """Step 1: follow a ``SKILL.md`` binding or a bundle's ``manifest.json`` to the Provider manifest, and read it."""
    initial = fs.absolute(manifest)
    binding: tuple[str, str, str, str, str] | None = None
    if initial.lower().endswith(".md"):
        binding = locate_binding(initial, registry, fs=fs, max_file_bytes=limits.max_file_bytes)
        initial = binding[4]
    bootstrap = Reader(fs, posixpath.dirname(initial), limits, store)
    bootstrap.ensure_file(initial, "provider manifest")
    bundle = None
    manifest_path = initial
    parsed_initial = bootstrap.structured(initial)
    if isinstance(parsed_initial, dict) and parsed_initial.get("schema") == "agent-graph.bundle.v1":
        bundle, manifest_path = verify_bundle_manifest(bootstrap, initial, parsed_initial)
        bootstrap.ensure_file(manifest_path, "provider manifest")
    root = posixpath.dirname(manifest_path)
    reader = Reader(fs, root, limits, store)
    reader.take_over(bootstrap)
    raw_manifest = parsed_initial if manifest_path == initial else reader.structured(manifest_path)
    reader.validate("provider", raw_manifest, manifest_path)
    provider_manifest: ProviderManifest = convert(raw_manifest, ProviderManifest, manifest_path)
    if bundle is not None and (
        bundle.provider.id != provider_manifest.id or bundle.provider.version != provider_manifest.version
    ):
        raise AgentGraphError(
            "bundle-provider-mismatch",
            f"Bundle identifies {bundle.provider.id}@{bundle.provider.version}, but its Provider manifest "
            f"identifies {provider_manifest.id}@{provider_manifest.version}",
        )
    state = LoadState(fs=fs, root=root, reader=reader, manifest_path=manifest_path)
    state.add_file(manifest_path)
    return _Opened(state, provider_manifest, raw_manifest, bundle, binding)


def _read_referenced(
    state: LoadState, reference: str, kind: str, named_by: str, pointer: str
) -> tuple[str, Any]:
    """The path and parsed document of the ``kind`` file the manifest names at ``pointer``: inside the root, no link out.

    A file that cannot be followed or read is reported as ``named_by`` the manifest at ``pointer``.
    """
    reader = state.reader
    with referring(reader.placed(named_by, state.manifest_path, pointer)):
        path = contained_path(state.root, reference, f"{kind} reference")
        reader.ensure_contained(path, kind)
        return path, reader.structured(path)


def _load_code_catalog(
    state: LoadState, provider_manifest: ProviderManifest
) -> tuple[dict[str, CodeCatalogEntry], dict[str, str], str | None]:
    """Step 2: the Code Catalog, its codes once each, and each code's static document resource."""
    reader, root = state.reader, state.root
    codes: dict[str, CodeCatalogEntry] = {}
    code_documents: dict[str, str] = {}
    catalog_path: str | None = None
    if provider_manifest.catalogs is not None and provider_manifest.catalogs.codes:
        catalog_path, raw_catalog = _read_referenced(
            state,
            provider_manifest.catalogs.codes,
            "code catalog",
            "named by catalogs.codes",
            "/catalogs/codes",
        )
        reader.validate("code-catalog", raw_catalog, catalog_path)
        catalog: CodeCatalog = convert(raw_catalog, CodeCatalog, catalog_path)
        for index, entry in enumerate(catalog.codes):
            if entry.code in codes:
                raise reader.error_at(
                    "code-catalog-code-duplicate",
                    f"Code catalog contains duplicate code: {entry.code}",
                    catalog_path,
                    f"/codes/{index}/code",
                )
            codes[entry.code] = entry
        state.add_file(catalog_path)
        for index, entry in enumerate(catalog.codes):
            if not entry.document:
                continue
            document = f"the document of code {entry.code}"
            with referring(reader.placed(document, catalog_path, f"/codes/{index}/document")):
                document_path = contained_path(root, entry.document, "code document reference")
                resource = state.resources.get(document_path) or load_resource(state, entry.document)
            if document_path not in state.resources:
                previous = state.resource_ids.get(resource.id)
                if previous is not None and previous != resource.path:
                    raise duplicate_resource(state, resource, previous)
                if resource.dynamic:
                    raise reader.error_at(
                        "code-document-dynamic",
                        f"Code {entry.code} must reference a static document resource",
                        catalog_path,
                        f"/codes/{index}/document",
                    )
                state.resource_ids[resource.id] = resource.path
                state.resources[resource.path] = resource
                state.add_file(resource.path)
                state.add_file(resource.content_path)
            code_documents[entry.code] = document_path

    return codes, code_documents, catalog_path


def _load_graphs(
    state: LoadState, provider_manifest: ProviderManifest
) -> tuple[dict[str, tuple[str, Graph]], dict[str, dict[str, None]]]:
    """Step 3: the Graphs, in manifest order: size limit, schema, semantics, IDs once each."""
    reader, limits = state.reader, state.reader.limits
    graphs: dict[str, tuple[str, Graph]] = {}
    graph_files: dict[str, dict[str, None]] = {}
    for index, reference in enumerate(provider_manifest.graphs):
        graph_path, raw_graph = _read_referenced(
            state,
            reference,
            "graph",
            "listed under graphs",
            f"/graphs/{index}",
        )
        nodes_value = raw_graph.get("nodes") if isinstance(raw_graph, dict) else None
        if isinstance(nodes_value, list) and len(nodes_value) > limits.max_nodes:
            raise AgentGraphError(
                "graph-too-large",
                f"{reader.display(graph_path)} has {len(nodes_value)} nodes, over the limit of {limits.max_nodes}",
            )
        reader.validate("graph", raw_graph, graph_path)
        graph: Graph = convert(raw_graph, Graph, graph_path)
        try:
            validate_graph_semantics(graph)
        except AgentGraphError as error:
            raise reader.located(error, graph_path) from None
        if graph.id in graphs:
            raise reader.error_at(
                "graph-id-duplicate",
                f"Provider {provider_manifest.id} contains duplicate graph id: {graph.id} "
                f"(also declared by {reader.display(graphs[graph.id][0])})",
                graph_path,
                "/id",
            )
        graphs[graph.id] = (graph_path, graph)
        graph_files[graph.id] = {graph_path: None}
        state.add_file(graph_path)

    return graphs, graph_files


def resolve_skill_binding(
    skill_md: str,
    registry: Mapping[str, str] | None = None,
    *,
    fs: FileSystem | None = None,
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
) -> SkillBinding:
    """Resolve a ``SKILL.md`` binding: load its Provider and check the Graph and Entry exist.

    ``registry`` maps Provider IDs to manifest paths for ``provider:`` locators.
    Codes: ``skill-binding-missing``, ``skill-locator-invalid``,
    ``skill-locator-absolute``, ``provider-unresolved``, ``provider-id-mismatch``,
    ``skill-graph-missing``, ``skill-entry-missing`` (and any load error).
    """
    fs = fs or OSFileSystem()
    path, locator, graph, entry, manifest_path = locate_binding(
        skill_md, registry, fs=fs, max_file_bytes=max_file_bytes
    )
    provider = load_provider(manifest_path, fs=fs, max_file_bytes=max_file_bytes)
    check_binding(provider, path, locator, graph, entry, fs)
    return SkillBinding(
        schema="agent-graph.skill-binding.v1",
        skill_path=path,
        locator=locator,
        graph=graph,
        entry=entry,
        manifest_path=manifest_path,
        provider=provider.manifest.id,
    )
