"""Canonical JSON, digests, number printing and key collation (behaviour §1)."""

from __future__ import annotations

import hashlib
import json
import math
import random
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from agent_graph._core.canonical import (
    _normalize,
    _write_tree,
    canonical_json,
    collation_key,
    compare_collated,
    digest_bytes,
    digest_value,
    js_number,
    sort_collated,
)
from tests.conftest import vector_json


def _vector_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = vector_json("canonical-json.json")
    return cases


def _sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------
# Vectors of the reference toolchain


@pytest.mark.parametrize("case", _vector_cases(), ids=lambda c: c["text"][:40])
def test_vector(case: dict[str, Any]) -> None:
    assert canonical_json(case["value"]) == case["text"]
    assert digest_value(case["value"]) == case["digest"]


# ---------------------------------------------------------------------------
# Digests


def test_digest_value_is_sha256_of_canonical_text() -> None:
    value = {"b": [1, 2.5, "é"], "a": None}
    assert digest_value(value) == _sha('{"a":null,"b":[1,2.5,"é"]}')


def test_digest_bytes_is_raw_sha256() -> None:
    assert digest_bytes(b"") == "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert digest_bytes(b"{}") == digest_value({})
    assert digest_bytes(bytearray(b"abc")) == "sha256:" + hashlib.sha256(b"abc").hexdigest()


def test_bool_is_never_a_number() -> None:
    assert digest_value(True) != digest_value(1)
    assert digest_value(False) != digest_value(0)
    assert canonical_json([True, 1, False, 0, 1.0]) == "[true,1,false,0,1]"
    assert canonical_json({"a": True, "b": 1}) == '{"a":true,"b":1}'
    with pytest.raises(TypeError):
        js_number(True)


def test_input_is_not_modified() -> None:
    value = {"b": {"d": 1, "c": [3.5, {"f": 1, "e": 2}]}, "a": 2**60}
    before = json.dumps(value)
    canonical_json(value)
    assert json.dumps(value) == before
    assert list(value) == ["b", "a"]


def test_tuples_are_arrays() -> None:
    assert canonical_json((1, ("a", None))) == '[1,["a",null]]'
    assert canonical_json({"k": ()}) == '{"k":[]}'


@pytest.mark.parametrize(
    "value", [{1, 2}, b"bytes", object(), {1: "int key"}, {"a": {None: 1}}, [1, {"x": 1j}]]
)
def test_unsupported_types_raise_type_error(value: object) -> None:
    with pytest.raises(TypeError):
        canonical_json(value)


# ---------------------------------------------------------------------------
# Numbers (ECMAScript Number::toString)


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (0, "0"),
        (-0.0, "0"),
        (0.0, "0"),
        (1.0, "1"),
        (-1.5, "-1.5"),
        (100.0, "100"),
        (0.1 + 0.2, "0.30000000000000004"),
        (1e16, "10000000000000000"),
        (1.5e16, "15000000000000000"),
        (1e20, "100000000000000000000"),
        (123456789012345678901.0, "123456789012345680000"),
        (1e21, "1e+21"),
        (-1e21, "-1e+21"),
        (1.5e21, "1.5e+21"),
        (1e300, "1e+300"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (0.000001, "0.000001"),
        (0.0000015, "0.0000015"),
        (1.234e-6, "0.000001234"),
        (1e-7, "1e-7"),
        (1.5e-7, "1.5e-7"),
        (-1.5e-7, "-1.5e-7"),
        (1.23e-18, "1.23e-18"),
        (5e-324, "5e-324"),
        (0.0001, "0.0001"),
        (12345678.9, "12345678.9"),
        (2**53, "9007199254740992"),
        (-(2**53), "-9007199254740992"),
        (2**53 + 1, "9007199254740992"),  # nearest double (ties to even)
        (2**53 + 3, "9007199254740996"),
        (-(2**53) - 1, "-9007199254740992"),
        (10**21, "1e+21"),
        (2**64, "18446744073709552000"),
        (10**400, "null"),
        (-(10**400), "null"),
        (math.nan, "null"),
        (math.inf, "null"),
        (-math.inf, "null"),
    ],
)
def test_js_number(number: float, text: str) -> None:
    assert js_number(number) == text
    assert canonical_json(number) == text
    assert canonical_json([number]) == f"[{text}]"
    assert canonical_json({"n": number}) == f'{{"n":{text}}}'


def test_js_number_rejects_non_numbers() -> None:
    for bad in ("1", None, [1]):
        with pytest.raises(TypeError):
            js_number(bad)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_js_number_round_trips(x: float) -> None:
    text = js_number(x)
    assert float(text) == x
    assert "e" not in text or ("e+" in text and abs(x) >= 1e21) or ("e-" in text and abs(x) < 1e-6)


# ---------------------------------------------------------------------------
# Strings (JSON.stringify escaping)

_SHORT_ESCAPES = {0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0C: "\\f", 0x0D: "\\r"}


