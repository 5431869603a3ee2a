"""The exception of agent-graph, its families, and the diagnostic record it carries.

Every failure the protocol names surfaces as :class:`AgentGraphError` with a
stable ``code``; hosts branch on the code, never on the message. Each code
belongs to at most one *family*, a subclass a host can catch
(``except RevisionStale:``): raising sites write ``AgentGraphError(code, …)``
and get the family of the code (:data:`FAMILIES`, the one table of them).
This module knows nothing of files, graphs or the command line.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args

import msgspec

if TYPE_CHECKING:
    from .suggest import CloseNames

#: What ``agent_graph.errors`` shows of this module: the exception, its families, the codes and the record.
__all__ = [
    "FAMILIES",
    "AgentGraphError",
    "Diagnostic",
    "ErrorCode",
    "FileAccessFailed",
    "InputInvalid",
    "MaterializeFailed",
    "NotFound",
    "ProviderInvalid",
    "Refused",
    "RevisionStale",
    "RunInvalid",
    "Severity",
    "StoreUnavailable",
    "family_of",
]

Severity = Literal["info", "warning", "error"]

#: Every code an :class:`AgentGraphError` may carry, one per line, in the ``Literal`` of its family
#: (adding a code is adding its line there, or to :data:`NoFamilyCode`). ``AgentGraphError``'s
#: ``code`` is typed with their union, :data:`ErrorCode`, so ``mypy`` refuses a misspelt code;
#: :data:`FAMILIES` and docs/errors.md are generated from them (``python -m
#: agent_graph._toolchain.errordoc``) and a test keeps the two in step.

InputInvalidCode = Literal[
    "action-input-invalid",
    "argument-invalid",
    "authorities-invalid",
    "coverage-provider-mismatch",
    "diagram-format-invalid",
    "format-invalid",
    "graph-selection-missing",
    "id-invalid",
    "import-empty",
    "input-too-deep",
    "input-too-large",
    "json-invalid",
    "json-object-required",
    "json-too-deep",
    "materializer-env-invalid",
    "outcome-invalid",
    "registry-invalid",
    "resource-location-invalid",
    "resource-receipts-invalid",
    "resource-receipts-provider-mismatch",
    "revision-invalid",
    "route-arguments-invalid",
    "run-node-invalid",
    "schema-type-unknown",
    "state-key-unknown",
    "store-url-invalid",
    "workflow-cycle",
    "workflow-dependency-missing",
    "workflow-invalid",
    "workflow-step-duplicate",
    "workflow-step-id-collision",
    "workflow-step-id-reserved",
]

NotFoundCode = Literal[
    "action-missing",
    "code-missing",
    "entry-missing",
    "explain-node-missing",
    "graph-missing",
    "lint-rule-unknown",
    "prompt-missing",
    "resource-missing",
    "run-missing",
    "test-cases-empty",
    "test-path-missing",
    "tool-unknown",
    "verify-path-missing",
    "workspace-missing",
]

ProviderInvalidCode = Literal[
    "absolute-path-forbidden",
    "action-id-duplicate",
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
    "file-encoding-invalid",
    "file-path-conflict",
    "file-too-large",
    "frontmatter-invalid",
    "frontmatter-missing",
    "gate-delegated-inspection-missing",
    "gate-delegated-policy-invalid",
    "gate-inspection-effect-invalid",
    "gate-resolution-effect-invalid",
    "graph-edge-duplicate",
    "graph-edge-node-missing",
    "graph-entry-missing",
    "graph-flow-cycle",
    "graph-gated-by-source-invalid",
    "graph-id-duplicate",
    "graph-node-duplicate",
    "graph-recursion",
    "graph-repeat-target-invalid",
    "graph-terminal-edge-invalid",
    "graph-terminal-missing",
    "graph-too-large",
    "host-action-input-invalid",
    "host-action-input-schema-mismatch",
    "host-action-schema-identity-invalid",
    "materializer-effect-invalid",
    "materializer-runner-invalid",
    "migration-descriptor-invalid",
    "parse-failed",
    "path-outside-provider",
    "path-symlink-outside-provider",
    "provider-id-mismatch",
    "provider-too-large",
    "provider-unresolved",
    "resource-id-duplicate",
    "resource-kind-invalid",
    "resource-metadata-invalid",
    "resource-schema-legacy",
    "route-reason-code-kind-invalid",
    "route-reason-code-missing",
    "schema-document-invalid",
    "schema-invalid",
    "schema-pattern-too-costly",
    "schema-pattern-unsupported",
    "skill-binding-missing",
    "skill-entry-missing",
    "skill-graph-missing",
    "skill-locator-absolute",
    "skill-locator-invalid",
    "subgraph-entry-missing",
    "subgraph-missing",
]

RevisionStaleCode = Literal[
    "build-source-changed",
    "resource-digest-mismatch",
    "route-revision-stale",
    "route-stale",
    "run-revision-stale",
]

StoreUnavailableCode = Literal[
    "file-lock-failed",
    "run-lock-timeout",
    "run-store-closed",
    "run-store-failed",
    "run-store-loop-mismatch",
    "run-store-schema-invalid",
    "run-store-schema-newer",
    "run-store-unavailable",
]

RunInvalidCode = Literal[
    "run-fork-unrecorded",
    "run-invalid",
    "run-provider-mismatch",
    "run-ref-ambiguous",
    "run-ref-outside-store",
    "run-target-exists",
    "run-too-large",
]

RefusedCode = Literal[
    "gate-fact-refused",
    "gate-outcome-refused",
    "resource-not-on-route",
    "resource-static",
    "route-unavailable",
]

MaterializeFailedCode = Literal[
    "host-action-handler-mismatch",
    "host-action-handler-missing",
    "host-action-input-digest-mismatch",
    "host-action-output-exactly-one",
    "host-action-output-inline-invalid",
    "host-action-output-schema-mismatch",
    "host-action-result-invalid",
    "materializer-error-limit",
    "materializer-failed",
    "materializer-output-invalid",
    "materializer-output-limit",
    "materializer-timeout",
    "materializer-unsupported",
    "resource-read-timeout",
]

FileAccessFailedCode = Literal[
    "disk-full",
    "file-exists",
    "file-missing",
    "file-permission-denied",
    "file-read-failed",
    "file-write-failed",
    "os-error",
    "path-invalid",
    "path-is-directory",
    "path-loop",
    "path-missing",
    "path-not-directory",
    "path-too-long",
]

#: Codes of no family: failures of the process itself and the toolchain's refusals of what it
#: would write, which a host does not branch on (they raise a plain :class:`AgentGraphError`).

NoFamilyCode = Literal[
    "action-file-unpackaged",
    "build-absolute-path-leak",
    "build-lock-timeout",
    "build-output-exists",
    "build-output-overlaps-source",
    "build-output-path-conflict",
    "build-verification-failed",
    "generated-test-foreign",
    "import-source-overlaps-target",
    "import-target-exists",
    "internal-error",
    "interrupted",
    "mcp-unavailable",
    "output-unreadable",
    "provider-target-exists",
    "replay-layout-failed",
    "replay-layout-unavailable",
]

#: Every code: the union of the codes of each family and of none.
ErrorCode = Literal[
    InputInvalidCode,
    NotFoundCode,
    ProviderInvalidCode,
    RevisionStaleCode,
    StoreUnavailableCode,
    RunInvalidCode,
    RefusedCode,
    MaterializeFailedCode,
    FileAccessFailedCode,
    NoFamilyCode,
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


_E = TypeVar("_E", bound="AgentGraphError")


class AgentGraphError(Exception):
    """A failure with a protocol error code.

    ``code`` is stable (``file-missing``, ``schema-invalid``, ``route-stale`` …);
    ``diagnostics`` holds one :class:`Diagnostic` per finding where the failure
    has several (schema violations, for example).

    ``AgentGraphError(code, …)`` is an instance of the code's family (see
    :data:`FAMILIES`; a code of no family stays an ``AgentGraphError``), so that
    ``except RevisionStale:`` catches every raise of a stale-revision code. A
    family named directly (``RevisionStale(code, …)``) takes its own codes and
    codes of no family. Pickling and copying keep the class, the code, the
    message, the diagnostics and any other attribute.
    """

    code: ErrorCode
    message: str
    diagnostics: tuple[Diagnostic, ...]

    def __new__(
        cls: type[_E],
        code: ErrorCode,
        message: str,
        diagnostics: tuple[Diagnostic, ...] | list[Diagnostic] = (),
    ) -> _E:
        family = _FAMILY_OF.get(code) if isinstance(code, str) else None
        if cls is AgentGraphError:
            if family is not None:
                cls = family  # type: ignore[assignment]
        elif family is not None and family is not cls and cls in FAMILIES:
            raise TypeError(f"{code} is a code of {family.__name__}, not of {cls.__name__}")
        return super().__new__(cls)

    def __init__(
        self, code: ErrorCode, message: str, diagnostics: tuple[Diagnostic, ...] | list[Diagnostic] = ()
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.diagnostics = tuple(diagnostics)

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt by its class from code, message and diagnostics; other attributes (``referrer``) follow."""
        return type(self), (self.code, self.message, self.diagnostics), self.__dict__

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
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"

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


