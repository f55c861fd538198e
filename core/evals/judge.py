"""The optional judge pass (tier 3): draft tone, politeness and hallucination types, reported only.

Why optional and never blocking: a model grading a model is a second opinion for the quality
report (``eval --judge``), not a guard — the fact guard and the assertion guard are code. For each
new inquiry of the eval run (up to ``limit``), a reply is drafted from one plain instruction
through the real drafting service, then a tier-3 call scores it (prompt ``judge_draft``). Any
failure is counted and the report goes on.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import select

from core.db.models import Draft, Inquiry, Message

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from core.app import App

INSTRUCTION = "感谢客户询价，告诉他我们会尽快安排报价或上门量尺，请他提供方便的时间。"
Hallucination = Literal[
    "invented_price",
    "invented_date_or_time",
    "invented_contact",
    "invented_product_or_size",
    "wrong_name",
    "promise",
    "other",
]


class JudgeAnswer(BaseModel):
    politeness: int = Field(ge=1, le=5)
    tone: int = Field(ge=1, le=5)
    hallucinations: list[Hallucination]
    comment: str


@dataclass
class JudgeReport:
    judged: int = 0
    failed: int = 0
    politeness: list[int] = field(default_factory=list)
    tone: list[int] = field(default_factory=list)
    hallucinations: Counter[str] = field(default_factory=Counter)
    flagged_by_guard: int = 0  # drafts the fact guard held for confirmation

    def as_dict(self) -> dict[str, Any]:
        return {
            "judged": self.judged,
            "failed": self.failed,
            "politeness_mean": _mean(self.politeness),
            "tone_mean": _mean(self.tone),
            "hallucinations": dict(self.hallucinations),
            "drafts_with_unconfirmed_facts": self.flagged_by_guard,
        }

    def line(self) -> str:
        kinds = ", ".join(f"{k} {v}" for k, v in self.hallucinations.most_common()) or "none"
        return (
            f"judge (tier 3, reported only): {self.judged} drafts, politeness "
            f"{_mean(self.politeness)}, tone {_mean(self.tone)} (1-5); hallucinations: {kinds}; "
            f"fact guard held {self.flagged_by_guard}; failed {self.failed}"
        )


def _mean(values: list[int]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def _draft_text(session: Session, draft_id: int) -> tuple[str, str, list[str]]:
    draft = session.get_one(Draft, draft_id)  # just composed (a miss fails this one judgement)
    return draft.subject, draft.body_en, list(draft.unconfirmed_facts or [])


async def judge_drafts(app: App, limit: int = 10) -> JudgeReport:
    """Draft and score up to ``limit`` replies with the App's composer (it writes drafts, it
    has no send) and its one model client."""
    services, llm = app._services, app.llm
    report = JudgeReport()
    composer = app.drafts.composer

    def targets(session: Session) -> list[tuple[int, str]]:
        rows = session.scalars(
            select(Inquiry).where(Inquiry.classification.in_(("A", "B"))).order_by(Inquiry.id)
        ).all()
        out = []
        for inquiry in rows[:limit]:
            msg = session.scalars(
                select(Message).where(Message.inquiry_id == inquiry.id).order_by(Message.id)
            ).first()
            out.append((inquiry.id, f"{msg.subject}\n\n{msg.body_text}" if msg else ""))
        return out

    for inquiry_id, customer in await services.store.read(targets):
        try:
            draft_id = await composer.compose(inquiry_id, INSTRUCTION, actor="owner")
            subject, body_en, unconfirmed = await services.store.read(
                partial(_draft_text, draft_id=draft_id)
            )
            answer = await llm.structured(
                tier=3,
                purpose="judge",
                prompt="judge_draft",
                variables={
                    "instruction": INSTRUCTION,
                    "customer": customer[:6000],
                    "draft": f"Subject: {subject}\n\n{body_en}",
                },
                schema=JudgeAnswer,
                refs={"inquiry_id": inquiry_id, "draft_id": draft_id},
            )
        except Exception:  # reported, never blocking
            report.failed += 1
            continue
        report.judged += 1
        report.politeness.append(answer.politeness)
        report.tone.append(answer.tone)
        report.hallucinations.update(answer.hallucinations)
        report.flagged_by_guard += 1 if unconfirmed else 0
    return report
