"""Writing Provider sources: a small YAML writer, safe file creation and ``init``.

``dump_yaml`` turns JSON data into block-style YAML 1.2 that both this
library's reader and the TypeScript toolchain's read back as the same value;
``edit_or_dump`` keeps an author's file (comments, layout) when a small text
edit gives the intended value and writes it fresh otherwise.
``init_provider`` creates a minimal, valid Provider that passes its own graph
tests. Writers here refuse to replace anything that exists. This module knows
nothing of evaluation; it writes only through :mod:`agent_graph._load.atomic`, and only
files that read back (:func:`check_written_source`).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .._core.canonical import canonical_json
from .._core.errors import AgentGraphError, ErrorCode
from .._load.atomic import FileChanges
from .._syntax.emit import dump_yaml, yaml_scalar
from .._syntax.parse import (
    DEFAULT_MAX_FILE_BYTES,
    parse_front_matter,
    parse_json,
    parse_structured,
    parse_yaml,
)
from .._syntax.schema import schema_document

__all__ = [
    "check_written_source",
    "dump_yaml",
    "edit_or_dump",
    "init_provider",
    "slug",
    "write_new_files",
    "yaml_scalar",
]

# ---------------------------------------------------------------- YAML writing (in _syntax.emit)


def _same(left: Any, right: Any) -> bool:
    try:
        return canonical_json(left) == canonical_json(right)
    except (TypeError, ValueError):
        return False


def edit_or_dump(
    text: str, expected: Any, edits: Iterable[Callable[[str], str | None]], *, path: str = "<string>"
) -> str:
    """Apply the first text edit whose result parses to ``expected``; otherwise write ``expected`` fresh.

    Edits keep comments and layout of hand-written files; the fallback keeps
    the value right when the layout is one the edits do not understand. A
    ``path`` ending in ``.json`` is read and written as JSON, anything else as YAML.
    """
    is_json = path.lower().endswith(".json")
    for edit in edits:
        try:
            candidate = edit(text)
        except (ValueError, IndexError):
            candidate = None
        if candidate is None:
            continue
        try:
            parsed = parse_json(candidate, path) if is_json else parse_yaml(candidate, path)
        except AgentGraphError:
            continue
        if _same(parsed, expected):
            return candidate
    if is_json:
        return json.dumps(expected, indent=2, ensure_ascii=False) + "\n"
    return dump_yaml(expected)


# ---------------------------------------------------------------- identifiers and files


def slug(value: str) -> str:
    """A protocol identifier from free text: lower case, ``[a-z0-9._-]``, letter or digit at both ends."""
    normalized = re.sub(r"[^a-z0-9._-]+", "-", value.lower())
    normalized = re.sub(r"\.{2,}", "-", normalized)
    normalized = re.sub(r"^[^a-z0-9]+|[^a-z0-9]+$", "", normalized)
    if not normalized:
        raise AgentGraphError("id-invalid", f"Cannot derive an id from {value!r}")
    if len(normalized) > 160:
        raise AgentGraphError("id-invalid", f"The id derived from {value!r} is longer than 160 characters")
    return normalized


_UNCHECKED: Any = object()


def check_written_source(path: str, data: bytes, expected: Any = _UNCHECKED) -> None:
    """Refuse to write a Provider file that the loader would refuse, or read back as another value.

    Every file must fit the loader's default size limit (``file-too-large``);
    a ``.yaml``, ``.yml`` or ``.json`` file must parse within the default
    limits, and a Markdown file that starts with front matter must keep a
    readable header (``output-unreadable``); with ``expected``, the value read
    back (the header, for Markdown) must be that value.
    """
    if len(data) > DEFAULT_MAX_FILE_BYTES:
        raise AgentGraphError(
            "file-too-large",
            f"Refusing to write {path}: {len(data)} bytes, over the {DEFAULT_MAX_FILE_BYTES}-byte limit the loader reads",
        )
    lowered = path.lower()
    try:
        if lowered.endswith((".yaml", ".yml", ".json")):
            value = parse_structured(data, path)
        elif lowered.endswith(".md") and data.startswith(b"---"):
            value = parse_front_matter(data.decode("utf-8"), path)[0]
        else:
            return
    except (AgentGraphError, UnicodeDecodeError) as error:
        raise AgentGraphError(
            "output-unreadable", f"Refusing to write {path}: the loader would not read it back ({error})"
        ) from None
    if expected is not _UNCHECKED and not _same(value, expected):
        raise AgentGraphError(
            "output-unreadable", f"Refusing to write {path}: it would read back as another value"
        )


def ensure_absent(paths: Iterable[str], code: ErrorCode, what: str) -> None:
    """Raise ``code`` when any path already exists (a file, a directory or a link)."""
    for path in paths:
        if os.path.lexists(path):
            raise AgentGraphError(code, f"{what} refuses to replace existing content: {path}")
        parent = os.path.dirname(path)
        while parent and not os.path.lexists(parent):
            parent = os.path.dirname(parent) if os.path.dirname(parent) != parent else ""
        if parent and not os.path.isdir(parent):
            raise AgentGraphError(
                "path-not-directory", f"{what} cannot create {path}: {parent} is not a directory"
            )


def write_new_files(files: Mapping[str, str | bytes], code: ErrorCode, what: str) -> list[str]:
    """Create every file (absolute paths), after checking that none exists and each reads back; all or none.

    Returns the paths written. When one write fails (a full disk, say), the
    files and folders already made are removed again.
    """
    ensure_absent(files, code, what)
    contents = {
        path: content.encode("utf-8") if isinstance(content, str) else content
        for path, content in files.items()
    }
    for path, data in contents.items():
        check_written_source(path, data)
    written = []
    with FileChanges(code, what) as changes:
        for path, data in contents.items():
            changes.create(path, data)
            written.append(path)
    return written


# ---------------------------------------------------------------- init

_GRAPH = """\
# The starter Graph: one Agent Skill action, then done.
# Add Actions, Gates and recovery edges here; pin each behaviour with a test in tests/.
schema: agent-graph.graph.v1
id: main
description: Starter graph that delegates one action to an Agent Skill.
entrypoints:
  default: work
