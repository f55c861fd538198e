"""What the drafting model sees, and the one tier-2 call that writes (or revises) a reply.

Python gathers the context — the inquiry record, its thread (Message rows, oldest first), the
owner's standing preferences and signature — and decides the recipient and the message to reply
to. The model only writes ``subject``, ``body_en`` and ``body_zh``; a recipient address never
comes from model output. Customer text goes into the prompt as delimited data.

The owner's standing memories — active ``Memory`` rows of kind ``boss_pref`` and
``business_rule``, plus what his memories say about *this customer* (any memory linked to one of
the customer's inquiries: "Billy 预算有限" told the assistant on Telegram) — go into the prompt as
delimited data next to the settings' style notes, so "always offer double glazing" said once (by
voice, Telegram or the assistant) shapes every later draft. The customer's come first, within
``MEMORY_BUDGET`` characters (``core.memory.recall``); expired ones are never read, and the
draft records which memories it read (``ComposeContext.memory_ids``). Their text also counts as evidence for the
fact guard: a value the owner stated as a standing rule is his own word (a memory the assistant
saved on its own is not, until he confirms it).

The guard's evidence is what people wrote: the owner's instruction, his edits of the record,
his confirmed memories, signature and settings, and the thread. The inquiry record itself is
*not* evidence — the pipeline (a model, maybe) filled it.

The owner's knowledge base (``core.knowledge``: his products, lead times, warranty, price
rules, standards) goes into the prompt too — whole while small, the parts matching the mail when
large — and, being his own writing, all of it is evidence: a lead time he wrote there is his word.

``ComposeContext.sources`` is also what the fact guard checks the body against, so the model and
the guard see the same evidence.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, field_validator
from sqlalchemy import select
from sqlalchemy.orm import Session

from core.config import Settings
from core.db.models import AuditEntry, Inquiry, Memory, Message
from core.drafts.zh_times import localise_times
from core.knowledge import SharedText, excerpt, knowledge_for
from core.knowledge.search import clean as clean_knowledge
from core.llm.completion import partial_string_field
from core.memory.recall import customer_memories, fit, standing_memories
from core.provenance import Text
from core.text.facts import source_keys

if TYPE_CHECKING:
    from core.llm.model import LedgerRefs, ModelClient

THREAD_MESSAGES = 12  # newest messages of a thread given to the model
MESSAGE_CHARS = 4000  # per message, so one pasted spec sheet cannot crowd out the rest
MEMORY_BUDGET = 6000  # characters of memories given to the model, the customer's first
MEMORY_CHARS = 600  # per memory
MEMORY_LABELS = {
    "boss_pref": "owner preference",
    "business_rule": "business rule",
    "customer_note": "note about this customer",
}


class DraftAnswer(BaseModel):
    """The model's structured answer for compose and revise."""

    subject: str = Field(description="Email subject line")
    body_en: str = Field(
        description="The email body to send (English unless the customer wrote Chinese)"
    )
    body_zh: str = Field(
        description="Faithful Simplified Chinese rendering of body_en for the owner"
    )

    @field_validator("body_zh")
    @classmethod
    def _chinese_times(cls, value: str) -> str:
        """Times and durations the model left in English, made Chinese (in code)."""
        return localise_times(value)


class ChineseRendering(BaseModel):
    """The model's answer when only the Chinese preview is re-rendered."""

    body_zh: str = Field(description="Faithful Simplified Chinese rendering of the email")

    @field_validator("body_zh")
    @classmethod
    def _chinese_times(cls, value: str) -> str:
        return localise_times(value)


@dataclass
class ComposeContext:
    """Everything one draft is written from (and checked against)."""

    inquiry_id: int | None
    recipient_email: str | None
    recipient_name: str | None
    thread_subject: str
    reply_to_message_pk: int | None
    reply_graph_id: str | None
    customer_language: str
    inquiry_text: str
    thread_text: str
    evidence: list[Text] = field(default_factory=list)  # people's words: owner's and thread
    memory_text: str = "(none)"  # the owner's standing memories, one per line
    memory_ids: list[int] = field(default_factory=list)  # the memories the prompt read
    knowledge: str = ""  # the owner's knowledge file, whole (the prompt gets an excerpt)

    def sources(self, *instructions: str) -> list[Text]:
        """The owner's instructions (his words) and the evidence, as the fact guard reads them."""
        return [*(Text.owner(i) for i in instructions), *self.evidence]


