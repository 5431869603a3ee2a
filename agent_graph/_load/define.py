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
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import posixpath
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypedDict, TypeVar, cast, overload

import msgspec

from .._core.canonical import canonical_json
from .._core.errors import AgentGraphError, Diagnostic, ErrorCode, did_you_mean, listing
from .._core.model import Effect, Outcome, Runner, WorkingDirectory
from .._syntax.emit import YamlWriter
from .._syntax.parse import MAX_ALIAS_COUNT, MAX_DEPTH
from .cache import CachedValue, LoadCache
from .fs import MemoryFileSystem, inside

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .._core.provider import Provider
    from .reader import Limits
else:
    try:
        from typing import Unpack
    except ImportError:  # Python 3.10: ``**options: Unpack[…]`` is read back as the TypedDict itself

        class _Unpack:
            def __getitem__(self, item: Any) -> Any:
                return item

        Unpack = _Unpack()

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

NodeKind = Literal["action", "gate", "subgraph", "terminal"]
EdgeKind = Literal["flow", "consumes", "requires", "gatedBy", "repeat"]
#: The edge kinds any node but a terminal may start (``gatedBy`` starts at a Gate, ``repeat`` is separate).
FlowKind = Literal["flow", "consumes", "requires"]
Join = Literal["all", "any"]
Runtime = Literal["node", "bun", "python", "shell"]
ResourceKind = Literal["procedure", "diagnostic", "template", "schema", "skill", "context-view"]
Scalar = str | int | float | bool | None
#: Outcomes an edge accepts: one outcome or several.
Outcomes = Outcome | Sequence[Outcome]

# ---------------------------------------------------------------- where the user wrote it

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


@dataclasses.dataclass(frozen=True)
class Site:
    """The file and line of the user's call that declared an object."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{_shown_path(self.file)}:{self.line}"


def _shown_path(path: str) -> str:
    """``path`` relative to the current folder when it lies below it (as pytest and tracebacks show it)."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return path
    return path if relative.startswith("..") else relative


def _caller() -> Site | None:
    """The first frame outside agent_graph: the user's call."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return None
    return Site(frame.f_code.co_filename, frame.f_lineno)


def _error(code: ErrorCode, message: str, site: Site | None, **detail: Any) -> AgentGraphError:
    """An error located at ``site``: ``file:line: message``, with a diagnostic naming that file and line."""
    if site is None:
        return AgentGraphError(code, message, (Diagnostic(code, "error", message, detail=detail or None),))
    text = f"{site}: {message}"
    return AgentGraphError(
        code, text, (Diagnostic(code, "error", text, path=site.file, detail={"line": site.line, **detail}),)
    )


def _wrong_type(what: str, expected: str, value: object, site: Site | None) -> AgentGraphError:
    return _error("argument-invalid", f"{what} must be {expected}, not {type(value).__name__}", site)


# ---------------------------------------------------------------- what was read from a folder


@dataclasses.dataclass(eq=False)
class _Origin:
    """A file an object was read from: its path, its bytes, and the object's value when it was read."""

    path: str
    data: bytes
    snapshot: str = ""


# ---------------------------------------------------------------- files, schemas, Skills


@dataclasses.dataclass(eq=False)
class _Stored:
    """An object written to a file of its own: its path, where it was declared, the file it was read from."""

    #: The file's path relative to the Provider root (None: the builder's convention).
    path: str | None = dataclasses.field(default=None, kw_only=True)
    _site: Site | None = dataclasses.field(default=None, repr=False, kw_only=True)
    _origin: _Origin | None = dataclasses.field(default=None, repr=False, init=False)

    def __post_init__(self) -> None:
        if self.path is not None:
            _check_relative(self.path, f"The path of a {type(self).__name__}", self._site)


@dataclasses.dataclass(eq=False)
class File:
    """A file of the Provider, written as given: a script, a file an Action runs, a resource's content."""

    path: str
    content: bytes
    executable: bool = False
    _site: Site | None = dataclasses.field(default=None, repr=False)

    def __post_init__(self) -> None:
        _check_relative(self.path, "a file path", self._site)


def file(path: str, content: str | bytes, *, executable: bool = False) -> File:
    """A file of the Provider at ``path`` (relative to the Provider root); text is written as UTF-8."""
    site = _caller()
    if not isinstance(content, (str, bytes)):
        raise _wrong_type("A file's content", "text or bytes", content, site)
    data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
    return File(path, data, executable, site)


def _check_relative(path: object, label: str, site: Site | None) -> None:
    if not isinstance(path, str) or not path:
        raise _error("argument-invalid", f"{label} must be a non-empty relative path, not {path!r}", site)
    if path.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", path):
        raise _error(
            "absolute-path-forbidden", f"{label} must be relative to the Provider root: {path}", site
        )
    if ".." in path.replace("\\", "/").split("/"):
        raise _error("path-outside-provider", f"{label} may not leave the Provider root: {path}", site)


@dataclasses.dataclass(eq=False)
class Schema(_Stored):
    """A JSON Schema file (an Action's input or output schema); ``path`` ends in ``.json`` unless given."""

    value: Mapping[str, Any]


def json_schema(value: Mapping[str, Any], *, path: str | None = None) -> Schema:
    """A JSON Schema (draft-07) written as a JSON file; ``path`` defaults to ``schemas/<name>.schema.json``."""
    site = _caller()
    if not isinstance(value, Mapping):
        raise _wrong_type("A JSON Schema", "a mapping", value, site)
    return Schema(dict(value), path=path, _site=site)


