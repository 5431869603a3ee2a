"""``lint(provider)``: static findings about a loaded Provider, placed at file, line and column.

The rules live in :mod:`agent_graph._core.lint` and are pure; this module reads
what they need beyond the Provider: its graph tests (by default the ``tests``
folder beside the manifest), the JSON Schemas of its Actions, its documents
(Skills, Markdown resources, catalog documents, README.md) and the files of
its folder that the loader never reached. It then locates every finding in
its file and drops those silenced in the source by a suppression comment::

    - id: draft  # agent-graph: ignore[AG401]

on the line where the node or edge starts (or alone on the line above it);
for a finding about a whole file (an unused Action, resource or schema) the
marker may stand anywhere in that file. Without ``[...]`` it silences every
rule. Nothing here writes anything; files that cannot be read or parsed are
left out (``validate`` and ``test`` report them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .._core.errors import AgentGraphError, shown
from .._core.lint import RULES, Finding, Issue, LintRule, LintSources, analyse, selected_rules
from .._core.model import TestCase
from .._core.provider import Provider, loaded_provider
from .._load.files import provider_file_system
from .._load.fs import FileSystem
from .._syntax.explain import MAX_LOCATED_TEXT, NOWHERE, pointer_target
from .._syntax.parse import parse_front_matter, parse_structured
from .._syntax.yaml_events import locate_pointers
from .testing import discover_tests, read_test_case

__all__ = ["SUPPRESSION", "finding_fields", "lint", "place", "shown_file"]

#: The suppression marker, in a comment (``#`` in YAML, ``<!-- -->`` in Markdown, ``$comment`` in a JSON Schema).
SUPPRESSION = "agent-graph: ignore"
_MARKER = re.compile(r"agent-graph:\s*ignore(?:\[([^\]]*)\])?")
_READ_LIMIT = 4 * 1024 * 1024  # larger files are left out of lint's own reading
_STRUCTURED = (".yaml", ".yml", ".json")
_SKIPPED_FOLDERS = ("node_modules", "__pycache__")


def _read(fs: FileSystem, path: str) -> bytes | None:
    try:
        if fs.size(path) > _READ_LIMIT:
            return None
        return fs.read_bytes(path)
    except OSError:
        return None


def _text(fs: FileSystem, path: str) -> str | None:
    data = _read(fs, path)
    return data.decode("utf-8", errors="replace") if data is not None else None


def _structured(fs: FileSystem, path: str) -> Any:
    data = _read(fs, path)
    if data is None:
        return None
    try:
        return parse_structured(data, path)
    except AgentGraphError:
        return None


def _tests(provider: Provider, tests: str | None, fs: FileSystem) -> list[TestCase]:
    if tests is None:
        if provider.bundle is not None:
            return []
        folder = f"{provider.root.rstrip('/')}/tests"
        if fs.kind(folder) != "directory":
            return []
        tests = folder
    cases: list[TestCase] = []
    for file in discover_tests(tests, fs):
        data = _read(fs, file)
        if data is None:
            continue
        try:
            cases.append(read_test_case(data, file))
        except AgentGraphError:
            continue
    return cases


_BRANCHES = ("allOf", "anyOf", "oneOf")
_SCHEMA_DEPTH = 32  # a recursive schema (a tree) names paths this deep at most


def _schema_paths(schema: Any, declared: set[str], open_maps: set[str], budget: int = 100_000) -> None:
    """The dotted paths a JSON Schema names through ``properties`` (``*`` for array items), walked iteratively.

    ``allOf``/``anyOf``/``oneOf``/``then``/``else`` branches describe the same
    value and local ``$ref`` references are followed; ``budget`` bounds the
    walk and ``_SCHEMA_DEPTH`` the paths (a recursive schema ends there). An object whose
    ``additionalProperties`` or ``patternProperties`` is a schema goes to
    ``open_maps``.
    """
    stack: list[tuple[str, Any]] = [("", schema)]
    seen: set[tuple[str, int]] = set()  # a schema object met again at the same path (a reference cycle)
    while stack and budget > 0:
        budget -= 1
        prefix, node = stack.pop()
        if not isinstance(node, dict) or prefix.count(".") >= _SCHEMA_DEPTH:
            continue
        if (prefix, id(node)) in seen:
            continue
        seen.add((prefix, id(node)))
        reference = node.get("$ref")
        if isinstance(reference, str) and reference.startswith("#"):
            fragment = reference[1:]
            target = pointer_target(schema, fragment.split("/")[1:] if fragment else [])
            if target is not NOWHERE:
                stack.append((prefix, target))
        properties = node.get("properties")
        if isinstance(properties, dict):
            for key, sub in properties.items():
                path = f"{prefix}.{key}" if prefix else key
                declared.add(path)
                stack.append((path, sub))
        if isinstance(node.get("additionalProperties"), dict) or isinstance(
            node.get("patternProperties"), dict
        ):
            open_maps.add(prefix)
        items = node.get("items")
        if isinstance(items, dict):
            stack.append((f"{prefix}.*" if prefix else "*", items))
        for branch in _BRANCHES:
            options = node.get(branch)
            if isinstance(options, list):
                stack.extend((prefix, option) for option in options)
        for branch in ("then", "else"):
            if isinstance(node.get(branch), dict):
                stack.append((prefix, node[branch]))


def _schemas_and_documents(provider: Provider, fs: FileSystem) -> tuple[list[Any], list[str]]:
    schemas: list[Any] = []
    documents: list[str] = []
    seen: set[str] = set()
    for action in provider.actions.values():
        located = action.route_action
        if located is None:
            continue
        for schema in (located.input_schema, located.output_schema):
            if schema is not None and schema.file_path not in seen:
                seen.add(schema.file_path)
                value = _structured(fs, schema.file_path)
                if value is not None:
                    schemas.append(value)
        if located.skill is not None and located.skill.file_path not in seen:
            seen.add(located.skill.file_path)
            text = _text(fs, located.skill.file_path)
            if text is not None:
                documents.append(text)
    paths = [r.content_path for r in provider.resources.values() if r.media_type == "text/markdown"]
    paths.append(f"{provider.root.rstrip('/')}/README.md")
    for path in paths:
        if path not in seen:
            seen.add(path)
            text = _text(fs, path) if fs.kind(path) == "file" else None
            if text is not None:
                documents.append(text)
    return schemas, documents


def _stray(provider: Provider, fs: FileSystem) -> list[tuple[str, str]]:
    """Files of the Provider folder the loader never reached that look like Actions, resources or schemas."""
    if provider.bundle is not None:
        return []
    root = provider.root.rstrip("/")
    known = set(provider.files)
    known.add(provider.manifest_path)
    files = [path for path in fs.list_files(root) if path.startswith(root + "/")]
    # A folder with a manifest of its own (another Provider, a built bundle) belongs to that one.
    nested = {
        path.rsplit("/", 1)[0] + "/"
        for path in files
        if path.rsplit("/", 1)[-1] in ("provider.yaml", "provider.yml", "manifest.json") and path not in known
    }

    def in_nested(path: str) -> bool:
        slash = path.find("/", len(root) + 1)
        while slash >= 0:
            if path[: slash + 1] in nested:
                return True
            slash = path.find("/", slash + 1)
        return False

    found: list[tuple[str, str]] = []
    for path in files:
        if path in known or (nested and in_nested(path)):
            continue
        parts = path[len(root) + 1 :].split("/")
        if parts[0] == "tests" or any(p.startswith(".") or p in _SKIPPED_FOLDERS for p in parts[:-1]):
            continue
        name = parts[-1].lower()
        if name.endswith(_STRUCTURED):
            value = _structured(fs, path)
            if not isinstance(value, dict):
                continue
            schema = value.get("schema")
            if schema == "agent-graph.action.v1":
                found.append((path, "action"))
            elif isinstance(schema, str) and schema.startswith("agent-graph.resource."):
                found.append((path, "resource"))
            elif "$schema" in value or name.endswith(".schema.json"):
                found.append((path, "schema"))
        elif name.endswith(".md") and name not in ("readme.md", "skill.md"):
            text = _text(fs, path)
            if text is None:
                continue
            try:
                metadata, _body = parse_front_matter(text, path)
            except AgentGraphError:
                continue
            if "id" in metadata and "kind" in metadata:
                found.append((path, "resource"))
    return found


def _silenced(code: str, rule: str, marker: re.Match[str]) -> bool:
    listed = marker.group(1)
    if listed is None:
        return True
    names = {item.strip() for item in listed.split(",")}
    return code in names or rule in names


def place(
    provider: Provider,
    issues: Sequence[Issue],
    fs: FileSystem,
    rules: Mapping[str, LintRule] = RULES,
) -> list[tuple[Issue, int, int]]:
    """The issues not silenced by a suppression comment, each with its line and column (0 when unknown).

    ``rules`` names each issue's code (a suppression may name the rule).
    Issues keep their order; each file is read once.
    """
    by_file: dict[str, list[int]] = {}
    for position, issue in enumerate(issues):
        by_file.setdefault(issue.path, []).append(position)
    kept: dict[int, tuple[Issue, int, int]] = {}
    for path, group in by_file.items():
        text = _text(fs, path) or ""
        lines = text.splitlines()
        wanted = {p for position in group for p in (issues[position].pointer, issues[position].anchor) if p}
        # As for schema violations, positions are looked up in texts up to MAX_LOCATED_TEXT (else line 0).
        positions = locate_pointers(text, wanted) if text and wanted and len(text) <= MAX_LOCATED_TEXT else {}
        for position in group:
            issue = issues[position]
            rule = rules[issue.code]
            candidates: Iterable[str] = ()
            if issue.anchor:  # a definition inside the file: the marker on its first line or alone above it
                where = positions.get(issue.pointer) or positions.get(issue.anchor)
                line, column = (where[2], where[3]) if where is not None else (0, 0)
                anchor = positions.get(issue.anchor)
                if anchor is not None:
                    row = anchor[2] - 1
                    above = lines[row - 1] if row >= 1 and lines[row - 1].lstrip().startswith("#") else ""
                    candidates = (lines[row] if row < len(lines) else "", above)
            else:  # the whole file: the marker anywhere in it
                line, column = 1, 1
                candidates = lines
            if any(
                _silenced(issue.code, rule.name, marker)
                for text_line in candidates
                if "agent-graph" in text_line
                for marker in _MARKER.finditer(text_line)
            ):
                continue
            kept[position] = (issue, line, column)
    return [kept[position] for position in sorted(kept)]


def shown_file(provider: Provider, path: str) -> str:
    """A file as findings name it: relative to the Provider root when below it, else as it is."""
    return provider.relative(path) if path.startswith(provider.root.rstrip("/") + "/") else path


def finding_fields(
    provider: Provider, issue: Issue, line: int, column: int, rules: Mapping[str, LintRule] = RULES
) -> dict[str, Any]:
    """The fields of the :class:`Finding` of a placed issue."""
    rule = rules[issue.code]
    return {
        "code": issue.code,
        "rule": rule.name,
        "severity": rule.severity,
        "message": issue.message,
        "file": shown_file(provider, issue.path),
        "line": line,
        "column": column,
        "graph": issue.graph,
        "node": issue.node,
        "edge": issue.edge,
        "pointer": issue.pointer,
        "hint": issue.hint,
    }


def _place(provider: Provider, issues: Sequence[Issue], fs: FileSystem) -> list[Finding]:
    findings = [Finding(**finding_fields(provider, *placed)) for placed in place(provider, issues, fs)]
    findings.sort(key=lambda f: (f.file, f.line, f.column, f.code, f.message))
    return findings


def lint(
    provider: Provider,
    *,
    tests: str | None = None,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    fs: FileSystem | None = None,
) -> list[Finding]:
    """The lint findings of a loaded Provider, sorted by file, line and column.

    ``tests`` is a graph test file or folder (default: the ``tests`` folder
    beside the manifest, when there is one); its states tell which facts and
    authorities exist. ``select`` and ``ignore`` take rule codes (``AG101``),
    code prefixes (``AG1``) or rule names (``unreachable-node``); an unknown
    one is ``lint-rule-unknown``. ``fs`` is the file system the Provider was
    loaded from (default: the one the Provider keeps, see ``load_provider``).
    Arguments of the wrong type are ``argument-invalid``.
    """
    loaded_provider(provider, "lint")
    if tests is not None and not isinstance(tests, str):
        raise AgentGraphError("argument-invalid", f"tests must be a path (a string), not {shown(tests)}")
    wanted = selected_rules(select, ignore)
    fs = fs or provider_file_system(provider)
    if not wanted:
        return []
    cases = _tests(provider, tests, fs)
    schemas, documents = _schemas_and_documents(provider, fs)
    declared: set[str] = set()
    open_maps: set[str] = set()
    for schema in schemas:
        _schema_paths(schema, declared, open_maps)
    stray = _stray(provider, fs) if wanted & {"AG501", "AG502", "AG503"} else []
    sources = LintSources(
        tests=cases,
        declared=frozenset(declared),
        open_maps=frozenset(open_maps),
        documents=documents,
        stray=stray,
    )
    return _place(provider, analyse(provider, sources, wanted), fs)
