"""Every writing command driven into every operating-system failure: a specific code, the path named, nothing changed.

Commands: ``run start|record|facts|authority|checkpoint|resume``, ``build``,
``init``, ``import``, ``migrate``, ``schema extract --out`` and ``resource
materialize``. Conditions, each made real (nothing is mocked):

========================  ==============================================  ==========================
condition                 how                                             code
========================  ==============================================  ==========================
permission denied         a folder of mode 0555, the command run as        ``file-permission-denied``
                          another user (root passes file modes by, so a
                          root test run switches to ``nobody``; where
                          the machine refuses root that switch, skipped
                          with the reason)
read-only folder          ``chattr +i`` (refuses root too), where the      ``file-permission-denied``
                          file system has it; always: a path under /sys
a path through a file     ``notes.txt/out``                               ``path-not-directory``
a full disk               a small tmpfs filled to the last block, where    ``disk-full``
                          mounting is allowed; always: a file-size limit
                          (``RLIMIT_FSIZE``) that the write hits           ``file-write-failed``
an over-large timeout     ``--lock-timeout 1e300``, ``--timeout-ms 1e15``  ``argument-invalid``
a missing parent folder   ``missing/deeper/out``                          created, the command works
a full standard output    stdout on /dev/full                             ``disk-full``
========================  ==============================================  ==========================

A command that finds nothing to work on in the broken folder (a Run that
cannot exist under /sys) is tested only where the condition can apply.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from agent_graph._cli.main import main
from tests.in_process import run_cli
from tests.load_fixtures import base_documents, write_tree
from tests.runtime import test_materialize as mat
from tests.toolchain.test_migrate import PROVIDER_02

NOBODY = 65534
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes, /sys and /dev/full")
pytestmark = POSIX

REVISION = "sha256:" + "0" * 64


# ---------------------------------------------------------------- the commands


@dataclass
class Command:
    """A writing command: ``prepare(base, target)`` puts what it needs in place and gives its arguments.

    ``creates`` commands write a new path inside ``target``; the others change
    files that already sit inside ``target``.
    """

    name: str
    prepare: Callable[[Path, Path], list[str]]
    creates: bool


def _provider(base: Path) -> Path:
    root = base / "provider"
    if not root.exists():
        write_tree(root, base_documents())
    return root / "provider.yaml"


def _run(base: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "run.json"
    if not path.exists():
        assert (
            run_cli(["run", "start", "main", "--state", str(path), "--manifest", str(_provider(base))], base)[
                0
            ]
            == 0
        )
    return path


def _materializer(base: Path) -> Path:
    root = base / "views"
    if not root.exists():
        mat.write_provider(root, {"view.x": mat.command("printf 1")})
    return root / "provider.yaml"


COMMANDS = [
    Command(
        "run start",
        lambda b, t: [
            "run",
            "start",
            "main",
            "--state",
            str(t / "run.json"),
            "--manifest",
            str(_provider(b)),
        ],
        True,
    ),
    Command(
        "run checkpoint",
        lambda b, t: [
            "run",
            "checkpoint",
            "--state",
            str(_run(b, b / "runs")),
            "--out",
            str(t / "checkpoint.json"),
        ],
        True,
    ),
    Command(
        "run resume",
        lambda b, t: [
            "run",
            "resume",
            "--checkpoint",
            str(_run(b, b / "runs")),
            "--state",
            str(t / "resumed.json"),
        ],
        True,
    ),
    Command("build", lambda b, t: ["build", str(t / "dist"), "--manifest", str(_provider(b))], True),
    Command("init", lambda b, t: ["init", str(t / "new"), "--id", "acme/new"], True),
    Command("schema extract", lambda b, t: ["schema", "extract", "--out", str(t / "schemas")], True),
    Command(
        "resource materialize",
        lambda b, t: [
            "resource",
            "materialize",
            "view.x",
            "--cache",
            str(t / "cache"),
            "--revision",
            REVISION,
            "--workspace",
            str(b),
            "--manifest",
            str(_materializer(b)),
        ],
        True,
    ),
    Command(
        "run record",
        lambda b, t: ["run", "record", "main/build", "completed", "--state", str(_run(b, t))],
        False,
    ),
    Command(
        "run facts", lambda b, t: ["run", "facts", "--set", '{"b": 1}', "--state", str(_run(b, t))], False
    ),
    Command(
        "run authority", lambda b, t: ["run", "authority", "--add", "ops", "--state", str(_run(b, t))], False
    ),
    Command("import scripts", lambda b, t: _import_scripts(b, t), False),
    Command("migrate", lambda b, t: _legacy(t), False),
]
CREATING = [c for c in COMMANDS if c.creates]


def _import_scripts(base: Path, target: Path) -> list[str]:
    into = target / "provider"
    if not into.exists():
        assert run_cli(["init", str(into), "--id", "acme/into"], base)[0] == 0
    script = base / "go.sh"
    script.write_text("echo go\n")
    return ["import", "scripts", str(script), "--into", str(into)]


def _legacy(target: Path) -> list[str]:
    root = target / "legacy"
    for relative, text in PROVIDER_02.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        if not (root / relative).exists():
            (root / relative).write_text(text)
    return ["migrate", "--manifest", str(root / "provider.yaml")]


# ---------------------------------------------------------------- running and watching


def _cli_here(arguments: list[str]) -> tuple[int, str, str]:
    """:func:`cli` in the current folder, without changing folders (a child may not return to the checkout)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([*arguments, "--format", "json"])
    return status, out.getvalue(), err.getvalue()


