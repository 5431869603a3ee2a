"""Store URL schemes through the entry points ``agent_graph.stores``: a store in a distribution of its own.

``tests/third_party_store`` is such a distribution (``ag-shelf``, the
``shelf://`` scheme), written against ``agent_graph.storage`` only. The fast
tests put it where an installer would (its package and its ``.dist-info``
on the path); the slow one builds its wheel without network, installs it with
pip into a folder of its own, and drives the command line and ``agent-graph
mcp`` on it in other processes.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
import agent_graph._cli.main as _cli
import agent_graph.types as agt
from agent_graph._runtime.stores import BUILT_IN, ENTRY_POINTS
from agent_graph.testing.store_contract import RunStoreContract
from tests.in_process import code_of
from tests.paths import REPO

SHELF = REPO / "tests" / "third_party_store"
WEEKLY = REPO / "examples" / "weekly-report"


def install_by_hand(site: Path, entry_point: str = "shelf = ag_shelf:SCHEME") -> None:
    """What pip leaves in site-packages: the package and its ``.dist-info`` with ``entry_points.txt``."""
    shutil.copytree(SHELF / "ag_shelf", site / "ag_shelf")
    info = site / "ag_shelf-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: ag-shelf\nVersion: 0.1.0\n", "utf-8")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINTS}]\n{entry_point}\n", "utf-8")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "site"
    install_by_hand(folder)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    )
    yield folder
    sys.modules.pop("ag_shelf", None)


def test_an_installed_scheme_is_found_by_open_store_and_open_async_store(site: Path, tmp_path: Path) -> None:
    import asyncio

    weekly = ag.load_provider(str(WEEKLY / "provider.yaml"))
    url = f"shelf://{tmp_path / 'shelf'}"
    with ag.open_store(url, lock_timeout=5) as store:
        assert type(store.storage).__name__ == "ShelfStorage" and store.store_kind == "shelf"
        run = store.start(None, weekly, "report")
        step = store.next_step(run.id, weekly)
        assert step.route is not None and step.route.after_action is not None
        store.record(
            run.id, step.route.after_action.record_node, "partial", provider=weekly, revision=step.revision
        )

    async def again() -> list[agt.RunSummary]:
        async with await ag.open_async_store(url) as store:
            assert (await store.head(run.id)).events == 2
            return await store.list()

    assert [summary.id for summary in asyncio.run(again())] == [run.id]
    assert code_of(lambda: ag.open_store(url, pool_size=2)) == "argument-invalid"


def test_an_unknown_scheme_names_the_installed_ones(site: Path) -> None:
    with pytest.raises(ag.AgentGraphError) as caught:
        ag.open_store("redis://localhost/0")
    assert caught.value.code == "store-url-invalid"
    for scheme in ("shelf://", "sqlite://", "postgresql://", "memory://"):
        assert scheme in caught.value.message
    assert ENTRY_POINTS in caught.value.message


def test_a_built_in_scheme_cannot_be_taken_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "site"
    install_by_hand(folder, "sqlite = ag_shelf:SCHEME")
    monkeypatch.syspath_prepend(str(folder))
    with ag.open_store(f"sqlite:///{tmp_path / 'runs.db'}") as store:
        assert isinstance(store, ag.SqliteRunStore)


@pytest.mark.parametrize(
    ("entry_point", "code"),
    [
        ("shelf = ag_shelf:open_shelf", "store-url-invalid"),  # not a StoreScheme
        ("shelf = ag_shelf_missing:SCHEME", "run-store-unavailable"),  # cannot be imported
    ],
)
def test_an_entry_point_that_names_no_scheme_is_refused_with_a_code(
    entry_point: str, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "site"
    install_by_hand(folder, entry_point)
    monkeypatch.syspath_prepend(str(folder))
    try:
        assert code_of(lambda: ag.open_store("shelf:///x")) == code
    finally:
        sys.modules.pop("ag_shelf", None)


def test_agent_graph_registers_its_own_schemes_as_entry_points() -> None:
    """pyproject.toml declares exactly the built-in table, each entry naming the same StoreScheme."""
    text = (REPO / "pyproject.toml").read_text("utf-8")
    section = text.split(f'[project.entry-points."{ENTRY_POINTS}"]\n', 1)[1].split("\n\n", 1)[0]
    declared = {
        name.strip(): target.strip().strip('"')
        for name, _, target in (
            line.partition("=") for line in section.splitlines() if not line.startswith("#")
        )
    }
    assert sorted(declared) == sorted(BUILT_IN)
    for scheme, target in declared.items():
        module, _, name = target.partition(":")
        assert getattr(__import__(module, fromlist=[name]), name) is BUILT_IN[scheme]()


def test_the_command_line_takes_the_scheme_and_its_options(
    site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(WEEKLY)
    url = f"shelf://{tmp_path / 'shelf'}"

    def cli(*arguments: str) -> Any:
        status = _cli.main([*arguments, "--format", "json"])
        out, err = capsys.readouterr()
        assert status == 0, err
        return json.loads(out)

    started = cli(
        "run", "start", "report", "--store", url, "--run", "weekly", "--store-option", "lock_timeout=5"
    )
    assert started["id"] == "weekly"
    assert cli("run", "list", "--store", url)["runs"][0]["id"] == "weekly"
    assert (
        _cli.main(["run", "list", "--store", url, "--store-option", "pool_size=2", "--format", "json"]) == 1
    )
    envelope = json.loads(capsys.readouterr().err)
    assert envelope["error"]["code"] == "argument-invalid" and "pool_size" in envelope["error"]["message"]


class TestShelfStore(RunStoreContract):
    """The third party's store passes the contract on both faces (its blocking storage on worker threads)."""

    @pytest.fixture(params=("sync", "async"))
    def open_run_store(self, request: pytest.FixtureRequest, site: Path, tmp_path: Path) -> object:
        opener = ag.open_store if request.param == "sync" else ag.open_async_store
        return functools.partial(opener, f"shelf://{tmp_path / 'shelf'}")


