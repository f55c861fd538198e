"""A Telegram conversation lasts one Sydney day; the next day starts short but knows what was
going on. Loopback Bot API, loopback model (tier 3 answers, tier 1 keeps the notes), real SQLite,
the injected clock.

What the owner would notice: the morning's first question does not drag yesterday's whole chat
into the prompt (nor its cost), yet "那扇门" still means the door he talked about last night.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select

from core.db.models import AssistantSession
from tests.agent.session_support import SessionModel, assistant_requests
from tests.notify.conftest import OWNER
from tests.notify.test_chat import once
from tests.support.llm_server import LLMServer, schema_name
from tests.support.telegram_server import TelegramServer

# the FakeClock starts at 2026-04-01 00:00 UTC: 11:00 in Sydney (AEDT, UTC+11)
LATE_EVENING = timedelta(hours=12, minutes=30)  # 23:30 in Sydney, still April 1
AFTER_MIDNIGHT = timedelta(hours=1)  # 00:30 in Sydney, April 2 (UTC: still April 1)


async def _say(services: Any, app: Any, tg: TelegramServer, text: str) -> None:
    tg.push_message(OWNER, text)
    await once(services, app)


async def test_the_next_sydney_day_starts_a_new_conversation_with_yesterdays_notes(
    services: Any, owner_env: TelegramServer, clock: Any, app: Any
) -> None:
    model = SessionModel(answer_chars=200)
    with LLMServer(model) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        await _say(services, app, owner_env, "记住：Bob 家后门的推拉门宽 2400 mm")
        clock.advance(LATE_EVENING.total_seconds())
        await _say(services, app, owner_env, "那扇门用双层玻璃可以吗？")
        evening = assistant_requests(srv)[-1]["messages"]
        clock.advance(AFTER_MIDNIGHT.total_seconds())
        await _say(services, app, owner_env, "早上好，那扇门今天能报价吗？")
        morning = assistant_requests(srv)[-1]["messages"]
        reviewed = [schema_name(r.body or {}) for r in srv.chat_requests]
    # 23:30 is the same day: the evening question comes after the morning's turn, whole
    assert any("2400 mm" in str(m.get("content")) for m in evening if m["role"] == "user")
    # 00:30 in Sydney is a new day (though not in UTC): yesterday's turns are not sent ...
    said = [str(m.get("content")) for m in morning if m["role"] in {"user", "assistant"}]
    notes = [text for text in said if text.startswith("Notes of the earlier part")]
    turns = [text for text in said if text not in notes and "Standing preferences" not in text]
    assert len(turns) == 1 and turns[0].endswith("早上好，那扇门今天能报价吗？")
    assert not any("关于「那扇门用双层玻璃" in text for text in said)  # last night's answer
    # ... but their notes are, in the prefix, with the fact he stated yesterday
    assert len(notes) == 1 and "2400 mm" in notes[0] and "双层玻璃" in notes[0]
    assert "sessiondigest" in reviewed  # yesterday was folded by the cheap tier
    with services.store.session() as s:
        names = sorted(s.scalars(select(AssistantSession.name)).all())
    assert names == [f"{OWNER}@2026-04-01", f"{OWNER}@2026-04-02"]
    assert len(owner_env.sent_to(OWNER)) >= 3  # every question got its answer
