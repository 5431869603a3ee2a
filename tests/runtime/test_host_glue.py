"""Host glue: ag.Receipts, ag.ResourceReader for the three location kinds, validate_action_input, open_store URLs."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
import agent_graph.toolchain as agtool
from agent_graph._core.model import FileLocation, GraphActionLocation, HostActionLocation
from tests.in_process import code_of
from tests.paths import REPO
from tests.runtime.test_host_action import (
    FILES as HOST_FILES,
    HANDLER,
    INPUT_SCHEMA,
    OUTPUT_SCHEMA,
    inline_result,
    write_files,
)
from tests.runtime.test_materialize import command, write_provider

WEEKLY = REPO / "examples" / "weekly-report"


@pytest.fixture()
def weekly_copy(tmp_path: Path) -> Path:
    target = tmp_path / "weekly"
    shutil.copytree(WEEKLY, target)
    return target


# ---------------------------------------------------------------- receipts


def test_receipts_keep_the_latest_receipt_per_resource_id() -> None:
    receipts = ag.Receipts()
    receipts.add({"id": "a", "digest": "sha256:1"})
    receipts.add({"id": "b", "revision": "sha256:r"})
    kept = receipts.add({"id": "a", "digest": "sha256:2"})
    assert kept.digest == "sha256:2" and len(receipts) == 2 and "a" in receipts
    assert [(r.id, r.digest, r.revision) for r in receipts] == [
        ("b", None, "sha256:r"),
        ("a", "sha256:2", None),
    ]
    assert receipts.to_json("p") == {
        "schema": "agent-graph.resource-read-receipts.v1",
        "provider": "p",
        "receipts": [{"id": "b", "revision": "sha256:r"}, {"id": "a", "digest": "sha256:2"}],
    }
    receipts.discard("a")
    assert receipts.get("a") is None and len(receipts) == 1
    for bad in ({"id": ""}, {"id": "x"}, {"digest": "sha256:1"}, {"id": "x", "digest": 3}, "x"):
        assert code_of(lambda bad=bad: receipts.add(bad)) == "resource-receipts-invalid"
    assert code_of(lambda: ag.Receipts().read_receipts()) == "argument-invalid"


def test_receipts_mark_what_was_read_current_and_never_change_the_route(
    weekly_copy: Path, tmp_path: Path
) -> None:
    provider = ag.load_provider(str(weekly_copy / "provider.yaml"))
    plain = ag.route(provider, "report", workspace=str(tmp_path))
    receipts = ag.Receipts()
    for location in plain.resources.required:
        assert isinstance(location, FileLocation)
        receipts.add({"id": location.id, "digest": location.digest})
    marked = ag.route(provider, "report", workspace=str(tmp_path), receipts=receipts)
    assert [loc.read_state for loc in marked.resources.required] == ["current"] * len(
        plain.resources.required
    )
    assert (marked.route_id, marked.revision, marked.node) == (plain.route_id, plain.revision, plain.node)
    bound = ag.Receipts(provider="someone/else")
    assert code_of(lambda: ag.route(provider, "report", workspace=str(tmp_path), receipts=bound)) == (
        "resource-receipts-provider-mismatch"
    )
    assert ag.Receipts(provider=provider).provider == provider.id


# ---------------------------------------------------------------- the reader: static files


def test_a_file_location_is_read_with_its_digest_as_receipt(weekly_copy: Path, tmp_path: Path) -> None:
    provider = ag.load_provider(str(weekly_copy / "provider.yaml"))
    reader = ag.ResourceReader(provider, workspace=str(tmp_path))
    route = ag.route(provider, "report", workspace=str(tmp_path))
    for location in route.resources.required:
        assert isinstance(location, FileLocation)
        got = reader.read(location)
        data = Path(location.file_path).read_bytes()
        assert got.data == data and got.content == data.decode("utf-8")
        assert (
            got.receipt.id == location.id and got.receipt.digest == ag.digest_bytes(data) == location.digest
        )
        assert got.media_type == location.media_type and got.result is None
    changed = route.resources.required[0]
    assert isinstance(changed, FileLocation)
    Path(changed.file_path).write_text("edited after the Provider was loaded\n", "utf-8")
    assert code_of(lambda: reader.read(changed)) == "resource-digest-mismatch"
    os.unlink(changed.file_path)
    assert code_of(lambda: reader.read(changed)) == "file-read-failed"
    assert code_of(lambda: reader.read("not a location")) == "argument-invalid"  # type: ignore[arg-type]
    assert code_of(lambda: ag.ResourceReader(provider.id, workspace=".")) == "argument-invalid"


# ---------------------------------------------------------------- graph-action views and host-action resources


@pytest.fixture()
def views(tmp_path: Path) -> ag.Provider:
    root = write_provider(tmp_path / "provider", {"view.status": command("printf '{\"ok\": true}'")})
    return ag.load_provider(str(root))


def _location(provider: ag.Provider, kind: type, tmp_path: Path) -> Any:
    route = ag.route(provider, "main", workspace=str(tmp_path))
    for location in route.resources.recommended:
        if isinstance(location, kind):
            return location
    raise AssertionError(f"no {kind.__name__} on the route")


def test_a_graph_action_view_is_materialized_into_the_named_cache(views: ag.Provider, tmp_path: Path) -> None:
    location = _location(views, GraphActionLocation, tmp_path)
    cache = tmp_path / "host-cache"
    reader = ag.ResourceReader(views, workspace=str(tmp_path), materialize_cache=str(cache))
    got = reader.read(location)
    assert got.content == '{"ok": true}' and got.data == b'{"ok": true}'
    assert got.receipt.id == location.id and got.receipt.revision == location.revision
    assert got.receipt.digest == ag.digest_bytes(got.data)
    assert isinstance(got.location, GraphActionLocation) and got.location.file_path is not None
    assert (
        Path(got.location.file_path).parent == cache and Path(got.location.file_path).read_bytes() == got.data
    )
    receipts = ag.Receipts([got.receipt])
    again = ag.route(views, "main", workspace=str(tmp_path), receipts=receipts)
    view = next(loc for loc in again.resources.recommended if loc.id == location.id)
    assert view.read_state == "current"
    assert (
        code_of(lambda: ag.ResourceReader(views, workspace=str(tmp_path)).read(location))
        == "argument-invalid"
    )


def test_a_view_times_out_by_the_readers_monotonic_clock(tmp_path: Path) -> None:
    root = write_provider(tmp_path / "provider", {"view.status": command("sleep 600")})
    slow = ag.load_provider(str(root))
    location = _location(slow, GraphActionLocation, tmp_path)
    ticks = iter(range(0, 10**6, 30))  # 30 seconds each time it is read

    reader = ag.ResourceReader(
        slow,
        workspace=str(tmp_path),
        materialize_cache=str(tmp_path / "host-cache"),
        materialize_timeout=600,
        monotonic=lambda: float(next(ticks)),
    )
    assert code_of(lambda: reader.read(location)) == "materializer-timeout"


def test_a_host_action_resource_is_answered_by_the_registered_handler_and_validated(tmp_path: Path) -> None:
    provider = ag.load_provider(str(write_files(tmp_path / "p", HOST_FILES)))
    route = ag.route(provider, "main", workspace=str(tmp_path))
    location = route.resources.required[0]
    assert isinstance(location, HostActionLocation)
    seen: list[Any] = []

    def handler(asked: HostActionLocation) -> dict[str, Any]:
        seen.append(asked)
        return inline_result()

    reader = ag.ResourceReader(provider, workspace=str(tmp_path), host_handlers={HANDLER: handler})
    got = reader.read(location)
    assert seen == [location]
    assert got.content == '{"title": "Week 5", "items": []}' and got.result is not None
    assert got.receipt == ag.host_action_read_receipt(location, inline_result(), provider=provider)
    reader.register(HANDLER, lambda asked: inline_result(handler="acme.other"))
    assert code_of(lambda: reader.read(location)) == "host-action-handler-mismatch"
    bad_output = inline_result()
    bad_output["output"] = {"schema": OUTPUT_SCHEMA, "inline": {"title": 5}}
    reader.register(HANDLER, lambda asked: bad_output)
    assert code_of(lambda: reader.read(location)) == "host-action-output-inline-invalid"
    assert code_of(lambda: ag.ResourceReader(provider, workspace=str(tmp_path)).read(location)) == (
        "host-action-handler-missing"
    )
    assert INPUT_SCHEMA  # the location's input is the Provider's


# ---------------------------------------------------------------- action input


def test_an_actions_input_is_checked_against_its_input_schema(tmp_path: Path) -> None:
    provider = ag.load_provider(str(write_files(tmp_path / "p", HOST_FILES)))
    assert ag.validate_action_input(provider, "report", {"week": "2026-W05"}) == {"week": "2026-W05"}
    with pytest.raises(ag.AgentGraphError) as caught:
        ag.validate_action_input(provider, "report", {"week": "last week", "extra": 1})
    assert caught.value.code == "action-input-invalid" and len(caught.value.diagnostics) >= 2
    assert ag.validate_action_input(provider, "write", [1, 2]) == [1, 2]  # no inputSchema: anything goes
    assert code_of(lambda: ag.validate_action_input(provider, "nope", {})) == "action-missing"
    route = ag.route(provider, "main", workspace=str(tmp_path))
    assert ag.validate_action_input(provider, route, None) is None  # the route's Action has no inputSchema


# ---------------------------------------------------------------- store URLs


def test_store_urls_follow_the_usual_convention(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with ag.open_store("sqlite:///runs.db") as relative:
        assert isinstance(relative, ag.SqliteRunStore) and relative.path == str(tmp_path / "runs.db")
    absolute = tmp_path / "abs" / "runs.db"
    absolute.parent.mkdir()
    with ag.open_store(f"sqlite:///{absolute}") as store:  # sqlite:////tmp/… : four slashes
        assert isinstance(store, ag.SqliteRunStore) and store.path == str(absolute)
    with ag.open_store("sqlite:///sub/../again.db") as normalized:
        assert normalized.path == str(tmp_path / "again.db")  # type: ignore[attr-defined]
    folder = ag.open_store("runs")
    assert isinstance(folder, ag.FileRunStore) and folder.root == str(tmp_path / "runs")
    assert isinstance(ag.open_store(None), ag.FileRunStore)
    for bad in (
        "sqlite://host/runs.db",
        "sqlite://",
        "sqlite:///",
        "sqlite:///a.db?mode=ro",
        "ftp://x/y",
        "",
    ):
        assert code_of(lambda bad=bad: ag.open_store(bad)) == "store-url-invalid", bad
    assert code_of(lambda: ag.open_store("sqlite:///missing/folder/runs.db")) == "run-store-failed"


def test_a_postgresql_url_is_handed_to_libpq_as_it_is(postgres_url: str) -> None:
    with ag.open_store(postgres_url) as store:
        assert isinstance(store, ag.PostgresRunStore) and store.conninfo == postgres_url
    assert code_of(lambda: ag.open_store("postgresql://nobody@/nodb?host=/nonexistent-socket-dir&connect_timeout=1",
                                         lock_timeout=1)) == "run-store-unavailable"  # fmt: skip


# ---------------------------------------------------------------- a Provider keeps its file system


def _memory_provider(root: Path) -> tuple[ag.Provider, ag.MemoryFileSystem]:
    """The base Provider in memory at ``root``, and decoys with other content at the same paths on disk."""
    from tests.load_fixtures import base_documents, render

    documents = base_documents()
    fs = ag.MemoryFileSystem({f"{root}/{path}": render(document) for path, document in documents.items()})
    for path in documents:
        decoy = root / path
        decoy.parent.mkdir(parents=True, exist_ok=True)
        decoy.write_text('{"type": "string"}\n' if path.endswith(".json") else "decoy\n", "utf-8")
    return ag.load_provider(f"{root}/provider.yaml", fs=fs), fs


@pytest.fixture()
def disk_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path opened or stat'ed through the operating system while the test runs."""
    import builtins

    seen: list[str] = []
    real_open, real_stat = builtins.open, os.stat

    def spy_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(str(file))
        return real_open(file, *args, **kwargs)

    def spy_stat(path: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", spy_open)
    monkeypatch.setattr(os, "stat", spy_stat)
    return seen


def test_a_provider_from_memory_reads_its_files_from_memory_only(
    tmp_path: Path, disk_reads: list[str]
) -> None:
    root = tmp_path / "p"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "decoy.yaml").write_text("decoy: [\n", "utf-8")
    provider, fs = _memory_provider(root)
    assert provider.file_system is fs
    disk_reads.clear()  # from here on, nothing below the root is touched on disk
    route = ag.route(provider, "main", workspace=str(tmp_path))
    procedure = route.resources.required[0]
    assert isinstance(procedure, FileLocation)
    # Input schemas: the one in memory accepts an object; the decoy on disk would refuse it.
    assert ag.validate_action_input(provider, "run", {"fast": True}) == {"fast": True}
    # Static resources: the reader takes the Provider's file system without being told.
    got = ag.ResourceReader(provider, workspace=str(tmp_path)).read(procedure)
    assert got.data == fs.read_bytes(procedure.file_path) and got.receipt.digest == procedure.digest
    # Graph tests are found and read in memory.
    status = ag.evaluate(provider, "main").status_code
    fs.write(
        f"{root}/tests/first.yaml",
        f"schema: agent-graph.test.v1\nname: first\ngraph: main\nentry: default\nexpect:\n  statusCode: {status}\n",
    )
    results = ag.run_graph_tests(provider, f"{root}/tests")
    assert [(result.name, result.passed) for result in results] == [("first", True)]
    # Materializers run as processes in a Provider root on disk, which this Provider has not.
    with pytest.raises(ag.AgentGraphError) as caught:
        ag.materialize_resource(
            provider, "view.status", cache=str(tmp_path / "cache"), revision=route.revision
        )
    assert caught.value.code == "materializer-unsupported" and "MemoryFileSystem" in caught.value.message
    assert not (tmp_path / "cache").exists()
    assert [path for path in disk_reads if path.startswith(str(root))] == []


