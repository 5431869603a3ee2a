"""The one source of the library's version and of the protocol version it implements.

``__version__`` is agent-graph's own release: ``pyproject.toml`` reads it
from this file (hatch's dynamic version), ``agent_graph.__version__``
re-exports it, and the command line's ``--version``, the MCP server, the
lint SARIF driver and the load cache's key use it. ``PROTOCOL_VERSION`` is
the Agent Graph protocol this release implements: the version of the
TypeScript toolchain whose answers it gives, which a Provider's
``compatibility.agentGraph`` range is checked against. A release of the
library moves ``__version__``; only a new protocol moves ``PROTOCOL_VERSION``.
"""

__version__ = "0.4.0"
PROTOCOL_VERSION = "0.3.1"
