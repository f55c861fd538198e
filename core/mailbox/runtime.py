"""The IMAP/SMTP side of one data folder, assembled once: endpoints, password, sync, mailer.

``configured(settings)`` says whether this data folder reads an IMAP mailbox instead of Graph
mail (``imap.url`` set, or ``INQUIRY_BRIDGE_IMAP_URL``). The password is the keyring's
``mail_password`` (or ``INQUIRY_BRIDGE_MAIL_PASSWORD``), never a setting. ``App.mailbox()`` in
core/app is the builder; the CLI's ``sync`` and ``send`` and the desktop's poller use it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from core.errors import MailPasswordMissing
from core.events import MailWaiting
from core.mail.ports import IntakeSink
from core.mailbox.account import Endpoint, configured, parse_url, smtp_configured
from core.mailbox.imap_session import ImapLimits, ImapSession, open_session
from core.mailbox.imap_sync import ImapSync, ImapSyncReport
from core.mailbox.smtp_mailer import SmtpMailer
from core.mailbox.watch import wake_on_new_mail
from core.secrets import MAIL_PASSWORD

if TYPE_CHECKING:
    import asyncio
    from collections.abc import Awaitable, Callable

    from core.config import Settings
    from core.intake.jobs import IngestReport
    from core.services import Services

log = logging.getLogger(__name__)


def imap_endpoint(settings: Settings) -> Endpoint:
    return parse_url(settings.text("imap.url"), "imap")


def smtp_endpoint(settings: Settings) -> Endpoint:
    return parse_url(settings.text("smtp.url"), "smtp")


def mail_password(services: Services) -> str:
    password = services.secrets.get(MAIL_PASSWORD)
    if not password:
        raise MailPasswordMissing()
    return str(password)


class NoDrive:
    """The OneDrive round of a mailbox without Microsoft 365: nothing to do."""

    def summary(self) -> str:
        return "not connected (IMAP mailbox)"


class MailboxRuntime:
    """Attributes: endpoint (IMAP), pipeline, mail (ImapSync), mailer (SMTP, or None)."""

    def __init__(self, services: Services, *, pipeline: IntakeSink) -> None:
        self.services = services
        settings = services.settings
        self.endpoint = imap_endpoint(settings)
        self.pipeline = pipeline
        self.mail = ImapSync(
            self.connect,
            pipeline,
            services.store,
            settings,
            services.clock,
            spool=services.paths.spool,
        )
        self.mailer: SmtpMailer | None = (
            build_smtp_mailer(services) if smtp_configured(settings) else None
        )

    def connect(self) -> ImapSession:
        """A logged-in IMAP session (blocking: call from a worker thread), every read bounded
        by the ``imap.*`` limits of the settings."""
        limits = ImapLimits.from_settings(self.services.settings)
        return open_session(self.endpoint, mail_password(self.services), limits=limits)

    async def mail_round(self) -> tuple[ImapSyncReport, IngestReport | None]:
        """Pending messages first (a killed run's leftovers), then one round of INBOX and Sent."""
        retried = None
        retry = getattr(self.pipeline, "retry_pending", None)
        if retry is not None:
            retried = await retry()
        report = await self.mail.run_once()
        if self.services.settings.flag("imap.write_keywords"):
            from core.mailbox.keywords import write_back

            report.keywords = await write_back(self.services.store, self.connect)
        # mail left for later on a nearly full disk (MailWaiting(0): a round with room)
        self.services.bus.publish(MailWaiting.after_round(report.disk))
        return report, retried

    # what ``core.schedule.SyncScheduler`` asks of a runtime (no OneDrive without Graph)
    attached = False

    def attach(self) -> None:
        """Nothing listens on the bus: keywords are written after each round."""

    def detach(self) -> None:
        """Nothing to detach (see ``attach``)."""

    async def watch(self, woken_round: Callable[[], Awaitable[None]], stop: asyncio.Event) -> None:
        """IDLE on INBOX between the polls: new mail starts a round within seconds, not at the
        next ``graph.mail_poll_minutes`` (``core.mailbox.watch.wake_on_new_mail``)."""
        await wake_on_new_mail(self.services, self, woken_round, stop)

    async def drive_round(self) -> NoDrive:
        return NoDrive()

    async def aclose(self) -> None:
        close = getattr(self.pipeline, "aclose", None)
        if close is not None:
            await close()


def build_smtp_mailer(services: Services) -> SmtpMailer:
    """The SMTP mailer of this data folder (its sent copies go to the IMAP Sent folder)."""
    settings = services.settings
    imap = imap_endpoint(settings) if configured(settings) else None
    return SmtpMailer(
        smtp_endpoint(settings),
        lambda: mail_password(services),
        imap=imap,
        append_sent=settings.flag("smtp.append_sent"),
        clock=services.clock,
    )
