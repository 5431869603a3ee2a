"""``impact(old, new, runs)``: which Runs in flight a new version of their Provider would change.

The comparison is :mod:`agent_graph._core.impact` (pure); this module reads
the Runs when it is given a store: every Run of the old Provider that the
store lists, each read by its head (Facts, Outcomes, authorities; never its
events). Nothing is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .._core.errors import AgentGraphError, shown
from .._core.impact import ImpactReport, impact_report
from .._core.model import Run, RunHead
from .._core.provider import Provider
from .run_store import BaseRunStore

__all__ = ["impact", "stored_runs"]


def stored_runs(store: BaseRunStore, provider: str) -> Iterator[RunHead]:
    """The heads of the Runs of ``provider`` (an ID) that ``store`` holds, in the store's listing order.

    The one place that pages through a store: each summary the listing
    answers is read by its head, one at a time.
    """
    for summary in store.list(provider=provider):
        yield store.head(summary.ref, provider)


def impact(old: Provider, new: Provider, runs: BaseRunStore | Iterable[Run | RunHead]) -> ImpactReport:
    """Each Run of ``old`` evaluated under ``old`` and ``new``, and what changes (see :class:`ImpactReport`).

    ``runs`` is a Run store (every Run of the old Provider it holds) or Runs
    and Run heads (``run-provider-mismatch`` for a Run of another Provider).
    The two Providers must be versions of one Provider (the same ID). Reads
    only; writes nothing.
    """
    if isinstance(runs, BaseRunStore):
        if not isinstance(old, Provider):
            raise AgentGraphError(
                "argument-invalid", "impact needs the loaded old Provider (ag.load_provider)"
            )
        return impact_report(old, new, stored_runs(runs, old.manifest.id))
    if isinstance(runs, (str, bytes, Run, RunHead)) or not isinstance(runs, Iterable):
        raise AgentGraphError(
            "argument-invalid", f"impact takes a Run store or a list of Runs, not {shown(runs)}"
        )
    return impact_report(old, new, runs)
