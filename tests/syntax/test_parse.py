"""Reading YAML and JSON as the reference toolchain reads them (behaviour §2)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from agent_graph._core.errors import AgentGraphError
from agent_graph._syntax.parse import (
    DEFAULT_MAX_FILE_BYTES,
    MAX_ALIAS_COUNT,
    MAX_DEPTH,
    parse_front_matter,
    parse_json,
    parse_structured,
    parse_yaml,
)
from tests.conftest import vector_json


def _as_json(value: Any) -> Any:
    """The value as canonical JSON sees it: NaN and ±Infinity become null."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, float) and value == 0:
        return 0  # JSON text (and so the recorded vector) writes -0 as 0
    if isinstance(value, list):
        return [_as_json(item) for item in value]
    if isinstance(value, dict):
        return {key: _as_json(item) for key, item in value.items()}
    return value


def _assert_same(got: Any, expected: Any, where: str = "$") -> None:
    """Equal values of the same JSON type; bool never matches a number, int and float must agree."""
    if isinstance(expected, bool) or isinstance(got, bool):
        assert type(got) is type(expected) and got == expected, where
    elif isinstance(expected, int) and abs(expected) > 2**53:
        # beyond 2**53 the reference holds the nearest double
        assert isinstance(got, float) and got == float(expected), where
    elif isinstance(expected, (int, float)):
        assert type(got) is type(expected) and got == expected, f"{where}: {got!r} != {expected!r}"
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), where
        for index, (g, e) in enumerate(zip(got, expected, strict=True)):
            _assert_same(g, e, f"{where}[{index}]")
    elif isinstance(expected, dict):
        assert isinstance(got, dict) and list(got) == list(expected), where
        for key in expected:
            _assert_same(got[key], expected[key], f"{where}.{key}")
    else:
        assert got == expected and type(got) is type(expected), where


def _parse_failed(text: str, **options: Any) -> AgentGraphError:
    with pytest.raises(AgentGraphError) as caught:
        parse_yaml(text, "doc.yaml", **options)
    assert caught.value.code == "parse-failed"
    assert caught.value.message.startswith("Cannot parse doc.yaml: ")
    return caught.value


def _json_failed(text: str, **options: Any) -> AgentGraphError:
    with pytest.raises(AgentGraphError) as caught:
        parse_json(text, "doc.json", **options)
    assert caught.value.code == "parse-failed"
    assert caught.value.message.startswith("Cannot parse doc.json: ")
    return caught.value


# --------------------------------------------------------------------------- vectors


def _yaml_vectors() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = vector_json("yaml.json")
    return cases


@pytest.mark.parametrize("case", _yaml_vectors(), ids=lambda c: repr(c["yaml"][:40]))
def test_yaml_vector(case: dict[str, Any]) -> None:
    if "error" in case:
        assert case["error"] == "parse-failed"
        _parse_failed(case["yaml"])
    else:
        _assert_same(_as_json(parse_yaml(case["yaml"])), case["value"])


# --------------------------------------------------------------------------- core schema scalars


@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "y", "n", "Yes", "ON", "tRUE", "nULL"])
def test_yaml_1_1_words_are_strings(word: str) -> None:
    assert parse_yaml(f"a: {word}\n") == {"a": word}


@pytest.mark.parametrize(
    ("text", "value"),
    [("true", True), ("True", True), ("TRUE", True), ("false", False), ("False", False), ("FALSE", False)],
)
def test_booleans(text: str, value: bool) -> None:
    assert parse_yaml(f"a: {text}\n")["a"] is value


@pytest.mark.parametrize("text", ["~", "null", "Null", "NULL", ""])
def test_nulls(text: str) -> None:
    assert parse_yaml(f"a: {text}\n") == {"a": None}


def test_quoted_scalars_stay_strings() -> None:
    assert parse_yaml("a: 'true'\nb: \"1\"\nc: '~'\nd: |\n  7\n") == {
        "a": "true",
        "b": "1",
        "c": "~",
        "d": "7\n",
    }


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0o17", 15),
        ("017", 17),
        ("0x1F", 31),
        ("0x1f", 31),
        ("+12", 12),
        ("-12", -12),
        ("0", 0),
        ("9007199254740992", 2**53),
    ],
)
def test_integers_in_every_base(text: str, value: int) -> None:
    got = parse_yaml(f"a: {text}\n")["a"]
    assert type(got) is int and got == value


