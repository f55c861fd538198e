"""OwnerEdits: the owner changes a draft's words, recipients, files or confirmed values.

Every edit is audited, re-runs the fact guard where the words or recipients changed, and sends
an approved draft back to ``pending_approval`` (he approved a different email). None of these
methods can approve or send: an edit can only ever move a draft *back* into review.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from core import tasks
from core.db.app_state import put_state
from core.db.models import Draft
from core.drafts import reply_model
from core.drafts.attachments import copy_owner_file, owner_file_row
from core.drafts.base import EDITABLE, DraftCore, not_editable, require_llm
from core.drafts.evidence import phone_region, run_guard
from core.drafts.reader import ATTACH_FOLDER_KEY
from core.drafts.recipients import recipient_flags
from core.drafts.state import APPROVERS, Transition
from core.drafts.translation import zh_stamp
from core.drafts.view import DraftView, draft_view
from core.errors import DraftStateError
from core.text.email_address import is_email_address
from core.text.facts import extract_facts

if TYPE_CHECKING:
    from core.llm.model import ModelClient

Change = tuple[DraftView, list[Transition]]


class OwnerEdits:
    """Body, subject, recipients, attachments, confirmed facts and the Chinese rendering."""

    def __init__(self, core: DraftCore, llm: ModelClient | None) -> None:
        self._core = core
        self._llm = llm

    async def _change(self, fn: Callable[[Session], Change]) -> DraftView:
        view, moves = await self._core.services.store.run(fn)
        self._core.publish(moves)
        return view

    def _view(self, session: Session, draft: Draft) -> DraftView:
        return draft_view(session, draft, self._core.services.paths)

    async def update_body(
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
            if not is_email_address(address):
                raise DraftStateError(f"收件人地址无效：{address}")
        if to is not None and not to:
            raise DraftStateError("至少需要一个收件人")
        core = self._core

        def do(session: Session) -> Change:
            draft = core.get(session, draft_id)
            if draft.status not in EDITABLE:
                raise not_editable(draft, "编辑")
            before = draft.body_en
            changed = _apply_edit(draft, body_en, subject, to, cc)
            if not changed:
                return self._view(session, draft), []
            typed: list[str] = []
            if "body_en" in changed and actor in APPROVERS:  # he typed these values himself
                region = phone_region(core.services.settings)
                typed = typed_values(before, draft.body_en, [], region)
            draft.updated_at = core.now()
            core.audit(session, draft.id, "edit", actor, **changed)  # first: his recipients
            if typed:
                # his word, but another customer's address or phone in the body still needs
                # his explicit yes: whose contact it is matters (core.drafts.recipients)
                others = set(recipient_flags(session, draft, core.services.settings))
                mine = [value for value in typed if value not in others]
                draft.confirmed_facts = list(dict.fromkeys([*(draft.confirmed_facts or []), *mine]))
            run_guard(session, draft, core.services.settings)
            move = core.back_to_review(session, draft, actor, "老板修改了草稿")
            return self._view(session, draft), [move]

        return await self._change(do)

    async def set_recipients(
        self, draft_id: int, to: list[str], *, actor: str, cc: list[str] | None = None
    ) -> DraftView:
        """Only the recipients change (the body stays); checked and audited like any edit."""
        core = self._core
        body = await core.services.store.read(lambda s: core.get(s, draft_id).body_en)
        return await self.update_body(draft_id, body, actor=actor, to=to, cc=cc)

    async def set_attachments(
        self, draft_id: int, attachment_ids: list[int], *, actor: str
    ) -> DraftView:
        """The owner changed which files go with the email (audited). Like any edit, an approved
        draft goes back to pending_approval: he approved a different email."""
        core = self._core

        def do(session: Session) -> Change:
            draft = core.get(session, draft_id)
            if draft.status not in EDITABLE:
                raise not_editable(draft, "修改附件")
            old = [int(i) for i in (draft.attachment_ids or [])]
            new = core.check_files(session, draft.inquiry_id, list(attachment_ids))
            if new == old:
                return self._view(session, draft), []
            draft.attachment_ids = new
            draft.updated_at = core.now()
            added = [i for i in new if i not in old]
            removed = [i for i in old if i not in new]
            core.audit(
                session, draft.id, "attachments", actor, added=added, removed=removed,
                attachment_ids=new,
            )  # fmt: skip
            move = core.back_to_review(session, draft, actor, "老板修改了附件")
            return self._view(session, draft), [move]

        return await self._change(do)

    async def add_owner_file(self, draft_id: int, path: str, *, actor: str) -> DraftView:
        """添加本机文件: a file from the owner's computer (the quote PDF he just made) becomes
        one of the inquiry's files and is ticked on this draft (audited). From then on it is
        like any file of the thread: listed, untickable, size-checked, uploaded on send. Like
        any edit, an approved draft goes back to pending_approval.

        The copy into the data folder (up to 150 MB) runs on a worker thread before the write
        transaction, so it never holds the database's one writer; the draft's state is checked
        before the copy (a refused draft costs no copy) and again when the row is written."""
        core = self._core

        def check(session: Session) -> int:
            draft = core.get(session, draft_id)
            if draft.status not in EDITABLE:
                raise not_editable(draft, "修改附件")
            if draft.inquiry_id is None:
                raise DraftStateError(f"草稿 {draft_id} 不属于任何询盘，无法添加本机文件")
            return draft.inquiry_id

        inquiry_id = await core.services.store.read(check)
        copied = await tasks.io(copy_owner_file, core.services.paths, path)

        def do(session: Session) -> Change:
            draft = core.get(session, draft_id)
            if check(session) != inquiry_id:  # moved meanwhile: never attach across inquiries
                raise DraftStateError(f"草稿 {draft_id} 已改变，请重试")
            row = owner_file_row(session, inquiry_id, copied, core.now())
            old = [int(i) for i in (draft.attachment_ids or [])]
            new = old if row.id in old else [*old, row.id]
            core.audit(
                session, draft.id, "owner_file", actor, attachment_id=row.id,
                filename=copied.filename, size=copied.size, sha256=copied.sha256,
                source=copied.source, attachment_ids=new,
            )  # fmt: skip
            if new == old:  # the same file again, already ticked: nothing else changes
                return self._view(session, draft), []
            draft.attachment_ids = new
            draft.updated_at = core.now()
            move = core.back_to_review(session, draft, actor, "老板添加了本机文件")
            return self._view(session, draft), [move]

        return await self._change(do)

    async def remember_attach_folder(self, path: str) -> None:
        """Remember where the owner took a file from, so the next file dialog opens there."""
        folder, now = str(Path(path).parent), self._core.clock.now()
        await self._core.services.store.run(lambda s: put_state(s, ATTACH_FOLDER_KEY, folder, now))

    async def rerender_zh(self, draft_id: int) -> str:
        """A fresh Chinese rendering of the current English body (after the owner's edits)."""
        llm = require_llm(self._llm)
        core = self._core
        view = await core.services.store.read(lambda s: self._view(s, core.get(s, draft_id)))
        zh = await reply_model.render_zh(llm, view.subject, view.body_en, {"draft_id": draft_id})

        def save(session: Session) -> bool:
            draft = core.get(session, draft_id)
            if draft.body_en != view.body_en:  # edited again meanwhile: this rendering is stale
                return False
            draft.body_zh = zh.strip()
            draft.zh_source = zh_stamp(view.body_en)  # a translation of this English, only
            draft.updated_at = core.now()
            run_guard(session, draft, core.services.settings)  # he will read this: compare it
            return True

        if await core.services.store.run(save):
            core.publish([Transition(draft_id, view.inquiry_id, view.status, view.status)])
        return zh

    async def confirm_facts(self, draft_id: int, facts: list[str], *, actor: str) -> DraftView:
        """The owner confirms flagged values one by one (they stop blocking approval)."""
        core = self._core

        def do(session: Session) -> Change:
            draft = core.get(session, draft_id)
            if draft.status not in EDITABLE:
                raise not_editable(draft, "确认")
            wanted = [f for f in facts if f]
            draft.confirmed_facts = list(dict.fromkeys([*(draft.confirmed_facts or []), *wanted]))
            run_guard(session, draft, core.services.settings)
            draft.updated_at = core.now()
            core.audit(session, draft.id, "confirm_facts", actor, facts=wanted)
            same = Transition(draft.id, draft.inquiry_id, draft.status, draft.status)
            return self._view(session, draft), [same]

        return await self._change(do)


def typed_values(before: str, after: str, confirmed: list[str], region: str) -> list[str]:
    """``confirmed`` plus the values the owner's own edit brought into the English: only people
    state facts, and he is one — a price he typed is his word, not a value "not in your
    instruction or the emails" (an edit by the assistant never comes here)."""
    old = {fact.text for fact in extract_facts(before, region)}
    new = [fact.text for fact in extract_facts(after, region) if fact.text not in old]
    return list(dict.fromkeys([*confirmed, *new]))


def _apply_edit(
    draft: Draft,
    body_en: str,
    subject: str | None,
    to: list[str] | None,
    cc: list[str] | None,
) -> dict[str, Any]:
    """Write what differs into ``draft``; returns what changed (for the audit row)."""
    changed: dict[str, Any] = {}
    if body_en.strip() != draft.body_en.strip():
        # how much he rewrote, for the accuracy figures (core.stats.corrections)
        changed["body_chars_before"] = len(draft.body_en.strip())
        changed["body_edit_chars"] = edit_chars(draft.body_en.strip(), body_en.strip())
        draft.body_en = body_en.strip()
        draft.body_zh, draft.zh_source = "", None  # no longer what will be sent
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
    return changed


def edit_chars(old: str, new: str) -> int:
    """Characters changed between two texts (insertions, deletions, replacements), by difflib's
    matching blocks: close to the edit distance and linear enough for an email."""
    if max(len(old), len(new)) > 20_000:  # a pasted document: compare lines, not characters
        a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        return sum(
            max(sum(map(len, a[i1:i2])), sum(map(len, b[j1:j2])))
            for tag, i1, i2, j1, j2 in matcher.get_opcodes()
            if tag != "equal"
        )
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    return sum(
        max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    )
