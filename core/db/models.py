"""The schema of the local store (SQLAlchemy 2 typed ORM on SQLite).

One table per thing the owner or the pipeline can point at. Times are UTC (naive in SQLite, UTC by
convention; ``core.clock.utc`` re-attaches the zone). JSON columns hold lists and small documents
that are always read whole (``Inquiry.context_data`` is the one-query customer context: thread
summary, stage history, notes). Every change to this file needs the matching Alembic migration
under ``migrations/versions`` (a test compares the two).
"""

from datetime import datetime
from typing import Any, TypeAlias

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# A value decoded from a JSON column that is not always an object (``app_state``'s values, a
# turn's tool calls): a dict, a list, a string, a number, a bool or None, narrowed where it is
# read. An alias of ``Any``, not a type: ``benchmarks/shape_counts.py`` counts each use as an
# ``Any`` (of a JSON payload).
JSONValue: TypeAlias = Any

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

STAGES = ("inquiry", "measure", "quoting", "follow_up", "ordered", "production", "install", "done")
CLOSED_STAGES = ("done", "lost")
ALL_STAGES = (*STAGES, "lost")
CLASSIFICATIONS = ("A", "B", "C")
# The customer facts an inquiry holds, in the order forms and reports list them: what intake
# extracts, what the owner corrects on the board, what the accuracy report counts (#43: one list,
# not three copies that could drift apart).
CUSTOMER_FIELDS = (
    "customer_name", "customer_email", "customer_phone", "address", "suburb", "product_types",
    "dimensions",
)  # fmt: skip
CONFIDENCES = ("high", "medium", "low")
DRAFT_STATUSES = (
    "draft", "pending_approval", "approved", "sending", "sent", "rejected", "failed", "superseded",
)  # fmt: skip
MEMORY_KINDS = ("boss_pref", "customer_note", "business_rule", "experience")
MEMORY_STATUSES = ("active", "proposed", "superseded", "expired", "retired")
TRIGGERS = ("pipeline", "owner", "agent", "onedrive")
QUOTE_STATUSES = ("draft", "sent", "accepted", "declined", "superseded", "expired")


# The board's trigram full-text index (migration 0003): an FTS5 virtual table and its shadow
# tables, kept by triggers, outside this metadata (the ORM cannot declare virtual tables).
SEARCH_INDEX = "inquiry_search"
# its PostgreSQL twin (0003): a pg_trgm GIN index on inquiries.search_text
SEARCH_INDEX_PG = "ix_inquiries_search_text_trgm"


SORT_INDEX_PREFIX = "ix_inquiries_sort_"  # the board's expression indexes (0015), not declared


def include_name(name: str | None, type_: str, _parent_names: object) -> bool:
    """Alembic autogenerate/compare filter: leave the search index's tables (and its
    PostgreSQL index, made by 0003 only where pg_trgm exists) and the sort indexes alone."""
    if type_ == "index" and (name == SEARCH_INDEX_PG or str(name).startswith(SORT_INDEX_PREFIX)):
        return False
    return not (type_ == "table" and name is not None and name.startswith(SEARCH_INDEX))


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON, list[str]: JSON}