def test_minus_zero_keeps_its_sign_as_in_javascript() -> None:
    got = parse_yaml("a: -0\nb: -0.0\nc: 0\n")
    assert type(got["a"]) is float and math.copysign(1.0, got["a"]) < 0
    assert type(got["b"]) is float and math.copysign(1.0, got["b"]) < 0
    assert type(got["c"]) is int and got["c"] == 0
    from_json = parse_json('{"a": -0, "b": [-0, 0], "c": -0.5}')
    assert math.copysign(1.0, from_json["a"]) < 0
    assert math.copysign(1.0, from_json["b"][0]) < 0 and type(from_json["b"][1]) is int
    assert from_json["c"] == -0.5


@pytest.mark.parametrize(
    "text", ["1_000", "0b101", "-0x1F", "+0o17", "0O17", "0X1F", "1,000", "0x", "0o8", "1e", "."]
)
def test_not_core_numbers_are_strings(text: str) -> None:
    assert parse_yaml(f"a: {text}\n") == {"a": text}


@pytest.mark.parametrize(
    ("text", "value"),
    [("1.0", 1), ("1e3", 1000), ("1.", 1), ("-2.0", -2), ("0.0", 0), ("1E3", 1000)],
)
def test_integral_floats_become_int(text: str, value: int) -> None:
    got = parse_yaml(f"a: {text}\n")["a"]
    assert type(got) is int and got == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (".5", 0.5),
        ("-.5", -0.5),
        ("+.5", 0.5),
        ("1.5e-7", 1.5e-7),
        ("6.02e+23", 6.02e23),
        ("1e20", 1e20),
        ("0.1", 0.1),
    ],
)
def test_floats(text: str, value: float) -> None:
    got = parse_yaml(f"a: {text}\n")["a"]
    assert type(got) is float and got == value


@pytest.mark.parametrize(
    ("text", "sign"), [(".inf", 1), (".Inf", 1), (".INF", 1), ("+.inf", 1), ("-.inf", -1), ("-.INF", -1)]
)
def test_infinities(text: str, sign: int) -> None:
    got = parse_yaml(f"a: {text}\n")["a"]
    assert math.isinf(got) and math.copysign(1.0, got) == sign


@pytest.mark.parametrize("text", [".nan", ".NaN", ".NAN"])
def test_nan(text: str) -> None:
    assert math.isnan(parse_yaml(f"a: {text}\n")["a"])


@pytest.mark.parametrize("text", ["-.nan", "nan", "inf", "Infinity", "NaN"])
def test_other_special_spellings_are_strings(text: str) -> None:
    assert parse_yaml(f"a: {text}\n") == {"a": text}


def test_big_integers_become_doubles() -> None:
    got = parse_yaml(
        "a: 12345678901234567890\nb: 9007199254740993\nc: 0x1FFFFFFFFFFFFF1\nd: -9007199254740993\n"
    )
    assert got["a"] == 12345678901234567000.0 and type(got["a"]) is float
    assert got["b"] == 9007199254740992.0 and type(got["b"]) is float
    assert got["c"] == float(0x1FFFFFFFFFFFFF1) and type(got["c"]) is float
    assert got["d"] == -9007199254740992.0


def test_huge_numbers_overflow_to_infinity() -> None:
    got = parse_yaml(f"a: {'9' * 500}\nb: -{'9' * 5000}\nc: 1e400\n")
    assert got["a"] == math.inf and got["b"] == -math.inf and got["c"] == math.inf


def test_timestamps_stay_strings() -> None:
    text = "a: 2026-01-01\nb: 2026-01-01T10:00:00Z\nc: 12:30:00\nd: 190:20:30\n"
    assert parse_yaml(text) == {
        "a": "2026-01-01",
        "b": "2026-01-01T10:00:00Z",
        "c": "12:30:00",
        "d": "190:20:30",
    }


def test_merge_key_is_ordinary() -> None:
    got = parse_yaml("base: &b {x: 1}\nm:\n  <<: *b\n  y: 2\n")
    assert got == {"base": {"x": 1}, "m": {"<<": {"x": 1}, "y": 2}}
    assert list(got["m"]) == ["<<", "y"]


