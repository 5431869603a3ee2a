"""Quality gates: ``nox -s tests lint typecheck`` (and ``bench``, ``fuzz`` where present)."""

from __future__ import annotations

from pathlib import Path

import nox

nox.options.sessions = ["tests", "lint", "typecheck"]
nox.options.reuse_existing_virtualenvs = True


@nox.session
def tests(session: nox.Session) -> None:
    """The test suite, vectors included when ../shared/vectors is present."""
    session.install("-e", ".[test]")
    session.run("pytest", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff over the package, tests and tooling."""
    session.install("ruff")
    paths = [p for p in ("agent_graph", "tests", "benchmarks", "fuzz", "noxfile.py") if Path(p).exists()]
    session.run("ruff", "check", *paths)


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict over the package."""
    session.install("-e", ".", "mypy", "pytest")
    session.run("mypy", "--strict", "agent_graph")


@nox.session
def bench(session: nox.Session) -> None:
    """The benchmark suite; rewrites docs/performance.md."""
    session.install("-e", ".")
    session.run("python", "-m", "benchmarks", *session.posargs)


@nox.session
def fuzz(session: nox.Session) -> None:
    """Hypothesis-driven fuzzing of loading and evaluation (a few minutes)."""
    session.install("-e", ".[test]")
    session.run("python", "-m", "fuzz", *session.posargs)
