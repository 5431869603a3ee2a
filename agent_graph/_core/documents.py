"""The v1 documents that are files or envelopes rather than answers: graph tests, bundles, errors, Skill bindings.

Frozen msgspec Structs on the common wire base (:mod:`.wire`);
:mod:`.model` re-exports every name, so ``from agent_graph._core.model
import TestCase`` keeps working. Data shapes only: no I/O, no logic.
"""

from __future__ import annotations

from typing import Any

from .errors import Diagnostic
from .wire import _Wire

__all__ = [
    "Bundle",
    "BundleEntry",
    "BundleFile",
    "BundleProvider",
    "ErrorBody",
    "ErrorEnvelope",
    "SkillBinding",
    "TestCase",
    "TestExpect",
    "TestResult",
    "TestState",
]


class TestState(_Wire, frozen=True, kw_only=True):
    facts: dict[str, Any] | None = None
    outcomes: dict[str, Any] | None = None
    authorities: tuple[str, ...] | None = None


class TestExpect(_Wire, frozen=True, kw_only=True):
    status_code: str
    primary_node: str | None = None
    primary_reason_code: str | None = None
    alternative_nodes: tuple[str, ...] | None = None
    availability: str | None = None
    command: str | None = None
    handler: str | None = None
    required_resources: tuple[str, ...] | None = None
    recommended_resources: tuple[str, ...] | None = None
    gate_resolution: str | None = None
    inspection_command: str | None = None
    inspection_handler: str | None = None
    inspection_skill: str | None = None
    inspection_input_schema: str | None = None
    resolution_command: str | None = None
    resolution_handler: str | None = None
    resolution_skill: str | None = None
    resolution_input_schema: str | None = None
    record_node: str | None = None
    outcome: str | None = None
    diagnostics_include: tuple[str, ...] | None = None


class TestCase(_Wire, frozen=True, kw_only=True):
    """``agent-graph.test.v1``: a declarative graph test."""

    __test__ = False  # not a pytest class

    schema: str
    name: str
    graph: str
    entry: str = "default"
    state: TestState | None = None
    expect: TestExpect


class TestResult(_Wire, frozen=True, kw_only=True):
    """The result of one graph test: ``{name, path, passed, failures, error?}``.

    ``error`` is set (and ``passed`` false) when the file could not be read or
    run at all; its first line is also the only failure.
    """

    __test__ = False

    name: str
    path: str
    passed: bool
    failures: tuple[str, ...]
    error: ErrorBody | None = None


class BundleProvider(_Wire, frozen=True, kw_only=True):
    id: str
    version: str


class BundleEntry(_Wire, frozen=True, kw_only=True):
    id: str
    path: str
    digest: str


class BundleFile(_Wire, frozen=True, kw_only=True):
    path: str
    digest: str


class Bundle(_Wire, frozen=True, kw_only=True):
    """``agent-graph.bundle.v1``: the manifest of a built, relocatable Provider bundle."""

    schema: str
    provider: BundleProvider
    provider_manifest: str
    graphs: tuple[BundleEntry, ...]
    actions: tuple[BundleEntry, ...]
    resources: tuple[BundleEntry, ...]
    schemas: tuple[BundleEntry, ...]
    files: tuple[BundleFile, ...]
    graph_dependencies: dict[str, tuple[str, ...]]
    digest: str


class ErrorBody(_Wire, frozen=True, kw_only=True):
    code: str
    message: str
    diagnostics: tuple[Diagnostic, ...]


class ErrorEnvelope(_Wire, frozen=True, kw_only=True):
    """``agent-graph.error.v1``: how the command line reports a failure."""

    schema: str
    state: str
    error: ErrorBody


class SkillBinding(_Wire, frozen=True, kw_only=True):
    """``agent-graph.skill-binding.v1``: a ``SKILL.md`` resolved to its Provider, Graph and Entry."""

    schema: str
    skill_path: str
    locator: str
    graph: str
    entry: str
    manifest_path: str
    provider: str
