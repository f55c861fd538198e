"""The send journal kept at the sender's two points: before a submit (check, then record) and after.

Named a keeper, not a guard: it writes and reads ``core.db.send_journal`` (the file store), it
is not one of the checks on what a draft says (the fact guard, the assertion guard).

``DraftSender`` calls ``check`` before it claims a draft and ``submitting`` right before the one
call that submits the email, ``outcome`` once it knows what happened. The argument:

* ``check``: a ``submitted`` line → the draft is marked ``sent`` and nothing is submitted; a
  ``submitting`` line without an outcome → the mailbox is asked first (Sent Items by Message-ID,
  then whether the remote draft is still unsent in Drafts): found in Sent → ``sent``; still a
  draft → ``not_sent`` is journalled, the store adopts that remote draft (so it is reused, not
  copied) and the send goes on; neither → ``failed`` with the owner's sentence, never resent
  blindly; mailbox unreachable → nothing is submitted (``unknown``, checked again next round);
* ``submitting`` is fsynced before the submit call; if it cannot be written (disk full, folder
  read-only) the caller does not submit.

The mailbox is used through two questions only (``find_sent(message_id)``, ``draft_exists(id)``),
so an SMTP mailer (remote id None) fits the same rule.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any, cast

from sqlalchemy.orm import Session

from core import tasks
from core.db.models import Draft
from core.db.send_journal import (
    ASK_MAILBOX,
    FREE,
    NOT_SENT,
    SUBMITTED,
    SUBMITTING,
    SendEntry,
    SendJournal,
)
from core.drafts.send_facts import force_status, mark_sent, settle_from_journal
from core.drafts.state import Transition
from core.drafts.submit_once import PREPARED
from core.errors import MailerGone, failure_note
from core.mail.ports import DraftMailer, Mailer
from core.services import Services

log = logging.getLogger(__name__)

GONE_MESSAGE = (
    "上次发送的结果无法确认：邮件已不在草稿箱，已发送邮件中也找不到；为避免重复发送，未重新发送。"
    "请在 Outlook 中确认后再决定"
)
# the same for a mailbox without server drafts (SMTP): no Outlook to look in
GONE_MESSAGE_SENT_FOLDER = (
    "上次发送的结果无法确认：「已发送」文件夹中找不到这封邮件；为避免重复发送，未重新发送。"
    "请在网页邮箱的「已发送」中确认，或问客户是否收到后再决定"
)


def gone_message(mailer: Mailer | None) -> str:
    """The owner's sentence for a send nobody can confirm, naming where he can look."""
    return GONE_MESSAGE if getattr(mailer, "has_drafts", True) else GONE_MESSAGE_SENT_FOLDER


def _info(session: Session, draft_id: int) -> tuple[datetime, str, list[str]] | None:
    draft = session.get(Draft, draft_id)
    if draft is None:
        return None
    return draft.created_at, draft.status, list(draft.to_addrs or [])


