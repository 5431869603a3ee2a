"""Bundles (``agent-graph.bundle.v1``): building a relocatable bundle and verifying one when it loads.

A bundle is a directory holding a normalized ``provider.yaml``, every file of
the Provider's file set and a ``manifest.json`` that lists them with digests.
``plan_bundle`` computes a bundle's content from a loaded Provider (pure:
bytes come through a reader function) and ``build_bundle`` writes it: the
same sources give the same bytes, no timestamps, no source-machine paths.
Loading ``manifest.json`` verifies, in order (behaviour.md §10): schema, the
overall digest, each file (listed once, present, contained, same digest), the
catalogs against the files, the Provider manifest entry, the identity, and,
after the Provider loads, the catalogs, file set and dependency index against
what the Provider reaches. Storage access goes through the loader's reader;
only ``build_bundle`` touches the operating system's file system.
"""

from __future__ import annotations

import json
import os
import posixpath
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from .._core.canonical import collation_key, digest_bytes, digest_value, sort_collated, utf16_key
from .._core.errors import AgentGraphError
from .._core.model import Bundle
from .._core.provider import Provider
from .._load.bundle import expected_catalogs, expected_dependencies
from .._syntax import schema as _schema

# ---------------------------------------------------------------- building

BUNDLE_SCHEMA = "agent-graph.bundle.v1"
PROVIDER_MANIFEST = "provider.yaml"
BUNDLE_MANIFEST = "manifest.json"


@dataclass(frozen=True)
class BundlePlan:
    """What a bundle holds: its files by relative path (``provider.yaml`` included) and ``manifest.json``."""

    files: dict[str, bytes]
    manifest: dict[str, Any]

    @property
    def manifest_bytes(self) -> bytes:
        """``manifest.json`` as written: two-space indented JSON and a final newline."""
        return manifest_json(self.manifest)


def manifest_json(manifest: Mapping[str, Any]) -> bytes:
    """The bytes of ``manifest.json`` (the layout the reference writes: ``JSON.stringify(m, null, 2)``)."""
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _catalog(entries: list[tuple[str, str]], digests: Mapping[str, str]) -> list[dict[str, str]]:
    ordered = sorted(entries, key=lambda item: collation_key(item[0]))
    return [{"id": identity, "path": path, "digest": digests[path]} for identity, path in ordered]


def plan_bundle(provider: Provider, read: Callable[[str], bytes]) -> BundlePlan:
    """Compute a bundle of ``provider`` from its source files, read through ``read(absolute_path)``.

    Every source file must still have the digest it had when the Provider
    loaded (``build-source-changed``), must not contain the source root's
    absolute path (``build-absolute-path-leak``) and must not sit where the
    bundle's own ``provider.yaml`` or ``manifest.json`` go
    (``build-output-path-conflict``). Pure: no other I/O, no clock.
    """
    from .scaffold import dump_yaml

    root_bytes = provider.root.encode("utf-8")
    files: dict[str, bytes] = {}
    for source in sorted(provider.files, key=lambda p: collation_key(provider.relative(p))):
        if source == provider.manifest_path:
            continue
        relative = provider.relative(source)
        if relative in (PROVIDER_MANIFEST, BUNDLE_MANIFEST):
            raise AgentGraphError(
                "build-output-path-conflict",
                f"Provider file {relative} would collide with the bundle's generated {relative}",
            )
        try:
            data = read(source)
        except OSError as error:
            raise AgentGraphError("file-read-failed", f"Cannot read {source}: {error}") from None
        if digest_bytes(data) != provider.file_digests.get(source):
            raise AgentGraphError(
                "build-source-changed", f"Provider file changed after the Provider was loaded: {relative}"
            )
        if root_bytes in data:
            raise AgentGraphError(
                "build-absolute-path-leak", f"Referenced file contains the source Provider absolute path: {relative}"
            )
        files[relative] = data
    normalized = dump_yaml(dict(provider.raw_manifest))
    if provider.root in normalized:
        raise AgentGraphError(
            "build-absolute-path-leak", "The Provider manifest contains the source Provider absolute path"
        )
    files[PROVIDER_MANIFEST] = normalized.encode("utf-8")
    digests = {path: digest_bytes(data) for path, data in files.items()}

    catalogs = expected_catalogs(provider)
    schema_entries = sorted(
        ((path, identity) for identity, path in catalogs["schemas"]), key=lambda item: collation_key(item[0])
    )
    dependencies = expected_dependencies(provider)
    unsigned: dict[str, Any] = {
        "schema": BUNDLE_SCHEMA,
        "provider": {"id": provider.manifest.id, "version": provider.manifest.version},
        "providerManifest": PROVIDER_MANIFEST,
        "graphs": _catalog(catalogs["graphs"], digests),
        "actions": _catalog(catalogs["actions"], digests),
        "resources": _catalog(catalogs["resources"], digests),
        "schemas": [{"id": identity, "path": path, "digest": digests[path]} for path, identity in schema_entries],
        "files": [{"path": path, "digest": digests[path]} for path in sorted(files, key=utf16_key)],
        "graphDependencies": {gid: dependencies[gid] for gid in sort_collated(dependencies)},
    }
    manifest = {**unsigned, "digest": digest_value(unsigned)}
    _schema.validate("bundle", manifest, BUNDLE_MANIFEST)
    if root_bytes in manifest_json(manifest):
        raise AgentGraphError("build-absolute-path-leak", "Generated bundle contains the source Provider absolute path")
    return BundlePlan(files=files, manifest=manifest)


