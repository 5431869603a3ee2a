"""From a Python-written Provider to its files: one stable YAML form (JSON for ``.json`` paths), the bytes
a file was read from kept while its objects are unchanged, and every part of a file mapped to the
``file:line`` that declared it.

:class:`_Render` walks the declarations of a :class:`~agent_graph._load.define.ProviderBuilder` once and answers the
:class:`_Rendered` files; ``load()`` reads them through the loader from memory, seeding the load cache
with the values written so that nothing is parsed twice, and places an error the loader finds in a
generated file at the declaration it came from. No I/O: ``write()`` is the builder's.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from typing import TYPE_CHECKING, Any, Literal

import msgspec

from .._core.canonical import canonical_json
from .._core.errors import AgentGraphError, Diagnostic, ErrorCode, did_you_mean, listing
from .._syntax.emit import YamlWriter
from .._syntax.parse import MAX_ALIAS_COUNT, MAX_DEPTH
from .cache import CachedValue, LoadCache
from .fs import MemoryFileSystem

if TYPE_CHECKING:
    from .._core.provider import Provider
    from .reader import Limits

from .define_graph import (
    _NODE_TYPES,
    ActionNode,
    GateNode,
    GraphBuilder,
    Node,
    ProviderDeclarations,
    SubgraphNode,
    TerminalNode,
)
from .define_objects import (
    ActionDef,
    File,
    FileResourceDef,
    GraphActionResourceDef,
    HostActionResourceDef,
    Markdown,
    Resource,
    Schema,
    Site,
    Skill,
    _check_relative,
    _error,
    _Origin,
    _Stored,
)

# ---------------------------------------------------------------- from objects to files


def _drop_none(value: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in value.items() if v is not None}


_DEFAULT_VARIANTS = frozenset({f"yaml:{MAX_DEPTH}:{MAX_ALIAS_COUNT}", f"json:{MAX_DEPTH}:{MAX_ALIAS_COUNT}"})
_JS_SAFE = 2**53


def _seedable(value: Any) -> bool:
    """Whether parsing the written text gives back ``value`` exactly, types and key order included.

    Floats, integers beyond 2**53 and keys that JavaScript orders first (array
    indices) are read back differently: such files are parsed as any file is.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict:
            for key, member in item.items():
                if type(key) is not str or (key.isdigit() and (key == "0" or key[0] != "0")):
                    return False
                stack.append(member)
        elif kind is list:
            stack.extend(item)
        elif (
            kind is float
            or (kind is int and not -_JS_SAFE <= item <= _JS_SAFE)
            or (kind not in (str, int, bool) and item is not None)
        ):
            return False
    return True


class _SeededCache(LoadCache):
    """The loader's cache, holding the values this builder wrote: nothing is parsed twice, nothing stored."""

    def __init__(self, values: dict[str, Any]) -> None:  # no directory: nothing is ever written
        self.directory = ""
        self.fingerprint = ""
        self.values = values

    def lookup(self, digest: str, variant: str, size: int) -> CachedValue | None:
        if variant not in _DEFAULT_VARIANTS and variant != "front-matter":
            return None
        value = self.values.get(f"{variant == 'front-matter'}{digest}")
        if value is None:
            return None
        return CachedValue(digest, variant, value, (), size, dirty=False)

    def store(self, cached: CachedValue) -> None:
        """Nothing is kept."""


def _not_json(path: str, error: Exception, sites: list[tuple[str, Site | None]]) -> AgentGraphError:
    """``argument-invalid`` for a value that is not JSON data, at the declaration of what holds it."""
    return _error(
        "argument-invalid",
        f"{path} cannot be written: a value in it is not JSON data (text, numbers, booleans, null, lists and "
        f"mappings with text keys): {error}",
        sites[0][1] if sites else None,
    )


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


