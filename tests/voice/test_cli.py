"""``inquiry-bridge transcribe FILE`` prints the right words; bad input is one clear line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.cli.main import main
from core.voice.transcriber import Transcriber
from tests.voice.speech import SENTENCES, word_error_rate

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]


def test_transcribe_prints_the_spoken_sentence(
    whisper: Transcriber, short_wav: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--home", str(home), "transcribe", str(short_wav), "--language", "en", "-v"]) == 0
    out, err = capsys.readouterr()
    assert word_error_rate(SENTENCES[0], out) <= 0.15, out
    assert out.count("\n") == 1  # the transcript alone on stdout, so it can be piped
    assert "language=en" in err and "model=tiny.en" in err


def test_unreadable_audio_exits_non_zero_with_one_line(
    whisper: Transcriber, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "noise.wav"
    bad.write_bytes(b"RIFF\x00\x00not really a wav" * 50)
    assert main(["--home", str(home), "transcribe", str(bad)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "无法读取音频文件" in err and "Traceback" not in err


def test_missing_model_from_environment_exits_with_a_chinese_line(
    home: Path,
    tmp_path: Path,
    short_wav: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_WHISPER_MODEL", str(tmp_path / "gone"))
    assert main(["--home", str(home), "transcribe", str(short_wav)]) == 1
    assert "语音模型文件夹不存在" in capsys.readouterr().err


def test_console_entry_point_in_a_fresh_process(short_wav: Path, home: Path) -> None:
    """The real command line, as the owner or a script would run it (cold model load)."""
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "from desktop.launcher import main; raise SystemExit(main())",
            "--home",
            str(home),
            "transcribe",
            str(short_wav),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert word_error_rate(SENTENCES[0], proc.stdout) <= 0.15, proc.stdout


def test_mandarin_with_the_english_only_model_exits_non_zero_with_one_line(
    whisper: Transcriber, mandarin_wav: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--home", str(home), "transcribe", str(mandarin_wav)]) == 1
    out, err = capsys.readouterr()
    assert out == ""  # never English noise on stdout
    assert err.count("\n") == 1 and "听不懂中文" in err and "Traceback" not in err
