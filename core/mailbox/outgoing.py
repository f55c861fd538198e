"""The MIME of one reply as it leaves by SMTP: fixed Message-ID, threading, UTF-8 done right.

Headers with non-ASCII text (a Chinese display name, a subject with 报价) are RFC 2047
encoded-words and attachment names RFC 2231 parameters (``email.policy.SMTP``), which every
server and client reads; the body is UTF-8 quoted-printable. A reply carries ``In-Reply-To`` (the
customer's Message-ID) and ``References`` (his thread plus that id), so it lands in his
conversation. The Message-ID is made by the caller and journalled before this message exists on
the wire: it is how the Sent folder is asked later whether it went.
"""

from __future__ import annotations

import mimetypes
from dataclasses import dataclass, field
from datetime import datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, make_msgid

DRAFT_HEADER = "X-Inquiry-Bridge-Draft"


@dataclass(frozen=True)
class Outgoing:
    """Everything one message needs (from the claimed draft's snapshot)."""

    draft_id: int
    sender: str  # the account's address
    sender_name: str
    to: list[str]
    cc: list[str]
    subject: str
    body: str
    reply_message_id: str | None = None
    references: list[str] = field(default_factory=list)
    # (filename, content type, bytes)
    attachments: list[tuple[str, str, bytes]] = field(default_factory=list)


def new_message_id(sender: str) -> str:
    domain = sender.rpartition("@")[2] or "inquiry-bridge.local"
    return make_msgid("ib", domain=domain)


def _address(value: str, name: str = "") -> Address:
    local, _, domain = value.strip().rpartition("@")
    return Address(display_name=name, username=local, domain=domain)


def build_mime(out: Outgoing, message_id: str, date: datetime) -> bytes:
    msg = EmailMessage(policy=SMTP)
    msg["From"] = _address(out.sender, out.sender_name)
    msg["To"] = [_address(a) for a in out.to]
    if out.cc:
        msg["Cc"] = [_address(a) for a in out.cc]
    msg["Subject"] = out.subject
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id
    if out.reply_message_id:
        msg["In-Reply-To"] = out.reply_message_id
        refs = [r for r in out.references if r] or [out.reply_message_id]
        msg["References"] = " ".join(dict.fromkeys(refs))
    msg[DRAFT_HEADER] = f"draft-{out.draft_id}"
    msg.set_content(out.body, subtype="plain", charset="utf-8", cte="quoted-printable")
    for name, content_type, data in out.attachments:
        ctype = content_type or mimetypes.guess_type(name)[0] or "application/octet-stream"
        maintype, _, subtype = ctype.partition("/")
        msg.add_attachment(
            data, maintype=maintype, subtype=subtype or "octet-stream", filename=name
        )
    return msg.as_bytes()


def recipients(out: Outgoing) -> list[str]:
    return list(dict.fromkeys([*out.to, *out.cc]))
