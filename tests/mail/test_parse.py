"""parse_message on hand-written fixtures: charsets, HTML tables, attachments, damaged MIME."""

from __future__ import annotations

import base64
import os
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.errors import MessageParseError
from core.mail.charsets import decode_bytes
from core.mail.headers import decode_header_value
from core.mail.parse import ParseBudget, parse_message
from tests.mail.builders import build_raw

Load = Callable[[str], bytes]


def test_gb2312_base64_body_and_subject_decode_as_gb18030(fixture_bytes: Load) -> None:
    msg = parse_message(fixture_bytes("gb2312_base64.eml"))
    # 堃 is not in GB2312: only the GB18030 superset reading gets it right.
    assert msg.subject == "询价：推拉门 王堃"
    assert msg.from_name == "王堃"
    assert "想做两扇推拉门" in msg.text and msg.text.rstrip().endswith("0412 345 678")
    assert "\ufffd" not in msg.text
    assert "charset gb2312 decoded as gb18030" in msg.notes
    assert msg.language == "zh"


def test_gbk_quoted_printable(fixture_bytes: Load) -> None:
    msg = parse_message(fixture_bytes("gbk_qp.eml"))
    assert msg.subject == "纱窗报价"
    assert "一共三个" in msg.text


def test_big5_body_and_subject(fixture_bytes: Load) -> None:
    msg = parse_message(fixture_bytes("big5.eml"))
    assert msg.subject == "鋁門窗報價"
    assert msg.from_name == "陳大文"
    assert "淋浴房玻璃要換" in msg.text


def test_unknown_charset_falls_back_to_latin1_and_notes_it(fixture_bytes: Load) -> None:
    msg = parse_message(fixture_bytes("unknown_charset.eml"))
    assert "our café in Newtown" in msg.text
    assert msg.subject == "Quote for a café shopfront"
    assert "unknown charset x-unknown" in msg.notes


def test_unknown_charset_tries_utf8_first(fixture_bytes: Load) -> None:
    msg = parse_message(fixture_bytes("unknown_charset_utf8.eml"))
    assert "600 × 900 mm, please. Zoë" in msg.text
    assert "unknown charset x-unknown" in msg.notes


def test_decode_bytes_replaces_and_notes_broken_utf8() -> None:
    notes: list[str] = []
    text = decode_bytes(b"ok \xff\xfe end", "utf-8", notes)
    assert text.startswith("ok ") and text.endswith(" end")
    assert "replaced undecodable bytes" in notes


def test_rfc2047_gb2312_words_split_mid_character_join_up() -> None:
    raw = "窗户报价".encode("gb18030")
    first = base64.b64encode(raw[:3]).decode()
    second = base64.b64encode(raw[3:]).decode()
    assert decode_header_value(f"=?gb2312?B?{first}?=\r\n =?gb2312?B?{second}?=") == "窗户报价"


def test_html_only_form_keeps_table_cells_apart(fixture_bytes: Load) -> None:
    msg = parse_message(fixture_bytes("html_table.eml"))
    lines = [" ".join(line.split()) for line in msg.text.splitlines()]
    assert "Name Mark Evans" in lines
    assert "Phone 0412 000 111" in lines
    assert "Products Sliding door Flyscreen" in lines  # three cells, not "Sliding doorFlyscreen"
    assert msg.html is not None and "<table" in msg.html
    assert msg.reply_to == "mark.evans@example.com"
    assert msg.from_addr == "no-reply@aurorawindows.com.au"


def test_truncated_multipart_keeps_text_and_partial_attachment(fixture_bytes: Load) -> None:
    msg = parse_message(fixture_bytes("truncated_multipart.eml"))
    assert "The opening is 3600 wide." in msg.text
    assert [a.filename for a in msg.attachments] == ["plans.pdf"]
    assert msg.attachments[0].payload.startswith(b"%PDF-1.4")
    assert any("CloseBoundaryNotFound" in n for n in msg.notes)


def test_missing_boundary_is_recovered_from_the_body(fixture_bytes: Load) -> None:
    msg = parse_message(fixture_bytes("missing_boundary.eml"))
    assert msg.text == "Hello, I need a frameless shower screen 1000 x 2000 in Homebush."
    assert "multipart boundary recovered from the body" in msg.notes


