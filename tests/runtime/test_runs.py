"""The Run store (behaviour.md §9): exact fields and events, refusals, atomic writes and the writer lock."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph.types as agt
from agent_graph._core.errors import AgentGraphError
from agent_graph._runtime.runs import FileRunStore, format_timestamp, run_evaluation_input, run_lock
from tests.fakes import FakeClock, Ids
from tests.paths import REPO

RUN_SCHEMA_FILE = REPO / "schemas" / "run.schema.json"
START = datetime(2026, 1, 31, 9, 30, 0, 123456, tzinfo=timezone.utc)
PROVIDER = "tests/runs"


def make_store(**options: Any) -> FileRunStore:
    return FileRunStore(clock=FakeClock(START), new_id=Ids(), **options)


def read(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


def wire(value: Any) -> Any:
    """A Struct's wire JSON as plain data."""
    return json.loads(msgspec.json.encode(value))


def schema_check(value: Any) -> None:
    """Check against the shipped run.schema.json (the TypeScript toolchain's schema) independently."""
    import fastjsonschema

    fastjsonschema.compile(json.loads(RUN_SCHEMA_FILE.read_text("utf-8")))(value)


@pytest.fixture()
def store() -> FileRunStore:
    return make_store()


@pytest.fixture()
def started(tmp_path: Path, store: FileRunStore) -> Path:
    path = tmp_path / "run.json"
    store.start(
        str(path),
        PROVIDER,
        "main",
        workspace=str(tmp_path),
        facts={"a": 1},
        authorities=["z.b", "a.a", "z.b"],
    )
    return path


# ---------------------------------------------------------------- shape


def test_timestamps_are_utc_with_milliseconds() -> None:
    assert format_timestamp(START) == "2026-01-31T09:30:00.123Z"
    plus_one = datetime(2026, 1, 31, 10, 30, 0, 999999, tzinfo=timezone(timedelta(hours=1)))
    assert format_timestamp(plus_one) == "2026-01-31T09:30:00.999Z"
    assert format_timestamp(datetime(2026, 1, 31, 9, 30)) == "2026-01-31T09:30:00.000Z"


def test_start_writes_exact_fields_in_order(started: Path, tmp_path: Path) -> None:
    data = read(started)
    assert list(data) == [
        "schema", "id", "provider", "graph", "entry", "workspace",
        "createdAt", "updatedAt", "facts", "outcomes", "authorities", "events",
    ]  # fmt: skip
    assert data == {
        "schema": "agent-graph.run.v1",
        "id": "run-1",
        "provider": PROVIDER,
        "graph": "main",
        "entry": "default",
        "workspace": str(tmp_path),
        "createdAt": "2026-01-31T09:30:00.123Z",
        "updatedAt": "2026-01-31T09:30:00.123Z",
        "facts": {"a": 1},
        "outcomes": {},
        "authorities": ["a.a", "z.b"],
        "events": [
            {
                "sequence": 1,
                "at": "2026-01-31T09:30:00.123Z",
                "type": "run.started",
                "detail": {"facts": {"a": 1}, "authorities": ["a.a", "z.b"]},
            }
        ],
    }
    schema_check(data)


def test_start_uses_a_uuid_by_default_and_an_absolute_workspace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uuid

    monkeypatch.chdir(tmp_path)
    run = FileRunStore().start("r.json", PROVIDER, "main", workspace="sub")
    assert str(uuid.UUID(run.id)) == run.id
    assert run.workspace == str(tmp_path / "sub")
    assert (tmp_path / "r.json").is_file()
    without = FileRunStore().start("w.json", PROVIDER, "main")
    assert "workspace" not in read(tmp_path / "w.json") and without.workspace is None


def test_start_checks_graph_and_entry_of_a_loaded_provider(tmp_path: Path) -> None:
    from types import SimpleNamespace

    compiled = SimpleNamespace(definition=SimpleNamespace(entrypoints={"default": "n1"}))
    provider = SimpleNamespace(manifest=SimpleNamespace(id=PROVIDER), graphs={"main": compiled})

    store = make_store()
    with pytest.raises(AgentGraphError) as error:
        store.start(str(tmp_path / "a.json"), provider, "other")
    assert error.value.code == "graph-missing"
    with pytest.raises(AgentGraphError) as error:
        store.start(str(tmp_path / "a.json"), provider, "main", "nope")
    assert error.value.code == "entry-missing"
    assert not (tmp_path / "a.json").exists()
    assert store.start(str(tmp_path / "a.json"), provider, "main").provider == PROVIDER


