"""Properties of evaluation, routing, parsing and loading over generated Providers and hostile input.

* Evaluation is deterministic: same input, same revision, routes and order.
* The revision changes when any Fact, Outcome or authority changes, and not
  when object key order, authority order or duplicates, or the parts of an
  outcome record other than ``outcome`` change.
* Every route an evaluation offers (primary, alternatives, and every
  candidate) resolves at its revision and raises ``route-revision-stale`` at
  any other.
* A recorded ``completed`` without the satisfying Facts is never taken as
  completed; satisfying Facts win over any recorded outcome.
* Nothing raises anything but :class:`AgentGraphError`: not evaluation or
  routing with hostile values, not parsing random or mangled text, not loading
  a Provider with one file mangled, not reading a mangled Run, not checking a
  junk host-action result.

Settings are fast in the normal suite (``derandomize``: the same examples each
run). ``python -m fuzz`` runs these same properties at scale with random seeds:
it sets ``AGENT_GRAPH_FUZZ=1`` and ``AGENT_GRAPH_EXAMPLES`` before importing.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, assume, example, given, settings, strategies as st

import agent_graph as ag
from agent_graph._core.evaluate import evaluate_with_candidates
from agent_graph._core.facts import facts_match
from agent_graph._core.ir import EQUALS, EXISTS
from agent_graph._runtime.host_action import validate_host_action_result
from agent_graph._runtime.runs import FileRunStore
from agent_graph._syntax import schema as _schema
from agent_graph._syntax.parse import parse_json, parse_structured, parse_yaml
from tests import load_fixtures, strategies as S

FUZZING = os.environ.get("AGENT_GRAPH_FUZZ") == "1"
EXAMPLES = int(os.environ.get("AGENT_GRAPH_EXAMPLES", "100"))

PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not FUZZING,
    database=None,
    print_blob=FUZZING,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
#: For the costlier properties (loading a whole Provider per example).
HEAVY = settings(PROPERTY, max_examples=max(EXAMPLES // 2, 10))

WORKSPACE = "/workspace"
OTHER_REVISION = "sha256:" + "0" * 64


@contextlib.contextmanager
def only_agent_graph_errors() -> Iterator[None]:
    """Let an AgentGraphError pass silently; anything else fails the property."""
    try:
        yield
    except ag.AgentGraphError as error:
        assert error.code != "internal-error"
        assert isinstance(error.message, str)
        json.dumps(error.to_envelope(), ensure_ascii=False)


def shape(provider: ag.Provider, scenario: tuple[Any, ...], **changes: Any) -> tuple[Any, ...]:
    """What an evaluation says, without its revision and route IDs (which follow from the revision).

    Candidates are compared as a set: those of equal rank are ordered by route ID, which changes
    with the revision.
    """
    _files, facts, outcomes, authorities, entry = scenario
    arguments = {"facts": facts, "outcomes": outcomes, "authorities": authorities, **changes}
    evaluation, candidates = evaluate_with_candidates(
        provider, S.MAIN, entry, arguments["facts"], arguments["outcomes"], arguments["authorities"]
    )
    return (
        evaluation.status_code,
        evaluation.outcome,
        sorted(
            (c.graph.id, c.node.id, c.call_path, c.status_code, c.availability, c.resolution or "")
            for c in candidates
        ),
        tuple((d.code, d.severity) for d in evaluation.diagnostics),
    )


def evaluate(provider: ag.Provider, scenario: tuple[Any, ...], **changes: Any) -> ag.Evaluation:
    _files, facts, outcomes, authorities, entry = scenario
    arguments = {"facts": facts, "outcomes": outcomes, "authorities": authorities, **changes}
    return ag.evaluate(provider, S.MAIN, entry, **arguments)


# ------------------------------------------------------------------ determinism


@PROPERTY
@given(S.scenarios())
@pytest.mark.slow
def test_evaluation_is_deterministic(scenario: tuple[Any, ...]) -> None:
    files = scenario[0]
    first = evaluate(S.load_files(files), scenario)
    again = evaluate(S.load_files(files), scenario)
    assert msgspec.json.encode(first) == msgspec.json.encode(again)
    _schema.validate("evaluation", first.to_json(), "evaluation")


@PROPERTY
@given(S.scenarios())
def test_routes_are_ranked_and_listed_as_specified(scenario: tuple[Any, ...]) -> None:
    provider = S.load_files(scenario[0])
    _files, facts, outcomes, authorities, entry = scenario
    evaluation, candidates = evaluate_with_candidates(provider, S.MAIN, entry, facts, outcomes, authorities)
    ranks = [(0 if c.availability == "immediate" else 1, -c.node.priority, c.route_id) for c in candidates]
    assert ranks == sorted(ranks)
    listed = ([evaluation.primary_route] if evaluation.primary_route else []) + list(
        evaluation.alternative_routes
    )
    assert [r.route_id for r in listed] == [c.route_id for c in candidates[:4]]
    assert len({c.route_id for c in candidates}) == len(candidates)
    truncated = [d for d in evaluation.diagnostics if d.code == "route-alternatives-truncated"]
    assert bool(truncated) == (len(candidates) > 4)
    if evaluation.status_code == "complete":
        assert evaluation.outcome is not None and not candidates
    elif candidates:
        immediate = any(c.availability == "immediate" for c in candidates)
        assert evaluation.status_code == ("actionable" if immediate else "waiting-user")


# ------------------------------------------------------------------ the revision


@PROPERTY
@given(S.scenarios(), st.integers(0, 50))
@pytest.mark.slow
def test_revision_ignores_key_order_authority_order_and_record_details(
    scenario: tuple[Any, ...], seed: int
) -> None:
    provider = S.load_files(scenario[0])
    _files, facts, outcomes, authorities, _entry = scenario
    # Keys equal under collation (they differ only in ignorable characters, such as "" and "\x1f")
    # keep their insertion order, as JavaScript's stable sort with localeCompare keeps it.
    assume(not S.has_collation_ties(facts))
    base = evaluate(provider, scenario)
    plain = {
        key: value["outcome"] if isinstance(value, dict) else value
        for key, value in reversed(list(outcomes.items()))
    }
    recorded = {
        key: {"outcome": value, "recordedAt": "2020-02-02T00:00:00.000Z", "detail": {"seed": seed}}
        for key, value in plain.items()
    }
    shuffled_authorities = list(reversed(authorities)) + authorities[: seed % (len(authorities) + 1)]
    for changes in (
        {"facts": S.reorder_keys(facts, seed)},
        {"outcomes": plain},
        {"outcomes": recorded},
        {"authorities": shuffled_authorities},
        {"authorities": tuple(authorities) * 2},
    ):
        other = evaluate(provider, scenario, **changes)
        assert other.revision == base.revision, changes
        assert msgspec.json.encode(other) == msgspec.json.encode(base)


@PROPERTY
@given(S.scenarios(), st.data())
@pytest.mark.slow
def test_revision_changes_with_any_fact_outcome_or_authority(
    scenario: tuple[Any, ...], data: st.DataObject
) -> None:
    provider = S.load_files(scenario[0])
    _files, facts, outcomes, authorities, _entry = scenario
    base = evaluate(provider, scenario).revision
    changed: list[dict[str, Any]] = [
        {"facts": {**facts, S.fresh_text(facts, "new-fact-"): True}},
        {"outcomes": {**outcomes, S.fresh_text(outcomes, "main/new-"): "completed"}},
        {"authorities": [*authorities, S.fresh_text(authorities, "authority-")]},
    ]
    if facts:
        key = data.draw(st.sampled_from(sorted(facts)))
        changed.append({"facts": {**facts, key: S.fresh_text([facts[key]], "changed-")}})
        changed.append({"facts": {k: v for k, v in facts.items() if k != key}})
    if outcomes:
        key = data.draw(st.sampled_from(sorted(outcomes)))
        current = outcomes[key]["outcome"] if isinstance(outcomes[key], dict) else outcomes[key]
        replacement = data.draw(st.sampled_from([o for o in S.OUTCOMES if o != current]))
        changed.append({"outcomes": {**outcomes, key: replacement}})
        changed.append({"outcomes": {k: v for k, v in outcomes.items() if k != key}})
    if authorities:
        gone = data.draw(st.sampled_from(authorities))
        changed.append({"authorities": [a for a in authorities if a != gone]})
    for changes in changed:
        assert evaluate(provider, scenario, **changes).revision != base, changes


# ------------------------------------------------------------------ routes


@PROPERTY
@given(S.scenarios())
@pytest.mark.slow
def test_every_offered_route_resolves_at_its_revision_and_no_other(scenario: tuple[Any, ...]) -> None:
    provider = S.load_files(scenario[0])
    _files, facts, outcomes, authorities, entry = scenario
    evaluation, candidates = evaluate_with_candidates(provider, S.MAIN, entry, facts, outcomes, authorities)
    state = {"facts": facts, "outcomes": outcomes, "authorities": authorities}
    for candidate in candidates:
        route = ag.route(
            provider,
            S.MAIN,
            entry,
            candidate.route_id,
            revision=evaluation.revision,
            workspace=WORKSPACE,
            **state,
        )
        assert route.route_id == candidate.route_id
        assert route.revision == evaluation.revision
        assert (route.graph, route.node, route.call_path) == (
            candidate.graph.id,
            candidate.node.id,
            candidate.call_path,
        )
        assert route.after_action.record_node == candidate.state_key
        assert route.diagnostics == ()
        _schema.validate("route", route.to_json(), "route")
        with pytest.raises(ag.AgentGraphError) as stale:
            ag.route(
                provider,
                S.MAIN,
                entry,
                candidate.route_id,
                revision=OTHER_REVISION,
                workspace=WORKSPACE,
                **state,
            )
        assert stale.value.code == "route-revision-stale"
    if evaluation.primary_route is not None:
        primary = ag.route(
            provider, S.MAIN, entry, None, revision=evaluation.revision, workspace=WORKSPACE, **state
        )
        assert primary.route_id == evaluation.primary_route.route_id
    else:
        with pytest.raises(ag.AgentGraphError) as none_left:
            ag.route(provider, S.MAIN, entry, None, workspace=WORKSPACE, **state)
        assert none_left.value.code == "route-unavailable"
    with pytest.raises(ag.AgentGraphError) as unknown:
        ag.route(provider, S.MAIN, entry, "route:00000000000000000000", workspace=WORKSPACE, **state)
    assert unknown.value.code == "route-stale"


@PROPERTY
@given(S.scenarios())
@pytest.mark.slow
def test_a_route_of_an_earlier_state_is_stale_after_recording(scenario: tuple[Any, ...]) -> None:
    provider = S.load_files(scenario[0])
    _files, facts, outcomes, authorities, entry = scenario
    before = evaluate(provider, scenario)
    if before.primary_route is None:
        return
    route = ag.route(
        provider,
        S.MAIN,
        entry,
        before.primary_route.route_id,
        revision=before.revision,
        facts=facts,
        outcomes=outcomes,
        authorities=authorities,
        workspace=WORKSPACE,
    )
    key = route.after_action.record_node
    current = outcomes.get(key)
    if isinstance(current, dict):
        current = current["outcome"]
    recorded = {**outcomes, key: "failed" if current == "completed" else "completed"}
    with pytest.raises(ag.AgentGraphError) as stale:
        ag.route(
            provider,
            S.MAIN,
            entry,
            route.route_id,
            revision=before.revision,
            facts=facts,
            outcomes=recorded,
            authorities=authorities,
            workspace=WORKSPACE,
        )
    assert stale.value.code == "route-revision-stale"


# ------------------------------------------------------------------ recorded outcomes and Facts


def _satisfied_by_nodes(provider: ag.Provider) -> list[tuple[str, Any]]:
    """``(state key, compiled node)`` for every node with ``satisfiedBy`` in main and its Subgraph calls."""
    found = []
    main = provider.graphs[S.MAIN]
    for node in main.nodes:
        if node.satisfied is not None:
            found.append((f"{S.MAIN}/{node.id}", node))
        if node.is_subgraph and node.child_graph in provider.graphs:
            for inner in provider.graphs[node.child_graph].nodes:
                if inner.satisfied is not None:
                    found.append((f"{S.MAIN}/{node.id}>{node.child_graph}/{inner.id}", inner))
    return found


@PROPERTY
@given(S.scenarios(hostile=False))
@pytest.mark.slow
def test_recorded_completed_without_its_facts_is_never_completed(scenario: tuple[Any, ...]) -> None:
    provider = S.load_files(scenario[0])
    facts, outcomes = scenario[1], scenario[2]
    unmet = [key for key, node in _satisfied_by_nodes(provider) if not facts_match(facts, node.satisfied)]
    assume(unmet)
    for key in unmet:
        claimed = shape(provider, scenario, outcomes={**outcomes, key: "completed"})
        assert claimed == shape(provider, scenario, outcomes={**outcomes, key: "unverified"})
    claimed_all = shape(provider, scenario, outcomes={**outcomes, **{key: "completed" for key in unmet}})
    assert claimed_all == shape(
        provider, scenario, outcomes={**outcomes, **{key: "unverified" for key in unmet}}
    )


def _satisfying(facts: dict[str, Any], node: Any) -> dict[str, Any]:
    """``facts`` changed so that ``node``'s ``satisfiedBy`` checks pass where they can."""
    changed = S.copy_json(facts)
    for check in node.satisfied:
        path = ".".join(check.segments)
        if check.mode == EQUALS:
            S.put_fact(changed, path, check.value)
        elif check.mode == EXISTS:
            S.put_fact(changed, path, True)
    return changed


