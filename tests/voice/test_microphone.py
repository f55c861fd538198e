"""Dictation through a real microphone device: a private PulseAudio server's virtual mic.

Before, ``QtAudioInput`` compared ``QAudioSource.error()`` (a ``QtAudio.Error`` in PySide6 6.11)
with the old ``QAudio.Error.NoError``, which never matches: every working microphone was
reported as "cannot be opened", and the desktop's hold-to-talk never recorded a word. Its
unplug watch took the signal's ``QAudio::State`` argument, which PySide6 cannot convert, so it
never ran. No other test reaches the real device path (CI has no microphone).
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.voice.transcriber import Transcriber
from tests.support.pulse import VirtualMic, virtual_microphone
from tests.voice.speech import SENTENCES, word_error_rate

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def mic(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VirtualMic]:
    with virtual_microphone(tmp_path_factory.mktemp("pulse")) as virtual:
        yield virtual


def test_hold_to_talk_records_the_microphone_and_whisper_reads_it(
    mic: VirtualMic, sentences_wav: Path, whisper: Transcriber, tmp_path: Path
) -> None:
    env = {**mic.env, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    env.pop("QT_MEDIA_BACKEND", None)
    run = subprocess.run(
        [sys.executable, "-m", "tests.voice.mic_probe", str(sentences_wav), str(tmp_path)],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    # the unplug watch is called on every state change (it raised TypeError in Qt's slot call)
    assert "Cannot call meta function" not in run.stderr, run.stderr[-2000:]
    result = json.loads(run.stdout.splitlines()[-1])
    assert "start_error" not in result, result["start_error"]
    assert result["failed"] == []
    assert result["wav"], result
    assert result["seconds"] > 5  # the ~10 s clip, not a stub
    assert result["peak_level"] > 0.05  # the meter moved with the voice
    text = whisper.transcribe_file(Path(result["wav"]), language="en").text
    assert word_error_rate(" ".join(SENTENCES), text) < 0.35, text
