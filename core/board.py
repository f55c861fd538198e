"""The inquiry board moved to ``core.inquiry`` (``board``, ``search``, ``detail``).

This path stays while modules outside the inquiry package still import it
(core/agent/tools.py, core/intake/merge.py); new code imports ``core.inquiry.*``.
"""

from __future__ import annotations

from core.inquiry.board import (
    COLUMNS,
    BoardPage,
    BoardQuery,
    BoardRow,
    count_rows,
    fetch_row,
    fetch_rows,
    load_page,
    message_counts,
    needs_me_condition,
    needs_me_total,
    stage_counts,
)
from core.inquiry.detail import (
    AttachmentInfo,
    InquiryDetail,
    MessageInfo,
    NoteInfo,
    StageEventInfo,
    load_detail,
)
from core.inquiry.search import (
    build_search_text,
    has_search_index,
    phone_digit_forms,
    refresh_search_text,
    search_condition,
)
from core.inquiry.stages import ALL_STAGES, CLOSED_STAGES, STAGES

__all__ = [
    "ALL_STAGES",
    "CLOSED_STAGES",
    "COLUMNS",
    "STAGES",
    "AttachmentInfo",
    "BoardPage",
    "BoardQuery",
    "BoardRow",
    "InquiryDetail",
    "MessageInfo",
    "NoteInfo",
    "StageEventInfo",
    "build_search_text",
    "count_rows",
    "fetch_row",
    "fetch_rows",
    "has_search_index",
    "load_detail",
    "load_page",
    "message_counts",
    "needs_me_condition",
    "needs_me_total",
    "phone_digit_forms",
    "refresh_search_text",
    "search_condition",
    "stage_counts",
]
