"""The host loops of docs/host-integration.md, the blocking one and the async one, run on all three stores.

The samples are taken from the document as written and run from a copy of the
repository's examples; the blocking loop stops at the Gate and a second
process answers it, addressing the Run by the ID the first printed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOC = (REPO / "docs" / "host-integration.md").read_text(encoding="utf-8")


def sample(first_line: str) -> str:
    start = DOC.index(first_line)
    return DOC[start : DOC.index("```", start)]


@pytest.fixture()
def session(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    return tmp_path


def run(folder: Path, script: str, *arguments: str) -> str:
    done = subprocess.run([sys.executable, script, *arguments], cwd=folder, capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_the_blocking_host_loop_runs_on_every_store(session: Path, store_url: str) -> None:
    (session / "host.py").write_text(sample('"""Drive examples/weekly-report'), encoding="utf-8")
    first = run(session, "host.py", "--store", store_url)
    assert "waiting for the user: Publish this report?" in first
    found = re.search(r"continue with: --run (\S+)", first)
    assert found is not None
    second = run(session, "host.py", "--store", store_url, "--run", found.group(1), "--answer", "yes")
    assert "check-publication -> completed" in second and "complete (completed)" in second


def test_the_async_host_loop_runs_on_every_store(session: Path, store_url: str) -> None:
    (session / "async_host.py").write_text(sample('"""Three weekly reports at once'), encoding="utf-8")
    lines = run(session, "async_host.py", store_url).strip().splitlines()
    finished = [line for line in lines if line.endswith("complete after 8 events")]
    assert len(finished) == 3
