"""Driving a Run turn by turn with an agent function, and freezing what it saw as graph tests.

Rules of this module:

* One plan of a drive (:func:`_plan`): a generator that yields each store
  call and each question to the agent, and answers the trace. The blocking
  :func:`drive` and the asyncio :func:`drive_async` only carry those calls
  out, so both faces take the same turns.
* A turn is: the store's next step; the agent's reply (record an outcome with
  the Facts it observed, grant an authority, or only report Facts); the step
  after it. A drive ends at a terminal status (``complete``, ``blocked``,
  ``error``), when the agent answers ``None``, or after ``max_turns`` turns.
* Records carry the step's revision, so a reply to a step that is no longer
  the Run's is refused as any host's would be.
* Nothing here runs an Action: the agent function stands for the host and
  the Agent.

Its public names are listed once, in :mod:`agent_graph.testing` (which loads
this module on first use).
"""

from __future__ import annotations

import contextlib
import inspect
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypedDict

import msgspec

from .._core.errors import AgentGraphError
from .._core.model import (
    Outcome,
    Route,
    RunHead,
    StatusCode,
    Step,
    TestCase,
    TestExpect,
    TestState,
)
from .._core.provider import Provider, loaded_provider
from .run_store import BaseRunStore
from .run_store_async import AsyncRunStore

if TYPE_CHECKING:
    from typing_extensions import Unpack
else:
    from .._load.define_objects import Unpack


#: Statuses that end a drive: nothing more can happen without a change from outside.
TERMINAL: frozenset[str] = frozenset({"complete", "blocked", "error"})


class Record(msgspec.Struct, frozen=True, kw_only=True):
    """Reply: record ``outcome`` for the step's node, with the Facts observed while acting (merged first)."""

    outcome: Outcome
    facts: dict[str, Any] | None = None
    deep: bool = False
    detail: Any = msgspec.UNSET
    #: The state key to record (default: the route's ``afterAction.recordNode``).
    node: str | None = None


class Grant(msgspec.Struct, frozen=True, kw_only=True):
    """Reply: add session authorities to the Run (a delegatable Gate then resolves with them)."""

    authorities: tuple[str, ...]


class Observe(msgspec.Struct, frozen=True, kw_only=True):
    """Reply: only report Facts (merged into the Run's; ``deep`` merges nested objects key by key)."""

    facts: dict[str, Any]
    deep: bool = False


Reply = Record | Grant | Observe


def record(
    outcome: Outcome,
    facts: Mapping[str, Any] | None = None,
    *,
    deep: bool = False,
    detail: Any = msgspec.UNSET,
    node: str | None = None,
) -> Record:
    """Record ``outcome`` for the step's node, merging ``facts`` (what the host observed) in the same write."""
    return Record(
        outcome=outcome, facts=dict(facts) if facts is not None else None, deep=deep, detail=detail, node=node
    )


def grant(*authorities: str) -> Grant:
    """Grant the Run these session authorities."""
    return Grant(authorities=tuple(authorities))


def observe(facts: Mapping[str, Any], *, deep: bool = False) -> Observe:
    """Report ``facts`` without recording an outcome."""
    return Observe(facts=dict(facts), deep=deep)


class Turn(msgspec.Struct, frozen=True, kw_only=True):
    """One turn of a drive: the step the agent was given, its reply and the status after it."""

    number: int
    step: Step
    reply: Reply
    status: StatusCode

    @property
    def route(self) -> Route | None:
        """The step's route (None when there was nothing to do)."""
        return self.step.route


class Trace(msgspec.Struct, frozen=True, kw_only=True):
    """What a drive saw: every turn, the last step, and why it stopped.

    ``stopped`` is ``terminal`` (the Run is complete, blocked or in error),
    ``agent`` (the agent answered None) or ``max-turns`` (the turn budget ran
    out).
    """

    run: str
    provider: str
    graph: str
    entry: str
    turns: tuple[Turn, ...]
    final: Step
    stopped: Literal["terminal", "agent", "max-turns"]

    @property
    def status(self) -> StatusCode:
        """The Run's status at the end."""
        return self.final.evaluation.status_code

    @property
    def outcome(self) -> str | None:
        """The terminal outcome of a complete Run."""
        return self.final.evaluation.outcome

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every state the drive saw, in order: each turn's step, then the last one."""
        return (*(turn.step for turn in self.turns), self.final)

    def test_cases(self, *, name: str | None = None) -> list[TestCase]:
        """One ``agent-graph.test.v1`` case per state the drive saw: its state, and what was answered there."""
        label = name or f"{self.graph} driven"
        cases = []
        for index, step in enumerate(self.steps, 1):
            primary = step.evaluation.primary_route
            at = f" at {primary.node}" if primary is not None else ""
            title = f"{label}, state {index} ({step.evaluation.status_code}{at})"
            cases.append(_test_case(step, self.graph, self.entry, title))
        return cases

    def write_tests(self, folder: str | os.PathLike[str], *, name: str | None = None) -> list[str]:
        """Write :meth:`test_cases` to ``folder`` as ``state-01.yaml`` …; answers the paths.

        Nothing that exists is replaced (``file-exists``): all or none.
        """
        from .._load.atomic import FileChanges
        from .._syntax.emit import dump_yaml

        base = os.path.abspath(os.fspath(folder))
        written = []
        with FileChanges(label="Writing the graph tests") as changes:
            for index, case in enumerate(self.test_cases(name=name), 1):
                path = os.path.join(base, f"state-{index:02d}.yaml")
                changes.create(path, dump_yaml(msgspec.to_builtins(case), flow_width=100).encode("utf-8"))
                written.append(path)
        return written


