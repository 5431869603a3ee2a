"""The Model Context Protocol face of agent-graph: ``agent-graph mcp`` and ``serve_mcp``.

A layer of its own beside the command line: it imports the runtime and the
layers below it, never ``_cli``; the command line registers the ``mcp``
command by importing :mod:`agent_graph._mcp.serve`. Modules:

* :mod:`~agent_graph._mcp.serve`: ``serve_mcp`` and the SDK version check;
* :mod:`~agent_graph._mcp.server`: the wiring into the official ``mcp`` SDK
  (the only module that imports it);
* :mod:`~agent_graph._mcp.service`: what each tool does, over the step of
  :mod:`agent_graph._runtime.step` and a Run store;
* :mod:`~agent_graph._mcp.tools`: tool names, JSON Schemas, argument checks;
* :mod:`~agent_graph._mcp.render`: the Markdown of a step.

The Gate trust rules are host policy in :mod:`agent_graph._runtime.gate_policy`.
"""
