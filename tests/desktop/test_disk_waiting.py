"""Mail left for later on a nearly full disk reaches the owner: one Chinese tray message per
condition (the same outbox row the phone gets), and a status-bar line while it lasts."""

from __future__ import annotations

import asyncio

from core.app.types import MailWaiting
from desktop.aio import spawn
from desktop.main_window import MainWindow
from desktop.tray import TrayController
from tests.support.qt import settles, wait_until

GB = 1_000_000_000


@settles
async def test_mail_waiting_for_disk_space_is_told_once_and_shown_while_it_lasts(  # type: ignore[no-untyped-def]
    ctx, languages, qtbot
) -> None:
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    await window.board.ready()
    tray = TrayController(ctx.app)
    ctx.hub.notification.connect(lambda nid: spawn(tray.show_notification(nid)))
    assert window.sync_label.text() == "就绪"

    ctx.app.bus.publish(MailWaiting(3, int(1.2 * GB), 400_000_000))
    await wait_until(lambda: len(tray.shown) == 1)
    [(title, body)] = tray.shown
    assert title == "磁盘空间不足：3 封邮件等待下载"
    assert "3 封邮件" in body and "需要约 1.2 GB 可用空间，现在只有 400 MB" in body
    assert "请腾出至少 800 MB" in body and "**" not in body  # the balloon has no Markdown
    await wait_until(lambda: window.sync_label.text() != "就绪")
    assert window.sync_label.text() == "3 封邮件因磁盘空间不足等待下载——请腾出约 800 MB"

    ctx.app.bus.publish(MailWaiting(4, int(1.2 * GB), 300_000_000))  # the next round: still full
    await wait_until(lambda: "900 MB" in window.sync_label.text())
    ctx.notifications.drain()
    await asyncio.sleep(0.3)  # a second alert would have reached the tray by now
    assert len(tray.shown) == 1

    languages.apply("en")
    await asyncio.sleep(0.05)
    window.retranslate()
    assert window.sync_label.text() == "4 mails wait for disk space — free up about 900 MB"
    languages.apply("zh_CN")
    await asyncio.sleep(0.05)

    ctx.app.bus.publish(MailWaiting(0))  # a round with room: the line goes
    await wait_until(lambda: window.sync_label.text() == "就绪")
    ctx.notifications.drain()
    tray.hide()
