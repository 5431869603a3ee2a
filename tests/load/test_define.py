"""Providers written in Python (agent_graph.define): the same Provider whichever way it was written."""

from __future__ import annotations

import collections
import filecmp
import json
import os
import stat
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings

import agent_graph as ag
import agent_graph.define as agd
import agent_graph.types as agtypes
from agent_graph._load.define_render import _Render
from agent_graph._syntax.parse import parse_front_matter, parse_structured
from tests.conftest import REPO, VECTORS
from tests.strategies import load_files, scenarios
from tests.typecheck import assert_refused_exactly

EXAMPLES = sorted(p.parent for p in (REPO / "examples").glob("*/provider.yaml"))
HERE = Path(__file__).resolve()


def _state(case: Any) -> dict[str, Any]:
    state = case.state
    return {
        "facts": state.facts if state and state.facts is not None else {},
        "outcomes": state.outcomes if state and state.outcomes is not None else {},
        "authorities": list(state.authorities) if state and state.authorities is not None else [],
    }


def _cases(folder: Path) -> list[ag.types.TestCase]:
    from agent_graph._runtime.testing import read_test_case

    return [
        read_test_case(path.read_bytes(), str(path)) for path in sorted((folder / "tests").glob("*.yaml"))
    ]


def _revisions(provider: ag.Provider) -> dict[tuple[str, str], str]:
    return {
        (graph_id, entry): ag.evaluate(provider, graph_id, entry).revision
        for graph_id, graph in provider.graphs.items()
        for entry in graph.definition.entrypoints
    }


def _plan(route: ag.Route) -> dict[str, Any]:
    """What a host does with a route: the command plan, the resources by ID, the Gate, what to record."""
    gate = route.gate
    return {
        "graph": route.graph,
        "node": route.node,
        "status": route.status_code,
        "reason": route.reason_code,
        "availability": route.availability,
        "callPath": route.call_path,
        "action": (route.action.id, route.action.runner, route.action.effect) if route.action else None,
        "commandPlan": msgspec.to_builtins(route.command_plan),
        "required": [location.id for location in route.resources.required],
        "recommended": [location.id for location in route.resources.recommended],
        "gate": (gate.id, gate.prompt, gate.authority, gate.delegatable, gate.resolution) if gate else None,
        "record": route.after_action.record_node,
    }


# ---------------------------------------------------------------- the weekly report, in Python


def test_the_weekly_report_fixture_is_at_most_15_lines() -> None:
    source = (HERE.parents[1] / "weekly_report.py").read_text(encoding="utf-8")
    assert len([line for line in source.splitlines() if line.strip()]) <= 15


def test_the_weekly_report_fixture_answers_as_the_example_at_every_state_of_its_tests() -> None:
    from tests import weekly_report

    folder = REPO / "examples" / "weekly-report"
    example = ag.load_provider(str(folder / "provider.yaml"))
    built = weekly_report.g.provider.load(root=str(folder))
    assert built.digest != example.digest  # other bytes: the revisions differ, nothing else
    cases = _cases(folder)
    assert len(cases) == 11
    for case in cases:
        state = _state(case)
        mine = ag.evaluate(built, case.graph, case.entry, **state)
        theirs = ag.evaluate(example, case.graph, case.entry, **state)
        assert mine.revision != theirs.revision
        assert (mine.status_code, mine.outcome) == (theirs.status_code, theirs.outcome), case.name
        assert [d.code for d in mine.diagnostics] == [d.code for d in theirs.diagnostics], case.name
        ours = [mine.primary_route, *mine.alternative_routes]
        expected = [theirs.primary_route, *theirs.alternative_routes]
        assert [(r.node, r.reason_code, r.availability) for r in ours if r] == [
            (r.node, r.reason_code, r.availability) for r in expected if r
        ], case.name
        if theirs.primary_route is not None:
            assert mine.primary_route is not None
            plans = [
                _plan(ag.route(p, case.graph, case.entry, e.primary_route.route_id, workspace="/w", **state))
                for p, e in ((built, mine), (example, theirs))
                if e.primary_route is not None
            ]
            assert plans[0] == plans[1], case.name
    results = ag.run_graph_tests(built, str(folder / "tests"), fs=ag.OSFileSystem())
    assert [r.failures for r in results if not r.passed] == []