def process(
    arguments: list[str],
    cwd: Path,
    *,
    limit: int | None = None,
    stdout: Any = subprocess.PIPE,
) -> tuple[int, str, str]:
    """The command line as a process, with a file-size limit."""
    environment = {**os.environ, "XDG_CACHE_HOME": str(cwd / ".cache-of-process"), "HOME": str(cwd)}

    def before() -> None:
        if limit is not None:
            import resource
            import signal

            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    answer = subprocess.run(
        [sys.executable, "-m", "agent_graph", *arguments, "--format", "json"],
        cwd=cwd,
        env=environment,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=before,
        timeout=120,
    )
    return answer.returncode, answer.stdout or "", answer.stderr


def tree(folder: Path) -> dict[str, Any]:
    entries: dict[str, Any] = {}
    if not folder.exists():
        return entries
    for directory, folders, files in os.walk(folder):
        for name in folders + files:
            path = Path(directory, name)
            info = path.lstat()
            entries[str(path.relative_to(folder))] = (
                stat.S_IFMT(info.st_mode),
                path.read_bytes() if stat.S_ISREG(info.st_mode) else None,
            )
    return entries


def refusal(answer: tuple[int, str, str], code: str, where: Path | str, what: str) -> None:
    status, out, err = answer
    assert status == 1 and out == "", (what, out, err)
    assert "Traceback" not in err, (what, err)
    error = json.loads(err.strip().splitlines()[-1])["error"]
    assert error["code"] == code, (what, err)
    assert str(where) in error["message"], (what, error["message"])


