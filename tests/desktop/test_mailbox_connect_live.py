"""A mailbox connected in the running app is read at once: through the wizard and through 设置,
a mail appended to Dovecot afterwards reaches the board with no restart and no 立即同步."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.app import App
from desktop.app import DesktopApp
from tests.support import dovecot as dovecot_support
from tests.support.dovecot import DovecotServer
from tests.support.mailbox_mail import inquiry
from tests.support.qt import settles, wait_until
from tests.support.smtp_server import SmtpServer

pytestmark = pytest.mark.skipif(not dovecot_support.available(), reason="no dovecot-imapd")


@pytest.fixture
def mailbox() -> Iterator[tuple[DovecotServer, dict[str, tuple[str, int, str]]]]:
    with dovecot_support.running() as dovecot:
        smtp = SmtpServer(dovecot.user, dovecot.password).start()
        try:
            yield (
                dovecot,
                {
                    "imap": ("127.0.0.1", dovecot.port, "starttls"),
                    "smtp": ("127.0.0.1", smtp.port, "starttls"),
                },
            )
        finally:
            smtp.stop()


def _board_names(desktop: DesktopApp) -> list[str]:
    assert desktop.window is not None
    model = desktop.window.board.model
    rows = (model.row_at(i) for i in range(model.rowCount()))
    return [row.customer_name or "" for row in rows if row is not None]


async def _appended_mail_reaches_the_board(desktop: DesktopApp, dovecot: DovecotServer) -> None:
    assert desktop.sync is not None  # no restart, no button
    assert desktop.window is not None
    assert desktop.window.sync_label.text() == "已连接，正在收取邮件…"
    dovecot.append(inquiry(0, 1))  # after the connection: IDLE (or the first round) reads it
    await wait_until(lambda: "Amy Lee" in _board_names(desktop), timeout=60)
    desktop.sync.stop()


@settles
async def test_a_mailbox_connected_in_the_wizard_is_read_at_once(app, services, mailbox) -> None:  # type: ignore[no-untyped-def]
    dovecot, loopback = mailbox
    desktop = DesktopApp(app, App(services), tray=False)
    desktop.start()  # the first run: the wizard over an empty board, nothing syncing
    assert desktop.wizard is not None and desktop.sync is not None
    page = desktop.wizard.open_mailbox().page
    page.provider.setCurrentIndex(page.provider.findData("qq"))
    page.user.setText(dovecot.user)
    page.password.setText(dovecot.password)
    assert await page.connect_account(**loopback)
    assert "正在收取邮件" in page.result.text()
    await _appended_mail_reaches_the_board(desktop, dovecot)
    desktop.wizard.skip_button.click()  # 以后再说: its choice is saved while the loop runs


@settles
async def test_a_mailbox_connected_in_settings_is_read_at_once(app, services, mailbox) -> None:  # type: ignore[no-untyped-def]
    dovecot, loopback = mailbox
    desktop = DesktopApp(app, App(services), tray=False)
    desktop.start()
    assert desktop.wizard is not None
    desktop.wizard.skip_button.click()  # later: the empty board
    assert desktop.sync is not None
    dialog = desktop.show_settings(6)
    assert dialog is not None
    page = dialog.mailbox_page
    page.provider.setCurrentIndex(page.provider.findData("other"))
    page.user.setText(dovecot.user)
    page.password.setText(dovecot.password)
    assert await page.connect_account(**loopback)
    await _appended_mail_reaches_the_board(desktop, dovecot)
