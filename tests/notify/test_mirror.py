"""The outbox and its delivery to the owner's chat: once, in Chinese, paced, held, never lost."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from core.clock import utc
from core.db.models import Inquiry, Notification
from core.events import InquiryCreated, NotificationRaised, StageOverdue, SyncStatus
from core.inquiry.stages import change_stage
from core.notify.chunk import TELEGRAM_LIMIT
from core.services import build_services
from core.telegram.runner import TelegramRunner
from tests.notify.conftest import OWNER, add_inquiry, sydney
from tests.support.telegram_server import TelegramServer, html_problem


def rows(services: Any, kind: str | None = None) -> list[Notification]:
    with services.store.session() as session:
        query = select(Notification).order_by(Notification.id)
        if kind:
            query = query.where(Notification.kind == kind)
        return list(session.scalars(query))


def test_new_inquiry_event_writes_one_chinese_notification(services: Any, center: Any) -> None:
    inquiry_id = add_inquiry(services)
    services.bus.publish(InquiryCreated(inquiry_id))
    services.bus.publish(InquiryCreated(inquiry_id))  # replayed after a restart
    [row] = rows(services)
    assert row.kind == "new_inquiry" and row.telegram_status == "pending"
    assert row.title == "新询盘：John Smith（Epping）"
    assert "推拉门" in row.body_md and "0412 345 678" in row.body_md
    raised = [e for e in services.bus.events if isinstance(e, NotificationRaised)]
    assert [(e.notification_id, e.ref_id) for e in raised] == [(row.id, inquiry_id)]


def test_in_the_background_an_alert_never_holds_up_the_publisher(services: Any) -> None:
    """The desktop's center: while the store's writer is busy (an ingest batch committing), the
    pipeline's publish returns at once and the alert is written, in order, when the writer frees."""
    import threading

    from core.notify.outbox import NotificationCenter

    center = NotificationCenter(services).attach(background=True)
    try:
        center.drain()  # the start-up catch-up, on the worker too
        inquiry_id = add_inquiry(services)
        writer_busy, release = threading.Event(), threading.Event()

        def long_commit(_session: Any) -> None:
            writer_busy.set()
            release.wait(10)

        blocker = threading.Thread(target=services.store.write, args=(long_commit,))
        blocker.start()
        assert writer_busy.wait(5)
        published = threading.Thread(
            target=services.bus.publish, args=(InquiryCreated(inquiry_id),)
        )
        published.start()
        published.join(2)
        assert not published.is_alive()  # the publisher was not made to wait for the store
        assert rows(services) == []
        release.set()
        blocker.join(5)
        center.drain()
        [row] = rows(services)
        assert row.kind == "new_inquiry" and row.ref_id == inquiry_id
    finally:
        release.set()
        center.detach()


def test_not_an_inquiry_raises_nothing(services: Any, center: Any) -> None:
    services.bus.publish(InquiryCreated(add_inquiry(services, classification="C")))
    assert rows(services) == []


def test_sync_problem_alerts_once_per_outage(services: Any, center: Any, clock: Any) -> None:
    services.bus.publish(SyncStatus("mail", False, "graph_auth", "token expired"))
    services.bus.publish(SyncStatus("mail", False, "graph_auth", "token expired"))
    assert [r.title for r in rows(services)] == ["邮件同步出现问题"]
    assert "需要重新登录微软账户" in rows(services)[0].body_md
    services.bus.publish(SyncStatus("mail", True))
    clock.advance(60)
    services.bus.publish(SyncStatus("mail", False, "graph", "500"))
    assert len(rows(services)) == 2


def test_a_mailbox_outage_alert_names_the_server_once_not_inside_a_template(
    services: Any, center: Any
) -> None:
    """Tray and Telegram get the sentence that says which server and what to do (issue 42),
    not "无法连接邮件服务器…（ConnectionRefusedError: [Errno 111]…）"."""
    from core.mailbox.account import Endpoint
    from core.mailbox.imap_session import network_error
    from core.schedule import Poller

    error = network_error(
        ConnectionRefusedError(111, "Connection refused"),
        Endpoint("smtp", "smtp.qq.com", 465, "boss@qq.com", "ssl"),
    )

    async def job() -> None:
        return None

    Poller("mail", job, lambda: 60.0, services.clock, bus=services.bus)._report(False, error)
    [row] = rows(services, "sync_problem")
    assert row.body_md.startswith("发信服务器（SMTP）smtp") and "465 拒绝了连接" in row.body_md
    assert "Errno" not in row.body_md and "无法连接邮件服务器" not in row.body_md


