"""A mail far over the parser's comfort is read for its headers and text; the rest stays on disk."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from core.cli.main import main
from core.mail.oversize import OMITTED, OVERSIZE_BYTES, trim_oversized
from core.mail.parse import parse_message


def _big_mail(megabytes: int) -> bytes:
    blob = base64.encodebytes(b"\x00\x01plan" * 1024)
    body = blob * (megabytes * 1_000_000 // len(blob) + 1)
    return (
        b"From: Big Sender <big@example.com>\r\nSubject: Plans for the whole house\r\n"
        b"Message-ID: <big-1@example.com>\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="outer"\r\n\r\n'
        b'--outer\r\nContent-Type: multipart/alternative; boundary="alt"\r\n\r\n'
        b"--alt\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        b"Please quote all windows for 3 Main St, Ryde. Plans attached.\r\n"
        b"--alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        b"<p>Please quote all windows for 3 Main St, Ryde.</p>\r\n--alt--\r\n"
        b"--outer\r\nContent-Type: application/pdf; name=plans.pdf\r\n"
        b"Content-Disposition: attachment; filename=plans.pdf\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\n" + body + b"--outer--\r\n"
    )


def test_an_oversized_mail_keeps_headers_text_and_says_what_it_left_out() -> None:
    raw = _big_mail(OVERSIZE_BYTES // 1_000_000 + 2)
    notes: list[str] = []
    trimmed = trim_oversized(raw, notes)
    assert len(trimmed) < 10_000 and OMITTED in trimmed
    assert "left in the raw mail on disk" in notes[0]
    parsed = parse_message(raw)
    assert parsed.subject == "Plans for the whole house"
    assert "3 Main St, Ryde" in (parsed.text or "")
    assert any("left in the raw mail on disk" in n for n in parsed.notes)


def test_a_small_mail_is_not_touched() -> None:
    raw = _big_mail(1)
    assert trim_oversized(raw, []) is raw


def test_ingest_of_an_oversized_mail_keeps_the_whole_raw_message(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "eml"
    folder.mkdir()
    raw = _big_mail(OVERSIZE_BYTES // 1_000_000 + 2)
    (folder / "001.eml").write_bytes(raw)
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    assert main(["mail", "--json", "--home", str(home)]) == 0
    [mail] = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert mail["disposition"] == "new_inquiry" and "3 Main St, Ryde" in mail["body_text"]
    [stored] = [p for p in (home / "mail").rglob("*.eml")]
    assert stored.read_bytes() == raw  # the attachment is still there, whole, on disk
