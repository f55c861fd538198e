"""A draft to a complaining customer never reaches the owner without its flag.

The ceramics seed learned it: a cheerful reply drafted to a customer who threatened a lawyer is
worse than no reply. The draft tools put ``escalation`` in their result, but the model may leave
it out of its answer, so, like the assertion guard's corrections, code adds the line after the
model's answer: for every draft a tool of this turn wrote whose inquiry has an open complaint
item (需要您确认 "complaint"), "⚠ 该客户在投诉：<reason>，请先看一下再批准" opens the answer
unless the answer already carries that line. First, not last: Telegram sends only the head of a
long answer, and he should read the flag before the draft's news. The reason quotes the
customer, so it is Markdown-escaped (customer text never becomes markup).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from core.db.attention_rows import open_complaint
from core.db.models import Draft
from core.drafts.view import escalation_line
from core.text.render import md_escape

if TYPE_CHECKING:
    from core.services import Services

_DRAFT_ID = re.compile(r'"draft_id":\s*(\d+)')


def drafted_ids(results: Iterable[str]) -> list[int]:
    """The draft ids a turn's draft-writing tool results name, in order."""
    found: list[int] = []
    for result in results:
        for match in _DRAFT_ID.finditer(result):
            if int(match.group(1)) not in found:
                found.append(int(match.group(1)))
    return found


def flag_lines(session: Session, draft_ids: Iterable[int]) -> list[str]:
    """One flag per complaining customer among the drafts (deduplicated)."""
    lines: list[str] = []
    for draft_id in draft_ids:
        draft = session.get(Draft, draft_id)
        reason = open_complaint(session, draft.inquiry_id) if draft is not None else None
        if reason and escalation_line(reason) not in lines:
            lines.append(escalation_line(reason))
    return lines


async def with_flags(services: Services, text: str, results: Iterable[str]) -> str:
    """``text`` with every missing flag put before it (the line the owner must read)."""
    ids = drafted_ids(results)
    if not ids:
        return text
    lines = await services.store.read(lambda s: flag_lines(s, ids))
    missing = [
        md_escape(line) for line in lines if line not in text and md_escape(line) not in text
    ]
    return "\n\n".join([*missing, text.strip()]) if missing else text
