"""Attachments per mail are capped; the rest become one note the owner sees (issue 40).

A 1.4 MB mail of 10,000 one-line parts once took 17.6 s and 808 MB to open in the detail view,
and one of 100,000 parts wrote 100,000 files. Now the parser keeps ``MAX_ATTACHMENTS`` and
counts the rest into "还有 N 个附件未保存", which the detail reads back.
"""

from __future__ import annotations

from email.message import EmailMessage

from core.inquiry.detail import not_kept
from core.mail.parse import MAX_ATTACHMENTS, parse_message


def many_parts(count: int, *, forwarded: bool = False) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Builder <site@example.com>"
    msg["To"] = "sales@aurorawindows.com.au"
    msg["Subject"] = "Photos of every window"
    msg["Message-ID"] = "<many@example.com>"
    msg.set_content("Please quote the windows in the photos, 12 Park Rd Ryde.")
    if forwarded:
        inner = EmailMessage()
        inner["Subject"] = "the original"
        inner.set_content("forwarded words")
        for i in range(5):
            inner.add_attachment(b"x", maintype="image", subtype="jpeg", filename=f"in{i}.jpg")
        msg.add_attachment(inner)
    for i in range(count):
        msg.add_attachment(f"photo {i}".encode(), maintype="image", subtype="jpeg",
                           filename=f"window-{i:05d}.jpg")  # fmt: skip
    return bytes(msg)


def test_past_the_cap_attachments_are_counted_into_one_note() -> None:
    parsed = parse_message(many_parts(MAX_ATTACHMENTS + 50))
    assert len(parsed.attachments) == MAX_ATTACHMENTS
    assert parsed.attachments[-1].filename == f"window-{MAX_ATTACHMENTS - 1:05d}.jpg"
    notes = [n for n in parsed.notes if "个附件未保存" in n]
    assert notes == [
        f"还有 50 个附件未保存 / 50 more attachments not kept (over {MAX_ATTACHMENTS} per mail)"
    ]
    assert not_kept(parsed.notes) == 50
    assert "Please quote the windows" in parsed.text


def test_under_the_cap_nothing_is_noted_and_a_forward_counts_once() -> None:
    parsed = parse_message(many_parts(MAX_ATTACHMENTS - 1, forwarded=True))
    # the forwarded mail is one attachment; its own five parts are not counted as ours
    assert len(parsed.attachments) == MAX_ATTACHMENTS
    assert not any("个附件未保存" in n for n in parsed.notes)
    assert not_kept(parsed.notes) == 0
