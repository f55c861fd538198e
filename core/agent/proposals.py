"""Write proposals: what the assistant wanted to change in a turn that read customer mail.

A gated write (stage, note, folder) the owner's words did not ask for (``core.agent.consent``)
is not made: the loop stores it here as ``open`` and tells the model so (``PROPOSED — NOT
DONE``). A customer's reply that accepts a sent quote is one too (kind ``quote_accept``, filed
by ``core.app.quote_acceptance`` after code checked the model's reading of the mail). An addition to his knowledge base (kind ``knowledge``, no inquiry) is always only a
proposal (``core.agent.tools.knowledge``): the file is his word, so only his confirmation writes. The owner confirms it (the write is made then, as *his* act: the stage change is
``triggered_by="owner"``, the note is his word) or drops it; either way the row stays, with who
decided and when, and every move is an ``audit_log`` row (entity ``proposal``). Memories keep
their own proposals (``core.agent.memory``: a ``proposed`` memory row).

Statuses: ``open`` → ``confirmed`` | ``dropped`` | ``failed`` (the write could not be made
when he confirmed, e.g. the stage had moved meanwhile; ``result`` says why).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core import tasks
from core.clock import naive_utc
from core.db.claims import compare_and_set, current_value
from core.db.models import AuditEntry, WriteProposal
from core.errors import InquiryBridgeError
from core.events import InquiryUpdated
from core.inquiry.stages import STAGE_NAMES_ZH

APPLYING = "applying"  # claimed by one desk, its write being made

if TYPE_CHECKING:
    from core.agent.tools.drive_access import CustomerDrive
    from core.services import Services

__all__ = ["ProposalError", "ProposalItem", "apply", "describe", "list_proposals", "propose"]


class ProposalError(InquiryBridgeError):
    """A proposal id that does not exist or was already decided: what he asked for is wrong
    (输入有误), not "something went wrong"."""

    code = "bad_input"


@dataclass(frozen=True)
class ProposalItem:
    id: int
    kind: str
    inquiry_id: int | None
    summary_zh: str
    status: str
    created_at: str
    result: str = ""
    arguments: dict[str, Any] | None = None  # what the model asked (to_stage, text…)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "kind": self.kind, "inquiry_id": self.inquiry_id,
            "summary_zh": self.summary_zh, "status": self.status,
            "created_at": self.created_at, "result": self.result,
        }  # fmt: skip


def describe(kind: str, inquiry_id: int | None, args: dict[str, Any]) -> str:
    """The proposal in the owner's words (Chinese)."""
    if kind == "knowledge":
        from core.knowledge.base import SECTION_NAMES

        section = str(args.get("section") or "")
        text = str(args.get("text") or "").strip()
        return f"把「{text}」记进知识库（{SECTION_NAMES.get(section, section)}）"
    if kind == "quote_accept":  # a customer's reply that accepts (core.app.quote_acceptance)
        return f"客户接受了报价 {args.get('number') or ''}，改为已下单?"
    where = f"询盘 #{inquiry_id}"
    if kind == "stage":
        stage = str(args.get("to_stage") or "")
        reason = str(args.get("reason") or "").strip()
        return f"把{where}的阶段改为「{STAGE_NAMES_ZH.get(stage, stage)}」" + (
            f"（理由：{reason}）" if reason else ""
        )
    if kind == "note":
        return f"给{where}添加备注：{str(args.get('text') or '').strip()}"
    if kind == "folder":
        return f"为{where}创建 OneDrive 文件夹"
    return f"{kind}：{where}"


def _item(row: WriteProposal) -> ProposalItem:
    return ProposalItem(
        row.id, row.kind, row.inquiry_id, row.summary_zh, row.status,
        row.created_at.isoformat() + "Z", row.result, dict(row.arguments or {}),
    )  # fmt: skip


def _audit(session: Session, row: WriteProposal, action: str, actor: str, now: datetime) -> None:
    session.add(
        AuditEntry(
            entity="proposal",
            entity_id=row.id,
            action=action,
            detail={"kind": row.kind, "inquiry_id": row.inquiry_id, "arguments": row.arguments},
            actor=actor,
            at=now,
        )
    )


def propose(
    session: Session,
    *,
    kind: str,
    tool: str,
    inquiry_id: int | None,
    args: dict[str, Any],
    owner_words: str,
    channel: str,
    now: datetime,
) -> int:
    """Store an open proposal (audited as ``agent``); its id."""
    now = naive_utc(now)
    row = WriteProposal(
        kind=kind, tool=tool, inquiry_id=inquiry_id, arguments=dict(args),
        summary_zh=describe(kind, inquiry_id, args), owner_words=owner_words[:2000],
        channel=channel, status="open", result="", created_at=now,
    )  # fmt: skip
    session.add(row)
    session.flush()
    _audit(session, row, "proposed", "agent", now)
    return row.id


def list_proposals(
    session: Session, statuses: tuple[str, ...] | None = ("open",)
) -> list[ProposalItem]:
    query = select(WriteProposal).order_by(WriteProposal.id)
    if statuses:
        query = query.where(WriteProposal.status.in_(statuses))
    return [_item(r) for r in session.scalars(query)]


