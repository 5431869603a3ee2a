"""Bundles (``agent-graph.bundle.v1``): building a relocatable bundle and verifying one when it loads.

A bundle is a directory holding a normalized ``provider.yaml``, every file of
the Provider's file set and a ``manifest.json`` that lists them with digests.
``plan_bundle`` computes a bundle's content from a loaded Provider (pure:
bytes come through a reader function) and ``build_bundle`` writes it: the
same sources give the same bytes, no timestamps, no source-machine paths.
Loading ``manifest.json`` verifies, in order (behaviour.md §10): schema, the
overall digest, each file (listed once, present, contained, same digest), the
catalogs against the files, the Provider manifest entry, the identity, and,
after the Provider loads, the catalogs, file set and dependency index against
what the Provider reaches. Storage access goes through the loader's reader;
only ``build_bundle`` touches the operating system's file system.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import posixpath
import secrets
import shlex
import shutil
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from .._core.canonical import collation_key, digest_bytes, digest_value, sort_collated, utf16_key
from .._core.errors import AgentGraphError, Diagnostic, os_error
from .._core.model import Bundle
from .._core.provider import Provider
from .._load.atomic import FileChanges, create_folder, fsync_directory, make_directories, write_staged
from .._load.bundle import expected_catalogs, expected_dependencies
from .._runtime.locks import held_lock
from .._syntax import schema as _schema

# ---------------------------------------------------------------- building

BUNDLE_SCHEMA = "agent-graph.bundle.v1"
PROVIDER_MANIFEST = "provider.yaml"
BUNDLE_MANIFEST = "manifest.json"


@dataclass(frozen=True)
class BundlePlan:
    """What a bundle holds: its files by relative path (``provider.yaml`` included) and ``manifest.json``."""

    files: dict[str, bytes]
    manifest: dict[str, Any]

    @property
    def manifest_bytes(self) -> bytes:
        """``manifest.json`` as written: two-space indented JSON and a final newline."""
        return manifest_json(self.manifest)


def manifest_json(manifest: Mapping[str, Any]) -> bytes:
    """The bytes of ``manifest.json`` (the layout the reference writes: ``JSON.stringify(m, null, 2)``)."""
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _catalog(entries: list[tuple[str, str]], digests: Mapping[str, str]) -> list[dict[str, str]]:
    ordered = sorted(entries, key=lambda item: collation_key(item[0]))
    return [{"id": identity, "path": path, "digest": digests[path]} for identity, path in ordered]


def plan_bundle(provider: Provider, read: Callable[[str], bytes]) -> BundlePlan:
    """Compute a bundle of ``provider`` from its source files, read through ``read(absolute_path)``.

    Every source file must still have the digest it had when the Provider
    loaded (``build-source-changed``), must not contain the source root's
    absolute path (``build-absolute-path-leak``) and must not sit where the
    bundle's own ``provider.yaml`` or ``manifest.json`` go
    (``build-output-path-conflict``). Pure: no other I/O, no clock.
    """
    from .scaffold import dump_yaml

    root_bytes = provider.root.encode("utf-8")
    files: dict[str, bytes] = {}
    for source in sorted(provider.files, key=lambda p: collation_key(provider.relative(p))):
        if source == provider.manifest_path:
            continue
        relative = provider.relative(source)
        if relative in (PROVIDER_MANIFEST, BUNDLE_MANIFEST, BUILD_MARKER):
            raise AgentGraphError(
                "build-output-path-conflict",
                f"Provider file {relative} would collide with the bundle's generated {relative}",
            )
        try:
            data = read(source)
        except OSError as error:
            raise os_error(error, source, "read", writing=False) from None
        if digest_bytes(data) != provider.file_digests.get(source):
            raise AgentGraphError(
                "build-source-changed", f"Provider file changed after the Provider was loaded: {relative}"
            )
        if root_bytes in data:
            raise AgentGraphError(
                "build-absolute-path-leak",
                f"Referenced file contains the source Provider absolute path: {relative}",
            )
        files[relative] = data
    normalized = dump_yaml(dict(provider.raw_manifest))
    if provider.root in normalized:
        raise AgentGraphError(
            "build-absolute-path-leak", "The Provider manifest contains the source Provider absolute path"
        )
    files[PROVIDER_MANIFEST] = normalized.encode("utf-8")
    digests = {path: digest_bytes(data) for path, data in files.items()}

    catalogs = expected_catalogs(provider)
    schema_entries = sorted(
        ((path, identity) for identity, path in catalogs["schemas"]), key=lambda item: collation_key(item[0])
    )
    dependencies = expected_dependencies(provider)
    unsigned: dict[str, Any] = {
        "schema": BUNDLE_SCHEMA,
        "provider": {"id": provider.manifest.id, "version": provider.manifest.version},
        "providerManifest": PROVIDER_MANIFEST,
        "graphs": _catalog(catalogs["graphs"], digests),
        "actions": _catalog(catalogs["actions"], digests),
        "resources": _catalog(catalogs["resources"], digests),
        "schemas": [
            {"id": identity, "path": path, "digest": digests[path]} for path, identity in schema_entries
        ],
        "files": [{"path": path, "digest": digests[path]} for path in sorted(files, key=utf16_key)],
        "graphDependencies": {gid: dependencies[gid] for gid in sort_collated(dependencies)},
    }
    manifest = {**unsigned, "digest": digest_value(unsigned)}
    _schema.validate("bundle", manifest, BUNDLE_MANIFEST)
    if root_bytes in manifest_json(manifest):
        raise AgentGraphError(
            "build-absolute-path-leak", "Generated bundle contains the source Provider absolute path"
        )
    return BundlePlan(files=files, manifest=manifest)


def _contains(parent: str, child: str) -> bool:
    relative = os.path.relpath(child, parent)
    return relative == "." or not (
        relative == ".." or relative.startswith(".." + os.sep) or os.path.isabs(relative)
    )


#: A file every folder ``build`` works in holds while it works: only folders with it are ever cleaned up.
BUILD_MARKER = ".agent-graph-build"
_STAGING = ".agent-graph-staging-"
_RETIRED = ".agent-graph-retired-"


def _check_overlap(provider: Provider, destination: str) -> None:
    real_destination = os.path.realpath(destination)
    for candidate in {destination, real_destination}:
        for root in {provider.root, os.path.realpath(provider.root)}:
            if candidate == root:
                raise AgentGraphError(
                    "build-output-overlaps-source",
                    f"Build output must not replace the Provider root: {destination}",
                )
        for source in provider.files:
            if _contains(candidate, source) or _contains(candidate, os.path.realpath(source)):
                raise AgentGraphError(
                    "build-output-overlaps-source",
                    f"Build output {destination} would contain or replace the source file {source}",
                )


def _not_a_bundle(destination: str, why: str) -> AgentGraphError:
    return AgentGraphError(
        "build-output-exists",
        f"Build output {destination} exists and is not a complete agent-graph bundle ({why}); "
        "build never replaces anything else: remove it or choose another directory",
    )


def verified_bundle_files(destination: str) -> set[str]:
    """The files of the complete, verifiable bundle at ``destination`` (relative, ``/``-separated).

    A bundle is complete when ``manifest.json`` matches the bundle schema and
    its own digest, every file it lists is present with its digest, and the
    folder holds nothing else: no other file, folder, link or special file
    (only a :data:`BUILD_MARKER` left by an interrupted build is tolerated).
    Anything else is ``build-output-exists``: ``build`` deletes only what it
    can show to be a bundle.
    """
    from .._syntax.parse import parse_json

    found: set[str] = set()
    folders: set[str] = set()
    pending = [""]
    while pending:
        relative = pending.pop()
        folder = os.path.join(destination, *relative.split("/")) if relative else destination
        try:
            entries = list(os.scandir(folder))
        except OSError as error:
            raise os_error(error, folder, "read the folder", writing=False) from None
        if relative and not entries:
            raise _not_a_bundle(destination, f"it holds the empty folder {relative}")
        for entry in entries:
            name = f"{relative}/{entry.name}" if relative else entry.name
            if entry.is_symlink():
                raise _not_a_bundle(destination, f"it holds the link {name}")
            if entry.is_dir(follow_symlinks=False):
                folders.add(name)
                pending.append(name)
            elif entry.is_file(follow_symlinks=False):
                found.add(name)
            else:
                raise _not_a_bundle(destination, f"it holds the special file {name}")
    if not found and not folders:
        return set()
    if BUNDLE_MANIFEST not in found:
        raise _not_a_bundle(destination, "it has no manifest.json")
    manifest_path = os.path.join(destination, BUNDLE_MANIFEST)
    try:
        from .._load.fs import read_regular_file

        parsed = parse_json(
            read_regular_file(manifest_path, "bundle manifest").decode("utf-8"), manifest_path
        )
        _schema.validate("bundle", parsed, manifest_path)
    except (AgentGraphError, UnicodeDecodeError) as error:
        raise _not_a_bundle(destination, f"its manifest.json does not read: {error}") from None
    unsigned = {key: value for key, value in parsed.items() if key != "digest"}
    if digest_value(unsigned) != parsed.get("digest"):
        raise _not_a_bundle(destination, "its manifest.json does not match its own digest")
    listed: dict[str, str] = {}
    for item in parsed["files"]:
        listed[item["path"]] = item["digest"]
    expected = {*listed, BUNDLE_MANIFEST}
    extra = sorted(found - expected - {BUILD_MARKER})
    if extra:
        raise _not_a_bundle(destination, f"it holds {extra[0]}, which its manifest does not list")
    missing = sorted(expected - found)
    if missing:
        raise _not_a_bundle(destination, f"the listed file {missing[0]} is missing")
    for relative, digest in listed.items():
        if _file_digest(os.path.join(destination, *relative.split("/"))) != digest:
            raise _not_a_bundle(destination, f"the file {relative} does not match its digest")
    return found & expected


def _file_digest(path: str) -> str:
    """``digest_bytes`` of a file's content, read in chunks."""
    import hashlib

    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
    except (OSError, ValueError) as error:
        raise os_error(error, path, "read", writing=False) from None
    return "sha256:" + digest.hexdigest()


