"""Bundle verification: what loading a ``manifest.json`` checks (behaviour.md §10).

In order: schema, the overall digest, each file (listed once, present,
contained, same digest), the catalogs against the files, the Provider manifest
entry, the identity, and, after the Provider loads, the catalogs, file set and
dependency index against what the Provider reaches. Storage access goes through
the loader's reader; nothing here writes. Building a bundle is the toolchain's
(``agent_graph._toolchain.bundle``), which reuses :func:`expected_catalogs`.
"""

from __future__ import annotations

import posixpath
from typing import Any, Protocol

import msgspec

from .._core.canonical import digest_bytes, digest_value, utf16_key
from .._core.errors import AgentGraphError
from .._core.model import Bundle
from .._core.provider import Provider
from .._syntax import schema as _schema
from .fs import contained_path


class _Reader(Protocol):
    """What verification needs of the loader's reader: contained, bounded reads."""

    def ensure_contained(self, path: str, label: str) -> None: ...

    def read(self, path: str) -> bytes: ...


def verify_bundle_manifest(reader: _Reader, path: str, parsed: dict[str, Any]) -> tuple[Bundle, str]:
    """Check a bundle manifest and its files; return it and the Provider manifest path inside it."""
    _schema.validate("bundle", parsed, path)
    unsigned = {key: value for key, value in parsed.items() if key != "digest"}
    if digest_value(unsigned) != parsed.get("digest"):
        raise AgentGraphError(
            "bundle-digest-mismatch", f"Bundle manifest digest does not match its content: {path}"
        )
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
                raise AgentGraphError(
                    "bundle-catalog-mismatch", f"Bundle catalog entry does not match files: {entry.path}"
                )
    if not isinstance(bundle.provider_manifest, str) or not bundle.provider_manifest:
        raise AgentGraphError("bundle-invalid", f"Bundle {path} does not declare providerManifest")
    if bundle.provider_manifest not in recorded:
        raise AgentGraphError(
            "bundle-provider-unlisted",
            f"Bundle provider manifest is not listed in files: {bundle.provider_manifest}",
        )
    return bundle, contained_path(base, bundle.provider_manifest, "bundle provider manifest")


def expected_catalogs(provider: Provider) -> dict[str, list[tuple[str, str]]]:
    """The ``(id, path)`` pairs of the graphs, actions, resources and schemas a Provider reaches."""
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
                "bundle-catalog-mismatch",
                f"Bundle {label} catalog does not match reachable Provider definitions",
            )
    want_files = sorted(
        [
            bundle.provider_manifest,
            *(provider.relative(f) for f in provider.files if f != provider.manifest_path),
        ],
        key=utf16_key,
    )
    have_files = sorted((f.path for f in bundle.files), key=utf16_key)
    if have_files != want_files:
        raise AgentGraphError(
            "bundle-files-mismatch", "Bundle files do not match the reachable Provider file set"
        )
    recorded = {gid: list(children) for gid, children in bundle.graph_dependencies.items()}
    if digest_value(recorded) != digest_value(expected_dependencies(provider)):
        raise AgentGraphError(
            "bundle-dependencies-mismatch", "Bundle Graph dependency index does not match Subgraph references"
        )
