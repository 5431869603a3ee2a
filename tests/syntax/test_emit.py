"""The YAML writer: what it writes reads back as written, one line per short collection when asked."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings, strategies as st

from agent_graph._core.canonical import canonical_json
from agent_graph._syntax.emit import YamlWriter, dump_yaml, emit_yaml
from agent_graph._syntax.parse import parse_yaml
from tests.toolchain.test_scaffold import json_values

FLOW = frozenset({"edges", "satisfiedBy", "a", ""})
keys = st.sampled_from(["edges", "satisfiedBy", "a", "", "b", "0", "7", "01", "from", "to", "x y", "null"])
values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(keys | st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=24,
)


@settings(max_examples=400, deadline=None)
@given(values | json_values, st.sampled_from([0, 30, 100]))
def test_what_is_written_reads_back_and_exact_means_types_and_order_too(value: Any, width: int) -> None:
    text, exact = emit_yaml(value, flow_width=width, flow_keys=FLOW)
    parsed = parse_yaml(text)
    assert canonical_json(parsed) == canonical_json(value)
    if exact:
        assert json.dumps(parsed) == json.dumps(value)
    assert dump_yaml(value, flow_width=width, flow_keys=FLOW) == text


def test_exact_is_false_only_for_what_reads_back_otherwise() -> None:
    assert emit_yaml({"a": [1, "x", True, None, 2**53]})[1]
    for inexact in ({"a": 1.0}, {"a": 1.5}, {"a": 2**53 + 1}, {"7": "x"}, {"b": {"0": 1}}):
        assert emit_yaml(inexact) == (dump_yaml(inexact), False), inexact
    assert emit_yaml({"01": 1})[1]  # not an array index: JavaScript keeps its place


def test_short_collections_go_on_one_line_where_asked() -> None:
    graph = {
        "nodes": [{"id": "a", "kind": "action", "satisfiedBy": [{"path": "x.y", "exists": True}]}],
        "edges": [{"from": "a", "to": "b", "outcomes": ["failed", "skipped"]}, {"from": "true", "to": "b"}],
    }
    assert dump_yaml(graph, flow_width=100, flow_keys=FLOW) == (
        "nodes:\n"
        "  - id: a\n"
        "    kind: action\n"
        "    satisfiedBy:\n"
        "      - { path: x.y, exists: true }\n"
        "edges:\n"
        "  - { from: a, to: b, outcomes: [failed, skipped] }\n"
        '  - { from: "true", to: b }\n'
    )
    # Too long for the width: block style.
    assert dump_yaml({"edges": [{"from": "a" * 60, "to": "b" * 60}]}, flow_width=100, flow_keys=FLOW) == (
        f"edges:\n  - from: {'a' * 60}\n    to: {'b' * 60}\n"
    )


def test_one_writer_writes_many_documents_each_with_its_own_exactness() -> None:
    writer = YamlWriter()
    assert writer.emit({"a": 1.5})[1] is False
    assert writer.emit({"a": "text"}) == ("a: text\n", True)