@pytest.fixture
def base() -> Iterator[Path]:
    """A folder every user can read (pytest's own temporary folders are private to their owner)."""
    folder = Path(tempfile.mkdtemp(prefix="agent-graph-os-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        for path in [folder, *folder.rglob("*")]:
            with contextlib.suppress(OSError):
                if not path.is_symlink():
                    path.chmod(0o755 if path.is_dir() else 0o644)
        subprocess.run(["chattr", "-R", "-i", str(folder)], capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)


def _open_to_all(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() else 0o644)


# ---------------------------------------------------------------- permission denied


def as_user(arguments: list[str], cwd: Path, user: int) -> tuple[int, str, str]:
    """The command line in a forked child that gave up root for ``user`` (no new interpreter to start).

    The child changes to ``cwd`` before it gives up root and never goes back:
    the checkout may live in a folder only root can enter (a clone in a
    ``mktemp -d`` folder). Everything it runs was imported by a warm-up in the
    parent; a failure in the child is answered with its traceback, never
    blamed on the user switch.
    """
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        answer: Any = [70, "", "the child could not switch users"]
        try:
            os.chdir(cwd)
            os.setgroups([])
            os.setgid(user)
            os.setuid(user)
            answer = [71, "", "the command line raised in the child"]
            answer = list(_cli_here(arguments))
        except BaseException:
            import traceback

            answer = [answer[0], "", f"{answer[2]}:\n{traceback.format_exc()}"]
        finally:
            os.write(writer, json.dumps(answer).encode("utf-8"))
            os._exit(0)
    os.close(writer)
    chunks = []
    while chunk := os.read(reader, 1 << 16):
        chunks.append(chunk)
    os.close(reader)
    os.waitpid(child, 0)
    status, out, err = json.loads(b"".join(chunks))
    return status, out, err


@functools.cache
def _user_switch_refused() -> str | None:
    """Why this machine does not let a root process become ``nobody`` as :func:`as_user` does; None if it does.

    Probed once, in a forked child that makes the very calls :func:`as_user`
    makes (a container may run as root without ``CAP_SETUID`` and
    ``CAP_SETGID``).
    """
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        refused = ""
        step = "setgroups([])"
        try:
            os.setgroups([])
            step = f"setgid({NOBODY})"
            os.setgid(NOBODY)
            step = f"setuid({NOBODY})"
            os.setuid(NOBODY)
            if (os.getuid(), os.geteuid(), os.getgid()) != (NOBODY, NOBODY, NOBODY):
                refused = f"{step} left the process as uid {os.geteuid()}, gid {os.getgid()}"
        except OSError as error:
            refused = f"{step} was refused ({error.strerror})"
        finally:
            os.write(writer, refused.encode("utf-8"))
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as answer:
        refused = answer.read().decode("utf-8")
    os.waitpid(child, 0)
    if not refused:
        return None
    return (
        f"the tests run as root, who passes file modes by, and this machine does not let root become "
        f"nobody: {refused} (a container without CAP_SETUID/CAP_SETGID)"
    )


def modes_bind() -> None:
    """Skip, naming the reason, where a refused file mode cannot be provoked: root that cannot switch users."""
    if os.geteuid() == 0:
        refused = _user_switch_refused()
        if refused is not None:
            pytest.skip(refused)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_permission_denied(base: Path, command: Command) -> None:
    """A folder of mode 0555; as root the command runs as ``nobody``, since root passes file modes by."""
    modes_bind()
    warm = base / "warm-up"  # the same command once where it may write: every module it needs is imported
    warm.mkdir()
    status, _out, err = run_cli(command.prepare(base, warm), base)
    assert status == 0, err
    target = base / "locked"
    target.mkdir()
    arguments = command.prepare(base, target)
    _open_to_all(base)
    runs = base / "runs"  # the Run a checkpoint is taken of stays writable: only the target folder is locked
    if runs.exists():
        runs.chmod(0o777)
        for path in runs.iterdir():
            path.chmod(0o666)
    for path in [target, *target.rglob("*")]:
        if path.is_dir():
            path.chmod(0o555)
    before = tree(target)
    answer = as_user(arguments, base, NOBODY) if os.geteuid() == 0 else run_cli(arguments, base)
    refusal(answer, "file-permission-denied", target, command.name)
    assert tree(target) == before


def _immutable(folder: Path) -> bool:
    answer = (
        subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
        if shutil.which("chattr")
        else None
    )
    if answer is None or answer.returncode != 0:
        return False
    try:
        (folder / "probe").write_text("x")
    except OSError:
        return True
    subprocess.run(["chattr", "-i", str(folder)], capture_output=True, check=False)
    (folder / "probe").unlink()
    return False


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_read_only_folder(base: Path, command: Command) -> None:
    target = base / "frozen"
    target.mkdir()
    arguments = command.prepare(base, target)
    folders = [target, *(p for p in target.rglob("*") if p.is_dir())]
    if not all(_immutable(folder) for folder in folders):
        pytest.skip(
            "this file system has no immutable flag (chattr +i); test_a_path_under_sys refuses root instead"
        )
    try:
        before = tree(target)
        refusal(run_cli(arguments, base), "file-permission-denied", target, command.name)
        assert tree(target) == before
    finally:
        for folder in folders:
            subprocess.run(["chattr", "-i", str(folder)], capture_output=True, check=False)


@pytest.mark.parametrize("command", CREATING, ids=lambda c: c.name)
def test_a_path_under_sys(base: Path, command: Command) -> None:
    """/sys refuses new files to every user, root included: a read-only place that needs no setup."""
    if not Path("/sys/fs").is_dir():
        pytest.skip("no /sys on this system")
    target = Path("/sys/fs/agent-graph-test")
    arguments = command.prepare(base, target)
    refusal(run_cli(arguments, base), "file-permission-denied", "/sys/fs", command.name)
    assert not target.exists()


# ---------------------------------------------------------------- a path through a regular file


@pytest.mark.parametrize("command", CREATING, ids=lambda c: c.name)
def test_a_path_through_a_regular_file(base: Path, command: Command) -> None:
    blocker = base / "notes.txt"
    blocker.write_text("precious")
    target = blocker / "deeper"
    arguments = command.prepare(base, target)
    refusal(run_cli(arguments, base), "path-not-directory", blocker, command.name)
    assert blocker.read_text() == "precious"


# ---------------------------------------------------------------- a missing parent folder


@pytest.mark.parametrize("command", CREATING, ids=lambda c: c.name)
def test_a_missing_parent_folder_is_created(base: Path, command: Command) -> None:
    target = base / "missing" / "deeper"
    arguments = command.prepare(base, target)
    status, _out, err = run_cli(arguments, base)
    assert status == 0, (command.name, err)
    assert target.is_dir()


# ---------------------------------------------------------------- a full disk


@pytest.fixture
def small_disk(base: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs (skips where mounting is not allowed)."""
    mount_point = base / "small"
    mount_point.mkdir()
    answer = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=256k,mode=0755", "tmpfs", str(mount_point)],
            capture_output=True,
            check=False,
        )
        if shutil.which("mount")
        else None
    )
    if answer is None or answer.returncode != 0:
        pytest.skip(
            "cannot mount a small tmpfs here (not root, or no CAP_SYS_ADMIN); "
            "test_a_file_size_limit exercises the same write failure"
        )
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], capture_output=True, check=False)


def _fill(folder: Path) -> None:
    """Take every free block of the file system holding ``folder``."""
    with open(folder / ".filler", "wb", buffering=0) as handle:
        block = b"\0" * 4096
        try:
            while True:
                handle.write(block)
        except OSError as error:
            assert error.errno in (errno.ENOSPC, errno.EDQUOT)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_a_full_disk(base: Path, small_disk: Path, command: Command) -> None:
    target = small_disk / "place"
    target.mkdir()
    arguments = command.prepare(base, target)
    _fill(small_disk)
    before = {k: v for k, v in tree(small_disk).items() if k != ".filler"}
    answer = run_cli(arguments, base)
    refusal(answer, "disk-full", small_disk, command.name)
    after = {k: v for k, v in tree(small_disk).items() if k != ".filler"}
    after.pop("place/runs.lock", None)
    assert {k: v for k, v in after.items() if not k.endswith(".lock")} == {
        k: v for k, v in before.items() if not k.endswith(".lock")
    }


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_a_file_size_limit(base: Path, command: Command) -> None:
    """A write the process may not make (RLIMIT_FSIZE), for every user: the write path's failure has its code."""
    target = base / "limited"
    target.mkdir()
    arguments = command.prepare(base, target)
    before = tree(target)
    answer = process(arguments, base, limit=64)
    refusal(answer, "file-write-failed", target, command.name)
    assert {k: v for k, v in tree(target).items() if not k.endswith(".lock")} == {
        k: v for k, v in before.items() if not k.endswith(".lock")
    }


# ---------------------------------------------------------------- over-large timeouts and a full stdout


@pytest.mark.parametrize("value", ["1e300", "inf", "nan", "-1", "1e7"])
def test_over_large_timeouts(base: Path, value: str) -> None:
    run = _run(base, base / "runs")
    for arguments in (
        ["run", "record", "main/build", "completed", "--state", str(run), "--lock-timeout", value],
        [
            "run",
            "start",
            "main",
            "--state",
            str(base / "new.json"),
            "--manifest",
            str(_provider(base)),
            "--lock-timeout",
            value,
        ],
    ):
        status, out, err = run_cli(arguments, base)
        assert status == 1 and out == "" and json.loads(err)["error"]["code"] == "argument-invalid", err
    materialize = [
        "resource",
        "materialize",
        "view.x",
        "--cache",
        str(base / "cache"),
        "--revision",
        REVISION,
        "--manifest",
        str(_materializer(base)),
        "--timeout-ms",
        str(10**15),
    ]
    status, out, err = run_cli(materialize, base)
    assert status == 1 and json.loads(err)["error"]["code"] == "argument-invalid", err
    assert not (base / "cache").exists() and not (base / "new.json").exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("output_format", ["json", "human"])
def test_an_answer_to_a_full_standard_output(base: Path, output_format: str) -> None:
    for arguments in (["schema", "list"], ["validate", "--manifest", str(_provider(base))]):
        with open("/dev/full", "w") as full:
            answer = subprocess.run(
                [sys.executable, "-m", "agent_graph", *arguments, "--format", output_format],
                cwd=base,
                stdout=full,
                stderr=subprocess.PIPE,
                text=True,
                timeout=60,
                env={**os.environ, "XDG_CACHE_HOME": str(base / ".cache")},
            )
        assert answer.returncode == 1, answer.stderr
        assert "Traceback" not in answer.stderr and "Exception ignored" not in answer.stderr, answer.stderr
        if output_format == "json":
            error = json.loads(answer.stderr)["error"]
            assert error["code"] == "disk-full" and "standard output" in error["message"]
        else:
            assert answer.stderr.startswith("ERROR disk-full: ")


# ---------------------------------------------------------------- files that cannot be read


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_files_that_cannot_be_read(base: Path) -> None:
    """Reading is refused by the file's mode: each reading command names the file, with its code."""
    modes_bind()
    manifest = _provider(base)
    run = _run(base, base / "runs")
    facts = base / "facts.json"
    facts.write_text('{"a": 1}')
    warm = [
        ["validate", "--manifest", str(manifest)],
        ["run", "status", "--state", str(run), "--manifest", str(manifest)],
        ["evaluate", "main", "--facts", f"@{facts}", "--manifest", str(manifest)],
    ]
    for arguments in warm:
        status, _out, err = run_cli(arguments, base)
        assert status == 0, err
    _open_to_all(base)
    expectations = [
        (warm[0], manifest.parent / "graphs" / "main.yaml"),
        (warm[1], run),
        (warm[2], facts),
    ]
    for arguments, where in expectations:
        where.chmod(0o600)  # one file at a time: the others stay readable
        try:
            answer = as_user(arguments, base, NOBODY) if os.geteuid() == 0 else run_cli(arguments, base)
        finally:
            where.chmod(0o644)
        status, out, err = answer
        assert status == 1 and out == "", err
        error = json.loads(err.strip().splitlines()[-1])["error"]
        codes = {error["code"], *(d["code"] for d in error["diagnostics"])}
        assert "file-permission-denied" in codes, err
        assert str(where) in err, err
