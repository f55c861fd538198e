"""The notification outbox: one persistent row per alert, shown in the tray and mirrored to Telegram.

``NotificationCenter`` listens on the bus for the four things the owner must hear about — a new
inquiry, a draft waiting for his approval, a job overdue in its stage, a sync or sign-in problem —
and writes a ``Notification`` row (Chinese title and Markdown body) *before* anyone shows it.
The row is the unit of delivery: the tray marks ``tray_shown_at``/``read_at``, the Telegram mirror
walks ``telegram_status`` (pending → sent | failed | skipped). ``dedup_key`` is unique, so an
event replayed after a restart (or published twice) never makes a second alert.

A draft that leaves the queue for good (sent, discarded, superseded by a revision) while its
Telegram alert still shows 发送 / 放弃 gets a *quiet* ``draft_closed`` row: not shown in the tray,
not counted as unread, no ``NotificationRaised``; the mirror delivers it by editing those
messages (see ``core.notify.mirror``). ``catch_up`` also finds drafts closed by a process that had
no center (``inquiry-bridge drafts send``), so the phone never keeps a live button on a dead draft.

A sync problem alerts once per outage: the first ``SyncStatus(ok=False)`` of a source opens it
(``app_state notify.sync_open.<source>``), later failures of the same source are quiet until a
``SyncStatus(ok=True)`` closes it. Mail left for later on a nearly full disk (``MailWaiting``) is
the same: told once (``core.notify.disk_alert``), quiet while it lasts, over after a round with
room.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from core import tasks
from core.clock import naive_utc, to_sydney
from core.db.attention_rows import open_complaint
from core.db.models import AppState, Draft, Inquiry, Notification
from core.db.outbox_rows import outbox_row
from core.drafts.translation import is_stale
from core.drafts.view import escalation_line, recently_mailed
from core.errors import USER_MESSAGES
from core.events import (
    DraftChanged,
    EventBus,
    InquiryCreated,
    MailWaiting,
    NotificationRaised,
    StageOverdue,
    SyncStatus,
)
from core.notify.disk_alert import STATE_KEY as DISK_KEY
from core.notify.disk_alert import disk_message
from core.notify.draft_buttons import CLOSING_KIND, DRAFT_KEY, draft_fingerprint
from core.notify.inquiry_alert import customer_label, inquiry_message
from core.notify.overdue_alert import overdue_key, overdue_message, remember_digest
from core.rhythm.reminders import Reminder, digest_markdown
from core.text.render import md_escape

if TYPE_CHECKING:
    from core.services import Services

log = logging.getLogger(__name__)

KINDS = (
    "new_inquiry",
    "draft_pending",
    "overdue",
    "sync_problem",
    "inquiry_later",  # a new inquiry again, after 稍后提醒 on the phone (Telegram only)
    "open_on_pc",  # 在电脑上打开 pressed on the phone (tray only)
)
# a draft's final status as its Telegram buttons are replaced with it
CLOSED_ZH = {"sent": "✅ 已发送", "rejected": "🗑 已放弃", "superseded": "✏️ 已被修改稿取代"}
CATCH_UP_WINDOW = timedelta(days=2)
ENGLISH_PREVIEW_CHARS = 1200

SOURCE_ZH = {
    "mail": "邮件同步",
    "drive": "OneDrive 同步",
    "auth": "微软账户登录",
    "telegram": "Telegram 连接",
    "llm": "AI 服务",
}


@dataclass(frozen=True)
class NotificationView:
    """A notification as the tray/desktop reads it (detached from the session)."""

    id: int
    kind: str
    title: str
    body_md: str
    ref_type: str | None
    ref_id: int | None
    created_at: datetime
    read_at: datetime | None
    telegram_status: str


class NotificationCenter:
    """Writes the outbox from bus events; the tray and the Telegram mirror read it."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self._unsubscribe: list[Callable[[], None]] = []
        self._raised = 0
        self._worker: tasks.Lane | None = None

    # -- wiring -------------------------------------------------------------------------------
    def attach(
        self, bus: EventBus | None = None, *, catch_up: bool = True, background: bool = False
    ) -> NotificationCenter:
        """Subscribe to the bus; first raise whatever was missed (see ``catch_up``).

        ``background=True`` (the desktop) handles events, and the catch-up, in order on one
        worker thread of its own. Why: the bus calls handlers in the publisher's thread, which
        for the intake pipeline is the UI's event loop, and every handler here reads and writes
        the store -- waiting behind an ingest batch's commit froze the window for 100 ms and more.
        The CLI and tests keep the synchronous default: the row exists when ``publish`` returns.
        """
        bus = bus or self.services.bus
        if background and self._worker is None:
            self._worker = tasks.Lane("notify", 1)
        if catch_up:
            self._dispatch(self.catch_up)
        self._unsubscribe += [
            bus.subscribe(InquiryCreated, lambda e: self._dispatch(self.on_inquiry_created, e)),
            bus.subscribe(DraftChanged, lambda e: self._dispatch(self.on_draft_changed, e)),
            bus.subscribe(StageOverdue, lambda e: self._dispatch(self.on_stage_overdue, e)),
            bus.subscribe(SyncStatus, lambda e: self._dispatch(self.on_sync_status, e)),
            bus.subscribe(MailWaiting, lambda e: self._dispatch(self.on_mail_waiting, e)),
        ]
        return self

    def _dispatch(self, handler: Callable[..., object], *args: object) -> None:
        if self._worker is not None:
            self._worker.submit(self._guarded, handler, *args)
        else:
            self._guarded(handler, *args)

    @staticmethod
    def _guarded(handler: Callable[..., object], *args: object) -> None:
        try:
            handler(*args)
        except Exception:  # an alert must never take down ingest, sync or the app's start
            log.exception("notification handler %s failed", getattr(handler, "__name__", handler))

    def drain(self, timeout: float = 30.0) -> None:
        """Wait until every event handed to the background worker so far is handled."""
        if self._worker is not None:
            self._worker.submit(lambda: None).result(timeout)

    def detach(self) -> None:
        """Unsubscribe; with a background worker, finish the queued alerts first (they are
        rows the owner would otherwise never see)."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe.clear()
        if self._worker is not None:
            self._worker.close(wait=True)
            self._worker = None

    # -- the one write path -------------------------------------------------------------------
    def raise_notification(
        self,
        kind: str,
        title: str,
        body_md: str,
        ref_type: str | None,
        ref_id: int | None,
        dedup_key: str,
        *,
        telegram: bool = True,
        quiet: bool = False,
        telegram_at: datetime | None = None,
    ) -> int | None:
        """Add an alert to the outbox; returns its id, or None when ``dedup_key`` already exists.

        ``telegram=False`` keeps it in the tray only (e.g. "Telegram is unreachable");
        ``quiet=True`` is Telegram bookkeeping only (born read, never announced to the tray);
        ``telegram_at``: not before then on Telegram (a 稍后提醒 from the phone).
        """
        now = naive_utc(self.services.clock.now())

        def _do(session: Session) -> int | None:
            exists = session.scalar(
                select(Notification.id).where(Notification.dedup_key == dedup_key)
            )
            if exists is not None:
                return None
            row = outbox_row(
                dedup_key=dedup_key,
                kind=kind,
                title=title,
                body_md=body_md,
                ref=(ref_type, ref_id),
                now=now,
                telegram=telegram,
                telegram_at=telegram_at,
                quiet=quiet,
            )
            session.add(row)
            session.flush()
            return row.id

        try:
            notification_id = self.services.store.write(_do)
        except IntegrityError:  # a concurrent writer won the race on dedup_key
            return None
        if notification_id is None:
            log.debug("notification %s already raised", dedup_key)
            return None
        self._raised += 1
        log.info("notification %s raised (%s)", notification_id, kind)
        if quiet:
            return notification_id
        self.services.bus.publish(
            NotificationRaised(notification_id, kind, title, ref_type, ref_id)
        )
        return notification_id

    def catch_up(self, lookback: timedelta = CATCH_UP_WINDOW) -> int:
        """Raise the alerts no subscriber wrote: inquiries created recently and drafts waiting.

        Events live in memory only, so an inquiry committed by a process without a center
        (``inquiry-bridge ingest``) or just before a crash would never be announced. The dedup
        keys are the same as the event path's, so this is a no-op for everything already raised.
        Returns how many alerts it added.
        """
        since = naive_utc(self.services.clock.now()) - lookback
        with self.services.store.session() as session:
            known = set(
                session.scalars(
                    select(Notification.dedup_key).where(
                        Notification.dedup_key.like("inquiry:%")
                        | Notification.dedup_key.like("draft:%")
                    )
                )
            )
            inquiries = session.scalars(
                select(Inquiry.id)
                .where(Inquiry.created_at >= since, Inquiry.classification != "C")
                .order_by(Inquiry.id)
            ).all()
            drafts = session.execute(
                select(Draft.id, Draft.inquiry_id)
                .where(Draft.status == "pending_approval")
                .order_by(Draft.id)
            ).all()
        added = 0
        for inquiry_id in inquiries:
            if f"inquiry:{inquiry_id}:created" not in known:
                before = self._raised
                self.on_inquiry_created(InquiryCreated(inquiry_id))
                added += self._raised - before
        for draft_id, draft_inquiry_id in drafts:
            # every waiting draft, not only unannounced ones: one edited on the PC while no
            # center listened needs its new version alerted (dedup keys make the rest no-ops)
            before = self._raised
            self.on_draft_changed(DraftChanged(draft_id, draft_inquiry_id, "pending_approval"))
            added += self._raised - before
        added += self._catch_up_closed()
        if added:
            log.info("notification catch-up raised %d missed alerts", added)
        return added

    def _catch_up_closed(self) -> int:
        """Drafts closed while no center listened whose Telegram buttons are still live."""
        with self.services.store.session() as session:
            keys = session.scalars(
                select(AppState.key).where(AppState.key.like(DRAFT_KEY.format("%")))
            ).all()
        added = 0
        for key in keys:
            try:
                draft_id = int(key.rsplit(".", 1)[1])
            except ValueError:
                continue
            added += int(self.close_draft_buttons(draft_id) is not None)
        return added

    # -- event handlers -----------------------------------------------------------------------
    def on_inquiry_created(self, event: InquiryCreated) -> None:
        with self.services.store.session() as session:
            inquiry = session.get(Inquiry, event.inquiry_id)
            if inquiry is None or inquiry.classification == "C":
                return
            title, body = inquiry_message(session, inquiry)
        self.raise_notification(
            "new_inquiry", title, body, "inquiry", inquiry.id, f"inquiry:{inquiry.id}:created"
        )

    def on_draft_changed(self, event: DraftChanged) -> None:
        if event.status in CLOSED_ZH:
            self.close_draft_buttons(event.draft_id)
            return
        if event.status != "pending_approval":
            return
        with self.services.store.session() as session:
            draft = session.get(Draft, event.draft_id)
            if draft is None or draft.status != "pending_approval":
                return
            inquiry = session.get(Inquiry, draft.inquiry_id) if draft.inquiry_id else None
            title, body = draft_message(draft, inquiry, session)
            row = session.get(AppState, DRAFT_KEY.format(draft.id))
            state = row.value if row is not None and isinstance(row.value, dict) else {}
            shown = state.get("fingerprint")
            fingerprint = draft_fingerprint(draft)
            stamp = describe_time(draft.updated_at or self.services.clock.now())
        dedup_key = f"draft:{draft.id}:pending"
        if shown and shown != fingerprint and state.get("buttons"):
            # edited on the PC after the phone showed it: close those buttons, alert again
            self.raise_notification(
                CLOSING_KIND,
                f"草稿 #{draft.id} 已在电脑上修改",
                f"**✏️ 已在电脑上修改，请看新的提醒** · {stamp}",
                "draft",
                draft.id,
                f"draft:{draft.id}:edited:{shown}",
                quiet=True,
            )
            dedup_key = f"draft:{draft.id}:pending:{fingerprint}"
        self.raise_notification("draft_pending", title, body, "draft", draft.id, dedup_key)

    def close_draft_buttons(self, draft_id: int) -> int | None:
        """Queue the edit that closes a finished draft's Telegram buttons (once per draft)."""
        with self.services.store.session() as session:
            draft = session.get(Draft, draft_id)
            row = session.get(AppState, DRAFT_KEY.format(draft_id))
            state = row.value if row is not None and isinstance(row.value, dict) else {}
            if draft is None or draft.status not in CLOSED_ZH or not state.get("buttons"):
                return None
            status = draft.status
            stamp = describe_time(draft.updated_at or self.services.clock.now())
        return self.raise_notification(
            CLOSING_KIND,
            f"草稿 #{draft_id} {CLOSED_ZH[status][2:]}",
            f"**{CLOSED_ZH[status]}** · {stamp}",
            "draft",
            draft_id,
            f"draft:{draft_id}:closed",
            quiet=True,
        )

    def on_stage_overdue(self, event: StageOverdue) -> None:
        with self.services.store.session() as session:
            inquiry = session.get(Inquiry, event.inquiry_id)
            if inquiry is None or inquiry.stage != event.stage:
                return
            title, body = overdue_message(inquiry, event.days)
            key = overdue_key(inquiry)
        self.raise_notification(
            "overdue",
            title,
            body,
            "inquiry",
            event.inquiry_id,
            key + (f":{event.round}" if event.round else ""),
        )

    def raise_overdue_digest(self, reminders: list[Reminder]) -> int | None:
        """One alert for many overdue jobs (after a first sync), instead of one each."""
        if not reminders:
            return None
        title, body = digest_markdown(reminders)
        now = self.services.clock.now()
        key = "overdue-digest:" + naive_utc(now).strftime("%Y%m%d%H%M%S")
        notification_id = self.raise_notification("overdue", title, body, None, None, key)
        if notification_id is not None:  # the phone counts these jobs again when it sends
            self.services.store.write(lambda s: remember_digest(s, notification_id, reminders, now))
        return notification_id

    def on_sync_status(self, event: SyncStatus) -> None:
        key = f"notify.sync_open.{event.source}"
        now = naive_utc(self.services.clock.now())

        def _toggle(session: Session) -> bool:
            """True when this event opens a new outage (the only one that alerts)."""
            state = session.get(AppState, key)
            if event.ok:
                if state is not None:
                    session.delete(state)
                return False
            if state is not None:
                return False
            session.add(
                AppState(key=key, value={"code": event.code, "at": now.isoformat()}, updated_at=now)
            )
            return True

        if not self.services.store.write(_toggle):
            return
        source_zh = SOURCE_ZH.get(event.source, event.source)
        zh_template = USER_MESSAGES.get(event.code, USER_MESSAGES["error"])[0]
        try:
            message = event.sentence or zh_template.format(detail=event.detail, retry_after="?")
        except (KeyError, IndexError):
            message = event.detail or event.code
        title = f"{source_zh}出现问题"
        body = f"{md_escape(message)}\n\n恢复后会自动继续，无需重复操作。"
        self.raise_notification(
            "sync_problem",
            title,
            body,
            "sync",
            None,
            f"sync:{event.source}:{now.strftime('%Y%m%d%H%M%S%f')}",
            telegram=event.source != "telegram",  # the tray says it; Telegram cannot carry it
        )

    def on_mail_waiting(self, event: MailWaiting) -> None:
        """Mail waits for disk space: one alert when it starts, none while it lasts."""
        now = naive_utc(self.services.clock.now())
        with self.services.store.session() as session:  # every round sends one: read first
            if (session.get(AppState, DISK_KEY) is not None) == bool(event.waiting):
                return

        def _toggle(session: Session) -> bool:
            """True when this event opens the condition (the only one that alerts)."""
            state = session.get(AppState, DISK_KEY)
            if not event.waiting:
                if state is not None:
                    session.delete(state)
                return False
            if state is not None:
                return False
            value = {"waiting": event.waiting, "need": event.need_bytes, "at": now.isoformat()}
            session.add(AppState(key=DISK_KEY, value=value, updated_at=now))
            return True

        if not self.services.store.write(_toggle):
            return
        title, body = disk_message(event.waiting, event.need_bytes, event.free_bytes)
        key = f"disk:mail:{now.strftime('%Y%m%d%H%M%S%f')}"
        self.raise_notification("sync_problem", title, body, "sync", None, key)

    # -- reading (tray, desktop) --------------------------------------------------------------
    def recent(self, limit: int = 50) -> list[NotificationView]:
        with self.services.store.session() as session:
            rows = session.scalars(
                select(Notification)
                .where(Notification.kind != CLOSING_KIND)
                .order_by(Notification.id.desc())
                .limit(limit)
            ).all()
            return [notification_view(row) for row in rows]

    def get(self, notification_id: int) -> NotificationView | None:
        with self.services.store.session() as session:
            row = session.get(Notification, notification_id)
            return notification_view(row) if row else None

    def unread_count(self) -> int:
        with self.services.store.session() as session:
            return int(
                session.scalar(
                    select(func.count(Notification.id)).where(Notification.read_at.is_(None))
                )
                or 0
            )

    def mark_read(self, notification_id: int) -> None:
        self._stamp(notification_id, "read_at")

    def mark_tray_shown(self, notification_id: int) -> None:
        self._stamp(notification_id, "tray_shown_at")

    def _stamp(self, notification_id: int, column: str) -> None:
        now = naive_utc(self.services.clock.now())

        def _do(session: Session) -> None:
            row = session.get(Notification, notification_id)
            if row is not None and getattr(row, column) is None:
                setattr(row, column, now)

        self.services.store.write(_do)


