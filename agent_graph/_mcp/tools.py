"""The MCP tools of ``agent-graph mcp``: names, JSON Schemas and argument checks.

This module is the stable contract an MCP client sees: seven tools whose
names and input/output JSON Schemas never change within a major version
(docs/mcp.md lists them). It imports nothing of the MCP SDK, does no I/O and
keeps no state.

Rules:

* Arguments are checked here, field by field, before anything else runs: a
  wrong type, an unknown field, a string or a JSON value over its limit is an
  :class:`~agent_graph.AgentGraphError` (``argument-invalid``,
  ``input-too-large``, ``input-too-deep``), never a crash.
* JSON values an agent hands over (Facts, a record's detail) are walked
  without recursion, bounded in depth and size, then read back through the
  project's JSON reader so they get exactly the numbers and key order the
  command line would give them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass
from typing import Any

from .._core.errors import AgentGraphError
from .._core.model import OUTCOMES
from .._core.plain import json_type

__all__ = [
    "MAX_DETAIL_BYTES",
    "MAX_FACTS_BYTES",
    "MAX_JSON_DEPTH",
    "TOOLS",
    "ToolSpec",
    "check_arguments",
]

#: Largest Facts object one call may carry (bytes of compact JSON).
MAX_FACTS_BYTES = 1024 * 1024
#: Largest ``detail`` of a record (bytes of compact JSON).
MAX_DETAIL_BYTES = 64 * 1024
#: Deepest nesting of arrays and objects accepted in Facts or a detail.
MAX_JSON_DEPTH = 64
#: Longest identifier (Run ID, Graph, entry, node, route or resource ID).
MAX_ID_LENGTH = 1000

_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,199}")
_REVISION = re.compile(r"sha256:[0-9a-f]{64}")

_STATUSES = ["actionable", "waiting-user", "blocked", "complete", "error"]


@dataclass(frozen=True, eq=False)
class ToolSpec:
    """One tool: its stable name, title, description and JSON Schemas."""

    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    output_schema: dict[str, Any]
    _: KW_ONLY
    read_only: bool


# ---------------------------------------------------------------- schema pieces


def _string(
    description: str, *, pattern: str | None = None, max_length: int = MAX_ID_LENGTH
) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "string",
        "minLength": 1,
        "maxLength": max_length,
        "description": description,
    }
    if pattern is not None:
        schema["pattern"] = pattern
    return schema


_RUN_ID_SCHEMA = _string(
    "The Run ID that start_run or list_runs gave.",
    pattern="^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$",
    max_length=200,
)
_REVISION_SCHEMA = _string(
    "The revision next_step gave with the step (record.revision).",
    pattern="^sha256:[0-9a-f]{64}$",
    max_length=71,
)


def _object(
    properties: dict[str, Any], required: list[str], description: str | None = None
) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }
    if description is not None:
        schema["description"] = description
    return schema


def _strings(description: str) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "string"}, "description": description}


def _output(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required}


_DIAGNOSTICS = {
    "type": "array",
    "description": "Diagnostics of the evaluation: {code, severity, message, path?, detail?}.",
    "items": {"type": "object", "required": ["code", "severity", "message"]},
}
_STATUS = {"type": "string", "enum": _STATUSES, "description": "The Run's status after this call."}
_REVISION_OUT = {"type": "string", "description": "The Run's revision after this call."}

START_RUN = ToolSpec(
    "start_run",
    "Start a Run",
    "Start a new Run of a graph entry of the Provider and answer its Run ID. Facts given here are the "
    "agent's claims: Facts that a Gate reads are refused. Continue with next_step.",
    _object(
        {
            "graph": _string("Graph ID (default: the bound Skill's graph, else the Provider's first graph)."),
            "entry": _string("Entry point of the graph (default: the bound Skill's entry, else 'default')."),
            "facts": {"type": "object", "description": "Initial Facts (a JSON object) the agent claims."},
        },
        [],
    ),
    _output(
        {
            "runId": {"type": "string"},
            "provider": {"type": "string"},
            "graph": {"type": "string"},
            "entry": {"type": "string"},
            "status": _STATUS,
            "revision": _REVISION_OUT,
        },
        ["runId", "provider", "graph", "entry", "status", "revision"],
    ),
    read_only=False,
)

#: What holds a Run back (``Step.blockers``), where an answer has it.
_BLOCKERS: dict[str, Any] = {
    "type": "array",
    "description": "Nodes that hold the Run back (unverified, blocked by requiresFacts, or where it stops), in "
    "explain's words: {node, kind, status, reason, message, checks (the unmet Fact checks)}.",
    "items": {"type": "object", "required": ["node", "kind", "status", "reason", "message", "checks"]},
}

NEXT_STEP = ToolSpec(
    "next_step",
    "Next step of a Run",
    "What to do now in a Run: its status and the route to take — the Action (command plan, host "
    "handler or agent work), the resources to read first with their read state, the Gate and its "
    "prompt, which Facts prove the step done, and the node and revision to record afterwards. "
    "A Gate that needs the user is asked of the user (through the client, when it can ask); the "
    "agent cannot resolve it.",
    _object(
        {
            "runId": _RUN_ID_SCHEMA,
            "routeId": _string("A route ID from this Run's alternatives (default: the primary route)."),
        },
        ["runId"],
    ),
    _output(
        {
            "runId": {"type": "string"},
            "status": {"type": "string", "enum": _STATUSES},
            "outcome": {
                "type": "string",
                "description": "The terminal outcome, when the status is complete.",
            },
            "revision": {"type": "string"},
            "route": {
                "type": ["object", "null"],
                "description": "The route (agent-graph.route.v1), or null when there is none.",
            },
            "alternatives": {
                "type": "array",
                "description": "Other routes available now: {routeId, graph, node, availability, label, reasonCode}.",
                "items": {"type": "object", "required": ["routeId", "node", "availability"]},
            },
            "proof": {
                "type": "array",
                "description": "Fact checks that prove the step complete: {path, operator (exists or equals), "
                "expected, holds (against the Run's Facts now)}.",
                "items": {"type": "object", "required": ["path", "operator", "expected", "holds"]},
            },
            "blockers": _BLOCKERS,
            "record": {
                "type": "object",
                "description": "What record_outcome takes when the step is done.",
                "properties": {"node": {"type": "string"}, "revision": {"type": "string"}},
                "required": ["node", "revision"],
            },
            "userDecision": {
                "type": "object",
                "description": "The Gate waits for the user: show the prompt; only the user answers it.",
                "properties": {
                    "gate": {"type": "string"},
                    "prompt": {"type": "string"},
                    "node": {"type": "string"},
                    "asked": {"type": "boolean"},
                    "answer": {"type": "string"},
                },
                "required": ["gate", "prompt", "node", "asked"],
            },
            "resolved": {
                "type": "object",
                "description": "A Gate the user answered during this call: {gate, node, decision}.",
                "required": ["gate", "node", "decision"],
            },
            "diagnostics": _DIAGNOSTICS,
        },
        ["runId", "status", "revision", "route", "alternatives", "proof", "diagnostics"],
    ),
    read_only=False,
)

READ_RESOURCE = ToolSpec(
    "read_resource",
    "Read a resource of the step",
    "Read a resource the current step lists (or any static resource of the Provider) and keep its read "
    "receipt, so that next_step shows it as current. Context views are produced at the step's revision.",
    _object(
        {
            "runId": _RUN_ID_SCHEMA,
            "resourceId": _string("The resource ID, as the route lists it."),
            "routeId": _string("The route the resource belongs to (default: the primary route)."),
        },
        ["runId", "resourceId"],
    ),
    _output(
        {
            "runId": {"type": "string"},
            "resourceId": {"type": "string"},
            "kind": {"type": "string"},
            "mediaType": {"type": "string"},
            "content": {"type": "string"},
            "receipt": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "digest": {"type": "string"},
                    "revision": {"type": "string"},
                },
                "required": ["id"],
            },
        },
        ["runId", "resourceId", "kind", "mediaType", "content", "receipt"],
    ),
    read_only=True,
)

RECORD_OUTCOME = ToolSpec(
    "record_outcome",
    "Record the outcome of a step",
    "Record the outcome of the step next_step gave, under its record node and against its revision, "
    "with the Facts that prove it (facts). Refused with run-revision-stale when the Run has changed since "
    "(call next_step again); nothing is written then. A recorded outcome is a claim: a step with proof "
    "Facts completes only when the Facts match. A Gate's outcome is the user's or the host's, and is refused.",
    _object(
        {
            "runId": _RUN_ID_SCHEMA,
            "node": _string("The record node next_step gave (record.node), such as report/draft."),
            "outcome": {"type": "string", "enum": list(OUTCOMES), "description": "The outcome to record."},
            "revision": _REVISION_SCHEMA,
            "detail": {"description": "Optional JSON detail kept with the record (what happened, evidence)."},
            "facts": {
                "type": "object",
                "description": "Optional Facts that prove the step done (next_step's proof), merged in the same "
                "write as the record, which the revision guards; the same rules as update_facts.",
            },
        },
        ["runId", "node", "outcome", "revision"],
    ),
    _output(
        {
            "runId": {"type": "string"},
            "node": {"type": "string"},
            "outcome": {"type": "string"},
            "keys": _strings("The top-level Fact keys merged."),
            "status": _STATUS,
            "revision": _REVISION_OUT,
            "blockers": _BLOCKERS,
        },
        ["runId", "node", "outcome", "keys", "status", "revision"],
    ),
    read_only=False,
)

UPDATE_FACTS = ToolSpec(
    "update_facts",
    "Claim Facts",
    "Merge Facts into the Run (nested objects merge key by key). These are the agent's claims of what it "
    "observed or produced (digests, URLs, counts). They never grant an authority, and Facts that a Gate "
    "reads belong to the user or the host: they are refused.",
    _object(
        {
            "runId": _RUN_ID_SCHEMA,
            "facts": {"type": "object", "description": "Facts to merge, as a JSON object."},
        },
        ["runId", "facts"],
    ),
    _output(
        {
            "runId": {"type": "string"},
            "keys": _strings("The top-level keys given."),
            "status": _STATUS,
            "revision": _REVISION_OUT,
        },
        ["runId", "keys", "status", "revision"],
    ),
    read_only=False,
)

LIST_RUNS = ToolSpec(
    "list_runs",
    "List Runs",
    "The Runs of this Provider in the store, most recently created first, a page at a time.",
    _object(
        {
            "graph": _string("Only Runs of this graph."),
            "status": {
                "type": "string",
                "enum": _STATUSES,
                "description": "Only Runs of this status, as of their last write that evaluated them"
                " (waiting-user: the Runs waiting for a user).",
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": 500,
                "description": "At most this many (default 50).",
            },
            "cursor": _string(
                "The nextCursor of the page before: the page that follows it.", max_length=4096
            ),
        },
        [],
    ),
    _output(
        {
            "runs": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "runId": {"type": "string"},
                        "graph": {"type": "string"},
                        "entry": {"type": "string"},
                        "status": {
                            "type": ["string", "null"],
                            "description": "The Run's status as of its last evaluated write (null: unknown).",
                        },
                        "createdAt": {"type": "string"},
                        "updatedAt": {"type": "string"},
                        "events": {"type": "integer"},
                    },
                    "required": ["runId", "graph", "entry", "status", "createdAt", "updatedAt", "events"],
                },
            },
            "nextCursor": {
                "type": ["string", "null"],
                "description": "Pass it as cursor for the next page; null when no Run follows.",
            },
        },
        ["runs", "nextCursor"],
    ),
    read_only=True,
)

RUN_EVENTS = ToolSpec(
    "run_events",
    "Events of a Run",
    "The Run's events in order (run.started, facts.updated, node.outcome-recorded, …), numbered from 1.",
    _object(
        {
            "runId": _RUN_ID_SCHEMA,
            "after": {
                "type": "integer",
                "minimum": 0,
                "description": "Only events after this sequence number.",
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "maximum": 1000,
                "description": "At most this many (default 200).",
            },
        },
        ["runId"],
    ),
    _output(
        {
            "runId": {"type": "string"},
            "events": {
                "type": "array",
                "items": {"type": "object", "required": ["sequence", "at", "type"]},
            },
            "total": {"type": "integer", "description": "How many events the Run has."},
        },
        ["runId", "events", "total"],
    ),
    read_only=True,
)

#: The tools, in the order ``tools/list`` answers them.
TOOLS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (START_RUN, NEXT_STEP, READ_RESOURCE, RECORD_OUTCOME, UPDATE_FACTS, LIST_RUNS, RUN_EVENTS)
}


# ---------------------------------------------------------------- argument checks


def _invalid(tool: str, message: str) -> AgentGraphError:
    return AgentGraphError("argument-invalid", f"{tool}: {message}")


def json_value(value: Any, label: str, max_bytes: int) -> Any:
    """``value`` as the project's JSON reader would give it, after depth and size checks.

    Walks without recursion; ``input-too-deep`` past :data:`MAX_JSON_DEPTH`
    levels, ``input-too-large`` past ``max_bytes`` of compact JSON,
    ``argument-invalid`` for anything that is not JSON (a number that is not
    finite, a key that is not a string).
    """
    from .._syntax.parse import parse_json

    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
            for key in item:
                if not isinstance(key, str):
                    raise AgentGraphError("argument-invalid", f"{label}: object keys must be strings")
        elif isinstance(item, (list, tuple)):
            children = item
        elif item is None or isinstance(item, (str, bool, int)):
            continue
        elif isinstance(item, float):
            if item != item or item in (float("inf"), float("-inf")):
                raise AgentGraphError("argument-invalid", f"{label}: numbers must be finite")
            continue
        else:
            raise AgentGraphError("argument-invalid", f"{label}: {type(item).__name__} is not a JSON value")
        if depth > MAX_JSON_DEPTH:
            raise AgentGraphError(
                "input-too-deep", f"{label} nests arrays and objects deeper than {MAX_JSON_DEPTH} levels"
            )
        stack.extend((child, depth + 1) for child in children)
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise AgentGraphError("argument-invalid", f"{label} is not JSON: {error}") from None
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise AgentGraphError(
            "input-too-large", f"{label} is {size} bytes of JSON, over the limit of {max_bytes} bytes"
        )
    return parse_json(text, label, max_depth=MAX_JSON_DEPTH + 1)


def check_arguments(tool: str, arguments: Any) -> dict[str, Any]:
    """The arguments of ``tool`` checked against its input schema, JSON values normalized.

    ``argument-invalid`` names the first field that is missing, unknown, of
    the wrong type or out of range.
    """
    spec = TOOLS.get(tool)
    if spec is None:
        raise AgentGraphError("tool-unknown", f"There is no tool {tool!r}; the tools are {', '.join(TOOLS)}")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, Mapping):
        raise _invalid(tool, f"the arguments must be a JSON object, not {json_type(arguments)}")
    schema = spec.input_schema
    properties: dict[str, Any] = schema["properties"]
    for name in arguments:
        if name not in properties:
            allowed = ", ".join(properties) or "none"
            raise _invalid(tool, f"unknown argument {str(name)[:100]!r} (arguments: {allowed})")
    for name in schema["required"]:
        if name not in arguments:
            raise _invalid(tool, f"the argument {name!r} is required")
    checked: dict[str, Any] = {}
    for name, value in arguments.items():
        checked[name] = _check_field(tool, name, properties[name], value)
    return checked


def _check_field(tool: str, name: str, schema: Mapping[str, Any], value: Any) -> Any:
    kind = schema.get("type")
    if name == "facts":
        if not isinstance(value, Mapping):
            raise _invalid(tool, f"{name} must be a JSON object, not {json_type(value)}")
        return json_value(value, name, MAX_FACTS_BYTES)
    if name == "detail":
        return json_value(value, name, MAX_DETAIL_BYTES)
    if kind == "string":
        if not isinstance(value, str):
            raise _invalid(tool, f"{name} must be a string, not {json_type(value)}")
        if not value or len(value) > schema.get("maxLength", MAX_ID_LENGTH):
            raise _invalid(
                tool, f"{name} must be 1 to {schema.get('maxLength', MAX_ID_LENGTH)} characters long"
            )
        if name == "runId" and _RUN_ID.fullmatch(value) is None:
            raise _invalid(tool, f"{name} {value[:100]!r} is not a Run ID (letters, digits, '.', '_', '-')")
        if name == "revision" and _REVISION.fullmatch(value) is None:
            raise _invalid(
                tool, f"{name} must be a revision (sha256: and 64 hex digits), as next_step gave it"
            )
        enum = schema.get("enum")
        if enum is not None and value not in enum:
            raise AgentGraphError(
                "outcome-invalid" if name == "outcome" else "argument-invalid",
                f"{tool}: {name} {value[:100]!r} is not one of {', '.join(enum)}",
            )
        if "\x00" in value:
            raise _invalid(tool, f"{name} must not contain NUL characters")
        return value
    if kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                raise _invalid(tool, f"{name} must be an integer, not {json_type(value)}")
        low = schema.get("minimum")
        high = schema.get("maximum")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"{low if low is not None else '…'} to {high if high is not None else '…'}"
            raise _invalid(tool, f"{name} must be in {bounds}")
        return value
    raise _invalid(tool, f"{name} has no checker")  # pragma: no cover - every schema field is covered above
