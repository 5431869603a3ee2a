"""npm semver ranges and the ``compatibility.agentGraph`` warning of ``validate``."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

import agent_graph as ag
from agent_graph._cli import main as _cli
from agent_graph._core.semver import (
    TOOLCHAIN_VERSION,
    RangeError,
    compatibility_warning,
    parse_range,
    parse_version,
    satisfies,
)

VERSIONS = ("0.3.1", "0.2.5", "1.2.3", "1.3.0-beta", "0.3.1-beta.2", "0.0.3")

# Answers of the npm `semver` package (7.x, `satisfies(version, range)`) for each range and VERSIONS.
NPM_ANSWERS = {
    "^0.3.0": (True, False, False, False, False, False),
    "^0.2.0": (False, True, False, False, False, False),
    "~0.3": (True, False, False, False, False, False),
    "0.3.x": (True, False, False, False, False, False),
    "0.3": (True, False, False, False, False, False),
    ">=0.2 <0.4": (True, True, False, False, False, False),
    ">=0.2.0 <0.3.0": (False, True, False, False, False, False),
    "0.2.x || 0.3.x": (True, True, False, False, False, False),
    "*": (True, True, True, False, False, True),
    "": (True, True, True, False, False, True),
    "x": (True, True, True, False, False, True),
    ">*": (False, False, False, False, False, False),
    "<=*": (True, True, True, False, False, True),
    "1.0.0 - 1.2": (False, False, True, False, False, False),
    "0.1 - 0.3": (True, True, False, False, False, False),
    "1.2.3 - 2": (False, False, True, False, False, False),
    "* - 1": (True, True, True, False, False, True),
    ">= 0.3.1": (True, False, True, False, False, False),
    ">0.3.1": (False, False, True, False, False, False),
    "<=0.3": (True, True, False, False, False, True),
    "<0.3": (False, True, False, False, False, True),
    ">0.2": (True, False, True, False, False, False),
    "<=0": (True, True, False, False, False, True),
    "=0.3.1": (True, False, False, False, False, False),
    "v0.3.1": (True, False, False, False, False, False),
    "=v0.3.1": (True, False, False, False, False, False),
    "~>0.3.0": (True, False, False, False, False, False),
    "^ 0.3": (True, False, False, False, False, False),
    "^0.0": (False, False, False, False, False, True),
    "^0.x": (True, True, False, False, False, True),
    "^0.0.3": (False, False, False, False, False, True),
    "^0.3.2": (False, False, False, False, False, False),
    "~0.3.1": (True, False, False, False, False, False),
    "~0.2.9": (False, False, False, False, False, False),
    "^1.x": (False, False, True, False, False, False),
    ">=0.3.0-rc.1": (True, False, True, False, False, False),
    "^0.3.0-beta": (True, False, False, False, False, False),
    "0.3.1-beta": (False, False, False, False, False, False),
    "1.x.3": (False, False, False, False, False, False),
    "*.3": (False, False, False, False, False, False),
    "~*.3": (True, True, True, False, False, True),
    "^x.1": (True, True, True, False, False, True),
    "garbage": (False, False, False, False, False, False),
    "01.2.3": (False, False, False, False, False, False),
    "1.2.3 -2": (False, False, False, False, False, False),
    "x || garbage": (False, False, False, False, False, False),
    ">=1.2.3 <1.2.3": (False, False, False, False, False, False),
    ">1 <0": (False, False, False, False, False, False),
    "0.3.1 || 2": (True, False, False, False, False, False),
    "<0.3.1 || >0.3.1": (False, True, True, False, False, True),
    "^0.3.0 ^0.3.1": (True, False, False, False, False, False),
    "~0.3.0 >0.3.0": (True, False, False, False, False, False),
    ">=0.3.1+build": (True, False, True, False, False, False),
}


@pytest.mark.parametrize("range_text", sorted(NPM_ANSWERS))
def test_ranges_match_npm(range_text: str) -> None:
    answers = tuple(satisfies(version, range_text) for version in VERSIONS)
    assert answers == NPM_ANSWERS[range_text]


def test_versions_order_by_precedence() -> None:
    ordered = [
        "1.0.0-alpha",
        "1.0.0-alpha.1",
        "1.0.0-alpha.beta",
        "1.0.0-beta",
        "1.0.0-beta.2",
        "1.0.0-beta.11",
        "1.0.0-rc.1",
        "1.0.0",
    ]
    from agent_graph._core.semver import compare

    parsed = [parse_version(v) for v in ordered]
    for left, right in itertools.pairwise(parsed):
        assert compare(left, right) == -1
        assert compare(right, left) == 1
    assert compare(parse_version("1.0.0+a"), parse_version("1.0.0+b")) == 0


def test_invalid_versions_and_ranges_raise() -> None:
    for text in ("1.2", "01.2.3", "1.2.3-01", "a.b.c", ""):
        with pytest.raises(RangeError):
            parse_version(text)
    for text in ("garbage", "1.2.3 -2", ">=1.2.3 || 1.x.3", "x" * 300):
        with pytest.raises(RangeError):
            parse_range(text)


def test_prerelease_needs_a_comparator_on_the_same_core_version() -> None:
    assert satisfies("1.2.3-beta.2", ">=1.2.3-beta.1 <1.3.0")
    assert not satisfies("1.2.4-beta.2", ">=1.2.3-beta.1 <1.3.0")
    assert satisfies("1.2.4", ">=1.2.3-beta.1 <1.3.0")


class _Manifest:
    def __init__(self, declared: str | None) -> None:
        from agent_graph._core.model import Compatibility

        self.compatibility = Compatibility(agent_graph=declared) if declared is not None else None


class _Provider:
    def __init__(self, declared: str | None) -> None:
        self.manifest = _Manifest(declared)
        self.manifest_path = "/p/provider.yaml"


def test_no_warning_without_a_range_or_when_it_admits_this_version() -> None:
    assert compatibility_warning(_Provider(None)) is None
    for declared in ("^0.3.0", ">=0.2 <0.4", "*", "0.3.x || 1.x"):
        assert compatibility_warning(_Provider(declared)) is None


def test_an_excluding_range_is_a_warning_naming_the_migration_for_02() -> None:
    warning = compatibility_warning(_Provider("^0.2.0"))
    assert warning is not None
    assert (warning.code, warning.severity, warning.path) == (
        "compatibility-range-excluded",
        "warning",
        "/p/provider.yaml",
    )
    assert warning.detail == {"range": "^0.2.0", "version": TOOLCHAIN_VERSION}
    assert "agent-graph migrate" in warning.message
    later = compatibility_warning(_Provider("^1.0.0"))
    assert later is not None and later.code == "compatibility-range-excluded"
    assert "migrate" not in later.message


def test_an_invalid_range_is_its_own_warning() -> None:
    warning = compatibility_warning(_Provider("not a range"))
    assert warning is not None
    assert (warning.code, warning.severity) == ("compatibility-range-invalid", "warning")


def _provider_with_range(tmp_path: Path, declared: str) -> Path:
    from agent_graph._toolchain.scaffold import init_provider

    manifest = Path(init_provider(str(tmp_path / "p"), "compat"))
    manifest.write_text(manifest.read_text().replace("^0.3.0", declared))
    return manifest


def test_validate_warns_but_succeeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = _provider_with_range(tmp_path, "^0.2.0")
    assert _cli.main(["validate", "--manifest", str(manifest), "--format", "json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["state"] == "valid"
    assert [d["code"] for d in answer["diagnostics"]] == ["compatibility-range-excluded"]
    assert _cli.main(["validate", "--manifest", str(manifest)]) == 0
    assert "WARNING compatibility-range-excluded" in capsys.readouterr().out


def test_validate_without_warning_has_no_diagnostics(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = _provider_with_range(tmp_path, "^0.3.0")
    assert _cli.main(["validate", "--manifest", str(manifest), "--format", "json"]) == 0
    assert "diagnostics" not in json.loads(capsys.readouterr().out)
    assert ag.load_provider(str(manifest)).manifest.compatibility is not None