def _outcomes(head: RunHead) -> dict[str, str]:
    return {key: record.outcome for key, record in head.outcomes.items()}


def _first(plan: Any, name: str) -> str | None:
    steps = plan.command_plan if plan is not None else ()
    return getattr(steps[0], name, None) if steps else None


def _test_case(step: Step, graph: str, entry: str, name: str) -> TestCase:
    """The graph test that pins ``step``: the Run's state, and the evaluation and route it was answered."""
    evaluation = step.evaluation
    primary = evaluation.primary_route
    route = step.route
    gate = route.gate if route is not None else None
    inspection = gate.inspection_action if gate is not None else None
    resolution = gate.resolution_action if gate is not None else None
    expect = TestExpect(
        status_code=evaluation.status_code,
        outcome=evaluation.outcome,
        primary_node=primary.node if primary else None,
        primary_reason_code=primary.reason_code if primary else None,
        availability=primary.availability if primary else None,
        alternative_nodes=tuple(r.node for r in evaluation.alternative_routes),
        diagnostics_include=tuple(dict.fromkeys(d.code for d in evaluation.diagnostics)) or None,
        command=_first(route, "command"),
        handler=_first(route, "handler"),
        required_resources=tuple(r.id for r in route.resources.required) if route else None,
        recommended_resources=tuple(r.id for r in route.resources.recommended) if route else None,
        gate_resolution=gate.resolution if gate else None,
        inspection_command=_first(inspection, "command"),
        inspection_handler=_first(inspection, "handler"),
        resolution_command=_first(resolution, "command"),
        resolution_handler=_first(resolution, "handler"),
        record_node=route.after_action.record_node if route else None,
    )
    head = step.run
    state = TestState(facts=dict(head.facts), outcomes=_outcomes(head), authorities=head.authorities)
    return TestCase(
        schema="agent-graph.test.v1", name=name, graph=graph, entry=entry, state=state, expect=expect
    )


# ---------------------------------------------------------------- one plan, two faces


class _Call(msgspec.Struct, frozen=True):
    """A store method to call, or (``method`` = ``agent``) the agent to ask about ``args[0]``."""

    method: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = msgspec.field(default_factory=dict)


def _plan(
    provider: Provider,
    graph: str,
    entry: str,
    max_turns: int,
    start: dict[str, Any],
) -> Generator[_Call, Any, Trace]:
    run = yield _Call("start", (None, provider, graph, entry), start)
    step: Step = yield _Call("next_step", (run.id, provider))
    turns: list[Turn] = []
    stopped: Literal["terminal", "agent", "max-turns"] = "terminal"
    while step.evaluation.status_code not in TERMINAL:
        if len(turns) >= max_turns:
            stopped = "max-turns"
            break
        reply = yield _Call("agent", (step,))
        if reply is None:
            stopped = "agent"
            break
        if isinstance(reply, Record):
            node = reply.node or (step.route.after_action.record_node if step.route is not None else None)
            if node is None:
                raise AgentGraphError(
                    "argument-invalid",
                    f"The agent recorded {reply.outcome} at a step without a route "
                    f"({step.evaluation.status_code}); give Record(node=…) the state key to record",
                )
            yield _Call(
                "record",
                (run.id, node, reply.outcome),
                {
                    "detail": reply.detail,
                    "provider": provider,
                    "revision": step.revision,
                    "facts": reply.facts,
                    "deep": reply.deep,
                },
            )
        elif isinstance(reply, Grant):
            yield _Call(
                "update_authorities", (run.id,), {"add": list(reply.authorities), "provider": provider}
            )
        elif isinstance(reply, Observe):
            yield _Call("update_facts", (run.id, reply.facts), {"deep": reply.deep, "provider": provider})
        else:
            raise AgentGraphError(
                "argument-invalid",
                f"The agent answered {type(reply).__name__}; answer record(…), grant(…), observe(…) or None",
            )
        after: Step = yield _Call("next_step", (run.id, provider))
        turns.append(Turn(number=len(turns) + 1, step=step, reply=reply, status=after.evaluation.status_code))
        step = after
    return Trace(
        run=run.id,
        provider=provider.id,
        graph=graph,
        entry=entry,
        turns=tuple(turns),
        final=step,
        stopped=stopped,
    )


