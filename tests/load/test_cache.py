"""The load cache: same answers with or without it, hits by digest only, damage ignored."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from agent_graph._core.errors import AgentGraphError
from agent_graph._load import cache as _cache, reader as _reader
from agent_graph._load.cache import LoadCache, default_directory, open_cache
from agent_graph._load.loader import load_provider
from tests.paths import REPO


def _write(root: Path, files: dict[str, str]) -> str:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return str(root / "provider.yaml")


def _provider_files() -> dict[str, str]:
    from benchmarks.generate import realistic

    return realistic().files


def _entries(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*.msgpack") if p.is_file())


def _snapshot(provider: ag.Provider) -> Any:
    """Everything a load decides, as plain data."""
    return msgspec.to_builtins(
        {
            "digest": provider.digest,
            "files": list(provider.files),
            "file_digests": dict(provider.file_digests),
            "graphs": {
                gid: [g.digest, msgspec.to_builtins(g.definition)] for gid, g in provider.graphs.items()
            },
            "actions": {
                k: [a.files, msgspec.to_builtins(a.route_action), msgspec.to_builtins(a.plan)]
                for k, a in provider.actions.items()
            },
            "resources": {k: msgspec.to_builtins(r.location) for k, r in provider.resources.items()},
            "routes": {f"{g}/{n}": repr(v) for (g, n), v in provider.node_routes.items()},
            "codes": {k: msgspec.to_builtins(v) for k, v in provider.codes.items()},
            "manifest": provider.raw_manifest,
        }
    )


class _Counting:
    """Counts parses and schema checks the loader really does."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.parsed = 0
        self.headers = 0
        self.validated = 0
        self.inputs = 0
        parse, header, validate = (
            _reader.parse_structured,
            _reader.parse_front_matter,
            _reader._schema.validate,
        )
        validate_input = _reader._schema.validate_with_schema

        def counting_parse(*args: Any, **kwargs: Any) -> Any:
            self.parsed += 1
            return parse(*args, **kwargs)

        def counting_header(*args: Any, **kwargs: Any) -> Any:
            self.headers += 1
            return header(*args, **kwargs)

        def counting_validate(*args: Any, **kwargs: Any) -> Any:
            self.validated += 1
            return validate(*args, **kwargs)

        def counting_input(*args: Any, **kwargs: Any) -> Any:
            self.inputs += 1
            return validate_input(*args, **kwargs)

        monkeypatch.setattr(_reader._schema, "validate_with_schema", counting_input)
        monkeypatch.setattr(_reader, "parse_structured", counting_parse)
        monkeypatch.setattr(_reader, "parse_front_matter", counting_header)
        monkeypatch.setattr(_reader._schema, "validate", counting_validate)

    def reset(self) -> None:
        self.parsed = self.headers = self.validated = self.inputs = 0


# --------------------------------------------------------------------------- same answers


def test_a_cached_load_gives_the_same_provider_and_evaluations(tmp_path: Path) -> None:
    from benchmarks.generate import realistic

    workload = realistic()
    manifest = _write(tmp_path / "p", workload.files)
    cache = tmp_path / "cache"
    plain = load_provider(manifest, cache=False)
    first = load_provider(manifest, cache=str(cache))
    second = load_provider(manifest, cache=str(cache))
    assert _entries(cache)
    assert _snapshot(plain) == _snapshot(first) == _snapshot(second)
    state = {"facts": workload.facts, "outcomes": workload.outcomes, "authorities": workload.authorities}
    answers = [msgspec.json.encode(ag.evaluate(p, workload.graph, **state)) for p in (plain, first, second)]
    assert answers[0] == answers[1] == answers[2]


@pytest.mark.parametrize(
    "example", sorted(p.name for p in (REPO / "examples").iterdir() if (p / "provider.yaml").is_file())
)
def test_every_example_loads_the_same_from_the_cache(tmp_path: Path, example: str) -> None:
    manifest = str(REPO / "examples" / example / "provider.yaml")
    plain = load_provider(manifest, cache=False)
    load_provider(manifest, cache=str(tmp_path))
    assert _snapshot(load_provider(manifest, cache=str(tmp_path))) == _snapshot(plain)


