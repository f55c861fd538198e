"""The ledger summed for the owner: calls, tokens and estimated cost by period, tier, purpose
and model, and what one inquiry costs.

The sums are the ledger's rows, added up (a test compares them with the rows exactly); the
cost of a row is the estimate written when the call was made (``core.llm.pricing``), so a price
change later does not rewrite history. ``prices`` shows the price each model used here is
estimated at, so he can see where a figure comes from.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import Inquiry, LLMCall, Message
from core.llm.pricing import price_of
from core.stats.periods import Period, find


@dataclass
class Tally:
    calls: int = 0
    failed: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    def add(self, row: LLMCall) -> None:
        self.calls += 1
        self.failed += 0 if row.ok else 1
        self.prompt_tokens += int(row.prompt_tokens or 0)
        self.completion_tokens += int(row.completion_tokens or 0)
        self.cost_usd += float(row.cost_usd or 0.0)

    def as_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["cost_usd"] = round(self.cost_usd, 6)
        return out


@dataclass
class CostReport:
    total: Tally = field(default_factory=Tally)
    by_period: dict[str, Tally] = field(default_factory=dict)
    by_tier: dict[int, Tally] = field(default_factory=dict)
    by_purpose: dict[str, Tally] = field(default_factory=dict)
    by_model: dict[str, Tally] = field(default_factory=dict)
    inquiries: int = 0  # inquiries any call of the period was made for (or for their mail)
    inquiry_cost_usd: float = 0.0  # what those calls cost
    new_inquiries: int = 0  # inquiries filed in the period

    @property
    def cost_per_inquiry_usd(self) -> float | None:
        return round(self.inquiry_cost_usd / self.inquiries, 6) if self.inquiries else None

    @property
    def cost_per_new_inquiry_usd(self) -> float | None:
        """Everything the AI cost in the period (mail that was no inquiry included), per new
        inquiry: what one customer inquiry really costs him."""
        if not self.new_inquiries:
            return None
        return round(self.total.cost_usd / self.new_inquiries, 6)

    def as_json(self) -> dict[str, Any]:
        return {
            "total": self.total.as_json(),
            "by_period": [{"period": k, **v.as_json()} for k, v in self.by_period.items()],
            "by_tier": [{"tier": k, **v.as_json()} for k, v in sorted(self.by_tier.items())],
            "by_purpose": [
                {"purpose": k, **v.as_json()} for k, v in sorted(self.by_purpose.items())
            ],
            "by_model": [{"model": k, **v.as_json()} for k, v in sorted(self.by_model.items())],
            "inquiries": self.inquiries,
            "cost_per_inquiry_usd": self.cost_per_inquiry_usd,
            "new_inquiries": self.new_inquiries,
            "cost_per_new_inquiry_usd": self.cost_per_new_inquiry_usd,
            "prices_usd_per_million_tokens": {
                model: {"input": price_of(model)[0], "output": price_of(model)[1]}
                for model in sorted(self.by_model)
            },
        }


def _inquiry_of_messages(session: Session, pks: list[int]) -> dict[int, int]:
    """The inquiry each message was filed to (a classify call knows only its message)."""
    out: dict[int, int] = {}
    for chunk in range(0, len(pks), 500):
        rows = session.execute(
            select(Message.id, Message.inquiry_id).where(
                Message.id.in_(pks[chunk : chunk + 500]), Message.inquiry_id.is_not(None)
            )
        )
        out.update({int(pk): int(iid) for pk, iid in rows if iid is not None})
    return out


def cost_report(session: Session, periods: list[Period]) -> CostReport:
    """Every ledger row inside ``periods`` (consecutive), summed each way."""
    report = CostReport(by_period={p.label: Tally() for p in periods})
    if not periods:
        return report
    rows = list(
        session.scalars(
            select(LLMCall)
            .where(LLMCall.at >= periods[0].start, LLMCall.at < periods[-1].end)
            .order_by(LLMCall.at, LLMCall.id)
        )
    )
    start, end = periods[0].start, periods[-1].end
    by_message = _inquiry_of_messages(session, [r.message_pk for r in rows if r.message_pk])
    report.new_inquiries = len(
        list(
            session.scalars(
                select(Inquiry.id).where(Inquiry.created_at >= start, Inquiry.created_at < end)
            )
        )
    )
    per_inquiry: dict[int, float] = {}
    for row in rows:
        period = find(periods, row.at)
        if period is None:
            continue
        report.total.add(row)
        report.by_period[period.label].add(row)
        report.by_tier.setdefault(int(row.tier), Tally()).add(row)
        report.by_purpose.setdefault(row.purpose or "?", Tally()).add(row)
        report.by_model.setdefault(row.model or "?", Tally()).add(row)
        inquiry_id = row.inquiry_id or by_message.get(row.message_pk or -1)
        if inquiry_id is not None:
            per_inquiry[inquiry_id] = per_inquiry.get(inquiry_id, 0.0) + float(row.cost_usd or 0)
    report.inquiries = len(per_inquiry)
    report.inquiry_cost_usd = sum(per_inquiry.values())
    return report
