"""One running app per data folder: a second launch brings the first window forward and exits.

The first instance listens on a QLocalServer whose name is derived from the user and the data
folder; a later launch connects, sends ``show`` and quits. A stale server left by a crash is
removed before listening (``QLocalServer.removeServer``).

Signals:
    activated(): another launch asked this instance to show itself.
"""

from __future__ import annotations

import getpass
import hashlib
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket


def server_name(home: Path) -> str:
    try:
        user = getpass.getuser()
    except Exception:  # no user name in some service contexts
        user = "user"
    digest = hashlib.sha256(f"{user}|{home.resolve()}".encode()).hexdigest()[:16]
    return f"inquiry-bridge-{digest}"


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
