"""The one source of the library's version and of the protocol version it implements.

``pyproject.toml`` reads ``__version__`` from this file (hatch's dynamic
version), ``agent_graph.__version__`` re-exports it, and the command line's
``--version`` and the toolchain fields of bundles and caches use it.
"""

__version__ = "0.3.1"
PROTOCOL_VERSION = "0.3.1"
