"""Linking a Provider's Graphs: the steps of behaviour.md §7 that join one file to another.

Per Graph and node, in order: Subgraphs and their entries, Actions, Gate rules
(a read-only inspection, a delegated policy only where delegatable, resolutions
that write) and node resources, recorded as each node's :class:`NodeRoute`;
then, with a Code Catalog, the route-reason code of every Action and Gate; then
the materializer Action of every dynamic resource. Each step fails at the first
broken rule, placed at ``file:line:column``.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Callable, Mapping
from typing import Any

from .._core.checks import closest_names
from .._core.errors import AgentGraphError, ErrorCode
from .._core.model import CodeCatalogEntry, Graph, Node
from .._core.provider import LoadedAction, NodeRoute
from .resources import (
    LoadState,
    Where,
    action_files,
    check_host_materializer,
    include_action,
    include_resource,
    load_action_definition,
    referring,
)


def _node_resource_refs(refs: Any) -> tuple[str, ...]:
    return tuple(refs) if refs else ()


def link_graph(
    state: LoadState,
    graph_id: str,
    graph_path: str,
    graph: Graph,
    graphs: Mapping[str, tuple[str, Graph]],
    direct: dict[str, None],
    node_routes: dict[tuple[str, str], NodeRoute],
) -> dict[str, None]:
    """Step 4, per Graph and node: Subgraphs, Actions, Gate rules and resources; the Graph's Subgraph IDs."""
    children: dict[str, None] = {}
    used_resources: dict[str, None] = {}
    reader = state.reader
    for index, node in enumerate(graph.nodes):

        def where(field: str, node_id: str = node.id, index: int = index) -> Where:
            return reader.placed(
                f"referenced by node {node_id} of graph {graph_id}", graph_path, f"/nodes/{index}/{field}"
            )

        action_key = inspection_key = resolution_key = delegated_key = None
        if node.kind == "subgraph":
            child_id = node.graph or ""
            child = graphs.get(child_id)
            if child is None:
                raise reader.error_at(
                    "subgraph-missing",
                    f"Graph {graph_id} node {node.id} references missing subgraph {child_id}"
                    + _unlisted_graph(state, child_id, graphs),
                    graph_path,
                    f"/nodes/{index}/graph",
                )
            if (node.entry or "") not in child[1].entrypoints:
                raise reader.error_at(
                    "subgraph-entry-missing",
                    f"Graph {graph_id} node {node.id} references missing entry {child_id}#{node.entry}"
                    + closest_names(node.entry or "", child[1].entrypoints, f"entries of graph {child_id}"),
                    graph_path,
                    f"/nodes/{index}/entry",
                )
            children[child_id] = None
        if node.kind == "action" and node.action:
            action_key, _ = include_action(
                state, node.action, direct, "action referenced file", where("action")
            )
        if node.kind == "gate":
            inspection_key, resolution_key, delegated_key = _link_gate(
                state, graph_id, graph_path, index, node, direct, where
            )
        required: tuple[str, ...] = ()
        recommended: tuple[str, ...] = ()
        delegated_required: tuple[str, ...] | None = None
        delegated_recommended: tuple[str, ...] | None = None
        if node.kind in ("action", "gate"):
            references: list[tuple[str, str]] = []
            if node.resources is not None:
                required = _node_resource_refs(node.resources.required)
                recommended = _node_resource_refs(node.resources.recommended)
                references.extend((f"resources/required/{i}", r) for i, r in enumerate(required))
                references.extend((f"resources/recommended/{i}", r) for i, r in enumerate(recommended))
            if node.delegated is not None and node.delegated.resources is not None:
                delegated_required = _node_resource_refs(node.delegated.resources.required)
                delegated_recommended = _node_resource_refs(node.delegated.resources.recommended)
                references.extend(
                    (f"delegated/resources/required/{i}", r) for i, r in enumerate(delegated_required)
                )
                references.extend(
                    (f"delegated/resources/recommended/{i}", r) for i, r in enumerate(delegated_recommended)
                )
            keys: dict[str, tuple[str, ...]] = {}
            for field_name, reference in references:
                resource = include_resource(state, reference, where(field_name))
                keys[reference] = (resource.path,)
                direct[resource.path] = None
                direct[resource.content_path] = None
                used_resources[resource.path] = None

            def resolve(refs: tuple[str, ...] | None, keys: dict[str, tuple[str, ...]] = keys) -> Any:
                return None if refs is None else tuple(keys[r][0] for r in refs)

            required = resolve(required)
            recommended = resolve(recommended)
            delegated_required = resolve(delegated_required)
            delegated_recommended = resolve(delegated_recommended)
        node_routes[(graph_id, node.id)] = NodeRoute(
            action=action_key,
            inspection=inspection_key,
            resolution=resolution_key,
            delegated_resolution=delegated_key,
            required=required,
            recommended=recommended,
            delegated_required=delegated_required,
            delegated_recommended=delegated_recommended,
        )
    return children