# --------------------------------------------------------------------------- tags


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("!!int '7'", 7),
        ("!!int 0x10", 16),
        ("!!int 0o10", 8),
        ("!!int 1.0", "1.0"),
        ("!!int abc", "abc"),
        ("!!float 1", "1"),
        ("!!float '1.5'", 1.5),
        ("!!float 2.0", 2),
        ("!!bool 'true'", True),
        ("!!bool yes", "yes"),
        ("!!bool 1", "1"),
        ("!!null ''", None),
        ("!!null ~", None),
        ("!!null x", "x"),
        ("!!str 123", "123"),
        ("!!str true", "true"),
        ("!!str", ""),
        ("! 12", "12"),
        ("!custom 5", "5"),
        ("!<tag:yaml.org,2002:int> 5", 5),
        ("!!timestamp 2020-01-01", "2020-01-01"),
    ],
)
def test_explicit_scalar_tags(text: str, value: Any) -> None:
    _assert_same(parse_yaml(f"a: {text}\n")["a"], value)


def test_explicit_float_tag_on_infinity() -> None:
    assert parse_yaml("a: !!float .inf\n")["a"] == math.inf


def test_collection_tags_are_ignored() -> None:
    assert parse_yaml("a: !!map {b: 1}\nc: !!seq [1]\nd: !thing [2]\ne: !!str {f: 3}\n") == {
        "a": {"b": 1},
        "c": [1],
        "d": [2],
        "e": {"f": 3},
    }


def test_tag_handle_from_directive() -> None:
    assert parse_yaml("%TAG !e! tag:example.com,2000:\n---\na: !e!thing 1\n") == {"a": "1"}


def test_undefined_tag_handle_fails() -> None:
    _parse_failed("a: !e!thing 1\n")


# --------------------------------------------------------------------------- keys


def test_scalar_keys_become_javascript_strings() -> None:
    got = parse_yaml("true: a\nnull: b\n1.5: c\n0x10: d\n.inf: e\n1e21: f\n1e-7: g\n")
    assert got == {"16": "d", "true": "a", "": "b", "1.5": "c", "Infinity": "e", "1e+21": "f", "1e-7": "g"}


def test_index_keys_come_first_in_numeric_order() -> None:
    got = parse_yaml("b: 1\n2: x\n1: y\n10: z\n'01': w\n-1: q\n4294967295: m\n4294967294: n\n")
    assert list(got) == ["1", "2", "10", "4294967294", "b", "01", "-1", "4294967295"]


def test_same_string_from_different_scalars_last_wins_first_position() -> None:
    got = parse_yaml("1: a\nb: 0\n'1': c\n")
    assert got == {"1": "c", "b": 0}
    got = parse_yaml("x: 0\n'': a\n~: b\n")
    assert list(got.items()) == [("x", 0), ("", "b")]


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\na: 2\n",
        "1: a\n1: b\n",
        "1: a\n1.0: b\n",
        "0x10: a\n16: b\n",
        "null: a\n~: b\n",
        "true: a\nTrue: b\n",
        "-0: a\n0: b\n",
        "12345678901234567890: a\n12345678901234567891: b\n",
        "{a: 1, a: 2}\n",
        "a:\n  b: 1\n  c: 2\n  b: 3\n",
        "? a\n? a\n",
    ],
)
def test_duplicate_keys_fail(text: str) -> None:
    assert "duplicate" in _parse_failed(text).message


@pytest.mark.parametrize(
    "text", [".nan: a\n.nan: b\n", "'1': a\n1: b\n", "true: a\n'true': b\n", "&k a: 1\n*k : 2\n"]
)
def test_keys_the_reference_does_not_call_duplicates(text: str) -> None:
    assert len(parse_yaml(text)) == 1


@pytest.mark.parametrize("text", ["? [a, b]\n: c\n", "[a]: b\n", "{a: b}: c\n", "a: &x [1]\n*x : 2\n"])
def test_collection_keys_fail(text: str) -> None:
    _parse_failed(text)


# --------------------------------------------------------------------------- documents and syntax


def test_empty_and_comment_only_text_is_null() -> None:
    for text in ["", "\n\n", "# only a comment\n", "---\n", "---\n...\n", "...\n", "\ufeff", "\t\n"]:
        assert parse_yaml(text) is None, repr(text)


def test_one_explicit_document() -> None:
    assert parse_yaml("---\na: 1\n...\n") == {"a": 1}
    assert parse_yaml("%YAML 1.2\n---\na: 1\n") == {"a": 1}


