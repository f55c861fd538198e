"""The Telegram bot: pairing, the owner's buttons, and his voice and text notes.

Trust model: the owner is a chat id *and* a user id (``pairing.Owner.is_owner``); both must match
for a message or a button press to count, so in a shared group only the owner may act. From
anyone else exactly one thing is accepted: ``/start CODE`` with the valid one-time code, from a
private chat (or, when the chat id is preset, from that chat — how a preset group learns which
member is the owner). Everything else from a stranger (wrong codes, other chats, other users in
the owner's chat, button presses) is logged and dropped without an answer that could carry data;
a stranger's button press gets only the mandatory empty ``answerCallbackQuery``.

Sending is a button, never words. A draft alert carries 发送 / 放弃 / 在电脑上修改 with a nonce
that is valid for that alert only. 发送 calls the same ``OwnerDecisions.approve`` + ``send`` as
the desktop; a draft with unconfirmed facts first shows the warnings and needs a second press of
仍然发送. The reply says 已发送 only when the draft row (the send ledger) says ``sent``.

Talking to the assistant: the owner's typed message — or his voice message, downloaded and
transcribed locally (Whisper on its worker thread, never the event loop) — goes to the assistant
(``core.notify.assistant_chat``: one conversation per chat, "typing…" while the model works) and
its answer comes back in his chat. A stranger's words reach no model.

Notes are explicit: a message (typed or spoken) that *replies to an alert* is offered as a note
on that alert's inquiry with 保存 / 放弃; ``/note TEXT`` files one at once on the inquiry of the
last alert (``/note 12 TEXT``: on inquiry #12); 📝 存为备注 under an answer files the question
itself. Without an AI address every message is offered as a note (as before the assistant
existed) and the owner is told once, in Chinese, what the assistant needs. A note goes to the
inquiry of the alert it replies to, otherwise to the inquiry the bot last messaged about,
otherwise to the notes inbox (no inquiry).

A new-inquiry alert's buttons (起草回复 / 在电脑上打开 / 稍后提醒) are handled by
``core.notify.inquiry_press.InquiryPress``, made after the same owner check.

Updates are handled one by one and the ``getUpdates`` offset is committed to ``sync_cursors``
after each, so a crash re-handles at most the update in hand (its effects are idempotent: draft
sends are at most once by the draft state machine, pending notes by their nonce).

What the bot may decide: it is handed ``OwnerDecisions`` (approve, reject, send), a composer (for
起草回复: it writes drafts that wait) and nothing else of drafting, and it reaches them only through ``_decisions_for(owner)``, which takes the paired
``Owner`` that a button press was just checked against; the press itself is a
``core.notify.draft_press.DraftPress``, made only after that check — the one path from a
Telegram update to a decision runs through the owner check.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets as pysecrets
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.clock import naive_utc, utc
from core.db.app_state import get_state, put_state
from core.db.models import AppState, Draft, Inquiry, Notification, SyncCursor
from core.errors import InquiryBridgeError
from core.notify.assistant_chat import AssistantChat, AssistantSource, typing_while
from core.notify.draft_buttons import (
    LAST_INQUIRY_KEY,
)
from core.notify.draft_press import DraftPress
from core.notify.inquiry_alert import customer_label
from core.notify.inquiry_press import InquiryPress
from core.notify.pacing import Pacer
from core.notify.pairing import Owner, may_pair_from, try_pair
from core.notify.pairing import owner as load_owner
from core.notify.render import escape
from core.notify.telegram_client import TelegramApiError, TelegramClient, TelegramError

if TYPE_CHECKING:
    from core.drafts.composing import DraftComposer
    from core.drafts.decisions import OwnerDecisions

# the owner's decisions, or a function that builds them on first use (drafting loads lazily)
DecisionsSource: TypeAlias = "OwnerDecisions | Callable[[], OwnerDecisions | None] | None"
# the same for the assistant (``App.assistant``) and the composer 起草回复 uses
AssistantFactory: TypeAlias = "Callable[[], AssistantSource | None] | None"
ComposerFactory: TypeAlias = "Callable[[], DraftComposer | None] | None"

log = logging.getLogger(__name__)

OFFSET_CURSOR = "telegram:offset"
NOTE_KEY = "telegram.note.{}"
NOTE_KEEP = timedelta(days=14)  # an unpressed 保存 / 存为备注 offer is forgotten after this
AI_NOTICE_KEY = "telegram.ai_notice_shown"
HELP_ZH = (
    "询盘桥助手已连接。\n"
    "• 新询盘、待审批草稿、跟进提醒和同步问题会发到这里。\n"
    "• 草稿下方的按钮可以直接发送或放弃；打字不会发送任何邮件。\n"
    "• 直接打字或发语音提问，助手会在这里回答（需在电脑上设置 AI 服务）。\n"
    "• 记备注：回复某条提醒，或发送 /note 内容（/note 12 内容 记在询盘 #12）。\n"
    "• /status 查看待办数量。"
)
AI_NOTICE_ZH = (
    "💡 助手还不能回答：需要先在电脑上设置 AI 服务地址（设置 → AI）。"
    "在那之前，你发的文字和语音都会像这样存为备注。"
)
NOTE_USAGE_ZH = (
    "用法：/note 备注内容（记在最近一条提醒的询盘上），或 /note 12 备注内容（记在询盘 #12）。"
)


class TelegramBot:
    """Handles ``getUpdates`` rounds for the paired owner."""

    def __init__(
        self,
        services: Any,
        client: TelegramClient,
        *,
        drafts: DecisionsSource = None,
        transcriber_factory: Callable[[], Any] | None = None,
        pacer: Pacer | None = None,
        assistant: AssistantFactory = None,
        composer: ComposerFactory = None,
        show_draft: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        self.services = services
        self.client = client
        self._decisions: DecisionsSource = drafts
        self._transcriber_factory = transcriber_factory
        self._composer: Callable[[], DraftComposer | None] = composer or (lambda: None)
        self._show_draft = show_draft or _no_draft_shown
        self.chat = AssistantChat(self, assistant or (lambda: None), show_draft=self.show_draft)
        self.pacer = pacer or Pacer(services.clock, store=services.store)
        self.ignored = 0  # strangers' updates dropped (figures for tests and the status page)
        # (chat, message id, text, parse mode) of the last reply, for messages that get buttons
        self.last_reply: tuple[int, int, str, str | None] | None = None

    # -- offsets ------------------------------------------------------------------------------
    def offset(self) -> int | None:
        with self.services.store.session() as session:
            row = session.get(SyncCursor, OFFSET_CURSOR)
            return int(row.value) if row is not None and row.value else None

    def _save_offset(self, session: Session, value: int) -> None:
        row = session.get(SyncCursor, OFFSET_CURSOR)
        now = naive_utc(self.services.clock.now())
        if row is None:
            session.add(SyncCursor(name=OFFSET_CURSOR, value=str(value), updated_at=now))
        else:
            row.value, row.updated_at = str(value), now

    async def poll_once(self, timeout: int = 0) -> int:
        """One ``getUpdates`` call; each update handled, then its offset committed."""
        updates = await self.client.get_updates(self.offset(), timeout=timeout)
        for update in sorted(updates, key=lambda u: int(u.get("update_id", 0))):
            update_id = int(update["update_id"])
            try:
                await self.handle_update(update)
            except TelegramError as exc:
                log.warning("telegram update %s: %s", update_id, exc.detail)
            except Exception:  # one bad update must not wedge the queue forever
                log.exception("telegram update %s failed", update_id)
            await self.services.store.run(lambda s, v=update_id + 1: self._save_offset(s, v))
        return len(updates)

    # -- dispatch -----------------------------------------------------------------------------
    def owner(self) -> Owner | None:
        return load_owner(self.services)

    def _is_owner(self, chat: dict[str, Any], user: dict[str, Any] | None) -> bool:
        """The chat *and* the sender must be the owner's: in a group only he may act."""
        current = self.owner()
        if current is None or user is None:
            return False
        return current.is_owner(int(chat.get("id", 0)), int(user.get("id", 0)))

    async def handle_update(self, update: dict[str, Any]) -> None:
        if "callback_query" in update:
            await self._on_callback(update["callback_query"])
        elif "message" in update:
            await self._on_message(update["message"])

    def _ignore(self, why: str, chat: dict[str, Any], user: dict[str, Any] | None) -> None:
        self.ignored += 1
        log.warning(
            "telegram: ignored %s from chat %s user %s", why, chat.get("id"), (user or {}).get("id")
        )

    async def reply(
        self,
        text_html: str,
        *,
        markup: dict[str, Any] | None = None,
        plain: str | None = None,
        reply_to: int | None = None,
    ) -> int | None:
        """Send to the owner, paced; HTML refused -> plain text. Returns the message id."""
        current = self.owner()
        if current is None:
            return None
        chat = current.chat_id
        text: str = text_html
        parse_mode: str | None = "HTML"
        for attempt in range(4):
            await self.pacer.wait(chat)  # the gap, and any 429 block, also for replies
            try:
                result = await self.client.send_message(
                    chat, text, parse_mode=parse_mode, reply_markup=markup, reply_to=reply_to
                )
                await self.pacer.mark(chat)
                self.last_reply = (chat, int(result["message_id"]), text, parse_mode)
                return int(result["message_id"])
            except TelegramApiError as exc:
                await self.pacer.mark(chat)
                if exc.is_parse_error and parse_mode is not None:
                    text, parse_mode = plain or text_html, None
                    continue
                if exc.is_flood and attempt < 3:
                    await self.pacer.block(chat, float(exc.retry_after or 1))
                    continue
                raise
        return None

    def typing(self) -> contextlib.AbstractAsyncContextManager[None]:
        """ "typing…" in the owner's chat while the body of the ``async with`` runs."""
        current = self.owner()

        async def send() -> None:
            if current is not None:
                await self.client.send_chat_action(current.chat_id, "typing")

        return typing_while(send)

    async def show_draft(self, draft_id: int) -> None:
        """A draft's approval alert (content and 发送 / 放弃) in the chat now, not next round."""
        await self._show_draft(draft_id)

    # -- messages -----------------------------------------------------------------------------
    async def _on_message(self, message: dict[str, Any]) -> None:
        chat = message.get("chat") or {}
        user = message.get("from")
        text = (message.get("text") or "").strip()
        command, _, argument = text.partition(" ")
        command = command.split("@", 1)[0]  # "/start@my_bot CODE" in a group
        if not self._is_owner(chat, user):
            if (
                command == "/start"
                and user is not None
                and may_pair_from(self.services, int(chat.get("id", 0)), str(chat.get("type")))
            ):
                code = argument.strip()
                name = " ".join(p for p in (user.get("first_name"), user.get("username")) if p)
                if code and try_pair(
                    self.services, code, int(chat["id"]), name, user_id=int(user["id"])
                ):
                    log.info("telegram: paired with chat %s user %s", chat["id"], user["id"])
                    await self.reply("✅ <b>配对成功。</b>\n\n" + escape(HELP_ZH))
                    return
                self._ignore("/start with a wrong or expired code", chat, user)
                return
            self._ignore("message", chat, user)
            return
        if command in ("/start", "/help"):
            await self.reply(escape(HELP_ZH))
        elif command == "/status":
            await self.reply(escape(await self.services.store.run(self._status_text)))
        elif command == "/note":
            await self._note_command(argument.strip(), message)
        elif text.startswith("/"):
            await self.reply("未知命令。发送 /help 查看用法。")
        elif message.get("voice") or message.get("audio"):
            await self._on_voice(message)
        elif text:
            await self._route(text, message, audio_path=None)

    async def _route(self, text: str, message: dict[str, Any], *, audio_path: str | None) -> None:
        """The owner's words: a note when they reply to an alert (or no AI is set), else a
        question for the assistant."""
        spoken = audio_path is not None
        replied = (message.get("reply_to_message") or {}).get("message_id")
        alert_inquiry = None
        if replied is not None:
            alert_inquiry = await self.services.store.read(
                lambda s: self._inquiry_of_message(s, int(replied))
            )
        if alert_inquiry is not None or not self.chat.available():
            notice = None if alert_inquiry is not None else await self._ai_notice_once()
            heading = "语音转写如下，要存为备注吗？" if spoken else "要把这段文字存为备注吗？"
            await self._offer_note(
                text, audio_path=audio_path, heading=heading, message=message, notice=notice
            )
            return
        owner = self.owner()
        if owner is None:
            return
        if spoken:
            await self.reply(
                f"🎤 <i>{escape(note_preview(text, 1000))}</i>",
                plain=f"🎤 {note_preview(text, 1000)}",
                reply_to=message.get("message_id"),
            )
        nonce, _where = await self._store_note(text, audio_path, message)
        button = {"inline_keyboard": [[{"text": "📝 存为备注", "callback_data": f"n:{nonce}:s"}]]}
        last_alert = await self.services.store.read(_last_alert_inquiry)
        await self.chat.answer(
            owner.chat_id,
            text,
            note_button=button,
            alert_inquiry=last_alert,
            reply_to=None if spoken else message.get("message_id"),
        )

    async def _ai_notice_once(self) -> str | None:
        """The one-time Chinese notice that the assistant needs an AI address."""
        now = self.services.clock.now()

        def _take(session: Session) -> bool:
            if get_state(session, AI_NOTICE_KEY):
                return False
            put_state(session, AI_NOTICE_KEY, {"at": utc(now).isoformat()}, now)
            return True

        return AI_NOTICE_ZH if await self.services.store.run(_take) else None

    async def _note_command(self, argument: str, message: dict[str, Any]) -> None:
        """``/note TEXT`` (the inquiry under discussion) or ``/note 12 TEXT`` (inquiry #12)."""
        first, _, rest = argument.partition(" ")
        wanted = int(first.lstrip("#")) if first.lstrip("#").isdigit() and rest.strip() else None
        text = rest.strip() if wanted is not None else argument
        if not text:
            await self.reply(escape(NOTE_USAGE_ZH))
            return
        replied = (message.get("reply_to_message") or {}).get("message_id")

        def _where(session: Session) -> tuple[int | None, str] | None:
            if wanted is None:
                return self._discussed_inquiry(
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
            await self.reply(f"没有找到询盘 #{wanted}，备注没有保存。")
            return
        inquiry_id, where = found
        from core.inquiry.notes import add_customer_note

        await asyncio.get_running_loop().run_in_executor(
            None,
            lambda: add_customer_note(self.services, inquiry_id, text, source="telegram"),
        )
        await self.reply(f"📝 已保存备注，记在：{escape(where)}。")

    def _status_text(self, session: Session) -> str:
        pending = session.scalar(
            select(func.count(Draft.id)).where(Draft.status == "pending_approval")
        )
        unread = session.scalar(
            select(func.count(Notification.id)).where(Notification.read_at.is_(None))
        )
        open_inquiries = session.scalar(
            select(func.count(Inquiry.id)).where(Inquiry.stage.notin_(("done", "lost")))
        )
        return f"待审批草稿：{pending} 份\n未读提醒：{unread} 条\n进行中的询盘：{open_inquiries} 个"

    # -- notes --------------------------------------------------------------------------------
    def _discussed_inquiry(
        self, session: Session, reply_to: int | None = None
    ) -> tuple[int | None, str]:
        """Where a note goes: the inquiry of the alert it replies to, else the last inquiry the
        bot messaged about, else the notes inbox. A reply makes its inquiry the one under
        discussion, so the next note without a reply follows the owner's train of thought."""
        inquiry = None
        if reply_to is not None:
            inquiry_id = self._inquiry_of_message(session, reply_to)
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
    def _inquiry_of_message(session: Session, message_id: int, lookback: int = 2000) -> int | None:
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

    async def _store_note(
        self, text: str, audio_path: str | None, message: dict[str, Any]
    ) -> tuple[str, str]:
        """A pending note (saved only by its button): its nonce and where it would go."""
        nonce = pysecrets.token_urlsafe(6)
        now = self.services.clock.now()
        replied = (message.get("reply_to_message") or {}).get("message_id")

        def _do(session: Session) -> str:
            inquiry_id, where = self._discussed_inquiry(
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
                    "audio_path": audio_path,
                    "inquiry_id": inquiry_id,
                    "created_at": utc(now).isoformat(),
                },
                now,
            )
            return where

        return nonce, await self.services.store.run(_do)

    async def _offer_note(
        self,
        text: str,
        *,
        audio_path: str | None,
        heading: str,
        message: dict[str, Any] | None = None,
        notice: str | None = None,
    ) -> None:
        message = message or {}
        nonce, where = await self._store_note(text, audio_path, message)
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
        await self.reply(body, markup=markup, plain=plain, reply_to=message.get("message_id"))

    async def _on_voice(self, message: dict[str, Any]) -> None:
        media = message.get("voice") or message.get("audio") or {}
        file_id = media.get("file_id")
        if not file_id:
            return
        info = await self.client.get_file(file_id)
        if not info.file_path:
            await self.reply("无法下载这条语音，请重发。")
            return
        data = await self.client.download_file(info.file_path)
        suffix = Path(info.file_path).suffix or ".ogg"
        stamp = utc(self.services.clock.now()).strftime("%Y%m%d-%H%M%S")
        target = (
            self.services.paths.audio / f"telegram-{stamp}-{message.get('message_id', 0)}{suffix}"
        )
        target.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.get_running_loop().run_in_executor(None, target.write_bytes, data)
        try:
            async with self.typing():  # Whisper takes a moment on a long message
                transcript = await self._transcribe(target)
        except InquiryBridgeError as exc:
            await self.reply(escape(exc.user_message("zh_CN")))
            return
        if not transcript.strip():
            await self.reply("没有听清这条语音，请再说一遍。")
            return
        await self._route(transcript, message, audio_path=str(target))

    async def _transcribe(self, path: Path) -> str:
        transcriber = self._transcriber()
        future = transcriber.submit(path)  # Whisper's own worker thread, never this loop
        result = await asyncio.wrap_future(future)
        return str(result.text)

    def _transcriber(self) -> Any:
        if self._transcriber_factory is not None:
            return self._transcriber_factory()
        from core.voice.transcriber import shared_transcriber

        return shared_transcriber(self.services.settings)

    async def _note_pressed(self, nonce: str, action: str) -> str:
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
        note_id = await asyncio.get_running_loop().run_in_executor(
            None,
            lambda: add_customer_note(
                self.services, inquiry_id, pending["text"], source="telegram", audio_path=audio
            ),
        )
        log.info("telegram note %s saved (inquiry %s)", note_id, inquiry_id)
        return f"已保存备注（询盘 #{inquiry_id}）。" if inquiry_id else "已保存到备注收件箱。"

    # -- buttons ------------------------------------------------------------------------------
    async def _on_callback(self, query: dict[str, Any]) -> None:
        message = query.get("message") or {}
        chat = message.get("chat") or {}
        user = query.get("from")
        owner = self.owner()
        if owner is None or not self._is_owner(chat, user):
            self._ignore("button press", chat, user)
            await self.client.answer_callback_query(query["id"])
            return
        data = str(query.get("data") or "")
        answer = ""
        answered = False
        try:
            parts = data.split(":")
            if parts[0] == "i" and len(parts) == 3 and parts[1].isdigit():
                if parts[2] == "r":  # composing takes a while: the spinner on the button stops now
                    await self.client.answer_callback_query(query["id"], "正在起草…")
                    answered = True
                inquiry_press = InquiryPress(
                    self.services, self, composer=self._composer, show_draft=self.show_draft
                )
                answer = await inquiry_press.handle(int(parts[1]), parts[2])
            elif parts[0] == "d" and len(parts) == 4:
                press = DraftPress(self.services, self, lambda: self._decisions_for(owner))
                answer = await press.handle(int(parts[1]), parts[2], parts[3], message)
            elif parts[0] == "n" and len(parts) == 3:
                answer = await self._note_pressed(parts[1], parts[2])
                await self.drop_buttons(message)
                await self.reply(escape(answer))
            else:
                answer = "此按钮已失效。"
        except InquiryBridgeError as exc:
            answer = exc.user_message("zh_CN")
            await self.reply(escape(answer))
        finally:
            if not answered:
                await self.client.answer_callback_query(query["id"], answer)

    def _decisions_for(self, owner: Owner) -> OwnerDecisions:
        """The owner's decisions, for a press ``owner`` (the paired owner) just made."""
        source = self._decisions
        decisions = source() if callable(source) else source
        if decisions is None:
            raise TelegramError("草稿服务不可用")
        return decisions

    async def drop_buttons(self, message: dict[str, Any]) -> None:
        chat_id = (message.get("chat") or {}).get("id")
        if chat_id is None or "message_id" not in message:
            return
        try:
            await self.client.edit_reply_markup(chat_id, int(message["message_id"]), None)
        except TelegramError as exc:  # cosmetic: the state lives in SQLite, not in the buttons
            log.info("could not remove buttons: %s", exc.detail)


async def _no_draft_shown(_draft_id: int) -> None:
    """Without a runner the draft's alert goes out with the next delivery round."""


def _last_alert_inquiry(session: Session) -> int | None:
    state = get_state(session, LAST_INQUIRY_KEY) or {}
    value = state.get("inquiry_id") if isinstance(state, dict) else None
    return int(value) if value else None


NOTE_PREVIEW = 3_000  # characters of a note echoed back: the reply stays under Telegram's 4,096


def note_preview(text: str, limit: int = NOTE_PREVIEW) -> str:
    """What the "save this note?" reply quotes: the whole note, or (over ``limit``, e.g. a long
    dictation) its start and its length -- the whole text is still what gets saved. A reply
    quoting all of a 5,000-character note was refused by Telegram and the owner got nothing."""
    if len(text) <= limit:
        return text
    return f"{text[:limit].rstrip()}…\n（共 {len(text)} 字，全文将保存 / {len(text)} characters, all saved）"


def parse_datetime(value: str | None) -> datetime | None:
    return utc(datetime.fromisoformat(value)) if value else None