# ---------------------------------------------------------------- families


class InputInvalid(AgentGraphError):
    """The call's own input is refused: an argument, a JSON value, an outcome, an ID or a URL that the
    protocol does not accept. Fix the call; trying again as it is fails again."""


class NotFound(AgentGraphError):
    """Something the call names is not there: a Graph, an entry, an Action, a resource, a Run, a catalog
    code, a node, a lint rule, a tool or prompt, a graph test, a workspace."""


class ProviderInvalid(AgentGraphError):
    """A Provider (or a file it is built from: a bundle, a Skill binding, a code catalog, a graph test)
    breaks a rule of the protocol and does not load: a file that does not parse or fails its schema,
    a broken reference, a duplicate ID, a Gate or materializer rule, a limit. The diagnostics say where."""


class RevisionStale(AgentGraphError):
    """What the call relied on changed since it was read: a Run's head moved on, an evaluation's revision
    is no longer the state's, a file changed since the Provider was loaded. Read again (``next_step``,
    ``evaluate``, ``load_provider``) and decide again."""


class StoreUnavailable(AgentGraphError):
    """The Run store cannot do what was asked: it is unreachable, failed, closed, locked past the
    deadline, or of a shape or schema version this release does not use. Nothing was written; a
    transient cause (a lock, a lost connection) may pass on a later try."""


