"""The desktop says which mail server misbehaved, in Chinese (issue 40): a trickling or hostile
IMAP server read as "Something went wrong" with an English detail before."""

from __future__ import annotations

from core.errors import MailServerMisbehaves, MailServerTooSlow
from desktop.errors_ui import message_for


def test_a_slow_or_hostile_imap_server_is_named_in_chinese(languages) -> None:  # type: ignore[no-untyped-def]
    languages.apply("zh_CN")
    slow = message_for(MailServerTooSlow("一条命令 90 秒内没有回答完"))
    assert slow.startswith("收信 IMAP 服务器太慢") and "稍后自动重试" in slow
    hostile = message_for(MailServerMisbehaves("一行回答超过 1.0 MB"))
    assert hostile.startswith("收信 IMAP 服务器的回答超出了允许的范围") and "1.0 MB" in hostile
