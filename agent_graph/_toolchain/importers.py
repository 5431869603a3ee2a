"""Importers: an existing Skill, a list of scripts or a dependency workflow as Provider sources.

Each importer copies what it is given, generates the Graph, Actions and
reason codes that describe it literally, registers the Graph in the
Provider manifest (and its codes in the Code Catalog, when there is one) and
appends a section to ``IMPORT_REPORT.md`` naming what a person still has to
decide. Importers never guess semantics: effects default to ``write``, no
Gates, Facts or recovery edges are invented, and unknown workflow fields are
listed, not interpreted. Nothing existing is replaced (``import-target-exists``)
and every generated file is checked against its schema before anything is
written. File access is the operating system's: this is an authoring adapter.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._core.checks import find_cycle
from .._core.errors import AgentGraphError, os_error
from .._load.atomic import FileChanges
from .._syntax import schema as _schema
from .._syntax.parse import parse_front_matter, parse_structured
from .scaffold import check_written_source, dump_yaml, edit_or_dump, ensure_absent, slug

__all__ = ["ImportResult", "import_scripts", "import_skill", "import_workflow"]

REPORT = "IMPORT_REPORT.md"
_EFFECTS = ("read", "write", "external")
_WORKFLOW_STEP_FIELDS = frozenset({"id", "command", "description", "dependsOn", "effect"})


@dataclass(frozen=True)
class ImportResult:
    """What an import wrote: the Graph file, every file created and every file changed (absolute paths)."""

    kind: str
    graph_id: str
    graph_path: str
    created: tuple[str, ...]
    changed: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The command line's answer: ``{state: imported, kind, graph, graphId, created, changed}``."""
        return {
            "state": "imported",
            "kind": self.kind,
            "graph": self.graph_path,
            "graphId": self.graph_id,
            "created": list(self.created),
            "changed": list(self.changed),
        }


# ---------------------------------------------------------------- the Provider being extended


@dataclass
class _Target:
    """An existing Provider and the changes an import will make to it."""

    root: str
    manifest_path: str
    manifest_text: str
    manifest: dict[str, Any]
    new_files: dict[str, bytes] = field(default_factory=dict)
    modes: dict[str, int] = field(default_factory=dict)
    new_directories: list[str] = field(default_factory=list)
    rewrites: dict[str, str] = field(default_factory=dict)

    def path(self, relative: str) -> str:
        return os.path.join(self.root, *relative.split("/"))

    def relative(self, path: str) -> str:
        """``path`` relative to the Provider root (``../…`` for a source outside it), never absolute."""
        try:
            return os.path.relpath(path, self.root).replace(os.sep, "/")
        except ValueError:  # another drive: only the name can be relative
            return os.path.basename(path)

    def add_yaml(self, relative: str, value: Any, schema_name: str) -> None:
        path = self.path(relative)
        _schema.validate(schema_name, value, path)
        data = dump_yaml(value).encode("utf-8")
        check_written_source(path, data, value)
        self.new_files[path] = data


def _read_bytes(path: str, label: str) -> bytes:
    from .._load.fs import read_regular_file

    return read_regular_file(path, label)


def _open_provider(into: str) -> _Target:
    root = os.path.abspath(into)
    manifest_path = os.path.join(root, "provider.yaml")
    if not os.path.isfile(manifest_path):
        raise AgentGraphError(
            "file-missing",
            f"Import needs an existing Provider: {manifest_path} does not exist (create one with `agent-graph init`)",
        )
    data = _read_bytes(manifest_path, "provider manifest")
    manifest = parse_structured(data, manifest_path)
    _schema.validate("provider", manifest, manifest_path)
    return _Target(root, manifest_path, data.decode("utf-8"), manifest)


# ---------------------------------------------------------------- keeping authored YAML


def _block_items(lines: list[str], key: str) -> tuple[int, str] | None:
    """For a top-level ``key:`` holding a block sequence: the line index after its last item, and the item indent."""
    pattern = re.compile(rf"^{re.escape(key)}:\s*(#.*)?$")
    start = next((i for i, line in enumerate(lines) if pattern.match(line)), None)
    if start is None:
        return None
    last = start
    indent: str | None = None
    for index in range(start + 1, len(lines)):
        line = lines[index]
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not (line[0] in " \t" or line.startswith("- ") or line == "-"):
            break
        if indent is None:
            match = re.match(r"^( *)- ", line) or re.match(r"^( *)-$", line)
            if match is None:
                return None
            indent = match.group(1)
        last = index
    if indent is None:
        return None
    return last + 1, indent