class Inquiry(Base):
    __tablename__ = "inquiries"
    # "needs me" (tray count, board filter) from a narrow index, not the wide rows (0015)
    __table_args__ = (
        Index("ix_inquiries_needs_me", "stage", "classification", "owes_reply", "stage_changed_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    classification: Mapped[str] = mapped_column(String(1), default="A")
    confidence: Mapped[str] = mapped_column(String(8), default="low")
    stage: Mapped[str] = mapped_column(String(16), default="inquiry", index=True)
    stage_changed_at: Mapped[datetime] = mapped_column(DateTime)
    customer_name: Mapped[str | None] = mapped_column(String(200), index=True)
    customer_email: Mapped[str | None] = mapped_column(String(320), index=True)
    customer_phone: Mapped[str | None] = mapped_column(String(32), index=True)  # E.164
    address: Mapped[str | None] = mapped_column(String(400))
    suburb: Mapped[str | None] = mapped_column(String(120), index=True)
    product_types: Mapped[list[str]] = mapped_column(JSON, default=list)
    dimensions: Mapped[list[str]] = mapped_column(JSON, default=list)
    language: Mapped[str] = mapped_column(String(8), default="en")
    urgency: Mapped[str | None] = mapped_column(String(16))
    # who owes the next email: "us" (待我们回复) or "customer" (等客户回复)
    owes_reply: Mapped[str] = mapped_column(String(10), default="us")
    last_inbound_at: Mapped[datetime | None] = mapped_column(DateTime)
    last_outbound_at: Mapped[datetime | None] = mapped_column(DateTime)
    last_contact_at: Mapped[datetime | None] = mapped_column(DateTime, index=True)
    parent_inquiry_id: Mapped[int | None] = mapped_column(ForeignKey("inquiries.id"))
    drive_folder_id: Mapped[str | None] = mapped_column(String(200))
    drive_folder_name: Mapped[str | None] = mapped_column(String(400))
    # whole-customer context in one read: {"thread_summary": str, "stage_history": [...],
    # "notes": [...], "extracted": {...}}
    context_data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # lower-cased "name email digits-of-phone suburb" for one indexed LIKE search
    search_text: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime)

    messages: Mapped[list["Message"]] = relationship(back_populates="inquiry")
    stage_events: Mapped[list["StageEvent"]] = relationship(
        back_populates="inquiry", order_by="StageEvent.at"
    )


class InquiryPhone(Base):
    """Every E.164 number a customer has given, pointing at the inquiry.

    Why a table when ``context_data["phones"]`` already lists them: finding "the inquiry that
    has this second number" by scanning JSON (or a LIKE over search_text) cost ~40 ms per
    message at 50,000 inquiries; an indexed lookup costs microseconds. The JSON stays the
    customer's context; this is its index, written by the same merge code.
    """

    __tablename__ = "inquiry_phones"

    phone: Mapped[str] = mapped_column(String(32), primary_key=True)
    inquiry_id: Mapped[int] = mapped_column(ForeignKey("inquiries.id"), primary_key=True)


class Message(Base):
    """Every message the app has ever seen, with exactly one disposition.

    Identity: ``message_id`` (RFC 5322 Message-ID, synthesised from the raw bytes' hash when a
    message has none, aliased by a content fingerprint when a sender reuses one) and the id at
    its ``source`` (``source_id``: Graph's immutable id; ``imap:<folder>:<uidvalidity>:<uid>``
    for IMAP — each source's ids are namespaced, so one unique column serves them all). Both
    are unique, so a re-ingest, a Graph id change or an IMAP UIDVALIDITY change is a no-op.
    """

    __tablename__ = "messages"
    # the constraint keeps its 0001 name: migration 0007_message_source_id renamed the column in place
    __table_args__ = (UniqueConstraint("source_id", name="uq_messages_graph_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[str] = mapped_column(String(998), unique=True)
    source_id: Mapped[str | None] = mapped_column(String(400))
    source: Mapped[str] = mapped_column(String(16), default="eml")  # eml | graph | imap | demo
    source_ref: Mapped[str | None] = mapped_column(String(1000))  # file name / folder
    folder: Mapped[str] = mapped_column(String(16), default="inbox")  # inbox | sent
    direction: Mapped[str] = mapped_column(String(3), default="in")  # in | out
    conversation_id: Mapped[str | None] = mapped_column(String(400), index=True)
    in_reply_to: Mapped[str | None] = mapped_column(String(998))
    references: Mapped[list[str]] = mapped_column(JSON, default=list)
    from_addr: Mapped[str | None] = mapped_column(String(320), index=True)
    from_name: Mapped[str | None] = mapped_column(String(200))
    reply_to: Mapped[str | None] = mapped_column(String(320))
    to_addrs: Mapped[list[str]] = mapped_column(JSON, default=list)
    cc_addrs: Mapped[list[str]] = mapped_column(JSON, default=list)
    subject: Mapped[str] = mapped_column(Text, default="")
    received_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    body_text: Mapped[str] = mapped_column(Text, default="")  # new text after quote stripping
    body_full: Mapped[str] = mapped_column(Text, default="")  # whole decoded text
    body_html: Mapped[str | None] = mapped_column(Text)
    raw_size: Mapped[int] = mapped_column(Integer, default=0)
    raw_path: Mapped[str | None] = mapped_column(String(1000))
    parse_notes: Mapped[list[str]] = mapped_column(JSON, default=list)  # charset fallbacks…
    disposition: Mapped[str] = mapped_column(String(80), default="pending", index=True)
    classification: Mapped[str | None] = mapped_column(String(1))  # A/B/R/C
    confidence: Mapped[str | None] = mapped_column(String(8))
    labels: Mapped[list[str]] = mapped_column(JSON, default=list)  # multi-label classes
    extracted: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text)
    inquiry_id: Mapped[int | None] = mapped_column(ForeignKey("inquiries.id"), index=True)
    translation_zh: Mapped[str | None] = mapped_column(Text)  # cached 翻译
    categories: Mapped[list[str]] = mapped_column(JSON, default=list)  # Outlook categories
    removed_at: Mapped[datetime | None] = mapped_column(DateTime)  # Graph @removed
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)

    inquiry: Mapped[Inquiry | None] = relationship(back_populates="messages")
    attachments: Mapped[list["Attachment"]] = relationship(
        back_populates="message", cascade="all, delete-orphan"
    )


class Attachment(Base):
    """A file: one that arrived with a message (``message_pk``), or one the owner added to a
    reply from his own computer (``message_pk`` NULL, ``inquiry_id`` set, ``added_by`` owner)."""

    __tablename__ = "attachments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_pk: Mapped[int | None] = mapped_column(ForeignKey("messages.id"), index=True)
    # an owner-added file belongs to the inquiry directly (migration 0004)
    inquiry_id: Mapped[int | None] = mapped_column(ForeignKey("inquiries.id"), index=True)
    added_by: Mapped[str | None] = mapped_column(String(32))  # owner | None (arrived by mail)
    added_at: Mapped[datetime | None] = mapped_column(DateTime)
    filename: Mapped[str] = mapped_column(String(500))
    content_type: Mapped[str] = mapped_column(String(200), default="application/octet-stream")
    size: Mapped[int] = mapped_column(Integer, default=0)
    sha256: Mapped[str | None] = mapped_column(String(64))
    stored_path: Mapped[str | None] = mapped_column(String(1000))  # None: over cap / not fetched
    skipped_reason: Mapped[str | None] = mapped_column(String(200))
    graph_attachment_id: Mapped[str | None] = mapped_column(String(400))
    is_inline: Mapped[bool] = mapped_column(Boolean, default=False)

    message: Mapped[Message | None] = relationship(back_populates="attachments")


class StageEvent(Base):
    """Audit of every stage change: {from, to, at, reason, triggered_by}."""

    __tablename__ = "stage_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    inquiry_id: Mapped[int] = mapped_column(ForeignKey("inquiries.id"), index=True)
    from_stage: Mapped[str | None] = mapped_column(String(16))
    to_stage: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(DateTime)
    reason: Mapped[str] = mapped_column(Text, default="")
    triggered_by: Mapped[str] = mapped_column(String(16))  # pipeline|owner|agent|onedrive

    inquiry: Mapped[Inquiry] = relationship(back_populates="stage_events")


class AuditEntry(Base):
    """Every other audited change: field edits, draft transitions, sign-in, pairing…"""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    entity: Mapped[str] = mapped_column(String(32), index=True)  # inquiry | draft | note | …
    entity_id: Mapped[int | None] = mapped_column(Integer, index=True)
    action: Mapped[str] = mapped_column(String(64))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    actor: Mapped[str] = mapped_column(String(32))  # owner|pipeline|agent|onedrive|telegram|cli
    at: Mapped[datetime] = mapped_column(DateTime, index=True)


class LLMCall(Base):
    """The ledger: every model call, successful or not."""

    __tablename__ = "llm_calls"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime, index=True)
    tier: Mapped[int] = mapped_column(Integer)
    model: Mapped[str] = mapped_column(String(200))
    purpose: Mapped[str] = mapped_column(String(64))  # classify | extract | draft | translate…
    prompt_tokens: Mapped[int] = mapped_column(Integer, default=0)
    completion_tokens: Mapped[int] = mapped_column(Integer, default=0)
    latency_ms: Mapped[int] = mapped_column(Integer, default=0)
    cost_usd: Mapped[float] = mapped_column(Float, default=0.0)
    ok: Mapped[bool] = mapped_column(Boolean, default=True)
    error: Mapped[str | None] = mapped_column(Text)
    message_pk: Mapped[int | None] = mapped_column(Integer)
    inquiry_id: Mapped[int | None] = mapped_column(Integer)
    draft_id: Mapped[int | None] = mapped_column(Integer)


