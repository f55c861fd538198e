"""Sessions on disk: a conversation's turns, its current customer and its summary, in SQLite.

Why: the desktop keeps one conversation per day, Telegram one per chat and ``ask --session``
one per name; each must survive a restart ("回复他" tomorrow morning still means the customer
picked yesterday evening, if it is the same session). Every message of a turn is a row
(``assistant_turns``); the session row (``assistant_sessions``) holds the current customer and
what compression made of the oldest turns. Times come from the injected clock.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc, to_sydney
from core.db.models import AssistantSession, AssistantTurn, Inquiry
from core.services import Services

__all__ = ["SessionState", "SessionStore", "Turn", "today_name"]

SHOWN_TURNS = 40


def today_name(clock: Clock) -> str:
    """The desktop's session name for today: the Sydney date, ``2026-11-30`` (history per day)."""
    return to_sydney(clock.now()).strftime("%Y-%m-%d")


@dataclass
class Turn:
    """What one question caused, as chat messages: the owner's words first, the answer last."""

    number: int
    messages: list[dict[str, Any]]
    created_at: datetime | None = None


@dataclass
class SessionState:
    id: int
    channel: str
    name: str
    current_inquiry_id: int | None = None
    summary: str = ""
    summarised_through: int = 0
    reviewed_through: int = 0
    turns: list[Turn] = field(default_factory=list)


def _row_message(row: AssistantTurn) -> dict[str, Any]:
    if row.role == "assistant" and row.tool_calls:
        return {
            "role": "assistant",
            "content": row.content or None,
            "tool_calls": [
                {
                    "id": call["id"],
                    "type": "function",
                    "function": {"name": call["name"], "arguments": call["arguments"]},
                }
                for call in row.tool_calls
            ],
        }
    if row.role == "tool":
        calls = row.tool_calls or {}
        return {"role": "tool", "tool_call_id": calls.get("id"), "content": row.content}
    return {"role": row.role, "content": row.content}


def _message_row(message: dict[str, Any], tool_names: dict[str, str]) -> dict[str, Any]:
    """Columns for one chat message (``tool_names``: call id -> tool name, filled as we go)."""
    role = str(message.get("role"))
    content = str(message.get("content") or "")
    if role == "assistant" and message.get("tool_calls"):
        calls = []
        for call in message["tool_calls"]:
            function = call.get("function") or {}
            tool_names[str(call.get("id"))] = str(function.get("name"))
            calls.append(
                {
                    "id": call.get("id"),
                    "name": function.get("name"),
                    "arguments": function.get("arguments"),
                }
            )
        return {"role": role, "content": content, "tool_calls": calls}
    if role == "tool":
        call_id = str(message.get("tool_call_id"))
        return {
            "role": role,
            "content": content,
            "tool_calls": {"id": call_id, "name": tool_names.get(call_id, "")},
        }
    return {"role": role, "content": content, "tool_calls": None}


class SessionStore:
    """Reads and writes sessions; reads are small enough to do in place when a front end asks
    for its conversation, writes of a finished turn go through the store's writer thread."""

    def __init__(self, services: Services) -> None:
        self.services = services

    def _now(self) -> datetime:
        return naive_utc(self.services.clock.now())

    def open(self, channel: str, name: str) -> SessionState:
        """The session (created when new) with its turns: every turn not yet summarised, and at
        least the last ``SHOWN_TURNS`` (a front end shows them; a session that lives for months,
        such as a Telegram chat, does not load months of rows)."""
        now = self._now()

        def do(session: Session) -> SessionState:
            row = session.scalars(
                select(AssistantSession).where(
                    AssistantSession.channel == channel, AssistantSession.name == name
                )
            ).first()
            if row is None:
                row = AssistantSession(
                    channel=channel, name=name, summary="", summarised_through=0,
                    reviewed_through=0, created_at=now, updated_at=now,
                )  # fmt: skip
                session.add(row)
                session.flush()
            state = SessionState(
                row.id, channel, name, row.current_inquiry_id, row.summary or "",
                row.summarised_through, row.reviewed_through,
            )  # fmt: skip
            last = session.scalar(
                select(func.max(AssistantTurn.turn)).where(AssistantTurn.session_id == row.id)
            )
            floor = max(0, min(row.summarised_through, (last or 0) - SHOWN_TURNS))
            rows = session.scalars(
                select(AssistantTurn)
                .where(AssistantTurn.session_id == row.id, AssistantTurn.turn > floor)
                .order_by(AssistantTurn.turn, AssistantTurn.id)
            )
            for message in rows:
                if not state.turns or state.turns[-1].number != message.turn:
                    state.turns.append(Turn(message.turn, [], message.created_at))
                state.turns[-1].messages.append(_row_message(message))
            return state

        return self.services.store.write(do)

    async def append_turn(self, session_id: int, turn: Turn) -> None:
        """Write one finished turn (all its messages, one transaction)."""
        now = self._now()
        names: dict[str, str] = {}
        rows = [_message_row(m, names) for m in turn.messages]

        def do(session: Session) -> None:
            for row in rows:
                session.add(
                    AssistantTurn(session_id=session_id, turn=turn.number, created_at=now, **row)
                )
            found = session.get(AssistantSession, session_id)
            if found is not None:
                found.updated_at = now

        await self.services.store.run(do)

    def earlier(self, channel: str, name: str, before: str) -> SessionState | None:
        """The newest other session of ``name`` on ``channel`` — ``name`` itself (as it was
        named before days) or ``name@<day>`` — that is not ``before`` and has turns or notes:
        what a new day's conversation carries on from."""

        def find(session: Session) -> str | None:
            rows = session.scalars(
                select(AssistantSession)
                .where(
                    AssistantSession.channel == channel,
                    (AssistantSession.name == name) | AssistantSession.name.like(f"{name}@%"),
                    AssistantSession.name != before,
                )
                .order_by(AssistantSession.updated_at.desc(), AssistantSession.id.desc())
            )
            for row in rows:
                if row.summary or session.scalar(
                    select(func.count(AssistantTurn.id)).where(AssistantTurn.session_id == row.id)
                ):
                    return row.name
            return None

        with self.services.store.session() as session:
            found = find(session)
        return self.open(channel, found) if found is not None else None

    def set_current_inquiry(self, session_id: int, inquiry_id: int | None) -> None:
        self._update(session_id, current_inquiry_id=inquiry_id)

    async def save_summary(self, session_id: int, summary: str, through: int) -> None:
        await self.services.store.run(
            lambda s: self._apply(s, session_id, summary=summary, summarised_through=through)
        )

    async def mark_reviewed(self, session_id: int, through: int) -> None:
        await self.services.store.run(
            lambda s: self._apply(s, session_id, reviewed_through=through)
        )

    def _update(self, session_id: int, **values: object) -> None:
        self.services.store.write(lambda s: self._apply(s, session_id, **values))

    def _apply(self, session: Session, session_id: int, **values: object) -> None:
        row = session.get(AssistantSession, session_id)
        if row is None:
            return
        for key, value in values.items():
            setattr(row, key, value)
        row.updated_at = self._now()

    async def customer_name(self, inquiry_id: int) -> str | None:
        """The current customer's name (``None`` when the inquiry is gone)."""

        def read(session: Session) -> str | None:
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None:
                return None
            return inquiry.customer_name or inquiry.customer_email or f"#{inquiry_id}"

        return await self.services.store.read(read)


def flatten(turns: Iterable[Turn]) -> list[dict[str, Any]]:
    return [message for turn in turns for message in turn.messages]
