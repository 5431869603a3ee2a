"""Fast paths give exactly the answers of the general code they shortcut.

Each fast path of the library is checked against the general path it skips:
the line-based YAML reader against the full ruamel.yaml event reader (on the
shipped examples, the vectors' Providers, generated documents and one case per
rule that sends a document to the full reader), the byte-level scan that
picks the exact-integer JSON decoder against its regular expression, and
canonical JSON written by msgspec's sorted encoding against the general
normalize-and-write path, route IDs written from a Struct against their
definition, and evaluations remembered by revision against fresh ones.
"""

from __future__ import annotations

import math
import random
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings, strategies as st

import agent_graph as ag
from agent_graph._core.cache import EVALUATIONS_REMEMBERED, FACT_TEXTS_BUDGET, EvaluationCache
from agent_graph._core.canonical import (
    _canonical_bytes,
    _normalize,
    _sorted_encoding_is_canonical,
    _write_tree,
    digest_value,
)
from agent_graph._core.errors import AgentGraphError
from agent_graph._core.identity import make_route_id
from agent_graph._core.plain import is_plain_json, plain_json
from agent_graph._syntax.parse import (
    _NO_MATCH,
    _SIMPLE_UNSAFE,
    _needs_exact_integers,
    _simple_yaml,
    parse_yaml,
)
from agent_graph._syntax.yaml_events import parse_yaml_events
from tests.conftest import VECTORS
from tests.paths import REPO


