"""The transcriber with the real tiny.en model on real (espeak-ng) speech."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from core.config import Settings
from core.errors import TranscriptionError
from core.text.reading import to_simplified
from core.voice.chinese import join_pieces
from core.voice.transcriber import (
    ChineseNeedsMultilingualModel,
    Transcriber,
    TranscriptionCancelled,
    finish_chinese,
    shared_transcriber,
)
from tests.voice.speech import SENTENCES, encode, word_error_rate

pytestmark = pytest.mark.slow


def test_english_speech_is_transcribed_within_15_percent_wer(
    whisper: Transcriber, sentences_wav: Path
) -> None:
    seen: list[tuple[float, str]] = []
    result = whisper.transcribe_file(sentences_wav, progress=lambda f, t: seen.append((f, t)))

    assert word_error_rate(" ".join(SENTENCES), result.text) <= 0.15, result.text
    assert result.language == "en"
    assert 9.0 < result.duration_s < 12.0
    assert result.elapsed_s > 0 and result.load_s == 0.0  # warm: the session fixture loaded it
    assert result.segments and result.segments[-1].end <= result.duration_s + 0.5
    fractions = [f for f, _ in seen]
    assert fractions[0] == 0.0 and fractions[-1] == 1.0
    assert fractions == sorted(fractions)
    assert seen[-1][1] == result.text


@pytest.mark.parametrize("codec,ext", [("libmp3lame", "mp3"), ("aac", "m4a"), ("libopus", "ogg")])
def test_compressed_formats_decode_without_ffmpeg(
    whisper: Transcriber, short_wav: Path, tmp_path: Path, codec: str, ext: str
) -> None:
    clip = encode(short_wav, tmp_path / f"clip.{ext}", codec)
    result = whisper.transcribe_file(clip)
    assert word_error_rate(SENTENCES[0], result.text) <= 0.15, result.text


def test_the_same_settings_share_one_warm_model(whisper: Transcriber, tmp_path: Path) -> None:
    other = Settings(tmp_path / "settings.toml", environ={})
    assert shared_transcriber(other) is whisper
    assert whisper.load() == 0.0


def test_cancel_between_segments_stops_the_transcription(
    whisper: Transcriber, short_wav: Path
) -> None:
    cancel = threading.Event()

    def progress(fraction: float, _text: str) -> None:
        if fraction > 0:
            cancel.set()  # the owner pressed cancel after the first segment arrived

    with pytest.raises(TranscriptionCancelled):
        whisper.transcribe_file(short_wav, progress=progress, cancel=cancel)
    with pytest.raises(TranscriptionCancelled):
        whisper.transcribe_file(short_wav, cancel=cancel)


def test_silence_gives_an_empty_transcript(whisper: Transcriber) -> None:
    result = whisper.transcribe_samples(np.zeros(16000 * 2, dtype=np.float32))
    assert result.text == ""
    assert result.duration_s == pytest.approx(2.0)


def test_chinese_on_an_english_only_model_is_a_clear_error(
    whisper: Transcriber, short_wav: Path
) -> None:
    with pytest.raises(TranscriptionError) as info:
        whisper.transcribe_file(short_wav, language="zh")
    assert "仅支持英文" in info.value.user_message()
    assert "多语言模型" in info.value.user_message()


def test_worker_thread_returns_a_future(whisper: Transcriber, short_wav: Path) -> None:
    future = whisper.submit(short_wav)
    result = future.result(timeout=60)
    assert word_error_rate(SENTENCES[0], result.text) <= 0.15
    assert threading.current_thread() is threading.main_thread()


def test_traditional_chinese_is_converted_to_simplified() -> None:
    assert to_simplified("這個窗戶的尺寸") == "这个窗户的尺寸"
    assert to_simplified("請報價：推拉門兩樘") == "请报价：推拉门两樘"
    assert to_simplified("Sliding door 2400 x 2100") == "Sliding door 2400 x 2100"


def test_random_bytes_are_a_clear_error_not_a_crash(whisper: Transcriber, tmp_path: Path) -> None:
    bad = tmp_path / "broken.wav"
    bad.write_bytes(np.random.default_rng(1).bytes(20_000))
    with pytest.raises(TranscriptionError) as info:
        whisper.transcribe_file(bad)
    assert (
        info.value.user_message()
        == "语音识别失败：无法读取音频文件（格式不支持或文件已损坏）：broken.wav"
    )


def test_missing_audio_file_is_a_clear_error(whisper: Transcriber, tmp_path: Path) -> None:
    with pytest.raises(TranscriptionError, match="找不到音频文件"):
        whisper.transcribe_file(tmp_path / "nothing.wav")


@pytest.mark.parametrize("which", [0, 1, 2, None])
def test_mandarin_on_the_english_only_model_is_refused_not_turned_into_english(
    whisper: Transcriber, mandarin_wav: Path, speech_dir: Path, which: int | None
) -> None:
    """tiny.en used to print "King Freeman 2, Jan 1, K-3…" for Chinese in auto mode."""
    from tests.voice.speech import CHINESE_SENTENCES, espeak_mandarin

    clip = (
        mandarin_wav
        if which is None
        else espeak_mandarin(CHINESE_SENTENCES[which], speech_dir / f"mandarin-{which}.wav")
    )
    for language in ("auto", "zh"):
        with pytest.raises(ChineseNeedsMultilingualModel) as info:
            whisper.transcribe_file(clip, language=language)
        message = info.value.user_message()
        assert "中文" in message and "多语言模型" in message and "486 MB" in message


def test_english_is_not_refused_and_is_confident(whisper: Transcriber, sentences_wav: Path) -> None:
    result = whisper.transcribe_file(sentences_wav, language="auto")
    assert not result.uncertain and result.avg_logprob > -0.6
    assert word_error_rate(" ".join(SENTENCES), result.text) <= 0.15


def test_forcing_english_on_mandarin_gives_an_uncertain_transcript(
    whisper: Transcriber, mandarin_wav: Path
) -> None:
    """The owner chose "English" explicitly: no refusal, but the noise is marked uncertain."""
    result = whisper.transcribe_file(mandarin_wav, language="en")
    assert result.text and result.uncertain


def test_chinese_text_gets_simplified_characters_and_chinese_punctuation() -> None:
    assert finish_chinese("好的,明天去量尺寸.") == "好的，明天去量尺寸。"
    assert finish_chinese("窗戶寬 1.5 米, 9:30 到?") == "窗户宽 1.5 米，9:30 到？"
    assert finish_chinese("客户 要 推拉门") == "客户要推拉门"
    assert finish_chinese("Sliding door, 2,400 wide.") == "Sliding door, 2,400 wide."
    assert join_pieces(["客户要两樘推拉门", "明天上午去量尺寸。", "谢谢"]) == (
        "客户要两樘推拉门，明天上午去量尺寸。谢谢"
    )