# ---------------------------------------------------------------- a real installation


def _built_and_installed(tmp_path: Path) -> Path:
    """The shelf distribution built into a wheel and installed by pip, without network, into a folder."""
    source = tmp_path / "source"
    shutil.copytree(SHELF, source)
    wheels, target = tmp_path / "wheels", tmp_path / "installed"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    offline = {**os.environ, "PIP_NO_INDEX": "1"}

    def pip_run(*arguments: str) -> None:
        done = subprocess.run(
            [*pip, *arguments], capture_output=True, text=True, timeout=300, env=offline, check=False
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]

    pip_run("wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(wheels), str(source))
    (wheel,) = wheels.glob("ag_shelf-0.1.0-*.whl")
    pip_run("install", "--no-deps", "--no-index", "--target", str(target), str(wheel))
    assert (target / "ag_shelf" / "__init__.py").is_file()
    return target


@pytest.mark.slow
def test_an_installed_wheel_serves_the_command_line_and_mcp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.mcp.test_mcp import connect, ok, run

    target = _built_and_installed(tmp_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), str(REPO)])}
    url = f"shelf://{tmp_path / 'shelf'}"

    def cli(*arguments: str) -> Any:
        done = subprocess.run(
            [sys.executable, "-m", "agent_graph", *arguments, "--format", "json"],
            cwd=WEEKLY, env=env, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout)

    cli("run", "start", "report", "--store", url, "--run", "weekly", "--workspace", str(tmp_path))
    step = cli("run", "next", "--store", url, "--run", "weekly")
    node = step["route"]["afterAction"]["recordNode"]
    cli("run", "record", node, "partial", "--store", url, "--run", "weekly", "--revision", step["revision"])
    assert [entry["id"] for entry in cli("run", "list", "--store", url)["runs"]] == ["weekly"]
    assert cli("run", "events", "--store", url, "--run", "weekly")["events"][-1]["node"] == node

    monkeypatch.setenv("PYTHONPATH", env["PYTHONPATH"])  # the MCP server process finds the shelf too

    async def scenario() -> None:
        async with connect(["--store", url, "--store-option", "lock_timeout=10"], tmp_path) as session:
            started = await ok(session, "start_run", {"graph": "report"})
            step = await ok(session, "next_step", {"runId": started["runId"]})
            await ok(
                session,
                "record_outcome",
                {
                    "runId": started["runId"],
                    "node": step["record"]["node"],
                    "outcome": "completed",
                    "revision": step["record"]["revision"],
                    "facts": {"report": {"digest": "sha256:1"}},
                },
            )
            listed = await ok(session, "list_runs", {"limit": 10})
            assert len(listed["runs"]) == 2 and listed["nextCursor"] is None

    run(scenario())

    assert "Traceback" not in (tmp_path / "server-stderr.txt").read_text(encoding="utf-8")
