"""What the AI cost and how well it did, for the front ends (``stats``, the 成本与质量 page,
the weekly report): read-only sums over the store, built by the facade."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.services import Services

if TYPE_CHECKING:  # the figures' modules load when a figure is asked for, not at start
    from sqlalchemy.orm import Session

    from core.stats.corrections import WeekAccuracy
    from core.stats.costs import CostReport
    from core.stats.money import MoneyFigures
    from core.stats.periods import Period
    from core.stats.trade import Overview


@dataclass(frozen=True)
class Stats:
    """One view of the figures: by day over this week, or by week over the last weeks."""

    by: str  # "day" | "week"
    periods: list[Period]
    costs: CostReport
    accuracy: list[WeekAccuracy]
    money: MoneyFigures | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "by": self.by,
            "from": self.periods[0].start.isoformat() + "Z" if self.periods else None,
            "to": self.periods[-1].end.isoformat() + "Z" if self.periods else None,
            "costs": self.costs.as_json(),
            "accuracy": [week.as_json() for week in self.accuracy],
            "money": self.money.as_json() if self.money is not None else None,
        }


class StatsService:
    def __init__(self, services: Services) -> None:
        self._services = services

    async def figures(self, *, this_week: bool = False, weeks: int = 8) -> Stats:
        """This week by day (``this_week``), else the last ``weeks`` weeks by week."""
        from core.stats.corrections import accuracy
        from core.stats.costs import cost_report
        from core.stats.money import money_figures
        from core.stats.periods import days_of_week, last_weeks

        now = self._services.clock.now()
        periods = days_of_week(now) if this_week else last_weeks(now, weeks)
        weekly = last_weeks(now, 1) if this_week else periods

        def read(session: Session) -> Stats:
            return Stats(
                "day" if this_week else "week",
                periods,
                cost_report(session, periods),
                accuracy(session, weekly),
                money_figures(session, now),
            )

        return await self._services.store.read(read)

    async def money(self) -> MoneyFigures:
        """Pipeline value by stage, quotes sent and won this week and month, the win rate."""
        from core.stats.money import money_figures

        now = self._services.clock.now()
        return await self._services.store.read(lambda s: money_figures(s, now))

    async def overview(self, *, weeks: int = 12, months: int = 6) -> Overview:
        """The 概览 charts: inquiries and first-reply time per week, the funnel per month,
        working days per stage."""
        from core.stats.periods import last_months, last_weeks
        from core.stats.trade import overview

        now = self._services.clock.now()
        periods, labels = last_weeks(now, weeks), last_months(now, months)
        return await self._services.store.read(lambda s: overview(s, periods, labels))
