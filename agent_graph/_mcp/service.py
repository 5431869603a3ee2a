"""What the MCP tools of ``agent-graph mcp`` do, over the step API and a Run store.

:class:`McpService` answers each tool call with structured content and a short
text for the model. It knows nothing of the MCP SDK or of the transport: the
server module (:mod:`agent_graph._mcp.server`) checks arguments, awaits it and
turns its answers and errors into MCP results. It uses the step of
:mod:`agent_graph._runtime.step` (one evaluation per step; where a resource
is), the Gate policy of :mod:`agent_graph._runtime.gate_policy`,
``ResourceReader`` and ``Receipts``.

Its methods are coroutines, and everything that may wait goes through
:mod:`agent_graph._mcp.calls`: the Run store through one seam
(:class:`~agent_graph._mcp.calls.StoreCalls`, which awaits an asynchronous
store directly and runs a synchronous one's calls in worker threads), and
every resource read in a thread of its own, bounded by ``read_timeout``
(``resource-read-timeout``). Calls run concurrently; none waits for another.

Trust rules, enforced here (with the Gate guard of :mod:`agent_graph._runtime.gate_policy`):

* The agent's Facts are claims. Facts that any Gate of the Provider reads in
  its ``satisfiedBy`` belong to the user or the host: a tool call that would
  set, change or remove one is refused (``gate-fact-refused``) unless the
  Gate is delegatable and its authority is both one the server was started
  with and one the Run holds (next_step then offers the Gate with resolution
  ``session-authority``).
* A Gate's outcome is likewise refused (``gate-outcome-refused``) under the
  same condition. No tool grants, lists or removes an authority: a Run started
  here carries the server's authorities, and nothing else.
* A Gate that waits for the user is answered only by the user: the server
  asks through the client (elicitation) and records that answer with
  :meth:`McpService.answer_gate`; the agent has no tool to do it.

State: the loaded Provider (immutable), the store, and the read receipts of
this connection (touched only on the event loop's thread), kept per Run for at most :data:`MAX_RECEIPT_RUNS` Runs (the
least recently used are forgotten; a forgotten Run only shows its resources as
``read-required`` again).
"""

from __future__ import annotations

import functools
import os
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

import msgspec

from .._core.errors import AgentGraphError
from .._core.model import (
    FileLocation,
    GraphActionLocation,
    HostActionLocation,
    ProofCheck,
    RouteSummary,
    Run,
    RunHead,
    Step,
    proof_facts,
)
from .._core.provider import Provider
from .._core.receipts import Receipts
from .._core.state import unknown_state_key
from .._core.why import step_blockers
from .._runtime.gate_policy import GateGuard
from .._runtime.host import HostHandler, ResourceContent, ResourceReader
from .._runtime.run_changes import evaluate_run
from .._runtime.run_store import BaseRunStore
from .._runtime.run_store_async import AsyncRunStore
from .._runtime.step import RegularFileSystem, run_step, static_locations, step_location
from .calls import StoreCalls, bounded
from .render import blocker_lines, render_step

__all__ = [
    "MAX_RECEIPT_RUNS",
    "READ_TIMEOUT",
    "RESOURCE_URI_PREFIX",
    "McpService",
    "PendingGate",
    "ToolAnswer",
]

#: Runs whose read receipts one connection keeps.
MAX_RECEIPT_RUNS = 256
#: Seconds a resource read may take before it is ``resource-read-timeout`` (beyond a materializer's 30 s).
READ_TIMEOUT = 60.0
#: URI prefix of the Provider's static resources as MCP resources.
RESOURCE_URI_PREFIX = "agent-graph://resource/"

_DECISIONS = ("approve", "reject")


@dataclass(frozen=True)
class ToolAnswer:
    """A tool's answer: structured content (a JSON object) and a short text for the model."""

    structured: dict[str, Any]
    text: str


@dataclass(frozen=True)
class PendingGate:
    """A Gate of a Run that waits for the user, as next_step found it."""

    run_id: str
    revision: str
    state_key: str
    graph: str
    node: str
    gate: str
    prompt: str
    checks: tuple[ProofCheck, ...] = ()


# ---------------------------------------------------------------- the service


def _summary_json(summary: RouteSummary) -> dict[str, Any]:
    return {
        "routeId": summary.route_id,
        "graph": summary.graph,
        "node": summary.node,
        "availability": summary.availability,
        "label": summary.label,
        "reasonCode": summary.reason_code,
    }