def _unlisted_graph(state: LoadState, graph_id: str, graphs: Mapping[str, tuple[str, Graph]]) -> str:
    """The end of a ``subgraph-missing`` message: a graph file with this ID the manifest does not list, or the
    closest listed Graph IDs.

    Looks (only when loading has already failed) at the structured files in the Provider root and in the
    folders of the listed Graphs.
    """
    reader = state.reader
    folders = dict.fromkeys([state.root, *(posixpath.dirname(path) for path, _ in graphs.values())])
    listed = {path for path, _ in graphs.values()}
    for folder in folders:
        try:
            names = [p for p in state.fs.list_files(folder) if posixpath.dirname(p) == folder]
        except OSError:
            continue
        for candidate in names[:1000]:
            if candidate in listed or not candidate.lower().endswith((".yaml", ".yml", ".json")):
                continue
            try:
                value = reader.structured(candidate)
            except AgentGraphError:
                continue
            if (
                isinstance(value, dict)
                and value.get("schema") == "agent-graph.graph.v1"
                and value.get("id") == graph_id
            ):
                return (
                    f"; {reader.display(candidate)} declares graph {graph_id} but is not listed under graphs "
                    f"in {reader.display(state.manifest_path)}: add it there"
                )
    return closest_names(graph_id, graphs, f"graphs listed in {reader.display(state.manifest_path)}")


def _link_gate(
    state: LoadState,
    graph_id: str,
    graph_path: str,
    index: int,
    node: Node,
    direct: dict[str, None],
    where: Callable[[str], Where],
) -> tuple[str | None, str | None, str | None]:
    """A Gate's Actions and rules: a read-only inspection, a delegated policy only where delegatable, resolutions
    that write; the keys of its inspection, resolution and delegated resolution Actions."""
    inspection_key = resolution_key = delegated_key = None
    gate = node.gate
    reader = state.reader

    def fail(code: ErrorCode, message: str, field: str) -> AgentGraphError:
        return reader.error_at(code, message, graph_path, f"/nodes/{index}/{field}")

    if node.inspection_action:
        inspection_key, inspection = include_action(
            state,
            node.inspection_action,
            direct,
            "gate inspection action referenced file",
            where("inspectionAction"),
        )
        if inspection.effect != "read":
            raise fail(
                "gate-inspection-effect-invalid",
                f"Gate {graph_id}/{node.id} inspection Action {inspection.id} must use effect: read",
                "inspectionAction",
            )
    if node.delegated is not None:
        if not (gate is not None and gate.delegatable is True and gate.authority):
            raise fail(
                "gate-delegated-policy-invalid",
                f"Gate {graph_id}/{node.id} declares a delegated policy but is not delegatable "
                "with an authority",
                "delegated",
            )
        if node.delegated.inspection == "skip" and not node.inspection_action:
            raise fail(
                "gate-delegated-inspection-missing",
                f"Gate {graph_id}/{node.id} skips inspection on its delegated route "
                "but declares no inspectionAction",
                "delegated/inspection",
            )
    if node.resolution_action:
        resolution_key, resolution = include_action(
            state,
            node.resolution_action,
            direct,
            "gate resolution action referenced file",
            where("resolutionAction"),
        )
        if resolution.effect == "read":
            raise fail(
                "gate-resolution-effect-invalid",
                f"Gate {graph_id}/{node.id} resolution Action {resolution.id} must use effect: write or external",
                "resolutionAction",
            )
    if node.delegated is not None and node.delegated.resolution_action:
        delegated_key, delegated_action = include_action(
            state,
            node.delegated.resolution_action,
            direct,
            "gate resolution action referenced file",
            where("delegated/resolutionAction"),
        )
        if delegated_action.effect == "read":
            raise fail(
                "gate-resolution-effect-invalid",
                f"Gate {graph_id}/{node.id} delegated resolution Action {delegated_action.id} "
                "must use effect: write or external",
                "delegated/resolutionAction",
            )
    return inspection_key, resolution_key, delegated_key