def test_the_second_load_parses_and_checks_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = _write(tmp_path / "p", _provider_files())
    counts = _Counting(monkeypatch)
    load_provider(manifest, cache=str(tmp_path / "cache"))
    assert counts.parsed > 40 and counts.headers > 20 and counts.validated > 40 and counts.inputs == 1
    counts.reset()
    load_provider(manifest, cache=str(tmp_path / "cache"))
    assert (counts.parsed, counts.headers, counts.validated, counts.inputs) == (0, 0, 0, 0)


def test_a_host_action_input_is_checked_again_when_its_schema_changes(tmp_path: Path) -> None:
    manifest = _write(tmp_path / "p", _provider_files())
    cache = str(tmp_path / "cache")
    load_provider(manifest, cache=cache)
    schema = tmp_path / "p" / "schemas" / "issue-query.schema.json"
    document = json.loads(schema.read_text())
    document["properties"]["milestone"] = {"type": "integer"}
    schema.write_text(json.dumps(document))
    with pytest.raises(AgentGraphError) as raised:
        load_provider(manifest, cache=cache)
    assert raised.value.code == "host-action-input-invalid"


def test_without_a_cache_every_load_parses_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    manifest = _write(tmp_path / "p", _provider_files())
    counts = _Counting(monkeypatch)
    load_provider(manifest, cache=False)
    first = counts.parsed
    load_provider(manifest, cache=False)
    assert counts.parsed == 2 * first > 0
    assert not (tmp_path / "xdg").exists()


# --------------------------------------------------------------------------- keyed by the bytes


def test_a_changed_file_is_parsed_again_and_the_change_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _provider_files()
    manifest = _write(tmp_path / "p", files)
    cache = str(tmp_path / "cache")
    before = load_provider(manifest, cache=cache)
    action = tmp_path / "p" / "actions" / "release-freeze.yaml"
    action.write_text(action.read_text().replace("make release-freeze", "make freeze-now"))
    counts = _Counting(monkeypatch)
    after = load_provider(manifest, cache=cache)
    assert counts.parsed == 1 and counts.validated == 1
    assert after.digest != before.digest
    assert after.actions[str(action)].definition.command == "make freeze-now"
    assert _snapshot(after) == _snapshot(load_provider(manifest, cache=False))


def test_a_value_checked_against_one_schema_is_checked_again_for_another(tmp_path: Path) -> None:
    """The same bytes as a valid Action and then as a Graph: the graph schema still refuses them."""
    action = "schema: agent-graph.action.v1\nid: step\nrunner: command\neffect: write\ncommand: make\n"
    files = {
        "provider.yaml": "schema: agent-graph.provider.v1\nid: p\nversion: 1.0.0\ngraphs: [graphs/main.yaml]\n",
        "graphs/main.yaml": (
            "schema: agent-graph.graph.v1\nid: main\nentrypoints: {default: a}\nnodes:\n"
            "  - {id: a, kind: action, reasonCode: route.a, action: actions/step.yaml}\n"
            "  - {id: end, kind: terminal, terminalOutcome: completed}\nedges:\n  - {from: a, to: end}\n"
        ),
        "actions/step.yaml": action,
    }
    cache = str(tmp_path / "cache")
    load_provider(_write(tmp_path / "good", files), cache=cache)
    broken = dict(files, **{"graphs/main.yaml": action})
    with pytest.raises(AgentGraphError) as raised:
        load_provider(_write(tmp_path / "bad", broken), cache=cache)
    assert raised.value.code == "schema-invalid"


def test_errors_are_never_cached(tmp_path: Path) -> None:
    files = dict(_provider_files())
    files["actions/release-freeze.yaml"] += "unknown: field\n"
    manifest = _write(tmp_path / "p", files)
    for _ in range(2):
        with pytest.raises(AgentGraphError) as raised:
            load_provider(manifest, cache=str(tmp_path / "cache"))
        assert raised.value.code == "schema-invalid"


