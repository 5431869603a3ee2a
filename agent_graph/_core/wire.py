"""The base of every wire Struct: frozen, camelCase on the wire, absent optionals omitted.

A module of its own so that the modules of wire shapes (:mod:`.model`,
:mod:`.documents`) share one base without importing each other. No I/O.
"""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["_Wire"]


class _Wire(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, rename="camel"):
    """Base: frozen, camelCase on the wire, absent optionals omitted."""

    def to_json(self) -> Any:
        """The wire form as plain JSON data (dicts, lists, scalars)."""
        return msgspec.to_builtins(self)
