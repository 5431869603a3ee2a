"""The Markdown that ``next_step`` of ``agent-graph mcp`` gives the model.

One function, :func:`render_step`, turns a next_step answer (its structured
content) into concise Markdown: what to do, what to read first, what proves
the step done, and what to record against which revision. A Gate that waits
for the user is rendered as the user's question only: nothing in it tells the
agent to record or to publish a Fact. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

__all__ = ["blocker_lines", "render_step"]


def _check_text(check: Mapping[str, Any]) -> str:
    """A check (``ProofCheck.to_json()``) in words, marked ✓ when it holds already."""
    mark = " ✓" if check.get("holds") else ""
    if check.get("operator") == "equals":
        return f"`{check['path']}` equals `{msgspec.json.encode(check.get('expected')).decode()}`{mark}"
    return f"`{check['path']}` {'exists' if check.get('expected', True) else 'is absent'}{mark}"


def blocker_lines(answer: Mapping[str, Any]) -> list[str]:
    """What holds the Run back, in explain's words: the node, why, and the checks it waits for."""
    lines = []
    for blocker in answer.get("blockers") or ():
        lines.append(f"- `{blocker['node']}` {blocker['message']}")
        lines.extend(f"  - waits for {_check_text(check)}" for check in blocker.get("checks", ()))
    return lines


def _location_line(location: Mapping[str, Any]) -> str:
    state = location.get("readState", "read-required")
    kind = location.get("kind", "resource")
    return f"- `{location['id']}` ({kind}, {location.get('mediaType', '')}) — {state}"


def _plan_lines(plan: Sequence[Mapping[str, Any]], indent: str = "") -> list[str]:
    lines = []
    for step in plan:
        if "command" in step:
            lines.append(
                f"{indent}- Run `{step['command']}` in `{step['workingDirectory']}` (effect: {step['effect']})"
            )
        else:
            lines.append(
                f"{indent}- Host handler `{step['handler']}` (effect: {step['effect']}): the host runs it, not you; "
                "ask the host or the user to run it and report what it found"
            )
    return lines


def render_step(answer: Mapping[str, Any]) -> str:
    """The Markdown the model reads for a next_step answer: what to do, read, prove and record."""
    run_id = answer["runId"]
    status = answer["status"]
    route = answer.get("route")
    lines: list[str] = []
    resolved = answer.get("resolved")
    if resolved is not None:
        lines.append(f"The user answered Gate `{resolved['gate']}`: **{resolved['decision']}** (recorded).")
        lines.append("")
    if status == "complete":
        lines.append(f"## Run {run_id} is complete: {answer.get('outcome', 'completed')}")
        lines.append("Nothing is left to do.")
        return "\n".join(lines)
    if route is None:
        lines.append(f"## Run {run_id}: {status}, no route")
        blockers = blocker_lines(answer)
        if blockers:
            lines.append("Why:")
            lines.extend(blockers)
        for diagnostic in answer.get("diagnostics", ()):
            lines.append(f"- {diagnostic['severity']} `{diagnostic['code']}`: {diagnostic['message']}")
        lines.append(
            "Nothing can be done now: tell the user what holds the Run back"
            + (" (the Facts it waits for)." if blockers else " (the diagnostics).")
        )
        return "\n".join(lines)
    node = route["node"]
    action = route.get("action")
    gate = route.get("gate")
    kind = f"action, {action['runner']}" if action is not None else ("gate" if gate is not None else "step")
    lines.append(f"## Next step: `{node}` ({kind}) — {status}")
    label = route.get("hint") or route.get("reasonCode", "")
    if gate is not None and gate.get("resolution") == "session-authority":
        # The Provider's hint is written for the user's Gate ("ask the user"): here the server holds it.
        label = f"Gate `{gate['id']}` needs the authority `{gate.get('authority')}`, which this server holds"
    lines.append(f"Run `{run_id}`, graph `{route['graph']}`. Why: {label} (`{route['reasonCode']}`)")
    decision = answer.get("userDecision")
    if decision is not None:
        lines.append("")
        lines.append(f"**The user must decide:** {decision['prompt']}")
        if decision.get("asked"):
            lines.append(
                f"The user was asked and did not approve yet ({decision.get('answer', 'no answer')})."
            )
        lines.append(
            "Only the user can answer this Gate; you cannot resolve it. Tell the user the question, then call "
            "next_step again once they have answered."
        )
        inspection = gate.get("inspectionAction") if gate else None
        if inspection is not None:
            lines.append("You may prepare evidence with the read-only inspection:")
            lines.extend(_plan_lines(inspection.get("commandPlan", ()), "  "))
        return "\n".join(lines)
    resources = route.get("resources", {})
    required = list(resources.get("required", ()))
    recommended = list(resources.get("recommended", ()))
    if required:
        lines.append("")
        lines.append("Read first (read_resource):")
        lines.extend(_location_line(location) for location in required)
    if recommended:
        lines.append("Recommended:")
        lines.extend(_location_line(location) for location in recommended)
    lines.append("")
    if gate is not None:
        lines.append(f"Gate `{gate['id']}`: {gate['prompt']} — resolution: {gate['resolution']}.")
        lines.append("This server holds the Gate's delegated authority: resolve it for the session.")
        resolution = gate.get("resolutionAction")
        if resolution is not None:
            lines.append("Resolution:")
            lines.extend(_plan_lines(resolution.get("commandPlan", ()), "  "))
    elif action is not None and action["runner"] == "agent":
        lines.append("Do it yourself, following the Skill above.")
        if action.get("outputSchema"):
            lines.append(f"Your output must match `{action['outputSchema']['id']}`.")
    else:
        lines.append("Do:")
        lines.extend(_plan_lines(route.get("commandPlan", ())))
    proof = answer.get("proof") or []
    record = answer.get("record")
    if record is not None:
        lines.append(
            f"When done: record_outcome with node `{record['node']}`, revision `{record['revision']}`, outcome "
            "completed, partial or failed" + (", and the proof in facts." if proof else ".")
        )
    if proof:
        lines.append("Proof of completion (Facts): " + "; ".join(_check_text(c) for c in proof) + ".")
    held = blocker_lines(answer)
    if held:
        lines.append("Held back meanwhile:")
        lines.extend(held)
    alternatives = answer.get("alternatives") or []
    if alternatives:
        lines.append(
            "Other routes: "
            + ", ".join(f"`{a['node']}` ({a['availability']}) {a['routeId']}" for a in alternatives)
        )
    return "\n".join(lines)