def same(a: Any, b: Any) -> bool:
    """Equal JSON values of the same Python types, key order, NaN and signed zero included."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, float):
            if x != x:
                if y == y:
                    return False
            elif x != y or math.copysign(1.0, x) != math.copysign(1.0, y):
                return False
        elif isinstance(x, dict):
            if list(x) != list(y):
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list):
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif x != y:
            return False
    return True


def full(text: str) -> Any:
    return parse_yaml_events(text, "<test>", 512, 100)


def assert_fast_matches(text: str) -> Any:
    """The fast path accepts ``text`` and agrees with the full reader."""
    fast = _simple_yaml(text, 512)
    assert fast is not _NO_MATCH, text
    assert same(fast, full(text)), text
    return fast


def assert_full_reader_decides(text: str) -> None:
    """The fast path declines ``text``; parse_yaml answers as the full reader does."""
    assert _simple_yaml(text, 512) is _NO_MATCH, text
    try:
        expected = full(text)
    except AgentGraphError as error:
        with pytest.raises(AgentGraphError) as raised:
            parse_yaml(text, "<test>")
        assert raised.value.code == error.code
        return
    assert same(parse_yaml(text, "<test>"), expected)


def _front_matter(text: str) -> str | None:
    text = text.replace("\r\n", "\n")
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 4)
    return text[4:end] if end >= 0 else None


def _yaml_files() -> list[Path]:
    roots = [REPO / "examples", VECTORS / "providers"]
    found = []
    for root in roots:
        found.extend(
            p for p in sorted(root.rglob("*")) if p.suffix in (".yaml", ".yml", ".md") and p.is_file()
        )
    return found


# --------------------------------------------------------------------------- YAML: real files


def test_every_yaml_file_of_the_examples_and_vectors_reads_the_same() -> None:
    files = _yaml_files()
    assert any(VECTORS in path.parents for path in files) and any(
        REPO / "examples" in path.parents for path in files
    )
    accepted = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".md":
            header = _front_matter(text)
            if header is None:
                continue
            text = header
        fast = _simple_yaml(text, 512)
        if fast is _NO_MATCH:
            continue
        accepted += 1
        assert same(fast, full(text)), path
    assert accepted > 20  # block-style files take the fast path


def test_the_realistic_benchmark_provider_reads_the_same() -> None:
    from benchmarks.generate import realistic

    for name, text in realistic().files.items():
        if name.endswith(".yaml"):
            assert_fast_matches(text)
        elif name.endswith(".md") and text.startswith("---\n"):
            header = _front_matter(text)
            assert header is not None
            assert_fast_matches(header)


# --------------------------------------------------------------------------- YAML: what the fast path reads


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a: 1\nb: x\n", {"a": 1, "b": "x"}),
        ("a:\n  b: 1\n", {"a": {"b": 1}}),
        ("a:\n- 1\n- 2\nb: 3\n", {"a": [1, 2], "b": 3}),  # an indentless sequence
        ("- a: 1\n  b: 2\n- c\n", [{"a": 1, "b": 2}, "c"]),  # a mapping opened on an entry's line
        ("-\n  a: 1\n-\n", [{"a": 1}, None]),
        ("a:\nb:\n", {"a": None, "b": None}),
        ("a: # note\n  b: 1\n", {"a": {"b": 1}}),
        ("a: b # comment\n", {"a": "b"}),
        ("a: b#c\n", {"a": "b#c"}),
        ("a: 'it''s' # c\n", {"a": "it's"}),
        ('a: "x # y"\n', {"a": "x # y"}),
        ("a: [x, 'y, z', 1]\n", {"a": ["x", "y, z", 1]}),
        (
            "e: { from: a, to: b, outcomes: [x, y] }\n",
            {"e": {"from": "a", "to": "b", "outcomes": ["x", "y"]}},
        ),
        ("a: []\nb: {}\nc: [ ]\n", {"a": [], "b": {}, "c": []}),
        (
            "a: ~\nb: null\nc: true\nd: yes\ne: 0o17\nf: 017\ng: 0x1F\nh: 1_000\n",
            {"a": None, "b": None, "c": True, "d": "yes", "e": 15, "f": 17, "g": 31, "h": "1_000"},
        ),
        ("a: -1\nb: .5\nc: 1e3\nd: -0\n", {"a": -1, "b": 0.5, "c": 1000, "d": -0.0}),
        ("url: https://example.com/x:y\n", {"url": "https://example.com/x:y"}),
        ("release/check>quality/test: failed\n", {"release/check>quality/test": "failed"}),
        ("# only a comment\n", None),
        ("", None),
        ("t: Café — naïve\n", {"t": "Café — naïve"}),
    ],
)
def test_the_fast_path_reads_block_style_yaml(text: str, value: Any) -> None:
    assert same(assert_fast_matches(text), value)


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # anchors and aliases
        "a: !!str 1\n",  # tags
        "a: |\n  text\n",  # block scalars
        "a: >\n  text\n",
        "a: b\n  c\n",  # a plain scalar continued on the next line
        "a:\n  text\n",  # a scalar on the line after its key
        "- a\n  b\n",
        "---\na: 1\n",  # document markers and directives
        "a: 1\n...\n",
        "%YAML 1.2\n---\na: 1\n",
        "a:\tb\n",  # tabs
        "a: b\r\n",  # carriage returns
        "\ufeffa: 1\n",  # a byte-order mark
        "a: 1\na: 2\n",  # a duplicate key (an error)
        "e: {a: 1, a: 2}\n",
        "true: 1\n",  # keys that are not identifier strings
        "1: a\n",
        '"a": 1\n',
        "? a\n: b\n",
        "a: b: c\n",  # a mapping value where none is allowed (an error)
        "a: b:\n",
        "a:b\n",
        "- - a\n",  # compact nested sequences
        "a: - b\n",
        "a: -\n",
        "a:\n    b: 1\n  c: 2\n",  # dedent to a column no block uses (an error)
        "  a: 1\nb: 2\n",
        "a: [b, [c, [d, [e]]]]\n",  # flow collections nested more than three deep
        "a: [b,]\n",  # a trailing comma
        "a: [b:c]\n",  # a single-pair mapping inside a flow sequence
        "a: [b] c\n",  # text after a flow collection
        "a: 'x'y\n",  # text after a quoted scalar
        'a: "x\\ty"\n',  # escapes in double quotes
        "a: 'multi\n  line'\n",
        "a: @b\n",  # reserved indicators
        "a: `b\n",
        "a: %b\n",
        "a: ,b\n",
        "a: :b\n",
        "a: ?b\n",
        "- a\nb: 1\n",  # a mapping key where the sequence continues
        "a\n",  # a top-level scalar
    ],
)
def test_the_full_reader_decides_everything_else(text: str) -> None:
    assert_full_reader_decides(text)


def test_deep_documents_and_low_depth_limits_go_to_the_full_reader() -> None:
    deep = "".join(" " * (2 * i) + f"k{i}:\n" for i in range(70)) + " " * 140 + "leaf: 1\n"
    assert _simple_yaml(deep, 512) is _NO_MATCH
    assert same(parse_yaml(deep), full(deep))
    shallow = "a:\n  b: [1]\n"
    assert _simple_yaml(shallow, 3) is _NO_MATCH
    with pytest.raises(AgentGraphError):
        parse_yaml(shallow, max_depth=2)


# --------------------------------------------------------------------------- YAML: generated documents

_KEYS = ["a", "b", "id", "on", "yes", "y", "a/b", "x>y", "$s", "a.b", "_", "a-b", "e5", "inf", "Null", "true"]
_SCALARS = [
    "x",
    "hello world",
    "-1",
    "1",
    "0",
    "-0",
    "0.0",
    "1e3",
    "0o17",
    "0x1F",
    "017",
    "1_000",
    ".inf",
    "-.inf",
    ".nan",
    "~",
    "null",
    "True",
    "'it''s'",
    '"b"',
    '"a # b"',
    "'x' #c",
    '"y"#c',
    "a #b",
    "a#b",
    "a: b",
    "x:",
    "http://x.y/z",
    "[a, b]",
    "[]",
    "{}",
    "{a: 1}",
    "{a: 1, b: [c, 'd']}",
    "[a,]",
    "[a, [b, [c, [d]]]]",
    "{ a: }",
    "[a:b]",
    "- x",
    "-",
    "&a x",
    "*a",
    "!!str x",
    "|",
    ">",
    ":x",
    "?x",
    "@x",
    "é",
    "\u00a0x",
    "日本",
    "---",
    "...",
    "--x",
    '["a, b", c]',
    "{from: a, to: b, outcomes: [x]}",
    "# c",
    "'open",
    '"open',
    "a ' b",
    "[a b]",
    "[a , b ]",
    "{ a: b , c: d }",
    "[-1]",
    "{a: [1, {b: 2}]}",
    "x y: z",
    "2026-01-01",
    "+1",
    "0.10",
]


def _document(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(1, 10)):
        indent = " " * rng.choice([0, 0, 0, 1, 2, 2, 2, 3, 4, 4, 6])
        kind = rng.random()
        if kind < 0.45:
            line = (
                f"{indent}{rng.choice(_KEYS)}:"
                + rng.choice(["", " ", "  "])
                + (rng.choice(_SCALARS) if rng.random() < 0.7 else "")
            )
        elif kind < 0.75:
            item = (
                rng.choice(_SCALARS) if rng.random() < 0.6 else f"{rng.choice(_KEYS)}: {rng.choice(_SCALARS)}"
            )
            line = f"{indent}-" + rng.choice([" ", "  ", ""]) + (item if rng.random() < 0.8 else "")
        elif kind < 0.85:
            line = indent + rng.choice(_SCALARS)
        elif kind < 0.92:
            line = indent + "# comment"
        else:
            line = ""
        lines.append(line + rng.choice(["", "", " "]))
    return "\n".join(lines) + rng.choice(["", "\n"])


@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_generated_documents_read_the_same_whenever_the_fast_path_takes_them(seed: int) -> None:
    text = _document(random.Random(seed))
    fast = _simple_yaml(text, 512)
    if fast is _NO_MATCH:
        return
    assert same(fast, full(text)), text


# --------------------------------------------------------------------------- JSON: exact integers

_EXACT_INTEGERS = re.compile(r"[0-9]{16}|-0(?![0-9.eE])")


@pytest.mark.parametrize(
    "text",
    [
        "1234567890123456",
        "123456789012345",
        "-0",
        "-0.5",
        "-01",
        "[-0]",
        "-0e1",
        "1-0",
        "x" * 3 + "9" * 16,
        "\ud800" + "1" * 16,
        "é1234567890123456",
        "",
        "١٢٣٤٥٦٧٨٩٠١٢٣٤٥٦",
    ],
)
def test_the_exact_integer_scan_agrees_with_its_regular_expression(text: str) -> None:
    assert _needs_exact_integers(text) == (_EXACT_INTEGERS.search(text) is not None)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789-.eE x\u00e9", max_size=60))
def test_the_exact_integer_scan_agrees_on_generated_text(text: str) -> None:
    assert _needs_exact_integers(text) == (_EXACT_INTEGERS.search(text) is not None)


def test_the_fast_path_refuses_exactly_the_characters_it_cannot_read() -> None:
    """Tab, CR, NEL, other controls, U+2028/U+2029, surrogates, the BOM and U+FFFE/U+FFFF go to the full reader."""
    refused = {
        *range(0x00, 0x0A),
        *range(0x0B, 0x20),
        *range(0x7F, 0xA0),
        0x2028,
        0x2029,
        *range(0xD800, 0xE000),
        0xFEFF,
        0xFFFE,
        0xFFFF,
    }
    for code in [*range(0x10000), 0x10000, 0x1F600, 0x10FFFF]:
        assert (_SIMPLE_UNSAFE.search(chr(code)) is not None) == (code in refused), hex(code)


# --------------------------------------------------------------------------- canonical JSON


def _general_path(value: Any) -> bytes:
    """The canonical text as the general path writes it: normalized copy, iterative writer."""
    return _write_tree(_normalize(value)[0]).encode("utf-8")


@pytest.mark.parametrize(
    "value",
    [
        {"b": 1, "a": [1, 2.5, "x"], "c": {"z": None, "y": True}},
        {"B": 1, "a": 2},  # capitals collate apart from their code points
        {"a_b": 1, "a1": 2, "a-b": 3, "a.b": 4},  # '_' sorts before digits, not after
        {"10": 1, "9": 2, "a": 3},  # array-index keys come first, in numeric order
        {"x": 2.0, "y": -0.0},  # integral floats print without a fraction
        {"x": 1e-4, "y": 9.99e-05, "z": 1e16, "w": 0.1 + 0.2},
        {"x": 2**53, "y": 2**53 + 1, "z": -(2**53) - 1},
        {"x": float("nan"), "y": float("inf")},
        {"é": 1, "e": 2, "f": 3},
        {"s": "\ud800"},
        {"\udc00": 1},
        {"t": (1, 2)},
        [[[[["deep"]]]]],
        {"l": ["a", {"k": "v", "K": "w"}]},
        {"one": {"a_b": 1}, "two": {"a-b": 2}},  # keys that would clash, in different objects
        {
            "one": {"ab": 1, "a\x01b": 2},
            "two": {"a\x01b": 1, "ab": 2},
        },  # collation-equal keys keep their own order
        {"outer": {"a1": 1, "a_b": 2}},
    ],
)
def test_canonical_json_fast_and_general_paths_agree(value: Any) -> None:
    assert _canonical_bytes(value) == _general_path(value)


@pytest.mark.parametrize("depth", [150, 400, 5000])
def test_canonical_json_of_deep_values_is_the_same_on_both_paths(depth: int) -> None:
    value: Any = "leaf"
    for index in range(depth):
        value = {"k": value} if index % 2 else [value]
    assert _sorted_encoding_is_canonical(value) == (depth <= 200)  # msgspec writes 200 levels here
    assert _canonical_bytes(value) == _general_path(value)


def test_the_fast_path_checks_objects_one_by_one_when_their_keys_together_do_not_sort_alike() -> None:
    assert _sorted_encoding_is_canonical({"one": {"a_b": 1}, "two": {"a-b": 2}})  # never side by side
    assert not _sorted_encoding_is_canonical({"one": {"a_b": 1, "a-b": 2}})
    assert not _sorted_encoding_is_canonical({"x": {"ab": 1, "a\x01b": 2}})  # equal keys: insertion order
    assert _sorted_encoding_is_canonical({"x": {"a\x01b": 1, "ab": 2}})


def test_a_cyclic_value_ends_the_fast_path_check() -> None:
    cyclic: dict[str, Any] = {}
    cyclic["self"] = [cyclic]
    assert not _sorted_encoding_is_canonical(cyclic)


_KEY = st.text(alphabet="aAbBzZ_-.019é", min_size=0, max_size=4)
_NUMBER = st.one_of(
    st.integers(min_value=-(2**60), max_value=2**60),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(min_value=1e-5, max_value=1e17),
    st.integers(min_value=-1000, max_value=1000).map(float),
)
_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), _NUMBER, st.text(max_size=5)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEY, inner, max_size=5)),
    max_leaves=30,
)


@settings(max_examples=500, deadline=None)
@given(_JSON)
@pytest.mark.slow
def test_canonical_json_fast_and_general_paths_agree_on_generated_values(value: Any) -> None:
    assert _canonical_bytes(value) == _general_path(value)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.text(alphabet="abcxyz_0129", min_size=1, max_size=6), st.floats(min_value=1e-4, max_value=1e15)
    )
)
def test_plain_floats_print_the_same_through_msgspec(value: dict[str, float]) -> None:
    assert _canonical_bytes(value) == _general_path(value)


# --------------------------------------------------------------------------- plain JSON taken as it is


def _copies_unchanged(value: Any, max_depth: int, allow_nan: bool) -> bool:
    """Whether ``plain_json`` (the general path) takes ``value``: the copy it would use instead."""
    try:
        plain_json(value, "value", max_depth=max_depth, allow_nan=allow_nan)
    except AgentGraphError:
        return False
    return True


#: JSON values with integers past every double too (JSON text cannot hold those).
_WIDE_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), _NUMBER, st.integers(min_value=-(2**1030), max_value=2**1030)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEY, inner, max_size=5)),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(_JSON, _WIDE_JSON), st.integers(min_value=1, max_value=5), st.booleans())
def test_a_value_taken_as_it_is_is_one_the_copy_takes(value: Any, max_depth: int, allow_nan: bool) -> None:
    verdict = is_plain_json(value, max_depth=max_depth, allow_nan=allow_nan)
    assert verdict == _copies_unchanged(value, max_depth, allow_nan)
    if verdict:
        assert _canonical_bytes(plain_json(value, "value", max_depth=max_depth)) == _canonical_bytes(value)


class _Text(str):
    pass


class _Object(dict):  # type: ignore[type-arg]
    pass


def _shared() -> Any:
    inner = [1]
    return {"a": inner, "b": {"c": inner}}


def _cyclic() -> Any:
    cyclic: dict[str, Any] = {"list": []}
    cyclic["list"].append(cyclic)
    return cyclic


@pytest.mark.parametrize(
    ("value", "max_depth", "allow_nan", "verdict"),
    [
        ({"a": {"b": [1, "x", None, True, 0.5]}}, 3, False, True),
        ({"a": {"b": [1]}}, 2, True, False),  # three levels of containers
        ([[[]]], 3, True, True),
        ({"a": [float("nan")]}, 9, True, True),
        ({"a": [float("nan")]}, 9, False, False),
        ({"a": {"b": -math.inf}}, 9, False, False),
        ({"a": [{1: "x"}]}, 9, True, False),  # a key that is not a string, two levels down
        ({"a": [_Text("x")]}, 9, True, False),
        ({"a": [_Object()]}, 9, True, False),
        ({"a": [(1, 2)]}, 9, True, False),
        (_shared(), 9, True, False),
        (_cyclic(), 9, True, False),
        (math.inf, 1, False, False),
        ({"a": [2**1023]}, 9, False, True),  # 1,024 bits: still a double
        ({"a": [2**1024]}, 9, False, False),  # past every double: JSON text cannot hold it
        ({"a": {"b": -(2**1024)}}, 9, False, False),
        ({"a": [2**1024]}, 9, True, True),
        (2**1024, 1, False, False),
        (2**1024, 1, True, True),
        ("leaf", 1, False, True),
    ],
)
def test_only_exact_trees_within_the_depth_are_taken_as_they_are(
    value: Any, max_depth: int, allow_nan: bool, verdict: bool
) -> None:
    assert is_plain_json(value, max_depth=max_depth, allow_nan=allow_nan) is verdict


# --------------------------------------------------------------------------- the revision's fact texts


_MEMO = EvaluationCache()


def _revision_text(facts: Any) -> tuple[bytes, bool]:
    """The revision text of a state with these facts as evaluation writes it: fast when it can be."""
    from agent_graph._core.canonical import canonical_bytes_exact
    from agent_graph._core.revision_text import revision_bytes_fast, revision_state

    state = ("sha256:p", "main", "default", facts, {"main/a": "completed"}, ["ops"])
    fast = revision_bytes_fast(*state, _MEMO)
    return (fast[0], True) if fast is not None else canonical_bytes_exact(revision_state(*state))


def _state_text(facts: Any) -> bytes:
    state = {
        "provider": "sha256:p",
        "graphId": "main",
        "entry": "default",
        "facts": facts,
        "outcomes": {"main/a": "completed"},
        "authorities": ["ops"],
    }
    return _general_path(state)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_KEY, _JSON, max_size=6))
@pytest.mark.slow
def test_revision_texts_are_canonical_the_first_time_and_every_time_after(facts: dict[str, Any]) -> None:
    expected = _state_text(facts)
    for _ in range(2):  # the second time, top-level objects and arrays may come from the memo
        assert _revision_text(facts)[0] == expected


def test_a_fact_text_gets_its_plain_copy_on_second_sight() -> None:

    facts = {"step": {"done": True, "at": "2026-11-01", "note": "second sight"}}
    text = msgspec.json.encode(facts["step"], order="sorted")
    _revision_text(facts)
    assert _MEMO.fact_texts["step"] == (text, None)  # a one-off value costs no copy
    _revision_text(facts)
    assert _MEMO.fact_texts["step"] == (text, facts["step"])
    assert _MEMO.fact_texts["step"][1] is not facts["step"]  # a copy: changing the facts cannot change it
    facts["step"]["done"] = 1.0  # equal to True in Python; msgspec writes 1.0, canonical JSON 1
    assert _revision_text(facts) == (_state_text(facts), False)
    facts["step"]["done"] = False
    assert _revision_text(facts)[0] == _state_text(facts)


def test_facts_parsed_again_from_json_are_taken_from_the_memo() -> None:

    document = '{"release": {"plan": {"done": true}, "tags": ["a", "b"]}, "turn": 3}'
    for _ in range(3):
        facts = msgspec.json.decode(document)
        assert _revision_text(facts) == (_state_text(facts), True)
    assert _MEMO.fact_texts["release"][1] == facts["release"]


def test_a_fact_value_changed_in_place_is_read_again() -> None:
    facts: dict[str, Any] = {"release": {"items": [1, 2], "name": "x"}}
    assert _revision_text(facts) == (_state_text(facts), True)
    facts["release"]["items"] = (1, 2)  # a tuple: the same text, no longer plain data for the fast path
    assert _revision_text(facts) == (_state_text(facts), False)
    facts["release"]["items"] = {2, 1}  # a set: not JSON at all
    with pytest.raises(TypeError):
        _revision_text(facts)
    facts["release"]["items"] = [
        1,
        2.0,
    ]  # an integral float prints as 1 in canonical JSON, not as msgspec does
    assert _revision_text(facts) == (_state_text(facts), False)
    facts["release"]["items"] = [float("nan"), 2]  # null in canonical JSON, like None, but not None
    assert _revision_text({"release": {"items": [None, 2], "name": "x"}})[1]
    assert _revision_text(facts) == (_state_text(facts), False)


def test_collation_equal_keys_are_never_taken_from_the_memo() -> None:
    """Keys that collate equal keep each object's own order, which its sorted text does not show."""

    one = {"tied": {"ab": 1, "a\x01b": 2}}
    two = {"tied": {"a\x01b": 2, "ab": 1}}
    for facts in (one, two, one, two):
        assert _revision_text(facts) == (_state_text(facts), facts is two)
    assert "tied" not in _MEMO.fact_texts


