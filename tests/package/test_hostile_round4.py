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
from tests.paths import REPO as ROOT
from tests.toolchain.test_replay_browser import browser  # noqa: F401 - the fixture: one headless Chromium per module

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
    from tests.providers import action_node, edge, files_for, graph_doc, terminal_node

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
    """The work at ``small`` and at twice it: doubling the input may at most about double it.

    ``work`` runs once at ``small`` first, unmeasured, so that what happens once per process (an import,
    a schema compiled on first use) counts at neither size.
    """
    work(small)
    first, second = work(small), work(2 * small)
    assert second <= factor * first, (small, first, second)
    return first, second


# ---------------------------------------------------------------- the replay page


def _page_data(page: str) -> Any:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.DOTALL)
    assert found is not None, "the data block is not whole"
    return json.loads(found.group(1))


def _escaped_like_the_page(value: Any) -> Any:
    """``value`` through JSON and back: what the page's data block reads back as (exactly the value)."""
    return json.loads(json.dumps(value))


def test_every_placeholder_of_the_template_is_filled(weekly: ag.Provider) -> None:
    from agent_graph._toolchain.replay_page import render_replay_page

    page = render_replay_page(weekly, hostile_run(weekly, ["plain"] * 15), layout="builtin")
    for name in placeholders():
        assert name not in page, f"{name} of the template is never filled"


@pytest.mark.parametrize("seed", range(6))
def test_a_run_holding_hostile_text_everywhere_gives_a_whole_page(weekly: ag.Provider, seed: int) -> None:
    from agent_graph._toolchain.replay_page import page_data, render_replay_page

    texts = hostile_texts(15, seed)
    texts[seed % 15] = " ".join(placeholders())  # every placeholder, spelled in one place after another
    run = hostile_run(weekly, texts)
    run = msgspec.structs.replace(run, id=f"{texts[(seed + 1) % 15]}{' '.join(placeholders())}")
    page = render_replay_page(weekly, run, layout="builtin")
    page.encode("utf-8")  # the page is UTF-8 whatever the Run holds
    assert _page_data(page) == _escaped_like_the_page(page_data(weekly, run))
    assert page.count("<script") == 2 and page.count("</script>") == 2
    title = page.split("<title>", 1)[1].split("</title>", 1)[0]
    assert "<" not in title and page.count(title) >= 2  # the <title> and the heading, text only
    outside = page.split('id="replay-data">', 1)[0].replace(title, "")
    for name in placeholders():  # outside the data block and the title, no text is filled in again
        assert name not in outside, name


@pytest.mark.slow
def test_hostile_pages_render_in_chromium(weekly: ag.Provider, tmp_path: Path, browser: Any) -> None:  # noqa: F811
    from agent_graph._toolchain.replay_page import render_replay_page

    for seed in range(3):
        texts = hostile_texts(15, 10 + seed)
        texts[2] = " ".join(placeholders()) + "</script><script>window.injected=1</script>"
        texts[5] = "x" * 200_000 + "</script>"  # a huge comment, cut on the page
        run = hostile_run(weekly, texts)
        path = tmp_path / f"hostile-{seed}.html"
        path.write_text(render_replay_page(weekly, run, layout="builtin"), "utf-8")
        browser.open("about:blank")
        browser.open(path.as_uri())
        assert len(browser.find_all("#events tbody tr")) == len(run.events)
        assert browser.run("return window.injected === undefined")
        for number in range(1, len(run.events) + 1):
            browser.run("location.hash = arguments[0];", f"#event-{number}")
            heading = browser.text(browser.find("#event-heading"))
            assert heading == f"Event {number} of {len(run.events)}"


# ---------------------------------------------------------------- growth


def test_step_blockers_on_a_blocked_graph_grow_linearly() -> None:
    from agent_graph._core.why import step_blockers
    from tests.providers import action_node, build, edge, graph_doc, terminal_node

    def work(size: int) -> int:
        nodes = [
            action_node(f"n{i}", "agent", satisfiedBy=[{"path": f"d.k{i}", "exists": True}])
            for i in range(size)
        ]
        nodes.append(terminal_node("done"))
        edges = [edge(f"n{i}", f"n{i + 1}") for i in range(size - 1)] + [edge(f"n{size - 1}", "done")]
        provider = build(graph_doc("main", nodes, edges))
        outcomes = {f"main/n{i}": "completed" for i in range(size)}  # every one unverified: blocked
        evaluation = ag.evaluate(provider, "main", outcomes=outcomes)
        assert evaluation.status_code == "blocked"
        found: list[Any] = []
        count = Calls()(lambda: found.extend(step_blockers(provider, evaluation, {}, outcomes, [])))
        assert found and found[0].node == "main/n0" and found[0].checks[0].path == "d.k0"
        return count

    grows_linearly(work, 10_000)


