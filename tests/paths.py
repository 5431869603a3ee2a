"""Where the tests find the repository: its root, the examples, the weekly-report example's manifest."""

from __future__ import annotations

from pathlib import Path

#: The repository's root folder (the checkout the tests run from).
REPO = Path(__file__).resolve().parents[1]
#: The example Providers.
EXAMPLES = REPO / "examples"
#: The weekly-report example's manifest.
WEEKLY = EXAMPLES / "weekly-report" / "provider.yaml"