def _open(session: Session, proposal_id: int) -> WriteProposal:
    row = session.get(WriteProposal, proposal_id)
    if row is None:
        raise ProposalError(f"建议 {proposal_id} 不存在 / proposal {proposal_id} does not exist")
    if row.status != "open":
        raise ProposalError(
            f"建议 {proposal_id} 已是「{row.status}」 / proposal {proposal_id} is already {row.status}"
        )
    return row


async def _make(
    services: Services, row: WriteProposal, actor: str, drive: CustomerDrive | None = None
) -> str:
    """Make the proposed write as the owner's act; a short result line."""
    inquiry_id = int(row.inquiry_id or 0)
    args = row.arguments or {}
    if row.kind == "stage":
        from core.inquiry.stages import StageService

        stages = StageService(services.store, services.bus, services.clock)
        reason = f"老板确认助手的建议 #{row.id}：{args.get('reason') or ''}".strip()
        change = await stages.advance_async(
            inquiry_id, str(args.get("to_stage")), reason=reason, triggered_by="owner"
        )
        return f"阶段：{change.from_stage} → {change.to_stage}" if change else "阶段未变"
    if row.kind == "quote_accept":  # as ``quote accept``: the job ordered, the deposit due
        from core.quotes.book import accept

        quote_id = int(args.get("quote_id") or 0)
        change = await services.store.run(lambda s: accept(s, quote_id, services.clock))
        if change is None:
            return "报价已记为接受"
        services.bus.publish(change.event())
        return f"报价已接受；阶段：{change.from_stage} → {change.to_stage}（定金待收）"
    if row.kind == "note":
        from core.inquiry.notes import add_customer_note_async

        note_id = await add_customer_note_async(
            services, inquiry_id, str(args.get("text") or ""), source="agent", actor=actor
        )
        return f"备注 #{note_id}"
    if row.kind == "knowledge":
        from core.knowledge import knowledge_for
        from core.knowledge.base import SECTION_NAMES

        section = str(args.get("section") or "faq")
        await tasks.io(
            knowledge_for(services.home, services.paths.shared).add, section, str(args.get("text"))
        )
        return f"已记进知识库「{SECTION_NAMES.get(section, section)}」"
    if row.kind == "folder":
        from core.agent.tools.drive_access import CustomerDrive

        drive = drive or CustomerDrive(services)
        folder_id, _created = await drive.ensure_folder(inquiry_id)
        return f"文件夹 {folder_id}" if folder_id else "文件夹未创建（OneDrive 尚未同步）"
    raise ProposalError(f"未知的建议类型 {row.kind}")


async def apply(
    services: Services,
    proposal_id: int,
    *,
    confirm: bool,
    actor: str,
    drive: CustomerDrive | None = None,
) -> ProposalItem:
    """The owner's decision: ``confirm`` makes the write, else the proposal is dropped.
    ``drive``: the App's OneDrive access (its one Graph client) for a folder proposal."""
    row = await services.store.read(lambda s: _detached(s, proposal_id))
    result, status = "", "dropped"
    claimed = "open"
    if confirm:
        # claimed before the write is made: of two desks confirming at once, one makes it
        await services.store.run(lambda s: _claim(s, proposal_id, "open", APPLYING))
        claimed = APPLYING
        try:
            result, status = await _make(services, row, actor, drive), "confirmed"
        except InquiryBridgeError as exc:
            result, status = exc.user_message("zh_CN"), "failed"
        except BaseException:  # not made: open again for the owner's next click
            await services.store.run(lambda s: _claim(s, proposal_id, APPLYING, "open"))
            raise
    now = naive_utc(services.clock.now())

    def decide(session: Session) -> ProposalItem:
        current = _claim(session, proposal_id, claimed, status)
        current.result = result
        current.decided_at, current.decided_by = now, actor
        _audit(session, current, f"proposal_{status}", actor, now)
        return _item(current)

    item: ProposalItem = await services.store.run(decide)
    if item.inquiry_id is not None:
        services.bus.publish(InquiryUpdated(item.inquiry_id, ("proposals",)))
    return item


def _claim(session: Session, proposal_id: int, expected: str, to_status: str) -> WriteProposal:
    """``expected → to_status`` by a conditional UPDATE (``core.db.claims``): refused when the
    proposal was decided elsewhere meanwhile."""
    row = (
        _open(session, proposal_id)
        if expected == "open"
        else session.get(WriteProposal, proposal_id)
    )
    if row is None or not compare_and_set(session, row, "status", expected, {"status": to_status}):
        now_status = current_value(session, row, "status") if row is not None else "?"
        raise ProposalError(
            f"建议 {proposal_id} 已被另一处处理（现为「{now_status}」），本次未改变"
        )
    return row


def _detached(session: Session, proposal_id: int) -> WriteProposal:
    row = _open(session, proposal_id)
    session.expunge(row)
    return row
