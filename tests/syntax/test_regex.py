"""User JSON Schema patterns: ECMAScript meaning, linear time, and refusal of what an automaton cannot do.

The linear matcher is compared with Python's ``re`` running the same pattern
rewritten by :func:`ecma_regex` (which backtracks, but answers the same) on
generated patterns and texts; catastrophic patterns run on 10,000-character
texts under an alarm; patterns the matcher cannot take are refused with
``schema-pattern-unsupported``, at load for a Provider's host-action schemas.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import agent_graph as ag
from agent_graph._syntax.compile import _email, _idn_email
from agent_graph._syntax.regex import MAX_STATES, EcmaPattern, PatternError
from agent_graph._syntax.schema import ecma_regex, validate_with_schema
from tests.in_process import within


def python_answer(pattern: str, text: str, *, anchored: bool = False) -> bool:
    compiled = re.compile(ecma_regex(pattern))
    return (compiled.match(text) if anchored else compiled.search(text)) is not None


# ---------------------------------------------------------------- generated patterns against re

_ATOMS = st.sampled_from(
    [
        "a",
        "b",
        ".",
        "\\d",
        "\\w",
        "\\s",
        "\\D",
        "\\W",
        "\\S",
        "[ab]",
        "[^a]",
        "[a-c]",
        "[\\d.]",
        "\\.",
        "\\n",
        "x",
        "é",
        "[]",
        "[^]",
        "\\u0061",
        "\\x62",
        "\\t",
    ]
)
_QUANTIFIERS = st.sampled_from(
    ["", "", "", "*", "+", "?", "{2}", "{1,3}", "{0,2}", "{2,}", "*?", "+?", "{1,2}?"]
)


def _pattern(draw: Any, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 9))
        if kind == 0 and depth < 3:
            inner = "|".join(_pattern(draw, depth + 1) for _ in range(draw(st.integers(1, 3))))
            atom = f"({inner})" if draw(st.booleans()) else f"(?:{inner})"
        elif kind == 1:
            atom = draw(st.sampled_from(["^", "$", "\\b", "\\B"]))
            parts.append(atom)
            continue
        else:
            atom = draw(_ATOMS)
        parts.append(atom + draw(_QUANTIFIERS))
    return "".join(parts)


patterns = st.composite(_pattern)()
texts = st.text(alphabet="ab.x1 \né\t_-", max_size=14)


@settings(max_examples=300, deadline=None)
@given(patterns, texts)
@pytest.mark.slow
def test_generated_patterns_answer_as_ecmascript_does(pattern: str, text: str) -> None:
    compiled = EcmaPattern(pattern)
    assert (compiled.search(text) is not None) == python_answer(pattern, text), (pattern, text)
    assert (compiled.match(text) is not None) == python_answer(pattern, text, anchored=True), (pattern, text)


@settings(max_examples=150, deadline=None)
@given(patterns, st.lists(texts, min_size=2, max_size=6))
def test_a_compiled_pattern_answers_each_text_on_its_own(pattern: str, many: list[str]) -> None:
    """The remembered transitions of earlier texts never change a later answer."""
    compiled = EcmaPattern(pattern)
    for text in many + many[::-1]:
        assert (compiled.search(text) is not None) == python_answer(pattern, text), (pattern, text)


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        ("^a$", "a\n", False),  # $ only at the very end
        ("^.$", "\u2028", False),  # . stops at every line terminator
        ("^.$", "\u0085", True),
        ("^\\s$", "\ufeff", True),  # ECMAScript white space, not Python's
        ("^\\s$", "\x1c", False),
        ("^\\s$", "\u0085", False),
        ("^\\w$", "é", False),  # ASCII word characters
        ("^\\d$", "٣", False),
        ("\\bé", "é", False),  # é is no word character, so no boundary before it
        ("a\\b", "aé", True),
        ("^[\\b]$", "\b", True),  # backspace inside a class
        ("^\\cJ$", "\n", True),
        ("^\\u{1F600}$", "\U0001f600", True),
        ("^\\ud83d\\ude00$", "\U0001f600", True),
        ("^a{,2}$", "a{,2}", True),  # not a quantifier: literal characters
        ("^x{$", "x{", True),
        ("^]$", "]", True),
        ("[]", "anything", False),
        ("^[^]$", "\n", True),
        ("^(?<year>[0-9]{4})-", "2026-", True),
        ("^(a+)+$", "a" * 40, True),
    ],
)
def test_ecmascript_meanings(pattern: str, text: str, expected: bool) -> None:
    assert (EcmaPattern(pattern).search(text) is not None) is expected


@pytest.mark.parametrize(
    "pattern",
    [
        "^(a+)+$",
        "^(a|a)*$",
        "^(a|aa)+$",
        "(x+x+)+y",
        "^(\\w+\\s?)*$",
        "^(.*a){12}$",
        "(a*)*b",
        "^([a-z]+)*[0-9]$",
        "\\d+\\d+\\d+x",
        "^(?:a?){30}a{30}$",
        "(.*.*)*=",
        "^(\\d+|\\w+)*!$",
    ],
)
def test_catastrophic_patterns_end_quickly_on_ten_thousand_characters(pattern: str) -> None:
    compiled = EcmaPattern(pattern)
    for text in ("a" * 10_000 + "!", "a" * 10_000, "1" * 10_000 + "b", "x" * 10_000, "ab " * 3_400):
        with within():
            answer = compiled.search(text) is not None
        if len(text) <= 10_001 and pattern in ("^(a+)+$", "^(a|a)*$"):
            assert answer is (set(text) == {"a"})


@pytest.mark.parametrize(
    ("pattern", "unsupported"),
    [
        ("(a)\\1", True),
        ("(?<n>a)\\k<n>", True),
        ("(?=a)a", True),
        ("(?!a)b", True),
        ("(?<=a)b", True),
        ("(?<!a)b", True),
        ("\\p{L}", True),
        ("(a{1000}){1000}", True),
        ("a{99999}", True),
        ("(", False),
        ("a)", False),
        ("*a", False),
        ("a**", False),
        ("[b-a]", False),
        ("^*", False),
        ("a{3,1}", False),
        ("[a", False),
        ("\\", False),
        ("(?x)", False),
    ],
)
def test_patterns_an_automaton_cannot_take_are_refused(pattern: str, unsupported: bool) -> None:
    with pytest.raises(PatternError) as caught:
        EcmaPattern(pattern)
    assert caught.value.unsupported is unsupported
    code = "schema-pattern-unsupported" if unsupported else "schema-document-invalid"
    with pytest.raises(ag.AgentGraphError) as refused:
        validate_with_schema({"type": "string", "pattern": pattern}, "a", "value", name="test schema")
    assert refused.value.code == code
    with pytest.raises(ag.AgentGraphError) as keyed:
        validate_with_schema({"patternProperties": {pattern: {}}}, {}, "value", name="test schema")
    assert keyed.value.code == code


def test_the_state_limit_is_the_written_out_size() -> None:
    EcmaPattern(f"a{{{MAX_STATES - 10}}}")
    with pytest.raises(PatternError):
        EcmaPattern(f"(ab){{{MAX_STATES}}}")


def test_user_schemas_validate_with_the_linear_matcher() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string", "pattern": "^(a+)+$"}},
        "patternProperties": {"^(x+)+$": {"type": "integer"}},
    }
    with within():
        validate_with_schema(schema, {"name": "a" * 10_000, "x" * 10_000: 1}, "value", name="s")
        with pytest.raises(ag.AgentGraphError) as caught:
            validate_with_schema(schema, {"name": "a" * 10_000 + "!"}, "value", name="s")
        assert caught.value.code == "schema-invalid"
        assert [d.code for d in caught.value.diagnostics] == ["schema.pattern"]
        with pytest.raises(ag.AgentGraphError) as keyed:
            validate_with_schema(schema, {"x" * 10_000: "not an integer"}, "value", name="s")
        assert [d.code for d in keyed.value.diagnostics] == ["schema.type"]


# ---------------------------------------------------------------- formats


EMAIL = re.compile(r"^(?!.*\.\..*@)[^@.][^@]*(?<!\.)@[^@]+\.[^@]+\Z")
IDN_EMAIL = re.compile(r"^[^@]+@[^@]+\.[^@]+\Z")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="a.@\nb", max_size=12))
def test_email_formats_answer_as_their_regular_expressions(text: str) -> None:
    assert _email(text) == (EMAIL.match(text) is not None), text
    assert _idn_email(text) == (IDN_EMAIL.match(text) is not None), text


@pytest.mark.parametrize(
    "fmt", ["email", "idn-email", "hostname", "uri", "json-pointer", "uri-template", "date-time"]
)
def test_formats_end_quickly_on_long_strings(fmt: str) -> None:
    for text in ("a@" + "." * 20_000 + "@", "." * 20_000, "a." * 10_000 + "!", "/" + "a" * 20_000 + "~"):
        with within(), contextlib.suppress(ag.AgentGraphError):  # valid or not: an answer, quickly
            validate_with_schema({"type": "string", "format": fmt}, text, "value", name="format")


# ---------------------------------------------------------------- deep schemas


@pytest.mark.parametrize("depth", [25, 60, 300, 3000])
def test_deep_valid_schemas_fall_back_to_the_collector(depth: int) -> None:
    schema: Any = {"type": "integer"}
    good: Any = 1
    bad: Any = "x"
    for _ in range(depth):
        schema = {"type": "array", "items": schema}
        good = [good]
        bad = [bad]
    with within():
        validate_with_schema(schema, good, "value", name="deep schema")
        with pytest.raises(ag.AgentGraphError) as caught:
            validate_with_schema(schema, bad, "value", name="deep schema")
    assert caught.value.code == "schema-invalid"
    assert [d.code for d in caught.value.diagnostics] == ["schema.type"]


# ---------------------------------------------------------------- a Provider's host-action schemas


def _host_provider(tmp_path: Any, output_pattern: str, input_pattern: str = "^[0-9]{4}-W[0-9]{2}$") -> Any:
    import copy

    from tests.runtime import test_host_action as host

    files = copy.deepcopy(host.FILES)
    files["schemas/report.schema.json"]["properties"]["title"]["pattern"] = output_pattern
    files["schemas/request.schema.json"]["properties"]["week"]["pattern"] = input_pattern
    return host.write_files(tmp_path / "p", files)


def test_a_catastrophic_output_pattern_ends_quickly_with_its_code(tmp_path: Any) -> None:
    from agent_graph._core.model import HostActionLocation
    from agent_graph._runtime.host_action import validate_host_action_result
    from tests.runtime import test_host_action as host

    provider = ag.load_provider(str(_host_provider(tmp_path, "^(a+)+$")))
    location = ag.route(provider, "main", workspace=str(tmp_path)).resources.required[0]
    assert isinstance(location, HostActionLocation)
    with within():
        good = host.inline_result(output={"schema": host.OUTPUT_SCHEMA, "inline": {"title": "a" * 10_000}})
        validate_host_action_result(location, good, provider=provider)
        bad = host.inline_result(
            output={"schema": host.OUTPUT_SCHEMA, "inline": {"title": "a" * 10_000 + "!"}}
        )
        with pytest.raises(ag.AgentGraphError) as caught:
            validate_host_action_result(location, bad, provider=provider)
    assert caught.value.code == "host-action-output-inline-invalid"


@pytest.mark.parametrize("which", ["output", "input"])
def test_a_pattern_the_matcher_cannot_take_is_refused_when_the_provider_loads(
    tmp_path: Any, which: str
) -> None:
    backreference = "^(a)\\1$"
    manifest = (
        _host_provider(tmp_path, backreference)
        if which == "output"
        else _host_provider(tmp_path, "^.*$", backreference)
    )
    with pytest.raises(ag.AgentGraphError) as caught:
        ag.load_provider(str(manifest))
    assert caught.value.code == "schema-pattern-unsupported"
    assert "report.schema.json" in caught.value.message or "request.schema.json" in caught.value.message


@pytest.mark.slow
def test_a_match_that_would_cost_too_much_stops_with_its_code() -> None:
    """A pattern whose live states keep changing, on a long text: bounded work, a specific code."""
    import random

    chooser = random.Random(7)
    text = "".join(chooser.choice("ab") for _ in range(20_000))
    with within(), pytest.raises(ag.AgentGraphError) as caught:
        validate_with_schema({"type": "string", "pattern": "[ab]*a[ab]{3000}c"}, text, "value", name="costly")
    assert caught.value.code == "schema-pattern-too-costly"
    # the same pattern on a short text answers
    with pytest.raises(ag.AgentGraphError) as short:
        validate_with_schema(
            {"type": "string", "pattern": "[ab]*a[ab]{3000}c"}, "ab" * 10, "value", name="costly"
        )
    assert short.value.code == "schema-invalid"
