"""DraftComposer: writes drafts (compose, a batch contact, revise) — and can do nothing else.

Whatever it writes lands in ``pending_approval``; it has no way to approve, reject or send
(those are ``OwnerDecisions``, handed only to the owner's own surfaces). That is why the
assistant's tools may hold one: a model that composes can only add to the owner's queue.

The recipient is Python's choice (the inquiry's customer, the CSV's address, the factory address
in the settings, or the owner's edited recipients on a revision), never the model's; the recipient
rule (``core.drafts.recipients``) flags anything else.

One live draft per reply thread: a revision supersedes the draft it revises, and a new reply
to an inquiry's customer supersedes that thread's drafts still waiting for a decision — in the
same transaction that files the new one, so there is never a moment with two 发送 buttons for
one answer (``live_replies``). Superseded is final: the state machine lets no surface approve or
send it.

``of_record``: when the assistant drafts, its tool call's instruction is the model's *request* —
the drafting model follows it, but the draft's ``instruction`` (what the fact guard takes as the
owner's word) is the owner's own words of that turn, and the request is kept beside it in the
audit log (``model_request``). Whatever the model added is checked like the body.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import Draft, DraftEvent
from core.drafts import reply_model
from core.drafts.base import EDITABLE, AlreadyDrafted, DraftCore, not_editable, require_llm
from core.drafts.evidence import batch_contact, run_guard
from core.drafts.state import Transition, record_created, transition
from core.drafts.translation import translate, zh_stamp
from core.drafts.view import DraftView, draft_view
from core.errors import BadInput, DraftStateError, NotFound
from core.memory.expiry import expire_due
from core.memory.recall import mark_used
from core.provenance import Text

if TYPE_CHECKING:
    from core.llm.model import ModelClient


@dataclass
class _NewDraft:
    """What ``_create`` writes: the model's words plus where they came from."""

    instruction: str
    subject: str
    body_en: str
    body_zh: str
    actor: str
    batch_id: str | None = None
    contact: dict[str, str] | None = None
    revision_of: int | None = None
    confirmed: list[str] = field(default_factory=list)
    attachment_ids: list[int] = field(default_factory=list)
    to: list[str] | None = None  # the owner's recipients (a revision keeps his edits)
    cc: list[str] = field(default_factory=list)
    request: str | None = None  # the model's instruction, when it is not the owner's words
    reply: bool = False  # a reply to the inquiry's customer: the one live draft of the thread
    # what the caller files with the draft, in its transaction, before the guard reads it
    link: Callable[[Session, Draft], None] | None = None
    first_reply: bool = False  # the automatic first reply: only into a thread with no draft
    # code wrote both languages from the same data (a quote): its Chinese is a translation of
    # its English by construction, no model asked; else the English-only call translates
    zh_by_code: bool = False


def _on_record(new: _NewDraft, of_record: str | None) -> _NewDraft:
    """The owner's words become the instruction of record; the model's, a request beside it."""
    if of_record is not None:
        new.request, new.instruction = new.instruction, of_record.strip()
    return new


