"""Fuzz-only targets: YAML built from a grammar, and whole Providers assembled from hostile parts.

Each target is a Hypothesis test (settings come from the environment the
runner sets up, as for ``tests/core/test_properties.py``). A target passes when the
library answers or raises :class:`agent_graph.AgentGraphError`, and, when it
answers, the answer is consistent (a parsed value has canonical JSON, a loaded
Provider evaluates and routes every candidate at its revision).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

import agent_graph as ag
from agent_graph._core.evaluate import evaluate_with_candidates
from agent_graph._syntax.parse import parse_front_matter, parse_structured, parse_yaml
from tests import load_fixtures, strategies as S

EXAMPLES = int(os.environ.get("AGENT_GRAPH_EXAMPLES", "200"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)

# ------------------------------------------------------------------ a small YAML grammar

_PLAIN = st.sampled_from(
    [
        "a",
        "b",
        "id",
        "schema",
        "main",
        "x y",
        "1",
        "-0",
        "0o17",
        "0x1F",
        "1_000",
        "1e400",
        ".inf",
        ".NaN",
        "~",
        "null",
        "true",
        "yes",
        "2001-12-14",
        "<<",
        "'q'",
        '"d"',
        '"\\u00e9"',
        '"\\ud800"',
        '"\\x41"',
        "!!int '7'",
        "!!float 1",
        "!!str 5",
        "!custom v",
        "9" * 40,
    ]
)
_ANCHORS = st.sampled_from(["&a ", "&b ", ""])
_ALIASES = st.sampled_from(["*a", "*b"])


def _flow(depth: int) -> st.SearchStrategy[str]:
    if depth <= 0:
        return st.one_of(_PLAIN, _ALIASES)
    inner = _flow(depth - 1)
    return st.one_of(
        _PLAIN,
        _ALIASES,
        st.builds(lambda a, items: a + "[" + ", ".join(items) + "]", _ANCHORS, st.lists(inner, max_size=4)),
        st.builds(
            lambda a, pairs: a + "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}",
            _ANCHORS,
            st.lists(st.tuples(_PLAIN, inner), max_size=4),
        ),
    )


@st.composite
def yaml_documents(draw: st.DrawFn) -> str:
    """Block mappings and sequences of flow values, with anchors, aliases, tags, comments and odd indentation."""
    lines: list[str] = []
    if draw(st.booleans()):
        lines.append(
            draw(st.sampled_from(["%YAML 1.2", "---", "--- # start", "%TAG !e! tag:example.com,2000:"]))
        )
    for _ in range(draw(st.integers(1, 8))):
        indent = " " * draw(st.sampled_from([0, 0, 2, 4, 1, 3]))
        key = draw(_PLAIN)
        value = draw(_flow(2))
        form = draw(st.integers(0, 6))
        if form == 0:
            lines.append(f"{indent}{key}: {draw(_ANCHORS)}{value}")
        elif form == 1:
            lines.append(f"{indent}- {value}")
        elif form == 2:
            lines.append(f"{indent}{key}: |")
            lines.append(f"{indent}  {value}")
        elif form == 3:
            lines.append(f"{indent}{key}: >-")
            lines.append(f"{indent}  {value}")
        elif form == 4:
            lines.append(f"{indent}? {key}")
            lines.append(f"{indent}: {value}")
        elif form == 5:
            lines.append(f"{indent}{key}: {value} # comment")
        else:
            lines.append(f"{indent}{key}:")
            lines.append(f"{indent}  - {value}")
    if draw(st.booleans()):
        lines.append(draw(st.sampled_from(["...", "---", "--- more", "\t- tab"])))
    separator = draw(st.sampled_from(["\n", "\r\n", "\n", "\r"]))
    return separator.join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))


@FUZZ
@given(yaml_documents())
def test_yaml_from_a_grammar(text: str) -> None:
    try:
        value = parse_yaml(text, "fuzz.yaml")
    except ag.AgentGraphError as error:
        assert error.code == "parse-failed", error
        return
    ag.canonical_json(value)
    assert parse_yaml(text, "fuzz.yaml") == value or value != value


@FUZZ
@given(yaml_documents())
def test_front_matter_from_a_grammar(text: str) -> None:
    try:
        parse_front_matter(f"---\n{text}\n---\nbody\n", "fuzz.md")
    except ag.AgentGraphError as error:
        assert error.code in ("frontmatter-invalid", "frontmatter-missing"), error


# ------------------------------------------------------------------ corpus mutations


def _corpus_texts() -> list[bytes]:
    folder = Path(__file__).resolve().parents[1] / "tests" / "adversarial"
    return [p.read_bytes() for p in sorted(folder.iterdir()) if p.suffix in (".yaml", ".json")]


@FUZZ
@given(st.sampled_from(_corpus_texts()).flatmap(S.mangled_bytes), st.sampled_from(["x.yaml", "x.json"]))
def test_mutated_corpus_files_parse_or_fail_cleanly(data: bytes, name: str) -> None:
    try:
        value = parse_structured(data, name)
    except ag.AgentGraphError as error:
        assert error.code in ("parse-failed", "file-encoding-invalid"), error
        return
    ag.canonical_json(value)


# ------------------------------------------------------------------ whole Providers from hostile parts


@FUZZ
@given(st.data())
def test_providers_assembled_from_hostile_parts(data: st.DataObject) -> None:
    """A valid Provider with several files replaced by corpus files, grammar YAML or mangled originals."""
    documents: dict[str, Any] = load_fixtures.base_documents()
    corpus = _corpus_texts()
    for relative in data.draw(
        st.lists(st.sampled_from(sorted(documents)), min_size=1, max_size=3, unique=True)
    ):
        source = data.draw(st.integers(0, 2))
        if source == 0:
            documents[relative] = data.draw(st.sampled_from(corpus))
        elif source == 1:
            documents[relative] = data.draw(yaml_documents()).encode("utf-8", "surrogatepass")
        else:
            documents[relative] = data.draw(S.mangled_bytes(load_fixtures.render(documents[relative])))
    files = {
        f"{load_fixtures.ROOT}/{path}": document
        if isinstance(document, (bytes, str))
        else S.render_json(document)
        for path, document in documents.items()
    }
    try:
        provider = ag.load_provider(load_fixtures.MANIFEST, fs=ag.MemoryFileSystem(files))
    except ag.AgentGraphError as error:
        assert error.code != "internal-error"
        return
    for graph_id, compiled in provider.graphs.items():
        for entry in compiled.entrypoints:
            evaluation, candidates = evaluate_with_candidates(provider, graph_id, entry)
            for candidate in candidates:
                ag.route(
                    provider,
                    graph_id,
                    entry,
                    candidate.route_id,
                    revision=evaluation.revision,
                    workspace="/w",
                )


@FUZZ
@given(S.scenarios(max_nodes=14), st.data())
def test_big_generated_providers_with_hostile_states(scenario: tuple[Any, ...], data: st.DataObject) -> None:
    """Larger Graphs than the normal suite uses; every candidate routes at its revision."""
    files, facts, outcomes, authorities, entry = scenario
    provider = S.load_files(files)
    evaluation, candidates = evaluate_with_candidates(provider, S.MAIN, entry, facts, outcomes, authorities)
    for candidate in candidates:
        route = ag.route(
            provider,
            S.MAIN,
            entry,
            candidate.route_id,
            facts=facts,
            outcomes=outcomes,
            authorities=authorities,
            revision=evaluation.revision,
            workspace="/w",
        )
        assert route.route_id == candidate.route_id
