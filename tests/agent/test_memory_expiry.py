"""The day a short-term memory stops holding is read from its words, in code: the model may
propose one, and its proposal is checked."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from core.agent.memory_dedupe import Candidate, remember_once
from core.db.models import Memory
from core.memory.expiry import event_date, expires_at_for, verified_expiry

TODAY = date(2026, 4, 1)  # a Wednesday


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("下周二上门", date(2026, 4, 7)),
        ("Billy 下星期五来店里", date(2026, 4, 10)),
        ("这周五之前回复", date(2026, 4, 3)),
        ("周一打电话给他", None),  # a bare weekday: left to the model (a habit reads the same)
        ("周三不上门", None),
        ("每周三不上门", None),
        ("明天量尺", date(2026, 4, 2)),
        ("后天安装", date(2026, 4, 3)),
        ("4月20日交货", date(2026, 4, 20)),
        ("1月5日开工", date(2027, 1, 5)),  # said in April: next January
        ("site visit on 2026-04-15", date(2026, 4, 15)),
        ("install 15/4", date(2026, 4, 15)),  # Australian day/month
        ("Measure next Tuesday", date(2026, 4, 7)),
        ("call him on Friday", None),
        ("call him by Friday", date(2026, 4, 3)),
        ("away until 20 April", date(2026, 4, 20)),
        ("下周他出差", date(2026, 4, 12)),  # the end of next week
        ("Billy 预算有限", None),
        ("窗户 2400 x 2100", None),  # sizes are not dates
        ("报价都含GST", None),
        ("Billy wants a sun room", None),  # "sun" alone is no Sunday
        ("measure by sat", date(2026, 4, 4)),
    ],
)
def test_the_words_give_the_day(text: str, day: date | None) -> None:
    assert event_date(text, TODAY) == day


def test_a_models_date_is_taken_only_when_the_words_speak_of_time() -> None:
    assert verified_expiry("Billy 这几天不在家", "2026-04-05", TODAY) == date(2026, 4, 5)
    assert verified_expiry("Billy 预算有限", "2026-04-05", TODAY) is None  # a lasting fact
    assert verified_expiry("Billy 这几天不在家", "2025-01-01", TODAY) is None  # in the past
    assert verified_expiry("Billy 这几天不在家", "2030-01-01", TODAY) is None  # years ahead
    assert verified_expiry("Billy 这几天不在家", "next week", TODAY) is None  # not a date
    assert verified_expiry("Billy 的门宽 2400", "2026-04-05", TODAY) is None  # a size, no time
    assert verified_expiry("下周二上门", "2026-05-01", TODAY) == date(2026, 4, 7)  # the words win
    assert verified_expiry("周一打电话给他", "2026-04-06", TODAY) == date(2026, 4, 6)


def test_the_day_ends_at_midnight_in_sydney() -> None:
    assert expires_at_for(date(2026, 4, 7)) == datetime(2026, 4, 7, 14, 0)  # AEST, +10
    assert expires_at_for(date(2026, 1, 7)) == datetime(2026, 1, 7, 13, 0)  # AEDT, +11


async def test_a_proposal_of_the_model_is_verified_before_it_is_stored(services) -> None:  # type: ignore[no-untyped-def]
    away = await remember_once(
        services, None, Candidate("customer_note", "Billy 这几天不在家", expires_on="2026-04-05"),
        source="agent", proposal=True,
    )  # fmt: skip
    budget = await remember_once(
        services, None, Candidate("customer_note", "Billy 预算有限", expires_on="2026-04-05"),
        source="agent", proposal=True,
    )  # fmt: skip
    with services.store.session() as s:
        assert s.get(Memory, away.memory_id).expires_at == datetime(2026, 4, 5, 14, 0)
        assert s.get(Memory, budget.memory_id).expires_at is None
