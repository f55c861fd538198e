"""Notes from the owner's Telegram chat: offered, filed at once, or filed by a button.

A note is always an explicit act of the owner's: without an assistant a message is *offered*
(保存 / 放弃, the nonce's pending state in ``app_state telegram.note.<nonce>``; one press decides),
``/note [ID] TEXT`` files one at once, and 📝 存为备注 under an assistant's answer presses the same
kind of pending note. Where a note goes: the inquiry of the alert it replies to, otherwise (under
an answer) the conversation's current customer, otherwise the inquiry the bot last messaged
about, otherwise the notes inbox (no inquiry). Offers nobody pressed
are forgotten after two weeks.
"""

from __future__ import annotations

import logging
import secrets as pysecrets
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core import tasks
from core.clock import naive_utc, utc
from core.db.app_state import get_state, put_state
from core.db.models import AppState, Draft, Inquiry, Notification
from core.notify.chat_side import ReplyChat
from core.notify.draft_buttons import LAST_INQUIRY_KEY
from core.notify.forwards import FORWARDED_SOURCE, forwarded_from
from core.notify.inquiry_alert import customer_label
from core.text.render import escape

if TYPE_CHECKING:
    from core.services import Services

log = logging.getLogger(__name__)

NOTE_KEY = "telegram.note.{}"
NOTE_KEEP = timedelta(days=14)  # an unpressed 保存 / 存为备注 offer is forgotten after this
AI_NOTICE_KEY = "telegram.ai_notice_shown"
AI_NOTICE_ZH = (
    "💡 助手还不能回答：需要先在电脑上设置 AI 服务地址（设置 → AI）。"
    "在那之前，你发的文字和语音都会像这样存为备注。"
)
NOTE_USAGE_ZH = (
    "用法：/note 备注内容（记在最近一条提醒的询盘上），或 /note 12 备注内容（记在询盘 #12）。"
)


