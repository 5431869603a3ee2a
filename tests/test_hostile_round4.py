"""Hostile content on every surface that shows it, and no input that costs quadratic time.

Each table below is a promise and the generated inputs that attack it:

* Text a Run or a Provider holds — control characters, the bidirectional
  overrides, lone surrogates, markup, the replay page's own placeholders (read
  from the template) — reaches people and programs unchanged in meaning and
  harmless in form: the command line's human output escapes what a terminal
  would act on, its JSON reads back to the same values, MCP answers are sent
  (each lone surrogate as U+FFFD), the replay page stays whole and its data
  reads back exactly, lint and SARIF stay valid.
* Close-name suggestions stay bounded on name sets made to defeat them.
* Telemetry that raises anywhere never changes an answer.
* The new code paths grow linearly: work is counted (calls of Python
  functions, distinct values kept) at two sizes, never timed.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from agent_graph._runtime import run_changes as rc

ROOT = Path(__file__).resolve().parent.parent
WEEKLY = str(ROOT / "examples" / "weekly-report" / "provider.yaml")
TEMPLATE = ROOT / "agent_graph" / "_toolchain" / "replay_assets" / "replay.html"

#: What a terminal acts on or shows out of order: C0 controls but tab and newline, DEL, C1 controls,
#: the bidirectional embeddings, overrides and isolates.
ACTED_ON = frozenset(
    (*(c for c in range(0x20) if c not in (0x09, 0x0A)), *range(0x7F, 0xA0), *range(0x202A, 0x202F), 0x2066)
) | frozenset(range(0x2067, 0x206A))
SURROGATES = ("\ud800", "\udbff", "\udc00", "\udfff", "\ud83d")
MARKUP = ("</script>", "<!--", "<script>", "]]>", "&amp;", '"', "'", "\\", "\u2028", "\u2029", "`")


def placeholders() -> list[str]:
    """Every placeholder the replay page's template spells, as the template has them today."""
    found = sorted(set(re.findall(r"\{\{[A-Z_]+\}\}", TEMPLATE.read_text("utf-8"))))
    assert found, "the template has no placeholder: the page tests below would prove nothing"
    return found


def hostile_text(rng: random.Random, size: int = 24) -> str:
    """Text drawn from everything dangerous at once, with plain letters between."""
    pieces = [
        *(chr(code) for code in ACTED_ON),
        *SURROGATES,
        *MARKUP,
        *placeholders(),
        "é",
        "漢",
        "\U0001f600",
    ]
    return "".join(rng.choice(pieces) if rng.random() < 0.6 else rng.choice("abc .") for _ in range(size))


def hostile_texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [hostile_text(rng) for _ in range(count)]


def _at(index: int) -> str:
    return f"2026-01-31T{9 + index // 3600:02d}:{index // 60 % 60:02d}:{index % 60:02d}.000Z"


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(WEEKLY)


def hostile_run(provider: ag.Provider, texts: list[str]) -> ag.Run:
    """A weekly-report Run whose Facts, keys, comments, recorders and details hold ``texts``."""
    facts: dict[str, Any] = {"team": texts[0], texts[1]: {texts[2]: texts[3]}}
    run = rc.new_run(
        "hostile",
        provider.manifest.id,
        "report",
        "default",
        _at(1),
        workspace=None,
        facts=facts,
        authorities=[],
    )
    changes = [
        rc.record_change(
            "report/draft", "partial", {"by": texts[4], "comment": texts[5], texts[6]: texts[7]}
        ),
        rc.facts_change({"report": {"digest": texts[8]}}),
        rc.facts_change({"report": {"note": texts[9]}, texts[10]: [texts[11]]}, deep=True),
        rc.record_change("report/draft", "completed", {"comment": texts[12]}),
        rc.facts_change({texts[13]: texts[14]}, replace=True),
    ]
    for index, change in enumerate(changes, start=2):
        run = rc.apply_change(run, change, _at(index))[0]
    return msgspec.structs.replace(run, id="run-" + str(len(texts)))


# ---------------------------------------------------------------- the command line's output


def shown_safely(data: bytes, where: str) -> str:
    """Output that is UTF-8 (no raw surrogate bytes) and holds nothing a terminal acts on."""
    text = data.decode("utf-8")  # strict: a lone surrogate written raw would fail here
    acted = sorted({f"U+{ord(ch):04X}" for ch in text if ord(ch) in ACTED_ON})
    assert not acted, f"{where} writes {acted} as they are"
    return text


def argument(text: str) -> str:
    """``text`` as a command line can carry it: no NUL, surrogates only as undecodable bytes (U+DC80–U+DCFF)."""
    return re.sub("[\ud800-\udfff]", "\udcff", text.replace("\x00", ""))


