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

A message (typed or spoken) that *replies to an alert* goes to the assistant about that alert's
customer ("给他回复" under Amy's alert drafts to Amy); any other message is about the
conversation's current customer (whoever its tools last settled on), not the last alert's.

Notes are explicit: 📝 存为备注 under an answer files the question itself (on the inquiry of the
alert it replied to, if any); ``/note TEXT`` files one at once on the inquiry of the last alert
(``/note 12 TEXT``: on inquiry #12). Without an AI address every message is offered as a note
with 保存 / 放弃 (as before the assistant existed) and the owner is told once, in Chinese, what
the assistant needs. A note goes to the inquiry of the alert it replies to, otherwise to the
inquiry the bot last messaged about, otherwise to the notes inbox (no inquiry).

A new-inquiry alert's buttons (起草回复 / 在电脑上打开 / 稍后提醒) are handled by
``core.notify.inquiry_press.InquiryPress``, made after the same owner check; a proposed visit
time's button (``v:…``) by ``core.notify.visit_press`` with the folder's visit confirmer.

Updates are handled one by one and the ``getUpdates`` offset is committed to ``sync_cursors``
after each, so a crash re-handles at most the update in hand (its effects are idempotent: draft
sends are at most once by the draft state machine, pending notes by their nonce).

What the bot may decide: it is handed ``OwnerDecisions`` (approve, reject, send), a composer (for
起草回复: it writes drafts that wait) and nothing else of drafting. It reaches the decisions only
through ``_decisions_for(owner)``, which takes the paired ``Owner`` that a button press was just
checked against; the press itself is a ``core.notify.draft_press.DraftPress``, made only after
that check — the one path from a Telegram update to a decision runs through the owner check.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core import tasks
from core.agent.turn_context import forwarded
from core.clock import naive_utc, utc
from core.db.models import Draft, Inquiry, Notification, SyncCursor
from core.errors import InquiryBridgeError, TelegramError
from core.inquiry.files import AttachmentFile, load_attachment_file
from core.notify.assistant_chat import AssistantChat, AssistantSource, typing_while
from core.notify.draft_press import DraftPress
from core.notify.forwards import forwarded_from
from core.notify.inquiry_press import InquiryPress
from core.notify.owner_notes import OwnerNotes, note_preview
from core.notify.pacing import Pacer
from core.notify.pairing import Owner, may_pair_from, try_pair
from core.notify.pairing import owner as load_owner
from core.notify.reminder_buttons import ReminderPress
from core.notify.telegram_client import TelegramApiError, TelegramClient
from core.text.render import escape
from core.voice.length import audio_seconds

if TYPE_CHECKING:
    from core.agent.tools.drive_access import CustomerDrive
    from core.drafts.decisions import OwnerDecisions
    from core.drafts.draft_composer import DraftComposer
    from core.notify.visit_press import VisitConfirmer
    from core.services import Services
    from core.voice.transcriber import Transcriber
    from core.voice.worker import RemoteTranscriber

# the owner's decisions, or a function that builds them on first use (drafting loads lazily)
DecisionsSource: TypeAlias = "OwnerDecisions | Callable[[], OwnerDecisions | None] | None"
# the same for the assistant (``App.assistant``) and the composer 起草回复 uses
AssistantFactory: TypeAlias = "Callable[[], AssistantSource | None] | None"
ComposerFactory: TypeAlias = "Callable[[], DraftComposer | None] | None"

log = logging.getLogger(__name__)

OFFSET_CURSOR = "telegram:offset"
# A voice note longer than this is not transcribed (a 30-minute one took 139 s and 2.2 GB of
# Whisper): he gets one line asking for shorter pieces. Checked on Telegram's stated duration
# before the download and on the file's own length after it.
VOICE_MAX_SECONDS = 5 * 60
HELP_ZH = (
    "询盘桥助手已连接。\n"
    "• 新询盘、待审批草稿、跟进提醒和同步问题会发到这里。\n"
    "• 草稿下方的按钮可以直接发送或放弃；打字不会发送任何邮件。\n"
    "• 直接打字或发语音提问，助手会在这里回答（需在电脑上设置 AI 服务）。\n"
    "• 回复某条提醒提问，助手就针对那位客户回答；答复下的「存为备注」可记为备注。\n"
    "• 记备注：发送 /note 内容（/note 12 内容 记在询盘 #12）。\n"
    "• /status 查看待办数量。"
)


class TelegramBot:
    """Handles ``getUpdates`` rounds for the paired owner."""

    def __init__(
        self,
        services: Services,
        client: TelegramClient,
        *,
        drafts: DecisionsSource = None,
        transcriber_factory: Callable[[], Transcriber | RemoteTranscriber] | None = None,
        pacer: Pacer | None = None,
        assistant: AssistantFactory = None,
        composer: ComposerFactory = None,
        show_draft: Callable[[int], Awaitable[None]] | None = None,
        drive: Callable[[], CustomerDrive] | None = None,
        visits: Callable[[], VisitConfirmer | None] | None = None,
    ) -> None:
        self.services = services
        self._drive = drive
        self._visits = visits or (lambda: None)  # confirms a proposed visit time (v:…)
        self.client = client
        self._decisions: DecisionsSource = drafts
        self._transcriber_factory = transcriber_factory
        self._composer: Callable[[], DraftComposer | None] = composer or (lambda: None)
        self._show_draft = show_draft or _no_draft_shown
        self.chat = AssistantChat(
            self,
            assistant or (lambda: None),
            show_draft=self.show_draft,
            find_file=self.attachment_file,
        )
        self.notes = OwnerNotes(services, self)
        self.pacer = pacer or Pacer(services.clock, store=services.store)
        self.ignored = 0  # strangers' updates dropped (figures for tests and the status page)
        # (chat, message id, text, parse mode) of the last reply, for messages that get buttons
        self.last_reply: tuple[int, int, str, str | None] | None = None
        # transcriptions in progress: the update loop goes on (/status answers meanwhile)
        self._voice_work: set[asyncio.Task[None]] = set()

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
        updates = await self.client.get_updates(await tasks.io(self.offset), timeout=timeout)
        for update in sorted(updates, key=lambda u: int(u.get("update_id", 0))):
            update_id = int(update["update_id"])
            try:
                await self.handle_update(update)
            except TelegramError as exc:
                log.warning("telegram update %s: %s", update_id, exc.detail)
            except Exception:  # one bad update must not wedge the queue forever
                log.exception("telegram update %s failed", update_id)

            def save_offset(s: Session, v: int = update_id + 1) -> None:
                self._save_offset(s, v)

            await self.services.store.run(save_offset)
        return len(updates)

    # -- dispatch -----------------------------------------------------------------------------
    def owner(self) -> Owner | None:
        return load_owner(self.services)

    async def _owner(self) -> Owner | None:
        """``owner()`` from a coroutine: it reads the store, so off the loop."""
        return await tasks.io(load_owner, self.services)

    async def _is_owner(self, chat: dict[str, Any], user: dict[str, Any] | None) -> bool:
        """The chat *and* the sender must be the owner's: in a group only he may act."""
        current = await self._owner()
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
        current = await self._owner()
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
        """Show "typing…" in the owner's chat while the body of the ``async with`` runs."""

        async def send() -> None:
            current = await self._owner()
            if current is not None:
                await self.client.send_chat_action(current.chat_id, "typing")

        return typing_while(send)

    async def attachment_file(self, attachment_id: int) -> AttachmentFile | None:
        """A stored attachment the assistant found (to send as a document)."""
        paths = self.services.paths
        return await self.services.store.read(
            lambda s: load_attachment_file(s, paths, attachment_id)
        )

    async def send_document(
        self, path: Path, filename: str, *, caption: str, content_type: str
    ) -> int | None:
        """Upload a file to the owner's chat, paced like replies. Returns the message id."""
        current = await self._owner()
        if current is None:
            return None
        chat = current.chat_id
        data = await tasks.io(path.read_bytes)  # never read a file on the loop
        for attempt in range(4):
            await self.pacer.wait(chat)
            with contextlib.suppress(TelegramError):  # cosmetic: "sending a file…"
                await self.client.send_chat_action(chat, "upload_document")
            try:
                result = await self.client.send_document(
                    chat, filename, data, caption=caption, content_type=content_type
                )
                await self.pacer.mark(chat)
                return int(result["message_id"])
            except TelegramApiError as exc:
                await self.pacer.mark(chat)
                if exc.is_flood and attempt < 3:
                    await self.pacer.block(chat, float(exc.retry_after or 1))
                    continue
                raise
        return None

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
        if not await self._is_owner(chat, user):
            if (
                command == "/start"
                and user is not None
                and may_pair_from(self.services, int(chat.get("id", 0)), str(chat.get("type")))
            ):
                code = argument.strip()
                name = " ".join(p for p in (user.get("first_name"), user.get("username")) if p)
                if code and await tasks.io(
                    try_pair, self.services, code, int(chat["id"]), name, user_id=int(user["id"])
                ):
                    log.info("telegram: paired with chat %s user %s", chat["id"], user["id"])
                    await self.reply("✅ <b>配对成功。</b>\n\n" + escape(HELP_ZH))
                    return
                self._ignore("/start with a wrong or expired code", chat, user)
                return
            self._ignore("message", chat, user)
            return
        origin = forwarded_from(message)
        if origin is not None:  # someone else's words: never a command, never his instruction
            if message.get("voice") or message.get("audio"):
                await self._on_voice(message)
            elif text:
                await self._route(text, message, audio_path=None)
            return
        if command in ("/start", "/help"):
            await self.reply(escape(HELP_ZH))
        elif command == "/status":
            await self.reply(escape(await self.services.store.run(self._status_text)))
        elif command == "/note":
            await self.notes.command(argument.strip(), message)
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
        origin = forwarded_from(message)
        replied = (message.get("reply_to_message") or {}).get("message_id")
        alert_inquiry = None
        if replied is not None:
            alert_inquiry = await self.services.store.read(
                lambda s: self.notes.inquiry_of_message(s, int(replied))
            )
        if not self.chat.available():
            notice = None if alert_inquiry is not None else await self.notes.ai_notice_once()
            heading = "语音转写如下，要存为备注吗？" if spoken else "要把这段文字存为备注吗？"
            if origin is not None:
                heading = (
                    f"这是转发的「{origin}」的消息（他人所说，不作为事实依据），要存为备注吗？"
                )
            await self.notes.offer(
                text, audio_path=audio_path, heading=heading, message=message, notice=notice
            )
            return
        owner = await self._owner()
        if owner is None:
            return
        if spoken:
            await self.reply(
                f"🎤 <i>{escape(note_preview(text, 1000))}</i>",
                plain=f"🎤 {note_preview(text, 1000)}",
                reply_to=message.get("message_id"),
            )
        nonce, _where = await self.notes.store(text, audio_path, message)
        button = {"inline_keyboard": [[{"text": "📝 存为备注", "callback_data": f"n:{nonce}:s"}]]}
        await self.chat.answer(
            owner.chat_id,
            text if origin is None else forwarded(text, origin),
            owner_text=None if origin is None else "",  # a forward carries no words of his
            note_button=button,
            about=alert_inquiry,  # a reply to an alert is about its customer
            reply_to=None if spoken else message.get("message_id"),
        )
        customer = self.chat.customer.get(owner.chat_id)
        if alert_inquiry is None and customer is not None:  # 存为备注: the one it was about
            await self.notes.retarget(nonce, customer)

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

    async def _on_voice(self, message: dict[str, Any]) -> None:
        """Download and keep the note, then transcribe it in the background (Whisper on its
        own thread), so the next update — /status, a button — is handled meanwhile."""
        media = message.get("voice") or message.get("audio") or {}
        file_id = media.get("file_id")
        if not file_id:
            return
        if float(media.get("duration") or 0) > VOICE_MAX_SECONDS:
            await self.reply(_too_long(float(media["duration"])))
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
        await tasks.io(target.write_bytes, data)
        task = asyncio.ensure_future(self._hear(target, message))
        self._voice_work.add(task)
        task.add_done_callback(self._voice_work.discard)

    async def _hear(self, target: Path, message: dict[str, Any]) -> None:
        try:
            seconds = await tasks.io(_audio_seconds, target)
            if seconds is not None and seconds > VOICE_MAX_SECONDS:
                await self.reply(_too_long(seconds))
                return
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
        except Exception:  # in the background: say so instead of going quiet
            log.exception("telegram voice note failed")
            with contextlib.suppress(Exception):
                await self.reply("这条语音没能处理，请重发或直接打字。")

    async def settle_voice(self) -> None:
        """Wait for the voice notes still being transcribed (a round's end, closing)."""
        while self._voice_work:
            await asyncio.gather(*list(self._voice_work), return_exceptions=True)

    async def _transcribe(self, path: Path) -> str:
        transcriber = self._transcriber()
        future = transcriber.submit(path)  # Whisper's own worker thread, never this loop
        result = await asyncio.wrap_future(future)
        return str(result.text)

    def _transcriber(self) -> Transcriber | RemoteTranscriber:
        if self._transcriber_factory is not None:
            return self._transcriber_factory()
        from core.voice.transcriber import shared_transcriber

        return shared_transcriber(self.services.settings)

    # -- buttons ------------------------------------------------------------------------------
    async def _on_callback(self, query: dict[str, Any]) -> None:
        message = query.get("message") or {}
        chat = message.get("chat") or {}
        user = query.get("from")
        owner = await self._owner()
        if owner is None or not await self._is_owner(chat, user):
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
            elif parts[0] == "r" and len(parts) == 4:  # a stage reminder (reminder_buttons)
                press_r = ReminderPress(
                    self.services, self, composer=self._composer, show_draft=self.show_draft
                )
                answer = await press_r.handle(int(parts[1]), parts[2], parts[3], message)
            elif parts[0] == "p" and len(parts) == 3 and parts[1].isdigit():
                from core.notify.proposal_press import press_proposal

                drive = self._drive() if self._drive is not None else None
                answer = await press_proposal(self.services, int(parts[1]), parts[2], drive=drive)
                await self.drop_buttons(message)
                await self.reply(escape(answer))
            elif parts[0] == "v" and len(parts) == 4 and parts[1].isdigit():
                from core.notify.visit_press import press_visit

                answer = await press_visit(
                    self.services, self._visits(), int(parts[1]), parts[2], parts[3],
                    show_draft=self.show_draft,
                )  # fmt: skip
                await self.drop_buttons(message)
                await self.reply(escape(answer))
            elif parts[0] == "n" and len(parts) == 3:
                answer = await self.notes.pressed(parts[1], parts[2])
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


def parse_datetime(value: str | None) -> datetime | None:
    return utc(datetime.fromisoformat(value)) if value else None


def _too_long(seconds: float) -> str:
    limit = VOICE_MAX_SECONDS // 60
    return (
        f"这条语音长约 {max(1, round(seconds / 60))} 分钟，超过了 {limit} 分钟的上限，没有转写。"
        f"请分成几条不超过 {limit} 分钟的语音再发，或直接打字。"
    )


def _audio_seconds(path: Path) -> float | None:
    """The file's own length (a client may state a wrong duration); None when unknown.

    Read from the Ogg pages themselves (``core.voice.length``): asking PyAV meant loading
    FFmpeg with the GIL held, which stalled this loop on the first voice note of a process
    (and the bundle leaves PyAV out, so there the check said "unknown" and let it through)."""
    return audio_seconds(path)
