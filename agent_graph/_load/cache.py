"""The load cache: parsed and schema-checked file contents kept on disk between loads.

Loading a Provider reads every file of it, always; what the cache saves is the
work done on a file's bytes: parsing YAML or JSON (or a Markdown front-matter
header) and checking the value against the protocol's JSON Schemas. An entry
is keyed by the sha256 digest of the file's bytes, how it was parsed (format
and limits) and a fingerprint of the code that parses and validates, so an
entry can only ever be found for the very bytes it was made from, by the very
code that made it. Entries are msgspec MessagePack: a header with the key and a
digest of the payload, checked on every read; an entry that is missing,
truncated, corrupt or made by other code is ignored (and rewritten), never
trusted and never an error. Deleting the directory at any time is safe.

Where: a directory the host chooses, or the platform cache directory
(``$XDG_CACHE_HOME/agent-graph`` or ``~/.cache/agent-graph``,
``~/Library/Caches/agent-graph`` on macOS, ``%LOCALAPPDATA%\\agent-graph\\Cache``
on Windows). Writes go through :func:`~agent_graph._load.atomic.write_bytes_atomic` (no
fsync: a torn entry fails its digest check). This module is an adapter: it
touches the file system and reads the environment, and knows nothing of
Providers or graphs.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
from collections.abc import Iterable
from typing import Any

import msgspec

from .._core.errors import AgentGraphError
from .atomic import write_bytes_atomic

__all__ = ["CachedValue", "LoadCache", "code_fingerprint", "default_directory", "open_cache"]

FORMAT = "agent-graph.load-cache.v1"

#: Modules whose code decides what a cached value is: a change to any of them starts a new cache.
_FINGERPRINT_MODULES = (
    "_load/cache",
    "_syntax/parse",
    "_syntax/yaml_events",
    "_syntax/schema",
    "_syntax/validators",
    "_core/version",
)
#: Cached payloads may not grow far beyond their source (YAML aliases could expand a small file).
_MAX_GROWTH = 16
_MAX_EXTRA_BYTES = 1 << 20
#: Room for an entry's format, key and check around its payload.
_ENTRY_OVERHEAD = 4096

CachePath = str | os.PathLike[str]


class _Entry(msgspec.Struct, array_like=True):
    """An entry on disk: format, key, sha256 of the payload, payload."""

    format: str
    key: str
    check: str
    payload: bytes


class _Payload(msgspec.Struct, array_like=True):
    value: Any
    validated: list[str]


class CachedValue:
    """What the loader holds for one file: the value and the schemas it is known to satisfy.

    ``dirty`` marks a value (or a schema) learnt during this load and not yet written.
    """

    __slots__ = ("digest", "dirty", "size", "validated", "value", "variant")

    def __init__(
        self, digest: str, variant: str, value: Any, validated: Iterable[str], size: int, dirty: bool
    ) -> None:
        self.digest = digest
        self.variant = variant
        self.value = value
        self.validated = set(validated)
        self.size = size
        self.dirty = dirty


def default_directory() -> str | None:
    """The platform cache directory for agent-graph, or None when there is no home to put it in."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return os.path.join(base, "agent-graph", "Cache") if base else None
    if sys.platform == "darwin":
        home = os.path.expanduser("~")
        return os.path.join(home, "Library", "Caches", "agent-graph") if home != "~" else None
    base = os.environ.get("XDG_CACHE_HOME")
    if not base or not os.path.isabs(base):
        home = os.path.expanduser("~")
        if home == "~":
            return None
        base = os.path.join(home, ".cache")
    return os.path.join(base, "agent-graph")


_fingerprint: str | None = None


def code_fingerprint() -> str:
    """A digest of the library version and of the size and modification time of the parsing and schema code."""
    global _fingerprint
    if _fingerprint is None:
        from .._core.version import __version__

        digest = hashlib.sha256(f"{FORMAT}\0{__version__}\0{sys.version_info[:2]}".encode())
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        for name in _FINGERPRINT_MODULES:
            try:
                info = os.stat(os.path.join(here, name + ".py"))
                digest.update(f"{name}:{info.st_size}:{info.st_mtime_ns}\0".encode())
            except OSError:
                digest.update(f"{name}:-\0".encode())
        _fingerprint = digest.hexdigest()[:32]
    return _fingerprint


