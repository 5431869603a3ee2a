"""Frame plans (``agent_graph._core.plan``) settle frames exactly as the worklist does.

A plan is written for a graph whose repeat edges all lead from a node back to
itself; everything else keeps to the worklist. These tests force plans from
the first evaluation and compare them with the worklist, with the naive §5
evaluator of ``test_evaluate_rules`` and with the toolchain's recorded cases.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings

import agent_graph as ag
from agent_graph._core import evaluate as _evaluate
from agent_graph._core import plan as _plan

from . import strategies as S
from . import test_evaluate_rules as rules
from .providers import action_node, edge, files_for, graph_doc, load, repeat, subgraph_node, terminal_node
from .test_vectors_cases import CASES, test_case

NEVER = 10**9


@pytest.fixture
def plans_first(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every frame is settled by a plan (where its graph allows one) from its first evaluation."""
    monkeypatch.setattr(_evaluate, "PLAN_AFTER", 0)
    yield


def planned(provider: ag.Provider) -> int:
    """How many (graph, entry) frames of ``provider`` have a plan."""
    return sum(callable(plan) for graph in provider.graphs.values() for plan in graph.plans.values())


def with_repeats(case: dict[str, Any], mode: str, rng: random.Random) -> dict[str, Any]:
    """``case`` with its repeat edges removed (``none``) or turned into self-loops on their targets (``self``)."""
    case = copy.deepcopy(case)
    for graph in case["graphs"].values():
        kept = []
        for e in graph["edges"]:
            if e.get("kind") != "repeat":
                kept.append(e)
            elif mode == "self":
                loop = repeat(e["to"], e["to"], *e.get("outcomes", ["completed"]))
                if loop not in kept:
                    kept.append(loop)
        if mode == "self" and rng.random() < 0.7:  # a polling step: re-armed while it records "partial"
            targets = [n["id"] for n in graph["nodes"] if n["kind"] in ("action", "gate")]
            if targets:
                loop = repeat(rng.choice(targets), rng.choice(targets), rng.choice(["partial", "pending", "failed"]))
                loop["from"] = loop["to"]
                if loop not in kept:
                    kept.append(loop)
        graph["edges"] = kept
        rng.shuffle(graph["nodes"])  # node order decides reached order within a pass
    case["files"] = files_for(list(case["graphs"].values()), codes=case["hints"] or None)
    return case


def settle_all_ways(case: dict[str, Any]) -> None:
    """The worklist, a plan and the naive evaluator give the same evaluation, routes and overlays."""
    answers = []
    overlays = []
    for after in (NEVER, 0):
        _evaluate.PLAN_AFTER = after
        provider = load(case["files"])
        evaluation = ag.evaluate(provider, "main", case["entry"], facts=case["facts"], outcomes=case["outcomes"],
                                 authorities=case["authorities"])
        answers.append(json.dumps(rules.wire(evaluation)))
        graph = provider.graphs["main"]
        outcomes = _evaluate.normalize_outcomes(case["outcomes"])
        overlays.append(_evaluate.settled_outcomes(provider, graph, case["entry"], (), case["facts"], outcomes,
                                                   case["authorities"]))
        if after == 0 and case["entry"] in graph.entrypoints:
            assert planned(provider) >= 1 or graph.plans.get(graph.index[graph.entrypoints[case["entry"]]]) is None
    assert answers[0] == answers[1]
    assert list(overlays[0].items()) == list(overlays[1].items())
    rules.compare_with_naive(case)  # PLAN_AFTER is 0 here: plans against the literal §5 passes


@pytest.mark.parametrize("seed", range(150))
@pytest.mark.parametrize("mode", ["none", "self"])
def test_plans_agree_with_the_worklist_and_the_naive_evaluator(
    plans_first: None, monkeypatch: pytest.MonkeyPatch, seed: int, mode: str
) -> None:
    monkeypatch.setattr(_evaluate, "PLAN_AFTER", 0)  # restored after settle_all_ways changes it
    case = with_repeats(rules.random_case(seed), mode, random.Random(seed))
    settle_all_ways(case)


