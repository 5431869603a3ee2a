"""``verify(provider)``: explore the states a host can reach and report what can go wrong, each with its trace.

The exploration (:mod:`agent_graph._core.explore`) and the rules
(:mod:`agent_graph._core.verify`) are pure; this module gives them what they
cannot have: the clock of the time budget (``time.monotonic`` unless the
caller injects one), the declared properties read from
``agent-graph.verify.v1`` files (by default the ``verify`` folder beside the
manifest), and the places of findings in their files (line and column, with
lint's suppression comments: ``# agent-graph: ignore[AGV103]``). Nothing is
written and no Action runs.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from typing import Any

from .._core.errors import AgentGraphError, shown
from .._core.explore import Exploration, explore
from .._core.lint import selected_rules
from .._core.provider import Provider, loaded_provider
from .._core.verify import (
    RULES,
    PropertyResult,
    VerifiedIssue,
    VerifyExploration,
    VerifyFinding,
    VerifyReport,
    analyse,
    state_test,
    trace_steps,
)
from .._core.verify_properties import Condition, Property, check_property
from .._load.files import provider_file_system
from .._load.fs import FileSystem
from .._syntax import schema as _schema
from .._syntax.parse import parse_structured
from .lint import finding_fields, place, shown_file
from .testing import read_bounded

__all__ = ["DEFAULT_MAX_STATES", "read_properties", "verify"]

#: States one exploration evaluates at most, unless told otherwise.
DEFAULT_MAX_STATES = 100_000
_PROPERTY_FILE = re.compile(r"\.(?:ya?ml|json)$", re.IGNORECASE)
_KINDS = ("always", "never", "reachable", "alwaysReachable")


def _listed(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    return (value,) if isinstance(value, str) else tuple(value)


def read_properties(path: str, fs: FileSystem) -> list[Property]:
    """The properties of the ``agent-graph.verify.v1`` file at ``path``, or of every such file below a folder.

    A folder is searched recursively for ``.yaml``, ``.yml`` and ``.json``
    files; a missing path is ``verify-path-missing``, a file that does not
    match the schema ``schema-invalid`` (with line and column).
    """
    absolute = fs.absolute(path)
    kind = fs.kind(absolute)
    if kind is None:
        raise AgentGraphError("verify-path-missing", f"Verify property path does not exist: {absolute}")
    files = [absolute] if kind == "file" else [f for f in fs.list_files(absolute) if _PROPERTY_FILE.search(f)]
    found: list[Property] = []
    for file in files:
        data = read_bounded(fs, file)
        raw = parse_structured(data, file)
        _schema.validate("verify", raw, file, source=data.decode("utf-8", errors="replace"))
        entry = raw.get("entry", "default")
        for position, item in enumerate(raw["properties"]):
            kind_name = next(name for name in _KINDS if name in item)
            condition = item[kind_name]
            found.append(
                Property(
                    name=item["name"],
                    kind=kind_name,
                    condition=Condition(
                        status_code=_listed(condition.get("statusCode")),
                        outcome=_listed(condition.get("outcome")),
                        terminal=_listed(condition.get("terminal")),
                        primary_node=_listed(condition.get("primaryNode")),
                        offers=_listed(condition.get("offers")),
                    ),
                    path=file,
                    pointer=f"/properties/{position}",
                    graph=raw["graph"],
                    entry=entry,
                )
            )
    return found


def _targets(provider: Provider, graph: str | None, entry: str | None) -> list[tuple[str, str]]:
    if graph is None:
        if entry is not None:
            raise AgentGraphError(
                "argument-invalid", "An entry to verify needs its graph: give graph as well"
            )
        return [(g, e) for g, compiled in provider.graphs.items() for e in compiled.entrypoints]
    if not isinstance(graph, str) or graph not in provider.graphs:
        raise provider.graph_missing(graph)
    entries = provider.graphs[graph].entrypoints
    if entry is None:
        return [(graph, e) for e in entries]
    if not isinstance(entry, str) or entry not in entries:
        raise provider.entry_missing(graph, entry)
    return [(graph, entry)]


def _budget(time_budget: float | None, clock: Callable[[], float] | None) -> Callable[[], bool] | None:
    if time_budget is None:
        return None
    if isinstance(time_budget, bool) or not isinstance(time_budget, (int, float)) or not time_budget > 0:
        raise AgentGraphError(
            "argument-invalid", f"time_budget must be a positive number of seconds, not {time_budget!r:.40}"
        )
    now = clock if clock is not None else time.monotonic
    if not callable(now):
        raise AgentGraphError(
            "argument-invalid", f"clock must be a function giving seconds, not {shown(now)}"
        )
    deadline = now() + float(time_budget)
    return lambda: now() >= deadline


def verify(
    provider: Provider,
    graph: str | None = None,
    entry: str | None = None,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    time_budget: float | None = None,
    clock: Callable[[], float] | None = None,
    properties: str | None = None,
    outcomes: str = "declared",
    fact_changes: str = "free",
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    fs: FileSystem | None = None,
) -> VerifyReport:
    """Explore the states a host can reach from each entry and report what can go wrong.

    ``graph`` and ``entry`` restrict the entries explored (default: every
    entry of every Graph). Each exploration evaluates at most ``max_states``
    states; ``time_budget`` (seconds, read from ``clock``, by default
    ``time.monotonic``) bounds the whole call. A report that stopped at a
    bound says so (``complete`` false, finding AGV301) and claims nothing
    beyond the states explored. ``properties`` is an ``agent-graph.verify.v1``
    file or a folder of them (default: the ``verify`` folder beside the
    manifest, when there is one). ``outcomes`` is ``declared`` (a node records
    ``completed``, the outcomes its edges name and, a Gate, ``failed``) or
    ``all``. ``fact_changes`` is ``free`` (any fact a check reads may change
    at any time) or ``progress`` (the same, but a ``satisfiedBy`` that holds
    stays true: far fewer states, and proof withdrawn is not explored).
    ``select`` and ``ignore`` take rule codes (``AGV103``), prefixes
    (``AGV1``) or names (``trap``). Reads files through ``fs`` (default: the
    file system the Provider was loaded from); never writes, never runs an Action.
    """
    loaded_provider(provider, "verify")
    if properties is not None and not isinstance(properties, str):
        raise AgentGraphError(
            "argument-invalid", f"properties must be a path (a string), not {shown(properties)}"
        )
    wanted = selected_rules(select, ignore, RULES)
    fs = fs or provider_file_system(provider)
    targets = _targets(provider, graph, entry)
    expired = _budget(time_budget, clock)
    declared: list[Property] = []
    if properties is not None:
        declared = read_properties(properties, fs)
    elif provider.bundle is None:
        folder = f"{provider.root.rstrip('/')}/verify"
        if fs.kind(folder) == "directory":
            declared = read_properties(folder, fs)
    for prop in declared:
        target = _targets(provider, prop.graph, prop.entry)[0]
        if target not in targets:
            targets.append(target)
    explorations: dict[tuple[str, str], Exploration] = {}
    for graph_id, entry_name in targets:
        explorations[(graph_id, entry_name)] = explore(
            provider,
            graph_id,
            entry_name,
            max_states=max_states,
            expired=expired,
            outcomes=outcomes,
            fact_changes=fact_changes,
        )
    found = analyse(list(explorations.values()), wanted)
    results: list[PropertyResult] = []
    for prop in declared:
        result, issue = check_property(explorations[(prop.graph, prop.entry)], prop)
        results.append(
            PropertyResult(
                name=prop.name,
                file=shown_file(provider, prop.path),
                graph=prop.graph,
                entry=prop.entry,
                kind=prop.kind,
                result=result,
            )
        )
        if issue is not None and issue.issue.code in wanted:
            found.append(issue)
    return VerifyReport(
        provider=provider.manifest.id,
        explorations=tuple(
            VerifyExploration(
                graph=run.graph,
                entry=run.entry,
                states=run.evaluated,
                transitions=run.transitions,
                frontier=len(run.valuations) - run.evaluated,
                complete=run.complete,
                stopped=run.stopped,
            )
            for run in explorations.values()
        ),
        properties=tuple(results),
        findings=tuple(_findings(provider, found, fs)),
    )


def _findings(provider: Provider, found: list[VerifiedIssue], fs: FileSystem) -> list[VerifyFinding]:
    issues = [item.issue for item in found]
    by_issue = {id(item.issue): item for item in found}
    findings: list[VerifyFinding] = []
    for issue, line, column in place(provider, issues, fs, RULES):
        item = by_issue[id(issue)]
        exploration = item.exploration
        test = None
        trace: tuple[Any, ...] = ()
        entry = None
        if exploration is not None:
            entry = f"{exploration.graph}#{exploration.entry}"
            if item.state is not None:
                trace = trace_steps(exploration, item.state)
                test = state_test(
                    exploration,
                    item.state,
                    f"{issue.code} {RULES[issue.code].name}: {item.title}",
                    item.expect,
                )
        findings.append(
            VerifyFinding(
                **finding_fields(provider, issue, line, column, RULES), entry=entry, trace=trace, test=test
            )
        )
    findings.sort(key=lambda f: (f.file, f.line, f.column, f.code, f.message))
    return findings
