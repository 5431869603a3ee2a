"""What agent-graph publishes for hosts' tests, none of it needing pytest to import.

* :class:`MemoryProviderFileSystem`: build a Provider from dicts in memory.
* :mod:`agent_graph.testing.store_contract`: the Run store contract as a
  pytest suite (that submodule imports pytest).
"""

from .memory import MemoryProviderFileSystem

__all__ = ["MemoryProviderFileSystem"]
