"""Replay of a Run: step N is the evaluation of the Run as it was right after event N.

Runs are built by the very transitions every store applies (run_changes), one
change per event, keeping the Run after each; ``replay`` of the final Run must
give back, at every step, the state and the evaluation of that Run wherever the
events record the state, and must say what it could not recompute elsewhere.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import agent_graph as ag
import agent_graph.types as agt
from agent_graph._core.replay import replay, replay_state
from agent_graph._runtime import run_changes as rc

from . import providers as P, strategies as S

PROPERTY = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _at(index: int) -> str:
    return f"2026-01-01T00:{index // 60 % 60:02d}:{index % 60:02d}.000Z"


def _build(start: rc.Run, changes: list[rc.Change]) -> list[rc.Run]:
    """The Run after each event: ``runs[n - 1]`` is the Run right after event n."""
    runs = [start]
    for index, change in enumerate(changes, start=2):
        runs.append(rc.apply_change(runs[-1], change, _at(index))[0])
    return runs


fact_values = st.one_of(st.integers(-3, 3), st.booleans(), st.text(max_size=3), st.none())


@st.composite
def operations(draw: st.DrawFn, keys: list[str]) -> rc.Change:
    kind = draw(st.sampled_from(("record", "record", "facts", "facts-deep", "facts-replace", "authorities")))
    if kind == "record":
        return rc.record_change(
            draw(st.sampled_from(keys)),
            draw(st.sampled_from(agt.OUTCOMES)),
            draw(st.one_of(st.none(), fact_values)),
        )
    if kind == "authorities":
        return rc.authorities_change(
            replace=draw(st.one_of(st.none(), st.lists(st.sampled_from(S.AUTHORITIES)))),
            add=draw(st.lists(st.sampled_from(S.AUTHORITIES), max_size=2)),
            remove=draw(st.lists(st.sampled_from(S.AUTHORITIES), max_size=1)),
        )
    facts = S.facts_objects(hostile=False)
    return rc.facts_change(draw(facts), replace=kind == "facts-replace", deep=kind == "facts-deep")


@st.composite
def runs(draw: st.DrawFn) -> tuple[ag.Provider, list[rc.Run]]:
    files = draw(S.provider_files(max_nodes=6))
    provider = S.load_files(files)
    keys = S.state_keys(provider)
    start = rc.new_run(
        "run-1",
        provider.manifest.id,
        S.MAIN,
        "default",
        _at(1),
        workspace=None,
        facts=draw(S.facts_objects(hostile=False)),
        authorities=draw(st.lists(st.sampled_from(S.AUTHORITIES), max_size=2)),
    )
    changes = draw(st.lists(operations(keys), max_size=12))
    return provider, _build(start, changes)


def _facts_changed_later(history: list[rc.Run], after: int) -> set[str]:
    keys: set[str] = set()
    for run in history[after:]:
        event = run.events[-1]
        if event.type in ("facts.updated", "facts.replaced"):
            keys.update(event.detail["keys"])
    return keys


@PROPERTY
@given(runs())
def test_step_n_is_the_evaluation_of_the_run_after_event_n(case: tuple[ag.Provider, list[rc.Run]]) -> None:
    provider, history = case
    final = history[-1]
    steps = list(replay(provider, final))
    assert [step.event for step in steps] == list(final.events)
    replaced_later = [run.events[-1].type == "facts.replaced" for run in history]
    for number, (step, cut) in enumerate(zip(steps, history, strict=True), start=1):
        # Outcomes are always exact.
        assert step.outcomes == cut.outcomes
        hidden = any(replaced_later[number:])
        assert step.all_facts_unrecorded == hidden
        if not hidden:
            # Every Fact replay shows is the Run's; the ones it leaves out are exactly those changed later.
            assert all(cut.facts[key] == value for key, value in step.facts.items())
            later = _facts_changed_later(history, number)
            assert set(step.unrecorded_facts) == set(final.facts) & later
            assert set(step.facts) == set(final.facts) - later
        if not step.authorities_unrecorded:
            assert step.authorities == cut.authorities
        if step.exact:
            assert step.facts == cut.facts
            assert step.evaluation == rc.evaluate_run(provider, cut)
            assert step.revision == step.evaluation.revision
            assert step.status == step.evaluation.status_code
            assert step.primary_route == step.evaluation.primary_route
    # The last step is always the Run itself.
    assert steps[-1].exact
    assert steps[-1].evaluation == rc.evaluate_run(provider, final)


def _provider() -> ag.Provider:
    graph = P.graph_doc(
        "main",
        [
            P.action_node("draft", satisfiedBy=[{"path": "draft", "exists": True}]),
            P.gate_node("approve", authority="release", delegatable=True),
            P.action_node("send"),
            P.terminal_node("done"),
        ],
        [P.edge("draft", "approve"), P.edge("approve", "send"), P.edge("send", "done")],
    )
    return P.build(graph)


def _weekly(provider: ag.Provider) -> list[rc.Run]:
    start = rc.new_run(
        "r",
        provider.manifest.id,
        "main",
        "default",
        _at(1),
        workspace=None,
        facts={"team": "a"},
        authorities=[],
    )
    return _build(
        start,
        [
            rc.facts_change({"draft": "v1"}),
            rc.authorities_change(add=["release"]),
            rc.record_change("main/approve", "completed", {"comment": "looks good"}),
            rc.record_change("main/send", "completed", msgspec.UNSET),
        ],
    )


def test_replay_of_a_simple_run_shows_each_change() -> None:
    provider = _provider()
    history = _weekly(provider)
    steps = list(replay(provider, history[-1]))
    # The authorities a Run started with are not in its events: unrecorded until the first update.
    assert [s.exact for s in steps] == [False, False, True, True, True]
    assert [s.authorities_unrecorded for s in steps] == [True, True, False, False, False]
    assert [s.status for s in steps] == [rc.evaluate_run(provider, run).status_code for run in history]
    assert steps[0].changes == (ag_change("facts", "team", after="a", before_recorded=True),)
    assert steps[1].changes == (ag_change("facts", "draft", after="v1", before_recorded=False),)
    assert steps[1].facts == {"team": "a", "draft": "v1"}
    assert steps[2].changes[0].before is msgspec.UNSET and steps[2].changes[0].after == ["release"]
    approve = steps[3].changes[0]
    assert approve.part == "outcomes" and approve.key == "main/approve" and approve.before is msgspec.UNSET
    assert approve.after == {
        "outcome": "completed",
        "recordedAt": _at(4),
        "detail": {"comment": "looks good"},
    }
    assert steps[-1].status == "complete"
    assert steps[0].primary_route is not None and steps[0].primary_route.node == "draft"
    assert steps[1].primary_route is not None and steps[1].primary_route.node == "approve"
    assert replay_state(provider, history[-1], 2) == steps[1]


def ag_change(part: str, key: str, *, after: Any, before_recorded: bool) -> Any:
    from agent_graph._core.replay import StateChange

    return StateChange(part=part, key=key, after=after, before_recorded=before_recorded)  # type: ignore[arg-type]


def test_a_fact_changed_twice_is_unrecorded_before_its_last_change() -> None:
    provider = _provider()
    start = rc.new_run(
        "r", provider.manifest.id, "main", "default", _at(1), workspace=None, facts={}, authorities=["ops"]
    )
    history = _build(start, [rc.facts_change({"draft": "v1"}), rc.facts_change({"draft": "v2"})])
    steps = list(replay(provider, history[-1]))
    # Whether the Run started with "draft" is not recorded either.
    assert steps[0].unrecorded_facts == ("draft",) and steps[0].authorities == ("ops",)
    assert not steps[0].authorities_unrecorded
    assert not steps[1].exact and steps[1].unrecorded_facts == ("draft",) and steps[1].facts == {}
    assert steps[2].exact and steps[2].facts == {"draft": "v2"}


def test_authorities_before_the_first_update_are_unrecorded() -> None:
    provider = _provider()
    start = rc.new_run(
        "r", provider.manifest.id, "main", "default", _at(1), workspace=None, facts={}, authorities=["ops"]
    )
    history = _build(start, [rc.authorities_change(add=["release"])])
    steps = list(replay(provider, history[-1]))
    assert steps[0].authorities_unrecorded and not steps[0].exact
    assert steps[1].authorities == ("ops", "release") and steps[1].exact
    assert steps[1].changes[0].before_recorded is False


def test_replay_refuses_what_it_cannot_replay() -> None:
    provider = _provider()
    run = _weekly(provider)[-1]
    with pytest.raises(ag.AgentGraphError) as caught:
        list(replay(provider, msgspec.structs.replace(run, provider="other")))
    assert caught.value.code == "run-provider-mismatch"
    with pytest.raises(ag.AgentGraphError) as caught:
        list(replay(provider, msgspec.structs.replace(run, graph="nope")))
    assert caught.value.code == "graph-missing"
    with pytest.raises(ag.AgentGraphError) as caught:
        list(replay(provider, msgspec.structs.replace(run, events=run.events[:-1])))
    assert caught.value.code == "run-invalid"
    with pytest.raises(ag.AgentGraphError) as caught:
        list(replay(provider, msgspec.structs.replace(run, events=run.events[1:])))
    assert caught.value.code == "run-invalid"
    with pytest.raises(ag.AgentGraphError) as caught:
        list(replay("provider", run))  # type: ignore[arg-type]
    assert caught.value.code == "argument-invalid"
    for bad in (0, 6, True, "1"):
        with pytest.raises(ag.AgentGraphError) as caught:
            replay_state(provider, run, bad)  # type: ignore[arg-type]
        assert caught.value.code == "argument-invalid"


def test_replay_is_exported() -> None:
    assert ag.replay is replay
