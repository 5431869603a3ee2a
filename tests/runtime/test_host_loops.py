"""The host loops of docs/host-integration.md, the blocking one and the async one, drive every example to
its end on all three stores.

The samples are taken from the document as written and run from a copy of the
repository's examples. They decide what to do from the step alone (the route,
its proof, its Gate, the blockers), never from the Provider's files. What the
test provides is the world the examples' stand-ins leave open: an export
service that is ready at the third poll (the polling example's stand-in always
answers ``running``), and a workspace whose ``make dist`` and ``make test``
print what they built and found. A Gate that waits for the user stops the
blocking loop; a second process answers it, addressing the Run by the ID the
first printed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import agent_graph as ag
from tests.paths import REPO

DOC = (REPO / "docs" / "host-integration.md").read_text(encoding="utf-8")
EXAMPLES = {  # example -> the Graph to run (None: the Provider's first)
    "weekly-report": None,
    "delegated-review": None,
    "incident-brief": None,
    "polling-loop": None,
    "release-subgraph": "release",
}
READY_AT_THIRD_POLL = """#!/bin/sh
# The test's export service: running twice, then ready.
set -eu
count=$(cat "${TMPDIR:-/tmp}/$1" 2>/dev/null || echo 0)
count=$((count + 1))
echo "$count" > "${TMPDIR:-/tmp}/$1"
if [ "$count" -ge 3 ]; then printf '{"export":{"status":"ready"}}\\n'; else printf '{"export":{"status":"running"}}\\n'; fi
"""
MAKEFILE = """dist:
\t@echo '{"build": {"artifact": {"digest": "sha256:5f0c"}}}'
test:
\t@echo '{"tests": {"result": "passed"}}'
"""


def sample(first_line: str) -> str:
    start = DOC.index(first_line)
    return DOC[start : DOC.index("```", start)]


@pytest.fixture()
def session(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    service = tmp_path / "examples" / "polling-loop" / "scripts" / "export-status.sh"
    service.write_text(READY_AT_THIRD_POLL.replace("$1", f"polls-{tmp_path.name}"), encoding="utf-8")
    (tmp_path / "workspace").mkdir()
    (tmp_path / "workspace" / "Makefile").write_text(MAKEFILE, encoding="utf-8")
    (tmp_path / "host.py").write_text(
        sample('"""Drive a Provider\'s Graph from the step alone'), encoding="utf-8"
    )
    (tmp_path / "async_host.py").write_text(
        sample('"""Several Runs at once on one event loop'), encoding="utf-8"
    )
    return tmp_path


def run(folder: Path, script: str, *arguments: str) -> str:
    done = subprocess.run([sys.executable, script, *arguments], cwd=folder, capture_output=True, text=True,
                          timeout=300, check=False, env={"TMPDIR": str(folder), "PATH": "/usr/bin:/bin"})  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def ended(store_url: str, folder: Path, example: str, run_id: str) -> ag.Evaluation:
    """The evaluation of the stored Run, read back from the store."""
    provider = ag.load_provider(str(folder / "examples" / example / "provider.yaml"))
    with ag.open_store(store_url if "://" in store_url else str(folder / store_url)) as store:
        return store.next_step(run_id, provider).evaluation


@pytest.mark.slow
@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_the_blocking_host_loop_drives_every_example_on_every_store(
    session: Path, store_url: str, example: str
) -> None:
    arguments = ["--store", store_url, "--manifest", f"examples/{example}/provider.yaml"]
    arguments += ["--workspace", str(session / "workspace")]
    if EXAMPLES[example] is not None:
        arguments += ["--graph", EXAMPLES[example]]
    first = run(session, "host.py", *arguments)
    found = re.search(r"continue with: --run (\S+)", first)
    if found is not None:  # a Gate waits for the user: stop; another process takes the answer
        assert "waiting for the user:" in first
        run_id = found.group(1)
        last = run(session, "host.py", "--store", store_url, "--manifest", f"examples/{example}/provider.yaml",
                   "--run", run_id, "--answer", "yes")  # fmt: skip
    else:
        last = first
        run_id = ""
    assert "complete (completed)" in last, last
    if example == "weekly-report":
        assert "check-publication -> completed" in last and "Publish this report?" in first
    if example == "polling-loop":
        assert last.count("poll -> partial") == 2 and "poll -> completed" in last
    if run_id:
        evaluation = ended(store_url, session, example, run_id)
        assert (evaluation.status_code, evaluation.outcome) == ("complete", "completed")


@pytest.mark.slow
def test_the_async_host_loop_drives_every_example_at_once_on_every_store(
    session: Path, store_url: str
) -> None:
    runs = [
        f"examples/{name}/provider.yaml" + (f"#{graph}" if graph else "") for name, graph in EXAMPLES.items()
    ]
    lines = run(
        session, "async_host.py", store_url, *runs, "--workspace", str(session / "workspace")
    ).splitlines()
    finished = {line.split(" ")[0]: line for line in lines if ": complete after " in line}
    assert sorted(finished) == sorted(f"examples/{name}" for name in EXAMPLES), lines
    for name in EXAMPLES:
        run_id = finished[f"examples/{name}"].split(" ")[1].rstrip(":")
        evaluation = ended(store_url, session, name, run_id)
        assert (evaluation.status_code, evaluation.outcome) == ("complete", "completed")
    # Its default: three weekly reports at once.
    default = run(session, "async_host.py", store_url).splitlines()
    assert len([line for line in default if line.endswith("complete after 8 events")]) == 3