@PROPERTY
@given(S.scenarios(hostile=False), st.sampled_from(S.OUTCOMES), st.integers(0, 20))
@pytest.mark.slow
def test_satisfying_facts_win_over_any_recorded_outcome(
    scenario: tuple[Any, ...], outcome: str, pick: int
) -> None:
    provider = S.load_files(scenario[0])
    facts, outcomes = scenario[1], scenario[2]
    candidates = _satisfied_by_nodes(provider)
    if not candidates:
        return
    facts = _satisfying(facts, candidates[pick % len(candidates)][1])
    met = [key for key, node in candidates if facts_match(facts, node.satisfied)]
    without = shape(
        provider, scenario, facts=facts, outcomes={k: v for k, v in outcomes.items() if k not in met}
    )
    assert without == shape(
        provider, scenario, facts=facts, outcomes={**outcomes, **{key: outcome for key in met}}
    )


def test_a_single_claimed_step_is_not_complete_without_its_fact() -> None:
    """The plainest case: ``build -> done`` where build needs ``build.digest``."""
    from tests.providers import action_node, build, edge, graph_doc, terminal_node

    provider = build(
        graph_doc(
            "main",
            [
                action_node("build", satisfiedBy=[{"path": "build.digest", "exists": True}]),
                terminal_node("done"),
            ],
            [edge("build", "done")],
        )
    )
    claimed = ag.evaluate(provider, "main", outcomes={"main/build": "completed"})
    assert claimed.status_code != "complete" and claimed.outcome is None
    assert [d.code for d in claimed.diagnostics] == ["no-route"]
    proven = ag.evaluate(provider, "main", facts={"build": {"digest": "sha256:1"}})
    assert (proven.status_code, proven.outcome) == ("complete", "completed")


