"""The one exception type of agent-graph and the diagnostic record it carries.

Every failure the protocol names surfaces as :class:`AgentGraphError` with a
stable ``code``; hosts branch on the code, never on the message. This module
knows nothing of files, graphs or the command line.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

Severity = Literal["info", "warning", "error"]


class Diagnostic(msgspec.Struct, frozen=True, omit_defaults=True, rename="camel"):
    """A compact, machine-readable finding (``{code, severity, message, path?, documentRef?, detail?}``)."""

    code: str
    severity: Severity
    message: str
    path: str | None = None
    document_ref: str | None = None
    detail: Any = None

    def to_json(self) -> dict[str, Any]:
        """The wire form as plain JSON data."""
        out: dict[str, Any] = {"code": self.code, "severity": self.severity, "message": self.message}
        if self.path is not None:
            out["path"] = self.path
        if self.document_ref is not None:
            out["documentRef"] = self.document_ref
        if self.detail is not None:
            out["detail"] = self.detail
        return out


class AgentGraphError(Exception):
    """A failure with a protocol error code.

    ``code`` is stable (``file-missing``, ``schema-invalid``, ``route-stale`` …);
    ``diagnostics`` holds one :class:`Diagnostic` per finding where the failure
    has several (schema violations, for example).
    """

    code: str
    message: str
    diagnostics: tuple[Diagnostic, ...]

    def __init__(self, code: str, message: str, diagnostics: tuple[Diagnostic, ...] | list[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.diagnostics = tuple(diagnostics)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def __repr__(self) -> str:
        return f"AgentGraphError({self.code!r}, {self.message!r})"

    def to_envelope(self) -> dict[str, Any]:
        """The ``agent-graph.error.v1`` envelope the command line prints."""
        return {
            "schema": "agent-graph.error.v1",
            "state": "error",
            "error": {
                "code": self.code,
                "message": self.message,
                "diagnostics": [d.to_json() for d in self.diagnostics],
            },
        }