def notification_view(row: Notification) -> NotificationView:
    """A row as the tray reads it (detached from the session)."""
    return NotificationView(
        id=row.id,
        kind=row.kind,
        title=row.title,
        body_md=row.body_md,
        ref_type=row.ref_type,
        ref_id=row.ref_id,
        created_at=row.created_at,
        read_at=row.read_at,
        telegram_status=row.telegram_status,
    )


# -- message texts (Chinese Markdown; customer text escaped so it never becomes markup) -------
def draft_message(
    draft: Draft, inquiry: Inquiry | None, session: Session | None = None
) -> tuple[str, str]:
    """Title and Markdown of a draft alert; with ``session`` it carries the 14-day warning."""
    who = customer_label(inquiry) if inquiry else (", ".join(draft.to_addrs or []) or "客户")
    title = f"草稿待审批：回复 {who}"
    to = ", ".join(draft.to_addrs or [])
    # the card names whom it answers: "给他回复" on the phone must show which "他" it drafted to
    about = f"：回复 {md_escape(who)}" + (f"（询盘 #{inquiry.id}）" if inquiry else "")
    lines = [f"**待审批草稿 #{draft.id}**{about}"]
    complaint = open_complaint(session, draft.inquiry_id) if session is not None else None
    if complaint:
        lines.append(md_escape(escalation_line(complaint)))
    recent = recently_mailed(session, draft) if session is not None else None
    if recent:
        when = describe_time(datetime.fromisoformat(recent["at"].replace("Z", "+00:00")))
        lines.append(f"⚠️ 最近 14 天内已给该客户发过邮件：{when}「{md_escape(recent['subject'])}」")
    if to:
        lines.append(f"收件人：{md_escape(to)}")
    if draft.subject:
        lines.append(f"主题：{md_escape(draft.subject)}")
    lines.append("")
    lines.append("**中文内容：**")
    if is_stale(draft):  # never a Chinese of another English (core.drafts.translation)
        lines.append("（中文翻译尚未按最终英文生成，发送前请在电脑上点「重新翻译」）")
    else:
        lines.append(md_escape(draft.body_zh.strip()))
    body_en = draft.body_en.strip()
    lines.append("")
    if len(body_en) > ENGLISH_PREVIEW_CHARS:
        cut = body_en.rfind(" ", 0, ENGLISH_PREVIEW_CHARS)
        preview = body_en[: cut if cut > ENGLISH_PREVIEW_CHARS // 2 else ENGLISH_PREVIEW_CHARS]
        lines.append(f"**英文原文**（共 {len(body_en)} 字符，以下为开头部分）：")
        lines.append(md_escape(preview) + " …")
    else:
        lines.append(f"**英文原文**（共 {len(body_en)} 字符）：")
        lines.append(md_escape(body_en))
    facts = [f for f in (draft.unconfirmed_facts or []) if f not in (draft.confirmed_facts or [])]
    if facts:
        lines.append("")
        lines.append("⚠️ **未经确认的内容**（发送前需再次确认）：")
        lines.extend(f"- {md_escape(f)}" for f in facts)
    return title, "\n".join(lines)


def describe_time(dt: datetime) -> str:
    """Sydney wall time for the owner, e.g. 4月1日 11:00."""
    local = to_sydney(dt)
    return f"{local.month}月{local.day}日 {local:%H:%M}"
