"""DraftReader: everything about drafts that can be read, and nothing that changes one.

Every surface gets a reader: the 待审批 list, the approval window, the compose dialog, the CLI,
the assistant's tools. It returns dataclasses (``DraftView``, ``DraftStep``, ``FileOption``,
``RecentContact``, ``InquiryContact``), never ORM rows, and every method is a coroutine whose
database work runs off the event loop (``Store.read``).

This module does not import the composer or the fact guard, so building a reader (the pending
list at start-up) stays cheap.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.app_state import get_state
from core.db.models import Draft, DraftEvent, Inquiry
from core.drafts.attachments import FileOption, inquiry_files
from core.drafts.base import DraftCore
from core.drafts.recent import RecentContact, recent_contact
from core.drafts.view import DraftView, draft_view, iso_utc
from core.services import Services

PENDING_TEXT = "DRAFT_PENDING_APPROVAL — NOT SENT"
# app_state: the folder 添加本机文件… last took a file from (the approval window opens there)
ATTACH_FOLDER_KEY = "desktop.attach_folder"


@dataclass(frozen=True)
class DraftStep:
    """One line of a draft's audit trail: who moved it from where to where, when, and why."""

    from_status: str | None
    to_status: str
    actor: str
    at: str | None  # ISO 8601 UTC
    note: str


@dataclass(frozen=True)
class InquiryContact:
    """Who a reply to an inquiry goes to (the compose dialog's header)."""

    inquiry_id: int
    name: str | None
    email: str | None


class DraftReader:
    """Reads drafts, their trail, their attachable files and recent mail to a customer."""

    def __init__(self, core: DraftCore) -> None:
        self._core = core

    async def get(self, draft_id: int) -> DraftView:
        core = self._core
        return await core.services.store.read(
            lambda s: draft_view(s, core.get(s, draft_id), core.services.paths)
        )

    async def list(
        self, statuses: tuple[str, ...] | None = None, *, newest_first: bool = False
    ) -> builtins.list[DraftView]:
        """Drafts (only those in ``statuses`` when given), oldest first unless told."""
        paths = self._core.services.paths

        def read(session: Session) -> builtins.list[DraftView]:
            order = Draft.id.desc() if newest_first else Draft.id
            query = select(Draft).order_by(order)
            if statuses:
                query = query.where(Draft.status.in_(statuses))
            return [draft_view(session, d, paths) for d in session.scalars(query)]

        return await self._core.services.store.read(read)

    async def events(self, draft_id: int) -> builtins.list[DraftStep]:
        """The audit trail of one draft (who moved it where, when)."""

        def read(session: Session) -> builtins.list[DraftStep]:
            rows = session.scalars(
                select(DraftEvent).where(DraftEvent.draft_id == draft_id).order_by(DraftEvent.id)
            )
            return [
                DraftStep(e.from_status, e.to_status, e.actor, iso_utc(e.at), e.note) for e in rows
            ]

        return await self._core.services.store.read(read)

    async def attachment_options(self, draft_id: int) -> builtins.list[FileOption]:
        """The files the owner may attach to this draft (its inquiry's files)."""
        core = self._core

        def read(session: Session) -> builtins.list[FileOption]:
            draft = core.get(session, draft_id)
            return inquiry_files(session, core.services.paths, draft.inquiry_id)

        return await core.services.store.read(read)

    async def inquiry_files(self, inquiry_id: int) -> builtins.list[FileOption]:
        """The files of an inquiry a new reply may carry (LookupError: no such inquiry)."""
        paths = self._core.services.paths

        def read(session: Session) -> builtins.list[FileOption]:
            if session.get(Inquiry, inquiry_id) is None:
                raise LookupError(f"询盘 {inquiry_id} 不存在")
            return inquiry_files(session, paths, inquiry_id)

        return await self._core.services.store.read(read)

    async def inquiry_contact(self, inquiry_id: int) -> InquiryContact:
        def read(session: Session) -> InquiryContact:
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None:
                return InquiryContact(inquiry_id, None, None)
            return InquiryContact(inquiry_id, inquiry.customer_name, inquiry.customer_email)

        return await self._core.services.store.read(read)

    def recent_contact_days(self) -> int:
        """The owner's setting: mail within this many days counts as recent (a setting, not
        the store: no need to await)."""
        return self._core.services.settings.number("drafts.recent_contact_days")

    async def recent_contact(
        self, target: int | str, days: int | None = None
    ) -> builtins.list[RecentContact]:
        """Emails that went to this inquiry's customer (or address) in the last ``days`` days."""
        services = self._core.services
        if days is None:
            days = self.recent_contact_days()
        now, span = services.clock.now(), days
        return await services.store.read(lambda s: recent_contact(s, target, now=now, days=span))

    async def attach_folder(self) -> str | None:
        """The folder the owner last added a file from (None: never, or not a path)."""
        value = await self._core.services.store.read(lambda s: get_state(s, ATTACH_FOLDER_KEY))
        return value if isinstance(value, str) else None

    async def describe_for_tool(self, draft_id: int) -> str:
        """The truth about a draft in words a model cannot misread."""
        return describe(await self.get(draft_id))


def build_reader(services: Services) -> DraftReader:
    """A reader on its own (the 待审批 list at start-up: no composer, guard or mailer loaded)."""
    return DraftReader(DraftCore(services))


def describe(view: DraftView) -> str:
    """``DraftReader.describe_for_tool`` for a view already read."""
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
