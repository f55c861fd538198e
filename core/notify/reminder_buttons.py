"""The buttons of a stage reminder on Telegram: 起草跟进邮件, 打开询盘, 推迟 1/3/7 天, 标记流失.

A reminder alert (outbox kind ``overdue`` about one inquiry) carries ``reminder_keyboard``; its
callback data is ``r:<inquiry id>:<action>:<stage entry>``. The stage entry (``stage_token``: when
the inquiry entered its stage) makes the buttons valid only while the job is still where the
alert found it — a press after the job moved on (another stage, or already lost) changes nothing
and says the reminder is out of date. The bot checks the owner before a press gets here.

Each action is ``core.rhythm.actions.ReminderActions`` — the very calls of the desktop's buttons:
snooze (``s1``/``s3``/``s7``), mark lost (``l``), draft the follow-up (``d``: composed by the
bot's composer, pending approval like every draft, its 发送/放弃 alert shown at once; a draft
already waiting is pointed to instead), and open (``o``: the inquiry's card in the chat, and
later notes go to it).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import to_sydney, utc
from core.db.app_state import put_state
from core.db.models import CLOSED_STAGES, Draft, Inquiry, Notification
from core.glossary import product_name
from core.inquiry.stages import STAGE_NAMES_ZH, StageService
from core.notify.draft_buttons import LAST_INQUIRY_KEY
from core.phones import display_phone
from core.rhythm.actions import FollowUpComposer, ReminderActions
from core.rhythm.reminders import SNOOZE_CHOICES, ReminderService
from core.text.render import escape

if TYPE_CHECKING:
    from core.drafts.draft_composer import DraftComposer
    from core.notify.draft_press import OwnerChat
    from core.services import Services

log = logging.getLogger(__name__)

PREFIX = "r"


def stage_token(stage_changed_at: datetime | None) -> str:
    """The stage entry in 12 characters (callback data is at most 64 bytes)."""
    return utc(stage_changed_at).strftime("%y%m%d%H%M%S") if stage_changed_at else "-"


def reminder_keyboard(inquiry_id: int, token: str) -> dict[str, Any]:
    def button(text: str, action: str) -> dict[str, str]:
        return {"text": text, "callback_data": f"{PREFIX}:{inquiry_id}:{action}:{token}"}

    return {
        "inline_keyboard": [
            [button("📝 起草跟进邮件", "d"), button("📂 打开询盘", "o")],
            [button(f"⏰ 推迟 {d} 天", f"s{d}") for d in SNOOZE_CHOICES],
            [button("❌ 标记流失", "l")],
        ]
    }


def keyboard_for(session: Session, row: Notification) -> dict[str, Any] | None:
    """The buttons a reminder alert carries (None for any other alert, or a closed job)."""
    if row.kind != "overdue" or row.ref_type != "inquiry" or row.ref_id is None:
        return None
    inquiry = session.get(Inquiry, row.ref_id)
    if inquiry is None or inquiry.stage in CLOSED_STAGES:
        return None
    return reminder_keyboard(inquiry.id, stage_token(inquiry.stage_changed_at))


class ReminderPress:
    """One press of a reminder button, by the owner (the bot checked).

    ``composer``: the bot's composer source (None: no model set up); ``show_draft`` puts the new
    draft's approval alert (content, 发送 / 放弃) in the chat at once.
    """

    def __init__(
        self,
        services: Services,
        bot: OwnerChat,
        *,
        composer: Callable[[], DraftComposer | None] = lambda: None,
        show_draft: Callable[[int], Awaitable[None]] | None = None,
    ) -> None:
        self.services = services
        self.bot = bot
        self._composer = composer
        self._show_draft = show_draft

    def _actions(self, composer: FollowUpComposer | None = None) -> ReminderActions:
        """The reminder's actions; ``composer`` only for drafting (snooze and lost need none)."""
        s = self.services

        def composing() -> FollowUpComposer:
            if composer is None:  # never: only ``_draft`` drafts, and it passes its composer
                raise RuntimeError("a follow-up draft needs the composer")
            return composer

        return ReminderActions(
            s.store,
            ReminderService(s.store, s.bus, s.clock),
            StageService(s.store, s.bus, s.clock),
            composing,
        )

    async def handle(
        self, inquiry_id: int, action: str, token: str, message: dict[str, Any]
    ) -> str:
        """Do what the button says; the short answer Telegram shows on the press."""
        inquiry = await self.services.store.read(lambda s: _card(s, inquiry_id))
        if inquiry is None:
            await self.bot.drop_buttons(message)
            return "找不到这个询盘。"
        if inquiry["token"] != token or inquiry["stage"] in CLOSED_STAGES:
            await self.bot.drop_buttons(message)
            return "此提醒已过期：询盘的阶段已经变了。"
        if action.startswith("s") and action[1:].isdigit():
            until = await self._actions().snooze(inquiry_id, int(action[1:]))
            await self.bot.drop_buttons(message)
            answer = f"已推迟到 {to_sydney(until):%m月%d日 %H:%M}"
        elif action == "l":
            await self._actions().mark_lost(inquiry_id)
            await self.bot.drop_buttons(message)
            answer = f"已标记为流失：{inquiry['who']}"
        elif action == "o":
            await self._open(inquiry_id, inquiry)
            return "已打开"
        elif action == "d":
            answer = await self._draft(inquiry_id)
        else:
            return "此按钮已失效。"
        await self.bot.reply(escape(answer))
        return answer

    async def _open(self, inquiry_id: int, card: dict[str, Any]) -> None:
        now = self.services.clock.now()
        await self.services.store.run(
            lambda s: put_state(s, LAST_INQUIRY_KEY, {"inquiry_id": inquiry_id}, now)
        )
        await self.bot.reply(card["html"])

    async def _draft(self, inquiry_id: int) -> str:
        composer = self._composer()
        if composer is None:
            return "起草跟进邮件需要先在电脑上设置 AI 服务地址（设置 → AI）。"
        waiting = await self.services.store.read(lambda s: _waiting_draft(s, inquiry_id))
        if waiting is not None:  # a second press (or a draft from the PC) costs no tokens
            return f"草稿 #{waiting} 已在等待审批，没有重复起草。"
        draft_id = await self._actions(composer).draft_follow_up(inquiry_id, actor="telegram")
        log.info("telegram: follow-up draft %s for inquiry %s", draft_id, inquiry_id)
        if self._show_draft is not None:
            await self._show_draft(draft_id)
        return f"已起草跟进邮件（草稿 #{draft_id}），等待您批准——尚未发送。"