class SyncCursor(Base):
    """Delta links, Telegram offset and other resumable positions, written only after the
    data they cover is committed."""

    __tablename__ = "sync_cursors"

    name: Mapped[str] = mapped_column(String(200), primary_key=True)  # e.g. graph:mail:inbox
    value: Mapped[str | None] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class AppState(Base):
    """Small non-secret key/value state (Telegram pairing chat, first-run done, …)."""

    __tablename__ = "app_state"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    value: Mapped[JSONValue] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class Draft(Base):
    __tablename__ = "drafts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    inquiry_id: Mapped[int | None] = mapped_column(ForeignKey("inquiries.id"), index=True)
    status: Mapped[str] = mapped_column(String(20), default="draft", index=True)
    to_addrs: Mapped[list[str]] = mapped_column(JSON, default=list)
    cc_addrs: Mapped[list[str]] = mapped_column(JSON, default=list)
    subject: Mapped[str] = mapped_column(Text, default="")
    body_en: Mapped[str] = mapped_column(Text, default="")
    body_zh: Mapped[str] = mapped_column(Text, default="")
    # the fingerprint of the English body_zh translates (core.drafts.translation.zh_stamp)
    zh_source: Mapped[str | None] = mapped_column(String(64))
    instruction: Mapped[str] = mapped_column(Text, default="")
    unconfirmed_facts: Mapped[list[str]] = mapped_column(JSON, default=list)
    confirmed_facts: Mapped[list[str]] = mapped_column(JSON, default=list)
    attachment_ids: Mapped[list[int]] = mapped_column(JSON, default=list)
    reply_to_message_pk: Mapped[int | None] = mapped_column(ForeignKey("messages.id"))
    outlook_draft_id: Mapped[str | None] = mapped_column(String(400))
    internet_message_id: Mapped[str | None] = mapped_column(String(998))
    revision_of: Mapped[int | None] = mapped_column(ForeignKey("drafts.id"))
    batch_id: Mapped[str | None] = mapped_column(String(64), index=True)
    error: Mapped[str | None] = mapped_column(Text)
    created_by: Mapped[str] = mapped_column(String(32), default="owner")
    approved_by: Mapped[str | None] = mapped_column(String(32))
    approved_at: Mapped[datetime | None] = mapped_column(DateTime)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class Quote(Base):
    """One version of a quote on an inquiry (migration 0009): line items with their money as
    strings of cents-exact decimals (JSON has no Decimal), the totals computed by
    ``core.quotes.money`` when the version was made, and the reply draft that carries its PDF.
    A version is never edited: a change is a new version, which supersedes an unsent older one."""

    __tablename__ = "quotes"
    __table_args__ = (UniqueConstraint("inquiry_id", "version"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    inquiry_id: Mapped[int] = mapped_column(ForeignKey("inquiries.id"), index=True)
    number: Mapped[str] = mapped_column(String(32))  # Q-<inquiry id>, one per inquiry
    version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="draft", index=True)
    items: Mapped[list[Any]] = mapped_column(JSON, default=list)
    subtotal_ex_gst: Mapped[str] = mapped_column(String(24))
    gst: Mapped[str] = mapped_column(String(24))
    total_inc_gst: Mapped[str] = mapped_column(String(24))
    deposit_percent: Mapped[int] = mapped_column(Integer)
    deposit_inc_gst: Mapped[str] = mapped_column(String(24))
    valid_until: Mapped[str] = mapped_column(String(10))  # ISO date, Sydney
    terms: Mapped[str] = mapped_column(Text, default="")
    instruction: Mapped[str] = mapped_column(Text, default="")  # his words (``--instruction``)
    unconfirmed_facts: Mapped[list[str]] = mapped_column(JSON, default=list)
    draft_id: Mapped[int | None] = mapped_column(ForeignKey("drafts.id"), index=True)
    attachment_id: Mapped[int | None] = mapped_column(ForeignKey("attachments.id"))
    created_by: Mapped[str] = mapped_column(String(32), default="owner")
    created_at: Mapped[datetime] = mapped_column(DateTime)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime)
    accepted_at: Mapped[datetime | None] = mapped_column(DateTime)


