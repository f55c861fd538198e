"""Where 需要您确认 items live: ``app_state`` rows keyed ``attention:<kind>:<ref>``.

The items themselves (kinds, recording, resolving) are ``core.rhythm.attention``; the board's
filter and its complaints-first order only need to find the open rows in SQL, so those queries
sit here, beside the table, where the inquiry package may reach them without importing rhythm.
"""

from __future__ import annotations

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from core.db.app_state import get_state
from core.db.dialect import json_int, json_text
from core.db.models import AppState

PREFIX = "attention:"


def open_complaint_ids_select() -> Select[int]:
    """Inquiries with an open complaint item: the board puts them first."""
    inquiry_id = json_int(AppState.value, "inquiry_id")
    return select(inquiry_id).where(
        AppState.key.startswith(PREFIX + "complaint:"),
        json_text(AppState.value, "status") == "open",
        inquiry_id.is_not(None),
    )


def open_complaint(session: Session, inquiry_id: int | None) -> str | None:
    """The reason of the inquiry's open complaint item (what every draft to that customer must
    show), or None: no complaint, or the owner has already dealt with it. Here, not in rhythm,
    so drafts and notify read it without importing the attention package."""
    if inquiry_id is None:
        return None
    value = get_state(session, f"{PREFIX}complaint:inquiry:{inquiry_id}") or {}
    if value.get("status") != "open":
        return None
    return str(value.get("detail") or "") or "客户可能在投诉或要求退款"


def open_inquiry_ids_select() -> Select[int]:
    """The same set in SQL, for the board's 需要您确认 filter (one query with its page)."""
    inquiry_id = json_int(AppState.value, "inquiry_id")
    return select(inquiry_id).where(
        AppState.key.startswith(PREFIX),
        json_text(AppState.value, "status") == "open",
        inquiry_id.is_not(None),
    )
