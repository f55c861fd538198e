"""The desktop's scheduler over an IMAP mailbox: new mail starts a round within seconds (IDLE),
not at the next poll an hour later, and stopping ends the watch at once."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select

from core.clock import StartedClock
from core.config import SettingValue
from core.db.models import Message
from core.events import RecordingBus
from core.intake.pipeline import build_pipeline
from core.mailbox.runtime import MailboxRuntime
from core.schedule import SyncScheduler
from core.secrets import MAIL_PASSWORD
from core.services import Services, build_services
from tests.support.dovecot import DovecotServer
from tests.support.mailbox_mail import inquiry
from tests.support.qt import wait_until

POLL_MINUTES = 60  # a poll would come after the test's end: only IDLE can bring the mail


@pytest.fixture
def paced(home: Path) -> Iterator[Services]:
    """Services on a clock that runs at the real pace from a pinned instant: the scheduler
    really waits its poll interval, as on the owner's machine."""
    services = build_services(
        home, clock=StartedClock(datetime(2026, 12, 2, 9, 0, tzinfo=UTC)), bus=RecordingBus()
    )
    yield services
    services.close()


def _count(services: Services) -> int:
    with services.store.session() as session:
        return int(session.scalar(select(func.count(Message.id))) or 0)


@contextlib.asynccontextmanager
async def _scheduler(
    paced: Services,
    dovecot: DovecotServer,
    runtime_class: type[MailboxRuntime] = MailboxRuntime,
    **settings: SettingValue,
) -> AsyncIterator[tuple[MailboxRuntime, SyncScheduler]]:
    """The tray app's scheduler on the Dovecot account, polling once an hour, running until
    the block ends; then stop must end it (the poll's wait and the IDLE) within 10 s."""
    paced.settings.update(
        {
            "imap.url": dovecot.url,
            "graph.mail_poll_minutes": POLL_MINUTES,
            "graph.drive_poll_minutes": POLL_MINUTES,
            **settings,
        }
    )
    paced.secrets.set(MAIL_PASSWORD, dovecot.password)
    runtime = runtime_class(paced, pipeline=build_pipeline(paced, offline=True))
    scheduler = SyncScheduler(paced, runtime, drafts=False)
    stop = asyncio.Event()
    task = asyncio.ensure_future(scheduler.run_forever(stop))
    try:
        yield runtime, scheduler
        assert not task.done()  # nothing ended the scheduler but stop
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)
        await runtime.aclose()


async def test_new_mail_is_on_the_board_in_seconds_not_at_the_next_poll(
    paced: Services, dovecot: DovecotServer
) -> None:
    dovecot.append(inquiry(0, 3))
    async with _scheduler(paced, dovecot, **{"imap.idle_seconds": 600}) as (_runtime, scheduler):
        await wait_until(lambda: scheduler.mail.runs == 1)  # the first round, at start
        assert _count(paced) == 1
        await asyncio.sleep(1.0)  # let the watch settle into IDLE
        dovecot.append(inquiry(1, 3))
        await wait_until(lambda: _count(paced) == 2)  # within 30 s; the poll is an hour away
        await wait_until(lambda: scheduler.mail.runs == 2)
        dovecot.append(inquiry(2, 3))  # and again: the watch went back to IDLE after the round
        await wait_until(lambda: _count(paced) == 3)
        await wait_until(lambda: scheduler.mail.runs == 3)
        await asyncio.sleep(2.0)
        assert scheduler.mail.runs == 3  # nothing new, no round: IDLE does not spin
        stopped = time.monotonic()
    assert time.monotonic() - stopped < 5  # the poll's wait and the IDLE ended with stop


async def test_while_paused_new_mail_waits(paced: Services, dovecot: DovecotServer) -> None:
    async with _scheduler(paced, dovecot) as (runtime, scheduler):
        await wait_until(lambda: runtime.mail.inbox_mark is not None)
        paced.settings.set("schedule.paused", True)
        await asyncio.sleep(1.5)
        dovecot.append(inquiry(0, 1))
        await asyncio.sleep(3.0)
        assert _count(paced) == 0 and scheduler.mail.runs == 1  # paused means paused
        paced.settings.set("schedule.paused", False)
        scheduler.poke()  # what the window's 继续同步 does
        await wait_until(lambda: _count(paced) == 1)


async def test_a_watch_that_breaks_leaves_the_polls_running(
    paced: Services, dovecot: DovecotServer
) -> None:
    class BrokenWatch(MailboxRuntime):
        async def watch(self, woken_round, stop):  # type: ignore[no-untyped-def]
            raise RuntimeError("a bug in the watch")

    async with _scheduler(paced, dovecot, BrokenWatch) as (_runtime, scheduler):
        await wait_until(lambda: scheduler.mail.runs == 1)
        dovecot.append(inquiry(0, 1))
        scheduler.poke()  # 立即同步 still works
        await wait_until(lambda: _count(paced) == 1)


async def test_a_refused_password_is_not_retried_by_the_watch_before_the_next_poll(
    paced: Services, dovecot: DovecotServer
) -> None:
    """QQ/163 lock an account that logs in wrong too often: the watch's backoff (5 s, 10 s …)
    is for a network that went away, not for a password the server refused."""
    from core.errors import MailAuthError
    from core.mailbox.imap_session import ImapSession

    attempts: list[float] = []

    class PasswordChanged(MailboxRuntime):
        refuse = False

        def connect(self) -> ImapSession:
            if self.refuse:
                attempts.append(time.monotonic())
                raise MailAuthError("the server refused the password")
            return super().connect()

    async with _scheduler(paced, dovecot, PasswordChanged, **{"imap.idle_seconds": 1}) as (
        runtime,
        scheduler,
    ):
        await wait_until(lambda: scheduler.mail.runs == 1)
        assert isinstance(runtime, PasswordChanged)
        runtime.refuse = True  # the owner changed his password on the web
        await wait_until(lambda: len(attempts) >= 1)  # the watch's next login: refused
        await asyncio.sleep(7.0)  # past the 5 s a network failure would wait
        assert len(attempts) == 1, attempts
