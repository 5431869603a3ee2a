"""npm semver ranges: does a Provider's ``compatibility.agentGraph`` admit this toolchain?

A Provider manifest declares the toolchain versions it supports as an npm
range (``^0.3.0``, ``>=0.2 <0.4``, ``0.3.x || 1.0.0 - 1.2``). This module
parses versions and ranges with npm's grammar (strict mode, pre-releases
excluded unless a comparator of the same ``major.minor.patch`` names one) and
turns a range that excludes 0.3.1 into a warning diagnostic for ``validate``.
It knows nothing of files; it reads only the already loaded manifest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import Diagnostic
from .version import PROTOCOL_VERSION

__all__ = [
    "TOOLCHAIN_VERSION",
    "RangeError",
    "Version",
    "compatibility_warning",
    "parse_range",
    "parse_version",
    "satisfies",
]

#: The toolchain version a Provider's range is checked against: the protocol's (the TypeScript
#: toolchain's version whose answers this library gives), not agent-graph's own release.
TOOLCHAIN_VERSION = PROTOCOL_VERSION

_MAX_LENGTH = 256
_NUMBER = r"(?:0|[1-9]\d*)"
_IDENTIFIER = r"(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)"
_PRERELEASE = rf"(?:-({_IDENTIFIER}(?:\.{_IDENTIFIER})*))"
_BUILD = r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))"
_VERSION = re.compile(rf"^v?({_NUMBER})\.({_NUMBER})\.({_NUMBER}){_PRERELEASE}?{_BUILD}?\Z")
_X = r"(?:[xX*]|0|[1-9]\d*)"
_PARTIAL = re.compile(rf"^v?({_X})(?:\.({_X})(?:\.({_X}){_PRERELEASE}?{_BUILD}?)?)?\Z")
_OPERATOR = re.compile(r"^(<=|>=|<|>|=|~>|~|\^)?\s*(.*)\Z", re.DOTALL)
_HYPHEN = re.compile(r"^(\S+)\s+-\s+(\S+)\Z")


class RangeError(ValueError):
    """A version or range that npm's grammar does not accept."""


@dataclass(frozen=True, order=False)
class Version:
    """A semantic version: three numbers, pre-release identifiers (numbers stay ints)."""

    major: int
    minor: int
    patch: int
    prerelease: tuple[int | str, ...] = ()

    def __str__(self) -> str:
        core = f"{self.major}.{self.minor}.{self.patch}"
        return core + ("-" + ".".join(str(p) for p in self.prerelease) if self.prerelease else "")

    def core(self) -> tuple[int, int, int]:
        """``(major, minor, patch)``."""
        return (self.major, self.minor, self.patch)


def _identifiers(text: str | None) -> tuple[int | str, ...]:
    if not text:
        return ()
    return tuple(int(p) if p.isdigit() else p for p in text.split("."))


def parse_version(text: str) -> Version:
    """Parse a full version (``1.2.3``, ``v1.2.3-beta.1+build``); raise :class:`RangeError` if invalid."""
    stripped = text.strip()
    if stripped.startswith("="):
        stripped = stripped[1:].strip()
    match = _VERSION.match(stripped) if len(stripped) <= _MAX_LENGTH else None
    if match is None:
        raise RangeError(f"Invalid version: {text!r}")
    return Version(int(match[1]), int(match[2]), int(match[3]), _identifiers(match[4]))


def _compare_identifiers(left: int | str, right: int | str) -> int:
    if isinstance(left, int) and isinstance(right, int):
        return (left > right) - (left < right)
    if isinstance(left, int):
        return -1
    if isinstance(right, int):
        return 1
    return (left > right) - (left < right)


def compare(left: Version, right: Version) -> int:
    """-1, 0 or 1 by semver precedence (build metadata ignored)."""
    if left.core() != right.core():
        return -1 if left.core() < right.core() else 1
    if not left.prerelease or not right.prerelease:
        if left.prerelease == right.prerelease:
            return 0
        return -1 if left.prerelease else 1
    for a, b in zip(left.prerelease, right.prerelease, strict=False):
        result = _compare_identifiers(a, b)
        if result:
            return result
    return (len(left.prerelease) > len(right.prerelease)) - (len(left.prerelease) < len(right.prerelease))


