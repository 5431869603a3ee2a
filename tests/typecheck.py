"""``mypy --strict`` over files a test wrote, as a user's type checker would see them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def mypy_strict(files: list[str], cache: Path) -> subprocess.CompletedProcess[str]:
    """Run ``mypy --strict`` on ``files`` (its cache in ``cache``, its working folder there's parent)."""
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(cache), *files],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=cache.parent,
        check=False,
    )
