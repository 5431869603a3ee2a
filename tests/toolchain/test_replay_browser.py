"""The replay page in a real browser: headless Chromium driven through chromedriver (WebDriver).

The page of the weekly-report example's Run is opened from disk; the tests
click through the timeline and check that what the page shows at event N is
the replay at N (node statuses, status, revision, route, the Facts diff), that
the slider and the keys move through events, and that a node's card shows on
hover and on keyboard focus. Screenshots at three events are written to
``$AGENT_GRAPH_SCREENSHOTS`` (or a temporary folder) for a person to look at.
Skipped, with the reason, only where no browser can be started.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from agent_graph._core.replay import ReplayStep, replay
from agent_graph._toolchain.replay_page import node_statuses, render_replay_page
from tests.core.test_replay import legacy
from tests.fact_runs import drive, expected_statuses
from tests.toolchain.test_replay_page import WEEKLY, weekly_run
from tests.webdriver import Browser, WebDriverError, browser_unavailable

LAYOUTS = ["builtin", *(["dot"] if shutil.which("dot") else [])]
SCREENSHOT_EVENTS = (3, 8, 10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    reason = browser_unavailable()
    if reason is not None:
        pytest.skip(reason)
    try:
        opened = Browser()
    except WebDriverError as error:
        pytest.skip(f"headless Chromium could not be started: {error}")
    with opened:
        yield opened


@pytest.fixture(scope="module")
def weekly() -> ag.Provider:
    return ag.load_provider(str(WEEKLY))


@pytest.fixture(scope="module")
def run(weekly: ag.Provider) -> ag.Run:
    return weekly_run(weekly)


@pytest.fixture(scope="module")
def steps(weekly: ag.Provider, run: ag.Run) -> list[ReplayStep]:
    return list(replay(weekly, run))


@pytest.fixture(scope="module", params=LAYOUTS)
def page(request: pytest.FixtureRequest, weekly: ag.Provider, run: ag.Run, tmp_path_factory: Any) -> str:
    path = tmp_path_factory.mktemp("replay") / f"weekly-{request.param}.html"
    path.write_text(render_replay_page(weekly, run, layout=request.param), "utf-8")
    return path.as_uri()


def shown_statuses(browser: Browser) -> dict[str, str]:
    """Node → status as the page shows it, in the status table and on the diagram (they must agree)."""
    table = browser.run(
        "var out = {}; document.querySelectorAll('#statuses tbody tr').forEach(function (tr) {"
        " out[tr.getAttribute('data-node')] = tr.querySelector('td.status').getAttribute('data-status'); });"
        " return out;"
    )
    diagram = browser.run(
        "var D = JSON.parse(document.getElementById('replay-data').textContent), out = {};"
        " D.nodes.forEach(function (n, i) {"
        "   out[n.id] = document.getElementById('node-' + i).getAttribute('data-status'); });"
        " return out;"
    )
    assert table == diagram
    result: dict[str, str] = table
    return result


def changes(browser: Browser) -> list[list[str]]:
    rows: list[list[str]] = browser.run(
        "return Array.from(document.querySelectorAll('#changes tbody tr')).map(function (tr) {"
        " return Array.from(tr.cells).map(function (td) { return td.textContent; }); });"
    )
    return rows


def heading(browser: Browser) -> str:
    return browser.text(browser.find("#event-heading"))


def check_event(browser: Browser, weekly: ag.Provider, run: ag.Run, step: ReplayStep) -> None:
    number = step.event.sequence
    assert heading(browser) == f"Event {number} of {len(run.events)}"
    assert shown_statuses(browser) == node_statuses(weekly, run, step)
    assert browser.text(browser.find("#status")).split(" ")[0] == step.status
    assert step.revision in browser.text(browser.find("#event-facts"))
    route = browser.text(browser.find("#route"))
    if step.primary_route is not None:
        assert f"node {step.primary_route.graph}/{step.primary_route.node}" in route
        assert step.revision in route
    else:
        assert route.startswith("No route")
    assert browser.property(browser.find("#slider"), "value") == str(number)
    selected = browser.find('#events tr[aria-selected="true"]')
    assert browser.attribute(selected, "id") == f"row-{number}"


def fresh(browser: Browser, url: str) -> None:
    """Load ``url`` as a new document (a change of the address's fragment alone does not reload)."""
    browser.open("about:blank")
    browser.open(url)


def test_clicking_through_the_timeline_shows_the_replay_at_each_event(
    browser: Browser,
    page: str,
    weekly: ag.Provider,
    run: ag.Run,
    steps: list[ReplayStep],
    tmp_path_factory: Any,
) -> None:
    fresh(browser, page)
    rows = browser.find_all("#events tbody tr")
    assert len(rows) == len(run.events)
    check_event(browser, weekly, run, steps[-1])  # the page opens at the last event
    folder = Path(os.environ.get("AGENT_GRAPH_SCREENSHOTS") or tmp_path_factory.mktemp("replay-screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    layout = page.rsplit("-", 1)[1].split(".")[0]
    for row, step in zip(rows, steps, strict=True):
        browser.click(row)
        check_event(browser, weekly, run, step)
        if step.event.sequence in SCREENSHOT_EVENTS:
            shot = folder / f"replay-weekly-report-{layout}-event-{step.event.sequence}.png"
            browser.run("window.scrollTo(0, 0);")
            browser.screenshot(str(shot))
            assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000


def test_the_facts_diff_and_the_gate_decision(browser: Browser, page: str) -> None:
    fresh(browser, page + "#event-3")
    assert heading(browser) == "Event 3 of 10"
    # The events record the values they set: every change shows before and after.
    assert changes(browser) == [["facts", "report", "(absent)", '{"digest": "sha256:5f0c"}']]
    assert browser.run("return document.getElementById('notice').hidden") is True
    browser.click(browser.find("#row-6"))
    assert changes(browser) == [
        ["facts", "report", '{"digest": "sha256:5f0c"}', '{"digest": "sha256:5f0c", "approved": true}']
    ]
    browser.click(browser.find("#row-9"))
    assert changes(browser) == [
        ["facts", "publication", "(absent)", '{"url": "https://intranet.example/w05"}']
    ]
    browser.click(browser.find("#row-7"))
    assert changes(browser) == [["outcomes", "report/approve", "(absent)", "completed"]]
    row = browser.text(browser.find("#row-7"))
    assert "session:alice" in row and "decided completed: Ship it" in row
    browser.click(browser.find("#row-10"))
    assert browser.run("return document.getElementById('notice').hidden") is True


def test_a_run_whose_events_record_no_values_says_what_it_does_not_know(
    browser: Browser, weekly: ag.Provider, run: ag.Run, tmp_path: Path
) -> None:
    path = tmp_path / "legacy.html"
    path.write_text(render_replay_page(weekly, legacy(run), layout="builtin"), "utf-8")
    fresh(browser, path.as_uri() + "#event-3")
    # "report" changes again at event 6: its value here is not in the events, and the page says so.
    assert changes(browser) == [["facts", "report", "not recorded", "not recorded"]]
    assert "report" in browser.text(browser.find("#notice"))
    browser.click(browser.find("#row-9"))
    assert changes(browser) == [
        ["facts", "publication", "not recorded", '{"url": "https://intranet.example/w05"}']
    ]
    browser.click(browser.find("#row-7"))
    notice = browser.text(browser.find("#notice"))
    assert "publication" in notice and "report" not in notice  # first set at event 9; report known from 6
    browser.click(browser.find("#row-10"))
    assert browser.run("return document.getElementById('notice').hidden") is True


def test_the_slider_and_the_keys_move_through_the_events(browser: Browser, page: str) -> None:
    fresh(browser, page)
    slider = browser.find("#slider")
    browser.keys(slider, "home")
    assert heading(browser) == "Event 1 of 10"
    browser.keys(slider, "right", "right")
    assert heading(browser) == "Event 3 of 10"
    browser.keys(slider, "left")
    assert heading(browser) == "Event 2 of 10"
    browser.keys(slider, "end")
    assert heading(browser) == "Event 10 of 10"
    # In the event list, the arrows move the selection and the focus with it.
    row = browser.find("#row-4")
    browser.click(row)
    browser.keys(row, "down")
    assert heading(browser) == "Event 5 of 10"
    assert browser.attribute(browser.active(), "id") == "row-5"
    browser.keys(browser.active(), "up", "up")
    assert heading(browser) == "Event 3 of 10"
    browser.keys(browser.active(), "end")
    assert heading(browser) == "Event 10 of 10"
    browser.keys(browser.active(), "home")
    assert heading(browser) == "Event 1 of 10"
    # The buttons.
    browser.click(browser.find("#next"))
    assert heading(browser) == "Event 2 of 10"
    browser.click(browser.find("#last"))
    assert heading(browser) == "Event 10 of 10"


def test_a_node_card_on_hover_and_on_keyboard_focus(browser: Browser, page: str) -> None:
    fresh(browser, page + "#event-8")
    card = browser.find("#card")
    assert browser.attribute(card, "hidden") is not None
    draft = browser.find("#node-0")
    browser.hover(draft)
    text = browser.text(card)
    assert "Write the report draft" in text and "Action: draft (agent" in text
    assert "Required: resources/procedure.md" in text
    assert "At event 8: completed" in text and "Settled completed" in text
    # Keyboard only: Tab from the top of the page reaches the nodes, and focus shows the card.
    browser.hover(browser.find("h1"))
    browser.open("about:blank")
    browser.open(page + "#event-8")
    visited = []
    for _ in range(40):
        browser.keys(browser.active(), "tab")
        visited.append(browser.attribute(browser.active(), "id") or browser.text(browser.active()))
        if visited[-1].startswith("node-"):
            break
    assert visited == ["Skip to the timeline", "node-0"]
    text = browser.text(browser.find("#card"))
    assert text.startswith("draft · action")
    offered = browser.find("#node-3")  # check-publication: offered at event 8
    browser.hover(offered)
    assert "Offered at this event" in browser.text(browser.find("#card"))


def test_the_print_view(browser: Browser, page: str) -> None:
    fresh(browser, page)
    pdf = base64.b64decode(browser._session("POST", "/print", {"background": True}))
    assert pdf[:5] == b"%PDF-" and len(pdf) > 10_000
    # The print style sheet hides the controls and lets the lists run in full.
    hidden = browser.run(
        "var rules = []; for (var sheet of document.styleSheets) for (var rule of sheet.cssRules)"
        " if (rule.media && rule.media.mediaText === 'print') rules.push(rule.cssText); return rules.join(' ');"
    )
    assert "#controls" in hidden and "display: none" in hidden and "max-height: none" in hidden


CONTRAST = """
function rgb(text) {
  var m = /rgba?\\(([\\d.]+), ([\\d.]+), ([\\d.]+)(?:, ([\\d.]+))?\\)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
}
function luminance(c) {
  var v = c.slice(0, 3).map(function (x) { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
function ratio(a, b) { var x = luminance(a), y = luminance(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); }
function background(node) {
  for (; node && node.nodeType === 1; node = node.parentElement) {
    var c = rgb(getComputedStyle(node).backgroundColor);
    if (c && c[3] > 0.5) return c;
  }
  return [255, 255, 255, 1];
}
var worst = [];
document.querySelectorAll('body *').forEach(function (el) {
  if (el.closest('#card') || el.closest('svg') && !el.closest('.node')) return;
  var own = Array.from(el.childNodes).some(function (n) { return n.nodeType === 3 && n.textContent.trim(); });
  if (!own || !el.getClientRects().length) return;
  var style = getComputedStyle(el), color, back;
  if (el.closest('svg')) {
    color = rgb(style.fill);
    var shape = el.closest('.node').querySelector('rect, polygon, path, ellipse');
    back = rgb(getComputedStyle(shape).fill) || [255, 255, 255, 1];
  } else {
    color = rgb(style.color);
    back = background(el);
  }
  if (!color) return;
  var r = ratio(color, back);
  if (r < 4.5) worst.push([el.tagName, (el.id || el.className.baseVal || el.className || ''), el.textContent.trim().slice(0, 30), r.toFixed(2)]);
});
return worst;
"""


def test_text_contrast_is_at_least_4_5_to_1_at_every_event(browser: Browser, page: str, run: ag.Run) -> None:
    fresh(browser, page)
    for number in range(1, len(run.events) + 1):
        browser.run("location.hash = arguments[0];", f"#event-{number}")
        assert heading(browser) == f"Event {number} of {len(run.events)}"
        assert browser.run(CONTRAST) == [], f"event {number}"


def test_a_1000_event_run_steps_through_its_page(
    browser: Browser, weekly: ag.Provider, tmp_path_factory: Any
) -> None:
    from tests.toolchain.test_replay_page import long_run

    path = tmp_path_factory.mktemp("replay-long") / "long.html"
    path.write_text(render_replay_page(weekly, long_run(weekly, 1000), layout="builtin"), "utf-8")
    fresh(browser, path.as_uri())
    assert heading(browser) == "Event 1000 of 1000"
    assert len(browser.find_all("#events tbody tr")) == 1000
    row = browser.find("#row-1000")
    browser.click(row)
    browser.keys(row, "page_up")
    assert heading(browser) == "Event 990 of 1000"
    assert browser.attribute(browser.active(), "id") == "row-990"
    browser.keys(browser.active(), "home")
    assert heading(browser) == "Event 1 of 1000"
    slider = browser.find("#slider")
    browser.keys(slider, "end")
    assert heading(browser) == "Event 1000 of 1000"


def test_the_page_of_a_run_with_many_fact_changes_shows_only_statuses_the_run_had(
    browser: Browser, weekly: ag.Provider, tmp_path: Path
) -> None:
    with ag.open_store(str(tmp_path / "runs")) as store:
        run_id, states = drive(store, weekly, seed=7, writes=80)
        run = store.load(run_id, weekly)
    path = tmp_path / "many.html"
    path.write_text(render_replay_page(weekly, run, layout="builtin"), "utf-8")
    fresh(browser, path.as_uri())
    shown: list[dict[str, str]] = browser.run(
        "var out = []; for (var n = 1; n <= arguments[0]; n++) out.push(window.replayStatus(n)); return out;",
        len(states),
    )
    rows: list[str] = browser.run(
        "return Array.from(document.querySelectorAll('#events tbody tr')).map(function (tr) {"
        " return tr.cells[7].textContent; });"
    )
    assert len(shown) == len(rows) == len(states) == len(run.events)
    for number, (statuses, row, state) in enumerate(zip(shown, rows, states, strict=True), start=1):
        evaluation = state.evaluate(weekly)
        assert statuses == expected_statuses(weekly, state), f"event {number}"
        assert row == evaluation.status_code + (f" ({evaluation.outcome})" if evaluation.outcome else "")
    # And clicking to an event far from the last keeps what the page rebuilds from its deltas.
    browser.click(browser.find("#row-70"))
    assert shown_statuses(browser) == expected_statuses(weekly, states[69])


def test_a_run_that_spells_every_placeholder_renders_whole(
    browser: Browser, weekly: ag.Provider, tmp_path: Path
) -> None:
    names = ("TITLE", "LAYOUT", "CSS", "SVG", "DATA", "JS")
    spelled = " ".join("{{" + name + "}}" for name in names)
    run = weekly_run(weekly, {"note": spelled, "half": "\ud800"})
    run = msgspec.structs.replace(run, id=f"run {spelled}")
    path = tmp_path / "placeholders.html"
    path.write_text(render_replay_page(weekly, run, layout="builtin"), "utf-8")
    fresh(browser, path.as_uri())
    assert len(browser.find_all("#events tbody tr")) == len(run.events)  # the data block is whole
    assert (
        browser.run("return document.title") == f"Run run {spelled} · report#default · examples/weekly-report"
    )
    assert spelled in browser.text(browser.find("#summary"))
    browser.click(browser.find("#row-1"))
    after = browser.run(
        "var out = {}; document.querySelectorAll('#changes tbody tr').forEach(function (tr) {"
        " var v = tr.cells[3].textContent; out[tr.cells[1].textContent] = v.length === 3 ? v.charCodeAt(1) : v; });"
        " return out;"
    )
    # Shown as the Run holds them: the placeholders as text, the lone surrogate kept (0xD800).
    assert after == {"team": '"web"', "note": json.dumps(spelled), "half": 0xD800}