async def test_new_inquiry_reaches_owner_once_even_after_restart(
    services: Any, center: Any, owner_env: TelegramServer, home: Any, clock: Any
) -> None:
    services.bus.publish(InquiryCreated(add_inquiry(services)))
    runner = TelegramRunner(services)
    report = await runner.run_once()
    await runner.aclose()
    assert report.delivery.sent == 1
    [message] = owner_env.sent_to(OWNER)
    assert message.parse_mode == "HTML"
    assert message.visible.startswith("新询盘：John Smith（Epping）")
    assert "客户：John Smith" in message.visible
    [row] = rows(services)
    assert row.telegram_status == "sent" and row.telegram_message_ids == [message.message_id]

    # a restart: new services over the same folder, a new runner, same outbox
    again = build_services(home, clock=clock)
    try:
        second = TelegramRunner(again)
        await second.run_once()
        await second.aclose()
    finally:
        again.close()
    assert len(owner_env.sent) == 1


async def test_offline_keeps_the_alert_and_sends_it_later(
    services: Any, center: Any, owner_env: TelegramServer, clock: Any
) -> None:
    services.bus.publish(InquiryCreated(add_inquiry(services)))
    owner_env.set_down(True)
    runner = TelegramRunner(services)
    report = await runner.run_once()
    assert report.error and "Telegram" in report.error
    [row] = rows(services, "new_inquiry")
    assert row.telegram_status == "pending" and row.telegram_attempts == 1
    assert (utc(row.telegram_next_at) - clock.now()).total_seconds() == 30
    # the tray hears that Telegram is unreachable; Telegram itself is not asked to carry that
    [problem] = rows(services, "sync_problem")
    assert problem.title == "Telegram 连接出现问题" and problem.telegram_status == "skipped"
    owner_env.set_down(False)
    await runner.run_once()  # not due yet
    assert owner_env.sent == []
    clock.advance(31)
    await runner.run_once()
    await runner.aclose()
    assert len(owner_env.sent_to(OWNER)) == 1
    assert rows(services, "new_inquiry")[0].telegram_status == "sent"


async def test_429_retry_after_is_honoured_on_the_clock(
    services: Any, center: Any, owner_env: TelegramServer, clock: Any
) -> None:
    services.bus.publish(InquiryCreated(add_inquiry(services)))
    owner_env.flood(1, retry_after=3)
    runner = TelegramRunner(services)
    await runner.run_once()
    assert 3.0 in clock.sleeps
    assert len(owner_env.sent) == 1 and rows(services)[0].telegram_status == "sent"

    # a long retry_after reschedules instead of blocking the round
    services.bus.publish(InquiryCreated(add_inquiry(services, customer_name="Mary Lee")))
    owner_env.flood(1, retry_after=120)
    start = clock.now()
    await runner.run_once()
    row = rows(services)[1]
    assert row.telegram_status == "pending"
    assert (utc(row.telegram_next_at) - start).total_seconds() >= 120
    clock.advance(120)
    await runner.run_once()
    await runner.aclose()
    assert [m.visible.split("\n")[0] for m in owner_env.sent] == [
        "新询盘：John Smith（Epping）",
        "新询盘：Mary Lee（Epping）",
    ]


async def test_messages_to_one_chat_are_paced_one_second_apart(
    services: Any, center: Any, owner_env: TelegramServer, clock: Any
) -> None:
    for name in ("A", "B", "C"):
        services.bus.publish(InquiryCreated(add_inquiry(services, customer_name=name)))
    runner = TelegramRunner(services)
    await runner.run_once()
    await runner.aclose()
    assert len(owner_env.sent) == 3
    assert clock.sleeps == [1.0, 1.0]  # nothing else moves the fake clock between sends


