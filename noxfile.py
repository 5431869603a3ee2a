"""Quality gates, one session each: ``nox`` runs the default set; ``nox -l`` lists them all.

Interpreters are found as ``python3.10`` … ``python3.13`` on ``PATH`` (with pyenv:
``PYENV_VERSION=3.11.7:3.10.13:3.12.1:3.13.0``, as ``.ci/run`` sets it).
"""

from __future__ import annotations

from pathlib import Path

import nox

PYTHONS = ["3.10", "3.11", "3.12", "3.13"]
#: The oldest release of each runtime dependency that pyproject.toml allows (``deps-oldest``).
OLDEST = ["msgspec==0.18.6", "ruamel.yaml==0.18.0", "fastjsonschema==2.22.1"]
#: The oldest release of each optional dependency the extras allow (the MCP server's SDK).
OLDEST_EXTRAS = ["mcp==2.0.0"]
LINTED = ("agent_graph", "tests", "benchmarks", "fuzz", "noxfile.py")

nox.options.sessions = ["tests", "slow", "lint", "typecheck", "layers", "schemas", "dist"]
nox.options.reuse_existing_virtualenvs = True


def _existing(paths: tuple[str, ...]) -> list[str]:
    return [path for path in paths if Path(path).exists()]


@nox.session(python=PYTHONS)
def tests(session: nox.Session) -> None:
    """The test suite on each supported Python (vectors included when ../shared/vectors is present;
    the PostgreSQL tests start a server of their own). Parallel (pytest-xdist), slow cases left out."""
    session.install("-e", ".[test,postgres]")
    session.run("pytest", *session.posargs)


@nox.session(python=["3.10", "3.13"])
def slow(session: nox.Session) -> None:
    """The slow cases (``-m slow``: 100,000-node chains, mypy of the doc samples, kill loops) on the
    oldest and the newest supported Python."""
    session.install("-e", ".[test,postgres]")
    session.run("pytest", "-m", "slow", *session.posargs)


@nox.session(name="deps-oldest", python="3.10")
def deps_oldest(session: nox.Session) -> None:
    """The suite with the oldest allowed release of every runtime dependency."""
    session.install("-e", ".[test]")
    session.install(*OLDEST, *OLDEST_EXTRAS)
    session.run("pytest", *session.posargs)
    session.run("pytest", "-m", "slow", *session.posargs)


@nox.session(name="deps-newest", python="3.13")
def deps_newest(session: nox.Session) -> None:
    """The suite with the newest allowed release of every runtime dependency."""
    session.install("--upgrade", "--upgrade-strategy", "eager", "-e", ".[test]")
    session.run("pytest", *session.posargs)
    session.run("pytest", "-m", "slow", *session.posargs)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff (check and format), and vulture for dead code."""
    session.install(
        "ruff==0.17.6", "vulture"
    )  # the version .ci/run and pre-commit use: formatting must not drift
    paths = _existing(LINTED)
    session.run("ruff", "check", *paths)
    session.run("ruff", "format", "--check", *paths)
    session.run(
        "vulture", "agent_graph", "--min-confidence", "80", "--exclude", "agent_graph/_syntax/validators.py"
    )


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict over the package."""
    session.install("-e", ".[test,postgres]", "mypy")
    session.run("mypy", "--strict", "agent_graph")


@nox.session
def layers(session: nox.Session) -> None:
    """The import-layer contracts of pyproject.toml (import-linter)."""
    session.install("-e", ".", "import-linter")
    session.run("lint-imports")


@nox.session
def dist(session: nox.Session) -> None:
    """Build the wheel and the sdist and check what they hold (every schema, ``py.typed``, the replay
    assets, the generated validators) and must not (tests, virtual environments, caches)."""
    session.install("hatchling>=1.18")
    session.run("python", "-m", "tests.dist_check")


@nox.session
def bench(session: nox.Session) -> None:
    """The benchmark suite; rewrites docs/performance.md."""
    session.install("-e", ".[postgres]")
    session.run("python", "-m", "benchmarks", *session.posargs)


@nox.session
def stores(session: nox.Session) -> None:
    """The Run store benchmark beside LangGraph's savers; rewrites the Run stores section of docs/performance.md."""
    session.install("-e", ".[bench]")
    session.run("python", "-m", "benchmarks.stores", *session.posargs)


@nox.session
def turns(session: nox.Session) -> None:
    """A host turn against its commit and LangGraph's savers; rewrites the Host turns section of docs/performance.md.

    psycopg's C implementation, as a production host installs it, on both sides.
    """
    session.install("-e", ".[bench]", "psycopg[binary]")
    session.run("python", "-m", "benchmarks.turns", *session.posargs)


@nox.session
def fuzz(session: nox.Session) -> None:
    """Hypothesis-driven fuzzing of loading and evaluation (a few minutes)."""
    session.install("-e", ".[test]")
    session.run("python", "-m", "fuzz", *session.posargs)


@nox.session
def schemas(session: nox.Session) -> None:
    """Check that the generated schema validators match the shipped schemas (``-- --write`` regenerates),
    that docs/errors.md matches the registry of error codes and that the type checkers' view of
    ``agent_graph`` matches its table of public names."""
    session.install("-e", ".")
    if "--write" in session.posargs:
        session.run("python", "-m", "agent_graph._toolchain.schemagen")
    else:
        session.run("python", "-m", "agent_graph._toolchain.schemagen", "--check")
    session.run("python", "-m", "agent_graph._toolchain.errordoc", "--check")
    session.run("python", "-m", "agent_graph._toolchain.publicnames", "--check")
