"""One Provider shared by many threads gives every thread the answers a lone caller gets.

What evaluation remembers lives in ``provider.cache`` (bounded, emptied when
full); eight threads evaluating and routing different states at once on one
Provider must each see exactly the answers a single thread computes on a fresh
Provider, even while the cache tables fill and empty under them.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgspec

import agent_graph as ag
from agent_graph._core.cache import EVALUATIONS_REMEMBERED
from tests.paths import EXAMPLES

OUTCOMES = ["completed", "failed", "partial", "pending", "blocked", "skipped", "unverified", "waiting-user"]


def _states(count: int, seed: int) -> list[tuple[str, str, dict[str, Any], dict[str, str], list[str]]]:
    """Varied states of the release example: more of them than the cache remembers, each seen twice."""
    rng = random.Random(seed)
    states = []
    for turn in range(count):
        facts: dict[str, Any] = {"turn": turn}
        if rng.random() < 0.6:
            facts["build"] = {"artifact": {"digest": f"sha256:{rng.randrange(4)}"}}
        if rng.random() < 0.5:
            facts["tests"] = {"result": rng.choice(["passed", "failed", "flaky"])}
        if rng.random() < 0.3:
            facts["release"] = {"tag": f"v{rng.randrange(3)}"}
        outcomes = {}
        for key in ("release/check>quality/build", "release/check>quality/test", "release/tag"):
            if rng.random() < 0.4:
                outcomes[key] = rng.choice(OUTCOMES)
        entry = "default"
        authorities = rng.sample(["release.tag", "ops", "review"], rng.randrange(3))
        states.append(("release", entry, facts, outcomes, authorities))
    return states + states  # the second round finds some answers remembered, some not


def _answer(
    provider: ag.Provider, state: tuple[str, str, dict[str, Any], dict[str, str], list[str]]
) -> bytes:
    graph, entry, facts, outcomes, authorities = state
    evaluation = ag.evaluate(provider, graph, entry, facts=facts, outcomes=outcomes, authorities=authorities)
    parts = [msgspec.json.encode(evaluation)]
    if evaluation.primary_route is not None:
        route = ag.route(
            provider,
            graph,
            entry=entry,
            route_id=evaluation.primary_route.route_id,
            facts=facts,
            outcomes=outcomes,
            authorities=authorities,
            revision=evaluation.revision,
            workspace="/ws",
        )
        parts.append(msgspec.json.encode(route))
    return b"\n".join(parts)


def _hammer(threads: int, states: list[Any], answer: Callable[[Any], bytes]) -> list[list[bytes]]:
    start = threading.Barrier(threads)

    def work(seed: int) -> list[bytes]:
        order = list(range(len(states)))
        random.Random(seed).shuffle(order)
        start.wait()
        results: list[bytes] = [b""] * len(states)
        for index in order:
            results[index] = answer(states[index])
        return results

    with ThreadPoolExecutor(max_workers=threads) as pool:
        return list(pool.map(work, range(threads)))


def test_eight_threads_on_one_provider_get_the_single_threaded_answers() -> None:
    manifest = str(EXAMPLES / "release-subgraph" / "provider.yaml")
    states = _states(3 * EVALUATIONS_REMEMBERED, seed=7)
    alone = ag.load_provider(manifest)
    expected = [_answer(alone, state) for state in states]
    assert len(set(expected)) > 20  # the states really differ
    shared = ag.load_provider(manifest)
    for results in _hammer(8, states, lambda state: _answer(shared, state)):
        assert results == expected
    assert len(shared.cache.evaluations) <= EVALUATIONS_REMEMBERED


def test_providers_do_not_share_what_they_remember() -> None:
    manifest = str(EXAMPLES / "release-subgraph" / "provider.yaml")
    one, two = ag.load_provider(manifest), ag.load_provider(manifest)
    ag.evaluate(one, "release", facts={"turn": 1})
    assert one.cache.evaluations and not two.cache.evaluations
    one.cache.clear()
    assert not one.cache.evaluations and not one.cache.fact_texts


class _EmptiedAfterLookUp(dict):  # type: ignore[type-arg]
    """A fact-text table that another thread empties right after each look-up."""

    def get(self, key: Any, default: Any = None) -> Any:
        found = super().get(key, default)
        self.clear()
        return found


def test_a_table_emptied_between_look_up_and_use_does_not_change_the_answer() -> None:
    provider = ag.load_provider(str(EXAMPLES / "weekly-report" / "provider.yaml"))
    fresh = ag.load_provider(str(EXAMPLES / "weekly-report" / "provider.yaml"))
    facts = {"report": {"digest": "sha256:1", "approved": True}}
    for _ in range(2):  # seen twice: the table keeps a plain copy of the value
        ag.evaluate(provider, "report", facts=facts, authorities=["report.publish"])
    assert provider.cache.fact_texts["report"][1] == facts["report"]
    provider.cache.fact_texts = _EmptiedAfterLookUp(provider.cache.fact_texts)
    provider.cache.evaluations.clear()
    raced = ag.evaluate(provider, "report", facts=facts, authorities=["report.publish"])
    assert raced == ag.evaluate(fresh, "report", facts=facts, authorities=["report.publish"])
