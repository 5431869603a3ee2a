"""Every writer checks what its reader will check, before a byte is written: what is written is read back.

One test per write path beside the Run store (tests/core/test_values.py) and
``build`` (tests/toolchain/test_build_output.py): the load cache, materialized views and
their receipts, and the files ``init``, ``import`` and ``migrate`` write. A
refusal names its code and leaves every file as it was; a write that fails
half-way (the disk filling up on the third file, say) takes back what it wrote.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
import agent_graph.toolchain as agtool
from agent_graph._load.cache import CachedValue, LoadCache
from agent_graph._toolchain.importers import import_scripts, import_skill, import_workflow
from agent_graph._toolchain.scaffold import check_written_source, init_provider
from tests.runtime import test_materialize as mat
from tests.strategies import deep_value


def fail_on_fsync(monkeypatch: pytest.MonkeyPatch, call: int) -> None:
    """Make the ``call``-th fsync of a file fail as a full disk does (folders' fsyncs pass)."""
    import errno
    import stat

    real_fsync = os.fsync
    calls = [0]

    def fsync(descriptor: int) -> None:
        if stat.S_ISREG(os.fstat(descriptor).st_mode):
            calls[0] += 1
            if calls[0] == call:
                raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(descriptor)

    monkeypatch.setattr(os, "fsync", fsync)


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------- the load cache


def test_the_cache_stores_what_its_lookup_reads_back(tmp_path: Path) -> None:
    cache = LoadCache(tmp_path / "cache")
    value = {"a": [1, 2.5, None, True, "x" * 100], "b": {"c": deep_value(200)}}
    cache.store(CachedValue("sha256:" + "1" * 64, "json:512:100", value, ["graph"], 10_000, dirty=True))
    found = cache.lookup("sha256:" + "1" * 64, "json:512:100", 10_000)
    assert found is not None and found.value == value and found.validated == {"graph"}


@pytest.mark.parametrize(
    ("name", "value", "size"),
    [
        ("larger than the lookup reads for its file", "x" * 2_000_000, 10),
        ("a lone surrogate", {"a": "\ud800"}, 1_000),
    ],
)
def test_the_cache_writes_nothing_its_lookup_would_refuse(
    tmp_path: Path, name: str, value: Any, size: int
) -> None:
    folder = tmp_path / "cache"
    cache = LoadCache(folder)
    cached = CachedValue("sha256:" + "2" * 64, "json:9000:100", value, [], size, dirty=True)
    cache.store(cached)
    assert not folder.exists() or not any(p.is_file() for p in folder.rglob("*")), name
    assert cache.lookup("sha256:" + "2" * 64, "json:9000:100", size) is None


@pytest.mark.parametrize("depth", [1_000, 5_000, 20_000])
def test_a_deep_value_is_cached_only_if_it_reads_back(tmp_path: Path, depth: int) -> None:
    """How deep msgspec's decoder goes depends on the build and the Python: whatever it is, an entry is
    written only when the lookup reads the same value back, and never one the lookup refuses."""
    folder = tmp_path / "cache"
    cache = LoadCache(folder)
    value = deep_value(depth, "list")
    cache.store(CachedValue("sha256:" + "3" * 64, "json:90000:100", value, [], 1 << 20, dirty=True))
    written = folder.exists() and any(p.is_file() for p in folder.rglob("*"))
    found = cache.lookup("sha256:" + "3" * 64, "json:90000:100", 1 << 20)
    if written:
        assert found is not None and found.value == value
    else:
        assert found is None


# ---------------------------------------------------------------- materialized views


def _materialize(tmp_path: Path, command: str, media_type: str) -> Any:
    provider = mat.load(tmp_path, {"view.x": {**mat.command(command), "mediaType": media_type}})
    return mat.run(provider, "view.x", tmp_path)


@pytest.mark.parametrize(
    ("command", "media_type"),
    [
        ("printf 'not json'", "application/json"),
        ("printf '{\"a\": 1,}'", "application/vnd.acme+json"),
        ("printf '{\"a\": NaN}'", "application/json"),
        ('printf \'{"a": 1, "a": 2}x\'', "application/json"),
        ("printf '%0600d' 0 | tr 0 '[' ; printf '%0600d' 0 | tr 0 ']'", "application/json"),
        ("printf '\\377\\376'", "text/markdown"),
        ("printf '\\377'", "application/json"),
    ],
)
def test_materialized_output_its_readers_would_refuse_is_not_written(
    tmp_path: Path, command: str, media_type: str
) -> None:
    cache = tmp_path / "cache"
    with pytest.raises(ag.AgentGraphError) as caught:
        _materialize(tmp_path, command, media_type)
    assert caught.value.code == "materializer-output-invalid", caught.value
    assert not cache.exists() or not any(cache.iterdir())


def test_materialized_output_and_its_receipt_read_back(tmp_path: Path) -> None:
    location = _materialize(tmp_path, "printf '{\"a\": [1, 2]}'", "application/json")
    assert json.loads(Path(location.file_path).read_text("utf-8")) == {"a": [1, 2]}
    receipt = json.loads(
        Path(location.file_path).with_suffix("").with_suffix(".receipt.json").read_text("utf-8")
    )
    assert receipt["digest"] == location.digest and receipt["file"] == location.file_path
    binary = _materialize(tmp_path / "bin", "printf '\\377\\000'", "application/octet-stream")
    assert Path(binary.file_path).read_bytes() == b"\xff\x00"


def test_a_receipt_naming_an_undecodable_path_is_valid_json(tmp_path: Path) -> None:
    provider = mat.load(tmp_path, {"view.x": mat.command("printf 1")})
    cache = os.fsdecode(bytes(tmp_path) + b"/cache-\xff")
    location = mat.run(provider, "view.x", tmp_path, cache=cache)
    receipt_path = Path(location.file_path).with_suffix("").with_suffix(".receipt.json")
    data = receipt_path.read_bytes()
    data.decode("utf-8")  # valid UTF-8: the undecodable byte is written as a \udcff escape
    assert json.loads(data)["file"] == location.file_path


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), float("inf"), 1e300, 10**400, True, "30"])
def test_materializer_timeouts_no_wait_could_honour_are_refused(tmp_path: Path, timeout: Any) -> None:
    provider = mat.load(tmp_path, {"view.x": mat.command("printf 1")})
    with pytest.raises(ag.AgentGraphError) as caught:
        mat.run(provider, "view.x", tmp_path, timeout=timeout)
    assert caught.value.code == "argument-invalid"
    assert not (tmp_path / "cache").exists()


