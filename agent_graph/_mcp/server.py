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
* Calls run concurrently: the service awaits its store through one seam and
  reads every resource in a thread of its own within a time limit, so a slow
  store call, materializer or file never stalls the protocol or another call.
* A Gate that waits for the user is put to the user through the client's
  elicitation: mid-call on handshake-era connections, as an input-required
  result on 2026-07-28 connections, whose opaque state is signed with a key
  that lives only as long as this server. Without elicitation, next_step
  answers ``waiting-user`` with the Gate's prompt.
* On stdio the SDK points descriptor 1 at standard error while it serves, so
  nothing but protocol messages reaches standard output. Standard input is
  read by a daemon thread of this module (descriptor 0 points at the null
  device meanwhile), so stopping never waits for the client to write. A
  request the SDK cannot read is answered, not dropped: ``input-too-deep``
  when nested too deeply (its ID read from the message cut to three levels),
  ``argument-invalid`` otherwise (a lone surrogate, say). With
  ``stop_signals`` (the ``mcp`` command) SIGTERM and SIGINT stop the server
  cleanly and :func:`serve_stdio` returns.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import json
import logging
import os
import re
import secrets
import signal
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp.types.version import MODERN_PROTOCOL_VERSIONS

from .._core.errors import AgentGraphError
from .._core.plain import well_formed, well_formed_text
from .._runtime.run_store_async import AsyncRunStore
from .._runtime.telemetry import Operation
from .service import McpService, PendingGate, ToolAnswer
from .tools import MAX_FACTS_BYTES, MAX_JSON_DEPTH, TOOLS, check_arguments, json_value

__all__ = ["SERVER_INSTRUCTIONS", "build_server", "serve_stdio"]

_log = logging.getLogger("agent_graph.mcp")
#: How long a stopping server waits for its async Run store to close.
STORE_CLOSE_SECONDS = 10.0
#: Span attributes a tool's structured answer gives: (attribute, answer field).
_SPAN_FIELDS = (
    ("run_id", "runId"),
    ("graph", "graph"),
    ("entry", "entry"),
    ("status", "status"),
    ("revision", "revision"),
)

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
            types.TextContent(type="text", text=well_formed_text(f"ERROR {error.code}: {error.message}")),
            types.TextContent(type="text", text=envelope),
        ],
        is_error=True,
    )


def _answer(answer: ToolAnswer) -> types.CallToolResult:
    """A tool's answer as the SDK sends it: a lone surrogate a Run holds (which the SDK's JSON writer
    cannot encode) is shown as U+FFFD, in the text and the structured content alike."""
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=well_formed_text(answer.text))],
        structured_content=well_formed(answer.structured),
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
        arguments = params.arguments if isinstance(params.arguments, dict) else {}
        name = params.name if params.name in TOOLS else "unknown"
        with Operation(
            f"agent_graph.mcp.{name}", _log, {"tool": name, "run_id": arguments.get("runId")}
        ) as operation:
            result = await self._call_tool(ctx, params, operation)
            if isinstance(result, types.CallToolResult) and not result.is_error:
                structured = result.structured_content
                if isinstance(structured, dict):
                    operation.add({key: structured.get(field) for key, field in _SPAN_FIELDS})
            return result

    async def _call_tool(
        self, ctx: Any, params: Any, operation: Operation
    ) -> types.CallToolResult | types.InputRequiredResult:
        try:
            refusal = params.arguments.get(_UNREADABLE) if isinstance(params.arguments, dict) else None
            if isinstance(refusal, str) and len(params.arguments) == 1:
                raise _unreadable_error(refusal)
            arguments = check_arguments(params.name, params.arguments)
            if params.name == "next_step":
                return await self._next_step(ctx, params, arguments)
            method = getattr(self.service, params.name)
            answer: ToolAnswer = await method(arguments)
            return _answer(answer)
        except Exception as error:
            coded = _coded(error)
            operation.refused(coded.code)
            return _error_answer(coded)

    async def _next_step(
        self, ctx: Any, params: Any, arguments: dict[str, Any]
    ) -> types.CallToolResult | types.InputRequiredResult:
        answer, pending = await self.service.next_step(arguments)
        if pending is None or not _asks_forms(ctx):
            return _answer(answer)
        message, schema = self.service.gate_form(pending)
        if _modern(ctx):
            responses = params.input_responses or {}
            reply = responses.get(_GATE_REQUEST)
            if isinstance(reply, types.ElicitResult) and self.signer.matches(params.request_state, pending):
                return _answer(await self.service.answer_gate(pending, reply.action, reply.content))
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
        return _answer(await self.service.answer_gate(pending, result.action, result.content))

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
            got = await self.service.read_static(uri)
        except Exception as error:
            raise _protocol_error(error) from None
        media_type = got.media_type
        contents: types.TextResourceContents | types.BlobResourceContents
        if media_type.startswith("text/") or media_type.endswith(("json", "yaml", "xml")):
            contents = types.TextResourceContents(
                uri=uri, mime_type=media_type, text=well_formed_text(got.content)
            )
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
            description, text = await self.service.start_prompt(params.name, facts)
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


