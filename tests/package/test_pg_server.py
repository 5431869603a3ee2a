"""The throwaway PostgreSQL server lives no longer than the test run that started it.

A run killed midway (SIGKILL of pytest and its xdist workers, as a CI timeout
or a closed terminal does) leaves no server running: each server's watchdog
stops it. A server whose watchdog was killed too is stopped by the next run's
start. Real servers, real kills: slow cases.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests import pg_server
from tests.paths import REPO

pytestmark = pytest.mark.slow


def _processes(folder: str) -> list[int]:
    """The processes whose command line names ``folder`` (the server, its backends), watchdogs left out."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            command = (
                Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            )
        except OSError:
            continue
        if folder in command and "--watch" not in command:
            found.append(int(entry))
    return found


def _watchdogs(parent: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--watch" in command and command[command.index(b"--watch") + 1] == str(parent).encode():
            found.append(int(entry))
    return found


def _until(condition: object, what: str, seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds:g} s: {what}")
        time.sleep(0.1)


@pytest.fixture
def server_programs() -> None:
    if not os.path.isdir("/proc"):
        pytest.skip("the check reads the processes from /proc")
    if pg_server.bindir() is None:
        pytest.skip("no PostgreSQL server programs on this machine")
    pytest.importorskip("psycopg")


def test_a_killed_test_run_leaves_no_server_running(tmp_path: Path, server_programs: None) -> None:
    pytest.importorskip("xdist")
    (tmp_path / "conftest.py").write_text(
        f"import sys\nsys.path.insert(0, {str(REPO)!r})\nfrom tests.conftest import postgres_server  # noqa: F401\n"
    )
    signals = tmp_path / "up"
    signals.mkdir()
    (tmp_path / "test_waits.py").write_text(
        "import os, time\n\n"
        "def _wait(url, name):\n"
        f"    with open(os.path.join({str(signals)!r}, name), 'w') as handle:\n"
        "        handle.write(url)\n"
        "    time.sleep(600)\n\n"
        "def test_one(postgres_server):\n    _wait(postgres_server, 'one')\n\n"
        "def test_two(postgres_server):\n    _wait(postgres_server, 'two')\n"
    )
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-n", "2", "-p", "no:cacheprovider", "-q", str(tmp_path)],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        _until(lambda: len(list(signals.iterdir())) == 2, "both workers started a server", 180)
        folders = [parse_qs(urlsplit(path.read_text()).query)["host"][0] for path in signals.iterdir()]
        assert len(set(folders)) == 2 and all(_processes(folder) for folder in folders)
    finally:
        os.killpg(run.pid, signal.SIGKILL)  # pytest and its workers, at once, as a CI timeout does
        run.wait(timeout=60)
    for folder in folders:
        _until(lambda folder=folder: not _processes(folder), f"the server of {folder} stopped")
        _until(lambda folder=folder: not os.path.exists(folder), f"{folder} removed")


def test_a_server_whose_watchdog_died_too_is_stopped_by_the_next_start(server_programs: None) -> None:
    code = (
        f"import sys, time\nsys.path.insert(0, {str(REPO)!r})\nfrom tests import pg_server\n"
        "server = pg_server.start()\nprint(server.folder, flush=True)\ntime.sleep(600)\n"
    )
    owner = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    assert owner.stdout is not None
    folder = owner.stdout.readline().strip()
    try:
        assert folder and _processes(folder)
        (watchdog,) = _watchdogs(owner.pid)
        os.kill(watchdog, signal.SIGKILL)  # the whole machinery dies, the server stays
    finally:
        os.killpg(owner.pid, signal.SIGKILL)
        owner.wait(timeout=60)
    time.sleep(0.5)
    assert _processes(folder), "the server outlived its owner and its watchdog"
    assert folder in pg_server.clean_stale()
    assert not _processes(folder) and not os.path.exists(folder)
