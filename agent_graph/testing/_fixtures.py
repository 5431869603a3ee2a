"""Providers for tests, from whatever a test suite holds: a builder, a folder, a manifest, a function."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Literal, Union

from .._core.errors import AgentGraphError
from .._core.provider import Provider
from .._load.define import ProviderBuilder
from .._runtime.observed import load_provider

__all__ = ["load", "provider_fixture"]

#: What a Provider can be made from in a test.
Source = Union[Provider, ProviderBuilder, str, "os.PathLike[str]", Callable[[], Any]]


def load(source: Source) -> Provider:
    """The Provider ``source`` makes: a loaded Provider as it is, a builder's (from memory), a Provider folder's
    or manifest's (from disk), or that of what a function without arguments answers."""
    if callable(source) and not isinstance(source, (Provider, ProviderBuilder)):
        source = source()
    if isinstance(source, Provider):
        return source
    if isinstance(source, ProviderBuilder):
        return source.load()
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if os.path.isdir(path):
            path = os.path.join(path, "provider.yaml")
        return load_provider(path)
    raise AgentGraphError(
        "argument-invalid",
        f"Cannot make a Provider from {type(source).__name__}: give a builder (agent_graph.define), "
        "a Provider folder or manifest, a loaded Provider, or a function answering one",
    )


def provider_fixture(
    source: Source,
    *,
    scope: Literal["session", "package", "module", "class", "function"] = "session",
    name: str | None = None,
) -> Any:
    """A pytest fixture answering the Provider of ``source`` (see :func:`load`), loaded once per ``scope``.

    Assign it in a test module or ``conftest.py``; the name it is assigned to
    is the fixture's (or ``name``)::

        report = provider_fixture("examples/weekly-report")
    """
    import pytest

    def fixture() -> Provider:
        return load(source)

    return pytest.fixture(scope=scope, name=name)(fixture)
