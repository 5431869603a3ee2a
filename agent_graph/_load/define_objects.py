"""The parts a Provider written in Python is made of: files, schemas, Skills, Actions, resources, checks on
Facts, Gates and delegated policies, and where each was declared.

:mod:`agent_graph._load.define` builds Graphs and the Provider from these parts and lists the public names
(``agent_graph.define``); :mod:`agent_graph._load.define_render` turns them into files. Every factory
records the ``file:line`` of the call that made its object (:class:`Site`): a mistake found later, by the
builder or by the loader in a generated file, is reported there. Arguments of the wrong type are
``argument-invalid``. No I/O.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from .._core.errors import AgentGraphError, Diagnostic, ErrorCode
from .._core.model import Effect, Outcome, Runner, WorkingDirectory

if TYPE_CHECKING:
    from typing_extensions import Unpack

else:
    try:
        from typing import Unpack
    except ImportError:  # Python 3.10: ``**options: Unpack[…]`` is read back as the TypedDict itself

        class _Unpack:
            def __getitem__(self, item: Any) -> Any:
                return item

        Unpack = _Unpack()

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
