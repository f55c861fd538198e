"""``VoiceService``: the voice model and audio files of one data folder, for the front ends.

Why a service: the desktop's dictation, its voice settings page and the model download dialog
reach the Whisper model, the model folder and WAV files; they get all of it here (over the
folder's settings and paths) instead of importing ``core.voice`` themselves. Nothing here waits
on Whisper or the network by itself: ``transcriber()`` returns the warm process-wide model
(loading happens on its worker thread), and ``download``/``import_model`` are blocking calls the
caller runs on a worker thread, as the dialog always did.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from core.config import Settings
from core.paths import DataPaths
from core.voice.audio import WavWriter, concat_wavs
from core.voice.download import RECOMMENDED, HubModel, download_model, hub_endpoint, import_model
from core.voice.live import LiveDictation, PartialFn
from core.voice.models import ModelChoice, check_model_dir, is_multilingual, resolve_model_dir
from core.voice.transcriber import Transcriber, shared_transcriber


class VoiceService:
    """The Whisper model, its download and import, and the WAV files of one data folder."""

    def __init__(self, settings: Settings, paths: DataPaths) -> None:
        self.settings = settings
        self.paths = paths

    # -- the model --------------------------------------------------------------------------
    def transcriber(self) -> Transcriber:
        """The warm process-wide transcriber for the current model settings (raises
        ``TranscriptionError`` in Chinese when no usable model is set up)."""
        return shared_transcriber(self.settings)

    def live(
        self, transcriber: Transcriber, *, on_partial: PartialFn | None = None
    ) -> LiveDictation:
        """Recognition at the owner's pauses while he still talks (``core.voice.live``)."""
        return LiveDictation(transcriber, on_partial=on_partial)

    def model_choice(self) -> ModelChoice:
        """Which model folder dictation would use and why (settings, env, bundled); validated."""
        return resolve_model_dir(self.settings)

    def check_model_dir(self, folder: Path) -> None:
        """Raise ``TranscriptionError`` (Chinese) unless ``folder`` holds a Whisper model."""
        check_model_dir(folder)

    def is_multilingual(self, folder: Path) -> bool | None:
        """The model in ``folder`` knows Chinese (None: cannot tell from its files)."""
        return is_multilingual(folder)

    def select_model(self, folder: Path) -> None:
        """Use the model in ``folder`` from now on (the ``voice.model_dir`` setting)."""
        self.settings.set("voice.model_dir", str(folder))

    # -- download and import ----------------------------------------------------------------
    def hub_endpoint(self) -> str:
        """Where ``download`` fetches from (``voice.hub_endpoint``, ``HF_ENDPOINT``, the Hub)."""
        return hub_endpoint(self.settings)

    def download(
        self,
        model: HubModel = RECOMMENDED,
        *,
        endpoint: str | None = None,
        progress: Callable[[int, int], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> Path:
        """Download, verify and install ``model`` into the data folder. Blocking: run it on a
        worker thread (it reads the network for minutes)."""
        return download_model(
            self.paths.home, model, endpoint=endpoint, progress=progress, cancel=cancel
        )

    def import_model(self, source: Path) -> Path:
        """Copy a model from a folder or .zip into the data folder; returns the installed folder.
        Raises ``ModelDownloadError`` (Chinese) for anything that is not a usable model."""
        return import_model(self.paths.home, source)

    # -- audio files ------------------------------------------------------------------------
    def wav_writer(self, path: Path) -> WavWriter:
        """A 16 kHz mono WAV file the recorder appends microphone chunks to."""
        return WavWriter(path)

    def concat_wavs(self, paths: list[Path], out: Path) -> Path:
        """Join recordings into one WAV (a voice note dictated in several presses)."""
        return concat_wavs(paths, out)
