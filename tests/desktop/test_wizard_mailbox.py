"""The wizard connects a QQ-style mailbox by preset (against Dovecot, the preset's port and
security swapped for the loopback ones), and says in Chinese what went wrong."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from core.db.models import Message
from core.secrets import MAIL_PASSWORD
from desktop.settings_dialog import SettingsDialog
from desktop.sync import SyncController
from desktop.wizard import FirstRunWizard
from tests.support import dovecot as dovecot_support
from tests.support.mailbox_mail import inquiry
from tests.support.smtp_server import SmtpServer

pytestmark = pytest.mark.skipif(not dovecot_support.available(), reason="no dovecot-imapd")


async def test_wizard_connects_a_qq_preset_and_explains_a_wrong_code(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    wizard = FirstRunWizard(ctx)
    qtbot.addWidget(wizard)
    assert wizard.mailbox_button.text() == "连接其他邮箱"
    page = wizard.open_mailbox().page
    page.provider.setCurrentIndex(page.provider.findData("qq"))
    assert page.provider.currentText() == "QQ邮箱"
    assert "授权码" in page.guide.text() and not page.imap_host.isVisibleTo(page)
    with dovecot_support.running() as dovecot:
        smtp = SmtpServer(dovecot.user, dovecot.password).start()
        loopback = {
            "imap": ("127.0.0.1", dovecot.port, "starttls"),
            "smtp": ("127.0.0.1", smtp.port, "starttls"),
        }
        try:
            page.user.setText(dovecot.user)
            page.password.setText("not-the-code")
            assert not await page.connect_account(**loopback)
            said = page.result.text()  # which server refused, and what to do (#42)
            assert said.startswith("收信服务器（IMAP）") and "授权码" in said
            assert ctx.app._services.secrets.get(MAIL_PASSWORD) is None

            page.password.setText(dovecot.password)
            assert await page.connect_account(**loopback)
            assert page.result.text().startswith("已连接")
            assert ctx.app._services.settings.get("imap.url") == dovecot.url
            assert ctx.app._services.secrets.get(MAIL_PASSWORD) == dovecot.password

            # the desktop's pollers now read that mailbox (立即同步)
            dovecot.append(inquiry(0, 1))
            controller = SyncController(ctx)
            assert controller.account_ready
            await controller.sync_now()
            count = await ctx.app._services.store.read(
                lambda s: s.scalar(select(func.count(Message.id)).where(Message.source == "imap"))
            )
            assert count == 1
            controller.stop()
        finally:
            smtp.stop()


async def test_no_network_is_told_in_chinese_and_other_shows_the_servers(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    page = dialog.mailbox_page
    assert dialog.nav.item(6).text() == "其他邮箱"
    page.provider.setCurrentIndex(page.provider.findData("other"))
    assert page.imap_host.isVisibleTo(page)
    page.user.setText("owner@example.com")
    page.password.setText("x")
    dead = dovecot_support.free_port()
    assert not await page.connect_account(
        imap=("127.0.0.1", dead, "starttls"), smtp=("127.0.0.1", dead, "starttls")
    )
    said = page.result.text()  # which server, what happened, what to do (#42): no Errno
    assert said.startswith(f"收信服务器（IMAP）127.0.0.1:{dead} 拒绝了连接") and "端口" in said
    assert "Errno" not in said