class RunInvalid(AgentGraphError):
    """A Run cannot be used as asked: what is stored is not a valid ``agent-graph.run.v1``, it belongs to
    another Provider, it is over the size limit, a fork names an event that was not recorded, a
    reference leaves the store, or an import would replace a Run the store holds."""


class Refused(AgentGraphError):
    """A rule of the protocol refuses the act itself: the Gate trust policy refuses a Fact or outcome an
    agent wrote, a resource is not on the route, a route is not offered, a static resource is not
    materialized."""


class MaterializeFailed(AgentGraphError):
    """A dynamic resource could not be produced: its materializer or host-action handler failed, timed
    out, is missing or unsupported here, or answered with output out of bounds or not matching."""


class FileAccessFailed(AgentGraphError):
    """The operating system refused a file operation: a missing file or folder, no permission, a full
    disk, a path too long or looping, a file that exists, a read or write that failed."""


#: The one table of families: each family and its codes (the ``Literal`` its codes are written in).
#: A code is in at most one family; those of :data:`NoFamilyCode` raise a plain :class:`AgentGraphError`.
#: docs/errors.md shows each code's family.
FAMILIES: dict[type[AgentGraphError], tuple[ErrorCode, ...]] = {
    InputInvalid: get_args(InputInvalidCode),
    NotFound: get_args(NotFoundCode),
    ProviderInvalid: get_args(ProviderInvalidCode),
    RevisionStale: get_args(RevisionStaleCode),
    StoreUnavailable: get_args(StoreUnavailableCode),
    RunInvalid: get_args(RunInvalidCode),
    Refused: get_args(RefusedCode),
    MaterializeFailed: get_args(MaterializeFailedCode),
    FileAccessFailed: get_args(FileAccessFailedCode),
}

#: Code → its family, from :data:`FAMILIES` (read by ``AgentGraphError.__new__``).
_FAMILY_OF: dict[str, type[AgentGraphError]] = {
    member: family for family, members in FAMILIES.items() for member in members
}


def family_of(code: str) -> type[AgentGraphError]:
    """The class ``AgentGraphError(code, …)`` is an instance of: the code's family, else ``AgentGraphError``."""
    return _FAMILY_OF.get(code, AgentGraphError)


def shown(value: object, limit: int = 200) -> str:
    """``value`` for a message: a string as is, anything else as its ``repr`` cut at ``limit`` characters."""
    if isinstance(value, str):
        return value
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an integer too long for repr, a value nested too deeply
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "…"


def did_you_mean(word: str, candidates: Iterable[str] | CloseNames, quote: str = "") -> str:
    """`` (did you mean X?)`` when one of ``candidates`` is close to ``word``, else an empty string.

    ``quote`` is written around the suggestion (``'"'`` gives ``(did you mean "X"?)``).
    ``candidates`` may be a :class:`~agent_graph._core.suggest.CloseNames` index
    built once for many lookups; any other iterable is indexed for this one
    (see :mod:`agent_graph._core.suggest`: bounded work per lookup).
    """
    from .suggest import CloseNames

    if not isinstance(word, str):
        return ""
    index = candidates if isinstance(candidates, CloseNames) else CloseNames(candidates)
    close = index.closest(word, 1, 0.6)
    if not close:
        same = index.same_but_case(word)
        close = [same] if same is not None else []
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