#: One comparator: an operator (``<``, ``<=``, ``>``, ``>=``, ``=``) and a version; ``None`` matches anything.
Comparator = tuple[str, Version] | None
ComparatorSet = tuple[Comparator, ...]

_ANY: ComparatorSet = (None,)
_NOTHING: ComparatorSet = (("<", Version(0, 0, 0, (0,))),)


@dataclass(frozen=True)
class _Partial:
    major: int | None
    minor: int | None
    patch: int | None
    prerelease: tuple[int | str, ...]

    def floor(self) -> Version:
        return Version(self.major or 0, self.minor or 0, self.patch or 0, self.prerelease)


def _number(text: str | None) -> int | None:
    if text is None or text in ("x", "X", "*"):
        return None
    return int(text)


def _parse_partial(text: str, *, mixed: bool = True) -> _Partial:
    match = _PARTIAL.match(text) if len(text) <= _MAX_LENGTH else None
    if match is None:
        raise RangeError(f"Invalid version in range: {text!r}")
    major, minor, patch = _number(match[1]), _number(match[2]), _number(match[3])
    if not mixed and (
        (major is None and match[2] and minor is not None)
        or (minor is None and match[3] and patch is not None)
    ):
        # npm rejects a number after a wildcard (``1.x.3``) except after ``~``, ``^`` and in hyphen ranges.
        raise RangeError(f"Invalid version in range: {text!r}")
    # A wildcard makes everything after it a wildcard.
    if major is None:
        minor = patch = None
    elif minor is None:
        patch = None
    prerelease = _identifiers(match[4]) if patch is not None else ()
    return _Partial(major, minor, patch, prerelease)


def _upper(major: int, minor: int, patch: int) -> Comparator:
    """``< major.minor.patch-0``: below every version of the next bucket, pre-releases included."""
    return ("<", Version(major, minor, patch, (0,)))


def _x_range(partial: _Partial) -> ComparatorSet:
    if partial.major is None:
        return _ANY
    if partial.minor is None:
        return ((">=", Version(partial.major, 0, 0)), _upper(partial.major + 1, 0, 0))
    if partial.patch is None:
        return ((">=", Version(partial.major, partial.minor, 0)), _upper(partial.major, partial.minor + 1, 0))
    return (("=", partial.floor()),)


def _tilde(partial: _Partial) -> ComparatorSet:
    if partial.major is None:
        return _ANY
    if partial.minor is None:
        return ((">=", Version(partial.major, 0, 0)), _upper(partial.major + 1, 0, 0))
    return ((">=", partial.floor()), _upper(partial.major, partial.minor + 1, 0))


def _caret(partial: _Partial) -> ComparatorSet:
    major, minor, patch = partial.major, partial.minor, partial.patch
    if major is None:
        return _ANY
    if minor is None:
        return ((">=", Version(major, 0, 0)), _upper(major + 1, 0, 0))
    low = partial.floor()
    if major > 0:
        return ((">=", low), _upper(major + 1, 0, 0))
    if patch is None or minor > 0:
        return ((">=", low), _upper(0, minor + 1, 0))
    return ((">=", low), _upper(0, 0, patch + 1))


def _primitive(operator: str, partial: _Partial) -> ComparatorSet:
    major, minor, patch = partial.major, partial.minor, partial.patch
    if patch is not None:
        return ((operator, partial.floor()),)
    if operator == "=":
        return _x_range(partial)
    if major is None:
        return _ANY if operator in (">=", "<=") else _NOTHING
    if operator == ">=":
        return ((">=", partial.floor()),)
    if operator == "<":
        return (_upper(major, minor or 0, 0),)
    if operator == ">":
        bumped = Version(major + 1, 0, 0) if minor is None else Version(major, minor + 1, 0)
        return ((">=", bumped),)
    # "<=": below the next bucket.
    return (_upper(major + 1, 0, 0),) if minor is None else (_upper(major, minor + 1, 0),)


def _hyphen(low_text: str, high_text: str) -> ComparatorSet:
    low, high = _parse_partial(low_text), _parse_partial(high_text)
    comparators: list[Comparator] = []
    if low.major is not None:
        comparators.append((">=", low.floor()))
    if high.major is not None:
        if high.minor is None:
            comparators.append(_upper(high.major + 1, 0, 0))
        elif high.patch is None:
            comparators.append(_upper(high.major, high.minor + 1, 0))
        else:
            comparators.append(("<=", high.floor()))
    return tuple(comparators) or _ANY


