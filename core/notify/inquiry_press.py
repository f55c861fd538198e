"""What a press of a new-inquiry alert's button does: 起草回复, 在电脑上打开, 稍后提醒.

Made by the bot for one press, only after the press passed the owner check. What it may use is
handed in: a *composer* (writes a draft that waits for approval — it cannot approve or send),
and a way to show a draft's alert (with its 发送 / 放弃 buttons) right away.

* 起草回复: the composer writes a reply from a standing Chinese instruction for the inquiry's
  class; the draft's alert (Chinese, English, buttons) follows at once, so approving stays the
  owner's own press of 发送. While a draft of the inquiry already waits, nothing new is written.
* 在电脑上打开: a tray-only notification about the inquiry ("open on PC"), which the desktop shows
  as a balloon or banner that opens the inquiry when clicked; plus ``NeedsAttention`` for any
  other listener.
* 稍后提醒: the stage reminder is snoozed to the next working day (``core.rhythm.reminders``), and
  the alert comes back on the phone then (an outbox row held until that morning).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core import tasks
from core.db.models import Draft, Inquiry
from core.events import NeedsAttention
from core.notify.inquiry_alert import customer_label, draft_instruction, inquiry_message
from core.text.render import escape

if TYPE_CHECKING:
    from core.drafts.draft_composer import DraftComposer
    from core.notify.chat_side import ChatSide
    from core.services import Services

log = logging.getLogger(__name__)

SNOOZE_WORKING_DAYS = 1


class InquiryPress:
    """One press of a new-inquiry alert's button by the paired owner."""

    def __init__(
        self,
        services: Services,
        chat: ChatSide,
        *,
        composer: Callable[[], DraftComposer | None],
        show_draft: Callable[[int], Awaitable[None]],
    ) -> None:
        self.services = services
        self.chat = chat
        self._composer = composer
        self._show_draft = show_draft

    def _alert_text(self, inquiry_id: int) -> tuple[str, str, str] | None:
        """(customer label, title, body) of the inquiry's alert, or None when it is gone."""
        with self.services.store.session() as session:
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None:
                return None
            title, body = inquiry_message(session, inquiry)
            return customer_label(inquiry), title, body

    async def handle(self, inquiry_id: int, action: str) -> str:
        """Do what the button says; returns the short answer shown on the phone."""
        found = await tasks.io(self._alert_text, inquiry_id)
        if found is None:
            return "这个询盘已不存在。"
        who, title, body = found
        if action == "r":
            return await self._draft(inquiry_id, who)
        if action == "o":
            return await self._open_on_pc(inquiry_id, who, title, body)
        if action == "l":
            return await self._later(inquiry_id, who, title, body)
        return "此按钮已失效。"

    async def _draft(self, inquiry_id: int, who: str) -> str:
        composer = self._composer()
        if composer is None:
            await self.chat.reply("起草回复需要先在电脑上设置 AI 服务地址（设置 → AI）。")
            return "未设置 AI 服务"

        def waiting(session: Session) -> int | None:
            return session.scalar(
                select(Draft.id)
                .where(Draft.inquiry_id == inquiry_id, Draft.status == "pending_approval")
                .order_by(Draft.id.desc())
                .limit(1)
            )

        existing = await self.services.store.read(waiting)
        if existing is not None:  # a second press (or a draft from the PC) costs no tokens
            await self.chat.reply(
                f"草稿 #{existing} 已在等待审批（见它的草稿提醒，或电脑上的「待审批」）。"
            )
            return "已有待审批草稿"

        def instruction(session: Session) -> str:
            inquiry = session.get(Inquiry, inquiry_id)
            return draft_instruction(inquiry) if inquiry else ""

        text = await self.services.store.read(instruction)
        async with self.chat.typing():
            draft_id = await composer.compose(inquiry_id, text, actor="telegram")
        await self.chat.reply(
            f"✍️ 已为 {escape(who)} 起草回复（草稿 #{draft_id}），内容和按钮如下。"
            "不按「发送」就不会发出。"
        )
        await self._show_draft(draft_id)
        return "已起草，等待审批"

    async def _raise(self, *args: Any, **kwargs: Any) -> int | None:
        """An outbox row, written off the event loop (the center's write path is blocking)."""
        from core.notify.outbox import NotificationCenter

        center = NotificationCenter(self.services)
        return await tasks.io(lambda: center.raise_notification(*args, **kwargs))

    async def _open_on_pc(self, inquiry_id: int, who: str, title: str, body: str) -> str:
        stamp = self.services.clock.now().strftime("%Y%m%d%H%M%S%f")
        await self._raise(
            "open_on_pc",
            f"手机上请求查看：{title.removeprefix('新询盘：')}",
            body,
            "inquiry",
            inquiry_id,
            f"open:{inquiry_id}:{stamp}",
            telegram=False,  # for the tray and the window, not the phone
        )
        self.services.bus.publish(NeedsAttention("open_on_pc", "inquiry", inquiry_id, "telegram"))
        await self.chat.reply(
            f"💻 已在电脑上弹出 {escape(who)} 的询盘（#{inquiry_id}），点开提醒即可查看。"
        )
        return "已发到电脑"

    async def _later(self, inquiry_id: int, who: str, title: str, body: str) -> str:
        from core.notify.outbox import describe_time
        from core.rhythm.reminders import ReminderService

        s = self.services
        until = await ReminderService(s.store, s.bus, s.clock).snooze(
            inquiry_id, SNOOZE_WORKING_DAYS
        )
        await self._raise(
            "inquiry_later",
            f"稍后提醒：{title.removeprefix('新询盘：')}",
            body,
            "inquiry",
            inquiry_id,
            f"inquiry:{inquiry_id}:later:{until.isoformat()}",
            quiet=True,  # not a new alert on the PC: it comes back on the phone then
            telegram_at=until,
        )
        when = describe_time(until)
        await self.chat.reply(f"⏰ 好的，{when} 再提醒你 {escape(who)} 的询盘（#{inquiry_id}）。")
        return f"{when} 再提醒"