def test_rfc2231_filenames_including_continuations(fixture_bytes: Load) -> None:
    msg = parse_message(fixture_bytes("rfc2231_filename.eml"))
    names = [(a.filename, a.content_type) for a in msg.attachments]
    assert names == [
        ("浴室斜顶.jpg", "image/jpeg"),
        ("Window schedule – rev B.pdf", "application/pdf"),
    ]
    assert msg.attachments[0].size == len(msg.attachments[0].payload) > 0


def test_forwarded_message_does_not_leak_and_inline_image_is_flagged(fixture_bytes: Load) -> None:
    msg = parse_message(fixture_bytes("forwarded_inline_image.eml"))
    assert "Can you beat this price?" in msg.text
    assert "SECRET-INNER-BODY" not in msg.text
    assert "rivalwindows" not in msg.text
    by_type = {a.content_type: a for a in msg.attachments}
    assert by_type["image/png"].is_inline is True
    assert by_type["image/png"].payload.startswith(b"\x89PNG")
    forwarded = by_type["message/rfc822"]
    assert forwarded.is_inline is False
    assert forwarded.filename == "Your quote RW-5521.eml"
    assert b"SECRET-INNER-BODY" in forwarded.payload
    assert "message/rfc822" in msg.content_types


def test_missing_message_id_and_naive_date(fixture_bytes: Load) -> None:
    msg = parse_message(fixture_bytes("forwarded_inline_image.eml"))
    assert msg.message_id is None
    assert msg.date == datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


def test_identity_headers_and_addresses() -> None:
    raw = build_raw(
        [
            ("From", '"Smith, John" <John.Smith@Example.COM>'),
            (
                "To",
                "sales@aurorawindows.com.au, =?utf-8?Q?Kylie_M=C3=BCller?= <kylie@aurorawindows.com.au>",
            ),
            ("Cc", "builder@example.net"),
            ("Reply-To", "js.private@example.org"),
            ("Message-ID", " <abc@example.com> "),
            ("In-Reply-To", "<prev@aurorawindows.com.au>"),
            ("References", "<one@x>\r\n <two@y> <prev@aurorawindows.com.au>"),
            ("Date", "Wed, 25 Mar 2026 07:16:40 +1100"),
            ("X-Custom", "=?utf-8?B?5rWL6K+V?="),
        ]
    )
    msg = parse_message(raw)
    assert msg.from_addr == "john.smith@example.com"
    assert msg.from_name == "Smith, John"
    assert msg.to == ["sales@aurorawindows.com.au", "kylie@aurorawindows.com.au"]
    assert msg.cc == ["builder@example.net"]
    assert msg.reply_to == "js.private@example.org"
    assert msg.message_id == "<abc@example.com>"
    assert msg.in_reply_to == "<prev@aurorawindows.com.au>"
    assert msg.references == ["<one@x>", "<two@y>", "<prev@aurorawindows.com.au>"]
    assert msg.date == datetime(2026, 3, 24, 20, 16, 40, tzinfo=UTC)
    assert msg.headers["x-custom"] == "测试"
    assert msg.language == "en"


def test_multipart_alternative_prefers_plain_and_keeps_html() -> None:
    body = (
        "--alt\nContent-Type: text/plain; charset=utf-8\n\nPlain version here.\n"
        "--alt\nContent-Type: text/html; charset=utf-8\n\n<p>HTML <b>version</b></p>\n--alt--\n"
    )
    msg = parse_message(build_raw({}, body, content_type='multipart/alternative; boundary="alt"'))
    assert msg.text == "Plain version here."
    assert msg.html is not None and "<b>version</b>" in msg.html


def test_multipart_report_exposes_report_type() -> None:
    body = (
        "--r\nContent-Type: text/plain\n\nDelivery has failed.\n"
        "--r\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.com\n\n"
        "Final-Recipient: rfc822; nobody@example.com\nAction: failed\nStatus: 5.1.1\n"
        "--r\nContent-Type: message/rfc822\n\nFrom: sales@aurorawindows.com.au\nSubject: Quote\n\n"
        "ORIGINAL-QUOTE-BODY\n--r--\n"
    )
    raw = build_raw(
        {"From": "MAILER-DAEMON@mx.example.com"},
        body,
        content_type='multipart/report; report-type="delivery-status"; boundary="r"',
    )
    msg = parse_message(raw)
    assert msg.report_type == "delivery-status"
    assert "message/delivery-status" in msg.content_types
    assert msg.text == "Delivery has failed."
    assert "ORIGINAL-QUOTE-BODY" not in msg.text