def _cli(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "agent_graph", *arguments],
        cwd=cwd,
        capture_output=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("seed", [1, 2])
def test_human_output_escapes_what_a_terminal_acts_on(tmp_path: Path, weekly: ag.Provider, seed: int) -> None:
    texts = hostile_texts(12, seed)
    store_url = str(tmp_path / "runs")
    with ag.open_store(store_url) as store:
        run = store.start(None, weekly, "report", facts={"note": texts[0]})
        store.record(run.id, "report/draft", "partial", detail={"comment": texts[1], "by": texts[2]})
        store.update_facts(run.id, {"report": {"digest": texts[3], "approved": texts[4]}}, deep=True)
    common = ("--manifest", WEEKLY, "--store", store_url, "--run", run.id)
    commands: list[tuple[str, ...]] = [
        ("explain", "report", *common),  # shows the Facts found: the hostile values
        ("run", "status", *common),
        ("run", "next", *common),
        (
            "evaluate",
            "report",
            "--manifest",
            WEEKLY,
            "--facts",
            json.dumps({"report": {"digest": texts[5]}}, ensure_ascii=True),
        ),
        ("run", "record", argument(texts[6]), "completed", *common),  # refused: the message repeats the key
        (
            "explain",
            "report",
            "--manifest",
            WEEKLY,
            "--facts",
            json.dumps({"report": {"approved": texts[7]}}, ensure_ascii=True),
        ),
    ]
    for command in commands:
        done = _cli(*command, cwd=tmp_path)
        shown_safely(done.stdout, f"{command[:2]} stdout")
        shown_safely(done.stderr, f"{command[:2]} stderr")
    # The JSON answers keep the values exactly (JSON escapes what it must).
    answer = _cli("run", "status", *common, "--format", "json", cwd=tmp_path)
    assert answer.returncode == 0, answer.stderr
    loaded = json.loads(answer.stdout)
    with ag.open_store(store_url) as store:
        assert store.head(run.id).facts == {
            "note": texts[0],
            "report": {"digest": texts[3], "approved": texts[4]},
        }
    assert loaded["run"] == run.id or run.id in answer.stdout.decode("utf-8")


def test_a_provider_s_own_text_is_escaped_in_human_output(tmp_path: Path) -> None:
    from .providers import action_node, edge, files_for, graph_doc, terminal_node

    texts = hostile_texts(4, 3)
    nodes = [action_node("work", "agent", description=texts[0]), terminal_node("done", description=texts[1])]
    graph = graph_doc("main", nodes, [edge("work", "done")])
    graph["description"] = texts[2]
    for name, text in files_for([graph], root=str(tmp_path / "p")).items():
        Path(name).parent.mkdir(parents=True, exist_ok=True)
        Path(name).write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    manifest = tmp_path / "p" / "provider.yaml"
    for command in (("diagram", "main"), ("explain", "main"), ("lint",), ("inspect", "provider")):
        done = _cli(*command, "--manifest", str(manifest), cwd=tmp_path)
        assert done.returncode in (0, 1), done.stderr
        shown_safely(done.stdout, f"{command} stdout")
        shown_safely(done.stderr, f"{command} stderr")


# ---------------------------------------------------------------- MCP answers


def unicode_only(text: str) -> str:
    return re.sub("[\ud800-\udfff]", "\ufffd", text)


def _mcp_answers(
    provider: ag.Provider, store: Any, run_id: str, revision: str, workspace: Path
) -> Iterator[tuple[str, Any]]:
    from mcp import types

    from agent_graph._mcp.server import _Handlers
    from agent_graph._mcp.service import McpService

    handlers = _Handlers(McpService(provider, store, authorities=(), workspace=str(workspace)))
    calls: list[tuple[str, dict[str, Any]]] = [
        ("next_step", {"runId": run_id}),
        ("run_events", {"runId": run_id}),
        ("list_runs", {}),
        ("update_facts", {"runId": run_id, "facts": {"extra": "plain"}}),
        (
            "record_outcome",
            {"runId": run_id, "node": "report/draft", "outcome": "completed", "revision": revision},
        ),
    ]
    for name, arguments in calls:
        answer = asyncio.run(
            handlers.call_tool(None, types.CallToolRequestParams(name=name, arguments=arguments))
        )
        yield name, answer


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mcp_answers_a_run_holding_any_text(tmp_path: Path, weekly: ag.Provider, seed: int) -> None:
    pytest.importorskip("mcp")
    texts = hostile_texts(8, seed)
    texts[0] += "\ud800"  # at least one lone surrogate in a key and a value
    with ag.open_store(str(tmp_path / "runs")) as store:
        run = store.start(None, weekly, "report", facts={texts[0]: texts[1], "note": texts[2] + "\udfff"})
        store.record(run.id, "report/draft", "partial", detail={"comment": texts[3], texts[4]: texts[5]})
        revision = store.next_step(run.id, weekly).revision
        for name, answer in _mcp_answers(weekly, store, run.id, revision, tmp_path):
            # What the SDK does before sending: it must not fail (it did: a lone surrogate, internal error).
            sent = answer.model_dump(by_alias=True, mode="json", exclude_none=True)
            text = json.dumps(sent, ensure_ascii=False)
            text.encode("utf-8")
            assert not answer.is_error or name == "record_outcome", (name, sent)
            if name == "run_events":
                events = answer.structured_content["events"]
                facts = events[0]["detail"]["facts"]
                assert facts["note"] == unicode_only(texts[2] + "\udfff") and facts["note"].endswith("\ufffd")
                assert facts[unicode_only(texts[0])] == unicode_only(texts[1])
        # The Run itself keeps every character.
        assert store.head(run.id).facts[texts[0]] == texts[1]


