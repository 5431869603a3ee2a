"""``check_state``: what evaluate() ignores in a state, listed for the host (the evaluation itself is unchanged)."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

import agent_graph as ag
import agent_graph.types as agt
from agent_graph._core.evaluate import evaluate_with_candidates
from tests.load_fixtures import base_documents, memory_fs
from tests.providers import action_node, build, edge, graph_doc, subgraph_node, terminal_node

NESTED = build(
    graph_doc(
        "main",
        [action_node("a"), subgraph_node("call", "mid"), terminal_node("t")],
        [edge("a", "call"), edge("call", "t")],
    ),
    graph_doc("mid", [subgraph_node("deep", "leaf"), terminal_node("t")], [edge("deep", "t")]),
    graph_doc("leaf", [action_node("x"), terminal_node("t")], [edge("x", "t")]),
)


def codes(diagnostics: tuple[agt.Diagnostic, ...]) -> list[str]:
    return [d.code for d in diagnostics]


@pytest.mark.parametrize(
    "key",
    ["main/a", "main/call", "main/t", "main/call>mid/deep", "main/call>mid/t", "main/call>mid/deep>leaf/x"],
)
def test_keys_of_the_graph_and_of_the_subgraphs_it_calls_are_sound(key: str) -> None:
    assert ag.check_state(NESTED, "main", outcomes={key: "completed"}) == ()


@pytest.mark.parametrize(
    ("key", "says"),
    [
        ("main/calll", "names no node of graph main (did you mean main/call?)"),
        ("mid/deep", "expected it to start with main/"),
        ("main/a>leaf/x", "goes into node main/a, which is not a Subgraph node"),
        ("main/call>leaf/x", "expected it to start with main/call>mid/ (did you mean main/call>mid/t?)"),
        (
            "main/call>mid/deep>leaf/y",
            "names no node of graph leaf (did you mean main/call>mid/deep>leaf/x?)",
        ),
        ("main/call>mid/deep>leaf/x>leaf/x", "goes into node leaf/x, which is not a Subgraph node"),
        ("", "expected it to start with main/"),
    ],
)
def test_a_key_naming_no_node_is_state_key_unknown(key: str, says: str) -> None:
    (problem,) = ag.check_state(NESTED, "main", outcomes={key: "completed"})
    assert problem.code == "state-key-unknown" and problem.severity == "error"
    assert problem.message.startswith(f"State key {key} ") and problem.message.endswith(says)
    assert problem.detail == {"key": key}


def test_every_key_a_route_asks_to_record_is_sound() -> None:
    provider = ag.load_provider("/p/provider.yaml", fs=memory_fs(base_documents()))
    for graph_id, compiled in provider.graphs.items():
        for entry in compiled.definition.entrypoints:
            _, candidates = evaluate_with_candidates(provider, graph_id, entry)
            for candidate in candidates:
                assert (
                    ag.check_state(provider, graph_id, entry, outcomes={candidate.state_key: "completed"})
                    == ()
                )


def test_the_other_parts_of_a_state() -> None:
    found = ag.check_state(
        NESTED,
        "main",
        "defualt",
        facts=[1],  # type: ignore[arg-type]
        outcomes={"main/a": "done", "main/t": {"outcome": "failed", "recordedAt": "2026-01-01T00:00:00Z"}},
        authorities=["ok", 3],  # type: ignore[list-item]
    )
    assert codes(found) == ["entry-missing", "json-object-required", "outcome-invalid", "authorities-invalid"]
    assert "did you mean default?" in found[0].message
    assert codes(ag.check_state(NESTED, "main", authorities="release")) == ["authorities-invalid"]
    assert codes(ag.check_state(NESTED, "main", outcomes=[])) == ["json-object-required"]  # type: ignore[arg-type]


def test_an_unknown_graph_is_graph_missing_as_in_evaluate() -> None:
    for graph in ("mian", 5, None):
        with pytest.raises(ag.AgentGraphError) as raised:
            ag.check_state(NESTED, graph)  # type: ignore[arg-type]
        assert raised.value.code == "graph-missing"
    assert "did you mean main?" in _message(lambda: ag.check_state(NESTED, "mian"))


def _message(action: Any) -> str:
    with pytest.raises(ag.AgentGraphError) as raised:
        action()
    return raised.value.message


def test_evaluate_answers_the_same_with_unknown_keys() -> None:
    plain = ag.evaluate(NESTED, "main", outcomes={"main/a": "completed"})
    noisy = ag.evaluate(NESTED, "main", outcomes={"main/a": "completed", "main/b": "failed"})
    assert codes(noisy.diagnostics) == codes(plain.diagnostics)
    # The revision digests every key given, and route IDs the revision; everything else is the same.
    first, second = (msgspec.json.encode(e).decode() for e in (plain, noisy))
    first = first.replace(plain.revision, "REV")
    second = second.replace(noisy.revision, "REV")
    for old, new in zip(
        [plain.primary_route, *plain.alternative_routes],
        [noisy.primary_route, *noisy.alternative_routes],
        strict=True,
    ):
        assert old is not None and new is not None
        second = second.replace(new.route_id, old.route_id)
    assert json.loads(first) == json.loads(second)
