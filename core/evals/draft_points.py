"""``eval --drafts N``: replies drafted from an instruction with points, and how many missed one.

Why: a weak model wrote the customer's own mail back in the first person, without the Tuesday,
the 10 am or the request to confirm the address it was told to give (#45); the drafting guard
now flags such a draft (``core.drafts.instruction_points``), and this pass makes the weakness a
figure beside intake's accuracy. For each new A/B inquiry of the eval run (up to ``limit``) a
reply is drafted through the real composer from ``INSTRUCTION`` (a day, a time, a request) and
its flags are read: points missing from the English, and the parrot flag. Failures are counted,
never blocking.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from core.app.types import INSTRUCTION_MISSING, PARROT_FLAG
from core.db.models import Draft, Inquiry

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from core.app import App

INSTRUCTION = "谢谢他的询问，告诉他我们可以下周二上午10点上门量尺，请他确认地址"
_MISSING_PREFIX = INSTRUCTION_MISSING.split("{", 1)[0]


@dataclass
class DraftPointsReport:
    written: int = 0
    failed: int = 0
    missed: int = 0  # drafts that lack at least one point of the instruction
    parroted: int = 0  # drafts that mostly repeat the customer's mail
    points_missed: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        return {
            "instruction": INSTRUCTION,
            "written": self.written,
            "failed": self.failed,
            "missed_a_point": self.missed,
            "parroted": self.parroted,
            "points_missed": dict(self.points_missed),
        }

    def line(self) -> str:
        points = ", ".join(f"{k} {v}" for k, v in self.points_missed.most_common()) or "none"
        return (
            f"drafts: {self.written} written from an instruction with points, "
            f"{self.missed} missed an instruction point ({points}), {self.parroted} repeated "
            f"the customer's mail; failed {self.failed}"
        )


def _targets(session: Session, limit: int) -> list[int]:
    rows = session.scalars(
        select(Inquiry.id).where(Inquiry.classification.in_(("A", "B"))).order_by(Inquiry.id)
    )
    return list(rows)[:limit]


def _flags(session: Session, draft_id: int) -> list[str]:
    return list(session.get_one(Draft, draft_id).unconfirmed_facts or [])


async def check_drafts(app: App, limit: int = 5) -> DraftPointsReport:
    """Draft up to ``limit`` replies with the App's composer and count the guard's flags."""
    store = app._services.store
    report = DraftPointsReport()
    for inquiry_id in await store.read(lambda s: _targets(s, limit)):
        try:
            draft_id = await app.drafts.composer.compose(inquiry_id, INSTRUCTION, actor="owner")
            flags = await store.read(partial(_flags, draft_id=draft_id))
        except Exception:  # reported, never blocking
            report.failed += 1
            continue
        report.written += 1
        missing = [f.removeprefix(_MISSING_PREFIX) for f in flags if f.startswith(_MISSING_PREFIX)]
        report.missed += 1 if missing else 0
        report.points_missed.update(missing)
        report.parroted += 1 if PARROT_FLAG in flags else 0
    return report