Agent = Callable[[Step], "Reply | None"]
AsyncAgent = Callable[[Step], "Reply | Awaitable[Reply | None] | None"]


@contextlib.contextmanager
def fresh_store() -> Iterator[BaseRunStore]:
    """A new, empty Run store in memory (``memory://``) that lives as long as the block."""
    from .stores import open_store

    with open_store("memory://") as store:
        yield store


class DriveOptions(TypedDict, total=False):
    """How a drive starts and how long it may go on."""

    #: The entry point of the Graph (default ``default``).
    entry: str
    #: The most turns to take (default 100); the drive then stops with ``stopped="max-turns"``.
    max_turns: int
    #: The Run's Facts, authorities and workspace at its start.
    facts: Mapping[str, Any]
    authorities: Sequence[str]
    workspace: str


def _begin(provider: Provider, graph: str, options: DriveOptions) -> Generator[_Call, Any, Trace]:
    unknown = sorted(set(options) - set(DriveOptions.__annotations__))
    if unknown:
        raise AgentGraphError("argument-invalid", f"drive takes no option {', '.join(unknown)}")
    loaded_provider(provider, "drive", "ag.load_provider, builder.load()")
    max_turns = options.get("max_turns", 100)
    if not isinstance(max_turns, int) or isinstance(max_turns, bool) or max_turns < 0:
        raise AgentGraphError(
            "argument-invalid", f"max_turns must be a whole number of turns, not {max_turns!r}"
        )
    start = {
        "facts": dict(options.get("facts") or {}),
        "authorities": list(options.get("authorities", ())),
        "workspace": options.get("workspace"),
    }
    return _plan(provider, graph, options.get("entry", "default"), max_turns, start)


def _resume(plan: Generator[_Call, Any, Trace], answer: Any) -> _Call | Trace:
    """The plan's next call, given the answer to its last one; the trace once the plan has ended."""
    try:
        return plan.send(answer)
    except StopIteration as stop:
        trace: Trace = stop.value
        return trace


def drive(
    provider: Provider,
    graph: str,
    *,
    agent: Agent,
    store: BaseRunStore | None = None,
    **options: Unpack[DriveOptions],
) -> Trace:
    """Run ``graph`` turn by turn, asking ``agent`` what to do at each step, and answer the trace.

    ``agent(step)`` answers :func:`record` (an outcome and the Facts observed),
    :func:`grant` (session authorities), :func:`observe` (Facts only) or None
    (stop). ``store`` is where the Run lives (a fresh in-memory one, closed
    after, by default). Options: ``entry``; ``facts``, ``authorities`` and
    ``workspace`` to start the Run with; ``max_turns`` (default 100). A drive
    ends at a terminal status, when the agent stops, or after ``max_turns``
    turns (``trace.stopped`` says which).
    """
    plan = _begin(provider, graph, options)
    with contextlib.ExitStack() as stack:
        target = store if store is not None else stack.enter_context(fresh_store())
        call = _resume(plan, None)
        while not isinstance(call, Trace):
            if call.method == "agent":
                answer = agent(*call.args)
            else:
                answer = getattr(target, call.method)(*call.args, **call.kwargs)
            call = _resume(plan, answer)
        return call


@contextlib.asynccontextmanager
async def _fresh_async_store() -> AsyncIterator[AsyncRunStore]:
    from .stores import open_async_store

    async with await open_async_store("memory://") as store:
        yield store


async def drive_async(
    provider: Provider,
    graph: str,
    *,
    agent: AsyncAgent,
    store: AsyncRunStore | None = None,
    **options: Unpack[DriveOptions],
) -> Trace:
    """:func:`drive` on an async Run store (``await ag.open_async_store(url)``); ``agent`` may be a coroutine."""
    plan = _begin(provider, graph, options)
    async with contextlib.AsyncExitStack() as stack:
        target = store if store is not None else await stack.enter_async_context(_fresh_async_store())
        call = _resume(plan, None)
        while not isinstance(call, Trace):
            if call.method == "agent":
                answer = agent(*call.args)
                if inspect.isawaitable(answer):
                    answer = await answer
            else:
                answer = await getattr(target, call.method)(*call.args, **call.kwargs)
            call = _resume(plan, answer)
        return call