# ------------------------------------------------------------------ hostile input to the API


@PROPERTY
@given(
    S.provider_files(max_nodes=5),
    S.hostile_objects,
    S.hostile_objects,
    S.hostile_lists,
    st.one_of(S.json_values, st.sampled_from(("default", "alt"))),
    st.one_of(S.json_values, st.just(S.MAIN)),
)
@pytest.mark.slow
def test_evaluate_and_route_raise_only_agent_graph_errors(
    files: dict[str, Any], facts: Any, outcomes: Any, authorities: Any, entry: Any, graph: Any
) -> None:
    provider = S.load_files(files)
    with only_agent_graph_errors():
        ag.evaluate(provider, graph, entry, facts=facts, outcomes=outcomes, authorities=authorities)
    with only_agent_graph_errors():
        ag.route(
            provider,
            graph,
            entry,
            None,
            facts=facts,
            outcomes=outcomes,
            authorities=authorities,
            workspace=WORKSPACE,
        )


@PROPERTY
@given(S.provider_files(max_nodes=5), S.json_values)
def test_read_receipts_raise_only_agent_graph_errors(files: dict[str, Any], junk: Any) -> None:
    provider = S.load_files(files)
    for receipts in (
        junk,
        {"schema": "agent-graph.resource-read-receipts.v1", "provider": junk, "receipts": []},
        {
            "schema": "agent-graph.resource-read-receipts.v1",
            "provider": provider.manifest.id,
            "receipts": junk,
        },
        {
            "schema": "agent-graph.resource-read-receipts.v1",
            "provider": provider.manifest.id,
            "receipts": [junk],
        },
    ):
        with only_agent_graph_errors():
            ag.route(provider, S.MAIN, receipts=receipts, workspace=WORKSPACE)


