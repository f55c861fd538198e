"""DraftService: the one door to drafting, approval and sending.

The desktop (approval window, compose dialog, 待审批 list), the CLI and Telegram all call this
class; each method commits first and then publishes ``DraftChanged`` so the tray count and views
follow. The assistant's tool layer may compose, revise and *describe* drafts, but must never be
handed ``approve`` or ``send``: see ``TOOL_SAFE_METHODS`` — the agent area builds its tools from
that list only, and a property-based test drives every other method to show none of them can
reach ``approved``.

Approval is by the owner's own hand (actor ``owner`` from the window, ``cli`` from the local
command line, ``telegram`` from the paired owner's button) and is refused while the fact guard
lists unconfirmed values, unless the owner accepts them explicitly.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import AuditEntry, Draft
from core.drafts import composer
from core.drafts.attachments import (
    FileOption,
    copy_owner_file,
    inquiry_files,
    owner_file_row,
)
from core.drafts.factguard import check_facts
from core.drafts.recent import RecentContact, recent_contact
from core.drafts.sender import DraftSender, SendResult, build_mailer
from core.drafts.state import (
    APPROVERS,
    STATUS_ZH,
    Transition,
    approve_transition,
    record_created,
    transition,
)
from core.drafts.view import DraftView, draft_view, iso_utc, valid_email
from core.errors import DraftStateError, LLMUnavailable, UnconfirmedFactsError
from core.services import Services

log = logging.getLogger(__name__)

# What an LLM-driven tool layer may call. approve/send/reject/confirm_facts are owner-only.
TOOL_SAFE_METHODS = ("compose", "revise", "describe_for_tool", "list_drafts", "recent_contact")

EDITABLE = frozenset({"draft", "pending_approval", "approved", "failed"})

PENDING_TEXT = "DRAFT_PENDING_APPROVAL — NOT SENT"


class DraftService:
    """Compose → review → approve → send, for the desktop, CLI and Telegram."""

    def __init__(self, services: Services, llm: Any, sender: DraftSender | None = None) -> None:
        self.services = services
        self.llm = llm
        self.sender = sender or DraftSender(services, None, publish=self._publish)

    # ------------------------------------------------------------------ plumbing
    @property
    def clock(self):  # type: ignore[no-untyped-def]
        return self.services.clock

    def _publish(self, transitions: list[Transition]) -> None:
        for t in transitions:
            self.services.bus.publish(t.event())

    def _now(self):  # type: ignore[no-untyped-def]
        return self.clock.now().replace(tzinfo=None)

    def _audit(
        self, session: Session, draft_id: int, action: str, actor: str, **detail: Any
    ) -> None:
        session.add(
            AuditEntry(
                entity="draft",
                entity_id=draft_id,
                action=action,
                detail=detail,
                actor=actor,
                at=self._now(),
            )
        )

    def _back_to_review(self, session: Session, draft: Draft, actor: str, note: str) -> Transition:
        """An owner edit: an approved (or failed, or raw) draft goes back to pending_approval, so
        the words approved are the words sent. Otherwise the status stays, but the returned
        transition still makes the queue refresh the row."""
        if draft.status in {"approved", "failed", "draft"}:
            return transition(
                session, draft, "pending_approval", actor=actor, clock=self.clock, note=note
            )
        return Transition(draft.id, draft.inquiry_id, draft.status, draft.status)

    def _require_llm(self) -> Any:
        if self.llm is None or not getattr(self.llm, "available", False):
            raise LLMUnavailable("未配置 AI 服务（设置 → AI 地址）")
        return self.llm

    @staticmethod
    def _get(session: Session, draft_id: int) -> Draft:
        draft = session.get(Draft, draft_id)
        if draft is None:
            raise DraftStateError(f"草稿 {draft_id} 不存在")
        return draft

    def _sources(self, session: Session, draft: Draft) -> list[str]:
        """Evidence the fact guard accepts for this draft: every owner instruction in its
        revision chain, the inquiry record and thread (or the batch contact), the owner's
        settings and the recipients he chose."""
        if draft.inquiry_id is not None:
            ctx = composer.load_context(session, draft.inquiry_id, self.services.settings)
            evidence = ctx.evidence
        else:
            contact = session.scalar(
                select(AuditEntry.detail)
                .where(
                    AuditEntry.entity == "draft",
                    AuditEntry.entity_id == draft.id,
                    AuditEntry.action == "contact",
                )
                .order_by(AuditEntry.id.desc())
            )
            evidence = composer.with_memories(
                session, composer.contact_context(contact or {}, self.services.settings)
            ).evidence
        return [
            draft.instruction,
            *evidence,
            " ".join(draft.to_addrs or []),
            " ".join(draft.cc_addrs or []),
        ]

    def _guard(self, session: Session, draft: Draft) -> None:
        draft.unconfirmed_facts = check_facts(
            draft.body_en,
            self._sources(session, draft),
            confirmed=draft.confirmed_facts or [],
            region=str(self.services.settings.get("general.phone_region") or "AU"),
            body_zh=draft.body_zh,
        )

    # ------------------------------------------------------------------ compose
    async def compose(
        self,
        inquiry_id: int,
        instruction_zh: str,
        *,
        actor: str,
        batch_id: str | None = None,
        attachment_ids: list[int] | None = None,
    ) -> int:
        """Write a reply to an inquiry from the owner's Chinese instruction (→ pending_approval).

        ``attachment_ids``: files of this inquiry (``Attachment`` ids) to send with the reply;
        checked before the model is asked, so a wrong id costs no tokens."""
        instruction_zh = (instruction_zh or "").strip()
        if not instruction_zh:
            raise DraftStateError("请写下回复要点（中文即可）")
        llm = self._require_llm()
        settings = self.services.settings
        try:
            ctx = await self.services.store.read(
                lambda s: composer.load_context(s, inquiry_id, settings)
            )
        except LookupError as exc:  # unknown inquiry id: one clear line, not a crash
            raise DraftStateError(str(exc.args[0] if exc.args else exc)) from None
        if not ctx.recipient_email:
            raise DraftStateError(f"询盘 {inquiry_id} 没有客户邮箱，无法起草回复")
        if attachment_ids:
            await self.services.store.read(
                lambda s: self._check_files(s, inquiry_id, list(attachment_ids))
            )
        answer = await composer.compose_answer(
            llm, ctx, instruction_zh, settings, {"inquiry_id": inquiry_id}
        )
        subject = answer.subject.strip() or composer.reply_subject(ctx.thread_subject)
        if ctx.thread_subject and ctx.reply_to_message_pk is not None:
            subject = composer.reply_subject(ctx.thread_subject)  # stay in the thread
        return await self._create(
            ctx,
            instruction=instruction_zh,
            subject=subject,
            body_en=answer.body_en,
            body_zh=answer.body_zh,
            actor=actor,
            batch_id=batch_id,
            attachment_ids=attachment_ids,
        )

    def _check_files(self, session: Session, inquiry_id: int | None, ids: list[int]) -> list[int]:
        """The ids, de-duplicated, if every one is an attachable file of this inquiry."""
        files = {f.id: f for f in inquiry_files(session, self.services.paths, inquiry_id)}
        out: list[int] = []
        for i in ids:
            f = files.get(int(i))
            if f is None:
                raise DraftStateError(f"附件 {i} 不是询盘 {inquiry_id} 的文件")
            if not f.available:
                raise DraftStateError(f"附件「{f.filename}」无法发送：{f.reason}")
            if f.id not in out:
                out.append(f.id)
        return out

    async def _create(
        self,
        ctx: composer.ComposeContext,
        *,
        instruction: str,
        subject: str,
        body_en: str,
        body_zh: str,
        actor: str,
        batch_id: str | None = None,
        contact: dict[str, str] | None = None,
        revision_of: int | None = None,
        confirmed: list[str] | None = None,
        attachment_ids: list[int] | None = None,
    ) -> int:
        region = str(self.services.settings.get("general.phone_region") or "AU")
        to = [ctx.recipient_email] if ctx.recipient_email else []

        def do(session: Session) -> tuple[int, list[Transition]]:
            now = self._now()
            draft = Draft(
                inquiry_id=ctx.inquiry_id,
                status="draft",
                to_addrs=to,
                cc_addrs=[],
                subject=subject,
                body_en=body_en.strip(),
                body_zh=body_zh.strip(),
                instruction=instruction,
                reply_to_message_pk=ctx.reply_to_message_pk,
                revision_of=revision_of,
                batch_id=batch_id,
                confirmed_facts=list(confirmed or []),
                attachment_ids=list(attachment_ids or []),
                created_by=actor,
                created_at=now,
                updated_at=now,
            )
            session.add(draft)
            session.flush()
            record_created(session, draft, actor=actor, clock=self.clock)
            if contact is not None:
                self._audit(session, draft.id, "contact", actor, **contact)
            draft.unconfirmed_facts = check_facts(
                draft.body_en,
                [instruction, *ctx.evidence, " ".join(to)],
                confirmed=draft.confirmed_facts,
                region=region,
                body_zh=draft.body_zh,
            )
            note = (
                f"未经确认：{', '.join(draft.unconfirmed_facts)}" if draft.unconfirmed_facts else ""
            )
            moves = [
                transition(
                    session, draft, "pending_approval", actor=actor, clock=self.clock, note=note
                )
            ]
            if revision_of is not None:
                old = self._get(session, revision_of)
                moves.append(
                    transition(
                        session,
                        old,
                        "superseded",
                        actor=actor,
                        clock=self.clock,
                        note=f"被草稿 {draft.id} 取代",
                    )
                )
            return draft.id, moves

        draft_id, moves = await self.services.store.run(do)
        self._publish(moves)
        return draft_id

    async def compose_for_contact(
        self, contact: dict[str, str], instruction_zh: str, *, actor: str, batch_id: str
    ) -> int:
        """A fresh email to one batch contact. The address is the CSV's, never the model's."""
        llm = self._require_llm()
        settings = self.services.settings
        ctx = await self.services.store.read(
            lambda s: composer.with_memories(s, composer.contact_context(contact, settings))
        )
        answer = await composer.compose_answer(llm, ctx, instruction_zh, settings, {})
        return await self._create(
            ctx,
            instruction=instruction_zh,
            subject=answer.subject.strip(),
            body_en=answer.body_en,
            body_zh=answer.body_zh,
            actor=actor,
            batch_id=batch_id,
            contact=contact,
        )

    async def revise(self, draft_id: int, instruction_zh: str, *, actor: str) -> int:
        """A revised draft from a new Chinese instruction; the old one becomes superseded."""
        instruction_zh = (instruction_zh or "").strip()
        if not instruction_zh:
            raise DraftStateError("请写下要修改的地方")
        llm = self._require_llm()
        settings = self.services.settings

        def load(
            session: Session,
        ) -> tuple[DraftView, composer.ComposeContext, dict[str, str] | None]:
            draft = self._get(session, draft_id)
            if draft.status not in {"draft", "pending_approval", "approved", "failed"}:
                raise DraftStateError(
                    f"草稿 {draft_id} 处于「{STATUS_ZH.get(draft.status, draft.status)}」，不能修改"
                )
            contact = None
            if draft.inquiry_id is not None:
                ctx = composer.load_context(session, draft.inquiry_id, settings)
            else:
                contact = session.scalar(
                    select(AuditEntry.detail).where(
                        AuditEntry.entity == "draft",
                        AuditEntry.entity_id == draft.id,
                        AuditEntry.action == "contact",
                    )
                )
                ctx = composer.with_memories(
                    session, composer.contact_context(contact or {}, settings)
                )
            return draft_view(session, draft, self.services.paths), ctx, contact

        view, ctx, contact = await self.services.store.read(load)
        ctx.recipient_email = (
            view.to[0] if view.to else ctx.recipient_email
        )  # keep the owner's edits
        answer = await composer.revise_answer(
            llm,
            ctx,
            previous_instruction=view.instruction,
            subject=view.subject,
            body_en=view.body_en,
            instruction=instruction_zh,
            settings=settings,
            refs={"inquiry_id": view.inquiry_id, "draft_id": draft_id},
        )
        new_id = await self._create(
            ctx,
            instruction=f"{view.instruction}\n修改：{instruction_zh}",
            subject=view.subject
            if view.reply_to_message_pk
            else (answer.subject.strip() or view.subject),
            body_en=answer.body_en,
            body_zh=answer.body_zh,
            actor=actor,
            batch_id=view.batch_id,
            contact=contact,
            revision_of=draft_id,
            confirmed=view.confirmed_facts,
            attachment_ids=view.attachment_ids,
        )
        if view.to or view.cc:
            await self.services.store.run(
                lambda s: self._set_recipients(s, new_id, view.to, view.cc)
            )
        return new_id

    @staticmethod
    def _set_recipients(session: Session, draft_id: int, to: list[str], cc: list[str]) -> None:
        draft = session.get(Draft, draft_id)
        if draft is not None:
            draft.to_addrs = list(to)
            draft.cc_addrs = list(cc)

    # ------------------------------------------------------------------ owner edits
    def update_body(
        self,
        draft_id: int,
        body_en: str,
        *,
        actor: str,
        subject: str | None = None,
        to: list[str] | None = None,
        cc: list[str] | None = None,
    ) -> DraftView:
        """The owner edited the email. The fact guard runs again; the Chinese preview is
        cleared (it no longer shows what will be sent) until ``rerender_zh``; an approved draft
        goes back to pending_approval (he approved other words)."""
        for address in [*(to or []), *(cc or [])]:
            if not valid_email(address):
                raise DraftStateError(f"收件人地址无效：{address}")
        if to is not None and not to:
            raise DraftStateError("至少需要一个收件人")

        def do(session: Session) -> tuple[DraftView, list[Transition]]:
            draft = self._get(session, draft_id)
            if draft.status not in EDITABLE:
                raise DraftStateError(
                    f"草稿 {draft_id} 处于「{STATUS_ZH.get(draft.status, draft.status)}」，不能编辑"
                )
            changed: dict[str, Any] = {}
            if body_en.strip() != draft.body_en.strip():
                draft.body_en = body_en.strip()
                draft.body_zh = ""
                changed["body_en"] = True
            if subject is not None and subject.strip() != draft.subject:
                draft.subject = subject.strip()
                changed["subject"] = draft.subject
            if to is not None and [a.strip() for a in to] != list(draft.to_addrs):
                draft.to_addrs = [a.strip() for a in to]
                changed["to"] = draft.to_addrs
            if cc is not None and [a.strip() for a in cc] != list(draft.cc_addrs or []):
                draft.cc_addrs = [a.strip() for a in cc]
                changed["cc"] = draft.cc_addrs
            moves: list[Transition] = []
            if not changed:
                return draft_view(session, draft, self.services.paths), moves
            draft.updated_at = self._now()
            self._guard(session, draft)
            self._audit(session, draft.id, "edit", actor, **changed)
            moves.append(self._back_to_review(session, draft, actor, "老板修改了草稿"))
            return draft_view(session, draft, self.services.paths), moves

        view, moves = self.services.store.write(do)
        self._publish(moves)
        return view

    def attachment_options(self, draft_id: int) -> list[FileOption]:
        """The files the owner may attach to this draft (its inquiry's files)."""
        with self.services.store.session() as session:
            draft = self._get(session, draft_id)
            return inquiry_files(session, self.services.paths, draft.inquiry_id)

    def set_attachments(self, draft_id: int, attachment_ids: list[int], *, actor: str) -> DraftView:
        """The owner changed which files go with the email (audited). Like any edit, an approved
        draft goes back to pending_approval: he approved a different email."""

        def do(session: Session) -> tuple[DraftView, list[Transition]]:
            draft = self._get(session, draft_id)
            self._editable_for_files(draft)
            old = [int(i) for i in (draft.attachment_ids or [])]
            new = self._check_files(session, draft.inquiry_id, list(attachment_ids))
            moves: list[Transition] = []
            if new == old:
                return draft_view(session, draft, self.services.paths), moves
            draft.attachment_ids = new
            draft.updated_at = self._now()
            self._audit(
                session,
                draft.id,
                "attachments",
                actor,
                added=[i for i in new if i not in old],
                removed=[i for i in old if i not in new],
                attachment_ids=new,
            )
            moves.append(self._back_to_review(session, draft, actor, "老板修改了附件"))
            return draft_view(session, draft, self.services.paths), moves

        view, moves = self.services.store.write(do)
        self._publish(moves)
        return view

    @staticmethod
    def _editable_for_files(draft: Draft) -> None:
        if draft.status not in EDITABLE:
            raise DraftStateError(
                f"草稿 {draft.id} 处于「{STATUS_ZH.get(draft.status, draft.status)}」，不能修改附件"
            )

    def add_owner_file(self, draft_id: int, path: str, *, actor: str) -> DraftView:
        """添加本机文件: a file from the owner's computer (the quote PDF he just made) becomes
        one of the inquiry's files and is ticked on this draft (audited). From then on it is
        like any file of the thread: listed, untickable, size-checked, uploaded on send. Like
        any edit, an approved draft goes back to pending_approval.

        The copy into the data folder (up to 150 MB) runs before the write transaction, so it
        never holds the database's one writer; the draft's state is checked before the copy
        (a refused draft costs no copy) and again when the row is written."""

        def check(session: Session) -> int:
            draft = self._get(session, draft_id)
            self._editable_for_files(draft)
            if draft.inquiry_id is None:
                raise DraftStateError(f"草稿 {draft_id} 不属于任何询盘，无法添加本机文件")
            return draft.inquiry_id

        with self.services.store.session() as session:
            inquiry_id = check(session)
        copied = copy_owner_file(self.services.paths, path)

        def do(session: Session) -> tuple[DraftView, list[Transition]]:
            draft = self._get(session, draft_id)
            if check(session) != inquiry_id:  # moved meanwhile: never attach across inquiries
                raise DraftStateError(f"草稿 {draft_id} 已改变，请重试")
            row = owner_file_row(session, inquiry_id, copied, self._now())
            old = [int(i) for i in (draft.attachment_ids or [])]
            new = old if row.id in old else [*old, row.id]
            self._audit(
                session,
                draft.id,
                "owner_file",
                actor,
                attachment_id=row.id,
                filename=copied.filename,
                size=copied.size,
                sha256=copied.sha256,
                source=copied.source,
                attachment_ids=new,
            )
            moves: list[Transition] = []
            if new == old:  # the same file again, already ticked: nothing else changes
                return draft_view(session, draft, self.services.paths), moves
            draft.attachment_ids = new
            draft.updated_at = self._now()
            moves.append(self._back_to_review(session, draft, actor, "老板添加了本机文件"))
            return draft_view(session, draft, self.services.paths), moves

        view, moves = self.services.store.write(do)
        self._publish(moves)
        return view

    async def rerender_zh(self, draft_id: int) -> str:
        """A fresh Chinese rendering of the current English body (after the owner's edits)."""
        llm = self._require_llm()
        view = self.get(draft_id)
        zh = await composer.render_zh(llm, view.subject, view.body_en, {"draft_id": draft_id})

        def save(session: Session) -> bool:
            draft = self._get(session, draft_id)
            if draft.body_en != view.body_en:  # edited again meanwhile: this rendering is stale
                return False
            draft.body_zh = zh.strip()
            draft.updated_at = self._now()
            self._guard(session, draft)  # the owner will read this rendering: compare it
            return True

        if await self.services.store.run(save):
            self._publish([Transition(draft_id, view.inquiry_id, view.status, view.status)])
        return zh

    def confirm_facts(self, draft_id: int, facts: list[str], *, actor: str) -> DraftView:
        """The owner confirms flagged values one by one (they stop blocking approval)."""

        def do(session: Session) -> DraftView:
            draft = self._get(session, draft_id)
            if draft.status not in EDITABLE:
                raise DraftStateError(
                    f"草稿 {draft_id} 处于「{STATUS_ZH.get(draft.status, draft.status)}」，不能确认"
                )
            wanted = [f for f in facts if f]
            draft.confirmed_facts = list(dict.fromkeys([*(draft.confirmed_facts or []), *wanted]))
            self._guard(session, draft)
            draft.updated_at = self._now()
            self._audit(session, draft.id, "confirm_facts", actor, facts=wanted)
            return draft_view(session, draft, self.services.paths)

        view = self.services.store.write(do)
        self._publish([Transition(view.id, view.inquiry_id, view.status, view.status)])
        return view

    # ------------------------------------------------------------------ owner decisions
    def approve(self, draft_id: int, *, actor: str, accept_unconfirmed: bool = False) -> DraftView:
        """The ONLY way to ``approved``. Owner actors only; refuses unconfirmed facts unless
        ``accept_unconfirmed`` (then they are recorded as confirmed by this actor)."""
        if actor not in APPROVERS:
            raise DraftStateError(f"只有老板本人可以批准草稿（调用者：{actor}）")

        def do(session: Session) -> tuple[DraftView, Transition]:
            draft = self._get(session, draft_id)
            if not draft.to_addrs:
                raise DraftStateError(f"草稿 {draft_id} 没有收件人")
            if draft.attachment_ids and draft.status in {"pending_approval", "failed"}:
                self._check_files(session, draft.inquiry_id, list(draft.attachment_ids))
            if draft.status in {"pending_approval", "failed"}:
                self._guard(session, draft)  # settings or thread may have changed since
            if draft.unconfirmed_facts and draft.status in {"pending_approval", "failed"}:
                if not accept_unconfirmed:
                    raise UnconfirmedFactsError("、".join(draft.unconfirmed_facts))
                accepted = list(draft.unconfirmed_facts)
                draft.confirmed_facts = list(
                    dict.fromkeys([*(draft.confirmed_facts or []), *accepted])
                )
                draft.unconfirmed_facts = []
                self._audit(session, draft.id, "accept_unconfirmed", actor, facts=accepted)
            note = "老板批准" if actor == "owner" else f"批准（{actor}）"
            t = approve_transition(session, draft, actor=actor, clock=self.clock, note=note)
            draft.error = None
            return draft_view(session, draft, self.services.paths), t

        view, t = self.services.store.write(do)
        self._publish([t])
        return view

    def reject(self, draft_id: int, *, actor: str) -> DraftView:
        """放弃: the draft is kept for the record but can never be sent."""

        def do(session: Session) -> tuple[DraftView, Transition]:
            draft = self._get(session, draft_id)
            t = transition(session, draft, "rejected", actor=actor, clock=self.clock, note="放弃")
            return draft_view(session, draft, self.services.paths), t

        view, t = self.services.store.write(do)
        self._publish([t])
        return view

    async def reject_async(self, draft_id: int, *, actor: str) -> DraftView:
        """放弃, then delete the draft's Outlook copy (if one was made by an earlier send
        attempt) so Outlook's Drafts folder does not fill with abandoned replies. Outlook being
        unreachable does not undo the rejection: ``send_due`` deletes the copy later."""
        view = await self.call_async("reject", draft_id, actor=actor)
        try:
            await self.sender.delete_abandoned(draft_id)
        except Exception as exc:  # offline: the scheduler's next round cleans up
            log.info("deleting the Outlook copy of draft %s postponed: %s", draft_id, exc)
        return view

    async def approve_async(
        self, draft_id: int, *, actor: str, accept_unconfirmed: bool = False
    ) -> DraftView:
        """``approve`` off the UI thread (the window never waits on the database)."""
        loop = asyncio.get_running_loop()
        fn = functools.partial(
            self.approve, draft_id, actor=actor, accept_unconfirmed=accept_unconfirmed
        )
        return await loop.run_in_executor(None, fn)

    async def call_async(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """Any synchronous method of this service off the UI thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            None, functools.partial(getattr(self, method), *args, **kwargs)
        )

    async def send(self, draft_id: int, *, actor: str) -> SendResult:
        """Send an approved draft (at most once). Raises DraftStateError if not approved."""
        return await self.sender.send(draft_id, actor=actor)

    async def send_due(self) -> list[SendResult]:
        """For the scheduler: reconcile interrupted sends, then send approved drafts (paced)."""
        return await self.sender.send_due()

    async def reconcile(self) -> list[SendResult]:
        return await self.sender.reconcile()

    # ------------------------------------------------------------------ reading
    def get(self, draft_id: int) -> DraftView:
        with self.services.store.session() as session:
            return draft_view(session, self._get(session, draft_id), self.services.paths)

    async def get_async(self, draft_id: int) -> DraftView:
        return await self.services.store.read(
            lambda s: draft_view(s, self._get(s, draft_id), self.services.paths)
        )

    def list_drafts(self, statuses: tuple[str, ...] | None = None) -> list[DraftView]:
        with self.services.store.session() as session:
            return self._list(session, statuses)

    def _list(self, session: Session, statuses: tuple[str, ...] | None) -> list[DraftView]:
        query = select(Draft).order_by(Draft.id)
        if statuses:
            query = query.where(Draft.status.in_(statuses))
        return [draft_view(session, d, self.services.paths) for d in session.scalars(query)]

    async def list_async(self, statuses: tuple[str, ...] | None = None) -> list[DraftView]:
        return await self.services.store.read(lambda s: self._list(s, statuses))

    def recent_contact(self, target: int | str, days: int | None = None) -> list[RecentContact]:
        """Emails that went to this inquiry's customer (or address) in the last ``days`` days."""
        days = (
            days
            if days is not None
            else int(self.services.settings.get("drafts.recent_contact_days"))
        )
        now = self.clock.now()
        with self.services.store.session() as session:
            return recent_contact(session, target, now=now, days=days)

    def events(self, draft_id: int) -> list[dict[str, Any]]:
        """The audit trail of one draft (who moved it where, when)."""
        from core.db.models import DraftEvent

        with self.services.store.session() as session:
            rows = session.scalars(
                select(DraftEvent).where(DraftEvent.draft_id == draft_id).order_by(DraftEvent.id)
            )
            return [
                {
                    "from": e.from_status,
                    "to": e.to_status,
                    "actor": e.actor,
                    "at": iso_utc(e.at),
                    "note": e.note,
                }
                for e in rows
            ]

    def describe_for_tool(self, draft_id: int) -> str:
        """The truth about a draft in words a model cannot misread."""
        view = self.get(draft_id)
        to = ", ".join(view.to) or "(no recipient)"
        if view.status == "sent":
            when = iso_utc(view.sent_at) or "?"
            return f"SENT to {to} at {when} (draft {view.id})"
        if view.status in {"draft", "pending_approval"}:
            return f"{PENDING_TEXT} (draft {view.id} to {to}; only the owner can approve it)"
        if view.status == "approved":
            return f"DRAFT_APPROVED_BY_OWNER — NOT SENT YET (draft {view.id} to {to}; queued)"
        if view.status == "sending":
            return f"DRAFT_SENDING — NOT CONFIRMED SENT (draft {view.id} to {to})"
        if view.status == "failed":
            return f"DRAFT_SEND_FAILED — NOT SENT (draft {view.id} to {to}: {view.error or ''})"
        if view.status == "rejected":
            return f"DRAFT_REJECTED_BY_OWNER — NOT SENT (draft {view.id})"
        return f"DRAFT_SUPERSEDED — NOT SENT (draft {view.id} was replaced by a revision)"


def build_draft_service(services: Services, llm: Any, mailer: Any = None) -> DraftService:
    """The service with a sender over Graph when sign-in is configured (desktop, CLI)."""
    service = DraftService(services, llm)
    if mailer is None:
        try:
            mailer = build_mailer(services)
        except Exception as exc:  # Graph not usable yet: drafts still compose and wait
            log.info("no Graph mailer: %s", exc)
            mailer = None
    service.sender = DraftSender(services, mailer, publish=service._publish)
    return service