@pytest.mark.parametrize("limit", [-1, True, 1.5, "10", 1 << 40])
def test_materializer_byte_limits_must_be_whole_numbers(tmp_path: Path, limit: Any) -> None:
    provider = mat.load(tmp_path, {"view.x": mat.command("printf 1")})
    for option in ("max_output_bytes", "max_error_bytes"):
        with pytest.raises(ag.AgentGraphError) as caught:
            mat.run(provider, "view.x", tmp_path, **{option: limit})
        assert caught.value.code == "argument-invalid"


# ---------------------------------------------------------------- init, import and migrate


def test_generated_sources_must_read_back(tmp_path: Path) -> None:
    check_written_source(str(tmp_path / "a.yaml"), b"a: 1\n", {"a": 1})
    for path, data, expected in (
        ("a.yaml", b"a: [1\n", None),
        ("a.yaml", b"a: 1\n", {"a": 2}),
        ("a.json", b"[" * 600 + b"]" * 600, None),
        ("SKILL.md", b"---\nname: [x\n---\nbody\n", None),
        ("a.yaml", b"\xff", None),
    ):
        with pytest.raises(ag.AgentGraphError) as caught:
            if expected is None:
                check_written_source(str(tmp_path / path), data)
            else:
                check_written_source(str(tmp_path / path), data, expected)
        assert caught.value.code == "output-unreadable", path


def test_an_import_that_would_grow_a_file_past_the_loaders_limit_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agent_graph._toolchain import scaffold

    init_provider(str(tmp_path / "p"), "demo")
    before = snapshot(tmp_path / "p")
    script = tmp_path / "build.sh"
    script.write_text("echo build\n")
    monkeypatch.setattr(scaffold, "DEFAULT_MAX_FILE_BYTES", len(before["provider.yaml"]) + 5)
    with pytest.raises(ag.AgentGraphError) as caught:
        import_scripts([str(script)], str(tmp_path / "p"))
    assert caught.value.code == "file-too-large"
    assert snapshot(tmp_path / "p") == before


@pytest.mark.parametrize("fail_at", [1, 2, 3, 5, 6])
def test_an_import_that_fails_half_way_takes_back_what_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_at: int
) -> None:
    init_provider(str(tmp_path / "p"), "demo")
    before = snapshot(tmp_path / "p")
    folders_before = sorted(p for p in (tmp_path / "p").rglob("*") if p.is_dir())
    workflow = tmp_path / "flow.yaml"
    workflow.write_text(
        "steps:\n  - {id: a, command: make a}\n  - {id: b, command: make b, dependsOn: [a]}\n"
    )
    fail_on_fsync(monkeypatch, fail_at)
    with pytest.raises(ag.AgentGraphError) as caught:
        import_workflow(str(workflow), str(tmp_path / "p"))
    assert caught.value.code == "disk-full"
    assert snapshot(tmp_path / "p") == before
    assert sorted(p for p in (tmp_path / "p").rglob("*") if p.is_dir()) == folders_before


@pytest.mark.parametrize("fail_at", [1, 4, 8])
def test_init_that_fails_half_way_takes_back_what_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_at: int
) -> None:
    fail_on_fsync(monkeypatch, fail_at)
    (tmp_path / "p").mkdir()
    with pytest.raises(ag.AgentGraphError):
        init_provider(str(tmp_path / "p"), "demo")
    assert list((tmp_path / "p").iterdir()) == []


@pytest.mark.parametrize("fail_at", [1, 2, 4])
def test_a_migration_that_fails_half_way_takes_back_what_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail_at: int
) -> None:
    from tests.toolchain.test_migrate import PROVIDER_02

    root = tmp_path / "legacy"
    for relative, text in PROVIDER_02.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    before = snapshot(root)
    fail_on_fsync(monkeypatch, fail_at)
    with pytest.raises(ag.AgentGraphError) as caught:
        agtool.migrate_provider(str(root / "provider.yaml"))
    assert caught.value.code == "disk-full"
    assert snapshot(root) == before


def test_what_import_writes_loads(tmp_path: Path) -> None:
    init_provider(str(tmp_path / "p"), "demo")
    skill = tmp_path / "skill" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_text("---\nname: helper\ndescription: Helps.\n---\n# Helper\n")
    import_skill(str(skill), str(tmp_path / "p"))
    script = tmp_path / "go.py"
    script.write_text("print('go')\n")
    import_scripts([str(script)], str(tmp_path / "p"))
    provider = ag.load_provider(str(tmp_path / "p" / "provider.yaml"))
    assert len(provider.graphs) == 3
