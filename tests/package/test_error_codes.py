"""The one registry of error codes: ``ErrorCode``, the codes the source raises, and docs/errors.md."""

from __future__ import annotations

import copy
import pickle
import typing
from pathlib import Path

import pytest

import agent_graph as ag
from agent_graph._core.errors import FAMILIES, AgentGraphError, Diagnostic, ErrorCode, NoFamilyCode, family_of
from agent_graph._toolchain import errordoc
from tests.paths import REPO


def test_every_code_raised_is_registered_and_every_registered_code_is_raised() -> None:
    registered = set(errordoc.registered_codes())
    raised = set(errordoc.raised_codes())
    assert raised - registered == set(), "add these to ErrorCode in agent_graph/_core/errors.py"
    assert registered - raised == set(), "codes nothing raises any more: remove them from ErrorCode"
    assert len(errordoc.registered_codes()) == len(registered), "a code is listed twice"


def test_agent_graph_errors_code_is_typed_with_the_registry() -> None:
    assert typing.get_type_hints(AgentGraphError.__init__)["code"] == ErrorCode
    assert typing.get_type_hints(AgentGraphError)["code"] == ErrorCode


def test_docs_errors_md_is_generated_from_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    text = (REPO / "docs" / "errors.md").read_text(encoding="utf-8")
    assert text == errordoc.document()
    for code in errordoc.registered_codes():
        assert f"| `{code}` |" in text
    assert errordoc.main(["--check"]) == 0


@pytest.mark.slow
def test_a_stale_table_is_found_and_rewritten(tmp_path: Path) -> None:
    target = tmp_path / "errors.md"
    target.write_text(errordoc.document().replace("`run-missing`", "`run-gone`"), encoding="utf-8")
    assert errordoc.main(["--check", "--path", str(target)]) == 1
    assert errordoc.main(["--path", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == errordoc.document()


@pytest.mark.slow
def test_mypy_refuses_a_misspelt_code(tmp_path: Path) -> None:
    from mypy import api

    sample = tmp_path / "sample.py"
    sample.write_text(
        "from agent_graph import AgentGraphError\n\n"
        'ok = AgentGraphError("file-missing", "there is no file")\n'
        'bad = AgentGraphError("file-mising", "a typo")\n',
        encoding="utf-8",
    )
    out, _, status = api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(sample)]
    )
    assert status == 1
    assert "sample.py:4:" in out and "file-mising" in out and "sample.py:3:" not in out


# --------------------------------------------------------------------------- families

#: The codes that deliberately belong to no family (a new code goes in a family's Literal or in this one).
NO_FAMILY = set(typing.get_args(NoFamilyCode))


def test_every_code_is_in_one_family_or_deliberately_in_none() -> None:
    members = [code for codes in FAMILIES.values() for code in codes]
    assert len(members) == len(set(members)), "a code is in two families"
    registered = set(errordoc.registered_codes())
    assert set(members) - registered == set(), "a family lists a code ErrorCode does not have"
    assert registered - set(members) == NO_FAMILY, "put each new code in a family of FAMILIES (or NO_FAMILY)"
    assert registered >= NO_FAMILY


@pytest.mark.parametrize("code", typing.get_args(ErrorCode))
def test_an_error_is_an_instance_of_its_codes_family_and_survives_pickling_and_copying(code: str) -> None:
    error = AgentGraphError(code, "what went wrong", [Diagnostic(code, "error", "at x")])  # type: ignore[arg-type]
    family = family_of(code)
    assert type(error) is family
    assert isinstance(error, AgentGraphError)
    assert (family is AgentGraphError) == (code in NO_FAMILY)
    assert (error.code, error.message, str(error)) == (
        code,
        "what went wrong",
        f"{code}: what went wrong\n  {code}: at x",
    )
    error.referrer = "named by graphs"  # type: ignore[attr-defined]
    for twin in (pickle.loads(pickle.dumps(error)), copy.copy(error), copy.deepcopy(error)):
        assert type(twin) is family
        assert (twin.code, twin.message, twin.diagnostics) == (error.code, error.message, error.diagnostics)
        assert twin.referrer == "named by graphs"  # type: ignore[attr-defined]
        assert twin.to_envelope() == error.to_envelope()


