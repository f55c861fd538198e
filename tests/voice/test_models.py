"""Model folder resolution: settings, environment, bundled package; clear errors; no download."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.config import Settings
from core.errors import TranscriptionError
from core.voice.models import bundled_model_dir, resolve_model_dir
from core.voice.transcriber import Transcriber


def test_without_settings_the_bundled_english_model_is_used(tmp_path: Path) -> None:
    choice = resolve_model_dir(Settings(tmp_path / "s.toml", environ={}))
    path, description, languages = choice  # the contract's tuple shape
    assert isinstance(description, str)
    assert path == bundled_model_dir()
    assert (path / "model.bin").is_file()
    assert languages == ("en",)
    assert choice.source == "bundled" and choice.multilingual is False
    assert "tiny.en" in description and "仅能识别英文" in description


def test_environment_variable_beats_the_settings_file(tmp_path: Path) -> None:
    settings = Settings(
        tmp_path / "s.toml", environ={"INQUIRY_BRIDGE_WHISPER_MODEL": str(bundled_model_dir())}
    )
    settings.set("voice.model_dir", str(tmp_path / "elsewhere"))
    choice = resolve_model_dir(settings)
    assert choice.source == "env"
    assert "环境变量 INQUIRY_BRIDGE_WHISPER_MODEL" in choice.description_zh


def test_missing_model_folder_is_a_chinese_error(tmp_path: Path) -> None:
    settings = Settings(tmp_path / "s.toml", environ={})
    settings.set("voice.model_dir", str(tmp_path / "no-such-model"))
    with pytest.raises(TranscriptionError) as info:
        resolve_model_dir(settings)
    assert info.value.user_message().startswith("语音识别失败：语音模型文件夹不存在")
    with pytest.raises(TranscriptionError):
        Transcriber(settings).transcribe_file(tmp_path / "x.wav")


def test_folder_without_model_files_names_what_is_missing(tmp_path: Path) -> None:
    folder = tmp_path / "half"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    settings = Settings(tmp_path / "s.toml", environ={"INQUIRY_BRIDGE_WHISPER_MODEL": str(folder)})
    with pytest.raises(TranscriptionError, match=r"缺少 model\.bin"):
        resolve_model_dir(settings)


def test_corrupt_model_file_fails_to_load_with_a_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / "corrupt"
    folder.mkdir()
    bundled = bundled_model_dir()
    assert bundled is not None
    for name in ("config.json", "vocabulary.txt", "tokenizer.json"):
        (folder / name).write_bytes((bundled / name).read_bytes())
    (folder / "model.bin").write_bytes(b"\x00garbage" * 10)
    settings = Settings(tmp_path / "s.toml", environ={})
    settings.set("voice.model_dir", str(folder))
    choice = resolve_model_dir(settings)
    assert choice.source == "settings" and choice.languages == ("en",)
    with pytest.raises(TranscriptionError) as info:
        Transcriber(settings).load()
    assert "语音模型无法加载" in info.value.user_message()
