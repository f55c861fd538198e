"""Run by ``test_worker.py`` in a fresh interpreter: the App's voice path, seen from outside.

A fresh process because the test session itself has long imported faster-whisper (the
``whisper`` fixture): only a new interpreter can show that the App's own process never does.
It prints one JSON object: the transcripts of a file note and a live dictation made through
``App.voice``, which heavy modules the process holds afterwards, and what a killed child and
the retry after it gave. The recorder's level meter is read too: it runs on the UI thread.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import tempfile
import threading
import wave
from pathlib import Path
from typing import Any

from core.app import build_app
from core.errors import TranscriptionError
from core.voice.audio import pcm_level

HEAVY = ("faster_whisper", "ctranslate2", "av", "onnxruntime", "numpy", "soundfile", "tokenizers")


async def probe(note: Path, pcm_wav: Path, long_note: Path) -> dict[str, Any]:
    app = build_app(tempfile.mkdtemp())
    out: dict[str, Any] = {}
    try:
        transcriber = app.voice.transcriber()
        out["telegram_uses_it"] = app.telegram._transcriber is not None and (
            app.telegram._transcriber() is transcriber
        )
        note_result = await asyncio.wrap_future(transcriber.submit(note, language="en"))
        out["note"] = note_result.text

        with wave.open(str(pcm_wav), "rb") as wav:  # 16 kHz mono: what the microphone gives
            pcm = wav.readframes(wav.getnframes())
        partials: list[str] = []
        live = app.voice.live(transcriber, on_partial=partials.append)
        for offset in range(0, len(pcm), 3200):
            live.feed(pcm[offset : offset + 3200])
        out["live"] = (await asyncio.wrap_future(live.finish())).text
        out["level"] = pcm_level(pcm)  # the recorder's meter, on the UI thread
        from desktop.voice.recorder import pcm_converter  # a 48 kHz stereo float device's chunk

        out["converted"] = len(pcm_converter("f", 2, 48_000, 1.0, 0.0)(bytes(4 * 2 * 4800)))
        out["heavy_modules"] = [name for name in HEAVY if name in sys.modules]
        out["children"] = app.voice._process.started  # type: ignore[union-attr]

        started = threading.Event()
        doomed = transcriber.submit(long_note, language="en", progress=lambda *_: started.set())
        started.wait(120)  # Whisper is at work on it in the child
        os.kill(app.voice._process.pid, signal.SIGKILL)  # type: ignore[arg-type, union-attr]
        try:
            await asyncio.wrap_future(doomed)
            out["killed"] = "no error"
        except TranscriptionError as exc:
            out["killed"] = exc.user_message("zh_CN")
        retry = await asyncio.wrap_future(transcriber.submit(note, language="en"))
        out["retry"] = retry.text
        out["children_after_retry"] = app.voice._process.started  # type: ignore[union-attr]
        out["heavy_modules_at_end"] = [name for name in HEAVY if name in sys.modules]
    finally:
        await app.aclose()
        app.close()
    return out


if __name__ == "__main__":  # the spawned child imports this module too: run only as a script
    note, pcm_wav, long_note = (Path(arg) for arg in sys.argv[1:4])
    print(json.dumps(asyncio.run(probe(note, pcm_wav, long_note))))