def test_record_keeps_latest_outcome_and_every_event(started: Path, store: FileRunStore) -> None:
    store.record(str(started), "main/n1", "partial", detail={"missing": ["x"]})
    head = store.record(str(started), "main/n1", "completed")
    run = store.load(str(started))
    assert head == agt.RunHead(**{f: getattr(run, f) for f in agt.RunHead.__struct_fields__ if f != "events"},
                              events=len(run.events))  # fmt: skip
    data = read(started)
    assert data["outcomes"] == {"main/n1": {"outcome": "completed", "recordedAt": "2026-01-31T09:30:02.123Z"}}
    assert data["events"][1:] == [
        {"sequence": 2, "at": "2026-01-31T09:30:01.123Z", "type": "node.outcome-recorded",
         "node": "main/n1", "outcome": "partial", "detail": {"missing": ["x"]}},
        {"sequence": 3, "at": "2026-01-31T09:30:02.123Z", "type": "node.outcome-recorded",
         "node": "main/n1", "outcome": "completed"},
    ]  # fmt: skip
    assert data["updatedAt"] == "2026-01-31T09:30:02.123Z"
    assert data["createdAt"] == "2026-01-31T09:30:00.123Z"
    assert wire(run) == data
    schema_check(data)


def test_record_keeps_a_null_detail(started: Path, store: FileRunStore) -> None:
    store.record(str(started), "main/n1", "failed", detail=None)
    data = read(started)
    assert data["outcomes"]["main/n1"]["detail"] is None
    assert data["events"][-1]["detail"] is None


def test_record_refuses_an_unknown_outcome_and_changes_nothing(started: Path, store: FileRunStore) -> None:
    before = started.read_bytes()
    for bad in ("done", "", None):
        with pytest.raises(AgentGraphError) as error:
            store.record(str(started), "main/n1", bad)  # type: ignore[arg-type]
        assert error.value.code == "outcome-invalid"
    with pytest.raises(AgentGraphError) as error:
        store.record(str(started), "", "completed")
    assert error.value.code == "run-node-invalid"
    assert started.read_bytes() == before


def test_facts_merge_and_replace_with_sorted_keys(started: Path, store: FileRunStore) -> None:
    store.update_facts(str(started), {"b": 2, "Z": 0, "a": {"x": 1}})
    data = read(started)
    assert data["facts"] == {"a": {"x": 1}, "b": 2, "Z": 0}
    assert data["events"][-1]["type"] == "facts.updated"
    # code-unit order; the values that changed (a, Z and b are new)
    assert data["events"][-1]["detail"] == {"keys": ["Z", "a", "b"], "set": {"b": 2, "Z": 0, "a": {"x": 1}}}
    store.update_facts(str(started), {"only": True}, replace=True)
    data = read(started)
    assert data["facts"] == {"only": True}
    assert data["events"][-1]["type"] == "facts.replaced"
    assert data["events"][-1]["detail"] == {"keys": ["only"], "set": {"only": True}}
    with pytest.raises(AgentGraphError) as error:
        store.update_facts(str(started), ["not", "an", "object"])  # type: ignore[arg-type]
    assert error.value.code == "json-object-required"


def test_authorities_are_sorted_unique_and_logged(started: Path, store: FileRunStore) -> None:
    store.update_authorities(str(started), add=["c.c", "a.a"], remove=["z.b"])
    data = read(started)
    assert data["authorities"] == ["a.a", "c.c"]
    assert data["events"][-1] == {
        "sequence": 2, "at": "2026-01-31T09:30:01.123Z", "type": "authorities.updated",
        "detail": {"authorities": ["a.a", "c.c"]},
    }  # fmt: skip
    store.update_authorities(str(started), replace=["q", "b", "q"])
    assert read(started)["authorities"] == ["b", "q"]
    store.update_authorities(str(started), replace=[])
    assert read(started)["authorities"] == []
    assert read(started)["events"][-1]["detail"] == {"authorities": []}


def test_evaluation_input_of_a_run(started: Path, store: FileRunStore, tmp_path: Path) -> None:
    store.record(str(started), "main/n1", "partial", detail=1)
    data = run_evaluation_input(store.load(str(started)))
    assert data == {
        "facts": {"a": 1},
        "outcomes": {
            "main/n1": {"outcome": "partial", "recordedAt": "2026-01-31T09:30:01.123Z", "detail": 1}
        },
        "authorities": ["a.a", "z.b"],
        "workspace": str(tmp_path),
    }


# ---------------------------------------------------------------- checkpoint and resume


