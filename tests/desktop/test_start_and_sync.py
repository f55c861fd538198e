"""A second start without an account shows the window (not only a tray icon), and 立即同步
says why nothing syncs in the demo or without a mailbox."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtWidgets import QSystemTrayIcon

from core.app import App
from desktop.app import FIRST_RUN_KEY, DesktopApp, window_on_start
from tests.support.qt import settles


def _stop(desktop: DesktopApp) -> None:
    assert desktop.sync is not None and desktop.tray is not None
    desktop.sync.stop()
    desktop.tray.hide()


def test_only_a_connected_real_mailbox_starts_in_the_tray_alone() -> None:
    asked: list[bool] = []

    def account(answer: bool) -> Callable[[], bool]:
        def ask() -> bool:
            asked.append(answer)
            return answer

        return ask

    assert window_on_start(tray=True, demo=False, account=account(True)) is False
    assert window_on_start(tray=True, demo=False, account=account(False)) is True
    assert asked == [True, False]
    # the account (a keyring lookup) is not asked when the answer cannot change the window
    assert window_on_start(tray=True, demo=True, account=account(True)) is True
    assert window_on_start(tray=False, demo=False, account=account(True)) is True
    assert asked == [True, False]


@pytest.mark.qt_log_ignore("No such signal QPlatformNativeInterface")  # a tray offscreen
@settles
async def test_second_start_without_an_account_shows_the_window_even_with_a_tray(  # type: ignore[no-untyped-def]
    app, services, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a desktop with a system tray (offscreen has none)
    monkeypatch.setattr(QSystemTrayIcon, "isSystemTrayAvailable", staticmethod(lambda: True))
    await _state_put(services, FIRST_RUN_KEY, True)  # the wizard was done before
    desktop = DesktopApp(app, App(services), tray=True)
    desktop.start()
    assert desktop.tray is not None and desktop.tray.available
    assert desktop.wizard is None
    assert desktop.window is not None and desktop.window.isVisible()
    _stop(desktop)


async def _state_put(services, key: str, value: object) -> None:  # type: ignore[no-untyped-def]
    from core.app import App

    await App(services).state.put(key, value)


@settles
async def test_sync_now_says_why_nothing_syncs(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = DesktopApp(app, App(services), tray=True)
    desktop.start()
    assert desktop.wizard is not None
    desktop.wizard.skip_button.click()
    window = desktop.window
    assert window is not None
    window.sync_action.trigger()  # 立即同步 with no mailbox
    assert window.banner.isVisible()
    assert "还没有连接邮箱" in window.banner.label.text()
    assert "登录微软" in window.banner.label.text()
    await desktop.load_demo()
    window = desktop.window
    assert window is not None and desktop.ctx is not None and desktop.ctx.is_demo
    window.sync_action.trigger()  # 立即同步 over the demo
    assert "示例数据不会同步" in window.banner.label.text()
    assert "连接我的邮箱" in window.banner.label.text()
    _stop(desktop)
