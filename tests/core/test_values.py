"""Hostile values in every entry point: plain JSON before any check, non-JSON refused, nothing converted.

Values come as a careless or hostile host hands them over: subclasses of
``str``, ``int``, ``float``, ``dict`` and ``list`` whose ``__eq__``,
``__hash__``, ``get``, ``__getitem__``, ``__iter__`` … lie; sets, bytes,
tuples and numbers as keys, NaN, objects; values nested deep or spread wide.
Each entry point (``evaluate``, ``route``, the diagram, the Run store,
host-action results and locations, the materializer) must give the answer of
the plain value with the same content, or refuse with a specific code and
change nothing. Hypothesis draws the values (derandomized, few examples).
"""

from __future__ import annotations

import copy
import decimal
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import agent_graph as ag
import agent_graph.toolchain as agtool
import agent_graph.types as agt
from agent_graph._core.evaluate import evaluate_with_candidates
from agent_graph._core.plain import plain_json
from agent_graph._runtime.run_changes import DETAIL_MAX_DEPTH, FACTS_MAX_DEPTH
from agent_graph._runtime.runs import FileRunStore
from tests import load_fixtures, strategies as S
from tests.load_fixtures import base_documents
from tests.strategies import deep_value

VALUES = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


# ---------------------------------------------------------------- values that lie