class _Rendered:
    """A builder's files, the values to seed the loader with, and where each part was declared."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.executable: dict[str, bool] = {}
        self.seeds: dict[str, Any] = {}
        #: path → [(JSON Pointer prefix, site)], the longest matching prefix wins.
        self.sites: dict[str, list[tuple[str, Site | None]]] = {}
        self.manifest = "provider.yaml"

    def load(self, root: str, limits: Limits | None, load: Any) -> Provider:
        root = posixpath.normpath("/" + root.strip("/")) if root.strip("/") else "/"
        fs = MemoryFileSystem({posixpath.join(root, rel): data for rel, data in self.files.items()})
        cache = _SeededCache(self.seeds)
        try:
            loaded: Provider = load(posixpath.join(root, self.manifest), fs=fs, limits=limits, cache=cache)
        except AgentGraphError as error:
            raise self.relocate(error, root) from None
        return loaded

    def site_of(self, relative: str, pointer: str) -> tuple[bool, Site | None]:
        """The site declaring the part of ``relative`` at ``pointer`` (found, site)."""
        entries = self.sites.get(relative)
        if not entries:
            return False, None
        best: tuple[str, Site | None] | None = None
        for prefix, site in entries:
            if (pointer == prefix or pointer.startswith(prefix + "/") or prefix == "") and (
                best is None or len(prefix) > len(best[0])
            ):
                best = (prefix, site)
        return (best is not None, best[1] if best is not None else None)

    def relocate(self, error: AgentGraphError, root: str) -> AgentGraphError:
        """``error`` of the loader, placed at the declarations in the user's code that made the files it names."""
        prefix = root.rstrip("/") + "/"
        first_site: Site | None = None
        diagnostics: list[Diagnostic] = []
        for diagnostic in error.diagnostics:
            path = diagnostic.path or ""
            detail = diagnostic.detail if isinstance(diagnostic.detail, dict) else {}
            relative = path[len(prefix) :] if path.startswith(prefix) else None
            if relative is None:
                relative = self._named(diagnostic.message, prefix)
            if relative is None:
                diagnostics.append(diagnostic)
                continue
            raw_pointer = detail.get("pointer")
            pointer = raw_pointer if isinstance(raw_pointer, str) else ""
            found, site = self.site_of(relative, pointer)
            if not found or site is None:
                diagnostics.append(diagnostic)
                continue
            first_site = first_site or site
            text = f"{site}: {_without_place(diagnostic.message, relative)}"
            new_detail = {"line": site.line, "generated": relative}
            if pointer:
                new_detail["pointer"] = pointer
            diagnostics.append(
                msgspec.structs.replace(diagnostic, message=text, path=site.file, detail=new_detail)
            )
        message = error.message
        relative = self._named(message, prefix)
        if relative is not None:
            located = first_site
            if located is None:
                _, located = self.site_of(relative, "")
            if located is not None:
                message = f"{located}: {_without_place(message, relative)}"
        return AgentGraphError(error.code, message, diagnostics)

    def _named(self, text: str, prefix: str) -> str | None:
        """The generated file ``text`` names first (absolute, or relative at its start), or None."""
        best: tuple[int, str] | None = None
        for relative in self.files:
            for spelling in (prefix + relative, relative):
                at = text.find(spelling)
                if at >= 0 and (spelling != relative or at == 0) and (best is None or at < best[0]):
                    best = (at, relative)
        return best[1] if best is not None else None


def _without_place(message: str, relative: str) -> str:
    """``message`` without a leading ``relative[:line[:column]]: `` (the loader's place in a generated file)."""
    match = re.match(re.escape(relative) + r"(?::\d+)?(?::\d+)?: ", message)
    return message[match.end() :] if match else message


#: Lists whose items are written on one line when they fit: ``- { from: a, to: b }``.
_FLOW_KEYS = frozenset({"edges", "satisfiedBy", "requiresFacts"})


