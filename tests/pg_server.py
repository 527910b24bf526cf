"""A real PostgreSQL server for the tests, started from the machine's own binaries.

:func:`find_bindir` looks for ``initdb`` and ``pg_ctl`` on the PATH, then under
``/usr/lib/postgresql/*/bin`` (Debian and Ubuntu), ``/usr/pgsql-*/bin`` (RHEL) and
``/usr/local/pgsql/bin``, the newest version first. :class:`PostgresServer` makes a cluster
in a temporary folder, starts it on 127.0.0.1 on a free port (its Unix socket in the same
folder, fsync off: the data is thrown away), hands out one fresh database per test, and
stops it with ``pg_ctl stop -m immediate``. PostgreSQL refuses to run as root, so a root
process (a CI machine, a container) runs it as the unprivileged ``nobody``, which then owns
the folder.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg

__all__ = ["NO_BINARIES", "PostgresServer", "find_bindir"]

#: Why the PostgreSQL tests are skipped on a machine without the server's binaries.
NO_BINARIES = (
    "no PostgreSQL server binaries (initdb and pg_ctl on the PATH or under "
    "/usr/lib/postgresql/*/bin): the PostgreSQL backend is not tested here "
    "(Debian: apt-get install postgresql)"
)
#: Where distributions put the server's binaries when they are not on the PATH.
BINDIR_GLOBS = ("/usr/lib/postgresql/*/bin", "/usr/pgsql-*/bin", "/usr/local/pgsql/bin")
#: The unprivileged account a root process runs the server as.
SERVER_ACCOUNT = "nobody"
#: The cluster's superuser; loopback connections are trusted (a throwaway cluster).
SUPERUSER = "feedsift"
#: Settings for a cluster whose data is thrown away: no waiting for the disk.
FAST_SETTINGS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")
#: Attempts at starting: another process may take the free port between finding and using it.
START_ATTEMPTS = 3


def find_bindir() -> Path | None:
    """The folder with ``initdb`` and ``pg_ctl``, newest version first; None: none here."""
    on_path = shutil.which("pg_ctl")
    if on_path:
        for folder in (Path(on_path).parent, Path(on_path).resolve().parent):
            if (folder / "initdb").exists():
                return folder
    candidates = [Path(p) for pattern in BINDIR_GLOBS for p in glob.glob(pattern)]
    usable = [p for p in candidates if (p / "initdb").exists() and (p / "pg_ctl").exists()]
    return max(usable, key=_version, default=None)


def _version(bindir: Path) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", str(bindir))) or (0,)


class PostgresServer:
    """A throwaway PostgreSQL cluster on loopback; one fresh database per test."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="feedsift-pg-"))
        self.data = self.folder / "data"
        self.port = 0
        self._names = itertools.count(1)
        self._account = SERVER_ACCOUNT if os.geteuid() == 0 else None

    def start(self) -> PostgresServer:
        if self._account is not None:
            entry = pwd.getpwnam(self._account)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust",
                  "-E", "UTF8", "--locale=C", "--no-sync")  # fmt: skip
        for attempt in range(START_ATTEMPTS):
            self.port = _free_port()
            try:
                self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"),
                          "-w", "-o", self._options(), "start")  # fmt: skip
                return self
            except RuntimeError:
                if attempt == START_ATTEMPTS - 1:
                    raise
        return self

    def _options(self) -> str:
        settings = ("listen_addresses=127.0.0.1", f"port={self.port}",
                    f"unix_socket_directories={self.folder}", *FAST_SETTINGS)  # fmt: skip
        return " ".join(f"-c {setting}" for setting in settings)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new, empty database; its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bindir / program), *args]
        if self._account is not None:
            command = _as_account(self._account, command)
        done = subprocess.run(command, capture_output=True, text=True, cwd=self.folder,
                              timeout=120, check=False)  # fmt: skip
        if done.returncode != 0:
            log = self.folder / "log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{program} failed ({done.returncode}): {done.stderr}{tail}")


def _as_account(account: str, command: list[str]) -> list[str]:
    """``command`` run as ``account``: with util-linux's runuser (root's PATH may lack
    /usr/sbin), else with su."""
    runuser = shutil.which("runuser") or next(
        (path for path in ("/usr/sbin/runuser", "/sbin/runuser") if Path(path).exists()), None
    )
    if runuser is not None:
        return [runuser, "-u", account, "--", *command]
    return ["su", "-s", "/bin/sh", "-c", shlex.join(command), account]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
