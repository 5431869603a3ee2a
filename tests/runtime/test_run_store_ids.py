"""One namespace of Run IDs in every store: the same script, the same answers, on every store and face.

The script starts, records, checkpoints, resumes, forks, exports and imports
Runs, lists them a page at a time and reads back every ID an operation
answered; its answers (Runs, heads, summaries, refusal codes) are recorded as
JSON. Files, SQLite, PostgreSQL and memory, each through the blocking and the
async face, must give exactly the answers of the memory store's blocking face:
the ``id`` each creation answers is the Run's address, held once, and listed.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from tests.fakes import START, FakeClock, Ids
from tests.paths import WEEKLY

#: The first timestamp of a store's fake clock here (a second more at each reading).
FIRST = START + timedelta(seconds=1)


class Calls:
    """Every method of a store called alike, blocking or async: an answer as plain JSON, or the refusal's code."""

    def __init__(self, store: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.store, self.loop = store, loop

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = getattr(self.store, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                answer = method(*args, **kwargs)
                if inspect.isawaitable(answer):
                    answer = self.loop.run_until_complete(answer)
            except ag.AgentGraphError as error:
                return {"refused": error.code}
            if isinstance(answer, list):
                return [json.loads(msgspec.json.encode(item)) for item in answer], getattr(
                    answer, "next_cursor", 0
                )
            return json.loads(msgspec.json.encode(answer))

        return call


def script(calls: Calls, provider: ag.Provider, folder: Path) -> list[Any]:
    """The same operations on any store: every answer, in order."""
    answers: list[Any] = []
    say = answers.append
    first = calls.start(
        None, provider, "report", workspace="/work/space", facts={"team": "web"}, authorities=["b"]
    )
    say(first)
    a = first["id"]
    say(calls.start("weekly", provider, "report", workspace="/work/space"))
    say(calls.start("weekly", provider, "report", workspace="/work/space"))  # taken: refused
    say(calls.start("bad\udcffid", provider, "report"))  # not Unicode: refused alike
    step = calls.next_step(a, provider)
    say(step)
    say(
        calls.record(a, "report/draft", "partial", provider=provider, revision=step["evaluation"]["revision"])
    )
    say(calls.record(a, "report/drfat", "completed", provider=provider))  # names no node: refused
    say(calls.record(a, "report/drfat", "completed", provider="examples/weekly-report"))  # not checked by ID
    say(calls.update_facts("weekly", {"report": {"digest": "sha256:00"}}, provider=provider))
    say(calls.update_authorities("weekly", add=["report.publish"], provider=provider))
    say(calls.checkpoint(a, "cp-a", provider=provider))
    say(calls.checkpoint(a, "cp-a"))  # taken: refused
    resumed = calls.resume("cp-a", None, provider=provider)
    say(resumed)
    say(calls.resume("cp-a", "resumed", provider=provider))
    say(calls.resume("cp-a", "resumed"))  # taken: refused
    say(calls.fork(a, 2, "forked", provider=provider))
    say(calls.fork(a, 2, None))
    exported = folder / "a.json"
    say(calls.export(a, str(exported)))
    say(calls.import_run(str(exported)))  # its ID is held: refused
    other = json.loads(exported.read_text("utf-8"))
    other["id"] = "imported"
    (folder / "other.json").write_text(json.dumps(other, indent=2) + "\n", "utf-8")
    say(calls.import_run(str(folder / "other.json"), provider=provider))
    listed, cursor = calls.list()
    say((listed, cursor))
    ids = [summary["id"] for summary in listed]
    assert len(ids) == len(set(ids)), ids  # each ID held once
    assert {summary["ref"] for summary in listed} == set(ids)  # and it is the Run's address
    for run_id in ids:
        say(calls.load(run_id))
        say(calls.head(run_id))
    pages: list[Any] = []
    cursor = None
    while True:
        page, cursor = calls.list(limit=2, cursor=cursor, newest_first=True)
        pages.append([summary["id"] for summary in page])
        if cursor is None:
            break
    say(pages)
    assert [i for page in pages for i in page] == list(reversed(ids))
    for status in ("actionable", "waiting-user", "blocked", "complete", "error"):
        say([summary["id"] for summary in calls.list(status=status)[0]])
    say(calls.list(graph="report", provider=provider, updated_after="2026-01-31T09:30:05.000Z", limit=3))
    say(calls.load("no-such-run"))
    return answers


def run_script(url: str, asynchronous: bool, provider: ag.Provider, folder: Path) -> list[Any]:
    folder.mkdir(parents=True, exist_ok=True)
    loop = asyncio.new_event_loop()
    try:
        options = {"clock": FakeClock(FIRST), "new_id": Ids()}
        if asynchronous:
            store = loop.run_until_complete(ag.open_async_store(url, **options))
        else:
            store = ag.open_store(url, **options)
        try:
            return script(Calls(store, loop), provider, folder)
        finally:
            if asynchronous:
                loop.run_until_complete(store.aclose())
            else:
                store.close()
    finally:
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()


@pytest.mark.parametrize("face", ["sync", "async"])
@pytest.mark.parametrize("kind", ["files", "sqlite", "postgres", "memory"])
def test_every_store_answers_the_same_ids_and_runs(
    kind: str, face: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    provider = ag.load_provider(str(WEEKLY))
    reference = run_script("memory://", False, provider, tmp_path / "reference")
    url = {
        "files": str(tmp_path / "runs"),
        "sqlite": f"sqlite:///{tmp_path / 'runs.db'}",
        "memory": "memory://",
    }.get(kind) or request.getfixturevalue("postgres_url")
    answers = run_script(url, face == "async", provider, tmp_path / "out")
    assert len(answers) == len(reference)
    for index, (mine, expected) in enumerate(zip(answers, reference, strict=True)):
        assert mine == expected, f"answer {index} differs"