def append_list_item_edit(key: str, item_lines: Sequence[str]) -> Callable[[str], str | None]:
    """A text edit appending ``item_lines`` (a sequence item written at indent 0) to the top-level list ``key``."""

    def edit(text: str) -> str | None:
        lines = text.splitlines()
        found = _block_items(lines, key)
        if found is not None:
            position, indent = found
            lines[position:position] = [indent + line for line in item_lines]
            return "\n".join(lines) + "\n"
        # A one-line flow sequence: ``key: [a, b]``.
        if len(item_lines) != 1 or not item_lines[0].startswith("- "):
            return None
        pattern = re.compile(rf"^({re.escape(key)}:\s*\[)(.*?)(\]\s*(#.*)?)$")
        for index, line in enumerate(lines):
            match = pattern.match(line)
            if match:
                inner = match.group(2).strip()
                value = item_lines[0][2:]
                lines[index] = f"{match.group(1)}{inner + ', ' if inner else ''}{value}{match.group(3)}"
                return "\n".join(lines) + "\n"
        return None

    return edit


def _item_lines(value: Any) -> list[str]:
    """A value written as one block-sequence item at indent 0."""
    return dump_yaml([value]).splitlines()


def _register_graph(target: _Target, graph_relative: str) -> None:
    graphs = list(target.manifest.get("graphs") or [])
    if graph_relative in graphs:
        return
    expected = {**target.manifest, "graphs": [*graphs, graph_relative]}
    _schema.validate("provider", expected, target.manifest_path)
    text = edit_or_dump(
        target.manifest_text,
        expected,
        [append_list_item_edit("graphs", _item_lines(graph_relative))],
        path=target.manifest_path,
    )
    check_written_source(target.manifest_path, text.encode("utf-8"), expected)
    target.rewrites[target.manifest_path] = text


def _register_reasons(target: _Target, reasons: Sequence[tuple[str, str]]) -> None:
    """Add route-reason entries to the Provider's Code Catalog, if it has one."""
    catalogs = target.manifest.get("catalogs")
    reference = catalogs.get("codes") if isinstance(catalogs, Mapping) else None
    if not isinstance(reference, str):
        return
    from .._load.fs import contained_path

    path = contained_path(target.root.replace(os.sep, "/"), reference, "code catalog reference")
    data = _read_bytes(path, "code catalog")
    catalog = parse_structured(data, path)
    _schema.validate("code-catalog", catalog, path)
    existing = {entry["code"]: entry for entry in catalog["codes"]}
    added: list[dict[str, str]] = []
    for code, summary in reasons:
        entry = existing.get(code)
        if entry is not None:
            if entry.get("kind") != "route-reason":
                raise AgentGraphError(
                    "route-reason-code-kind-invalid",
                    f"Code {code} exists in {path} but is not a route-reason",
                )
            continue
        added.append({"code": code, "kind": "route-reason", "summary": summary})
    if not added:
        return
    expected = {**catalog, "codes": [*catalog["codes"], *added]}
    _schema.validate("code-catalog", expected, path)
    lines = [line for entry in added for line in _item_lines(entry)]
    text = edit_or_dump(data.decode("utf-8"), expected, [append_list_item_edit("codes", lines)], path=path)
    check_written_source(path, text.encode("utf-8"), expected)
    target.rewrites[path] = text


def _report(target: _Target, heading: str, body: str) -> None:
    path = target.path(REPORT)
    previous = (
        _read_bytes(path, "import report").decode("utf-8") if os.path.isfile(path) else "# Import report\n"
    )
    target.rewrites[path] = f"{previous.rstrip()}\n\n## {heading}\n\n{body.strip()}\n"


def _commit(target: _Target, kind: str, graph_id: str, graph_relative: str) -> ImportResult:
    """Check that nothing new exists yet and that every file reads back, then write new files, rewritten
    files and the report (last); when a write fails, everything written before it is undone."""
    ensure_absent([*target.new_directories, *target.new_files], "import-target-exists", "Import")
    for path, data in target.new_files.items():
        check_written_source(path, data)
    report = target.path(REPORT)
    ordered = [p for p in target.rewrites if p not in (report, target.manifest_path)]
    ordered += [p for p in (target.manifest_path, report) if p in target.rewrites]
    with FileChanges("import-target-exists", "Import") as changes:
        for path, data in target.new_files.items():
            changes.create(path, data, target.modes.get(path))
        for path in ordered:
            data = target.rewrites[path].encode("utf-8")
            if os.path.lexists(path):
                changes.replace(path, data)
            else:
                changes.create(path, data)
    return ImportResult(
        kind=kind,
        graph_id=graph_id,
        graph_path=target.path(graph_relative),
        created=tuple(target.new_files),
        changed=tuple(ordered),
    )