nodes:
  - id: work
    kind: action
    description: Perform the work
    reasonCode: route.main.work
    action: actions/work.yaml
    resources:
      required: [resources/procedure.md]
  - id: done
    kind: terminal
    description: The work is done
    terminalOutcome: completed
edges:
  - { from: work, to: done, outcomes: [completed] }
"""

_ACTION = """\
schema: agent-graph.action.v1
id: work
description: The Agent performs the work with the getting-started Skill.
runner: agent
effect: write
skill: skills/getting-started/SKILL.md
"""

_SKILL = """\
---
name: getting-started
description: Complete the current task using the route and resources supplied by Agent Graph.
metadata:
  agent-graph: path:../../provider.yaml
  agent-graph.graph: main
  agent-graph.entry: default
---

# Getting started

Do not plan the steps yourself. Evaluate the Graph, resolve the primary Route,
read every required resource marked `read-required`, do exactly what the Route
says, then record an explicit Outcome under `afterAction.recordNode` and
evaluate again.
"""

_PROCEDURE = """\
---
id: procedure.start
kind: procedure
media-type: text/markdown
---

# Procedure

Replace this resource with the context an Agent needs only when a Route selects it.
"""

_CODES = """\
schema: agent-graph.code-catalog.v1
codes:
  - code: route.main.work
    kind: route-reason
    summary: The requested work is ready to perform.
    document: resources/procedure.md
"""

_TEST_START = """\
schema: agent-graph.test.v1
name: starter route is actionable
graph: main
entry: default
expect:
  statusCode: actionable
  primaryNode: work
  primaryReasonCode: route.main.work
  availability: immediate
  requiredResources: [skill.getting-started, procedure.start]
  recordNode: main/work
"""

_TEST_DONE = """\
schema: agent-graph.test.v1
name: recorded work completes the graph
graph: main
entry: default
state:
  outcomes:
    main/work: completed
expect:
  statusCode: complete
  outcome: completed
"""


def init_files(provider_id: str) -> dict[str, str]:
    """The files ``init`` writes, by Provider-relative path."""
    identifier = slug(provider_id)
    name = provider_id.strip() or identifier
    manifest = dump_yaml(
        {
            "schema": "agent-graph.provider.v1",
            "id": identifier,
            "version": "0.1.0",
            "name": name[:120],
            "graphs": ["graphs/main.yaml"],
            "catalogs": {"codes": "codes.yaml"},
            "compatibility": {"agentGraph": "^0.3.0"},
        }
    )
    return {
        "provider.yaml": schema_modeline("provider") + manifest,
        "graphs/main.yaml": schema_modeline("graph") + _GRAPH,
        "actions/work.yaml": schema_modeline("action") + _ACTION,
        "skills/getting-started/SKILL.md": _SKILL,
        "resources/procedure.md": _PROCEDURE,
        "codes.yaml": schema_modeline("code-catalog") + _CODES,
        "tests/01-start.yaml": schema_modeline("test-case") + _TEST_START,
        "tests/02-done.yaml": schema_modeline("test-case") + _TEST_DONE,
    }


def schema_modeline(name: str) -> str:
    """The comment line that tells an editor's YAML language server which schema a file follows.

    ``# yaml-language-server: $schema=<$id>`` with the stable ``$id`` of the shipped
    ``<name>.schema.json`` (VS Code's YAML extension reads it to validate and
    complete the file as one types; docs/authoring.md says how to point it at
    the installed files instead). A comment: the loader reads the same values.
    """
    return f"# yaml-language-server: $schema={schema_document(name)['$id']}\n"


def init_provider(directory: str, provider_id: str) -> str:
    """Create a minimal Provider in ``directory``; return the absolute path of its ``provider.yaml``.

    The Provider has an agent Action bound to a Skill whose ``SKILL.md``
    declares the ``path:`` locator, Graph and Entry, a procedure resource, a
    Code Catalog and two passing graph tests. Nothing is written when any of
    the files exists already (``provider-target-exists``); an ID that yields
    no identifier is ``id-invalid``.
    """
    root = os.path.abspath(directory)
    files = {
        os.path.join(root, *relative.split("/")): text for relative, text in init_files(provider_id).items()
    }
    write_new_files(files, "provider-target-exists", "Provider initialization")
    return os.path.join(root, "provider.yaml")
