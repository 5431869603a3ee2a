"""Runtime: Run stores, materialization of graph-action views, host actions, graph tests.

Rules: the only layer with processes, locks and the clock (always injectable);
imports the layers below it, never the toolchain or the command line.
"""
