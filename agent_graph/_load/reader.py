"""The loader's reader: a Provider's files read once each, through its file system.

Path containment and the size limits of behaviour.md §2 and §3, parsing (with
the opt-in load cache: parsed values, front-matter headers and passed schema
checks looked up by the digest of a file's bytes), schema validation, and the
places (``file:line:column``) that messages name. :class:`Limits` is the
public bound on what a Provider may be. Nothing here follows a reference from
one file to another: that is :mod:`.resources` and :mod:`.linking`.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from .._core.canonical import digest_bytes
from .._core.errors import AgentGraphError, Diagnostic, ErrorCode, os_error
from .._core.suggest import close_names
from .._syntax import schema as _schema
from .._syntax.explain import MAX_LOCATED_TEXT
from .._syntax.parse import (
    DEFAULT_MAX_FILE_BYTES,
    MAX_ALIAS_COUNT,
    MAX_DEPTH,
    parse_front_matter,
    parse_structured,
)
from .._syntax.syntax_hints import placed_syntax_error
from .._syntax.yaml_events import locate_pointers
from .cache import CachedValue, LoadCache
from .fs import FileSystem, inside
from .skill import front_matter_position

ProviderRegistry = Mapping[str, str]


@dataclass(frozen=True)
class Limits:
    """Explicit limits on what a Provider may be; a host may raise any of them.

    ``max_file_bytes`` is the largest file read (``file-too-large``);
    ``max_depth`` the deepest nesting of a YAML or JSON value and
    ``max_alias_count`` the YAML alias budget (``parse-failed``); ``max_nodes``
    the most nodes one Graph may have (``graph-too-large``); ``max_files`` the
    most files a Provider's file set may hold (``provider-too-large``).
    """

    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    max_depth: int = MAX_DEPTH
    max_alias_count: int = MAX_ALIAS_COUNT
    max_nodes: int = 1_000_000
    max_files: int = 100_000


DEFAULT_LIMITS = Limits()


class Reader:
    """Reads files once through the file system, with containment checks and limits.

    With a :class:`~agent_graph._load.cache.LoadCache` (``store``), parsed values,
    front-matter headers and passed schema checks are looked up by the file's
    digest and written back by :meth:`flush`; without one, every file is parsed
    and checked on each load.
    """

    def __init__(self, fs: FileSystem, root: str, limits: Limits, store: LoadCache | None = None) -> None:
        self.fs = fs
        self.root = root
        self.limits = limits
        self.store = store
        self.cache: dict[str, bytes] = {}
        self.digests: dict[str, str] = {}
        self.values: dict[str, CachedValue] = {}
        self.headers: dict[str, CachedValue] = {}
        self._real_root: str | None = None

    def take_over(self, other: Reader) -> None:
        """Reuse what ``other`` (the reader that found the manifest) already read and parsed."""
        self.cache.update(other.cache)
        self.digests.update(other.digests)
        self.values.update(other.values)
        self.headers.update(other.headers)

    def ensure_file(self, path: str, label: str) -> None:
        if self.fs.kind(path) != "file":
            raise AgentGraphError("file-missing", f"{label} does not exist: {path}{self.nearby(path)}")

    def nearby(self, path: str) -> str:
        """`` (did you mean <file>?)`` naming the file beside missing ``path`` whose name is closest, if one is close.

        Only files of the same folder below the Provider root are considered (the
        root itself is not listed: it may hold anything), and only on failure.
        """
        folder = posixpath.dirname(path)
        root = self.root.rstrip("/")
        if not folder.startswith(root + "/") or self.fs.kind(folder) != "directory":
            return ""
        try:
            files = [f for f in self.fs.list_files(folder) if posixpath.dirname(f) == folder][:10_000]
        except OSError:
            return ""
        stems: dict[str, str] = {}
        for file in files:  # names are compared without their extensions: .yaml and .json match too well
            stems.setdefault(posixpath.splitext(posixpath.basename(file))[0], file)
        wanted = posixpath.splitext(posixpath.basename(path))[0]
        close = close_names(wanted, stems)
        return f" (did you mean {self.display(stems[close[0]])}?)" if close else ""

    def ensure_contained(self, path: str, label: str) -> None:
        self.ensure_file(path, label)
        if self._real_root is None:
            self._real_root = self.fs.realpath(self.root)
        real = self.fs.realpath(path)
        if not inside(posixpath.normpath(real), posixpath.normpath(self._real_root)):
            raise AgentGraphError(
                "path-symlink-outside-provider", f"{label} resolves outside the provider root: {path}"
            )

    def read(self, path: str) -> bytes:
        data = self.cache.get(path)
        if data is not None:
            return data
        try:
            size = self.fs.size(path)
        except OSError as error:
            raise os_error(error, path, "read", writing=False) from None
        if size > self.limits.max_file_bytes:
            raise AgentGraphError(
                "file-too-large",
                f"{path} is {size} bytes, over the limit of {self.limits.max_file_bytes} bytes",
            )
        try:
            data = self.fs.read_bytes(path)
        except OSError as error:
            raise os_error(error, path, "read", writing=False) from None
        if len(data) > self.limits.max_file_bytes:
            raise AgentGraphError(
                "file-too-large", f"{path} is over the limit of {self.limits.max_file_bytes} bytes"
            )
        self.cache[path] = data
        return data

    def structured(self, path: str) -> Any:
        try:
            return self._structured(path)
        except AgentGraphError as error:
            raise placed_syntax_error(error, self.display(path)) from None

    def _structured(self, path: str) -> Any:
        limits = self.limits
        data = self.read(path)
        if self.store is None:
            return parse_structured(
                data,
                path,
                max_bytes=limits.max_file_bytes,
                max_depth=limits.max_depth,
                max_alias_count=limits.max_alias_count,
            )
        cached = self.values.get(path)
        if cached is None:
            variant = f"{'json' if path.lower().endswith('.json') else 'yaml'}:{limits.max_depth}:{limits.max_alias_count}"
            digest = self.digest(path)
            cached = self.store.lookup(digest, variant, len(data))
            if cached is None:
                value = parse_structured(
                    data,
                    path,
                    max_bytes=limits.max_file_bytes,
                    max_depth=limits.max_depth,
                    max_alias_count=limits.max_alias_count,
                )
                cached = CachedValue(digest, variant, value, (), len(data), dirty=True)
            self.values[path] = cached
        return cached.value

    def validate(self, name: str, value: Any, path: str) -> None:
        """``_schema.validate(name, value, path)``, skipped when the cache knows this file's value passes.

        Violations are reported with the file's Provider-relative name, line and column.
        """
        cached = self.values.get(path)
        if cached is not None and cached.value is value and name in cached.validated:
            return
        _schema.validate(name, value, path, source=lambda: self.text(path), display=self.display(path))
        if cached is not None and cached.value is value:
            cached.validated.add(name)
            cached.dirty = True

    def display(self, path: str) -> str:
        """``path`` as messages name it: relative to the Provider root when inside it."""
        prefix = self.root.rstrip("/") + "/"
        return path[len(prefix) :] if path.startswith(prefix) else path

    def validate_input(self, schema_path: str, schema: Any, value: Any, path: str, name: str) -> None:
        """``_schema.validate_with_schema`` of a host-action resource's input (the file at ``path``).

        Skipped when the cache knows that this resource file's input passed the
        schema file with these very bytes: compiling a user schema costs more
        than everything else a small Provider's load does.
        """
        cached = self.values.get(path)
        marker = f"input:{self.digest(schema_path)}" if cached is not None else ""
        if cached is not None and marker in cached.validated:
            return
        _schema.validate_with_schema(schema, value, path, name=name)
        if cached is not None:
            cached.validated.add(marker)
            cached.dirty = True

    def front_matter(self, path: str) -> dict[str, Any]:
        """The front-matter header of a Markdown file (as ``parse_front_matter`` reads it)."""
        try:
            return self._front_matter(path)
        except AgentGraphError as error:
            raise placed_syntax_error(error, self.display(path)) from None

    def _front_matter(self, path: str) -> dict[str, Any]:
        if self.store is None:
            return parse_front_matter(self.text(path), path)[0]
        cached = self.headers.get(path)
        if cached is None:
            size = len(self.read(path))
            digest = self.digest(path)
            cached = self.store.lookup(digest, "front-matter", size)
            if cached is None or type(cached.value) is not dict:
                cached = CachedValue(
                    digest, "front-matter", parse_front_matter(self.text(path), path)[0], (), size, True
                )
            self.headers[path] = cached
        header: dict[str, Any] = cached.value
        return header

    def flush(self) -> None:
        """Write what this load learnt to the cache."""
        if self.store is not None:
            self.store.store_all([*self.values.values(), *self.headers.values()])

    def text(self, path: str) -> str:
        return self.read(path).decode("utf-8", errors="replace")

    def position(self, path: str, pointer: str, *, key: bool = False) -> tuple[int, int] | None:
        """Line and column (1-based) of the value at JSON ``pointer`` in the file at ``path``, or None.

        ``key=True`` answers the position of the value's key. In a Markdown file
        the pointer is into its front-matter header. Only for messages: a file
        that cannot be read or parsed, or is too large to walk, has no positions.
        """
        try:
            text = self.text(path)
        except AgentGraphError:
            return None
        if path.lower().endswith(".md"):
            found = front_matter_position(text, pointer, self.limits.max_depth)
        elif len(text) > MAX_LOCATED_TEXT:
            return None
        else:
            found = locate_pointers(text, {pointer}, self.limits.max_depth).get(pointer)
        if found is None:
            return None
        return (found[0], found[1]) if key else (found[2], found[3])

    def place(self, path: str, pointer: str, *, key: bool = False) -> str:
        """``file:line:column`` of the value at ``pointer`` in ``path`` (just the file when it cannot be placed)."""
        found = self.position(path, pointer, key=key)
        display = self.display(path)
        return display if found is None else f"{display}:{found[0]}:{found[1]}"

    def placed(self, what: str, path: str, pointer: str) -> Callable[[], str]:
        """``<what> at file:line:column`` for the value at ``pointer``, placed only when called (an error's referrer)."""
        return lambda: f"{what} at {self.place(path, pointer)}"

    def error_at(
        self, code: ErrorCode, message: str, path: str, pointer: str, *, key: bool = False
    ) -> AgentGraphError:
        """``AgentGraphError(code, "file:line:column: message")`` for the value at ``pointer`` in ``path``.

        Its one diagnostic has ``path`` and ``detail = {pointer, line?, column?}``.
        """
        found = self.position(path, pointer, key=key)
        detail: dict[str, Any] = {"pointer": pointer}
        label = self.display(path)
        if found is not None:
            detail["line"], detail["column"] = found
            label = f"{label}:{found[0]}:{found[1]}"
        text = f"{label}: {message}"
        return AgentGraphError(code, text, (Diagnostic(code, "error", text, path=path, detail=detail),))

    def placed_within(self, diagnostic: Diagnostic, path: str, prefix: str) -> Diagnostic:
        """A schema diagnostic about a value written at ``prefix`` in ``path``, placed: ``file:line:column: …``."""
        detail = diagnostic.detail
        if not isinstance(detail, dict) or not isinstance(detail.get("pointer"), str) or "line" in detail:
            return diagnostic
        found = self.position(path, prefix + detail["pointer"])
        if found is None:
            return msgspec.structs.replace(diagnostic, path=path)
        line, column = found
        return msgspec.structs.replace(
            diagnostic,
            message=f"{self.display(path)}:{line}:{column}: {diagnostic.message}",
            path=path,
            detail={**detail, "line": line, "column": column},
        )

    def located(self, error: AgentGraphError, path: str) -> AgentGraphError:
        """``error`` placed in ``path`` when it carries a JSON Pointer (see :func:`~agent_graph._core.checks.at_pointer`)."""
        for diagnostic in error.diagnostics:
            detail = diagnostic.detail
            if isinstance(detail, dict) and isinstance(detail.get("pointer"), str) and "line" not in detail:
                return self.error_at(error.code, error.message, path, detail["pointer"])
        return error

    def digest(self, path: str) -> str:
        digest = self.digests.get(path)
        if digest is None:
            digest = digest_bytes(self.read(path))
            self.digests[path] = digest
        return digest


def convert(value: Any, kind: type[Any], path: str) -> Any:
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError as error:  # schema validation should have caught this
        raise AgentGraphError("schema-invalid", f"{path}: {error}") from None
