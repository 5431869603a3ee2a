"""Graph-action materialization: the one place agent-graph runs Provider code (behaviour.md §12).

``materialize_resource`` runs the ``read`` command or script Action behind an
``agent-graph.resource.graph-action.v1`` resource and stores what it prints
in a content-addressed cache. This module is an adapter: it spawns a
process, reads the process environment and writes files. It knows nothing
of evaluation, routing, Runs or the command line.

The process:

* gets only ``PATH``, ``PATHEXT``, ``SYSTEMROOT``, ``WINDIR``, ``COMSPEC``,
  ``TMPDIR``, ``TMP``, ``TEMP``, ``LANG``, ``LC_ALL``, ``LC_CTYPE`` and ``TZ``
  from the parent environment, then the variables the host passes
  explicitly, then ``AGENT_GRAPH_PROVIDER_ROOT``, ``AGENT_GRAPH_WORKSPACE``,
  ``AGENT_GRAPH_REVISION`` and ``AGENT_GRAPH_INPUT`` (the input as JSON,
  ``null`` by default), which nothing can override;
* runs under ``sh -c`` for a command runner, or as ``<runtime> <entry>
  <args…>`` for a script runner (node, bun, python3, sh), in the Provider
  root for ``cwd: provider`` and in the workspace otherwise;
* runs in a new session (its own process group) with stdin closed. If it
  runs longer than the timeout, or prints more than the stdout or stderr
  limit, the whole group is killed and nothing is written
  (``materializer-timeout``, ``materializer-output-limit``,
  ``materializer-error-limit``). A non-zero exit is ``materializer-failed``.
  Processes the materializer left behind in its group are killed when it
  ends.

The cache: stdout is stored byte for byte as ``<cache>/<hex>.<ext>`` where
``<hex>`` is the hex part of the content digest (``sha256`` of those bytes),
so equal content shares one file; ``<ext>`` is ``.json``, ``.md``, ``.txt``
or ``.bin`` from the media type. Beside it, ``<hex>.receipt.json``
(``agent-graph.materialization.v1``) names the Provider, resource, revision,
digest, media type and file. Both are written atomically, content first.
"""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .._core.canonical import digest_bytes
from .._core.errors import AgentGraphError, ErrorCode
from .._core.model import GraphActionLocation, MaterializeRef
from .._core.plain import json_bytes, json_text, plain_json, plain_string
from .._core.route import runtime_program
from .._load.atomic import FileChanges

if TYPE_CHECKING:
    from .._core.provider import LoadedResource, Provider

__all__ = [
    "DEFAULT_MAX_ERROR_BYTES",
    "DEFAULT_MAX_OUTPUT_BYTES",
    "DEFAULT_TIMEOUT",
    "INHERITED_VARIABLES",
    "cache_extension",
    "materialize_resource",
    "materializer_environment",
]

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_OUTPUT_BYTES = 10 * 1024 * 1024
DEFAULT_MAX_ERROR_BYTES = 1024 * 1024
#: The longest a materializer may be given (a week, in seconds) and the most output it may be allowed (4 GiB).
MAX_TIMEOUT = 7 * 24 * 3600.0
MAX_BYTES_LIMIT = 1 << 32
INHERITED_VARIABLES: tuple[str, ...] = (
    "PATH",
    "PATHEXT",
    "SYSTEMROOT",
    "WINDIR",
    "COMSPEC",
    "TMPDIR",
    "TMP",
    "TEMP",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TZ",
)
RECEIPT_SCHEMA = "agent-graph.materialization.v1"
LOCATION_SCHEMA = "agent-graph.resource-location.graph-action.v1"
REVISION_PATTERN = re.compile(r"sha256:[0-9a-f]{64}")
_VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CHUNK = 65536


def cache_extension(media_type: str) -> str:
    """``.json``, ``.md``, ``.txt`` or ``.bin`` for a media type."""
    lowered = media_type.lower()
    if "json" in lowered:
        return ".json"
    if "markdown" in lowered:
        return ".md"
    if lowered.startswith("text/"):
        return ".txt"
    return ".bin"