def _growing_run(provider: ag.Provider, events: int, *, legacy: bool = False) -> ag.Run:
    """A Run whose every event sets a Fact of its own (``legacy``: events naming keys, no values)."""
    run = rc.new_run(
        "grow", provider.manifest.id, "report", "default", _at(1), workspace=None, facts={}, authorities=[]
    )
    head = rc.head_of(run)
    added: list[ag.types.RunEvent] = list(run.events)
    for index in range(2, events + 1):
        head, new = rc.facts_change({f"key{index}": index})(head, _at(index))
        added.extend(new)
    if legacy:
        added = [
            msgspec.structs.replace(event, detail={"keys": event.detail["keys"]})
            if event.type == "facts.updated"
            else msgspec.structs.replace(event, detail={})
            for event in added
        ]
    return rc.with_events(head, tuple(added))


@pytest.mark.parametrize("legacy", [False, True], ids=["values", "keys-only"])
def test_a_fork_of_a_long_run_holds_one_state_at_a_time(weekly: ag.Provider, legacy: bool) -> None:
    """Memory counted with tracemalloc: the fork's walk kept every event's Facts (1.3 GB at 10,000 events)."""
    import tracemalloc

    from agent_graph._runtime.run_fork import forked_run

    def peak(events: int) -> int:
        run = _growing_run(weekly, events, legacy=legacy)
        tracemalloc.start()
        try:
            fork = forked_run(run, events, "fork", _at(events + 1))
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            assert len(fork.facts) == events - 1

    grows_linearly(peak, 1_500)


def test_replay_of_a_run_whose_facts_keys_arrive_at_once_grows_linearly(weekly: ag.Provider) -> None:
    """A reference-written Run: no values recorded, thousands of keys the Run holds from event 1, then
    records only. Each event used to copy the Facts once per key and rebuild the unrecorded keys: work in
    C (dict and set copies) that counted calls do not see, so the growth of the CPU time is compared, the
    best of three at each size, doubling the size (quadratic work would take four times as long)."""
    import time

    from agent_graph._core.replay import run_states

    def cpu(size: int) -> int:
        run = rc.new_run("keys", weekly.manifest.id, "report", "default", _at(1), workspace=None,
                         facts={f"k{i}": i for i in range(size)}, authorities=[])  # fmt: skip
        head, events = rc.head_of(run), [msgspec.structs.replace(run.events[0], detail={})]
        for index in range(2, size + 1):
            head, new = rc.record_change("report/draft", "partial", {"n": index})(head, _at(index))
            events.extend(new)
        legacy = rc.with_events(head, tuple(events))
        best = []
        for _ in range(3):
            started = time.process_time()
            unrecorded = [state.unrecorded_facts for state in run_states(legacy)]
            best.append(time.process_time() - started)
        assert len(unrecorded[0]) == 0 and len(unrecorded) == size  # every value arrives from the Run
        return int(min(best) * 1_000_000) + 1

    grows_linearly(cpu, 1_500, factor=3.0)


def test_a_shown_value_costs_what_is_shown() -> None:
    """The page shows each changed value cut to 600 characters; writing it used to cost the whole value."""
    import tracemalloc

    from agent_graph._toolchain.replay_page import VALUE_LIMIT, _shown

    for value in (
        {f"entry{i}": {"value": i, "note": "x" * 40} for i in range(50_000)},
        ["y" * 1_000_000],
        "z" * 5_000_000,
    ):
        tracemalloc.start()
        try:
            text = _shown(value)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert len(text) == VALUE_LIMIT and text.endswith("…")
        assert peak < 64_000, peak


def test_the_page_builder_grows_linearly_with_the_run(weekly: ag.Provider) -> None:
    from agent_graph._toolchain.replay_page import page_data
    from tests.toolchain.test_replay_page import mixed_run

    grows_linearly(
        lambda size: Calls()(lambda: page_data(weekly, mixed_run(weekly, size, new_keys=True))), 300
    )


# ---------------------------------------------------------------- suggestions


