"""The one exception type of agent-graph and the diagnostic record it carries.

Every failure the protocol names surfaces as :class:`AgentGraphError` with a
stable ``code``; hosts branch on the code, never on the message. This module
knows nothing of files, graphs or the command line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

import msgspec

Severity = Literal["info", "warning", "error"]

#: Every code an :class:`AgentGraphError` may carry, one per line (adding a code is adding its line).
#: ``AgentGraphError``'s ``code`` is typed with it, so ``mypy`` refuses a misspelt code;
#: docs/errors.md is generated from it (``python -m agent_graph._toolchain.errordoc``) and a test
#: keeps the two in step.
ErrorCode = Literal[
    "absolute-path-forbidden",
    "action-file-unpackaged",
    "action-id-duplicate",
    "action-input-invalid",
    "action-missing",
    "argument-invalid",
    "authorities-invalid",
    "build-absolute-path-leak",
    "build-lock-timeout",
    "build-output-exists",
    "build-output-overlaps-source",
    "build-output-path-conflict",
    "build-source-changed",
    "build-verification-failed",
    "bundle-catalog-mismatch",
    "bundle-dependencies-mismatch",
    "bundle-digest-mismatch",
    "bundle-file-digest-mismatch",
    "bundle-file-duplicate",
    "bundle-files-mismatch",
    "bundle-invalid",
    "bundle-provider-mismatch",
    "bundle-provider-unlisted",
    "code-catalog-code-duplicate",
    "code-document-dynamic",
    "code-missing",
    "coverage-provider-mismatch",
    "diagram-format-invalid",
    "disk-full",
    "entry-missing",
    "explain-node-missing",
    "file-encoding-invalid",
    "file-exists",
    "file-lock-failed",
    "file-missing",
    "file-path-conflict",
    "file-permission-denied",
    "file-read-failed",
    "file-too-large",
    "file-write-failed",
    "format-invalid",
    "frontmatter-invalid",
    "frontmatter-missing",
    "gate-delegated-inspection-missing",
    "gate-delegated-policy-invalid",
    "gate-fact-refused",
    "gate-inspection-effect-invalid",
    "gate-outcome-refused",
    "gate-resolution-effect-invalid",
    "graph-edge-duplicate",
    "graph-edge-node-missing",
    "graph-entry-missing",
    "graph-flow-cycle",
    "graph-gated-by-source-invalid",
    "graph-id-duplicate",
    "graph-missing",
    "graph-node-duplicate",
    "graph-recursion",
    "graph-repeat-target-invalid",
    "graph-selection-missing",
    "graph-terminal-edge-invalid",
    "graph-terminal-missing",
    "graph-too-large",
    "host-action-handler-mismatch",
    "host-action-handler-missing",
    "host-action-input-digest-mismatch",
    "host-action-input-invalid",
    "host-action-input-schema-mismatch",
    "host-action-output-exactly-one",
    "host-action-output-inline-invalid",
    "host-action-output-schema-mismatch",
    "host-action-result-invalid",
    "host-action-schema-identity-invalid",
    "id-invalid",
    "import-empty",
    "import-source-overlaps-target",
    "import-target-exists",
    "input-too-deep",
    "input-too-large",
    "internal-error",
    "interrupted",
    "json-invalid",
    "json-object-required",
    "json-too-deep",
    "lint-rule-unknown",
    "materializer-effect-invalid",
    "materializer-env-invalid",
    "materializer-error-limit",
    "materializer-failed",
    "materializer-output-invalid",
    "materializer-output-limit",
    "materializer-runner-invalid",
    "materializer-timeout",
    "materializer-unsupported",
    "mcp-unavailable",
    "migration-descriptor-invalid",
    "os-error",
    "outcome-invalid",
    "output-unreadable",
    "parse-failed",
    "path-invalid",
    "path-is-directory",
    "path-loop",
    "path-missing",
    "path-not-directory",
    "path-outside-provider",
    "path-symlink-outside-provider",
    "path-too-long",
    "prompt-missing",
    "provider-id-mismatch",
    "provider-target-exists",
    "provider-too-large",
    "provider-unresolved",
    "registry-invalid",
    "replay-layout-failed",
    "replay-layout-unavailable",
    "resource-digest-mismatch",
    "resource-id-duplicate",
    "resource-kind-invalid",
    "resource-location-invalid",
    "resource-metadata-invalid",
    "resource-missing",
    "resource-not-on-route",
    "resource-read-timeout",
    "resource-receipts-invalid",
    "resource-receipts-provider-mismatch",
    "resource-schema-legacy",
    "resource-static",
    "revision-invalid",
    "route-arguments-invalid",
    "route-reason-code-kind-invalid",
    "route-reason-code-missing",
    "route-revision-stale",
    "route-stale",
    "route-unavailable",
    "run-fork-unrecorded",
    "run-invalid",
    "run-lock-timeout",
    "run-missing",
    "run-node-invalid",
    "run-provider-mismatch",
    "run-ref-outside-store",
    "run-revision-stale",
    "run-store-closed",
    "run-store-failed",
    "run-store-schema-invalid",
    "run-store-schema-newer",
    "run-store-unavailable",
    "run-target-exists",
    "run-too-large",
    "schema-document-invalid",
    "schema-invalid",
    "schema-pattern-too-costly",
    "schema-pattern-unsupported",
    "schema-type-unknown",
    "skill-binding-missing",
    "skill-entry-missing",
    "skill-graph-missing",
    "skill-locator-absolute",
    "skill-locator-invalid",
    "state-key-unknown",
    "store-url-invalid",
    "subgraph-entry-missing",
    "subgraph-missing",
    "test-cases-empty",
    "test-path-missing",
    "tool-unknown",
    "workflow-cycle",
    "workflow-dependency-missing",
    "workflow-invalid",
    "workflow-step-duplicate",
    "workflow-step-id-collision",
    "workflow-step-id-reserved",
    "workspace-missing",
]

#: How many diagnostics ``str(AgentGraphError)`` shows before summing up the rest.
SHOWN_DIAGNOSTICS = 3


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

    code: ErrorCode
    message: str
    diagnostics: tuple[Diagnostic, ...]

    def __init__(
        self, code: ErrorCode, message: str, diagnostics: tuple[Diagnostic, ...] | list[Diagnostic] = ()
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.diagnostics = tuple(diagnostics)

    def __str__(self) -> str:
        """``code: message``, then the first diagnostics one per line (a traceback shows what is wrong)."""
        lines = [f"{self.code}: {self.message}"]
        extra = [d for d in self.diagnostics if d.code != self.code or d.message != self.message]
        for diagnostic in extra[:SHOWN_DIAGNOSTICS]:  # (a copy of the first line is not repeated)
            lines.append(f"  {diagnostic.code}: {diagnostic.message}")
        hidden = len(extra) - SHOWN_DIAGNOSTICS
        if hidden > 0:
            lines.append(f"  … and {hidden} more diagnostic{'s' if hidden > 1 else ''}")
        return "\n".join(lines)

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


def shown(value: object, limit: int = 200) -> str:
    """``value`` for a message: a string as is, anything else as its ``repr`` cut at ``limit`` characters."""
    if isinstance(value, str):
        return value
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an integer too long for repr, a value nested too deeply
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "…"


def did_you_mean(word: str, candidates: Iterable[str], quote: str = "") -> str:
    """`` (did you mean X?)`` when one of ``candidates`` is close to ``word``, else an empty string.

    ``quote`` is written around the suggestion (``'"'`` gives ``(did you mean "X"?)``).
    """
    import difflib

    choices = [c for c in candidates if isinstance(c, str)]
    if not isinstance(word, str) or not choices or len(choices) > 10_000:
        return ""
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in choices}
        if word.lower() in lowered:
            close = [lowered[word.lower()]]
    return f" (did you mean {quote}{close[0]}{quote}?)" if close and close[0] != word else ""


def listing(names: Iterable[str], limit: int = 12) -> str:
    """``a, b, c`` (at most ``limit`` names, then ``… (N more)``); ``none`` when empty."""
    items = list(names)
    if not items:
        return "none"
    shown = ", ".join(items[:limit])
    return shown if len(items) <= limit else f"{shown}, … ({len(items) - limit} more)"


# ---------------------------------------------------------------- operating-system errors

#: errno names → the code of the refusal they cause; anything else is ``file-write-failed`` or ``file-read-failed``.
_OS_CODES: dict[str, ErrorCode] = {
    "EACCES": "file-permission-denied",
    "EPERM": "file-permission-denied",
    "EROFS": "file-permission-denied",
    "ENOTDIR": "path-not-directory",
    "EISDIR": "path-is-directory",
    "ENOSPC": "disk-full",
    "EDQUOT": "disk-full",
    "ENAMETOOLONG": "path-too-long",
    "ELOOP": "path-loop",
}


def os_error(error: BaseException, path: str, doing: str, *, writing: bool = True) -> AgentGraphError:
    """The coded refusal for an operating-system failure while ``doing`` something with ``path``.

    ``file-permission-denied`` (also a read-only file system or an immutable
    file), ``path-not-directory`` (a path through a regular file),
    ``path-is-directory``, ``path-missing`` (a folder that vanished or cannot
    be created), ``disk-full`` (also a quota), ``path-too-long``,
    ``path-loop``, ``path-invalid`` (a NUL byte or an unencodable name), else
    ``file-write-failed`` / ``file-read-failed``. The message names the path
    and what was being done.
    """
    import errno as errno_module

    if isinstance(error, (ValueError, UnicodeError)) and not isinstance(error, OSError):
        return AgentGraphError(
            "path-invalid", f"Cannot {doing} {path!r}: the path is not valid here ({error})"
        )
    number = getattr(error, "errno", None)
    name = errno_module.errorcode.get(number, "") if isinstance(number, int) else ""
    code: ErrorCode | None = _OS_CODES.get(name)
    if code is None:
        if name == "EEXIST":
            code = "path-not-directory" if doing.startswith("create the folder") else "file-exists"
        elif name == "ENOENT":
            code = "path-missing" if writing else "file-missing"
        else:
            code = "file-write-failed" if writing else "file-read-failed"
    reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return AgentGraphError(code, f"Cannot {doing} {path}: {reason}")
