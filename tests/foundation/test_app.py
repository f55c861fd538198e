"""The facade: one builder per data folder, async typed services, no ORM object handed out."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from core.app import App, build_app
from core.clock import FakeClock
from core.events import InquiryUpdated, RecordingBus, StageChanged
from core.inquiry.board import BoardQuery
from core.inquiry.edit import InvalidField
from tests.desktop.seed import seed_inquiries


@pytest.fixture
def app(home: Path, clock: FakeClock):  # type: ignore[no-untyped-def]
    built = build_app(home, clock=clock, bus=RecordingBus())
    yield built
    built.close()


def _is_plain(value: object) -> bool:
    """A dataclass / builtin all the way down: nothing bound to a database session."""
    if dataclasses.is_dataclass(value):
        return all(_is_plain(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, list | tuple | set):
        return all(_is_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_is_plain(k) and _is_plain(v) for k, v in value.items())
    return type(value).__module__ in ("builtins", "datetime")


async def test_board_and_detail_come_back_as_plain_dataclasses(app: App) -> None:
    ids = seed_inquiries(app._services, 12, messages=True)
    page = await app.inquiries.page(BoardQuery(), limit=5)
    assert page.total == 12 and len(page.rows) == 5 and _is_plain(page)
    more = await app.inquiries.rows(BoardQuery(), offset=5, limit=50)
    assert len(more) == 7
    detail = await app.inquiries.detail(ids[0])
    assert detail is not None and detail.id == ids[0] and _is_plain(detail)
    assert await app.inquiries.detail(10_000) is None
    assert await app.inquiries.needs_me_count() == page.needs_me_total
    counts = await app.inquiries.message_counts(ids)
    assert sum(counts.values()) > 0


async def test_owner_edits_notes_and_stage_moves_are_audited_and_announced(app: App) -> None:
    (inquiry_id,) = seed_inquiries(app._services, 1)
    bus = app._services.bus
    assert isinstance(bus, RecordingBus)
    changed = await app.inquiries.update_fields(inquiry_id, {"suburb": "Castle Hill"})
    assert changed == ("suburb",)
    assert await app.inquiries.update_fields(inquiry_id, {"suburb": "Castle Hill"}) == ()
    with pytest.raises(InvalidField):
        await app.inquiries.update_fields(inquiry_id, {"customer_email": "not an address"})
    note_id = await app.inquiries.add_note(inquiry_id, "客户下午方便")
    detail = await app.inquiries.detail(inquiry_id)
    assert detail is not None and detail.suburb == "Castle Hill"
    assert note_id in [n.id for n in detail.notes]
    to_stage = "lost" if detail.stage != "lost" else "inquiry"
    change = await app.inquiries.advance_stage(inquiry_id, to_stage, reason="测试")
    assert change is not None and change.to_stage == to_stage
    assert any(isinstance(e, StageChanged) for e in bus.events)
    assert next(e.fields for e in bus.events if isinstance(e, InquiryUpdated)) == ("suburb",)


async def test_app_state_round_trips_and_notifications_are_stamped(app: App) -> None:
    assert await app.state.get("last_folder") is None
    await app.state.put("last_folder", "/tmp/x")
    assert await app.state.get("last_folder") == "/tmp/x"
    assert app.state.peek("last_folder") == "/tmp/x"
    center = app.notifications.attach(background=False)
    nid = center.raise_notification("new_inquiry", "新询盘", "**X**", "inquiry", 1, "k-1")
    assert nid is not None
    view = await app.notifications.get(nid)
    assert view is not None and view.title == "新询盘" and _is_plain(view)
    await app.notifications.mark_tray_shown(nid)
    await app.notifications.mark_read(nid)
    assert (await app.notifications.get(nid)).read_at is not None  # type: ignore[union-attr]


def test_the_costly_parts_are_built_on_first_use(app: App) -> None:
    assert app.llm.available is False
    assert app.drafts._service is None
    service = app.drafts.service()
    assert app.drafts.service() is service
