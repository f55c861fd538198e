"""The tray balloon of a new inquiry reads like the phone's alert: the summary, then the facts."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from core.app import App
from core.db.models import Notification
from core.events import InquiryCreated
from core.notify.outbox import NotificationCenter
from desktop.tray import TrayController
from tests.drafts.support import add_inquiry


async def test_a_new_inquiry_balloon_says_what_he_wants_first(qapp: Any, services: Any) -> None:
    center = NotificationCenter(services).attach()
    try:
        inquiry_id, _ = add_inquiry(services, body="Hi, we need a sliding door for Ryde.")
        services.bus.publish(InquiryCreated(inquiry_id))
    finally:
        center.detach()
    with services.store.session() as session:
        notification_id = session.scalars(select(Notification.id)).one()
    tray = TrayController(App(services))
    await tray.show_notification(notification_id)
    [(title, body)] = tray.shown
    assert title == "新询盘：Jane Citizen（Ryde）"
    lines = body.split("\n")
    assert lines[0] == "Ryde 的客户想做推拉门（2400 x 2100 mm），可远程报价"
    assert "客户：Jane Citizen" in lines and "电话：0412 345 678" in lines
    assert "we need a sliding door" not in body and "**" not in body
