"""A real IMAP server for tests: Debian's Dovecot as a child process with its own config.

Each ``DovecotServer`` owns a temporary folder (config, passwd-file, maildir, logs) and listens on
a free 127.0.0.1 port, plain text (loopback is the one place the app allows that). Dovecot's
login processes refuse to run as root, so under root (CI) they run as Debian's ``dovenull`` /
``dovecot`` users and the folder is handed to them; as any other user everything runs as that
user. Faults for tests: ``stop``/``start`` (the server going away mid-round),
``drop_connections`` (open connections cut, the server still up) and
``reset_uidvalidity`` (the mailbox renumbered, as after a server migration).
"""

from __future__ import annotations

import contextlib
import imaplib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from core.mailbox.folders import encode_utf7

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"

CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
instance_name = ib-test-{port}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = {internal}
default_internal_group = {internal_group}
default_login_user = {login}
first_valid_uid = 1
mail_plugins = {plugins}
imap_id_log = *
# IDLE learns of new mail by inotify, or every 30 s where inotify is out of instances (a busy
# CI machine): 1 s keeps an IDLE test about our client, not about the machine's limits
mailbox_idle_check_interval = 1 secs
plugin {{
  acl = vfile:{root}/global-acl
}}
mail_location = maildir:{root}/mail/%u
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
namespace inbox {{
  inbox = yes
  separator = /
  mailbox {sent} {{
{sent_flag}    auto = subscribe
  }}
  mailbox Drafts {{
    special_use = \\Drafts
    auto = subscribe
  }}
}}
"""


def available() -> bool:
    return Path(DOVECOT).exists()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class DovecotServer:
    """``user`` / ``password`` log in; ``port`` is where; ``url`` is the app's IMAP URL."""

    def __init__(
        self,
        root: Path,
        *,
        user: str = "owner@aurorawindows.com.au",
        password: str = "app-password-1",
        sent_name: str = "Sent",
        special_use: bool = True,
        keywords: bool = True,
    ) -> None:
        self.root = Path(root)
        self.user = user
        self.password = password
        self.port = free_port()
        self.sent_name = sent_name
        self.special_use = special_use
        self.keywords = keywords  # False: an ACL without "w", so no keyword can be stored
        self.proc: subprocess.Popen[bytes] | None = None
        self.users: dict[str, str] = {user: password}
        self._write_config()

    @property
    def url(self) -> str:
        return f"imap://{self.user}@127.0.0.1:{self.port}"

    def _ids(self) -> tuple[str, str, str, int, int]:
        if os.geteuid() != 0:
            me = pwd.getpwuid(os.getuid())
            return me.pw_name, me.pw_name, me.pw_name, me.pw_uid, me.pw_gid
        dovecot = pwd.getpwnam("dovecot")
        return "dovecot", "dovecot", "dovenull", dovecot.pw_uid, dovecot.pw_gid

    def _write_config(self) -> None:
        internal, group, login, uid, gid = self._ids()
        for sub in ("run", "state", "mail", "home"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        (self.root / "dovecot.conf").write_text(
            CONFIG.format(
                root=self.root,
                port=self.port,
                internal=internal,
                internal_group=group,
                login=login,
                uid=uid,
                gid=gid,
                sent=f'"{self.sent_name}"',
                sent_flag="    special_use = \\Sent\n" if self.special_use else "",
                plugins="" if self.keywords else "acl",
            )
        )
        # every right but "w" (flags other than \Seen and \Deleted, i.e. keywords)
        (self.root / "global-acl").write_text("* owner lrsitekxa\n")
        (self.root / "global-acl").chmod(0o644)
        self.write_users()
        (self.root / "dovecot.conf").chmod(0o644)
        for sub in ("", "run", "state", "mail", "home"):
            (self.root / sub).chmod(0o755)
        if os.geteuid() == 0:
            for path in (self.root, self.root / "mail", self.root / "home"):
                os.chown(path, uid, gid)

    def write_users(self, extra: str = "") -> None:
        """The passwd-file; ``extra`` adds Dovecot extra fields to the main user (e.g.
        ``nologin=y reason=...``: what a provider answers when IMAP is switched off)."""
        lines = [
            f"{u}:{{PLAIN}}{p}::::::{extra if u == self.user else ''}"
            for u, p in self.users.items()
        ]
        (self.root / "passwd").write_text("\n".join(lines) + "\n")
        (self.root / "passwd").chmod(0o644)  # the app under test sets an owner-only umask

    def start(self) -> DovecotServer:
        for stale in (self.root / "run").glob("*"):
            if stale.is_file():
                stale.unlink()
        self.proc = subprocess.Popen(
            [DOVECOT, "-F", "-c", str(self.root / "dovecot.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    if s.recv(16).startswith(b"* OK"):
                        return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"dovecot did not start: {self.log()}")

    def _descendants(self, pid: int) -> list[int]:
        """Processes this server started (login, imap, auth), from /proc."""
        try:
            text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
        except OSError:
            return []
        children = [int(c) for c in text.split()]
        return children + [g for c in children for g in self._descendants(c)]

    def stop(self) -> None:
        """The server goes away, open connections included (Dovecot's master leaves running
        imap processes serving their clients after it exits)."""
        if self.proc is not None:
            started = self._descendants(self.proc.pid)
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
            for pid in started:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)

    def drop_connections(self) -> None:
        """Every open IMAP connection is cut (its ``imap`` process killed), the server stays up:
        a connection lost in the middle of a command."""
        if self.proc is None:
            return
        for pid in self._descendants(self.proc.pid):
            with contextlib.suppress(OSError):
                if Path(f"/proc/{pid}/comm").read_text().strip() == "imap":
                    os.kill(pid, signal.SIGKILL)

    def log(self) -> str:
        path = self.root / "dovecot.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    # ------------------------------------------------------------------ test helpers
    def client(self) -> imaplib.IMAP4:
        conn = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
        try:
            conn.login(self.user, self.password)
        except imaplib.IMAP4.error as exc:
            raise AssertionError(f"{exc}; dovecot log: {self.log()}") from exc
        return conn

    def append(
        self, raw: bytes, *, folder: str = "INBOX", flags: str = "", when: float | None = None
    ) -> None:
        conn = self.client()
        try:
            date = imaplib.Time2Internaldate(when) if when is not None else None
            typ, data = conn.append(f'"{encode_utf7(folder)}"', flags or None, date, raw)
            assert typ == "OK", data
        finally:
            conn.logout()

    def fetch_all(self, folder: str = "INBOX") -> list[tuple[bytes, bytes]]:
        """(flags line, raw bytes) of every message in ``folder``, in UID order."""
        conn = self.client()
        try:
            conn.select(f'"{encode_utf7(folder)}"', readonly=True)
            _typ, data = conn.uid("FETCH", "1:*", "(FLAGS BODY.PEEK[])")
            return [(d[0], d[1]) for d in data if isinstance(d, tuple)]
        finally:
            conn.logout()

    def uidvalidity(self, folder: str = "INBOX") -> int:
        conn = self.client()
        try:
            conn.select(f'"{folder}"', readonly=True)
            return int(conn.response("UIDVALIDITY")[1][0])
        finally:
            conn.logout()

    def reset_uidvalidity(self, folder: str = "INBOX") -> None:
        """Renumber a folder (new UIDVALIDITY, new UIDs) as a server migration does: stop,
        drop Dovecot's UID list and indexes, start again."""
        self.stop()
        base = self.root / "mail" / self.user
        box = base if folder == "INBOX" else base / f".{folder}"
        for name in (
            "dovecot-uidlist",
            "dovecot.index",
            "dovecot.index.log",
            "dovecot.index.cache",
        ):
            (box / name).unlink(missing_ok=True)
        time.sleep(1.1)  # UIDVALIDITY is a timestamp: make sure the new one differs
        self.start()


@contextlib.contextmanager
def running(**options: bool) -> Iterator[DovecotServer]:
    """A started server in a folder outside pytest's owner-only tree (under root, Dovecot's own
    users must reach the passwd-file and the maildir); removed afterwards."""
    root = Path(tempfile.mkdtemp(prefix="ib-dovecot-"))
    server = DovecotServer(root, **options).start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
