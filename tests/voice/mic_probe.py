"""Run by ``test_microphone.py`` in a fresh interpreter: the recorder over the real microphone.

A fresh process because QtMultimedia lists the sound devices once per process, and the test
session's own Qt has long started with no sound server. Holds to talk the way the desktop does:
``Recorder`` with its default input (``QtAudioInput``), speech played into the speaker the
virtual microphone hears, released after the clip. Prints one JSON object.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from core.clock import FakeClock


def main(speech: Path, audio_dir: Path) -> dict[str, Any]:
    app = QApplication([])
    from desktop.voice.recorder import Recorder

    out: dict[str, Any] = {"failed": [], "levels": []}
    recorder = Recorder(audio_dir, max_seconds=60, clock=FakeClock(), stall_ms=4000)
    recorder.failed.connect(out["failed"].append)
    recorder.level_changed.connect(out["levels"].append)
    try:
        recorder.start()
    except Exception as exc:  # what the owner would see under the button
        out["start_error"] = str(exc)
        return out
    player = subprocess.Popen(["paplay", "-d", "ib_speaker", str(speech)])

    def release_after_the_clip() -> None:
        if player.poll() is None:
            return
        poll.stop()
        QTimer.singleShot(400, finish)

    def finish() -> None:
        path = recorder.stop()
        out["wav"] = str(path) if path else None
        out["seconds"] = recorder.elapsed if path is None else _seconds(path)
        app.quit()

    poll = QTimer()
    poll.timeout.connect(release_after_the_clip)
    poll.start(50)
    QTimer.singleShot(30_000, app.quit)  # a stuck device: the test reads the missing "wav"
    app.exec()
    out["peak_level"] = max(out.pop("levels"), default=0.0)
    return out


def _seconds(path: Path) -> float:
    import wave

    with wave.open(str(path), "rb") as w:
        return w.getnframes() / w.getframerate()


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), Path(sys.argv[2]))))