@pytest.mark.parametrize(
    ("raw", "reason"),
    [(b"", "empty"), (b"  \r\n\r\n", "empty"), (bytes(range(256)) * 20, "not_email")],
)
def test_unusable_bytes_raise_parse_error_with_reason(raw: bytes, reason: str) -> None:
    with pytest.raises(MessageParseError) as caught:
        parse_message(raw)
    assert caught.value.params["reason"] == reason
    assert caught.value.user_message().startswith("邮件格式损坏")


@pytest.mark.parametrize(
    "raw",
    [
        b"Subject: only a header\r\n",
        b"some text with no headers at all\nsecond line\n",
        b"From: a@b.c\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n!!!@@@\n",
        b"From: =?utf-8?B?%%%?= <a@b.c>\nSubject: =?bogus?Q?hi=FF?=\nDate: not a date\n\nbody",
        b"From: a@b.c\nContent-Type: multipart/mixed; boundary=x\n\n--x\nContent-Type: text/plain\n",
        b"From: a@b.c\nSubject: \xff\xfe\xe4\xb8\nContent-Type: text/html\n\n<table><tr><td>x",
        b"From: <<<@@@>>>, ,,;\nTo: undisclosed-recipients:;\n\nhi",
    ],
)
def test_damaged_messages_never_raise(raw: bytes) -> None:
    msg = parse_message(raw)
    assert isinstance(msg.text, str) and isinstance(msg.subject, str)
    assert msg.date is None or msg.date.tzinfo is not None


def test_unparseable_date_is_none_with_note() -> None:
    msg = parse_message(build_raw({"Date": "sometime next week"}))
    assert msg.date is None
    assert "unparseable Date header" in msg.notes


def test_huge_attachment_is_extracted_whole(tmp_path: Path) -> None:
    payload = os.urandom(30 * 1024 * 1024)
    body = (
        b"--zz\r\nContent-Type: text/plain\r\n\r\nPlans attached.\r\n"
        b"--zz\r\nContent-Type: application/octet-stream\r\n"
        b'Content-Disposition: attachment; filename="site-survey.bin"\r\n'
        b"Content-Transfer-Encoding: base64\r\n\r\n"
        + base64.encodebytes(payload)
        + b"\r\n--zz--\r\n"
    )
    raw = build_raw({}, "", content_type='multipart/mixed; boundary="zz"') + body
    msg = parse_message(raw, ParseBudget(spool_dir=str(tmp_path), keep_max=len(payload)))
    assert msg.text == "Plans attached."
    (attachment,) = msg.attachments
    assert attachment.filename == "site-survey.bin"
    assert attachment.size == len(payload)
    assert attachment.spooled is not None  # a big mail's part is decoded to disk, not memory
    assert Path(attachment.spooled).read_bytes() == payload


@pytest.mark.parametrize(
    ("data", "label", "expected", "note"),
    [
        (
            "Two panes – 1200 × 900".encode(),
            "iso-8859-1",
            "Two panes – 1200 × 900",
            "charset iso-8859-1 decoded as utf-8",
        ),
        (
            "请问推拉门多少钱".encode("gbk"),
            "iso-8859-1",
            "请问推拉门多少钱",
            "charset iso-8859-1 decoded as gb18030",
        ),
        (
            "请问推拉门多少钱".encode("gbk"),
            None,
            "请问推拉门多少钱",
            "charset undeclared decoded as gb18030",
        ),
        (
            "请问推拉门多少钱".encode("gbk"),
            "utf-8",
            "请问推拉门多少钱",
            "charset utf-8 decoded as gb18030",
        ),
        ("Café crème, Renée".encode("cp1252"), "iso-8859-1", "Café crème, Renée", None),
        ("“smart quotes”".encode("cp1252"), "us-ascii", "“smart quotes”", None),
    ],
)
def test_mislabelled_charsets_are_read_as_what_they_are(
    data: bytes, label: str | None, expected: str, note: str | None
) -> None:
    notes: list[str] = []
    assert decode_bytes(data, label, notes) == expected
    if note:
        assert note in notes
    else:
        assert notes == []


@pytest.mark.parametrize(
    "label", ["base64", "rot13", "zlib", "hex", "big5\x00", "\udc80gbk", "utf-8' OR 1=1"]
)
def test_non_charset_codec_names_and_garbage_labels_are_unknown(label: str) -> None:
    notes: list[str] = []
    assert decode_bytes(b"plain words", label, notes) == "plain words"
    assert decode_bytes("Zoë".encode(), label, notes) == "Zoë"
    assert any(n.startswith("unknown charset") for n in notes)
