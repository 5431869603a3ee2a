"""The public entry points as hosts call them: each call one observed operation.

``ag.load_provider``, ``ag.evaluate`` and ``ag.route`` are the functions of the
loader, the evaluator and the router, wrapped by :func:`telemetry.observed`:
the same signature, the same answer, plus a span and a log record when the host
watches (see :mod:`agent_graph._runtime.telemetry`). The layers below stay free
of logging and tracing; the command line calls them unwrapped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._core.evaluate import evaluate as _evaluate
from .._load.loader import load_provider as _load_provider
from .step import route as _route
from .telemetry import observed, provider_id

__all__ = ["evaluate", "load_provider", "route"]


def _graph_call(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """Provider, graph and entry of ``evaluate``/``route`` (positional or by keyword)."""
    names = ("provider", "graph", "entry", "route_id")
    given = dict(zip(names, args, strict=False))
    given.update({name: kwargs[name] for name in names if name in kwargs})
    return {
        "provider": provider_id(given.get("provider")),
        "graph": given.get("graph"),
        "entry": given.get("entry", "default"),
        "revision": kwargs.get("revision"),
    }


def _manifest_call(args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> dict[str, Any]:
    manifest = args[0] if args else kwargs.get("manifest", "provider.yaml")
    return {"manifest": manifest if isinstance(manifest, str) else None}


def _loaded(provider: Any) -> dict[str, Any]:
    graphs = getattr(provider, "graphs", None)
    return {"provider": provider_id(provider), "graphs": len(graphs) if graphs is not None else None}


load_provider = observed("agent_graph.load_provider", "agent_graph.load", _manifest_call, _loaded)(
    _load_provider
)
evaluate = observed("agent_graph.evaluate", "agent_graph.evaluate", _graph_call, measure=("turn",))(_evaluate)
route = observed("agent_graph.route", "agent_graph.route", _graph_call, measure=("turn",))(_route)
