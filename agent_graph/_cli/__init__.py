"""The command line (``agent-graph``, ``python -m agent_graph``): arguments, output, exit codes.

Rules: imports what it needs directly from the layers below (no ``try: import``
around our own modules, so a bug cannot turn into "command not found"); every
failure is one ``agent-graph.error.v1`` envelope and exit status 1.
"""