@contextlib.contextmanager
def _parent_lock(parent: str, destination: str) -> Iterator[None]:
    """Serialize builds into one folder: an OS lock on the parent folder itself (no lock file is left behind)."""
    if sys.platform == "win32":  # pragma: no cover - folders cannot be locked there; builds rarely race
        yield
        return
    try:
        handle = os.open(parent, os.O_RDONLY)
    except (OSError, ValueError) as error:
        raise os_error(error, parent, "open the folder") from None

    def timed_out() -> AgentGraphError:
        return AgentGraphError(
            "build-lock-timeout", f"Another build into {parent} ran for more than 60 s: {destination}"
        )

    try:
        with held_lock(handle, 60.0, timed_out):
            yield
    finally:
        os.close(handle)


def _sweep(parent: str, name: str) -> None:
    """Remove what builds into ``parent/name`` killed earlier left behind: folders holding the build marker, and
    empty ones (a build killed before it marked its folder)."""
    prefixes = (f".{name}{_STAGING}", f".{name}{_RETIRED}")
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return
    destination = os.path.join(parent, name)
    if not os.path.lexists(destination):
        # A build killed between its two renames: the earlier bundle goes back where it was.
        for entry in entries:
            if entry.name.startswith(f".{name}{_RETIRED}") and os.path.isfile(
                os.path.join(entry.path, BUILD_MARKER)
            ):
                try:
                    verified_bundle_files(entry.path)
                    os.rename(entry.path, destination)
                except (AgentGraphError, OSError):
                    continue
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(destination, BUILD_MARKER))
                entries = [other for other in entries if other is not entry]
                break
    for entry in entries:
        if (
            not entry.name.startswith(prefixes)
            or entry.is_symlink()
            or not entry.is_dir(follow_symlinks=False)
        ):
            continue
        marker = os.path.join(entry.path, BUILD_MARKER)
        if os.path.isfile(marker) and not os.path.islink(marker):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:  # killed before its marker was written: removed only when empty (no file of anyone's in it)
            with contextlib.suppress(OSError):
                os.rmdir(entry.path)