def test_checkpoint_copies_without_authorities_and_logs_on_the_run(
    started: Path, store: FileRunStore, tmp_path: Path
) -> None:
    target = tmp_path / "checkpoints" / "before-handoff.json"
    snapshot = store.checkpoint(str(started), str(target))
    run = read(started)
    checkpoint = read(target)
    assert run["events"][-1] == {
        "sequence": 2, "at": "2026-01-31T09:30:01.123Z", "type": "run.checkpointed",
        "detail": {"checkpoint": "before-handoff.json"},
    }  # fmt: skip
    assert run["authorities"] == ["a.a", "z.b"]
    assert checkpoint["authorities"] == []
    assert {**checkpoint, "authorities": run["authorities"]} == run
    assert wire(snapshot) == checkpoint
    schema_check(checkpoint)


def test_checkpoint_refuses_an_existing_target(started: Path, store: FileRunStore, tmp_path: Path) -> None:
    target = tmp_path / "taken.json"
    target.write_text("keep me", "utf-8")
    before = started.read_bytes()
    with pytest.raises(AgentGraphError) as error:
        store.checkpoint(str(started), str(target))
    assert error.value.code == "run-target-exists"
    assert target.read_text("utf-8") == "keep me"
    assert started.read_bytes() == before


def test_resume_clears_authorities_and_appends_an_event(
    started: Path, store: FileRunStore, tmp_path: Path
) -> None:
    # A checkpoint that carries authorities anyway (written by hand or another tool).
    checkpoint = tmp_path / "cp.json"
    checkpoint.write_bytes(started.read_bytes())
    assert read(checkpoint)["authorities"] == ["a.a", "z.b"]
    resumed = store.resume(str(checkpoint), str(tmp_path / "resumed.json"))
    data = read(tmp_path / "resumed.json")
    assert data["authorities"] == [] and resumed.authorities == ()
    assert data["id"] == resumed.id == "run-2"  # a Run of its own: never the ID of the Run it resumes
    assert data["events"][-1] == {
        "sequence": 2, "at": "2026-01-31T09:30:01.123Z", "type": "run.resumed", "detail": {"checkpoint": "cp.json"},
    }  # fmt: skip
    assert data["updatedAt"] == "2026-01-31T09:30:01.123Z"
    assert read(checkpoint)["authorities"] == ["a.a", "z.b"]  # the checkpoint itself is left alone
    schema_check(data)


def test_resume_and_start_refuse_an_existing_target(
    started: Path, store: FileRunStore, tmp_path: Path
) -> None:
    target = tmp_path / "existing.json"
    target.write_text("{}", "utf-8")
    with pytest.raises(AgentGraphError) as error:
        store.resume(str(started), str(target))
    assert error.value.code == "run-target-exists"
    before = started.read_bytes()
    with pytest.raises(AgentGraphError) as error:
        store.start(str(started), PROVIDER, "main")
    assert error.value.code == "run-target-exists"
    assert started.read_bytes() == before
    assert target.read_text("utf-8") == "{}"


