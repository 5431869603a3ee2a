"""A throwaway PostgreSQL server for the tests: a fresh cluster in a temporary folder, on a Unix socket.

The programs come from ``pg_config --bindir`` (or Debian's
``/usr/lib/postgresql/*/bin``). ``initdb`` refuses to run as root, so as root
the cluster is created and run by the ``postgres`` system user. The server
listens on no TCP port, only on a socket in the temporary folder, and is
stopped (immediately) when the test session ends.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass


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
        subprocess.run(
            [
                *self.as_user,
                os.path.join(self.bindir, "pg_ctl"),
                "-D",
                self.data,
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
            capture_output=True,
            timeout=60,
            check=False,
        )
        shutil.rmtree(self.folder, ignore_errors=True)


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


def start(durable: bool = False) -> Server:
    """Start a server; raises RuntimeError with the reason when none can be started.

    ``durable``: flush commits to disk (``fsync=on``, full page writes), as a
    production server does; the tests leave it off (they measure nothing).
    """
    programs = bindir()
    if programs is None:
        raise RuntimeError("no PostgreSQL server programs (initdb, pg_ctl) on this machine")
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
    folder = tempfile.mkdtemp(prefix="agpg-", dir="/tmp" if os.path.isdir("/tmp") else None)
    if as_user:
        os.chown(folder, account.pw_uid, account.pw_gid)
    os.chmod(folder, 0o755)
    data = os.path.join(folder, "data")
    server = Server(folder, data, programs, as_user)
    initdb = subprocess.run(
        [*as_user, os.path.join(programs, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8",
         "--no-sync", "--no-locale"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    if initdb.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"initdb failed: {initdb.stderr.strip()[-500:]}")
    flush = "on" if durable else "off"
    options = f"-k {folder} -c listen_addresses='' -c max_connections=100 -c fsync={flush} -c full_page_writes={flush}"
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
    import time

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