def _simple(token: str) -> ComparatorSet:
    match = _OPERATOR.match(token)
    assert match is not None
    operator, rest = match[1] or "", match[2]
    partial = _parse_partial(rest, mixed=operator in ("~", "~>", "^"))
    if operator in ("~", "~>"):
        return _tilde(partial)
    if operator == "^":
        return _caret(partial)
    if operator == "":
        return _x_range(partial)
    return _primitive(operator, partial)


def _join_operators(text: str) -> list[str]:
    """Split a comparator list on spaces, keeping an operator with the version after it (``>= 1.2``)."""
    tokens = text.split()
    joined: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token in ("<", "<=", ">", ">=", "=", "~", "~>", "^") and index + 1 < len(tokens):
            token += tokens[index + 1]
            index += 1
        joined.append(token)
        index += 1
    return joined


def parse_range(text: str) -> tuple[ComparatorSet, ...]:
    """Parse an npm range into alternatives of comparator sets; raise :class:`RangeError` if invalid."""
    if not isinstance(text, str) or len(text) > _MAX_LENGTH:
        raise RangeError(f"Invalid range: {text!r}")
    alternatives: list[ComparatorSet] = []
    for part in re.split(r"\s*\|\|\s*", text.strip()):
        part = part.strip()
        if not part:
            alternatives.append(_ANY)
            continue
        hyphen = _HYPHEN.match(part)
        if hyphen is not None:
            alternatives.append(_hyphen(hyphen[1], hyphen[2]))
            continue
        comparators: list[Comparator] = []
        for token in _join_operators(part):
            comparators.extend(_simple(token))
        alternatives.append(tuple(comparators))
    return tuple(alternatives)


def _test(comparator: Comparator, version: Version) -> bool:
    if comparator is None:
        return True
    operator, bound = comparator
    order = compare(version, bound)
    return {
        "<": order < 0,
        "<=": order <= 0,
        ">": order > 0,
        ">=": order >= 0,
        "=": order == 0,
    }[operator]


def _test_set(comparators: ComparatorSet, version: Version) -> bool:
    if not all(_test(c, version) for c in comparators):
        return False
    if not version.prerelease:
        return True
    # A pre-release only matches a set that names a pre-release of the same core version.
    return any(c is not None and c[1].prerelease and c[1].core() == version.core() for c in comparators)


def satisfies(version: str | Version, range_text: str) -> bool:
    """Whether ``version`` is inside the npm range ``range_text`` (an invalid range admits nothing)."""
    try:
        parsed_version = version if isinstance(version, Version) else parse_version(version)
        alternatives = parse_range(range_text)
    except RangeError:
        return False
    return any(_test_set(comparators, parsed_version) for comparators in alternatives)


def compatibility_warning(provider: Any) -> Diagnostic | None:
    """A warning when the manifest's ``compatibility.agentGraph`` range excludes :data:`TOOLCHAIN_VERSION`.

    ``None`` when the manifest declares no range or the range admits it. An
    invalid range is ``compatibility-range-invalid``; an excluding one is
    ``compatibility-range-excluded``. Both are warnings: loading still succeeds.
    """
    compatibility = provider.manifest.compatibility
    declared = compatibility.agent_graph if compatibility is not None else None
    if declared is None:
        return None
    try:
        alternatives = parse_range(declared)
    except RangeError:
        code = "compatibility-range-invalid"
        message = f"compatibility.agentGraph is not a valid npm semver range: {declared}"
    else:
        version = parse_version(TOOLCHAIN_VERSION)
        if any(_test_set(comparators, version) for comparators in alternatives):
            return None
        hint = ""
        if satisfies("0.2.0", declared) or satisfies("0.2.9", declared):
            hint = "; if this is a 0.2 Provider, run `agent-graph migrate` to move it to 0.3"
        code = "compatibility-range-excluded"
        message = f"compatibility.agentGraph {declared} excludes agent-graph {TOOLCHAIN_VERSION}{hint}"
    return Diagnostic(
        code=code,
        severity="warning",
        message=message,
        path=provider.manifest_path,
        detail={"range": declared, "version": TOOLCHAIN_VERSION},
    )
