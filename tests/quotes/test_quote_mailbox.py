"""The quote-document contract end to end over a real IMAP/SMTP mailbox (Dovecot + aiosmtpd).

The customer's mail arrives by IMAP; the owner makes a quote from a JSON list (exact GST and
totals), makes version 2 (which supersedes the unsent version 1 and its reply), approves and
sends the reply: the SMTP server gets the PDF exactly once, the PDF's text carries customer,
company, ABN, lines and totals, the inquiry is at ``follow_up`` (by the pipeline) after the send
and at ``ordered`` after ``quote accept``.
"""

from __future__ import annotations

import email
import email.policy
import json
import shutil
import sqlite3
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import main
from core.paths import DataPaths
from tests.mailbox.test_smtp_send import CUSTOMER_MAIL
from tests.support.dovecot import DovecotServer
from tests.support.smtp_server import SmtpServer

NOW = "2026-11-27T10:00:00+11:00"
SETTINGS = """[company]
name = "Aurora Windows & Doors"
abn = "12 345 678 901"
address = "1 George St, Sydney NSW 2000"
phone = "02 9000 0000"
deposit_percent = 30
"""
V1 = [
    {
        "description": "Bifold door, double glazed, installed",
        "product": "bifold_door",
        "width_mm": 3600,
        "height_mm": 2100,
        "qty": 1,
        "unit_price_ex_gst": "6480.35",
    },
    {
        "description": "Flyscreen",
        "product": "flyscreen",
        "width_mm": 900,
        "height_mm": 2100,
        "qty": 3,
        "unit_price_ex_gst": 45.55,
    },
]
V2 = [V1[0], {**V1[1], "qty": 2}]


@pytest.fixture
def mailbox(monkeypatch: pytest.MonkeyPatch, dovecot: DovecotServer, smtp: SmtpServer) -> Any:
    monkeypatch.setenv("INQUIRY_BRIDGE_IMAP_URL", dovecot.url)
    monkeypatch.setenv("INQUIRY_BRIDGE_SMTP_URL", smtp.url)
    monkeypatch.setenv("INQUIRY_BRIDGE_MAIL_PASSWORD", dovecot.password)
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", NOW)
    return dovecot, smtp


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys: pytest.CaptureFixture[str], home: Path, *args: str) -> Any:
    code, out, err = _cli(capsys, *args, "--json", "--home", str(home))
    assert code == 0, err
    return json.loads(out)


def _items_file(tmp_path: Path, name: str, items: list[dict[str, Any]]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(items), encoding="utf-8")
    return str(path)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_quote_contract_over_imap_and_smtp(
    mailbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    dovecot, smtp = mailbox
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.toml").write_text(SETTINGS, encoding="utf-8")
    # arrived an hour before NOW (the server's internal date, not the machine's clock)
    dovecot.append(CUSTOMER_MAIL, when=datetime.fromisoformat(NOW).timestamp() - 3600)
    code, _, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 0, err
    (inquiry,) = _json(capsys, home, "inquiries")
    iid = str(inquiry["id"])
    assert (inquiry["owes_reply"], inquiry["last_outbound_at"]) == ("us", None)

    v1 = _json(capsys, home, "quote", "new", iid, "--items-json", _items_file(tmp_path, "1", V1))
    # 6480.35 → GST 648.035 → 648.04 (half up); 3 × 45.55 = 136.65 → GST 13.665 → 13.67
    assert [i["line_total_ex_gst"] for i in v1["items"]] == [6480.35, 136.65]
    assert (v1["subtotal_ex_gst"], v1["gst"], v1["total_inc_gst"]) == (6617.0, 661.71, 7278.71)
    assert v1["deposit_inc_gst"] == 2183.61  # 30 % of 7278.71 = 2183.613
    v2 = _json(capsys, home, "quote", "new", iid, "--items-json", _items_file(tmp_path, "2", V2))
    assert (v2["version"], v2["gst"], v2["total_inc_gst"]) == (2, 657.15, 7228.6)
    quotes = {q["version"]: q for q in _json(capsys, home, "quotes")}
    assert (quotes[1]["status"], quotes[2]["status"]) == ("superseded", "draft")
    drafts = {int(d["id"]): d for d in _json(capsys, home, "drafts")}
    assert drafts[v1["draft_id"]]["status"] == "superseded"

    pdf = tmp_path / "quote.pdf"
    code, _, err = _cli(
        capsys, "quote", "pdf", str(v2["id"]), "--out", str(pdf), "--home", str(home)
    )
    assert code == 0, err
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for needed in ("Aurora Windows & Doors", "ABN 12 345 678 901", "wang.wei@example.com",
                   "Bifold door, double glazed, installed", "3600 x 2100", "$6,480.35",
                   "$91.10", "$6,571.45", "$657.15", "$7,228.60", "$2,168.58"):  # fmt: skip
        assert needed in text, needed

    code, _, err = _cli(capsys, "approve", str(v2["draft_id"]), "--home", str(home))
    assert code == 0, err  # no unconfirmed value: his items and code's arithmetic
    code, _, err = _cli(capsys, "send", str(v2["draft_id"]), "--home", str(home))
    assert code == 0, err
    assert len(smtp.received) == 1
    msg = email.message_from_bytes(smtp.received[0].data, policy=email.policy.default)
    assert smtp.received[0].rcpt_tos == ["wang.wei@example.com"]
    pdfs = [a for a in msg.iter_attachments() if a.get_content_type() == "application/pdf"]
    assert len(pdfs) == 1
    assert pdfs[0].get_content() == pdf.read_bytes()  # the very document he exported
    body = msg.get_body(("plain",))
    assert body is not None and "$7,228.60" in body.get_content()

    quotes = {q["version"]: q for q in _json(capsys, home, "quotes")}
    assert quotes[2]["status"] == "sent"
    (inquiry,) = _json(capsys, home, "inquiries")
    assert inquiry["stage"] == "follow_up"
    # the board knows at once, before any mail round reads the Sent folder
    assert inquiry["owes_reply"] == "customer" and inquiry["last_outbound_at"] is not None
    assert inquiry["quote_total_inc_gst"] == 7228.6  # the current version, not the superseded
    money = _json(capsys, home, "stats")["money"]
    assert money["pipeline_value_by_stage"]["follow_up"] == 7228.6
    assert money["quotes_sent_this_week"] == {"count": 1, "value_inc_gst": 7228.6}
    assert money["quotes_won_this_month"]["count"] == 0
    with sqlite3.connect(DataPaths(home).database) as db:
        moved = db.execute(
            "SELECT from_stage, to_stage, triggered_by FROM stage_events WHERE inquiry_id = ?"
            " ORDER BY id DESC LIMIT 1",
            (int(iid),),
        ).fetchone()
    assert moved == ("inquiry", "follow_up", "pipeline")
    code, _, err = _cli(capsys, "quote", "accept", str(v2["id"]), "--home", str(home))
    assert code == 0, err
    (inquiry,) = _json(capsys, home, "inquiries")
    assert inquiry["stage"] == "ordered"
    assert {q["version"]: q["status"] for q in _json(capsys, home, "quotes")}[2] == "accepted"
    money = _json(capsys, home, "stats")["money"]
    assert money["quotes_won_this_month"] == {"count": 1, "value_inc_gst": 7228.6}
    assert money["win_rate"] == 1.0
    assert money["pipeline_value_by_stage"]["ordered"] == 7228.6
    assert money["pipeline_value_by_stage"]["follow_up"] == 0.0
