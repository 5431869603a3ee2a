"""What agent-graph publishes for hosts' tests, none of it needing pytest to import.

* :class:`CoverageCollector` gathers the Graph coverage of evaluations and
  routes (the pytest plugin's ``--agent-graph-coverage`` uses it).
* :class:`MemoryProviderFileSystem`: build a Provider from dicts in memory.
* :mod:`agent_graph.testing.store_contract`: the Run store contract as a
  pytest suite (that submodule imports pytest).
"""

from __future__ import annotations

from .._core.graph_coverage import CoverageCollector as CoverageCollector
from .memory import MemoryProviderFileSystem

__all__ = ["CoverageCollector", "MemoryProviderFileSystem"]