def test_random_cases_are_mostly_planned(plans_first: None) -> None:
    """The comparison above means something only if plans are actually written for the random graphs."""
    planned_frames = 0
    for seed in range(40):
        case = with_repeats(rules.random_case(seed), "self", random.Random(seed))
        provider = load(case["files"])
        ag.evaluate(provider, "main", case["entry"], facts=case["facts"], outcomes=case["outcomes"],
                    authorities=case["authorities"])
        planned_frames += planned(provider) > 0
    assert planned_frames >= 30


@pytest.mark.parametrize("seed", range(2))
def test_plans_agree_on_a_two_hundred_node_layered_dag(plans_first: None, seed: int) -> None:
    case = rules.layered_case(seed, layers=10, width=20)
    for graph in case["graphs"].values():
        graph["edges"] = [e for e in graph["edges"] if e.get("kind") != "repeat"]
    case["files"] = files_for(list(case["graphs"].values()))
    provider = load(case["files"])
    rules.compare_with_naive(case)
    assert planned(load(case["files"])) == 0  # not evaluated yet
    ag.evaluate(provider, "main", facts=case["facts"], outcomes=case["outcomes"], authorities=case["authorities"])
    assert planned(provider) == 1


@pytest.mark.skipif(not CASES, reason="toolchain vectors not found")
@pytest.mark.parametrize("index", range(len(CASES)))
def test_recorded_cases_through_plans(plans_first: None, index: int) -> None:
    test_case(index)


def _answer(provider: ag.Provider, scenario: tuple[Any, ...]) -> Any:
    _files, facts, outcomes, authorities, entry = scenario
    try:
        evaluation = ag.evaluate(provider, S.MAIN, entry, facts=facts, outcomes=outcomes, authorities=authorities)
    except ag.AgentGraphError as error:
        return error.code
    return msgspec.json.encode(evaluation)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(S.scenarios())
def test_plans_and_the_worklist_agree_on_hostile_states(monkeypatch: pytest.MonkeyPatch, scenario: tuple[Any, ...]) -> None:
    """Generated Providers with hostile facts, outcomes and authorities: same answer or same error code."""
    answers = []
    for after in (NEVER, 0):
        monkeypatch.setattr(_evaluate, "PLAN_AFTER", after)
        answers.append(_answer(S.load_files(scenario[0]), scenario))
    assert answers[0] == answers[1]


def test_a_repeat_edge_to_an_earlier_node_keeps_the_graph_on_the_worklist(plans_first: None) -> None:
    graph = graph_doc(
        "main",
        [action_node("a"), action_node("b"), terminal_node("done", "completed")],
        [edge("a", "b"), edge("b", "done"), repeat("b", "a", "partial")],
    )
    provider = load(files_for([graph]))
    ag.evaluate(provider, "main", outcomes={"main/a": "completed", "main/b": "partial"})
    assert provider.graphs["main"].plans == {0: None}


def test_a_polling_step_is_re_armed_by_its_plan(plans_first: None) -> None:
    graph = graph_doc(
        "main",
        [action_node("poll"), action_node("publish"), terminal_node("done", "completed")],
        [edge("poll", "publish"), edge("publish", "done"), repeat("poll", "poll", "partial")],
    )
    provider = load(files_for([graph]))
    evaluation = ag.evaluate(provider, "main", outcomes={"main/poll": "partial"})
    assert callable(provider.graphs["main"].plans[0])
    assert evaluation.status_code == "actionable"
    assert evaluation.primary_route is not None and evaluation.primary_route.node == "poll"
    done = ag.evaluate(provider, "main", outcomes={"main/poll": "completed", "main/publish": "completed"})
    assert done.status_code == "complete"


