"""How much text may flow through one assistant turn, in one place.

Why: a model that loops, or a customer mail built to make it echo itself, once produced an
answer that reached Telegram as 245 messages; a pasted mailbox as a question, or a tool that
returns every inquiry, costs tokens and time for nothing. Each flow has a cap; text over it is
cut at a line or word boundary with a note saying so (in Chinese where the owner reads it, in
English where only the model does). Telegram gets a summary: the head of the answer and a line
saying the whole answer is on the computer.
"""

from __future__ import annotations

__all__ = [
    "MAX_ANSWER_CHARS",
    "MAX_QUESTION_CHARS",
    "MAX_TOOL_RESULT_CHARS",
    "TELEGRAM_ANSWER_CHARS",
    "cap_answer",
    "cap_question",
    "cap_tool_result",
    "telegram_summary",
]

MAX_ANSWER_CHARS = 12_000  # what the owner reads of one answer (and what streams live)
MAX_QUESTION_CHARS = 4_000  # one question sent to the model
MAX_TOOL_RESULT_CHARS = 12_000  # one tool result sent back to the model
# three Telegram messages at most (one holds 4,096 characters, escaping included)
TELEGRAM_ANSWER_CHARS = 3 * 3_500


def _cut(text: str, limit: int) -> str:
    """``text[:limit]``, ending at the last line break or space in its final fifth if any."""
    head = text[:limit]
    for mark in ("\n", " ", "。", "，"):
        at = head.rfind(mark)
        if at >= limit * 4 // 5:
            return head[: at + 1].rstrip()
    return head


def cap_answer(text: str, limit: int = MAX_ANSWER_CHARS) -> str:
    """The answer as the owner may read it: at most ``limit`` characters plus the note."""
    if len(text) <= limit:
        return text
    return _cut(text, limit) + f"\n\n（回答过长，只显示前 {limit} 字。）"


def cap_question(text: str, limit: int = MAX_QUESTION_CHARS) -> str:
    """The owner's question as the model gets it (the owner keeps what he wrote)."""
    if len(text) <= limit:
        return text
    return _cut(text, limit) + f"\n[The owner's message was cut at {limit} characters.]"


def cap_tool_result(text: str, limit: int = MAX_TOOL_RESULT_CHARS) -> str:
    """A tool result as the model gets it; the note tells it to ask narrower questions."""
    if len(text) <= limit:
        return text
    more = len(text) - limit
    return (
        _cut(text, limit) + f"\n[TRUNCATED: {more} more characters not shown. "
        "Ask the tool a narrower question.]"
    )


def telegram_summary(answer: str, limit: int = TELEGRAM_ANSWER_CHARS) -> str:
    """What Telegram gets of a long answer: its head and where to read the rest."""
    if len(answer) <= limit:
        return answer
    return (
        _cut(answer, limit)
        + f"\n\n（回答共 {len(answer)} 字，这里只发了开头；完整内容请在电脑上的助手里查看。）"
    )
