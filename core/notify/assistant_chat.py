"""The owner's words on Telegram, answered by the assistant in his chat.

One conversation per owner chat (``App.assistant.conversation(str(chat_id), channel="telegram")``),
so "回复他" in the next message still means the customer the last one was about: the one the
assistant's tools settled on (``core.agent.conversation``), never merely the last alert's. A
message that *replies to an alert* is about that alert's customer: he becomes the current
customer before the turn (``about=``), whatever the conversation was about. While the model works
the chat shows "typing…" (``sendChatAction`` every few seconds: Telegram clears it after five).
The answer is the assertion-guarded ``reply.text``, Markdown rendered to Telegram HTML in pieces under
4,096 characters; its last piece carries 📝 存为备注, which files the owner's own message as a
note (the explicit way to make a note of what he said).

Drafts the turn wrote are shown right after the answer as their own approval alerts — the English
that 发送 would send, and the 发送 / 放弃 / 在电脑上修改 buttons — through the same outbox row the
tray sees, so nothing is alerted twice and approving stays the owner's press.

Changes the turn only proposed (it read customer mail, and his words did not ask for them) follow
as one message each with ✅ 确认 / 🗑 放弃 (``core.notify.proposal_press``).

Files the turn found (``find_attachments``: "Steward 的平面图在哪") follow as documents, each
captioned with its name, so he can open the plan on the phone. Telegram takes uploads from a bot
up to 50 MB; a bigger file gets one Chinese line telling him to open it on the computer.

Nothing here is reached by a stranger: the bot calls it only for the paired owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from core import tasks
from core.agent.caps import telegram_summary
from core.errors import InquiryBridgeError
from core.inquiry.files import AttachmentFile
from core.mail.attachment_risk import judge_file
from core.notify.chat_side import ChatSide
from core.notify.chunk import render_chunks
from core.notify.telegram_client import UPLOAD_LIMIT_BYTES
from core.text.inert import visible_controls

if TYPE_CHECKING:
    from core.agent.conversation import ChatEvent, Conversation

log = logging.getLogger(__name__)

TYPING_EVERY = 4.0  # seconds; Telegram shows "typing…" for five


class AssistantSource(Protocol):
    """What the bot needs of ``core.app.assistant.AssistantService``."""

    @property
    def available(self) -> bool: ...

    def conversation(self, name: str, *, channel: str) -> Conversation: ...


FileLookup = Callable[[int], Awaitable[AttachmentFile | None]]


async def _no_files(_attachment_id: int) -> AttachmentFile | None:
    return None


async def keep_typing(send: Callable[[], Awaitable[object]], every: float = TYPING_EVERY) -> None:
    """Send the typing action now and every ``every`` seconds until cancelled."""
    while True:
        try:
            await send()
        except Exception as exc:  # cosmetic: never let "typing…" break the answer
            log.info("typing action failed: %s", exc)
        await asyncio.sleep(every)


@contextlib.asynccontextmanager
async def typing_while(send: Callable[[], Awaitable[object]]) -> AsyncIterator[None]:
    task = asyncio.create_task(keep_typing(send), name="telegram-typing")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


class AssistantChat:
    """Asks the owner's conversation and sends the answer back."""

    def __init__(
        self,
        chat: ChatSide,
        assistant: Callable[[], AssistantSource | None],
        *,
        show_draft: Callable[[int], Awaitable[None]],
        find_file: FileLookup | None = None,
    ) -> None:
        self.chat = chat
        self._assistant = assistant
        self._show_draft = show_draft
        self._find_file = find_file or _no_files
        self._used: dict[
            int, Conversation
        ] = {}  # chat -> its conversation (to settle before closing)
        self.customer: dict[int, int | None] = {}  # chat -> its current customer after a turn

    def _offer_proposal(self, proposal_id: int) -> tuple[str, dict[str, Any]] | None:
        from core.notify.proposal_press import proposal_message

        services = getattr(self.chat, "services", None)
        return proposal_message(services, proposal_id) if services is not None else None

    def available(self) -> bool:
        source = self._assistant()
        return bool(source is not None and source.available)

    async def answer(
        self,
        chat_id: int,
        text: str,
        *,
        owner_text: str | None = None,
        note_button: dict[str, Any] | None = None,
        about: int | None = None,
        reply_to: int | None = None,
    ) -> list[int]:
        """One turn for ``text``; returns the draft ids the turn wrote. ``about``: the inquiry
        of the alert the message replies to ("给他回复" under Amy's alert means Amy).
        ``owner_text``: the owner's own words when ``text`` is not all his ("" for a forward:
        someone else's words, which back nothing and consent to nothing)."""
        source = self._assistant()
        if source is None:
            return []
        conversation = source.conversation(str(chat_id), channel="telegram")
        self._used[chat_id] = conversation
        if about is not None:
            conversation.current_inquiry_id = about
        drafts: list[int] = []
        files: list[int] = []
        proposals: list[int] = []

        def on_event(event: ChatEvent) -> None:
            drafts.extend(getattr(event, "draft_ids", ()) or ())
            files.extend(getattr(event, "attachment_ids", ()) or ())
            proposals.extend(getattr(event, "proposal_ids", ()) or ())

        try:
            async with self.chat.typing():
                reply = await conversation.ask(text, on_event=on_event, owner_text=owner_text)
        except InquiryBridgeError as exc:
            await self.chat.reply(f"⚠️ {_escape(exc.user_message('zh_CN'))}", reply_to=reply_to)
            return []
        except Exception:
            log.exception("assistant turn on telegram failed")
            await self.chat.reply("⚠️ 助手这次没有答上来，请稍后再问一次。", reply_to=reply_to)
            return []
        finally:
            self.customer[chat_id] = getattr(conversation, "current_inquiry_id", None)
        answer = telegram_summary((reply.text or "").strip()) or "（助手没有给出回答。）"
        chunks = render_chunks(answer)
        for index, chunk in enumerate(chunks):
            last = index == len(chunks) - 1
            await self.chat.reply(
                chunk.html,
                plain=chunk.plain,
                markup=note_button if last else None,
                reply_to=reply_to if index == 0 else None,
            )
        for draft_id in dict.fromkeys(drafts):
            try:
                await self._show_draft(draft_id)
            except Exception:  # the draft is safe in 待审批 either way
                log.exception("showing draft %s on telegram failed", draft_id)
        for attachment_id in dict.fromkeys(files):
            await self._send_file(attachment_id)
        for proposal_id in dict.fromkeys(proposals):
            offer = await tasks.io(self._offer_proposal, proposal_id)
            if offer is not None:
                await self.chat.reply(offer[0], markup=offer[1])
        return drafts

    async def _send_file(self, attachment_id: int) -> None:
        """One found file as a document in his chat, or the line saying why it is not."""
        found: AttachmentFile | None = None
        try:
            found = await self._find_file(attachment_id)
            if found is None:
                await self.chat.reply(
                    f"📎 附件 #{attachment_id} 不在这台电脑上了，请在电脑上查看原邮件。"
                )
            elif (verdict := judge_file(found.filename)).runnable:
                await self.chat.reply(
                    f"⚠️ {_escape(verdict.shown)} 是可执行程序或脚本（.{_escape(verdict.extension)}），"
                    "点开会运行它，所以不发到手机。确需查看请在电脑上的文件夹中找到它。"
                )
            elif found.size > UPLOAD_LIMIT_BYTES:
                await self.chat.reply(
                    f"📎 {_escape(found.filename)}（{_megabytes(found.size)}）超过 Telegram "
                    "50 MB 的发送上限，无法发到手机，请在电脑上打开。"
                )
            else:
                await self.chat.send_document(
                    found.path,
                    found.filename,
                    caption=visible_controls(found.filename),
                    content_type=found.content_type,
                )
        except Exception:  # the file is safe on the computer either way
            log.exception("sending attachment %s on telegram failed", attachment_id)
            name = _escape(found.filename) if found is not None else f"#{attachment_id}"
            with contextlib.suppress(Exception):
                await self.chat.reply(f"⚠️ 附件 {name} 没有发出去，请在电脑上打开。")

    async def settle(self) -> None:
        """Wait for the conversations' background work (a memory review) before the model
        client closes under it."""
        for conversation in list(self._used.values()):
            settle = getattr(conversation, "settle", None)
            if settle is not None:
                try:
                    await settle()
                except Exception:  # closing must not fail on a review
                    log.exception("settling the telegram conversation failed")


def _megabytes(size: int) -> str:
    """Decimal megabytes, the unit of Telegram's 50 MB limit (so "50.3 MB" reads as over it)."""
    return f"{size / 1_000_000:.1f} MB"


def _escape(text: str) -> str:
    from core.text.render import escape

    return escape(text)