def test_reached_order_follows_the_earliest_matching_source_of_a_join_any(monkeypatch: pytest.MonkeyPatch) -> None:
    """``late`` joins any of ``a`` (settled in pass 2) and ``c`` (pass 3), so it is reached in pass 2, before ``e``."""
    nodes = [
        action_node("s"),
        action_node("a"),
        action_node("b"),
        action_node("e", requiresFacts=[{"path": "y", "exists": True}]),
        action_node("late", join="any", requiresFacts=[{"path": "x", "exists": True}]),
        action_node("c"),
        terminal_node("done", "completed"),
    ]
    edges = [edge("s", "a"), edge("s", "b"), edge("b", "c"), edge("a", "late"), edge("c", "late"), edge("c", "e"),
             edge("late", "done")]
    files = files_for([graph_doc("main", nodes, edges, entrypoints={"default": "s"})])
    outcomes = {f"main/{n}": "completed" for n in ("s", "a", "b", "c")}
    for after in (NEVER, 0):
        monkeypatch.setattr(_evaluate, "PLAN_AFTER", after)
        provider = load(files)
        graph = provider.graphs["main"]
        settled = _evaluate.settled_outcomes(provider, graph, "default", (), {}, outcomes, [])
        evaluation = ag.evaluate(provider, "main", outcomes=outcomes)
        assert list(settled) == ["s", "a", "b", "late", "c", "e"]
        assert [d.message for d in evaluation.diagnostics] == [
            "Node main/late requires facts that are not satisfied",
            "Node main/e requires facts that are not satisfied",
        ]


def test_a_plan_is_written_once_the_worklist_has_settled_the_frame_often_enough(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Compiling a plan costs about as much as many settlings: one-off evaluations never pay for it."""
    monkeypatch.setattr(_evaluate, "PLAN_AFTER", 3)
    small = graph_doc("main", [action_node("a"), terminal_node("done", "completed")], [edge("a", "done")])
    provider = load(files_for([small]))
    for turn in range(3):
        ag.evaluate(provider, "main", facts={"turn": turn})
        assert provider.graphs["main"].plans == {0: turn + 1}
    ag.evaluate(provider, "main", facts={"turn": 3})
    assert callable(provider.graphs["main"].plans[0])
    # A larger graph waits longer: three settlings for every started 128 nodes.
    nodes = [action_node(f"n{i}") for i in range(200)] + [terminal_node("done", "completed")]
    edges = [edge(f"n{i}", f"n{i + 1}") for i in range(199)] + [edge("n199", "done")]
    provider = load(files_for([graph_doc("main", nodes, edges, entrypoints={"default": "n0"})]))
    for turn in range(6):
        ag.evaluate(provider, "main", facts={"turn": turn})
    assert provider.graphs["main"].plans == {0: 6}
    ag.evaluate(provider, "main", facts={"turn": 6})
    assert callable(provider.graphs["main"].plans[0])


def test_one_evaluation_compiles_a_bounded_number_of_plans(plans_first: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond the first plan an evaluation needs, it compiles plans for at most PLAN_NODES_PER_EVALUATION nodes."""
    monkeypatch.setattr(_evaluate, "PLAN_NODES_PER_EVALUATION", 1)
    children = [graph_doc(f"c{i}", [terminal_node("done", "completed")], [], entrypoints={"default": "done"})
                for i in range(3)]
    calls = [subgraph_node(f"call{i}", f"c{i}", "default") for i in range(3)]
    main = graph_doc("main", [*calls, terminal_node("end", "completed")],
                     [edge("call0", "call1"), edge("call1", "call2"), edge("call2", "end")], entrypoints={"default": "call0"})
    provider = load(files_for([main, *children]))
    for count in (1, 2, 3, 4, 5):  # four frames: main and three children, one more plan each time
        assert ag.evaluate(provider, "main", facts={"turn": count}).status_code == "complete"
        assert planned(provider) == min(count, 4)


def test_plan_source_never_holds_user_text(plans_first: None) -> None:
    """IDs, paths and values are bound as constants, so no quote or newline in them can change the code."""
    hostile = 'x"); import os; os._exit(3)  # \n'
    nodes = [
        action_node("start", satisfiedBy=[{"path": "a.b", "equals": hostile}]),
        subgraph_node("call", "child", "default"),
        terminal_node("done", "completed"),
    ]
    child = graph_doc("child", [action_node("only"), terminal_node("end", "completed")], [edge("only", "end")])
    graph = graph_doc("main", nodes, [edge("start", "call"), edge("call", "done")])
    provider = load(files_for([graph, child]))
    main = provider.graphs["main"]
    source, constants = _plan.write_plan(main, 0, _plan.reachable_in_order(main, 0) or [], {})
    assert hostile not in source and "import os" not in source
    assert hostile in constants
    evaluation = ag.evaluate(provider, "main", facts={"a": {"b": hostile}})
    assert evaluation.primary_route is not None and evaluation.primary_route.node == "only"