class DraftComposer:
    """Compose → ``pending_approval``. Never approves, rejects or sends."""

    def __init__(self, core: DraftCore, llm: ModelClient | None) -> None:
        self._core = core
        self._llm = llm

    async def compose(
        self,
        inquiry_id: int,
        instruction_zh: str,
        *,
        actor: str,
        batch_id: str | None = None,
        attachment_ids: list[int] | None = None,
        of_record: str | None = None,
        first_reply: bool = False,
        progress: reply_model.Progress | None = None,
    ) -> int:
        """Write a reply to an inquiry from the owner's Chinese instruction (→ pending_approval).

        ``attachment_ids``: files of this inquiry (``Attachment`` ids) to send with the reply;
        checked before the model is asked, so a wrong id costs no tokens. ``first_reply``: the
        automatic first reply (``core.drafts.first_reply``), filed only when the inquiry has no
        draft at all, else ``AlreadyDrafted`` (it never supersedes a draft of his).
        ``progress``: called with the email's text so far while the model writes it (streamed:
        a slow model on his PC is watched, not waited for in silence)."""
        instruction_zh = (instruction_zh or "").strip()
        if not instruction_zh:
            raise BadInput(
                "请写下回复要点（中文即可） / write what the reply should say (Chinese is fine)"
            )
        core, settings = self._core, self._core.services.settings
        shared = self._core.services.paths.shared
        await self._expire_memories()
        try:  # the inquiry first: a wrong id is "not found", whatever the AI settings say
            ctx = await core.services.store.read(
                lambda s: reply_model.load_context(s, inquiry_id, settings, shared)
            )
        except LookupError:
            raise NotFound(f"询盘 #{inquiry_id} / inquiry #{inquiry_id}") from None
        llm = require_llm(self._llm)
        if not ctx.recipient_email:
            raise DraftStateError(
                f"询盘 {inquiry_id} 没有客户邮箱，无法起草回复 / inquiry {inquiry_id} has no "
                "customer email address, so no reply can be drafted"
            )
        files: list[int] = []
        if attachment_ids:
            wanted = list(attachment_ids)
            files = await core.services.store.read(
                lambda s: core.check_files(s, inquiry_id, wanted)
            )
        answer = await reply_model.compose_answer(
            llm, ctx, instruction_zh, settings, {"inquiry_id": inquiry_id}, progress
        )
        subject = answer.subject.strip() or reply_model.reply_subject(ctx.thread_subject)
        if ctx.thread_subject and ctx.reply_to_message_pk is not None:
            subject = reply_model.reply_subject(ctx.thread_subject)  # stay in the thread
        new = _NewDraft(instruction_zh, subject, answer.body_en, answer.body_zh, actor, batch_id)
        new.attachment_ids, new.reply, new.first_reply = files, True, first_reply
        return await self._create(ctx, _on_record(new, of_record))

    async def compose_document(
        self,
        inquiry_id: int,
        *,
        subject: str,
        body_en: str,
        body_zh: str,
        instruction: str,
        actor: str,
        link: Callable[[Session, Draft], None],
    ) -> int:
        """A reply whose words code wrote from the owner's document (a quote), no model asked
        (→ pending_approval, guarded and approved like any other). ``link`` runs in the same
        transaction before the fact guard: it files the document and its attachment, so the
        draft, the document and the file commit together or not at all."""
        core, settings = self._core, self._core.services.settings
        shared = self._core.services.paths.shared
        try:
            ctx = await core.services.store.read(
                lambda s: reply_model.load_context(s, inquiry_id, settings, shared)
            )
        except LookupError:
            raise NotFound(f"询盘 #{inquiry_id} / inquiry #{inquiry_id}") from None
        if not ctx.recipient_email:
            raise DraftStateError(
                f"询盘 {inquiry_id} 没有客户邮箱，无法起草回复 / inquiry {inquiry_id} has no "
                "customer email address, so no reply can be drafted"
            )
        if ctx.thread_subject and ctx.reply_to_message_pk is not None:
            subject = reply_model.reply_subject(ctx.thread_subject)  # stay in the thread
        new = _NewDraft(instruction, subject, body_en, body_zh, actor)
        new.reply, new.link, new.zh_by_code = True, link, True
        return await self._create(ctx, new)

    async def compose_forward(
        self,
        inquiry_id: int,
        to_addr: str,
        instruction_zh: str,
        *,
        actor: str,
        attachment_ids: list[int] | None = None,
        of_record: str | None = None,
    ) -> int:
        """A fresh email about an inquiry to a fixed address of the owner's (the factory in
        ``drafts.factory_address``), carrying the inquiry's chosen files (→ pending_approval).

        The address is the caller's setting, never the model's; the customer's record and
        thread are the context, so the measurements the factory needs come from people's words.
        """
        instruction_zh = (instruction_zh or "").strip()
        if not instruction_zh:
            raise BadInput(
                "请写下要转给工厂的要点（中文即可） / write what to tell the factory "
                "(Chinese is fine)"
            )
        core, settings = self._core, self._core.services.settings
        shared = self._core.services.paths.shared
        await self._expire_memories()
        try:
            ctx = await core.services.store.read(
                lambda s: reply_model.load_context(s, inquiry_id, settings, shared)
            )
        except LookupError:
            raise NotFound(f"询盘 #{inquiry_id} / inquiry #{inquiry_id}") from None
        llm = require_llm(self._llm)
        wanted = list(attachment_ids or [])
        files = await core.services.store.read(lambda s: core.check_files(s, inquiry_id, wanted))
        ctx.recipient_email, ctx.recipient_name = to_addr, "factory"
        ctx.reply_to_message_pk, ctx.reply_graph_id, ctx.thread_subject = None, None, ""
        ctx.evidence.append(Text.owner(to_addr))  # his setting
        instruction = (
            f"这封邮件写给我们的工厂（{to_addr}），不是写给客户；附件随信发出。{instruction_zh}"
        )
        answer = await reply_model.compose_answer(
            llm, ctx, instruction, settings, {"inquiry_id": inquiry_id}
        )
        new = _NewDraft(
            instruction_zh, answer.subject.strip(), answer.body_en, answer.body_zh, actor
        )
        new.attachment_ids = files
        return await self._create(ctx, _on_record(new, of_record))

    async def compose_for_contact(
        self,
        contact: dict[str, str],
        instruction_zh: str,
        *,
        actor: str,
        batch_id: str,
        of_record: str | None = None,
    ) -> int:
        """A fresh email to one batch contact. The address is the CSV's, never the model's."""
        llm = require_llm(self._llm)
        settings = self._core.services.settings
        shared = self._core.services.paths.shared
        await self._expire_memories()
        ctx = await self._core.services.store.read(
            lambda s: reply_model.with_memories(
                s, reply_model.contact_context(contact, settings, shared)
            )
        )
        answer = await reply_model.compose_answer(llm, ctx, instruction_zh, settings, {})
        new = _NewDraft(
            instruction_zh, answer.subject.strip(), answer.body_en, answer.body_zh, actor, batch_id
        )
        new.contact = contact
        return await self._create(ctx, _on_record(new, of_record))

    async def revise(
        self,
        draft_id: int,
        instruction_zh: str,
        *,
        actor: str,
        of_record: str | None = None,
        progress: reply_model.Progress | None = None,
    ) -> int:
        """A revised draft from a new Chinese instruction; the old one becomes superseded in
        the same transaction (the desktop's 修改 and the assistant's ``revise_draft``).
        ``of_record``: the owner's own words, when the instruction is the model's request;
        ``progress``: the revised text so far, as ``compose``."""
        instruction_zh = (instruction_zh or "").strip()
        if not instruction_zh:
            raise BadInput("请写下要修改的地方 / write what to change")
        llm = require_llm(self._llm)
        settings = self._core.services.settings
        await self._expire_memories()
        view, ctx, contact = await self._core.services.store.read(
            lambda s: self._revision_context(s, draft_id)
        )
        ctx.recipient_email = view.to[0] if view.to else ctx.recipient_email  # his edits stay
        answer = await reply_model.revise_answer(
            llm,
            ctx,
            previous_instruction=view.instruction,
            subject=view.subject,
            body_en=view.body_en,
            instruction=instruction_zh,
            settings=settings,
            refs={"inquiry_id": view.inquiry_id, "draft_id": draft_id},
            progress=progress,
        )
        keep_subject = view.reply_to_message_pk is not None
        asked = instruction_zh if of_record is None else of_record.strip()
        new = _NewDraft(
            instruction=f"{view.instruction}\n修改：{asked}",
            subject=view.subject if keep_subject else (answer.subject.strip() or view.subject),
            body_en=answer.body_en,
            body_zh=answer.body_zh,
            actor=actor,
            batch_id=view.batch_id,
            contact=contact,
            revision_of=draft_id,
            confirmed=list(view.confirmed_facts),
            attachment_ids=list(view.attachment_ids),
        )
        if of_record is not None:  # what the model asked for: a request, kept apart
            new.request = instruction_zh
        if view.to or view.cc:
            new.to, new.cc = list(view.to), list(view.cc)
        return await self._create(ctx, new)

    def _revision_context(
        self, session: Session, draft_id: int
    ) -> tuple[DraftView, reply_model.ComposeContext, dict[str, str] | None]:
        core, settings = self._core, self._core.services.settings
        shared = self._core.services.paths.shared
        draft = core.get(session, draft_id)
        if draft.status not in EDITABLE:
            raise not_editable(draft, "修改")
        contact = None
        if draft.inquiry_id is not None:
            ctx = reply_model.load_context(session, draft.inquiry_id, settings, shared)
        else:
            contact = batch_contact(session, draft.id)
            ctx = reply_model.with_memories(
                session, reply_model.contact_context(contact or {}, settings, shared)
            )
        return draft_view(session, draft, core.services.paths), ctx, contact

    async def _expire_memories(self) -> None:
        """Short-term memories whose day has passed become ``expired`` before a prompt reads
        memories (``core.memory.expiry``): what is over is never written into a draft."""
        core = self._core
        await core.services.store.run(lambda s: expire_due(s, core.services.clock.now()))

    async def _create(self, ctx: reply_model.ComposeContext, new: _NewDraft) -> int:
        """Store the draft (guarded) in pending_approval; a revision supersedes its original."""
        core = self._core
        chosen = [ctx.recipient_email] if ctx.recipient_email else []
        # what he will read: a translation of this English by a call that sees only it, never
        # the drafting call's own Chinese (that call read the mail; core.drafts.translation)
        refs = {"inquiry_id": ctx.inquiry_id} if ctx.inquiry_id is not None else {}
        zh: str
        zh_source: str | None
        if new.zh_by_code:
            zh, zh_source = new.body_zh.strip(), zh_stamp(new.body_en)
        else:
            zh, zh_source = await translate(require_llm(self._llm), new.subject, new.body_en, refs)

        def do(session: Session) -> tuple[int, list[Transition]]:
            if new.first_reply and ctx.inquiry_id is not None:
                drafted = select(Draft.id).where(Draft.inquiry_id == ctx.inquiry_id).limit(1)
                if session.scalars(drafted).first() is not None:
                    raise AlreadyDrafted(f"inquiry {ctx.inquiry_id} has a draft already")
            now = core.now()
            draft = Draft(
                inquiry_id=ctx.inquiry_id,
                status="draft",
                to_addrs=chosen,
                cc_addrs=[],
                subject=new.subject,
                body_en=new.body_en.strip(),
                body_zh=zh,
                zh_source=zh_source,
                instruction=new.instruction,
                reply_to_message_pk=ctx.reply_to_message_pk,
                revision_of=new.revision_of,
                batch_id=new.batch_id,
                confirmed_facts=list(new.confirmed),
                attachment_ids=list(new.attachment_ids),
                created_by=new.actor,
                created_at=now,
                updated_at=now,
            )
            session.add(draft)
            session.flush()
            record_created(session, draft, actor=new.actor, clock=core.clock)
            mark_used(session, ctx.memory_ids, f"draft:{draft.id}", now)
            if new.contact is not None:
                core.audit(session, draft.id, "contact", new.actor, **new.contact)
            if new.to is not None:  # a revision keeps the owner's recipients
                draft.to_addrs, draft.cc_addrs = list(new.to), list(new.cc)
            if new.request is not None:  # what the model asked for: a request, kept apart
                core.audit(session, draft.id, "model_request", new.actor, text=new.request)
            if new.link is not None:
                new.link(session, draft)
            run_guard(session, draft, core.services.settings)
            return draft.id, self._file(session, draft, new)

        draft_id, moves = await core.services.store.run(do)
        core.publish(moves)
        return draft_id

    def _file(self, session: Session, draft: Draft, new: _NewDraft) -> list[Transition]:
        """Into the owner's queue; the revised original (if any) becomes superseded."""
        core = self._core
        unconfirmed = draft.unconfirmed_facts or []
        note = f"未经确认：{', '.join(unconfirmed)}" if unconfirmed else ""
        moves = [
            transition(
                session, draft, "pending_approval", actor=new.actor, clock=core.clock, note=note
            )
        ]
        older = [core.get(session, new.revision_of)] if new.revision_of is not None else []
        if new.reply:
            older += live_replies(session, draft)
        for old in older:
            moves.append(
                transition(
                    session,
                    old,
                    "superseded",
                    actor=new.actor,
                    clock=core.clock,
                    note=f"被草稿 {draft.id} 取代",
                )
            )
        return moves