@dataclasses.dataclass(eq=False)
class Skill(_Stored):
    """An Agent Skill: a folder with ``SKILL.md`` (front matter ``name``, ``description``) and more files.

    ``files`` maps paths relative to the Skill's folder to their content;
    ``metadata`` is the front matter's ``metadata`` mapping (a bound entry
    Skill's ``agent-graph`` locator, say).
    """

    name: str
    description: str
    body: str = ""
    files: dict[str, bytes] = dataclasses.field(default_factory=dict)
    metadata: dict[str, Any] | None = None
    header: dict[str, Any] | None = None


def skill(
    name: str,
    description: str,
    body: str = "",
    *,
    files: Mapping[str, str | bytes] | None = None,
    metadata: Mapping[str, Any] | None = None,
    front_matter: Mapping[str, Any] | None = None,
    path: str | None = None,
) -> Skill:
    """A Skill written to ``skills/<name>/SKILL.md`` (or ``path``); a route names it ``skill.<name>``.

    ``files`` are more files of its folder; ``front_matter`` more keys of its
    front matter (``license``, ``allowed-tools`` …).
    """
    site = _caller()
    contents = {k: v.encode("utf-8") if isinstance(v, str) else bytes(v) for k, v in (files or {}).items()}
    for relative in contents:
        _check_relative(relative, "A Skill file", site)
    extra = dict(front_matter) if front_matter else None
    return Skill(
        name, description, body, contents, dict(metadata) if metadata else None, extra, path=path, _site=site
    )


# ---------------------------------------------------------------- Actions


@dataclasses.dataclass(eq=False)
class ActionDef(_Stored):
    """An Action (``agent-graph.action.v1``); made by :func:`command`, :func:`script`, :func:`agent`, :func:`host`.

    ``id`` None takes the ID of the first node that runs it. One object used by
    several nodes is one file.
    """

    runner: Runner
    effect: Effect
    id: str | None = None
    description: str | None = None
    command: str | None = None
    entry: File | str | None = None
    runtime: Runtime | None = None
    args: list[str] | None = None
    handler: str | None = None
    skill: Skill | None = None
    cwd: WorkingDirectory | None = None
    files: list[File | str] | None = None
    input_schema: Schema | None = None
    output_schema: Schema | None = None


def _schema_arg(value: Schema | Mapping[str, Any] | None, label: str, site: Site | None) -> Schema | None:
    if value is None or isinstance(value, Schema):
        return value
    if isinstance(value, Mapping):
        return Schema(dict(value), _site=site)
    raise _wrong_type(label, "a Schema (agd.json_schema) or a mapping", value, site)


def _files_arg(files: Iterable[File | str] | None, site: Site | None) -> list[File | str] | None:
    if files is None:
        return None
    listed = list(files)
    for item in listed:
        if isinstance(item, str):
            _check_relative(item, "A file of an Action", site)
        elif not isinstance(item, File):
            raise _wrong_type("A file of an Action", "a File (agd.file) or a relative path", item, site)
    return listed


class ActionOptions(TypedDict, total=False):
    """What every runner's Action may also have."""

    #: The Action's ID (default: the ID of the first node that runs it).
    id: str
    description: str
    #: ``workspace`` (the default) or ``provider``: where the command runs.
    cwd: WorkingDirectory
    #: Files the Action runs or reads, packaged with it (a File, or the path of one).
    files: Iterable[File | str]
    input_schema: Schema | Mapping[str, Any]
    output_schema: Schema | Mapping[str, Any]
    #: The Action file's path (default ``actions/<id>.yaml``).
    path: str


_ACTION_OPTIONS = frozenset(ActionOptions.__annotations__)


def _action(
    runner: Runner, effect: Effect, site: Site | None, options: ActionOptions, **fields: Any
) -> ActionDef:
    unknown = options.keys() - _ACTION_OPTIONS
    if unknown:
        raise _error("argument-invalid", f"An Action takes no option {', '.join(sorted(unknown))}", site)
    path = options.get("path")
    return ActionDef(
        runner,
        effect,
        id=options.get("id"),
        description=options.get("description"),
        cwd=options.get("cwd"),
        files=_files_arg(options.get("files"), site),
        input_schema=_schema_arg(options.get("input_schema"), "input_schema", site),
        output_schema=_schema_arg(options.get("output_schema"), "output_schema", site),
        path=path,
        _site=site,
        **fields,
    )


def command(command: str, *, effect: Effect, **options: Unpack[ActionOptions]) -> ActionDef:
    """A ``command`` Action: the route gives the exact shell command. List the scripts it runs in ``files``."""
    return _action("command", effect, _caller(), options, command=command)


def script(
    entry: File | str,
    *,
    runtime: Runtime,
    effect: Effect,
    args: Sequence[str] | None = None,
    **options: Unpack[ActionOptions],
) -> ActionDef:
    """A ``script`` Action: ``entry`` (a File, or the path of one) run by ``runtime`` with ``args``."""
    site = _caller()
    if isinstance(entry, str):
        _check_relative(entry, "A script entry", site)
    elif not isinstance(entry, File):
        raise _wrong_type("A script entry", "a File (agd.file) or a relative path", entry, site)
    listed = list(args) if args is not None else None
    return _action("script", effect, site, options, entry=entry, runtime=runtime, args=listed)


def agent(skill: Skill, *, effect: Effect, **options: Unpack[ActionOptions]) -> ActionDef:
    """An ``agent`` Action: the Agent works with ``skill``, which the route lists first among its resources."""
    site = _caller()
    if not isinstance(skill, Skill):
        raise _wrong_type("An agent Action's skill", "a Skill (agd.skill)", skill, site)
    return _action("agent", effect, site, options, skill=skill)


