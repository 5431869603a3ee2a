"""The step (``agent_graph._runtime.step``): one evaluation per step, one public ``route()``, one way to locate."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import agent_graph as ag
from agent_graph._core import evaluate as _evaluate
from agent_graph._runtime.step import RegularFileSystem, run_step, step_location
from tests.paths import REPO as ROOT

PROVIDER = ag.load_provider(str(ROOT / "examples" / "weekly-report" / "provider.yaml"))


def _count_revisions(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the evaluator's revision computations (the real function still runs)."""
    calls = [0]
    real = _evaluate.evaluation_revision

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(_evaluate, "evaluation_revision", counted)
    return calls


def test_next_step_evaluates_once_and_routes_at_that_revision(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ag.open_store(str(tmp_path))
    run = store.start("r.json", PROVIDER, "report", workspace=str(tmp_path))
    calls = _count_revisions(monkeypatch)
    step = store.next_step("r.json", PROVIDER)
    assert calls[0] == 1, "next_step computes the revision once"
    assert step.route is not None and step.route.revision == step.revision == step.evaluation.revision
    assert step.route.route_id == step.evaluation.primary_route.route_id  # type: ignore[union-attr]
    # The same answer as the public route() with the Run's state, which evaluates on its own.
    public = ag.route(
        PROVIDER,
        "report",
        "default",
        facts=run.facts,
        outcomes=run.outcomes,
        authorities=run.authorities,
        revision=step.revision,
        workspace=str(tmp_path),
    )
    assert public == step.route
    # run_step is what next_step is: the same step from the Run as read.
    assert run_step(PROVIDER, run) == step


def test_a_route_id_that_is_not_a_candidate_is_stale_at_the_steps_revision(tmp_path: Path) -> None:
    store = ag.open_store(str(tmp_path))
    run = store.start("r.json", PROVIDER, "report", workspace=str(tmp_path))
    with pytest.raises(ag.AgentGraphError) as raised:
        run_step(PROVIDER, run, route_id="route:0000")
    assert raised.value.code == "route-stale"
    assert run_step(PROVIDER, run).evaluation.revision in raised.value.message


def test_a_step_locates_its_route_first_then_the_providers_static_files(tmp_path: Path) -> None:
    run = ag.open_store(str(tmp_path)).start("r.json", PROVIDER, "report", workspace=str(tmp_path))
    step = run_step(PROVIDER, run)
    assert step.route is not None
    skill = step.route.action.skill  # type: ignore[union-attr]
    assert skill is not None and step_location(PROVIDER, step, skill.id) == skill
    # A static file off the route is still readable by its ID; an unknown ID is resource-missing.
    assert step_location(PROVIDER, step, "procedure.weekly-report").id == "procedure.weekly-report"
    with pytest.raises(ag.AgentGraphError) as raised:
        step_location(PROVIDER, step, "no.such.resource")
    assert raised.value.code == "resource-missing"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    regular = tmp_path / "a.md"
    regular.write_bytes(b"# A\n")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    files = RegularFileSystem()
    assert files.read_bytes(str(regular)) == b"# A\n"
    with pytest.raises(OSError, match="not a regular file"):
        files.read_bytes(str(fifo))  # opened without blocking: no writer is needed to get an answer


def test_the_static_files_are_resources_skills_and_schemas_once_each() -> None:
    from agent_graph._runtime.step import static_locations

    ids = [location.id for location in static_locations(PROVIDER)]
    assert ids == sorted(set(ids))
    assert {
        "procedure.weekly-report",
        "template.weekly-report",
        "skill.report-writer",
        "schema.draft.output",
    } == set(ids)
