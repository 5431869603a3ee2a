"""Replay of a Run: step N is the evaluation of the Run as it was right after event N.

Runs are built by the very transitions every store applies (run_changes), one
change per event, keeping the Run after each; ``replay`` of the final Run must
give back, at every step, the state and the evaluation of that Run: exactly,
since the events record the values they set, and, for a Run whose events name
keys without values (the reference toolchain's, or one written before values
were recorded: :func:`legacy` strips them), wherever the events record the
state, saying what it could not recompute elsewhere.
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
from tests import providers as P, strategies as S

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


def legacy(run: rc.Run) -> rc.Run:
    """``run`` as a writer that records no values writes it: ``run.started`` bare, Facts events ``{keys}``."""
    events = []
    for event in run.events:
        detail = event.detail
        if event.type == "run.started":
            detail = msgspec.UNSET
        elif event.type in ("facts.updated", "facts.replaced") or (
            event.type == "run.forked" and "keys" in event.detail
        ):
            detail = {key: value for key, value in event.detail.items() if key not in ("set", "merge")}
        events.append(msgspec.structs.replace(event, detail=detail))
    return msgspec.structs.replace(run, events=tuple(events))


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
    for step, cut in zip(steps, history, strict=True):
        # The events record every value they set: every step is the Run as it was.
        assert step.exact, step
        assert (
            step.facts == cut.facts and step.outcomes == cut.outcomes and step.authorities == cut.authorities
        )
        assert step.evaluation == rc.evaluate_run(provider, cut)
        assert step.revision == step.evaluation.revision and step.status == step.evaluation.status_code
        assert step.primary_route == step.evaluation.primary_route
        for change in step.changes:  # before and after are what the Run held
            if change.part == "facts":
                assert change.before_recorded and change.after_recorded
                assert change.after == cut.facts.get(change.key, msgspec.UNSET)


@PROPERTY
@given(runs())
def test_a_run_whose_events_record_no_values_replays_where_they_tell(
    case: tuple[ag.Provider, list[rc.Run]],
) -> None:
    provider, history = case
    final = legacy(history[-1])
    steps = list(replay(provider, final))
    replaced = [run.events[-1].type == "facts.replaced" for run in history]
    first_replace = replaced.index(True) + 1 if True in replaced else len(history) + 1
    for number, (step, cut) in enumerate(zip(steps, history, strict=True), start=1):
        # Outcomes are always exact.
        assert step.outcomes == cut.outcomes
        # Before the first replacement the keys the Run started with are unknown, and a later one may
        # have removed some: no Fact is recorded then.
        hidden = number < first_replace and any(replaced[number:])
        assert step.all_facts_unrecorded == hidden
        if not hidden:
            # Every Fact replay shows is the Run's, and every key it leaves out is one changed later.
            assert all(cut.facts[key] == value for key, value in step.facts.items())
            later = _facts_changed_later(history, number)
            assert set(cut.facts) <= set(step.facts) | set(step.unrecorded_facts)
            assert set(step.unrecorded_facts) <= set(cut.facts) | (set(final.facts) & later)
            assert not (set(step.facts) & set(step.unrecorded_facts))
            if number < first_replace:  # as far as the Run's own Facts tell
                assert set(step.unrecorded_facts) == set(final.facts) & later
        if not step.authorities_unrecorded:
            assert step.authorities == cut.authorities
        if step.exact:
            assert step.facts == cut.facts
            assert step.evaluation == rc.evaluate_run(provider, cut)
    # The last step is always the Run itself.
    assert steps[-1].exact
    assert steps[-1].evaluation == rc.evaluate_run(provider, final)


@PROPERTY
@given(runs(), st.integers(1, 12))
def test_a_run_continued_with_values_is_exact_from_its_first_recorded_replacement(
    case: tuple[ag.Provider, list[rc.Run]], cut_at: int
) -> None:
    """A Run written without values, then continued by a writer that records them."""
    provider, history = case
    final = history[-1]
    cut_at = min(cut_at, len(final.events))
    old = legacy(final)
    mixed = msgspec.structs.replace(final, events=(*old.events[:cut_at], *final.events[cut_at:]))
    steps = list(replay(provider, mixed))
    recorded_replace = next(
        (
            n
            for n in range(cut_at + 1, len(history) + 1)
            if history[n - 1].events[-1].type == "facts.replaced"
        ),
        None,
    )
    for number, (step, cut) in enumerate(zip(steps, history, strict=True), start=1):
        if not step.all_facts_unrecorded:
            assert all(cut.facts[key] == value for key, value in step.facts.items())
        if recorded_replace is not None and number >= recorded_replace:
            assert step.facts == cut.facts and not step.unrecorded_facts and not step.all_facts_unrecorded
        if step.exact:
            assert step.evaluation == rc.evaluate_run(provider, cut)
    assert steps[-1].exact


def test_values_that_disagree_with_the_runs_facts_are_refused() -> None:
    provider = _provider()
    history = _build(
        _start(provider), [rc.facts_change({"draft": "v1"}), rc.facts_change({"b": 1}, deep=True)]
    )
    run = history[-1]
    for facts in ({"draft": "v2", "b": 1}, {"draft": "v1"}, {"draft": "v1", "b": 1, "c": None}):
        with pytest.raises(ag.AgentGraphError) as caught:
            list(replay(provider, msgspec.structs.replace(run, facts=facts)))
        assert caught.value.code == "run-invalid" and "Facts" in caught.value.message
    # The Run file's own key order and number forms are the same values.
    assert list(replay(provider, msgspec.structs.replace(run, facts={"b": 1.0, "draft": "v1"})))[-1].exact


def _start(provider: ag.Provider, **state: Any) -> rc.Run:
    return rc.new_run(
        "r",
        provider.manifest.id,
        "main",
        "default",
        _at(1),
        workspace=None,
        facts=state.get("facts", {}),
        authorities=state.get("authorities", []),
    )


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
    start = _start(provider, facts={"team": "a"})
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
    assert [s.exact for s in steps] == [True] * 5
    assert [s.status for s in steps] == [rc.evaluate_run(provider, run).status_code for run in history]
    assert steps[0].changes == (ag_change("facts", "team", after="a", before_recorded=True),)
    assert steps[1].changes == (ag_change("facts", "draft", after="v1", before_recorded=True),)
    assert steps[1].facts == {"team": "a", "draft": "v1"}
    assert steps[2].changes[0].before == [] and steps[2].changes[0].after == ["release"]
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


def test_a_fact_changed_twice_is_unrecorded_before_its_last_change_when_events_record_no_values() -> None:
    provider = _provider()
    history = _build(
        _start(provider, authorities=["ops"]),
        [rc.facts_change({"draft": "v1"}), rc.facts_change({"draft": "v2"})],
    )
    exact = list(replay(provider, history[-1]))
    assert [s.facts for s in exact] == [{}, {"draft": "v1"}, {"draft": "v2"}] and all(s.exact for s in exact)
    assert [(c.before, c.after) for c in exact[2].changes] == [("v1", "v2")]
    steps = list(replay(provider, legacy(history[-1])))
    # Whether the Run started with "draft" is not recorded either.
    assert steps[0].unrecorded_facts == ("draft",) and steps[0].authorities == ("ops",)
    assert not steps[0].authorities_unrecorded
    assert not steps[1].exact and steps[1].unrecorded_facts == ("draft",) and steps[1].facts == {}
    assert steps[2].exact and steps[2].facts == {"draft": "v2"}


def test_authorities_before_the_first_update_are_unrecorded_unless_the_start_records_them() -> None:
    provider = _provider()
    history = _build(_start(provider, authorities=["ops"]), [rc.authorities_change(add=["release"])])
    exact = list(replay(provider, history[-1]))
    assert [s.authorities for s in exact] == [("ops",), ("ops", "release")] and all(s.exact for s in exact)
    assert exact[0].changes[0].after == ["ops"] and exact[1].changes[0].before == ["ops"]
    steps = list(replay(provider, legacy(history[-1])))
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
