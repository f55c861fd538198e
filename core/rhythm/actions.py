"""The one-click answers to a stage reminder, shared by the tray window and the Telegram buttons.

A reminder asks the owner to act; each answer is one call here, so the desktop and Telegram can
never disagree about what "推迟 3 天" or "标记流失" does:

- ``snooze(id, days)``: hide the reminder for 1, 3 or 7 working days (``ReminderService.snooze``);
- ``mark_lost(id)``: the job is lost — an audited stage change (``StageService``: the
  ``StageChanged`` event follows, so the board, the Outlook category and the OneDrive folder
  follow too);
- ``draft_follow_up(id)``: the stage's follow-up instruction (Chinese, below) handed to the
  drafting composer; the draft waits for approval like every draft — nothing is sent here;
- opening the inquiry is each front end's own navigation.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from core.db.models import Inquiry
from core.inquiry.stages import StageChange, StageService
from core.rhythm.reminders import SNOOZE_CHOICES, ReminderService

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from core.db.store import Store

# What the follow-up email should say, per stage (the composer turns it into English).
FOLLOW_UP_ZH: dict[str, str] = {
    "inquiry": "感谢客户的询盘，说明我们会尽快安排上门量尺或报价，并请客户确认地址和方便的时间。",
    "measure": "跟进客户：请客户确认方便上门量尺的日期、时间和地址。",
    "quoting": "告诉客户报价正在准备中，很快发出；如有补充要求请告诉我们。",
    "follow_up": "跟进之前发出的报价：礼貌地询问客户是否收到报价，是否有问题或需要调整。",
    "ordered": "告诉客户订单已交给工厂，我们会及时通知生产进度。",
    "production": "向客户更新生产进度，完成后会联系安排安装。",
    "install": "与客户确认安装的日期和时间。",
}
LOST_REASON = "跟进提醒：标记流失"


def follow_up_instruction(stage: str) -> str:
    return FOLLOW_UP_ZH.get(stage, "礼貌地跟进客户，询问是否还有需要。")


class FollowUpComposer(Protocol):
    """What the follow-up needs of ``core.drafts.draft_composer.DraftComposer`` (not in the row)."""

    async def compose(self, inquiry_id: int, instruction_zh: str, *, actor: str) -> int: ...


class ReminderActions:
    """Snooze, mark lost and draft the follow-up for one data folder."""

    def __init__(
        self,
        store: Store,
        reminders: ReminderService,
        stages: StageService,
        composer: Callable[[], FollowUpComposer],
    ) -> None:
        self.store = store
        self.reminders = reminders
        self.stages = stages
        self.composer = composer

    async def snooze(self, inquiry_id: int, working_days: int) -> datetime:
        if working_days not in SNOOZE_CHOICES:
            raise ValueError(f"snooze is {SNOOZE_CHOICES} working days, not {working_days}")
        return await self.reminders.snooze(inquiry_id, working_days)

    async def mark_lost(
        self, inquiry_id: int, *, triggered_by: str = "owner"
    ) -> StageChange | None:
        return await self.stages.advance_async(
            inquiry_id, "lost", reason=LOST_REASON, triggered_by=triggered_by
        )

    async def stage_of(self, inquiry_id: int) -> str | None:
        def _read(session: Session) -> str | None:
            inquiry = session.get(Inquiry, inquiry_id)
            return inquiry.stage if inquiry is not None else None

        return await self.store.read(_read)

    async def instruction_for(self, inquiry_id: int) -> str:
        return follow_up_instruction(await self.stage_of(inquiry_id) or "")

    async def draft_follow_up(self, inquiry_id: int, *, actor: str = "owner") -> int:
        """Compose the stage's follow-up; the new draft's id (pending approval, not sent)."""
        instruction = await self.instruction_for(inquiry_id)
        return int(await self.composer().compose(inquiry_id, instruction, actor=actor))