def check_reason_codes(
    state: LoadState, graphs: Mapping[str, tuple[str, Graph]], codes: Mapping[str, CodeCatalogEntry]
) -> None:
    """Step 5, with a Code Catalog: every Action and Gate names a route-reason code of it."""
    reader = state.reader
    for graph_id, (graph_path, graph) in graphs.items():
        for index, node in enumerate(graph.nodes):
            if node.kind not in ("action", "gate"):
                continue
            catalog_entry = codes.get(node.reason_code or "")
            if catalog_entry is None:
                reasons = [code for code, entry in codes.items() if entry.kind == "route-reason"]
                raise reader.error_at(
                    "route-reason-code-missing",
                    f"Graph {graph_id} node {node.id} reasonCode is not declared by the Provider code catalog: "
                    f"{node.reason_code}"
                    + closest_names(node.reason_code or "", reasons, "route-reason codes"),
                    graph_path,
                    f"/nodes/{index}/reasonCode",
                )
            if catalog_entry.kind != "route-reason":
                raise reader.error_at(
                    "route-reason-code-kind-invalid",
                    f"Graph {graph_id} node {node.id} reasonCode must use a route-reason catalog entry: "
                    f"{node.reason_code} is a {catalog_entry.kind} code",
                    graph_path,
                    f"/nodes/{index}/reasonCode",
                )


def link_materializers(state: LoadState, graph_files: Mapping[str, dict[str, None]]) -> None:
    """Step 6: the materializer Action of every dynamic resource, checked and added to the file sets."""
    reader = state.reader
    for resource_path, resource in list(state.resources.items()):
        if not resource.dynamic or resource.materializer is None:
            continue
        materializer = f"the materializer of resource {resource.id}"
        with referring(reader.placed(materializer, resource.path, "/materializer")):
            action_path, action = load_action_definition(state, resource.materializer)
        if action_path not in state.actions:
            state.actions[action_path] = LoadedAction(
                path=action_path, definition=action, files=(), route_action=None, plan=()
            )
            state.add_file(action_path)
        if action.effect != "read":
            raise reader.error_at(
                "materializer-effect-invalid",
                f"Resource materializer {action.id} of resource {resource.id} must have effect: read",
                action_path,
                "/effect",
            )
        if resource.protocol == "agent-graph.resource.host-action.v1":
            materializer_files = action_files(state, action_path, action, "materializer referenced file")
            state.resources[resource_path] = check_host_materializer(state, resource, action_path, action)
        else:
            if action.runner not in ("command", "script"):
                raise reader.error_at(
                    "materializer-runner-invalid",
                    f"Resource materializer {action.id} of resource {resource.id} must use command or script runner",
                    action_path,
                    "/runner",
                )
            materializer_files = action_files(state, action_path, action, "materializer referenced file")
            state.resources[resource_path] = dataclasses.replace(resource, materializer=action_path)
        for file in materializer_files:
            state.add_file(file)
        for direct in graph_files.values():
            if resource.path in direct:
                for file in materializer_files:
                    direct[file] = None
