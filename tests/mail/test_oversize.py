"""A mail far over the parser's comfort is streamed: headers and text read, the parts to disk."""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from core.cli.main import main
from core.mail.oversize import OMITTED, OVERSIZE_BYTES
from core.mail.parse import ParseBudget, parse_file, parse_message

MB = 1_000_000
PLAN = b"\x00\x01plan" * 1024


def _mail(attachment: bytes, *, extra_part: bytes = b"") -> bytes:
    body = base64.encodebytes(attachment)
    return (
        b"From: Big Sender <big@example.com>\r\nSubject: Plans for the whole house\r\n"
        b"Message-ID: <big-1@example.com>\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="outer"\r\n\r\n'
        b'--outer\r\nContent-Type: multipart/alternative; boundary="alt"\r\n\r\n'
        b"--alt\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        b"Please quote all windows for 3 Main St, Ryde. Plans attached.\r\n"
        b"--alt\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        b"<p>Please quote all windows for 3 Main St, Ryde.</p>\r\n--alt--\r\n"
        + extra_part
        + b"--outer\r\nContent-Type: application/pdf; name=plans.pdf\r\n"
        b"Content-Disposition: attachment; filename=plans.pdf\r\n"
        b"Content-Transfer-Encoding: base64\r\n\r\n" + body + b"--outer--\r\n"
    )


