"""The 14-day warning travels with the draft: ``drafts --json`` (``recently_mailed``) and the
Telegram draft alert say when this customer was last mailed, whoever made the draft."""

from __future__ import annotations

import json

import pytest

from core.cli.main import main
from core.clock import FakeClock, parse_now
from core.services import build_services
from tests.drafts.support import CUSTOMER, add_inquiry, add_sent
from tests.support.telegram_server import TelegramServer

NOW = "2026-12-03T10:00:00+11:00"


@pytest.fixture
def env(monkeypatch, llm_server, home):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", llm_server.base_url)
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", NOW)
    return home


def _drafts(capsys, home):  # type: ignore[no-untyped-def]
    capsys.readouterr()
    assert main(["drafts", "--json", "--home", str(home)]) == 0
    return json.loads(capsys.readouterr().out)


def test_drafts_json_and_the_phone_carry_the_recent_contact(  # type: ignore[no-untyped-def]
    env,
    capsys,
    owner_env: TelegramServer,
) -> None:
    home = env
    services = build_services(home, clock=FakeClock(parse_now(NOW)))
    try:
        mailed, _ = add_inquiry(services)
        add_sent(services, to=CUSTOMER, subject="RE: Sliding door quote", days_ago=3)
        quiet, _ = add_inquiry(services, email="bob@example.com", name="Bob Steward")
        add_sent(services, to="bob@example.com", subject="Long ago", days_ago=30)
    finally:
        services.close()
    for inquiry in (mailed, quiet):
        assert (
            main(["draft", str(inquiry), "--instruction", "报价15000含GST", "--home", str(home)])
            == 0
        )
    rows = {r["inquiry_id"]: r for r in _drafts(capsys, home)}
    recent = rows[mailed]["recently_mailed"]
    assert recent["subject"] == "RE: Sliding door quote"
    assert recent["at"].startswith("2026-11-29")  # 3 days before the pinned now (UTC)
    assert rows[quiet]["recently_mailed"] is None
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    alerts = [m.visible for m in owner_env.sent if "待审批草稿" in m.visible]
    warned = [a for a in alerts if "最近 14 天内已给该客户发过邮件" in a]
    assert len(alerts) == 2 and len(warned) == 1 and "RE: Sliding door quote" in warned[0]
