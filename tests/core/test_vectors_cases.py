"""Every evaluate/route case recorded from the TypeScript toolchain, through the public API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

import agent_graph as ag
import agent_graph.define as agd
from tests.conftest import VECTORS

WORKSPACE = "/workspace"


def _cases() -> list[Any]:
    path = VECTORS / "cases.json"
    if not path.is_file():
        return []
    return json.loads(path.read_text(encoding="utf-8"))


CASES = _cases()
_PROVIDERS: dict[str, ag.Provider] = {}
_BUILT: dict[str, ag.Provider] = {}


# The recording toolchain (0.2.6) gave static file locations the 0.2 identity; in 0.3.1 every
# static file location is the file protocol with the same fields (behaviour.md §11).
RECORDED_LOCATION = '"agent-graph.resource-location.v1"'
FILE_LOCATION = '"agent-graph.resource-location.file.v1"'


def _placeholders(value: Any, root: str) -> Any:
    """Replace the recorded ``{root}`` placeholder by the Provider root and the 0.2 location identity."""
    text = json.dumps(value)
    return json.loads(text.replace("{root}", root).replace(RECORDED_LOCATION, FILE_LOCATION))


def _provider(manifest: str) -> ag.Provider:
    if manifest not in _PROVIDERS:
        _PROVIDERS[manifest] = ag.load_provider(str(VECTORS / manifest))
    return _PROVIDERS[manifest]


def _built(manifest: str) -> ag.Provider:
    """The Provider read back into a Python builder and loaded from it, in memory, at the same root."""
    if manifest not in _BUILT:
        provider = _provider(manifest)
        _BUILT[manifest] = agd.from_provider(provider).load(root=provider.root)
    return _BUILT[manifest]


@pytest.mark.skipif(not CASES, reason=f"toolchain vectors not found at {VECTORS}")
@pytest.mark.parametrize("index", range(len(CASES)))
def test_case(index: int) -> None:
    case = CASES[index]
    manifest = case["manifest"]
    if "load" in case:
        with pytest.raises(ag.AgentGraphError) as raised:
            ag.load_provider(str(VECTORS / manifest))
        assert raised.value.code == case["load"]["error"]
        return
    _check(case, _provider(manifest))


@pytest.mark.skipif(not CASES, reason=f"toolchain vectors not found at {VECTORS}")
@pytest.mark.parametrize("index", [i for i, case in enumerate(CASES) if "load" not in case])
def test_case_through_a_builder(index: int) -> None:
    """The same answers, byte for byte, from the Provider as ``agent_graph.define`` gives it back."""
    _check(CASES[index], _built(CASES[index]["manifest"]))


def _check(case: Any, provider: ag.Provider) -> None:
    root = str(Path(provider.root))
    state = case["state"]
    evaluation = ag.evaluate(
        provider,
        case["graph"],
        case["entry"],
        facts=state.get("facts", {}),
        outcomes=state.get("outcomes", {}),
        authorities=state.get("authorities", []),
    )
    expected = _placeholders(case["evaluation"], root)
    assert json.loads(msgspec.json.encode(evaluation)) == expected
    assert list(json.loads(msgspec.json.encode(evaluation))) == list(expected)
    expected_route = _placeholders(case["route"], root)
    if expected_route.get("noRoute"):
        assert evaluation.primary_route is None
        with pytest.raises(ag.AgentGraphError) as raised:
            ag.route(provider, case["graph"], case["entry"], None, workspace=WORKSPACE, **_state(state))
        assert raised.value.code == "route-unavailable"
        return
    resolved = ag.route(
        provider,
        case["graph"],
        case["entry"],
        evaluation.primary_route.route_id if evaluation.primary_route else None,
        revision=evaluation.revision,
        workspace=WORKSPACE,
        **_state(state),
    )
    assert json.loads(msgspec.json.encode(resolved)) == expected_route
    assert (
        msgspec.json.encode(resolved)
        == json.dumps(expected_route, separators=(",", ":"), ensure_ascii=False).encode()
    )


def _state(state: dict[str, Any]) -> dict[str, Any]:
    return {
        "facts": state.get("facts", {}),
        "outcomes": state.get("outcomes", {}),
        "authorities": state.get("authorities", []),
    }