class OwnerNotes:
    """The owner's notes on Telegram, for the bot (which checked he is the owner)."""

    def __init__(self, services: Services, chat: ReplyChat) -> None:
        self.services = services
        self.chat = chat

    async def ai_notice_once(self) -> str | None:
        """The one-time Chinese notice that the assistant needs an AI address."""
        now = self.services.clock.now()

        def _take(session: Session) -> bool:
            if get_state(session, AI_NOTICE_KEY):
                return False
            put_state(session, AI_NOTICE_KEY, {"at": utc(now).isoformat()}, now)
            return True

        return AI_NOTICE_ZH if await self.services.store.run(_take) else None

    async def command(self, argument: str, message: dict[str, Any]) -> None:
        """``/note TEXT`` (the inquiry under discussion) or ``/note 12 TEXT`` (inquiry #12)."""
        first, _, rest = argument.partition(" ")
        wanted = int(first.lstrip("#")) if first.lstrip("#").isdigit() and rest.strip() else None
        text = rest.strip() if wanted is not None else argument
        if not text:
            await self.chat.reply(escape(NOTE_USAGE_ZH))
            return
        replied = (message.get("reply_to_message") or {}).get("message_id")

        def _where(session: Session) -> tuple[int | None, str] | None:
            if wanted is None:
                return self.discussed_inquiry(
                    session, int(replied) if replied is not None else None
                )
            inquiry = session.get(Inquiry, wanted)
            if inquiry is None:
                return None
            put_state(
                session, LAST_INQUIRY_KEY, {"inquiry_id": inquiry.id}, self.services.clock.now()
            )
            return inquiry.id, f"询盘 #{inquiry.id} {customer_label(inquiry)}"

        found = await self.services.store.run(_where)
        if found is None:
            await self.chat.reply(f"没有找到询盘 #{wanted}，备注没有保存。")
            return
        inquiry_id, where = found
        from core.inquiry.notes import add_customer_note

        await tasks.io(
            lambda: add_customer_note(self.services, inquiry_id, text, source="telegram")
        )
        await self.chat.reply(f"📝 已保存备注，记在：{escape(where)}。")

    def discussed_inquiry(
        self, session: Session, reply_to: int | None = None
    ) -> tuple[int | None, str]:
        """Where a note goes: the inquiry of the alert it replies to, else the last inquiry the
        bot messaged about, else the notes inbox. A reply makes its inquiry the one under
        discussion, so the next note without a reply follows the owner's train of thought."""
        inquiry = None
        if reply_to is not None:
            inquiry_id = self.inquiry_of_message(session, reply_to)
            inquiry = session.get(Inquiry, inquiry_id) if inquiry_id else None
            if inquiry is not None:
                put_state(
                    session, LAST_INQUIRY_KEY, {"inquiry_id": inquiry.id}, self.services.clock.now()
                )
        if inquiry is None:
            state = get_state(session, LAST_INQUIRY_KEY) or {}
            inquiry_id = state.get("inquiry_id") if isinstance(state, dict) else None
            inquiry = session.get(Inquiry, inquiry_id) if inquiry_id else None
        if inquiry is None:
            return None, "备注收件箱（未关联询盘）"
        return inquiry.id, f"询盘 #{inquiry.id} {customer_label(inquiry)}"

    @staticmethod
    def inquiry_of_message(session: Session, message_id: int, lookback: int = 2000) -> int | None:
        """The inquiry an alert message (any piece of it) was about, from the outbox records."""
        rows = session.execute(
            select(Notification.ref_type, Notification.ref_id, Notification.telegram_message_ids)
            .where(Notification.ref_id.is_not(None))
            .order_by(Notification.id.desc())
            .limit(lookback)
        ).all()
        for ref_type, ref_id, message_ids in rows:
            if message_id not in (message_ids or []):
                continue
            if ref_type == "inquiry" and ref_id is not None:
                return int(ref_id)
            if ref_type == "draft":
                draft = session.get(Draft, ref_id)
                return draft.inquiry_id if draft is not None else None
            return None
        return None

    async def store(
        self, text: str, audio_path: str | None, message: dict[str, Any]
    ) -> tuple[str, str]:
        """A pending note (saved only by its button): its nonce and where it would go."""
        nonce = pysecrets.token_urlsafe(6)
        now = self.services.clock.now()
        replied = (message.get("reply_to_message") or {}).get("message_id")

        def _do(session: Session) -> str:
            inquiry_id, where = self.discussed_inquiry(
                session, int(replied) if replied is not None else None
            )
            old = naive_utc(now - NOTE_KEEP)
            for row in session.scalars(
                select(AppState).where(
                    AppState.key.like(NOTE_KEY.format("%")), AppState.updated_at < old
                )
            ):
                session.delete(row)  # offers nobody pressed in two weeks
            put_state(
                session,
                NOTE_KEY.format(nonce),
                {
                    "text": text,
                    "forwarded": forwarded_from(message) is not None,
                    "audio_path": audio_path,
                    "inquiry_id": inquiry_id,
                    "created_at": utc(now).isoformat(),
                },
                now,
            )
            return where

        return nonce, await self.services.store.run(_do)

    async def retarget(self, nonce: str, inquiry_id: int) -> None:
        """The pending 存为备注 of an answer goes to the customer the conversation turned out
        to be about ("Bob 预算有限" after asking about Bob), not the last alert's."""
        key = NOTE_KEY.format(nonce)
        now = self.services.clock.now()

        def _do(session: Session) -> None:
            pending = get_state(session, key)
            if isinstance(pending, dict) and session.get(Inquiry, inquiry_id) is not None:
                put_state(session, key, {**pending, "inquiry_id": inquiry_id}, now)

        await self.services.store.run(_do)

    async def offer(
        self,
        text: str,
        *,
        audio_path: str | None,
        heading: str,
        message: dict[str, Any] | None = None,
        notice: str | None = None,
    ) -> None:
        message = message or {}
        nonce, where = await self.store(text, audio_path, message)
        markup = {
            "inline_keyboard": [
                [
                    {"text": "💾 保存", "callback_data": f"n:{nonce}:s"},
                    {"text": "🗑 放弃", "callback_data": f"n:{nonce}:x"},
                ]
            ]
        }
        shown = note_preview(text)
        body = f"<b>{escape(heading)}</b>\n\n<blockquote>{escape(shown)}</blockquote>\n\n将记在：{escape(where)}"
        plain = f"{heading}\n\n{shown}\n\n将记在：{where}"
        if notice:
            body, plain = f"{body}\n\n{escape(notice)}", f"{plain}\n\n{notice}"
        await self.chat.reply(body, markup=markup, plain=plain, reply_to=message.get("message_id"))

    async def pressed(self, nonce: str, action: str) -> str:
        key = NOTE_KEY.format(nonce)

        def _take(session: Session) -> dict[str, Any] | None:
            from core.db.models import AppState

            row = session.get(AppState, key)
            if row is None:
                return None
            value = dict(row.value)
            session.delete(row)  # one press decides; a second press finds nothing
            return value

        pending = await self.services.store.run(_take)
        if pending is None:
            return "这条备注已处理过。"
        if action != "s":
            return "已放弃，未保存。"
        from core.inquiry.notes import add_customer_note

        audio = Path(pending["audio_path"]) if pending.get("audio_path") else None
        inquiry_id = pending.get("inquiry_id")
        note_id = await tasks.io(
            lambda: add_customer_note(
                self.services,
                inquiry_id,
                pending["text"],
                source=FORWARDED_SOURCE if pending.get("forwarded") else "telegram",
                audio_path=audio,
            ),
        )
        log.info("telegram note %s saved (inquiry %s)", note_id, inquiry_id)
        return f"已保存备注（询盘 #{inquiry_id}）。" if inquiry_id else "已保存到备注收件箱。"


NOTE_PREVIEW = 3_000  # characters of a note echoed back: the reply stays under Telegram's 4,096


def note_preview(text: str, limit: int = NOTE_PREVIEW) -> str:
    """What the "save this note?" reply quotes: the whole note, or (over ``limit``, e.g. a long
    dictation) its start and its length -- the whole text is still what gets saved. A reply
    quoting all of a 5,000-character note was refused by Telegram and the owner got nothing."""
    if len(text) <= limit:
        return text
    return f"{text[:limit].rstrip()}…\n（共 {len(text)} 字，全文将保存 / {len(text)} characters, all saved）"
