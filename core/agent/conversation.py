"""A conversation with the assistant: turns that remember the earlier ones, and what a front end
shows while a turn runs.

Every front end (the desktop chat panel, Telegram chat, ``ask --session``) talks to the assistant
through a ``Conversation`` from ``App.assistant``; none builds an ``Assistant`` itself. A turn
reports what it is doing as ``ChatEvent``s (a tool starting, text arriving, the end) so the panel
can show "正在查找客户…" and the Telegram bot can stay quiet until the answer is whole.

The current customer is the conversation's, not the turn's: the board's selection sets it, and
"回复他" in the next turn still means him. Cancelling a turn (the stop button) leaves the history as
it was before the turn began.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.agent.loop import Assistant, AssistantReply


@dataclass(frozen=True)
class ToolActivity:
    """A tool started; ``label_zh`` / ``label_en`` say what for, in a few words."""

    name: str
    label_zh: str
    label_en: str


@dataclass(frozen=True)
class TextDelta:
    """More of the answer's text (the whole answer at once when the model does not stream)."""

    text: str


@dataclass(frozen=True)
class TurnDone:
    """The turn ended: the checked answer and the drafts it wrote (ids, pending approval)."""

    reply: AssistantReply
    draft_ids: tuple[int, ...] = ()


ChatEvent = ToolActivity | TextDelta | TurnDone
EventSink = Callable[[ChatEvent], None]

TOOL_LABELS: dict[str, tuple[str, str]] = {
    "search_inquiries": ("正在查找客户…", "Looking up customers…"),
    "get_inquiry": ("正在读取询盘…", "Reading the inquiry…"),
    "pipeline_summary": ("正在统计各阶段…", "Counting the pipeline…"),
    "draft_reply": ("正在起草回复…", "Drafting a reply…"),
    "add_note": ("正在记笔记…", "Saving a note…"),
    "remember": ("正在记住…", "Remembering…"),
    "change_stage": ("正在更改阶段…", "Changing the stage…"),
}


def tool_label(name: str) -> tuple[str, str]:
    return TOOL_LABELS.get(name, ("正在处理…", "Working…"))


@dataclass
class Conversation:
    """One named conversation on one channel, with its history and current customer."""

    name: str
    channel: str
    assistant: Assistant
    current_inquiry_id: int | None = None
    history: list[dict[str, Any]] = field(default_factory=list)

    async def ask(self, text: str, *, on_event: EventSink | None = None) -> AssistantReply:
        """One turn. On cancellation the history is left as it was before the turn."""
        emit = on_event or (lambda _event: None)
        before = list(self.history)
        prompt = text
        if self.current_inquiry_id is not None:
            prompt = f"[current inquiry: #{self.current_inquiry_id}]\n{text}"
        try:
            reply = await self.assistant.ask(prompt, self.history)
        except asyncio.CancelledError:
            self.history = before
            raise
        for call in reply.tool_calls:
            emit(ToolActivity(call.name, *tool_label(call.name)))
        emit(TextDelta(reply.text))
        self.history = [
            *before,
            {"role": "user", "content": prompt},
            {"role": "assistant", "content": reply.text},
        ]
        emit(TurnDone(reply, _draft_ids(reply)))
        return reply


def _draft_ids(reply: AssistantReply) -> tuple[int, ...]:
    ids: list[int] = []
    for call in reply.tool_calls:
        if call.name != "draft_reply" or call.result.startswith("ERROR"):
            continue
        try:
            ids.append(int(json.loads(call.result)["draft_id"]))
        except (ValueError, KeyError, TypeError):
            continue
    return tuple(ids)