@dataclass
class McpService:
    """The tools' work, over one loaded Provider and one Run store (see the module docs).

    ``authorities`` are the server's: granted to every Run it starts, and the
    only ones that open a delegatable Gate's Facts and outcome to the agent.
    ``workspace`` is the Runs' workspace and the materializers'.
    ``read_timeout`` bounds every resource read, in seconds.
    """

    provider: Provider
    #: None until the server opens its async store (``use_store``).
    store: BaseRunStore | AsyncRunStore | None
    authorities: tuple[str, ...] = ()
    workspace: str = field(default_factory=os.getcwd)
    materialize_cache: str | None = None
    host_handlers: Mapping[str, HostHandler] | None = None
    default_graph: str | None = None
    default_entry: str | None = None
    read_timeout: float = READ_TIMEOUT
    guard: GateGuard = field(init=False)
    calls: StoreCalls = field(init=False)
    reader: ResourceReader = field(init=False)
    _receipts: OrderedDict[str, Receipts] = field(init=False, default_factory=OrderedDict)
    _static: list[FileLocation] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.authorities = tuple(sorted(set(self.authorities)))
        self.guard = GateGuard(self.provider, self.authorities)
        self.calls = StoreCalls(self.store, self.provider)
        self.reader = ResourceReader(
            self.provider,
            workspace=self.workspace,
            materialize_cache=self.materialize_cache,
            host_handlers=self.host_handlers,
            file_system=RegularFileSystem(),
        )
        self._static = static_locations(self.provider)

    def use_store(self, store: BaseRunStore | AsyncRunStore) -> None:
        """Serve the Runs of ``store`` from now on (an async store opened inside the server's event loop)."""
        self.store = store
        self.calls = StoreCalls(store, self.provider)

    # ------------------------------------------------------------ helpers

    @property
    def provider_id(self) -> str:
        identity: str = self.provider.manifest.id
        return identity

    async def _load(self, run_id: str) -> tuple[str, RunHead]:
        ref = await self.calls.ref(run_id)
        run = await self.calls.head(ref)
        if run.id != run_id:
            raise AgentGraphError(
                "run-missing", f"The store holds no Run {run_id} of Provider {self.provider_id}"
            )
        return ref, run

    async def _read(
        self, location: FileLocation | GraphActionLocation | HostActionLocation
    ) -> ResourceContent:
        """Read a location in a thread of its own, within ``read_timeout`` seconds."""
        return await bounded(functools.partial(self.reader.read, location), self.read_timeout, location.id)

    def receipts(self, run_id: str) -> Receipts:
        """This connection's read receipts of a Run (created on first use; least recently used forgotten)."""
        receipts = self._receipts.get(run_id)
        if receipts is None:
            receipts = Receipts(provider=self.provider_id)
            self._receipts[run_id] = receipts
            while len(self._receipts) > MAX_RECEIPT_RUNS:
                self._receipts.popitem(last=False)
        else:
            self._receipts.move_to_end(run_id)
        return receipts

    def _status(self, run_id: str, run: Run | RunHead) -> dict[str, Any]:
        evaluation = evaluate_run(self.provider, run)
        return {"status": evaluation.status_code, "revision": evaluation.revision}

    # ------------------------------------------------------------ tools

    async def start_run(self, arguments: Mapping[str, Any]) -> ToolAnswer:
        graph = arguments.get("graph") or self.default_graph or next(iter(self.provider.graphs))
        entry = arguments.get("entry")
        if entry is None:
            entry = self.default_entry if graph == self.default_graph and self.default_entry else "default"
        facts = arguments.get("facts") or {}
        self.guard.check_facts(facts, self.authorities)
        run = await self.calls.start(
            graph, entry, workspace=self.workspace, facts=facts, authorities=self.authorities
        )
        status = self._status(run.id, run)
        structured = {
            "runId": run.id,
            "provider": run.provider,
            "graph": run.graph,
            "entry": run.entry,
            **status,
        }
        text = (
            f"Started Run {run.id} of {run.graph}#{run.entry} ({status['status']}). "
            f"Call next_step with runId {run.id}."
        )
        return ToolAnswer(structured, text)

    async def step(self, run_id: str, route_id: str | None = None) -> tuple[ToolAnswer, PendingGate | None]:
        """The next_step answer, and the Gate that waits for the user when there is one."""
        _, run = await self._load(run_id)
        step = run_step(self.provider, run, receipts=self.receipts(run_id), route_id=route_id)
        return self._step_answer(run_id, step)

    def _step_answer(
        self, run_id: str, step: Step, extra: Mapping[str, Any] | None = None
    ) -> tuple[ToolAnswer, PendingGate | None]:
        evaluation = step.evaluation
        route = step.route
        structured: dict[str, Any] = {"runId": run_id, "status": evaluation.status_code}
        if evaluation.outcome is not None:
            structured["outcome"] = evaluation.outcome
        structured["revision"] = evaluation.revision
        structured["route"] = route.to_json() if route is not None else None
        chosen = route.route_id if route is not None else None
        summaries = [evaluation.primary_route, *evaluation.alternative_routes]
        structured["alternatives"] = [
            _summary_json(summary)
            for summary in summaries
            if summary is not None and summary.route_id != chosen
        ]
        pending = None
        if route is not None:
            record = {"node": route.after_action.record_node, "revision": evaluation.revision}
            if route.gate is not None and route.gate.resolution == "user":
                pending = PendingGate(
                    run_id=run_id,
                    revision=evaluation.revision,
                    state_key=route.after_action.record_node,
                    graph=route.graph,
                    node=route.node,
                    gate=route.gate.id,
                    prompt=route.gate.prompt,
                    checks=step.proof,
                )
                structured["userDecision"] = {
                    "gate": route.gate.id,
                    "prompt": route.gate.prompt,
                    "node": route.after_action.record_node,
                    "asked": False,
                }
            else:
                structured["record"] = record
        structured["proof"] = [check.to_json() for check in step.proof]
        if step.blockers:
            structured["blockers"] = [blocker.to_json() for blocker in step.blockers]
        structured["diagnostics"] = [d.to_json() for d in evaluation.diagnostics]
        if extra:
            structured.update(extra)
        return ToolAnswer(structured, render_step(structured)), pending

    async def next_step(self, arguments: Mapping[str, Any]) -> tuple[ToolAnswer, PendingGate | None]:
        return await self.step(arguments["runId"], arguments.get("routeId"))

    def waiting(self, answer: ToolAnswer, reply: str) -> ToolAnswer:
        """``answer`` (a Gate waiting for the user) marked as asked, with the client's ``reply``."""
        structured = dict(answer.structured)
        decision = dict(structured["userDecision"])
        decision["asked"] = True
        decision["answer"] = reply
        structured["userDecision"] = decision
        return ToolAnswer(structured, render_step(structured))

    # ------------------------------------------------------------ the user's answer to a Gate

    def gate_form(self, pending: PendingGate) -> tuple[str, dict[str, Any]]:
        """The elicitation message and form (a flat JSON Schema) that asks the user to decide a Gate.

        ``decision`` is approve or reject; each ``exists: true`` Fact the Gate
        reads gets a text field for the value to publish; ``comment`` is an
        optional note kept with the record.
        """
        properties: dict[str, Any] = {
            "decision": {
                "type": "string",
                "title": pending.prompt,
                "description": "approve or reject",
                "enum": list(_DECISIONS),
            }
        }
        for check in pending.checks:
            if check.operator == "exists" and check.expected is True:
                properties[check.path] = {
                    "type": "string",
                    "title": check.path,
                    "description": f"The value of {check.path} to publish when you approve",
                }
        properties["comment"] = {"type": "string", "title": "Comment", "description": "Optional note"}
        message = (
            f"{pending.prompt}\n\n(Gate {pending.gate} of Run {pending.run_id}: this decision is yours.)"
        )
        return message, {"type": "object", "properties": properties, "required": ["decision"]}

    async def answer_gate(
        self, pending: PendingGate, action: str, content: Mapping[str, Any] | None
    ) -> ToolAnswer:
        """Record the user's answer to ``pending`` and give the next step.

        ``action`` is the client's elicitation result (accept, decline,
        cancel). An accepted approve publishes the Facts the Gate reads
        (``equals`` values, and the values given for ``exists`` Facts) and
        records the Gate ``completed``, in one write guarded by the revision
        the user was asked at; reject records it ``failed``. Nothing is
        written when the user did not accept, when the answer is incomplete,
        or when the Run changed while the user was asked.
        """
        answer, _ = await self.step(pending.run_id)
        if action != "accept" or not isinstance(content, Mapping):
            return self._unanswered(answer, action if action in ("decline", "cancel") else "no answer")
        decision = content.get("decision")
        if decision not in _DECISIONS:
            return self._unanswered(answer, "no decision")
        ref, _ = await self._load(pending.run_id)
        comment = content.get("comment")
        detail: dict[str, Any] = {"decision": decision, "by": "user", "gate": pending.gate}
        if isinstance(comment, str) and comment:
            detail["comment"] = comment
        facts: dict[str, Any] = {}
        if decision == "approve":
            # An absent Fact cannot be published: the Gate's exists-false checks are left to the host.
            published = tuple(c for c in pending.checks if c.operator == "equals" or c.expected is True)
            for check in published:
                value = content.get(check.path)
                if (
                    check.operator == "exists"
                    and not check.holds
                    and (not isinstance(value, str) or not value)
                ):
                    return self._unanswered(
                        answer, f"approved without a value for {check.path}; nothing was recorded"
                    )
            given = {
                c.path: content[c.path] for c in published if c.operator == "exists" and c.path in content
            }
            facts = proof_facts(published, given)
        try:
            run = await self.calls.record(
                ref,
                pending.state_key,
                "completed" if decision == "approve" else "failed",
                detail=detail,
                revision=pending.revision,
                facts=facts or None,
            )
        except AgentGraphError as error:
            if error.code != "run-revision-stale":
                raise
            return self._unanswered(answer, "the Run changed while the user was asked; nothing was recorded")
        step = run_step(self.provider, run, receipts=self.receipts(pending.run_id))
        resolved = {"resolved": {"gate": pending.gate, "node": pending.state_key, "decision": decision}}
        result, _ = self._step_answer(pending.run_id, step, resolved)
        return result

    def _unanswered(self, answer: ToolAnswer, reply: str) -> ToolAnswer:
        if "userDecision" in answer.structured:
            return self.waiting(answer, reply)
        return answer

    # ------------------------------------------------------------ resources

    async def read_resource(self, arguments: Mapping[str, Any]) -> ToolAnswer:
        run_id = arguments["runId"]
        resource_id = arguments["resourceId"]
        _, run = await self._load(run_id)
        receipts = self.receipts(run_id)
        step = run_step(self.provider, run, receipts=receipts, route_id=arguments.get("routeId"))
        location = step_location(self.provider, step, resource_id)
        got = await self._read(location)
        receipts.add(got.receipt)
        receipt = got.receipt.to_json()
        structured = {
            "runId": run_id,
            "resourceId": location.id,
            "kind": location.kind,
            "mediaType": got.media_type,
            "content": got.content,
            "receipt": receipt,
        }
        return ToolAnswer(structured, got.content)

    def static_resources(self) -> list[FileLocation]:
        """The Provider's static files an agent may read (resources, Skills, schemas), sorted by ID."""
        return self._static

    @staticmethod
    def resource_uri(location: FileLocation) -> str:
        return RESOURCE_URI_PREFIX + quote(location.id, safe="")

    async def read_static(self, uri: str) -> ResourceContent:
        """A static resource by its MCP URI: ``ResourceContent`` (``resource-missing`` otherwise)."""
        if not uri.startswith(RESOURCE_URI_PREFIX):
            raise AgentGraphError("resource-missing", f"{uri[:200]} is not a resource of this server")
        resource_id = unquote(uri[len(RESOURCE_URI_PREFIX) :])
        for location in self.static_resources():
            if location.id == resource_id:
                return await self._read(location)
        raise AgentGraphError(
            "resource-missing", f"Provider {self.provider_id} has no static resource {resource_id}"
        )

    # ------------------------------------------------------------ recording

    async def record_outcome(self, arguments: Mapping[str, Any]) -> ToolAnswer:
        run_id = arguments["runId"]
        node = arguments["node"]
        outcome = arguments["outcome"]
        facts = arguments.get("facts") or {}
        ref, run = await self._load(run_id)
        unknown = unknown_state_key(self.provider, run.graph, node)
        if unknown is not None:  # as the command line answers: the closest key of the Run's graph named
            raise unknown
        self.guard.check_record(node, run.authorities)
        self.guard.check_facts(facts, run.authorities)
        detail = arguments.get("detail", msgspec.UNSET)
        run = await self.calls.record(
            ref, node, outcome, detail=detail, revision=arguments["revision"], facts=facts or None
        )
        evaluation = evaluate_run(self.provider, run)
        keys = sorted(facts)
        structured: dict[str, Any] = {
            "runId": run_id,
            "node": node,
            "outcome": outcome,
            "keys": keys,
            "status": evaluation.status_code,
            "revision": evaluation.revision,
        }
        merged = f" and merged Facts {', '.join(keys)}" if keys else ""
        text = f"Recorded {node}: {outcome}{merged}. The Run is {evaluation.status_code} now; call next_step."
        blockers = step_blockers(self.provider, evaluation, run.facts, run.outcomes, run.authorities)
        if blockers:  # a claim without its proof, say: which node, and which Fact it waits for
            structured["blockers"] = [blocker.to_json() for blocker in blockers]
            text += "\nHeld back:\n" + "\n".join(blocker_lines(structured))
        return ToolAnswer(structured, text)

    async def update_facts(self, arguments: Mapping[str, Any]) -> ToolAnswer:
        run_id = arguments["runId"]
        facts = arguments["facts"]
        ref, run = await self._load(run_id)
        self.guard.check_facts(facts, run.authorities)
        run = await self.calls.update_facts(ref, facts)
        status = self._status(run_id, run)
        keys = sorted(facts)
        structured = {"runId": run_id, "keys": keys, **status}
        text = (
            f"Merged Facts {', '.join(keys) or '(none)'}. The Run is {status['status']} now; call next_step."
        )
        return ToolAnswer(structured, text)

    # ------------------------------------------------------------ listing

    async def list_runs(self, arguments: Mapping[str, Any]) -> ToolAnswer:
        page = await self.calls.list(
            provider=self.provider,
            graph=arguments.get("graph"),
            status=arguments.get("status"),
            limit=arguments.get("limit", 50),
            cursor=arguments.get("cursor"),
            newest_first=True,
        )
        runs = [
            {
                "runId": s.id,
                "graph": s.graph,
                "entry": s.entry,
                "status": s.status,
                "createdAt": s.created_at,
                "updatedAt": s.updated_at,
                "events": s.events,
            }
            for s in page
        ]
        text = f"{len(runs)} Run(s) of {self.provider_id}" + (
            ": "
            + ", ".join(
                f"{r['runId']} ({r['graph']}#{r['entry']}, {r['status'] or 'status unknown'}, {r['updatedAt']})"
                for r in runs
            )
            if runs
            else ""
        )
        if page.next_cursor is not None:
            text += f"; more follow: call list_runs again with cursor {page.next_cursor}"
        return ToolAnswer({"runs": runs, "nextCursor": page.next_cursor}, text)

    async def run_events(self, arguments: Mapping[str, Any]) -> ToolAnswer:
        run_id = arguments["runId"]
        ref, run = await self._load(run_id)
        after = arguments.get("after", 0)
        limit = arguments.get("limit", 200)
        chosen = await self.calls.events(ref, after, limit)
        events = [event.to_json() for event in chosen]
        lines = [
            f"{e.sequence} {e.at} {e.type}"
            + (f" {e.node}" if e.node else "")
            + (f" {e.outcome}" if e.outcome else "")
            for e in chosen
        ]
        text = f"Run {run_id}: {run.events} event(s)" + ("\n" + "\n".join(lines) if lines else "")
        return ToolAnswer({"runId": run_id, "events": events, "total": run.events}, text)

    # ------------------------------------------------------------ prompts

    def prompts(self) -> list[tuple[str, str, str, str]]:
        """``(name, graph, entry, description)`` of every graph entry: ``graph#entry``."""
        found = []
        for graph_id, compiled in self.provider.graphs.items():
            definition = compiled.definition
            for entry in definition.entrypoints:
                description = definition.description or f"Graph {graph_id}"
                found.append((f"{graph_id}#{entry}", graph_id, entry, description))
        return found

    async def start_prompt(self, name: str, facts: Mapping[str, Any] | None) -> tuple[str, str]:
        """Start a Run for the prompt ``name`` and answer ``(description, message text)``."""
        found = [prompt for prompt in self.prompts() if prompt[0] == name]
        if not found:
            raise AgentGraphError(
                "prompt-missing", f"There is no prompt {name[:200]!r}; the prompts are graph#entry"
            )
        _, graph, entry, description = found[0]
        started = await self.start_run({"graph": graph, "entry": entry, "facts": dict(facts or {})})
        run_id = started.structured["runId"]
        answer, _ = await self.step(run_id)
        text = (
            f"You are following the Agent Graph Provider {self.provider_id}, graph {graph}#{entry}: {description}\n"
            f"Run {run_id} has started. Work step by step with the agent-graph tools: next_step tells you what to "
            "do, read_resource reads what it lists, update_facts publishes what you verified, record_outcome "
            "reports the step against its revision. Decisions that belong to the user are theirs alone.\n\n"
            + answer.text
        )
        return description, text