def _new_folder(parent: str, prefix: str) -> str:
    for _ in range(100):
        path = os.path.join(parent, prefix + secrets.token_hex(6))
        if create_folder(path, parent, "create a folder in"):
            return path
    raise AgentGraphError("file-write-failed", f"Cannot create a working folder in {parent}")


def _retire(retired: str, files: set[str]) -> None:
    """Delete an earlier bundle moved aside: only the files verified before, then its emptied folders.

    Whatever else is found there (a file someone added meanwhile) is left, and
    so is the folder, without the marker (no later build touches it).
    """
    for relative in files:
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(retired, *relative.split("/")))
    folders = sorted(
        {posixpath.dirname(relative) for relative in files if "/" in relative}, key=lambda f: -f.count("/")
    )
    expanded: set[str] = set()
    for folder in folders:
        while folder and folder not in expanded:
            expanded.add(folder)
            folder = posixpath.dirname(folder)
    for folder in sorted(expanded, key=lambda f: -f.count("/")):
        with contextlib.suppress(OSError):
            os.rmdir(os.path.join(retired, *folder.split("/")))
    with contextlib.suppress(OSError):
        os.unlink(os.path.join(retired, BUILD_MARKER))
    with contextlib.suppress(OSError):
        os.rmdir(retired)


#: Characters that make a command word something other than a plain path (a variable, a glob, a quote).
_NOT_A_PATH = frozenset("$`*?[]{}~='\"\\")
#: Shell operators that start a new simple command.
_SEPARATORS = frozenset({"&&", "||", ";", "|", "&", "(", ")", ";;", "|&"})
#: Programs whose first operand is the file they run.
_INTERPRETERS = frozenset(
    {"sh", "bash", "zsh", "dash", "python", "python3", "node", "bun", "deno", "ruby", "perl"}
)


