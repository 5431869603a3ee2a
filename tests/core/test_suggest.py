"""Close-name suggestions cost bounded work per lookup, on every path that makes them.

The rule (``agent_graph._core.suggest``): a small set of names answers exactly
what ``difflib.get_close_matches`` answers; a large one is indexed once and a
lookup visits at most ``BUDGET`` posting entries, compares at most
``SHORTLIST`` names and computes at most ``SCORED`` full ratios, whatever the
names. These tests count that work — on generated inputs made alike on
purpose, and through lint, ``check_state``, schema explanations and the
loader — never the time it takes; ``benchmarks/suggestions.py`` shows the
2,000 × 2,000 case.
"""

from __future__ import annotations

import difflib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, strategies as st

import agent_graph as ag
from agent_graph._core import suggest
from agent_graph._core.suggest import BUDGET, SCORED, SHORTLIST, SMALL, CloseNames
from tests.providers import ROOT, action_node, edge, files_for, graph_doc, terminal_node


class Work:
    """Comparisons made through ``difflib.SequenceMatcher`` in the suggestion module."""

    def __init__(self) -> None:
        self.compared = 0
        self.scored = 0


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Iterator[Work]:
    """Counts every name a lookup compares and every full ratio it computes, whoever made the lookup."""
    counted = Work()

    class Counting(difflib.SequenceMatcher):  # type: ignore[type-arg]
        def real_quick_ratio(self) -> float:  # the first thing a comparison of two names computes
            counted.compared += 1
            return super().real_quick_ratio()

        def ratio(self) -> float:
            counted.scored += 1
            return super().ratio()

    monkeypatch.setattr(suggest, "SequenceMatcher", Counting)
    monkeypatch.setattr(difflib, "SequenceMatcher", Counting)  # whatever finds close names counts
    yield counted


# ---------------------------------------------------------------- the index itself


_NAME = st.text(alphabet="abcde.", min_size=0, max_size=8)


@given(st.lists(_NAME, max_size=SMALL), _NAME, st.integers(1, 3), st.sampled_from([0.0, 0.5, 0.6, 0.8, 1.0]))
def test_a_small_set_answers_what_difflib_answers(names: list[str], word: str, n: int, cutoff: float) -> None:
    unique = list(dict.fromkeys(names))
    assert CloseNames(names).closest(word, n, cutoff) == difflib.get_close_matches(word, unique, n, cutoff)


def _names(rng: random.Random, size: int) -> list[str]:
    words = [
        "report",
        "draft",
        "digest",
        "approved",
        "publication",
        "url",
        "status",
        "owner",
        "team",
        "items",
    ]
    words += ["files", "export", "check", "review", "summary", "title", "body", "author", "date", "version"]
    found: dict[str, None] = {}
    while len(found) < size:
        parts = [
            rng.choice(words) + (str(rng.randrange(100)) if rng.random() < 0.3 else "") for _ in range(3)
        ]
        found[".".join(parts[: rng.randint(2, 3)])] = None
    return list(found)


def _typo(rng: random.Random, name: str) -> str:
    at = rng.randrange(len(name))
    letter = rng.choice("abcdefghijklmnopqrstuvwxyz.")
    kind = rng.randrange(3)
    if kind == 0:
        return name[:at] + name[at + 1 :]
    if kind == 1:
        return name[:at] + letter + name[at:]
    return name[:at] + letter + name[at + 1 :]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_typo_among_many_names_finds_a_name_as_close_as_difflib_finds(seed: int) -> None:
    rng = random.Random(seed)
    names = _names(rng, 600)
    index = CloseNames(names)
    for _ in range(40):
        word = _typo(rng, rng.choice(names))
        found = index.closest(word, 1, 0.8)
        expected = difflib.get_close_matches(word, names, 1, 0.8)
        scores = [difflib.SequenceMatcher(None, match, word).ratio() for match in (found, expected) if match]
        assert bool(found) == bool(expected) and scores[0] == scores[-1], (word, found, expected)


@pytest.mark.parametrize(
    "shape",
    [
        pytest.param(lambda i: f"data.entyr{i:06d}.value", id="numbered"),
        pytest.param(
            lambda i: "ab" * 20 + format(i, "b"), id="alike"
        ),  # every name shares every common triple
        pytest.param(lambda i: "x" * (i % 200 + 1) + str(i), id="lengths"),
    ],
)
def test_work_per_lookup_stays_bounded_however_many_names(shape: Any) -> None:
    for size in (1_000, 4_000, 16_000):
        names = [shape(i) for i in range(size)]
        index = CloseNames(names)
        postings = index._postings
        assert postings is not None
        assert sum(map(len, postings.values())) <= sum(
            len(name) + 2 for name in names
        )  # built in linear space
        lookups = 200
        for i in range(lookups):
            index.closest(shape(i * 7 % size)[:-1] + "q", 1, 0.6)
        assert index.visited <= lookups * BUDGET
        assert index.compared <= lookups * SHORTLIST
        assert index.scored <= lookups * SCORED