def test_the_fact_text_memo_stays_within_its_budget() -> None:

    for turn in range(2000):
        facts = {f"log{turn}": {"turn": turn, "note": "n" * 200}}
        assert _revision_text(facts)[0] == _state_text(facts)
    assert _MEMO.fact_texts_size <= FACT_TEXTS_BUDGET
    assert sum(len(text) for text, _ in _MEMO.fact_texts.values()) == _MEMO.fact_texts_size


@pytest.mark.slow
def test_shared_and_cyclic_facts_end_quickly() -> None:
    """Objects shared by two parents are written twice, as JavaScript does; sharing that doubles at every
    level, or a cycle, is refused instead of written without end."""
    common = {"v": 1}
    facts: dict[str, Any] = {"a": {"x": common, "y": common}}
    for _ in range(2):
        assert _revision_text(facts) == (_state_text(facts), False)
    doubling: Any = [1]
    for _ in range(64):
        doubling = [doubling, doubling]
    cyclic: dict[str, Any] = {}
    cyclic["a"] = cyclic
    cyclic["b"] = cyclic
    provider = _state_provider()
    for bad in ({"k": doubling}, {"k": cyclic}, cyclic):
        with pytest.raises(ValueError):
            _revision_text(bad)
        with pytest.raises(AgentGraphError) as raised:
            ag.evaluate(provider, "main", facts=bad)
        assert raised.value.code == "json-invalid"
        with pytest.raises(ValueError):
            ag.canonical_json(bad)