def _waiting_draft(session: Session, inquiry_id: int) -> int | None:
    return session.scalar(
        select(Draft.id)
        .where(Draft.inquiry_id == inquiry_id, Draft.status == "pending_approval")
        .order_by(Draft.id.desc())
        .limit(1)
    )


def _card(session: Session, inquiry_id: int) -> dict[str, Any] | None:
    """What 打开询盘 shows in the chat, and what a press is checked against."""
    inquiry = session.get(Inquiry, inquiry_id)
    if inquiry is None:
        return None
    who = inquiry.customer_name or inquiry.customer_email or f"询盘 #{inquiry.id}"
    lines = [f"<b>{escape(who)}</b>（询盘 #{inquiry.id}）"]
    lines.append(f"阶段：{STAGE_NAMES_ZH.get(inquiry.stage, inquiry.stage)}")
    place = ", ".join(p for p in (inquiry.address, inquiry.suburb) if p)
    for label, value in (
        ("地址", place),
        ("电话", display_phone(inquiry.customer_phone)),
        ("邮箱", inquiry.customer_email or ""),
        ("产品", "、".join(product_name(p) for p in inquiry.product_types or [])),
    ):
        if value:
            lines.append(f"{label}：{escape(value)}")
    return {
        "who": who,
        "stage": inquiry.stage,
        "token": stage_token(inquiry.stage_changed_at),
        "html": "\n".join(lines),
    }