def host(handler: str, *, effect: Effect, **options: Unpack[ActionOptions]) -> ActionDef:
    """A ``host`` Action: the route names ``handler``, which the host calls."""
    return _action("host", effect, _caller(), options, handler=handler)


# ---------------------------------------------------------------- resources


@dataclasses.dataclass(eq=False)
class Markdown(_Stored):
    """A Markdown resource: front matter ``id``, ``kind``, ``media-type``, then the body."""

    id: str
    kind: ResourceKind
    body: str
    media_type: str | None = None
    header: dict[str, Any] | None = None


def markdown(
    id: str,
    kind: ResourceKind,
    body: str,
    *,
    media_type: str | None = None,
    front_matter: Mapping[str, Any] | None = None,
    path: str | None = None,
) -> Markdown:
    """A Markdown resource with front matter, written to ``resources/<id>.md`` (or ``path``).

    ``front_matter`` holds more keys of the header (the loader reads ``id``,
    ``kind`` and ``media-type`` and leaves the others alone).
    """
    site = _caller()
    if not isinstance(body, str):
        raise _wrong_type("A Markdown resource's body", "text", body, site)
    extra = dict(front_matter) if front_matter else None
    return Markdown(id, kind, body, media_type, extra, path=path, _site=site)


@dataclasses.dataclass(eq=False)
class FileResourceDef(_Stored):
    """A static file described by ``agent-graph.resource.file.v1`` (a JSON Schema, a data file)."""

    id: str
    kind: ResourceKind
    media_type: str
    content: File
    description: str | None = None


def file_resource(
    id: str,
    kind: ResourceKind,
    media_type: str,
    content: File,
    *,
    description: str | None = None,
    path: str | None = None,
) -> FileResourceDef:
    """A non-Markdown static resource: the descriptor (``resources/<id>.yaml`` or ``path``) and its file."""
    site = _caller()
    if not isinstance(content, File):
        raise _wrong_type("A file resource's content", "a File (agd.file)", content, site)
    return FileResourceDef(id, kind, media_type, content, description, path=path, _site=site)


@dataclasses.dataclass(eq=False)
class GraphActionResourceDef(_Stored):
    """A context view (``agent-graph.resource.graph-action.v1``) made by a read command or script Action."""

    id: str
    media_type: str
    materializer: ActionDef
    kind: ResourceKind = "context-view"
    description: str | None = None


def graph_action_resource(
    id: str,
    materializer: ActionDef,
    *,
    media_type: str = "application/json",
    description: str | None = None,
    path: str | None = None,
) -> GraphActionResourceDef:
    """A context view the Provider's own ``read`` command or script Action produces when a host asks."""
    site = _caller()
    if not isinstance(materializer, ActionDef):
        raise _wrong_type("A materializer", "an Action (agd.command or agd.script)", materializer, site)
    return GraphActionResourceDef(
        id, media_type, materializer, "context-view", description, path=path, _site=site
    )


@dataclasses.dataclass(eq=False)
class HostActionResourceDef(_Stored):
    """Content a host handler produces (``agent-graph.resource.host-action.v1``) for a fixed input."""

    id: str
    media_type: str
    materializer: ActionDef
    input: Any
    input_schema: str | None = None
    kind: ResourceKind = "context-view"
    description: str | None = None


def host_action_resource(
    id: str,
    materializer: ActionDef,
    input: Any,
    *,
    kind: ResourceKind = "context-view",
    media_type: str = "application/json",
    input_schema: str | None = None,
    description: str | None = None,
    path: str | None = None,
) -> HostActionResourceDef:
    """A resource a ``read`` host Action makes from ``input``.

    ``input_schema`` is the input's protocol identity; by default the ``$id`` of
    the materializer's input schema.
    """
    site = _caller()
    if not isinstance(materializer, ActionDef):
        raise _wrong_type("A materializer", "a host Action (agd.host)", materializer, site)
    return HostActionResourceDef(
        id, media_type, materializer, input, input_schema, kind, description, path=path, _site=site
    )


Resource = Markdown | FileResourceDef | GraphActionResourceDef | HostActionResourceDef
_RESOURCE_TYPES = (Markdown, FileResourceDef, GraphActionResourceDef, HostActionResourceDef)

# ---------------------------------------------------------------- checks on Facts


@dataclasses.dataclass(frozen=True)
class Check:
    """One check on Facts: a dotted ``path`` and ``exists`` (a bool) or ``equals`` (a JSON scalar)."""

    path: str
    exists: bool | None = None
    equals: Scalar = None
    #: Whether ``equals`` is given (``equals=None`` checks for a JSON null).
    compares: bool = False

    def value(self) -> dict[str, Any]:
        if self.compares:
            return {"path": self.path, "equals": self.equals}
        return {"path": self.path, "exists": self.exists}


def exists(path: str, present: bool = True) -> Check:
    """``{path, exists: present}``: the Fact at ``path`` is there (a JSON null counts) or, with False, absent."""
    return Check(path, exists=present)


def equals(path: str, value: Scalar) -> Check:
    """``{path, equals: value}``: the Fact at ``path`` is this JSON scalar (booleans never equal numbers)."""
    return Check(path, equals=value, compares=True)


#: Checks as a node takes them: a check, a path (exists), a mapping of path → value (equals), or a list.
Checks = Check | str | Mapping[str, Scalar] | Sequence[Check | str]


