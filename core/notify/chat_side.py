"""What a feature of the bot may do in the owner's chat: reply, show typing, send a file.

Why a module of its own: the assistant's chat, the note-taker and the inquiry buttons each talk
back to the owner through the bot (``core.notify.bot.TelegramBot``), and tests hand them a fake.
The reply's options are one record (``ReplyOptions``), so the protocols name them once and the
bot's own signature is checked against them.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Protocol, TypedDict, Unpack


class ReplyOptions(TypedDict, total=False):
    """``reply``'s options: buttons, a plain-text fallback, the message answered."""

    markup: dict[str, Any] | None
    plain: str | None
    reply_to: int | None


class ReplyChat(Protocol):
    """Send to the owner (the message id, or None when no owner is paired)."""

    async def reply(self, text_html: str, **options: Unpack[ReplyOptions]) -> int | None: ...


class ChatSide(ReplyChat, Protocol):
    """The bot's side of the assistant's chat: send to the owner, show typing, send files."""

    def typing(self) -> contextlib.AbstractAsyncContextManager[None]: ...

    async def send_document(
        self, path: Path, filename: str, *, caption: str, content_type: str
    ) -> int | None: ...