def test_a_foreign_value_written_like_a_remembered_one_is_still_refused() -> None:
    """msgspec writes a dataclass as an object: same text as a remembered fact, but not JSON data."""
    import dataclasses

    @dataclasses.dataclass
    class Quiet:
        b: int

    @dataclasses.dataclass(eq=False)
    class Loud:
        b: int

        def __eq__(self, other: object) -> bool:
            raise RuntimeError("no comparisons")

    for _ in range(2):  # remembered with its plain copy
        _revision_text({"k": {"a": {"b": 1}}})
    for foreign in (Quiet(1), Loud(1)):
        with pytest.raises(TypeError):
            _revision_text({"k": {"a": foreign}})


# --------------------------------------------------------------------------- route IDs


def _route_id_by_definition(revision: str, graph: str, node: str, call_path: list[str]) -> str:
    token = digest_value({"revision": revision, "graph": graph, "node": node, "callPath": call_path})
    return "route:" + token[7:27]


@pytest.mark.parametrize(
    ("graph", "node", "call_path"),
    [
        ("main", "n1", []),
        ("quality", "verify", ["release/check", "check/quality"]),
        ('q"uote', "back\\slash", ["tab\there", "nl\nx", "\x00\x1f\x7f"]),
        ("é", "日本", ["\u2028\u2029", "😀"]),
        ("lone", "\ud800", ["\udc00x"]),
    ],
)
def test_route_ids_are_the_digest_of_their_canonical_token(
    graph: str, node: str, call_path: list[str]
) -> None:
    revision = "sha256:" + "ab" * 32
    assert make_route_id(revision, graph, node, call_path) == _route_id_by_definition(
        revision, graph, node, call_path
    )


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=8), st.text(max_size=8), st.text(max_size=8), st.lists(st.text(max_size=6), max_size=3)
)
def test_route_ids_match_their_definition_on_generated_names(
    revision: str, graph: str, node: str, call_path: list[str]
) -> None:
    assert make_route_id(revision, graph, node, call_path) == _route_id_by_definition(
        revision, graph, node, call_path
    )


