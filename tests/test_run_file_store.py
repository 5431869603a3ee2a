"""The file store: one way to address a Run, references kept inside the folder, a long Run still takes a record."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import agent_graph as ag
from agent_graph._core.model import RunEvent
from agent_graph._runtime.run_codec import encode_run

from .in_process import code_of

REPO = Path(__file__).resolve().parents[1]
WEEKLY = REPO / "examples" / "weekly-report" / "provider.yaml"


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
