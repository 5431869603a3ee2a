"""``build`` deletes nothing it did not write, and a killed build leaves no half-bundle and nothing to trip over.

An existing output folder is replaced only when it is a complete, verifiable
earlier bundle: its ``manifest.json`` matches its own digest, every listed file
its digest, and the folder holds nothing else. Anything else is
``build-output-exists`` and stays byte for byte. A build killed at any point
(``SIGKILL`` from inside, after each file it writes and around each rename)
leaves the output as it was or as the complete new bundle; the next build
removes the marked working folders it left and succeeds.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import agent_graph as ag
from agent_graph._toolchain.bundle import BUILD_MARKER, build_bundle, verified_bundle_files
from tests.load.test_bundle import FULL_PROVIDER, write_tree
from tests.paths import REPO


@pytest.fixture
def source(tmp_path: Path) -> ag.Provider:
    return ag.load_provider(str(write_tree(tmp_path / "src", FULL_PROVIDER)))


def tree(folder: Path) -> dict[str, str]:
    """Every entry below ``folder``: a digest for files, a marker for folders, the target for links."""
    entries: dict[str, str] = {}
    for directory, folders, files in os.walk(folder):
        for name in folders + files:
            path = Path(directory, name)
            relative = path.relative_to(folder).as_posix()
            if path.is_symlink():
                entries[relative] = "link:" + os.readlink(path)
            elif path.is_dir():
                entries[relative] = "folder"
            elif path.is_file():
                entries[relative] = hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                entries[relative] = "special"
    return entries


def refused(source: ag.Provider, out: Path) -> None:
    before = tree(out.parent)
    with pytest.raises(ag.AgentGraphError) as caught:
        build_bundle(source, str(out))
    assert caught.value.code == "build-output-exists", caught.value
    assert tree(out.parent) == before


def leftovers(parent: Path) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if ".agent-graph-" in p.name)


# ---------------------------------------------------------------- what an output folder may hold


def _built(source: ag.Provider, out: Path) -> Path:
    build_bundle(source, str(out))
    assert verified_bundle_files(str(out))
    return out


def _manifest(out: Path) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((out / "manifest.json").read_text("utf-8"))
    return loaded


TAMPERING = {
    "an extra file": lambda out: (out / "notes.txt").write_text("mine"),
    "an extra file in a folder": lambda out: (out / "graphs" / "draft.yaml").write_text("mine"),
    "an empty folder": lambda out: (out / "keep").mkdir(),
    "a link": lambda out: (out / "link").symlink_to("/etc/hostname"),
    "a listed file changed": lambda out: (out / "graphs" / "main.yaml").write_text("changed\n"),
    "a listed file missing": lambda out: (out / "graphs" / "main.yaml").unlink(),
    "a listed file replaced by a folder": lambda out: (
        (out / "graphs" / "main.yaml").unlink(),
        (out / "graphs" / "main.yaml").mkdir(),
    ),
    "the manifest re-signed without a file": lambda out: _resign(out, drop="graphs/main.yaml"),
    "the manifest with a wrong digest": lambda out: (out / "manifest.json").write_text(
        json.dumps({**_manifest(out), "digest": "sha256:" + "0" * 64})
    ),
    "the manifest not JSON": lambda out: (out / "manifest.json").write_text("{not json"),
    "the manifest of another kind": lambda out: (out / "manifest.json").write_text(
        json.dumps({"schema": "agent-graph.bundle.v1"})
    ),
    "no manifest": lambda out: (out / "manifest.json").unlink(),
    "a fifo": lambda out: os.mkfifo(out / "fifo"),
}


def _resign(out: Path, drop: str) -> None:
    manifest = dict(_manifest(out))
    manifest["files"] = [f for f in manifest["files"] if f["path"] != drop]  # type: ignore[attr-defined]
    unsigned = {k: v for k, v in manifest.items() if k != "digest"}
    manifest["digest"] = ag.digest_value(unsigned)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2))


@pytest.mark.parametrize("tamper", sorted(TAMPERING))
def test_an_output_that_is_not_exactly_a_bundle_is_refused_and_kept(
    source: ag.Provider, tmp_path: Path, tamper: str
) -> None:
    if tamper == "a fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    out = _built(source, tmp_path / "dist")
    TAMPERING[tamper](out)
    refused(source, out)
    assert leftovers(tmp_path) == []


def test_a_folder_claiming_to_be_a_bundle_is_refused(source: ag.Provider, tmp_path: Path) -> None:
    out = tmp_path / "dist"
    out.mkdir()
    (out / "manifest.json").write_text(json.dumps({"schema": "agent-graph.bundle.v1", "files": []}))
    (out / "precious.txt").write_text("mine")
    refused(source, out)


def test_a_complete_earlier_bundle_is_replaced_and_only_its_files_deleted(
    source: ag.Provider, tmp_path: Path
) -> None:
    out = _built(source, tmp_path / "dist")
    (tmp_path / "beside.txt").write_text("not ours")
    build_bundle(source, str(out))
    assert verified_bundle_files(str(out))
    assert (tmp_path / "beside.txt").read_text() == "not ours"
    assert leftovers(tmp_path) == []
    assert not (out / BUILD_MARKER).exists()


def test_a_file_added_while_the_earlier_bundle_is_retired_is_kept(
    source: ag.Provider, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_graph._toolchain import bundle as bundle_module

    out = _built(source, tmp_path / "dist")
    real_retire = bundle_module._retire

    def retire_after_a_write(retired: str, files: set[str]) -> None:
        Path(retired, "late.txt").write_text("written meanwhile")
        real_retire(retired, files)

    monkeypatch.setattr(bundle_module, "_retire", retire_after_a_write)
    build_bundle(source, str(out))
    kept = [p for p in tmp_path.iterdir() if p.is_dir() and (p / "late.txt").exists()]
    assert len(kept) == 1 and (kept[0] / "late.txt").read_text() == "written meanwhile"
    assert not (kept[0] / BUILD_MARKER).exists()  # no later build removes it
    build_bundle(source, str(out))
    assert (kept[0] / "late.txt").exists()


# ---------------------------------------------------------------- builds killed on the way

_KILLER = textwrap.dedent(
    """
    import os, signal, sys
    sys.path.insert(0, {repo!r})
    import agent_graph as ag
    from agent_graph._toolchain import bundle

    after = int(sys.argv[1])
    count = [0]
    if sys.argv[2] == "no-exchange":
        bundle._exchange = lambda first, second: False

    def tick():
        count[0] += 1
        if count[0] == after:
            os.kill(os.getpid(), signal.SIGKILL)

    for name in ("write_staged", "_new_folder", "_exchange", "_retire", "fsync_directory"):
        real = getattr(bundle, name)
        def wrapped(*args, _real=real):
            tick()
            result = _real(*args)
            tick()
            return result
        setattr(bundle, name, wrapped)
    real_rename = os.rename
    def rename(*args):
        tick()
        real_rename(*args)
        tick()
    bundle.os.rename = rename
    provider = ag.load_provider({manifest!r})
    bundle.build_bundle(provider, {out!r})
    print("finished", count[0])
    """
)


def _build_killed_at(step: int, manifest: Path, out: Path, mode: str) -> tuple[bool, int]:
    """Run a build in a process that kills itself at its ``step``-th tick; (killed, ticks when it finished)."""
    script = _KILLER.format(repo=str(REPO), manifest=str(manifest), out=str(out))
    answer = subprocess.run(
        [sys.executable, "-c", script, str(step), mode], capture_output=True, text=True, timeout=120
    )
    if answer.returncode == 0:
        return False, int(answer.stdout.split()[-1])
    assert answer.returncode == -signal.SIGKILL, answer.stderr
    return True, 0


def _reset(out: Path, provider: ag.Provider, earlier: bool) -> None:
    import shutil

    shutil.rmtree(out.parent, ignore_errors=True)
    out.parent.mkdir(parents=True)
    if earlier:
        build_bundle(provider, str(out))


@pytest.mark.parametrize("mode", ["new output", "over an earlier bundle", "no-exchange"])
@pytest.mark.slow
def test_a_build_killed_at_any_point_leaves_no_half_bundle(tmp_path: Path, mode: str) -> None:
    """Killed anywhere: the output is the earlier bundle or the complete new one; the next build tidies up.

    ``no-exchange`` is a system without one-step folder exchange: killed between
    its two renames, the build leaves the earlier bundle marked beside the
    output, and the next build puts it back before anything else.
    """
    from agent_graph._toolchain.bundle import _sweep

    earlier = mode != "new output"
    manifest = write_tree(tmp_path / "src", FULL_PROVIDER)
    provider = ag.load_provider(str(manifest))
    out = tmp_path / "out" / "dist"
    _reset(out, provider, earlier)
    complete = tree(out) if earlier else None
    killed, ticks = _build_killed_at(10**9, manifest, out, mode)
    assert not killed and ticks > 10
    # the first steps, the middle and every step around the renames at the end
    steps = sorted({1, 2, ticks // 2, *range(max(ticks - 8, 3), ticks + 1)})
    for step in steps:
        _reset(out, provider, earlier)
        killed, _ = _build_killed_at(step, manifest, out, mode)
        assert killed, step
        if mode == "no-exchange" and not out.exists():
            _sweep(str(out.parent), out.name)  # what the next build does first
            assert out.exists(), step
        if out.exists():  # the earlier bundle, or the complete new one: never half of either
            assert verified_bundle_files(str(out)), step
            if complete is not None:
                assert {k: v for k, v in tree(out).items() if k != BUILD_MARKER} == complete, step
        else:
            assert not earlier, f"the earlier bundle is gone after a kill at step {step}"
        build_bundle(provider, str(out))  # the next build tidies up after the killed one
        assert leftovers(out.parent) == [], step
        assert verified_bundle_files(str(out))
        assert not (out / BUILD_MARKER).exists()