class Visit(Base):
    """A measuring visit he confirmed (migration 0014): the app's own calendar -- an IMAP user's
    only one -- and, with its slots, what refuses a second visit in the same time."""

    __tablename__ = "visits"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    inquiry_id: Mapped[int] = mapped_column(ForeignKey("inquiries.id"), index=True)
    start_at: Mapped[datetime] = mapped_column(DateTime, index=True)  # UTC
    end_at: Mapped[datetime] = mapped_column(DateTime)
    status: Mapped[str] = mapped_column(String(12), default="booked", index=True)
    event_id: Mapped[str | None] = mapped_column(String(400))  # the Outlook event, if any
    confirmation_draft_id: Mapped[int | None] = mapped_column(ForeignKey("drafts.id"))
    reminder_draft_id: Mapped[int | None] = mapped_column(ForeignKey("drafts.id"))
    created_by: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime)


class VisitSlot(Base):
    """A quarter hour a booked visit holds: the primary key refuses a second booking of it."""

    __tablename__ = "visit_slots"

    slot_at: Mapped[datetime] = mapped_column(DateTime, primary_key=True)  # UTC, :00/:15/:30/:45
    visit_id: Mapped[int] = mapped_column(ForeignKey("visits.id"), index=True)


class DraftEvent(Base):
    """Audit of every draft transition, with who and when."""

    __tablename__ = "draft_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    draft_id: Mapped[int] = mapped_column(ForeignKey("drafts.id"), index=True)
    from_status: Mapped[str | None] = mapped_column(String(20))
    to_status: Mapped[str] = mapped_column(String(20))
    actor: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(DateTime)
    note: Mapped[str] = mapped_column(Text, default="")