def _copied(value: Any, site: Site | None) -> Any:
    """A copy of JSON data the user gave, so that the loaded Provider never shares a mutable part with it."""
    try:
        return msgspec.msgpack.decode(msgspec.msgpack.encode(value))
    except (TypeError, ValueError, OverflowError, msgspec.DecodeError) as error:
        raise _error("argument-invalid", f"A value is not JSON data: {error}", site) from None


def _snapshot(value: Any) -> str:
    """What is compared to decide whether an object read from a file changed: its value's canonical JSON."""
    try:
        return canonical_json(value)
    except (TypeError, ValueError):
        return "\0changed"


class _Render:
    """One pass from a builder's objects to its files.

    Paths come from the objects (``path``, or the file they were read from),
    else from conventions (``graphs/<id>.yaml``, ``actions/<id>.yaml``,
    ``resources/<id>.md``, ``skills/<name>/SKILL.md`` …); two objects asking
    for one path is ``file-path-conflict`` at the second one's declaration.
    With ``snapshot=True`` (right after reading a folder) each object read from
    a file remembers its value, so that :meth:`run` later keeps that file's
    bytes while the value stays the same.
    """

    def __init__(self, builder: ProviderDeclarations, *, snapshot: bool = False, fresh: bool = False) -> None:
        self.builder = builder
        self.snapshot = snapshot
        self.fresh = fresh
        self.out = _Rendered()
        self.owners: dict[str, tuple[object, Site | None]] = {}
        self.paths: dict[int, str] = {}
        self.action_ids: dict[str, tuple[object, Site | None]] = {}
        self.resource_ids: dict[str, tuple[object, Site | None]] = {}
        self.file_refs: list[tuple[str, Site | None, str]] = []
        self.yaml = YamlWriter()

    # ------------------------------------------------------------ writing one file

    def claim(self, path: str, owner: object, site: Site | None) -> bool:
        """Reserve ``path`` for ``owner``; False when ``owner`` already has it (written once)."""
        _check_relative(path, "A path of the Provider", site)
        taken = self.owners.get(path)
        if taken is not None:
            if taken[0] is owner:
                return False
            where = f" (first declared at {taken[1]})" if taken[1] else ""
            raise _error(
                "file-path-conflict",
                f"Two different objects would be written to {path}{where}; give one of them another path=",
                site,
            )
        self.owners[path] = (owner, site)
        return True

    def _kept(self, path: str, value: Any, owner: Any, sites: list[tuple[str, Site | None]]) -> bool:
        """Whether ``owner`` was read from ``path`` and ``value`` is what it read: then its bytes stay as they were."""
        origin: _Origin | None = None if self.fresh else getattr(owner, "_origin", None)
        if origin is None or origin.path != path:
            return False
        snapshot = _snapshot(value)
        if self.snapshot:
            origin.snapshot = snapshot
        if origin.snapshot != snapshot:
            return False
        self.out.files[path] = origin.data
        self.out.sites[path] = sites
        return True

    def emit(
        self,
        path: str,
        value: Any,
        owner: Any,
        sites: list[tuple[str, Site | None]],
    ) -> None:
        """Write ``value`` to ``path`` (JSON for ``.json``, else YAML), or the bytes it was read from."""
        if self._kept(path, value, owner, sites):
            return
        try:
            if path.lower().endswith(".json"):
                data = (json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode()
                exact = _seedable(value)
            else:
                text, exact = self.yaml.emit(value, flow_width=100, flow_keys=_FLOW_KEYS)
                data = text.encode("utf-8")
        except (TypeError, ValueError, UnicodeEncodeError) as error:
            raise _not_json(path, error, sites) from None
        self.out.files[path] = data
        self.out.sites[path] = sites
        if exact:
            self.out.seeds[f"False{_digest(data)}"] = value

    def emit_markdown(
        self, path: str, header: dict[str, Any], body: str, owner: Any, site: Site | None, *, seed: bool
    ) -> None:
        """Write a Markdown file with a front-matter header (or the bytes it was read from)."""
        sites: list[tuple[str, Site | None]] = [("", site)]
        if self._kept(path, {"header": header, "body": body}, owner, sites):
            return
        try:
            text, exact = self.yaml.emit(header)
            data = f"---\n{text}---\n{body}".encode()
        except (TypeError, ValueError, UnicodeEncodeError) as error:
            raise _not_json(path, error, sites) from None
        self.out.files[path] = data
        self.out.sites[path] = sites
        if seed and exact:
            self.out.seeds[f"True{_digest(data)}"] = header

    def put_file(self, made: File) -> str:
        if self.claim(made.path, made, made._site):
            self.out.files[made.path] = made.content
            self.out.sites[made.path] = [("", made._site)]
            if made.executable:
                self.out.executable[made.path] = True
        return made.path

    def file_ref(self, item: File | str, site: Site | None, label: str) -> str:
        if isinstance(item, File):
            return self.put_file(item)
        self.file_refs.append((item, site, label))
        return item

    # ------------------------------------------------------------ the Provider

    def run(self) -> _Rendered:
        builder = self.builder
        for extra in builder.extra_files.values():
            self.put_file(extra)
        catalog = self.catalog() if builder.codes or builder._catalog_origin is not None else None
        graph_paths = [self.graph(graph) for graph in builder.graphs.values()]
        for bound in builder.skills:
            self.bound_skill(bound)
        manifest = _drop_none(
            {
                "schema": "agent-graph.provider.v1",
                "id": builder.id,
                "version": builder.version,
                "name": builder.name,
                "description": builder.description,
                "graphs": graph_paths,
                "catalogs": {"codes": catalog} if catalog is not None else None,
                "compatibility": _drop_none({"agentGraph": builder.agent_graph, "node": builder.node})
                or None,
            }
        )
        path = builder.manifest_path
        self.claim(path, builder, builder._site)
        self.emit(path, manifest, builder, [("", builder._site)])
        self.out.manifest = path
        for reference, site, label in self.file_refs:
            if reference not in self.out.files:
                raise _error(
                    "file-missing",
                    f"{label} names {reference}, which is no file of the Provider; "
                    f"declare it with agd.file({reference!r}, …) or provider.file({reference!r}, …)",
                    site,
                )
        files = self.out.files
        self.out.files = {path: files[path], **{k: v for k, v in files.items() if k != path}}
        return self.out

    def bound_skill(self, made: Skill) -> None:
        """An entry Skill: its Graph and entry must exist, as ``resolve_skill_binding`` will check."""
        metadata = made.metadata or {}
        graph = self.builder.graphs.get(str(metadata.get("agent-graph.graph")))
        entry = str(metadata.get("agent-graph.entry"))
        if graph is None:
            raise _error(
                "skill-graph-missing",
                f"Skill {made.name} is bound to Graph {metadata.get('agent-graph.graph')}, which Provider "
                f"{self.builder.id} does not have; its graphs: {listing(self.builder.graphs)}",
                made._site,
            )
        entries = list(graph.entrypoints) or ["default"]
        if entry not in entries:
            raise _error(
                "skill-entry-missing",
                f"Skill {made.name} is bound to entry {entry} of Graph {graph.id}, which has the entries "
                f"{listing(entries)}",
                made._site,
            )
        self.skill(made)

    def catalog(self) -> str:
        builder = self.builder
        origin = builder._catalog_origin
        path = builder.catalog_path or (origin.path if origin is not None else "codes.yaml")
        self.claim(path, "catalog", builder._site)
        entries = []
        sites: list[tuple[str, Site | None]] = [("", builder._site)]
        for index, code in enumerate(builder.codes.values()):
            entries.append(
                _drop_none(
                    {
                        "code": code.code,
                        "kind": code.kind,
                        "summary": code.summary,
                        "severity": code.severity,
                        "document": self.resource(code.document) if code.document is not None else None,
                    }
                )
            )
            sites.append((f"/codes/{index}", code._site))
        holder = _CatalogHolder(origin)
        self.emit(path, {"schema": "agent-graph.code-catalog.v1", "codes": entries}, holder, sites)
        return path

    # ------------------------------------------------------------ Graphs

    def graph(self, graph: GraphBuilder) -> str:
        path = graph.path or (graph._origin.path if graph._origin is not None else f"graphs/{graph.id}.yaml")
        self.claim(path, graph, graph._site)
        sites: list[tuple[str, Site | None]] = [("", graph._site)]
        nodes = []
        for index, node in enumerate(graph.nodes.values()):
            nodes.append(self.node(graph, node))
            sites.append((f"/nodes/{index}", node._site))
        edges = []
        for index, edge in enumerate(graph.edges):
            edges.append(
                _drop_none(
                    {
                        "from": self.node_ref(graph, edge.source, edge._site, "edge source"),
                        "to": self.node_ref(graph, edge.target, edge._site, "edge target"),
                        "kind": edge.kind,
                        "outcomes": list(edge.outcomes) if edge.outcomes is not None else None,
                    }
                )
            )
            sites.append((f"/edges/{index}", edge._site))
        entrypoints: dict[str, str] = {}
        for name, target in graph.entrypoints.items():
            site = graph._entry_sites.get(name)
            entrypoints[name] = self.node_ref(graph, target, site, f"entry {name}")
            sites.append((f"/entrypoints/{name}", site))
        if not entrypoints and graph.nodes:
            entrypoints["default"] = next(iter(graph.nodes))
        value = _drop_none(
            {
                "schema": "agent-graph.graph.v1",
                "id": graph.id,
                "description": graph.description,
                "entrypoints": entrypoints,
                "nodes": nodes,
                "edges": edges,
            }
        )
        self.emit(path, value, graph, sites)
        return path

    def node_ref(self, graph: GraphBuilder, node: Node | str, site: Site | None, label: str) -> str:
        if isinstance(node, _NODE_TYPES):
            if graph.nodes.get(node.id) is not node:
                raise _error(
                    "graph-edge-node-missing",
                    f"The {label} {node.id} is no longer a node of Graph {graph.id}",
                    site,
                )
            return node.id
        if node not in graph.nodes:
            code: ErrorCode = (
                "graph-entry-missing" if label.startswith("entry") else "graph-edge-node-missing"
            )
            raise _error(
                code,
                f"The {label} {node} names no node of Graph {graph.id}{did_you_mean(node, graph.nodes)}; "
                f"its nodes: {listing(graph.nodes)}",
                site,
            )
        return node

    def node(self, graph: GraphBuilder, node: Node) -> dict[str, Any]:
        site = node._site
        value: dict[str, Any] = {"id": node.id, "kind": node.kind, "description": node.description}
        if isinstance(node, (ActionNode, GateNode)):
            value["reasonCode"] = node.reason if node.reason is not None else f"route.{graph.id}.{node.id}"
        value["priority"] = node.priority
        value["join"] = node.join
        if isinstance(node, ActionNode):
            value["action"] = self.action(node.action, node.id, site)
        elif isinstance(node, SubgraphNode):
            value["graph"] = self.graph_ref(graph, node)
            value["entry"] = node.entry
        elif isinstance(node, GateNode):
            spec = node.gate
            value["gate"] = _drop_none(
                {
                    "id": spec.id,
                    "prompt": spec.prompt,
                    "authority": spec.authority,
                    "delegatable": spec.delegatable,
                }
            )
            if node.inspection is not None:
                value["inspectionAction"] = self.action(node.inspection, f"{node.id}.inspection", site)
            if node.resolution is not None:
                value["resolutionAction"] = self.action(node.resolution, f"{node.id}.resolution", site)
            if node.delegated is not None:
                policy = node.delegated
                resolution = policy.resolution
                value["delegated"] = _drop_none(
                    {
                        "inspection": policy.inspection,
                        "resolutionAction": self.action(resolution, f"{node.id}.delegated-resolution", site)
                        if resolution is not None
                        else None,
                        "resources": self.resource_lists(policy.required, policy.recommended),
                    }
                )
        elif isinstance(node, TerminalNode):
            value["terminalOutcome"] = node.outcome
        value["resources"] = self.resource_lists(node.required, node.recommended)
        if node.requires_facts is not None:
            value["requiresFacts"] = [check.value() for check in node.requires_facts]
        if node.proof is not None:
            value["satisfiedBy"] = [check.value() for check in node.proof]
        return _drop_none(value)

    def graph_ref(self, graph: GraphBuilder, node: SubgraphNode) -> str:
        target = node.target
        graphs = self.builder.graphs
        if isinstance(target, GraphBuilder):
            if graphs.get(target.id) is not target:
                raise _error(
                    "subgraph-missing",
                    f"Node {node.id} of Graph {graph.id} calls Graph {target.id}, which is not a Graph of Provider "
                    f"{self.builder.id}",
                    node._site,
                )
            return target.id
        if target not in graphs:
            raise _error(
                "subgraph-missing",
                f"Node {node.id} of Graph {graph.id} calls Graph {target}, which Provider {self.builder.id} does "
                f"not have{did_you_mean(target, graphs)}; its graphs: {listing(graphs)}",
                node._site,
            )
        return target

    def resource_lists(
        self, required: list[Resource] | None, recommended: list[Resource] | None
    ) -> dict[str, Any] | None:
        if required is None and recommended is None:
            return None
        return _drop_none(
            {
                "required": [self.resource(r) for r in required] if required is not None else None,
                "recommended": [self.resource(r) for r in recommended] if recommended is not None else None,
            }
        )

    # ------------------------------------------------------------ where each object is written

    def place(self, made: _Stored, default: str, site: Site | None) -> str:
        """Where ``made`` is written, claimed for it: its own path, else the file it was read from, else ``default``."""
        origin = made._origin
        path = made.path or (origin.path if origin is not None else default)
        self.claim(path, made, site)
        self.paths[id(made)] = path
        return path

    @staticmethod
    def unique(
        taken: dict[str, tuple[object, Site | None]],
        made_id: str,
        made: _Stored,
        things: Literal["Actions", "resources"],
        site: Site | None,
        advice: str = "",
    ) -> None:
        """Take ``made_id`` for ``made``: another object of the same ID is ``action-id-duplicate`` or
        ``resource-id-duplicate``."""
        holder = taken.get(made_id)
        if holder is not None and holder[0] is not made:
            where = f" (first declared at {holder[1]})" if holder[1] else ""
            code: ErrorCode = "action-id-duplicate" if things == "Actions" else "resource-id-duplicate"
            raise _error(code, f"Two different {things} have the ID {made_id}{where}{advice}", site)
        taken[made_id] = (made, made._site)

    # ------------------------------------------------------------ Actions and what they name

    def action(self, action: ActionDef, default_id: str, site: Site | None) -> str:
        known = self.paths.get(id(action))
        if known is not None:
            return known
        action_id = action.id or default_id
        placed = action._site or site
        self.unique(self.action_ids, action_id, action, "Actions", placed, "; give one of them another id=")
        path = self.place(action, f"actions/{action_id}.yaml", placed)
        value = _drop_none(
            {
                "schema": "agent-graph.action.v1",
                "id": action_id,
                "description": action.description,
                "runner": action.runner,
                "effect": action.effect,
                "command": action.command,
                "runtime": action.runtime,
                "entry": self.file_ref(action.entry, placed, f"Action {action_id}'s entry")
                if action.entry is not None
                else None,
                "args": list(action.args) if action.args is not None else None,
                "handler": action.handler,
                "skill": self.skill(action.skill) if action.skill is not None else None,
                "cwd": action.cwd,
                "files": [self.file_ref(f, placed, f"Action {action_id}'s files") for f in action.files]
                if action.files is not None
                else None,
                "inputSchema": self.schema(action.input_schema, f"{action_id}.input")
                if action.input_schema is not None
                else None,
                "outputSchema": self.schema(action.output_schema, f"{action_id}.output")
                if action.output_schema is not None
                else None,
            }
        )
        self.emit(path, value, action, [("", placed)])
        return path

    def schema(self, schema: Schema, stem: str) -> str:
        known = self.paths.get(id(schema))
        if known is not None:
            return known
        path = self.place(schema, f"schemas/{stem}.schema.json", schema._site)
        self.emit(path, _copied(schema.value, schema._site), schema, [("", schema._site)])
        return path

    def skill(self, made: Skill) -> str:
        known = self.paths.get(id(made))
        if known is not None:
            return known
        path = self.place(made, f"skills/{made.name}/SKILL.md", made._site)
        extras = made.header or {}
        header: dict[str, Any] = {}
        if made.name or "name" in extras:
            header["name"] = made.name
        if made.description or "description" in extras:
            header["description"] = made.description
        if made.metadata is not None:
            header["metadata"] = _copied(made.metadata, made._site)
        for key, item in extras.items():
            if key not in ("name", "description", "metadata"):
                header[key] = _copied(item, made._site)
        self.emit_markdown(path, header, made.body, made, made._site, seed=False)
        folder = posixpath.dirname(path)
        for relative, data in made.files.items():
            self.put_file(
                File(posixpath.join(folder, relative) if folder else relative, data, False, made._site)
            )
        return path

    # ------------------------------------------------------------ resources

    def resource(self, resource: Resource) -> str:
        known = self.paths.get(id(resource))
        if known is not None:
            return known
        site = resource._site
        self.unique(self.resource_ids, resource.id, resource, "resources", site)
        extension = "md" if isinstance(resource, Markdown) else "yaml"
        path = self.place(resource, f"resources/{resource.id}.{extension}", site)
        if isinstance(resource, Markdown):
            header: dict[str, Any] = {"id": resource.id, "kind": resource.kind}
            extras = resource.header or {}
            if resource.media_type is not None:
                header["mediaType" if "mediaType" in extras else "media-type"] = resource.media_type
            for key, item in extras.items():
                if key not in ("id", "kind", "media-type", "mediaType"):
                    header[key] = _copied(item, resource._site)
            self.emit_markdown(path, header, resource.body, resource, site, seed=True)
            return path
        protocol = "file" if isinstance(resource, FileResourceDef) else "graph-action"
        if isinstance(resource, HostActionResourceDef):
            protocol = "host-action"
        value: dict[str, Any] = {
            "schema": f"agent-graph.resource.{protocol}.v1",
            "id": resource.id,
            "kind": resource.kind,
            "mediaType": resource.media_type,
        }
        if isinstance(resource, FileResourceDef):
            value["path"] = self.put_file(resource.content)
        elif isinstance(resource, GraphActionResourceDef):
            value["materializer"] = self.action(resource.materializer, f"{resource.id}.materializer", site)
        else:
            identity = resource.input_schema
            schema = resource.materializer.input_schema
            if identity is None and schema is not None:
                identity = schema.value.get("$id") if isinstance(schema.value.get("$id"), str) else None
            if identity is None:
                raise _error(
                    "host-action-schema-identity-invalid",
                    f"Resource {resource.id} needs the protocol identity of its input: give input_schema=, or an "
                    "input schema with $id to its materializer",
                    site,
                )
            value["materializer"] = self.action(resource.materializer, f"{resource.id}.materializer", site)
            value["input"] = {"schema": identity, "value": _copied(resource.input, site)}
        value["description"] = resource.description
        self.emit(path, _drop_none(value), resource, [("", site)])
        return path


class _CatalogHolder:
    """The Code Catalog file's origin, as :meth:`_Render.emit` looks for it."""

    def __init__(self, origin: _Origin | None) -> None:
        self._origin = origin