def test_mcp_names_the_closest_state_key_as_the_command_line_does(
    tmp_path: Path, weekly: ag.Provider
) -> None:
    pytest.importorskip("mcp")
    from mcp import types

    from agent_graph._mcp.server import _Handlers
    from agent_graph._mcp.service import McpService

    with ag.open_store(str(tmp_path / "runs")) as store:
        run = store.start(None, weekly, "report")
        revision = store.next_step(run.id, weekly).revision
        handlers = _Handlers(McpService(weekly, store, authorities=(), workspace=str(tmp_path)))
        for node, closest in (("report/drfat", "report/draft"), ("reprot/approve", "report/approve")):
            arguments = {"runId": run.id, "node": node, "outcome": "completed", "revision": revision}
            answer = asyncio.run(
                handlers.call_tool(
                    None, types.CallToolRequestParams(name="record_outcome", arguments=arguments)
                )
            )
            envelope = json.loads(answer.content[1].text)
            assert envelope["error"]["code"] == "state-key-unknown"
            assert f"did you mean {closest}?" in envelope["error"]["message"]
            cli = _cli("run", "record", node, "completed", "--manifest", WEEKLY, "--store", str(tmp_path / "runs"),
                       "--run", run.id, "--format", "json", cwd=tmp_path)  # fmt: skip
            assert json.loads(cli.stderr)["error"]["message"] == envelope["error"]["message"]
        assert len(store.load(run.id).events) == 1  # nothing landed


# ---------------------------------------------------------------- telemetry


def test_a_host_logger_that_raises_when_asked_its_level_changes_no_answer(
    monkeypatch: pytest.MonkeyPatch, weekly: ag.Provider, tmp_path: Path
) -> None:
    """With OpenTelemetry not imported, the only telemetry is logging: a Logger class whose level check raises."""
    import logging

    def script() -> list[str]:
        lines = []
        for call in (
            lambda: ag.evaluate(weekly, "report").status_code,
            lambda: ag.route(weekly, "report", facts={"report": {"digest": "x"}}).node,
            lambda: ag.load_provider(WEEKLY).manifest.id,
        ):
            lines.append(str(call()))
        with ag.open_store("memory://") as store:
            run = store.start(None, weekly, "report")
            lines.append(str(store.record(run.id, "report/draft", "completed").events))
        return lines

    for module in ("opentelemetry.trace", "opentelemetry.metrics"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    plain = script()

    def raising(level: int) -> bool:
        raise RuntimeError("a host's Logger class")

    for name in [
        n for n in logging.Logger.manager.loggerDict if n == "agent_graph" or n.startswith("agent_graph.")
    ]:
        logger = logging.getLogger(name)
        monkeypatch.setattr(logger, "isEnabledFor", raising, raising=False)
    assert script() == plain


# ---------------------------------------------------------------- helpers for growth


class Calls:
    """Calls of Python functions (and of C functions from Python) while counting: deterministic work."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, function: Callable[[], Any]) -> int:
        self.count = 0

        def profile(frame: Any, event: str, arg: Any) -> None:
            if event in ("call", "c_call"):
                self.count += 1

        sys.setprofile(profile)
        try:
            function()
        finally:
            sys.setprofile(None)
        return self.count


def grows_linearly(work: Callable[[int], int], small: int, factor: float = 2.4) -> tuple[int, int]:
    """The work at ``small`` and at twice it: doubling the input may at most about double it."""
    first, second = work(small), work(2 * small)
    assert second <= factor * first, (small, first, second)
    return first, second