class Memory(Base):
    """Notes and memories: boss_pref, customer_note, business_rule, experience.

    Tidied by status (active → superseded/expired), never silently deleted.
    """

    __tablename__ = "memories"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), index=True)
    inquiry_id: Mapped[int | None] = mapped_column(ForeignKey("inquiries.id"), index=True)
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(32))  # desktop | voice | telegram | agent | cli
    audio_path: Mapped[str | None] = mapped_column(String(1000))
    confidence: Mapped[str] = mapped_column(String(8), default="high")
    status: Mapped[str] = mapped_column(String(12), default="active", index=True)
    superseded_by: Mapped[int | None] = mapped_column(ForeignKey("memories.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)
    # where it came from: the conversation's channel (desktop | telegram | cli), when a
    # conversation proposed it; ``source`` says who (agent, voice, desktop…)
    channel: Mapped[str | None] = mapped_column(String(20))
    # a short-term memory ("下周二上门"): after this instant (UTC) it is ``expired``
    expires_at: Mapped[datetime | None] = mapped_column(DateTime, index=True)
    seen_count: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime)  # a duplicate merged in
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime)
    last_used_in: Mapped[str | None] = mapped_column(
        String(60)
    )  # "draft:12" | "assistant:telegram"


class WriteProposal(Base):
    """A write the assistant asked for in a turn that read customer mail, which the owner's own
    words did not ask for: kept until he confirms or drops it (``core.agent.proposals``)."""

    __tablename__ = "write_proposals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))  # stage | note | folder
    tool: Mapped[str] = mapped_column(String(60))
    inquiry_id: Mapped[int | None] = mapped_column(ForeignKey("inquiries.id"))
    arguments: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    summary_zh: Mapped[str] = mapped_column(Text, default="")
    owner_words: Mapped[str] = mapped_column(Text, default="")
    channel: Mapped[str] = mapped_column(String(20), default="cli")
    status: Mapped[str] = mapped_column(String(12), default="open", index=True)
    result: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime)
    decided_by: Mapped[str | None] = mapped_column(String(32))


