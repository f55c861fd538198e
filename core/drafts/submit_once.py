"""The send leg for a mailbox without server-side drafts (SMTP): journal, submit once, file.

``DraftSender`` claims the draft (``approved → sending``, one SQLite write) and hands the
snapshot here when its mailer has no drafts (``has_drafts`` False). The once-only argument,
step by step, each step committed before the next begins:

1. **Fix the Message-ID** (``internet_message_id``) and write the exact bytes to
   ``<data folder>/cache/outbox/draft-<id>.eml``; the journal mark (``outlook_draft_id``, the
   draft's remote handle) says ``smtp:prepared``. Nothing has left the computer.
2. **Submit.** The moment the last byte of DATA is written, before the server answers, the mark
   becomes ``smtp:transmitted``. From here on the server may have the message. The adapter
   says what a failure means (``core.errors.MailerError``): ``MailerUnavailable`` /
   ``MailerRefused`` — nothing was taken (refused or dropped at connect, MAIL, RCPT or DATA, or
   a non-2xx answer after the final dot): the journal gets ``not_sent``, the mark goes back to
   ``smtp:prepared`` and the same Message-ID is submitted on the next try (or, refused, after
   the owner fixes and re-approves); ``MailerAmbiguous`` — the connection broke after the last
   byte: reconciled as below, never resubmitted.
3. **Bookkeeping**: the copy is filed in Sent (appended unless the provider files it) and the
   draft becomes ``sent``.

``reconcile`` (a crash, a cut connection) reads the journal instead of guessing:

* no mark, or ``smtp:prepared`` → the bytes never left → back to ``approved``; the next send
  goes once (step 1 reuses the same Message-ID);
* the Message-ID is in Sent → it went → ``sent``;
* ``smtp:transmitted`` → the server may have it, and the answer was lost: it is **never resent**;
  it counts as ``sent`` (the owner is told the confirmation was missing) and the copy is filed
  in Sent so he sees it there.

So a message is submitted again only when the journal proves none of its bytes left.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from core import tasks
from core.db.models import Draft
from core.drafts.send_claim import SendSnapshot
from core.errors import DraftStateError
from core.mail.ports import SubmitMailer

if TYPE_CHECKING:
    from core.db.store import Store
    from core.mailbox.outgoing import Outgoing

log = logging.getLogger(__name__)

# reconcile verdict → (audit note, the owner's answer; {to} the recipients)
VERDICT_WORDS = {
    "not_sent": (
        "核对：邮件未离开本机，未发送",
        "未发送（核对：邮件未离开本机），稍后自动发送一次",
    ),
    "sent": ("核对：已在已发送邮件中", "已发送给 {to}（核对：已在已发送邮件中）"),
    "sent_unconfirmed": (
        "核对：邮件已交给发信服务器，但未收到确认；为避免重复发送，未重发（已放入已发送）",
        "已发送给 {to}（邮件已交给发信服务器，但未收到确认；为避免重复发送，未重发）",
    ),
}

PREPARED = "smtp:prepared"
TRANSMITTED = "smtp:transmitted"


def set_fields(draft_id: int, **fields: object) -> Callable[[Session], None]:
    """A store write setting ``fields`` on draft ``draft_id`` (the journal's one shape)."""

    def do(session: Session) -> None:
        draft = session.get(Draft, draft_id)
        if draft is not None:
            for key, value in fields.items():
                setattr(draft, key, value)

    return do


def outbox_file(cache: Path, draft_id: int) -> Path:
    return cache / "outbox" / f"draft-{draft_id}.eml"


def _read(path: Path) -> bytes:
    return path.read_bytes()


def _write(path: Path, raw: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(raw)
    tmp.replace(path)


class SubmitOnce:
    """Steps 1–3 and the reconcile rules above, over ``mailer``; ``store`` writes the journal."""

    def __init__(self, mailer: SubmitMailer[Outgoing], store: Store, cache: Path, sender_name: str):
        self.mailer = mailer
        self.store = store
        self.cache = cache
        self.sender_name = sender_name

    _mark = staticmethod(set_fields)

    async def _outgoing(self, snap: SendSnapshot) -> Outgoing:
        from core.mailbox.outgoing import Outgoing

        files = []
        for name, content_type, path, _size in snap.attachments:
            try:
                files.append((name, content_type, await tasks.io(_read, Path(path))))
            except OSError as exc:
                raise DraftStateError(f"附件「{name}」读取失败：{exc.strerror or exc}") from exc
        return Outgoing(
            draft_id=snap.id,
            sender=self.mailer.sender,
            sender_name=self.sender_name,
            to=snap.to,
            cc=snap.cc,
            subject=snap.subject,
            body=snap.body,
            reply_message_id=snap.reply_message_id,
            references=snap.references,
            attachments=files,
        )

    async def mark(self, draft_id: int) -> str | None:
        """The journal mark of a draft now (``smtp:prepared`` / ``smtp:transmitted`` / None)."""
        return await self.store.read(
            lambda s: getattr(s.get(Draft, draft_id), "outlook_draft_id", None)
        )

    async def prepare(self, snap: SendSnapshot) -> tuple[Outgoing, str, bytes]:
        """Step 1: the Message-ID (reused on a retry) and the bytes, journalled."""
        out = await self._outgoing(snap)
        message_id = snap.internet_message_id or self.mailer.new_message_id()
        raw = self.mailer.build(out, message_id)
        await tasks.io(_write, outbox_file(self.cache, snap.id), raw)
        await self.store.run(
            self._mark(snap.id, internet_message_id=message_id, outlook_draft_id=PREPARED)
        )
        return out, message_id, raw

    async def submit(self, snap: SendSnapshot, out: Outgoing, raw: bytes) -> None:
        """Step 2: the one submission; the journal mark moves when the last byte is out."""

        def transmitted() -> None:  # runs in the SMTP worker thread: a direct write
            self.store.write(self._mark(snap.id, outlook_draft_id=TRANSMITTED))

        await self.mailer.submit(out, raw, transmitted)

    async def file_copy(self, draft_id: int, message_id: str, raw: bytes | None = None) -> bool:
        """Step 3's Sent copy; a failure is logged (the message went; the copy is cosmetic)."""
        try:
            if raw is None:
                raw = await tasks.io(_read, outbox_file(self.cache, draft_id))
            return await self.mailer.file_sent_copy(message_id, raw)
        except Exception as exc:
            log.warning("draft %s: filing the sent copy failed: %s", draft_id, exc)
            return False

    async def decide(self, draft_id: int, mark: str | None, message_id: str | None) -> str:
        """Reconcile verdict: ``sent`` | ``sent_unconfirmed`` | ``not_sent``."""
        if mark not in (PREPARED, TRANSMITTED) or not message_id:
            return "not_sent"
        if await self.mailer.find_sent(message_id):
            return "sent"
        if mark == TRANSMITTED:
            await self.file_copy(draft_id, message_id)
            return "sent_unconfirmed"
        return "not_sent"
