"""The voice settings page: which model is active, in Chinese; choosing and checking a folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from core.services import Services
from core.voice.models import bundled_model_dir
from desktop.i18n import LanguageManager
from desktop.voice.dictation import DictationButton
from desktop.voice.settings_page import VoiceSettingsPage
from tests.voice.test_recorder import MULTIMEDIA_NOISE


@pytest.fixture
def chinese(qapp, services: Services, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    from desktop import i18n

    monkeypatch.setattr(i18n, "_current", i18n.current_language())  # restored after the test
    manager = LanguageManager(services.paths.cache)
    manager.apply("zh_CN")
    yield manager
    manager.apply("en")  # removes our translators again


def test_page_explains_the_active_model_in_chinese(
    qtbot: QtBot, services: Services, chinese: LanguageManager
) -> None:
    page = VoiceSettingsPage(services, None)
    qtbot.addWidget(page)
    text = page.active_model.text()
    assert "当前模型：Whisper tiny.en（程序自带）" in text
    assert "识别语言：仅英文，无法识别中文" in text
    assert "大小：78 MB" in text  # name, languages and size …
    assert str(bundled_model_dir()) not in text  # … not a path (issue #17)
    assert page.active_model.toolTip() == str(bundled_model_dir())  # the path is for support
    assert page.download_button.text() == "下载 faster-whisper-small（约 486 MB）"
    how = page.how_to.text()
    assert "多语言 Whisper 模型" in how and "faster-whisper-small" in how and "不会自行下载" in how
    assert page.folder_check.text() == "留空：使用程序自带的模型。"
    assert page.language.currentText() == "自动（中文或英文）"


def test_dictation_button_speaks_chinese(
    qtbot: QtBot, services: Services, chinese: LanguageManager
) -> None:
    from PySide6.QtWidgets import QPlainTextEdit

    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    button = DictationButton(services, edit)
    qtbot.addWidget(button)
    assert button.button.text() == "按住说话" and not button.button.icon().isNull()
    assert "F9" in button.button.toolTip() and "光标处" in button.button.toolTip()


def test_choosing_a_folder_checks_it_and_save_switches_the_model(
    qtbot: QtBot, services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = VoiceSettingsPage(services, None)
    qtbot.addWidget(page)
    bad = tmp_path / "downloads"
    bad.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(bad))
    page.browse_button.click()
    assert page.folder.text() == str(bad)
    assert "缺少 model.bin、config.json" in page.folder_check.text()

    page.folder.setText(str(bundled_model_dir()))
    assert page.folder_check.text().startswith("Whisper model found. Languages: English only")
    page.language.setCurrentIndex(page.language.findData("en"))
    page.max_seconds.setValue(60)
    page.save()
    settings = services.settings
    assert settings.get("voice.model_dir") == str(bundled_model_dir())
    assert (settings.get("voice.language"), settings.get("voice.max_seconds")) == ("en", 60)
    assert "(chosen in these settings)" in page.active_model.text()

    page.bundled_button.click()
    page.save()
    assert settings.get("voice.model_dir") == ""
    assert "(bundled with the app)" in page.active_model.text()


def test_a_broken_configured_model_is_shown_not_raised(
    qtbot: QtBot, services: Services, tmp_path: Path
) -> None:
    services.settings.set("voice.model_dir", str(tmp_path / "gone"))
    page = VoiceSettingsPage(services, None)
    qtbot.addWidget(page)
    assert "语音模型文件夹不存在" in page.active_model.text()


def test_environment_override_locks_the_folder(
    qtbot: QtBot, services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_WHISPER_MODEL", str(bundled_model_dir()))
    page = VoiceSettingsPage(services, None)
    qtbot.addWidget(page)
    assert page.folder.isReadOnly() and not page.browse_button.isEnabled()
    assert "INQUIRY_BRIDGE_WHISPER_MODEL" in page.active_model.text()
    page.save()
    assert "voice.model_dir" not in services.settings.path.read_text(encoding="utf-8")


@pytest.mark.qt_log_ignore(*MULTIMEDIA_NOISE)
def test_check_microphone_reports_none_on_a_machine_without_one(
    qtbot: QtBot, services: Services
) -> None:
    from PySide6.QtMultimedia import QMediaDevices

    page = VoiceSettingsPage(services, None)
    qtbot.addWidget(page)
    assert page.mic_status.text() == ""  # nothing probed until asked
    page.mic_button.click()
    if QMediaDevices.audioInputs():
        assert "microphone" in page.mic_status.text()
    else:
        assert page.mic_status.text().startswith("No microphone found")


@pytest.mark.slow
@pytest.mark.qt_log_ignore("does not support propagateSizeHints")  # offscreen dialogs
def test_download_button_fetches_from_the_mirror_and_shows_the_model_by_name(
    qtbot: QtBot, services: Services, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from core.voice.download import RECOMMENDED, models_dir
    from tests.support.hub_server import HubServer

    monkeypatch.delenv("HF_ENDPOINT", raising=False)
    published = tmp_path / "published"
    shutil.copytree(bundled_model_dir(), published)  # type: ignore[arg-type]
    page = VoiceSettingsPage(services, None)
    qtbot.addWidget(page)
    with HubServer() as hub:
        hub.add_folder(RECOMMENDED.repo_id, published)
        page.mirror.setText(hub.endpoint)  # the owner types a mirror
        page.download_button.click()
        assert page.download_dialog is not None
        with qtbot.waitSignal(page.download_dialog.installed, timeout=90_000):
            pass
    installed = models_dir(services.home) / "faster-whisper-small"
    assert services.settings.get("voice.hub_endpoint") == hub.endpoint
    assert services.settings.get("voice.model_dir") == str(installed)
    assert page.folder.text() == str(installed)
    text = page.active_model.text()
    assert "Active model: Whisper small (chosen in these settings)" in text
    assert "Size: 78 MB" in text and str(installed) not in text

    page.import_model(str(installed))  # import of a folder (e.g. a USB stick) works the same way
    assert services.settings.get("voice.model_dir") == str(installed)
