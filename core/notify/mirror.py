"""Delivering the notification outbox to the owner's Telegram chat.

Each ``Notification`` row walks ``telegram_status``: ``pending`` → ``sent`` (message ids recorded),
``failed`` (gave up after ``max_attempts`` or a permanent 4xx) or ``skipped`` (raised before the
chat was paired, a draft alert whose draft is no longer waiting, or a stage reminder whose job
has left that stage). Rules, in order:

* **Quiet hours** (``schedule.quiet_hours_start/end``, Sydney time): nothing goes out; due rows get
  ``telegram_next_at`` = the end of the quiet period, so they are held, not lost.
* **Pacing**: at least ``pace_seconds`` (1 s) between two messages to the chat, measured and waited
  on the injected clock.
* **429**: Telegram's ``retry_after`` is honoured — short waits are slept on the clock and the same
  piece retried; long ones reschedule the row and end the round for this chat.
* **Network down**: the row keeps ``pending`` with an exponential ``telegram_next_at``; nothing is
  lost while offline.
* **HTML refused** ("can't parse entities"): the same piece is sent again as plain text.
* **Stage reminders** are worded when they go out (``core.notify.overdue_alert``): one held by the
  quiet hours from 23:59 to 07:00 says the morning's working days, as the board does then.

Closing a draft's buttons: when a draft leaves the queue for good (sent, discarded, superseded by
a revision — from the desktop, the CLI or the phone) the outbox gets a quiet ``draft_closed`` row
(see ``NotificationCenter``). Delivering it *edits* every Telegram message that carries the
draft's buttons (recorded in ``app_state telegram.draft.<id>["buttons"]``: the alert's last
piece and any 仍然发送 warning) to drop the buttons and end with the final status. It walks the
same statuses, retries, 429 handling and pacing as a message, so a draft sent while the phone is
offline still gets its buttons closed later; each edited message is committed as it goes, so a
restart does not edit twice. Edits make no sound on the phone, so quiet hours do not hold them.

Exactly once, and the crash window: a long alert goes out in several pieces; after *each* piece
Telegram accepted, its message id is committed (and, with the last piece, ``sent`` in the same
transaction), so a restart resumes at the first unsent piece and never repeats a recorded one.
The only window left is a crash between Telegram's answer and that commit (milliseconds, nothing
awaited in between): the piece is then sent again after the restart. We accept that one possible
duplicate rather than the alternative (marking "sent" before calling Telegram), which would lose
the alert for good on the same crash — a duplicated "new inquiry" is a nuisance, a lost one costs
a customer.
"""

from __future__ import annotations

import logging
import secrets as pysecrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from core.clock import naive_utc, utc
from core.db.app_state import get_state, put_state
from core.db.models import Draft, Inquiry, Notification, WriteProposal
from core.events import SyncStatus
from core.notify.chunk import render_chunks
from core.notify.draft_buttons import (
    CLOSING_KIND,
    DRAFT_KEY,
    LAST_INQUIRY_KEY,
    add_button_message,
    draft_fingerprint,
    draft_keyboard,
)
from core.notify.inquiry_alert import INQUIRY_ALERT_KINDS, inquiry_keyboard
from core.notify.overdue_alert import (
    digest_message_now,
    is_digest,
    is_stage_reminder,
    overdue_message_now,
)
from core.notify.pacing import Pacer
from core.notify.pairing import Owner
from core.notify.proposal_press import proposal_keyboard
from core.notify.quiet import quiet_until_for
from core.notify.reminder_buttons import keyboard_for as reminder_keyboard_for
from core.notify.telegram_client import (
    TelegramApiError,
    TelegramAuthError,
    TelegramClient,
    TelegramNetworkError,
)
from core.notify.visit_press import visit_keyboard
from core.rhythm.visits import PROPOSED_KIND as VISIT_KIND
from core.text.render import render_html, render_plain

if TYPE_CHECKING:
    from core.clock import Clock
    from core.services import Services

log = logging.getLogger(__name__)


