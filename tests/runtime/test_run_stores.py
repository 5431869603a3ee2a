"""The Run store contract, run against every store: files, SQLite, PostgreSQL (a real server) and memory.

Each test gets a fresh store of each kind. What they check is the contract of
docs/host-integration.md: the same operations, event numbering 1..n, refusals
and codes; exactly the agent-graph.run.v1 content in and out.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
import agent_graph.types as agt
from agent_graph._runtime.runs import FileRunStore, read_run_file
from tests.fakes import FakeClock, Ids
from tests.in_process import code_of
from tests.paths import WEEKLY

KINDS = ("file", "sqlite", "postgres", "memory")


@dataclass
class Kind:
    """How to open a store of one kind, again and again, at one place."""

    name: str
    url: str

    def open(self, **options: Any) -> ag.BaseRunStore:
        return ag.open_store(self.url, **options)

    def ref(self, run: ag.Run) -> str:
        """The ref of a Run started with ref None: its ID, in every store."""
        return run.id


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(str(WEEKLY))


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest, tmp_path: Path) -> Kind:
    if request.param == "file":
        return Kind("file", str(tmp_path / "runs"))
    if request.param == "sqlite":
        return Kind("sqlite", f"sqlite:///{tmp_path / 'runs.db'}")  # tmp_path is absolute: sqlite:////tmp/…
    if request.param == "memory":
        return Kind("memory", "memory://")  # every open is a new, empty store
    return Kind("postgres", request.getfixturevalue("postgres_url"))


@pytest.fixture()
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture()
def store(kind: Kind, clock: FakeClock) -> Iterator[ag.BaseRunStore]:
    with kind.open(clock=clock, new_id=Ids()) as opened:
        yield opened


def started(store: ag.BaseRunStore, kind: Kind, provider: Any, **options: Any) -> str:
    run = store.start(None, provider, "report", workspace="/work/space", **options)
    return kind.ref(run)


def file_bytes(run: ag.Run) -> bytes:
    return msgspec.json.format(msgspec.json.encode(run), indent=2) + b"\n"


# ---------------------------------------------------------------- start, load, record


def test_start_stores_event_1_and_the_exact_fields(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider
) -> None:
    ref = started(store, kind, weekly, facts={"team": "web"}, authorities=["b", "a", "b"])
    run = store.load(ref, weekly)
    assert (
        run.id == "run-1" and run.provider == weekly.id and run.graph == "report" and run.entry == "default"
    )
    assert run.workspace == "/work/space" and run.facts == {"team": "web"} and run.authorities == ("a", "b")
    assert run.created_at == run.updated_at == "2026-01-31T09:30:00.000Z"
    assert [(e.sequence, e.type) for e in run.events] == [(1, "run.started")]
    assert list(json.loads(file_bytes(run))) == [
        "schema", "id", "provider", "graph", "entry", "workspace", "createdAt", "updatedAt", "facts", "outcomes",
        "authorities", "events",
    ]  # fmt: skip


def test_start_refuses_a_taken_ref_unknown_graphs_and_entries(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider
) -> None:
    ref = "taken.json" if kind.name == "file" else "taken"
    store.start(ref, weekly, "report")
    before = store.load(ref)
    assert code_of(lambda: store.start(ref, weekly, "report")) == "run-target-exists"
    assert store.load(ref) == before
    assert code_of(lambda: store.start(None, weekly, "nope")) == "graph-missing"
    assert code_of(lambda: store.start(None, weekly, "report", "nope")) == "entry-missing"
    assert code_of(lambda: store.start(None, None, "report")) == "argument-invalid"
    assert [s.id for s in store.list()] == [before.id]


def test_a_missing_run_is_refused(store: ag.BaseRunStore, kind: Kind) -> None:
    ref = "nothing.json" if kind.name == "file" else "nothing"
    assert code_of(lambda: store.load(ref)) == "run-missing"
    assert code_of(lambda: store.record(ref, "report/draft", "completed")) == "run-missing"
    assert code_of(lambda: store.update_facts(ref, {"a": 1})) == "run-missing"
    assert code_of(lambda: store.checkpoint(ref, "cp.json")) == "run-missing"
    assert code_of(lambda: store.load("")) == "argument-invalid"


def test_record_keeps_the_latest_outcome_and_numbers_every_event(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider
) -> None:
    ref = started(store, kind, weekly)
    store.record(ref, "report/draft", "partial", detail={"missing": ["jira"]})
    store.record(ref, "report/draft", "completed", detail=None)
    head = store.record(ref, "report/approve", "waiting-user")
    run = store.load(ref)
    assert head == store.head(ref) and head.events == len(run.events) and head.outcomes == run.outcomes
    assert {k: (r.outcome, r.detail) for k, r in run.outcomes.items()} == {
        "report/draft": ("completed", None),
        "report/approve": ("waiting-user", msgspec.UNSET),
    }
    assert [e.sequence for e in run.events] == [1, 2, 3, 4]
    assert run.events[1].detail == {"missing": ["jira"]} and run.events[1].node == "report/draft"
    assert run.updated_at == run.events[-1].at == run.outcomes["report/approve"].recorded_at
    assert store.events(ref) == run.events
    assert store.events(ref, after=1, limit=2) == run.events[1:3] and store.events(ref, after=4) == ()


def test_refused_records_change_nothing(store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider) -> None:
    ref = started(store, kind, weekly)
    before = store.load(ref)
    assert code_of(lambda: store.record(ref, "report/draft", "done")) == "outcome-invalid"
    assert code_of(lambda: store.record(ref, "", "completed")) == "run-node-invalid"
    assert code_of(lambda: store.record(ref, "report/draft", "completed", detail=object())) == "json-invalid"
    assert code_of(lambda: store.record(ref, "report/draft", "completed", provider="other/provider")) == (
        "run-provider-mismatch"
    )
    assert store.load(ref) == before


# ---------------------------------------------------------------- the revision guard and the step


def test_a_record_at_the_steps_revision_lands_and_a_stale_one_writes_nothing(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider
) -> None:
    ref = started(store, kind, weekly)
    step = store.next_step(ref, weekly)
    assert step.route is not None and step.route.node == "draft" and step.revision == step.evaluation.revision
    node = step.route.after_action.record_node
    store.record(ref, node, "partial", provider=weekly, revision=step.revision)
    before = store.load(ref)
    assert code_of(lambda: store.record(ref, node, "completed", provider=weekly, revision=step.revision)) == (
        "run-revision-stale"
    )
    assert store.load(ref) == before
    again = store.next_step(ref, weekly)
    assert again.revision != step.revision
    assert store.record(ref, node, "completed", provider=weekly, revision=again.revision).outcomes[
        node
    ].outcome == ("completed")


def test_withdrawing_an_authority_makes_a_delegated_gate_record_stale(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider
) -> None:
    ref = started(store, kind, weekly, authorities=["report.publish"])
    store.record(ref, "report/draft", "completed")
    store.update_facts(ref, {"report": {"digest": "sha256:" + "0" * 64}})
    step = store.next_step(ref, weekly)
    assert step.route is not None and step.route.gate is not None
    assert step.route.gate.resolution == "session-authority"
    store.update_authorities(ref, remove=["report.publish"])  # another process, meanwhile
    assert code_of(
        lambda: store.record(ref, step.route.after_action.record_node, "completed", provider=weekly,  # type: ignore[union-attr]
                             revision=step.revision)
    ) == "run-revision-stale"  # fmt: skip
    gate = store.next_step(ref, weekly).route
    assert gate is not None and gate.gate is not None and gate.gate.resolution == "user"


def test_a_record_with_facts_lands_both_in_one_guarded_write(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider
) -> None:
    ref = started(store, kind, weekly, facts={"report": {"title": "W5"}})
    step = store.next_step(ref, weekly)
    head = store.record(ref, "report/draft", "completed", facts={"report": {"digest": "d"}}, deep=True,
                        provider=weekly, revision=step.revision)  # fmt: skip
    run = store.load(ref)
    assert head.facts == run.facts and head.events == 3 and head.updated_at == run.updated_at
    assert run.facts == {"report": {"title": "W5", "digest": "d"}}
    assert [(e.sequence, e.type) for e in run.events] == [(1, "run.started"), (2, "facts.updated"),
                                                          (3, "node.outcome-recorded")]  # fmt: skip
    assert run.events[1].at == run.events[2].at == run.updated_at
    before = store.load(ref)
    refused = code_of(lambda: store.record(ref, "report/draft", "completed", facts={"x": 1}, provider=weekly,
                                           revision=step.revision))  # fmt: skip
    assert refused == "run-revision-stale" and store.load(ref) == before
    assert store.next_step(ref, weekly).route.node == "approve"  # type: ignore[union-attr]


def test_a_revision_needs_the_loaded_provider(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider
) -> None:
    ref = started(store, kind, weekly)
    revision = store.next_step(ref, weekly).revision
    assert code_of(
        lambda: store.record(ref, "report/draft", "partial", provider=weekly.id, revision=revision)
    ) == ("argument-invalid")
    assert code_of(lambda: store.next_step(ref, weekly.id)) == "argument-invalid"
    assert len(store.events(ref)) == 1


def test_next_step_routes_alternatives_marks_receipts_and_has_no_route_at_the_end(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider
) -> None:
    ref = started(store, kind, weekly)
    step = store.next_step(ref, weekly)
    assert step.route is not None and step.route.revision == step.revision
    assert step.route.route_id == step.evaluation.primary_route.route_id  # type: ignore[union-attr]
    assert code_of(lambda: store.next_step(ref, weekly, route_id="route:nope")) in (
        "route-stale",
        "route-id-invalid",
    )
    required = step.route.resources.required
    assert required and all(location.read_state == "read-required" for location in required)
    receipts = ag.Receipts()
    for location in required:
        receipts.add({"id": location.id, "digest": location.digest})
    read = store.next_step(ref, weekly, receipts=receipts).route
    assert read is not None and all(location.read_state == "current" for location in read.resources.required)
    # Drive the Run to its terminal: the step then has no route.
    store.record(ref, "report/draft", "completed")
    store.update_facts(ref, {"report": {"digest": "d", "approved": True}, "publication": {"url": "u"}})
    store.record(ref, "report/approve", "completed")
    store.record(ref, "report/publish", "completed")
    end = store.next_step(ref, weekly)
    assert end.evaluation.status_code == "complete" and end.route is None


# ---------------------------------------------------------------- facts and authorities


def test_facts_merge_deep_merge_and_replace(store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider) -> None:
    ref = started(
        store, kind, weekly, facts={"report": {"digest": "d1", "sections": {"a": 1}}, "team": "web"}
    )
    shallow = store.update_facts(ref, {"report": {"approved": True}})
    assert shallow.facts == {"report": {"approved": True}, "team": "web"}
    store.update_facts(ref, {"report": {"digest": "d1", "sections": {"a": 1}}}, replace=False)
    deep = store.update_facts(ref, {"report": {"sections": {"b": 2}, "approved": True}, "z": [1]}, deep=True)
    assert deep.facts == {"report": {"digest": "d1", "sections": {"a": 1, "b": 2}, "approved": True}, "team": "web",
                          "z": [1]}  # fmt: skip
    replaced = store.update_facts(ref, {"only": 1}, replace=True)
    assert replaced.facts == {"only": 1}
    assert replaced.events == 5
    # Each event records what it changed: a value set again as it was is named, not recorded again.
    assert [(e.type, e.detail) for e in store.events(ref, after=1)] == [
        ("facts.updated", {"keys": ["report"], "set": {"report": {"approved": True}}}),
        ("facts.updated", {"keys": ["report"], "set": {"report": {"digest": "d1", "sections": {"a": 1}}}}),
        (
            "facts.updated",
            {
                "keys": ["report", "z"],
                "merge": {"report": {"sections": {"b": 2}, "approved": True}, "z": [1]},
            },
        ),
        ("facts.replaced", {"keys": ["only"], "set": {"only": 1}}),
    ]
    store.update_facts(ref, {"only": 1.0})
    store.update_facts(ref, {"only": 1, "n": {"m": None}}, deep=True)
    assert [e.detail for e in store.events(ref, after=5)] == [
        {"keys": ["only"], "set": {}},
        {"keys": ["n", "only"], "merge": {"n": {"m": None}}},
    ]
    store.update_facts(ref, {"only": 1, "n": {"m": None}}, deep=True)
    assert store.events(ref, after=7)[0].detail == {"keys": ["n", "only"], "merge": {}}
    assert code_of(lambda: store.update_facts(ref, {"a": 1}, replace=True, deep=True)) == "argument-invalid"
    assert code_of(lambda: store.update_facts(ref, [1])) == "json-object-required"  # type: ignore[arg-type]
    assert len(store.events(ref)) == 8


def test_a_deep_merge_of_deeply_nested_facts_does_not_recurse() -> None:
    from agent_graph._runtime.run_changes import deep_merge

    depth = 20_000
    base: dict[str, Any] = {}
    update: dict[str, Any] = {}
    left, right = base, update
    for _ in range(depth):
        left["k"] = {"kept": True}
        right["k"] = {"added": True}
        left, right = left["k"], right["k"]
    merged = deep_merge(base, update)
    node = merged
    for _ in range(depth):
        node = node["k"]
        assert node["kept"] is True and node["added"] is True
    assert node == {"kept": True, "added": True}
    assert base["k"] is not merged["k"]  # the inputs are left as they were


def test_authorities_are_replaced_added_and_removed(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider
) -> None:
    ref = started(store, kind, weekly, authorities=["x"])
    run = store.update_authorities(ref, replace=["b"], add=["a", "c"], remove=["c"])
    assert run.authorities == ("a", "b") and store.events(ref, after=run.events - 1)[0].detail == {
        "authorities": ["a", "b"]
    }
    assert store.update_authorities(ref, replace=[]).authorities == ()


def test_update_authorities_replace_is_the_one_way_to_set_them(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider
) -> None:
    ref = started(store, kind, weekly, authorities=["x"])
    assert not hasattr(store, "set_authorities")  # deprecated for a release, then removed
    head = store.update_authorities(ref, replace=["b", "a", "b"])
    assert head.authorities == ("a", "b") and store.load(ref).authorities == ("a", "b")


# ---------------------------------------------------------------- checkpoints


def test_checkpoint_and_resume_clear_authorities(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider
) -> None:
    ref = started(store, kind, weekly, authorities=["report.publish"])
    store.record(ref, "report/draft", "partial")
    target = "cp.json" if kind.name == "file" else "before-handoff"
    snapshot = store.checkpoint(ref, target, provider=weekly)
    run = store.load(ref)
    assert snapshot.authorities == () and run.authorities == ("report.publish",)
    assert run.events[-1].type == "run.checkpointed" and snapshot.events == run.events
    name = run.events[-1].detail["checkpoint"]
    assert name == target
    assert code_of(lambda: store.checkpoint(ref, target)) == "run-target-exists"
    assert store.load(ref) == run
    new_ref = "resumed.json" if kind.name == "file" else "resumed"
    resumed = store.resume(target, new_ref, provider=weekly)
    assert store.load(new_ref) == resumed
    assert resumed.authorities == () and resumed.outcomes == run.outcomes
    assert [e.sequence for e in resumed.events] == list(range(1, len(run.events) + 2))
    assert resumed.events[-1].type == "run.resumed" and resumed.events[-1].detail == {"checkpoint": name}
    assert code_of(lambda: store.resume(target, new_ref)) == "run-target-exists"


# ---------------------------------------------------------------- list, export, import


def test_list_filters_by_provider_graph_and_last_update(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider
) -> None:
    first = started(store, kind, weekly)
    second = started(store, kind, "other/provider")
    store.record(first, "report/draft", "partial")
    runs = store.list()
    assert [(r.id, r.events) for r in runs] == [("run-1", 2), ("run-2", 1)]  # by creation: a write moves none
    assert all(isinstance(r, agt.RunSummary) for r in runs)
    assert [r.id for r in store.list(provider=weekly)] == ["run-1"]
    assert [r.id for r in store.list(provider="other/provider", graph="report")] == ["run-2"]
    assert store.list(graph="nope") == []
    middle = store.load(second).updated_at
    assert [r.id for r in store.list(updated_after=middle)] == ["run-1"]
    assert [r.id for r in store.list(updated_before=middle)] == []
    last = datetime.fromisoformat(store.load(first).updated_at.replace("Z", "+00:00"))
    moment = last - timedelta(milliseconds=500)  # a datetime between the two updates
    assert [r.id for r in store.list(updated_before=moment)] == ["run-2"]
    assert {r.ref for r in runs} == {store.load(first).id, store.load(second).id} == {first, second}


def test_export_writes_exactly_the_run_file(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider, tmp_path: Path
) -> None:
    ref = started(store, kind, weekly)
    store.record(ref, "report/draft", "partial", detail={"n": 1.5, "text": "é"})
    run = store.load(ref)
    out = tmp_path / "out" / "run.json"
    store.export(ref, str(out))
    assert out.read_bytes() == file_bytes(run)
    assert read_run_file(str(out)) == run
    assert code_of(lambda: store.export(ref, str(out))) == "run-target-exists"


def test_import_keeps_the_id_and_refuses_a_held_one_or_a_bad_file(
    store: ag.BaseRunStore, kind: Kind, weekly: ag.Provider, tmp_path: Path
) -> None:
    source = FileRunStore(str(tmp_path / "elsewhere"), new_id=lambda: "imported-1")
    run = source.start("a.json", weekly, "report", facts={"x": 1})
    source.record("a.json", "report/draft", "partial")
    run = source.load("a.json")
    path = str(tmp_path / "elsewhere" / "a.json")
    assert store.import_run(path) == run
    ref = "imported-1.json" if kind.name == "file" else "imported-1"
    assert store.load(ref) == run and store.events(ref) == run.events
    assert code_of(lambda: store.import_run(path)) == "run-target-exists"
    gap = json.loads(Path(path).read_text("utf-8"))
    gap["id"] = "gap"
    gap["events"][1]["sequence"] = 3
    (tmp_path / "gap.json").write_text(json.dumps(gap), "utf-8")
    assert code_of(lambda: store.import_run(str(tmp_path / "gap.json"))) == "run-invalid"
    (tmp_path / "bad.json").write_text('{"schema": "agent-graph.run.v1"}', "utf-8")
    assert code_of(lambda: store.import_run(str(tmp_path / "bad.json"))) == "run-invalid"
    assert code_of(lambda: store.import_run(str(tmp_path / "none.json"))) == "run-missing"
    assert [r.id for r in store.list()] == ["imported-1"]


def test_a_run_moves_between_stores_unchanged(kind: Kind, weekly: ag.Provider, tmp_path: Path) -> None:
    with kind.open() as store:
        ref = started(store, kind, weekly, authorities=["a"])
        store.update_facts(ref, {"deep": {"list": [1, {"x": None}], "unicode": "😀"}})
        store.record(ref, "report/draft", "partial", detail=[1, "two", {"three": 3}])
        run = store.load(ref)
        store.export(ref, str(tmp_path / "moved.json"))
    with ag.open_store(f"sqlite:///{os.path.relpath(tmp_path / 'other.db')}") as other:
        other.import_run(str(tmp_path / "moved.json"))
        assert other.load(run.id) == run
        other.export(run.id, str(tmp_path / "back.json"))
    assert (tmp_path / "back.json").read_bytes() == (tmp_path / "moved.json").read_bytes()


def test_a_store_can_be_reopened_and_keeps_its_runs(kind: Kind, weekly: ag.Provider) -> None:
    with kind.open() as store:
        ref = started(store, kind, weekly)
        store.record(ref, "report/draft", "partial")
        run = store.load(ref)
    with kind.open() as store:
        if kind.name == "memory":  # keeps nothing beyond the store object: a new store is empty
            assert store.list() == [] and code_of(lambda: store.load(ref)) == "run-missing"
        else:
            assert store.load(ref) == run