def test_a_family_is_caught_by_its_class_and_by_agent_graph_error() -> None:
    with pytest.raises(ag.RevisionStale) as caught:
        raise AgentGraphError("route-revision-stale", "stale")
    assert caught.value.code == "route-revision-stale"
    with pytest.raises(ag.AgentGraphError):
        raise AgentGraphError("run-lock-timeout", "locked")
    with pytest.raises(ag.StoreUnavailable):
        raise AgentGraphError("run-lock-timeout", "locked")
    try:
        raise AgentGraphError("graph-missing", "no such graph")
    except ag.RevisionStale:  # pragma: no cover - the wrong family must not catch it
        pytest.fail("NotFound caught as RevisionStale")
    except ag.NotFound as error:
        assert repr(error) == "NotFound('graph-missing', 'no such graph')"


def test_a_family_named_directly_refuses_another_familys_code() -> None:
    assert type(ag.RevisionStale("run-revision-stale", "stale")) is ag.RevisionStale
    own = ag.StoreUnavailable("my-store-offline", "a code of a host's own store")  # type: ignore[arg-type]
    assert type(own) is ag.StoreUnavailable
    with pytest.raises(TypeError, match="run-missing is a code of NotFound, not of RevisionStale"):
        ag.RevisionStale("run-missing", "no such Run")


def test_the_library_raises_families(tmp_path: Path) -> None:
    provider = ag.load_provider(str(REPO / "examples" / "weekly-report" / "provider.yaml"))
    with pytest.raises(ag.NotFound, match="graph-missing"):
        ag.evaluate(provider, "no-such-graph")
    with pytest.raises(ag.InputInvalid):
        ag.evaluate(provider, "report", facts=[])  # type: ignore[arg-type]
    with pytest.raises(ag.FileAccessFailed):
        ag.load_provider(str(tmp_path / "missing.yaml"))
    (tmp_path / "provider.yaml").write_text("schema: agent-graph.provider.v1\nid: [\n", encoding="utf-8")
    with pytest.raises(ag.ProviderInvalid):
        ag.load_provider(str(tmp_path / "provider.yaml"))
    store = ag.open_store(f"sqlite:///{tmp_path}/runs.db")
    run = store.start(None, provider, "report", workspace=str(tmp_path))
    step = store.next_step(run.id, provider)
    assert step.route is not None
    node = step.route.after_action.record_node
    store.record(run.id, node, "completed", provider=provider, revision=step.revision)
    with pytest.raises(ag.RevisionStale):
        store.record(run.id, node, "completed", provider=provider, revision=step.revision)
    with pytest.raises(ag.NotFound):
        store.load("no-such-run")
    store.close()
    with pytest.raises(ag.StoreUnavailable):
        store.load(run.id)


def test_docs_errors_md_shows_each_codes_family() -> None:
    text = errordoc.document()
    for family, codes in FAMILIES.items():
        assert f"| `{family.__name__}` | {len(codes)} |" in text
        for code in codes:
            assert f"| `{code}` | `{family.__name__}` |" in text
    for other in NO_FAMILY:
        assert f"| `{other}` | — |" in text


def test_the_errors_module_holds_every_family() -> None:
    import agent_graph.errors as errors

    for family in FAMILIES:
        assert getattr(errors, family.__name__) is family is getattr(ag, family.__name__)
        assert family.__doc__
    assert errors.AgentGraphError is ag.AgentGraphError
    public = {name for name in vars(errors) if name[0].isalpha() and name != "annotations"}
    assert set(errors.__all__) == public
