"""A loaded Provider back as a builder: ``from_provider(provider)``.

Rules of this module:

* Every file is read again through the file system the Provider was loaded
  from, its digest checked against the one it was loaded with
  (``resource-digest-mismatch`` when it changed since).
* Each object of the builder remembers the file it came from and that file's
  bytes; writing the builder keeps those bytes for every object that was not
  changed, so a Provider read and written again has the same revisions.
* Files of the Provider folder that are not part of the Provider's file set
  (graph tests, entry Skills, a README) come along as they are, unless
  ``extras=False``; hidden files and folders holding a Provider of their own are
  left out.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable
from typing import Any, TypeVar

from .._core.errors import AgentGraphError
from .._core.provider import Provider, loaded_provider
from .._syntax.parse import parse_front_matter, parse_structured
from .define import (
    ActionDef,
    ActionNode,
    Check,
    Code,
    DelegatedPolicy,
    EdgeDef,
    File,
    FileResourceDef,
    GateDef,
    GateNode,
    GraphActionResourceDef,
    GraphBuilder,
    HostActionResourceDef,
    Markdown,
    Node,
    ProviderBuilder,
    Resource,
    Schema,
    Skill,
    SubgraphNode,
    TerminalNode,
)
from .define_objects import _Origin, _Stored
from .define_render import _Render
from .files import on_disk, provider_file_system, read_provider_file

__all__ = ["from_provider"]

_DESCRIPTOR_SUFFIXES = (".yaml", ".yml", ".json")
_S = TypeVar("_S", bound=_Stored)
_MANIFEST_NAMES = frozenset({"provider.yaml", "provider.yml", "provider.json", "manifest.json"})
#: At most this many files of the Provider folder come along beside the file set.
MAX_EXTRA_FILES = 10_000


def from_provider(provider: Provider, *, extras: bool = True) -> ProviderBuilder:
    """A builder holding ``provider``: its Graphs, Actions, resources, Skills, schemas and Code Catalog as objects.

    Change what you want and ``write()`` it: every file whose objects did not
    change keeps its bytes. ``extras=False`` leaves out the files of the
    Provider folder outside its file set (graph tests, entry Skills, notes).
    """
    loaded_provider(provider, "from_provider")
    return _Importer(provider, extras).run()


def _checks(raw: Any) -> list[Check] | None:
    if raw is None:
        return None
    checks = []
    for item in raw:
        if "equals" in item:
            checks.append(Check(item["path"], equals=item["equals"], compares=True))
        else:
            checks.append(Check(item["path"], exists=item["exists"]))
    return checks


class _Importer:
    def __init__(self, provider: Provider, extras: bool) -> None:
        self.provider = provider
        self.extras = extras
        self.root = provider.root.rstrip("/") or "/"
        self.claimed: set[str] = set()
        self.actions: dict[str, ActionDef] = {}
        self.resources: dict[str, Resource] = {}
        self.skills: dict[str, Skill] = {}
        self.schemas: dict[str, Schema] = {}
        self.files: dict[str, File] = {}
        self.bytes: dict[str, bytes] = {}

    # ------------------------------------------------------------ reading

    def relative(self, reference: str) -> str:
        return posixpath.normpath(reference)

    def absolute(self, relative: str) -> str:
        return posixpath.join(self.root, relative) if self.root != "/" else "/" + relative

    def read(self, relative: str) -> bytes:
        data = self.bytes.get(relative)
        if data is None:
            data = read_provider_file(self.provider, self.absolute(relative), relative, None)
            self.bytes[relative] = data
        self.claimed.add(relative)
        return data

    def structured(self, relative: str) -> Any:
        return parse_structured(self.read(relative), relative)

    def origin(self, relative: str) -> _Origin:
        return _Origin(relative, self.read(relative))

    def executable(self, relative: str) -> bool:
        if not on_disk(self.provider):
            return False
        try:
            return bool(os.stat(self.absolute(relative)).st_mode & 0o100)
        except OSError:
            return False

    def file(self, reference: str) -> File:
        relative = self.relative(reference)
        made = self.files.get(relative)
        if made is None:
            made = File(relative, self.read(relative), self.executable(relative))
            self.files[relative] = made
        return made

    # ------------------------------------------------------------ the Provider

    def run(self) -> ProviderBuilder:
        provider = self.provider
        raw = dict(provider.raw_manifest)
        compatibility = raw.get("compatibility") or {}
        builder = ProviderBuilder(
            id=raw["id"],
            version=raw["version"],
            name=raw.get("name"),
            description=raw.get("description"),
            agent_graph=compatibility.get("agentGraph"),
            node=compatibility.get("node"),
            _site=None,
        )
        manifest = posixpath.relpath(provider.manifest_path, self.root)
        builder.manifest_path = manifest
        builder._origin = _Origin(manifest, self.manifest_bytes(manifest))
        self.claimed.add(manifest)
        catalog = (raw.get("catalogs") or {}).get("codes")
        if catalog is not None:
            self.catalog(builder, self.relative(catalog))
        for reference in raw["graphs"]:
            self.graph(builder, self.relative(reference))
        for graph in builder.graphs.values():
            for node in graph.nodes.values():
                if isinstance(node, SubgraphNode) and isinstance(node.target, str):
                    node.target = builder.graphs.get(node.target, node.target)
        for path in provider.files:
            relative = posixpath.relpath(path, self.root)
            if relative not in self.claimed:
                builder.extra_files[relative] = self.file(relative)
        if self.extras:
            self.folder_files(builder)
        _Render(builder, snapshot=True).run()
        return builder

    def manifest_bytes(self, relative: str) -> bytes:
        fs = provider_file_system(self.provider)
        path = self.absolute(relative)
        try:
            return fs.read_bytes(path)
        except OSError as error:
            from .._core.errors import os_error

            raise os_error(error, path, "read the provider manifest", writing=False) from None

    def folder_files(self, builder: ProviderBuilder) -> None:
        """The files of the Provider folder outside its file set, as they are."""
        fs = provider_file_system(self.provider)
        try:
            found = fs.list_files(self.root)
        except OSError:
            return
        nested = {
            posixpath.dirname(relative)
            for relative in (posixpath.relpath(p, self.root) for p in found)
            if posixpath.basename(relative) in _MANIFEST_NAMES
            and posixpath.dirname(relative) not in ("", ".")
        }
        taken = 0
        for path in found:
            relative = posixpath.relpath(path, self.root)
            parts = relative.split("/")
            if relative in self.claimed or relative in builder.extra_files or parts[0] == "..":
                continue
            if any(part.startswith(".") for part in parts):
                continue
            if any("/".join(parts[:i]) in nested for i in range(1, len(parts))):
                continue
            taken += 1
            if taken > MAX_EXTRA_FILES:
                break
            try:
                data = fs.read_bytes(path)
            except OSError:
                continue
            builder.extra_files[relative] = File(relative, data, self.executable(relative))

    def catalog(self, builder: ProviderBuilder, relative: str) -> None:
        raw = self.structured(relative)
        builder.catalog_path = relative
        builder._catalog_origin = self.origin(relative)
        for entry in raw.get("codes", []):
            document = entry.get("document")
            builder.codes[entry["code"]] = Code(
                entry["code"],
                entry["summary"],
                entry["kind"],
                entry.get("severity"),
                self.resource(document) if document is not None else None,
            )

    # ------------------------------------------------------------ Graphs

    def graph(self, builder: ProviderBuilder, relative: str) -> None:
        raw = self.structured(relative)
        graph = GraphBuilder(builder, raw["id"], raw.get("description"), relative, None)
        graph._origin = self.origin(relative)
        builder.graphs[graph.id] = graph
        for item in raw["nodes"]:
            node = self.node(graph, item)
            graph.nodes.setdefault(node.id, node)
        for item in raw["edges"]:
            graph.edges.append(
                EdgeDef(
                    graph.nodes[item["from"]],
                    graph.nodes[item["to"]],
                    item.get("kind"),
                    list(item["outcomes"]) if "outcomes" in item else None,
                )
            )
        for name, target in raw["entrypoints"].items():
            graph.entrypoints[name] = graph.nodes.get(target, target)

    def node(self, graph: GraphBuilder, raw: dict[str, Any]) -> Node:
        common: dict[str, Any] = {
            "description": raw.get("description"),
            "priority": raw.get("priority"),
            "join": raw.get("join"),
            "reason": raw.get("reasonCode"),
            "requires_facts": _checks(raw.get("requiresFacts")),
            "proof": _checks(raw.get("satisfiedBy")),
        }
        resources = raw.get("resources")
        if resources is not None:
            common["required"] = self.resource_list(resources.get("required"))
            common["recommended"] = self.resource_list(resources.get("recommended"))
        kind = raw["kind"]
        if kind == "action":
            return ActionNode(raw["id"], graph, **common, action=self.action(raw["action"]))
        if kind == "gate":
            spec = raw["gate"]
            policy = raw.get("delegated")
            delegated = None
            if policy is not None:
                refs = policy.get("resources")
                resolution = policy.get("resolutionAction")
                delegated = DelegatedPolicy(
                    policy.get("inspection"),
                    self.action(resolution) if resolution is not None else None,
                    self.resource_list(refs.get("required")) if refs is not None else None,
                    self.resource_list(refs.get("recommended")) if refs is not None else None,
                )
                if refs is not None and refs.get("required") is None and refs.get("recommended") is None:
                    delegated.required = []  # ``resources: {}`` is written as ``{required: []}`` once changed
            inspection = raw.get("inspectionAction")
            resolution = raw.get("resolutionAction")
            return GateNode(
                raw["id"],
                graph,
                **common,
                gate=GateDef(spec["id"], spec["prompt"], spec.get("authority"), spec.get("delegatable")),
                inspection=self.action(inspection) if inspection is not None else None,
                resolution=self.action(resolution) if resolution is not None else None,
                delegated=delegated,
            )
        if kind == "subgraph":
            return SubgraphNode(raw["id"], graph, **common, target=raw["graph"], entry=raw["entry"])
        return TerminalNode(raw["id"], graph, **common, outcome=raw["terminalOutcome"])

    def resource_list(self, refs: Any) -> list[Resource] | None:
        return [self.resource(ref) for ref in refs] if refs is not None else None

    # ------------------------------------------------------------ Actions

    def stored(self, table: dict[str, _S], reference: str, make: Callable[[str], _S]) -> _S:
        """The object of the file ``reference`` names: ``make(relative path)`` on first use, with its bytes."""
        relative = self.relative(reference)
        known = table.get(relative)
        if known is None:
            known = make(relative)
            known._origin = self.origin(relative)
            table[relative] = known
        return known

    def action(self, reference: str) -> ActionDef:
        return self.stored(self.actions, reference, self._action)

    def _action(self, relative: str) -> ActionDef:
        raw = self.structured(relative)
        return ActionDef(
            raw["runner"],
            raw["effect"],
            id=raw["id"],
            description=raw.get("description"),
            command=raw.get("command"),
            entry=self.file(raw["entry"]) if "entry" in raw else None,
            runtime=raw.get("runtime"),
            args=list(raw["args"]) if "args" in raw else None,
            handler=raw.get("handler"),
            skill=self.skill(raw["skill"]) if "skill" in raw else None,
            cwd=raw.get("cwd"),
            files=[self.file(f) for f in raw["files"]] if "files" in raw else None,
            input_schema=self.schema(raw["inputSchema"]) if "inputSchema" in raw else None,
            output_schema=self.schema(raw["outputSchema"]) if "outputSchema" in raw else None,
            path=relative,
        )

    def schema(self, reference: str) -> Schema:
        return self.stored(
            self.schemas, reference, lambda relative: Schema(self.structured(relative), path=relative)
        )

    def skill(self, reference: str) -> Skill:
        return self.stored(self.skills, reference, self._skill)

    def _skill(self, relative: str) -> Skill:
        text = self.read(relative).decode("utf-8", errors="replace")
        try:
            header, body = parse_front_matter(text, relative)
        except AgentGraphError:  # the Provider loads; routing its Action reports the Skill
            header, body = {}, text
        folder = posixpath.dirname(relative)
        files: dict[str, bytes] = {}
        if folder:
            for path in self.provider.files:
                member = posixpath.relpath(path, self.root)
                if member.startswith(folder + "/") and member != relative:
                    files[member[len(folder) + 1 :]] = self.read(member)
        metadata = header.get("metadata")
        return Skill(
            str(header.get("name", "")),
            str(header.get("description", "")),
            body,
            files,
            dict(metadata) if isinstance(metadata, dict) else None,
            dict(header),
            path=relative,
        )

    # ------------------------------------------------------------ resources

    def resource(self, reference: str) -> Resource:
        return self.stored(self.resources, reference, self._resource)

    def _resource(self, relative: str) -> Resource:
        made: Resource
        raw: Any = None
        if relative.lower().endswith(_DESCRIPTOR_SUFFIXES):
            raw = self.structured(relative)
        schema = raw.get("schema") if isinstance(raw, dict) else None
        if schema == "agent-graph.resource.file.v1":
            made = FileResourceDef(
                raw["id"],
                raw["kind"],
                raw["mediaType"],
                self.file(raw["path"]),
                raw.get("description"),
                path=relative,
            )
        elif schema == "agent-graph.resource.graph-action.v1":
            made = GraphActionResourceDef(
                raw["id"],
                raw["mediaType"],
                self.action(raw["materializer"]),
                raw["kind"],
                raw.get("description"),
                path=relative,
            )
        elif schema == "agent-graph.resource.host-action.v1":
            made = HostActionResourceDef(
                raw["id"],
                raw["mediaType"],
                self.action(raw["materializer"]),
                raw["input"].get("value"),
                raw["input"]["schema"],
                raw["kind"],
                raw.get("description"),
                path=relative,
            )
        else:
            text = self.read(relative).decode("utf-8", errors="replace")
            header, body = parse_front_matter(text, relative)
            media = header.get("media-type", header.get("mediaType"))
            made = Markdown(header["id"], header["kind"], body, media, dict(header), path=relative)
        return made
