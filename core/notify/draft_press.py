"""What a press of a draft alert's button does: 发送, 仍然发送, 放弃, 在电脑上修改.

A ``DraftPress`` is made by the bot for one button press, only after the press passed the owner
check (the paired chat *and* user), and only it is handed the way to the owner's decisions — a
function returning ``OwnerDecisions``, called when the press really approves, sends or rejects.
So a stranger's update never gets near approve or send, and nothing else of drafting (compose,
edits) is reachable from Telegram at all.

发送 approves as ``telegram`` (if still pending) and sends once; a draft with unconfirmed facts
first shows them with a one-time 仍然发送 button; an alert whose draft was edited on the PC since
sends nothing. The answer says 已发送 only when the draft row (the send ledger) says ``sent``.
"""

from __future__ import annotations

import logging
import secrets as pysecrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.orm import Session

from core import tasks
from core.db.app_state import get_state, put_state
from core.db.models import Draft
from core.events import NeedsAttention
from core.notify.draft_buttons import DRAFT_KEY, add_button_message, draft_fingerprint
from core.text.render import escape

if TYPE_CHECKING:
    from core.drafts.decisions import OwnerDecisions
    from core.services import Services

log = logging.getLogger(__name__)

# a draft's status in the words of a Telegram reply
STATUS_ZH = {
    "draft": "尚未提交审批",
    "pending_approval": "等待审批",
    "approved": "已批准，尚未发送",
    "sending": "正在发送（结果待确认）",
    "sent": "已发送",
    "rejected": "已放弃",
    "failed": "发送失败",
    "superseded": "已被修改稿取代",
}


class OwnerChat(Protocol):
    """The bot's side of the conversation with the owner (``TelegramBot``)."""

    last_reply: tuple[int, int, str, str | None] | None

    async def reply(
        self, text_html: str, *, markup: dict[str, Any] | None = None
    ) -> int | None: ...

    async def drop_buttons(self, message: dict[str, Any]) -> None: ...


class DraftPress:
    """One press of a draft alert's button by the paired owner."""

    def __init__(
        self, services: Services, chat: OwnerChat, decisions: Callable[[], OwnerDecisions]
    ) -> None:
        self.services = services
        self.chat = chat
        self._decisions = decisions

    def _draft_state(self, draft_id: int) -> tuple[dict[str, Any], Draft | None]:
        with self.services.store.session() as session:
            state = dict(get_state(session, DRAFT_KEY.format(draft_id)) or {})
            draft = session.get(Draft, draft_id)
            if draft is not None:
                session.expunge(draft)
            return state, draft

    async def handle(self, draft_id: int, action: str, nonce: str, message: dict[str, Any]) -> str:
        """What the press does; returns the short answer shown on the phone."""
        state, draft = await tasks.io(self._draft_state, draft_id)
        valid = {state.get("nonce"), state.get("confirm_nonce")} - {None}
        if not nonce or nonce not in valid or draft is None:
            log.warning("telegram: stale or forged draft button for draft %s", draft_id)
            return "此按钮已失效。"
        if draft.status not in ("pending_approval", "approved"):
            await self.chat.drop_buttons(message)
            return f"草稿 #{draft_id} {STATUS_ZH.get(draft.status, draft.status)}。"
        if action in ("s", "c") and state.get("fingerprint") not in (
            None,
            draft_fingerprint(draft),
        ):
            # edited on the PC after this alert: never send words the phone did not show
            await self.chat.reply(
                f"✏️ 草稿 #{draft_id} 已在电脑上修改，这条提醒显示的不是最新内容，没有发送。"
                "新的审批提醒会另行发来，也可以在电脑上审批。"
            )
            return "已修改，未发送"
        if action == "e":
            self.services.bus.publish(NeedsAttention("edit_draft", "draft", draft_id, "telegram"))
            await self.chat.reply(f"好的，请在电脑上的「待审批」中打开草稿 #{draft_id} 修改。")
            return "请在电脑上修改"
        if action == "x":
            await self._decisions().reject(draft_id, actor="telegram")
            # the buttons (here and on any warning) are closed by the outbox's draft_closed row
            await self.chat.reply(f"🗑 已放弃草稿 #{draft_id}，不会发送。")
            return "已放弃"
        if action not in ("s", "c"):
            return "此按钮已失效。"
        facts = [
            f for f in (draft.unconfirmed_facts or []) if f not in (draft.confirmed_facts or [])
        ]
        confirmed_press = action == "c" and nonce == state.get("confirm_nonce")
        if facts and not confirmed_press and draft.status == "pending_approval":
            await self._ask_to_confirm(draft_id, state, facts)
            return "请先确认提醒内容"
        return await self._approve_and_send(draft, accept_unconfirmed=bool(facts))

    async def _ask_to_confirm(self, draft_id: int, state: dict[str, Any], facts: list[str]) -> None:
        """Unconfirmed values: show them, with a one-time 仍然发送 button."""
        confirm = pysecrets.token_urlsafe(6)
        state["confirm_nonce"] = confirm
        await self.services.store.run(
            lambda s: put_state(s, DRAFT_KEY.format(draft_id), state, self.services.clock.now())
        )
        lines = "\n".join(f"• {escape(f)}" for f in facts)
        markup = {
            "inline_keyboard": [
                [{"text": "⚠️ 仍然发送", "callback_data": f"d:{draft_id}:c:{confirm}"}],
                [
                    {"text": "🗑 放弃", "callback_data": f"d:{draft_id}:x:{state['nonce']}"},
                    {
                        "text": "💻 在电脑上修改",
                        "callback_data": f"d:{draft_id}:e:{state['nonce']}",
                    },
                ],
            ]
        }
        self.chat.last_reply = None
        await self.chat.reply(
            f"⚠️ <b>草稿 #{draft_id} 中有未经确认的内容：</b>\n{lines}\n\n"
            "确认无误请再按「仍然发送」；否则请在电脑上修改。",
            markup=markup,
        )
        if self.chat.last_reply is not None:  # these buttons close with the draft too
            chat_id, message_id, text, mode = self.chat.last_reply

            def _remember(session: Session) -> None:
                current = dict(get_state(session, DRAFT_KEY.format(draft_id)) or {})
                add_button_message(current, chat_id, message_id, text, mode)
                put_state(session, DRAFT_KEY.format(draft_id), current, now_fn())

            now_fn = self.services.clock.now
            await self.services.store.run(_remember)

    async def _approve_and_send(self, draft: Draft, *, accept_unconfirmed: bool) -> str:
        """发送 (or 仍然发送): approve as ``telegram`` if still pending, then send once."""
        decisions = self._decisions()
        draft_id = draft.id
        if draft.status == "pending_approval":
            await decisions.approve(
                draft_id, actor="telegram", accept_unconfirmed=accept_unconfirmed
            )
        result = await decisions.send(draft_id, actor="telegram")
        _, after = await tasks.io(self._draft_state, draft_id)  # the ledger decides what we say
        if after is not None and after.status == "sent":
            to = ", ".join(after.to_addrs or [])
            await self.chat.reply(f"✅ <b>已发送</b>：草稿 #{draft_id} 已发给 {escape(to)}。")
            return "已发送"
        status = STATUS_ZH.get(after.status, after.status) if after else "未知"
        await self.chat.reply(
            f"❗ 草稿 #{draft_id} 未确认发送（当前状态：{escape(status)}）。"
            f"{escape(result.message)}\n请在电脑上查看。"
        )
        return f"未发送：{status}"
