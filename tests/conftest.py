"""Shared test fixtures: where the toolchain's vectors live."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
VECTORS = REPO.parent / "shared" / "vectors"


@pytest.fixture(scope="session")
def vectors() -> Path:
    """The folder of vectors recorded from the TypeScript toolchain (skips when absent)."""
    if not VECTORS.is_dir():
        pytest.skip(f"toolchain vectors not found at {VECTORS}")
    return VECTORS
