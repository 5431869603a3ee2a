"""``python -m benchmarks``: run the benchmark suite and rewrite docs/performance.md."""

from __future__ import annotations

import sys

from .runner import main

if __name__ == "__main__":
    sys.exit(main())