async def test_quiet_hours_hold_then_deliver(
    services: Any, center: Any, owner_env: TelegramServer, clock: Any
) -> None:
    clock._now = utc(sydney(2026, 4, 1, 22, 30))
    services.bus.publish(InquiryCreated(add_inquiry(services)))
    runner = TelegramRunner(services)
    report = await runner.run_once()
    assert owner_env.sent == []
    assert report.delivery.held == 1
    assert utc(rows(services)[0].telegram_next_at) == utc(sydney(2026, 4, 2, 7, 0))
    clock._now = utc(sydney(2026, 4, 2, 6, 59))
    await runner.run_once()
    assert owner_env.sent == []
    clock._now = utc(sydney(2026, 4, 2, 7, 0))
    await runner.run_once()
    await runner.aclose()
    assert len(owner_env.sent) == 1


async def test_a_reminder_held_overnight_says_the_mornings_working_days(
    services: Any, center: Any, owner_env: TelegramServer, clock: Any
) -> None:
    """Raised at 22:30 on a Monday (3 working days since Wednesday), sent at 07:00 on Tuesday:
    the phone says 4, as the board does then, not the count of the evening before."""
    clock._now = utc(sydney(2026, 11, 25, 10, 0))  # Wednesday: the inquiry arrives
    inquiry_id = add_inquiry(services)
    clock._now = utc(sydney(2026, 11, 30, 22, 30))
    services.bus.publish(StageOverdue(inquiry_id, "inquiry", 3))
    runner = TelegramRunner(services)
    await runner.run_once()
    assert owner_env.sent == []  # quiet hours
    clock._now = utc(sydney(2026, 12, 1, 7, 0))
    await runner.run_once()
    await runner.aclose()
    [alert] = owner_env.sent
    assert "在「询盘」已 4 个工作日" in alert.visible
    assert "已停留 4 个工作日（期限 2 个工作日）" in alert.visible


def _owner_quotes(services: Any, inquiry_id: int, clock: Any) -> None:
    """The owner moves the job on to 报价中 on the desktop (the job leaves its stage)."""
    with services.store.session() as session:
        inquiry = session.get(Inquiry, inquiry_id)
        change_stage(
            session, inquiry, "quoting", reason="quoted", triggered_by="owner", clock=clock
        )
        session.commit()


async def test_a_digest_held_overnight_counts_the_morning_and_drops_a_job_that_moved(
    services: Any, center: Any, owner_env: TelegramServer, clock: Any
) -> None:
    """Six jobs overdue at 22:30 on a Monday make one digest, held by the quiet hours. At 06:40
    the owner quotes one of them; at 07:00 the phone's digest lists the other five with
    Tuesday's count (4 working days, as the board says then), not Monday night's 3. A customer
    name is his text, shown inert: its Markdown does not format the alert."""
    from core.rhythm.reminders import ReminderService

    clock._now = utc(sydney(2026, 11, 25, 10, 0))  # Wednesday: six inquiries arrive
    names = ["**Bold** Bob", "Amy", "Ben", "Cat", "Dan", "Eve"]
    ids = [add_inquiry(services, customer_name=name) for name in names]
    clock._now = utc(sydney(2026, 11, 30, 22, 30))
    reminders = ReminderService(
        services.store, services.bus, clock, raise_digest=center.raise_overdue_digest
    )
    assert len(await reminders.announce()) == 6
    runner = TelegramRunner(services)
    await runner.run_once()
    assert [m for m in owner_env.sent if "跟进提醒" in m.visible] == []  # quiet hours
    clock._now = utc(sydney(2026, 12, 1, 6, 40))
    _owner_quotes(services, ids[1], clock)
    clock._now = utc(sydney(2026, 12, 1, 7, 0))
    await runner.run_once()
    await runner.aclose()
    [digest] = [m.visible for m in owner_env.sent if "跟进提醒" in m.visible]
    assert "5 个询盘超过阶段期限" in digest
    assert f"（#{ids[1]}）" not in digest  # quoted at 06:40: no longer overdue
    for inquiry_id in [ids[0], *ids[2:]]:
        assert f"（#{inquiry_id}）「询盘」4/2 个工作日" in digest, digest
    assert "**Bold** Bob" in digest  # shown as he wrote it, not as bold text


