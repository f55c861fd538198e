"""Mailbox errors in the owner's words (issue 42, item 7): each says which server (收信 IMAP /
发信 SMTP / Microsoft), what happened and what to do — not ``ConnectionRefusedError: [Errno
111]``, and not one text for both ports."""

from __future__ import annotations

import os
import re
import socket
import ssl
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from core.app import build_app
from core.app.facade import App
from core.errors import GraphError, MailAuthError, MailNetworkError
from core.graph.errors import transport_cause
from core.mailbox.account import Endpoint
from core.mailbox.imap_session import classify_refusal, network_error
from tests.support.dovecot import DovecotServer, free_port

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u9fff]")
IMAP = Endpoint("imap", "imap.example.com", 993, "boss@example.com", "ssl")
SMTP = Endpoint("smtp", "smtp.example.com", 465, "boss@example.com", "ssl")


@pytest.fixture
async def app(tmp_path: Path) -> AsyncIterator[App]:
    app = build_app(tmp_path / "home")
    yield app
    await app.aclose()
    app.close()


@pytest.mark.parametrize(
    ("exc", "zh_words", "en_words"),
    [
        (ConnectionRefusedError(111, "Connection refused"), "拒绝了连接", "refused"),
        (TimeoutError("timed out"), "连接超时", "timed out"),
        (socket.gaierror(-2, "Name or service not known"), "无法解析", "does not resolve"),
        (ssl.SSLError(1, "[SSL: WRONG_VERSION_NUMBER] wrong version number"), "SSL/TLS", "TLS"),
        (ConnectionResetError(104, "Connection reset by peer"), "断开", "dropped"),
    ],
)
def test_each_failure_names_its_server_and_what_to_do(
    exc: OSError, zh_words: str, en_words: str
) -> None:
    incoming = network_error(exc, IMAP)
    outgoing = network_error(exc, SMTP)
    zh_in, zh_out = incoming.user_message("zh_CN"), outgoing.user_message("zh_CN")
    assert zh_in.startswith("收信服务器（IMAP）imap.example.com:993")
    assert zh_out.startswith("发信服务器（SMTP）smtp.example.com:465")
    assert (zh_words in zh_in and "：请" in zh_in) or "重试" in zh_in
    for text in (zh_in, zh_out, incoming.user_message("en")):
        assert "Errno" not in text and type(exc).__name__ not in text
    en = outgoing.user_message("en")
    assert en.startswith("The outgoing mail server (SMTP)") and en_words in en
    assert not CJK.search(en)


def test_a_refused_password_names_the_server_and_keeps_its_words() -> None:
    error = classify_refusal("[AUTHENTICATIONFAILED] Invalid credentials", SMTP)
    assert isinstance(error, MailAuthError)
    zh = error.user_message("zh_CN")
    assert zh.startswith("发信服务器（SMTP）") and "授权码" in zh and "Invalid credentials" in zh


def test_microsoft_network_failures_name_microsoft() -> None:
    request = httpx.Request("GET", "https://graph.microsoft.com/v1.0/me")
    refused = httpx.ConnectError("[Errno 111] Connection refused", request=request)
    error = GraphError("GET /me: network error", cause=transport_cause(refused))
    assert error.user_message("zh_CN").startswith("微软邮箱服务器（Microsoft 365）拒绝了连接")
    assert error.user_message("en").startswith("Microsoft's mail server (Microsoft 365) refused")
    timeout = httpx.ConnectTimeout("timed out", request=request)
    assert "连接超时" in GraphError("x", cause=transport_cause(timeout)).user_message("zh_CN")


async def test_test_connection_tells_a_closed_smtp_port_from_a_closed_imap_port(
    app: App, dovecot: DovecotServer
) -> None:
    """The IMAP side is a real Dovecot; only the SMTP port is closed: the error says SMTP."""
    closed = free_port()
    with pytest.raises(MailNetworkError) as caught:
        await app.mail_accounts.test(
            "163",
            dovecot.user,
            dovecot.password,
            imap=("127.0.0.1", dovecot.port, "starttls"),
            smtp=("127.0.0.1", closed, "starttls"),
        )
    zh = caught.value.user_message("zh_CN")
    assert zh.startswith(f"发信服务器（SMTP）127.0.0.1:{closed} 拒绝了连接"), zh


def test_sync_against_a_closed_imap_port_is_one_line_naming_imap(tmp_path: Path) -> None:
    closed = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("INQUIRY_BRIDGE_")}
    env.update(
        INQUIRY_BRIDGE_IMAP_URL=f"imap://boss@127.0.0.1:{closed}",
        INQUIRY_BRIDGE_SMTP_URL=f"smtp://boss@127.0.0.1:{free_port()}",
        INQUIRY_BRIDGE_MAIL_PASSWORD="secret",
        INQUIRY_BRIDGE_NOW="2027-03-01T09:00:00+11:00",
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "desktop.launcher",
            "sync",
            "--once",
            "--no-drive",
            "--offline",
            "--home",
            str(tmp_path / "home"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=env,
    )
    err = done.stderr.strip()
    assert done.returncode != 0 and "Traceback" not in err and err.count("\n") == 0, err
    assert f"收信服务器（IMAP）127.0.0.1:{closed} 拒绝了连接" in err
    assert f"The incoming mail server (IMAP) 127.0.0.1:{closed} refused" in err
    assert "Errno" not in err
