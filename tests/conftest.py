"""Shared test fixtures: where the toolchain's vectors live."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run, so CI is never red by chance;
# `python -m fuzz` explores random seeds instead.
settings.register_profile("agent-graph", derandomize=True, deadline=None)
settings.load_profile("agent-graph")

REPO = Path(__file__).resolve().parents[1]
VECTORS = REPO.parent / "shared" / "vectors"


@pytest.fixture(scope="session")
def vectors() -> Path:
    """The folder of vectors recorded from the TypeScript toolchain (skips when absent)."""
    if not VECTORS.is_dir():
        pytest.skip(f"toolchain vectors not found at {VECTORS}")
    return VECTORS
