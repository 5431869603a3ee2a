"""Both Run store faces are made of one definition per operation: same parameters, same docs, typed per face."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import agent_graph as ag
from agent_graph._runtime.run_methods import RunStoreMethods, StoreMethod
from tests.typecheck import assert_refused_exactly

OPERATIONS = sorted(name for name, value in vars(RunStoreMethods).items() if isinstance(value, StoreMethod))


def test_every_public_operation_is_on_both_faces() -> None:
    assert set(OPERATIONS) == {
        "checkpoint",
        "events",
        "export",
        "fork",
        "head",
        "import_run",
        "list",
        "load",
        "next_step",
        "record",
        "resume",
        "start",
        "update_authorities",
        "update_facts",
    }


@pytest.mark.parametrize("name", OPERATIONS)
def test_both_faces_show_the_operations_own_parameters_answer_and_docs(name: str) -> None:
    blocking, coroutine = getattr(ag.BaseRunStore, name), getattr(ag.AsyncRunStore, name)
    operation = getattr(RunStoreMethods, f"op_{name}")
    for method in (blocking, coroutine):
        signature = inspect.signature(method)
        assert list(signature.parameters.values()) == list(inspect.signature(operation).parameters.values())
        assert not any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in signature.parameters.values())
        answer = str(signature.return_annotation)
        assert answer and not answer.startswith("Operation"), answer
        assert method.__name__ == name
        assert method.__doc__ == operation.__doc__ and method.__doc__
    assert not inspect.iscoroutinefunction(blocking)
    assert inspect.iscoroutinefunction(coroutine)
    assert "async " + name in _help(ag.AsyncRunStore)
    assert _flat(f"{name}{inspect.signature(blocking)}") in _flat(_help(ag.BaseRunStore))


def _help(cls: type) -> str:
    import pydoc

    return pydoc.render_doc(cls, renderer=pydoc.plaintext)


def _flat(text: str) -> str:
    """``text`` with pydoc's margins and line breaks gone (Python 3.13 wraps a long signature over lines)."""
    import re

    text = re.sub(r"\s*\n\s*\|?\s*", " ", text)
    return re.sub(r"\(\s+", "(", re.sub(r",?\s+\)", ")", text))


def test_a_bound_operation_is_called_with_its_own_parameters() -> None:
    with ag.open_store("memory://") as store:
        parameters = list(inspect.signature(store.record).parameters)
        assert parameters[:3] == ["ref", "node", "outcome"] and "self" not in parameters
        with pytest.raises(TypeError):
            store.load("a", None, "too many")  # type: ignore[call-arg]


_USER_FILE = """
import asyncio

import agent_graph as ag
import agent_graph.types as agtypes


def blocking(store: ag.BaseRunStore) -> ag.RunHead:
    run: ag.Run = store.load("r")
    page: agtypes.RunPage = store.list(newest_first=True)
    assert run and page is not None
    return store.record("r", "n", "completed", revision="sha256:0")


async def asynchronous(store: ag.AsyncRunStore) -> ag.Run:
    head: ag.RunHead = await store.head("r")
    assert head
    return await asyncio.create_task(store.load("r"))
"""

_MISTAKES = {
    'store.record("r", 3, "completed")': "a node that is not a string",
    'store.load("r", "p", "extra")': "too many arguments",
    'store.list(limit="10")': "a limit that is not a number",
    'head: ag.Run = store.head("r")': "a head is not a Run",
    'run: ag.Run = astore.load("r")': "a coroutine is not its answer",
}


@pytest.mark.slow
def test_a_users_type_checker_sees_each_faces_own_signature_and_answer(tmp_path: Path) -> None:
    user = _USER_FILE + "\n\ndef mistakes(store: ag.BaseRunStore, astore: ag.AsyncRunStore) -> None:\n"
    assert_refused_exactly(user + "    assert store and astore\n", _MISTAKES, tmp_path, indent="    ")