def _checks(value: Checks | None, label: str, site: Site | None) -> list[Check] | None:
    if value is None:
        return None
    if isinstance(value, Check):
        return [value]
    if isinstance(value, str):
        return [Check(value, exists=True)]
    if isinstance(value, Mapping):
        return [Check(str(k), equals=v, compares=True) for k, v in value.items()]
    if isinstance(value, Sequence):
        checks: list[Check] = []
        for item in value:
            if isinstance(item, Check):
                checks.append(item)
            elif isinstance(item, str):
                checks.append(Check(item, exists=True))
            else:
                raise _wrong_type(
                    f"An item of {label}", "a check (agd.exists, agd.equals) or a path", item, site
                )
        return checks
    raise _wrong_type(label, "checks (agd.exists, agd.equals), a path, a mapping or a list", value, site)


# ---------------------------------------------------------------- Gates


@dataclasses.dataclass(eq=False)
class GateDef:
    """A Gate's decision: ``{id, prompt, authority?, delegatable?}``."""

    id: str
    prompt: str
    authority: str | None = None
    delegatable: bool | None = None


def gate(id: str, prompt: str, *, authority: str | None = None, delegatable: bool | None = None) -> GateDef:
    """The decision a Gate node asks for; ``delegatable=True`` with an ``authority`` lets a session resolve it."""
    return GateDef(id, prompt, authority, delegatable)


@dataclasses.dataclass(eq=False)
class DelegatedPolicy:
    """A Gate's delegated policy: what changes on a route resolved by the session's authority."""

    inspection: Literal["required", "skip"] | None = None
    resolution: ActionDef | None = None
    required: list[Resource] | None = None
    recommended: list[Resource] | None = None


def delegated(
    *,
    inspection: Literal["required", "skip"] | None = None,
    resolution: ActionDef | None = None,
    required: Sequence[Resource] | None = None,
    recommended: Sequence[Resource] | None = None,
) -> DelegatedPolicy:
    """A delegated policy: skip the inspection, swap the resolution Action, replace the resources (``[]`` clears)."""
    site = _caller()
    return DelegatedPolicy(
        inspection,
        _action_arg(resolution, "resolution", site),
        _resources_arg(required, "required", site),
        _resources_arg(recommended, "recommended", site),
    )


def _action_arg(value: ActionDef | None, label: str, site: Site | None) -> ActionDef | None:
    if value is not None and not isinstance(value, ActionDef):
        raise _wrong_type(label, "an Action (agd.command, agd.script, agd.agent, agd.host)", value, site)
    return value


def _resources_arg(value: Sequence[Resource] | None, label: str, site: Site | None) -> list[Resource] | None:
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise _wrong_type(label, "a list of resources", value, site)
    for item in value:
        if not isinstance(item, _RESOURCE_TYPES):
            raise _wrong_type(
                f"An item of {label}",
                "a resource (agd.markdown, agd.file_resource, agd.graph_action_resource, agd.host_action_resource)",
                item,
                site,
            )
    return list(value)


# ---------------------------------------------------------------- nodes and edges


class FrameOptions(TypedDict, total=False):
    """What every node may have: a description, a join rule, a priority and Facts it requires."""

    description: str
    #: ``all`` (the default): every incoming edge must match; ``any``: one is enough.
    join: Join
    #: Ranks routes legal at the same time (-1000 to 1000, higher first; default 0).
    priority: int
    #: Checks that must hold for the node to be legal (``requiresFacts``).
    requires_facts: Checks


class NodeOptions(FrameOptions, total=False):
    """What an Action or a Gate node may also have (a Subgraph or a terminal node may not)."""

    #: The reason code (default ``route.<graph>.<node>``).
    reason: str
    #: The checks that prove the node done (``satisfiedBy``).
    proof: Checks
    #: The resources its route asks the Agent to read, and those it recommends.
    required: Sequence[Resource]
    recommended: Sequence[Resource]


_NODE_OPTIONS = frozenset(NodeOptions.__annotations__)
_FRAME_OPTIONS = frozenset(FrameOptions.__annotations__)


def _node_fields(options: Any, site: Site | None, *, routed: bool = True) -> dict[str, Any]:
    """The fields of a node from its keyword options (``argument-invalid`` for one it does not take).

    ``routed``: an Action or a Gate node, which also takes :class:`NodeOptions`.
    """
    allowed = _NODE_OPTIONS if routed else _FRAME_OPTIONS
    unknown = options.keys() - allowed
    if unknown:
        which = "An Action or a Gate" if routed else "A Subgraph or a terminal"
        raise _error(
            "argument-invalid",
            f"{which} node takes no option {', '.join(sorted(unknown))}{did_you_mean(min(unknown), allowed)}; "
            f"its options: {', '.join(sorted(allowed))}",
            site,
        )
    fields: dict[str, Any] = {
        "description": options.get("description"),
        "priority": options.get("priority"),
        "join": options.get("join"),
        "requires_facts": _checks(options.get("requires_facts"), "requires_facts", site),
        "_site": site,
    }
    if routed:
        fields["reason"] = options.get("reason")
        fields["proof"] = _checks(options.get("proof"), "proof", site)
        fields["required"] = _resources_arg(options.get("required"), "required", site)
        fields["recommended"] = _resources_arg(options.get("recommended"), "recommended", site)
    return fields


@dataclasses.dataclass(eq=False)
class _NodeBase:
    id: str
    graph: GraphBuilder = dataclasses.field(repr=False)
    description: str | None = None
    priority: int | None = None
    join: Join | None = None
    reason: str | None = None
    requires_facts: list[Check] | None = None
    proof: list[Check] | None = None
    required: list[Resource] | None = None
    recommended: list[Resource] | None = None
    _site: Site | None = dataclasses.field(default=None, repr=False)


N = TypeVar("N", "ActionNode", "GateNode", "SubgraphNode", "TerminalNode")
A = TypeVar("A", "ActionNode", "GateNode")