#: Deepest nesting of a message the SDK is handed; a deeper request is answered ``input-too-deep``.
MAX_MESSAGE_DEPTH = 128
#: Depth of a too-deep message kept to answer it (message, params, arguments).
_KEPT_DEPTH = 3
#: The argument that stands for a request's arguments the SDK could not read (the value says why).
_UNREADABLE = "agent-graph:unreadable"
_STRUCTURE = re.compile(r'[\\"\[\]{}]')


def _shallow(line: str) -> str | None:
    """None when ``line`` nests at most :data:`MAX_MESSAGE_DEPTH` deep; else the line cut to three levels.

    One pass, no recursion: every array or object below the third level is
    replaced by ``null``, so that the request's ID and method can be read.
    """
    if line.count("[") + line.count("{") <= MAX_MESSAGE_DEPTH:
        return None
    depth = deepest = 0
    in_string = False
    skip_until = 0
    pieces: list[str] = []
    copied = 0
    cut: int | None = None
    for match in _STRUCTURE.finditer(line):
        position = match.start()
        if position < skip_until:
            continue
        char = match.group()
        if in_string:
            if char == "\\":
                skip_until = position + 2
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if depth == _KEPT_DEPTH + 1 and cut is None:
                pieces.append(line[copied:position])
                cut = depth
        elif cut is not None and depth == cut:
            pieces.append("null")
            copied = position + 1
            cut = None
            depth -= 1
        else:
            depth -= 1
    if deepest <= MAX_MESSAGE_DEPTH:
        return None
    pieces.append(line[copied:] if cut is None else "")
    return "".join(pieces)


def _unreadable_error(why: str) -> AgentGraphError:
    if why == "too-deep":
        return AgentGraphError(
            "input-too-deep",
            f"The request nests deeper than {MAX_MESSAGE_DEPTH} levels; arguments are read to "
            f"{MAX_JSON_DEPTH} levels of JSON",
        )
    return AgentGraphError(
        "argument-invalid",
        "The MCP SDK cannot read this request (a string with a lone surrogate such as \\ud800, or a message "
        "that is not JSON-RPC); send valid JSON-RPC with well-formed Unicode",
    )


def _refusal(message: Any, why: str) -> str | None:
    """A request the SDK can read, standing for ``message`` and answered with the refusal ``why``; None if
    ``message`` has no ID (a notification has no answer)."""
    if not isinstance(message, dict) or type(message.get("id")) not in (str, int):
        return None
    method = message.get("method")
    params = message.get("params")
    name = params.get("name") if isinstance(params, dict) else None
    request: dict[str, Any] = {"jsonrpc": "2.0", "id": message["id"]}
    if method == "tools/call" and isinstance(name, str):
        request.update(method=method, params={"name": name, "arguments": {_UNREADABLE: why}})
    else:
        request.update(method=method if isinstance(method, str) else "", params=_UNREADABLE)
    return json.dumps(request)


def _readable(line: str) -> str | None:
    """``line`` as the SDK should get it: itself, or a stand-in for a request it could not read and answer.

    A line nested too deeply is cut to three levels (no recursion) to read its
    ID; a line the SDK's reader refuses but Python's reads (a lone surrogate,
    a message that is not JSON-RPC) is answered ``argument-invalid``. What is
    not JSON at all goes to the SDK as it is (it logs it: there is no ID to
    answer). None: nothing to hand over.
    """
    shallow = _shallow(line)
    if shallow is not None:
        try:
            cut = json.loads(shallow)
        except ValueError:
            return None
        return _refusal(cut, "too-deep")
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return line
    except Exception:
        pass
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return line
    return _refusal(message, "unreadable")