@pytest.mark.parametrize("code", range(0x20))
def test_control_characters_escape_like_json_stringify(code: int) -> None:
    expected = _SHORT_ESCAPES.get(code, f"\\u{code:04x}")
    assert canonical_json(chr(code)) == f'"{expected}"'
    assert canonical_json({chr(code): 0}) == f'{{"{expected}":0}}'


def test_characters_written_as_is() -> None:
    text = "\x7f\u2028\u2029</script>é日本🙂 '"
    assert canonical_json(text) == f'"{text}"'
    assert canonical_json('q"b\\') == '"q\\"b\\\\"'


def test_lone_surrogates_are_escaped_like_json_stringify() -> None:
    # JSON.stringify (ES2019 and later) writes unpaired surrogates as \\udxxx.
    assert canonical_json("\ud800") == '"\\ud800"'
    assert canonical_json("a\udc00b\udbff") == '"a\\udc00b\\udbff"'
    assert canonical_json({"k\udfff": ["\ud83d"]}) == '{"k\\udfff":["\\ud83d"]}'
    assert digest_value("\ud800") == digest_bytes(b'"\\ud800"')


def test_surrogate_pairs_join_into_one_character() -> None:
    pair = "\ud83d\ude42"
    assert canonical_json(pair) == '"🙂"'
    assert digest_value(pair) == digest_value("🙂")
    assert canonical_json(["x" + pair + "\ud800"]) == '["x🙂\\ud800"]'


# ---------------------------------------------------------------------------
# Object key order

_ASCII_PRIMARY_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"


def _keys_of(text: str) -> list[str]:
    return list(json.loads(text))


def test_index_keys_come_first_in_numeric_order() -> None:
    value = {"a": 0, "10": 0, "_": 0, "9": 0, "0": 0, "4294967294": 0, "1": 0}
    assert _keys_of(canonical_json(value)) == ["0", "1", "9", "10", "4294967294", "_", "a"]


def test_non_canonical_index_keys_are_ordinary_keys() -> None:
    value = {"4294967295": 0, "01": 0, "-1": 0, "1.5": 0, "1e3": 0, "a": 0, "7": 0, "١": 0}
    # Only "7" is an array index; the others collate as strings ("-" sorts before
    # digits, the Arabic-Indic digit one equals "1", the shorter string first).
    assert _keys_of(canonical_json(value)) == ["7", "-1", "01", "١", "1.5", "1e3", "4294967295", "a"]


def test_punctuation_digits_letters_primary_order() -> None:
    chars = list(_ASCII_PRIMARY_ORDER)
    random.Random(1).shuffle(chars)
    assert sort_collated(chars) == list(_ASCII_PRIMARY_ORDER)
    for index, ch in enumerate(_ASCII_PRIMARY_ORDER[:-1]):
        assert compare_collated(ch, _ASCII_PRIMARY_ORDER[index + 1]) == -1


def test_upper_case_equals_lower_case_at_primary_level() -> None:
    assert sort_collated(["b", "B", "A", "a", "Z", "z"]) == ["a", "A", "b", "B", "z", "Z"]
    assert compare_collated("Ab", "ac") == -1  # case cannot outweigh a later letter
    assert compare_collated("aZ", "Ba") == -1


def test_case_decides_only_ties_lower_first() -> None:
    assert sort_collated(["Ab", "aB", "ab", "AB"]) == ["ab", "aB", "Ab", "AB"]
    assert canonical_json({"B": 1, "a": 2, "A": 3, "b": 4}) == '{"a":2,"A":3,"b":4,"B":1}'


def test_shorter_string_wins_a_tie_of_its_length() -> None:
    assert sort_collated(["graph_id", "graphId", "graph", "graph-id"]) == [
        "graph",
        "graph_id",
        "graph-id",
        "graphId",
    ]
    assert compare_collated("ab", "ab ") == -1
    assert compare_collated("", "a") == -1
    assert compare_collated("AB", "abc") == -1  # length decides before case


def test_ignorable_control_characters() -> None:
    for code in [*range(0x00, 0x09), *range(0x0E, 0x20), 0x7F]:
        ch = chr(code)
        assert compare_collated("a" + ch + "b", "ab") == 0
        assert compare_collated(ch, "") == 0
    # equal keys keep their input order (JavaScript's sort is stable)
    assert sort_collated(["a\x01b", "ab", "a\x7fb"]) == ["a\x01b", "ab", "a\x7fb"]
    assert sort_collated(["ab", "a\x01b"]) == ["ab", "a\x01b"]
    assert _keys_of(canonical_json({"ab": 1, "a\x01b": 2})) == ["ab", "a\x01b"]


def test_tab_to_carriage_return_are_whitespace_before_space() -> None:
    # ICU gives TAB, LF, VT, FF and CR primary weights below the space.
    expected = ["a\tb", "a\nb", "a\x0bb", "a\x0cb", "a\rb", "a b", "a_b", "ab"]
    assert sort_collated(reversed(expected)) == expected


