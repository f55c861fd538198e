"""Settings are saved every page or none, and a key survives a machine without a keyring.

On headless Linux the keyring can only refuse (its ``fail`` backend); the dialog used to drop
the API key there with English library text, after writing the endpoint but not the Telegram
and voice pages. Now the key goes to the owner-only file, the dialog says so in Chinese with
the file's path, and another process (a CLI command) uses it.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import keyring
import keyring.backends.fail
import pytest

from core.errors import ConfigError
from core.secrets import LLM_API_KEY, TELEGRAM_TOKEN
from desktop.settings_dialog import SettingsDialog
from desktop.settings_save import save_all
from tests.support.llm_server import LLMServer

ROOT = Path(__file__).resolve().parents[2]
FAIL_BACKEND = "keyring.backends.fail.Keyring"


@pytest.fixture
def no_keyring():  # type: ignore[no-untyped-def]
    """The keyring a machine without a Secret Service gets: every write refused."""
    before = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())  # type: ignore[no-untyped-call]
    yield
    keyring.set_keyring(before)


def test_a_key_saved_without_a_keyring_is_kept_and_used_by_another_process(  # type: ignore[no-untyped-def]
    ctx, qtbot, no_keyring, tmp_path
) -> None:
    services = ctx.app._services
    with LLMServer(lambda _request: "好的，已收到。") as llm:
        dialog = SettingsDialog(ctx)
        qtbot.addWidget(dialog)
        dialog.llm_url.setText(llm.base_url)
        dialog.llm_key.setText("sk-first-hour-0001")
        dialog.telegram_page.enabled.setChecked(True)
        dialog.telegram_page.token.setText("123456:SECRET-token-value")
        assert dialog.save()
        # where the key lives, in Chinese, with the file's path
        secrets_file = services.paths.secrets_file
        assert "API 密钥已保存到" in dialog.last_notice
        assert str(secrets_file) in dialog.last_notice and "仅您的账户可读" in dialog.last_notice
        assert "机器人令牌已保存到" in dialog.last_notice
        assert str(secrets_file) in dialog.llm_key.placeholderText()
        assert stat.S_IMODE(secrets_file.stat().st_mode) == 0o600
        settings_text = services.paths.settings_file.read_text(encoding="utf-8")
        assert "sk-first-hour" not in settings_text and "SECRET" not in settings_text
        assert services.settings.get("llm.base_url") == llm.base_url
        assert services.settings.get("telegram.enabled") is True
        assert services.secrets.get(TELEGRAM_TOKEN) == "123456:SECRET-token-value"

        # a second process on the same machine (no keyring either) uses the saved key
        env = {k: v for k, v in os.environ.items() if k != "INQUIRY_BRIDGE_LLM_API_KEY"}
        env["PYTHON_KEYRING_BACKEND"] = FAIL_BACKEND
        done = subprocess.run(
            [sys.executable, "-m", "desktop.launcher", "ask", "你好", "--home", str(services.home)],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=ROOT,
            env=env,
        )
        assert done.returncode == 0, done.stderr
        auth = {
            r.headers.get("Authorization") or r.headers.get("authorization") for r in llm.requests
        }
        assert auth == {"Bearer sk-first-hour-0001"}


def test_one_invalid_page_saves_nothing(ctx, qtbot, no_keyring) -> None:  # type: ignore[no-untyped-def]
    services = ctx.app._services
    services.settings.set("llm.base_url", "http://127.0.0.1:9/v1")
    before = services.paths.settings_file.read_bytes()
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.llm_url.setText("http://127.0.0.1:8/v1")
    dialog.llm_key.setText("sk-never-saved")
    dialog.mail_poll.setValue(17)
    dialog.telegram_page.enabled.setChecked(True)
    dialog.telegram_page.token.setText("not a token")  # the Telegram page is invalid
    assert not dialog.save()
    assert dialog.nav.currentRow() == 3  # the page that needs him
    assert "机器人令牌" in dialog.last_notice
    assert services.paths.settings_file.read_bytes() == before
    assert services.secrets.get(LLM_API_KEY) is None
    assert not services.paths.secrets_file.exists()
    assert services.settings.get("graph.mail_poll_minutes") != 17


def test_a_failing_write_puts_back_what_this_save_wrote(services, no_keyring) -> None:  # type: ignore[no-untyped-def]
    services.settings.set("llm.base_url", "http://127.0.0.1:9/v1")
    before = services.paths.settings_file.read_bytes()
    with pytest.raises(ConfigError):
        save_all(
            services.settings,
            services.secrets,
            {"llm.base_url": "http://127.0.0.1:8/v1", "graph.mail_poll_minutes": "often"},
            [(LLM_API_KEY, "sk-rolled-back")],
        )
    assert services.paths.settings_file.read_bytes() == before
    assert services.settings.get("llm.base_url") == "http://127.0.0.1:9/v1"
    assert services.secrets.get(LLM_API_KEY) is None
