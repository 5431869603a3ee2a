"""Benchmarks of agent-graph: synthetic Providers and a runner (``python -m benchmarks``).

:mod:`benchmarks.generate` writes synthetic Providers (chains, layered DAGs,
wide fan-out with alternatives, Subgraph nesting, large fact sets and a
realistic mid-sized Provider); :mod:`benchmarks.runner` times loading,
evaluation, routing, canonical JSON and the command line at several sizes and
rewrites ``docs/performance.md``. Nothing here is imported by the library.
"""