@PROPERTY
@given(S.json_values)
def test_canonical_json_takes_any_json_value_and_ignores_key_order(value: Any) -> None:
    text = ag.canonical_json(value)
    assume(not S.has_collation_ties(value))
    assert ag.canonical_json(S.reorder_keys(value, 3)) == text
    assert ag.digest_value(value) == ag.digest_value(S.reorder_keys(value, 1))


# ------------------------------------------------------------------ parsing


@PROPERTY
@given(
    st.one_of(st.binary(max_size=200), S.any_text.map(lambda t: t.encode("utf-8", "surrogatepass"))),
    st.sampled_from(("x.yaml", "x.json", "x.YML", "x.JSON")),
)
def test_parsing_random_bytes_raises_only_agent_graph_errors(data: bytes, name: str) -> None:
    with only_agent_graph_errors():
        value = parse_structured(data, name)
        ag.canonical_json(value)
        assert parse_structured(data, name) == value or value != value  # NaN inside


_BASE_TEXTS = [
    load_fixtures.render(document).decode("utf-8") for document in load_fixtures.base_documents().values()
]
_YAML_SAMPLES = [
    "a: &x [1, 2]\nb: *x\n",
    "- !!int '7'\n- !!float 1\n- ? complex\n  : key\n",
    "key: |\n  block\n  text\nother: >-\n  folded\n",
    "{a: 1, b: [x, {c: d}]}\n",
    "%YAML 1.2\n---\na: 0o17\nb: 0x1F\nc: 1_000\nd: .inf\n",
    "---\nid: x\nkind: procedure\n---\nbody\n",
]