async def test_a_reminder_for_a_stage_the_job_left_overnight_is_not_sent(
    services: Any, center: Any, owner_env: TelegramServer, clock: Any
) -> None:
    """Raised at 22:30, held by the quiet hours; at 06:40 the owner quotes the job on the
    desktop. At 07:00 the phone gets no "still waiting in 询盘" alert for a job that has moved."""
    clock._now = utc(sydney(2026, 11, 25, 10, 0))
    inquiry_id = add_inquiry(services)
    clock._now = utc(sydney(2026, 11, 30, 22, 30))
    services.bus.publish(StageOverdue(inquiry_id, "inquiry", 3))
    runner = TelegramRunner(services)
    await runner.run_once()
    clock._now = utc(sydney(2026, 12, 1, 6, 40))
    _owner_quotes(services, inquiry_id, clock)
    clock._now = utc(sydney(2026, 12, 1, 7, 0))
    await runner.run_once()
    await runner.aclose()
    assert [m.visible for m in owner_env.sent if "跟进提醒" in m.visible] == []
    with services.store.session() as session:
        row = session.scalars(select(Notification).where(Notification.kind == "overdue")).one()
        assert row.telegram_status == "skipped"


async def test_html_refused_is_resent_as_plain_text(
    services: Any, center: Any, owner_env: TelegramServer
) -> None:
    # a Bot API server that does not know <blockquote> (older self-hosted servers) refuses it
    owner_env.unsupported_tags.add("blockquote")
    services.bus.publish(StageOverdue(add_inquiry(services), "inquiry", 3))
    center.raise_notification("overdue", "测试", "> 引用 <客户>\n\n**粗体**", "inquiry", None, "k1")
    runner = TelegramRunner(services)
    report = await runner.run_once()
    await runner.aclose()
    assert report.delivery.plain_fallbacks == 1
    plain = [m for m in owner_env.sent if m.parse_mode is None]
    assert len(plain) == 1 and "> 引用 <客户>" in plain[0].text and "粗体" in plain[0].text
    assert "<b>" not in plain[0].text
    assert all(r.telegram_status == "sent" for r in rows(services))


async def test_long_alert_is_split_under_the_limit_and_sent_once(
    services: Any, center: Any, owner_env: TelegramServer
) -> None:
    body = "\n\n".join(f"第 {i} 段：客户要求 <加急> & 报价。" * 6 for i in range(80))
    center.raise_notification("overdue", "很长的提醒", body, None, None, "long")
    runner = TelegramRunner(services)
    await runner.run_once()
    await runner.run_once()
    await runner.aclose()
    sent = owner_env.sent
    assert len(sent) >= 3
    assert all(len(m.text) < TELEGRAM_LIMIT and html_problem(m.text) is None for m in sent)
    [row] = rows(services)
    assert row.telegram_message_ids == [m.message_id for m in sent]
    assert "".join(m.visible for m in sent).count("段：客户要求 <加急> & 报价。") == 480


async def test_alerts_raised_before_pairing_are_skipped_not_flooded(
    services: Any, center: Any, tg_env: TelegramServer, clock: Any
) -> None:
    from core.notify.pairing import new_pairing_code

    services.bus.publish(InquiryCreated(add_inquiry(services)))
    clock.advance(3600)
    code = new_pairing_code(services)
    tg_env.push_message(OWNER, f"/start {code.code}")
    runner = TelegramRunner(services)
    await runner.run_once()
    await runner.aclose()
    assert [m.visible.split("\n")[0] for m in tg_env.sent_to(OWNER)] == ["✅ 配对成功。"]
    assert rows(services)[0].telegram_status == "skipped"


async def test_pacing_holds_across_separate_runs(
    services: Any, center: Any, owner_env: TelegramServer, home: Any, clock: Any
) -> None:
    """Two quick `telegram --once` runs: the second waits out the first one's second."""
    services.bus.publish(InquiryCreated(add_inquiry(services, customer_name="A")))
    first = TelegramRunner(services)
    await first.run_once()
    await first.aclose()
    assert clock.sleeps == []
    clock.advance(0.25)
    services.bus.publish(InquiryCreated(add_inquiry(services, customer_name="B")))
    again = build_services(home, clock=clock)  # a new process: nothing shared but the folder
    try:
        second = TelegramRunner(again)
        await second.run_once()
        await second.aclose()
    finally:
        again.close()
    assert clock.sleeps == [0.75]
    assert [m.visible.split("\n")[0] for m in owner_env.sent] == [
        "新询盘：A（Epping）",
        "新询盘：B（Epping）",
    ]