# Orders answered by Node's String.prototype.localeCompare (ICU 78, root).
ICU_ORDERS = [
    order.split("|")
    for order in (
        "a|A|a b|a_b|a-b|a.b|a/b|a~|a$|a0|a9|aa|ab|aB|Ab|AB|ab c|ab_|ab-|abc|az|b|B",
        "graph|graph_id|graph-id|graph.id|graph1|graph10|graph2|graphid|graphId|GraphId",
        "e|E|é|É|è|ê|ě|ë|ė|ę|ē|ea|Ea|éa|eb|f",
        "ad|ae|æ|Æ|af|d|đ|ð|dz|l|ł|lz|o|O|ø|Ø|oe|œ|oz|p|ĸ|th|z|þ",
        "ss|sS|Ss|SS|ß|ẞ|st",
        "a|ａ|𝐚|ⓐ|A|Ａ|Ⓐ|ª|b",
        "fi|fI|ﬁ|Fi|fj",
        "2|²|3|a",
        "á|ab|ab\u0301|a\u0301b|ac",
        "z|α|ω|Ω|а|я|日",
    )
]


@pytest.mark.parametrize("expected", ICU_ORDERS, ids=lambda order: "|".join(order)[:12])
def test_matches_icu_root_order(expected: list[str]) -> None:
    shuffled = list(expected)
    random.Random(7).shuffle(shuffled)
    assert sort_collated(shuffled) == expected
    assert sort_collated(reversed(expected)) == expected


def test_vector_accented_keys() -> None:
    value = {"é": 1, "e": 2, "f": 3, "E": 4, "ß": 5, "ss": 6}
    assert _keys_of(canonical_json(value)) == ["e", "E", "é", "f", "ss", "ß"]


def test_canonically_equivalent_keys_compare_equal() -> None:
    assert compare_collated("a\u0301", "á") == 0
    assert collation_key("a\u0301") == collation_key("á")


def test_compare_collated_is_antisymmetric() -> None:
    words = ["", "a", "A", "ab", "a-b", "a_b", "é", "E", "ß", "ss", "日", "~", "0", "\t"]
    for a in words:
        for b in words:
            assert compare_collated(a, b) == -compare_collated(b, a)
            assert (compare_collated(a, b) < 0) == (collation_key(a) < collation_key(b))


def test_collation_key_rejects_non_strings() -> None:
    with pytest.raises(TypeError):
        collation_key(1)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Depth and the two writers


def test_deep_nesting_without_recursion() -> None:
    depth = 20_000
    nested_list: Any = []
    nested_dict: Any = {}
    for _ in range(depth):
        nested_list = [nested_list]
        nested_dict = {"k": nested_dict, "a": 1.5}
    assert canonical_json(nested_list) == "[" * (depth + 1) + "]" * (depth + 1)
    text = canonical_json(nested_dict)
    assert text == '{"a":1.5,"k":' * depth + "{}" + "}" * depth
    assert digest_value(nested_dict) == _sha(text)


def test_iterative_writer_handles_everything() -> None:
    # Deeper than the C encoder is used for: the iterative writer produces the text.
    value: Any = {"z": ["\n", 1e21, 2**60, None, True, {}, []], "a": "\ud800"}
    expected = '{"a":"\\ud800","z":["\\n",1e+21,1152921504606847000,null,true,{},[]]}'
    assert canonical_json(value) == expected
    for _ in range(300):
        value = [value]
    assert canonical_json(value) == "[" * 300 + expected + "]" * 300


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(st.characters(exclude_categories=()), max_size=6),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=120, deadline=None)
@given(json_values)
def test_both_writers_agree_and_text_parses_back(value: Any) -> None:
    text = canonical_json(value)
    assert _write_tree(_normalize(value)[0]) == text
    assert digest_value(value) == _sha(text)
    parsed = json.loads(text)
    assert canonical_json(parsed) == text  # canonical text is a fixed point


@pytest.mark.slow
def test_the_three_texts_share_one_writer_and_take_any_depth() -> None:
    """Canonical JSON, plain JSON text and the schema's equality key walk 50,000 levels without recursion."""
    from agent_graph._core.plain import json_text
    from agent_graph._syntax.violations import canonical_text as _canonical

    deep: Any = {"b": 1.0, "a": "\ud800"}
    for _ in range(50_000):
        deep = [{"z": deep, "y": 2}]
    canonical = canonical_json(deep)
    plain = json_text(deep)
    key = _canonical(deep)
    assert canonical.startswith('[{"y":2,"z":') and canonical.endswith(
        '{"a":"\\ud800","b":1}}]' + "}]" * 49_999
    )
    assert plain.startswith('[{"z":') and plain.endswith('{"b":1.0,"a":"\\ud800"}' + ',"y":2}]' * 50_000)
    assert key.startswith('[{"y":2,"z":') and key.endswith('{"a":"\\ud800","b":1}}]' + "}]" * 49_999)
    assert json.loads(json_text({"k": [1, 2]}, indent=2)) == {"k": [1, 2]}
