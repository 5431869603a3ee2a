"""The properties a Provider declares for ``agent-graph verify`` (``agent-graph.verify.v1``), checked
against an explored state space.

A :class:`Property` says of a :class:`Condition` on a state that every
reachable state meets it (``always``), none does (``never``), one does
(``reachable``) or that from every reachable state one that meets it can be
reached (``alwaysReachable``). :func:`check_property` answers ``holds``,
``violated`` (AGV201, with the state that shows it and the graph test that
reproduces it) or ``unproven`` (AGV202: the exploration stopped before it
could tell). A property is said to hold only of a complete exploration. Pure:
no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from .explore import Exploration, StateInfo
from .lint import Issue
from .verify import VerifiedIssue, after_move

__all__ = ["PROPERTY_KINDS", "Condition", "Property", "check_property"]


class Condition(msgspec.Struct, frozen=True, kw_only=True, rename="camel"):
    """A condition on one state, as a property declares it: every field given must hold (a list: any of it)."""

    status_code: tuple[str, ...] | None = None
    outcome: tuple[str, ...] | None = None
    terminal: tuple[str, ...] | None = None
    primary_node: tuple[str, ...] | None = None
    offers: tuple[str, ...] | None = None

    def holds(self, info: StateInfo) -> bool:
        """Whether the state with this evaluation meets the condition."""
        if self.status_code is not None and info.status not in self.status_code:
            return False
        if self.outcome is not None and info.outcome not in self.outcome:
            return False
        if self.terminal is not None and not any(t in self.terminal for t in info.terminals):
            return False
        if self.primary_node is not None and info.primary not in self.primary_node:
            return False
        return self.offers is None or any(key in self.offers for key, _n, _a in info.candidates)

    def expect(self) -> dict[str, Any]:
        """What a graph test can assert of a state meeting the condition (its first choice of each field)."""
        expect: dict[str, Any] = {}
        if self.status_code:
            expect["statusCode"] = self.status_code[0]
        elif self.outcome or self.terminal:
            expect["statusCode"] = "complete"
        else:
            expect["statusCode"] = "actionable"
        if self.primary_node:
            expect["primaryNode"] = self.primary_node[0]
        if self.outcome:
            expect["outcome"] = self.outcome[0]
        if self.offers and not self.primary_node:
            expect["recordNode"] = self.offers[0]
        return expect

    def text(self) -> str:
        """The condition in words."""
        parts = []
        for label, values in (
            ("status", self.status_code),
            ("outcome", self.outcome),
            ("terminal", self.terminal),
            ("primary node", self.primary_node),
            ("offering", self.offers),
        ):
            if values is not None:
                parts.append(f"{label} {' or '.join(values)}")
        return " and ".join(parts)


#: Property kinds: every state meets it, none does, one does, from every state one is reachable.
PROPERTY_KINDS = ("always", "never", "reachable", "alwaysReachable")


@dataclass(frozen=True)
class Property:
    """One declared property: ``kind`` (see :data:`PROPERTY_KINDS`), its condition and where it was declared."""

    name: str
    kind: str
    condition: Condition
    path: str
    pointer: str
    graph: str
    entry: str

    def issue(self, code: str, message: str, hint: str) -> Issue:
        """A finding ``code`` about this property, located where it was declared."""
        return Issue(code, message, self.path, self.pointer, self.pointer, hint, graph=self.graph)


def check_property(exploration: Exploration, prop: Property) -> tuple[str, VerifiedIssue | None]:
    """``(holds | violated | unproven, issue)`` for a property of the Graph entry the exploration explored."""
    infos = exploration.infos
    condition = prop.condition
    kind = prop.kind
    violating: int | None = None
    if kind in ("always", "never"):
        wanted = kind == "always"
        violating = next(
            (i for i, info in enumerate(infos) if info is not None and condition.holds(info) != wanted), None
        )
    elif kind == "reachable":
        if any(info is not None and condition.holds(info) for info in infos):
            return "holds", None
    else:
        targets = [i for i, info in enumerate(infos) if info is None or condition.holds(info)]
        can = exploration.reaching(targets)
        violating = next((i for i, info in enumerate(infos) if info is not None and not can[i]), None)
    label = f"{prop.graph}#{prop.entry}"
    words = {
        "always": "every reachable state has",
        "never": "no reachable state has",
        "reachable": "some reachable state has",
        "alwaysReachable": "from every reachable state, a state is reachable with",
    }[kind]
    if violating is not None:
        move = exploration.moves[violating]
        after = after_move(exploration, move)
        message = f"Property {prop.name!r} ({words} {condition.text()}) fails in {label} {after}"
        expect = condition.expect() if kind != "never" else _opposite(infos[violating])
        if _would_pass(expect, infos[violating]):
            expect = _opposite(infos[violating])
        issue = prop.issue(
            "AGV201", message, "the trace reaches the state that breaks it; fix the Graph or the property"
        )
        return "violated", VerifiedIssue(
            issue, exploration, violating, expect, f"property {prop.name!r} fails {after}"
        )
    if kind == "reachable" and exploration.complete:
        message = (
            f"Property {prop.name!r} ({words} {condition.text()}) fails in {label}: no reachable state has it"
        )
        issue = prop.issue("AGV201", message, "fix the Graph or the property")
        return "violated", VerifiedIssue(issue)
    if not exploration.complete:
        message = (
            f"Property {prop.name!r} ({words} {condition.text()}) is not proven in {label}: it holds in the "
            f"{exploration.evaluated} states explored, but the exploration stopped at its bound"
        )
        issue = prop.issue("AGV202", message, "raise --max-states or --time-budget")
        return "unproven", VerifiedIssue(issue)
    return "holds", None


def _would_pass(expect: Mapping[str, Any], info: StateInfo | None) -> bool:
    """Whether a graph test expecting ``expect`` passes at the state evaluated to ``info``."""
    if info is None:
        return False
    actual = {
        "statusCode": info.status,
        "outcome": info.outcome,
        "primaryNode": info.primary,
        "recordNode": info.candidates[0][0] if info.candidates else None,
    }
    return all(actual.get(field) == value for field, value in expect.items())


def _opposite(info: StateInfo | None) -> dict[str, Any]:
    """An expectation the state fails: another status than its own."""
    status = info.status if info is not None else "complete"
    return {"statusCode": "complete" if status != "complete" else "actionable"}
