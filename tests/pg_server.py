"""A throwaway PostgreSQL server for the tests: a fresh cluster in a temporary folder, on a Unix socket.

The programs come from ``pg_config --bindir`` (or Debian's
``/usr/lib/postgresql/*/bin``). ``initdb`` refuses to run as root, so as root
the cluster is created and run by the ``postgres`` system user. The server
listens on no TCP port, only on a socket in the temporary folder, and is
stopped (immediately) when the test session ends.

The server lives no longer than the process that started it, however that
process ends: a watchdog (this file run as a program, in a session of its
own so that killing the test run's process group spares it) polls its
parent (and, on Linux, asks the kernel for a signal when the parent dies)
and stops the server with ``pg_ctl stop -m immediate`` and removes its folder
once the parent is gone. The folder records its owner (process ID and start
time); :func:`start` first stops the servers of owners that are gone (a run
whose watchdog was killed too).
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

#: Where the servers' folders are made, and the prefix of their names.
FOLDERS = "/tmp" if os.path.isdir("/tmp") else tempfile.gettempdir()
PREFIX = "agpg-"
_OWNER = "owner.json"


@dataclass
class Server:
    folder: str
    data: str
    bindir: str
    as_user: list[str]

    @property
    def url(self) -> str:
        return f"postgresql://postgres@/postgres?host={self.folder}"

    options: str = ""
    watchdog: Any = field(default=None, repr=False)

    def pg_ctl(self, *arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.as_user, os.path.join(self.bindir, "pg_ctl"), "-D", self.data, *arguments],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip

    def halt(self) -> None:
        """Stop the server at once (as a crash would), keeping its data."""
        self.pg_ctl("-m", "immediate", "-w", "stop")

    def restart(self) -> None:
        """Start the halted server again on the same socket."""
        done = self.pg_ctl(
            "-o", self.options, "-l", os.path.join(self.folder, "server.log"), "-w", "-t", "60", "start"
        )
        if done.returncode != 0:
            raise RuntimeError(f"pg_ctl start failed: {done.stderr.strip()[-500:]}")

    def stop(self) -> None:
        _stop(self.folder, self.bindir, self.as_user)
        watchdog = self.watchdog
        if watchdog is not None:  # its server is gone: nothing is left for it to do
            watchdog.kill()
            watchdog.wait(timeout=60)
            self.watchdog = None


def _stop(folder: str, bindir: str, as_user: list[str]) -> None:
    """Stop the server of ``folder`` at once (as a crash would) and remove the folder."""
    subprocess.run(
        [*as_user, os.path.join(bindir, "pg_ctl"), "-D", os.path.join(folder, "data"), "-m", "immediate", "-w", "stop"],
        capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    shutil.rmtree(folder, ignore_errors=True)


def _started(pid: int) -> str | None:
    """The start time of process ``pid`` (clock ticks since boot, from /proc), or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rpartition(")")[2].split()
        return fields[19]  # the 22nd field of the whole line: the process's start time
    except (OSError, IndexError):
        return None


def _alive(pid: int, started: str | None) -> bool:
    """Whether process ``pid`` still runs and is the very process that was (not a later one with its number)."""
    if os.path.isdir("/proc"):
        return started is not None and _started(pid) == started
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_stale(folders: str = FOLDERS) -> list[str]:
    """Stop the servers whose owner process is gone and remove their folders; the folders removed.

    Only folders that record an owner are touched: a folder of another run
    that is still going (its owner alive) stays, and so does one of unknown
    origin.
    """
    removed = []
    for folder in sorted(glob.glob(os.path.join(folders, PREFIX + "*"))):
        try:
            with open(os.path.join(folder, _OWNER), encoding="utf-8") as handle:
                owner = json.load(handle)
            pid, started, bindir, as_user = owner["pid"], owner["started"], owner["bindir"], owner["as_user"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if not _alive(pid, started):
            _stop(folder, bindir, as_user)
            removed.append(folder)
    return removed


def _watch(parent: int, folder: str, bindir: str, as_user: list[str]) -> None:
    """The watchdog: when ``parent`` is gone, stop the server of ``folder``; when the folder is gone, end."""
    gone = False

    def notice(*_: object) -> None:
        nonlocal gone
        gone = True

    signal.signal(signal.SIGTERM, notice)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):  # the kernel tells at once when the parent dies
        import contextlib
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    started = _started(parent)
    while os.path.isdir(folder):
        if gone or os.getppid() != parent or not _alive(parent, started):
            _stop(folder, bindir, as_user)
            return
        time.sleep(0.2)