class _StdinLines:
    """The lines of standard input, read by a daemon thread: stopping the server never waits for the client.

    While serving, descriptor 0 points at the null device (children and
    stray reads see end of file) and the real input is read from a copy of
    it; :meth:`restore` puts it back. Lines are decoded as UTF-8, bad bytes
    replaced (the SDK refuses what is not JSON).
    """

    def __init__(self) -> None:
        self._fd = os.dup(0)
        null = os.open(os.devnull, os.O_RDONLY)
        try:
            os.dup2(null, 0)
        finally:
            os.close(null)
        self._send, self._receive = anyio.create_memory_object_stream[str](16)
        self._started = False
        self._lock = threading.Lock()
        self._open_users = 2  # the reader and the server: the copy is closed when both are done with it

    def _read(self, token: Any) -> None:
        send = self._send
        try:
            with (
                os.fdopen(self._fd, "rb", buffering=0, closefd=False) as raw,
                io.BufferedReader(raw) as lines,
            ):
                for line in lines:
                    text = _readable(line.decode("utf-8", "replace"))
                    if text is not None:
                        anyio.from_thread.run(send.send, text, token=token)
        except Exception:  # the server stopped (no one receives) or the input failed: end of input
            pass
        try:
            anyio.from_thread.run_sync(send.close, token=token)
        except Exception:
            send.close()
        self._release()

    def _release(self) -> None:
        with self._lock:
            self._open_users -= 1
            if self._open_users == 0:
                os.close(self._fd)

    def __aiter__(self) -> _StdinLines:
        if not self._started:
            self._started = True
            token = anyio.lowlevel.current_token()
            threading.Thread(
                target=self._read, args=(token,), name="agent-graph-mcp-stdin", daemon=True
            ).start()
        return self

    async def __anext__(self) -> str:
        try:
            return await self._receive.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    def restore(self) -> None:
        """Point descriptor 0 at the real input again (its copy stays open while the reader may use it)."""
        self._receive.close()
        os.dup2(self._fd, 0)
        if not self._started:
            self._open_users -= 1  # no reader was started
        self._release()


class _StopRequest:
    """SIGTERM and SIGINT as a request to stop, from before the event loop starts until after it ends.

    The handlers only note the request and, once the loop runs, wake it
    (``call_soon_threadsafe``); the loop then cancels the server. No signal
    ever raises inside the loop, whatever it is doing when the signal comes.
    """

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __init__(self) -> None:
        self.requested = False
        self._wake: Any = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> _StopRequest:
        for number in self.SIGNALS:
            self._previous[number] = signal.signal(number, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, previous in self._previous.items():
            signal.signal(number, previous)

    def _handle(self, _signum: int, _frame: Any) -> None:
        self.requested = True
        if self._wake is not None:
            self._wake()

    async def watch(self, scope: anyio.CancelScope) -> None:
        """Cancel ``scope`` when a stop is requested (at once if it already was)."""
        import asyncio

        stop = anyio.Event()
        loop = asyncio.get_running_loop()
        self._wake = lambda: loop.call_soon_threadsafe(stop.set)
        if self.requested:
            stop.set()
        await stop.wait()
        scope.cancel()


def serve_stdio(
    service: McpService,
    *,
    version: str = "",
    stop_signals: bool = False,
    open_store: Callable[[], Awaitable[AsyncRunStore]] | None = None,
) -> None:
    """Serve ``service`` over standard input and output until the client closes the connection.

    With ``stop_signals`` (main thread only), SIGTERM and SIGINT stop the
    server cleanly and this function returns as it does at end of input.
    ``open_store`` opens the async Run store the service uses inside the
    server's event loop (an async pool belongs to its loop); it is closed when
    the server stops.
    """
    from mcp.server.stdio import stdio_server

    server = build_server(service, version=version)
    stop = _StopRequest() if stop_signals and threading.current_thread() is threading.main_thread() else None

    async def run() -> None:
        if open_store is not None:
            store = await open_store()
            try:
                service.use_store(store)
                await serve()
            finally:
                # Closing is bounded and shielded: a stop request never waits on the store for long.
                with anyio.move_on_after(STORE_CLOSE_SECONDS, shield=True):
                    await store.aclose()
        else:
            await serve()

    async def serve() -> None:
        lines = _StdinLines()
        try:
            async with anyio.create_task_group() as group:
                if stop is not None:
                    group.start_soon(stop.watch, group.cancel_scope)
                async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
                    await server.run(read_stream, write_stream, server.create_initialization_options())
                group.cancel_scope.cancel()
        finally:
            lines.restore()

    if stop is None:
        anyio.run(run)
        return
    with stop:
        anyio.run(run)