def _alike(size: int) -> list[str]:
    """Names sharing most of their triples: one long common stem, a short numbered tail."""
    return [f"{'shared.path.segment.' * 6}{i:06d}" for i in range(size)]


def _non_ascii(size: int) -> list[str]:
    rng = random.Random(size)
    letters = "äöüßéèçñøåłżźśćęąΩΨΦπσ漢字かなカナ한글\U0001f600"
    return ["".join(rng.choice(letters) for _ in range(rng.randrange(3, 30))) + str(i) for i in range(size)]


def _long(size: int) -> list[str]:
    return [("ab" * 200)[: 200 + i % 100] + str(i) for i in range(size)]  # some over the length limit


@pytest.mark.parametrize("names", [_alike, _non_ascii, _long], ids=["alike", "non-ascii", "long"])
def test_suggestion_indexes_and_lookups_stay_bounded(names: Callable[[int], list[str]]) -> None:
    from agent_graph._core.suggest import BUDGET, SCORED, SHORTLIST, CloseNames

    def build(size: int) -> int:
        given = names(size)
        return Calls()(lambda: CloseNames(given).same_but_case("x"))

    grows_linearly(build, 4_000)
    given = names(8_000)
    index = CloseNames(given)
    rng = random.Random(7)
    words = [rng.choice(given)[:-1] + rng.choice("xé漢") for _ in range(300)]
    for word in words:
        index.closest(word, 3, 0.6)
    assert index.visited <= len(words) * BUDGET
    assert index.compared <= len(words) * SHORTLIST and index.scored <= len(words) * SCORED


# ---------------------------------------------------------------- SARIF


@pytest.mark.parametrize("seed", [1, 2])
def test_sarif_of_generated_file_names_validates_and_decodes_to_each_file(tmp_path: Path, seed: int) -> None:
    from urllib.parse import unquote_to_bytes

    from tests.core.test_lint import _strict_sarif_validator
    from tests.providers import action_node, edge, files_for, graph_doc, terminal_node

    rng = random.Random(seed)
    alphabet = [*" #%?\\:[]@!'+&=;,~()$*", "ü", "漢", "\U0001f600", "\x01", "\x1b", "\udcff", "\udc80", "%41"]
    root = tmp_path / "provider #%"
    graph = graph_doc("main", [action_node("a"), terminal_node("d")], [edge("a", "d")])
    for name, text in files_for([graph], root=str(root)).items():
        Path(name).parent.mkdir(parents=True, exist_ok=True)
        Path(name).write_text(text if isinstance(text, str) else text.decode())
    names = {"".join(rng.choice([*alphabet, "x"]) for _ in range(rng.randrange(1, 12))) + ".schema.json"
             for _ in range(25)}  # fmt: skip
    for name in names:  # schema files nothing uses: one AG503 finding on each
        (root / "schemas" / name).write_text('{"type": "object"}')
    done = _cli("lint", "--manifest", str(root / "provider.yaml"), "--select", "AG503", "--format", "sarif",
                cwd=root)  # fmt: skip
    log = json.loads(done.stdout)
    _strict_sarif_validator()(log)
    found = set()
    for result in log["runs"][0]["results"]:
        artifact = result["locations"][0]["physicalLocation"]["artifactLocation"]
        found.add(unquote_to_bytes(artifact["uri"]))  # the very bytes of the file's name
    assert {("schemas/" + name).encode("utf-8", "surrogateescape") for name in names} <= found


def test_loading_a_chain_of_subgraphs_grows_linearly() -> None:
    """Each Graph's digest covers every Graph below it: made for all at load, a chain cost its square."""
    from tests.providers import ROOT, action_node, edge, files_for, graph_doc, subgraph_node, terminal_node

    def work(length: int) -> int:
        graphs = [
            graph_doc(f"g{i}", [subgraph_node("s", f"g{i + 1}"), terminal_node("d")], [edge("s", "d")])
            for i in range(length - 1)
        ]
        graphs.append(graph_doc(f"g{length - 1}", [action_node("a"), terminal_node("d")], [edge("a", "d")]))
        fs = ag.MemoryFileSystem(files_for(graphs))
        loaded: list[ag.Provider] = []
        count = Calls()(lambda: loaded.append(ag.load_provider(f"{ROOT}/provider.yaml", fs=fs)))
        evaluation = ag.evaluate(loaded[0], "g0")  # the top Graph's digest, all of its closure, when used
        assert evaluation.status_code == "actionable"
        return count

    grows_linearly(work, 400)
