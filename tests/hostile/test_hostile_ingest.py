"""Hostile mail cannot stop intake: the issue's folder through ``ingest`` and ``sync --once``.

A year-9999 Date, a 5 MB body of dimension lines, three different web-form mails sharing one
Message-ID, undeclared 0xFF bytes and an empty file, followed by an ordinary inquiry: every file
ends as exactly one message with a final disposition, the ordinary one is an inquiry, and
``mail --json`` is valid UTF-8.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from core.cli.main import main
from core.clock import parse_now
from core.intake.rules_extract import _inside, find_dimensions
from core.mail.headers import parse_date
from tests.conftest import TEST_NOW
from tests.support.graph_server import GraphServer
from tests.support.hostile_mail import done_when_folder

FINAL_PREFIXES = ("skipped:", "failed:", "new_inquiry", "merged", "not_inquiry")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _mail_json(capfd: pytest.CaptureFixture[str], home: Path) -> list[dict]:
    """``mail --json`` read as bytes from the real stdout: it must be valid UTF-8."""
    assert main(["mail", "--json", "--home", str(home)]) == 0
    out = capfd.readouterr().out
    return json.loads(out.encode("utf-8", "strict").decode("utf-8", "strict"))


def _assert_every_file_one_message(mail: list[dict], *, empty_file: bool = True) -> None:
    assert len(mail) == 8, [m["message_id"] for m in mail]
    for item in mail:
        assert item["disposition"].startswith(FINAL_PREFIXES), item
    forms = [m for m in mail if m["message_id"] == "<webform@aurorawindows.com.au>"]
    assert len(forms) == 3  # three customers, three messages, the original id reported
    assert len({m["body_text"] for m in forms}) == 3
    ordinary = next(m for m in mail if m["message_id"] == "<ordinary-1@example.com>")
    assert ordinary["disposition"] == "new_inquiry"
    future = next(m for m in mail if m["message_id"] == "<y9999@example.net>")
    assert future["received_at"].startswith("2026-")  # the arrival time, not year 9999
    empty = [m for m in mail if m["disposition"] == "failed:empty"]
    assert len(empty) == (1 if empty_file else 0)


def test_hostile_folder_ingests_every_file_once(
    home: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "eml"
    done_when_folder(folder)
    code, out, err = _run(
        capfd, "ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)
    )
    assert code == 0, err  # how long it takes: benchmarks/hostile.py
    mail = _mail_json(capfd, home)
    _assert_every_file_one_message(mail)
    future = next(m for m in mail if m["message_id"] == "<y9999@example.net>")
    assert "Date header out of range" in future["parse_notes"]
    big = next(m for m in mail if m["message_id"] == "<bigspec-1@example.org>")
    assert any("raw message kept whole" in n for n in big["parse_notes"])
    raw_files = list((home / "mail").rglob("*.eml"))
    assert max(p.stat().st_size for p in raw_files) > 5_000_000  # the raw message is whole

    # the same folder again: nothing new, nothing lost
    code, out, err = _run(
        capfd, "ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)
    )
    assert code == 0, err
    assert "already known 8" in out
    assert _mail_json(capfd, home) == mail


def test_hostile_mail_through_sync_once_and_the_cursor_advances(
    home: Path, tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    files = done_when_folder(tmp_path / "eml")
    now = parse_now(TEST_NOW)
    with GraphServer(page_size=5) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_URL", srv.base_url)
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", srv.token or "")
        for index, path in enumerate(files):
            srv.add_message(raw=path.read_bytes(), received_at=now - timedelta(hours=9 - index))
        code, out, err = _run(capfd, "sync", "--once", "--offline", "--home", str(home))
        assert code == 0, err
        mail = _mail_json(capfd, home)
        # Graph never serves an empty MIME (the loopback server rebuilds one from the metadata)
        _assert_every_file_one_message(mail, empty_file=False)

        # the cursor moved past all of it: an idle round fetches no message again
        srv.reset_stats()
        later = srv.add_message(
            subject="Another quote",
            from_addr="late@example.com",
            body="Please quote a bifold door for 3 Oak St, Ryde. 0413 222 333",
            received_at=now,
        )
        code, out, err = _run(capfd, "sync", "--once", "--offline", "--home", str(home))
        assert code == 0, err
        assert len(srv.requests_to(r"/\$value$")) == 1, out  # only the new one
        mail = _mail_json(capfd, home)
        assert len(mail) == 9
        assert later


def test_poison_dates_fall_back_with_a_note() -> None:
    for value in ("Fri, 31 Dec 9999 23:59:59 -1200", "Sat, 32 Feb 2026 25:61:61 +9999", "soon"):
        notes: list[str] = []
        assert parse_date(value, notes) is None
        assert notes


def test_dimension_scan_is_linear() -> None:
    line = "Window 1200 x 900 mm, door 2400 x 2100 mm, 1500x600, 4200 mm wide\n"
    small = line * 1_000
    assert find_dimensions(small) == [
        "1200 x 900 mm",
        "2400 x 2100 mm",
        "1500 x 600 mm",
        "4200 mm wide",
    ]
    assert find_dimensions(line * 10_000) == find_dimensions(small)


class _CountingSpans(list):  # type: ignore[type-arg]
    """A span list that counts how many of its items a lookup reads."""

    reads = 0

    def __getitem__(self, index):  # type: ignore[no-untyped-def]
        type(self).reads += 1
        return super().__getitem__(index)


def test_dimension_scan_reads_a_logarithmic_number_of_spans_per_match() -> None:
    """Linear in the text without a stopwatch: "starts inside an earlier match" reads
    O(log n) spans (a bisect), not all of them (the list scan that took minutes on 5 MB).
    Wall-clock figures for large bodies are in benchmarks/hostile.py."""
    for n in (1_000, 100_000):
        spans = _CountingSpans((i * 10, i * 10 + 5, None) for i in range(n))
        _CountingSpans.reads = 0
        hits = [_inside(spans, p) for p in (3, n * 5 + 7, n * 10 - 7, n * 10 + 50)]
        assert hits == [True, False, True, False]
        assert _CountingSpans.reads <= 4 * (2 * n.bit_length() + 2)  # a list scan reads n each
