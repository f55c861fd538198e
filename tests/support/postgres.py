"""A real PostgreSQL for tests: Debian's server binaries as an unprivileged child process.

``PostgresServer`` runs ``initdb`` into a temporary folder and ``pg_ctl`` on a free 127.0.0.1
port with its socket in that folder, the way ``tests.support.dovecot`` starts Dovecot. ``initdb``
refuses to run as root, so under root (CI) the server runs as Debian's ``postgres`` user and the
folder is handed to it; as any other user it runs as that user. Loopback connections are trusted
(no password) except for the role ``PASSWORD_ROLE``, which must give ``PASSWORD``: the one way a
test can see a refused password. Each test gets its own empty database (``new_database``).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

BIN = Path(os.environ.get("INQUIRY_BRIDGE_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"))
SUPERUSER = "ib_admin"
PASSWORD_ROLE = "ib_secret"
PASSWORD = "right-password"


def available() -> str | None:
    """Why the server cannot start here, or None when it can."""
    for tool in ("initdb", "pg_ctl", "postgres"):
        if not (BIN / tool).exists():
            return f"PostgreSQL server binaries not found in {BIN} (apt-get install postgresql)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and no 'postgres' user to run the server as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One PostgreSQL cluster in a temporary folder; ``stop`` removes it.

    ``IB_TEST_PG_PORT`` (a developer's shortcut) attaches to a server started earlier by this
    class on that port instead of starting one: ``start``/``stop`` then do nothing."""

    def __init__(self) -> None:
        self.attached = os.environ.get("IB_TEST_PG_PORT")
        self.root: Path | None = None  # its own temporary folder, made by ``start``
        self.data = Path()
        self.port = _free_port()  # nothing listens here until ``start`` (a "no server" URL)
        self._names = itertools.count(1)
        self._as: list[str] = []

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            [*self._as, *args], capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stdout}\n{done.stderr}")

    def start(self) -> PostgresServer:
        if self.attached:
            self.port = int(self.attached)
            self._names = itertools.count(int(time.time() * 1000) % 10**9)
            return self
        self.root = Path(tempfile.mkdtemp(prefix="ib-pg-"))
        self.data = self.root / "data"
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self._run(
            str(BIN / "initdb"),
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        )
        hba = self.data / "pg_hba.conf"
        rules = (
            f"host all {PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256\n"
            "local all all trust\n"
            "host all all 127.0.0.1/32 trust\n"
        )
        hba.write_text(rules, encoding="utf-8")
        options = (
            f"-k {self.root} -c listen_addresses=127.0.0.1 -p {self.port} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
            "-c max_connections=200 -c shared_buffers=32MB"
        )
        self._run(
            str(BIN / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-t",
            "60",
            "start",
        )
        with self._admin() as conn:
            conn.execute(f"CREATE ROLE {PASSWORD_ROLE} LOGIN PASSWORD '{PASSWORD}'")
        return self

    @contextlib.contextmanager
    def _admin(self, dbname: str = "postgres"):  # type: ignore[no-untyped-def]
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=SUPERUSER, dbname=dbname, autocommit=True
        ) as conn:
            yield conn

    def url(self, database: str, user: str = SUPERUSER, password: str | None = None) -> str:
        auth = f"{user}:{password}" if password is not None else user
        return f"postgresql+psycopg://{auth}@127.0.0.1:{self.port}/{database}"

    def new_database(self, prefix: str = "t") -> str:
        """A fresh empty database; its SQLAlchemy URL (as the superuser, no password)."""
        name = f"{prefix}_{next(self._names)}"
        with self._admin() as conn:
            conn.execute(f"CREATE DATABASE {name}")
            conn.execute(f"GRANT ALL ON DATABASE {name} TO {PASSWORD_ROLE}")
        with self._admin(name) as conn:
            conn.execute(f"GRANT ALL ON SCHEMA public TO {PASSWORD_ROLE}")
        return self.url(name)

    def stop(self) -> None:
        if self.attached or self.root is None:  # nothing of ours runs or was made
            return
        with contextlib.suppress(Exception):
            self._run(str(BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
