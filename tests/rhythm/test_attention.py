"""需要您确认: the pipeline's guesses are recorded, listed in the briefing, resolved with one click."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from sqlalchemy import select

from core.app import build_app
from core.cli.main import main
from core.db.models import AuditEntry, Inquiry, Message
from core.events import NeedsAttention
from tests.intake.test_pipeline_support import ScriptedModel, Verdict
from tests.support.llm_server import LLMServer


def _mail(folder: Path, n: int, sender: str, subject: str, body: str) -> None:
    (folder / f"{n:03d}.eml").write_text(
        f"From: {sender}\nTo: sales@aurorawindows.com.au\nSubject: {subject}\n"
        f"Message-ID: <att-{n}@example.com>\nContent-Type: text/plain; charset=utf-8\n\n{body}\n",
        encoding="utf-8",
    )


@pytest.fixture
def ingested(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "eml"
    folder.mkdir()
    _mail(
        folder,
        1,
        "Amy Lee <amy@example.com>",
        "Measure for new windows",
        "Could you come and measure 3 awning windows? 1 Main St, Ryde NSW. 0412 345 001.",
    )
    _mail(folder, 2, "Bob <bob@example.com>", "hello", "Are you open on Saturday? Thanks")
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T10:00:00+11:00")
    # the model is unsure of Amy's mail (the rules' constant "low" is not a doubt: see below)
    unsure = Verdict(["A"], confidence="low", name="Amy Lee", suburb="Ryde")
    with LLMServer(ScriptedModel({"Measure for new windows": unsure})) as server:
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", server.base_url)
        assert main(["ingest", "--eml-dir", str(folder), "--home", str(home)]) == 0
    monkeypatch.delenv("INQUIRY_BRIDGE_LLM_BASE_URL")
    return home


def test_the_rules_constant_low_confidence_asks_him_nothing(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a model every classification is the rules' and "low" by construction: flagging
    them all would put the whole board under 需要您确认."""
    folder = tmp_path / "eml"
    folder.mkdir()
    _mail(folder, 1, "Amy Lee <amy@example.com>", "Measure for new windows",
          "Could you come and measure 3 awning windows? 1 Main St, Ryde NSW. 0412 345 001.")  # fmt: skip
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    app = build_app(home)
    try:
        assert asyncio.run(app.attention.count()) == 0
        with app._services.store.session() as s:
            assert s.scalar(select(Inquiry.confidence)) == "low"  # still shown as the rules' guess
    finally:
        app.close()


def _briefing(home: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    capsys.readouterr()
    assert main(["briefing", *extra, "--home", str(home)]) == 0
    return capsys.readouterr().out


def test_low_confidence_is_listed_then_confirmed_with_one_click(
    ingested: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = ingested
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T20:00:00+11:00")
    data = json.loads(_briefing(home, capsys, "--json"))
    [item] = data["needs_you"]
    assert (item["kind"], item["label"], item["status"]) == ("low_confidence", "Amy Lee", "open")
    text = _briefing(home, capsys)
    assert "**需要您确认**（1）" in text and "Amy Lee：分类/提取把握不大" in text

    asyncio.run(_confirm(home, item))
    assert "需要您确认" not in _briefing(home, capsys)


async def _confirm(home: Path, item: dict) -> None:
    app = build_app(home)
    try:
        assert await app.attention.inquiry_ids() == {item["inquiry_id"]}
        done = await app.attention.confirm(item["key"])
        assert done is not None and done.status == "confirmed"
        assert await app.attention.count() == 0
        assert await app.attention.confirm(item["key"]) is None  # once only
        with app._services.store.session() as s:
            assert s.get(Inquiry, item["inquiry_id"]).confidence == "high"
            [audit] = s.scalars(select(AuditEntry).where(AuditEntry.action.like("attention_%")))
            assert (audit.action, audit.entity_id, audit.actor) == (
                "attention_confirmed",
                item["inquiry_id"],
                "owner",
            )
        # the same guess reported again stays decided
        app._services.bus.publish(
            NeedsAttention("low_confidence", "inquiry", item["inquiry_id"], "again")
        )
        assert await app.attention.count() == 0
    finally:
        await app.aclose()
        app.close()


def test_correcting_the_class_and_an_unreadable_message(ingested: Path) -> None:
    asyncio.run(_correct(ingested))


async def _correct(home: Path) -> None:
    app = build_app(home)
    try:
        [low] = await app.attention.items()
        done = await app.attention.correct(low.key, "B")
        assert done is not None and done.status == "corrected"
        with app._services.store.session() as s:
            assert s.get(Inquiry, low.inquiry_id).classification == "B"
            bob = s.scalar(select(Message.id).where(Message.from_addr == "bob@example.com"))
        # a message the model could not understand: no inquiry, labelled by sender and subject
        app._services.bus.publish(NeedsAttention("failed", "message", bob, "failed:llm_schema"))
        app._services.bus.publish(NeedsAttention("llm_pending", "message", bob, "retrying"))
        [failed] = await app.attention.items()
        assert (failed.kind, failed.inquiry_id, failed.label) == ("failed", None, "Bob：hello")
        assert failed.title_zh == "模型没看懂这封邮件"
        assert (await app.attention.dismiss(failed.key)).status == "dismissed"
        assert await app.attention.items() == []
        assert len(await app.attention.items(open_only=False)) == 2
    finally:
        await app.aclose()
        app.close()