def _path_words(text: str) -> list[tuple[str, bool]]:
    """The words of a shell command that read as relative file paths (``./x``, ``../x``, ``dir/x``).

    Each comes with whether the command needs it to exist: the program of a
    simple command, the script an interpreter runs, an input redirection
    (``< file``). The target of an output redirection (``> file``) is left out,
    and so is everything after a ``cd`` (its paths are relative to another folder).
    """
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        tokens = list(lexer)
    except ValueError:  # an unbalanced quote: nothing can be said about its words
        return []
    found: list[tuple[str, bool]] = []
    program: str | None = None
    after = ""
    for token in tokens:
        if token in _SEPARATORS or all(c in "<>|&;()" for c in token):
            after = token
            if token in _SEPARATORS:
                program = None
            continue
        previous, after = after, ""
        if previous.startswith(">") or previous.endswith(">") or previous == ">>":
            continue  # a file the command writes
        is_program = program is None
        if is_program and token in ("cd", "pushd"):
            break  # later relative paths are relative to another folder
        runs = is_program or previous == "<" or (program in _INTERPRETERS and not token.startswith("-"))
        if is_program:
            program = posixpath.basename(token)
        elif program in _INTERPRETERS and not token.startswith("-"):
            program = ""  # the interpreter's script is named; later words are its arguments
        if (
            "/" in token
            and not token.startswith(("/", "-"))
            and "://" not in token
            and not any(character in _NOT_A_PATH for character in token)
        ):
            found.append((token, runs))
    return found


