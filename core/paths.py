"""Where the app keeps its data: one folder for the database, logs, caches and files.

``--home`` beats ``INQUIRY_BRIDGE_HOME`` beats the platform's user data dir. The demo data set
lives in a sibling folder so trying the demo never touches the owner's real store.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import platformdirs

APP_NAME = "InquiryBridge"
HOME_ENV = "INQUIRY_BRIDGE_HOME"


def default_home() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def resolve_home(explicit: str | os.PathLike[str] | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser().resolve()
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser().resolve()
    return default_home()


class SharedFiles(Protocol):
    """Where raw mail, attachments, the knowledge base and the send journal live when the store
    is PostgreSQL (``core.db.shared_files.TableFiles``): in the store, so every desk sees them;
    the folder then keeps only this desk's cached copies."""

    def file_for(self, relative: str) -> Path: ...
    def keep(self, relative: str) -> None: ...
    def batch(self) -> contextlib.AbstractContextManager[None]: ...
    def local(self, relative: str) -> Path: ...
    def read_text(self, name: str) -> str | None: ...
    def update_text(self, name: str, change: Callable[[str | None], str | None]) -> None: ...
    def append_line(self, journal: str, line: bytes) -> None: ...
    def lines(self, journal: str) -> list[bytes]: ...


@dataclass(frozen=True)
class DataPaths:
    """Every location under the data folder, computed once.

    ``shared`` is None on SQLite: raw mail and attachments are files under ``home`` (the paths
    the rows keep are relative to it). On PostgreSQL it is the store's ``SharedFiles``: a file is
    written to ``file_for`` (this desk's cache), handed to ``keep`` before its row is committed,
    and read through ``stored``, which fetches what another desk stored."""

    home: Path
    shared: SharedFiles | None = field(default=None, compare=False, repr=False)

    def stored(self, stored_path: str | None) -> Path | None:
        """The file on disk for a path the store keeps (relative to the data folder, or an
        absolute one from an older version); None when nothing was stored."""
        if not stored_path:
            return None
        path = Path(stored_path)
        if path.is_absolute():
            return path
        if self.shared is not None:
            return self.shared.local(path.as_posix())
        return self.home / path

    def file_for(self, relative: str) -> Path:
        """Where to write the file the rows will know as ``relative`` (then call ``keep``)."""
        if self.shared is not None:
            return self.shared.file_for(relative)
        return self.home / relative

    def keep(self, relative: str) -> None:
        """The file written at ``file_for(relative)`` is complete: on PostgreSQL it goes into the
        store now, before the row pointing at it is committed; in the folder it is there."""
        if self.shared is not None:
            self.shared.keep(relative)

    def batch(self) -> contextlib.AbstractContextManager[None]:
        """``keep`` calls inside the block stored together at its end (one transaction)."""
        if self.shared is not None:
            return self.shared.batch()
        return contextlib.nullcontext()

    @property
    def settings_file(self) -> Path:
        return self.home / "settings.toml"

    @property
    def database(self) -> Path:
        return self.home / "inquiry-bridge.sqlite3"

    @property
    def secrets_file(self) -> Path:
        """Owner-only fallback for secrets where the OS has no keyring (core.secret_file)."""
        return self.home / "secrets.bin"

    @property
    def knowledge_file(self) -> Path:
        """The owner's knowledge base (``core.knowledge``): plain Markdown he edits."""
        return self.home / "knowledge.md"

    @property
    def logs(self) -> Path:
        return self.home / "logs"

    @property
    def raw_mail(self) -> Path:
        """Raw RFC 5322 bytes of every message seen, so a ``pending`` one can be re-parsed."""
        return self.home / "mail"

    @property
    def attachments(self) -> Path:
        return self.home / "attachments"

    @property
    def audio(self) -> Path:
        return self.home / "audio"

    @property
    def cache(self) -> Path:
        return self.home / "cache"

    @property
    def spool(self) -> Path:
        """Decoded attachments of a big mail between its parse and its stored row (the same
        disk as ``attachments``, so storing one is a rename)."""
        return self.cache / "spool"

    @property
    def token_cache(self) -> Path:
        """MSAL token cache (encrypted where the platform allows; never in SQLite)."""
        return self.home / "msal_token_cache.bin"

    @property
    def demo_home(self) -> Path:
        return self.home.parent / (self.home.name + "-demo")

    def ensure(self) -> DataPaths:
        """Create the folders, owner-only (0700 folders, 0600 files on POSIX).

        The data folder holds the owner's mail, customers' details and tokens: other local
        users must not read it. The process umask becomes 077 so everything created later
        (SQLite's database, WAL and SHM files, logs, raw mail, attachments, backups, the token
        cache) is owner-only from birth; what an older version left readable is tightened.
        """
        owner_only_umask()
        folders = (self.home, self.logs, self.raw_mail, self.attachments, self.audio, self.cache)
        try:
            for folder in folders:
                folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as exc:  # missing drive, a file in the way, no permission, disk full
            from core.errors import DataFolderUnusable, DiskFull

            if exc.errno == errno.ENOSPC:
                raise DiskFull(str(self.home)) from exc
            raise DataFolderUnusable(f"{self.home} ({exc.strerror or exc})") from exc
        if os.name == "posix":
            for folder in folders:
                _tighten(folder, 0o700)
            for pattern in ("*.sqlite3*", "*.bin", "*.toml", "*.md", "logs/*", "backups/*"):
                for path in self.home.glob(pattern):
                    _tighten(path, 0o700 if path.is_dir() else 0o600)
        return self

    def check_writable(self) -> None:
        """Raise ``DataFolderUnusable`` / ``DiskFull`` unless a file can be written here.

        Why: a folder that became read-only (or full) still opens and reads, so the tray app
        would start and then fail at its first write; it asks once, at start, and says so.
        """
        probe = self.home / f".write-probe-{os.getpid()}"
        try:
            handle = os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
            try:
                os.write(handle, b"\n")
            finally:
                os.close(handle)
            os.unlink(probe)
        except OSError as exc:
            from core.errors import DataFolderUnusable, DiskFull

            with contextlib.suppress(OSError):
                os.unlink(probe)
            if exc.errno in (errno.ENOSPC, errno.EFBIG):
                raise DiskFull(str(self.home)) from exc
            raise DataFolderUnusable(f"{self.home} ({exc.strerror or exc})") from exc

    @property
    def backups(self) -> Path:
        """Online copies of the database (``core.db.backup``)."""
        return self.home / "backups"


def owner_only_umask() -> None:
    """Files this process creates from now on are readable by their owner only (POSIX)."""
    if os.name == "posix":
        os.umask(0o077)


def _tighten(path: Path, mode: int) -> None:
    try:
        if path.stat().st_mode & 0o777 != mode:
            path.chmod(mode)
    except OSError:  # not ours to change (a shared mount): leave it
        pass