@pytest.mark.parametrize(
    "text",
    [
        "---\na: 1\n---\nb: 2\n",
        "a: 1\n---\n",
        "a\n...\nb\n",
        "a\n...\n...\n",
        "...\na: 1\n",
        "--- a\n--- b\n",
    ],
)
def test_several_documents_fail(text: str) -> None:
    _parse_failed(text)


def test_yaml_1_1_documents_fail() -> None:
    _parse_failed("%YAML 1.1\n---\na: yes\n")


@pytest.mark.parametrize(
    "text",
    [
        "a: b: c\n",
        "a: 'unterminated\n",
        "\t- tab\n",
        "a: [b\n",
        "a: {b\n",
        "a: ]\n",
        "a: 'b' c\n",
        "a:\n  b: 1\n c: 2\n",
        "- a\nb: c\n",
        "a: 1\n\tb: 2\n",
        "'q'#c\n",
        "[a,#c\n]\n",
        "a: [\nb]\n",
        'a: "x\ny"\n',
        "a: *nothing\n",
        "a: &a [*a]\n",
        "k" * 1100 + ": v\n",
    ],
)
def test_syntax_errors_fail(text: str) -> None:
    _parse_failed(text)


def test_error_message_names_the_path_and_position() -> None:
    error = _parse_failed("a: b: c\n")
    assert "line 1" in error.message


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a:\tb\n", {"a": "b"}),
        ("a: 1\t\n", {"a": 1}),
        ("a: 1\t# c\n", {"a": 1}),
        ("\t# c\na: 1\n", {"a": 1}),
        ("- a\n\t\n- b\n", ["a", "b"]),
        ("- \ta\n", ["a"]),
        ("a: b\t c\n", {"a": "b\t c"}),
        ("a: x\n  \ty\n", {"a": "x y"}),
        ("a: !!str\tb\n", {"a": "b"}),
        ("a: |\t# c\n  x\n", {"a": "x\n"}),
        ("a\t: b\n", {"a": "b"}),
    ],
)
def test_tabs_separate_inside_lines(text: str, value: Any) -> None:
    assert parse_yaml(text) == value


@pytest.mark.parametrize("text", ["a:\n\t- b\n", "a: b\n\tc\n", "- \ta: b\n", "-\t- a\n", "a:\tb: c\n"])
def test_tabs_never_indent(text: str) -> None:
    _parse_failed(text)


def test_block_and_flow_styles() -> None:
    text = "folded: >\n  one\n  two\nliteral: |\n  one\n  two\nkeep: |+\n  x\n\nflow: {a: [1, {b: c}]}\nplain: a\n  b\n"
    assert parse_yaml(text) == {
        "folded": "one two\n",
        "literal": "one\ntwo\n",
        "keep": "x\n\n",
        "flow": {"a": [1, {"b": "c"}]},
        "plain": "a b",
    }


def test_question_mark_in_flow_context() -> None:
    assert parse_yaml("[?x, y]\n") == ["?x", "y"]
    assert parse_yaml("{?x: 1}\n") == {"?x": 1}
    assert parse_yaml("a: [b, ? c : d]\n") == {"a": ["b", {"c": "d"}]}


def test_flow_lines_indented_past_their_block_parent() -> None:
    assert parse_yaml("a: [\n b,\n c\n]\n") == {"a": ["b", "c"]}
    assert parse_yaml("[\na,\nb\n]\n") == ["a", "b"]
    assert parse_yaml('a: "x\n  y"\n') == {"a": "x y"}
    _parse_failed("a:\n  b: [\n  c]\n")
    _parse_failed("- [\na]\n")


def test_control_characters_are_kept() -> None:
    assert parse_yaml('a: "x\\u0001y"\nb: x\x01y\n') == {"a": "x\x01y", "b": "x\x01y"}


def test_nul_character_fails() -> None:
    _parse_failed("a: x\x00y\n")


def test_crlf_line_breaks() -> None:
    assert parse_yaml("---\r\na: 1\r\nb: |\r\n  x\r\n  y\r\n") == {"a": 1, "b": "x\ny\n"}


def test_leading_bom_is_ignored_in_yaml() -> None:
    assert parse_yaml("\ufeffa: 1\n") == {"a": 1}


