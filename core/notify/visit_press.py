"""Proposed visit times on Telegram: one button per time, and what a press does.

The outbox row ``visit_proposed`` (written with the proposal, ``core.rhythm.appointments``)
reaches his chat with one ✅ button per proposed time; the callback data is
``v:<inquiry id>:<index>:<token>``, the token naming the times offered, so a button of an older
proposal (other times since, or already booked) changes nothing and says so. A press -- only
the paired owner's reaches here: the bot checks first -- confirms through the same
``confirm`` as the desktop's dialog: the visit is booked (a clash or a taken slot is refused in
one Chinese line), his calendar gets the event, and the customer's confirmation waits as a
draft whose 发送 / 放弃 alert is shown at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.orm import Session

from core.db.app_state import get_state
from core.db.models import Notification
from core.errors import InquiryBridgeError
from core.rhythm.visits import PROPOSED_KIND, Proposal, booked_visit, stamp

if TYPE_CHECKING:
    from core.rhythm.appointments import Confirmed
    from core.services import Services

PREFIX = "v"
WEEKDAYS_ZH = "一二三四五六日"


class VisitConfirmer(Protocol):
    """What a press confirms with: ``App.rhythm.visits`` (``core.app.visits.VisitService``)."""

    async def confirm(
        self, inquiry_id: int, start: str | None = None, *, actor: str = "owner"
    ) -> Confirmed: ...


def _proposal(session: Session, inquiry_id: int) -> Proposal | None:
    value = get_state(session, f"appointment.proposal.{inquiry_id}")
    return Proposal(**value) if isinstance(value, dict) else None


def _label(iso: str) -> str:
    moment = datetime.fromisoformat(iso)
    return f"✅ 周{WEEKDAYS_ZH[moment.weekday()]} {moment.month}/{moment.day} {moment:%H:%M}"


def visit_keyboard(session: Session, row: Notification) -> dict[str, Any] | None:
    """One button per proposed time (None when the row is not an offer, the proposal has
    other times since, or the visit is booked already)."""
    if row.kind != PROPOSED_KIND or row.ref_id is None:
        return None
    proposal = _proposal(session, row.ref_id)
    if proposal is None or not row.dedup_key.endswith(f":{proposal.token}"):
        return None
    if booked_visit(session, row.ref_id) is not None:
        return None
    return {
        "inline_keyboard": [
            [{"text": _label(iso), "callback_data": f"{PREFIX}:{row.ref_id}:{i}:{proposal.token}"}]
            for i, iso in enumerate(proposal.times)
        ]
    }


async def press_visit(
    services: Services,
    confirmer: VisitConfirmer | None,
    inquiry_id: int,
    index: str,
    token: str,
    *,
    show_draft: Callable[[int], Awaitable[None]] | None = None,
) -> str:
    """Confirm the pressed time; the short answer for his phone (Chinese)."""
    proposal = await services.store.read(lambda s: _proposal(s, inquiry_id))
    if proposal is None or proposal.token != token or not index.isdigit():
        return "这些时间已经过时（有了新的建议或已约好），请看最新的消息或在电脑上确认。"
    times = proposal.times
    if int(index) >= len(times):
        return "此按钮已失效。"
    if confirmer is None:
        return "这里不能确认上门时间，请在电脑上确认。"
    try:
        done = await confirmer.confirm(inquiry_id, times[int(index)], actor="telegram")
    except InquiryBridgeError as exc:
        return exc.user_message("zh_CN")
    when = stamp(datetime.fromisoformat(done.start))
    if done.already:
        return f"询盘 #{inquiry_id} 已约好 {when} 上门，未重复预约。"
    lines = [f"✅ 已约好 {when} 上门量尺（询盘 #{inquiry_id}）。"]
    lines.append("已写入 Outlook 日历。" if done.event_id else "已记入询盘桥的日历。")
    if done.draft_id is not None:
        lines.append(f"给客户的确认邮件草稿 #{done.draft_id} 等您批准后才会发送。")
        if show_draft is not None:
            await show_draft(done.draft_id)
    elif done.draft_note:
        lines.append(f"未起草确认邮件：{done.draft_note}")
    return "\n".join(lines)
