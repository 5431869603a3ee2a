"""A Provider as the Python that declares it with ``agent_graph.define``: ``agent-graph export-python``.

Rules of this module:

* The source declares every object of the Provider's file set with its own
  path, ID and fields, so that running it gives a builder whose files load to
  the same Provider: the same answers, and for files in the builder's own form
  (a folder ``write()`` made) the same bytes, so the same revisions. Files
  outside the file set (graph tests, entry Skills) are not part of it.
* One statement per object, in an order in which every name is declared
  before it is used: files, schemas, Skills, Actions, resources, the Code
  Catalog, then each Graph's nodes, edges and entrypoints.
* Text is written as Python literals, exactly; nothing is formatted away.
"""

from __future__ import annotations

import keyword
import posixpath
import re
from typing import Any

from .._core.provider import Provider
from .._load import define as agd
from .._load.define_import import from_provider

__all__ = ["python_source"]

_NOT_NAME = re.compile(r"\W+")
_WIDTH = 110


def _indentable(part: str) -> bool:
    """Whether a multi-line argument may be indented (a nested call; never the inside of a string)."""
    return "\n" in part and '"""' not in part


def python_source(provider: Provider) -> str:
    """The Python that declares ``provider`` (its file set) with ``agent_graph.define``; it binds ``p``."""
    return _Writer(from_provider(provider, extras=False)).run()


def _text(value: str) -> str:
    """A string literal of ``value``: triple-quoted when it is several readable lines, else ``repr``."""
    if (
        "\n" in value
        and '"""' not in value
        and "\\" not in value
        and not value.endswith('"')
        and all(line.isprintable() for line in value.split("\n"))
    ):
        return '"""\\\n' + value + '"""'
    return repr(value)


def _content(data: bytes) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return repr(data)
    return _text(text)


