"""The Model Context Protocol server of ``agent-graph mcp``, on the official ``mcp`` SDK.

This module wires :class:`~agent_graph._mcp.service.McpService` into the SDK's
low-level ``Server``: the seven tools of :mod:`agent_graph._mcp.tools`, the
Provider's static resources as MCP resources (``agent-graph://resource/<id>``)
and one MCP prompt per graph entry (``graph#entry``, which starts a Run and
gives its first step). It is imported only by :func:`~agent_graph._mcp.serve.serve_mcp`, and only
when the optional extra ``agent-graph[mcp]`` is installed.

Rules:

* Every failure of a tool is an MCP tool error (``isError``) with two text
  contents, ``ERROR <code>: <message>`` and the ``agent-graph.error.v1``
  envelope as JSON, and no structured content (which would have to match the
  tool's output schema); nothing a client sends can stop the server. Resource and prompt failures are JSON-RPC errors carrying the same
  envelope as their data.
* Tool work runs in a worker thread, one call at a time, so a slow store or
  materializer never stalls the protocol.
* A Gate that waits for the user is put to the user through the client's
  elicitation: mid-call on handshake-era connections, as an input-required
  result on 2026-07-28 connections, whose opaque state is signed with a key
  that lives only as long as this server. Without elicitation, next_step
  answers ``waiting-user`` with the Gate's prompt.
* On stdio the SDK points descriptor 1 at standard error while it serves, so
  nothing but protocol messages reaches standard output.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import json
import logging
import secrets
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp.types.version import MODERN_PROTOCOL_VERSIONS

from .._core.errors import AgentGraphError
from .service import McpService, PendingGate, ToolAnswer
from .tools import MAX_FACTS_BYTES, TOOLS, check_arguments, json_value

__all__ = ["SERVER_INSTRUCTIONS", "build_server", "serve_stdio"]

_T = TypeVar("_T")
_log = logging.getLogger("agent_graph.mcp")

SERVER_INSTRUCTIONS = (
    "agent-graph tells you the one legal next step of a work contract (an Agent Graph Provider). "
    "Start a Run with start_run (or a prompt), then loop: next_step -> read_resource for each resource it "
    "lists as read-required -> do the step -> record_outcome with the step's record node and revision and "
    "the Facts that prove it. A stale record is refused: call next_step again. Decisions that belong to "
    "the user (Gates) are put to the user; you cannot make them."
)

_GATE_REQUEST = "gate"


def _modern(ctx: Any) -> bool:
    """Whether the connection speaks a per-request protocol (2026-07-28), where the server cannot ask mid-call."""
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


def _asks_forms(ctx: Any) -> bool:
    """Whether the client declared form elicitation (an empty ``elicitation`` capability means forms)."""
    capabilities = ctx.session.client_capabilities
    elicitation = getattr(capabilities, "elicitation", None) if capabilities is not None else None
    if elicitation is None:
        return False
    return elicitation.form is not None or elicitation.url is None


class _StateSigner:
    """Signs the opaque state of an input-required result, so a retry cannot be forged or replayed elsewhere."""

    def __init__(self) -> None:
        self._key = secrets.token_bytes(32)

    def sign(self, pending: PendingGate) -> str:
        body = json.dumps(
            [pending.run_id, pending.revision, pending.state_key], separators=(",", ":")
        ).encode()
        mac = hmac.new(self._key, body, hashlib.sha256).hexdigest()
        return base64.urlsafe_b64encode(body).decode("ascii") + "." + mac

    def matches(self, state: str | None, pending: PendingGate) -> bool:
        if not isinstance(state, str) or len(state) > 4096:
            return False
        expected = self.sign(pending)
        return hmac.compare_digest(state.encode("utf-8", "replace"), expected.encode("ascii"))


def _error_answer(error: AgentGraphError) -> types.CallToolResult:
    """A tool error every client accepts: two texts, the line and the envelope, and no structured content.

    Structured content must match the tool's output schema, and clients built
    on the TypeScript SDK check it on errors too; so the
    ``agent-graph.error.v1`` envelope travels as text (JSON), never as
    structured content.
    """
    envelope = json.dumps(error.to_envelope(), separators=(",", ":"))
    return types.CallToolResult(
        content=[
            types.TextContent(type="text", text=f"ERROR {error.code}: {error.message}"),
            types.TextContent(type="text", text=envelope),
        ],
        is_error=True,
    )


def _answer(answer: ToolAnswer) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=answer.text)],
        structured_content=answer.structured,
        is_error=False,
    )


def _coded(error: BaseException) -> AgentGraphError:
    """Any failure as an AgentGraphError (the project's own codes for the interpreter's limits)."""
    if isinstance(error, AgentGraphError):
        return error
    if isinstance(error, RecursionError):
        return AgentGraphError("input-too-deep", "Input nests too deeply to process")
    if isinstance(error, MemoryError):
        return AgentGraphError("input-too-large", "Input is too large to process")
    if isinstance(error, OSError):
        return AgentGraphError("os-error", f"{type(error).__name__}: {error}")
    _log.exception("unexpected failure in a tool call")
    return AgentGraphError("internal-error", f"Unexpected {type(error).__name__}: {error}")


def _protocol_error(error: BaseException) -> MCPError:
    coded = _coded(error)
    return MCPError(types.INVALID_PARAMS, f"{coded.code}: {coded.message}", coded.to_envelope())


class _Handlers:
    """The request handlers of one server: tools, resources, prompts."""

    def __init__(self, service: McpService) -> None:
        self.service = service
        self.signer = _StateSigner()
        self.limiter = anyio.CapacityLimiter(1)

    async def work(self, function: Callable[..., _T], *args: Any) -> _T:
        """Run ``function(*args)`` in the worker thread (one call at a time)."""
        return await anyio.to_thread.run_sync(functools.partial(function, *args), limiter=self.limiter)

    # ------------------------------------------------------------ tools

    async def list_tools(self, ctx: Any, params: Any) -> types.ListToolsResult:
        tools = [
            types.Tool(
                name=spec.name,
                title=spec.title,
                description=spec.description,
                input_schema=spec.input_schema,
                output_schema=spec.output_schema,
                annotations=types.ToolAnnotations(
                    title=spec.title,
                    read_only_hint=spec.read_only,
                    destructive_hint=False,
                    idempotent_hint=spec.read_only,
                    open_world_hint=False,
                ),
            )
            for spec in TOOLS.values()
        ]
        return types.ListToolsResult(tools=tools)

    async def call_tool(self, ctx: Any, params: Any) -> types.CallToolResult | types.InputRequiredResult:
        try:
            arguments = check_arguments(params.name, params.arguments)
            if params.name == "next_step":
                return await self._next_step(ctx, params, arguments)
            method = getattr(self.service, params.name)
            answer: ToolAnswer = await self.work(method, arguments)
            return _answer(answer)
        except Exception as error:
            return _error_answer(_coded(error))

    async def _next_step(
        self, ctx: Any, params: Any, arguments: dict[str, Any]
    ) -> types.CallToolResult | types.InputRequiredResult:
        answer, pending = await self.work(self.service.next_step, arguments)
        if pending is None or not _asks_forms(ctx):
            return _answer(answer)
        message, schema = self.service.gate_form(pending)
        if _modern(ctx):
            responses = params.input_responses or {}
            reply = responses.get(_GATE_REQUEST)
            if isinstance(reply, types.ElicitResult) and self.signer.matches(params.request_state, pending):
                return _answer(
                    await self.work(self.service.answer_gate, pending, reply.action, reply.content)
                )
            request = types.ElicitRequest(
                params=types.ElicitRequestFormParams(message=message, requested_schema=schema)
            )
            return types.InputRequiredResult(
                input_requests={_GATE_REQUEST: request}, request_state=self.signer.sign(pending)
            )
        try:
            result = await ctx.session.elicit_form(message, schema, related_request_id=ctx.request_id)
        except Exception as error:  # the client could not ask (no back-channel, an error answer, a bad reply)
            return _answer(self.service.waiting(answer, f"the client could not ask the user ({error})"))
        return _answer(await self.work(self.service.answer_gate, pending, result.action, result.content))

    # ------------------------------------------------------------ resources

    async def list_resources(self, ctx: Any, params: Any) -> types.ListResourcesResult:
        resources = [
            types.Resource(
                uri=self.service.resource_uri(location),
                name=location.id,
                title=location.id,
                description=f"{location.kind} resource of Provider {self.service.provider_id}",
                mime_type=location.media_type,
            )
            for location in self.service.static_resources()
        ]
        return types.ListResourcesResult(resources=resources)

    async def list_resource_templates(self, ctx: Any, params: Any) -> types.ListResourceTemplatesResult:
        """No templates: every readable resource is listed by its URI (context views only at a step)."""
        return types.ListResourceTemplatesResult(resource_templates=[])

    async def read_resource(self, ctx: Any, params: Any) -> types.ReadResourceResult:
        uri = str(params.uri)
        try:
            got = await self.work(self.service.read_static, uri)
        except Exception as error:
            raise _protocol_error(error) from None
        media_type = got.media_type
        contents: types.TextResourceContents | types.BlobResourceContents
        if media_type.startswith("text/") or media_type.endswith(("json", "yaml", "xml")):
            contents = types.TextResourceContents(uri=uri, mime_type=media_type, text=got.content)
        else:
            blob = base64.b64encode(got.data).decode("ascii")
            contents = types.BlobResourceContents(uri=uri, mime_type=media_type, blob=blob)
        return types.ReadResourceResult(contents=[contents])

    # ------------------------------------------------------------ prompts

    async def list_prompts(self, ctx: Any, params: Any) -> types.ListPromptsResult:
        prompts = [
            types.Prompt(
                name=name,
                title=f"Follow {name}",
                description=f"Start a Run of {name} and take its first step. {description}",
                arguments=[
                    types.PromptArgument(
                        name="facts", description="Initial Facts as a JSON object (optional)", required=False
                    )
                ],
            )
            for name, _graph, _entry, description in self.service.prompts()
        ]
        return types.ListPromptsResult(prompts=prompts)

    async def get_prompt(self, ctx: Any, params: Any) -> types.GetPromptResult:
        try:
            facts = _prompt_facts((params.arguments or {}).get("facts"))
            description, text = await self.work(self.service.start_prompt, params.name, facts)
        except Exception as error:
            raise _protocol_error(error) from None
        return types.GetPromptResult(
            description=description,
            messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))],
        )


def _prompt_facts(text: Any) -> dict[str, Any] | None:
    if text is None or text == "":
        return None
    if not isinstance(text, str):
        raise AgentGraphError("argument-invalid", "The prompt argument facts must be JSON text")
    if len(text) > MAX_FACTS_BYTES:
        raise AgentGraphError("input-too-large", f"facts is over the limit of {MAX_FACTS_BYTES} bytes")
    from .._syntax.parse import parse_json

    value = parse_json(text, "facts")
    if not isinstance(value, dict):
        raise AgentGraphError("json-object-required", "The prompt argument facts must be a JSON object")
    checked: dict[str, Any] = json_value(value, "facts", MAX_FACTS_BYTES)
    return checked


def build_server(service: McpService, *, version: str = "") -> Server[Any]:
    """The low-level MCP server for ``service``: tools, static resources and entry prompts."""
    handlers = _Handlers(service)
    return Server(
        "agent-graph",
        version=version,
        title=f"agent-graph: {service.provider_id}",
        instructions=SERVER_INSTRUCTIONS,
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
        on_list_resources=handlers.list_resources,
        on_list_resource_templates=handlers.list_resource_templates,
        on_read_resource=handlers.read_resource,
        on_list_prompts=handlers.list_prompts,
        on_get_prompt=handlers.get_prompt,
    )


def serve_stdio(service: McpService, *, version: str = "") -> None:
    """Serve ``service`` over standard input and output until the client closes the connection."""
    from mcp.server.stdio import stdio_server

    server = build_server(service, version=version)

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)
