"""The file store: one way to address a Run, references kept inside the folder, a long Run still takes a record."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import agent_graph as ag
from agent_graph._core.model import RunEvent
from agent_graph._runtime.run_codec import encode_run
from tests.in_process import code_of
from tests.paths import WEEKLY


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(str(WEEKLY))


def test_the_id_start_answers_addresses_the_run_as_its_path_does(tmp_path: Path, weekly: ag.Provider) -> None:
    store = ag.open_store(str(tmp_path))
    run = store.start(None, weekly, "report")
    assert (tmp_path / f"{run.id}.json").is_file()
    head = store.record(run.id, "report/draft", "partial")
    assert head.events == 2 and store.load(f"{run.id}.json") == store.load(run.id)
    assert store.next_step(run.id, weekly).run == head
    named = store.start("named.json", weekly, "report")
    assert store.load("named.json").id == named.id
    assert code_of(lambda: store.load("no-such-run")) == "run-missing"


def test_a_folder_stores_references_stay_inside_it(tmp_path: Path, weekly: ag.Provider) -> None:
    folder = tmp_path / "runs"
    store = ag.open_store(str(folder))
    store.start("inside.json", weekly, "report")
    (tmp_path / "x.json").write_bytes((folder / "inside.json").read_bytes())
    for outside in ("../x.json", str(tmp_path / "x.json"), "sub/../../x.json"):
        assert code_of(lambda outside=outside: store.load(outside)) == "run-ref-outside-store"
        assert code_of(lambda outside=outside: store.record(outside, "report/draft", "partial")) == (
            "run-ref-outside-store"
        )
        assert (
            code_of(lambda outside=outside: store.start(outside, weekly, "report")) == "run-ref-outside-store"
        )
    assert store.load(str(folder / "inside.json")).graph == "report"  # an absolute path inside is fine
    assert not (tmp_path / "x.json.lock").exists()


@pytest.mark.slow
def test_a_record_on_a_100000_event_run_file_lands(tmp_path: Path, weekly: ag.Provider) -> None:
    store = ag.open_store(str(tmp_path))
    run = store.start("long.json", weekly, "report")
    events = (*run.events, *(
        RunEvent(sequence=n, at=run.created_at, type="node.outcome-recorded", node="report/draft",
                 outcome="partial", detail={"n": n})
        for n in range(2, 100_001)
    ))  # fmt: skip
    import msgspec

    (tmp_path / "long.json").write_bytes(encode_run(msgspec.structs.replace(run, events=events)))
    started = time.perf_counter()
    head = store.record("long.json", "report/draft", "completed")
    seconds = time.perf_counter() - started
    print(
        f"record on a 100,000-event Run file: {seconds:.2f} s"
    )  # measured (docs/performance.md), not asserted
    assert head.events == 100_001 and head.outcomes["report/draft"].outcome == "completed"
    assert store.events("long.json", after=99_999)[-1].sequence == 100_001


# ---------------------------------------------------------------- one namespace of Run IDs


def test_a_ref_given_to_start_resume_or_fork_is_the_new_runs_id_and_file(
    tmp_path: Path, weekly: ag.Provider
) -> None:
    store = ag.open_store(str(tmp_path))
    run = store.start("weekly", weekly, "report")
    assert run.id == "weekly" and (tmp_path / "weekly.json").is_file()
    assert store.load("weekly") == run and [s.id for s in store.list()] == ["weekly"]
    store.checkpoint("weekly", "before-review")
    resumed = store.resume("before-review", "resumed")
    forked = store.fork("weekly", 1, "forked")
    fresh = store.resume("before-review", None)
    assert (resumed.id, forked.id) == ("resumed", "forked") and fresh.id not in {
        "weekly",
        "resumed",
        "forked",
    }
    assert sorted(s.id for s in store.list()) == sorted(["weekly", "resumed", "forked", fresh.id])
    assert {s.ref for s in store.list()} == {
        s.id for s in store.list()
    }  # the checkpoint is no Run of the list
    assert code_of(lambda: store.start("weekly", weekly, "report")) == "run-target-exists"
    odd = store.start("a b ü", weekly, "report")  # not a safe file name: kept under its digest
    assert store.load("a b ü") == odd and not (tmp_path / "a b ü.json").exists()


def test_a_run_made_at_a_path_gets_a_fresh_id_that_finds_it_too(tmp_path: Path, weekly: ag.Provider) -> None:
    store = ag.open_store(str(tmp_path), new_id=lambda: "fresh-1")
    run = store.start("runs-by-hand.json", weekly, "report")
    assert run.id == "fresh-1" and (tmp_path / "runs-by-hand.json").is_file()
    assert store.load("fresh-1") == store.load("runs-by-hand.json") == run
    (summary,) = store.list()
    assert (summary.id, summary.ref) == ("fresh-1", "runs-by-hand.json")
    (tmp_path / "copy.json").write_bytes((tmp_path / "runs-by-hand.json").read_bytes())  # a copy made by hand
    assert code_of(lambda: store.load("fresh-1")) == "run-ref-ambiguous"  # two files hold it, and say so
    assert store.load("copy.json").id == "fresh-1"


def test_run_files_of_an_earlier_release_and_of_the_reference_toolchain_are_still_read(
    tmp_path: Path, weekly: ag.Provider
) -> None:
    source = ag.open_store(str(tmp_path / "source"), new_id=lambda: "0f6c1e0e-0000-4000-8000-000000000001")
    run = source.start(None, weekly, "report")
    data = (tmp_path / "source" / f"{run.id}.json").read_bytes()
    (tmp_path / "weekly").write_bytes(data)  # how an earlier release named the file of start("weekly", …)
    store = ag.open_store(str(tmp_path))
    assert store.load("weekly") == run and store.record("weekly", "report/draft", "partial").events == 2
    assert [s.id for s in store.list()] == []  # a file without .json was never listed
    (tmp_path / "run.json").write_bytes(data.replace(run.id.encode(), b"other-id"))
    assert [(s.id, s.ref) for s in store.list()] == [("other-id", "run.json")]


def test_the_status_kept_beside_a_run_file_is_dropped_once_the_file_is_changed_elsewhere(
    tmp_path: Path, weekly: ag.Provider
) -> None:
    import json

    store = ag.open_store(str(tmp_path))
    store.start("r", weekly, "report")
    store.record("r", "report/draft", "partial", provider=weekly)
    evaluated = store.next_step("r", weekly).evaluation.status_code
    assert [s.status for s in store.list()] == [evaluated]
    assert json.loads((tmp_path / "r.json.lock").read_text("utf-8"))["events"] == 2
    other = ag.open_store(None)  # the same file through its path, written without the Provider
    other.record(str(tmp_path / "r.json"), "report/draft", "failed")
    assert [s.status for s in store.list()] == [evaluated]  # the status of the last evaluated write stands
    data = json.loads((tmp_path / "r.json").read_text("utf-8"))  # a change that does not go through a store
    data["events"] = data["events"][:-1]
    (tmp_path / "r.json").write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    assert [s.status for s in store.list()] == [None]