class _Source(_NodeBase):
    """A node edges may start at (every kind but a terminal)."""

    @overload
    def to(self, target: A, *, kind: Literal["repeat"], on: Outcomes | None = None) -> A: ...
    @overload
    def to(self, target: N, *, kind: FlowKind | None = None, on: Outcomes | None = None) -> N: ...
    def to(self, target: Any, *, kind: Any = None, on: Outcomes | None = None) -> Any:
        """Add an edge from this node to ``target`` (on ``on``, default ``completed``) and answer ``target``.

        ``a.to(b).to(c)`` chains; ``kind`` records intent (``flow`` by default,
        ``repeat`` re-arms ``target``).
        """
        self.graph._add_edge(self, target, kind, on, _caller())
        return target


@dataclasses.dataclass(eq=False)
class ActionNode(_Source):
    """An Action node: ``action`` runs when the node is pending and reached."""

    action: ActionDef = dataclasses.field(kw_only=True, repr=False)
    kind: Literal["action"] = "action"


@dataclasses.dataclass(eq=False)
class GateNode(_Source):
    """A Gate node: the user (or a session holding a delegatable authority) decides."""

    gate: GateDef = dataclasses.field(kw_only=True)
    inspection: ActionDef | None = None
    resolution: ActionDef | None = None
    delegated: DelegatedPolicy | None = None
    kind: Literal["gate"] = "gate"

    @overload
    def to(self, target: A, *, kind: Literal["repeat"], on: Outcomes | None = None) -> A: ...
    @overload
    def to(
        self, target: N, *, kind: FlowKind | Literal["gatedBy"] | None = None, on: Outcomes | None = None
    ) -> N: ...
    def to(self, target: Any, *, kind: Any = None, on: Outcomes | None = None) -> Any:
        """Add an edge from this Gate to ``target`` (``kind="gatedBy"``: the Gate resolves its policy boundary)."""
        self.graph._add_edge(self, target, kind, on, _caller())
        return target


@dataclasses.dataclass(eq=False)
class SubgraphNode(_Source):
    """A Subgraph node: runs ``target``'s ``entry``; its outcome is the one that Graph ends with."""

    target: GraphBuilder | str = dataclasses.field(kw_only=True)
    entry: str = "default"
    kind: Literal["subgraph"] = "subgraph"


@dataclasses.dataclass(eq=False)
class TerminalNode(_NodeBase):
    """A terminal node: reaching it ends the frame with ``outcome``."""

    outcome: Outcome = "completed"
    kind: Literal["terminal"] = "terminal"


Node = ActionNode | GateNode | SubgraphNode | TerminalNode
_NODE_TYPES = (ActionNode, GateNode, SubgraphNode, TerminalNode)
_EDGE_KINDS = ("flow", "consumes", "requires", "gatedBy", "repeat")
_OUTCOMES = ("completed", "partial", "failed", "unverified", "skipped", "pending", "blocked", "waiting-user")


@dataclasses.dataclass(eq=False)
class EdgeDef:
    """An edge: ``source`` to ``target`` (nodes, or node IDs checked when the Provider is built)."""

    source: Node | str
    target: Node | str
    kind: EdgeKind | None = None
    outcomes: list[Outcome] | None = None
    _site: Site | None = dataclasses.field(default=None, repr=False)


@dataclasses.dataclass(eq=False)
class Code:
    """A Code Catalog entry: a reason code (``route-reason``) or a product ``diagnostic``, with its summary."""

    code: str
    summary: str
    kind: Literal["route-reason", "diagnostic"] = "route-reason"
    severity: Literal["info", "warning", "error"] | None = None
    document: Resource | None = None
    _site: Site | None = dataclasses.field(default=None, repr=False)


