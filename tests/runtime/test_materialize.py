"""Graph-action materialization (behaviour.md §12): revision check, environment, runners, limits and the cache."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
from agent_graph._core.errors import AgentGraphError
from agent_graph._runtime.materialize import INHERITED_VARIABLES, cache_extension, materialize_resource
from tests.fakes import FakeMonotonic

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="materializers need POSIX process groups")

REVISION = "sha256:" + "ab" * 32
PROVIDER_ID = "tests/materialize"


def _dump(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(value if isinstance(value, str) else json.dumps(value, indent=2), "utf-8")


def write_provider(root: Path, materializers: Mapping[str, Mapping[str, Any]]) -> Path:
    """A Provider whose one Action node recommends a graph-action resource per materializer.

    ``materializers`` maps a resource ID to the materializer Action's fields
    (``mediaType`` among them sets the resource's media type, default
    ``application/json``). A static procedure and a host-action resource come too.
    """
    resources = ["resources/procedure.md", "resources/host-view.json"]
    for rid, fields in materializers.items():
        action = {k: v for k, v in fields.items() if k != "mediaType"}
        _dump(
            root / "actions" / f"m-{rid}.json",
            {"schema": "agent-graph.action.v1", "id": f"m-{rid}", "effect": "read", **action},
        )
        _dump(
            root / "resources" / f"{rid}.json",
            {
                "schema": "agent-graph.resource.graph-action.v1",
                "id": rid,
                "kind": "context-view",
                "mediaType": fields.get("mediaType", "application/json"),
                "materializer": f"actions/m-{rid}.json",
            },
        )
        resources.append(f"resources/{rid}.json")
    _dump(
        root / "provider.yaml",
        f"schema: agent-graph.provider.v1\nid: {PROVIDER_ID}\nversion: 1.0.0\ngraphs: [graphs/main.json]\n",
    )
    _dump(
        root / "graphs" / "main.json",
        {
            "schema": "agent-graph.graph.v1",
            "id": "main",
            "entrypoints": {"default": "inspect"},
            "nodes": [
                {
                    "id": "inspect",
                    "kind": "action",
                    "reasonCode": "route.main.inspect",
                    "action": "actions/inspect.json",
                    "resources": {"recommended": resources},
                },
                {"id": "done", "kind": "terminal", "terminalOutcome": "completed"},
            ],
            "edges": [{"from": "inspect", "to": "done"}],
        },
    )
    _dump(
        root / "actions" / "inspect.json",
        {
            "schema": "agent-graph.action.v1",
            "id": "inspect",
            "runner": "command",
            "effect": "read",
            "command": "true",
        },
    )
    _dump(root / "resources" / "procedure.md", "---\nid: procedure.main\nkind: procedure\n---\nRead me.\n")
    _dump(
        root / "actions" / "host.json",
        {
            "schema": "agent-graph.action.v1",
            "id": "host",
            "runner": "host",
            "effect": "read",
            "handler": "acme.view",
            "inputSchema": "schemas/in.json",
            "outputSchema": "schemas/out.json",
        },
    )
    _dump(root / "schemas" / "in.json", {"$id": "acme.view-request/v1", "type": "object"})
    _dump(root / "schemas" / "out.json", {"$id": "acme.view/v1", "type": "object"})
    _dump(
        root / "resources" / "host-view.json",
        {
            "schema": "agent-graph.resource.host-action.v1",
            "id": "host.view",
            "kind": "context-view",
            "mediaType": "application/json",
            "materializer": "actions/host.json",
            "input": {"schema": "acme.view-request/v1", "value": {}},
        },
    )
    return root / "provider.yaml"


def command(text: str, **extra: Any) -> dict[str, Any]:
    return {"runner": "command", "command": text, **extra}


def load(tmp_path: Path, materializers: Mapping[str, Mapping[str, Any]]) -> ag.Provider:
    return ag.load_provider(str(write_provider(tmp_path / "provider", materializers)))


def run(provider: ag.Provider, rid: str, tmp_path: Path, **options: Any) -> Any:
    options.setdefault("cache", str(tmp_path / "cache"))
    options.setdefault("revision", REVISION)
    options.setdefault("workspace", str(tmp_path))
    return materialize_resource(provider, rid, **options)


def cache_files(tmp_path: Path) -> list[str]:
    cache = tmp_path / "cache"
    return sorted(p.name for p in cache.iterdir()) if cache.exists() else []


def expect_error(code: str, call: Any) -> AgentGraphError:
    with pytest.raises(AgentGraphError) as error:
        call()
    assert error.value.code == code, error.value
    return error.value


def process_is_gone(pid: int) -> bool:
    """True when ``pid`` no longer runs (a zombie waiting for its reaper counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state in ("Z", "X")


def wait_gone(pid: int, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process_is_gone(pid):
            return True
        time.sleep(0.02)
    return process_is_gone(pid)


# ---------------------------------------------------------------- the cache and the location


def test_output_is_cached_by_content_with_its_receipt(tmp_path: Path) -> None:
    provider = load(tmp_path, {"context.status": command("printf '{\"ok\":true}'")})
    location = run(provider, "context.status", tmp_path)
    content = b'{"ok":true}'
    hexdigest = hashlib.sha256(content).hexdigest()
    cache = tmp_path / "cache"
    assert cache_files(tmp_path) == [f"{hexdigest}.json", f"{hexdigest}.receipt.json"]
    assert (cache / f"{hexdigest}.json").read_bytes() == content
    assert json.loads(msgspec.json.encode(location)) == {
        "schema": "agent-graph.resource-location.graph-action.v1",
        "id": "context.status",
        "kind": "context-view",
        "mediaType": "application/json",
        "revision": REVISION,
        "materialize": {"resourceId": "context.status"},
        "digest": f"sha256:{hexdigest}",
        "filePath": str(cache / f"{hexdigest}.json"),
    }
    assert json.loads((cache / f"{hexdigest}.receipt.json").read_text("utf-8")) == {
        "schema": "agent-graph.materialization.v1",
        "provider": PROVIDER_ID,
        "resource": "context.status",
        "revision": REVISION,
        "digest": f"sha256:{hexdigest}",
        "mediaType": "application/json",
        "file": str(cache / f"{hexdigest}.json"),
    }
    assert ag.digest_bytes(content) == location.digest


def test_equal_content_shares_a_file_and_other_content_does_not(tmp_path: Path) -> None:
    provider = load(
        tmp_path,
        {
            "view.a": command("echo '\"same\"'"),
            "view.b": command("echo '\"same\"'"),
            "view.c": command("echo 1"),
        },
    )
    a = run(provider, "view.a", tmp_path)
    b = run(provider, "resources/view.b.json", tmp_path)  # by Provider-relative path
    c = run(provider, "view.c", tmp_path)
    assert a.file_path == b.file_path != c.file_path
    assert len(cache_files(tmp_path)) == 4


@pytest.mark.parametrize(
    ("media_type", "extension"),
    [
        ("application/json", ".json"),
        ("application/vnd.acme+json", ".json"),
        ("text/markdown", ".md"),
        ("text/plain", ".txt"),
        ("text/csv", ".txt"),
        ("application/octet-stream", ".bin"),
        ("image/png", ".bin"),
    ],
)
def test_cache_extension_follows_the_media_type(media_type: str, extension: str) -> None:
    assert cache_extension(media_type) == extension


def test_a_markdown_view_is_stored_as_md(tmp_path: Path) -> None:
    provider = load(tmp_path, {"view.md": command("echo '# Title'", mediaType="text/markdown")})
    location = run(provider, "view.md", tmp_path)
    assert location.file_path.endswith(".md") and location.media_type == "text/markdown"
    assert Path(location.file_path).read_text("utf-8") == "# Title\n"


@pytest.mark.parametrize(
    "revision",
    [
        "",
        "sha256:",
        "sha256:" + "AB" * 32,
        "sha256:" + "ab" * 31,
        "sha256:" + "ab" * 33,
        "ab" * 32,
        "sha1:" + "ab" * 32,
        " sha256:" + "ab" * 32,
    ],
)
def test_revision_must_be_a_sha256_digest(tmp_path: Path, revision: str) -> None:
    marker = tmp_path / "ran"
    provider = load(tmp_path, {"view.x": command(f"touch '{marker}'")})
    expect_error("revision-invalid", lambda: run(provider, "view.x", tmp_path, revision=revision))
    assert not marker.exists()
    assert cache_files(tmp_path) == []


def test_static_host_and_unknown_resources_are_refused(tmp_path: Path) -> None:
    provider = load(tmp_path, {"view.x": command("true")})
    expect_error("resource-static", lambda: run(provider, "procedure.main", tmp_path))
    expect_error("materializer-runner-invalid", lambda: run(provider, "host.view", tmp_path))
    expect_error("resource-missing", lambda: run(provider, "nothing.here", tmp_path))
    assert cache_files(tmp_path) == []


# ---------------------------------------------------------------- environment


def test_environment_is_minimal_plus_host_variables_plus_agent_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENT_GRAPH_TEST_SECRET", "s3cret-token")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "do-not-leak")
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("PATH", os.environ["PATH"])
    dump = f"{sys.executable} -c 'import json, os; print(json.dumps(dict(os.environ)))'"
    provider = load(tmp_path, {"view.env": command(dump)})
    location = run(
        provider,
        "view.env",
        tmp_path,
        input={"week": "2026-W05", "n": [1, 2]},
        env={"ACME_TOKEN": "granted", "AGENT_GRAPH_REVISION": "forged"},
    )
    seen = json.loads(Path(location.file_path).read_text("utf-8"))
    seen.pop("PWD", None)  # some shells export it
    seen.pop("SHLVL", None)
    seen.pop("_", None)
    assert "AGENT_GRAPH_TEST_SECRET" not in seen
    assert "AWS_SECRET_ACCESS_KEY" not in seen
    assert "s3cret-token" not in json.dumps(seen)
    assert seen["ACME_TOKEN"] == "granted"
    assert seen["AGENT_GRAPH_PROVIDER_ROOT"] == provider.root
    assert seen["AGENT_GRAPH_WORKSPACE"] == str(tmp_path)
    assert seen["AGENT_GRAPH_REVISION"] == REVISION  # the host cannot override it
    assert seen["AGENT_GRAPH_INPUT"] == '{"week":"2026-W05","n":[1,2]}'
    assert seen["PATH"] == os.environ["PATH"] and seen["LANG"] == "C.UTF-8"
    allowed = set(INHERITED_VARIABLES) | {"ACME_TOKEN", "AGENT_GRAPH_PROVIDER_ROOT", "AGENT_GRAPH_WORKSPACE",
                                          "AGENT_GRAPH_REVISION", "AGENT_GRAPH_INPUT", "LC_CTYPE"}  # fmt: skip
    assert set(seen) <= allowed, set(seen) - allowed


def test_input_defaults_to_json_null(tmp_path: Path) -> None:
    provider = load(
        tmp_path, {"view.input": command('printf %s "$AGENT_GRAPH_INPUT"', mediaType="text/plain")}
    )
    assert Path(run(provider, "view.input", tmp_path).file_path).read_text("utf-8") == "null"


def test_invalid_host_variables_are_refused(tmp_path: Path) -> None:
    provider = load(tmp_path, {"view.x": command("true")})
    expect_error("materializer-env-invalid", lambda: run(provider, "view.x", tmp_path, env={"BAD NAME": "x"}))
    expect_error("materializer-env-invalid", lambda: run(provider, "view.x", tmp_path, env={"OK": 1}))


# ---------------------------------------------------------------- runners and working directory


def test_command_runner_runs_under_sh_c(tmp_path: Path) -> None:
    provider = load(
        tmp_path, {"view.sh": command('printf "%s|" "$0"; echo a b | tr a-z A-Z', mediaType="text/plain")}
    )
    assert Path(run(provider, "view.sh", tmp_path).file_path).read_text("utf-8") == "sh|A B\n"


def test_script_runner_uses_its_runtime_entry_and_arguments(tmp_path: Path) -> None:
    script = "import json, os, sys\nprint(json.dumps({'argv': sys.argv[1:], 'cwd': os.getcwd(), 'exe': os.path.basename(sys.executable)}))\n"
    root = tmp_path / "provider"
    _dump(root / "scripts" / "view.py", script)
    _dump(root / "scripts" / "view.sh", 'printf "%s,%s" "$1" "$(pwd)"\n')
    provider = ag.load_provider(
        str(
            write_provider(
                root,
                {
                    "view.py": {"runner": "script", "runtime": "python", "entry": "scripts/view.py", "args": ["a b", "it's"]},
                    "view.shell": {"runner": "script", "runtime": "shell", "entry": "scripts/view.sh", "args": ["x"],
                                   "cwd": "provider", "mediaType": "text/plain"},
                },
            )
        )
    )  # fmt: skip
    seen = json.loads(Path(run(provider, "view.py", tmp_path).file_path).read_text("utf-8"))
    assert seen["argv"] == ["a b", "it's"]
    assert seen["exe"].startswith("python3")
    assert os.path.realpath(seen["cwd"]) == os.path.realpath(tmp_path)  # cwd: workspace (default)
    shell = Path(run(provider, "view.shell", tmp_path).file_path).read_text("utf-8")
    argument, cwd = shell.split(",", 1)
    assert argument == "x" and os.path.realpath(cwd) == os.path.realpath(provider.root)
    # The script that runs is the one the Provider was loaded with.
    _dump(root / "scripts" / "view.sh", "echo changed after loading\n")
    expect_error("resource-digest-mismatch", lambda: run(provider, "view.shell", tmp_path))


def test_working_directory_follows_cwd(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    provider = load(
        tmp_path,
        {
            "view.ws": command("pwd", mediaType="text/plain"),
            "view.root": command("pwd", mediaType="text/plain", cwd="provider"),
        },
    )
    here = (
        Path(run(provider, "view.ws", tmp_path, workspace=str(workspace)).file_path)
        .read_text("utf-8")
        .strip()
    )
    root = (
        Path(run(provider, "view.root", tmp_path, workspace=str(workspace)).file_path)
        .read_text("utf-8")
        .strip()
    )
    assert os.path.realpath(here) == os.path.realpath(workspace)
    assert os.path.realpath(root) == os.path.realpath(provider.root)


def test_stdin_is_closed(tmp_path: Path) -> None:
    provider = load(tmp_path, {"view.cat": command("cat", mediaType="text/plain")})
    # A hang guard: with stdin open, cat would wait until the timeout.
    assert Path(run(provider, "view.cat", tmp_path, timeout=60).file_path).read_bytes() == b""


# ---------------------------------------------------------------- failures and limits


def test_non_zero_exit_is_materializer_failed_and_writes_nothing(tmp_path: Path) -> None:
    provider = load(tmp_path, {"view.fail": command("echo partial; echo broken >&2; exit 3")})
    error = expect_error("materializer-failed", lambda: run(provider, "view.fail", tmp_path))
    assert "3" in error.message and "broken" in error.message
    assert cache_files(tmp_path) == []


def test_timeout_kills_the_materializer_and_its_children(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    provider = load(
        tmp_path, {"view.slow": command(f"sleep 600 & echo $! > '{pid_file}'; echo started; wait")}
    )
    began = time.monotonic()
    expect_error("materializer-timeout", lambda: run(provider, "view.slow", tmp_path, timeout=0.5))
    assert time.monotonic() - began < 300  # a hang guard: it did not wait for the 600 s child
    child = int(pid_file.read_text().strip())
    assert wait_gone(child), f"spawned child {child} survived the timeout"
    assert cache_files(tmp_path) == []


def test_the_timeout_is_read_from_the_given_monotonic_clock(tmp_path: Path) -> None:
    """A clock that runs ahead times the materializer out long before the real 600 seconds pass."""
    pid_file = tmp_path / "child.pid"
    provider = load(
        tmp_path, {"view.slow": command(f"sleep 600 & echo $! > '{pid_file}'; echo started; wait")}
    )
    clock = FakeMonotonic(start=1000.0, step=20.0)
    began = time.monotonic()
    error = expect_error(
        "materializer-timeout", lambda: run(provider, "view.slow", tmp_path, timeout=600, monotonic=clock)
    )
    assert "longer than 600 s" in error.message
    assert clock.readings > 1
    assert time.monotonic() - began < 300  # a hang guard: the real clock did not decide
    if pid_file.exists() and pid_file.read_text().strip():
        assert wait_gone(int(pid_file.read_text().strip()))
    assert cache_files(tmp_path) == []


@pytest.mark.parametrize("clock", ["soon", lambda: "soon", lambda: True])
def test_a_monotonic_clock_that_is_not_one_is_refused_before_anything_runs(
    tmp_path: Path, clock: Any
) -> None:
    marker = tmp_path / "ran"
    provider = load(tmp_path, {"view.mark": command(f"touch '{marker}'; echo ok")})
    error = expect_error("argument-invalid", lambda: run(provider, "view.mark", tmp_path, monotonic=clock))
    assert "clock" in error.message
    assert not marker.exists()
    assert cache_files(tmp_path) == []


def test_a_child_holding_stdout_open_cannot_outlive_the_timeout(tmp_path: Path) -> None:
    """The materializer exits at once but leaves a child writing nothing on its stdout."""
    pid_file = tmp_path / "child.pid"
    provider = load(tmp_path, {"view.orphan": command(f"sleep 30 & echo $! > '{pid_file}'; exit 0")})
    expect_error("materializer-timeout", lambda: run(provider, "view.orphan", tmp_path, timeout=0.5))
    assert wait_gone(int(pid_file.read_text().strip()))
    assert cache_files(tmp_path) == []


def test_children_left_behind_are_stopped_after_success(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    provider = load(
        tmp_path, {"view.bg": command(f"sleep 600 >/dev/null 2>&1 & echo $! > '{pid_file}'; echo true")}
    )
    location = run(provider, "view.bg", tmp_path, timeout=120)  # waiting for the child would time out
    assert Path(location.file_path).read_text("utf-8") == "true\n"
    assert wait_gone(int(pid_file.read_text().strip()))


def test_output_limit_kills_and_writes_nothing(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    provider = load(
        tmp_path,
        {
            "view.big": command("head -c 100000 /dev/zero"),
            "view.flood": command(f"sleep 600 & echo $! > '{pid_file}'; head -c 5000 /dev/zero; sleep 600"),
        },
    )
    expect_error(
        "materializer-output-limit", lambda: run(provider, "view.big", tmp_path, max_output_bytes=1000)
    )
    # Stopped at the limit, not at the timeout: the code says which (the timeout gives materializer-timeout).
    expect_error(
        "materializer-output-limit",
        lambda: run(provider, "view.flood", tmp_path, max_output_bytes=1000, timeout=600),
    )
    assert wait_gone(int(pid_file.read_text().strip()))
    assert cache_files(tmp_path) == []


def test_output_exactly_at_the_limit_is_accepted(tmp_path: Path) -> None:
    provider = load(
        tmp_path, {"view.edge": command("head -c 1000 /dev/zero", mediaType="application/octet-stream")}
    )
    location = run(provider, "view.edge", tmp_path, max_output_bytes=1000)
    assert Path(location.file_path).stat().st_size == 1000 and location.file_path.endswith(".bin")


def test_error_limit_kills_and_writes_nothing(tmp_path: Path) -> None:
    provider = load(tmp_path, {"view.noisy": command("echo fine; head -c 50000 /dev/zero >&2; sleep 600")})
    expect_error(  # the code shows the limit stopped it, not the timeout
        "materializer-error-limit",
        lambda: run(provider, "view.noisy", tmp_path, max_error_bytes=1000, timeout=600),
    )
    assert cache_files(tmp_path) == []


def test_default_limits_are_the_documented_ones() -> None:
    from agent_graph._runtime import materialize as _materialize

    assert _materialize.DEFAULT_TIMEOUT == 30.0
    assert _materialize.DEFAULT_MAX_OUTPUT_BYTES == 10 * 1024 * 1024
    assert _materialize.DEFAULT_MAX_ERROR_BYTES == 1024 * 1024


def test_route_revision_materializes_the_selected_view(tmp_path: Path) -> None:
    """The revision a route carries is the one the materializer receives and the location keeps."""
    provider = load(
        tmp_path, {"view.rev": command('printf %s "$AGENT_GRAPH_REVISION"', mediaType="text/plain")}
    )
    route = ag.route(provider, "main", workspace=str(tmp_path))
    dynamic = next(loc for loc in route.resources.recommended if loc.id == "view.rev")
    location = run(provider, dynamic.materialize.resource_id, tmp_path, revision=dynamic.revision)
    assert location.revision == route.revision
    assert Path(location.file_path).read_text("utf-8") == route.revision