def unpackaged_action_files(provider: Provider, is_file: Callable[[str], bool]) -> list[Diagnostic]:
    """Files of the Provider that an Action's ``command`` (or a script's ``args``) names but a bundle leaves out.

    A bundle holds the Provider's file set and nothing else (behaviour.md §3):
    an Action's ``entry``, schemas and ``files``, never files a command merely
    mentions. A relative path word of a command is reported (``action-file-unpackaged``,
    severity ``error``) when it names a file of the Provider root outside the file
    set, or, for ``cwd: provider``, when the program it runs (``./x.sh``,
    ``sh x.sh``, ``< input``) is a file the Provider root does not have at all.
    With the default ``cwd: workspace`` a path the Provider does not have names
    the host's workspace and is not reported; output redirections never are. ``is_file(absolute_path)`` says
    whether a file exists; nothing else is read.
    """
    root = provider.root.rstrip("/")
    packaged = set(provider.files)
    found: list[Diagnostic] = []
    for path, loaded in provider.actions.items():
        action = loaded.definition
        if action.runner == "command":
            words, field = _path_words(action.command or ""), "command"
        elif action.runner == "script":
            words, field = [(w, False) for a in action.args or () for w, _ in _path_words(a)], "args"
        else:
            continue
        in_provider = (action.cwd or "workspace") == "provider"
        for word, needed in dict.fromkeys(words):
            target = posixpath.normpath(posixpath.join(root, word))
            if not target.startswith(root + "/") or target in packaged:
                continue
            shown = provider.relative(path)
            relative = provider.relative(target)
            if is_file(target):
                why = (
                    f"{relative} is a file of the Provider but not of its file set, so a bundle leaves it out; "
                    f"list it under files: in {shown}"
                )
            elif in_provider and needed:
                why = f"the Provider has no file {relative} (cwd: provider runs the command in the Provider root)"
            else:
                continue
            message = f"{shown}: Action {action.id} {field} names {word}: {why}"
            found.append(
                Diagnostic(
                    code="action-file-unpackaged",
                    severity="error",
                    message=message,
                    path=path,
                    detail={"action": action.id, "field": field, "file": relative},
                )
            )
    return found


def build_bundle(provider: Provider, output: str, *, read: Callable[[str], bytes] | None = None) -> Bundle:
    """Write a deterministic, relocatable bundle of ``provider`` to the directory ``output``.

    Refuses a Provider whose Actions run files the bundle would not hold
    (``action-file-unpackaged``, one diagnostic per file; see
    :func:`unpackaged_action_files`), an output that is the Provider root or contains a source file
    (``build-output-overlaps-source``) and one that exists but is not a
    complete, verifiable earlier bundle (``build-output-exists``, see
    :func:`verified_bundle_files`): nothing but such a bundle is ever replaced,
    and of it only the files it lists are deleted. Source files are read
    through ``read`` (by default through the file system the Provider was
    loaded from, a :class:`~agent_graph.MemoryFileSystem` too), each checked
    against the digest it was loaded with.

    The bundle is written into a working folder beside ``output`` and loaded
    again (its Graph digests must equal the sources', so evaluating it gives
    the same revisions) before it takes ``output``'s place by renaming: the
    output is the earlier bundle or the new one, never half of either. Builds
    into one folder take turns; working folders that a killed build left
    behind carry a marker file and are removed by the next build. Returns the
    bundle manifest.
    """
    from .._load.loader import load_provider

    destination = os.path.abspath(output)
    _check_overlap(provider, destination)
    unpackaged = unpackaged_action_files(provider, _is_file(read))
    if unpackaged:
        raise AgentGraphError(
            "action-file-unpackaged",
            f"Cannot build: {len(unpackaged)} file(s) that Actions run would be missing from the bundle; "
            + unpackaged[0].message,
            unpackaged,
        )
    if os.path.lexists(destination) and (not os.path.isdir(destination) or os.path.islink(destination)):
        raise AgentGraphError(
            "build-output-exists", f"Build output exists and is not a directory: {destination}"
        )
    from .._load.files import on_disk, read_provider_file

    # Executable sources stay executable in the bundle (read from the disk only).
    keep_modes = read is None and on_disk(provider)
    if read is None:

        def read(path: str) -> bytes:
            return read_provider_file(provider, path, "the Provider file", None, verify=False)

    plan = plan_bundle(provider, read)
    parent = os.path.dirname(destination)
    name = os.path.basename(destination)
    with FileChanges(label="Build") as changes:  # folders made for the output go again if the build fails
        changes.make_folder(parent)
        with _parent_lock(parent, destination):
            _sweep(parent, name)
            earlier: set[str] | None = None
            if os.path.lexists(destination):
                if not os.path.isdir(destination) or os.path.islink(destination):
                    raise AgentGraphError(
                        "build-output-exists", f"Build output exists and is not a directory: {destination}"
                    )
                earlier = verified_bundle_files(destination)
            working = _new_folder(parent, f".{name}{_STAGING}")
            try:
                write_staged(os.path.join(working, BUILD_MARKER), b"agent-graph build in progress\n")
                for relative, data in plan.files.items():
                    target = os.path.join(working, *relative.split("/"))
                    make_directories(os.path.dirname(target))
                    write_staged(target, data)
                    source = posixpath.join(provider.root, relative)
                    if keep_modes and relative != PROVIDER_MANIFEST and os.access(source, os.X_OK):
                        try:
                            os.chmod(target, 0o755)
                        except OSError as error:
                            raise os_error(error, target, "make executable") from None
                write_staged(os.path.join(working, BUNDLE_MANIFEST), plan.manifest_bytes)
                rebuilt = load_provider(os.path.join(working, BUNDLE_MANIFEST), cache=False)
                if rebuilt.graph_digests != provider.graph_digests:
                    raise AgentGraphError(
                        "build-verification-failed",
                        "The built bundle's Graph digests differ from the sources'",
                    )
                _swap_into_place(working, destination, parent, name, earlier)
            except BaseException:
                shutil.rmtree(working, ignore_errors=True)
                raise
    bundle: Bundle = msgspec.convert(plan.manifest, Bundle)
    return bundle