class GraphBuilder:
    """One Graph: its nodes in order, its edges in order and its entrypoints.

    Nodes are declared with :meth:`action`, :meth:`gate`, :meth:`subgraph` and
    :meth:`terminal`, which answer the node; edges with :meth:`edge` or a
    node's ``to``. Without :meth:`entry`, the first node declared is the
    ``default`` entry.
    """

    def __init__(
        self, provider: ProviderBuilder, id: str, description: str | None, path: str | None, site: Site | None
    ) -> None:
        self.provider = provider
        self.id = id
        self.description = description
        self.path = path
        self.nodes: dict[str, Node] = {}
        self.edges: list[EdgeDef] = []
        self.entrypoints: dict[str, Node | str] = {}
        self._entry_sites: dict[str, Site | None] = {}
        self._site = site
        self._origin: _Origin | None = None

    def __repr__(self) -> str:
        return f"<GraphBuilder {self.id} nodes={len(self.nodes)} edges={len(self.edges)}>"

    # ------------------------------------------------------------ nodes

    def _add(self, node: N) -> N:
        previous = self.nodes.get(node.id)
        if previous is not None:
            where = f" (declared at {previous._site})" if previous._site else ""
            raise _error(
                "graph-node-duplicate", f"Graph {self.id} already has a node {node.id}{where}", node._site
            )
        if not isinstance(node.id, str):
            raise _wrong_type("A node ID", "a string", node.id, node._site)
        self.nodes[node.id] = node
        return node

    def action(self, id: str, action: ActionDef, **options: Unpack[NodeOptions]) -> ActionNode:
        """An Action node running ``action`` (:func:`command`, :func:`script`, :func:`agent`, :func:`host`).

        ``reason`` is its reason code (default ``route.<graph>.<node>``);
        ``proof`` the checks that prove it done (``satisfiedBy``: a path that
        must exist, a mapping of paths to values, :func:`exists`,
        :func:`equals`, or a list of them); ``requires_facts`` what must hold
        for it to be legal (``requiresFacts``); ``required``/``recommended``
        the resources its route lists; ``priority`` and ``join`` as in YAML.
        """
        site = _caller()
        if not isinstance(action, ActionDef):
            raise _wrong_type(
                f"The action of node {id}",
                "an Action (agd.command, agd.script, agd.agent, agd.host)",
                action,
                site,
            )
        return self._add(ActionNode(id, self, **_node_fields(options, site), action=action))

    def gate(
        self,
        id: str,
        gate: GateDef,
        *,
        inspection: ActionDef | None = None,
        resolution: ActionDef | None = None,
        delegated: DelegatedPolicy | None = None,
        **options: Unpack[NodeOptions],
    ) -> GateNode:
        """A Gate node asking for ``gate`` (:func:`gate`); its options are an Action node's.

        ``inspection`` is a ``read`` Action that prepares the evidence,
        ``resolution`` a ``write``/``external`` Action that applies the decision,
        ``delegated`` (:func:`delegated`) what changes when a session's authority
        resolves it.
        """
        site = _caller()
        if not isinstance(gate, GateDef):
            raise _wrong_type(f"The gate of node {id}", "a Gate (agd.gate)", gate, site)
        if delegated is not None and not isinstance(delegated, DelegatedPolicy):
            raise _wrong_type("delegated", "a delegated policy (agd.delegated)", delegated, site)
        return self._add(
            GateNode(
                id,
                self,
                **_node_fields(options, site),
                gate=gate,
                inspection=_action_arg(inspection, "inspection", site),
                resolution=_action_arg(resolution, "resolution", site),
                delegated=delegated,
            )
        )

    def subgraph(
        self, id: str, graph: GraphBuilder | str, entry: str = "default", **options: Unpack[FrameOptions]
    ) -> SubgraphNode:
        """A Subgraph node that runs ``graph`` (a Graph of this Provider, or its ID) from ``entry``."""
        site = _caller()
        if isinstance(graph, GraphBuilder) and graph.provider is not self.provider:
            raise _error(
                "subgraph-missing", f"Graph {graph.id} belongs to another Provider than Graph {self.id}", site
            )
        if not isinstance(graph, (GraphBuilder, str)):
            raise _wrong_type(f"The graph of node {id}", "a Graph of this Provider or its ID", graph, site)
        fields = _node_fields(options, site, routed=False)
        return self._add(SubgraphNode(id, self, **fields, target=graph, entry=entry))

    def terminal(
        self, id: str, outcome: Outcome = "completed", **options: Unpack[FrameOptions]
    ) -> TerminalNode:
        """A terminal node: reaching it ends the Graph with ``outcome``."""
        site = _caller()
        return self._add(TerminalNode(id, self, **_node_fields(options, site, routed=False), outcome=outcome))

    def node(self, id: str) -> Node:
        """The node ``id`` (``argument-invalid``, with the closest ID, when there is none)."""
        found = self.nodes.get(id)
        if found is None:
            raise _error(
                "argument-invalid",
                f"Graph {self.id} has no node {id}{did_you_mean(id, self.nodes)}; its nodes: {listing(self.nodes)}",
                _caller(),
            )
        return found

    # ------------------------------------------------------------ edges and entries

    @overload
    def edge(
        self,
        source: GateNode | str,
        target: Node | str,
        *,
        kind: Literal["gatedBy"],
        on: Outcomes | None = None,
    ) -> EdgeDef: ...
    @overload
    def edge(
        self,
        source: ActionNode | GateNode | SubgraphNode | str,
        target: ActionNode | GateNode | str,
        *,
        kind: Literal["repeat"],
        on: Outcomes | None = None,
    ) -> EdgeDef: ...
    @overload
    def edge(
        self,
        source: ActionNode | GateNode | SubgraphNode | str,
        target: Node | str,
        *,
        kind: FlowKind | None = None,
        on: Outcomes | None = None,
    ) -> EdgeDef: ...
    def edge(self, source: Any, target: Any, *, kind: Any = None, on: Outcomes | None = None) -> EdgeDef:
        """An edge from ``source`` to ``target``, taken on ``on`` (an outcome or several; default ``completed``).

        ``kind`` records intent (``flow`` by default): ``gatedBy`` starts at a
        Gate, ``repeat`` re-arms an Action or Gate. Nodes may be given by ID;
        an ID is checked when the Provider is built.
        """
        return self._add_edge(source, target, kind, on, _caller())

    def _add_edge(self, source: Any, target: Any, kind: Any, on: Any, site: Site | None) -> EdgeDef:
        for label, end in (("source", source), ("target", target)):
            if isinstance(end, _NODE_TYPES):
                if end.graph is not self:
                    raise _error(
                        "graph-edge-node-missing",
                        f"The edge's {label} {end.id} is a node of Graph {end.graph.id}, not of Graph {self.id}",
                        site,
                    )
            elif not isinstance(end, str):
                raise _wrong_type(f"The edge's {label}", f"a node of Graph {self.id} or its ID", end, site)
        if kind is not None and kind not in _EDGE_KINDS:
            raise _error(
                "schema-invalid",
                f"Edge kind {kind!r} is not one of {', '.join(_EDGE_KINDS)}{did_you_mean(str(kind), _EDGE_KINDS)}",
                site,
            )
        outcomes: list[Outcome] | None
        if on is None:
            outcomes = None
        else:
            outcomes = cast("list[Outcome]", [on] if isinstance(on, str) else list(on))
            for outcome in outcomes:
                if outcome not in _OUTCOMES:
                    raise _error(
                        "outcome-invalid",
                        f"Edge outcome {outcome!r} is not an outcome{did_you_mean(str(outcome), _OUTCOMES)}; "
                        f"the outcomes: {', '.join(_OUTCOMES)}",
                        site,
                    )
        if isinstance(source, TerminalNode):
            raise _error(
                "graph-terminal-edge-invalid",
                f"Terminal node {source.id} of Graph {self.id} cannot start an edge",
                site,
            )
        if kind == "gatedBy" and isinstance(source, _NODE_TYPES) and not isinstance(source, GateNode):
            raise _error(
                "graph-gated-by-source-invalid",
                f"A gatedBy edge starts at a Gate; {source.id} is a {source.kind} node",
                site,
            )
        if kind == "repeat" and isinstance(target, (SubgraphNode, TerminalNode)):
            raise _error(
                "graph-repeat-target-invalid",
                f"A repeat edge re-arms an Action or a Gate; {target.id} is a {target.kind} node",
                site,
            )
        edge = EdgeDef(source, target, kind, outcomes, site)
        self.edges.append(edge)
        return edge

    def entry(self, node: Node | str, name: str = "default") -> None:
        """Make ``node`` (or the node with that ID) the entrypoint ``name``."""
        site = _caller()
        if isinstance(node, _NODE_TYPES) and node.graph is not self:
            raise _error(
                "graph-entry-missing",
                f"Node {node.id} belongs to Graph {node.graph.id}, not to Graph {self.id}",
                site,
            )
        if not isinstance(node, (str, *_NODE_TYPES)):
            raise _wrong_type("An entry", f"a node of Graph {self.id} or its ID", node, site)
        self.entrypoints[name] = node
        self._entry_sites[name] = site


