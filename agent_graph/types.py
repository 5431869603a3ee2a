"""The types of what agent-graph reads and answers: the protocol's wire types and our own results.

``import agent_graph.types as agt`` for annotations and ``isinstance`` checks of
everything the library reads and answers: Graphs, Actions, resources, locations,
routes, Runs and their heads and events, bundles, tests, coverage, explanations,
replays, lint and verify findings, the impact of a new version, and their parts. The everyday API — load, evaluate,
route, the Run stores, errors and the main results (:class:`Evaluation`,
:class:`Route`, :class:`Step`, :class:`Run`) — is on ``agent_graph`` itself.

Every Struct is frozen; ``msgspec.json.encode`` writes its wire JSON (camelCase
keys, absent fields omitted, the protocol's field order).
"""

from __future__ import annotations

from ._core import model as _model
from ._core.errors import Severity as Severity
from ._core.graph_coverage import (
    CoverageCount as CoverageCount,
    CoverageMissing as CoverageMissing,
    CoverageReport as CoverageReport,
    CoverageTotals as CoverageTotals,
    GraphCoverage as GraphCoverage,
)
from ._core.impact import (
    ImpactReport as ImpactReport,
    ProviderVersion as ProviderVersion,
    RouteSnapshot as RouteSnapshot,
    RunImpact as RunImpact,
)
from ._core.ir import (
    CompiledGraph as CompiledGraph,
)
from ._core.lint import Finding as Finding
from ._core.model import *  # noqa: F403 - every wire type: the model's own __all__
from ._core.provider import (
    LoadedAction as LoadedAction,
    LoadedResource as LoadedResource,
    NodeRoute as NodeRoute,
)
from ._core.replay import ReplayStep as ReplayStep, StateChange as StateChange
from ._core.verify import (
    GeneratedTest as GeneratedTest,
    PropertyResult as PropertyResult,
    TraceStep as TraceStep,
    VerifyExploration as VerifyExploration,
    VerifyFinding as VerifyFinding,
    VerifyReport as VerifyReport,
)
from ._core.why import (
    CandidateExplanation as CandidateExplanation,
    CheckExplanation as CheckExplanation,
    EdgeExplanation as EdgeExplanation,
    Explanation as Explanation,
    FrameExplanation as FrameExplanation,
    GateExplanation as GateExplanation,
    NodeExplanation as NodeExplanation,
)

__all__ = [
    "CandidateExplanation",
    "CheckExplanation",
    "CompiledGraph",
    "CoverageCount",
    "CoverageMissing",
    "CoverageReport",
    "CoverageTotals",
    "EdgeExplanation",
    "Explanation",
    "Finding",
    "FrameExplanation",
    "GateExplanation",
    "GeneratedTest",
    "GraphCoverage",
    "ImpactReport",
    "LoadedAction",
    "LoadedResource",
    "NodeExplanation",
    "NodeRoute",
    "PropertyResult",
    "ProviderVersion",
    "ReplayStep",
    "RouteSnapshot",
    "RunImpact",
    "Severity",
    "StateChange",
    "TraceStep",
    "VerifyExploration",
    "VerifyFinding",
    "VerifyReport",
]
__all__ += _model.__all__
