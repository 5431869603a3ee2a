"""The toolchain: build, scaffold, import, migrate and draw Providers; verify them, generate their tests,
and weigh a new version against the Runs in flight.

``import agent_graph.toolchain`` for what an author's tools do (``agent-graph
build``, ``init``, ``import``, ``migrate``, ``diagram``, ``verify``, ``test
--generate``, ``impact`` are these functions); a host that runs Providers
rarely needs it. Each function writes only where it
is told and refuses a target that exists or overlaps its source.
"""

from __future__ import annotations

from ._runtime.impact import impact as impact
from ._runtime.verify import verify as verify
from ._toolchain.bundle import build_bundle as build_bundle
from ._toolchain.diagram import DiagramState as DiagramState, render_diagram as render_diagram
from ._toolchain.generate import generate_tests as generate_tests
from ._toolchain.importers import (
    ImportResult as ImportResult,
    import_scripts as import_scripts,
    import_skill as import_skill,
    import_workflow as import_workflow,
)
from ._toolchain.migrate import (
    MigrationChange as MigrationChange,
    MigrationReport as MigrationReport,
    migrate_provider as migrate_provider,
)
from ._toolchain.scaffold import init_provider as init_provider

__all__ = [
    "DiagramState",
    "ImportResult",
    "MigrationChange",
    "MigrationReport",
    "build_bundle",
    "generate_tests",
    "impact",
    "import_scripts",
    "import_skill",
    "import_workflow",
    "init_provider",
    "migrate_provider",
    "render_diagram",
    "verify",
]