def _is_file(read: Callable[[str], bytes] | None) -> Callable[[str], bool]:
    """Whether a path is a file: on the OS, or (with a ``read`` function) whether it reads."""
    if read is None:
        return os.path.isfile

    def readable(path: str) -> bool:
        try:
            read(path)
        except (OSError, ValueError):
            return False
        return True

    return readable


def _exchange(first: str, second: str) -> bool:
    """Swap two folders in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    at_current_directory, rename_exchange = -100, 2
    result = renameat2(
        at_current_directory, os.fsencode(first), at_current_directory, os.fsencode(second), rename_exchange
    )
    if result == 0:
        return True
    number = ctypes.get_errno()
    if number in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise os_error(OSError(number, os.strerror(number)), second, "replace the earlier bundle")


def _swap_into_place(
    working: str, destination: str, parent: str, name: str, earlier: set[str] | None
) -> None:
    """Put the finished working folder at ``destination``; a verified earlier bundle is exchanged out and retired.

    Where folders can be exchanged in one step, ``destination`` always holds a
    complete bundle, the earlier or the new one. Elsewhere the earlier bundle
    is renamed aside first; a build killed between the two renames leaves it
    marked beside the output, and the next build puts it back before anything else.
    """
    if earlier is None:
        try:
            os.rename(working, destination)
        except OSError as error:
            raise os_error(error, destination, "create the bundle folder") from None
    else:
        # Mark the earlier bundle first, so that a build killed from here on leaves only marked folders.
        write_staged(os.path.join(destination, BUILD_MARKER), b"agent-graph build in progress\n")
        if _exchange(working, destination):
            retired = working
        else:
            retired = os.path.join(parent, f".{name}{_RETIRED}{secrets.token_hex(6)}")
            try:
                os.rename(destination, retired)
            except OSError as error:
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(destination, BUILD_MARKER))
                raise os_error(error, destination, "move the earlier bundle aside") from None
            try:
                os.rename(working, destination)
            except BaseException as error:
                os.rename(retired, destination)
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(destination, BUILD_MARKER))
                if isinstance(error, OSError):
                    raise os_error(error, destination, "create the bundle folder") from None
                raise
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(destination, BUILD_MARKER))
        _retire(retired, earlier)
    with contextlib.suppress(OSError):
        os.unlink(os.path.join(destination, BUILD_MARKER))
    fsync_directory(parent)
