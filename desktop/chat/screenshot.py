"""The chat panel's conversation for ``inquiry-bridge screenshot --window chat`` (the main window
at 1366×768 with the assistant docked beside the board, built by ``desktop.screenshots``): a
short conversation rendered from data.

Nothing is asked of a model and nothing is written to the data folder: the transcript is
scripted here (in the UI language) around the customers on the board, the last turn caught
while the assistant is looking something up, so the picture shows every part of the panel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.app.types import tool_label
from desktop.chat.transcript import Entry
from desktop.i18n import current_language

if TYPE_CHECKING:
    from core.app.types import BoardRow
    from desktop.chat.panel import ChatPanel

SCRIPT_ZH = [
    ("user", "今天有哪些客户要回复？"),
    (
        "assistant",
        "有 **3** 位客户在等我们回复：\n\n"
        "1. **{0}** — 推拉门报价，已等 2 天\n"
        "2. **{1}** — 想约上门量尺\n"
        "3. **{2}** — 问淋浴房尺寸\n\n"
        "要先给 {0} 起草回复吗？",
    ),
    ("user", "给他回复，说下周二上门量尺"),
    (
        "assistant",
        "已为 **{0}** 起草英文回复（附中文对照）：\n\n"
        "> We can come and measure on site next Tuesday. Please let us know a time "
        "that suits you.\n\n"
        "草稿**待审批**，尚未发送。请在审批窗口确认后再发送。",
    ),
    ("drafts", ""),
    ("user", "{1} 的平面图在哪？"),
]
SCRIPT_EN = [
    ("user", "Which customers are waiting for a reply today?"),
    (
        "assistant",
        "**3** customers are waiting for our reply:\n\n"
        "1. **{0}** — sliding door quote, waiting 2 days\n"
        "2. **{1}** — wants an on-site measure\n"
        "3. **{2}** — asks about shower screen sizes\n\n"
        "Shall I draft a reply to {0} first?",
    ),
    ("user", "Reply to him: we can measure next Tuesday"),
    (
        "assistant",
        "Drafted an English reply to **{0}** (with the Chinese beside it):\n\n"
        "> We can come and measure on site next Tuesday. Please let us know a time "
        "that suits you.\n\n"
        "The draft **awaits your approval** and has not been sent.",
    ),
    ("drafts", ""),
    ("user", "Where is {1}'s floor plan?"),
]
FALLBACK_NAMES = ("Billy Chen", "Sarah Mitchell", "王伟")


def script_conversation(panel: ChatPanel, rows: Sequence[BoardRow]) -> None:
    """Show the scripted conversation on ``panel`` around the board's first customers
    (``rows``: the board's first rows; names made up where the board has fewer)."""
    names = [r.customer_name or r.customer_email or "" for r in rows[:3]]
    names = [n for n in names if n] + list(FALLBACK_NAMES[len(names) :])
    panel.set_customer(rows[0].id if rows else 12, names[0])
    zh = current_language() != "en"
    entries = [
        Entry(role, text.format(*names), (7,) if role == "drafts" else ())
        for role, text in (SCRIPT_ZH if zh else SCRIPT_EN)
    ]
    label_zh, label_en = tool_label("search_customers")
    panel.show_script(entries, label_zh if zh else label_en)
