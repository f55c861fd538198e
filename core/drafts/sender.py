"""Sending an approved draft at most once, over the ``Mailer`` port, and reconciling after a crash.

The argument is written against ``core.mail.ports``: every mailer can *submit once* and *find a
sent message by its Message-ID*; a ``DraftMailer`` (Graph) also keeps the message as a server
draft until it goes, a ``SubmitMailer`` (SMTP) reports when its last byte left. The order of
operations is the whole safety argument, the same for both:

1. Take the draft's send lock (``core.db.send_lock``, held to the outcome: no other process's
   reconcile touches a send in flight), then compare-and-set ``approved → sending``.
2. Fix what identifies the message and **commit it before anything can be sent**: Graph — create
   (or reuse) the Outlook draft (``createReply`` on the customer's message when it came from
   Graph, else a new message), PATCH recipients/subject/body/files in, commit its id and
   Internet Message-ID; SMTP — choose the Message-ID, write the bytes, commit the id with the
   mark ``smtp:prepared`` (``core.drafts.submit_once``).
3. Submit once, journalled first (``core.drafts.send_journal_keeper``: a ``submitting`` line fsynced in
   ``sends.journal`` outside the database, ``submitted`` after the answer): ``send_draft`` (on
   202 → ``sent``) or SMTP ``DATA`` (its last byte moves the mark to ``smtp:transmitted``; the
   copy is filed in Sent; → ``sent``).

Before step 1 the journal is asked: a draft it says went out (a restored backup forgot the send)
is marked ``sent`` and never submitted again; an attempt without an outcome is checked against
Sent first.

If the process dies or the network drops anywhere, the draft stays ``sending`` and
``reconcile`` later asks the mailbox what happened instead of guessing:

* nothing committed in step 2     → step 3 never ran → back to ``approved`` (still approved once);
* its Message-ID in Sent          → it went out → ``sent``;
* Graph: the draft still in Drafts → it did not go out → back to ``approved``; ``send_due`` or
  the owner's next ``send`` sends it — once, because step 1 applies again;
* SMTP: ``smtp:prepared`` only     → no byte left → back to ``approved`` (same Message-ID);
* SMTP: ``smtp:transmitted``       → the server may have it; never resubmitted: ``sent``, told as
  unconfirmed, and its copy filed in Sent;
* Graph: gone and not in Sent      → ``failed`` with a Chinese message. Never resent blindly: the
  owner may have sent or deleted it in Outlook himself.

Graph attachments go on the draft in step 2, never twice; ``delete_abandoned`` removes rejected
drafts' Outlook copies; ``send_due`` keeps Exchange's 30 sends a minute from the store's times.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sqlalchemy import select
from sqlalchemy.orm import Session

from core import tasks
from core.clock import Clock, naive_utc
from core.db.models import AuditEntry, Draft
from core.db.send_journal import NOT_SENT, SUBMITTED
from core.db.send_lock import BUSY, holding
from core.db.store import explain_any
from core.drafts.send_claim import SendSnapshot, claim_for_send, refuse_unless_approved
from core.drafts.send_journal_keeper import SendJournalKeeper
from core.drafts.send_rate import wait_for_send_slot
from core.drafts.state import STATUS_ZH, Transition, transition
from core.drafts.submit_once import PREPARED, TRANSMITTED, VERDICT_WORDS, SubmitOnce, set_fields
from core.errors import (
    DraftStateError,
    MailerAmbiguous,
    MailerError,
    MailerGone,
    MailerRefused,
    MailerUnavailable,
    NotFound,
    failure_note,
)
from core.mail.ports import DraftMailer, Mailer, SubmitMailer
from core.services import Services

if TYPE_CHECKING:
    from core.mailbox.outgoing import Outgoing

log = logging.getLogger(__name__)
T = TypeVar("T")

SYSTEM_ACTOR = "system"


@dataclass(frozen=True)
class SendResult:
    """What happened to one send attempt, in words for the owner (Chinese) and the tools.

    status: ``sent`` | ``waiting`` (not sent; goes when Outlook is reachable) | ``failed``
    (not sent; draft kept for the owner) | ``unknown`` (outcome unknown; reconciled later, never
    resent blindly).
    """

    draft_id: int
    status: str
    message: str

    @property
    def ok(self) -> bool:
        return self.status == "sent"


class _AlreadySent(Exception):
    """The recorded Outlook draft is gone because it was sent (found in Sent Items)."""


def _retry_later(exc: BaseException) -> bool:
    """Nothing was sent and trying again later is right. The adapters say which kind of
    failure it was (``core.errors.MailerError``); before the one submit call an ambiguous
    write only risks an orphan remote draft, never a send, so it waits for a retry too."""
    if isinstance(exc, MailerUnavailable | MailerAmbiguous):
        return True
    return isinstance(exc, OSError | asyncio.TimeoutError) and not isinstance(exc, MailerError)


class DraftSender:
    """Owns the ``approved → sending → sent`` leg of the state machine over a GraphMailer."""

    def __init__(
        self,
        services: Services,
        mailer: Mailer | None,
        *,
        publish: Callable[[list[Transition]], None] | None = None,
        per_minute: int | None = None,
    ) -> None:
        self.services = services
        self.mailer = mailer
        self._publish = publish or self._publish_on_bus
        self.per_minute = per_minute or services.settings.number("graph.send_per_minute") or 30
        self._lock = asyncio.Lock()
        # the send journal (core.db.send_journal): checked before a claim, written around
        # the one submit call
        self.journal_keeper = SendJournalKeeper(services, mailer, self._publish)

    @property
    def clock(self) -> Clock:
        return self.services.clock

    @property
    def drafts(self) -> DraftMailer:  # the mailer as a DraftMailer (Graph; when has_drafts)
        return cast(DraftMailer, self.mailer)

    def _publish_on_bus(self, transitions: list[Transition]) -> None:
        for t in transitions:
            for event in t.events():
                self.services.bus.publish(event)

    # ------------------------------------------------------------------ store helpers
    async def _write(self, fn: Callable[[Session], T]) -> T:
        return await self.services.store.run(fn)

    def _move(
        self, draft_id: int, to_status: str, *, actor: str, note: str = "", **fields: Any
    ) -> Callable[[Session], Transition]:
        def do(session: Session) -> Transition:
            draft = session.get(Draft, draft_id)
            if draft is None:
                raise NotFound(f"草稿 #{draft_id} 不存在 / draft #{draft_id} does not exist")
            for key, value in fields.items():
                setattr(draft, key, value)
            return transition(
                session,
                draft,
                to_status,
                actor=actor,
                clock=self.clock,
                note=note,
                _reconcile=(to_status == "approved"),
            )

        return do

    async def _move_and_publish(self, draft_id: int, to_status: str, **kw: Any) -> Transition:
        t = await self._write(self._move(draft_id, to_status, **kw))
        self._publish([t])
        return t

    # ------------------------------------------------------------------ send
    async def send(self, draft_id: int, *, actor: str) -> SendResult:
        """Send one approved draft. Raises DraftStateError (nothing sent) if not approved, or
        while another process is sending it."""
        async with self._lock:
            await wait_for_send_slot(self.services.store, self.clock, self.per_minute)
            async with holding(self.services.store, draft_id) as mine:
                if not mine:  # another process is sending it now (``core.db.send_lock``)
                    raise DraftStateError(BUSY.format(id=draft_id))
                return await self._send_locked(draft_id, actor=actor)

    async def _send_locked(self, draft_id: int, *, actor: str) -> SendResult:
        if self.mailer is None:  # refuse cleanly before claiming: nothing to send with
            await self.services.store.read(lambda s: refuse_unless_approved(s, draft_id))
            return SendResult(
                draft_id, "waiting", "未发送：尚未连接 Outlook（请登录微软账户），登录后自动发送"
            )
        settled = await self.journal_keeper.check(
            draft_id
        )  # journalled or in Sent Items: not again
        if settled is not None:
            return SendResult(draft_id, *settled)
        paths = self.services.paths
        snap, claimed = await self._write(
            lambda s: claim_for_send(s, draft_id, actor=actor, clock=self.clock, paths=paths)
        )
        self._publish([claimed])
        if not getattr(self.mailer, "has_drafts", True):  # SMTP: core.drafts.submit_once
            return await self._send_by_submission(snap, actor=actor)

        # Step 2: the Outlook draft, id committed before any send.
        try:
            outlook_id, imid = await self._prepare_outlook_draft(snap)
        except _AlreadySent:
            await self.journal_keeper.outcome_for(snap.id, SUBMITTED, note="found in Sent Items")
            await self._move_and_publish(
                snap.id,
                "sent",
                actor=SYSTEM_ACTOR,
                note="核对：已在已发送邮件中，未重复发送",
                sent_at=naive_utc(self.clock.now()),
            )
            return SendResult(
                snap.id, "sent", f"已发送给 {', '.join(snap.to)}（此前已发出，未重复发送）"
            )
        except Exception as exc:  # nothing was sent: send_draft has not been called
            return await self._not_sent(snap.id, exc, actor=actor)

        # Step 3: the one send, journalled (fsynced) before it is made.
        try:
            attempt = self.journal_keeper.submitting(
                snap.id,
                imid,
                outlook_id,
                recipients=snap.to,
                subject=snap.subject,
                draft_created=snap.created_at,
            )
        except OSError as exc:  # no journal line, no submit
            return await self._not_sent(snap.id, explain_any(exc), actor=actor)
        try:
            await self.drafts.send_draft(outlook_id)
        except Exception as exc:
            log.warning("send of draft %s failed: %s", snap.id, exc)
            return await self._after_send_error(snap, exc, actor=actor)
        self.journal_keeper.outcome(SUBMITTED, attempt)
        now = naive_utc(self.clock.now())
        await self._move_and_publish(
            snap.id, "sent", actor=actor, note=f"已发送给 {', '.join(snap.to)}", sent_at=now
        )
        return SendResult(snap.id, "sent", f"已发送给 {', '.join(snap.to)}")

    def _submit_once(self) -> SubmitOnce:
        s, mailer = self.services, cast("SubmitMailer[Outgoing]", self.mailer)
        name = s.settings.text("general.company_name") or s.settings.text("general.owner_name")
        return SubmitOnce(mailer, s.store, s.paths.cache, name)

    async def _send_by_submission(self, snap: SendSnapshot, *, actor: str) -> SendResult:
        once = self._submit_once()
        try:
            out, message_id, raw = await once.prepare(snap)
            attempt = self.journal_keeper.submitting(
                snap.id, message_id, None, recipients=snap.to, subject=snap.subject,
                draft_created=snap.created_at,
            )  # fmt: skip
        except Exception as exc:  # nothing was submitted
            return await self._not_sent(snap.id, exc, actor=actor)
        try:
            await once.submit(snap, out, raw)
        except MailerAmbiguous as exc:  # its last byte left: ask Sent before anything else
            log.warning("submission of draft %s may have gone: %s", snap.id, exc)
            return await self._after_send_error(snap, exc, actor=actor)
        except Exception as exc:
            # not the port's tree (a bug in an adapter): the journal mark decides
            if (
                not isinstance(exc, MailerUnavailable | MailerRefused)
                and await once.mark(snap.id) == TRANSMITTED
            ):
                return await self._after_send_error(snap, exc, actor=actor)
            # provably nothing was taken: journalled so, the same Message-ID goes next time
            log.warning("submission of draft %s did not go: %s", snap.id, exc)
            self.journal_keeper.outcome(NOT_SENT, attempt, note=type(exc).__name__)
            await self._write(self._set_fields(snap.id, outlook_draft_id=PREPARED))
            return await self._not_sent(snap.id, exc, actor=actor)
        self.journal_keeper.outcome(SUBMITTED, attempt)
        await once.file_copy(snap.id, message_id, raw)
        now = naive_utc(self.clock.now())
        await self._move_and_publish(
            snap.id, "sent", actor=actor, note=f"已发送给 {', '.join(snap.to)}", sent_at=now
        )
        return SendResult(snap.id, "sent", f"已发送给 {', '.join(snap.to)}")

    async def _reconcile_submitted(
        self, draft_id: int, mark: str | None, imid: str | None, to: list[str]
    ) -> SendResult:
        verdict = await self._submit_once().decide(draft_id, mark, imid)
        went = verdict != "not_sent"
        await self.journal_keeper.outcome_for(
            draft_id, SUBMITTED if went else NOT_SENT, note=verdict
        )
        (note, answer), to_status = VERDICT_WORDS[verdict], "sent" if went else "approved"
        fields = {"sent_at": naive_utc(self.clock.now())} if went else {}
        await self._move_and_publish(draft_id, to_status, actor=SYSTEM_ACTOR, note=note, **fields)
        status = to_status if went else "waiting"
        return SendResult(draft_id, status, answer.format(to=", ".join(to)))

    async def _prepare_outlook_draft(self, snap: SendSnapshot) -> tuple[str, str | None]:
        outlook_id = snap.outlook_id
        reused = False
        if outlook_id is not None:
            try:
                exists = await self.drafts.draft_exists(outlook_id)
            except MailerGone:
                exists = False
            if not exists:
                # gone: if it went out (sent from Outlook by hand, or by us before a crash),
                # sending a fresh copy would be a duplicate
                if snap.internet_message_id and await self.drafts.find_sent(
                    snap.internet_message_id
                ):
                    raise _AlreadySent()
                outlook_id = None
            else:
                reused = True
        if outlook_id is None:
            if snap.reply_graph_id:
                try:
                    outlook_id = await self.drafts.create_reply_draft(snap.reply_graph_id)
                except MailerGone:  # the customer's message was deleted: start a new mail
                    outlook_id = None
            if outlook_id is None:
                outlook_id = await self.drafts.create_draft(
                    snap.to, snap.subject, snap.body, cc=snap.cc or None, marker=f"draft-{snap.id}"
                )
            # Record the id at once, so even a crash in the PATCH below leaves a trail.
            await self._write(self._set_fields(snap.id, outlook_draft_id=outlook_id))
        await self.drafts.update_draft(
            outlook_id, to=snap.to, subject=snap.subject, body=snap.body, cc=snap.cc
        )
        if snap.attachments or reused:
            await self._sync_attachments(outlook_id, snap.attachments, reused=reused)
        imid = await self.drafts.internet_message_id(outlook_id)
        await self._write(
            self._set_fields(snap.id, outlook_draft_id=outlook_id, internet_message_id=imid)
        )
        return outlook_id, imid

    async def _sync_attachments(
        self, outlook_id: str, files: list[tuple[str, str, str, int]], *, reused: bool
    ) -> None:
        """Make the Outlook draft carry exactly the chosen files (by name and size)."""
        wanted = collections.Counter((name, size) for name, _, _, size in files)
        if reused:
            for att in await self.drafts.list_attachments(outlook_id):
                key = (att.name, att.size)
                if wanted[key] > 0:
                    wanted[key] -= 1  # already there from an earlier attempt
                else:
                    await self.drafts.delete_attachment(outlook_id, att.id)
        for name, content_type, path, size in files:
            if wanted[(name, size)] <= 0:
                continue
            wanted[(name, size)] -= 1
            try:
                data = await tasks.io(_read_file, path)
            except OSError as exc:
                raise DraftStateError(f"附件「{name}」读取失败：{exc.strerror or exc}") from exc
            await self.drafts.add_attachment(outlook_id, name, content_type, data)

    # ------------------------------------------------------------------ abandoned copies
    async def delete_abandoned(self, draft_id: int | None = None) -> int:
        """Delete the Outlook copies of rejected/superseded drafts; returns how many went.

        Only a copy that is still an unsent draft is deleted (a sent message answers 404 or
        ``isDraft: false``). The local record keeps the id in the audit trail."""
        if self.mailer is None or not getattr(self.mailer, "has_drafts", True):
            return 0

        def load(session: Session) -> list[tuple[int, str]]:
            query = select(Draft.id, Draft.outlook_draft_id).where(
                Draft.status.in_(("rejected", "superseded")),
                Draft.outlook_draft_id.is_not(None),
            )
            if draft_id is not None:
                query = query.where(Draft.id == draft_id)
            return [(i, o) for i, o in session.execute(query) if o is not None]

        deleted = 0
        for local_id, outlook_id in await self.services.store.read(load):
            was_draft = await self.drafts.draft_exists(outlook_id)
            gone = was_draft and await self.drafts.delete_draft(outlook_id)
            deleted += int(bool(gone))

            def record(
                session: Session,
                local_id: int = local_id,
                oid: str = outlook_id,
                gone: bool = bool(gone),
            ) -> None:
                draft = session.get(Draft, local_id)
                if draft is None:
                    return
                draft.outlook_draft_id = None
                session.add(
                    AuditEntry(
                        entity="draft",
                        entity_id=local_id,
                        action="outlook_draft_deleted",
                        detail={"outlook_id": oid, "deleted": bool(gone)},
                        actor=SYSTEM_ACTOR,
                        at=naive_utc(self.clock.now()),
                    )
                )

            await self._write(record)
        return deleted

    _set_fields = staticmethod(set_fields)

    async def _not_sent(self, draft_id: int, exc: BaseException, *, actor: str) -> SendResult:
        reason = failure_note(exc)
        if _retry_later(exc):
            await self._move_and_publish(
                draft_id,
                "approved",
                actor=SYSTEM_ACTOR,
                note=f"未发送，等待重试：{reason}",
                error=reason,
            )
            return SendResult(
                draft_id, "waiting", f"未发送：{reason}。连接恢复后自动发送（只发一次）"
            )
        await self._move_and_publish(
            draft_id, "failed", actor=SYSTEM_ACTOR, note=f"未发送：{reason}", error=reason
        )
        return SendResult(draft_id, "failed", f"发送失败，草稿已保留：{reason}")

    async def _after_send_error(
        self, snap: SendSnapshot, exc: BaseException, *, actor: str
    ) -> SendResult:
        """send_draft raised: ask Outlook what happened before deciding anything."""
        try:
            results = await self._reconcile_one(snap.id, cause=exc)
        except Exception as check_exc:  # Outlook unreachable: leave ``sending`` for later
            reason = failure_note(exc)
            await self._write(self._set_fields(snap.id, error=reason))
            log.info("draft %s: outcome unknown (%s; check failed: %s)", snap.id, exc, check_exc)
            return SendResult(
                snap.id,
                "unknown",
                f"发送结果未知（{reason}）。连接恢复后会向邮箱核对，绝不重复发送",
            )
        return results

    # ------------------------------------------------------------------ reconcile
    async def _reconcile_one(
        self, draft_id: int, *, cause: BaseException | None = None
    ) -> SendResult:
        def load(session: Session) -> tuple[str, str | None, str | None, list[str]]:
            d = session.get(Draft, draft_id)
            if d is None:
                raise NotFound(f"草稿 #{draft_id} 不存在 / draft #{draft_id} does not exist")
            return d.status, d.outlook_draft_id, d.internet_message_id, list(d.to_addrs or [])

        status, outlook_id, imid, to = await self.services.store.read(load)
        if status != "sending":
            return SendResult(draft_id, status, STATUS_ZH.get(status, status))
        if not getattr(self.mailer, "has_drafts", True):
            return await self._reconcile_submitted(draft_id, outlook_id, imid, to)
        if outlook_id is None:
            await self._move_and_publish(
                draft_id, "approved", actor=SYSTEM_ACTOR, note="核对：未创建 Outlook 草稿，未发送"
            )
            return SendResult(draft_id, "waiting", "未发送（核对：尚未到达 Outlook），稍后自动发送")
        if imid is None:
            imid = await self.drafts.internet_message_id(outlook_id)
        if imid and await self.drafts.find_sent(imid):
            await self.journal_keeper.outcome_for(draft_id, SUBMITTED, note="found in Sent Items")
            now = naive_utc(self.clock.now())
            await self._move_and_publish(
                draft_id,
                "sent",
                actor=SYSTEM_ACTOR,
                note="核对：已在已发送邮件中",
                sent_at=now,
                internet_message_id=imid,
            )
            return SendResult(draft_id, "sent", f"已发送给 {', '.join(to)}")
        if await self.drafts.draft_exists(outlook_id):
            await self.journal_keeper.outcome_for(draft_id, NOT_SENT, note="still in Drafts")
            if cause is not None and not _retry_later(cause):
                reason = failure_note(cause)
                await self._move_and_publish(
                    draft_id,
                    "failed",
                    actor=SYSTEM_ACTOR,
                    note=f"Outlook 拒绝发送：{reason}",
                    error=reason,
                )
                return SendResult(draft_id, "failed", f"发送失败，草稿已保留：{reason}")
            note = "核对：Outlook 草稿仍在草稿箱，未发出"
            if cause is not None:
                note += f"（{failure_note(cause)}）"
            await self._move_and_publish(
                draft_id,
                "approved",
                actor=SYSTEM_ACTOR,
                note=note,
                error=failure_note(cause) if cause else None,
            )
            return SendResult(
                draft_id, "waiting", "未发送（Outlook 草稿仍在草稿箱），连接恢复后自动发送一次"
            )
        message = (
            "Outlook 草稿已不在草稿箱，已发送邮件中也找不到；为避免重复发送，未重新发送。"
            "请在 Outlook 中确认后再决定"
        )
        await self._move_and_publish(
            draft_id, "failed", actor=SYSTEM_ACTOR, note=message, error=message
        )
        return SendResult(draft_id, "failed", message)

    async def reconcile(self) -> list[SendResult]:
        """Settle every draft left in ``sending`` (after a crash or a dropped connection)."""
        ids = await self.services.store.read(
            lambda s: list(
                s.scalars(select(Draft.id).where(Draft.status == "sending").order_by(Draft.id))
            )
        )
        if not ids or self.mailer is None:
            return []
        results = []
        async with self._lock:
            for draft_id in ids:
                try:
                    # held by a live process (a desk, the service): a send in flight, its
                    # outcome that process's to record, not a crash to settle
                    async with holding(self.services.store, draft_id) as mine:
                        if mine:
                            results.append(await self._reconcile_one(draft_id))
                except Exception as exc:  # unreachable: try again next round
                    log.info("reconcile of draft %s postponed: %s", draft_id, exc)
                    results.append(
                        SendResult(draft_id, "unknown", f"暂时无法核对：{failure_note(exc)}")
                    )
                    break
        return results

    async def send_due(self, *, actor: str = SYSTEM_ACTOR) -> list[SendResult]:
        """What the scheduler calls: reconcile, then send every approved draft, oldest approval
        first, paced to the per-minute limit. Stops at the first connection problem (the rest
        wait for the next round)."""
        if self.mailer is None:
            return []
        await (
            self.journal_keeper.settle()
        )  # journalled sends the store forgot (a restore) are ``sent``
        results = await self.reconcile()
        if any(r.status == "unknown" for r in results):
            return results
        ids = await self.services.store.read(
            lambda s: list(
                s.scalars(
                    select(Draft.id)
                    .where(Draft.status == "approved")
                    .order_by(Draft.approved_at, Draft.id)
                )
            )
        )
        for draft_id in ids:
            try:
                result = await self.send(draft_id, actor=actor)
            except DraftStateError:  # changed meanwhile (edited, rejected): skip
                continue
            results.append(result)
            if result.status in {"waiting", "unknown"}:
                break
        else:
            try:
                await self.delete_abandoned()
            except Exception as exc:  # cosmetic: the next round tries again
                log.info("deleting abandoned Outlook drafts postponed: %s", exc)
        return results


def _read_file(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()