# --------------------------------------------------------------------------- remembered evaluations


def _state_provider() -> Any:
    from tests import providers as P

    graph = P.graph_doc(
        "main",
        [
            P.action_node("check", satisfiedBy=[{"path": "x", "equals": None}]),
            P.action_node("zero", satisfiedBy=[{"path": "z", "equals": 0}]),
            P.terminal_node("end"),
        ],
        [P.edge("check", "zero"), P.edge("zero", "end")],
    )
    return P.build(graph, codes={"route.check": "Check x.", "route.zero": "Zero z."})


def _fresh_answer(facts: dict[str, Any]) -> bytes:
    return msgspec.json.encode(ag.evaluate(_state_provider(), "main", facts=facts))


def test_the_same_state_gives_the_remembered_answer_which_is_the_computed_one() -> None:
    provider = _state_provider()
    facts = {"x": None, "z": 1.5}
    first = ag.evaluate(provider, "main", facts=facts)
    assert ag.evaluate(provider, "main", facts=dict(reversed(list(facts.items())))) is first
    assert msgspec.json.encode(first) == _fresh_answer(facts)
    route = ag.route(provider, "main", revision=first.revision, facts=facts, workspace="/w")
    assert route.node == "zero"


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ({"x": float("nan")}, {"x": None}),  # both are null in canonical JSON
        ({"x": None, "z": -0.0}, {"x": None, "z": 0}),  # both are 0
        ({"x": None, "z": 0.0}, {"x": None, "z": 0}),
        ({"x": None, "z": 2**53 + 1}, {"x": None, "z": float(2**53 + 1)}),
    ],
)
def test_states_that_share_a_revision_but_not_a_value_are_each_evaluated(
    left: dict[str, Any], right: dict[str, Any]
) -> None:
    provider = _state_provider()
    one = ag.evaluate(provider, "main", facts=left)
    two = ag.evaluate(provider, "main", facts=right)
    assert one.revision == two.revision
    assert msgspec.json.encode(one) == _fresh_answer(left)
    assert msgspec.json.encode(two) == _fresh_answer(right)
    assert msgspec.json.encode(ag.evaluate(provider, "main", facts=left)) == _fresh_answer(left)


