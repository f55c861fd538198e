"""The 语音 (voice) page of the settings dialog.

The owner must be able to see, in Chinese, which Whisper model is active — its name, the
languages it understands and its size (the folder path only in a tooltip: it means nothing to
him) — and get the multilingual model with one click: "Download" (``model_download``; through
the Hub or the mirror typed here, e.g. https://hf-mirror.com) or "Import" from a folder or zip.
He can still choose a model folder with a folder picker; the page checks the folder as he picks
it (model.bin, config.json, tokenizer) and says whether it is multilingual, so a wrong folder is
caught here rather than at the first dictation.

``save()`` writes the settings (called by the dialog's OK); the next dictation uses the new model
(``shared_transcriber`` keys its warm model by folder/device/compute type). When
``INQUIRY_BRIDGE_WHISPER_MODEL`` is set it wins, so the folder field is read-only and says why.

Microphones are listed only when asked ("Check microphone"): probing QtMultimedia makes Qt look
for PulseAudio/PipeWire, which is slow and noisy on machines without sound, and opening the
settings dialog must stay instant.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QFileDialog
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import RECOMMENDED
from core.app.types import WHISPER_MODEL_ENV_VAR as ENV_VAR
from core.app.types import InquiryBridgeError
from core.app.types import ModelChoice
from core.app.types import SettingValue
from core.app.types import format_size
from desktop.i18n import current_language
from desktop.look import add_field_row
from desktop.look import set_tone
from desktop.voice.model_download import ModelDownloadDialog
from desktop.voice.model_download import VoiceOwner
from desktop.voice.model_download import import_from_disk
from desktop.voice.model_download import start_download
from desktop.voice.model_download import voice_of

if TYPE_CHECKING:
    from core.app.types import Settings

LANGUAGE_KEYS = ("auto", "zh", "en")
DEVICES = ("cpu", "cuda")
COMPUTE_TYPES = ("int8", "int8_float16", "float16", "float32")
MULTILINGUAL_EXAMPLE = "faster-whisper-small"


class VoiceSettingsPage(QWidget):
    def __init__(self, app: VoiceOwner, parent: QWidget | None = None) -> None:
        """``app``: the folder's ``App`` (a bare ``Services`` still works, deprecated)."""
        super().__init__(parent)
        self.voice = voice_of(app)
        settings = self.voice.settings
        self._env_locked = settings.overridden_by_env("voice.model_dir")

        get_row = self._build_model_section(settings)
        folder_box = self._build_folder_row(settings)
        self._build_options(settings)
        mic_box = self._build_mic_row()

        self.labels = {
            key: QLabel()
            for key in ("folder", "mirror", "language", "max", "device", "compute", "mic")
        }
        form = QFormLayout()
        form.addRow(self.labels["mirror"], self.mirror)
        form.addRow(self.labels["folder"], folder_box)
        add_field_row(form, self.folder_check)
        form.addRow(self.labels["language"], self.language)
        form.addRow(self.labels["max"], self.max_seconds)
        form.addRow(self.labels["device"], self.device)
        form.addRow(self.labels["compute"], self.compute_type)
        form.addRow(self.labels["mic"], mic_box)

        layout = QVBoxLayout(self)
        layout.addWidget(self.model_title)
        layout.addWidget(self.active_model)
        layout.addWidget(self.how_to)
        layout.addLayout(get_row)
        layout.addLayout(form)
        layout.addStretch(1)

        self.browse_button.clicked.connect(self.choose_folder)
        self.bundled_button.clicked.connect(lambda: self.folder.setText(""))
        self.folder.textChanged.connect(self._check_folder)
        self.mic_button.clicked.connect(self.check_microphones)
        self.download_button.clicked.connect(self.download)
        self.import_button.clicked.connect(self.import_model)
        self.retranslate()

    # -- building ------------------------------------------------------------------------------
    def _build_model_section(self, settings: Settings) -> QHBoxLayout:
        """The active model, how to get a multilingual one, the download/import buttons, mirror."""
        self.model_title = QLabel()
        self.model_title.setObjectName("sectionTitle")
        title_font = self.model_title.font()
        title_font.setBold(True)
        self.model_title.setFont(title_font)
        self.active_model = QLabel()
        self.active_model.setObjectName("activeModel")
        self.active_model.setWordWrap(True)
        self.active_model.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.how_to = QLabel()
        self.how_to.setObjectName("howTo")
        self.how_to.setWordWrap(True)
        self.download_button = QPushButton()
        self.download_button.setObjectName("downloadModel")
        self.import_button = QPushButton()
        self.import_button.setObjectName("importModel")
        self.download_button.setEnabled(not self._env_locked)
        self.import_button.setEnabled(not self._env_locked)
        get_row = QHBoxLayout()
        get_row.addWidget(self.download_button)
        get_row.addWidget(self.import_button)
        get_row.addStretch(1)
        self.mirror = QLineEdit(settings.text("voice.hub_endpoint"))
        self.mirror.setObjectName("hubMirror")
        self.mirror.setReadOnly(settings.overridden_by_env("voice.hub_endpoint"))
        self.download_dialog: ModelDownloadDialog | None = None
        return get_row

    def _build_folder_row(self, settings: Settings) -> QWidget:
        """The model folder field with its folder picker and "bundled" button, and its check."""
        self.folder = QLineEdit(settings.text("voice.model_dir"))
        self.folder.setObjectName("modelFolder")
        self.folder.setReadOnly(self._env_locked)
        self.browse_button = QPushButton()
        self.browse_button.setEnabled(not self._env_locked)
        self.bundled_button = QPushButton()
        self.bundled_button.setEnabled(not self._env_locked)
        folder_row = QHBoxLayout()
        folder_row.setContentsMargins(0, 0, 0, 0)
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(self.browse_button)
        folder_row.addWidget(self.bundled_button)
        folder_box = QWidget()
        folder_box.setLayout(folder_row)
        self.folder_check = QLabel()
        self.folder_check.setObjectName("folderCheck")
        self.folder_check.setWordWrap(True)
        return folder_box

    def _build_options(self, settings: Settings) -> None:
        """Recognition language, maximum length, device and compute type."""
        self.language = QComboBox()
        for key in LANGUAGE_KEYS:
            self.language.addItem("", key)
        self._select(self.language, settings.text("voice.language"))
        self.max_seconds = QSpinBox()
        self.max_seconds.setRange(10, 600)
        self.max_seconds.setSingleStep(10)
        self.max_seconds.setValue(settings.number("voice.max_seconds"))
        self.device = QComboBox()
        for key in DEVICES:
            self.device.addItem(key, key)
        self._select(self.device, settings.text("voice.device"))
        self.compute_type = QComboBox()
        for key in COMPUTE_TYPES:
            self.compute_type.addItem(key, key)
        self._select(self.compute_type, settings.text("voice.compute_type"))

    def _build_mic_row(self) -> QWidget:
        """The "Check microphone" button and its result (probed only when asked)."""
        self.mic_button = QPushButton()
        self.mic_status = QLabel()
        self.mic_status.setObjectName("micStatus")
        self.mic_status.setWordWrap(True)
        mic_row = QHBoxLayout()
        mic_row.setContentsMargins(0, 0, 0, 0)
        mic_row.addWidget(self.mic_button)
        mic_row.addWidget(self.mic_status, 1)
        mic_box = QWidget()
        mic_box.setLayout(mic_row)
        return mic_box

    # -- actions -----------------------------------------------------------------------------
    def choose_folder(self) -> None:
        start = self.folder.text().strip() or str(Path.home())
        chosen = QFileDialog.getExistingDirectory(
            self, self.tr("Choose a Whisper model folder"), start
        )
        if chosen:
            self.folder.setText(chosen)

    def download(self) -> None:
        """Download the recommended multilingual model (the mirror field is saved first)."""
        if not self.mirror.isReadOnly():
            self.voice.settings.set("voice.hub_endpoint", self.mirror.text().strip())
        self.download_dialog = start_download(self.voice, self)
        self.download_dialog.installed.connect(self._installed)

    def import_model(self, source: str = "") -> None:
        folder = import_from_disk(self.voice, self, source)
        if folder is not None:
            self._installed(str(folder))

    def _installed(self, folder: str) -> None:
        self.folder.setText(folder)
        self.refresh()

    def check_microphones(self) -> None:
        from PySide6.QtMultimedia import QMediaDevices

        devices = QMediaDevices.audioInputs()
        if not devices:
            self._status(
                self.mic_status,
                self.tr("No microphone found. Connect a microphone or headset."),
                ok=False,
            )
            return
        default = QMediaDevices.defaultAudioInput()
        names = [d.description() for d in devices]
        text = self.tr("%n microphone(s): ", "", len(names)) + "、".join(names)
        if not default.isNull():
            text += "\n" + self.tr("In use: %1").replace("%1", default.description())
        self._status(self.mic_status, text, ok=True)

    def values(self) -> dict[str, SettingValue]:
        values: dict[str, SettingValue] = {
            "voice.language": self.language.currentData(),
            "voice.max_seconds": self.max_seconds.value(),
            "voice.device": self.device.currentData(),
            "voice.compute_type": self.compute_type.currentData(),
        }
        if not self._env_locked:
            values["voice.model_dir"] = self.folder.text().strip()
        if not self.mirror.isReadOnly():
            values["voice.hub_endpoint"] = self.mirror.text().strip()
        return values

    def save(self) -> None:
        """Write the voice settings (the dialog's OK). An unusable folder is saved as chosen:
        the check line already says what is wrong, and dictation will say it again."""
        self.voice.settings.update(self.values())
        self.refresh()

    def refresh(self) -> None:
        """Re-read which model is active (after saving, or when the page is shown)."""
        try:
            choice = self.voice.model_choice()
        except InquiryBridgeError as exc:
            self._status(self.active_model, exc.user_message(current_language()), ok=False)
            return
        self.active_model.setText(self._describe(choice))
        self.active_model.setToolTip(str(choice.path))  # for support; he needs no path
        self.active_model.setStyleSheet("")

    # -- display -----------------------------------------------------------------------------
    def _describe(self, choice: ModelChoice) -> str:
        source = {
            "env": self.tr("set by the environment variable %1").replace("%1", ENV_VAR),
            "settings": self.tr("chosen in these settings"),
            "bundled": self.tr("bundled with the app"),
        }[choice.source]
        return "\n".join(
            [
                self.tr("Active model: Whisper %1 (%2)")
                .replace("%1", choice.name)
                .replace("%2", source),
                self.tr("Languages: %1").replace("%1", self._languages(choice.multilingual)),
                self.tr("Size: %1").replace("%1", format_size(choice.size_bytes)),
            ]
        )

    def _languages(self, multilingual: bool | None) -> str:
        if multilingual is None:
            return self.tr("unknown")
        if multilingual:
            return self.tr("Chinese (Mandarin), English and other languages")
        return self.tr("English only — Chinese speech cannot be recognised")

    def _check_folder(self) -> None:
        text = self.folder.text().strip()
        if not text:
            self._status(self.folder_check, self.tr("Empty: the bundled model is used."), ok=True)
            return
        folder = Path(text).expanduser()
        try:
            self.voice.check_model_dir(folder)
        except InquiryBridgeError as exc:
            self._status(self.folder_check, exc.detail, ok=False)
            return
        self._status(
            self.folder_check,
            self.tr("Whisper model found. Languages: %1").replace(
                "%1", self._languages(self.voice.is_multilingual(folder))
            ),
            ok=True,
        )

    @staticmethod
    def _status(label: QLabel, text: str, *, ok: bool) -> None:
        label.setText(text)
        set_tone(label, "ok" if ok else "error")

    @staticmethod
    def _select(combo: QComboBox, key: str) -> None:
        index = combo.findData(key)
        combo.setCurrentIndex(max(0, index))

    def retranslate(self) -> None:
        self.model_title.setText(self.tr("Voice dictation (local, nothing leaves this PC)"))
        self.how_to.setText(
            self.tr(
                "To dictate in Chinese you need a multilingual Whisper model, %1 (about %2). "
                "Press “Download” once (if huggingface.co is slow or blocked, type a mirror such "
                "as https://hf-mirror.com below first), or bring the model on a USB stick as a "
                "folder or zip and press “Import”. The app never downloads models by itself, "
                "only when you press Download."
            )
            .replace("%1", MULTILINGUAL_EXAMPLE)
            .replace("%2", format_size(RECOMMENDED.approx_bytes))
        )
        self.download_button.setText(
            self.tr("Download %1 (about %2)")
            .replace("%1", MULTILINGUAL_EXAMPLE)
            .replace("%2", format_size(RECOMMENDED.approx_bytes))
        )
        self.import_button.setText(self.tr("Import from folder or zip…"))
        self.labels["mirror"].setText(self.tr("Download mirror"))
        self.mirror.setPlaceholderText(self.tr("Empty = huggingface.co"))
        self.labels["folder"].setText(self.tr("Model folder"))
        self.labels["language"].setText(self.tr("Spoken language"))
        self.labels["max"].setText(self.tr("Longest recording"))
        self.labels["device"].setText(self.tr("Device"))
        self.labels["compute"].setText(self.tr("Compute type"))
        self.labels["mic"].setText(self.tr("Microphone"))
        self.folder.setPlaceholderText(self.tr("Empty = the bundled English model"))
        if self._env_locked:
            self.folder.setToolTip(
                self.tr("Set by the environment variable %1; change it there.").replace(
                    "%1", ENV_VAR
                )
            )
        self.browse_button.setText(self.tr("Browse…"))
        self.bundled_button.setText(self.tr("Use bundled"))
        names = {
            "auto": self.tr("Automatic (Chinese or English)"),
            "zh": self.tr("Chinese (Mandarin, written in Simplified characters)"),
            "en": self.tr("English"),
        }
        for i, key in enumerate(LANGUAGE_KEYS):
            self.language.setItemText(i, names[key])
        self.max_seconds.setSuffix(self.tr(" s"))
        devices = {
            "cpu": self.tr("This computer's processor (works everywhere)"),
            "cuda": self.tr("NVIDIA graphics card"),
        }
        for i, key in enumerate(DEVICES):
            self.device.setItemText(i, devices[key])
        computes = {
            "int8": self.tr("8-bit integers (fastest on a normal computer)"),
            "int8_float16": self.tr("8-bit integers and 16-bit floats (graphics card)"),
            "float16": self.tr("16-bit floats (graphics card)"),
            "float32": self.tr("32-bit floats (most exact, slowest)"),
        }
        for i, key in enumerate(COMPUTE_TYPES):
            self.compute_type.setItemText(i, computes[key])
        self.mic_button.setText(self.tr("Check microphone"))
        self._check_folder()
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
