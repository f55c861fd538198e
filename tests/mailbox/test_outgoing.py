"""The MIME of a reply: Chinese names and subjects as RFC 2047, file names as RFC 2231,
threading headers, and the fixed Message-ID — read back by a standard parser unchanged."""

from __future__ import annotations

import email
import email.policy
from datetime import datetime, timedelta, timezone

from core.mailbox.outgoing import Outgoing, build_mime, new_message_id


def test_chinese_names_subject_and_attachment_survive_the_wire() -> None:
    out = Outgoing(
        draft_id=7,
        sender="owner@aurorawindows.com.au",
        sender_name="澳洲铝门窗 Aurora",
        to=["wang.wei@example.com"],
        cc=["李娜@example.com".replace("李娜", "li.na")],
        subject="Re: 推拉门报价 — sliding door quote",
        body="Hi Wang Wei,\n\n报价 $15,000 含 GST.\n.\nA line that starts with a dot.\n",
        reply_message_id="<wang-1@mail.example.com>",
        references=["<older@mail.example.com>", "<wang-1@mail.example.com>"],
        attachments=[("报价单 Quote.pdf", "application/pdf", b"%PDF-1.4 fake")],
    )
    mid = new_message_id(out.sender)
    raw = build_mime(out, mid, datetime(2026, 11, 30, 10, tzinfo=timezone(timedelta(hours=11))))
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert head.isascii()  # encoded-words, not raw UTF-8, in every header
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert msg["From"].addresses[0].display_name == "澳洲铝门窗 Aurora"
    assert msg["Subject"] == "Re: 推拉门报价 — sliding door quote"
    assert msg["Message-ID"] == mid and mid.endswith("@aurorawindows.com.au>")
    assert msg["In-Reply-To"] == "<wang-1@mail.example.com>"
    assert msg["References"] == "<older@mail.example.com> <wang-1@mail.example.com>"
    body = msg.get_body(("plain",))
    assert body is not None and "报价 $15,000 含 GST." in body.get_content()
    (attachment,) = list(msg.iter_attachments())
    assert attachment.get_filename() == "报价单 Quote.pdf"
    assert attachment.get_content() == b"%PDF-1.4 fake"
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
