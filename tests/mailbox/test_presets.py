"""Providers by preset, tested against Dovecot with the preset's port and security swapped for
the loopback ones: a right 授权码 connects, and each failure is told in Chinese."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from core.app import build_app
from core.app.facade import App
from core.errors import MailAuthError, MailNetworkError, MailServiceDisabled
from core.mailbox.presets import PRESETS
from core.secrets import MAIL_PASSWORD
from tests.support.dovecot import DovecotServer, free_port
from tests.support.smtp_server import SmtpServer

# Dovecot's passwd-file extra fields cannot hold spaces: a provider-style answer without them
IMAP_OFF = "IMAP服务未开启,请登录网页邮箱开启IMAP/SMTP服务"


@pytest.fixture
async def app(tmp_path) -> AsyncIterator[App]:  # type: ignore[no-untyped-def]
    app = build_app(tmp_path / "home")
    yield app
    await app.aclose()
    app.close()


def _loopback(dovecot: DovecotServer, smtp: SmtpServer):  # type: ignore[no-untyped-def]
    return {
        "imap": ("127.0.0.1", dovecot.port, "starttls"),
        "smtp": ("127.0.0.1", smtp.port, "starttls"),
    }


@pytest.mark.parametrize("key", ["gmail", "qq", "163"])
async def test_a_preset_connects_and_is_saved_with_the_password_in_the_keyring(
    app: App, dovecot: DovecotServer, smtp: SmtpServer, key: str
) -> None:
    result = await app.mail_accounts.test(
        key, dovecot.user, dovecot.password, **_loopback(dovecot, smtp)
    )
    assert result.sent_folder == "Sent" and result.idle
    # the client said who it is before logging in (163/126 refuse mailboxes otherwise)
    assert 'name="Inquiry Bridge"' in dovecot.log() or "Inquiry Bridge" in dovecot.log()
    await app.mail_accounts.save(key, dovecot.user, dovecot.password, **_loopback(dovecot, smtp))
    settings = app._services.settings
    assert settings.get("imap.url") == dovecot.url
    assert settings.get("smtp.append_sent") is PRESETS[key].append_sent
    assert app._services.secrets.get(MAIL_PASSWORD) == dovecot.password
    assert dovecot.password not in app._services.paths.settings_file.read_text()


async def test_wrong_password_is_told_in_chinese_and_nothing_is_saved(
    app: App, dovecot: DovecotServer, smtp: SmtpServer
) -> None:
    with pytest.raises(MailAuthError) as caught:
        await app.mail_accounts.save("qq", dovecot.user, "wrong", **_loopback(dovecot, smtp))
    assert "授权码" in caught.value.user_message("zh_CN")
    assert app._services.settings.get("imap.url") == ""
    assert app._services.secrets.get(MAIL_PASSWORD) is None


async def test_imap_switched_off_at_the_provider_is_told_in_chinese(
    app: App, dovecot: DovecotServer, smtp: SmtpServer
) -> None:
    dovecot.write_users(f"nologin=y reason={IMAP_OFF}")
    with pytest.raises(MailServiceDisabled) as caught:
        await app.mail_accounts.test(
            "qq", dovecot.user, dovecot.password, **_loopback(dovecot, smtp)
        )
    assert "尚未开启 IMAP" in caught.value.user_message("zh_CN")


async def test_no_server_is_a_network_error_in_chinese(app: App, dovecot: DovecotServer) -> None:
    closed = free_port()
    with pytest.raises(MailNetworkError) as caught:
        await app.mail_accounts.test(
            "163",
            dovecot.user,
            dovecot.password,
            imap=("127.0.0.1", closed, "starttls"),
            smtp=("127.0.0.1", closed, "starttls"),
        )
    zh = caught.value.user_message("zh_CN")
    assert f"收信服务器（IMAP）127.0.0.1:{closed} 拒绝了连接" in zh and "端口" in zh
    assert "Errno" not in zh and "ConnectionRefusedError" not in zh


async def test_plain_text_to_another_host_is_refused_before_the_password_goes(
    app: App,
) -> None:
    from core.errors import InsecureMailServer
    from core.mailbox.account import Endpoint, check_transport

    with pytest.raises(InsecureMailServer):
        check_transport(Endpoint("imap", "mail.example.com", 143, "u", "starttls"), tls=False)
    check_transport(Endpoint("imap", "127.0.0.1", 143, "u", "starttls"), tls=False)