class EqualToAll:
    """Equal to everything, unequal to nothing, one hash for all (put first among the bases)."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0


class LyingStr(EqualToAll, str):
    """Equal to everything, one hash for all, and a different text when asked for one."""

    def __str__(self) -> str:
        return "forged"


class LyingKey(str):
    """A key that stays a faithful dictionary key (its hash and equality are the text's) but lies otherwise."""

    def __str__(self) -> str:
        return "forged"

    def __repr__(self) -> str:
        return "'forged'"

    def startswith(self, *args: Any) -> bool:  # type: ignore[override]
        return True

    def split(self, *args: Any) -> Any:  # type: ignore[override]
        return ["forged"]


class LyingInt(EqualToAll, int):
    def __int__(self) -> int:
        return 7

    def __index__(self) -> int:
        return 7


class LyingFloat(EqualToAll, float):
    def __float__(self) -> float:
        return 7.5


class LyingDict(EqualToAll, dict):  # type: ignore[type-arg]
    def get(self, key: Any, default: Any = None) -> Any:
        return "forged"

    def __getitem__(self, key: Any) -> Any:
        return "forged"

    def __contains__(self, key: object) -> bool:
        return True

    def __iter__(self) -> Any:
        return iter(["forged"])

    def keys(self) -> Any:
        return ["forged"]

    def items(self) -> Any:
        return [("forged", "forged")]

    def values(self) -> Any:
        return ["forged"]

    def __len__(self) -> int:
        return 1


class LyingList(EqualToAll, list):  # type: ignore[type-arg]
    def __getitem__(self, index: Any) -> Any:
        return "forged"

    def __iter__(self) -> Any:
        return iter(["forged"])

    def __len__(self) -> int:
        return 1


def disguise(value: Any, seed: int) -> Any:
    """The same content, every string, number, object and array (and key) of it a lying subclass."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str):
        return LyingStr(value) if seed % 3 else value
    if isinstance(value, int):
        return LyingInt(value) if seed % 2 else value
    if isinstance(value, float):
        return LyingFloat(value)
    if isinstance(value, dict):
        out = LyingDict()
        for position, (key, item) in enumerate(value.items()):
            # A key keeps the text's hash and equality: keys that all compare equal would merge in storage.
            dict.__setitem__(
                out, LyingKey(key) if (seed + position) % 2 else key, disguise(item, seed + position + 1)
            )
        return out
    if isinstance(value, list):
        return LyingList(disguise(item, seed + position) for position, item in enumerate(value))
    return value


def wire(value: Any) -> bytes:
    return msgspec.json.encode(value)


NOT_JSON: dict[str, Any] = {
    "a set": {1, 2},
    "a frozenset": frozenset(),
    "bytes": b"bytes",
    "a bytearray": bytearray(b"x"),
    "a Decimal": decimal.Decimal("1.5"),
    "an object": object(),
    "a complex number": 1j,
    "a Struct": agt.Diagnostic(code="x", severity="info", message="m"),
}
NOT_JSON_KEYS: dict[str, Any] = {
    "an int key": 1,
    "a tuple key": ("a", "b"),
    "a None key": None,
    "a float key": 1.5,
}


def _non_json_facts() -> list[Any]:
    """Each case with an ID naming what it holds: IDs never print a value (an object's address
    differs between processes, and pytest-xdist's workers must collect the same tests)."""
    cases: list[Any] = [pytest.param({"a": value}, id=f"value {name}") for name, value in NOT_JSON.items()]
    cases += [pytest.param({"a": {key: 1}}, id=f"inner {name}") for name, key in NOT_JSON_KEYS.items()]
    cases += [pytest.param({key: 1}, id=f"top {name}") for name, key in NOT_JSON_KEYS.items()]
    cases.append(pytest.param({"a": [1, {"b": {1, 2}}]}, id="a set in a list"))
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    cases.append(pytest.param({"a": cyclic}, id="a cycle"))
    return cases


# ---------------------------------------------------------------- evaluate, route, diagram


@pytest.fixture(scope="module")
def provider() -> ag.Provider:
    return load_fixtures.load(base_documents())


def _answers(
    provider: ag.Provider, scenario: tuple[Any, ...], facts: Any, outcomes: Any, authorities: Any
) -> Any:
    entry = scenario[4]
    try:
        evaluation, candidates = evaluate_with_candidates(
            provider, S.MAIN, entry, facts, outcomes, authorities
        )
    except ag.AgentGraphError as error:
        return ("refused", error.code)
    return wire(evaluation), [candidate.route_id for candidate in candidates]


@VALUES
@given(S.scenarios(), st.integers(0, 1000))
def test_subclassed_state_gives_the_plain_states_answer(scenario: tuple[Any, ...], seed: int) -> None:
    """Evaluated first disguised, then plain, then disguised again: one answer for one revision."""
    provider = S.load_files(scenario[0])
    _files, facts, outcomes, authorities, _entry = scenario
    plain = (facts, outcomes, authorities)
    disguised = (
        disguise(facts, seed),
        disguise(outcomes, seed + 1),
        [disguise(a, seed + 2) for a in authorities],
    )
    first = _answers(provider, scenario, *disguised)
    fresh = _answers(S.load_files(scenario[0]), scenario, *plain)
    assert first == fresh
    assert _answers(provider, scenario, *plain) == fresh
    assert _answers(provider, scenario, *disguised) == fresh


def test_a_lying_string_cannot_satisfy_a_fact_check(provider: ag.Provider) -> None:
    plain = ag.evaluate(provider, "main", facts={"report": {"digest": "other"}})
    forged = ag.evaluate(provider, "main", facts={"report": {"digest": LyingStr("other")}})
    assert wire(forged) == wire(plain)
    lying = LyingDict()
    dict.__setitem__(lying, "digest", "other")
    assert wire(ag.evaluate(provider, "main", facts={"report": lying})) == wire(plain)


def test_a_fact_remembered_by_text_is_checked_as_the_plain_copy(provider: ag.Provider) -> None:
    """A value seen twice is remembered by its text; a lying value with that text gets the copy's answer."""
    facts = {"report": {"digest": "x", "items": [1, 2]}}
    expected = wire(ag.evaluate(provider, "main", facts=copy.deepcopy(facts)))
    ag.evaluate(provider, "main", facts=copy.deepcopy(facts))
    nested = {"report": {"digest": LyingStr("x"), "items": [1, 2]}}
    assert wire(ag.evaluate(provider, "main", facts=nested)) == expected


def test_route_arguments_are_plain_strings(provider: ag.Provider, tmp_path: Path) -> None:
    evaluation = ag.evaluate(provider, "main")
    assert evaluation.primary_route is not None
    with pytest.raises(ag.AgentGraphError) as stale:
        ag.route(provider, "main", revision=LyingStr("sha256:" + "0" * 64), workspace=str(tmp_path))
    assert stale.value.code == "route-revision-stale"
    with pytest.raises(ag.AgentGraphError) as missing:
        ag.route(
            provider,
            "main",
            "default",
            LyingStr("route:0000"),
            revision=evaluation.revision,
            workspace=str(tmp_path),
        )
    assert missing.value.code == "route-stale"
    chosen = ag.route(
        provider,
        LyingStr("main"),
        LyingStr("default"),
        LyingStr(evaluation.primary_route.route_id),
        revision=LyingStr(evaluation.revision),
        workspace=LyingStr(str(tmp_path)),
    )
    assert type(chosen.revision) is str and chosen.revision == evaluation.revision
    receipts = LyingDict()
    dict.__setitem__(receipts, "provider", LyingStr("someone/else"))
    dict.__setitem__(receipts, "receipts", [])
    with pytest.raises(ag.AgentGraphError) as foreign:
        ag.route(provider, "main", receipts=receipts, workspace=str(tmp_path))
    assert foreign.value.code == "resource-receipts-provider-mismatch"


@pytest.mark.parametrize("facts", _non_json_facts())
def test_non_json_facts_are_json_invalid_everywhere(
    provider: ag.Provider, facts: Any, tmp_path: Path
) -> None:
    for call in (
        lambda: ag.evaluate(provider, "main", facts=facts),
        lambda: ag.route(provider, "main", facts=facts, workspace=str(tmp_path)),
        lambda: agtool.render_diagram(provider, "main", state=_diagram_state(facts)),
    ):
        with pytest.raises(ag.AgentGraphError) as caught:
            call()
        assert caught.value.code == "json-invalid", caught.value


def _diagram_state(facts: Any) -> Any:
    from agent_graph._toolchain.diagram import DiagramState

    return DiagramState(facts=facts)


@pytest.mark.parametrize("key", list(NOT_JSON_KEYS.values()), ids=list(NOT_JSON_KEYS))
def test_outcome_keys_that_are_not_strings_are_json_invalid(provider: ag.Provider, key: Any) -> None:
    with pytest.raises(ag.AgentGraphError) as caught:
        ag.evaluate(provider, "main", outcomes={key: "completed"})
    assert caught.value.code == "json-invalid"


def test_the_diagram_overlay_reads_plain_facts(provider: ag.Provider) -> None:
    plain = agtool.render_diagram(provider, "main", state=_diagram_state({"report": {"digest": "sha256:1"}}))
    lying = LyingDict()
    dict.__setitem__(lying, "digest", LyingStr("sha256:1"))
    assert agtool.render_diagram(provider, LyingStr("main"), state=_diagram_state({"report": lying})) == plain


# ---------------------------------------------------------------- the Run store

PROVIDER = "acme/base"


def _store() -> FileRunStore:
    return FileRunStore()


@pytest.fixture()
def run_path(tmp_path: Path) -> Path:
    path = tmp_path / "run.json"
    _store().start(str(path), PROVIDER, "main", facts={"a": 1})
    return path


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _refused(code: str, folder: Path, action: Any) -> None:
    before = _snapshot(folder)
    with pytest.raises(ag.AgentGraphError) as caught:
        action()
    assert caught.value.code == code, caught.value
    assert _snapshot(folder) == before


@pytest.mark.parametrize(
    "value",
    [*NOT_JSON.values(), float("nan"), float("inf"), -float("inf"), 10**400],
    ids=[*NOT_JSON, "NaN", "infinity", "-infinity", "10**400"],
)
def test_run_values_that_are_not_json_are_refused_and_nothing_changes(run_path: Path, value: Any) -> None:
    folder = run_path.parent
    store = _store()
    _refused(
        "json-invalid", folder, lambda: store.record(str(run_path), "main/build", "completed", detail=value)
    )
    _refused(
        "json-invalid",
        folder,
        lambda: store.record(str(run_path), "main/build", "completed", detail={"deep": [1, {"x": value}]}),
    )
    _refused("json-invalid", folder, lambda: store.update_facts(str(run_path), {"a": value}))
    _refused(
        "json-invalid",
        folder,
        lambda: store.start(str(folder / "new.json"), PROVIDER, "main", facts={"a": value}),
    )


@pytest.mark.parametrize("key", list(NOT_JSON_KEYS.values()), ids=list(NOT_JSON_KEYS))
def test_run_keys_that_are_not_strings_are_refused(run_path: Path, key: Any) -> None:
    folder = run_path.parent
    store = _store()
    _refused(
        "json-invalid",
        folder,
        lambda: store.record(str(run_path), "main/build", "completed", detail={key: 1}),
    )
    _refused("json-invalid", folder, lambda: store.update_facts(str(run_path), {key: 1}))
    _refused("json-invalid", folder, lambda: store.update_facts(str(run_path), {"a": {key: 1}}))


def test_run_values_at_and_past_the_readers_depth(run_path: Path) -> None:
    """The deepest value accepted is read back; one level more is refused before anything is written."""
    folder = run_path.parent
    store = _store()
    store.record(str(run_path), "main/build", "completed", detail=deep_value(DETAIL_MAX_DEPTH, "list"))
    store.update_facts(str(run_path), {"deep": deep_value(FACTS_MAX_DEPTH - 1)})
    loaded = store.load(str(run_path))
    assert loaded.outcomes["main/build"].detail == deep_value(DETAIL_MAX_DEPTH, "list")
    assert loaded.facts["deep"] == deep_value(FACTS_MAX_DEPTH - 1)
    for depth in (DETAIL_MAX_DEPTH + 1, 600, 20_000):
        _refused(
            "json-too-deep",
            folder,
            lambda d=depth: store.record(
                str(run_path), "main/build", "completed", detail=deep_value(d, "list")
            ),
        )
    for depth in (FACTS_MAX_DEPTH, 20_000):
        _refused(
            "json-too-deep",
            folder,
            lambda d=depth: store.update_facts(str(run_path), {"deep": deep_value(d)}),
        )
        _refused(
            "json-too-deep",
            folder,
            lambda d=depth: store.start(
                str(folder / "other.json"), PROVIDER, "main", facts={"deep": deep_value(d)}
            ),
        )
    store.record(str(run_path), "main/build", "partial")  # still readable and writable
    store.checkpoint(str(run_path), str(folder / "checkpoint.json"))
    assert store.resume(str(folder / "checkpoint.json"), str(folder / "resumed.json")).facts == loaded.facts


def test_wide_values_are_stored_and_read_back(run_path: Path) -> None:
    store = _store()
    wide = {f"k{i}": i for i in range(20_000)}
    store.update_facts(str(run_path), {"wide": wide})
    store.record(str(run_path), "main/build", "completed", detail=[wide, list(range(10_000))])
    loaded = store.load(str(run_path))
    assert loaded.facts["wide"] == wide
    assert loaded.outcomes["main/build"].detail == [wide, list(range(10_000))]


def test_run_values_are_stored_plain(run_path: Path) -> None:
    store = _store()
    value = {"name": "x", "items": [1, 2.5, {"deep": "y"}], "n": 3}
    store.record(str(run_path), LyingStr("main/build"), LyingStr("completed"), detail=disguise(value, 1))
    store.update_facts(str(run_path), disguise({"b": value}, 2))
    store.update_authorities(str(run_path), add=[LyingStr("ops"), LyingStr("release")])
    loaded = store.load(str(run_path))
    assert loaded.outcomes["main/build"].detail == value
    assert loaded.facts["b"] == value
    assert loaded.authorities == ("ops", "release")
    assert json.loads(run_path.read_text("utf-8"))["events"][-2]["detail"] == {
        "keys": ["b"],
        "set": {"b": value},
    }


def test_a_run_too_large_for_its_reader_is_not_written(
    run_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_graph._runtime import run_codec

    monkeypatch.setattr(run_codec, "MAX_RUN_BYTES", run_path.stat().st_size + 50)
    _refused(
        "run-too-large",
        run_path.parent,
        lambda: _store().record(str(run_path), "main/build", "completed", detail="x" * 1000),
    )
    _refused(
        "run-too-large",
        run_path.parent,
        lambda: _store().checkpoint(str(run_path), str(run_path.parent / "c.json")),
    )


# ---------------------------------------------------------------- what is written is read back


def _canonical(value: Any) -> str:
    return ag.canonical_json(value)


@VALUES
@given(S.json_values, st.integers(0, 100))
@pytest.mark.slow
def test_whatever_a_run_accepts_reads_back_as_the_plain_value(value: Any, seed: int) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.json"
        store = _store()
        store.start(str(path), PROVIDER, "main")
        before = path.read_bytes()
        for given_value in (value, disguise(value, seed)):
            try:
                store.record(str(path), "main/n", "completed", detail=given_value)
            except ag.AgentGraphError as error:
                assert error.code in ("json-invalid", "json-too-deep"), error
                assert path.read_bytes() == before
                continue
            stored = store.load(str(path)).outcomes["main/n"].detail
            assert _canonical(stored) == _canonical(plain_json(value, "value"))
            before = path.read_bytes()
        try:
            store.update_facts(str(path), {"v": value, "w": disguise(value, seed)})
        except ag.AgentGraphError as error:
            assert error.code in ("json-invalid", "json-too-deep"), error
            assert path.read_bytes() == before
        else:
            facts = store.load(str(path)).facts
            assert _canonical(facts["v"]) == _canonical(facts["w"]) == _canonical(plain_json(value, "value"))


# ---------------------------------------------------------------- host actions and the materializer


def test_host_action_values_that_are_not_json_are_json_invalid(tmp_path: Path) -> None:
    from agent_graph._runtime.host_action import (
        host_action_input_digest,
        host_action_output_digest,
        validate_host_action_result,
    )
    from tests.runtime import test_host_action as host

    provider = ag.load_provider(str(host.write_files(tmp_path / "p", host.FILES)))
    location = ag.route(provider, "main", workspace=str(tmp_path)).resources.required[0]
    for value in [*NOT_JSON.values(), {1: "x"}, {("a",): 1}]:
        result = host.inline_result(
            output={"schema": host.OUTPUT_SCHEMA, "inline": {"title": "t", "extra": value}}
        )
        for call in (
            lambda r=result: validate_host_action_result(location, r),
            lambda r=result: host_action_output_digest(r),
        ):
            with pytest.raises(ag.AgentGraphError) as caught:
                call()
            assert caught.value.code == "json-invalid", value
        wire_location = json.loads(msgspec.json.encode(location))
        wire_location["materialize"]["input"]["value"] = {"week": value}
        with pytest.raises(ag.AgentGraphError) as bad_location:
            host_action_input_digest(wire_location)
        assert bad_location.value.code == "json-invalid"


def test_host_action_results_that_lie_get_the_plain_answer(tmp_path: Path) -> None:
    from agent_graph._runtime.host_action import host_action_read_receipt
    from tests.runtime import test_host_action as host

    provider = ag.load_provider(str(host.write_files(tmp_path / "p", host.FILES)))
    location = ag.route(provider, "main", workspace=str(tmp_path)).resources.required[0]
    plain = host.inline_result()
    receipt = host_action_read_receipt(location, plain, provider=provider)
    assert host_action_read_receipt(location, disguise(plain, 1), provider=provider) == receipt
    forged = host.inline_result(handler=LyingStr("someone.else"))
    with pytest.raises(ag.AgentGraphError) as caught:
        host_action_read_receipt(location, forged, provider=provider)
    assert caught.value.code == "host-action-handler-mismatch"


@pytest.mark.parametrize(
    "value", [*NOT_JSON.values(), float("nan"), {1: 2}], ids=[*NOT_JSON, "NaN", "int key"]
)
def test_materializer_input_that_is_not_json_is_refused(value: Any) -> None:
    from agent_graph._runtime.materialize import materializer_environment

    with pytest.raises(ag.AgentGraphError) as caught:
        materializer_environment("/p", "/w", "sha256:" + "0" * 64, {"x": value}, inherited={})
    assert caught.value.code == "json-invalid"


def test_materializer_input_and_environment_are_plain() -> None:
    from agent_graph._runtime.materialize import materializer_environment

    value = {"a": [1, 2.5, "x"], "b": {"c": None}}
    plain = materializer_environment("/p", "/w", "sha256:" + "0" * 64, value, inherited={})
    lying = materializer_environment(
        "/p", "/w", "sha256:" + "0" * 64, disguise(value, 3), env={"EXTRA": LyingStr("v")}, inherited={}
    )
    assert json.loads(lying["AGENT_GRAPH_INPUT"]) == json.loads(plain["AGENT_GRAPH_INPUT"]) == value
    assert type(lying["EXTRA"]) is str and lying["EXTRA"] == "v"


# ---------------------------------------------------------------- every store keeps the same rules


@pytest.mark.parametrize("kind", ["folder", "sqlite"])
def test_every_run_store_refuses_the_same_values_and_stores_them_plain(tmp_path: Path, kind: str) -> None:
    from agent_graph._runtime.stores import open_store

    url = str(tmp_path / "runs") if kind == "folder" else f"sqlite:///{tmp_path / 'runs.db'}"
    with open_store(url) as store:
        run = store.start("r1" if kind == "sqlite" else "r1.json", PROVIDER, "main", facts={"a": 1})
        ref = "r1" if kind == "sqlite" else "r1.json"
        before = store.load(ref)
        for call in (
            lambda: store.record(ref, "main/build", "completed", detail={"x": {1, 2}}),
            lambda: store.record(ref, "main/build", "completed", detail=float("nan")),
            lambda: store.record(ref, "main/build", "completed", detail=deep_value(DETAIL_MAX_DEPTH + 1)),
            lambda: store.update_facts(ref, {1: "x"}),
            lambda: store.update_facts(ref, {"deep": deep_value(FACTS_MAX_DEPTH)}),
        ):
            with pytest.raises(ag.AgentGraphError) as caught:
                call()
            assert caught.value.code in ("json-invalid", "json-too-deep")
            assert store.load(ref) == before
        value = {"name": "x", "items": [1, 2.5, {"deep": "y"}]}
        store.record(ref, LyingStr("main/build"), "completed", detail=disguise(value, 1))
        loaded = store.load(ref)
        assert loaded.outcomes["main/build"].detail == value and loaded.id == run.id
        assert type(next(iter(loaded.outcomes))) is str


# ---------------------------------------------------------------- non-JSON anywhere, and no RecursionError anywhere


def _inject(value: Any, position: int, bad: Any) -> Any:
    """A copy of ``value`` with ``bad`` put at one of its places (a leaf replaced, or a key or item added)."""
    paths = S.document_paths(value)
    path = paths[position % len(paths)]
    target = S.copy_json(value)
    if not path:
        return {"x": bad} if position % 2 else [bad]
    holder = target
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = bad
    return target


BAD_LEAVES = st.sampled_from(
    [
        {1, 2},
        b"x",
        object(),
        decimal.Decimal(1),
        {1: "int key"},
        {("a",): "tuple key"},
        {None: "None key"},
        frozenset(),
    ]
)


@VALUES
@given(S.json_values, st.integers(0, 1000), BAD_LEAVES)
def test_non_json_anywhere_is_json_invalid_in_every_entry_point(value: Any, position: int, bad: Any) -> None:
    import tempfile

    from agent_graph._runtime.host_action import host_action_output_digest
    from agent_graph._runtime.materialize import materializer_environment

    provider = load_fixtures.load(base_documents())
    hostile = _inject(value, position, bad)
    calls = [
        lambda: ag.evaluate(provider, "main", facts={"v": hostile}),
        lambda: ag.route(provider, "main", facts={"v": hostile}, workspace="/w"),
        lambda: host_action_output_digest({"output": {"inline": hostile}}),
        lambda: materializer_environment("/p", "/w", "sha256:" + "0" * 64, hostile, inherited={}),
    ]
    for call in calls:
        with pytest.raises(ag.AgentGraphError) as caught:
            call()
        assert caught.value.code == "json-invalid"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "run.json"
        store = _store()
        store.start(str(path), PROVIDER, "main")
        before = path.read_bytes()
        for call in (
            lambda: store.record(str(path), "main/n", "completed", detail=hostile),
            lambda: store.update_facts(str(path), {"v": hostile}),
        ):
            with pytest.raises(ag.AgentGraphError) as refused:
                call()
            assert refused.value.code == "json-invalid"
            assert path.read_bytes() == before


@pytest.mark.slow
def test_deep_values_raise_no_recursion_error_anywhere(tmp_path: Path) -> None:
    """Receipts, digests, diagnostics and schema checks of values 50,000 levels deep: answers, not RecursionError."""
    from agent_graph._runtime.host_action import host_action_output_digest, validate_host_action_result
    from agent_graph._syntax.schema import validate_with_schema
    from tests.runtime import test_host_action as host

    deep = deep_value(50_000)
    deep_list = deep_value(50_000, "list")
    assert ag.digest_value(deep).startswith("sha256:")
    assert host_action_output_digest({"output": {"inline": deep}}).startswith("sha256:")
    provider = ag.load_provider(str(host.write_files(tmp_path / "p", host.FILES)))
    location = ag.route(provider, "main", workspace=str(tmp_path)).resources.required[0]
    result = host.inline_result(
        output={"schema": host.OUTPUT_SCHEMA, "inline": {"title": "t", "items": [deep_list]}}
    )
    validate_host_action_result(location, result, provider=provider)
    with pytest.raises(ag.AgentGraphError) as caught:
        validate_with_schema(
            {"type": "object", "properties": {"x": {"const": deep}}}, {"x": 1}, "value", name="deep"
        )
    assert caught.value.code == "schema-invalid"
    envelope = caught.value.to_envelope()
    from agent_graph._cli.output import json_line

    assert json.loads(json_line({"ok": deep_value(100)}))  # the command line writes envelopes iteratively
    assert json_line(envelope).endswith("\n")
