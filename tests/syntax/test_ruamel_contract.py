"""The parts of ruamel.yaml that the YAML event reader subclasses, pinned by shape.

:mod:`agent_graph._syntax.yaml_events` subclasses ruamel.yaml's ``Reader``,
``Scanner`` and ``Parser`` and overrides some of their methods; that is a bet
on internals, so ``pyproject.toml`` allows only the ruamel.yaml releases below
its next minor version. This test fails loudly when an installed release
changes the signature of a method we override or stop calling, or drops an
attribute our overrides read, before a wrong answer could.
"""

from __future__ import annotations

import inspect

import pytest
from ruamel.yaml.parser import Parser
from ruamel.yaml.reader import Reader
from ruamel.yaml.scanner import Scanner

from agent_graph._syntax.yaml_events import _EventSource

#: Every method the reader overrides, with the parameters ruamel.yaml's own method takes.
OVERRIDDEN = {
    (Reader, "_get_non_printable"): ["cls", "data"],
    (Scanner, "need_more_tokens"): ["self"],
    (Scanner, "stale_possible_simple_keys"): ["self"],
    (Scanner, "fetch_flow_collection_start"): ["self", "TokenClass", "to_push"],
    (Scanner, "scan_to_next_token"): ["self"],
    (Scanner, "scan_flow_scalar_breaks"): ["self", "double", "start_mark"],
    (Scanner, "scan_plain_spaces"): ["self", "indent", "start_mark"],
    (Scanner, "check_key"): ["self"],
    (Scanner, "check_plain"): ["self"],
    (Parser, "parse_implicit_document_start"): ["self"],
    (Scanner, "scan_tag"): ["self"],
    (Scanner, "scan_block_scalar_indicators"): ["self", "start_mark"],
}
#: Constructors called with keywords.
CONSTRUCTORS = {Reader: ["self", "stream", "loader"], Scanner: ["self", "loader"], Parser: ["self", "loader"]}


def _parameters(function: object) -> list[str]:
    target = function.__func__ if isinstance(function, classmethod) else function  # type: ignore[attr-defined]
    return list(inspect.signature(target).parameters)  # type: ignore[arg-type]


@pytest.mark.parametrize(("owner", "name"), sorted(OVERRIDDEN, key=lambda k: (k[0].__name__, k[1])))
def test_each_overridden_method_keeps_its_shape(owner: type, name: str) -> None:
    original = inspect.getattr_static(owner, name, None)
    assert original is not None, f"ruamel.yaml's {owner.__name__} no longer has {name}: review yaml_events.py"
    expected = OVERRIDDEN[(owner, name)]
    assert _parameters(original) == expected, (
        f"ruamel.yaml changed {owner.__name__}.{name}{inspect.signature(original)}: review the override in yaml_events.py"  # type: ignore[arg-type]
    )
    assert name in vars(_EventSource), f"{name} is listed here but no longer overridden"


def test_every_override_is_listed() -> None:
    bases = (Reader, Scanner, Parser)
    overridden = {
        name
        for name, value in vars(_EventSource).items()
        if callable(value) or isinstance(value, classmethod)
        if any(hasattr(base, name) for base in bases) and not name.startswith("__")
    }
    assert overridden == {name for _, name in OVERRIDDEN}


@pytest.mark.parametrize("owner", [Reader, Scanner, Parser])
def test_the_constructors_keep_their_shape(owner: type) -> None:
    parameters = list(inspect.signature(owner.__init__).parameters)
    assert parameters[: len(CONSTRUCTORS[owner])] == CONSTRUCTORS[owner]


def test_the_reader_still_reads_through_the_subclass() -> None:
    from agent_graph._syntax.yaml_events import parse_yaml_events

    value = parse_yaml_events("a: &x [1, 2]\nb: *x\nc: !!str 3\n", "t.yaml", 64, 100)
    assert value == {"a": [1, 2], "b": [1, 2], "c": "3"}