def test_the_same_name_in_other_case_is_suggested_when_none_is_close() -> None:
    assert suggest.close_names("REPORT.DIGEST.SHA", ["report.digest.sha", "x"]) == ["report.digest.sha"]
    assert ag.AgentGraphError  # the public error type is what every suggestion path raises
    assert CloseNames(["x" * 300]).closest("x" * 300) == []  # over LONGEST: no part in suggestions


# ---------------------------------------------------------------- every path that suggests


def _near_misses(size: int) -> tuple[ag.Provider, ag.MemoryFileSystem]:
    """``size`` nodes each reading ``data.entry<i>.value``; a graph test writing ``data.entyr<i>.value``."""
    nodes = [
        action_node(f"n{i}", "agent", satisfiedBy=[{"path": f"data.entry{i:05d}.value", "exists": True}])
        for i in range(size)
    ]
    nodes.append(terminal_node("done"))
    edges = [edge(f"n{i}", f"n{i + 1}") for i in range(size - 1)] + [edge(f"n{size - 1}", "done")]
    facts = {"data": {f"entyr{i:05d}": {"value": 1} for i in range(size)}}
    test = {
        "schema": "agent-graph.test.v1",
        "name": "near misses",
        "graph": "main",
        "state": {"facts": facts},
        "expect": {"statusCode": "actionable"},
    }
    fs = ag.MemoryFileSystem(
        files_for([graph_doc("main", nodes, edges)], extra={"tests/01.json": json.dumps(test)})
    )
    return ag.load_provider(f"{ROOT}/provider.yaml", fs=fs), fs


@pytest.mark.parametrize("size", [300, 1_200, pytest.param(2_000, marks=pytest.mark.slow)])
def test_lint_suggests_each_near_miss_in_bounded_work(work: Work, size: int) -> None:
    provider, fs = _near_misses(size)
    findings = ag.lint(provider, select=["AG2"], fs=fs)
    assert len(findings) == size
    for finding in findings:
        index = int(finding.node.removeprefix("n"))
        assert finding.code == "AG202" and finding.hint == f"change the path to data.entyr{index:05d}.value"
    assert work.compared <= size * SHORTLIST  # comparing every path with every path: size × size
    assert work.scored <= size * SCORED


def test_check_state_names_many_unknown_keys_in_bounded_work(work: Work) -> None:
    size = 1_500
    nodes = [action_node(f"step{i:05d}", "agent") for i in range(size)] + [terminal_node("done")]
    edges = [edge(nodes[i]["id"], nodes[i + 1]["id"]) for i in range(size)]
    fs = ag.MemoryFileSystem(files_for([graph_doc("main", nodes, edges)]))
    provider = ag.load_provider(f"{ROOT}/provider.yaml", fs=fs)
    outcomes = {f"main/setp{i:05d}": "completed" for i in range(size)}
    found = ag.check_state(provider, "main", outcomes=outcomes)
    assert len(found) == size
    assert found[7].message.endswith("(did you mean main/step00007?)"), found[7].message
    assert work.compared <= size * SHORTLIST and work.scored <= size * SCORED


def test_a_schema_explanation_of_many_unknown_properties_costs_bounded_work(work: Work) -> None:
    from agent_graph._syntax.schema import validate_with_schema

    size = 1_500
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {f"field{i:05d}": {"type": "string"} for i in range(size)},
    }
    with pytest.raises(ag.AgentGraphError) as caught:
        validate_with_schema(schema, {f"feild{i:05d}": "x" for i in range(size)}, "input.json", name="input")
    messages = [d.message for d in caught.value.diagnostics]
    assert len(messages) == size
    assert 'unknown property "feild00042" (did you mean "field00042"?)' in "\n".join(messages)
    assert work.compared <= size * SHORTLIST and work.scored <= size * SCORED


def test_the_loader_suggests_among_many_nodes_in_bounded_work(work: Work) -> None:
    size = 5_000
    nodes = [action_node(f"step{i:05d}", "agent") for i in range(size)] + [terminal_node("done")]
    edges = [edge(nodes[i]["id"], nodes[i + 1]["id"]) for i in range(size)]
    edges[size // 2]["to"] = "setp02501"
    fs = ag.MemoryFileSystem(files_for([graph_doc("main", nodes, edges)]))
    with pytest.raises(ag.AgentGraphError) as caught:
        ag.load_provider(f"{ROOT}/provider.yaml", fs=fs)
    assert caught.value.code == "graph-edge-node-missing"
    assert "did you mean step02501" in caught.value.message, caught.value.message
    assert work.compared <= SHORTLIST and work.scored <= SCORED
