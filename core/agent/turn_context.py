"""What changes from turn to turn — the time and the current customer — as the head of the
newest owner message.

Why here and not in the system prompt or an earlier data message: the provider caches the
longest prompt prefix it has seen, so everything before the newest message must be the bytes it
was the turn before. The per-turn facts therefore ride in the newest user message, which is
stored exactly as sent and so becomes part of the stable history of the next turn.

The message as sent (and stored)::

    [current inquiry: #12]          (only when there is a current customer)
    <context>
    Now: 2026-12-02 Wednesday 14:05 (Sydney time). Current customer: inquiry #12, Bob Steward
    What the owner told you about Bob Steward (…):   (once, while no kept turn carries them)
    "预算有限"
    Standing preferences the owner confirmed since …:   (once, when he confirmed one today)
    </context>
    the owner's own words

``owner_words`` gives back the last part (what the owner typed) for transcripts and notes.
This module is the one place the current-customer line is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from core.clock import to_sydney
from core.llm.prompts import render
from core.provenance import FORWARD_MARK

OPEN, CLOSE = "<context>\n", "\n</context>\n"


@dataclass(frozen=True)
class Customer:
    """The conversation's current customer as the newest message names it."""

    inquiry_id: int
    name: str | None = None

    def line(self) -> str:
        return f"inquiry #{self.inquiry_id}" + (f", {self.name}" if self.name else "")


def memories_marker(customer: Customer) -> str:
    """The text that shows a message already carries this customer's memories."""
    return f"What the owner told you about {customer.line()} ("


def question(
    text: str,
    *,
    now: datetime,
    customer: Customer | None,
    memories: str = "",
    rules: str = "",
) -> str:
    """The newest user message: the marker line, the context block, then the owner's words."""
    when = to_sydney(now).strftime("%Y-%m-%d %A %H:%M")
    shown = customer.line() if customer is not None else "(none selected)"
    body = render("turn_context", now=when, customer=shown)
    if customer is not None and memories:
        body += "\n" + render("turn_memories", customer=customer.line(), memories=memories)
    if rules:
        body += "\n" + render("turn_rules", memories=rules)
    head = f"[current inquiry: #{customer.inquiry_id}]\n" if customer is not None else ""
    return f"{head}{OPEN}{body}{CLOSE}{text}"


def forwarded(text: str, origin: str) -> str:
    """A message the owner forwarded (``core.notify.forwards``) as the assistant reads it: data
    that ``origin`` wrote, never his instruction. It starts with ``FORWARD_MARK``, by which a
    later turn knows its history holds a stranger's words."""
    body = render("forwarded_message", origin=f"someone else ({origin})", text=text)
    assert body.startswith(FORWARD_MARK)
    return body


def owner_words(content: str) -> str:
    """The owner's own words of a user message (a message stored before this form: as is)."""
    if content.startswith(("[current inquiry: #", OPEN)) and CLOSE in content:
        return content.partition(CLOSE)[2]
    return content
