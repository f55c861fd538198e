"""Which customer a memory is about: "Billy 预算有限" belongs to Billy's inquiry.

Why: a memory from a conversation carries no inquiry id, and a customer note nobody can find
again is a note never read. The customer is resolved here, in code, against the inquiries the
store knows: an inquiry number in the words ("#12", "询盘 12") or proposed by the model is taken
only when it exists and (when the words name anyone) names that customer; otherwise the
customer's full name, or a first name that only one customer has, picks the customer. Ambiguous
("Billy" when two customers are called Billy) links nothing — a wrong link would put one
customer's budget into another's email.

A customer is one person across inquiries: the same email address (or, without one, the same
name). ``customer_inquiry_ids`` gives every inquiry of the customer of an inquiry, so a memory
linked to his first inquiry is read when drafting for his second.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.db.models import Inquiry

__all__ = ["LINKED_KINDS", "customer_inquiry_ids", "resolve_customer"]

LINKED_KINDS = frozenset({"customer_note", "experience"})  # kinds that may be about one customer
_INQUIRY_REF = re.compile(r"(?:#|询盘\s*#?|inquiry\s*#?|enquiry\s*#?)\s*(\d{1,9})", re.IGNORECASE)
_CJK = re.compile(r"[\u3400-\u9fff]")


def _fold(text: str | None) -> str:
    return unicodedata.normalize("NFKC", text or "").casefold().strip()


def _identity(row: Inquiry) -> str:
    return _fold(row.customer_email or "") or f"name:{' '.join(_fold(row.customer_name).split())}"


def _says(text: str, name: str) -> bool:
    """``name`` occurs in ``text`` as a word (Latin) or as a run of characters (Chinese)."""
    if not name or len(name) < 2:
        return False
    if _CJK.search(name):
        return name in text
    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) is not None


def _score(text: str, customer_name: str) -> int:
    """2: the full name is in the words; 1: the first name (or a Chinese name) is; 0: neither."""
    name = " ".join(_fold(customer_name).split())
    if not name:
        return 0
    if " " in name and _says(text, name):
        return 2
    first = name.split()[0]
    if _says(text, first) or (" " not in name and _says(text, name)):
        return 1
    return 0


def _named(session: Session, text: str) -> list[tuple[int, Inquiry]]:
    rows = session.scalars(
        select(Inquiry).where(Inquiry.customer_name.is_not(None), Inquiry.customer_name != "")
    ).all()
    scored = [(_score(text, row.customer_name or ""), row) for row in rows]
    return [(score, row) for score, row in scored if score]


def _newest(rows: Iterable[Inquiry]) -> int:
    return max(rows, key=lambda r: (r.created_at or r.updated_at, r.id)).id


def resolve_customer(
    session: Session,
    text: str,
    *,
    customer_hint: str | None = None,
    inquiry_hint: int | None = None,
) -> int | None:
    """The inquiry (newest of the customer) that ``text`` is about, or ``None`` when it names no
    known customer or more than one could be meant. ``customer_hint`` / ``inquiry_hint`` are a
    model's proposal: checked, never trusted."""
    words = _fold(f"{text} {customer_hint or ''}")
    refs = [int(n) for n in _INQUIRY_REF.findall(words)]
    if inquiry_hint is not None:
        refs.append(int(inquiry_hint))
    named = _named(session, words)
    for ref in refs:
        inquiry = session.get(Inquiry, ref)
        if inquiry is None:
            continue
        # a number is taken when the words name nobody, or name this customer
        if not named or any(row.id == inquiry.id for _s, row in named):
            return inquiry.id
        if any(_identity(row) == _identity(inquiry) for _s, row in named):
            return inquiry.id
    if not named:
        return None
    best = max(score for score, _row in named)
    top = [row for score, row in named if score == best]
    identities = {_identity(row) for row in top}
    if len(identities) != 1:
        return None  # two customers answer to this name: ask, do not guess
    return _newest(top)


def customer_inquiry_ids(session: Session, inquiry_id: int) -> list[int]:
    """Every inquiry of the customer of ``inquiry_id`` (same email, or same name without one),
    ``inquiry_id`` first."""
    inquiry = session.get(Inquiry, inquiry_id)
    if inquiry is None:
        return [inquiry_id]
    if inquiry.customer_email:
        same = Inquiry.customer_email.is_not(None) & (
            func.lower(Inquiry.customer_email) == inquiry.customer_email.lower()
        )
    elif inquiry.customer_name:
        same = Inquiry.customer_email.is_(None) & (Inquiry.customer_name == inquiry.customer_name)
    else:
        return [inquiry_id]
    others = session.scalars(select(Inquiry.id).where(same, Inquiry.id != inquiry_id)).all()
    return [inquiry_id, *sorted(others)]


def customer_label(session: Session, inquiry_id: int | None) -> str:
    """ "Billy Smith (#3)" for the memory page and the prompts; "" without a link."""
    if inquiry_id is None:
        return ""
    inquiry = session.get(Inquiry, inquiry_id)
    if inquiry is None:
        return f"#{inquiry_id}"
    name = (inquiry.customer_name or inquiry.customer_email or "").strip()
    return f"{name} (#{inquiry_id})" if name else f"#{inquiry_id}"
