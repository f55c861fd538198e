"""A draft to a complaining customer shows the flag wherever it is shown: ``drafts --json``
(``escalation``) and the Telegram draft alert, whoever made the draft."""

from __future__ import annotations

import json

import pytest

from core.cli.main import main
from core.clock import FakeClock, parse_now
from core.events import NeedsAttention
from core.rhythm import attention
from core.services import build_services
from tests.drafts.support import add_inquiry
from tests.support.telegram_server import TelegramServer

NOW = "2026-12-03T10:00:00+11:00"
REASON = "提到律师/投诉机构：“律师”"


@pytest.fixture
def env(monkeypatch, llm_server, home):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", llm_server.base_url)
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", NOW)
    return home


def test_drafts_json_and_the_phone_carry_the_complaint(  # type: ignore[no-untyped-def]
    env,
    capsys,
    owner_env: TelegramServer,
) -> None:
    home = env
    services = build_services(home, clock=FakeClock(parse_now(NOW)))
    try:
        angry, _ = add_inquiry(services)
        calm, _ = add_inquiry(services, email="bob@example.com", name="Bob Steward")
        event = NeedsAttention("complaint", "inquiry", angry, REASON)
        now = services.clock.now()
        services.store.write(lambda s: attention.record(s, event, now))
    finally:
        services.close()
    for inquiry in (angry, calm):
        argv = ["draft", str(inquiry), "--instruction", "报价15000含GST", "--home", str(home)]
        assert main(argv) == 0
    capsys.readouterr()
    assert main(["drafts", "--json", "--home", str(home)]) == 0
    rows = {r["inquiry_id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows[angry]["escalation"] == REASON
    assert rows[calm]["escalation"] is None
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    alerts = [m.visible for m in owner_env.sent if "待审批草稿" in m.visible]
    flagged = [a for a in alerts if "该客户在投诉" in a]
    assert len(alerts) == 2 and len(flagged) == 1
    assert "律师" in flagged[0] and "请先看一下再批准" in flagged[0]