class Notification(Base):
    """The persistent outbox of alerts: shown in the tray and mirrored to Telegram.

    ``dedup_key`` makes raising the same alert twice a no-op, so a restart never sends twice.
    """

    __tablename__ = "notifications"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    dedup_key: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(32))  # new_inquiry|draft_pending|overdue|sync_problem
    title: Mapped[str] = mapped_column(Text)  # Chinese
    body_md: Mapped[str] = mapped_column(Text, default="")  # Markdown, Chinese
    ref_type: Mapped[str | None] = mapped_column(String(32))
    ref_id: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    tray_shown_at: Mapped[datetime | None] = mapped_column(DateTime)
    read_at: Mapped[datetime | None] = mapped_column(DateTime)
    telegram_status: Mapped[str] = mapped_column(String(12), default="pending", index=True)
    telegram_attempts: Mapped[int] = mapped_column(Integer, default=0)
    telegram_next_at: Mapped[datetime | None] = mapped_column(DateTime)
    telegram_sent_at: Mapped[datetime | None] = mapped_column(DateTime)
    telegram_message_ids: Mapped[list[int]] = mapped_column(JSON, default=list)
    telegram_error: Mapped[str | None] = mapped_column(Text)


class DriveItem(Base):
    """OneDrive items tracked by id; paths are rebuilt locally from parent ids."""

    __tablename__ = "drive_items"

    id: Mapped[str] = mapped_column(String(200), primary_key=True)
    name: Mapped[str] = mapped_column(String(400))
    parent_id: Mapped[str | None] = mapped_column(String(200), index=True)
    is_folder: Mapped[bool] = mapped_column(Boolean, default=False)
    deleted: Mapped[bool] = mapped_column(Boolean, default=False)
    size: Mapped[int] = mapped_column(Integer, default=0)
    mime_type: Mapped[str | None] = mapped_column(String(200))
    web_url: Mapped[str | None] = mapped_column(String(2000))
    etag: Mapped[str | None] = mapped_column(String(200))
    last_modified: Mapped[datetime | None] = mapped_column(DateTime)
    inquiry_id: Mapped[int | None] = mapped_column(ForeignKey("inquiries.id"), index=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class AssistantSession(Base):
    """A named conversation with the assistant on one channel, kept so a restart continues it.

    The desktop names its conversation after the Sydney date (history per day), Telegram after
    the chat, ``ask --session NAME`` after what the owner typed. ``summary`` holds what the
    cheap tier made of the oldest turns (turns up to ``summarised_through``); later turns are
    read from ``assistant_turns``. ``reviewed_through`` is the last turn the after-conversation
    memory pass has read, so no turn is proposed twice.
    """

    __tablename__ = "assistant_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel: Mapped[str] = mapped_column(String(20))
    name: Mapped[str] = mapped_column(String(100))
    # no foreign key: a merge may fold the inquiry away; a stale id reads as "no customer"
    current_inquiry_id: Mapped[int | None] = mapped_column(Integer)
    summary: Mapped[str] = mapped_column(Text, default="")
    summarised_through: Mapped[int] = mapped_column(Integer, default=0)
    reviewed_through: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class AssistantTurn(Base):
    """One message of a session: the owner's words, a tool call, a tool result, an answer.

    ``turn`` groups what one question caused (1, 2, …). ``tool_calls`` is the assistant
    message's calls (``[{id, name, arguments}]``) or, on a ``tool`` row, ``{id, name}`` of the
    call it answers. ``content`` of an ``assistant`` answer is what the owner read (after the
    assertion guard).
    """

    __tablename__ = "assistant_turns"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("assistant_sessions.id"), index=True)
    turn: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(12))  # user | assistant | tool
    content: Mapped[str] = mapped_column(Text, default="")
    tool_calls: Mapped[JSONValue] = mapped_column(JSON, nullable=True)  # list, or one dict
    created_at: Mapped[datetime] = mapped_column(DateTime)


