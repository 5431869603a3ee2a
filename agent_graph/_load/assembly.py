"""Assembling the loaded Provider: file digests, Graph revisions and precomputed route parts.

The last step of loading (behaviour.md §4 and §7): the Provider digest over the
manifest and the digests of its file set, each Graph's closure of files and the
digest of its revision, every static resource's location with its digest, and
each Action's route ``action`` object and command plan, computed once here so
that ``route()`` only looks them up.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from .._core.canonical import digest_value, sort_collated, utf16_key
from .._core.errors import AgentGraphError
from .._core.ir import CompiledGraph
from .._core.model import Action, CodeCatalogEntry, FileLocation, Graph, ProviderManifest, RouteAction
from .._core.provider import LoadedAction, LoadedResource, NodeRoute, Provider
from .._core.route import command_plan
from .fs import OSFileSystem, contained_path
from .resources import FILE_LOCATION, LoadState


def assemble(
    state: LoadState,
    manifest: ProviderManifest,
    raw_manifest: Any,
    graphs: dict[str, tuple[str, Graph]],
    graph_files: dict[str, dict[str, None]],
    dependencies: dict[str, dict[str, None]],
    node_routes: dict[tuple[str, str], NodeRoute],
    codes: dict[str, CodeCatalogEntry],
    code_documents: dict[str, str],
    catalog_path: str | None,
    bundle: Any,
) -> Provider:
    root = state.root
    reader = state.reader
    prefix = len(root.rstrip("/")) + 1

    def rel(path: str) -> str:
        return path[prefix:]

    file_digests = {path: reader.digest(path) for path in state.files if path != state.manifest_path}
    provider_files = sorted(file_digests, key=lambda p: utf16_key(rel(p)))
    provider_digest = digest_value(
        {"manifest": raw_manifest, "files": [[rel(p), file_digests[p]] for p in provider_files]}
    )

    def graph_digest(gid: str) -> Callable[[], str]:
        """The digest of Graph ``gid``: its files and those of every Graph it calls, found when first read."""

        def make() -> str:
            files: dict[str, None] = {}
            seen = {gid}
            stack = [gid]
            while stack:
                current = stack.pop()
                files.update(graph_files[current])
                for child in dependencies[current]:
                    if child not in seen:
                        seen.add(child)
                        stack.append(child)
            relative_files = {rel(p): file_digests[p] for p in files}
            ordered = sort_collated(relative_files)
            return digest_value(
                {
                    "provider": {"id": manifest.id, "version": manifest.version},
                    "graph": gid,
                    "files": [[p, relative_files[p]] for p in ordered],
                }
            )

        return make

    # A Graph's digest covers every Graph below it: made when first read, so that loading a chain of
    # Subgraphs costs its length, not its square.
    compiled = {
        gid: CompiledGraph(graph, graph_path, digest_of=graph_digest(gid))
        for gid, (graph_path, graph) in graphs.items()
    }

    resources: dict[str, LoadedResource] = {}
    for path, resource in state.resources.items():
        location = resource.location
        if isinstance(location, FileLocation):
            location = msgspec.structs.replace(location, digest=file_digests[resource.content_path])
            resource = dataclasses.replace(resource, location=location)
        resources[path] = resource

    actions = {
        path: _finish_action(state, loaded.path, loaded.definition, file_digests)
        for path, loaded in state.actions.items()
    }

    return Provider(
        manifest=manifest,
        manifest_path=state.manifest_path,
        root=root,
        raw_manifest=raw_manifest,
        graphs=compiled,
        actions=actions,
        resources=resources,
        codes=codes,
        code_documents=code_documents,
        code_catalog_path=catalog_path,
        files=tuple(state.files),
        file_digests=file_digests,
        graph_dependencies={gid: tuple(children) for gid, children in dependencies.items()},
        digest=provider_digest,
        node_routes=node_routes,
        resources_by_id={resource.id: path for path, resource in resources.items()},
        bundle=bundle,
        file_system=None if type(state.fs) is OSFileSystem else state.fs,
    )


def _finish_action(state: LoadState, path: str, action: Action, digests: Mapping[str, str]) -> LoadedAction:
    """Precompute the route ``action`` object and command plan of one Action."""
    root = state.root
    route_error: AgentGraphError | None = None

    def schema_location(reference: str | None, direction: str) -> FileLocation | None:
        if not reference:
            return None
        resolved = contained_path(root, reference, f"{direction} schema reference")
        digest = digests.get(resolved) or state.reader.digest(resolved)
        return FileLocation(
            schema=FILE_LOCATION,
            id=f"schema.{action.id}.{direction}",
            kind="schema",
            media_type="application/schema+json",
            digest=digest,
            file_path=resolved,
        )

    skill_location: FileLocation | None = None
    route_action: RouteAction | None = None
    try:
        if action.runner == "agent" and action.skill:
            skill_path = contained_path(root, action.skill, "agent skill reference")
            metadata = state.reader.front_matter(skill_path)
            name = metadata.get("name")
            skill_location = FileLocation(
                schema=FILE_LOCATION,
                id=f"skill.{name if isinstance(name, str) else 'agent-skill'}",
                kind="skill",
                media_type="text/markdown",
                digest=digests.get(skill_path) or state.reader.digest(skill_path),
                file_path=skill_path,
            )
        route_action = RouteAction(
            id=action.id,
            runner=action.runner,
            effect=action.effect,
            skill=skill_location,
            input_schema=schema_location(action.input_schema, "input"),
            output_schema=schema_location(action.output_schema, "output"),
        )
    except AgentGraphError as error:
        route_error = error
    entry = contained_path(root, action.entry or "", "script entry") if action.runner == "script" else ""
    plan = command_plan(action, root, entry)
    return LoadedAction(
        path=path,
        definition=action,
        files=state.action_files.get(path, (path,)),
        route_action=route_action,
        plan=plan,
        route_error=route_error,
    )