def test_escaped_surrogate_pairs_become_one_character() -> None:
    assert parse_yaml('a: "\\ud83d\\ude00"\n') == {"a": "\U0001f600"}
    assert parse_yaml('["\\ud83d\\ude00"]') == ["\U0001f600"]


# --------------------------------------------------------------------------- YAML that is JSON


def test_json_text_read_as_yaml() -> None:
    text = '{\n  "b": [1.0, 2, "yes", true, null],\n  "2": {"x": 12345678901234567890}\n}\n'
    got = parse_yaml(text)
    assert got == {"2": {"x": 12345678901234567000.0}, "b": [1, 2, "yes", True, None]}
    assert list(got) == ["2", "b"] and type(got["b"][0]) is int
    assert parse_yaml("\ufeff [1]\n") == [1]


def test_json_text_read_as_yaml_keeps_yaml_rules() -> None:
    assert "duplicate" in _parse_failed('{"a": 1, "a": 2}').message
    assert parse_yaml('{"a": 1} # comment\n') == {"a": 1}
    assert parse_yaml("[NaN, .inf]")[0] == "NaN"
    assert "nested deeper" in _parse_failed("[" * 600 + "]" * 600).message
    _parse_failed('{"a"\r: 1}')  # valid JSON, but a lone CR breaks the line in YAML


def test_long_keys_in_flow_mappings_of_json_text() -> None:
    key = "k" * 1100
    assert parse_yaml(f'{{"{key}": 1}}') == {key: 1}


# --------------------------------------------------------------------------- anchors and aliases


def test_alias_yields_the_same_value() -> None:
    got = parse_yaml("a: &x {b: [1, 2]}\nc: *x\nd: &s text\ne: *s\n")
    assert got["c"] is got["a"] and got["e"] == "text"


def test_redefined_anchor_uses_the_latest_definition() -> None:
    assert parse_yaml("a: &x 1\nb: &x 2\nc: *x\n") == {"a": 1, "b": 2, "c": 2}


def test_alias_to_unknown_or_later_anchor_fails() -> None:
    _parse_failed("a: *x\nb: &x 1\n")


def _aliases(target: str, count: int) -> str:
    return "[" + ", ".join([f"*{target}"] * count) + "]"


@pytest.mark.parametrize(("count", "loads"), [(99, True), (100, False)])
def test_alias_limit_for_a_scalar(count: int, loads: bool) -> None:
    text = f"a: &a x\nc: {_aliases('a', count)}\n"
    if loads:
        assert parse_yaml(text)["c"] == ["x"] * count
    else:
        assert "alias" in _parse_failed(text).message


@pytest.mark.parametrize(("count", "loads"), [(49, True), (50, False)])
def test_alias_limit_for_a_sequence_of_one_alias(count: int, loads: bool) -> None:
    text = f"a: &a x\nb: &b [*a]\nc: {_aliases('b', count)}\n"
    if loads:
        assert len(parse_yaml(text)["c"]) == count
    else:
        _parse_failed(text)


@pytest.mark.parametrize(("count", "loads"), [(32, True), (33, False)])
def test_alias_limit_for_a_sequence_of_two_aliases(count: int, loads: bool) -> None:
    text = f"a: &a x\nb: &b [*a, *a]\nc: {_aliases('b', count)}\n"
    if loads:
        assert len(parse_yaml(text)["c"]) == count
    else:
        _parse_failed(text)


def test_weight_uses_counts_at_the_first_alias() -> None:
    # *a is resolved twice more before b's first alias: b weighs count(a)=4 × 1
    head = "a: &a x\nb: &b [*a]\nx: [*a, *a]\n"
    assert len(parse_yaml(head + f"c: {_aliases('b', 24)}\n")["c"]) == 24
    _parse_failed(head + f"c: {_aliases('b', 25)}\n")


def test_empty_collections_weigh_nothing() -> None:
    assert len(parse_yaml(f"e: &e []\nc: {_aliases('e', 300)}\n")["c"]) == 300


def test_nested_collections_count_towards_the_weight() -> None:
    head = "a: &a x\nb: &b {k: [[*a, *a, *a]]}\n"  # a.count = 4 → b weighs 4, admits 24 aliases
    assert len(parse_yaml(head + f"c: {_aliases('b', 24)}\n")["c"]) == 24
    _parse_failed(head + f"c: {_aliases('b', 25)}\n")