# ---------------------------------------------------------------- YAML → Python → YAML


@pytest.mark.parametrize("folder", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_round_trips_to_identical_revisions(folder: Path, tmp_path: Path) -> None:
    provider = ag.load_provider(str(folder / "provider.yaml"))
    builder = agd.from_provider(provider)
    in_memory = builder.load(root=provider.root)
    assert in_memory.digest == provider.digest
    assert _revisions(in_memory) == _revisions(provider)
    builder.write(tmp_path / "out")
    written = ag.load_provider(str(tmp_path / "out" / "provider.yaml"))
    assert _revisions(written) == _revisions(provider)
    # The folder comes back whole: graph tests, entry Skills, README and scripts included, modes too.
    compared = filecmp.dircmp(folder, tmp_path / "out")
    assert (compared.left_only, compared.right_only, compared.diff_files) == ([], [], [])
    for path in folder.rglob("*"):
        if path.is_file():
            copy = tmp_path / "out" / path.relative_to(folder)
            assert copy.read_bytes() == path.read_bytes()
            assert (copy.stat().st_mode & 0o100) == (path.stat().st_mode & 0o100), path


@pytest.mark.parametrize("folder", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_written_fresh_passes_its_graph_tests(folder: Path) -> None:
    """Every file written anew from the objects alone: the same answers (the tests compare no revision)."""
    provider = ag.load_provider(str(folder / "provider.yaml"))
    fresh = agd.from_provider(provider).load(root=provider.root, fresh=True)
    assert fresh.digest != provider.digest
    results = ag.run_graph_tests(fresh, str(folder / "tests"), fs=ag.OSFileSystem())
    assert results and [r.failures for r in results if not r.passed] == []


def _normal(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items() if k not in ("revision", "routeId", "digest")}
    if isinstance(value, (list, tuple)):
        return [_normal(v) for v in value]
    return value


def _evaluation(evaluation: ag.Evaluation) -> dict[str, Any]:
    """An evaluation without revisions; candidates as a set (equal ones are ordered by route ID, a digest)."""
    value = _normal(msgspec.to_builtins(evaluation))
    routes = ([value.pop("primaryRoute")] if "primaryRoute" in value else []) + value.pop("alternativeRoutes")
    if not any(d["code"] == "route-alternatives-truncated" for d in value["diagnostics"]):
        value["routes"] = sorted(json.dumps(r, sort_keys=True) for r in routes)
    return value


@pytest.mark.skipif(
    not (VECTORS / "cases.json").is_file(), reason=f"toolchain vectors not found at {VECTORS}"
)
def test_the_vector_providers_written_fresh_answer_the_same() -> None:
    """Every recorded state of every loadable vector Provider, against the Provider rebuilt from its objects."""
    by_manifest: dict[str, list[Any]] = collections.defaultdict(list)
    for case in json.loads((VECTORS / "cases.json").read_text(encoding="utf-8")):
        if "load" not in case:
            by_manifest[case["manifest"]].append(case)
    compared = 0
    for manifest, cases in by_manifest.items():
        provider = ag.load_provider(str(VECTORS / manifest))
        fresh = agd.from_provider(provider).load(root=provider.root, fresh=True)
        assert fresh.digest != provider.digest
        for case in cases:
            state = {
                k: case["state"].get(k, d) for k, d in (("facts", {}), ("outcomes", {}), ("authorities", []))
            }
            theirs = ag.evaluate(provider, case["graph"], case["entry"], **state)
            mine = ag.evaluate(fresh, case["graph"], case["entry"], **state)
            assert _evaluation(mine) == _evaluation(theirs), (manifest, case["graph"])
            if theirs.primary_route is None:
                continue
            node = theirs.primary_route.node, theirs.primary_route.graph
            same = [
                r for r in (mine.primary_route, *mine.alternative_routes) if r and (r.node, r.graph) == node
            ]
            if same:
                routes = [
                    _normal(
                        msgspec.to_builtins(
                            ag.route(p, case["graph"], case["entry"], i, workspace="/w", **state)
                        )
                    )
                    for p, i in ((provider, theirs.primary_route.route_id), (fresh, same[0].route_id))
                ]
                assert routes[0] == routes[1], (manifest, case["graph"])
                compared += 1
    assert compared > 100


def test_a_changed_object_rewrites_only_its_file(tmp_path: Path) -> None:
    folder = REPO / "examples" / "weekly-report"
    provider = ag.load_provider(str(folder / "provider.yaml"))
    builder = agd.from_provider(provider)
    before = builder.files()
    draft = builder.graphs["report"].node("draft")
    assert isinstance(draft, agd.ActionNode)
    draft.description = "Write this week's report"
    after = builder.files()
    changed = sorted(path for path in before if before[path] != after[path])
    assert changed == ["graphs/report.yaml"]
    assert "description: Write this week's report" in after["graphs/report.yaml"].decode()
    loaded = builder.load()
    assert loaded.graphs["report"].definition.nodes[0].description == "Write this week's report"
    # The Action file is another file: changing the Action rewrites it alone.
    draft.action.description = "Draft it"
    again = builder.files()
    assert sorted(p for p in before if before[p] != again[p]) == ["actions/draft.yaml", "graphs/report.yaml"]


# ---------------------------------------------------------------- stable bytes, values the loader takes as written


def _every_kind() -> agd.ProviderBuilder:
    p = agd.provider(
        "acme/every-kind", "1.2.3", name="Every kind", description="One of each.", agent_graph="^0.3.0"
    )
    procedure = agd.markdown("procedure.main", "procedure", "# Do it\n", media_type="text/markdown")
    checklist = agd.file_resource(
        "schema.checklist",
        "schema",
        "application/schema+json",
        agd.file("resources/checklist.schema.json", '{"type": "object"}\n'),
        description="What a checklist holds.",
    )
    status = agd.graph_action_resource(
        "context.status",
        agd.command("cat status.json", effect="read", id="read-status"),
        description="The status, read when a route needs it.",
    )
    timeline_request = agd.json_schema(
        {"$schema": "http://json-schema.org/draft-07/schema#", "$id": "acme.request/v1", "type": "object"}
    )
    timeline = agd.host_action_resource(
        "context.timeline",
        agd.host(
            "acme.timeline",
            effect="read",
            id="fetch-timeline",
            input_schema=timeline_request,
            output_schema={"$id": "acme.timeline/v1", "type": "object"},
        ),
        {"incident": "INC-1"},
    )
    p.code("route.main.work", "Work is due.", document=procedure)
    p.code("route.main.review", "A review is due.")
    p.code("route.child.step", "The child's step.")
    p.code("acme.slow", "Slow.", kind="diagnostic", severity="warning")
    tool = agd.file("scripts/tool.py", "print('ok')\n", executable=True)
    child = p.graph("child", description="A called Graph.")
    step = child.action(
        "step", agd.script(tool, runtime="python", effect="write", args=["--fast", "a b"]), priority=3
    )
    step.to(child.terminal("end", "completed"))
    g = p.graph("main")
    writer = agd.skill("writer", "Writes.", "# Writer\n", files={"reference.md": "# More\n"})
    work = g.action(
        "work",
        agd.agent(writer, effect="write", output_schema={"type": "object"}),
        required=[procedure, status, timeline],
        recommended=[checklist],
        proof=[agd.exists("work.digest"), agd.equals("work.ok", True), agd.equals("work.none", None)],
        requires_facts={"sources.registered": True},
    )
    review = g.gate(
        "review",
        agd.gate("review", "Accept the work?", authority="review.accept", delegatable=True),
        inspection=agd.command("git diff", effect="read", id="inspect"),
        resolution=agd.host("review.record", effect="write", id="record"),
        delegated=agd.delegated(
            inspection="skip", resolution=agd.host("review.accept", effect="write", id="accept"), required=[]
        ),
        proof=agd.exists("review.accepted"),
    )
    call = g.subgraph("call", child, join="any", priority=2)
    done = g.terminal("done", join="any", description="Done.")
    failed = g.terminal("failed", "failed", requires_facts={"work.ok": False})
    work.to(work, kind="repeat", on="partial")
    work.to(review, kind="consumes").to(call, kind="gatedBy").to(done)
    g.edge(review, failed, on=["failed", "skipped"])
    g.edge("call", "failed", kind="requires", on="failed")
    g.entry(work)
    g.entry("call", "child-only")
    p.file("README.md", "# Every kind\n")
    return p


def test_every_construct_loads_and_reads_back_as_written() -> None:
    p = _every_kind()
    provider = p.load()
    assert set(provider.graphs) == {"child", "main"}
    rendered = _Render(p).run()
    assert rendered.seeds, "the loader is handed the values it would parse"
    for path, data in rendered.files.items():
        for front, seed in ((False, rendered.seeds.get(f"False{ag.digest_bytes(data)}")), (True, None)):
            if seed is None:
                continue
            parsed = parse_structured(data, path)
            assert json.dumps(parsed) == json.dumps(seed), path  # same values, same types, same key order
            del front
    for path, data in rendered.files.items():
        header = rendered.seeds.get(f"True{ag.digest_bytes(data)}")
        if header is not None:
            assert json.dumps(parse_front_matter(data.decode(), path)[0]) == json.dumps(header)
    # The same objects give the same bytes; a builder read back from them gives them again.
    assert p.files() == rendered.files
    assert agd.from_provider(provider).files(fresh=True) == rendered.files


def test_what_the_builder_writes_is_what_it_loads(tmp_path: Path) -> None:
    p = _every_kind()
    written = p.write(tmp_path / "out")
    assert sorted(os.path.relpath(w, tmp_path / "out") for w in written) == sorted(p.files())
    loaded = ag.load_provider(str(tmp_path / "out" / "provider.yaml"))
    assert _revisions(loaded) == _revisions(p.load(root=str(tmp_path / "out")))
    assert (tmp_path / "out" / "scripts" / "tool.py").stat().st_mode & stat.S_IXUSR
    evaluation = ag.evaluate(loaded, "main", facts={"sources": {"registered": True}})
    assert evaluation.primary_route is not None and evaluation.primary_route.node == "work"
    # Writing again changes nothing; other content is refused unless replace=True.
    assert p.write(tmp_path / "out") == []
    (tmp_path / "out" / "README.md").write_text("changed\n")
    with pytest.raises(ag.AgentGraphError) as refused:
        p.write(tmp_path / "out")
    assert refused.value.code == "file-exists"
    assert (tmp_path / "out" / "README.md").read_text() == "changed\n"
    assert p.write(tmp_path / "out", replace=True) == [str(tmp_path / "out" / "README.md")]


# ---------------------------------------------------------------- mistakes, where the user wrote them


def _line_of(text: str) -> int:
    source = HERE.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(source, 1) if text in line)


def _located(error: ag.AgentGraphError, marker: str) -> None:
    line = _line_of(marker)
    assert error.message.startswith(f"{os.path.relpath(HERE)}:{line}: "), error.message
    assert any(d.path == str(HERE) and d.detail["line"] == line for d in error.diagnostics), error.diagnostics


def test_a_wrong_node_name_fails_at_the_users_line() -> None:
    p = agd.provider("demo")
    g = p.graph("main")
    g.action("work", agd.command("make", effect="write")).to(g.terminal("done"))
    g.edge("work", "dnoe")  # marker: wrong node name
    with pytest.raises(ag.AgentGraphError) as raised:
        p.load()
    assert raised.value.code == "graph-edge-node-missing"
    assert "dnoe names no node of Graph main (did you mean done?)" in raised.value.message
    _located(raised.value, "# marker: wrong node name")


def test_a_node_of_another_graph_fails_at_once() -> None:
    p = agd.provider("demo")
    first, second = p.graph("first"), p.graph("second")
    work = first.action("work", agd.command("make", effect="write"))
    with pytest.raises(ag.AgentGraphError) as raised:
        second.edge(work, second.terminal("done"))  # marker: other graph
    assert raised.value.code == "graph-edge-node-missing"
    _located(raised.value, "# marker: other graph")


def test_what_the_loader_refuses_is_placed_at_the_declaration() -> None:
    p = agd.provider("demo")
    g = p.graph("main")
    work = g.action("Work", agd.command("make", effect="write"))  # marker: bad id
    work.to(g.terminal("done"))
    with pytest.raises(ag.AgentGraphError) as raised:
        p.load()
    assert raised.value.code == "schema-invalid"
    line = _line_of("# marker: bad id")
    placed = [d for d in raised.value.diagnostics if d.detail and d.detail.get("pointer") == "/nodes/0/id"]
    assert placed and placed[0].path == str(HERE) and placed[0].detail["line"] == line
    assert placed[0].message.startswith(f'{os.path.relpath(HERE)}:{line}: node Work: id is "Work"')


def test_a_flow_cycle_and_a_missing_reason_code_are_placed_at_their_lines() -> None:
    p = agd.provider("demo")
    g = p.graph("main")
    a = g.action("a", agd.command("make a", effect="write"))
    b = g.action("b", agd.command("make b", effect="write"))
    a.to(b)
    b.to(a)  # marker: cycle
    b.to(g.terminal("done"))
    with pytest.raises(ag.AgentGraphError) as raised:
        p.load()
    assert raised.value.code == "graph-flow-cycle" and "use a repeat edge" in raised.value.message
    _located(raised.value, "# marker: cycle")
    p = agd.provider("demo")
    p.code("route.main.a", "A is due.")
    g = p.graph("main")
    g.action("a", agd.command("make a", effect="write")).to(
        g.action("b", agd.command("make b", effect="write"))  # marker: uncatalogued
    ).to(g.terminal("done"))
    with pytest.raises(ag.AgentGraphError) as raised:
        p.load()
    assert raised.value.code == "route-reason-code-missing"
    _located(raised.value, "# marker: uncatalogued")


def test_misuse_is_refused_where_it_happens() -> None:
    p = agd.provider("demo")
    g = p.graph("main")
    work = g.action("work", agd.command("make", effect="write"))
    done = g.terminal("done")
    refusals: list[tuple[str, Any]] = [
        ("graph-node-duplicate", lambda: g.terminal("done")),
        ("graph-terminal-edge-invalid", lambda: g.edge(done, work)),  # type: ignore[call-overload]
        ("graph-gated-by-source-invalid", lambda: g.edge(work, done, kind="gatedBy")),  # type: ignore[call-overload]
        ("graph-repeat-target-invalid", lambda: g.edge(work, done, kind="repeat")),  # type: ignore[call-overload]
        ("outcome-invalid", lambda: g.edge(work, done, on="done")),  # type: ignore[arg-type]
        ("schema-invalid", lambda: g.edge(work, done, kind="flows")),  # type: ignore[call-overload]
        ("graph-id-duplicate", lambda: p.graph("main")),
        ("argument-invalid", lambda: g.action("x", "make")),  # type: ignore[arg-type]
        ("absolute-path-forbidden", lambda: agd.file("/etc/passwd", "")),
        ("path-outside-provider", lambda: agd.file("../x", "")),
    ]
    for code, call in refusals:
        with pytest.raises(ag.AgentGraphError) as raised:
            call()
        assert raised.value.code == code
        assert raised.value.message.startswith(os.path.relpath(HERE) + ":"), raised.value.message
    assert len(g.edges) == 0 and list(g.nodes) == ["work", "done"]


def test_two_objects_for_one_path_or_one_id_are_refused() -> None:
    p = agd.provider("demo")
    g = p.graph("main")
    g.action("a", agd.command("make a", effect="write", id="same")).to(
        g.action("b", agd.command("make b", effect="write", id="same"))  # marker: same action id
    ).to(g.terminal("done"))
    with pytest.raises(ag.AgentGraphError) as raised:
        p.load()
    assert raised.value.code == "action-id-duplicate"
    _located(raised.value, "# marker: same action id")
    p = agd.provider("demo")
    g = p.graph("main")
    first = agd.markdown("doc.a", "procedure", "A", path="resources/doc.md")
    second = agd.markdown("doc.b", "procedure", "B", path="resources/doc.md")  # marker: same path
    g.action("a", agd.command("make", effect="write"), required=[first, second]).to(g.terminal("done"))
    with pytest.raises(ag.AgentGraphError) as raised:
        p.load()
    assert raised.value.code == "file-path-conflict"
    _located(raised.value, "# marker: same path")
    p = agd.provider("demo")
    g = p.graph("main")
    first = agd.markdown("doc", "procedure", "A", path="resources/a.md")
    second = agd.markdown("doc", "procedure", "B", path="resources/b.md")  # marker: same resource id
    g.action("a", agd.command("make", effect="write"), required=[first, second]).to(g.terminal("done"))
    with pytest.raises(ag.AgentGraphError) as raised:
        p.load()
    assert raised.value.code == "resource-id-duplicate"
    assert "Two different resources have the ID doc (first declared at " in raised.value.message
    _located(raised.value, "# marker: same resource id")


def test_a_file_named_by_path_must_be_declared() -> None:
    p = agd.provider("demo")
    g = p.graph("main")
    run = agd.command("./run.sh", effect="write", cwd="provider", files=["run.sh"])  # marker: undeclared
    g.action("a", run).to(g.terminal("done"))
    with pytest.raises(ag.AgentGraphError) as raised:
        p.load()
    assert raised.value.code == "file-missing"
    _located(raised.value, "# marker: undeclared")
    p.file("run.sh", "#!/bin/sh\n", executable=True)
    assert p.load().graphs["main"].id == "main"


# ---------------------------------------------------------------- the type checker refuses mistakes


_GOOD = """
import agent_graph as ag
import agent_graph.define as agd
import agent_graph.types as agtypes

p = agd.provider("acme/typed")
g = p.graph("main")
work = g.action("work", agd.command("make", effect="write"), proof="work.digest")
review = g.gate("review", agd.gate("review", "OK?"))
work.to(work, kind="repeat", on=["partial", "failed"])
work.to(review).to(g.terminal("done"), kind="gatedBy")
provider: ag.Provider = p.load()
"""

_BAD = {
    'work.to(work, kind="repeat", on="done")': "on",
    'g.action("x", agd.command("make", effect="writes"))': "effect",
    'work.to(review, kind="gatedBy")': "gatedBy",
    'work.to(g.terminal("end"), kind="repeat")': "repeat",
    'g.terminal("end").to(work)': "to",
    'g.terminal("end", "done")': "outcome",
    'agd.script("x.sh", runtime="ruby", effect="read")': "runtime",
}


@pytest.mark.slow
def test_mypy_strict_refuses_a_misspelled_outcome_in_a_users_file(tmp_path: Path) -> None:
    assert_refused_exactly(_GOOD, _BAD, tmp_path)


def test_an_entry_skill_is_bound_to_its_graph_and_entry(tmp_path: Path) -> None:
    p = agd.provider("demo")
    g = p.graph("main")
    g.action("work", agd.command("make", effect="write")).to(g.terminal("done"))
    p.bind(agd.skill("demo", "Do the demo.", "\nEvaluate, route, record.\n"), g)
    p.write(tmp_path)
    binding = ag.resolve_skill_binding(str(tmp_path / "skills" / "demo" / "SKILL.md"))
    assert (binding.graph, binding.entry, binding.provider) == ("main", "default", "demo")
    p.bind(agd.skill("other", "Elsewhere."), "main", "review")  # marker: missing entry
    with pytest.raises(ag.AgentGraphError) as raised:
        p.load()
    assert raised.value.code == "skill-entry-missing"
    _located(raised.value, "# marker: missing entry")


@settings(max_examples=40, deadline=None)
@given(scenarios(hostile=False))
def test_any_provider_rebuilt_from_its_objects_answers_the_same(
    scenario: tuple[dict[str, str | bytes], dict[str, Any], dict[str, Any], list[str], str],
) -> None:
    """Generated Providers and states: from_provider, written fresh, and the exported Python agree."""
    from agent_graph._toolchain.export_python import python_source

    files, facts, outcomes, authorities, entry = scenario
    provider = load_files(files)
    fresh = agd.from_provider(provider).load(root=provider.root, fresh=True)
    namespace: dict[str, Any] = {}
    exec(compile(python_source(provider), "exported.py", "exec"), namespace)
    exported = namespace["p"].load(root=provider.root)
    state = {"facts": facts, "outcomes": outcomes, "authorities": authorities}
    for graph in provider.graphs:
        answers = []
        for loaded in (provider, fresh, exported):
            try:
                answers.append(_evaluation(ag.evaluate(loaded, graph, entry, **state)))
            except ag.AgentGraphError as error:
                answers.append({"error": error.code})
        assert answers[0] == answers[1] == answers[2]


def test_nothing_is_written_outside_the_folder(tmp_path: Path) -> None:
    p = agd.provider("demo")
    g = p.graph("main")
    work = agd.command("make", effect="write")
    g.action("work", work).to(g.terminal("done"))
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "actions").symlink_to(outside)
    with pytest.raises(ag.AgentGraphError) as raised:
        p.write(tmp_path / "out")
    assert raised.value.code == "path-symlink-outside-provider"
    assert list(outside.iterdir()) == [] and sorted(x.name for x in (tmp_path / "out").iterdir()) == [
        "actions"
    ]
    work.path = "../escape.yaml"  # a path changed after the declaration is checked again
    with pytest.raises(ag.AgentGraphError) as raised:
        p.files()
    assert raised.value.code == "path-outside-provider"


def test_the_loaded_provider_shares_nothing_mutable_with_the_builder() -> None:
    value: dict[str, Any] = {"incident": "INC-1", "tags": ["a"]}
    request = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "acme.request/v1",
        "type": "object",
    }
    timeline = agd.host_action_resource(
        "context.timeline",
        agd.host("acme.timeline", effect="read", input_schema=request, output_schema={"$id": "acme.out/v1"}),
        value,
    )
    p = agd.provider("demo")
    g = p.graph("main")
    g.action("work", agd.command("make", effect="write"), required=[timeline]).to(g.terminal("done"))
    provider = p.load()
    value["tags"].append("changed")  # the user's data changes after the load
    request["type"] = "array"
    route = ag.route(provider, "main")
    location = route.resources.required[0]
    assert isinstance(location, agtypes.HostActionLocation)
    assert location.materialize.input.value == {"incident": "INC-1", "tags": ["a"]}
