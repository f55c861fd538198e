"""Getting the multilingual voice model from the desktop: the offer, the download, the import.

``offer_multilingual_model`` is the dialog shown when the English-only model heard Chinese (and
the settings page's "Download" button): it names the model and its size, and offers the download
or an import from a folder / zip (USB stick). ``ModelDownloadDialog`` runs
``App.voice.download`` (``core.voice.download``) on a worker thread with a progress bar and a cancel button
(a cancelled download resumes next time); on success it selects the model (``voice.model_dir``)
and says so. Dialogs are opened with ``open()`` (never ``exec()``), so nothing blocks the event
loop and tests can drive them.

Signals (ModelDownloadDialog):
    installed(str)  folder of the newly selected model
"""

from __future__ import annotations

import contextlib
import threading
from pathlib import Path
from typing import TYPE_CHECKING
from typing import TypeAlias

import shiboken6
from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QFileDialog
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QProgressBar
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import start_daemon
from core.app.types import RECOMMENDED
from core.app.types import InquiryBridgeError
from core.app.types import VoiceService
from core.app.types import format_size
from desktop.i18n import current_language
from desktop.look import set_tone

if TYPE_CHECKING:
    from core.app import FrontEnd

# what the voice widgets are handed: the folder's App, or its voice service itself
VoiceOwner: TypeAlias = "FrontEnd | VoiceService"

_open: set[QWidget] = set()


def _keep(widget: QWidget) -> None:
    """A dialog without a living parent is owned by Python: keep it until it closes."""
    _open.add(widget)
    widget.finished.connect(lambda *_a, w=widget: _open.discard(w))  # type: ignore[attr-defined]


def voice_of(owner: VoiceOwner) -> VoiceService:
    """The voice service the voice widgets work through: ``owner`` is an ``App`` (its own
    ``voice``) or that service itself; a bare ``Services`` (deprecated, a window not moved to
    ``ctx.app`` yet) gets one over its settings and paths, as the widgets read them before."""
    if isinstance(owner, VoiceService):
        return owner
    voice = getattr(owner, "voice", None)
    if isinstance(voice, VoiceService):
        return voice
    return VoiceService(owner.settings, owner.paths)


class _Bridge(QObject):
    progress = Signal(int, int)
    done = Signal(object, object)  # (Path | None, BaseException | None)


class ModelDownloadDialog(QDialog):
    installed = Signal(str)

    def __init__(self, owner: VoiceOwner, parent: QWidget | None = None) -> None:
        """``owner``: the folder's ``App`` (or its ``voice``); see ``voice_of``."""
        super().__init__(parent)
        self.voice = voice_of(owner)
        self.setWindowTitle(self.tr("Download the Chinese voice model"))
        self.setMinimumWidth(420)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.bar = QProgressBar(self)
        self.bar.setRange(0, 1000)
        self.bar.setTextVisible(False)
        self.amount = QLabel(self)
        self.amount.setObjectName("downloadAmount")
        self.buttons = QDialogButtonBox(self)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.close_button.setVisible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.message)
        layout.addWidget(self.bar)
        layout.addWidget(self.amount)
        layout.addWidget(self.buttons)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.accept)
        self._cancel = threading.Event()
        self._bridge = _Bridge(self)
        self._bridge.progress.connect(self._on_progress)
        self._bridge.done.connect(self._on_done)
        self.folder: Path | None = None
        self.error: BaseException | None = None
        self.running = False

    def start(self) -> None:
        """Begin (or resume) the download on a worker thread."""
        endpoint = self.voice.hub_endpoint()
        self.message.setText(
            self.tr("Downloading Whisper %1 (about %2) from %3 …")
            .replace("%1", RECOMMENDED.name)
            .replace("%2", format_size(RECOMMENDED.approx_bytes))
            .replace("%3", endpoint)
        )
        self.running = True
        bridge, cancel, voice = self._bridge, self._cancel, self.voice

        def work() -> None:
            try:
                folder = voice.download(
                    endpoint=endpoint,
                    progress=lambda d, t: _emit(bridge, "progress", d, t),
                    cancel=cancel,
                )
            except BaseException as exc:  # reported in the dialog
                _emit(bridge, "done", None, exc)
            else:
                _emit(bridge, "done", folder, None)

        start_daemon(work, "model-download")

    def cancel(self) -> None:
        if self.running:
            self._cancel.set()
        else:
            self.reject()

    def _on_progress(self, done: int, total: int) -> None:
        self.bar.setValue(int(1000 * done / total) if total else 0)
        self.amount.setText(f"{format_size(done)} / {format_size(total)}")

    def _on_done(self, folder: Path | None, error: BaseException | None) -> None:
        self.running = False
        self.cancel_button.setVisible(False)
        self.close_button.setVisible(True)
        if error is not None:
            self.error = error
            text = (
                error.user_message(current_language())
                if isinstance(error, InquiryBridgeError)
                else str(error)
            )
            self.message.setText(text)
            set_tone(self.message, "error")
            return
        assert folder is not None
        self.voice.select_model(folder)
        self.folder = folder
        self.bar.setValue(1000)
        self.message.setText(
            self.tr("Done. Whisper %1 is now used for dictation, in Chinese and English.").replace(
                "%1", RECOMMENDED.name
            )
        )
        self.installed.emit(str(folder))