class OwedWrite(Base):
    """A write the app owes a remote service, queued with the change that causes it.

    A stage changed in the app owes OneDrive a folder move (``kind="drive_move"``) and Outlook
    the stage category on the customer's messages (``outlook_categories``); the row is added
    in the stage change's own transaction, so a crash or a process without a watcher (``ask``,
    the CLI, the Telegram runner) cannot forget it. Whichever process next talks to
    Graph claims it (``claimed_until``: a lease, so two processes never do it twice and a killed
    one's claim expires), does it, and closes it with an ``outcome``; an outage leaves it
    ``pending`` with the error for the next round. Rows are kept (the audit of what was owed).
    """

    __tablename__ = "owed_writes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))  # drive_move | outlook_categories
    inquiry_id: Mapped[int | None] = mapped_column(Integer, index=True)  # no FK: merges fold
    status: Mapped[str] = mapped_column(String(16), default="pending")  # pending|done|failed
    reason: Mapped[str] = mapped_column(Text, default="")  # what caused it (the stage change)
    outcome: Mapped[str] = mapped_column(Text, default="")  # what was done, or why nothing
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime)
    done_at: Mapped[datetime | None] = mapped_column(DateTime)


Index("ix_messages_in_reply_to", Message.in_reply_to)
# covering index for the board's search: the stage bar counts and the matching ids come from a
# narrow index scan instead of reading 50,000 wide rows (core/inquiry/board.py)
Index("ix_inquiries_stage_search", Inquiry.stage, Inquiry.search_text)
Index(
    "ix_assistant_sessions_channel_name",
    AssistantSession.channel,
    AssistantSession.name,
    unique=True,
)
Index("ix_owed_writes_status_kind", OwedWrite.status, OwedWrite.kind)


class RunnerLease(Base):
    """Who runs the background work of this store (``core.db.lease``): one row per lease name,
    taken and renewed by conditional UPDATEs checked by their row count, so at most one process
    holds it on SQLite and PostgreSQL alike. ``holder`` is NULL while nobody does."""

    __tablename__ = "runner_lease"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    holder: Mapped[str | None] = mapped_column(String(64))  # a token per process run
    pid: Mapped[int | None] = mapped_column(Integer)
    host: Mapped[str | None] = mapped_column(String(255))
    kind: Mapped[str | None] = mapped_column(String(16))  # serve | desktop
    since: Mapped[datetime | None] = mapped_column(DateTime)
    heartbeat_at: Mapped[datetime | None] = mapped_column(DateTime)
    # what each piece of background work is doing, written with every heartbeat
    pieces: Mapped[dict[str, str] | None] = mapped_column(JSON)