def reply_subject(subject: str) -> str:
    subject = (subject or "").strip()
    if not subject:
        return ""
    return subject if subject.lower().startswith(("re:", "回复:", "回复：")) else f"RE: {subject}"


def settings_evidence(settings: Settings) -> list[str]:
    """The owner's own words that may appear in any email (signature, company, addresses)."""
    return [
        settings.text("drafts.signature"),
        settings.text("drafts.style_notes"),
        settings.text("general.company_name"),
        settings.text("general.owner_name"),
        " ".join(settings.strings("general.owner_addresses")),
    ]


def with_knowledge(
    ctx: ComposeContext, settings: Settings, shared: SharedText | None = None
) -> ComposeContext:
    """Add the owner's knowledge file to ``ctx``: all of it is his word (evidence). ``shared``:
    the store's knowledge base on PostgreSQL (``DataPaths.shared``)."""
    ctx.knowledge = clean_knowledge(knowledge_for(settings.path.parent, shared).text())
    if ctx.knowledge:
        ctx.evidence = [*ctx.evidence, Text.owner(ctx.knowledge)]
        # scanned now, while the context is read: the guard, later in the single writer,
        # then finds the file's values remembered (a long file costs a second to scan)
        source_keys([ctx.knowledge], settings.text("general.phone_region") or "AU")
    return ctx


def knowledge_text(ctx: ComposeContext, *words: str) -> str:
    """The part of his knowledge this email's prompt gets (whole while small, else searched
    with the instruction's, the record's and the thread's terms)."""
    if not ctx.knowledge:
        return "(empty: the owner has not written his knowledge base yet)"
    got = excerpt(ctx.knowledge, "\n".join([*words, ctx.inquiry_text, ctx.thread_text]))
    if got.whole:
        return got.text
    return got.text or "(nothing in the owner's knowledge base matches this email)"


def _inquiry_text(inquiry: Inquiry) -> str:
    fields: dict[str, Any] = {
        "customer_name": inquiry.customer_name,
        "customer_email": inquiry.customer_email,
        "customer_phone": inquiry.customer_phone,
        "address": inquiry.address,
        "suburb": inquiry.suburb,
        "product_types": inquiry.product_types or [],
        "dimensions": inquiry.dimensions or [],
        "stage": inquiry.stage,
        "classification": inquiry.classification,
        "language": inquiry.language,
    }
    # a note kept as a memory (it has an id) reaches the prompt as a memory — only while it is
    # in use (not expired or retired); older notes without one are read from the record
    notes = list((inquiry.context_data or {}).get("notes") or [])
    notes = [n for n in notes if not (isinstance(n, dict) and n.get("id"))]
    if notes:
        fields["notes"] = [n.get("text") if isinstance(n, dict) else str(n) for n in notes][-10:]
    return json.dumps(
        {k: v for k, v in fields.items() if v not in (None, [], "")}, ensure_ascii=False, indent=1
    )


def _message_text(msg: Message) -> str:
    who = (
        "US (outgoing)"
        if msg.direction == "out"
        else f"CUSTOMER {msg.from_name or ''} <{msg.from_addr or ''}>"
    )
    body = (msg.body_text or msg.body_full or "").strip()[:MESSAGE_CHARS]
    return f"--- {msg.received_at:%Y-%m-%d %H:%M} UTC · {who}\nSubject: {msg.subject}\n\n{body}"


def with_memories(session: Session, ctx: ComposeContext) -> ComposeContext:
    """Add the owner's active standing memories (and what they say about this customer) to
    ``ctx``: the customer's first, then the standing rules newest first, within the budget."""
    about = customer_memories(session, ctx.inquiry_id)
    standing = standing_memories(session, ("boss_pref", "business_rule"))[::-1]
    rows = [m for m in fit([*about, *standing], MEMORY_BUDGET) if m.text.strip()]
    linked = {m.id for m in about}

    def label(m: Memory) -> str:
        return "note about this customer" if m.id in linked else MEMORY_LABELS.get(m.kind, m.kind)

    lines = [f"- [{label(m)}] {' '.join(m.text.split())[:MEMORY_CHARS]}" for m in rows]
    ctx.memory_text = "\n".join(lines) if lines else "(none)"
    ctx.memory_ids = [m.id for m in rows]
    ctx.evidence = [*ctx.evidence, *(Text.owner(m.text) for m in rows if is_owner_words(m))]
    return ctx