@dataclass
class DeliveryReport:
    sent: int = 0
    messages: int = 0
    failed: int = 0
    skipped: int = 0
    held: int = 0  # quiet hours or a 429/backoff in the future
    plain_fallbacks: int = 0
    edited: int = 0  # messages whose buttons were closed (draft_closed rows)
    waits: list[float] = field(default_factory=list)
    held_until: datetime | None = None


class TelegramMirror:
    """Sends due outbox rows to ``owner``'s chat. One instance per running app/CLI round."""

    def __init__(
        self,
        services: Services,
        client: TelegramClient,
        owner: Owner,
        *,
        pacer: Pacer | None = None,
        max_attempts: int = 8,
        max_inline_wait: float = 10.0,
    ) -> None:
        self.services = services
        self.client = client
        self.owner = owner
        self.pacer = pacer or Pacer(services.clock, store=services.store)
        self.max_attempts = max_attempts
        self.max_inline_wait = max_inline_wait

    @property
    def clock(self) -> Clock:
        return self.services.clock

    # -- one round ----------------------------------------------------------------------------
    async def deliver_due(self) -> DeliveryReport:
        report = DeliveryReport()
        now = utc(self.clock.now())
        quiet_end = quiet_until_for(self.services.settings, now)
        if quiet_end is not None:
            report.held = await self.services.store.run(lambda s: self._hold(s, quiet_end))
            report.held_until = quiet_end
        for notification_id, kind in await self.services.store.run(self._due_ids):
            if kind == CLOSING_KIND:
                keep_going = await self._deliver_closing(notification_id, report)
            elif quiet_end is not None:
                continue  # held above; only silent edits go out in quiet hours
            else:
                keep_going = await self._deliver_one(notification_id, report)
            if not keep_going:
                break
        if quiet_end is None:
            report.held += await self.services.store.run(self._count_waiting)
        return report

    def _due_ids(self, session: Session) -> list[tuple[int, str]]:
        now = naive_utc(self.clock.now())
        return [
            (row.id, row.kind)
            for row in session.execute(
                select(Notification.id, Notification.kind)
                .where(Notification.telegram_status == "pending")
                .where(
                    or_(
                        Notification.telegram_next_at.is_(None),
                        Notification.telegram_next_at <= now,
                    )
                )
                .order_by(Notification.id)
            )
        ]

    def _count_waiting(self, session: Session) -> int:
        return len(
            session.scalars(
                select(Notification.id).where(Notification.telegram_status == "pending")
            ).all()
        )

    def _hold(self, session: Session, until: datetime) -> int:
        rows = session.scalars(
            select(Notification).where(
                Notification.telegram_status == "pending", Notification.kind != CLOSING_KIND
            )
        ).all()
        for row in rows:
            if row.telegram_next_at is None or row.telegram_next_at < naive_utc(until):
                row.telegram_next_at = naive_utc(until)
        return len(rows)

    async def deliver_now(self, notification_id: int) -> DeliveryReport:
        """Deliver one row now, outside the round (quiet hours do not apply: the owner just
        asked for it). The caller holds the runner's delivery lock."""
        report = DeliveryReport()
        await self._deliver_one(notification_id, report)
        return report

    # -- one notification ---------------------------------------------------------------------
    async def _deliver_one(self, notification_id: int, report: DeliveryReport) -> bool:
        """Deliver (the rest of) one row. False = stop this round (offline, throttled, auth)."""
        prepared = await self.services.store.run(lambda s: self._prepare(s, notification_id))
        if prepared is None:
            report.skipped += 1
            return True
        text_md, keyboard, done_ids = prepared
        chunks = render_chunks(text_md)
        chat = self.owner.chat_id
        for index in range(len(done_ids), len(chunks)):
            chunk = chunks[index]
            markup = keyboard if index == len(chunks) - 1 else None
            try:
                message_id, plain = await self._send_paced(
                    chat, chunk.html, chunk.plain, markup, report
                )
            except TelegramApiError as exc:
                return await self._failed(notification_id, exc, report)
            except TelegramNetworkError as exc:
                return await self._failed(notification_id, exc, report)
            report.messages += 1
            report.plain_fallbacks += int(plain)
            last = index == len(chunks) - 1
            shown = (chunk.plain, None) if plain else (chunk.html, "HTML")

            def record(
                s: Session,
                mid: int = message_id,
                last: bool = last,
                shown: tuple[str, str | None] = shown,
            ) -> None:
                self._record(s, notification_id, mid, last, keyboard, shown)

            await self.services.store.run(record)
        report.sent += 1
        return True

    def _prepare(
        self, session: Session, notification_id: int
    ) -> tuple[str, dict[str, Any] | None, list[int]] | None:
        """Text, keyboard and already-sent ids; None when the row was skipped instead."""
        row = session.get(Notification, notification_id)
        if row is None or row.telegram_status != "pending":
            return None
        paired_at = self.owner.paired_at
        if paired_at is not None and utc(row.created_at) < paired_at - timedelta(minutes=5):
            row.telegram_status = "skipped"
            row.telegram_error = "raised before this chat was paired"
            return None
        keyboard = None
        if row.ref_type == "draft" and row.ref_id is not None:
            draft = session.get(Draft, row.ref_id)
            if draft is None or draft.status != "pending_approval":
                row.telegram_status = "skipped"
                row.telegram_error = f"draft is {draft.status if draft else 'gone'}"
                return None
            key = DRAFT_KEY.format(draft.id)
            state = dict(get_state(session, key) or {})
            fingerprint = draft_fingerprint(draft)
            if not row.telegram_message_ids:
                # show what the buttons would send *now* (the owner may have edited it since)
                from core.notify.outbox import draft_message  # outbox imports this module

                inquiry = session.get(Inquiry, draft.inquiry_id) if draft.inquiry_id else None
                row.body_md = draft_message(draft, inquiry, session)[1]
            if not state.get("nonce") or state.get("fingerprint") != fingerprint:
                # other words than an earlier alert showed: its buttons must stop working
                state.update(nonce=pysecrets.token_urlsafe(6), fingerprint=fingerprint)
                state.pop("confirm_nonce", None)
                put_state(session, key, state, self.clock.now())
            keyboard = draft_keyboard(draft.id, state["nonce"])
        elif row.kind in INQUIRY_ALERT_KINDS and row.ref_type == "inquiry" and row.ref_id:
            keyboard = inquiry_keyboard(row.ref_id)  # 起草回复 / 在电脑上打开 / 稍后提醒
        elif row.kind == "proposal" and row.ref_type == "proposal" and row.ref_id:
            proposal = session.get(WriteProposal, row.ref_id)  # 客户接受了报价…，改为已下单?
            if proposal is None or proposal.status != "open":
                row.telegram_status = "skipped"
                row.telegram_error = "the proposal was decided meanwhile"
                return None
            keyboard = proposal_keyboard(row.ref_id)
        elif row.kind == VISIT_KIND:
            keyboard = visit_keyboard(session, row)  # one ✅ per proposed time
            if keyboard is None:  # other times since, or booked already: nothing to press
                row.telegram_status = "skipped"
                row.telegram_error = "the proposed times changed or the visit is booked"
                return None
        else:
            if (is_stage_reminder(row) or is_digest(row)) and not row.telegram_message_ids:
                # the days as the board counts them now (held through the night: one more)
                now = self.clock.now()
                if is_digest(row):
                    fresh = digest_message_now(session, row, now)
                else:
                    fresh = overdue_message_now(session, row, now)
                if fresh is None:  # moved on (or lost) meanwhile: nothing is overdue any more
                    row.telegram_status = "skipped"
                    row.telegram_error = "the jobs have left the stages the reminder was about"
                    return None
                row.title, row.body_md = fresh
            keyboard = reminder_keyboard_for(session, row)  # 推迟/流失/起草/打开, or None
        text = f"**{row.title}**\n\n{row.body_md}" if row.body_md else f"**{row.title}**"
        if row.kind == "draft_pending":
            text = row.body_md  # the body already opens with its own heading
        return text, keyboard, list(row.telegram_message_ids or [])

    async def _send_paced(
        self,
        chat: int,
        html: str,
        plain: str,
        markup: dict[str, Any] | None,
        report: DeliveryReport,
    ) -> tuple[int, bool]:
        """Send one piece, HTML first; returns (message id, fell back to plain)."""
        parse_mode: str | None = "HTML"
        text = html
        for _ in range(4):
            report.waits.append(await self.pacer.wait(chat))
            try:
                result = await self.client.send_message(
                    chat, text, parse_mode=parse_mode, reply_markup=markup
                )
                await self.pacer.mark(chat)
                return int(result["message_id"]), parse_mode is None
            except TelegramApiError as exc:
                await self.pacer.mark(chat)
                if exc.is_parse_error and parse_mode is not None:
                    log.warning("Telegram refused the HTML (%s); sending plain text", exc.detail)
                    parse_mode, text = None, plain
                    continue
                if exc.is_flood and (exc.retry_after or 0) <= self.max_inline_wait:
                    wait = float(exc.retry_after or 1)
                    await self.pacer.block(chat, wait)
                    continue
                raise
        raise TelegramApiError("sendMessage: too many retries", 429, self.max_inline_wait)

    def _record(
        self,
        session: Session,
        notification_id: int,
        message_id: int,
        last: bool,
        keyboard: dict[str, Any] | None,
        shown: tuple[str, str | None] = ("", None),
    ) -> None:
        """Commit one accepted piece (and, with the last, ``sent``) in one transaction."""
        now = self.clock.now()
        row = session.get(Notification, notification_id)
        if row is None:
            return
        row.telegram_message_ids = [*(row.telegram_message_ids or []), message_id]
        row.telegram_attempts = (row.telegram_attempts or 0) + (1 if last else 0)
        if not last:
            return
        row.telegram_status = "sent"
        row.telegram_sent_at = naive_utc(now)
        row.telegram_next_at = None
        row.telegram_error = None
        inquiry_id = self._inquiry_of(session, row)
        if inquiry_id is not None:
            put_state(session, LAST_INQUIRY_KEY, {"inquiry_id": inquiry_id}, now)
        if keyboard is not None and row.ref_type == "draft" and row.ref_id is not None:
            key = DRAFT_KEY.format(row.ref_id)
            state = dict(get_state(session, key) or {})
            state.update(chat_id=self.owner.chat_id, message_id=message_id, notification_id=row.id)
            add_button_message(state, self.owner.chat_id, message_id, *shown)
            put_state(session, key, state, now)

    # -- closing a draft's buttons ---------------------------------------------------------
    def _closing_plan(
        self, session: Session, notification_id: int
    ) -> tuple[str, list[dict[str, Any]]] | None:
        """The status line and the messages still carrying buttons; None = nothing to do."""
        row = session.get(Notification, notification_id)
        if row is None or row.telegram_status != "pending" or row.ref_id is None:
            return None
        state = get_state(session, DRAFT_KEY.format(row.ref_id)) or {}
        buttons = [dict(b) for b in (state.get("buttons") or []) if isinstance(b, dict)]
        if not buttons:
            row.telegram_status = "sent" if row.telegram_message_ids else "skipped"
            row.telegram_next_at = None
            return None
        return row.body_md, buttons

    async def _deliver_closing(self, notification_id: int, report: DeliveryReport) -> bool:
        """Edit each message with the draft's buttons: no buttons, the final status at the end."""
        plan = await self.services.store.run(lambda s: self._closing_plan(s, notification_id))
        if plan is None:
            return True
        footer_md, buttons = plan
        for entry in buttons:
            try:
                await self._close_message(entry, footer_md)
            except (TelegramApiError, TelegramNetworkError) as exc:
                return await self._failed(notification_id, exc, report)
            report.edited += 1

            def record_closed(s: Session, e: dict[str, Any] = entry) -> None:
                self._record_closed(s, notification_id, e)

            await self.services.store.run(record_closed)
        await self.services.store.run(lambda s: self._record_closed(s, notification_id, None))
        return True  # counted in ``edited``, not as an alert sent

    async def _close_message(self, entry: dict[str, Any], footer_md: str) -> None:
        """One edit; a message Telegram will not edit (too old, deleted, too long) at least
        loses its buttons. Network trouble and 429 propagate (the row is retried later)."""
        chat, message_id = int(entry["chat_id"]), int(entry["message_id"])
        html_mode = entry.get("parse_mode") == "HTML"
        footer = render_html(footer_md) if html_mode else render_plain(footer_md)
        text = f"{entry.get('text') or ''}\n\n{footer}".strip()
        await self.pacer.wait(chat)
        try:
            # no reply_markup: Telegram drops the inline keyboard with the edit
            await self.client.edit_message_text(
                chat, message_id, text, parse_mode="HTML" if html_mode else None
            )
            await self.pacer.mark(chat)
            return
        except TelegramApiError as exc:
            await self.pacer.mark(chat)
            if exc.status != 400:
                raise
            if "not modified" in exc.detail:
                return
            log.info("closing draft buttons: text edit refused (%s)", exc.detail)
        await self.pacer.wait(chat)
        try:
            await self.client.edit_reply_markup(chat, message_id, None)
        except TelegramApiError as exc:
            if exc.status != 400:
                raise
            log.info("closing draft buttons: message %s not editable (%s)", message_id, exc.detail)
        finally:
            await self.pacer.mark(chat)

    def _record_closed(
        self, session: Session, notification_id: int, entry: dict[str, Any] | None
    ) -> None:
        """Commit one closed message (taken off the draft's list), or with None the whole row."""
        row = session.get(Notification, notification_id)
        if row is None or row.ref_id is None:
            return
        now = self.clock.now()
        if entry is not None:
            key = DRAFT_KEY.format(row.ref_id)
            state = dict(get_state(session, key) or {})
            state["buttons"] = [
                b
                for b in state.get("buttons") or []
                if (b.get("chat_id"), b.get("message_id"))
                != (entry["chat_id"], entry["message_id"])
            ]
            put_state(session, key, state, now)
            row.telegram_message_ids = [*(row.telegram_message_ids or []), entry["message_id"]]
            return
        row.telegram_status = "sent"
        row.telegram_sent_at = naive_utc(now)
        row.telegram_next_at = None
        row.telegram_error = None
        row.telegram_attempts = (row.telegram_attempts or 0) + 1

    @staticmethod
    def _inquiry_of(session: Session, row: Notification) -> int | None:
        if row.ref_type == "inquiry":
            return row.ref_id if row.ref_id and session.get(Inquiry, row.ref_id) else None
        if row.ref_type == "draft" and row.ref_id is not None:
            draft = session.get(Draft, row.ref_id)
            return draft.inquiry_id if draft else None
        return None

    async def _failed(
        self,
        notification_id: int,
        exc: TelegramApiError | TelegramNetworkError,
        report: DeliveryReport,
    ) -> bool:
        now = utc(self.clock.now())
        retry_after = getattr(exc, "retry_after", None)
        status = getattr(exc, "status", 0)
        permanent = (
            isinstance(exc, TelegramApiError) and status in (400, 403) and not exc.is_parse_error
        )
        stop_round = isinstance(exc, TelegramNetworkError | TelegramAuthError) or status == 429

        def _do(session: Session) -> str:
            row = session.get(Notification, notification_id)
            if row is None:
                return "gone"
            row.telegram_attempts = (row.telegram_attempts or 0) + 1
            row.telegram_error = str(exc.detail)[:500]
            if permanent or row.telegram_attempts >= self.max_attempts:
                row.telegram_status = "failed"
                row.telegram_next_at = None
                return "failed"
            if status == 429 and retry_after:
                delay = float(retry_after)
            else:
                delay = min(30 * 2 ** (row.telegram_attempts - 1), 1800)
            row.telegram_next_at = naive_utc(now + timedelta(seconds=delay))
            return "retry"

        outcome = await self.services.store.run(_do)
        log.warning(
            "telegram delivery of notification %s: %s (%s)", notification_id, exc.detail, outcome
        )
        if outcome == "failed":
            report.failed += 1
        if status == 429 and retry_after:
            await self.pacer.block(self.owner.chat_id, float(retry_after))
        if isinstance(exc, TelegramAuthError):
            self.services.bus.publish(
                SyncStatus("telegram", False, "telegram", "Bot 令牌无效或已被撤销")
            )
        return not stop_round