_ENTRY_DECODER = msgspec.msgpack.Decoder(_Entry)
_PAYLOAD_DECODER = msgspec.msgpack.Decoder(_Payload)
_ENCODER = msgspec.msgpack.Encoder()


class LoadCache:
    """Cached file contents under ``directory`` (created on first write)."""

    __slots__ = ("directory", "fingerprint")

    def __init__(self, directory: CachePath) -> None:
        self.directory = os.path.abspath(os.fspath(directory))
        self.fingerprint = code_fingerprint()

    def _key(self, digest: str, variant: str) -> str:
        return f"{self.fingerprint}|{digest}|{variant}"

    def _path(self, key: str) -> str:
        name = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
        return os.path.join(self.directory, self.fingerprint, name[:2], name[2:] + ".msgpack")

    def lookup(self, digest: str, variant: str, size: int) -> CachedValue | None:
        """The cached value for a file with ``digest`` read as ``variant``, or None (also for any damage)."""
        key = self._key(digest, variant)
        try:
            data = _read_entry(self._path(key), _entry_limit(size))
        except (OSError, ValueError):
            return None
        if data is None:
            return None
        try:
            entry = _ENTRY_DECODER.decode(data)
            if entry.format != FORMAT or entry.key != key:
                return None
            if hashlib.sha256(entry.payload).hexdigest() != entry.check:
                return None
            payload = _PAYLOAD_DECODER.decode(entry.payload)
        except (msgspec.DecodeError, ValueError, TypeError, RecursionError):
            return None
        return CachedValue(digest, variant, payload.value, payload.validated, size, dirty=False)

    def store(self, cached: CachedValue) -> None:
        """Write one entry that :meth:`lookup` will read back; anything else (or a full disk) is simply not cached.

        The payload is decoded again before it is written, so a value the
        decoder cannot take (nesting too deep for it, say) is never stored to
        be refused on every later load.
        """
        try:
            payload = _ENCODER.encode(_Payload(cached.value, sorted(cached.validated)))
            _PAYLOAD_DECODER.decode(payload)
        except (
            TypeError,
            ValueError,
            UnicodeEncodeError,
            OverflowError,
            RecursionError,
            msgspec.DecodeError,
        ):
            return  # lone surrogates, say: such a file is parsed on every load
        if len(payload) > _MAX_GROWTH * cached.size + _MAX_EXTRA_BYTES:
            return
        key = self._key(cached.digest, cached.variant)
        entry = _ENCODER.encode(_Entry(FORMAT, key, hashlib.sha256(payload).hexdigest(), payload))
        if len(entry) > _entry_limit(cached.size):
            return
        path = self._path(key)
        with contextlib.suppress(AgentGraphError):  # a full disk, say: the file is parsed again next time
            write_bytes_atomic(path, entry, durable=False)
        cached.dirty = False

    def store_all(self, values: Iterable[CachedValue]) -> None:
        """Write every value learnt during a load."""
        for cached in values:
            if cached.dirty:
                self.store(cached)


def _entry_limit(size: int) -> int:
    """The largest entry :meth:`LoadCache.lookup` reads for a file of ``size`` bytes."""
    return _MAX_GROWTH * size + _MAX_EXTRA_BYTES + _ENTRY_OVERHEAD


def _read_entry(path: str, limit: int) -> bytes | None:
    """The bytes of a regular file of at most ``limit`` bytes, else None.

    Opened without blocking and checked before reading, so a FIFO, a device
    (``/dev/zero``) or a huge file planted in the cache is skipped, never read.
    """
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        chunks: list[bytes] = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(descriptor, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        return data if len(data) <= limit else None
    finally:
        os.close(descriptor)


def open_cache(cache: CachePath | bool | LoadCache | None) -> LoadCache | None:
    """The cache ``load_provider(cache=…)`` asks for.

    ``None`` or ``False``: none (the library writes nothing unless asked). A
    path: that directory. ``True``: the platform cache directory (none when
    there is no home to put it in). A :class:`LoadCache` is used as it is (a
    Provider built in Python hands the loader the values it wrote this way).
    """
    if cache is None or cache is False:
        return None
    if isinstance(cache, LoadCache):
        return cache
    if cache is True:
        directory = default_directory()
        return LoadCache(directory) if directory else None
    return LoadCache(cache)
