"""The Telegram settings page: token to the keyring, pairing code shown, status in Chinese."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from core.app import App
from core.notify import pairing
from core.secrets import TELEGRAM_TOKEN
from desktop.settings_telegram import TelegramSettingsPage
from tests.support.telegram_server import TelegramServer


async def settled(page: TelegramSettingsPage, timeout: float = 20.0) -> None:
    """Let the loop run until the connection test has answered (the machine may be busy)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while page._test_result == "testing" and loop.time() < deadline:
        await asyncio.sleep(0.01)


@pytest.fixture
def page(qtbot: Any, services: Any, zh: Any) -> TelegramSettingsPage:
    widget = TelegramSettingsPage(App(services), None)
    qtbot.addWidget(widget)
    return widget


def test_setup_walks_from_off_to_paired_in_chinese(
    page: TelegramSettingsPage, services: Any
) -> None:
    assert page.status.text() == "已关闭：提醒只显示在这台电脑上。"
    assert page.title.text() == "Telegram 提醒与审批"
    page.enabled.setChecked(True)
    assert page.status.text() == "尚未设置：请粘贴机器人令牌。"

    page.token.setText("123456:SECRET-token-value")
    page.save()
    assert services.secrets.get(TELEGRAM_TOKEN) == "123456:SECRET-token-value"
    assert "SECRET" not in services.paths.settings_file.read_text(encoding="utf-8")
    assert services.settings.get("telegram.enabled") is True
    assert page.token.text() == "" and "系统密钥库" in page.token.placeholderText()
    assert page.status.text() == "等待配对：请给机器人发送 /start 配对码。"

    page.new_code_button.click()
    code = pairing.current_pairing_code(services)
    assert code is not None and page.code.text() == code.code
    assert f"/start {code.code}" in page.code_hint.text()

    assert pairing.try_pair(services, code.code, 4242, "Owner")
    page.refresh()
    assert page.paired.text() == "Owner · 聊天 4242"
    assert page.status.text() == "已开启：提醒也会发到你的 Telegram。"
    assert page.code.text() == "（无）"  # the code was spent

    page.unpair_button.click()
    assert pairing.owner(services) is None and page.paired.text() == "尚未配对"


async def test_test_button_checks_the_token_without_blocking(
    page: TelegramSettingsPage, services: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TelegramServer() as tg:
        monkeypatch.setenv("INQUIRY_BRIDGE_TELEGRAM_URL", tg.base_url)
        page.token.setText(tg.token)
        page.test_button.click()
        assert "正在检查令牌" in page.status.text()  # the click returned before the answer
        await settled(page)
        assert "令牌有效（机器人 @ib_test_bot）" in page.status.text()

        page.token.setText("999:wrong")
        page.test_button.click()
        await settled(page)
        assert "Telegram 不接受这个令牌" in page.status.text()


def test_a_preset_group_says_buttons_wait_for_the_owner(
    page: TelegramSettingsPage, services: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_TELEGRAM_CHAT_ID", "-1001234")
    page.refresh()
    assert page.paired.text() == (
        "群组 -1001234（由环境变量 INQUIRY_BRIDGE_TELEGRAM_CHAT_ID 设置）："
        "你本人在该群里发送 /start 配对码后，按钮才有效。"
    )
    assert not page.unpair_button.isEnabled()
    code = pairing.new_pairing_code(services)
    assert pairing.try_pair(services, code.code, -1001234, "Owner", user_id=4242)
    page.refresh()
    assert page.paired.text() == "聊天 -1001234（由环境变量 INQUIRY_BRIDGE_TELEGRAM_CHAT_ID 设置）"
    assert page.unpair_button.isEnabled()
    page.unpair_button.click()
    assert (owner := pairing.owner(services)) is not None
    assert owner.needs_user  # the group stays, the owner binding is gone