def _contains(parent: str, child: str) -> bool:
    relative = os.path.relpath(child, parent)
    return relative == "." or not (relative == ".." or relative.startswith(".." + os.sep) or os.path.isabs(relative))


def _check_destination(provider: Provider, destination: str) -> None:
    real_destination = os.path.realpath(destination)
    for candidate in {destination, real_destination}:
        for root in {provider.root, os.path.realpath(provider.root)}:
            if candidate == root:
                raise AgentGraphError(
                    "build-output-overlaps-source", f"Build output must not replace the Provider root: {destination}"
                )
        for source in provider.files:
            if _contains(candidate, source) or _contains(candidate, os.path.realpath(source)):
                raise AgentGraphError(
                    "build-output-overlaps-source",
                    f"Build output {destination} would contain or replace the source file {source}",
                )
    if os.path.lexists(destination):
        if not os.path.isdir(destination) or os.path.islink(destination):
            raise AgentGraphError("build-output-exists", f"Build output exists and is not a directory: {destination}")
        entries = os.listdir(destination)
        if entries and not _is_bundle_directory(destination):
            raise AgentGraphError(
                "build-output-exists",
                f"Build output {destination} exists and is not an agent-graph bundle; remove it or choose another directory",
            )


def _is_bundle_directory(directory: str) -> bool:
    from .._load.fs import read_regular_file

    path = os.path.join(directory, BUNDLE_MANIFEST)
    try:
        parsed = json.loads(read_regular_file(path, "bundle manifest").decode("utf-8"))
    except (AgentGraphError, ValueError):
        return False
    return isinstance(parsed, dict) and parsed.get("schema") == BUNDLE_SCHEMA


def _read_os(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def build_bundle(provider: Provider, output: str, *, read: Callable[[str], bytes] | None = None) -> Bundle:
    """Write a deterministic, relocatable bundle of ``provider`` to the directory ``output``.

    Refuses an output that is the Provider root or contains a source file
    (``build-output-overlaps-source``) and one that exists but is not an
    earlier bundle (``build-output-exists``); a previous bundle is replaced
    atomically. Source files are read through ``read`` (the OS by default,
    so a Provider loaded from a :class:`~agent_graph.MemoryFileSystem` can
    pass ``fs.read_bytes``). The written bundle is loaded again before it
    replaces anything, and its Graph digests must equal the sources', so
    evaluating it gives the same revisions. Returns the bundle manifest.
    """
    from .._load.loader import load_provider

    destination = os.path.abspath(output)
    _check_destination(provider, destination)
    plan = plan_bundle(provider, read or _read_os)
    parent = os.path.dirname(destination)
    os.makedirs(parent, exist_ok=True)
    working = tempfile.mkdtemp(prefix=f".{os.path.basename(destination)}.tmp-", dir=parent)
    try:
        for relative, data in plan.files.items():
            target = os.path.join(working, *relative.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as handle:
                handle.write(data)
            source = posixpath.join(provider.root, relative)
            if read is None and relative != PROVIDER_MANIFEST and os.access(source, os.X_OK):
                os.chmod(target, 0o755)
        with open(os.path.join(working, BUNDLE_MANIFEST), "wb") as handle:
            handle.write(plan.manifest_bytes)
        rebuilt = load_provider(os.path.join(working, BUNDLE_MANIFEST))
        if rebuilt.graph_digests != provider.graph_digests:
            raise AgentGraphError("build-verification-failed", "The built bundle's Graph digests differ from the sources'")
        _swap_into_place(working, destination)
    except BaseException:
        shutil.rmtree(working, ignore_errors=True)
        raise
    bundle: Bundle = msgspec.convert(plan.manifest, Bundle)
    return bundle


def _swap_into_place(working: str, destination: str) -> None:
    if not os.path.lexists(destination):
        os.rename(working, destination)
        return
    trash = tempfile.mkdtemp(prefix=f".{os.path.basename(destination)}.old-", dir=os.path.dirname(destination))
    os.rmdir(trash)
    os.rename(destination, trash)
    try:
        os.rename(working, destination)
    except BaseException:
        os.rename(trash, destination)
        raise
    shutil.rmtree(trash, ignore_errors=True)