MODEL_ACTORS = frozenset({"pipeline", "agent"})  # who writes without being a person
# where a stranger's words were kept as a note: a Telegram forward (``core.notify.forwards``)
STRANGER_SOURCES = frozenset({"forwarded"})


def is_owner_words(memory: Memory) -> bool:
    """A memory is the owner's word when he wrote or said it, or confirmed the assistant's
    proposal (``confidence="high"``); what the assistant saved on its own is not evidence, and
    neither is a note he kept of someone else's words (a forwarded message)."""
    if memory.source in STRANGER_SOURCES:
        return False
    return memory.source not in MODEL_ACTORS or memory.confidence == "high"


def owner_record_evidence(session: Session, inquiry_id: int) -> list[str]:
    """The values the owner himself typed into this inquiry's record (audited field edits).

    The record's other values were filled by the pipeline — by a model, maybe — and are not
    evidence: the customer's own words are in the thread, which the guard reads directly."""
    rows = session.scalars(
        select(AuditEntry).where(
            AuditEntry.entity == "inquiry",
            AuditEntry.entity_id == inquiry_id,
            AuditEntry.action == "edit_field",
            AuditEntry.actor.not_in(MODEL_ACTORS),
        )
    )
    out: list[str] = []
    for row in rows:
        new = (row.detail or {}).get("new")
        if isinstance(new, list):
            out.append(" ".join(str(v) for v in new))
        elif new not in (None, ""):
            out.append(str(new))
    return out


def load_context(
    session: Session, inquiry_id: int, settings: Settings, shared: SharedText | None = None
) -> ComposeContext:
    """The context of a reply to ``inquiry_id`` (raises LookupError for an unknown id)."""
    inquiry = session.get(Inquiry, inquiry_id)
    if inquiry is None:
        raise LookupError(f"询盘 {inquiry_id} 不存在")
    messages = list(
        session.scalars(
            select(Message)
            .where(Message.inquiry_id == inquiry_id, Message.removed_at.is_(None))
            .order_by(Message.received_at, Message.id)
        )
    )
    inbound = [m for m in messages if m.direction == "in"]
    latest_in = inbound[-1] if inbound else None
    recipient = inquiry.customer_email or (
        latest_in and (latest_in.reply_to or latest_in.from_addr)
    )
    recipient_name = inquiry.customer_name or (latest_in.from_name if latest_in else None)
    subject_source = latest_in or (messages[-1] if messages else None)
    language = inquiry.language or (latest_in and "en") or "en"
    thread = "\n\n".join(_message_text(m) for m in messages[-THREAD_MESSAGES:])
    # people's words only: the owner's edits and settings, then the thread (never model fields)
    evidence = [
        *map(Text.owner, owner_record_evidence(session, inquiry.id)),
        *map(Text.owner, settings_evidence(settings)),
    ]
    for m in messages:  # what the customer wrote; what we sent, the owner approved word by word
        said = Text.customer if m.direction == "in" else Text.owner
        evidence += [said(m.subject), said(m.body_full), said(m.body_text), said(m.from_addr)]
        evidence += [said(m.reply_to), said(" ".join(m.to_addrs or []))]
    evidence.append(Text.customer(recipient or ""))
    ctx = ComposeContext(
        inquiry_id=inquiry.id,
        recipient_email=(recipient or None),
        recipient_name=recipient_name,
        thread_subject=subject_source.subject if subject_source else "",
        reply_to_message_pk=latest_in.id if latest_in else None,
        reply_graph_id=(
            latest_in.source_id if latest_in is not None and latest_in.source == "graph" else None
        ),
        customer_language="zh" if language == "zh" else "en",
        inquiry_text=_inquiry_text(inquiry),
        thread_text=thread or "(no messages)",
        evidence=evidence,
    )
    return with_knowledge(with_memories(session, ctx), settings, shared)