def select_model(owner: VoiceOwner, folder: Path) -> None:
    """Make ``folder`` the dictation model from now on."""
    voice_of(owner).select_model(folder)


def start_download(owner: VoiceOwner, parent: QWidget | None) -> ModelDownloadDialog:
    dialog = ModelDownloadDialog(owner, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    _keep(dialog)
    dialog.open()
    dialog.start()
    return dialog


def import_from_disk(owner: VoiceOwner, parent: QWidget | None, source: str = "") -> Path | None:
    """Ask for a model folder or zip (unless given), import it and select it; errors in a box."""
    if not source:
        source, _filter = QFileDialog.getOpenFileName(
            parent,
            QCoreApplication.translate("ModelDownload", "Import a Whisper model (zip)"),
            str(Path.home()),
            "Zip (*.zip)",
        )
    if not source:
        source = QFileDialog.getExistingDirectory(
            parent,
            QCoreApplication.translate("ModelDownload", "Import a Whisper model folder"),
            str(Path.home()),
        )
    if not source:
        return None
    try:
        folder = voice_of(owner).import_model(Path(source))
    except InquiryBridgeError as exc:
        box = QMessageBox(QMessageBox.Icon.Warning, "", exc.user_message(current_language()))
        _keep(box)
        box.open()
        return None
    select_model(owner, folder)
    return folder


def offer_multilingual_model(owner: VoiceOwner, parent: QWidget | None) -> QMessageBox:
    """The English-only model heard Chinese: say so, and offer the download or an import."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Information)
    box.setWindowTitle(
        QCoreApplication.translate("ModelDownload", "Chinese needs another voice model")
    )
    box.setText(
        QCoreApplication.translate(
            "ModelDownload",
            "The current voice model only understands English, so nothing was inserted.\n\n"
            "Download Whisper %1 (about %2, once) to dictate in Chinese and English? "
            "It is stored on this PC; dictation never leaves it.",
        )
        .replace("%1", RECOMMENDED.name)
        .replace("%2", format_size(RECOMMENDED.approx_bytes))
    )
    download = box.addButton(
        QCoreApplication.translate("ModelDownload", "Download"), QMessageBox.ButtonRole.AcceptRole
    )
    importer = box.addButton(
        QCoreApplication.translate("ModelDownload", "Import from folder or zip…"),
        QMessageBox.ButtonRole.ActionRole,
    )
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setObjectName("offerMultilingualModel")
    box.setProperty("download_button", download)
    box.setProperty("import_button", importer)

    def clicked(button: QPushButton) -> None:
        if button is download:
            start_download(owner, parent)
        elif button is importer:
            import_from_disk(owner, parent)

    box.buttonClicked.connect(clicked)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    _keep(box)
    box.open()
    return box


def _emit(bridge: _Bridge, name: str, *args: object) -> None:
    if shiboken6.isValid(bridge):
        with contextlib.suppress(RuntimeError):
            getattr(bridge, name).emit(*args)
