"""What the wheel and the sdist must hold, and must not: built here with hatchling and listed.

``python -m tests.dist_check`` (from the repository root; ``.ci/run`` and ``nox -s
dist`` run it) builds both into a temporary folder with the project's own build
backend and exits 1, naming each problem, when one is missing something or holds
something it must not. tests/package/test_dist.py runs the same checks.

The wheel must hold the whole package (every module of ``agent_graph/``), every
JSON Schema of the top-level ``schemas/`` as package data of the syntax layer
(``agent_graph/_syntax/schemas/``, byte for byte), ``py.typed``, the replay
page's assets and the generated schema validators; nothing outside the package
and its metadata (no tests, benchmarks, docs, virtual environments or caches).
The sdist must hold what a wheel is built from (``pyproject.toml``, the package,
``schemas/``) and the tests, and no virtual environment, cache or installed
node package.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "agent_graph"
#: Files the wheel must hold besides the modules and the schemas.
WHEEL_DATA = (
    "agent_graph/py.typed",
    "agent_graph/_syntax/validators.py",
    *(
        f"agent_graph/_toolchain/replay_assets/{path.name}"
        for path in sorted((PACKAGE / "_toolchain" / "replay_assets").iterdir())
    ),
)
#: Path parts that neither archive may hold anywhere.
NEVER = (".venv", "__pycache__", ".pyc", "node_modules", ".git/", ".pytest_cache", ".mypy_cache", ".nox")


def build(out: Path) -> tuple[Path, Path]:
    """The wheel and the sdist, built from the checkout by its build backend (hatchling) in a child process."""
    script = (
        "import sys, hatchling.build as backend\n"
        "print(backend.build_wheel(sys.argv[1]))\n"
        "print(backend.build_sdist(sys.argv[1]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"building failed:\n{done.stdout}\n{done.stderr}")
    wheel, sdist = done.stdout.split()[-2:]
    return out / wheel, out / sdist


def _modules() -> list[str]:
    """Every module of the package in the checkout, as the wheel names it."""
    return sorted(
        str(path.relative_to(REPO)) for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts
    )


def _schemas() -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted((REPO / "schemas").glob("*.schema.json"))}


def wheel_problems(wheel: Path) -> list[str]:
    """What is wrong with the wheel's contents (nothing: an empty list)."""
    problems: list[str] = []
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for name in (*_modules(), *WHEEL_DATA):
            if name not in names:
                problems.append(f"wheel: {name} is missing")
        schemas = _schemas()
        if not schemas:
            problems.append("the checkout has no schemas/*.schema.json")
        for file, data in schemas.items():
            name = f"agent_graph/_syntax/schemas/{file}"
            if name not in names:
                problems.append(f"wheel: {name} is missing")
            elif archive.read(name) != data:
                problems.append(f"wheel: {name} differs from schemas/{file}")
        for name in sorted(names):
            top = name.split("/", 1)[0]
            if top != "agent_graph" and not (top.startswith("agent_graph-") and top.endswith(".dist-info")):
                problems.append(f"wheel: {name} is outside the package")
            if any(part in name for part in NEVER):
                problems.append(f"wheel: {name} must not be shipped")
    return problems


def sdist_problems(sdist: Path) -> list[str]:
    """What is wrong with the sdist's contents (nothing: an empty list)."""
    problems: list[str] = []
    with tarfile.open(sdist) as archive:
        members = archive.getnames()
    root = members[0].split("/", 1)[0]
    names = {member.split("/", 1)[1] for member in members if "/" in member}
    wanted = [
        "pyproject.toml",
        "README.md",
        "LICENSE",
        "CHANGELOG.md",
        *_modules(),
        *WHEEL_DATA,
        *(f"schemas/{file}" for file in _schemas()),
        "tests/conftest.py",
    ]
    for name in wanted:
        if name not in names:
            problems.append(f"sdist: {root}/{name} is missing")
    for name in sorted(names):
        if any(part in name for part in NEVER):
            problems.append(f"sdist: {root}/{name} must not be shipped")
    return problems


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="agent-graph-dist-") as folder:
        wheel, sdist = build(Path(folder))
        problems = wheel_problems(wheel) + sdist_problems(sdist)
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            return 1
        print(f"{wheel.name} and {sdist.name} hold what they must, and nothing they must not")
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