def _guard(server: Server) -> None:
    """Record the server's owner and start its watchdog."""
    owner = {
        "pid": os.getpid(),
        "started": _started(os.getpid()),
        "bindir": server.bindir,
        "as_user": server.as_user,
    }
    with open(os.path.join(server.folder, _OWNER), "w", encoding="utf-8") as handle:
        json.dump(owner, handle)
    server.watchdog = subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "--watch", str(os.getpid()), server.folder, server.bindir,
         *server.as_user],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, close_fds=True,
    )  # fmt: skip


def bindir() -> str | None:
    """The folder of ``initdb`` and ``pg_ctl``, or None."""
    candidates: list[str] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        done = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        if done.returncode == 0:
            candidates.append(done.stdout.strip())
    candidates.extend(sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True))
    for candidate in candidates:
        if os.path.isfile(os.path.join(candidate, "initdb")) and os.path.isfile(
            os.path.join(candidate, "pg_ctl")
        ):
            return candidate
    return None


def start(durable: bool = False, settings: dict[str, str] | None = None) -> Server:
    """Start a server; raises RuntimeError with the reason when none can be started.

    ``durable``: flush commits to disk (``fsync=on``, full page writes), as a
    production server does; the tests leave it off (they measure nothing).
    ``settings``: more server settings (``{"shared_preload_libraries": "pg_stat_statements"}``).
    """
    programs = bindir()
    if programs is None:
        raise RuntimeError("no PostgreSQL server programs (initdb, pg_ctl) on this machine")
    clean_stale()
    as_user: list[str] = []
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        runuser = shutil.which("runuser")
        if runuser is None:
            raise RuntimeError("running as root without runuser: initdb refuses root")
        import pwd

        try:
            account = pwd.getpwnam("postgres")
        except KeyError:
            raise RuntimeError("running as root and there is no postgres system user for initdb") from None
        as_user = [runuser, "-u", "postgres", "--"]
    folder = tempfile.mkdtemp(prefix=PREFIX, dir=FOLDERS)
    if as_user:
        os.chown(folder, account.pw_uid, account.pw_gid)
    os.chmod(folder, 0o755)
    data = os.path.join(folder, "data")
    server = Server(folder, data, programs, as_user)
    _guard(server)  # from here on, the folder and its server go with this process
    initdb = subprocess.run(
        [*as_user, os.path.join(programs, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8",
         "--no-sync", "--no-locale"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    if initdb.returncode != 0:
        server.stop()
        raise RuntimeError(f"initdb failed: {initdb.stderr.strip()[-500:]}")
    flush = "on" if durable else "off"
    options = f"-k {folder} -c listen_addresses='' -c max_connections=100 -c fsync={flush} -c full_page_writes={flush}"
    for name, value in (settings or {}).items():
        options += f" -c {name}={value}"
    server.options = options
    started = subprocess.run(
        [*as_user, os.path.join(programs, "pg_ctl"), "-D", data, "-o", options, "-l",
         os.path.join(folder, "server.log"), "-w", "-t", "60", "start"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    if started.returncode != 0:
        log = ""
        try:
            with open(os.path.join(folder, "server.log"), encoding="utf-8", errors="replace") as handle:
                log = handle.read()[-500:]
        except OSError:
            pass
        server.stop()
        raise RuntimeError(f"pg_ctl start failed: {started.stderr.strip()[-500:]} {log}")
    return server


def terminate_clients(url: str, where: str = "true") -> list[int]:
    """Terminate the other client backends of ``url``'s database (those matching ``where``) and wait until they are gone."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as admin:
        pids = [
            pid
            for (pid,) in admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = current_database()"
                f" AND backend_type = 'client backend' AND ({where})"
            ).fetchall()
        ]
        for pid in pids:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        deadline = time.monotonic() + 60
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)).fetchall():
            if time.monotonic() > deadline:
                raise RuntimeError(f"backends {pids} were not gone within 60 s")
            time.sleep(0.01)
    return pids


if __name__ == "__main__":  # the watchdog: python pg_server.py --watch PARENT FOLDER BINDIR [AS_USER…]
    if len(sys.argv) >= 5 and sys.argv[1] == "--watch":
        _watch(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:])
