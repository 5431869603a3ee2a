"""What agent-graph gives a test suite: drive a Run with an agent function, assert, freeze what was seen.

Everyday use::

    import agent_graph.testing as agtest

    def diligent(step):                        # a host's agent policy, as a test stands for it
        if step.evaluation.status_code == "waiting-user":
            return agtest.grant("report.publish")
        return agtest.record("completed", step.proof_facts({"report.digest": "sha256:1"}), deep=True)

    trace = agtest.drive(provider, "report", agent=diligent)
    agtest.assert_status(trace, "complete")
    trace.write_tests("tests/driven")          # one agent-graph.test.v1 file per state it saw

* :func:`drive` / :func:`drive_async` run a Run turn by turn on a Run store
  (a fresh in-memory one by default) until a terminal status or a turn budget,
  and answer the :class:`Trace`: each :class:`Turn`'s step, the agent's reply
  (:func:`record`, :func:`grant`, :func:`observe`) and the status after.
* :func:`assert_status` and :func:`assert_route` compare what the protocol
  answers and say what differed, field by field.
* :func:`provider_fixture` makes a pytest fixture of a builder, a Provider
  folder or a manifest; the pytest plugin adds ``agent_graph_store``, a fresh
  in-memory Run store per test.
* :class:`CoverageCollector` gathers the Graph coverage of evaluations and
  routes (the pytest plugin's ``--agent-graph-coverage`` uses it).
* :class:`MemoryProviderFileSystem`: build a Provider from dicts in memory.
* :mod:`agent_graph.testing.store_contract`: the Run store contract as a
  pytest suite (that submodule imports pytest).

Nothing here needs pytest to import; the kit's modules load on first use, so
the pytest plugin (which imports this package) costs other suites nothing.
"""

from __future__ import annotations

from .._core.graph_coverage import CoverageCollector as CoverageCollector
from .memory import MemoryProviderFileSystem as MemoryProviderFileSystem

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .._runtime.drive import (
        DriveOptions as DriveOptions,
        Grant as Grant,
        Observe as Observe,
        Record as Record,
        Reply as Reply,
        Trace as Trace,
        Turn as Turn,
        drive as drive,
        drive_async as drive_async,
        fresh_store as fresh_store,
        grant as grant,
        observe as observe,
        record as record,
    )
    from ._asserts import assert_route as assert_route, assert_status as assert_status
    from ._fixtures import load as load, provider_fixture as provider_fixture

#: The kit's names → the module that defines them, loaded on first use.
_LAZY: dict[str, str] = {
    **dict.fromkeys(
        (
            "DriveOptions",
            "Grant",
            "Observe",
            "Record",
            "Reply",
            "Trace",
            "Turn",
            "drive",
            "drive_async",
            "fresh_store",
            "grant",
            "observe",
            "record",
        ),
        "agent_graph._runtime.drive",
    ),
    "assert_route": "agent_graph.testing._asserts",
    "assert_status": "agent_graph.testing._asserts",
    "load": "agent_graph.testing._fixtures",
    "provider_fixture": "agent_graph.testing._fixtures",
}

__all__ = ["CoverageCollector", "MemoryProviderFileSystem", *sorted(_LAZY)]


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
