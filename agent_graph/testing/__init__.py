"""What agent-graph publishes for hosts' tests.

:class:`CoverageCollector` gathers the Graph coverage of evaluations and routes
(the pytest plugin's ``--agent-graph-coverage`` uses it);
:mod:`agent_graph.testing.store_contract` is the suite a Run store passes.
"""

from __future__ import annotations

from .._core.graph_coverage import CoverageCollector as CoverageCollector

__all__ = ["CoverageCollector"]
