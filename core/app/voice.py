"""``VoiceService``: the voice model and audio files of one data folder, for the front ends.

Why a service: the desktop's dictation, its voice settings page and the model download dialog
reach the Whisper model, the model folder and WAV files; they get all of it here (over the
folder's settings and paths) instead of importing ``core.voice`` themselves. Nothing here waits
on Whisper or the network by itself: ``transcriber()`` returns the warm model, and
``download``/``import_model`` are blocking calls the caller runs on a worker thread, as the
dialog always did.

The App's service runs Whisper in its own child process (``core.voice.worker``): importing
faster-whisper holds the GIL for 134–174 ms with a cold disk cache, which froze the Telegram and
Qt loops even from a worker thread (#28). The App closes it (``close``). A service made without
one (a bare ``Services`` front end, tests) keeps the in-process ``shared_transcriber``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from core.config import Settings
from core.paths import DataPaths
from core.voice.models import ModelChoice, check_model_dir, is_multilingual, resolve_model_dir
from core.voice.worker import RemoteLiveDictation, RemoteTranscriber, WhisperProcess

if TYPE_CHECKING:  # the in-process model, live recognition, download and WAV code load on use
    from core.voice.audio import WavWriter
    from core.voice.download import HubModel
    from core.voice.live import LiveDictation, PartialFn
    from core.voice.transcriber import Transcriber

    AnyTranscriber: TypeAlias = Transcriber | RemoteTranscriber
    AnyDictation: TypeAlias = LiveDictation | RemoteLiveDictation


class VoiceService:
    """The Whisper model, its download and import, and the WAV files of one data folder."""

    def __init__(
        self, settings: Settings, paths: DataPaths, *, process: WhisperProcess | None = None
    ) -> None:
        self.settings = settings
        self.paths = paths
        self._process = process
        self._remote: RemoteTranscriber | None = None

    # -- the model --------------------------------------------------------------------------
    def transcriber(self) -> AnyTranscriber:
        """The warm transcriber for the current model settings (raises ``TranscriptionError``
        in Chinese when no usable model is set up): the same object while they stay the same,
        so the desktop can tell that the model changed while the owner spoke."""
        if self._process is None:
            from core.voice.transcriber import shared_transcriber

            return shared_transcriber(self.settings)
        choice = resolve_model_dir(self.settings)
        device = self.settings.text("voice.device") or "cpu"
        compute_type = self.settings.text("voice.compute_type") or "int8"
        remote = self._remote
        if remote is None or remote.config != (choice, device, compute_type):
            remote = self._remote = RemoteTranscriber(self._process, self.settings, choice)
        return remote

    def live(
        self, transcriber: AnyTranscriber, *, on_partial: PartialFn | None = None
    ) -> AnyDictation:
        """Recognition at the owner's pauses while he still talks (``core.voice.live``)."""
        if isinstance(transcriber, RemoteTranscriber):
            return RemoteLiveDictation(transcriber, on_partial=on_partial)
        from core.voice.live import LiveDictation

        return LiveDictation(transcriber, on_partial=on_partial)

    def close(self) -> None:
        """Stop the Whisper child process, if this service has one (the App is closing)."""
        if self._process is not None:
            self._process.close()

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
        from core.voice.download import hub_endpoint

        return hub_endpoint(self.settings)

    def download(
        self,
        model: HubModel | None = None,
        *,
        endpoint: str | None = None,
        progress: Callable[[int, int], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> Path:
        """Download, verify and install ``model`` into the data folder. Blocking: run it on a
        worker thread (it reads the network for minutes). ``model``: the recommended one."""
        from core.voice.download import RECOMMENDED, download_model

        return download_model(
            self.paths.home,
            model or RECOMMENDED,
            endpoint=endpoint,
            progress=progress,
            cancel=cancel,
        )

    def import_model(self, source: Path) -> Path:
        """Copy a model from a folder or .zip into the data folder; returns the installed folder.
        Raises ``ModelDownloadError`` (Chinese) for anything that is not a usable model."""
        from core.voice.download import import_model

        return import_model(self.paths.home, source)

    # -- audio files ------------------------------------------------------------------------
    def wav_writer(self, path: Path) -> WavWriter:
        """A 16 kHz mono WAV file the recorder appends microphone chunks to."""
        from core.voice.audio import WavWriter

        return WavWriter(path)

    def concat_wavs(self, paths: list[Path], out: Path) -> Path:
        """Join recordings into one WAV (a voice note dictated in several presses)."""
        from core.voice.audio import concat_wavs

        return concat_wavs(paths, out)
