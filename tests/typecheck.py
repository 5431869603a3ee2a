"""``mypy --strict`` over files a test wrote, as a user's type checker would see them."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Mapping
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


def assert_refused_exactly(good: str, mistakes: Mapping[str, str], folder: Path, indent: str = "") -> None:
    """``mypy --strict`` passes the file ``good`` and flags exactly each line of ``mistakes`` appended to it.

    Each mistake is a line (indented by ``indent``) and what it gets wrong, written after it as a comment.
    """
    (folder / "good.py").write_text(good, encoding="utf-8")
    bad = good + "".join(f"{indent}{line}  # {label}\n" for line, label in mistakes.items())
    (folder / "bad.py").write_text(bad, encoding="utf-8")
    clean = mypy_strict([str(folder / "good.py")], folder / "c")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    refused = mypy_strict([str(folder / "bad.py")], folder / "c")
    assert refused.returncode == 1
    lines = good.count("\n")
    flagged = {int(line.split(":")[1]) for line in refused.stdout.splitlines() if ": error:" in line}
    assert flagged == set(range(lines + 1, lines + 1 + len(mistakes))), textwrap.indent(refused.stdout, "  ")
