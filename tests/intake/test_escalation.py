"""Complaints, refunds, legal threats and angry customers raise 需要您确认 and lead the board;
a customer asking to replace a broken window is an ordinary inquiry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import main
from core.clock import FakeClock
from core.inquiry.board import BoardQuery, fetch_rows
from core.inquiry.stages import StageService
from core.intake.escalation import escalation_in
from core.services import build_services


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("I am very disappointed with the quote process.", "angry"),
        ("We want a full refund of the deposit.", "refund"),
        ("My solicitor will be in touch, and I will go to Fair Trading.", "legal"),
        ("This is unacceptable, I want to make a complaint.", "complaint"),
        ("你们的服务太差了，我要投诉！", "complaint"),
        ("再不处理我就找律师。", "legal"),
        ("请把定金退款给我。", "refund"),
        ("说实话我很失望。", "angry"),
    ],
)
def test_signals_in_english_and_chinese(text: str, reason: str) -> None:
    found = escalation_in(text)
    assert found is not None and found.reasons[0] == reason, text
    assert any(w in text for w in found.words)


@pytest.mark.parametrize(
    "text",
    [
        "Hi, our bathroom window is broken and the glass is cracked, can you replace it?",
        "Please quote a sliding door 2400 x 2100. Not urgent.",
        "浴室窗户玻璃裂了，想换一块新的。",
        "Sorry for the late reply, we were away. The quote looks good.",
        "",
    ],
)
def test_an_ordinary_inquiry_is_calm(text: str) -> None:
    assert escalation_in(text) is None, text


def test_a_defect_counts_on_a_job_we_installed() -> None:
    text = "The door you installed last month is leaking and doesn't lock."
    assert escalation_in(text) is None
    found = escalation_in(text, after_sale=True)
    assert found is not None and found.reasons == ("defect",)


def _mail(
    folder: Path, name: str, subject: str, body: str, extra: str = "", n: int | None = None
) -> None:
    n = n or len(list(folder.glob("*.eml"))) + 1
    (folder / f"{n:03d}.eml").write_text(
        f"From: {name} <{name.split()[0].lower()}@example.com>\nTo: sales@example.com.au\n"
        f"Subject: {subject}\nMessage-ID: <esc-{n}@example.com>\n{extra}"
        "Content-Type: text/plain; charset=utf-8\n\n" + body,
        encoding="utf-8",
    )


def _attention(capsys: pytest.CaptureFixture[str], home: Path) -> list[dict[str, Any]]:
    from core.app import build_app

    app = build_app(home, clock=FakeClock())
    try:
        import asyncio

        return [i.as_json() for i in asyncio.run(app.attention.items())]
    finally:
        app.close()


def test_a_complaint_leads_the_board_and_asks_for_him(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "eml"
    folder.mkdir()
    _mail(
        folder,
        "Amy Lee",
        "Sliding door quote",
        "Hi, please quote a sliding door for 3 Rose St, Ryde.\nAmy\n",
    )
    _mail(
        folder,
        "Bob Steward",
        "Awning windows",
        "Could you measure 4 awning windows at 9 Elm St, Epping?\nBob\n",
    )
    _mail(
        folder, "Cathy Wu", "Shower screen",
        "I am very disappointed: nobody called back and I want my deposit refunded.\n"
        "I need a shower screen at 5 Oak St, Burwood.\nCathy\n",
    )  # fmt: skip
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T10:00:00+11:00")
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    items = _attention(capsys, home)
    complaints = [i for i in items if i["kind"] == "complaint"]
    assert len(complaints) == 1 and complaints[0]["label"] == "Cathy Wu"
    assert "要求退款" in complaints[0]["detail"] and "very disappointed" in complaints[0]["detail"]
    assert complaints[0]["title_zh"].startswith("客户可能在投诉")
    services = build_services(home, clock=FakeClock())
    try:
        with services.store.session() as session:
            for query in (BoardQuery(), BoardQuery(sort="customer"), BoardQuery(descending=True)):
                rows = fetch_rows(session, query, services.clock.now())
                assert rows[0].customer_name == "Cathy Wu", query
    finally:
        services.close()
    capsys.readouterr()
    assert main(["briefing", "--home", str(home)]) == 0
    assert "客户可能在投诉" in capsys.readouterr().out


def test_a_reply_about_a_leaking_installed_door_is_escalated(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "one"
    folder.mkdir()
    _mail(
        folder,
        "Dan Moss",
        "Stacker door",
        "Please quote a stacker door for 2 Hill Rd, Ryde.\nDan\n",
    )
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-11-01T10:00:00+11:00")
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    capsys.readouterr()
    assert main(["inquiries", "--json", "--home", str(home)]) == 0
    [job] = json.loads(capsys.readouterr().out)
    services = build_services(home, clock=FakeClock())
    try:
        StageService(services.store, services.bus, services.clock).advance(
            job["id"], "install", reason="installed", triggered_by="owner"
        )
    finally:
        services.close()
    later = tmp_path / "two"
    later.mkdir()
    _mail(
        later, "Dan Moss", "Re: Stacker door",
        "Hi, the door you installed is leaking when it rains.\nDan\n",
        "In-Reply-To: <esc-1@example.com>\nReferences: <esc-1@example.com>\n",
    )  # fmt: skip
    (later / "001.eml").rename(later / "002.eml")
    text = (
        (later / "002.eml")
        .read_text()
        .replace("<esc-1@example.com>\nContent", "<esc-2@example.com>\nContent", 1)
    )
    (later / "002.eml").write_text(
        text.replace("Message-ID: <esc-1@example.com>", "Message-ID: <esc-2@example.com>")
    )
    assert main(["ingest", "--eml-dir", str(later), "--offline", "--home", str(home)]) == 0
    kinds = [(i["kind"], i["inquiry_id"]) for i in _attention(capsys, home)]
    assert ("complaint", job["id"]) in kinds
