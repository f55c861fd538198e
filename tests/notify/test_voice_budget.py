"""Voice notes within a budget: a 30-minute one gets one clear line, and a long one never holds
the Telegram loop (/status answers while it is being transcribed)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from core.notify.bot import VOICE_MAX_SECONDS
from core.telegram.runner import TelegramRunner
from tests.notify.conftest import OWNER
from tests.support.telegram_server import TelegramServer


class NeverCalled:
    def submit(self, path: Path) -> Future[Any]:
        raise AssertionError(f"Whisper was asked to transcribe {path}")


async def _once(services: Any, transcriber: Any) -> None:
    runner = TelegramRunner(services, transcriber_factory=lambda: transcriber)
    try:
        await runner.run_once()
    finally:
        await runner.aclose()


def _silence_ogg(path: Path, seconds: int) -> bytes:
    """Real Ogg Vorbis audio of ``seconds`` (sox), small on disk."""
    subprocess.run(
        ["sox", "-n", "-r", "8000", "-c", "1", str(path), "trim", "0", str(seconds)],
        check=True,
        capture_output=True,
    )
    return path.read_bytes()


async def test_a_30_minute_voice_note_gets_one_clear_line_and_is_never_downloaded(
    services: Any, owner_env: TelegramServer
) -> None:
    owner_env.push_voice(OWNER, b"OggS" + b"\0" * 64, duration=30 * 60)
    await _once(services, NeverCalled())
    [reply] = owner_env.sent_to(OWNER)
    assert (
        "约 30 分钟" in reply.visible and f"{VOICE_MAX_SECONDS // 60} 分钟的上限" in reply.visible
    )
    assert "没有转写" in reply.visible
    assert owner_env.calls_of("getFile") == []


async def test_a_long_file_that_claims_to_be_short_is_measured_before_whisper(
    services: Any, owner_env: TelegramServer, tmp_path: Path
) -> None:
    data = _silence_ogg(tmp_path / "long.ogg", 30 * 60)
    owner_env.push_voice(OWNER, data, duration=3, suffix="ogg")
    await _once(services, NeverCalled())
    [reply] = owner_env.sent_to(OWNER)
    assert "约 30 分钟" in reply.visible and "没有转写" in reply.visible


async def test_the_length_check_loads_no_native_audio_library(
    services: Any, owner_env: TelegramServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PyAV's first import loads FFmpeg with the GIL held: on an I/O-lane thread all the same it
    stalled the Telegram loop 80-180 ms on a process's first voice note, and the bundle has no
    PyAV at all (the check said "unknown" there and let a 30-minute note through to Whisper).
    With av, soundfile and numpy unimportable the note is still measured and refused."""
    data = _silence_ogg(tmp_path / "long.ogg", 30 * 60)
    for name in ("av", "soundfile", "_soundfile", "numpy"):
        monkeypatch.setitem(sys.modules, name, None)
    owner_env.push_voice(OWNER, data, duration=3, suffix="ogg")
    await _once(services, NeverCalled())
    [reply] = owner_env.sent_to(OWNER)
    assert "约 30 分钟" in reply.visible and "没有转写" in reply.visible


class HeldTranscriber:
    """Whisper's interface (``submit`` → a future from its own thread) that finishes only once
    the bot has answered /status — or after 10 s, when the loop was held behind it."""

    def __init__(self, tg: TelegramServer) -> None:
        self.tg = tg

    def submit(self, path: Path) -> Future[Any]:
        future: Future[Any] = Future()

        def work() -> None:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                if any("待审批草稿" in m.visible for m in self.tg.sent_to(OWNER)):
                    break
                time.sleep(0.02)

            class Result:
                text = "明天上午去量尺"

            future.set_result(Result())

        threading.Thread(target=work, daemon=True).start()
        return future


async def test_status_answers_while_a_voice_note_is_transcribed(
    services: Any, owner_env: TelegramServer, tmp_path: Path
) -> None:
    data = _silence_ogg(tmp_path / "short.ogg", 20)
    owner_env.push_voice(OWNER, data, duration=20, suffix="ogg")
    owner_env.push_message(OWNER, "/status")
    await _once(services, HeldTranscriber(owner_env))
    texts = [m.visible for m in owner_env.sent_to(OWNER)]
    status = next(i for i, t in enumerate(texts) if "待审批草稿" in t)
    heard = next(i for i, t in enumerate(texts) if "明天上午去量尺" in t)
    assert status < heard  # /status did not wait for the transcription