def test_billion_laughs_is_refused_quickly() -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for level in range(1, 9):
        prev, name = chr(ord("a") + level - 1), chr(ord("a") + level)
        lines.append(f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]")
    _parse_failed("\n".join(lines) + "\n")


def test_alias_count_is_configurable() -> None:
    text = f"a: &a x\nc: {_aliases('a', 10)}\n"
    assert MAX_ALIAS_COUNT == 100
    _parse_failed(text, max_alias_count=10)
    assert len(parse_yaml(text, max_alias_count=11)["c"]) == 10


# --------------------------------------------------------------------------- depth


@pytest.mark.parametrize(
    "text",
    [
        "[" * 20_000 + "]" * 20_000,
        "[" * 20_000,
        "{a: " * 20_000 + "1" + "}" * 20_000,
        "- " * 20_000 + "x\n",
        "".join(" " * i + "a:\n" for i in range(600)),
    ],
    ids=["flow-seq", "flow-unclosed", "flow-map", "block-seq", "block-map"],
)
def test_deep_yaml_fails_cleanly(text: str) -> None:
    assert "nested deeper" in _parse_failed(text).message


def test_yaml_depth_limit_boundary() -> None:
    assert MAX_DEPTH >= 64
    ok = parse_yaml("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    for _ in range(MAX_DEPTH - 1):
        ok = ok[0]
    assert ok == []
    _parse_failed("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert parse_yaml("- - - x\n", max_depth=3) == [[["x"]]]
    _parse_failed("- - - - x\n", max_depth=3)


@pytest.mark.parametrize(
    "text",
    ["[" * 20_000 + "]" * 20_000, '{"a":' * 20_000 + "1" + "}" * 20_000, "[" * 20_000],
    ids=["array", "object", "unclosed"],
)
def test_deep_json_fails_cleanly(text: str) -> None:
    _json_failed(text)


def test_json_depth_limit_boundary() -> None:
    assert parse_json("[" * 64 + "]" * 64, max_depth=64) is not None
    _json_failed("[" * 65 + "]" * 65, max_depth=64)
    _json_failed('{"a": [{"b": [[]]}]}', max_depth=4)
    assert parse_json('{"a": [{"b": [[]]}]}', max_depth=5) == {"a": [{"b": [[]]}]}


# --------------------------------------------------------------------------- JSON


def test_json_duplicate_keys_last_value_first_position() -> None:
    got = parse_json('{"a": 1, "b": 2, "a": 3}')
    assert list(got.items()) == [("a", 3), ("b", 2)]


def test_json_index_keys_first() -> None:
    got = parse_json('{"b": 1, "2": 2, "1": 3, "01": 4, "x": {"9": 0, "8": 1}}')
    assert list(got) == ["1", "2", "b", "01", "x"]
    assert list(got["x"]) == ["8", "9"]


def test_json_numbers() -> None:
    got = parse_json("[1.0, 1e3, -0.0, 0.5, 12345678901234567890, 9007199254740992, -0, 1e400, 2.5e-7]")
    expected: list[Any] = [1, 1000, -0.0, 0.5, 12345678901234567000.0, 2**53, -0.0, math.inf, 2.5e-7]
    for g, e in zip(got, expected, strict=True):
        assert type(g) is type(e) and g == e
    assert math.copysign(1.0, got[2]) < 0


def test_json_huge_integer_literal() -> None:
    assert parse_json("9" * 5000) == math.inf


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "[1, NaN]", '{"a": Infinity}'])
def test_json_rejects_nan_and_infinity(text: str) -> None:
    _json_failed(text)


@pytest.mark.parametrize(
    "text",
    [
        "\ufeff{}",
        "{'a': 1}",
        "[1,]",
        "01",
        "+1",
        ".5",
        "1.",
        "",
        "{} {}",
        '"\x01"',
        "\x0c1",
        "True",
        "\u00a01",
    ],
)
def test_json_syntax_errors(text: str) -> None:
    _json_failed(text)


def test_json_strings() -> None:
    assert parse_json('"\\ud800 \\u2028 \\/"') == "\ud800 \u2028 /"
    assert parse_json(' \t\r\n{"__proto__": true}\n') == {"__proto__": True}


# --------------------------------------------------------------------------- files


