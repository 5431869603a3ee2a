"""Authoring commands read only regular files of bounded size."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agent_graph import AgentGraphError
from agent_graph._load.fs import read_regular_file


def test_a_regular_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_bytes(b"hello")
    assert read_regular_file(str(path), "file") == b"hello"


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.bin"
    with open(path, "wb") as handle:
        handle.truncate(64 * 1024 * 1024)  # sparse: nothing is written
    with pytest.raises(AgentGraphError) as raised:
        read_regular_file(str(path), "file", max_bytes=1024)
    assert raised.value.code == "file-too-large"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_or_directory_is_not_a_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for target in (fifo, tmp_path, tmp_path / "missing"):
        with pytest.raises(AgentGraphError) as raised:
            read_regular_file(str(target), "file")
        assert raised.value.code == "file-missing"


def test_import_workflow_refuses_an_oversized_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agent_graph._load import fs as _fs
    from agent_graph._toolchain import importers as _importers

    monkeypatch.setattr(_fs, "DEFAULT_READ_LIMIT", 16)
    monkeypatch.setattr(_fs.read_regular_file, "__defaults__", (16,))
    source = tmp_path / "workflow.yaml"
    source.write_text("steps:\n  - id: a\n    run: echo a\n", encoding="utf-8")
    with pytest.raises(AgentGraphError) as raised:
        _importers._read_bytes(str(source), "workflow")
    assert raised.value.code == "file-too-large"
