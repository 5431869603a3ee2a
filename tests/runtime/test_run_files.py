"""Run files that lie, and the bounded lock wait: refused as ``run-invalid`` on read, nothing appended.

A Run file is host memory that anyone can edit. Files this library writes
never repeat a key and number their events 1 to n; a file that does either
is refused by every command (API and command line), and the file is left as
it was. The writer lock's wait is bounded and set from the command line with
``--lock-timeout SECONDS``; a timeout no wait could honour is refused.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from agent_graph._runtime.run_codec import MAX_LOCK_TIMEOUT, check_run_writable, checked_run_bytes, decode_run
from agent_graph._runtime.runs import FileRunStore, run_lock
from tests.in_process import run_cli
from tests.load_fixtures import base_documents, write_tree

PROVIDER = "acme/base"


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    directory = tmp_path / "p"
    write_tree(directory, base_documents())
    return directory


@pytest.fixture()
def run_file(root: Path) -> Path:
    store = FileRunStore()
    path = root / "run.json"
    store.start(str(path), PROVIDER, "main", facts={"a": 1, "b": {"c": 2}}, authorities=["release"])
    store.record(str(path), "main/build", "completed", detail={"note": "first"})
    store.update_facts(str(path), {"d": 3})
    return path


def code_of(err: str) -> str:
    code: str = json.loads(err)["error"]["code"]
    return code


COMMANDS = [
    ["run", "status", "--state", "run.json"],
    ["run", "record", "main/build", "completed", "--state", "run.json"],
    ["run", "facts", "--state", "run.json", "--set", '{"b": 2}'],
    ["run", "authority", "--state", "run.json", "--add", "ops"],
    ["run", "checkpoint", "--state", "run.json", "--out", "checkpoint.json"],
    ["run", "events", "--state", "run.json"],
    ["run", "resume", "--checkpoint", "run.json", "--state", "resumed.json"],
    ["evaluate", "--state", "run.json"],
    ["route", "--state", "run.json", "--facts", '{"a": {}}', "--outcomes", '{"main/build": "pending"}'],
]


def _lies(text: str) -> dict[str, str]:
    document = json.loads(text)
    events = document["events"]
    renumbered = [
        dict(event, sequence=event["sequence"] + (5 if index == 1 else 0))
        for index, event in enumerate(events)
    ]
    swapped = [events[1], events[0], *events[2:]]
    zero = [dict(event, sequence=index) for index, event in enumerate(events)]
    repeated = [*events[:2], dict(events[1]), *events[2:]]
    return {
        "a repeated top-level key": text.replace(
            '"graph": "main"', '"graph": "main",\n  "graph": "other"', 1
        ),
        "a repeated fact key": text.replace('"a": 1', '"a": 1, "a": 2', 1),
        "a repeated key in a record": text.replace(
            '"outcome": "completed"', '"outcome": "completed", "outcome": "failed"', 1
        ),
        "a repeated key in an event": text.replace(
            '"type": "run.started"', '"type": "run.started", "type": "x"', 1
        ),
        "a gap in the sequence": json.dumps({**document, "events": renumbered}),
        "events out of order": json.dumps({**document, "events": swapped}),
        "events numbered from 0": json.dumps({**document, "events": zero}),
        "a repeated sequence number": json.dumps({**document, "events": repeated}),
        "a negative sequence": json.dumps(
            {**document, "events": [dict(events[0], sequence=-1), *events[1:]]}
        ),
    }


@pytest.mark.parametrize("lie", sorted(_lies('{"events": [{"sequence": 1}, {"sequence": 2}]}')))
def test_a_run_that_lies_is_refused_everywhere_and_left_as_it_is(run_file: Path, lie: str) -> None:
    root = run_file.parent
    lying = _lies(run_file.read_text("utf-8"))[lie]
    run_file.write_text(lying, "utf-8")
    assert (root / "run.json.lock").exists()  # writes went through: a lie must not get past the lock
    for command in COMMANDS:
        status, out, err = run_cli(command, root)
        assert status == 1 and out == "", (command, out)
        # the command line answers with the reference toolchain's code, the store's code first among the diagnostics
        error = json.loads(err)["error"]
        assert error["code"] in ("parse-failed", "schema-invalid"), (command, err)
        assert error["diagnostics"][0]["code"] == "run-invalid", (command, err)
        assert run_file.read_text("utf-8") == lying
        assert not (root / "checkpoint.json").exists() and not (root / "resumed.json").exists()
    store = FileRunStore()
    for call in (
        lambda: store.load(str(run_file)),
        lambda: store.record(str(run_file), "main/build", "failed"),
        lambda: store.update_facts(str(run_file), {"z": 1}),
        lambda: store.update_authorities(str(run_file), add=["ops"]),
        lambda: store.checkpoint(str(run_file), str(root / "c.json")),
        lambda: store.resume(str(run_file), str(root / "r.json")),
        lambda: decode_run(lying.encode("utf-8"), str(run_file)),
    ):
        with pytest.raises(ag.AgentGraphError) as caught:
            call()
        assert caught.value.code == "run-invalid"
        assert run_file.read_text("utf-8") == lying
    assert not (root / "c.json").exists() and not (root / "r.json").exists()


def test_the_unaltered_run_is_accepted_everywhere(run_file: Path) -> None:
    for command in COMMANDS:
        status, _out, err = run_cli(command, run_file.parent)
        assert status == 0, (command, err)
        for name in ("checkpoint.json", "resumed.json"):
            (run_file.parent / name).unlink(missing_ok=True)


def test_a_run_named_like_yaml_is_still_read_as_json(run_file: Path) -> None:
    """The reader takes JSON whatever the name: the writer writes nothing else, so YAML would be a lie too."""
    renamed = run_file.with_name("run.yaml")
    run_file.rename(renamed)
    assert FileRunStore().load(str(renamed)).provider == PROVIDER
    renamed.write_text("schema: agent-graph.run.v1\nid: x\n", "utf-8")
    with pytest.raises(ag.AgentGraphError) as caught:
        FileRunStore().load(str(renamed))
    assert caught.value.code == "run-invalid"


def test_every_store_shares_one_reader_and_one_writer_check(run_file: Path) -> None:
    """A store of another kind (a database, say) takes the same two functions: what one writes, the other reads."""
    import msgspec

    run = FileRunStore().load(str(run_file))
    data = checked_run_bytes(run, "database row 7")
    assert decode_run(data, "database row 7") == run
    check_run_writable(run)
    bad = msgspec.structs.replace(run, facts={"a": {1, 2}})
    with pytest.raises(ag.AgentGraphError) as caught:
        check_run_writable(bad)
    assert caught.value.code == "json-invalid"
    nameless = msgspec.structs.replace(run, graph="")
    with pytest.raises(ag.AgentGraphError) as refused:
        checked_run_bytes(nameless, "database row 8")
    assert refused.value.code == "argument-invalid"


# ---------------------------------------------------------------- the lock wait


@pytest.mark.parametrize(
    "timeout",
    [-1, float("nan"), float("inf"), -float("inf"), MAX_LOCK_TIMEOUT * 2, 1e300, 10**400, True, "5", None],
)
def test_lock_timeouts_no_wait_could_honour_are_argument_invalid(timeout: Any, tmp_path: Path) -> None:
    with pytest.raises(ag.AgentGraphError) as caught:
        FileRunStore(lock_timeout=timeout)
    assert caught.value.code == "argument-invalid"
    store = FileRunStore()
    with pytest.raises(ag.AgentGraphError) as assigned:
        store.lock_timeout = timeout
    assert assigned.value.code == "argument-invalid"
    with pytest.raises(ag.AgentGraphError) as direct, run_lock(str(tmp_path / "run.json"), timeout):
        pass
    assert direct.value.code == "argument-invalid"


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "1e300", "forever", "", str(MAX_LOCK_TIMEOUT * 2)])
def test_the_command_line_refuses_bad_lock_timeouts(run_file: Path, value: str) -> None:
    before = run_file.read_bytes()
    for command in COMMANDS[:7]:
        status, out, err = run_cli([*command, "--lock-timeout", value], run_file.parent)
        assert status == 1 and out == ""
        assert code_of(err) == "argument-invalid", (command, err)
    assert run_file.read_bytes() == before


def test_the_command_line_waits_as_long_as_it_is_told(run_file: Path) -> None:
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with run_lock(str(run_file), 5):
            held.set()
            release.wait(120)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(60)
        before = run_file.read_bytes()
        started = time.monotonic()
        status, out, err = run_cli(
            ["run", "record", "main/build", "failed", "--state", "run.json", "--lock-timeout", "0.2"],
            run_file.parent,
        )
        waited = time.monotonic() - started
        assert status == 1 and out == "" and code_of(err) == "run-lock-timeout"
        assert "0.2 s" in json.loads(err)["error"]["message"]
        assert waited >= 0.2
        assert run_file.read_bytes() == before
    finally:
        release.set()
        holder.join()
    status, _out, err = run_cli(
        ["run", "record", "main/build", "failed", "--state", "run.json", "--lock-timeout", "0"],
        run_file.parent,
    )
    assert status == 0, err