def test_a_provider_from_memory_checks_the_digests_of_what_it_reads_again(tmp_path: Path) -> None:
    root = tmp_path / "p"
    provider, fs = _memory_provider(root)
    procedure = ag.route(provider, "main", workspace=str(tmp_path)).resources.required[0]
    assert isinstance(procedure, FileLocation)
    fs.write(f"{root}/schemas/in.schema.json", '{"type": "array"}')
    fs.write(procedure.file_path, "edited after loading\n")
    assert code_of(lambda: ag.validate_action_input(provider, "run", {})) == "resource-digest-mismatch"
    reader = ag.ResourceReader(provider, workspace=str(tmp_path))
    assert code_of(lambda: reader.read(procedure)) == "resource-digest-mismatch"
    fs.remove(procedure.file_path)
    assert code_of(lambda: reader.read(procedure)) == "file-read-failed"


def test_a_provider_from_disk_checks_the_digest_of_an_input_schema(tmp_path: Path) -> None:
    from tests.load_fixtures import base_documents, write_tree

    provider = ag.load_provider(str(write_tree(tmp_path / "p", base_documents())))
    assert provider.file_system is None  # the operating system's
    assert ag.validate_action_input(provider, "run", {}) == {}
    (tmp_path / "p" / "schemas" / "in.schema.json").write_text('{"type": "array"}', "utf-8")
    assert code_of(lambda: ag.validate_action_input(provider, "run", {})) == "resource-digest-mismatch"
    (tmp_path / "p" / "schemas" / "in.schema.json").unlink()
    assert code_of(lambda: ag.validate_action_input(provider, "run", {})) == "file-read-failed"


def test_a_bundle_is_built_from_a_provider_in_memory(tmp_path: Path, disk_reads: list[str]) -> None:
    root = tmp_path / "p"
    provider, _ = _memory_provider(root)
    disk_reads.clear()
    bundle = agtool.build_bundle(provider, str(tmp_path / "out"))
    rebuilt = ag.load_provider(str(tmp_path / "out" / "manifest.json"))
    assert rebuilt.graphs["main"].digest == provider.graphs["main"].digest and bundle.files
    assert [path for path in disk_reads if path.startswith(str(root))] == []