def materializer_environment(
    provider_root: str,
    workspace: str,
    revision: str,
    input_value: Any = None,
    *,
    env: Mapping[str, str] | None = None,
    inherited: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The complete environment of a materializer process.

    ``inherited`` is the parent environment (default ``os.environ``), of
    which only :data:`INHERITED_VARIABLES` pass; ``env`` holds the host's
    explicit extra variables; the four ``AGENT_GRAPH_*`` variables come last.
    """
    parent = os.environ if inherited is None else inherited
    result = {name: parent[name] for name in INHERITED_VARIABLES if name in parent}
    if env is not None and not isinstance(env, Mapping):
        raise AgentGraphError("materializer-env-invalid", "env must map variable names to string values")
    for name, value in (env or {}).items():
        if (
            not isinstance(name, str)
            or not _VARIABLE_NAME.fullmatch(name)
            or not isinstance(value, str)
            or "\0" in value
        ):
            raise AgentGraphError(
                "materializer-env-invalid", f"Invalid environment variable for a materializer: {name!r:.80}"
            )
        result[str.__str__(name)] = str.__str__(value)
    plain_input = plain_json(input_value, "Materializer input", allow_nan=False)
    encoded_input = json_text(plain_input)
    if "\0" in encoded_input:  # cannot happen: JSON escapes control characters; kept as a guard for the OS
        raise AgentGraphError("json-invalid", "Materializer input holds a NUL character")
    result["AGENT_GRAPH_PROVIDER_ROOT"] = provider_root
    result["AGENT_GRAPH_WORKSPACE"] = workspace
    result["AGENT_GRAPH_REVISION"] = revision
    result["AGENT_GRAPH_INPUT"] = encoded_input
    return result


#: The longest wait for output before the clock is read again (seconds).
_POLL = 0.1


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL every process of the materializer's group, then reap the materializer."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        process.kill()
    process.wait()


def _wait_and_clear_group(
    process: subprocess.Popen[bytes], deadline: float, label: str, timeout: float, clock: Callable[[], float]
) -> int:
    """Wait for the materializer to exit, kill what it left in its group, return its status."""
    if hasattr(os, "waitid"):
        # Wait without reaping: while the materializer is a zombie its process
        # group ID cannot be reused, so killing the group cannot hit a stranger.
        while os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG) is None:
            if clock() >= deadline:
                _kill_group(process)
                raise AgentGraphError(
                    "materializer-timeout",
                    f"Materializer {label} ran longer than {timeout:g} s and was stopped",
                )
            time.sleep(0.002)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        return process.wait()
    try:  # pragma: no cover - platforms without waitid
        status = process.wait(max(deadline - clock(), 0.0))
    except subprocess.TimeoutExpired:  # pragma: no cover
        _kill_group(process)
        raise AgentGraphError(
            "materializer-timeout", f"Materializer {label} ran longer than {timeout:g} s and was stopped"
        ) from None
    with contextlib.suppress(ProcessLookupError, PermissionError):  # pragma: no cover
        os.killpg(process.pid, signal.SIGKILL)
    return status  # pragma: no cover


#: The code of a materializer that printed more than its limit, by stream.
_LIMIT_CODES: dict[str, ErrorCode] = {
    "stdout": "materializer-output-limit",
    "stderr": "materializer-error-limit",
}


def _run(
    argv: list[str],
    cwd: str,
    environment: dict[str, str],
    label: str,
    timeout: float,
    max_output: int,
    max_error: int,
    clock: Callable[[], float],
) -> bytes:
    """Run one materializer; its stdout, or an AgentGraphError after killing its group (deadline by ``clock``)."""
    deadline = clock() + timeout  # read before the start: a clock that fails leaves nothing running
    try:
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as error:
        raise AgentGraphError(
            "materializer-failed", f"Materializer {label} could not start: {error}"
        ) from None
    assert process.stdout is not None and process.stderr is not None
    output = bytearray()
    errors = bytearray()
    selector = selectors.DefaultSelector()
    try:
        # each stream: its name, where its bytes go and how many it may print
        selector.register(process.stdout, selectors.EVENT_READ, ("stdout", output, max_output))
        selector.register(process.stderr, selectors.EVENT_READ, ("stderr", errors, max_error))
        open_streams = 2
        while open_streams:
            remaining = deadline - clock()
            if remaining <= 0:
                _kill_group(process)
                raise AgentGraphError(
                    "materializer-timeout",
                    f"Materializer {label} ran longer than {timeout:g} s and was stopped",
                )
            # the clock is read again at least every _POLL seconds
            for key, _ in selector.select(min(remaining, _POLL)):
                chunk = os.read(key.fd, _CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                    open_streams -= 1
                    continue
                name, received, limit = key.data
                received += chunk
                if len(received) > limit:
                    _kill_group(process)
                    raise AgentGraphError(
                        _LIMIT_CODES[name],
                        f"Materializer {label} printed more than {limit} bytes on {name} and was stopped",
                    )
        status = _wait_and_clear_group(process, deadline, label, timeout, clock)
    finally:
        selector.close()
        process.stdout.close()
        process.stderr.close()
        if process.returncode is None:
            _kill_group(process)
    if status != 0:
        message = errors.decode("utf-8", "replace").strip()
        raise AgentGraphError(
            "materializer-failed",
            f"Materializer {label} exited with status {status}" + (f": {message[-2000:]}" if message else ""),
        )
    return bytes(output)


def _byte_limit(value: Any, label: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_BYTES_LIMIT:
        raise AgentGraphError(
            "argument-invalid",
            f"{label} must be a whole number of bytes from 0 to {MAX_BYTES_LIMIT}, not {value!r:.60}",
        )
    return int.__index__(value)


def _check_output(content: bytes, media_type: str, label: str) -> None:
    """Refuse output its readers would refuse: JSON media must be JSON this library reads, Markdown UTF-8.

    ``materializer-output-invalid``; nothing is written then.
    """
    lowered = media_type.lower()
    if "json" in lowered:
        from .._syntax.parse import parse_structured

        try:
            parse_structured(content, f"materializer {label} output.json")
        except AgentGraphError as error:
            raise AgentGraphError(
                "materializer-output-invalid",
                f"Materializer {label} printed output that is not readable {media_type} ({error.code}): {error.message}",
            ) from None
    elif "markdown" in lowered:
        try:
            content.decode("utf-8")
        except UnicodeDecodeError as error:
            raise AgentGraphError(
                "materializer-output-invalid",
                f"Materializer {label} printed {media_type} that is not UTF-8 (byte {error.start})",
            ) from None


def _check_receipt(data: bytes, receipt: dict[str, Any], path: str) -> None:
    """The receipt must read back as the value meant (a guard: it holds only strings)."""
    from .._syntax.parse import parse_json

    try:
        same = parse_json(data.decode("utf-8"), path) == receipt
    except (AgentGraphError, UnicodeDecodeError):
        same = False
    if not same:
        raise AgentGraphError("file-write-failed", f"Refusing to write {path}: it would not read back")


def _find_resource(provider: Provider, reference_or_id: str) -> LoadedResource:
    from .._load.api import locate_resource

    location = locate_resource(provider, reference_or_id)
    return provider.resources[provider.resources_by_id[location.id]]


def materialize_resource(
    provider: Provider,
    reference_or_id: str,
    *,
    cache: str,
    revision: str,
    workspace: str | None = None,
    input: Any = None,
    env: Mapping[str, str] | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES,
    max_error_bytes: int = DEFAULT_MAX_ERROR_BYTES,
    inherited_env: Mapping[str, str] | None = None,
    monotonic: Callable[[], float] | None = None,
) -> GraphActionLocation:
    """Run the materializer of a graph-action resource and cache its output.

    ``reference_or_id`` is the resource ID or Provider-relative path;
    ``revision`` the revision of the route that selected it
    (``revision-invalid`` unless it matches ``^sha256:[0-9a-f]{64}$``);
    ``workspace`` defaults to the current directory; ``input`` is passed as
    ``AGENT_GRAPH_INPUT``; ``env`` adds host variables. Returns the
    ``agent-graph.resource-location.graph-action.v1`` location with
    ``revision``, ``digest`` and ``filePath``. Raises ``resource-missing``,
    ``resource-static`` (nothing to run), ``materializer-runner-invalid``
    (a host-action resource: the host materializes it), the limit codes and
    ``materializer-failed``. ``monotonic`` is the clock the timeout is read
    from, in seconds (default :func:`time.monotonic`): a host's or a test's.
    """
    from .run_codec import checked_clock, checked_timeout, monotonic_seconds

    monotonic = checked_clock(monotonic)

    def clock() -> float:
        return monotonic_seconds(monotonic, "The materializer's")

    if not isinstance(revision, str) or not REVISION_PATTERN.fullmatch(revision):
        raise AgentGraphError("revision-invalid", f"Dynamic resource revision is invalid: {revision!r:.80}")
    revision = str.__str__(revision)
    if sys.platform == "win32":  # pragma: no cover - POSIX process groups are required
        raise AgentGraphError("materializer-unsupported", "Materialization needs POSIX process groups")
    timeout = checked_timeout(timeout, "The materializer timeout", maximum=MAX_TIMEOUT, zero=False)
    max_output_bytes = _byte_limit(max_output_bytes, "max_output_bytes")
    max_error_bytes = _byte_limit(max_error_bytes, "max_error_bytes")
    cache_dir = os.path.abspath(
        plain_string(os.fspath(cache) if isinstance(cache, os.PathLike) else cache, "cache")
    )
    if workspace is not None:
        workspace = plain_string(
            os.fspath(workspace) if isinstance(workspace, os.PathLike) else workspace, "workspace"
        )
    reference_or_id = plain_string(reference_or_id, "resource", "resource-missing")
    resource = _find_resource(provider, reference_or_id)
    if not resource.dynamic or resource.materializer is None:
        raise AgentGraphError(
            "resource-static", f"Resource {resource.id} is static and needs no materialization"
        )
    action = provider.actions[resource.materializer].definition
    if resource.protocol == "agent-graph.resource.host-action.v1" or action.runner not in (
        "command",
        "script",
    ):
        raise AgentGraphError(
            "materializer-runner-invalid",
            f"Resource {resource.id} is materialized by host handler {action.handler}, not by agent-graph; "
            "validate the host's result with validate_host_action_result",
        )
    if action.effect != "read":
        raise AgentGraphError(
            "materializer-effect-invalid", f"Materializer {action.id} must have effect: read"
        )
    from .._load.files import on_disk, read_provider_file
    from .._load.fs import contained_path

    if not on_disk(provider):
        raise AgentGraphError(
            "materializer-unsupported",
            f"Provider {provider.manifest.id} was not loaded from the disk (a MemoryFileSystem): its "
            f"materializer {action.id} runs as a process in the Provider root, which does not exist on disk; "
            "load the Provider from its folder to materialize",
        )
    root = provider.root
    workspace_path = os.path.abspath(workspace if workspace is not None else os.getcwd())
    if action.runner == "command":
        argv = ["sh", "-c", action.command or ""]
    else:
        entry = contained_path(root, action.entry or "", "materializer entry")
        # The script that runs is the one the Provider was loaded with (resource-digest-mismatch otherwise).
        read_provider_file(provider, entry, f"the script of materializer {action.id}", None)
        argv = [runtime_program(action.runtime), entry, *(action.args or ())]
    cwd = root if action.cwd == "provider" else workspace_path
    if not os.path.isdir(cwd):
        raise AgentGraphError("workspace-missing", f"Materializer working directory does not exist: {cwd}")
    environment = materializer_environment(
        root, workspace_path, revision, input, env=env, inherited=inherited_env
    )
    content = _run(argv, cwd, environment, action.id, timeout, max_output_bytes, max_error_bytes, clock)
    _check_output(content, resource.media_type, action.id)

    digest = digest_bytes(content)
    token = digest.split(":", 1)[1]
    file_path = os.path.join(cache_dir, token + cache_extension(resource.media_type))
    receipt = {
        "schema": RECEIPT_SCHEMA,
        "provider": provider.manifest.id,
        "resource": resource.id,
        "revision": revision,
        "digest": digest,
        "mediaType": resource.media_type,
        "file": file_path,
    }
    receipt_path = os.path.join(cache_dir, token + ".receipt.json")
    receipt_bytes = json_bytes(receipt, indent=2) + b"\n"
    _check_receipt(receipt_bytes, receipt, receipt_path)
    with FileChanges(label="Materialization") as changes:  # both or neither
        changes.write(file_path, content)
        changes.write(receipt_path, receipt_bytes)
    return GraphActionLocation(
        schema=LOCATION_SCHEMA,
        id=resource.id,
        kind=resource.kind,
        media_type=resource.media_type,
        revision=revision,
        materialize=MaterializeRef(resource_id=resource.id),
        digest=digest,
        file_path=file_path,
    )