def contact_context(
    contact: dict[str, str], settings: Settings, shared: SharedText | None = None
) -> ComposeContext:
    """The context of a batch email to one CSV contact (no thread: a fresh message)."""
    record = {k: v for k, v in contact.items() if v}
    text = json.dumps(record, ensure_ascii=False, indent=1)
    ctx = ComposeContext(
        inquiry_id=None,
        recipient_email=contact.get("email"),
        recipient_name=contact.get("name") or None,
        thread_subject="",
        reply_to_message_pk=None,
        reply_graph_id=None,
        customer_language="zh"
        if (contact.get("language") or "").lower().startswith("zh")
        else "en",
        inquiry_text=text,
        thread_text="(no earlier messages: this is the first email to this contact)",
        # the owner picked the CSV file: its rows are his words
        evidence=[Text.owner(text), *map(Text.owner, settings_evidence(settings))],
    )
    return with_knowledge(ctx, settings, shared)


def _common_vars(ctx: ComposeContext, settings: Settings, *words: str) -> dict[str, str]:
    return {
        "knowledge": knowledge_text(ctx, *words),
        "company_name": settings.text("general.company_name") or "our company",
        "style_notes": settings.text("drafts.style_notes") or "(none)",
        "signature": str(
            settings.text("drafts.signature")
            or "(no fixed signature: sign off with the company name)"
        ),
        "customer_language": ctx.customer_language,
        "inquiry": ctx.inquiry_text,
        "thread": ctx.thread_text,
        "memories": ctx.memory_text,
    }


# what the owner watches while a slow model writes: the email's English so far (#45)
Progress = Callable[[str], None]


def body_watcher(progress: Progress | None) -> Callable[[str], None] | None:
    """The streamed answer's raw pieces → ``progress`` with the email's text so far (its
    ``body_en`` decoded from the JSON still arriving), each time it grows; never the JSON."""
    if progress is None:
        return None
    raw = ""
    shown = ""

    def on_text(piece: str) -> None:
        nonlocal raw, shown
        raw += piece
        body = partial_string_field(raw, "body_en")
        if body is not None and body != shown:
            shown = body
            progress(body)

    return on_text


async def compose_answer(
    llm: ModelClient,
    ctx: ComposeContext,
    instruction: str,
    settings: Settings,
    refs: LedgerRefs,
    progress: Progress | None = None,
) -> DraftAnswer:
    return await _draft_call(
        llm,
        "draft",
        "draft_compose",
        {
            **_common_vars(ctx, settings, instruction),
            "instruction": instruction,
            "recipient_name": ctx.recipient_name or "",
            "recipient_email": ctx.recipient_email or "",
            "thread_subject": ctx.thread_subject or "(new email)",
        },
        refs,
        progress,
    )


async def revise_answer(
    llm: ModelClient,
    ctx: ComposeContext,
    *,
    previous_instruction: str,
    subject: str,
    body_en: str,
    instruction: str,
    settings: Settings,
    refs: LedgerRefs,
    progress: Progress | None = None,
) -> DraftAnswer:
    variables = {
        **_common_vars(ctx, settings, instruction, previous_instruction, body_en),
        "previous_instruction": previous_instruction,
        "subject": subject,
        "body_en": body_en,
        "instruction": instruction,
    }
    return await _draft_call(llm, "draft_revise", "draft_revise", variables, refs, progress)


async def _draft_call(
    llm: ModelClient,
    purpose: str,
    prompt: str,
    variables: Mapping[str, object],
    refs: LedgerRefs,
    progress: Progress | None,
) -> DraftAnswer:
    """The one drafting call (tier 2, the draft schema) with the English body streamed to
    ``progress`` as the model writes it."""
    return await llm.structured(
        tier=2,
        purpose=purpose,
        prompt=prompt,
        variables=variables,
        schema=DraftAnswer,
        refs=refs,
        on_text=body_watcher(progress),
    )


async def render_zh(llm: ModelClient, subject: str, body_en: str, refs: LedgerRefs) -> str:
    answer = await llm.structured(
        tier=2,
        purpose="draft_render_zh",
        prompt="draft_render_zh",
        variables={"subject": subject, "body_en": body_en},
        schema=ChineseRendering,
        refs=refs,
    )
    return answer.body_zh
