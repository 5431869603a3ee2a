"""Rule-by-rule tests of evaluation: behaviour.md §3 (state keys), §4 (revision, route ID) and §5.

Each test is named after the rule it pins and builds the smallest Provider
that shows it (in memory, see ``tests/providers.py``). The end of the file
holds a naive evaluator written straight from the text of §5 steps 1–6, with
its literal quadratic pass loop, and compares it with the library on random
small Providers and on a 1,000-node layered DAG.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from tests.providers import (
    HOST,
    PROVIDER_ID,
    PROVIDER_VERSION,
    ROOT,
    action_node,
    build,
    edge,
    files_for,
    gate_node,
    graph_doc,
    graph_path,
    load,
    repeat,
    subgraph_node,
    terminal_node,
)

OUTCOMES = ("completed", "partial", "failed", "unverified", "skipped", "pending", "blocked", "waiting-user")
MAIN_PATH = f"{ROOT}/{graph_path('main')}"


def wire(value: Any) -> Any:
    """The wire JSON of a result, keys in wire order."""
    return json.loads(msgspec.json.encode(value))


def codes(ev: ag.Evaluation) -> list[str]:
    return [d.code for d in ev.diagnostics]


def listed(ev: ag.Evaluation) -> list[str]:
    """Nodes of the primary and alternative routes, in order."""
    routes = ([ev.primary_route] if ev.primary_route is not None else []) + list(ev.alternative_routes)
    return [r.node for r in routes]


def evaluate(
    provider: ag.Provider, graph: str = "main", entry: str = "default", **state: Any
) -> ag.Evaluation:
    return ag.evaluate(provider, graph, entry, **state)


def file_digest(content: str | bytes) -> str:
    data = content.encode("utf-8") if isinstance(content, str) else content
    return "sha256:" + hashlib.sha256(data).hexdigest()


def route_id(revision: str, graph: str, node: str, call_path: list[str]) -> str:
    token = ag.digest_value({"revision": revision, "graph": graph, "node": node, "callPath": call_path})
    return "route:" + token[len("sha256:") :][:20]


# Reusable Providers ---------------------------------------------------------

LINEAR = build(
    graph_doc(
        "main", [action_node("a"), action_node("b"), terminal_node("t")], [edge("a", "b"), edge("b", "t")]
    )
)

CHILD = graph_doc("child", [action_node("x"), terminal_node("ct")], [edge("x", "ct")])
WITH_CHILD = build(
    graph_doc(
        "main",
        [subgraph_node("s", "child"), action_node("after"), terminal_node("t")],
        [edge("s", "after"), edge("after", "t")],
    ),
    CHILD,
)

LEAF = graph_doc("leaf", [action_node("x"), terminal_node("lt")], [edge("x", "lt")])
MID = graph_doc("mid", [subgraph_node("s2", "leaf"), terminal_node("mt")], [edge("s2", "mt")])
NESTED = build(
    graph_doc("main", [subgraph_node("s1", "mid"), terminal_node("t")], [edge("s1", "t")]), MID, LEAF
)


# §3 Identities and state keys ----------------------------------------------------------


def test_state_key_top_level_is_graph_slash_node() -> None:
    assert listed(evaluate(LINEAR, outcomes={"main/a": "completed"})) == ["b"]
    # A bare node ID or another graph's prefix is not the node's key.
    assert listed(evaluate(LINEAR, outcomes={"a": "completed"})) == ["a"]
    assert listed(evaluate(LINEAR, outcomes={"other/a": "completed"})) == ["a"]


def test_state_key_inside_subgraph_uses_call_path_and_child_graph() -> None:
    ev = evaluate(WITH_CHILD)
    assert listed(ev) == ["x"] and ev.primary_route is not None and ev.primary_route.graph == "child"
    done = evaluate(WITH_CHILD, outcomes={"main/s>child/x": "completed"})
    assert listed(done) == ["after"]
    # The child's own top-level key does not reach into the call.
    assert listed(evaluate(WITH_CHILD, outcomes={"child/x": "completed"})) == ["x"]


def test_state_key_nested_two_levels() -> None:
    assert listed(evaluate(NESTED)) == ["x"]
    ev = evaluate(NESTED, outcomes={"main/s1>mid/s2>leaf/x": "completed"})
    assert ev.status_code == "complete" and ev.outcome == "completed"
    assert evaluate(NESTED, outcomes={"mid/s2>leaf/x": "completed"}).status_code == "actionable"


def test_state_key_route_record_node_and_call_path_of_child_routes() -> None:
    r = ag.route(NESTED, "main", workspace="/ws")
    assert (r.graph, r.node) == ("leaf", "x")
    assert list(r.call_path) == ["main/s1", "mid/s2"]
    assert r.after_action.record_node == "main/s1>mid/s2>leaf/x"
    r1 = ag.route(WITH_CHILD, "main", workspace="/ws")
    assert list(r1.call_path) == ["main/s"] and r1.after_action.record_node == "main/s>child/x"
    r0 = ag.route(LINEAR, "main", workspace="/ws")
    assert list(r0.call_path) == [] and r0.after_action.record_node == "main/a"


def test_state_key_same_child_called_twice_has_separate_keys() -> None:
    p = build(
        graph_doc(
            "main",
            [subgraph_node("s1", "child"), subgraph_node("s2", "child"), terminal_node("t")],
            [edge("s1", "s2"), edge("s2", "t")],
        ),
        CHILD,
    )
    ev = evaluate(p, outcomes={"main/s1>child/x": "completed"})
    assert ev.primary_route is not None
    r = ag.route(
        p,
        "main",
        "default",
        ev.primary_route.route_id,
        outcomes={"main/s1>child/x": "completed"},
        workspace="/ws",
    )
    assert list(r.call_path) == ["main/s2"] and r.after_action.record_node == "main/s2>child/x"


def test_outcome_record_counts_only_outcome() -> None:
    plain = evaluate(LINEAR, outcomes={"main/a": "completed"})
    record = evaluate(
        LINEAR,
        outcomes={
            "main/a": {"outcome": "completed", "recordedAt": "2025-01-01T00:00:00.000Z", "detail": {"x": [1]}}
        },
    )
    assert wire(record) == wire(plain)
    assert listed(record) == ["b"]


# §4 Revision and route ID ------------------------------------------------------------


def test_revision_changes_with_facts_outcomes_and_authorities() -> None:
    base = evaluate(LINEAR, facts={"a": 1}, outcomes={"main/a": "partial"}, authorities=["x"]).revision
    assert (
        evaluate(LINEAR, facts={"a": 2}, outcomes={"main/a": "partial"}, authorities=["x"]).revision != base
    )
    assert (
        evaluate(
            LINEAR, facts={"a": 1, "b": None}, outcomes={"main/a": "partial"}, authorities=["x"]
        ).revision
        != base
    )
    assert evaluate(LINEAR, facts={"a": 1}, outcomes={"main/a": "failed"}, authorities=["x"]).revision != base
    assert evaluate(LINEAR, facts={"a": 1}, outcomes={}, authorities=["x"]).revision != base
    assert (
        evaluate(LINEAR, facts={"a": 1}, outcomes={"main/a": "partial"}, authorities=["y"]).revision != base
    )
    assert evaluate(LINEAR, facts={"a": 1}, outcomes={"main/a": "partial"}, authorities=[]).revision != base


def test_revision_ignores_key_order_authority_order_duplicates_and_recorded_at() -> None:
    one = evaluate(
        LINEAR,
        facts={"b": {"y": 1, "x": [1, {"q": 1, "p": 2}]}, "a": True},
        outcomes={"main/b": "partial", "main/a": "completed"},
        authorities=["zeta", "alpha", "zeta"],
    )
    two = evaluate(
        LINEAR,
        facts={"a": True, "b": {"x": [1, {"p": 2, "q": 1}], "y": 1}},
        outcomes={
            "main/a": {"outcome": "completed", "recordedAt": "2020-01-01T00:00:00.000Z"},
            "main/b": {"outcome": "partial", "recordedAt": "2030-06-01T12:00:00.000Z", "detail": "later"},
        },
        authorities=("alpha", "zeta"),
    )
    assert one.revision == two.revision


def test_revision_counts_outcome_keys_no_node_has() -> None:
    base = evaluate(LINEAR).revision
    other = evaluate(LINEAR, outcomes={"main/nowhere": "completed"})
    assert other.revision != base
    assert listed(other) == ["a"]


def test_revision_and_route_id_formulas() -> None:
    main = graph_doc(
        "main",
        [action_node("a", "agent", resources={"required": ["resources/procedure.md"]}), terminal_node("t")],
        [edge("a", "t")],
    )
    files = files_for([main])
    p = load(files)
    facts = {"k": [1, 2.5, None], "s": "é"}
    authorities = ["delta", "b", "alpha", "b", "Zulu", "c_1", "c-1"]
    ev = ag.evaluate(
        p,
        "main",
        "default",
        facts=facts,
        outcomes={"main/zz": {"outcome": "partial", "recordedAt": "x"}},
        authorities=authorities,
    )
    closure = [  # collation order: "notes.txt" sorts before "SKILL.md" (case is a tertiary difference)
        "actions/agent.yaml",
        "graphs/main.json",
        "resources/procedure.md",
        "schemas/in.schema.json",
        "schemas/out.schema.json",
        "skills/worker/notes.txt",
        "skills/worker/SKILL.md",
    ]
    graph_digest = ag.digest_value(
        {
            "provider": {"id": PROVIDER_ID, "version": PROVIDER_VERSION},
            "graph": "main",
            "files": [[path, file_digest(files[f"{ROOT}/{path}"])] for path in closure],
        }
    )
    revision = ag.digest_value(
        {
            "provider": graph_digest,
            "graphId": "main",
            "entry": "default",
            "facts": facts,
            "outcomes": {"main/zz": "partial"},
            "authorities": ["Zulu", "alpha", "b", "c-1", "c_1", "delta"],  # code-unit order, not collation
        }
    )
    assert ev.revision == revision
    assert ev.primary_route is not None
    assert ev.primary_route.route_id == route_id(revision, "main", "a", [])


def test_route_id_formula_inside_subgraphs() -> None:
    ev = evaluate(NESTED)
    assert ev.primary_route is not None
    assert ev.primary_route.route_id == route_id(ev.revision, "leaf", "x", ["main/s1", "mid/s2"])


def test_revision_depends_on_entry_and_graph_identity() -> None:
    g = graph_doc(
        "main",
        [action_node("a"), action_node("b"), terminal_node("t")],
        [edge("a", "t"), edge("b", "t")],
        entrypoints={"default": "a", "other": "b"},
    )
    p = build(g)
    assert evaluate(p).revision != evaluate(p, entry="other").revision
    assert build(g, version="9.9.9").graphs["main"].digest != p.graphs["main"].digest
    assert build(g, provider_id="other.provider").graphs["main"].digest != p.graphs["main"].digest


def _revisions(extra: Mapping[str, Any], *graphs: dict[str, Any]) -> dict[str, str]:
    p = load(files_for(graphs, extra=extra))
    return {gid: ag.evaluate(p, gid, "default").revision for gid in p.graphs}


#: The host Action with another handler: a change to the file of the Action every host node runs.
HOST_OTHER_HANDLER = {
    "schema": "agent-graph.action.v1",
    "id": "host",
    "runner": "host",
    "effect": "read",
    "handler": "other.handler",
}


def test_graph_digest_ignores_files_of_unrelated_graphs() -> None:
    main = graph_doc("main", [action_node("a"), terminal_node("t")], [edge("a", "t")])
    other = graph_doc("other", [action_node("h", "host"), terminal_node("t")], [edge("h", "t")])
    base = _revisions({}, main, other)
    changed_action = _revisions(
        {HOST: HOST_OTHER_HANDLER},
        main,
        other,
    )
    assert changed_action["main"] == base["main"]
    assert changed_action["other"] != base["other"]
    other2 = dict(other, description="Now described.")
    changed_graph = _revisions({}, main, other2)
    assert changed_graph["main"] == base["main"] and changed_graph["other"] != base["other"]
    # The manifest is not part of any graph's closure (only the Provider's id and version are).
    manifest_changed = _revisions(
        {
            "provider.yaml": {
                "schema": "agent-graph.provider.v1",
                "id": PROVIDER_ID,
                "version": PROVIDER_VERSION,
                "description": "x",
                "graphs": ["graphs/main.json", "graphs/other.json"],
            }
        },
        main,
        other,
    )
    assert manifest_changed == base


def test_graph_digest_includes_subgraph_files() -> None:
    main = graph_doc("main", [subgraph_node("s", "child"), terminal_node("t")], [edge("s", "t")])
    child = graph_doc("child", [action_node("h", "host"), terminal_node("ct")], [edge("h", "ct")])
    base = _revisions({}, main, child)
    described = _revisions({}, main, dict(child, description="changed"))
    assert described["main"] != base["main"] and described["child"] != base["child"]
    host_changed = _revisions(
        {HOST: HOST_OTHER_HANDLER},
        main,
        child,
    )
    assert host_changed["main"] != base["main"]


def test_graph_digest_is_over_raw_bytes() -> None:
    main = graph_doc("main", [action_node("a"), terminal_node("t")], [edge("a", "t")])
    pretty = _revisions({}, main)
    compact = _revisions({graph_path("main"): json.dumps(main, separators=(",", ":"))}, main)
    assert pretty["main"] != compact["main"]


@pytest.mark.parametrize("facts", [[], "facts", 3, [{"a": 1}]])
def test_facts_must_be_an_object(facts: Any) -> None:
    with pytest.raises(ag.AgentGraphError):
        ag.evaluate(LINEAR, "main", "default", facts=facts)


# §5 Statuses and diagnostics ------------------------------------------------------------


def test_status_actionable() -> None:
    ev = evaluate(LINEAR)
    assert ev.status_code == "actionable" and ev.outcome is None
    assert ev.primary_route is not None and ev.primary_route.availability == "immediate"
    assert ev.primary_route.status_code == "actionable"


def test_status_waiting_user() -> None:
    p = build(graph_doc("main", [gate_node("g"), terminal_node("t")], [edge("g", "t")]))
    ev = evaluate(p)
    assert ev.status_code == "waiting-user"
    assert ev.primary_route is not None
    assert (ev.primary_route.status_code, ev.primary_route.availability) == ("waiting-user", "requires-user")


def test_status_blocked_with_no_route() -> None:
    ev = evaluate(LINEAR, outcomes={"main/a": "failed"})
    assert ev.status_code == "blocked" and ev.primary_route is None and ev.alternative_routes == ()
    assert [(d.code, d.severity, d.path) for d in ev.diagnostics] == [("no-route", "error", None)]


def test_status_complete() -> None:
    ev = evaluate(LINEAR, outcomes={"main/a": "completed", "main/b": "completed"})
    assert ev.status_code == "complete" and ev.outcome == "completed"
    assert ev.primary_route is None and ev.diagnostics == ()
    assert "outcome" in wire(ev)
    assert "outcome" not in wire(evaluate(LINEAR)) and "primaryRoute" not in wire(ev)


def test_entry_missing_is_an_error_status_without_path() -> None:
    ev = evaluate(LINEAR, entry="nope")
    assert ev.status_code == "error" and ev.primary_route is None
    assert [(d.code, d.severity, d.path) for d in ev.diagnostics] == [("entry-missing", "error", None)]
    assert "path" not in wire(ev)["diagnostics"][0]


def test_graph_missing_is_raised() -> None:
    with pytest.raises(ag.AgentGraphError) as raised:
        ag.evaluate(LINEAR, "nope", "default")
    assert raised.value.code == "graph-missing"


def test_required_fact_missing_points_to_the_absolute_graph_file() -> None:
    p = build(
        graph_doc(
            "main",
            [action_node("a", requiresFacts=[{"path": "ready", "equals": True}]), terminal_node("t")],
            [edge("a", "t")],
        )
    )
    ev = evaluate(p)
    assert ev.status_code == "blocked"
    assert [(d.code, d.severity, d.path) for d in ev.diagnostics] == [
        ("required-fact-missing", "error", MAIN_PATH)
    ]
    assert evaluate(p, facts={"ready": True}).status_code == "actionable"


def test_no_route_only_without_other_diagnostics() -> None:
    p = build(
        graph_doc(
            "main",
            [
                action_node("a"),
                action_node("b", requiresFacts=[{"path": "x", "exists": True}]),
                terminal_node("t"),
            ],
            [edge("a", "b"), edge("b", "t")],
        )
    )
    ev = evaluate(p, outcomes={"main/a": "completed"})
    assert ev.status_code == "blocked" and codes(ev) == ["required-fact-missing"]


def test_required_fact_missing_does_not_block_other_candidates() -> None:
    p = build(
        graph_doc(
            "main",
            [
                action_node("a"),
                action_node("b", requiresFacts=[{"path": "x", "exists": True}]),
                action_node("c"),
                terminal_node("t", join="any"),
            ],
            [edge("a", "b"), edge("a", "c"), edge("b", "t"), edge("c", "t")],
        )
    )
    ev = evaluate(p, outcomes={"main/a": "completed"})
    assert ev.status_code == "actionable" and listed(ev) == ["c"] and codes(ev) == ["required-fact-missing"]


def test_terminal_outcome_ambiguous() -> None:
    p = build(
        graph_doc(
            "main",
            [
                action_node("a"),
                terminal_node("ok", "skipped"),
                terminal_node("bad", "failed"),
                action_node("pending-work"),
            ],
            [edge("a", "ok"), edge("a", "bad"), edge("a", "pending-work")],
        )
    )
    ev = evaluate(p, outcomes={"main/a": "completed"})
    assert (
        ev.status_code == "error"
        and ev.outcome is None
        and ev.primary_route is None
        and ev.alternative_routes == ()
    )
    (diagnostic,) = ev.diagnostics
    assert (diagnostic.code, diagnostic.severity, diagnostic.path) == (
        "terminal-outcome-ambiguous",
        "error",
        MAIN_PATH,
    )
    assert diagnostic.detail == {"outcomes": ["failed", "skipped"]}


def test_terminals_with_the_same_outcome_are_not_ambiguous() -> None:
    p = build(
        graph_doc(
            "main",
            [action_node("a"), terminal_node("t1", "partial"), terminal_node("t2", "partial")],
            [edge("a", "t1"), edge("a", "t2")],
        )
    )
    ev = evaluate(p, outcomes={"main/a": "completed"})
    assert (ev.status_code, ev.outcome, ev.diagnostics) == ("complete", "partial", ())


def _fan(count: int) -> ag.Provider:
    nodes = (
        [action_node("start")]
        + [action_node(f"w{i}") for i in range(count)]
        + [terminal_node("t", join="any")]
    )
    edges = [edge("start", f"w{i}") for i in range(count)] + [edge(f"w{i}", "t") for i in range(count)]
    return build(graph_doc("main", nodes, edges))


def test_route_alternatives_truncated() -> None:
    ev = evaluate(_fan(6), outcomes={"main/start": "completed"})
    assert len(ev.alternative_routes) == 3
    (diagnostic,) = ev.diagnostics
    assert (diagnostic.code, diagnostic.severity, diagnostic.path) == (
        "route-alternatives-truncated",
        "info",
        None,
    )
    assert diagnostic.detail == {"available": 5, "returned": 3}
    assert ev.status_code == "actionable"


def test_four_candidates_are_not_truncated() -> None:
    ev = evaluate(_fan(4), outcomes={"main/start": "completed"})
    assert len(ev.alternative_routes) == 3 and ev.diagnostics == ()
    assert len(evaluate(_fan(2), outcomes={"main/start": "completed"}).alternative_routes) == 1


def test_child_no_route_follows_the_parents_own_diagnostics() -> None:
    blocked_child = graph_doc("child", [action_node("x"), terminal_node("ct")], [edge("x", "ct")])
    main = graph_doc(
        "main",
        [
            subgraph_node("s", "child"),
            action_node("b", requiresFacts=[{"path": "never", "exists": True}]),
            terminal_node("t"),
        ],
        [edge("s", "b", "pending"), edge("b", "t")],
    )
    p = build(main, blocked_child)
    ev = evaluate(p, outcomes={"main/s>child/x": "failed"})
    assert ev.status_code == "blocked"
    assert codes(ev) == ["required-fact-missing", "no-route"]
    assert ev.diagnostics[0].path == MAIN_PATH
    assert "child" in ev.diagnostics[1].message


def test_blocked_child_alone_gives_its_no_route() -> None:
    ev = evaluate(WITH_CHILD, outcomes={"main/s>child/x": "failed"})
    assert ev.status_code == "blocked" and codes(ev) == ["no-route"]
    assert "child" in ev.diagnostics[0].message


# §5 Reachability --------------------------------------------------------------------


def _join(join: str) -> ag.Provider:
    return build(
        graph_doc(
            "main",
            [action_node("a"), action_node("b"), action_node("c", join=join), terminal_node("t")],
            [edge("a", "c"), edge("b", "c"), edge("c", "t")],
            entrypoints={"default": "a"},
        )
    )


def test_join_all_needs_every_incoming_edge() -> None:
    p = build(
        graph_doc(
            "main",
            [action_node("a"), action_node("b"), action_node("c"), terminal_node("t")],
            [edge("a", "b"), edge("a", "c", "completed"), edge("b", "c"), edge("c", "t")],
        )
    )
    assert listed(evaluate(p, outcomes={"main/a": "completed"})) == ["b"]
    assert listed(evaluate(p, outcomes={"main/a": "completed", "main/b": "completed"})) == ["c"]


def test_join_any_needs_one_incoming_edge() -> None:
    p = build(
        graph_doc(
            "main",
            [action_node("a"), action_node("b"), action_node("c", join="any"), terminal_node("t")],
            [edge("a", "b"), edge("a", "c"), edge("b", "c"), edge("c", "t")],
        )
    )
    assert sorted(listed(evaluate(p, outcomes={"main/a": "completed"}))) == ["b", "c"]


def test_join_all_counts_edges_not_sources() -> None:
    p = build(
        graph_doc(
            "main",
            [action_node("a"), action_node("c"), terminal_node("t")],
            [edge("a", "c", "completed"), edge("a", "c", "partial"), edge("c", "t")],
        )
    )
    assert evaluate(p, outcomes={"main/a": "completed"}).status_code == "blocked"
    p_any = build(
        graph_doc(
            "main",
            [action_node("a"), action_node("c", join="any"), terminal_node("t")],
            [edge("a", "c", "completed"), edge("a", "c", "partial"), edge("c", "t")],
        )
    )
    assert listed(evaluate(p_any, outcomes={"main/a": "partial"})) == ["c"]


def test_join_all_with_an_unreached_source_is_not_reached() -> None:
    p = _join("all")
    assert evaluate(p, outcomes={"main/a": "completed"}).status_code == "blocked"
    assert listed(evaluate(_join("any"), outcomes={"main/a": "completed"})) == ["c"]


def test_edge_outcomes_default_to_completed() -> None:
    p = build(
        graph_doc(
            "main",
            [action_node("a"), action_node("b"), action_node("c"), terminal_node("t", join="any")],
            [edge("a", "b"), edge("a", "c", "partial"), edge("b", "t"), edge("c", "t")],
        )
    )
    assert listed(evaluate(p, outcomes={"main/a": "completed"})) == ["b"]
    assert listed(evaluate(p, outcomes={"main/a": "partial"})) == ["c"]
    assert evaluate(p, outcomes={"main/a": "unverified"}).status_code == "blocked"


def test_edge_kinds_share_one_reachability_rule() -> None:
    for kind in ("flow", "consumes", "requires"):
        p = build(
            graph_doc(
                "main",
                [action_node("a"), action_node("b"), terminal_node("t")],
                [edge("a", "b", kind=kind), edge("b", "t", "partial", kind=kind)],
            )
        )
        assert listed(evaluate(p, outcomes={"main/a": "completed"})) == ["b"]
        assert evaluate(p, outcomes={"main/a": "completed", "main/b": "partial"}).status_code == "complete"
    p = build(
        graph_doc(
            "main",
            [gate_node("g"), action_node("b"), terminal_node("t")],
            [edge("g", "b", kind="gatedBy"), edge("b", "t")],
        )
    )
    assert listed(evaluate(p, outcomes={"main/g": "completed"})) == ["b"]


def test_satisfied_by_gives_completed_without_a_record() -> None:
    p = build(
        graph_doc(
            "main",
            [
                action_node("a", satisfiedBy=[{"path": "done", "equals": True}]),
                action_node("b"),
                terminal_node("t"),
            ],
            [edge("a", "b"), edge("b", "t")],
        )
    )
    assert listed(evaluate(p, facts={"done": True})) == ["b"]
    assert listed(evaluate(p, facts={"done": True}, outcomes={"main/a": "failed"})) == ["b"]
    assert listed(evaluate(p)) == ["a"]


def _unverified_provider() -> ag.Provider:
    return build(
        graph_doc(
            "main",
            [
                action_node("a", satisfiedBy=[{"path": "done", "exists": True}]),
                action_node("check"),
                action_node("next"),
                terminal_node("t", join="any"),
            ],
            [edge("a", "next"), edge("a", "check", "unverified"), edge("check", "t"), edge("next", "t")],
        )
    )


def test_recorded_completed_without_satisfied_by_match_is_unverified() -> None:
    ev = evaluate(_unverified_provider(), outcomes={"main/a": "completed"})
    assert listed(ev) == ["check"]


def test_recorded_outcome_other_than_completed_is_kept_when_satisfied_by_fails() -> None:
    p = build(
        graph_doc(
            "main",
            [
                action_node("a", satisfiedBy=[{"path": "done", "exists": True}]),
                action_node("b"),
                terminal_node("t"),
            ],
            [edge("a", "b", "partial"), edge("b", "t")],
        )
    )
    assert listed(evaluate(p, outcomes={"main/a": "partial"})) == ["b"]


def test_recorded_completed_without_satisfied_by_is_completed() -> None:
    assert listed(evaluate(LINEAR, outcomes={"main/a": "completed"})) == ["b"]


def test_recorded_outcome_on_terminal_overrides_terminal_outcome() -> None:
    p = build(graph_doc("main", [action_node("a"), terminal_node("t", "completed")], [edge("a", "t")]))
    ev = evaluate(p, outcomes={"main/a": "completed", "main/t": "failed"})
    assert (ev.status_code, ev.outcome) == ("complete", "failed")


def test_reached_terminal_with_failing_requires_facts_is_blocked() -> None:
    p = build(
        graph_doc(
            "main",
            [action_node("a"), terminal_node("t", requiresFacts=[{"path": "ok", "exists": True}])],
            [edge("a", "t")],
        )
    )
    ev = evaluate(p, outcomes={"main/a": "completed"})
    assert (ev.status_code, ev.outcome) == ("complete", "blocked")
    assert codes(ev) == ["required-fact-missing"]
    assert (evaluate(p, outcomes={"main/a": "completed"}, facts={"ok": 1}).outcome) == "completed"


def test_blocked_terminal_beside_another_terminal_is_ambiguous() -> None:
    p = build(
        graph_doc(
            "main",
            [
                action_node("a"),
                terminal_node("t1", requiresFacts=[{"path": "ok", "exists": True}]),
                terminal_node("t2"),
            ],
            [edge("a", "t1"), edge("a", "t2")],
        )
    )
    ev = evaluate(p, outcomes={"main/a": "completed"})
    assert ev.status_code == "error"
    assert codes(ev) == ["required-fact-missing", "terminal-outcome-ambiguous"]
    assert ev.diagnostics[1].detail == {"outcomes": ["blocked", "completed"]}


def test_requires_facts_is_checked_before_satisfied_by() -> None:
    p = build(
        graph_doc(
            "main",
            [
                action_node(
                    "a",
                    requiresFacts=[{"path": "r", "exists": True}],
                    satisfiedBy=[{"path": "s", "exists": True}],
                ),
                terminal_node("t"),
            ],
            [edge("a", "t")],
        )
    )
    ev = evaluate(p, facts={"s": 1})
    assert ev.status_code == "blocked" and codes(ev) == ["required-fact-missing"]


# §5 Subgraphs --------------------------------------------------------------------


def test_subgraph_node_ignores_recorded_outcomes() -> None:
    ev = evaluate(WITH_CHILD, outcomes={"main/s": "completed"})
    assert listed(ev) == ["x"]
    done = evaluate(WITH_CHILD, outcomes={"main/s>child/x": "completed", "main/s": "failed"})
    assert listed(done) == ["after"]


def test_subgraph_node_cannot_carry_satisfied_by() -> None:
    # Why "a Subgraph node ignores satisfiedBy" needs no evaluation test: such a graph never loads.
    main = graph_doc(
        "main",
        [subgraph_node("s", "child", satisfiedBy=[{"path": "x", "exists": True}]), terminal_node("t")],
        [edge("s", "t")],
    )
    with pytest.raises(ag.AgentGraphError) as raised:
        build(main, CHILD)
    assert raised.value.code == "schema-invalid"


def test_child_terminal_outcome_flows_to_the_parent_edge() -> None:
    child = graph_doc(
        "child",
        [action_node("x"), terminal_node("ok"), terminal_node("part", "partial")],
        [edge("x", "ok"), edge("x", "part", "partial")],
    )
    main = graph_doc(
        "main",
        [
            subgraph_node("s", "child"),
            action_node("on-ok"),
            action_node("on-partial"),
            terminal_node("t", join="any"),
        ],
        [edge("s", "on-ok"), edge("s", "on-partial", "partial"), edge("on-ok", "t"), edge("on-partial", "t")],
    )
    p = build(main, child)
    assert listed(evaluate(p, outcomes={"main/s>child/x": "completed"})) == ["on-ok"]
    assert listed(evaluate(p, outcomes={"main/s>child/x": "partial"})) == ["on-partial"]


def test_child_error_makes_the_subgraph_node_failed() -> None:
    child = graph_doc(
        "child",
        [action_node("x"), terminal_node("a", "completed"), terminal_node("b", "skipped")],
        [edge("x", "a"), edge("x", "b")],
    )
    main = graph_doc(
        "main",
        [subgraph_node("s", "child"), action_node("recover"), terminal_node("t")],
        [edge("s", "recover", "failed"), edge("recover", "t")],
    )
    ev = evaluate(build(main, child), outcomes={"main/s>child/x": "completed"})
    assert listed(ev) == ["recover"] and ev.status_code == "actionable"
    # The child is not complete, so its diagnostics join the parent's.
    assert codes(ev) == ["terminal-outcome-ambiguous"]
    assert ev.diagnostics[0].path == f"{ROOT}/{graph_path('child')}"


def test_child_waiting_user_makes_the_subgraph_node_waiting_user() -> None:
    child = graph_doc("child", [gate_node("g"), terminal_node("ct")], [edge("g", "ct")])
    main = graph_doc(
        "main",
        [subgraph_node("s", "child"), action_node("meanwhile"), terminal_node("t")],
        [edge("s", "meanwhile", "waiting-user"), edge("meanwhile", "t")],
    )
    ev = evaluate(build(main, child))
    assert ev.status_code == "actionable"
    assert listed(ev) == ["meanwhile", "g"]


def test_child_actionable_makes_the_subgraph_node_pending() -> None:
    main = graph_doc(
        "main",
        [subgraph_node("s", "child"), action_node("side"), terminal_node("t")],
        [edge("s", "side", "pending"), edge("side", "t")],
    )
    ev = evaluate(build(main, CHILD))
    assert sorted(listed(ev)) == ["side", "x"]


def test_complete_child_diagnostics_are_dropped() -> None:
    child = graph_doc(
        "child",
        [
            action_node("x"),
            action_node("side", requiresFacts=[{"path": "nope", "exists": True}]),
            terminal_node("ct"),
        ],
        [edge("x", "ct"), edge("x", "side")],
    )
    main = graph_doc(
        "main",
        [subgraph_node("s", "child"), action_node("after"), terminal_node("t")],
        [edge("s", "after"), edge("after", "t")],
    )
    p = build(main, child)
    ev = evaluate(p, outcomes={"main/s>child/x": "completed"})
    assert listed(ev) == ["after"] and ev.diagnostics == ()
    # Seen directly, the child does report it.
    assert codes(evaluate(p, "child", outcomes={"child/x": "completed"})) == ["required-fact-missing"]


def test_subgraph_node_with_failing_requires_facts_is_blocked_without_its_child() -> None:
    main = graph_doc(
        "main",
        [subgraph_node("s", "child", requiresFacts=[{"path": "go", "exists": True}]), terminal_node("t")],
        [edge("s", "t")],
    )
    ev = evaluate(build(main, CHILD))
    assert ev.status_code == "blocked" and codes(ev) == ["required-fact-missing"]


def test_child_of_a_complete_parent_contributes_nothing_but_diagnostics_stay() -> None:
    # A parent that completes still lists diagnostics gathered from a non-complete child.
    main = graph_doc(
        "main",
        [action_node("a"), subgraph_node("s", "child"), terminal_node("t")],
        [edge("a", "s"), edge("a", "t")],
    )
    ev = evaluate(build(main, CHILD), outcomes={"main/a": "completed", "main/s>child/x": "failed"})
    assert ev.status_code == "complete" and codes(ev) == ["no-route"]


# §5 Repeat edges ---------------------------------------------------------------


def test_repeat_edge_rearms_the_loop_which_stays_actionable() -> None:
    p = build(
        graph_doc(
            "main",
            [action_node("poll"), terminal_node("t")],
            [repeat("poll", "poll", "partial"), edge("poll", "t")],
        )
    )
    ev = evaluate(p, outcomes={"main/poll": "partial"})
    assert ev.status_code == "actionable" and listed(ev) == ["poll"]
    assert evaluate(p, outcomes={"main/poll": "completed"}).status_code == "complete"


def test_repeat_rearm_happens_before_flow_edges_are_followed() -> None:
    p = build(
        graph_doc(
            "main",
            [action_node("poll"), action_node("after-partial"), terminal_node("t")],
            [
                repeat("poll", "poll", "partial"),
                edge("poll", "after-partial", "partial"),
                edge("after-partial", "t"),
            ],
        )
    )
    assert listed(evaluate(p, outcomes={"main/poll": "partial"})) == ["poll"]


def test_repeat_rearms_an_earlier_node() -> None:
    p = build(
        graph_doc(
            "main",
            [action_node("draft"), action_node("review"), terminal_node("t")],
            [edge("draft", "review"), repeat("review", "draft", "failed"), edge("review", "t")],
        )
    )
    ev = evaluate(p, outcomes={"main/draft": "completed", "main/review": "failed"})
    assert listed(ev) == ["draft"]


def test_node_first_reached_by_a_repeat_edge_is_pending_without_settling() -> None:
    p = build(
        graph_doc(
            "main",
            [
                action_node("a"),
                action_node(
                    "b",
                    satisfiedBy=[{"path": "s", "exists": True}],
                    requiresFacts=[{"path": "r", "exists": True}],
                ),
                terminal_node("t", join="any"),
            ],
            [repeat("a", "b", "partial"), edge("a", "t"), edge("b", "t")],
        )
    )
    ev = evaluate(p, facts={"s": 1}, outcomes={"main/a": "partial", "main/b": "completed"})
    assert listed(ev) == ["b"] and ev.diagnostics == ()


def test_repeat_edges_later_in_file_order_act_in_the_same_pass() -> None:
    # x partial re-arms y; y pending re-arms w. Flow edges from w and v (pending) reach p and q,
    # whose failing requiresFacts put diagnostics in the order they were settled.
    def provider(order: list[dict[str, Any]]) -> ag.Provider:
        nodes = [
            action_node("x"),
            action_node("y"),
            action_node("w"),
            action_node("v"),
            action_node("p", requiresFacts=[{"path": "no", "exists": True}]),
            action_node("q", requiresFacts=[{"path": "no", "exists": True}]),
            terminal_node("t", join="any"),
        ]
        tail = [
            edge("w", "p", "pending"),
            edge("v", "q", "pending"),
            edge("p", "t"),
            edge("q", "t"),
            edge("x", "t"),
        ]
        return build(graph_doc("main", nodes, order + tail, entrypoints={"default": "x"}))

    def order_of(p: ag.Provider) -> list[str]:
        ev = evaluate(p, outcomes={"main/x": "partial"})
        return [d.message for d in ev.diagnostics]

    same_pass = order_of(
        provider([repeat("x", "y", "partial"), repeat("y", "w", "pending"), repeat("x", "v", "partial")])
    )
    next_pass = order_of(
        provider([repeat("y", "w", "pending"), repeat("x", "y", "partial"), repeat("x", "v", "partial")])
    )
    # Same pass: w and v are re-armed together, so p and q are reached in node order (p first).
    assert ["main/p" in m for m in same_pass] == [True, False]
    # Next pass: v is re-armed a pass before w, so q is reached (and settled) before p.
    assert ["main/q" in m for m in next_pass] == [True, False]


def test_diagnostics_follow_reached_order_which_is_node_order_within_a_pass() -> None:
    nodes = [
        action_node("a"),
        action_node("c", requiresFacts=[{"path": "no", "exists": True}]),
        action_node("b", requiresFacts=[{"path": "no", "exists": True}]),
        terminal_node("t", join="any"),
    ]
    p = build(
        graph_doc(
            "main",
            nodes,
            [edge("a", "b"), edge("a", "c"), edge("b", "t"), edge("c", "t")],
            entrypoints={"default": "a"},
        )
    )
    ev = evaluate(p, outcomes={"main/a": "completed"})
    assert ["main/c" in d.message for d in ev.diagnostics] == [True, False]


# §5 Candidates -----------------------------------------------------------------


def test_candidates_sorted_by_availability_then_priority_then_route_id() -> None:
    nodes = [
        action_node("start"),
        gate_node("gate-high", priority=100),
        action_node("low", priority=-1),
        action_node("high", priority=5),
        action_node("zero-a"),
        action_node("zero-b"),
        terminal_node("t", join="any"),
    ]
    work = ["gate-high", "low", "high", "zero-a", "zero-b"]
    p = build(graph_doc("main", nodes, [edge("start", n) for n in work] + [edge(n, "t") for n in work]))
    ev = evaluate(p, outcomes={"main/start": "completed"})
    zero = sorted(["zero-a", "zero-b"], key=lambda n: route_id(ev.revision, "main", n, []))
    assert listed(ev) == ["high", *zero, "low"]
    # The gate is the fifth candidate: route it by ID.
    r = ag.route(
        p,
        "main",
        "default",
        route_id(ev.revision, "main", "gate-high", []),
        outcomes={"main/start": "completed"},
        workspace="/ws",
    )
    assert r.node == "gate-high" and r.availability == "requires-user"
    assert ev.diagnostics[0].detail == {"available": 4, "returned": 3}


def test_route_id_breaks_priority_ties() -> None:
    ev = evaluate(_fan(3), outcomes={"main/start": "completed"})
    ids = [r.route_id for r in (ev.primary_route, *ev.alternative_routes) if r is not None]
    assert ids == sorted(ids) and len(ids) == 3


def test_candidates_of_children_are_ranked_with_the_parents() -> None:
    child = graph_doc("child", [action_node("x", priority=3), terminal_node("ct")], [edge("x", "ct")])
    main = graph_doc(
        "main",
        [
            action_node("start"),
            subgraph_node("s", "child"),
            action_node("mine", priority=1),
            gate_node("ask"),
            terminal_node("t", join="any"),
        ],
        [
            edge("start", "s"),
            edge("start", "mine"),
            edge("start", "ask"),
            edge("s", "t"),
            edge("mine", "t"),
            edge("ask", "t"),
        ],
    )
    ev = evaluate(build(main, child), outcomes={"main/start": "completed"})
    assert listed(ev) == ["x", "mine", "ask"]
    assert [r.graph for r in (ev.primary_route, *ev.alternative_routes) if r is not None] == [
        "child",
        "main",
        "main",
    ]


def test_route_summary_shape_label_and_hint() -> None:
    g = graph_doc(
        "main",
        [action_node("a", description="Build it"), action_node("b"), terminal_node("t", join="any")],
        [edge("a", "t"), edge("b", "t")],
        entrypoints={"default": "a"},
    )
    p = build(g, codes={"route.a": "A needs doing.", "route.b": "B needs doing."})
    summary = wire(evaluate(p))["primaryRoute"]
    assert list(summary) == [
        "routeId",
        "graph",
        "node",
        "statusCode",
        "reasonCode",
        "hint",
        "availability",
        "label",
    ]
    assert (summary["label"], summary["hint"], summary["reasonCode"]) == (
        "Build it",
        "A needs doing.",
        "route.a",
    )
    plain = wire(evaluate(build(g)))["primaryRoute"]
    assert "hint" not in plain and plain["label"] == "Build it"
    assert wire(evaluate(build(g), entry="default"))["primaryRoute"]["node"] == "a"


def test_evaluation_field_order() -> None:
    full = wire(evaluate(_fan(6), outcomes={"main/start": "completed"}))
    assert list(full) == [
        "schema",
        "provider",
        "graph",
        "entry",
        "revision",
        "statusCode",
        "primaryRoute",
        "alternativeRoutes",
        "diagnostics",
    ]
    assert full["schema"] == "agent-graph.evaluation.v1" and full["provider"] == PROVIDER_ID
    assert list(full["diagnostics"][0]) == ["code", "severity", "message", "detail"]
    complete = wire(evaluate(LINEAR, outcomes={"main/a": "completed", "main/b": "completed"}))
    assert list(complete) == [
        "schema",
        "provider",
        "graph",
        "entry",
        "revision",
        "statusCode",
        "outcome",
        "alternativeRoutes",
        "diagnostics",
    ]
    blocked = wire(
        evaluate(
            build(
                graph_doc(
                    "main",
                    [action_node("a", requiresFacts=[{"path": "x", "exists": True}]), terminal_node("t")],
                    [edge("a", "t")],
                )
            )
        )
    )
    assert list(blocked["diagnostics"][0]) == ["code", "severity", "message", "path"]


def _gate(authority: str | None, delegatable: bool | None) -> ag.Provider:
    return build(
        graph_doc(
            "main",
            [gate_node("g", authority=authority, delegatable=delegatable), terminal_node("t")],
            [edge("g", "t")],
        )
    )


@pytest.mark.parametrize(
    ("authority", "delegatable", "given", "delegated"),
    [
        ("release", True, ["release"], True),
        ("release", True, ["other", "release"], True),
        ("release", True, [], False),
        ("release", True, ["other"], False),
        ("release", False, ["release"], False),
        ("release", None, ["release"], False),
        (None, True, ["release"], False),
        (None, None, [], False),
    ],
)
def test_gate_delegated_only_when_delegatable_and_authority_named_and_present(
    authority: str | None, delegatable: bool | None, given: list[str], delegated: bool
) -> None:
    p = _gate(authority, delegatable)
    ev = evaluate(p, authorities=given)
    assert ev.primary_route is not None
    if delegated:
        assert (ev.status_code, ev.primary_route.status_code, ev.primary_route.availability) == (
            "actionable",
            "actionable",
            "immediate",
        )
    else:
        assert (ev.status_code, ev.primary_route.status_code, ev.primary_route.availability) == (
            "waiting-user",
            "waiting-user",
            "requires-user",
        )
    r = ag.route(p, "main", authorities=given, workspace="/ws")
    assert r.gate is not None and r.gate.resolution == ("session-authority" if delegated else "user")


def test_recorded_waiting_user_on_an_action_keeps_it_actionable() -> None:
    ev = evaluate(LINEAR, outcomes={"main/a": "waiting-user"})
    assert ev.status_code == "actionable" and listed(ev) == ["a"]


def test_recorded_waiting_user_on_a_gate_keeps_it_a_candidate() -> None:
    p = _gate("release", True)
    assert evaluate(p, outcomes={"main/g": "waiting-user"}).status_code == "waiting-user"
    assert (
        evaluate(p, outcomes={"main/g": "waiting-user"}, authorities=["release"]).status_code == "actionable"
    )


@pytest.mark.parametrize("recorded", ["partial", "failed", "skipped", "blocked", "unverified"])
def test_other_recorded_outcomes_are_not_candidates(recorded: str) -> None:
    ev = evaluate(LINEAR, outcomes={"main/a": recorded})
    assert ev.status_code == "blocked" and codes(ev) == ["no-route"]


def test_recorded_pending_on_an_action_is_a_candidate() -> None:
    assert listed(evaluate(LINEAR, outcomes={"main/a": "pending"})) == ["a"]


def test_authorities_do_not_satisfy_facts() -> None:
    p = build(
        graph_doc(
            "main",
            [
                gate_node(
                    "g",
                    authority="release",
                    delegatable=True,
                    requiresFacts=[{"path": "ready", "exists": True}],
                ),
                terminal_node("t"),
            ],
            [edge("g", "t")],
        )
    )
    ev = evaluate(p, authorities=["release"])
    assert ev.status_code == "blocked" and codes(ev) == ["required-fact-missing"]


# §5 Fact checks ----------------------------------------------------------------

_CHECK_PROVIDERS: dict[str, ag.Provider] = {}


def passes(check: dict[str, Any], facts: Any) -> bool:
    """Whether ``check`` holds for ``facts`` (as the satisfiedBy of the entry action)."""
    key = json.dumps(check)
    if key not in _CHECK_PROVIDERS:
        _CHECK_PROVIDERS[key] = build(
            graph_doc("main", [action_node("a", satisfiedBy=[check]), terminal_node("t")], [edge("a", "t")])
        )
    status = ag.evaluate(_CHECK_PROVIDERS[key], "main", "default", facts=facts).status_code
    assert status in ("complete", "actionable")
    return status == "complete"


def exists(path: str, value: bool = True) -> dict[str, Any]:
    return {"path": path, "exists": value}


def equals(path: str, value: Any) -> dict[str, Any]:
    return {"path": path, "equals": value}


def test_fact_dotted_paths() -> None:
    assert passes(exists("a.b.c"), {"a": {"b": {"c": 0}}})
    assert not passes(exists("a.b.c"), {"a": {"b": {}}})
    assert passes(exists("a.b.c", False), {"a": {"b": {}}})
    assert passes(exists("a.b.c", False), {})
    assert passes(equals("a.b", "v"), {"a": {"b": "v"}})
    assert not passes(equals("a.b", "v"), {"a": {"b": "w"}})


def test_fact_array_indices() -> None:
    facts = {"items": [{"x": "first"}, {"x": "second"}]}
    assert passes(equals("items.0.x", "first"), facts)
    assert passes(equals("items.1.x", "second"), facts)
    assert passes(exists("items.2.x", False), facts)
    assert passes(exists("items.2", False), facts)


@pytest.mark.parametrize("segment", ["01", "00", "-1", "length", "1e0", "0x1", "2"])
def test_fact_non_canonical_index_on_an_array_is_absent(segment: str) -> None:
    facts = {"items": [{"x": 1}, {"x": 2}]}
    assert not passes(exists(f"items.{segment}"), facts)
    assert passes(exists(f"items.{segment}", False), facts)


def test_fact_numeric_segment_on_an_object_is_a_key() -> None:
    assert passes(equals("m.01", "z"), {"m": {"01": "z", "1": "o"}})
    assert passes(equals("m.1", "o"), {"m": {"01": "z", "1": "o"}})


@pytest.mark.parametrize("scalar", ["text", 12, True, None, 0.5])
def test_fact_scalar_in_the_way_is_absent(scalar: Any) -> None:
    assert not passes(exists("a.b"), {"a": scalar})
    assert passes(exists("a.b", False), {"a": scalar})
    assert not passes(exists("a.length"), {"a": scalar})
    assert not passes(exists("a.0"), {"a": scalar})


def test_fact_json_null_is_present() -> None:
    assert passes(exists("a"), {"a": None})
    assert not passes(exists("a", False), {"a": None})
    assert passes(equals("a", None), {"a": None})
    assert not passes(equals("a", None), {})
    assert not passes(equals("a", None), {"a": 0})
    assert not passes(equals("a", None), {"a": False})


def test_fact_equals_numbers_by_value() -> None:
    assert passes(equals("n", 1), {"n": 1.0})
    assert passes(equals("n", 1.0), {"n": 1})
    assert passes(equals("n", 2.5), {"n": 2.5})
    assert not passes(equals("n", 1), {"n": 1.5})
    assert passes(equals("n", 100000000000000000000), {"n": 1e20})
    # Integers beyond 2^53 compare as the doubles JavaScript reads.
    assert passes(equals("n", 9007199254740992), {"n": 9007199254740993})


def test_fact_equals_booleans_never_equal_numbers() -> None:
    assert not passes(equals("b", True), {"b": 1})
    assert not passes(equals("b", 1), {"b": True})
    assert not passes(equals("b", False), {"b": 0})
    assert not passes(equals("b", 0), {"b": False})
    assert passes(equals("b", True), {"b": True})
    assert passes(equals("b", False), {"b": False})
    assert not passes(equals("b", False), {"b": True})


def test_fact_equals_zero_and_negative_zero_differ() -> None:
    assert not passes(equals("z", 0), {"z": -0.0})
    assert not passes(equals("z", -0.0), {"z": 0})
    assert passes(equals("z", -0.0), {"z": -0.0})
    assert passes(equals("z", 0), {"z": 0.0})


def test_fact_equals_strings_strictly() -> None:
    assert not passes(equals("s", "1"), {"s": 1})
    assert not passes(equals("s", 1), {"s": "1"})
    assert not passes(equals("s", "true"), {"s": True})
    assert not passes(equals("s", "A"), {"s": "a"})
    assert not passes(equals("s", ""), {"s": None})
    assert passes(equals("s", "é"), {"s": "é"})


def test_fact_equals_never_matches_objects_or_arrays() -> None:
    assert not passes(equals("o", "x"), {"o": {"x": 1}})
    assert not passes(equals("o", 1), {"o": [1]})
    assert passes(exists("o"), {"o": {}})
    assert passes(exists("o"), {"o": []})


@pytest.mark.parametrize(
    "name",
    [
        "constructor",
        "__class__",
        "__dict__",
        "__proto__",
        "toString",
        "hasOwnProperty",
        "keys",
        "items",
        "get",
        "__len__",
    ],
)
def test_fact_only_own_keys_count(name: str) -> None:
    assert not passes(exists(name), {})
    assert passes(exists(name, False), {})
    assert not passes(exists(f"a.{name}"), {"a": {}})
    assert not passes(exists(f"a.{name}"), {"a": []})
    assert not passes(exists(f"a.{name}"), {"a": "s"})
    assert passes(equals(name, 1), {name: 1})


def test_fact_all_checks_must_pass() -> None:
    p = build(
        graph_doc(
            "main",
            [action_node("a", satisfiedBy=[exists("x"), equals("y", 2)]), terminal_node("t")],
            [edge("a", "t")],
        )
    )
    assert evaluate(p, facts={"x": 1, "y": 2}).status_code == "complete"
    assert evaluate(p, facts={"x": 1, "y": 3}).status_code == "actionable"
    assert evaluate(p, facts={"y": 2}).status_code == "actionable"


# Linear time ---------------------------------------------------------------------


@pytest.mark.slow
def test_hundred_thousand_node_chain_loads_and_evaluates() -> None:
    length = 100_000
    nodes: list[dict[str, Any]] = [
        {
            "id": f"n{i}",
            "kind": "action",
            "reasonCode": "route.step",
            "action": "actions/cmd.yaml",
            "satisfiedBy": [{"path": f"done.{i}", "exists": True}],
        }
        for i in range(length - 1)
    ]
    nodes.append({"id": f"n{length - 1}", "kind": "terminal", "terminalOutcome": "completed"})
    edges = [{"from": f"n{i}", "to": f"n{i + 1}"} for i in range(length - 1)]
    document = graph_doc("main", nodes, edges)
    files = files_for(
        [],
        standard=False,
        extra={
            "provider.yaml": {
                "schema": "agent-graph.provider.v1",
                "id": PROVIDER_ID,
                "version": PROVIDER_VERSION,
                "graphs": ["graphs/main.json"],
            },
            "graphs/main.json": json.dumps(document, separators=(",", ":")),
            "actions/cmd.yaml": "schema: agent-graph.action.v1\nid: cmd\nrunner: command\neffect: write\ncommand: make\n",
        },
    )
    p = load(files)
    half = length // 2
    facts = {"done": {str(i): True for i in range(half)}}
    ev = ag.evaluate(p, "main", "default", facts=facts)
    assert ev.status_code == "actionable" and listed(ev) == [f"n{half}"]
    everything = ag.evaluate(p, "main", "default", facts={"done": {str(i): 1 for i in range(length)}})
    assert (everything.status_code, everything.outcome) == ("complete", "completed")
    r = ag.route(p, "main", facts=facts, workspace="/ws")
    assert r.after_action.record_node == f"main/n{half}"


# A naive evaluator, written from the text of §5 --------------------------------------

_MISSING = object()


def naive_lookup(facts: Any, path: str) -> Any:
    current = facts
    for segment in path.split("."):
        if isinstance(current, dict):
            if segment not in current:
                return _MISSING
            current = current[segment]
        elif isinstance(current, list):
            canonical = (
                segment.isascii() and segment.isdigit() and (segment == "0" or not segment.startswith("0"))
            )
            if not canonical or int(segment) >= len(current):
                return _MISSING
            current = current[int(segment)]
        else:
            return _MISSING
    return current


def naive_equal(left: Any, right: Any) -> bool:
    if isinstance(left, bool) or isinstance(right, bool):
        return isinstance(left, bool) and isinstance(right, bool) and left == right
    if left is None or right is None:
        return left is None and right is None
    if isinstance(left, str) or isinstance(right, str):
        return isinstance(left, str) and isinstance(right, str) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        a, b = float(left), float(right)
        if a == 0 and b == 0:
            return str(a) == str(b)  # "0.0" vs "-0.0"
        return a == b
    return False


def naive_check(facts: Any, check: Mapping[str, Any]) -> bool:
    value = naive_lookup(facts, check["path"])
    if "exists" in check:
        return (value is not _MISSING) == check["exists"]
    return value is not _MISSING and naive_equal(value, check["equals"])


def naive_all(facts: Any, checks: list[Mapping[str, Any]]) -> bool:
    return all(naive_check(facts, c) for c in checks)


class NaiveFrame:
    def __init__(
        self,
        status: str,
        outcome: str | None,
        candidates: list[dict[str, Any]],
        diagnostics: list[dict[str, Any]],
    ):
        self.status = status
        self.outcome = outcome
        self.candidates = candidates
        self.diagnostics = diagnostics


class Naive:
    """§5 done literally: whole passes over every reached node, every repeat edge and every node."""

    def __init__(
        self,
        graphs: Mapping[str, dict[str, Any]],
        facts: Any,
        outcomes: Mapping[str, str],
        authorities: list[str],
        revision: str,
        hints: Mapping[str, str],
        paths: Mapping[str, str],
    ):
        self.graphs = graphs
        self.paths = paths
        self.facts = facts
        self.outcomes = outcomes
        self.authorities = authorities
        self.revision = revision
        self.hints = hints

    def frame(self, gid: str, entry: str, call_path: tuple[str, ...], stack: tuple[str, ...]) -> NaiveFrame:
        graph = self.graphs[gid]
        path = self.paths[gid]
        # Step 1.
        if gid in stack:
            return NaiveFrame("error", None, [], [{"code": "graph-recursion", "severity": "error"}])
        if entry not in graph["entrypoints"]:
            return NaiveFrame("error", None, [], [{"code": "entry-missing", "severity": "error"}])
        nodes = {n["id"]: n for n in graph["nodes"]}
        order = [n["id"] for n in graph["nodes"]]
        edges = graph["edges"]
        frame_key = gid if not call_path else ">".join(call_path) + ">" + gid

        def outs(e: Mapping[str, Any]) -> list[str]:
            return e.get("outcomes", ["completed"])

        # Step 2.
        reached: list[str] = [graph["entrypoints"][entry]]
        reached_set = set(reached)
        incoming_of = {
            nid: [e for e in edges if e["to"] == nid and e.get("kind") != "repeat"] for nid in order
        }
        outcome: dict[str, str] = {}
        diagnostics: list[dict[str, Any]] = []
        children: dict[str, NaiveFrame] = {}

        def settle(nid: str) -> str:
            node = nodes[nid]
            if "requiresFacts" in node and not naive_all(self.facts, node["requiresFacts"]):
                diagnostics.append({"code": "required-fact-missing", "severity": "error", "path": path})
                return "blocked"
            if node["kind"] == "subgraph":
                child = self.frame(node["graph"], node["entry"], (*call_path, f"{gid}/{nid}"), (*stack, gid))
                children[nid] = child
                if child.status == "complete":
                    assert child.outcome is not None
                    return child.outcome
                if child.status == "error":
                    return "failed"
                if child.status == "waiting-user":
                    return "waiting-user"
                return "pending"
            recorded = self.outcomes.get(f"{frame_key}/{nid}")
            satisfied = node.get("satisfiedBy")
            if satisfied is not None and naive_all(self.facts, satisfied):
                return "completed"
            if satisfied is not None and recorded == "completed":
                return "unverified"
            if recorded is not None:
                return recorded
            if node["kind"] == "terminal":
                return str(node["terminalOutcome"])
            return "pending"

        while True:
            changed = False
            # (a) settle reached nodes without an outcome, in reached order.
            for nid in list(reached):
                if nid not in outcome:
                    outcome[nid] = settle(nid)
                    changed = True
            # (b) repeat edges, in file order.
            for e in edges:
                if e.get("kind") != "repeat":
                    continue
                if e["from"] in reached_set and outcome.get(e["from"]) in outs(e):
                    if e["to"] not in reached_set:
                        reached.append(e["to"])
                        reached_set.add(e["to"])
                        changed = True
                    if outcome.get(e["to"]) != "pending":
                        outcome[e["to"]] = "pending"
                        changed = True
            # (c) unreached nodes with incoming non-repeat edges, in node order.
            for nid in order:
                if nid in reached_set:
                    continue
                incoming = incoming_of[nid]
                if not incoming:
                    continue
                matches = [e["from"] in reached_set and outcome.get(e["from"]) in outs(e) for e in incoming]
                if any(matches) if nodes[nid].get("join") == "any" else all(matches):
                    reached.append(nid)
                    reached_set.add(nid)
                    changed = True
            if not changed:
                break

        # Step 3.
        candidates: list[dict[str, Any]] = []
        for nid in reached:
            node = nodes[nid]
            if node["kind"] == "subgraph":
                child_frame = children.get(nid)
                if child_frame is not None and child_frame.status != "complete":
                    candidates.extend(child_frame.candidates)
                    diagnostics.extend(child_frame.diagnostics)
                continue
            if outcome[nid] not in ("pending", "waiting-user"):
                continue
            if node["kind"] == "action":
                status, availability = "actionable", "immediate"
            elif node["kind"] == "gate":
                gate = node["gate"]
                if (
                    gate.get("delegatable") is True
                    and "authority" in gate
                    and gate["authority"] in self.authorities
                ):
                    status, availability = "actionable", "immediate"
                else:
                    status, availability = "waiting-user", "requires-user"
            else:
                continue
            summary: dict[str, Any] = {
                "routeId": route_id(self.revision, gid, nid, list(call_path)),
                "graph": gid,
                "node": nid,
                "statusCode": status,
                "reasonCode": node["reasonCode"],
            }
            if node["reasonCode"] in self.hints:
                summary["hint"] = self.hints[node["reasonCode"]]
            summary["availability"] = availability
            summary["label"] = node.get("description", nid)
            summary["priority"] = node.get("priority", 0)
            candidates.append(summary)

        # Step 4.
        terminal_outcomes = sorted({outcome[n] for n in reached if nodes[n]["kind"] == "terminal"})
        if len(terminal_outcomes) > 1:
            diagnostics.append(
                {
                    "code": "terminal-outcome-ambiguous",
                    "severity": "error",
                    "path": path,
                    "detail": {"outcomes": terminal_outcomes},
                }
            )
            return NaiveFrame("error", None, [], diagnostics)
        if len(terminal_outcomes) == 1:
            return NaiveFrame("complete", terminal_outcomes[0], [], diagnostics)
        # Step 5.
        candidates.sort(key=lambda c: (c["availability"] != "immediate", -c["priority"], c["routeId"]))
        if candidates:
            status = (
                "actionable" if any(c["availability"] == "immediate" for c in candidates) else "waiting-user"
            )
            return NaiveFrame(status, None, candidates, diagnostics)
        if not diagnostics:
            diagnostics.append({"code": "no-route", "severity": "error"})
        return NaiveFrame("blocked", None, [], diagnostics)


def naive_graph_digest(
    files: Mapping[str, str | bytes], graphs: Mapping[str, dict[str, Any]], gid: str
) -> str:
    """The closure digest for Graphs whose nodes use single-file Actions only."""
    closure: set[str] = set()
    pending, seen = [gid], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        closure.add(graph_path(current))
        for node in graphs[current]["nodes"]:
            if node["kind"] == "action":
                closure.add(node["action"])
            elif node["kind"] == "subgraph":
                pending.append(node["graph"])
    # These paths use only [a-z0-9./], where collation order is plain order.
    assert all(c in "abcdefghijklmnopqrstuvwxyz0123456789./" for p in closure for c in p)
    return ag.digest_value(
        {
            "provider": {"id": PROVIDER_ID, "version": PROVIDER_VERSION},
            "graph": gid,
            "files": [[p, file_digest(files[f"{ROOT}/{p}"])] for p in sorted(closure)],
        }
    )


def _answer_parts(frame: Any) -> tuple[list[dict[str, Any]], list[Any]]:
    """The ranked candidates of a naive top frame (without priorities) and its diagnostics, the truncation
    of the alternatives (§5: three at most) included."""
    candidates = [{k: v for k, v in c.items() if k != "priority"} for c in frame.candidates]
    diagnostics = list(frame.diagnostics)
    if len(candidates) - 1 > 3:
        diagnostics.append(
            {
                "code": "route-alternatives-truncated",
                "severity": "info",
                "detail": {"available": len(candidates) - 1, "returned": 3},
            }
        )
    return candidates, diagnostics


def naive_evaluate(
    files: Mapping[str, str | bytes],
    graphs: Mapping[str, dict[str, Any]],
    hints: Mapping[str, str],
    gid: str,
    entry: str,
    facts: Any,
    outcomes: Mapping[str, Any],
    authorities: list[str],
) -> dict[str, Any]:
    normalized = {k: (v if isinstance(v, str) else v["outcome"]) for k, v in outcomes.items()}
    authority_list = sorted(set(authorities))
    revision = ag.digest_value(
        {
            "provider": naive_graph_digest(files, graphs, gid),
            "graphId": gid,
            "entry": entry,
            "facts": facts,
            "outcomes": normalized,
            "authorities": authority_list,
        }
    )
    paths = {g: f"{ROOT}/{graph_path(g)}" for g in graphs}
    frame = Naive(graphs, facts, normalized, authority_list, revision, hints, paths).frame(gid, entry, (), ())
    result: dict[str, Any] = {
        "schema": "agent-graph.evaluation.v1",
        "provider": PROVIDER_ID,
        "graph": gid,
        "entry": entry,
        "revision": revision,
        "statusCode": frame.status,
    }
    if frame.outcome is not None:
        result["outcome"] = frame.outcome
    candidates, diagnostics = _answer_parts(frame)
    if candidates:
        result["primaryRoute"] = candidates[0]
    result["alternativeRoutes"] = candidates[1:4]
    result["diagnostics"] = diagnostics
    result["allCandidates"] = candidates
    return result


# Random Providers --------------------------------------------------------------

VALUES: list[Any] = [0, -0.0, 1, 1.0, 2, True, False, None, "x", "1"]
CHECK_PATHS = ["f.a", "f.b", "flag", "items.0.x", "items.1.x", "f.a.b", "items.01.x", "f", "items.length"]
EDGE_OUTCOMES: list[tuple[str, ...]] = [
    (),
    (),
    (),
    ("completed",),
    ("partial",),
    ("failed", "unverified"),
    ("pending",),
    ("waiting-user",),
    ("skipped", "completed"),
    ("blocked",),
    ("partial", "failed"),
]


def random_check(rng: random.Random) -> dict[str, Any]:
    path = rng.choice(CHECK_PATHS)
    if rng.random() < 0.5:
        return {"path": path, "exists": rng.random() < 0.6}
    return {"path": path, "equals": rng.choice(VALUES)}


def random_facts(rng: random.Random) -> dict[str, Any]:
    facts: dict[str, Any] = {}
    if rng.random() < 0.7:
        facts["f"] = {k: rng.choice(VALUES) for k in "ab" if rng.random() < 0.7}
    if rng.random() < 0.5:
        facts["flag"] = rng.choice(VALUES)
    if rng.random() < 0.5:
        facts["items"] = [{"x": rng.choice(VALUES)} for _ in range(rng.randint(0, 2))]
    return facts


def random_graph(
    rng: random.Random,
    gid: str,
    children: Mapping[str, dict[str, Any]],
    size: int,
    ranks: dict[str, float],
    star: float = 0.0,
) -> dict[str, Any]:
    """A valid random Graph; ``ranks`` receives each node's position in its topological order (0..1).

    ``star`` is the chance that a non-terminal node hangs off the entry alone (wide frontiers).
    """
    fan_in = rng.choice([(0, 1, 1, 1, 2), (1, 1, 2), (1, 2, 2, 3)])
    any_join = rng.choice([0.1, 0.4, 0.8])
    ids = [f"n{i}" for i in range(size)]
    weights = [5, 2, 3, 2 if children else 0]
    kinds = {nid: rng.choices(["action", "gate", "terminal", "subgraph"], weights)[0] for nid in ids}
    if "terminal" not in kinds.values():
        kinds[rng.choice(ids)] = "terminal"
    topo = ids[:]
    rng.shuffle(topo)
    starters = [n for n in topo if kinds[n] != "terminal"]
    if starters and kinds[topo[0]] == "terminal":
        i = topo.index(starters[0])
        topo[0], topo[i] = topo[i], topo[0]
    for position, nid in enumerate(topo):
        ranks[nid] = position / size
    nodes = []
    for nid in ids:
        kind = kinds[nid]
        extra: dict[str, Any] = {}
        if rng.random() < 0.35:
            extra["priority"] = rng.randint(-2, 2)
        if rng.random() < 0.25:
            extra["description"] = f"Step {nid}"
        if rng.random() < 0.6:
            extra["join"] = "any" if rng.random() < any_join else "all"
        if rng.random() < 0.15:
            extra["requiresFacts"] = [random_check(rng) for _ in range(rng.randint(0, 2))]
        if kind in ("action", "gate") and rng.random() < 0.25:
            extra["satisfiedBy"] = [random_check(rng) for _ in range(rng.randint(1, 2))]
        if kind == "action":
            nodes.append(action_node(nid, rng.choice(["cmd", "host"]), **extra))
        elif kind == "gate":
            nodes.append(
                gate_node(
                    nid,
                    authority=rng.choice([None, "rel", "ops"]),
                    delegatable=rng.choice([None, True, True, False]),
                    **extra,
                )
            )
        elif kind == "terminal":
            nodes.append(
                terminal_node(
                    nid, rng.choice(["completed", "completed", "failed", "partial", "skipped"]), **extra
                )
            )
        else:
            child_id = rng.choice(sorted(children))
            nodes.append(
                subgraph_node(nid, child_id, rng.choice(sorted(children[child_id]["entrypoints"])), **extra)
            )
    edges: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()

    def add(e: dict[str, Any]) -> None:
        key = (e.get("kind", "flow"), e["from"], e["to"], tuple(e.get("outcomes", ["completed"])))
        if key not in seen:
            seen.add(key)
            edges.append(e)

    for i, target in enumerate(topo[1:], start=1):
        earlier = [n for n in topo[:i] if kinds[n] != "terminal"]
        if not earlier:
            continue
        if kinds[target] != "terminal" and topo[0] in earlier and rng.random() < star:
            add(edge(topo[0], target))
            continue
        for source in rng.sample(earlier, min(len(earlier), rng.choice(fan_in))):
            kinds_allowed: list[str | None] = [None, None, "flow", "consumes", "requires"]
            if kinds[source] == "gate":
                kinds_allowed.append("gatedBy")
            add(edge(source, target, *rng.choice(EDGE_OUTCOMES), kind=rng.choice(kinds_allowed)))
            if rng.random() < 0.1:
                add(edge(source, target, *rng.choice(EDGE_OUTCOMES)))
    sources = [n for n in ids if kinds[n] != "terminal"]
    targets = [n for n in ids if kinds[n] in ("action", "gate")]
    for _ in range(rng.choice([0, 1, 2, 3, 4])):
        if sources and targets:
            add(
                repeat(rng.choice(sources), rng.choice(targets), *rng.sample(OUTCOMES, rng.choice([1, 1, 2])))
            )
    rng.shuffle(edges)
    entrypoints = {"default": topo[0]}
    if rng.random() < 0.4:
        entrypoints["alt"] = rng.choice(ids)
    return graph_doc(gid, nodes, edges, entrypoints=entrypoints)


def state_keys(graphs: Mapping[str, dict[str, Any]], gid: str, call_path: tuple[str, ...] = ()) -> list[str]:
    frame_key = gid if not call_path else ">".join(call_path) + ">" + gid
    keys = []
    for node in graphs[gid]["nodes"]:
        keys.append(f"{frame_key}/{node['id']}")
        if node["kind"] == "subgraph":
            keys.extend(state_keys(graphs, node["graph"], (*call_path, f"{gid}/{node['id']}")))
    return keys


def random_case(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    graph_ids = ["main", "c1", "c2"][: rng.choice([1, 2, 2, 3])]
    graphs: dict[str, dict[str, Any]] = {}
    ranks: dict[str, dict[str, float]] = {}
    star = rng.choice([0.0, 0.9])
    for index in reversed(range(len(graph_ids))):
        gid = graph_ids[index]
        children = {g: graphs[g] for g in graph_ids[index + 1 :]}
        ranks[gid] = {}
        graphs[gid] = random_graph(rng, gid, children, rng.randint(2, 10), ranks[gid], star)
    hints: dict[str, str] = {}
    if rng.random() < 0.5:
        for g in graphs.values():
            for node in g["nodes"]:
                if "reasonCode" in node:
                    hints[node["reasonCode"]] = f"Why {node['reasonCode']}."
    outcomes: dict[str, Any] = {}
    # Nodes early in topological order are more often recorded, so that frontiers are wide.
    cut = 0.05 if star else rng.choice([0.05, 0.2, 0.4, 0.7, 0.9])
    for key in state_keys(graphs, "main"):
        gid, nid = key.rsplit(">", 1)[-1].split("/")
        early = ranks[gid][nid] < cut
        if rng.random() < (0.85 if early else 0.15):
            value = (
                "completed"
                if early and rng.random() < 0.8
                else rng.choice((*OUTCOMES, "completed", "partial"))
            )
            outcomes[key] = (
                value if rng.random() < 0.7 else {"outcome": value, "recordedAt": "2025-01-01T00:00:00.000Z"}
            )
    if rng.random() < 0.1:
        outcomes["main/unknown"] = "completed"
    entry = rng.choice(sorted(graphs["main"]["entrypoints"]))
    if rng.random() < 0.02:
        entry = "missing"
    authorities = rng.sample(["rel", "ops", "zz"], rng.randint(0, 3))
    if authorities and rng.random() < 0.2:
        authorities.append(authorities[0])
    ordered = [graphs[g] for g in graph_ids]
    files = files_for(ordered, codes=hints or None)
    return {
        "files": files,
        "graphs": graphs,
        "hints": hints,
        "entry": entry,
        "facts": random_facts(rng),
        "outcomes": outcomes,
        "authorities": authorities,
    }


def strip_messages(evaluation: dict[str, Any]) -> dict[str, Any]:
    result = dict(evaluation)
    result["diagnostics"] = [
        {k: v for k, v in d.items() if k != "message"} for d in evaluation["diagnostics"]
    ]
    return result


def compare_with_naive(case: dict[str, Any], graph: str = "main") -> None:
    provider = load(case["files"])
    expected = naive_evaluate(
        case["files"],
        case["graphs"],
        case["hints"],
        graph,
        case["entry"],
        case["facts"],
        case["outcomes"],
        case["authorities"],
    )
    every = expected.pop("allCandidates")
    got = strip_messages(
        wire(
            ag.evaluate(
                provider,
                graph,
                case["entry"],
                facts=case["facts"],
                outcomes=case["outcomes"],
                authorities=case["authorities"],
            )
        )
    )
    # Same fields, same values, same order (json.dumps keeps insertion order).
    assert json.dumps(got) == json.dumps(expected)
    # Every candidate, listed or not, routes by its ID to the same place.
    for candidate in every[4:]:
        r = ag.route(
            provider,
            graph,
            case["entry"],
            candidate["routeId"],
            facts=case["facts"],
            outcomes=case["outcomes"],
            authorities=case["authorities"],
            revision=expected["revision"],
            workspace="/ws",
        )
        assert (r.graph, r.node, r.status_code, r.availability) == (
            candidate["graph"],
            candidate["node"],
            candidate["statusCode"],
            candidate["availability"],
        )


@pytest.mark.parametrize("seed", range(200))
def test_differential_random_small_graphs(seed: int) -> None:
    compare_with_naive(random_case(seed))


def test_differential_cases_cover_every_status_and_diagnostic() -> None:
    """The random cases are worth something only if they reach every answer."""
    statuses: set[str] = set()
    found: set[str] = set()
    for seed in range(200):
        case = random_case(seed)
        ev = naive_evaluate(
            case["files"],
            case["graphs"],
            case["hints"],
            "main",
            case["entry"],
            case["facts"],
            case["outcomes"],
            case["authorities"],
        )
        statuses.add(ev["statusCode"])
        found.update(d["code"] for d in ev["diagnostics"])
    assert statuses == {"actionable", "waiting-user", "blocked", "complete", "error"}
    assert found >= {
        "required-fact-missing",
        "no-route",
        "entry-missing",
        "terminal-outcome-ambiguous",
        "route-alternatives-truncated",
    }


def layered_case(seed: int, layers: int = 40, width: int = 25) -> dict[str, Any]:
    rng = random.Random(seed)
    layer_ids = [[f"l{layer}-{i}" for i in range(width)] for layer in range(layers)]
    last = layers - 1
    nodes_by_id: dict[str, dict[str, Any]] = {}
    for layer, ids in enumerate(layer_ids):
        for nid in ids:
            extra: dict[str, Any] = {"join": rng.choice(["all", "any", "any"])}
            if rng.random() < 0.2:
                extra["priority"] = rng.randint(-3, 3)
            if layer == last:
                nodes_by_id[nid] = terminal_node(nid, "completed", **extra)
            elif rng.random() < 0.05:
                nodes_by_id[nid] = gate_node(nid, authority="rel", delegatable=True, **extra)
            else:
                if rng.random() < 0.1:
                    extra["satisfiedBy"] = [random_check(rng)]
                if rng.random() < 0.03:
                    extra["requiresFacts"] = [random_check(rng)]
                nodes_by_id[nid] = action_node(nid, **extra)
    node_list = list(nodes_by_id.values())
    rng.shuffle(node_list)
    edges: list[dict[str, Any]] = []
    for layer in range(layers - 1):
        for target in layer_ids[layer + 1]:
            for source in rng.sample(layer_ids[layer], rng.randint(1, 3)):
                edges.append(
                    edge(source, target, *rng.choice([(), (), (), ("partial",), ("completed", "partial")]))
                )
    for _ in range(30):
        layer = rng.randrange(layers - 1)
        target_layer = rng.randrange(layer + 1)
        edges.append(
            repeat(
                rng.choice(layer_ids[layer]),
                rng.choice(layer_ids[target_layer]),
                rng.choice(["failed", "unverified", "skipped"]),
            )
        )
    unique: dict[str, dict[str, Any]] = {}
    for e in edges:
        unique.setdefault(json.dumps(e, sort_keys=True), e)
    edge_list = list(unique.values())
    rng.shuffle(edge_list)
    entry = layer_ids[0][0]
    for source in layer_ids[0][1:]:  # every first-layer node hangs off the entry
        edge_list.append(edge(entry, source, "completed", "partial", "pending"))
    graph = graph_doc("main", node_list, edge_list, entrypoints={"default": entry})
    outcomes: dict[str, Any] = {}
    for nid, node in nodes_by_id.items():
        if node["kind"] == "action" and rng.random() < 0.93:
            outcomes[f"main/{nid}"] = rng.choice(
                ["completed"] * 12 + ["partial", "partial", "failed", "unverified", "skipped"]
            )
    return {
        "files": files_for([graph]),
        "graphs": {"main": graph},
        "hints": {},
        "entry": "default",
        "facts": random_facts(rng),
        "outcomes": outcomes,
        "authorities": ["rel"] if rng.random() < 0.5 else [],
    }


@pytest.mark.parametrize("seed", range(3))
def test_differential_thousand_node_layered_dag(seed: int) -> None:
    case = layered_case(seed)
    assert len(case["graphs"]["main"]["nodes"]) == 1000
    compare_with_naive(case)


def test_naive_evaluator_agrees_with_the_toolchain_vectors(vectors: Path) -> None:
    """The oracle itself is checked: the literal §5 evaluator reproduces every recorded evaluation."""
    cases = json.loads((vectors / "cases.json").read_text(encoding="utf-8"))
    providers: dict[str, ag.Provider] = {}
    checked = 0
    for case in cases:
        if "evaluation" not in case:
            continue
        manifest = vectors / case["manifest"]
        if case["manifest"] not in providers:
            providers[case["manifest"]] = ag.load_provider(str(manifest))
        p = providers[case["manifest"]]
        graphs = {gid: json.loads(msgspec.json.encode(g.definition)) for gid, g in p.graphs.items()}
        paths = {gid: g.path for gid, g in p.graphs.items()}
        state = case["state"]
        facts, authorities = state.get("facts", {}), sorted(set(state.get("authorities", [])))
        outcomes = {
            k: (v if isinstance(v, str) else v["outcome"]) for k, v in state.get("outcomes", {}).items()
        }
        revision = ag.digest_value(
            {
                "provider": p.graphs[case["graph"]].digest,
                "graphId": case["graph"],
                "entry": case["entry"],
                "facts": facts,
                "outcomes": outcomes,
                "authorities": authorities,
            }
        )
        hints = {code: entry.summary for code, entry in p.codes.items()}
        frame = Naive(graphs, facts, outcomes, authorities, revision, hints, paths).frame(
            case["graph"], case["entry"], (), ()
        )
        candidates, diagnostics = _answer_parts(frame)
        got = {
            "revision": revision,
            "statusCode": frame.status,
            "outcome": frame.outcome,
            "primaryRoute": candidates[0] if candidates else None,
            "alternativeRoutes": candidates[1:4],
            "diagnostics": diagnostics,
        }
        recorded = json.loads(json.dumps(case["evaluation"]).replace("{root}", str(manifest.parent)))
        expected = {
            "revision": recorded["revision"],
            "statusCode": recorded["statusCode"],
            "outcome": recorded.get("outcome"),
            "primaryRoute": recorded.get("primaryRoute"),
            "alternativeRoutes": recorded["alternativeRoutes"],
            "diagnostics": [{k: v for k, v in d.items() if k != "message"} for d in recorded["diagnostics"]],
        }
        assert got == expected, (case["manifest"], case["graph"], case["entry"])
        checked += 1
    assert checked > 0