def test_structured_dispatch_by_extension() -> None:
    assert parse_structured(b'{"a": 1}', "x.JSON") == {"a": 1}
    assert parse_structured(b"a: yes", "x.yaml") == {"a": "yes"}
    assert parse_structured(b"a: 1", "x.md") == {"a": 1}
    with pytest.raises(AgentGraphError) as caught:
        parse_structured(b"a: 1", "x.json")
    assert caught.value.code == "parse-failed"


def test_structured_size_limit_checked_before_decoding() -> None:
    assert DEFAULT_MAX_FILE_BYTES >= 32 * 1024 * 1024
    with pytest.raises(AgentGraphError) as caught:
        parse_structured(b"\xff" * 11, "big.yaml", max_bytes=10)
    assert caught.value.code == "file-too-large"
    assert "big.yaml" in caught.value.message
    assert parse_structured(b"a: 1234", "ok.yaml", max_bytes=7) == {"a": 1234}


@pytest.mark.parametrize("data", [b"a: \xff\n", b"a: \xc3\n", b"\xed\xa0\x80", b"a: \xc0\xaf"])
def test_structured_invalid_utf8(data: bytes) -> None:
    with pytest.raises(AgentGraphError) as caught:
        parse_structured(data, "bad.yaml")
    assert caught.value.code == "file-encoding-invalid"


def test_structured_nul_in_yaml_is_parse_failed() -> None:
    with pytest.raises(AgentGraphError) as caught:
        parse_structured(b"a: 1\n\x00", "nul.yaml")
    assert caught.value.code == "parse-failed"


def test_structured_bom() -> None:
    assert parse_structured(b"\xef\xbb\xbfa: 1\n", "bom.yaml") == {"a": 1}
    with pytest.raises(AgentGraphError) as caught:
        parse_structured(b'\xef\xbb\xbf{"a": 1}', "bom.json")
    assert caught.value.code == "parse-failed"


def test_structured_admits_a_large_graph() -> None:
    nodes = [{"id": f"node.{i}", "next": [f"node.{i + 1}"], "weight": 1.0} for i in range(20_000)]
    data = json.dumps({"nodes": nodes}).encode()
    got = parse_structured(data, "graph.json")
    assert (
        len(got["nodes"]) == 20_000
        and got["nodes"][5]["weight"] == 1
        and type(got["nodes"][5]["weight"]) is int
    )


# --------------------------------------------------------------------------- front matter


def test_front_matter() -> None:
    meta, body = parse_front_matter("---\nid: x\nkind: procedure\n---\n# Title\ntext\n", "doc.md")
    assert meta == {"id": "x", "kind": "procedure"}
    assert body == "# Title\ntext\n"


def test_front_matter_crlf() -> None:
    meta, body = parse_front_matter("---\r\nid: x\r\n---\r\nbody\r\nmore\r\n", "doc.md")
    assert meta == {"id": "x"} and body == "body\nmore\n"


@pytest.mark.parametrize(
    "text",
    [
        "# no header\n",
        "",
        "--- \nid: x\n---\n",
        "\n---\nid: x\n---\n",
        "---id: x\n---\n",
        "\ufeff---\nid: x\n---\n",
    ],
)
def test_front_matter_missing(text: str) -> None:
    with pytest.raises(AgentGraphError) as caught:
        parse_front_matter(text, "doc.md")
    assert caught.value.code == "frontmatter-missing"
    assert caught.value.message == "Markdown resource requires YAML frontmatter: doc.md"


@pytest.mark.parametrize(
    "text", ["---\nid: x\n", "---\n---\nbody", "---\nid: x\n---", "---\nid: x\n--- \nbody\n"]
)
def test_front_matter_not_closed(text: str) -> None:
    with pytest.raises(AgentGraphError) as caught:
        parse_front_matter(text, "doc.md")
    assert caught.value.code == "frontmatter-invalid"
    assert caught.value.message == "Markdown frontmatter is not closed: doc.md"


def test_front_matter_closes_at_the_first_marker() -> None:
    meta, body = parse_front_matter("---\na: 1\n---\nb: 2\n---\nrest\n", "doc.md")
    assert meta == {"a": 1} and body == "b: 2\n---\nrest\n"
    meta, body = parse_front_matter("---\na: 1\n---\n", "doc.md")
    assert meta == {"a": 1} and body == ""