def test_a_provider_sharing_compiled_graphs_does_not_see_another_providers_answers() -> None:
    import dataclasses

    provider = _state_provider()
    first = ag.evaluate(provider, "main", facts={})
    assert first.primary_route is not None and first.primary_route.hint == "Check x."
    entry = provider.codes["route.check"]
    other = dataclasses.replace(
        provider, codes={**provider.codes, "route.check": msgspec.structs.replace(entry, summary="Other.")}
    )
    again = ag.evaluate(other, "main", facts={})
    assert again.primary_route is not None and again.primary_route.hint == "Other."


def test_answers_with_a_detail_are_not_shared_and_the_memo_stays_small() -> None:
    from tests import providers as P

    nodes = [P.action_node("start", satisfiedBy=[{"path": "go", "exists": True}])]
    nodes += [P.action_node(f"alt{i}") for i in range(6)]
    nodes.append(P.terminal_node("end", join="any"))
    edges = [P.edge("start", f"alt{i}") for i in range(6)] + [P.edge(f"alt{i}", "end") for i in range(6)]
    provider = P.build(P.graph_doc("fan", nodes, edges))
    first = ag.evaluate(provider, "fan", facts={"go": True})
    assert first.diagnostics[-1].code == "route-alternatives-truncated"
    first.diagnostics[-1].detail["returned"] = 99
    second = ag.evaluate(provider, "fan", facts={"go": True})
    assert second is not first and second.diagnostics[-1].detail == {"available": 5, "returned": 3}
    for turn in range(2 * EVALUATIONS_REMEMBERED):
        ag.evaluate(provider, "fan", facts={"turn": turn})
        assert len(provider.cache.evaluations) <= EVALUATIONS_REMEMBERED


