"""Core events reach the desktop once, through the hub of the data folder on screen.

The tray outlives a switch between the demo folder and the real one; the hub does not. Alerts
must show once (not once per listener), and after a switch the tray's count must follow the folder
the owner is looking at, not the one he left.
"""

from __future__ import annotations

import asyncio

from core.app import App
from core.db.app_state import put_state
from core.events import InquiryCreated
from core.inquiry.board import needs_me_total
from desktop.app import DesktopApp
from tests.desktop.seed import seed_inquiries
from tests.support.qt import QuitRecorder, settles, wait_until


def _raise(desktop: DesktopApp, key: str) -> int:
    assert desktop.ctx is not None and desktop.ctx.notifications is not None
    nid = desktop.ctx.notifications.raise_notification(
        "new_inquiry", f"新询盘：{key}", "**Castle Hill** 推拉门", "inquiry", 1, key
    )
    assert nid is not None
    return nid


@settles
async def test_an_alert_shows_once_and_the_tray_follows_a_folder_switch(app, services) -> None:  # type: ignore[no-untyped-def]
    now = services.clock.now()
    services.store.write(lambda s: put_state(s, "first_run_done", True, now))
    services.store.write(lambda s: put_state(s, "data_mode", "demo", now))
    desktop = DesktopApp(app, App(services), tray=True)
    desktop.start()
    assert desktop.ctx is not None and desktop.ctx.is_demo
    tray = desktop.tray
    assert tray is not None

    _raise(desktop, "demo-1")
    await wait_until(lambda: len(tray.shown) >= 1)
    await asyncio.sleep(0.3)  # a second listener would have shown it by now
    assert [title for title, _ in tray.shown] == ["新询盘：demo-1"]

    desktop.leave_demo()
    assert not desktop.ctx.is_demo
    await asyncio.sleep(0.5)  # the switch's own count settles (an empty real folder: 0)
    seed_inquiries(services, 20)
    services.bus.publish(InquiryCreated(1))
    with services.store.session() as s:
        expected = needs_me_total(s, services.clock.now())
    assert expected > 0
    await wait_until(lambda: tray.count == expected)

    _raise(desktop, "real-1")
    await wait_until(lambda: "新询盘：real-1" in [title for title, _ in tray.shown])
    await asyncio.sleep(0.3)
    # the seeded inquiry raised its own alert too; each alert shows exactly once
    titles = [title for title, _ in tray.shown]
    assert titles.count("新询盘：demo-1") == 1 and titles.count("新询盘：real-1") == 1
    assert len(titles) == len(set(titles)), titles
    sync = desktop.sync
    assert sync is not None
    sync.stop()  # before quit: the real folder's background work ends on the running loop
    await wait_until(lambda: not sync.running, timeout=20)
    desktop.qapp = recorder = QuitRecorder(desktop.qapp)
    desktop.quit()
    assert recorder.quit_calls == 1
    await desktop.ctx.aclose_clients()
    desktop.ctx.detach()