def replaced_by(session: Session, draft_id: int) -> list[int]:
    """The drafts ``draft_id`` superseded when it was written (their trail says so)."""
    rows = session.scalars(
        select(DraftEvent.draft_id).where(
            DraftEvent.to_status == "superseded", DraftEvent.note == f"被草稿 {draft_id} 取代"
        )
    )
    return sorted(set(rows))


LIVE = ("draft", "pending_approval")  # waiting for his decision (approved ones he decided on)


def live_replies(session: Session, draft: Draft) -> list[Draft]:
    """The other drafts of this draft's thread (the inquiry, to the same address) still
    waiting for his decision: a new reply replaces them, so he never has two versions of one
    answer waiting, each with its own 发送 button. A forward to the factory or a batch mail is
    another thread; a draft he already approved (or that is sending) is his decision made, and
    stays as it is."""
    if draft.inquiry_id is None:
        return []
    wanted = {a.lower() for a in draft.to_addrs or []}
    rows = session.scalars(
        select(Draft).where(
            Draft.inquiry_id == draft.inquiry_id,
            Draft.id != draft.id,
            Draft.status.in_(LIVE),
            Draft.batch_id.is_(None),
        )
    )
    return [d for d in rows if wanted & {a.lower() for a in d.to_addrs or []}]
