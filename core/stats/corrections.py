"""Accuracy from real use: every correction he makes is a labelled example, counted per week.

What counts, from the audit trail (``audit_log``) and the drafts:

* a class he changed (``edit_field`` of ``classification`` by a person) against the inquiries
  the pipeline filed that week;
* a field he edited (name, email, phone, address, suburb, products, dimensions);
* a merge split — the app cannot split a merge yet, so this stays 0 and says so;
* a draft he rewrote before approving it, and how much: the characters his edits changed
  (``body_edit_chars``, recorded at each edit) over the length of the body the model wrote.

People are the owner, the CLI and Telegram; the pipeline, the assistant and OneDrive are not
corrections.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import CUSTOMER_FIELDS, AuditEntry, Draft, Inquiry
from core.stats.periods import Period, find

PEOPLE = ("owner", "cli", "telegram")
FIELDS = CUSTOMER_FIELDS  # the fields whose corrections count against the model


@dataclass
class WeekAccuracy:
    period: str
    inquiries_filed: int = 0
    classes_changed: int = 0
    fields_edited: int = 0
    merges_split: int = 0  # no split exists yet (core.app.attention)
    drafts_approved: int = 0
    drafts_rewritten: int = 0  # approved after he changed the model's body
    edit_chars: int = 0  # characters his edits changed, over the approved drafts
    model_chars: int = 0  # length of the model's bodies of those drafts

    @property
    def class_accuracy(self) -> float | None:
        if not self.inquiries_filed:
            return None
        return round(1 - min(self.classes_changed, self.inquiries_filed) / self.inquiries_filed, 4)

    @property
    def draft_edit_ratio(self) -> float | None:
        return round(self.edit_chars / self.model_chars, 4) if self.model_chars else None

    def as_json(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "class_accuracy": self.class_accuracy,
            "draft_edit_ratio": self.draft_edit_ratio,
        }


def _edits(session: Session, periods: list[Period]) -> list[AuditEntry]:
    return list(
        session.scalars(
            select(AuditEntry).where(
                AuditEntry.at >= periods[0].start,
                AuditEntry.at < periods[-1].end,
                AuditEntry.actor.in_(PEOPLE),
                AuditEntry.action == "edit_field",
                AuditEntry.entity == "inquiry",
            )
        )
    )


def _draft_rewrites(session: Session, draft_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Per draft: (characters his edits changed, length of the first body he edited)."""
    out: dict[int, tuple[int, int]] = {}
    if not draft_ids:
        return out
    rows = session.scalars(
        select(AuditEntry)
        .where(
            AuditEntry.entity == "draft",
            AuditEntry.action == "edit",
            AuditEntry.actor.in_(PEOPLE),
            AuditEntry.entity_id.in_(draft_ids),
        )
        .order_by(AuditEntry.at, AuditEntry.id)
    )
    for row in rows:
        detail = row.detail or {}
        if "body_edit_chars" not in detail or row.entity_id is None:
            continue
        changed, first = out.get(row.entity_id, (0, int(detail.get("body_chars_before") or 0)))
        out[row.entity_id] = (changed + int(detail["body_edit_chars"]), first)
    return out


def accuracy(session: Session, periods: list[Period]) -> list[WeekAccuracy]:
    weeks = {p.label: WeekAccuracy(p.label) for p in periods}
    if not periods:
        return []
    start, end = periods[0].start, periods[-1].end
    for created in session.scalars(
        select(Inquiry.created_at).where(Inquiry.created_at >= start, Inquiry.created_at < end)
    ):
        if (period := find(periods, created)) is not None:
            weeks[period.label].inquiries_filed += 1
    for entry in _edits(session, periods):
        field = (entry.detail or {}).get("field")
        if (period := find(periods, entry.at)) is None:
            continue
        if field == "classification":
            weeks[period.label].classes_changed += 1
        elif field in FIELDS:
            weeks[period.label].fields_edited += 1
    approved = list(
        session.execute(
            select(Draft.id, Draft.approved_at, Draft.body_en).where(
                Draft.approved_at.is_not(None), Draft.approved_at >= start, Draft.approved_at < end
            )
        )
    )
    rewrites = _draft_rewrites(session, [row.id for row in approved])
    for row in approved:
        if (period := find(periods, row.approved_at)) is None:
            continue
        week = weeks[period.label]
        week.drafts_approved += 1
        changed, first = rewrites.get(row.id, (0, 0))
        week.model_chars += first or len(row.body_en or "")
        if changed:
            week.drafts_rewritten += 1
            week.edit_chars += changed
    return list(weeks.values())