class ProviderBuilder:
    """A Provider written in Python. Make one with :func:`provider` (or ``from_provider`` for an existing one).

    ``graph()`` declares a Graph; ``code()`` a Code Catalog entry; ``file()`` a
    file to write as given. ``load()`` answers the :class:`~agent_graph.Provider`
    (in memory), ``write(folder)`` writes its files, ``files()`` answers them.
    """

    def __init__(
        self,
        id: str,
        version: str,
        *,
        name: str | None,
        description: str | None,
        agent_graph: str | None,
        node: str | None,
        site: Site | None,
    ) -> None:
        self.id = id
        self.version = version
        self.name = name
        self.description = description
        #: ``compatibility.agentGraph`` (a version range such as ``^0.3.0``) and ``compatibility.node``.
        self.agent_graph = agent_graph
        self.node = node
        self.graphs: dict[str, GraphBuilder] = {}
        self.codes: dict[str, Code] = {}
        self.extra_files: dict[str, File] = {}
        #: Skills written whether or not an Action uses them (entry Skills bound with :meth:`bind`).
        self.skills: list[Skill] = []
        self.manifest_path = "provider.yaml"
        self.catalog_path: str | None = None
        self._site = site
        self._origin: _Origin | None = None
        self._catalog_origin: _Origin | None = None

    def __repr__(self) -> str:
        return f"<ProviderBuilder {self.id}@{self.version} graphs={list(self.graphs)}>"

    def graph(self, id: str, *, description: str | None = None, path: str | None = None) -> GraphBuilder:
        """Declare the Graph ``id`` (written to ``graphs/<id>.yaml``, or ``path``) and answer it."""
        site = _caller()
        if id in self.graphs:
            raise _error("graph-id-duplicate", f"Provider {self.id} already has a Graph {id}", site)
        if path is not None:
            _check_relative(path, "A Graph path", site)
        built = GraphBuilder(self, id, description, path, site)
        self.graphs[id] = built
        return built

    def bind(self, skill: Skill, graph: GraphBuilder | str, entry: str = "default") -> Skill:
        """Bind ``skill`` to ``graph``'s ``entry``: a thin entry Skill that names this Provider, written with it.

        Its front matter gets ``metadata`` ``agent-graph: path:<the manifest, from the Skill's folder>``,
        ``agent-graph.graph`` and ``agent-graph.entry``; ``agent-graph route --skill SKILL.md`` (or
        ``load_provider("…/SKILL.md")``) then finds the Provider, Graph and entry from it.
        """
        site = _caller()
        if not isinstance(skill, Skill):
            raise _wrong_type("An entry Skill", "a Skill (agd.skill)", skill, site)
        if isinstance(graph, GraphBuilder) and self.graphs.get(graph.id) is not graph:
            raise _error(
                "skill-graph-missing", f"Graph {graph.id} is not a Graph of Provider {self.id}", site
            )
        graph_id = graph.id if isinstance(graph, GraphBuilder) else graph
        folder = posixpath.dirname(skill.path or f"skills/{skill.name}/SKILL.md")
        manifest = posixpath.relpath(self.manifest_path, folder or ".")
        skill.metadata = {
            **(skill.metadata or {}),
            "agent-graph": f"path:{manifest}",
            "agent-graph.graph": graph_id,
            "agent-graph.entry": entry,
        }
        self.skills.append(skill)
        return skill

    def code(
        self,
        code: str,
        summary: str,
        *,
        kind: Literal["route-reason", "diagnostic"] = "route-reason",
        severity: Literal["info", "warning", "error"] | None = None,
        document: Resource | None = None,
    ) -> Code:
        """A Code Catalog entry (``codes.yaml``). Once there is one, every reason code must be listed."""
        site = _caller()
        if code in self.codes:
            raise _error("code-catalog-code-duplicate", f"The Code Catalog already lists {code}", site)
        if document is not None and not isinstance(document, _RESOURCE_TYPES):
            raise _wrong_type("A code's document", "a resource", document, site)
        entry = Code(code, summary, kind, severity, document, site)
        self.codes[code] = entry
        return entry

    def file(self, path: str, content: str | bytes, *, executable: bool = False) -> File:
        """A file written as given (a script a command runs, say); answers it, for ``files=`` of an Action."""
        site = _caller()
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        made = File(path, data, executable, site)
        previous = self.extra_files.get(made.path)
        if previous is not None:
            where = f" (declared at {previous._site})" if previous._site else ""
            raise _error(
                "file-path-conflict",
                f"Provider {self.id} already has the file {path}{where}; change its content with "
                f"provider.extra_files[{path!r}].content = …",
                site,
            )
        self.extra_files[made.path] = made
        return made

    # ------------------------------------------------------------ the files

    def files(self, *, fresh: bool = False) -> dict[str, bytes]:
        """The Provider's files: path relative to the root → bytes, the manifest first.

        A file read from a folder (``from_provider``) keeps its bytes while its
        objects are unchanged; ``fresh=True`` writes every file in the builder's
        own form.
        """
        return dict(_Render(self, fresh=fresh).run().files)

    def load(self, *, root: str = "/provider", limits: Limits | None = None, fresh: bool = False) -> Provider:
        """The Provider these files make, loaded from memory (``root`` is its folder there).

        Raises what loading the written folder would raise, located at the
        declaration in your code. ``fresh`` as for :meth:`files`.
        """
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
                try:
                    current = _read_existing(target)
                except OSError as error:
                    from .._core.errors import os_error

                    raise os_error(error, target, "read", writing=False) from None
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
    if not os.path.lexists(path):
        return None
    if not os.path.isfile(path):
        raise AgentGraphError(
            "path-is-directory", f"Cannot write {path}: something other than a file is there"
        )
    with open(path, "rb") as handle:
        return handle.read()


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
        id, version, name=name, description=description, agent_graph=agent_graph, node=node, site=_caller()
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

    def __init__(self, builder: ProviderBuilder, *, snapshot: bool = False, fresh: bool = False) -> None:
        self.builder = builder
        self.snapshot = snapshot
        self.fresh = fresh
        self.out = _Rendered()
        self.owners: dict[str, tuple[object, Site | None]] = {}
        self.paths: dict[int, str] = {}
        self.action_ids: dict[str, tuple[ActionDef, Site | None]] = {}
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

    # ------------------------------------------------------------ Actions and what they name

    def action(self, action: ActionDef, default_id: str, site: Site | None) -> str:
        known = self.paths.get(id(action))
        if known is not None:
            return known
        action_id = action.id or default_id
        holder = self.action_ids.get(action_id)
        if holder is not None and holder[0] is not action:
            where = f" (first declared at {holder[1]})" if holder[1] else ""
            raise _error(
                "action-id-duplicate",
                f"Two different Actions have the ID {action_id}{where}; give one of them another id=",
                action._site or site,
            )
        self.action_ids[action_id] = (action, action._site)
        origin = action._origin
        path = action.path or (origin.path if origin is not None else f"actions/{action_id}.yaml")
        self.claim(path, action, action._site or site)
        self.paths[id(action)] = path
        placed = action._site or site
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
        origin = schema._origin
        path = schema.path or (origin.path if origin is not None else f"schemas/{stem}.schema.json")
        self.claim(path, schema, schema._site)
        self.paths[id(schema)] = path
        self.emit(path, _copied(schema.value, schema._site), schema, [("", schema._site)])
        return path

    def skill(self, made: Skill) -> str:
        known = self.paths.get(id(made))
        if known is not None:
            return known
        origin = made._origin
        path = made.path or (origin.path if origin is not None else f"skills/{made.name}/SKILL.md")
        self.claim(path, made, made._site)
        self.paths[id(made)] = path
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
        holder = self.resource_ids.get(resource.id)
        if holder is not None and holder[0] is not resource:
            where = f" (first declared at {holder[1]})" if holder[1] else ""
            raise _error(
                "resource-id-duplicate",
                f"Two different resources have the ID {resource.id}{where}",
                resource._site,
            )
        self.resource_ids[resource.id] = (resource, resource._site)
        origin = resource._origin
        if isinstance(resource, Markdown):
            default = f"resources/{resource.id}.md"
        else:
            default = f"resources/{resource.id}.yaml"
        path = resource.path or (origin.path if origin is not None else default)
        self.claim(path, resource, resource._site)
        self.paths[id(resource)] = path
        site = resource._site
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
        value: dict[str, Any]
        if isinstance(resource, FileResourceDef):
            value = {
                "schema": "agent-graph.resource.file.v1",
                "id": resource.id,
                "kind": resource.kind,
                "mediaType": resource.media_type,
                "path": self.put_file(resource.content),
            }
        elif isinstance(resource, GraphActionResourceDef):
            value = {
                "schema": "agent-graph.resource.graph-action.v1",
                "id": resource.id,
                "kind": resource.kind,
                "mediaType": resource.media_type,
                "materializer": self.action(resource.materializer, f"{resource.id}.materializer", site),
            }
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
            value = {
                "schema": "agent-graph.resource.host-action.v1",
                "id": resource.id,
                "kind": resource.kind,
                "mediaType": resource.media_type,
                "materializer": self.action(resource.materializer, f"{resource.id}.materializer", site),
                "input": {"schema": identity, "value": _copied(resource.input, site)},
            }
        value["description"] = resource.description
        self.emit(path, _drop_none(value), resource, [("", site)])
        return path


class _CatalogHolder:
    """The Code Catalog file's origin, as :meth:`_Render.emit` looks for it."""

    def __init__(self, origin: _Origin | None) -> None:
        self._origin = origin