@pytest.mark.parametrize("header", ["a: b: c", "a: 1\na: 2", "a: [1"])
def test_front_matter_yaml_error(header: str) -> None:
    with pytest.raises(AgentGraphError) as caught:
        parse_front_matter(f"---\n{header}\n---\nbody\n", "doc.md")
    assert caught.value.code == "frontmatter-invalid"
    assert "doc.md" in caught.value.message


@pytest.mark.parametrize("header", ["- a\n- b\n", "just text\n", "\n", "# comment\n", "42\n"])
def test_front_matter_must_be_a_mapping(header: str) -> None:
    with pytest.raises(AgentGraphError) as caught:
        parse_front_matter(f"---\n{header}---\nbody\n", "doc.md")
    assert caught.value.code == "frontmatter-invalid"
    assert caught.value.message == "Markdown frontmatter must be an object: doc.md"


# --------------------------------------------------------------------------- where a syntax error comes from

from hypothesis import given, strategies as st  # noqa: E402


@given(
    st.lists(st.tuples(st.sampled_from("[{"), st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=8),
    st.data(),
)
def test_an_unclosed_bracket_is_named_by_the_line_that_opened_it(
    rows: list[tuple[str, int, int]], data: st.DataObject
) -> None:
    """Keys holding flow collections, one line each; one loses its closing bracket: the hint names its opener."""
    lines = []
    for number, (bracket, items, pad) in enumerate(rows):
        body = ", ".join(f"k{i}: {i}" if bracket == "{" else f"v{i}" for i in range(items))
        lines.append(f"key{number}:{' ' * (pad + 1)}{bracket}{body}{']' if bracket == '[' else '}'}")
    broken = data.draw(st.integers(0, len(lines) - 1))
    lines[broken] = lines[broken][:-1]
    opener = rows[broken][0]
    column = lines[broken].index(opener) + 1
    error = _parse_failed("\n".join(lines) + "\n")
    assert f"the '{opener}' opened on line {broken + 1}, column {column} is " in error.message, error.message
    (diagnostic,) = error.diagnostics
    assert diagnostic.detail["line"] >= broken + 1


@given(st.integers(1, 6), st.data())
def test_a_tab_in_the_indentation_is_named_by_its_line(count: int, data: st.DataObject) -> None:
    lines = ["top:"] + [f"  key{i}: {i}" for i in range(count)]
    tabbed = data.draw(st.integers(1, count))
    lines[tabbed] = "\t" + lines[tabbed].lstrip(" ")
    error = _parse_failed("\n".join(lines) + "\n")
    assert f"replace the tab on line {tabbed + 1} with spaces" in error.message, error.message


def test_brackets_in_comments_quotes_and_block_scalars_are_not_openers() -> None:
    text = "a: 'a [ quote'  # and a { comment\nb: |\n  block [ text {\nc: [1, 2\n"
    error = _parse_failed(text)
    assert "the '[' opened on line 4, column 4 is never closed" in error.message, error.message


@given(
    st.text(alphabet="ab :-[]{}'\"#|>\t\n\\,", max_size=60),
    st.sampled_from(
        [
            "expected <block end>, but found '?'",
            "mapping values are not allowed here",
            "could not find expected ':'",
            "lines inside a flow collection or quoted scalar must be indented",
            "expected ',' or ']', but got '<stream end>'",
            "Expecting ',' delimiter",
            "found character '\\t' that cannot start any token",
            "something else",
        ]
    ),
    st.integers(-2, 12),
    st.integers(-2, 40),
    st.one_of(st.none(), st.integers(-2, 12)),
    st.one_of(st.none(), st.integers(-2, 40)),
)
def test_a_hint_never_fails_whatever_the_text_and_position(
    text: str, problem: str, line: int, column: int, context_line: int | None, context_column: int | None
) -> None:
    from agent_graph._syntax.syntax_hints import syntax_hint

    hint = syntax_hint(text, problem, line, column, "while parsing", context_line, context_column)
    assert hint is None or isinstance(hint, str)


@given(st.text(alphabet="ab :-[]{}'\"#|>\t\n\\,&*!%@`", max_size=80))
def test_yaml_that_does_not_parse_is_always_parse_failed_with_a_place(text: str) -> None:
    try:
        parse_yaml(text, "doc.yaml")
    except AgentGraphError as error:
        assert error.code == "parse-failed"
        for diagnostic in error.diagnostics:
            assert 1 <= diagnostic.detail["line"] <= text.count("\n") + 2