@PROPERTY
@given(st.sampled_from(_BASE_TEXTS + _YAML_SAMPLES).flatmap(S.mangled_text))
def test_parsing_mangled_yaml_raises_only_agent_graph_errors(text: str) -> None:
    with only_agent_graph_errors():
        value = parse_yaml(text, "mangled.yaml")
        ag.canonical_json(value)
    with only_agent_graph_errors():
        parse_json(text, "mangled.json")
    with only_agent_graph_errors():
        parse_structured(text.encode("utf-8", "surrogatepass"), "mangled.yaml")


# ------------------------------------------------------------------ loading


_BASE = load_fixtures.base_documents()
_BASE_PATHS = sorted(_BASE)


def _load_and_use(documents: dict[str, Any]) -> None:
    """Load; when it loads, evaluate and route every candidate."""
    files = {
        f"{load_fixtures.ROOT}/{path}": document
        if isinstance(document, (bytes, str))
        else S.render_json(document)
        for path, document in documents.items()
    }
    _route_every_candidate(ag.load_provider(load_fixtures.MANIFEST, fs=ag.MemoryFileSystem(files)))


def _route_every_candidate(provider: ag.Provider) -> None:
    """Evaluate every entry of every Graph of ``provider`` and route each of its candidates."""
    for graph_id, compiled in provider.graphs.items():
        for entry in compiled.entrypoints:
            evaluation, candidates = evaluate_with_candidates(provider, graph_id, entry)
            for candidate in candidates:
                ag.route(
                    provider,
                    graph_id,
                    entry,
                    candidate.route_id,
                    revision=evaluation.revision,
                    workspace=WORKSPACE,
                )


