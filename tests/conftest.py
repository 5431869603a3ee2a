"""Shared test fixtures: where the toolchain's vectors live."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run, so CI is never red by chance;
# `python -m fuzz` explores random seeds instead.
settings.register_profile("agent-graph", derandomize=True, deadline=None)
settings.load_profile("agent-graph")

REPO = Path(__file__).resolve().parents[1]
VECTORS = REPO.parent / "shared" / "vectors"


@pytest.fixture(scope="session", autouse=True)
def _isolated_load_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep the default load cache of the test run out of the user's cache directory."""
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if previous is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = previous


@pytest.fixture(scope="session")
def vectors() -> Path:
    """The folder of vectors recorded from the TypeScript toolchain (skips when absent)."""
    if not VECTORS.is_dir():
        pytest.skip(f"toolchain vectors not found at {VECTORS}")
    return VECTORS