# --------------------------------------------------------------------------- many candidates


def test_route_ids_made_per_frame_match_make_route_id() -> None:
    from types import SimpleNamespace

    from agent_graph._core.identity import route_ids

    revision = "sha256:" + "cd" * 32
    names = ("n1", 'q"uote', "é\u2028", "\udc00")
    nodes: Any = [SimpleNamespace(id=node_id) for node_id in names]
    for call_path in ((), ("main/call", "child/next")):
        for _ in range(2):  # the second time, the text around the node ID comes from the cache
            assert route_ids(revision, "graph", call_path, nodes) == [
                make_route_id(revision, "graph", node_id, call_path) for node_id in names
            ]
    assert route_ids("\ud800", "graph", (), nodes[:1]) == [make_route_id("\ud800", "graph", "n1", ())]


@pytest.mark.parametrize("count", [10, 200, 5000])
def test_ranking_by_groups_is_the_ranking_by_tuples(count: int) -> None:
    from types import SimpleNamespace

    from agent_graph._core.evaluate import _candidate_rank, rank_candidates

    rng = random.Random(count)
    candidates: list[Any] = [
        SimpleNamespace(
            availability=rng.choice(["immediate", "requires-user"]),
            node=SimpleNamespace(priority=rng.randint(-3, 3)),
            route_id=f"route:{rng.getrandbits(80):020x}",
        )
        for _ in range(count)
    ]
    assert rank_candidates(list(candidates)) == sorted(candidates, key=_candidate_rank)