def _graph(
    graph_id: str, entry: str, nodes: list[dict[str, Any]], edges: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "schema": "agent-graph.graph.v1",
        "id": graph_id,
        "entrypoints": {"default": entry},
        "nodes": nodes,
        "edges": edges,
    }


def _copy_tree(source: str, destination: str) -> tuple[dict[str, bytes], dict[str, int], list[str]]:
    """Regular files below ``source`` mapped under ``destination``; symbolic links are listed, not followed."""
    files: dict[str, bytes] = {}
    modes: dict[str, int] = {}
    skipped: list[str] = []
    pending = [source]
    while pending:
        directory = pending.pop()
        try:
            listing = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError as error:
            raise os_error(error, directory, "read the folder", writing=False) from None
        for entry in listing:
            relative = os.path.relpath(entry.path, source)
            if entry.is_symlink():
                skipped.append(relative.replace(os.sep, "/"))
            elif entry.is_dir(follow_symlinks=False):
                pending.append(entry.path)
            elif entry.is_file(follow_symlinks=False):
                target = os.path.join(destination, relative)
                files[target] = _read_bytes(entry.path, "skill file")
                modes[target] = entry.stat(follow_symlinks=False).st_mode & 0o777
    return files, modes, sorted(skipped)


# ---------------------------------------------------------------- import skill


def _bind_skill(text: str, path: str, graph_id: str) -> tuple[str, str, str | None]:
    """The ``SKILL.md`` text bound to the imported Graph, its name, and any binding it replaced."""
    metadata, body = parse_front_matter(text, path)
    name = metadata.get("name")
    if not isinstance(name, str) or not name:
        name = os.path.basename(os.path.dirname(path))
    extension = metadata.get("metadata")
    extension = dict(extension) if isinstance(extension, Mapping) else {}
    previous = extension.get("agent-graph")
    extension["agent-graph"] = "path:../../provider.yaml"
    extension["agent-graph.graph"] = graph_id
    extension["agent-graph.entry"] = "default"
    bound = {**metadata, "name": name, "metadata": extension}
    replaced = previous if isinstance(previous, str) and previous != extension["agent-graph"] else None
    return f"---\n{dump_yaml(bound).rstrip()}\n---\n{body}", name, replaced


def import_skill(skill_md: str, into: str, graph: str | None = None) -> ImportResult:
    """Copy a Skill's directory into ``skills/<id>/``, bind it and wrap it in one agent Action and Graph.

    ``<id>`` is ``graph`` or the Skill directory's name, as an identifier. The
    copied ``SKILL.md`` gets a ``path:`` binding to the Provider, Graph
    ``<id>`` and Entry ``default``; its instructions are not split into guessed
    phases. Codes: ``file-missing``, ``frontmatter-missing``/``-invalid``,
    ``import-target-exists``, ``import-source-overlaps-target``, ``id-invalid``.
    """
    source = os.path.abspath(skill_md)
    text = _read_bytes(source, "Skill").decode("utf-8", errors="replace")
    source_root = os.path.dirname(source)
    graph_id = slug(graph if graph is not None else os.path.basename(source_root))
    target = _open_provider(into)
    skill_directory = target.path(f"skills/{graph_id}")
    relative_root = os.path.relpath(target.root, source_root)
    if relative_root == "." or not relative_root.startswith(".."):
        raise AgentGraphError(
            "import-source-overlaps-target",
            f"The Skill directory {source_root} contains the Provider {target.root}; move the Skill elsewhere first",
        )
    copied, modes, skipped = _copy_tree(source_root, skill_directory)
    copied_skill = os.path.join(skill_directory, os.path.basename(source))
    bound_text, name, replaced = _bind_skill(text, source, graph_id)
    copied[copied_skill] = bound_text.encode("utf-8")
    target.new_directories.append(skill_directory)
    target.new_files.update(copied)
    target.modes.update(modes)
    action_relative = f"actions/{graph_id}.yaml"
    graph_relative = f"graphs/{graph_id}.yaml"
    reason = f"route.{graph_id}.use-skill"
    target.add_yaml(
        action_relative,
        {
            "schema": "agent-graph.action.v1",
            "id": f"skill.{graph_id}",
            "runner": "agent",
            "effect": "write",
            "skill": target.relative(copied_skill),
        },
        "action",
    )
    target.add_yaml(
        graph_relative,
        _graph(
            graph_id,
            "use-skill",
            [
                {
                    "id": "use-skill",
                    "kind": "action",
                    "action": action_relative,
                    "description": f"Use {name}"[:1000],
                    "reasonCode": reason,
                },
                {"id": "done", "kind": "terminal", "terminalOutcome": "completed"},
            ],
            [{"from": "use-skill", "to": "done", "outcomes": ["completed"]}],
        ),
        "graph",
    )
    _register_reasons(target, [(reason, "The imported Skill route is ready to use.")])
    _register_graph(target, graph_relative)
    notes = [
        f"- Imported Skill: `{target.relative(source)}` ({len(copied)} file(s) copied to `{target.relative(skill_directory)}/`)",
        f"- Generated graph: `{graph_relative}` (one agent Action, then a terminal)",
        f"- Generated action: `{action_relative}` (effect `write`: not reviewed)",
        f"- Added Skill binding: Provider `path:../../provider.yaml`, Graph `{graph_id}`, Entry `default`",
    ]
    if replaced is not None:
        notes.append(f"- Replaced the Skill's previous binding `{replaced}`")
    if skipped:
        notes.append("- Not copied (symbolic links): " + ", ".join(f"`{s}`" for s in skipped))
    _report(
        target,
        f"Skill {graph_id}",
        "\n".join(notes)
        + "\n\nThe Skill's instructions were copied unchanged, not split into steps. Review which operations are "
        "separate Actions, their effects, Gates, the Facts that prove success, failure and recovery Outcomes, "
        "and which resources only some Routes need.",
    )
    return _commit(target, "skill", graph_id, graph_relative)