class SendJournalKeeper:
    """The send journal as one sender keeps it (see the module docstring)."""

    def __init__(
        self,
        services: Services,
        mailer: Mailer | None,
        publish: Callable[[list[Transition]], None],
        journal: SendJournal | None = None,
    ) -> None:
        self.services = services
        self.mailer = mailer
        self.publish = publish
        self.journal = journal or SendJournal.for_home(services.paths.home, services.paths.shared)

    # ------------------------------------------------------------------ before claiming
    async def check(self, draft_id: int) -> tuple[str, str] | None:
        """None when the draft may be sent; else ``(status, message)`` and nothing is sent."""
        info = await self.services.store.read(lambda s: _info(s, draft_id))
        if info is None:
            return None  # the claim says "does not exist"
        created, status, to = info
        if status == "sent":
            return None  # the store knows: the claim refuses as for any sent draft
        try:
            verdict = await tasks.io(self.journal.verdict, draft_id, created)
        except OSError as exc:  # cannot tell whether it went out: send nothing
            return (
                "waiting",
                f"未发送：发送记录 {self.journal.path.name} 无法读取（{exc.strerror or exc}）",
            )
        if verdict.state == FREE or verdict.entry is None:
            return None
        entry = verdict.entry
        if verdict.state == ASK_MAILBOX:
            if status == "sending":
                return None  # ``reconcile`` settles a draft in ``sending``; the claim refuses
            try:
                went, still = await self._ask_mailbox(entry)
            except Exception as exc:  # unreachable: submit nothing, ask again next round
                log.info("draft %s: journal check postponed: %s", draft_id, exc)
                return (
                    "unknown",
                    f"暂时无法核对上次发送（{failure_note(exc)}），未发送；稍后再核对，绝不重复发送",
                )
            if still:
                self.outcome(NOT_SENT, entry, note="still in Drafts")
                await self.services.store.run(lambda s: _adopt(s, draft_id, entry))
                return None
            if not went:
                message = gone_message(self.mailer)
                await self._force(draft_id, "failed", message, error=message)
                return "failed", message
            entry = self.outcome(SUBMITTED, entry, note="found in Sent Items") or entry
        await self._mark_sent(draft_id, entry)
        return "sent", f"已发送给 {', '.join(to)}（发送记录显示此前已发出，未重复发送）"

    async def _ask_mailbox(self, entry: SendEntry) -> tuple[bool, bool]:
        """(found in Sent Items, still an unsent remote draft)."""
        # the sender asks only with a mailer (none: it refuses before any check), and only a
        # draft mailer's entries carry a remote draft id
        mailer = cast(DraftMailer, self.mailer)
        if entry.message_id and await mailer.find_sent(entry.message_id):
            return True, False
        if not entry.remote_id:
            # SMTP: the store's mark proves whether the last byte left (``submit_once``)
            mark = await self.services.store.read(lambda s: _mark(s, entry.draft_id))
            return False, mark == (PREPARED, entry.message_id)
        try:
            return False, bool(await mailer.draft_exists(entry.remote_id))
        except MailerGone:
            return False, False

    async def _mark_sent(self, draft_id: int, entry: SendEntry) -> None:
        clock = self.services.clock

        def do(session: Session) -> list[Transition]:
            draft = session.get(Draft, draft_id)
            if draft is None or draft.status == "sent":
                return []
            return [mark_sent(session, draft, entry, clock=clock)]

        self.publish(await self.services.store.run(do))

    async def _force(self, draft_id: int, to_status: str, note: str, **fields: Any) -> None:
        clock = self.services.clock

        def do(session: Session) -> list[Transition]:
            draft = session.get(Draft, draft_id)
            if draft is None:
                return []
            return [force_status(session, draft, to_status, clock=clock, note=note, **fields)]

        self.publish(await self.services.store.run(do))

    async def settle(self) -> int:
        """Offline: every journalled send shows as ``sent`` (``send_due`` runs it each round)."""
        clock = self.services.clock
        result = await self.services.store.run(
            lambda s: settle_from_journal(s, self.journal, clock=clock)
        )
        self.publish(result.transitions)
        return len(result.settled)

    # ------------------------------------------------------------------ around the submit
    def submitting(
        self,
        draft_id: int,
        message_id: str | None,
        remote_id: str | None,
        *,
        recipients: list[str],
        subject: str,
        draft_created: datetime | None,
    ) -> SendEntry:
        """Journal the attempt (fsynced). Raises OSError: then nothing may be submitted."""
        return self.journal.record(
            SUBMITTING,
            draft_id,
            message_id,
            at=self.services.clock.now(),
            remote_id=remote_id,
            recipients=recipients,
            subject=subject,
            draft_created=draft_created,
        )

    def outcome(self, phase: str, entry: SendEntry, *, note: str = "") -> SendEntry | None:
        """Journal what happened to an attempt. A failed write is logged, not raised: the
        outcome already happened, and the store records it too."""
        try:
            return self.journal.record(
                phase,
                entry.draft_id,
                entry.message_id,
                at=self.services.clock.now(),
                remote_id=entry.remote_id,
                recipients=entry.recipients,
                draft_created=(
                    datetime.fromisoformat(entry.draft_created) if entry.draft_created else None
                ),
                note=note,
            )
        except OSError as exc:
            log.error(
                "send journal: could not record %s for draft %s: %s", phase, entry.draft_id, exc
            )
            return None

    async def outcome_for(self, draft_id: int, phase: str, *, note: str = "") -> None:
        """``outcome`` for the draft's newest attempt (reconciliation knows only the draft)."""
        info = await self.services.store.read(lambda s: _info(s, draft_id))
        if info is None:
            return
        verdict = await tasks.io(self.journal.verdict, draft_id, info[0])
        if verdict.entry is not None and verdict.entry.phase == SUBMITTING:
            self.outcome(phase, verdict.entry, note=note)


def _mark(session: Session, draft_id: int) -> tuple[str | None, str | None]:
    """(journal mark, Message-ID) of a draft as the store holds them."""
    draft = session.get(Draft, draft_id)
    if draft is None:
        return None, None
    return draft.outlook_draft_id, draft.internet_message_id


def _adopt(session: Session, draft_id: int, entry: SendEntry) -> None:
    """The store reuses the journalled remote draft instead of making a second copy."""
    draft = session.get(Draft, draft_id)
    if draft is None:
        return
    if entry.remote_id and not draft.outlook_draft_id:
        draft.outlook_draft_id = entry.remote_id
    if entry.message_id and not draft.internet_message_id:
        draft.internet_message_id = entry.message_id


__all__ = ["GONE_MESSAGE", "GONE_MESSAGE_SENT_FOLDER", "SendJournalKeeper", "gone_message"]
