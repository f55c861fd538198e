"""One running app per data folder: a second launch brings the first window forward and exits.

Who is first is decided by a file lock, ``<data folder>/.tray.lock`` (``InstanceLock``), held for
the app's whole life and released by the OS if it dies: two launches at the same moment cannot
both win, which two ``QLocalServer.listen`` calls (each removing the other's server first) could.
This lock is not the writer lock (``core.db.writer_lock``, held per write): the tray app holding
the folder does not stop a CLI ``ingest`` beside it. The winner listens on a QLocalServer whose
name is derived from the user and the data folder; a later launch connects, sends ``show`` and
quits. A stale server left by a crash is removed before listening (``removeServer``).

Signals:
    activated(): another launch asked this instance to show itself.
"""

from __future__ import annotations

import getpass
import hashlib
import time
from pathlib import Path

from filelock import FileLock
from filelock import Timeout
from PySide6.QtCore import QObject
from PySide6.QtCore import QThread
from PySide6.QtCore import Signal
from PySide6.QtNetwork import QLocalServer
from PySide6.QtNetwork import QLocalSocket


def server_name(home: Path) -> str:
    try:
        user = getpass.getuser()
    except Exception:  # no user name in some service contexts
        user = "user"
    digest = hashlib.sha256(f"{user}|{home.resolve()}".encode()).hexdigest()[:16]
    return f"inquiry-bridge-{digest}"


TRAY_LOCK_NAME = ".tray.lock"


class InstanceLock:
    """The tray app's claim on a data folder, for its lifetime."""

    def __init__(self, home: Path) -> None:
        self._lock = FileLock(str(home / TRAY_LOCK_NAME), mode=0o600, thread_local=False)

    def acquire(self) -> bool:
        """True when this process is the folder's tray app (nobody else holds the lock)."""
        try:
            self._lock.acquire(timeout=0)
        except Timeout:
            return False
        return True

    def release(self) -> None:
        if self._lock.is_locked:
            self._lock.release(force=True)


def raise_first(name: str, wait_ms: int = 10_000) -> bool:
    """Ask the running instance to show itself, retrying while it is still starting up (it
    holds the lock before it listens). True when it answered."""
    deadline = time.monotonic() + wait_ms / 1000
    while True:
        if notify_running(name):
            return True
        if time.monotonic() > deadline:
            return False
        QThread.msleep(200)


def notify_running(name: str, timeout_ms: int = 500) -> bool:
    """True if an instance is listening on ``name`` (it has been told to show itself)."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(timeout_ms):
        return False
    socket.write(b"show\n")
    socket.flush()
    socket.waitForBytesWritten(timeout_ms)
    socket.disconnectFromServer()
    return True


class SingleInstance(QObject):
    activated = Signal()

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.server = QLocalServer(self)
        self.server.newConnection.connect(self._on_connection)

    def listen(self) -> bool:
        QLocalServer.removeServer(self.name)
        return self.server.listen(self.name)

    def _on_connection(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            socket.readyRead.connect(lambda s=socket: self._on_ready(s))
            socket.disconnected.connect(socket.deleteLater)
            if socket.bytesAvailable():
                self._on_ready(socket)

    def _on_ready(self, socket: QLocalSocket) -> None:
        data = bytes(socket.readAll().data())
        if b"show" in data:
            self.activated.emit()

    def close(self) -> None:
        self.server.close()