# ---------------------------------------------------------------- import scripts


def runtime_for(path: str) -> str:
    """The script runtime a file extension names: Node, Bun, Python, or the shell for anything else."""
    extension = os.path.splitext(path)[1].lower()
    if extension in (".js", ".mjs", ".cjs"):
        return "node"
    if extension in (".ts", ".mts", ".cts"):
        return "bun"
    if extension == ".py":
        return "python"
    return "shell"


def import_scripts(scripts: Sequence[str], into: str, graph: str | None = None) -> ImportResult:
    """Copy scripts into ``scripts/<id>/`` and chain them as script Actions in one sequential Graph.

    The order given is the order of the Graph; runtimes follow the file
    extensions and every effect is ``write`` until someone reviews it.
    Codes: ``import-empty``, ``file-missing``, ``import-target-exists``, ``id-invalid``.
    """
    if not scripts:
        raise AgentGraphError("import-empty", "At least one script is required")
    sources = [os.path.abspath(s) for s in scripts]
    contents = [_read_bytes(s, "script") for s in sources]
    graph_id = slug(graph if graph is not None else "imported-scripts")
    target = _open_provider(into)
    script_directory = target.path(f"scripts/{graph_id}")
    target.new_directories.append(script_directory)
    width = max(2, len(str(len(sources))))
    nodes: list[dict[str, Any]] = []
    edges: list[dict[str, Any]] = []
    reasons: list[tuple[str, str]] = []
    lines: list[str] = []
    for index, (source, data) in enumerate(zip(sources, contents, strict=True), start=1):
        copied = os.path.join(script_directory, f"{index:0{width}d}-{os.path.basename(source)}")
        target.new_files[copied] = data
        target.modes[copied] = os.stat(source).st_mode & 0o777
        node_id = f"step-{index}"
        action_relative = f"actions/{graph_id}-{index}.yaml"
        runtime = runtime_for(source)
        target.add_yaml(
            action_relative,
            {
                "schema": "agent-graph.action.v1",
                "id": f"{graph_id}.{node_id}",
                "runner": "script",
                "effect": "write",
                "entry": target.relative(copied),
                "runtime": runtime,
            },
            "action",
        )
        reason = f"route.{graph_id}.{node_id}"
        nodes.append(
            {
                "id": node_id,
                "kind": "action",
                "action": action_relative,
                "description": os.path.basename(source)[:1000],
                "reasonCode": reason,
            }
        )
        reasons.append((reason, f"Imported script step {index} is ready to run."))
        if index > 1:
            edges.append({"from": f"step-{index - 1}", "to": node_id, "outcomes": ["completed"]})
        lines.append(
            f"- `{node_id}`: `{target.relative(source)}` → `{target.relative(copied)}` (runtime `{runtime}`, effect `write`)"
        )
    nodes.append({"id": "done", "kind": "terminal", "terminalOutcome": "completed"})
    edges.append({"from": f"step-{len(sources)}", "to": "done", "outcomes": ["completed"]})
    graph_relative = f"graphs/{graph_id}.yaml"
    target.add_yaml(graph_relative, _graph(graph_id, "step-1", nodes, edges), "graph")
    _register_reasons(target, reasons)
    _register_graph(target, graph_relative)
    _report(
        target,
        f"Scripts {graph_id}",
        f"Imported {len(sources)} script(s) as the sequential graph `{graph_id}` (`{graph_relative}`):\n\n"
        + "\n".join(lines)
        + "\n\nRuntimes come from file extensions and every effect is `write`: the importer cannot know whether "
        "a script only reads or changes something outside. Review effects, arguments, working directories, "
        "branching, recovery and the Facts that prove each step complete.",
    )
    return _commit(target, "scripts", graph_id, graph_relative)


