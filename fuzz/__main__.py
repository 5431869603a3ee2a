"""``python -m fuzz [--minutes N] [--examples N] [--only TEXT] [--list]``: fuzz until the time is up.

Runs every target round-robin, each call with a fresh random seed and
``--examples`` examples, until ``--minutes`` have passed. A target that fails
is reported once (Hypothesis prints the shrunk example and the blob that
replays it) and not run again. Exit status 1 when anything was found.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="how long to fuzz (default 3)")
    parser.add_argument("--examples", type=int, default=200, help="examples per target call (default 200)")
    parser.add_argument(
        "--only", action="append", default=[], help="run only targets whose name contains TEXT"
    )
    parser.add_argument("--list", action="store_true", help="list the targets and exit")
    return parser.parse_args(argv)


def _targets() -> dict[str, Callable[..., None]]:
    """Every Hypothesis test of the property suite and of :mod:`fuzz.targets`, by name."""
    from fuzz import targets
    from tests import test_properties

    found: dict[str, Callable[..., None]] = {}
    for module in (test_properties, targets):
        for name, function in vars(module).items():
            if name.startswith("test_") and hasattr(function, "hypothesis"):
                found[f"{module.__name__.rsplit('.', 1)[-1]}.{name}"] = function
    return found


def _fixtures(directory: Path) -> dict[str, Any]:
    """Values for the pytest fixtures a property test asks for."""
    from tests import load_fixtures

    return {
        "cli_provider": str(
            load_fixtures.write_tree(directory / "cli-provider", load_fixtures.base_documents())
        )
    }


def main(argv: list[str] | None = None) -> int:
    options = _arguments(argv)
    os.environ["AGENT_GRAPH_FUZZ"] = "1"
    os.environ["AGENT_GRAPH_EXAMPLES"] = str(options.examples)
    sys.path.insert(0, str(REPO))
    targets = _targets()
    if options.only:
        targets = {name: f for name, f in targets.items() if any(text in name for text in options.only)}
    if options.list or not targets:
        print("\n".join(sorted(targets)) or "no target matches")
        return 0 if targets else 2
    deadline = time.monotonic() + options.minutes * 60
    runs: dict[str, int] = dict.fromkeys(targets, 0)
    findings: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="agent-graph-fuzz-") as scratch:
        fixtures = _fixtures(Path(scratch))
        print(
            f"fuzzing {len(targets)} targets for {options.minutes:g} min, {options.examples} examples per call"
        )
        while time.monotonic() < deadline and len(findings) < len(targets):
            for name, function in targets.items():
                if name in findings or time.monotonic() >= deadline:
                    continue
                wanted = {p: fixtures[p] for p in inspect.signature(function).parameters if p in fixtures}
                started = time.monotonic()
                try:
                    function(**wanted)
                except KeyboardInterrupt:
                    raise
                except BaseException:  # a finding (pytest's failures are BaseExceptions): shrunk and printed
                    findings[name] = traceback.format_exc()
                    print(f"FINDING {name}\n{findings[name]}", flush=True)
                else:
                    runs[name] += 1
                    print(f"ok {name} ({time.monotonic() - started:.1f} s)", flush=True)
    examples = sum(runs.values()) * options.examples
    print(f"\n{sum(runs.values())} target calls, about {examples} examples, {len(findings)} finding(s)")
    for name in findings:
        print(f"  FINDING {name}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
