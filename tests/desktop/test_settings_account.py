"""Settings → 微软账户 for a shop owner: one button when the build carries the publisher's app
id, the exact Azure steps when it does not, and sign-in failures as one sentence."""

from __future__ import annotations

import socket
from pathlib import Path

from core.glossary import resources_dir
from core.graph.app_id import client_id, publisher_client_id, write_publisher_id
from desktop.settings_account import AccountSettingsPage


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_packaged_build_asks_for_no_azure_id(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    page = AccountSettingsPage(ctx.app, packaged_id="11111111-2222-3333-4444-555555555555")
    qtbot.addWidget(page)
    page.show()
    assert page.sign_in_button.isVisible() and page.sign_in_button.text() == "登录微软"
    assert not page.guide.isVisible()
    assert not page.client_id.isVisible() and not page.id_label.isVisible()
    assert "Azure" not in page.status.text()


async def test_a_source_checkout_shows_the_azure_steps_and_says_what_to_do(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    page = AccountSettingsPage(ctx.app, packaged_id="")
    qtbot.addWidget(page)
    page.show()
    assert page.guide.isVisible() and page.client_id.isVisible()
    guide = page.guide.text()
    for step in ("portal.azure.com", "http://localhost", "允许公共客户端流", "Mail.Send",
                 "offline_access", "应用程序(客户端) ID"):  # fmt: skip
        assert step in guide
    assert page.id_label.text() == "应用程序(客户端) ID"  # the name the guide uses
    assert not page.guide.openExternalLinks()  # a click asks first, showing the real address
    page.guide.linkActivated.emit("https://portal.azure.com")
    assert page.links.dialog is not None and "https://portal.azure.com" in page.links.dialog.text()
    page.links.dialog.reject()
    page.guide.linkActivated.emit("file:///C:/Windows/system32/calc.exe")
    assert page.links.dialog is None and page.links.refused == [
        "file:///C:/Windows/system32/calc.exe"
    ]
    assert await page.sign_in() is False
    assert page.status.text() == "请先填入第 6 步复制的「应用程序(客户端) ID」。"


async def test_sign_in_without_network_is_one_chinese_sentence(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    settings = ctx.app.settings
    settings.set("graph.authority", f"https://127.0.0.1:{_dead_port()}/common")
    page = AccountSettingsPage(ctx.app, packaged_id="")
    qtbot.addWidget(page)
    page.client_id.setText("00000000-aaaa-bbbb-cccc-000000000000")
    assert await page.sign_in() is False
    text = page.status.text()
    assert text == "连不上微软登录服务器：请检查网络（或代理）后再点「登录微软」。"
    assert "HTTPSConnectionPool" not in text and "Error" not in text
    assert page.sign_in_button.isEnabled()  # he can press it again


def test_the_build_carries_the_publisher_id_and_his_own_setting_wins(  # type: ignore[no-untyped-def]
    tmp_path: Path, services
) -> None:
    assert publisher_client_id() == ""  # empty in source
    copy = tmp_path / "resources"
    copy.mkdir()
    (copy / "microsoft_app.toml").write_text(
        (resources_dir() / "microsoft_app.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    write_publisher_id(copy, "11111111-2222-3333-4444-555555555555")
    assert publisher_client_id(copy) == "11111111-2222-3333-4444-555555555555"
    assert client_id(services.settings, copy) == "11111111-2222-3333-4444-555555555555"
    services.settings.set("graph.client_id", "own-id")
    assert client_id(services.settings, copy) == "own-id"
    (copy / "microsoft_app.toml").write_text("not toml [", encoding="utf-8")
    assert publisher_client_id(copy) == ""  # a broken file is "no id", not a crash
