"""The rows behind ``core.app.quote_acceptance``: the reply worth asking about, and the
proposal with its alert (loaded on the first merged reply, not when the App starts)."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session

from core.agent.proposals import propose
from core.db.models import Message, WriteProposal
from core.db.outbox_rows import outbox_row
from core.quotes.acceptance import SentQuote, has_cue, sent_quote
from core.text.render import md_escape

KIND = "quote_accept"


class Answer(BaseModel):
    """What the model proposes: does the mail accept, in which of the customer's words."""

    accepts: bool
    words: str


def title(quote: SentQuote) -> str:
    return f"客户接受了报价 {quote.number}，改为已下单?"


def candidate(
    session: Session, inquiry_id: int, message_pk: int, today: str
) -> tuple[SentQuote, str, str] | None:
    """(the sent quote, subject, new text) when asking is worth it, else None."""
    message = session.get(Message, message_pk)
    if message is None or message.inquiry_id != inquiry_id or not has_cue(message.body_text):
        return None
    quote = sent_quote(session, inquiry_id, today)
    if quote is None:
        return None
    return quote, message.subject or "", message.body_text


def file_proposal(
    session: Session, inquiry_id: int, message_pk: int, quote: SentQuote, words: str, now: datetime
) -> tuple[int, int] | None:
    """The proposal and its alert, once per quote version."""
    for earlier in session.scalars(
        select(WriteProposal).where(
            WriteProposal.kind == KIND, WriteProposal.inquiry_id == inquiry_id
        )
    ):
        if (earlier.arguments or {}).get("quote_id") == quote.id and earlier.status != "dropped":
            return None
    args = {"quote_id": quote.id, "number": quote.number, "version": quote.version,
            "words": words, "message_pk": message_pk}  # fmt: skip
    proposal_id = propose(
        session, kind=KIND, tool="quote_acceptance", inquiry_id=inquiry_id, args=args,
        owner_words="", channel="mail", now=now,
    )  # fmt: skip
    row = outbox_row(
        dedup_key=f"proposal:{proposal_id}",
        kind="proposal",
        title=title(quote),
        body_md=f"询盘 #{inquiry_id} · 客户原话：「{md_escape(words)}」\n\n"
        "确认后报价记为已接受，询盘改为「已下单」（定金待收）。",
        ref=("proposal", proposal_id),
        now=now,
    )
    session.add(row)
    session.flush()
    return proposal_id, row.id
