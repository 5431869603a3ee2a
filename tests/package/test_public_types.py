"""Every type a host meets in a public result or argument is exported from ``agent_graph`` or ``agent_graph.types``.

A host that writes ``ag.Route`` or ``agt.RunEvent`` in its annotations (and
``mypy --strict`` over them) needs the name; these tests walk the annotations
of every public function and every exported class and fail on a type defined
in the package but not exported under its own name (on ``agent_graph`` or one of
its public submodules). The names that moved to a submodule are still
importable from the top for one release, with a ``DeprecationWarning``.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import typing
from typing import Any

import msgspec
import pytest

import agent_graph as ag
import agent_graph.types as agt
from tests.providers import action_node, build, edge, gate_node, graph_doc, terminal_node

PUBLIC = {name: getattr(ag, name) for name in ag.__all__}
#: The names of the public submodules (``agent_graph.types``, ``.errors``, ``.toolchain``, ``.testing``).
TYPES = {
    name: getattr(module, name)
    for module in (getattr(ag, submodule) for submodule in ag._SUBMODULES)
    for name in module.__all__
}
FUNCTIONS = {name: value for name, value in PUBLIC.items() if inspect.isfunction(value)}
CLASSES = {name: value for name, value in PUBLIC.items() if isinstance(value, type)}


def _hints(target: Any) -> dict[str, Any]:
    """Resolved annotations; names a module imports only for type checking resolve through ``agent_graph``."""
    module = inspect.getmodule(target)
    namespace = {**TYPES, **PUBLIC, **(vars(module) if module is not None else {})}
    if isinstance(target, type):  # a field a base class declares resolves in the base's own module too
        return typing.get_type_hints(target, localns=namespace)
    return typing.get_type_hints(target, globalns=namespace)


def _types_in(annotation: Any) -> set[type]:
    """The classes an annotation mentions, through unions, generics and Literal-free aliases."""
    found: set[type] = set()
    stack = [annotation]
    while stack:
        item = stack.pop()
        if isinstance(item, type) and not typing.get_args(item):
            found.add(item)
        stack.extend(arg for arg in typing.get_args(item) if not isinstance(arg, str))
        origin = typing.get_origin(item)
        if isinstance(origin, type):
            found.add(origin)
    return found


def _field_hints(cls: type) -> dict[str, Any]:
    """The annotated fields a user sets or reads (a dataclass's ``init=False`` fields are its own business)."""
    if issubclass(cls, msgspec.Struct):
        return _hints(cls)
    if dataclasses.is_dataclass(cls):
        internal = {f.name for f in dataclasses.fields(cls) if not f.init}
        return {name: hint for name, hint in _hints(cls).items() if name not in internal}
    return {}


def _ours(cls: type) -> bool:
    return cls.__module__.startswith("agent_graph")


def test_every_public_name_resolves() -> None:
    assert len(PUBLIC) == len(ag.__all__)
    assert set(ag.__all__) <= set(dir(ag))


def test_every_type_reachable_from_the_public_api_is_exported() -> None:
    seen: set[type] = set()
    stack: list[tuple[str, type]] = []
    functions = {**FUNCTIONS, **{name: value for name, value in TYPES.items() if inspect.isfunction(value)}}
    for name, function in functions.items():
        for hint in _hints(function).values():
            stack.extend((name, cls) for cls in _types_in(hint) if _ours(cls))
    stack.extend((name, cls) for name, cls in CLASSES.items() if _ours(cls))
    stack.extend((name, cls) for name, cls in TYPES.items() if isinstance(cls, type) and _ours(cls))
    missing: dict[str, str] = {}
    while stack:
        where, cls = stack.pop()
        if cls in seen:
            continue
        seen.add(cls)
        if PUBLIC.get(cls.__name__) is not cls and TYPES.get(cls.__name__) is not cls:
            missing[cls.__name__] = where
        for field_name, hint in _field_hints(cls).items():
            stack.extend((f"{cls.__name__}.{field_name}", inner) for inner in _types_in(hint) if _ours(inner))
    assert not missing, f"types used by the public API but not exported: {missing}"
    assert len(seen) > 60


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_no_public_function_takes_a_provider_as_any(name: str) -> None:
    hints = _hints(FUNCTIONS[name])
    for parameter in inspect.signature(FUNCTIONS[name]).parameters:
        if parameter == "provider":
            assert hints[parameter] is not Any, name
            assert ag.Provider in _types_in(hints[parameter]), name


def test_plan_steps_route_parts_and_locations_are_the_exported_classes() -> None:
    provider = build(
        graph_doc(
            "main",
            [action_node("a", "cmd"), gate_node("g"), terminal_node("t")],
            [edge("a", "g"), edge("g", "t")],
        )
    )
    route = ag.route(provider, "main", workspace="/ws")
    assert isinstance(route, ag.Route)
    assert isinstance(route.command_plan[0], agt.CommandStep)
    assert isinstance(route.action, agt.RouteAction)
    assert isinstance(route.resources, agt.RouteResources)
    assert isinstance(route.after_action, agt.AfterAction)
    for location in route.resources.required:
        assert isinstance(location, (agt.FileLocation, agt.GraphActionLocation, agt.HostActionLocation))
        assert location.read_state in ("current", "read-required")
    gate_route = ag.route(provider, "main", outcomes={"main/a": "completed"}, workspace="/ws")
    assert isinstance(gate_route.gate, agt.RouteGate)
    assert gate_route.gate.resolution == "user"


def test_route_fields_that_are_always_present_are_not_optional() -> None:
    hints = typing.get_type_hints(ag.Route)
    always = [
        "schema",
        "provider",
        "revision",
        "route_id",
        "graph",
        "node",
        "status_code",
        "reason_code",
        "availability",
        "call_path",
        "command_plan",
        "resources",
        "diagnostics",
        "after_action",
    ]
    for name in always:
        assert type(None) not in typing.get_args(hints[name]), name
    for cls in (agt.FileLocation, agt.GraphActionLocation, agt.HostActionLocation):
        location_hints = typing.get_type_hints(cls)
        assert type(None) not in typing.get_args(location_hints["read_state"]), cls
    for cls in (agt.GraphActionLocation, agt.HostActionLocation):
        assert typing.get_type_hints(cls)["revision"] is str, cls


def test_the_names_that_moved_still_import_from_the_top_for_one_release_with_a_warning() -> None:
    import warnings

    moved = {name: module for name, module in ag._EXPORTS.items() if not module.startswith("_")}
    assert {"Bundle", "Diagnostic", "RunHead", "build_bundle", "CoverageCollector"} <= set(moved)
    for name, module in moved.items():
        home = importlib.import_module(f"agent_graph.{module}")
        assert name in home.__all__ and name not in ag.__all__ and name not in dir(ag)
        with pytest.warns(
            DeprecationWarning, match=rf"agent_graph\.{name} is deprecated.*agent_graph\.{module}"
        ):
            value = getattr(ag, name)
        assert value is getattr(home, name)
    with pytest.warns(DeprecationWarning, match="agent_graph.types"):
        from agent_graph import RunHead
    assert RunHead is agt.RunHead
    assert not hasattr(
        ag, "RunStore"
    )  # deprecated for a release (FileRunStore is the same class), then removed
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the everyday names and the public modules never warn
        for name in ag.__all__:
            getattr(ag, name)
        assert ag.types is agt


def test_the_names_deprecated_before_are_gone() -> None:
    from agent_graph._load import loader

    for name in ("Edge", "Node", "Graph", "RouteAction", "OUTCOMES", "Severity", "run_evaluation_input"):
        with pytest.raises(AttributeError, match=name):
            getattr(ag, name)
    assert agt.Edge is not None and agt.OUTCOMES  # the wire types stay in agent_graph.types
    with pytest.raises(AttributeError):
        loader.LoadLimits  # noqa: B018
    with pytest.raises(AttributeError):
        ag.NoSuchName  # noqa: B018
