"""A proposed change on Telegram: the message with 确认 / 放弃, and what a press does.

When an assistant turn on Telegram read customer mail and the model asked for a change the
owner's words did not ask for (``core.agent.consent``), the change waits as a proposal. The
answer is followed by one message per proposal, saying what would change, with two buttons;
the press (only the paired owner's reaches here: the bot checks first) confirms or drops it
through ``core.agent.proposals.apply`` — the same act as the desktop's and ``proposals confirm``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.agent.proposals import ProposalError, apply, list_proposals
from core.text.render import escape

if TYPE_CHECKING:
    from core.agent.tools.drive_access import CustomerDrive
    from core.services import Services

STATUS_ZH = {"confirmed": "已确认并执行", "dropped": "已放弃", "failed": "确认了，但未能执行"}


def proposal_keyboard(proposal_id: int) -> dict[str, Any]:
    """确认 / 放弃 of one proposal (callback data ``p:<id>:y|n``)."""
    return {
        "inline_keyboard": [
            [
                {"text": "✅ 确认", "callback_data": f"p:{proposal_id}:y"},
                {"text": "🗑 放弃", "callback_data": f"p:{proposal_id}:n"},
            ]
        ]
    }


def proposal_message(services: Services, proposal_id: int) -> tuple[str, dict[str, Any]] | None:
    """The message offering one open proposal (None when it is not open)."""
    with services.store.session() as session:
        item = next((i for i in list_proposals(session) if i.id == proposal_id), None)
    if item is None:
        return None
    why = (
        "知识库是您的原话，只有您确认后才会写入。"
        if item.kind == "knowledge"
        else "这次对话读过客户邮件，而您没有要求这项改动，所以需要您确认。"
    )
    if item.kind == "quote_accept":  # from a customer's reply, not a conversation
        words = str((item.arguments or {}).get("words") or "")
        why = (
            f"客户原话：「{escape(words)}」\n确认后报价记为已接受，询盘改为「已下单」（定金待收）。"
        )
    html = f"🤔 <b>助手建议（未执行）#{item.id}</b>\n{escape(item.summary_zh)}\n\n{why}"
    return html, proposal_keyboard(item.id)


async def press_proposal(
    services: Services, proposal_id: int, action: str, *, drive: CustomerDrive | None = None
) -> str:
    """确认 (``y``) or 放弃 (``n``); the short answer for the phone. ``drive``: the App's
    OneDrive access, so a folder proposal goes through the runtime's one Graph client."""
    if action not in {"y", "n"}:
        return "此按钮已失效。"
    try:
        item = await apply(
            services, proposal_id, confirm=action == "y", actor="telegram", drive=drive
        )
    except ProposalError as exc:
        return exc.user_message("zh_CN")
    return f"建议 #{item.id}{STATUS_ZH.get(item.status, item.status)}。{item.result}".strip()
