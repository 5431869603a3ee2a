"""The storage seam: what a Run store of your own implements (``import agent_graph.storage as ags``).

A Run store is a face (:class:`BaseRunStore`, or :class:`AsyncRunStore` with
coroutines) over a storage. The face does every check, the revision guard,
the Run transitions and the bookkeeping; a storage keeps Runs and gives them
back, in eight methods:

=====================================  ==============================================================
``read_head(ref)``                     the Run's head (:class:`StoredHead`), ``run-missing`` if none
``read_events(ref, after, limit)``     the head and a page of events (:class:`StoredPage`)
``append(ref, write)``                 hold the Run, ``write(head)``, keep its :class:`Appended` whole
``create(new)``                        keep a :class:`NewRun`, ``run-target-exists`` if its ID is taken
``list_runs(query)``                   a :class:`~agent_graph.types.RunSummary` per Run (:class:`RunQuery`)
``checkpoint(ref, name, write)``       hold the Run, ``write(run, name)``, keep both parts of :class:`Checkpointed`
``read_checkpoint(name)``              a checkpoint (:class:`StoredCheckpoint`)
``close()``                            release what the storage holds
=====================================  ==============================================================

Subclass :class:`RunStorage` (blocking) or :class:`AsyncRunStorage` (the same
methods as coroutines); ``BaseRunStore(storage)`` / ``AsyncRunStore(storage)``
is then a store that passes ``agent_graph.testing.store_contract``. Register a
URL scheme for it with a :class:`StoreScheme` under the entry-point group
``agent_graph.stores``, and ``open_store``, the command line and ``agent-graph
mcp`` find it. docs/host-integration.md walks through one, the memory store
(:class:`~agent_graph.MemoryRunStore`, ``agent_graph/_runtime/runs_memory.py``).
"""

from __future__ import annotations

from ._runtime import run_storage as _seam
from ._runtime.run_storage import *  # noqa: F403 - the names of the seam's own __all__
from ._runtime.run_store import BaseRunStore as BaseRunStore
from ._runtime.run_store_async import AsyncRunStore as AsyncRunStore, ThreadedStorage as ThreadedStorage
from ._runtime.store_scheme import StoreScheme as StoreScheme
from ._runtime.stores import ENTRY_POINTS as ENTRY_POINTS, installed_schemes as installed_schemes

__all__ = [
    "ENTRY_POINTS",
    "AsyncRunStore",
    "BaseRunStore",
    "StoreScheme",
    "ThreadedStorage",
    "installed_schemes",
]
__all__ += _seam.__all__
