"""Runs with many Fact changes, driven through a real store by a seeded generator.

:func:`drive` writes shallow and deep merges, replacements, removals (a key
left out of a replacement, an object merged over by a scalar, a nested key set
to an empty object), records with and without Facts, and authority changes,
into the weekly-report example's Run, and keeps the state the Run held right
after every event (read from the heads the store answers), so a test can
compare a replay, a fork or a replay page with the Run as it really was.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import agent_graph as ag
import agent_graph.types as agt

NODES = ("report/draft", "report/approve", "report/publish", "report/check-publication")
OUTCOMES = ("completed", "completed", "partial", "failed", "unverified", "waiting-user")


@dataclass(frozen=True)
class State:
    """The Run right after one event: what an evaluation reads."""

    facts: dict[str, Any]
    outcomes: dict[str, agt.OutcomeRecord]
    authorities: tuple[str, ...]

    def evaluate(self, provider: ag.Provider) -> ag.Evaluation:
        return ag.evaluate(
            provider, "report", facts=self.facts, outcomes=self.outcomes, authorities=self.authorities
        )


def _facts(rng: random.Random) -> dict[str, Any]:
    """Facts that move the weekly report: its proof paths, set, changed, emptied or replaced by scalars."""
    choices: list[tuple[str, Any]] = [
        ("report", {"digest": f"sha256:{rng.randrange(4)}"}),
        ("report", {"digest": None, "approved": rng.random() < 0.5}),
        ("report", {"approved": True}),
        ("report", {}),
        ("report", rng.randrange(3)),  # a scalar over the object: its nested keys go
        ("publication", {"url": f"https://intranet.example/{rng.randrange(3)}"}),
        ("publication", {"url": None}),
        ("team", rng.choice(["web", "ops", ["web", "ops"], {"lead": "ana"}])),
        (f"note{rng.randrange(6)}", "x" * rng.randrange(1, 40)),
    ]
    picked = rng.sample(choices, rng.randrange(1, 4))
    return dict(picked)


def drive(store: ag.BaseRunStore, provider: ag.Provider, seed: int, writes: int) -> tuple[str, list[State]]:
    """Start a Run and make ``writes`` generated writes; its ID and the state after each of its events."""
    rng = random.Random(seed)
    run = store.start(None, provider, "report", facts=_facts(rng), authorities=["report.publish"])
    states = [State(dict(run.facts), dict(run.outcomes), run.authorities)]
    for _ in range(writes):
        kind = rng.choice(("merge", "deep", "replace", "record", "record-facts", "record-facts", "authority"))
        before = states[-1]
        if kind == "authority":
            head = store.update_authorities(run.id, add=["report.publish"] if rng.random() < 0.5 else [],
                                            remove=["report.publish"] if rng.random() < 0.3 else [])  # fmt: skip
        elif kind in ("merge", "deep", "replace"):
            head = store.update_facts(run.id, _facts(rng), deep=kind == "deep", replace=kind == "replace")
        else:
            facts = _facts(rng) if kind == "record-facts" else None
            head = store.record(
                run.id, rng.choice(NODES), rng.choice(OUTCOMES), detail={"by": f"agent:{rng.randrange(3)}"},
                facts=facts, deep=rng.random() < 0.5, provider=provider,
            )  # fmt: skip
            if facts is not None:  # the Facts land first, in an event of their own
                states.append(State(dict(head.facts), before.outcomes, before.authorities))
        states.append(State(dict(head.facts), dict(head.outcomes), head.authorities))
        assert head.events == len(states)
    return run.id, states


def expected_statuses(provider: ag.Provider, state: State) -> dict[str, str]:
    """What the replay page must show for each node of the Run's Graph in ``state``."""
    from agent_graph._toolchain.replay_page import node_statuses

    evaluation = state.evaluate(provider)
    step = agt.ReplayStep(
        event=agt.RunEvent(sequence=1, at="2026-01-01T00:00:00.000Z", type="state"),
        facts=state.facts,
        outcomes=state.outcomes,
        authorities=state.authorities,
        changes=(),
        evaluation=evaluation,
        exact=True,
    )
    run = ag.Run(
        schema="agent-graph.run.v1", id="state", provider=provider.manifest.id, graph="report", entry="default",
        created_at=step.event.at, updated_at=step.event.at, facts=state.facts, outcomes=state.outcomes,
        authorities=state.authorities, events=(step.event,),
    )  # fmt: skip
    return node_statuses(provider, run, step)