def test_exclusive_creation_loses_no_race(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that appears between the existence check and the link is not replaced."""
    from agent_graph._runtime import runs as _runs

    target = tmp_path / "raced.json"
    real_link = os.link

    def link_after_rival(source: str, destination: str) -> None:
        Path(destination).write_text("rival", "utf-8")
        real_link(source, destination)

    monkeypatch.setattr(_runs.os, "link", link_after_rival)
    with pytest.raises(AgentGraphError) as error:
        make_store().start(str(target), PROVIDER, "main")
    assert error.value.code == "run-target-exists"
    assert target.read_text("utf-8") == "rival"
    assert [p.name for p in tmp_path.iterdir()] == ["raced.json"]  # no temporary file left


# ---------------------------------------------------------------- refusals


def test_missing_run_is_refused(tmp_path: Path, store: FileRunStore) -> None:
    for call in (
        lambda p: store.load(p),
        lambda p: store.record(p, "main/n1", "completed"),
        lambda p: store.update_facts(p, {}),
        lambda p: store.update_authorities(p, add=["a"]),
        lambda p: store.checkpoint(p, str(tmp_path / "cp.json")),
        lambda p: store.resume(p, str(tmp_path / "new.json")),
    ):
        with pytest.raises(AgentGraphError) as error:
            call(str(tmp_path / "absent.json"))
        assert error.value.code == "run-missing"
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b'{"schema": "agent-graph.run.v1", "id": "x", "provid',  # truncated
        b"[1, 2, 3]",
        b"\xff\xfe not utf-8",
        json.dumps({"schema": "agent-graph.run.v1", "id": "x"}).encode(),  # fields missing
    ],
)
def test_corrupt_run_is_refused_and_never_overwritten(
    tmp_path: Path, store: FileRunStore, content: bytes
) -> None:
    path = tmp_path / "run.json"
    path.write_bytes(content)
    for call in (
        lambda: store.load(str(path)),
        lambda: store.record(str(path), "main/n1", "completed"),
        lambda: store.update_facts(str(path), {"a": 1}),
        lambda: store.checkpoint(str(path), str(tmp_path / "cp.json")),
    ):
        with pytest.raises(AgentGraphError) as error:
            call()
        assert error.value.code == "run-invalid"
    assert path.read_bytes() == content
    assert not (tmp_path / "cp.json").exists()


def test_schema_violations_are_run_invalid(started: Path, store: FileRunStore) -> None:
    data = read(started)
    for broken in (
        {**data, "updatedAt": "2026-01-31T09:30:00Z"},  # no milliseconds
        {**data, "extra": 1},
        {**data, "outcomes": {"main/n1": {"outcome": "done", "recordedAt": data["createdAt"]}}},
        {**data, "authorities": ["a", "a"]},
    ):
        started.write_text(json.dumps(broken), "utf-8")
        with pytest.raises(AgentGraphError) as error:
            store.record(str(started), "main/n1", "completed")
        assert error.value.code == "run-invalid"
        assert read(started) == broken


def test_foreign_run_is_refused_and_never_overwritten(
    started: Path, store: FileRunStore, tmp_path: Path
) -> None:
    before = started.read_bytes()
    for call in (
        lambda: store.load(str(started), "someone/else"),
        lambda: store.record(str(started), "main/n1", "completed", provider="someone/else"),
        lambda: store.update_facts(str(started), {"b": 1}, provider="someone/else"),
        lambda: store.update_authorities(str(started), add=["x"], provider="someone/else"),
        lambda: store.checkpoint(str(started), str(tmp_path / "cp.json"), provider="someone/else"),
        lambda: store.resume(str(started), str(tmp_path / "new.json"), provider="someone/else"),
    ):
        with pytest.raises(AgentGraphError) as error:
            call()
        assert error.value.code == "run-provider-mismatch"
    assert started.read_bytes() == before
    assert not (tmp_path / "cp.json").exists() and not (tmp_path / "new.json").exists()
    assert store.load(str(started), PROVIDER).provider == PROVIDER


# ---------------------------------------------------------------- compatibility with the TypeScript toolchain


TS_RUN = """{
  "schema": "agent-graph.run.v1",
  "id": "0b9c6f5e-3f0e-4d55-9d8e-6c2b8f0d2a11",
  "provider": "tests/runs",
  "graph": "main",
  "entry": "default",
  "workspace": "/srv/work",
  "createdAt": "2025-03-14T16:00:00.000Z",
  "updatedAt": "2025-03-14T16:05:00.000Z",
  "facts": {"report": {"digest": "sha256:5f0c"}, "n": 1.5},
  "outcomes": {
    "main/draft": {"outcome": "partial", "recordedAt": "2025-03-14T16:05:00.000Z", "detail": {"missing": ["jira"]}}
  },
  "authorities": ["report.publish"],
  "events": [
    {"sequence": 1, "at": "2025-03-14T16:00:00.000Z", "type": "run.started"},
    {"sequence": 2, "at": "2025-03-14T16:05:00.000Z", "type": "node.outcome-recorded",
     "node": "main/draft", "outcome": "partial", "detail": {"missing": ["jira"]}}
  ]
}
"""


def test_a_run_written_by_the_typescript_toolchain_loads_and_continues(
    tmp_path: Path, store: FileRunStore
) -> None:
    path = tmp_path / "ts-run.json"
    path.write_text(TS_RUN, "utf-8")
    original = json.loads(TS_RUN)
    run = store.load(str(path), PROVIDER)
    assert wire(run) == original
    store.record(str(path), "main/draft", "completed")
    data = read(path)
    assert data["events"][:2] == original["events"]
    assert data["events"][2]["sequence"] == 3
    assert data["facts"] == original["facts"] and data["createdAt"] == original["createdAt"]
    assert data["authorities"] == ["report.publish"]
    schema_check(data)


# ---------------------------------------------------------------- writes and locks


def test_successful_writes_leave_only_the_run_and_its_lock(
    started: Path, store: FileRunStore, tmp_path: Path
) -> None:
    store.record(str(started), "main/n1", "completed")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.json", "run.json.lock"]


def test_a_held_lock_times_out_with_its_code(started: Path) -> None:
    store = make_store(lock_timeout=0.2)
    before = started.read_bytes()
    with run_lock(str(started), 60):
        began = time.monotonic()
        with pytest.raises(AgentGraphError) as error:
            store.record(str(started), "main/n1", "completed")
        assert error.value.code == "run-lock-timeout"
        assert time.monotonic() - began >= 0.15  # it waited for the lock, ...
        assert "for more than 0.2 s" in error.value.message  # ... as long as the store was told, not 30 s
    assert started.read_bytes() == before
    store.record(str(started), "main/n1", "completed")  # free again
    assert read(started)["outcomes"]["main/n1"]["outcome"] == "completed"


def test_a_writer_waits_for_a_lock_held_by_another_process(started: Path) -> None:
    """A lock held by another process delays the write until it is released, then the write lands."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
            import time
            from agent_graph._runtime.runs import run_lock
            with run_lock({str(started)!r}, 5):
                print("held", flush=True)
                time.sleep(0.5)
        """),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        began = time.monotonic()
        FileRunStore(lock_timeout=120).record(str(started), "main/waiter", "completed")
        waited = time.monotonic() - began
    finally:
        holder.wait(60)
    assert waited > 0.2
    events = read(started)["events"]
    assert [e.get("node") for e in events] == [None, "main/waiter"]


_KILLER = """
import os, signal, sys
from agent_graph._runtime.runs import FileRunStore
mode, path = sys.argv[1], sys.argv[2]
real_fsync, real_replace = os.fsync, os.replace
def die(*args):
    os.kill(os.getpid(), signal.SIGKILL)
if mode == "before-rename":
    os.fsync = die  # the new content is written to the temporary file, not yet renamed
else:
    def replace_then_die(source, destination):
        real_replace(source, destination)
        die()
    os.replace = replace_then_die
FileRunStore().record(path, "main/killed", "completed")
"""


@pytest.mark.parametrize(("mode", "landed"), [("before-rename", False), ("after-rename", True)])
def test_a_writer_killed_during_a_write_leaves_a_valid_run(
    started: Path, tmp_path: Path, mode: str, landed: bool
) -> None:
    before = read(started)
    result = subprocess.run([sys.executable, "-c", _KILLER, mode, str(started)], timeout=60)
    assert result.returncode == -signal.SIGKILL
    run = make_store().load(str(started), PROVIDER)
    assert ("main/killed" in run.outcomes) is landed
    if not landed:
        assert read(started) == before
    # The lock died with the process: the next writer gets in at once.
    make_store(lock_timeout=60).record(str(started), "main/after", "completed")
    assert [e["sequence"] for e in read(started)["events"]] == list(
        range(1, len(read(started)["events"]) + 1)
    )


_LOOPER = """
import sys
from agent_graph._runtime.runs import FileRunStore
path = sys.argv[1]
store = FileRunStore()
store.update_facts(path, {"payload": "x" * 500_000})
print("ready", flush=True)
n = 0
while True:
    n += 1
    store.record(path, f"main/n{n}", "completed", detail={"pad": "y" * (n % 977)})
"""


def test_readers_and_a_killed_writer_never_see_a_truncated_run(started: Path) -> None:
    """A writer of large Runs is killed at an arbitrary moment; every read, before and after, is a valid Run."""
    store = make_store()
    writer = subprocess.Popen(
        [sys.executable, "-c", _LOOPER, str(started)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 60  # a hang guard: the reads count the writer's work, not the time
        seen: set[int] = set()
        while len(seen) < 4:  # reads of four different Runs: the writer wrote between them
            run = store.load(str(started), PROVIDER)  # raises run-invalid on a partial file
            assert [e.sequence for e in run.events] == list(range(1, len(run.events) + 1))
            seen.add(len(run.events))
            assert time.monotonic() < deadline, f"the writer made no progress: {sorted(seen)}"
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(60)
    final = store.load(str(started), PROVIDER)
    assert len(final.outcomes) >= 1
    assert len(final.events) == len(final.outcomes) + 2  # run.started, facts.updated, one event per record


def test_a_symlinked_run_is_updated_in_place(started: Path, tmp_path: Path) -> None:
    link = tmp_path / "current.json"
    link.symlink_to(started)
    make_store().record(str(link), "main/n1", "completed")
    assert link.is_symlink()
    assert "main/n1" in read(started)["outcomes"]
    assert (tmp_path / "run.json.lock").exists() and not (tmp_path / "current.json.lock").exists()
