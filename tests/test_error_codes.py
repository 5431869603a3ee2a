"""The one registry of error codes: ``ErrorCode``, the codes the source raises, and docs/errors.md."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest

from agent_graph._core.errors import AgentGraphError, ErrorCode
from agent_graph._toolchain import errordoc

REPO = Path(__file__).resolve().parents[1]


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
