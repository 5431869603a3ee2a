"""The store contract's scenarios of one Run: creating, reading, writing, checkpoints, forks, files, closing.

Each scenario's docstring is the promise it checks; :mod:`agent_graph.testing.store_contract`
assembles them with the listing scenarios (:mod:`._contract_listing`).
"""

from __future__ import annotations

import functools
import json
import multiprocessing
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ._contract_support import StoreFace, code_of, record_in_process

#: How long the writer processes of the several-processes scenario may take, together.
PROCESS_TIMEOUT = 300.0

__all__ = ["RunScenarios"]

#: Values whose exact form a careless store changes: a 61-bit integer, numeric-looking keys, 0.0, a lone surrogate.
AWKWARD = {"big": 1152921504606846977, "10": 1, "2": 2, "zero": 0.0, "text": "a\udcffb"}


def _next(face: StoreFace, ref: str, provider: Any) -> tuple[str, str]:
    """The state key the step's route records under, and the step's revision."""
    step = face.next_step(ref, provider)
    assert step.route is not None and step.route.after_action is not None
    return step.route.after_action.record_node, step.revision


class RunScenarios:
    """Scenarios of one Run at a time (fixtures ``face``, ``provider``, ``tmp_path``, ``open_run_store``)."""

    # ------------------------------------------------------------ creating

    def test_start_answers_a_run_addressed_by_its_id(self, face: StoreFace, provider: Any) -> None:
        """``start(None, …)`` answers a Run whose ``id`` is its address: load, head and list find it by it."""
        run = face.start(None, provider, "main")
        assert face.load(run.id) == run and face.head(run.id).id == run.id
        assert [(summary.id, summary.ref) for summary in face.list()] == [(run.id, run.id)]

    def test_start_makes_a_given_ref_the_runs_id(self, face: StoreFace, provider: Any) -> None:
        """``start(ref, …)`` answers a Run whose ``id`` is ``ref``, held once: a taken ID is ``run-target-exists``."""
        run = face.start("chosen-1", provider, "main")
        assert run.id == "chosen-1" and face.load("chosen-1") == run
        assert (
            code_of(lambda: face.start("chosen-1", provider, "main", facts={"x": 1})) == "run-target-exists"
        )
        assert face.load("chosen-1") == run and [summary.id for summary in face.list()] == ["chosen-1"]

    def test_start_keeps_what_it_was_given(self, face: StoreFace, provider: Any) -> None:
        """``start`` keeps the graph, entry, absolute workspace, Facts and sorted authorities, and event 1."""
        run = face.start(
            None,
            provider,
            "main",
            "review",
            workspace="/w",
            facts={"team": "web"},
            authorities=["b", "a", "b"],
        )
        assert (run.graph, run.entry, run.workspace, run.facts) == ("main", "review", "/w", {"team": "web"})
        assert run.authorities == ("a", "b") and run.outcomes == {} and run.provider == "contract/provider"
        assert [(e.sequence, e.type) for e in run.events] == [(1, "run.started")]
        assert run.created_at == run.updated_at == run.events[0].at
        assert face.load(run.id) == run

    def test_start_checks_the_graph_and_entry_of_a_loaded_provider(
        self, face: StoreFace, provider: Any
    ) -> None:
        """``start`` refuses a graph the Provider lacks (``graph-missing``) or an entry (``entry-missing``)."""
        assert code_of(lambda: face.start(None, provider, "nope")) == "graph-missing"
        assert code_of(lambda: face.start(None, provider, "main", "nope")) == "entry-missing"
        assert face.list() == []

    def test_a_run_id_that_is_not_unicode_is_refused(self, face: StoreFace, provider: Any) -> None:
        """A Run ID holding a lone surrogate is refused (``argument-invalid``), never stored under another ID."""
        assert code_of(lambda: face.start("a\udcffb", provider, "main")) == "argument-invalid"
        assert code_of(lambda: face.start("a\udcfeb", provider, "main")) == "argument-invalid"
        assert face.list() == []
        assert code_of(lambda: face.load("a\udcffb")) == "argument-invalid"

    # ------------------------------------------------------------ reading

    def test_a_missing_run_is_run_missing_on_every_call(self, face: StoreFace, provider: Any) -> None:
        """Every call on a Run the store does not hold is ``run-missing``."""
        for call in (
            lambda: face.load("no-such-run"),
            lambda: face.head("no-such-run"),
            lambda: face.events("no-such-run"),
            lambda: face.next_step("no-such-run", provider),
            lambda: face.record("no-such-run", "main/draft", "completed"),
            lambda: face.update_facts("no-such-run", {"x": 1}),
            lambda: face.update_authorities("no-such-run", add=["a"]),
            lambda: face.checkpoint("no-such-run", "never"),
            lambda: face.fork("no-such-run", 1),
        ):
            assert code_of(call) == "run-missing"
        assert code_of(lambda: face.resume("no-such-checkpoint", None)) == "run-missing"

    def test_events_page_by_after_and_limit(self, face: StoreFace, provider: Any) -> None:
        """``events(ref, after=, limit=)`` answers the events numbered after ``after``, at most ``limit``, in order."""
        run = face.start(None, provider, "main")
        for n in range(6):
            face.record(run.id, "main/draft", "partial", detail=n)
        whole = face.load(run.id).events
        assert [e.sequence for e in whole] == list(range(1, 8)) and face.events(run.id) == whole
        for after in range(9):
            for limit in (1, 2, 3, 7, 50):
                assert face.events(run.id, after=after, limit=limit) == whole[after : after + limit]
        for bad in ({"after": -1}, {"after": "1"}, {"limit": 0}, {"limit": -2}, {"limit": True}):
            assert code_of(functools.partial(face.events, run.id, **bad)) == "argument-invalid"

    def test_the_provider_is_checked_on_every_call(self, face: StoreFace, provider: Any) -> None:
        """A Run of another Provider is ``run-provider-mismatch`` on every call that names one; nothing changes."""
        run = face.start(None, "someone/else", "main")
        before = face.load(run.id)
        for call in (
            lambda: face.load(run.id, provider),
            lambda: face.head(run.id, provider),
            lambda: face.events(run.id, provider),
            lambda: face.next_step(run.id, provider),
            lambda: face.record(run.id, "main/draft", "completed", provider=provider),
            lambda: face.update_facts(run.id, {"x": 1}, provider=provider),
            lambda: face.update_authorities(run.id, add=["a"], provider=provider),
            lambda: face.checkpoint(run.id, "other-checkpoint", provider=provider),
            lambda: face.fork(run.id, 1, provider=provider),
        ):
            assert code_of(call) == "run-provider-mismatch"
        assert face.load(run.id) == before and face.load(run.id, "someone/else") == before

    def test_next_step_answers_the_route_and_revision_of_the_head(
        self, face: StoreFace, provider: Any
    ) -> None:
        """``next_step`` answers the head, its evaluation, and the primary route or the one ``route_id`` names."""
        run = face.start(None, provider, "main")
        step = face.next_step(run.id, provider)
        assert step.run == face.head(run.id) and step.route is not None and step.route.node == "draft"
        assert step.revision == step.evaluation.revision and step.evaluation.status_code == "actionable"
        chosen = face.next_step(run.id, provider, route_id=step.route.route_id)
        assert chosen.route == step.route
        assert (
            code_of(lambda: face.next_step(run.id, provider, route_id="sha256:" + "0" * 64)) == "route-stale"
        )
        face.record(run.id, "main/draft", "completed")
        assert face.next_step(run.id, provider).route.node == "review"

    # ------------------------------------------------------------ writing

    def test_a_record_appends_one_event_and_answers_the_head(self, face: StoreFace, provider: Any) -> None:
        """``record`` keeps the outcome and ``detail`` under the state key, appends event n+1, answers the head."""
        run = face.start(None, provider, "main")
        head = face.record(run.id, "main/draft", "partial", detail={"missing": ["x"], "n": 1.5})
        whole = face.load(run.id)
        assert head.events == 2 and head == face.head(run.id)
        assert head.outcomes["main/draft"].outcome == "partial" and head.outcomes["main/draft"].detail == {
            "missing": ["x"],
            "n": 1.5,
        }
        event = whole.events[-1]
        assert (event.sequence, event.type, event.node, event.outcome) == (
            2,
            "node.outcome-recorded",
            "main/draft",
            "partial",
        )
        assert (
            event.detail == {"missing": ["x"], "n": 1.5} and event.at == head.updated_at == whole.updated_at
        )

    def test_a_record_refuses_what_is_not_an_outcome_or_a_state_key(
        self, face: StoreFace, provider: Any
    ) -> None:
        """``outcome-invalid``, ``run-node-invalid``, ``json-invalid`` for a bad record; nothing is written."""
        run = face.start(None, provider, "main")
        before = face.load(run.id)
        assert code_of(lambda: face.record(run.id, "main/draft", "done")) == "outcome-invalid"
        assert code_of(lambda: face.record(run.id, "", "completed")) == "run-node-invalid"
        assert (
            code_of(lambda: face.record(run.id, "main/draft", "completed", detail={1, 2})) == "json-invalid"
        )
        assert face.load(run.id) == before

    def test_a_record_with_the_provider_refuses_a_state_key_that_names_no_node(
        self, face: StoreFace, provider: Any
    ) -> None:
        """With the loaded Provider, a state key that names no node is ``state-key-unknown``; with its ID it lands."""
        run = face.start(None, provider, "main")
        before = face.load(run.id)
        with pytest.raises(Exception) as caught:
            face.record(run.id, "main/drfat", "completed", provider=provider)
        assert getattr(caught.value, "code", None) == "state-key-unknown" and "main/draft" in str(
            caught.value
        )
        assert face.load(run.id) == before
        assert face.record(run.id, "main/drfat", "completed", provider="contract/provider").events == 2

    def test_a_record_lands_the_facts_it_carries_in_the_same_write(
        self, face: StoreFace, provider: Any
    ) -> None:
        """``record(…, facts=, deep=)`` merges the Facts as ``facts.updated`` just before the record, in one write."""
        run = face.start(None, provider, "main", facts={"report": {"title": "W5", "parts": {"a": 1}}})
        head = face.record(
            run.id, "main/draft", "completed", facts={"report": {"parts": {"b": 2}}}, deep=True
        )
        assert head.facts == {"report": {"title": "W5", "parts": {"a": 1, "b": 2}}} and head.events == 3
        head = face.record(run.id, "main/review", "partial", facts={"report": {"parts": {"c": 3}}})
        assert head.facts == {"report": {"parts": {"c": 3}}}
        kinds = [
            (e.type, e.detail.get("keys") if isinstance(e.detail, dict) else None)
            for e in face.events(run.id)
        ]
        assert kinds[1:] == [
            ("facts.updated", ["report"]),
            ("node.outcome-recorded", None),
            ("facts.updated", ["report"]),
            ("node.outcome-recorded", None),
        ]
        assert face.events(run.id)[1].at == face.events(run.id)[2].at

    def test_a_stale_revision_is_refused_and_nothing_is_written(self, face: StoreFace, provider: Any) -> None:
        """``record(…, revision=)`` lands only at that revision (``run-revision-stale``, also with Facts)."""
        run = face.start(None, provider, "main")
        node, revision = _next(face, run.id, provider)
        face.record(run.id, node, "completed", provider=provider, revision=revision)
        before = face.load(run.id)
        stale = lambda: face.record(run.id, node, "failed", provider=provider, revision=revision)  # noqa: E731
        assert code_of(stale) == "run-revision-stale" and face.load(run.id) == before
        with_facts = lambda: face.record(  # noqa: E731
            run.id, node, "failed", provider=provider, revision=revision, facts={"x": 1}
        )
        assert code_of(with_facts) == "run-revision-stale" and face.load(run.id) == before
        with_id = lambda: face.record(run.id, node, "failed", provider="contract/provider", revision=revision)  # noqa: E731
        assert code_of(with_id) == "argument-invalid"  # a revision needs the loaded Provider
        assert code_of(lambda: face.record(run.id, node, "failed", provider=provider, revision="")) == (
            "revision-invalid"
        )

    def test_only_one_of_many_concurrent_guarded_records_lands(self, face: StoreFace, provider: Any) -> None:
        """Eight records at one revision at once: exactly one lands, seven are ``run-revision-stale``."""
        from .._core.errors import AgentGraphError

        run = face.start(None, provider, "main")
        node, revision = _next(face, run.id, provider)
        answers = face.together(
            face.method("record", run.id, node, "completed", detail=n, provider=provider, revision=revision)
            for n in range(8)
        )
        landed = [answer for answer in answers if not isinstance(answer, BaseException)]
        refused = [answer for answer in answers if isinstance(answer, AgentGraphError)]
        assert len(landed) == 1 and len(refused) == 7, answers
        assert {error.code for error in refused} == {"run-revision-stale"}
        assert face.head(run.id).events == 2

    def test_many_concurrent_writers_lose_nothing(self, face: StoreFace, provider: Any) -> None:
        """24 records at once (threads, or tasks): every one lands, events numbered 1..25."""
        run = face.start(None, provider, "main")
        answers = face.together(face.method("record", run.id, f"w/n{n}", "completed") for n in range(24))
        assert not [answer for answer in answers if isinstance(answer, BaseException)], answers
        whole = face.load(run.id)
        assert [event.sequence for event in whole.events] == list(range(1, 26))
        assert {f"w/n{n}" for n in range(24)} <= set(whole.outcomes)

    def test_several_processes_lose_nothing(
        self, face: StoreFace, provider: Any, open_run_store: Callable[..., Any]
    ) -> None:
        """Three processes recording into one Run at once: all 15 records land (when the opener can be pickled)."""
        try:
            pickle.dumps(open_run_store)
        except Exception as error:
            pytest.skip(
                f"open_run_store cannot be sent to another process ({error}); threads and tasks cover it"
            )
        run = face.start(None, provider, "main")
        context = multiprocessing.get_context("spawn")
        with context.Pool(3) as pool:
            pending = pool.starmap_async(
                record_in_process, [(open_run_store, run.id, f"p{p}", 5) for p in range(3)]
            )
            try:  # a worker that dies (an import that fails in the child) loses its task: fail, never hang
                counts = pending.get(timeout=PROCESS_TIMEOUT)
            except multiprocessing.TimeoutError:
                pytest.fail(
                    f"the writer processes did not all answer within {PROCESS_TIMEOUT:.0f} s "
                    "(a process died, or a record waits forever)"
                )
        assert counts == [5, 5, 5]
        assert [event.sequence for event in face.load(run.id).events] == list(range(1, 17))

    def test_facts_merge_deep_merge_and_replace(self, face: StoreFace, provider: Any) -> None:
        """``update_facts`` merges top-level keys, ``deep=True`` nested ones, ``replace=True`` replaces them all."""
        run = face.start(None, provider, "main", facts={"report": {"title": "W5", "sections": {"a": 1}}})
        head = face.update_facts(run.id, {"report": {"sections": {"b": 2}}}, deep=True)
        assert head.facts == {"report": {"title": "W5", "sections": {"a": 1, "b": 2}}}
        assert face.update_facts(run.id, {"team": "web"}).facts == {**head.facts, "team": "web"}
        assert face.update_facts(run.id, {"report": {"x": 1}}).facts["report"] == {"x": 1}
        assert face.update_facts(run.id, {"only": 1}, replace=True).facts == {"only": 1}
        kinds = [(event.type, event.detail) for event in face.events(run.id, after=1)]
        assert [kind for kind, _ in kinds] == ["facts.updated"] * 3 + ["facts.replaced"]
        assert [detail["keys"] for _, detail in kinds] == [["report"], ["team"], ["report"], ["only"]]
        before = face.load(run.id)
        assert (
            code_of(lambda: face.update_facts(run.id, {"x": 1}, replace=True, deep=True))
            == "argument-invalid"
        )
        assert code_of(lambda: face.update_facts(run.id, ["x"])) == "json-object-required"
        for bad in ({"x": {1, 2}}, {"x": float("nan")}, {1: "x"}):
            assert code_of(functools.partial(face.update_facts, run.id, bad)) == "json-invalid"
        assert face.load(run.id) == before

    def test_authorities_are_replaced_then_added_and_removed(self, face: StoreFace, provider: Any) -> None:
        """``update_authorities(replace=, add=, remove=)`` keeps a sorted list and appends ``authorities.updated``."""
        run = face.start(None, provider, "main", authorities=["x"])
        head = face.update_authorities(run.id, replace=["b"], add=["a", "c"], remove=["c"])
        assert head.authorities == ("a", "b")
        assert face.update_authorities(run.id, add=["z"], remove=["a"]).authorities == ("b", "z")
        assert face.update_authorities(run.id, replace=[]).authorities == ()
        details = [event.detail for event in face.events(run.id, after=1)]
        assert details == [{"authorities": ["a", "b"]}, {"authorities": ["b", "z"]}, {"authorities": []}]

    # ------------------------------------------------------------ checkpoints

    def test_a_checkpoint_keeps_the_run_without_authorities(self, face: StoreFace, provider: Any) -> None:
        """``checkpoint`` appends ``run.checkpointed`` and keeps the Run as of it, without authorities, once per name."""
        run = face.start(None, provider, "main", authorities=["a"])
        face.record(run.id, "main/draft", "completed")
        snapshot = face.checkpoint(run.id, "kept.json")
        assert snapshot.authorities == () and snapshot.events[-1].type == "run.checkpointed"
        assert snapshot.events == face.load(run.id).events and face.head(run.id).events == 3
        assert face.head(run.id).authorities == ("a",)
        assert code_of(lambda: face.checkpoint(run.id, "kept.json")) == "run-target-exists"
        assert face.head(run.id).events == 3

    def test_resume_starts_a_run_of_its_own_from_a_checkpoint(self, face: StoreFace, provider: Any) -> None:
        """``resume`` makes a new Run (a fresh ID, or the one given; never the source's) ending in ``run.resumed``."""
        run = face.start(None, provider, "main", authorities=["a"])
        face.record(run.id, "main/draft", "completed")
        snapshot = face.checkpoint(run.id, "kept.json")
        fresh = face.resume("kept.json", None)
        named = face.resume("kept.json", "resumed-1")
        assert len({run.id, fresh.id, named.id}) == 3 and named.id == "resumed-1"
        for resumed in (fresh, named):
            assert resumed.events[:-1] == snapshot.events and resumed.events[-1].type == "run.resumed"
            assert resumed.authorities == () and resumed.outcomes == snapshot.outcomes
            assert face.load(resumed.id) == resumed
        assert code_of(lambda: face.resume("kept.json", "resumed-1")) == "run-target-exists"
        assert sorted(summary.id for summary in face.list()) == sorted([run.id, fresh.id, named.id])

    # ------------------------------------------------------------ forks

    def test_a_fork_starts_from_the_state_right_after_event_at(self, face: StoreFace, provider: Any) -> None:
        """``fork(ref, at)`` keeps events 1..at, the outcomes as of event ``at``, and appends ``run.forked``."""
        run = face.start(None, provider, "main", authorities=["a"])
        face.record(run.id, "main/draft", "partial")
        face.record(run.id, "main/draft", "completed")
        face.record(run.id, "main/review", "failed")
        source = face.load(run.id)
        for at in (1, 2, 3, 4):
            fork = face.fork(run.id, at)
            assert fork.id != run.id and fork.events[:at] == source.events[:at]
            assert fork.events[at].type == "run.forked" and len(fork.events) == at + 1
            assert fork.events[at].detail == {"run": run.id, "event": at}
            expected = {2: {"main/draft": "partial"}, 3: {"main/draft": "completed"}}.get(at, {})
            if at == 4:
                expected = {"main/draft": "completed", "main/review": "failed"}
            assert {key: record.outcome for key, record in fork.outcomes.items()} == expected
            assert fork.authorities == () and face.load(fork.id) == fork
        named = face.fork(run.id, 2, "fork-1")
        assert named.id == "fork-1" and code_of(lambda: face.fork(run.id, 2, "fork-1")) == "run-target-exists"
        for at in (0, 5, -1):
            assert code_of(functools.partial(face.fork, run.id, at)) == "argument-invalid"
        assert face.load(run.id) == source

    def test_a_fork_takes_the_facts_given_where_the_events_do_not_record_them(
        self, face: StoreFace, provider: Any, tmp_path: Path
    ) -> None:
        """``fork(…, facts=)`` gives the fork those Facts; without them a Fact the events do not record is refused."""
        run = face.start(None, provider, "main")
        exported = face.export(run.id, str(tmp_path / "source.json"))
        raw = json.loads((tmp_path / "source.json").read_text("utf-8"))
        raw["id"] = "unrecorded-facts"
        raw["facts"] = {"x": 2}
        at = raw["events"][0]["at"]
        raw["events"] += [  # as a Run written without the values of its Facts reads
            {"sequence": 2, "at": at, "type": "facts.updated", "detail": {"keys": ["x"]}},
            {"sequence": 3, "at": at, "type": "facts.updated", "detail": {"keys": ["x"]}},
        ]
        (tmp_path / "unrecorded.json").write_text(json.dumps(raw), "utf-8")
        face.import_run(str(tmp_path / "unrecorded.json"))
        assert exported.id == run.id
        assert code_of(lambda: face.fork("unrecorded-facts", 2)) == "run-fork-unrecorded"
        fork = face.fork("unrecorded-facts", 2, facts={"x": 1, "y": "z"})
        assert fork.facts == {"x": 1, "y": "z"} and fork.events[-1].detail["keys"] == ["x", "y"]
        assert face.load(fork.id).facts == {"x": 1, "y": "z"}

    # ------------------------------------------------------------ files

    def test_export_and_import_are_byte_identical(
        self, face: StoreFace, provider: Any, tmp_path: Path
    ) -> None:
        """``export`` writes the Run file a file store writes, byte for byte; ``import_run`` keeps its ID."""
        run = face.start(None, provider, "main", facts=AWKWARD)
        for n in range(5):
            face.record(run.id, f"main/n{n}", "partial", detail=AWKWARD)
        first = tmp_path / "first.json"
        assert face.export(run.id, str(first)) == face.load(run.id)
        assert code_of(lambda: face.export(run.id, str(first))) == "run-target-exists"
        assert code_of(lambda: face.import_run(str(first))) == "run-target-exists"
        from .._runtime.runs import FileRunStore

        again = FileRunStore(str(tmp_path / "again"))
        again.import_run(str(first))
        second = tmp_path / "second.json"
        again.export(run.id, str(second))
        assert second.read_bytes() == first.read_bytes()

    def test_import_keeps_the_runs_id_and_refuses_what_it_cannot_keep(
        self, face: StoreFace, provider: Any, tmp_path: Path
    ) -> None:
        """``import_run`` stores a Run file under its own ID; a file that is not a Run is ``run-invalid``."""
        run = face.start("to-import", provider, "main")
        face.export(run.id, str(tmp_path / "run.json"))
        raw = json.loads((tmp_path / "run.json").read_text("utf-8"))
        raw["id"] = "imported-1"
        (tmp_path / "moved.json").write_text(json.dumps(raw, indent=2) + "\n", "utf-8")
        imported = face.import_run(str(tmp_path / "moved.json"), provider=provider)
        assert imported.id == "imported-1" and face.load("imported-1") == imported
        assert sorted(summary.id for summary in face.list()) == ["imported-1", "to-import"]
        raw["id"] = "imported-2"
        raw["events"][0]["sequence"] = 7
        (tmp_path / "bad.json").write_text(json.dumps(raw), "utf-8")
        assert code_of(lambda: face.import_run(str(tmp_path / "bad.json"))) == "run-invalid"
        raw["events"][0]["sequence"] = 1
        raw["provider"] = "someone/else"
        (tmp_path / "other.json").write_text(json.dumps(raw), "utf-8")
        assert code_of(lambda: face.import_run(str(tmp_path / "other.json"), provider=provider)) == (
            "run-provider-mismatch"
        )
        assert sorted(summary.id for summary in face.list()) == ["imported-1", "to-import"]

    # ------------------------------------------------------------ closing

    def test_a_closed_store_refuses_every_call(self, face: StoreFace, provider: Any) -> None:
        """Once closed, a store answers ``run-store-closed`` (closing it again does nothing)."""
        run = face.start(None, provider, "main")
        face.shut()
        for call in (
            lambda: face.load(run.id),
            lambda: face.record(run.id, "main/draft", "completed"),
            lambda: face.list(),
            lambda: face.start(None, provider, "main"),
        ):
            assert code_of(call) == "run-store-closed"
        face.shut()
