"""A reminder on Telegram carries 起草跟进邮件 / 打开询盘 / 推迟 1·3·7 天 / 标记流失, each one press."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import main
from core.rhythm.actions import follow_up_instruction
from tests.drafts.support import DraftingModel
from tests.notify.conftest import STRANGER
from tests.support.llm_server import LLMServer
from tests.support.telegram_server import SentMessage, TelegramServer


def _mail(folder: Path, n: int, name: str) -> None:
    (folder / f"{n:03d}.eml").write_text(
        f"From: {name} <customer{n}@example.com>\nTo: sales@aurorawindows.com.au\n"
        f"Subject: Quote for sliding door {n}\nMessage-ID: <btn-{n}@example.com>\n"
        "Content-Type: text/plain; charset=utf-8\n\n"
        f"Hi, please quote a new sliding door 2400 x 2100 for {n} Main St, Ryde.\n"
        f"Call me on 0412 345 {n:03d}.\n{name}\n",
        encoding="utf-8",
    )


def _run(home: Path, *args: str) -> None:
    assert main([*args, "--home", str(home)]) == 0


def _inquiries(home: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, Any]]:
    capsys.readouterr()
    _run(home, "inquiries", "--json")
    return {i["customer_name"]: i for i in json.loads(capsys.readouterr().out)}


@pytest.fixture
def alerts(
    home: Path,
    tmp_path: Path,
    owner_env: TelegramServer,
    monkeypatch: pytest.MonkeyPatch,
) -> dict[str, SentMessage]:
    """Two jobs overdue on Friday; their reminder alerts as they reached the phone."""
    folder = tmp_path / "eml"
    folder.mkdir()
    for n, name in ((1, "Amy Lee"), (2, "Bob Chen")):
        _mail(folder, n, name)
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-11-23T10:00:00+11:00")  # Monday
    _run(home, "ingest", "--eml-dir", str(folder), "--offline")
    _run(home, "telegram", "--once")
    before = len(owner_env.sent)
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-11-27T10:00:00+11:00")  # Friday: 4 > 2
    _run(home, "reminders", "--announce")
    _run(home, "telegram", "--once")
    found = {m.visible.split("：", 1)[1].split(" ", 1)[0]: m for m in owner_env.sent[before:]}
    assert set(found) == {"Amy", "Bob"}
    return found


def test_snooze_open_and_mark_lost_from_the_phone(
    home: Path,
    alerts: dict[str, SentMessage],
    owner_env: TelegramServer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    amy, bob = alerts["Amy"], alerts["Bob"]
    labels = [b["text"] for b in amy.buttons()]
    assert labels == [
        "📝 起草跟进邮件",
        "📂 打开询盘",
        "⏰ 推迟 1 天",
        "⏰ 推迟 3 天",
        "⏰ 推迟 7 天",
        "❌ 标记流失",
    ]
    assert all(len(b["callback_data"].encode()) <= 64 for b in amy.buttons())
    stale = bob.button("推迟 1 天")["callback_data"]  # kept, as an old message on the phone

    # a stranger's press does nothing
    owner_env.press(amy, "推迟 3 天", user_id=STRANGER)
    _run(home, "telegram", "--once")
    capsys.readouterr()
    _run(home, "reminders", "--json")
    assert len(json.loads(capsys.readouterr().out)) == 2

    before = len(owner_env.sent)
    owner_env.press(amy, "推迟 3 天")
    _run(home, "telegram", "--once")
    assert "已推迟到 12月02日 07:00" in owner_env.sent[before].visible  # Wed, 3 working days
    assert owner_env.answered[-1]["text"].startswith("已推迟到")
    capsys.readouterr()
    _run(home, "reminders", "--json")
    assert [r["customer_name"] for r in json.loads(capsys.readouterr().out)] == ["Bob Chen"]

    before = len(owner_env.sent)
    owner_env.press(bob, "打开询盘")
    _run(home, "telegram", "--once")
    card = owner_env.sent[before].visible
    assert "Bob Chen" in card and "阶段：询盘" in card and "0412 345 002" in card

    owner_env.press(bob, "标记流失")
    _run(home, "telegram", "--once")
    assert _inquiries(home, capsys)["Bob Chen"]["stage"] == "lost"
    assert _inquiries(home, capsys)["Amy Lee"]["stage"] == "inquiry"

    # an old button of a job that moved on changes nothing
    assert bob.buttons() == []  # the handled alert lost its buttons
    owner_env.push_callback(bob.chat_id, stale, message_id=bob.message_id)
    _run(home, "telegram", "--once")
    assert owner_env.answered[-1]["text"] == "此提醒已过期：询盘的阶段已经变了。"


def test_draft_the_follow_up_from_the_phone_waits_for_approval(
    home: Path,
    alerts: dict[str, SentMessage],
    owner_env: TelegramServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    model = DraftingModel()
    with LLMServer(model) as llm:
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", llm.base_url)
        before = len(owner_env.sent)
        owner_env.press(alerts["Amy"], "起草跟进邮件")
        _run(home, "telegram", "--once")
        asked = json.dumps([r.body for r in llm.chat_requests], ensure_ascii=False)
    assert follow_up_instruction("inquiry") in asked  # the stage's follow-up, in his words
    shown = [m.visible for m in owner_env.sent[before:]]
    assert any("已起草跟进邮件" in m and "尚未发送" in m for m in shown)
    [alert] = [m for m in owner_env.sent[before:] if m.buttons()]  # its 发送 / 放弃, shown at once
    assert any("发送" in b["text"] for b in alert.buttons())
    capsys.readouterr()
    _run(home, "drafts", "--json")
    [draft] = json.loads(capsys.readouterr().out)
    assert draft["status"] == "pending_approval" and draft["to"] == ["customer1@example.com"]