# ---------------------------------------------------------------- import workflow


def _check_workflow(source: Any) -> list[dict[str, Any]]:
    if not isinstance(source, Mapping):
        raise AgentGraphError("workflow-invalid", "Workflow must be an object with a steps array")
    steps = source.get("steps")
    if not isinstance(steps, list) or not steps:
        raise AgentGraphError("workflow-invalid", "Workflow must contain a non-empty steps array")
    identity = source.get("id")
    if "id" in source and (not isinstance(identity, str) or not identity):
        raise AgentGraphError("workflow-invalid", "Workflow id must be a non-empty string when present")
    for index, step in enumerate(steps, start=1):
        if not isinstance(step, Mapping) or not isinstance(step.get("id"), str) or not step["id"]:
            raise AgentGraphError(
                "workflow-invalid", f"Workflow step {index} must declare non-empty id and command strings"
            )
        if not isinstance(step.get("command"), str) or not step["command"]:
            raise AgentGraphError(
                "workflow-invalid", f"Workflow step {index} must declare non-empty id and command strings"
            )
        if "description" in step and not isinstance(step["description"], str):
            raise AgentGraphError(
                "workflow-invalid", f"Workflow step {step['id']} description must be a string"
            )
        depends = step.get("dependsOn")
        if "dependsOn" in step and (
            not isinstance(depends, list) or not all(isinstance(d, str) for d in depends)
        ):
            raise AgentGraphError(
                "workflow-invalid", f"Workflow step {step['id']} dependsOn must be a string array"
            )
        if "effect" in step and step["effect"] not in _EFFECTS:
            raise AgentGraphError("workflow-invalid", f"Workflow step {step['id']} has an invalid effect")
    return [dict(step) for step in steps]