def test_limits_are_part_of_the_key(tmp_path: Path) -> None:
    files = dict(_provider_files())
    manifest = _write(tmp_path / "p", files)
    cache = str(tmp_path / "cache")
    load_provider(manifest, cache=cache)
    with pytest.raises(AgentGraphError) as raised:
        load_provider(manifest, cache=cache, limits=ag.Limits(max_depth=3))
    assert raised.value.code == "parse-failed"


# --------------------------------------------------------------------------- damage is ignored


@pytest.mark.parametrize("damage", ["truncate", "garbage", "flip", "empty", "swap", "format"])
def test_damaged_entries_are_ignored_and_rewritten(
    tmp_path: Path, damage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = _write(tmp_path / "p", _provider_files())
    cache = tmp_path / "cache"
    expected = _snapshot(load_provider(manifest, cache=False))
    load_provider(manifest, cache=str(cache))
    entries = _entries(cache)
    for index, entry in enumerate(entries):
        data = entry.read_bytes()
        if damage == "truncate":
            data = data[: len(data) // 2]
        elif damage == "garbage":
            data = os.urandom(len(data))
        elif damage == "flip":
            middle = len(data) - 3
            data = data[:middle] + bytes([data[middle] ^ 0x55]) + data[middle + 1 :]
        elif damage == "empty":
            data = b""
        elif damage == "swap":  # a well-formed entry of another file
            data = entries[(index + 1) % len(entries)].read_bytes()
        else:
            decoded = msgspec.msgpack.decode(data)
            decoded[0] = "agent-graph.load-cache.v0"
            data = msgspec.msgpack.encode(decoded)
        entry.write_bytes(data)
    counts = _Counting(monkeypatch)
    assert _snapshot(load_provider(manifest, cache=str(cache))) == expected
    assert counts.parsed > 40  # nothing was taken from the damaged entries
    counts.reset()
    assert _snapshot(load_provider(manifest, cache=str(cache))) == expected
    assert counts.parsed == 0  # rewritten by the previous load


def test_an_entry_with_a_forged_value_but_a_stale_check_is_ignored(tmp_path: Path) -> None:
    files = {
        "provider.yaml": "schema: agent-graph.provider.v1\nid: p\nversion: 1.0.0\ngraphs: [graphs/main.yaml]\n",
        "graphs/main.yaml": (
            "schema: agent-graph.graph.v1\nid: main\nentrypoints: {default: end}\nnodes:\n"
            "  - {id: end, kind: terminal, terminalOutcome: completed}\nedges: []\n"
        ),
    }
    manifest = _write(tmp_path / "p", files)
    cache = tmp_path / "cache"
    load_provider(manifest, cache=str(cache))
    forged = 0
    for entry in _entries(cache):
        fields = msgspec.msgpack.decode(entry.read_bytes())
        payload = msgspec.msgpack.decode(fields[3])
        if isinstance(payload[0], dict) and payload[0].get("id") == "main":
            payload[0]["nodes"][0]["terminalOutcome"] = "failed"
            fields[3] = msgspec.msgpack.encode(payload)  # the check still covers the old payload
            entry.write_bytes(msgspec.msgpack.encode(fields))
            forged += 1
    assert forged == 1
    provider = load_provider(manifest, cache=str(cache))
    assert ag.evaluate(provider, "main").outcome == "completed"


def test_an_unusable_cache_directory_never_fails_a_load(tmp_path: Path) -> None:
    manifest = _write(tmp_path / "p", _provider_files())
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("x")
    expected = _snapshot(load_provider(manifest, cache=False))
    assert _snapshot(load_provider(manifest, cache=str(blocker))) == expected
    assert _snapshot(load_provider(manifest, cache=str(blocker / "below"))) == expected


def test_values_msgpack_cannot_hold_are_parsed_every_time(tmp_path: Path) -> None:
    files = {
        "provider.yaml": 'schema: agent-graph.provider.v1\nid: p\nversion: 1.0.0\ngraphs: [graphs/main.yaml]\ndescription: "\\ud800"\n',
        "graphs/main.yaml": (
            "schema: agent-graph.graph.v1\nid: main\nentrypoints: {default: end}\nnodes:\n"
            "  - {id: end, kind: terminal, terminalOutcome: completed}\nedges: []\n"
        ),
    }
    manifest = _write(tmp_path / "p", files)
    expected = _snapshot(load_provider(manifest, cache=False))
    for _ in range(2):
        provider = load_provider(manifest, cache=str(tmp_path / "cache"))
        assert provider.manifest.description == "\ud800"
        assert _snapshot(provider) == expected


# --------------------------------------------------------------------------- where


def test_the_default_directory_follows_the_platform_conventions(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(_cache.sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_directory() == str(tmp_path / "xdg" / "agent-graph")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_directory() == str(tmp_path / "home" / ".cache" / "agent-graph")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_directory() == str(tmp_path / "home" / ".cache" / "agent-graph")
    monkeypatch.setattr(_cache.sys, "platform", "darwin")
    assert default_directory() == str(tmp_path / "home" / "Library" / "Caches" / "agent-graph")
    monkeypatch.setattr(_cache.sys, "platform", "win32")
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "local"))
    assert default_directory() == os.path.join(str(tmp_path / "local"), "agent-graph", "Cache")
    monkeypatch.delenv("LOCALAPPDATA")
    assert default_directory() is None


def test_the_library_writes_no_cache_unless_asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(_cache.sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    files = _provider_files()
    manifest = _write(tmp_path / "p", files)
    before = sorted(p for p in tmp_path.rglob("*"))
    load_provider(manifest)  # the default: nothing written anywhere
    load_provider(manifest, cache=False)
    assert sorted(p for p in tmp_path.rglob("*")) == before
    assert open_cache(None) is None and open_cache(False) is None
    load_provider(manifest, cache=True)  # opting in: the platform cache directory
    assert _entries(tmp_path / "xdg" / "agent-graph")
    memory = ag.MemoryFileSystem({f"/m/{k}": v for k, v in files.items()})
    load_provider("/m/provider.yaml", fs=memory, cache=str(tmp_path / "named"))
    assert _entries(tmp_path / "named")  # a named directory serves any file system


def test_the_command_line_uses_the_platform_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from agent_graph._cli.main import main

    monkeypatch.setattr(_cache.sys, "platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    manifest = _write(tmp_path / "p", _provider_files())
    assert main(["validate", "--manifest", str(manifest), "--format", "json"]) == 0
    assert _entries(tmp_path / "xdg" / "agent-graph")


def test_other_code_uses_other_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = _write(tmp_path / "p", _provider_files())
    cache = tmp_path / "cache"
    load_provider(manifest, cache=str(cache))
    original = LoadCache(cache).fingerprint
    assert [p.name for p in cache.iterdir()] == [original]
    monkeypatch.setattr(_cache, "_fingerprint", "0" * 32)
    counts = _Counting(monkeypatch)
    load_provider(manifest, cache=str(cache))
    assert counts.parsed > 40
    assert sorted(p.name for p in cache.iterdir()) == sorted([original, "0" * 32])


def test_a_load_leaves_the_garbage_collector_as_it_found_it(tmp_path: Path) -> None:
    import gc

    manifest = _write(tmp_path / "p", _provider_files())
    assert gc.isenabled()
    load_provider(manifest, cache=False)
    assert gc.isenabled()
    gc.disable()
    try:
        load_provider(manifest, cache=False)
        assert not gc.isenabled()
    finally:
        gc.enable()
    files = dict(_provider_files())
    files["actions/release-freeze.yaml"] += "unknown: field\n"
    broken = _write(tmp_path / "broken", files)
    with pytest.raises(AgentGraphError):
        load_provider(broken, cache=False)
    assert gc.isenabled()