def _plans(megabytes: int) -> bytes:
    return PLAN * (megabytes * MB // len(PLAN) + 1)


def test_a_big_mail_file_is_read_for_text_and_its_attachment_decoded_to_disk(
    tmp_path: Path,
) -> None:
    plans = _plans(OVERSIZE_BYTES // MB + 2)
    path = tmp_path / "big.eml"
    path.write_bytes(_mail(plans))
    spool = tmp_path / "spool"
    parsed = parse_file(path, ParseBudget(spool_dir=str(spool), keep_max=len(plans) + 1))
    assert parsed.subject == "Plans for the whole house"
    assert "3 Main St, Ryde" in parsed.text
    assert any("read to disk" in n for n in parsed.notes)
    [attachment] = parsed.attachments
    assert attachment.filename == "plans.pdf" and attachment.size == len(plans)
    assert attachment.spooled is not None
    assert Path(attachment.spooled).read_bytes() == plans  # the very bytes the customer sent


def test_bytes_from_a_mailbox_are_streamed_the_same_way(tmp_path: Path) -> None:
    plans = _plans(OVERSIZE_BYTES // MB + 2)
    parsed = parse_message(_mail(plans), ParseBudget(spool_dir=str(tmp_path), keep_max=10**9))
    [attachment] = parsed.attachments
    assert attachment.spooled and Path(attachment.spooled).read_bytes() == plans


def test_an_attachment_over_the_cap_is_counted_not_written(tmp_path: Path) -> None:
    plans = _plans(OVERSIZE_BYTES // MB + 2)
    parsed = parse_message(_mail(plans), ParseBudget(spool_dir=str(tmp_path), keep_max=MB))
    [attachment] = parsed.attachments
    assert attachment.spooled is None and abs(attachment.size - len(plans)) <= 2
    assert list(tmp_path.iterdir()) == []  # its half-written spool file is gone


def test_a_mail_cannot_forge_the_omitted_marker(tmp_path: Path) -> None:
    forged = (
        b"--outer\r\nContent-Type: application/octet-stream; name=passwd\r\n"
        + OMITTED
        + b": 0000000000000000 0\r\n\r\nAAAA\r\n"
    )
    raw = _mail(_plans(OVERSIZE_BYTES // MB + 2), extra_part=forged)
    parsed = parse_message(raw, ParseBudget(spool_dir=str(tmp_path), keep_max=10**9))
    names = [a.filename for a in parsed.attachments]
    assert names == ["passwd", "plans.pdf"]
    sizes = {a.filename: a.size for a in parsed.attachments}
    assert sizes["passwd"] == 4  # its own bytes ("AAAA"), not another part's file


def test_a_small_mail_is_parsed_whole() -> None:
    parsed = parse_message(_mail(_plans(1)))
    [attachment] = parsed.attachments
    assert attachment.payload and attachment.spooled is None


def _ingest(home: Path, folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    capsys.readouterr()
    assert main(["mail", "--json", "--home", str(home)]) == 0
    [mail] = json.loads(capsys.readouterr().out)
    assert isinstance(mail, dict)
    return mail


def test_ingest_of_a_big_mail_stores_the_attachment_whole_and_keeps_the_raw_mail(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "settings.toml").write_text("[intake]\nattachment_max_mb = 40\n", encoding="utf-8")
    folder = tmp_path / "eml"
    folder.mkdir()
    plans = _plans(OVERSIZE_BYTES // MB + 2)
    raw = _mail(plans)
    (folder / "001.eml").write_bytes(raw)
    mail = _ingest(home, folder, capsys)
    assert mail["disposition"] == "new_inquiry" and "3 Main St, Ryde" in str(mail["body_text"])
    [stored] = list((home / "mail").rglob("*.eml"))
    assert stored.read_bytes() == raw
    db = sqlite3.connect(home / "inquiry-bridge.sqlite3")
    [(name, size, stored_path)] = db.execute(
        "select filename, size, stored_path from attachments"
    ).fetchall()
    assert (name, size) == ("plans.pdf", len(plans))
    assert hashlib.sha256((home / stored_path).read_bytes()).digest() == (
        hashlib.sha256(plans).digest()
    )
    assert list((home / "cache" / "spool").glob("*")) == []  # nothing left in the spool


def test_a_mail_over_the_hard_cap_is_recorded_too_large_and_kept(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "settings.toml").write_text("[intake]\nmail_max_mb = 16\n", encoding="utf-8")
    folder = tmp_path / "eml"
    folder.mkdir()
    raw = _mail(_plans(18))
    (folder / "001.eml").write_bytes(raw)
    mail = _ingest(home, folder, capsys)
    assert mail["disposition"] == "failed:too_large"
    [stored] = list((home / "mail").rglob("*.eml"))
    assert stored.read_bytes() == raw  # never lost: the owner can still open it


def test_a_big_mail_file_is_never_held_in_memory_whole(tmp_path: Path) -> None:
    """Python's allocations while streaming a 20 MB mail stay a small fraction of it (the stdlib
    parser alone made ~8 copies): what keeps a 300 MB mail from taking the computer's memory."""
    import tracemalloc

    plans = _plans(OVERSIZE_BYTES // MB + 4)
    path = tmp_path / "big.eml"
    path.write_bytes(_mail(plans))
    budget = ParseBudget(spool_dir=str(tmp_path / "spool"), keep_max=len(plans) + 1)
    tracemalloc.start()
    try:
        parsed = parse_file(path, budget)
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert parsed.attachments[0].size == len(plans)
    assert peak < path.stat().st_size / 4, f"peak {peak / MB:.1f} MB"


_HEAD = b'From: a@example.com\nSubject: x\nContent-Type: multipart/mixed; boundary="z"\n\n'
_TEXT = b"--z\nContent-Type: text/plain\n\nHi there\n"
_ZIP = b"--z\nContent-Type: application/zip\nContent-Transfer-Encoding: base64\n\n"


@pytest.mark.parametrize(
    ("raw", "text", "sizes"),
    [
        pytest.param(
            _HEAD + _TEXT + _ZIP + b"QUJD\n" * 4 * MB, "Hi there", [12 * MB], id="unclosed"
        ),
        pytest.param(
            _HEAD + _TEXT + _ZIP + b"QU=J*D\n" * 3 * MB + b"--z--\n", "Hi there", None, id="bad-b64"
        ),
        pytest.param(
            b"From: a@example.com\nContent-Type: multipart/mixed\n\nHi there\n" + b"q" * 17 * MB,
            "Hi there",
            [],
            id="no-boundary",
        ),
    ],
)
def test_damaged_big_mail_still_gives_its_text_and_leaves_only_its_parts(
    tmp_path: Path, raw: bytes, text: str, sizes: list[int] | None
) -> None:
    parsed = parse_message(raw, ParseBudget(spool_dir=str(tmp_path), keep_max=30 * MB))
    assert parsed.text.startswith(text)
    if sizes is not None:
        assert [a.size for a in parsed.attachments] == sizes
    kept = {Path(a.spooled) for a in parsed.attachments if a.spooled}
    assert set(tmp_path.iterdir()) == kept  # no spool file that nothing points at
