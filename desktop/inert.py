"""Widgets that show customer and model text inert (``core.text.inert`` says why).

- ``plain_label``: a QLabel that never guesses rich text (Qt's default ``AutoText`` renders a
  mail whose first line looks like HTML, images and all).
- ``InertBrowser``: a QTextBrowser that loads no resource of any kind (``loadResource`` refuses
  and records the refusal), opens nothing by itself (``openLinks`` and ``openExternalLinks``
  off), hands the app's own links (``draft:``, ``attachment:``) to ``internal_link`` and sends
  every http(s) click through the ``LinkGate``; any other scheme does nothing.
- ``LinkGate``: before an http(s) link opens, a dialog names the real target; only its 打开
  button opens it (``QDesktopServices``).

Signals (InertBrowser):
    internal_link(QUrl): a click on one of ``internal_schemes``.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtCore import QUrl
from PySide6.QtCore import Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QTextBrowser
from PySide6.QtWidgets import QWidget

from core.app.types import clickable_url

__all__ = ["InertBrowser", "LinkGate", "make_plain", "plain_label"]


def make_plain(label: QLabel) -> QLabel:
    """Show ``label``'s text literally, whatever it looks like."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setOpenExternalLinks(False)
    return label


def plain_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    """A QLabel for text a customer or the model wrote: plain text, always."""
    label = make_plain(QLabel(parent))
    label.setText(text)
    return label


class LinkGate(QObject):
    """Opens an http(s) link only after the owner has read its real target and said 打开."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.owner = parent
        self.dialog: QMessageBox | None = None
        self.refused: list[str] = []  # links that were not http(s): never opened

    def request(self, url: QUrl) -> bool:
        """Ask before opening ``url``; False (and nothing shown) when it may not be opened."""
        target = clickable_url(url.toString(QUrl.ComponentFormattingOption.FullyEncoded))
        if target is None:
            self.refused.append(url.toString())
            return False
        dialog = QMessageBox(self.owner)
        dialog.setIcon(QMessageBox.Icon.Question)
        dialog.setTextFormat(Qt.TextFormat.PlainText)
        dialog.setWindowTitle(self.tr("Open link"))
        dialog.setText(self.tr("Open this address in the browser?") + "\n\n" + target)
        open_button = dialog.addButton(self.tr("Open"), QMessageBox.ButtonRole.AcceptRole)
        dialog.addButton(self.tr("Cancel"), QMessageBox.ButtonRole.RejectRole)
        dialog.setDefaultButton(QMessageBox.StandardButton.NoButton)

        def done() -> None:
            if dialog.clickedButton() is open_button:
                QDesktopServices.openUrl(QUrl(target, QUrl.ParsingMode.StrictMode))
            self.dialog = None

        dialog.finished.connect(done)
        self.dialog = dialog
        dialog.open()
        return True


class InertBrowser(QTextBrowser):
    internal_link = Signal(QUrl)

    def __init__(
        self, parent: QWidget | None = None, *, internal_schemes: frozenset[str] = frozenset()
    ) -> None:
        super().__init__(parent)
        self.internal_schemes = internal_schemes
        self.refused_resources: list[str] = []
        self.links = LinkGate(self)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._on_anchor)

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        """No image, style sheet or anything else is ever fetched: local, UNC or remote."""
        self.refused_resources.append(QUrl(name).toString())
        return None

    def _on_anchor(self, url: QUrl) -> None:
        if url.scheme() in self.internal_schemes:
            self.internal_link.emit(url)
        else:
            self.links.request(url)
