"""上门量尺 from an inquiry's detail, as the owner uses it (an IMAP user: the app's visits are his
calendar): three free times on working days, 确认这个时间 books one -- the job moves to 上门量尺,
the customer's confirmation waits in 待审批 -- and a second customer's dialog no longer offers
the booked hour; a time that meanwhile clashes is refused in one Chinese line."""

from __future__ import annotations

from typing import Any

from desktop.detail import InquiryDetailView
from tests.notify.conftest import add_inquiry, sydney
from tests.support.qt import settles, wait_until


@settles
async def test_confirm_a_free_time_from_the_inquiry_detail(
    ctx: Any, qtbot: Any, services: Any
) -> None:
    # the clock: Wednesday 1 April 2026, 11:00 in Sydney (Good Friday and Easter Monday follow)
    mary = add_inquiry(services, customer_name="Mary Lee", customer_email="mary@example.com")
    view = InquiryDetailView(ctx)
    qtbot.addWidget(view)
    view.show_inquiry(mary)
    await view.ready()
    assert view.header.visit_button.text() == "上门量尺…" and view.header.visit_button.isEnabled()
    dialog = view.open_visit_dialog()
    assert dialog is not None and dialog.windowTitle() == "上门量尺"
    await wait_until(lambda: len(dialog.choices.buttons()) == 3)
    labels = [b.text() for b in dialog.choices.buttons()]
    assert labels == [
        "2026-04-02（周四）08:00",
        "2026-04-07（周二）08:00",
        "2026-04-08（周三）08:00",
    ]
    dialog.choices.buttons()[1].setChecked(True)
    done = await dialog.confirm()
    assert done is not None and done.draft_id is not None
    assert "已约好：2026-04-07（周二）08:00" in dialog.status.text()
    assert f"草稿 #{done.draft_id}" in dialog.status.text()
    assert (await ctx.app.drafts.reader.get(done.draft_id)).status == "pending_approval"
    view.show_inquiry(mary)
    await view.ready()
    assert view.detail is not None and view.detail.stage == "measure"

    # Tom's dialog shows the time waiting for him; a time that now clashes is refused in Chinese
    tom = add_inquiry(services, customer_name="Tom Chan", customer_email="tom@example.com")
    await ctx.app.rhythm.visits.propose(tom, sydney(2026, 4, 2, 8, 30))  # before Mary's Thu
    view.show_inquiry(tom)
    await view.ready()
    other = view.open_visit_dialog()
    assert other is not None
    await wait_until(lambda: len(other.choices.buttons()) == 1)  # the time waiting for him
    # meanwhile another desk books Ann into Thursday 08:00
    ann = add_inquiry(services, customer_name="Ann Ho", customer_email="ann@example.com")
    await ctx.app.rhythm.visits.propose(ann, sydney(2026, 4, 2, 8))
    await ctx.app.rhythm.visits.confirm(ann)
    assert await other.confirm() is None
    assert "冲突" in other.status.text() and "\n" not in other.status.text()
    await other.find_free()
    times = [b.text() for b in other.choices.buttons()]
    assert times == [  # after Ann's and Mary's visits, with a quarter hour to drive
        "2026-04-02（周四）09:30",
        "2026-04-07（周二）09:30",
        "2026-04-08（周三）08:00",
    ]