def import_workflow(workflow: str, into: str, graph: str | None = None) -> ImportResult:
    """Turn a compact dependency workflow (``{id?, steps: [{id, command, dependsOn?, effect?, description?}]}``) into a Graph.

    Every step becomes a command Action (effect ``write`` unless given);
    ``dependsOn`` becomes edges, so fan-out and fan-in stay as written; a
    read-only ``start`` Action leads to every root and a terminal follows all
    leaves. Templating, conditions, retries and other fields are not
    interpreted: the report lists them. Codes: ``workflow-invalid``,
    ``workflow-step-duplicate``, ``workflow-step-id-collision``,
    ``workflow-step-id-reserved``, ``workflow-dependency-missing``,
    ``workflow-cycle``, ``import-target-exists``.
    """
    path = os.path.abspath(workflow)
    source = parse_structured(_read_bytes(path, "workflow"), path)
    steps = _check_workflow(source)
    target = _open_provider(into)
    requested = (
        graph if graph is not None else source.get("id") or os.path.splitext(os.path.basename(path))[0]
    )
    graph_id = slug(requested)
    ids = [step["id"] for step in steps]
    if len(set(ids)) != len(ids):
        duplicate = next(i for i in ids if ids.count(i) > 1)
        raise AgentGraphError("workflow-step-duplicate", f"Workflow step ids must be unique: {duplicate}")
    node_ids = {step_id: slug(step_id) for step_id in ids}
    if len(set(node_ids.values())) != len(ids):
        raise AgentGraphError(
            "workflow-step-id-collision", "Workflow step ids must remain unique after normalization"
        )
    reserved = [step_id for step_id, node in node_ids.items() if node in ("start", "done")]
    if reserved:
        raise AgentGraphError(
            "workflow-step-id-reserved",
            f"Workflow step ids may not normalize to start or done: {reserved[0]}",
        )
    depends: dict[str, list[str]] = {}
    for step in steps:
        unique: list[str] = []
        for dependency in step.get("dependsOn") or []:
            if dependency not in node_ids:
                raise AgentGraphError(
                    "workflow-dependency-missing", f"Step {step['id']} depends on missing step {dependency}"
                )
            if dependency not in unique:
                unique.append(dependency)
        depends[step["id"]] = unique
    cycle = find_cycle(ids, depends)
    if cycle is not None:
        raise AgentGraphError(
            "workflow-cycle", f"Workflow dependencies contain a cycle: {' -> '.join(cycle)}"
        )

    start_relative = f"actions/{graph_id}-start.yaml"
    target.add_yaml(
        start_relative,
        {
            "schema": "agent-graph.action.v1",
            "id": f"{graph_id}.start",
            "runner": "command",
            "effect": "read",
            "command": "true",
        },
        "action",
    )
    nodes: list[dict[str, Any]] = [
        {
            "id": "start",
            "kind": "action",
            "action": start_relative,
            "description": "Start imported workflow",
            "reasonCode": f"route.{graph_id}.start",
        }
    ]
    edges: list[dict[str, Any]] = []
    reasons = [(f"route.{graph_id}.start", "The imported workflow is ready to start.")]
    defaulted: list[str] = []
    ignored: list[str] = []
    for step in steps:
        node_id = node_ids[step["id"]]
        action_relative = f"actions/{graph_id}-{node_id}.yaml"
        if "effect" not in step:
            defaulted.append(step["id"])
        extra = sorted(set(step) - _WORKFLOW_STEP_FIELDS)
        if extra:
            ignored.append(f"`{step['id']}`: " + ", ".join(f"`{name}`" for name in extra))
        target.add_yaml(
            action_relative,
            {
                "schema": "agent-graph.action.v1",
                "id": f"{graph_id}.{node_id}",
                "runner": "command",
                "effect": step.get("effect", "write"),
                "command": step["command"],
            },
            "action",
        )
        node: dict[str, Any] = {"id": node_id, "kind": "action", "action": action_relative}
        if "description" in step:
            node["description"] = step["description"]
        node["reasonCode"] = f"route.{graph_id}.{node_id}"
        nodes.append(node)
        reasons.append((node["reasonCode"], "The imported workflow step is ready to run."))
        edges.extend(
            {"from": node_ids[d], "to": node_id, "outcomes": ["completed"]} for d in depends[step["id"]]
        )
    edges.extend(
        {"from": "start", "to": node_ids[s["id"]], "outcomes": ["completed"]}
        for s in steps
        if not depends[s["id"]]
    )
    depended = {d for values in depends.values() for d in values}
    nodes.append({"id": "done", "kind": "terminal", "terminalOutcome": "completed", "join": "all"})
    edges.extend(
        {"from": node_ids[s["id"]], "to": "done", "outcomes": ["completed"]}
        for s in steps
        if s["id"] not in depended
    )
    graph_relative = f"graphs/{graph_id}.yaml"
    target.add_yaml(graph_relative, _graph(graph_id, "start", nodes, edges), "graph")
    _register_reasons(target, reasons)
    _register_graph(target, graph_relative)
    notes = [
        f"Imported workflow `{target.relative(path)}` as graph `{graph_id}` (`{graph_relative}`) with {len(steps)} step(s).",
        "",
        "The importer kept each command and every `dependsOn` relationship (fan-in waits for all dependencies), "
        "added a read-only `start` Action before the roots and a terminal after the leaves.",
    ]
    bullets = []
    if defaulted:
        bullets.append(
            "- Steps without an `effect`, written as `write` until reviewed: "
            + ", ".join(f"`{s}`" for s in defaulted)
        )
    if ignored:
        bullets.append("- Fields not interpreted (templating, conditions, retries, environment…):")
        bullets.extend(f"  - {item}" for item in ignored)
    if bullets:
        notes.extend(["", *bullets])
    notes.extend(
        [
            "",
            "Review effects, Outcomes, Gates, recovery routes, resources and the Facts that prove each step "
            "complete before production use.",
        ]
    )
    _report(target, f"Workflow {graph_id}", "\n".join(notes))
    return _commit(target, "workflow", graph_id, graph_relative)