@HEAVY
@given(st.sampled_from(_BASE_PATHS), st.data())
def test_loading_with_one_structured_change_raises_only_agent_graph_errors(
    relative: str, data: st.DataObject
) -> None:
    documents = load_fixtures.base_documents()
    document = documents[relative]
    assume(isinstance(document, (dict, list)))
    target = data.draw(st.sampled_from(S.document_paths(document)))
    value = data.draw(
        st.one_of(
            S.json_values,
            st.sampled_from(
                ("../x.yaml", "/etc/passwd", "graphs/main.yaml", "", "x" * 10_000, "route.x", "main")
            ),
        )
    )
    documents[relative] = S.replace_somewhere(document, target, value) if target else value
    with only_agent_graph_errors():
        _load_and_use(documents)


@HEAVY
@given(st.sampled_from(_BASE_PATHS), st.data())
def test_loading_with_one_mangled_file_raises_only_agent_graph_errors(
    relative: str, data: st.DataObject
) -> None:
    documents = load_fixtures.base_documents()
    raw = load_fixtures.render(documents[relative])
    if data.draw(st.booleans()):
        documents[relative] = data.draw(S.mangled_bytes(raw))
    else:
        documents[relative] = data.draw(S.mangled_text(raw.decode("utf-8"))).encode("utf-8", "surrogatepass")
    with only_agent_graph_errors():
        _load_and_use(documents)


@HEAVY
@given(S.provider_files())
def test_every_generated_provider_loads_and_every_candidate_routes(files: dict[str, Any]) -> None:
    _route_every_candidate(S.load_files(files))


# ------------------------------------------------------------------ Runs, host actions, the CLI


_RUN = {
    "schema": "agent-graph.run.v1",
    "id": "run-1",
    "provider": "acme/base",
    "graph": "main",
    "entry": "default",
    "createdAt": "2026-01-01T00:00:00.000Z",
    "updatedAt": "2026-01-01T00:00:00.000Z",
    "facts": {"a": 1},
    "outcomes": {"main/build": {"outcome": "completed", "recordedAt": "2026-01-01T00:00:00.000Z"}},
    "authorities": ["release"],
    "events": [{"sequence": 1, "at": "2026-01-01T00:00:00.000Z", "type": "run.started"}],
}
_RUN_BYTES = json.dumps(_RUN, indent=2).encode("utf-8")