class _Writer:
    def __init__(self, builder: agd.ProviderBuilder) -> None:
        self.builder = builder
        self.lines: list[str] = []
        self.names: dict[int, str] = {}
        self.taken: set[str] = {"ag", "agd", "p"}

    def name(self, thing: object, hint: str) -> str:
        known = self.names.get(id(thing))
        if known is not None:
            return known
        base = _NOT_NAME.sub("_", hint).strip("_").lower() or "item"
        if base[0].isdigit() or keyword.iskeyword(base):
            base = f"_{base}"
        name, index = base, 2
        while name in self.taken:
            name, index = f"{base}_{index}", index + 1
        self.taken.add(name)
        self.names[id(thing)] = name
        return name

    def emit(self, line: str) -> None:
        self.lines.append(line)

    @staticmethod
    def call(function: str, args: list[str], keywords: dict[str, str | None]) -> str:
        """A call; one argument a line when it does not fit on one (as a formatter would write it)."""
        parts = [*args, *(f"{key}={value}" for key, value in keywords.items() if value is not None)]
        one_line = f"{function}({', '.join(parts)})"
        if len(one_line) <= _WIDTH or not parts:
            return one_line
        inner = "".join(
            f"    {part.replace(chr(10), chr(10) + '    ') if _indentable(part) else part},\n"
            for part in parts
        )
        return f"{function}(\n{inner})"

    # ------------------------------------------------------------ the Provider

    def run(self) -> str:
        b = self.builder
        self.emit(
            f'"""The Provider {b.id}@{b.version}, declared with agent_graph.define (agent-graph export-python)."""'
        )
        self.emit("")
        self.emit("import agent_graph.define as agd")
        self.emit("")
        self.emit(
            "p = "
            + self.call(
                "agd.provider",
                [repr(b.id), repr(b.version)],
                {
                    "name": repr(b.name) if b.name is not None else None,
                    "description": repr(b.description) if b.description is not None else None,
                    "agent_graph": repr(b.agent_graph) if b.agent_graph is not None else None,
                    "node": repr(b.node) if b.node is not None else None,
                },
            )
        )
        if b.manifest_path != "provider.yaml":
            self.emit(f"p.manifest_path = {b.manifest_path!r}")
        if b.catalog_path not in (None, "codes.yaml"):
            self.emit(f"p.catalog_path = {b.catalog_path!r}")
        for graph in b.graphs.values():
            for node in graph.nodes.values():
                self.node_objects(node)
        for code in b.codes.values():
            if code.document is not None:
                self.resource(code.document)
        for path, extra in b.extra_files.items():
            if id(extra) not in self.names:
                self.emit(self.call("p.file", [repr(path), _content(extra.content)], self.executable(extra)))
        for code in b.codes.values():
            self.emit(
                self.call(
                    "p.code",
                    [repr(code.code), repr(code.summary)],
                    {
                        "kind": repr(code.kind) if code.kind != "route-reason" else None,
                        "severity": repr(code.severity) if code.severity is not None else None,
                        "document": self.resource(code.document) if code.document is not None else None,
                    },
                )
            )
        for graph in b.graphs.values():
            self.graph(graph)
        return "\n".join(self.lines) + "\n"

    @staticmethod
    def executable(made: agd.File) -> dict[str, str | None]:
        return {"executable": "True" if made.executable else None}

    def node_objects(self, node: object) -> None:
        """Declare what a node refers to before the node."""
        for action in self.actions_of(node):
            self.action(action)
        for resource in (getattr(node, "required", None) or []) + (getattr(node, "recommended", None) or []):
            self.resource(resource)
        delegated = getattr(node, "delegated", None)
        if delegated is not None:
            for resource in (delegated.required or []) + (delegated.recommended or []):
                self.resource(resource)

    @staticmethod
    def actions_of(node: object) -> list[agd.ActionDef]:
        found: list[agd.ActionDef] = []
        if isinstance(node, agd.ActionNode):
            found.append(node.action)
        if isinstance(node, agd.GateNode):
            found += [a for a in (node.inspection, node.resolution) if a is not None]
            if node.delegated is not None and node.delegated.resolution is not None:
                found.append(node.delegated.resolution)
        return found

    # ------------------------------------------------------------ files, schemas, Skills, Actions

    def file(self, made: agd.File | str) -> str:
        if isinstance(made, str):
            return repr(made)
        known = self.names.get(id(made))
        if known is not None:
            return known
        name = self.name(made, posixpath.basename(made.path))
        self.emit(
            f"{name} = "
            + self.call("agd.file", [repr(made.path), _content(made.content)], self.executable(made))
        )
        return name

    def schema(self, made: agd.Schema) -> str:
        known = self.names.get(id(made))
        if known is not None:
            return known
        stem = posixpath.basename(made.path or "schema").split(".")[0]
        name = self.name(made, f"{stem}_schema")
        self.emit(
            f"{name} = " + self.call("agd.json_schema", [repr(dict(made.value))], {"path": repr(made.path)})
        )
        return name

    def skill(self, made: agd.Skill) -> str:
        known = self.names.get(id(made))
        if known is not None:
            return known
        name = self.name(made, made.name or "skill")
        extras = {
            k: v for k, v in (made.header or {}).items() if k not in ("name", "description", "metadata")
        }
        files = {relative: data.decode("utf-8") for relative, data in made.files.items()}
        self.emit(
            f"{name} = "
            + self.call(
                "agd.skill",
                [repr(made.name), repr(made.description), _text(made.body)],
                {
                    "files": "{" + ", ".join(f"{k!r}: {_text(v)}" for k, v in files.items()) + "}"
                    if files
                    else None,
                    "metadata": repr(made.metadata) if made.metadata is not None else None,
                    "front_matter": repr(extras) if extras else None,
                    "path": repr(made.path) if made.path != f"skills/{made.name}/SKILL.md" else None,
                },
            )
        )
        return name

    def action(self, action: agd.ActionDef) -> str:
        known = self.names.get(id(action))
        if known is not None:
            return known
        keywords: dict[str, str | None] = {"effect": repr(action.effect)}
        if action.runner == "command":
            function, args = "agd.command", [repr(action.command)]
        elif action.runner == "script":
            assert action.entry is not None
            function, args = "agd.script", [self.file(action.entry)]
            keywords["runtime"] = repr(action.runtime)
            keywords["args"] = repr(action.args) if action.args is not None else None
        elif action.runner == "agent":
            assert action.skill is not None
            function, args = "agd.agent", [self.skill(action.skill)]
        else:
            function, args = "agd.host", [repr(action.handler)]
        keywords.update(
            {
                "id": repr(action.id),
                "description": repr(action.description) if action.description is not None else None,
                "cwd": repr(action.cwd) if action.cwd is not None else None,
                "files": "[" + ", ".join(self.file(f) for f in action.files) + "]"
                if action.files is not None
                else None,
                "input_schema": self.schema(action.input_schema) if action.input_schema is not None else None,
                "output_schema": self.schema(action.output_schema)
                if action.output_schema is not None
                else None,
                "path": repr(action.path) if action.path != f"actions/{action.id}.yaml" else None,
            }
        )
        name = self.name(action, f"{action.id}_action")
        self.emit(f"{name} = " + self.call(function, args, keywords))
        return name

    # ------------------------------------------------------------ resources

    def resource(self, made: agd.Resource) -> str:
        known = self.names.get(id(made))
        if known is not None:
            return known
        keywords: dict[str, str | None]
        if isinstance(made, agd.Markdown):
            extras = {
                k: v
                for k, v in (made.header or {}).items()
                if k not in ("id", "kind", "media-type", "mediaType")
            }
            function, args = "agd.markdown", [repr(made.id), repr(made.kind), _text(made.body)]
            keywords = {
                "media_type": repr(made.media_type) if made.media_type is not None else None,
                "front_matter": repr(extras) if extras else None,
                "path": repr(made.path) if made.path != f"resources/{made.id}.md" else None,
            }
        else:
            keywords = {
                "description": repr(made.description) if made.description is not None else None,
                "path": repr(made.path) if made.path != f"resources/{made.id}.yaml" else None,
            }
            if isinstance(made, agd.FileResourceDef):
                function = "agd.file_resource"
                args = [repr(made.id), repr(made.kind), repr(made.media_type), self.file(made.content)]
            elif isinstance(made, agd.GraphActionResourceDef):
                function, args = "agd.graph_action_resource", [repr(made.id), self.action(made.materializer)]
                keywords["media_type"] = repr(made.media_type)
            else:
                assert isinstance(made, agd.HostActionResourceDef)
                function = "agd.host_action_resource"
                args = [repr(made.id), self.action(made.materializer), repr(made.input)]
                keywords.update(
                    {
                        "kind": repr(made.kind),
                        "media_type": repr(made.media_type),
                        "input_schema": repr(made.input_schema) if made.input_schema is not None else None,
                    }
                )
        name = self.name(made, made.id)
        self.emit(f"{name} = " + self.call(function, args, keywords))
        return name

    # ------------------------------------------------------------ Graphs

    @staticmethod
    def checks(checks: list[agd.Check] | None) -> str | None:
        if checks is None:
            return None
        written = []
        for check in checks:
            if check.compares:
                written.append(f"agd.equals({check.path!r}, {check.equals!r})")
            elif check.exists is False:
                written.append(f"agd.exists({check.path!r}, False)")
            else:
                written.append(f"agd.exists({check.path!r})")
        return "[" + ", ".join(written) + "]"

    def resources(self, resources: list[agd.Resource] | None) -> str | None:
        return "[" + ", ".join(self.resource(r) for r in resources) + "]" if resources is not None else None

    def graph(self, graph: agd.GraphBuilder) -> None:
        g = self.name(graph, f"{graph.id}_graph")
        self.emit("")
        self.emit(
            f"{g} = "
            + self.call(
                "p.graph",
                [repr(graph.id)],
                {
                    "description": repr(graph.description) if graph.description is not None else None,
                    "path": repr(graph.path) if graph.path != f"graphs/{graph.id}.yaml" else None,
                },
            )
        )
        for node in graph.nodes.values():
            common: dict[str, str | None] = {
                "description": repr(node.description) if node.description is not None else None,
                "priority": repr(node.priority) if node.priority is not None else None,
                "join": repr(node.join) if node.join is not None else None,
                "requires_facts": self.checks(node.requires_facts),
            }
            default = (
                f"route.{graph.id}.{node.id}" if isinstance(node, (agd.ActionNode, agd.GateNode)) else None
            )
            common["reason"] = repr(node.reason) if node.reason not in (None, default) else None
            common["proof"] = self.checks(node.proof)
            common["required"] = self.resources(node.required)
            common["recommended"] = self.resources(node.recommended)
            name = self.name(node, node.id)
            if isinstance(node, agd.ActionNode):
                line = self.call(f"{g}.action", [repr(node.id), self.action(node.action)], common)
            elif isinstance(node, agd.GateNode):
                spec = node.gate
                gate = self.call(
                    "agd.gate",
                    [repr(spec.id), repr(spec.prompt)],
                    {
                        "authority": repr(spec.authority) if spec.authority is not None else None,
                        "delegatable": repr(spec.delegatable) if spec.delegatable is not None else None,
                    },
                )
                policy = node.delegated
                delegated = None
                if policy is not None:
                    delegated = self.call(
                        "agd.delegated",
                        [],
                        {
                            "inspection": repr(policy.inspection) if policy.inspection is not None else None,
                            "resolution": self.action(policy.resolution)
                            if policy.resolution is not None
                            else None,
                            "required": self.resources(policy.required),
                            "recommended": self.resources(policy.recommended),
                        },
                    )
                line = self.call(
                    f"{g}.gate",
                    [repr(node.id), gate],
                    {
                        "inspection": self.action(node.inspection) if node.inspection is not None else None,
                        "resolution": self.action(node.resolution) if node.resolution is not None else None,
                        "delegated": delegated,
                        **common,
                    },
                )
            elif isinstance(node, agd.SubgraphNode):
                target = node.target.id if isinstance(node.target, agd.GraphBuilder) else node.target
                line = self.call(f"{g}.subgraph", [repr(node.id), repr(target), repr(node.entry)], common)
            else:
                assert isinstance(node, agd.TerminalNode)
                line = self.call(f"{g}.terminal", [repr(node.id), repr(node.outcome)], common)
            self.emit(f"{name} = {line}")
        for edge in graph.edges:
            ends = [
                self.names[id(end)] if not isinstance(end, str) else repr(end)
                for end in (edge.source, edge.target)
            ]
            on: Any = edge.outcomes
            self.emit(
                self.call(
                    f"{g}.edge",
                    ends,
                    {
                        "kind": repr(edge.kind) if edge.kind is not None else None,
                        "on": repr(on[0])
                        if on is not None and len(on) == 1
                        else repr(on)
                        if on is not None
                        else None,
                    },
                )
            )
        for entry, node_ref in graph.entrypoints.items():
            reference = self.names[id(node_ref)] if not isinstance(node_ref, str) else repr(node_ref)
            self.emit(
                self.call(f"{g}.entry", [reference], {"name": repr(entry) if entry != "default" else None})
            )
