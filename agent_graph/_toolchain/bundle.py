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
from typing import TYPE_CHECKING, Any

import msgspec

from .._core.canonical import collation_key, digest_bytes, digest_value, sort_collated
from .._core.errors import AgentGraphError
from .._core.evaluate import utf16_key
from .._core.model import Bundle
from .._syntax import schema as _schema

if TYPE_CHECKING:
    from .._load.loader import _Reader

from .._core.provider import Provider


def verify_bundle_manifest(reader: _Reader, path: str, parsed: dict[str, Any]) -> tuple[Bundle, str]:
    """Check a bundle manifest and its files; return it and the Provider manifest path inside it."""
    from .._load.loader import contained_path

    _schema.validate("bundle", parsed, path)
    unsigned = {key: value for key, value in parsed.items() if key != "digest"}
    if digest_value(unsigned) != parsed.get("digest"):
        raise AgentGraphError("bundle-digest-mismatch", f"Bundle manifest digest does not match its content: {path}")
    bundle = msgspec.convert(parsed, Bundle)
    base = posixpath.dirname(path)
    recorded: dict[str, str] = {}
    for item in bundle.files:
        if item.path in recorded:
            raise AgentGraphError("bundle-file-duplicate", f"Bundle lists file more than once: {item.path}")
        file_path = contained_path(base, item.path, "bundle file")
        reader.ensure_contained(file_path, "bundle file")
        if digest_bytes(reader.read(file_path)) != item.digest:
            raise AgentGraphError("bundle-file-digest-mismatch", f"Bundle file digest mismatch: {item.path}")
        recorded[item.path] = item.digest
    for catalog in (bundle.graphs, bundle.actions, bundle.resources, bundle.schemas):
        for entry in catalog:
            if recorded.get(entry.path) != entry.digest:
                raise AgentGraphError("bundle-catalog-mismatch", f"Bundle catalog entry does not match files: {entry.path}")
    if not isinstance(bundle.provider_manifest, str) or not bundle.provider_manifest:
        raise AgentGraphError("bundle-invalid", f"Bundle {path} does not declare providerManifest")
    if bundle.provider_manifest not in recorded:
        raise AgentGraphError(
            "bundle-provider-unlisted", f"Bundle provider manifest is not listed in files: {bundle.provider_manifest}"
        )
    return bundle, contained_path(base, bundle.provider_manifest, "bundle provider manifest")


def expected_catalogs(provider: Provider) -> dict[str, list[tuple[str, str]]]:
    """The ``(id, path)`` pairs of the graphs, actions, resources and schemas a Provider reaches."""
    from .._load.loader import contained_path

    rel = provider.relative
    schemas: dict[str, str] = {}
    for action in provider.actions.values():
        for reference in (action.definition.input_schema, action.definition.output_schema):
            if reference:
                normalized = rel(contained_path(provider.root, reference, "action schema reference"))
                schemas[normalized] = normalized
    for resource in provider.resources.values():
        if not resource.dynamic and resource.kind == "schema":
            schemas[rel(resource.content_path)] = resource.id
    return {
        "graphs": [(g.id, rel(g.path)) for g in provider.graphs.values()],
        "actions": [(a.definition.id, rel(a.path)) for a in provider.actions.values()],
        "resources": [(r.id, rel(r.path)) for r in provider.resources.values()],
        "schemas": [(identity, path) for path, identity in schemas.items()],
    }


def expected_dependencies(provider: Provider) -> dict[str, list[str]]:
    """Graph ID → sorted Subgraph IDs."""
    return {gid: sorted(children, key=utf16_key) for gid, children in provider.graph_dependencies.items()}


def check_bundle_catalogs(bundle: Bundle, provider: Provider) -> None:
    """After loading: catalogs, file set and dependency index must match what the Provider reaches."""
    expected = expected_catalogs(provider)
    for label, actual in (
        ("graphs", bundle.graphs),
        ("actions", bundle.actions),
        ("resources", bundle.resources),
        ("schemas", bundle.schemas),
    ):
        have = sorted((f"{e.id}\0{e.path}" for e in actual), key=utf16_key)
        want = sorted((f"{i}\0{p}" for i, p in expected[label]), key=utf16_key)
        if have != want:
            raise AgentGraphError(
                "bundle-catalog-mismatch", f"Bundle {label} catalog does not match reachable Provider definitions"
            )
    want_files = sorted(
        [bundle.provider_manifest, *(provider.relative(f) for f in provider.files if f != provider.manifest_path)],
        key=utf16_key,
    )
    have_files = sorted((f.path for f in bundle.files), key=utf16_key)
    if have_files != want_files:
        raise AgentGraphError("bundle-files-mismatch", "Bundle files do not match the reachable Provider file set")
    recorded = {gid: list(children) for gid, children in bundle.graph_dependencies.items()}
    if digest_value(recorded) != digest_value(expected_dependencies(provider)):
        raise AgentGraphError(
            "bundle-dependencies-mismatch", "Bundle Graph dependency index does not match Subgraph references"
        )


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
