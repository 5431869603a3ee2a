"""The digests that name an evaluation: its revision and the ID of each route (behaviour.md §4).

A revision digests ``{provider: graphDigest, graphId, entry, facts, outcomes,
authorities}`` in canonical JSON (through the fast path of
:mod:`.revision_text` where it applies); a route ID is ``route:`` and the first
20 hex digits of the digest of ``{callPath, graph, node, revision}``. No I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from .cache import EvaluationCache
from .canonical import canonical_bytes_exact, digest_value
from .errors import AgentGraphError
from .ir import CompiledGraph, CompiledNode
from .normalize import plain_facts
from .revision_text import revision_bytes_fast, revision_state


def evaluation_revision(
    graph: CompiledGraph,
    entry: Any,
    facts: Mapping[str, Any],
    outcomes: dict[str, Any],
    authorities: list[str],
    memo: EvaluationCache,
) -> tuple[str, bool, Mapping[str, Any]]:
    """``digest_value({provider: graphDigest, graphId, entry, facts, outcomes, authorities})``.

    Also whether the revision determines the state (see
    :func:`~.canonical.canonical_bytes_exact`), and the Facts to check: they
    have exact built-in types only, the given ones when the fast path walked
    them, else a plain copy (:func:`plain_facts`), so that the same revision
    always gives the same answer. Facts that are not plain JSON data (a set,
    bytes, a non-string key, a cycle) are ``json-invalid``.
    """
    fast = revision_bytes_fast(graph.digest, graph.id, entry, facts, outcomes, authorities, memo)
    if fast is not None:
        return "sha256:" + hashlib.sha256(fast[0]).hexdigest(), True, fast[1]
    checked = plain_facts(facts)
    state = revision_state(graph.digest, graph.id, entry, checked, outcomes, authorities)
    try:
        text, exact = canonical_bytes_exact(state)
    except (TypeError, ValueError) as error:
        raise AgentGraphError("json-invalid", f"Evaluation input is not plain JSON data: {error}") from None
    return "sha256:" + hashlib.sha256(text).hexdigest(), exact, checked


class _RouteToken(msgspec.Struct):
    """What a route ID digests, with its fields in canonical key order (callPath, graph, node, revision)."""

    call_path: list[str] = msgspec.field(name="callPath")
    graph: str
    node: str
    revision: str


_ROUTE_TOKEN = msgspec.json.Encoder()


def route_ids(
    revision: str, graph: str, call_path: tuple[str, ...], nodes: Iterable[CompiledNode]
) -> list[str]:
    """``make_route_id`` of each node of one frame: the token's text around the node ID is written once."""
    encode = _ROUTE_TOKEN.encode
    try:
        head = b'{"callPath":' + encode(call_path) + b',"graph":' + encode(graph) + b',"node":'
        tail = b',"revision":' + encode(revision) + b"}"
    except UnicodeEncodeError:  # a lone surrogate: the general path
        return [make_route_id(revision, graph, node.id, call_path) for node in nodes]
    sha256 = hashlib.sha256
    ids = []
    for node in nodes:
        try:
            text = head + encode(node.id) + tail
        except UnicodeEncodeError:
            ids.append(make_route_id(revision, graph, node.id, call_path))
            continue
        ids.append("route:" + sha256(text).hexdigest()[:20])
    return ids


def make_route_id(revision: str, graph: str, node: str, call_path: Sequence[str]) -> str:
    """``"route:" + first 20 hex digits of digest_value({revision, graph, node, callPath})``.

    Every field is a string (or a list of them), so msgspec writes the canonical
    text of the token directly; a lone surrogate takes the general path.
    """
    try:
        text = _ROUTE_TOKEN.encode(_RouteToken(list(call_path), graph, node, revision))
    except UnicodeEncodeError:
        token = digest_value(
            {"revision": revision, "graph": graph, "node": node, "callPath": list(call_path)}
        )
        return "route:" + token[7:27]
    return "route:" + hashlib.sha256(text).hexdigest()[:20]