@PROPERTY
@given(
    st.one_of(
        S.mangled_bytes(_RUN_BYTES),
        S.mangled_text(_RUN_BYTES.decode()).map(lambda t: t.encode("utf-8", "surrogatepass")),
    )
)
def test_a_mangled_run_file_is_run_invalid_or_a_valid_run(data: bytes) -> None:
    try:
        run = FileRunStore.decode(data, "/runs/run.json")
    except ag.AgentGraphError as error:
        assert error.code == "run-invalid"
    else:
        assert run.schema == "agent-graph.run.v1"


@PROPERTY
@given(st.data())
def test_run_values_replaced_by_junk_are_run_invalid_or_valid(data: st.DataObject) -> None:
    target = data.draw(st.sampled_from([p for p in S.document_paths(_RUN) if p]))
    changed = S.replace_somewhere(_RUN, target, data.draw(S.json_values))
    try:
        text = json.dumps(changed)
    except ValueError:
        return
    try:
        FileRunStore.decode(text.encode("utf-8", "surrogatepass"), "/runs/run.json")
    except ag.AgentGraphError as error:
        assert error.code == "run-invalid"


_HOST_PROVIDER = load_fixtures.load(load_fixtures.base_documents())
_HOST_LOCATION = ag.locate_resource(_HOST_PROVIDER, "report.weekly")
_GOOD_RESULT = {
    "schema": "agent-graph.host-action-result.v1",
    "handler": "acme.report",
    "input_digest": ag.digest_value(
        {"handler": "acme.report", "input": {"schema": "acme.report-request/v1", "value": {"week": 3}}}
    ),
    "output": {"schema": "acme.report/v1", "inline": {"rows": 1}},
    "receipt": {"adapter": "test", "adapter_version": "1"},
}


_OUTPUT_SCHEMA = load_fixtures.base_documents()["schemas/report-out.schema.json"]


def test_the_unmangled_host_action_result_is_valid() -> None:
    validate_host_action_result(_HOST_LOCATION, _GOOD_RESULT, output_schema=_OUTPUT_SCHEMA)


@PROPERTY
@given(st.data())
def test_junk_host_action_results_raise_only_agent_graph_errors(data: st.DataObject) -> None:
    target = data.draw(st.sampled_from(S.document_paths(_GOOD_RESULT)))
    junk = (
        S.replace_somewhere(_GOOD_RESULT, target, data.draw(S.json_values))
        if target
        else data.draw(S.json_values)
    )
    with only_agent_graph_errors():
        validate_host_action_result(_HOST_LOCATION, junk, output_schema=_OUTPUT_SCHEMA)
    with only_agent_graph_errors():
        validate_host_action_result(junk, _GOOD_RESULT)


def _cli(arguments: list[str]) -> tuple[int, str, str]:
    from agent_graph._cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(arguments)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def cli_provider(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("cli-provider")
    return str(load_fixtures.write_tree(root, load_fixtures.base_documents()))


@PROPERTY
@given(
    text=st.one_of(
        S.any_text, S.json_values.map(lambda v: S.render_json(v).decode("utf-8", "surrogatepass"))
    ),
    option=st.sampled_from(("--facts", "--outcomes", "--authority", "--entry", "--revision")),
)
@example(text="\x85", option="--revision")
@example(text="\u2028", option="--entry")
@example(text="\udcff", option="--entry")
def test_cli_evaluation_options_end_in_an_answer_or_one_error_envelope(
    cli_provider: str, text: str, option: str
) -> None:
    command = "route" if option == "--revision" else "evaluate"
    status, out, err = _cli(["--manifest", cli_provider, command, option, text, "--format", "json"])
    if status == 0:
        assert err == "" and out.count("\n") == 1 and out.endswith("\n")
        json.loads(out)
    else:
        lines = err.split("\n")[:-1]  # JSON may hold U+0085 or U+2028 raw: split on newlines only
        assert err.endswith("\n")
        assert status == 1 and len(lines) == 1 and out == ""
        envelope = json.loads(lines[0])
        assert envelope["schema"] == "agent-graph.error.v1"
        assert envelope["error"]["code"] != "internal-error"