def test_a_wide_fan_out_ranks_every_alternative_as_before() -> None:
    from tests import providers as P

    nodes = [P.action_node("start", satisfiedBy=[{"path": "go", "exists": True}])]
    nodes += [P.action_node(f"alt{i}", priority=i % 5) for i in range(150)]
    nodes += [P.gate_node(f"gate{i}", authority="a", delegatable=True, priority=i % 3) for i in range(50)]
    nodes.append(P.terminal_node("end", join="any"))
    alternatives = [n["id"] for n in nodes[1:-1]]
    edges = [P.edge("start", a) for a in alternatives] + [P.edge(a, "end") for a in alternatives]
    provider = P.build(P.graph_doc("fan", nodes, edges))
    from agent_graph._core.evaluate import _candidate_rank, evaluate_with_candidates

    for authorities in ([], ["a"]):
        evaluation, candidates = evaluate_with_candidates(
            provider, "fan", facts={"go": True}, authorities=authorities
        )
        assert candidates == sorted(candidates, key=_candidate_rank)
        assert len(candidates) == 200
        assert (
            evaluation.primary_route is not None
            and evaluation.primary_route.route_id == candidates[0].route_id
        )


def test_evaluating_and_loading_leave_the_garbage_collector_alone() -> None:
    """No library call switches the process-wide collector off, unless asked (``pause_gc=True``)."""
    import gc

    from agent_graph._load.loader import collector_paused
    from tests import providers as P

    provider = P.build(P.chain("main", 3000))
    seen: list[bool] = []
    gc.callbacks.append(lambda phase, info: seen.append(gc.isenabled()))
    try:
        assert gc.isenabled()
        assert ag.evaluate(provider, "main").primary_route is not None
        assert gc.isenabled()
    finally:
        gc.callbacks.pop()
    with pytest.raises(RuntimeError), collector_paused():
        assert not gc.isenabled()
        raise RuntimeError("inside")
    assert gc.isenabled()
