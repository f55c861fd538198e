"""Moving and checking the pipeline: change a stage, add a note, audit where records disagree.

A stage change goes through ``StageService`` with ``triggered_by="agent"`` (a ``stage_events``
row, like every other move); a note is ``core.inquiry.notes``' note with ``actor="agent"``; both
run on the store's writer thread, never blocking the event loop the chat panel shares.

``audit_pipeline`` writes nothing: it compares three records of one job — the stage on the
board, the stage folder holding the customer's OneDrive folder, and the mail — and lists the
inquiries where they disagree, so the owner decides which one is right.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.agent.tools.args import as_json, int_arg, limit_arg, obj, text_arg
from core.agent.tools.base import ACTOR, Tool, ToolContext
from core.db.models import ALL_STAGES, CLOSED_STAGES, Draft, DriveItem, Inquiry
from core.drive.paths import Node, StageLayout, stage_layout
from core.inquiry.notes import add_customer_note_async
from core.inquiry.stages import StageService

if TYPE_CHECKING:
    from datetime import datetime

    from sqlalchemy import Row

    from core.config import Settings

# one inquiry as the audit reads it (the columns of ``_audit``'s select, in order)
_AuditRow: TypeAlias = (
    "Row[int, str | None, str, datetime, str | None, str | None, datetime | None, datetime | None]"
)


async def change_stage(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = int_arg(args, "inquiry_id")
    to_stage = str(args.get("to_stage") or "")
    reason = text_arg(args, "reason")
    service = StageService(ctx.services.store, ctx.services.bus, ctx.services.clock)
    change = await service.advance_async(inquiry_id, to_stage, reason=reason, triggered_by=ACTOR)
    if change is None:
        return f"STAGE_UNCHANGED inquiry {inquiry_id} is already {to_stage}"
    return f"STAGE_CHANGED inquiry {inquiry_id}: {change.from_stage} -> {change.to_stage}"


async def add_note(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = int_arg(args, "inquiry_id")
    text = text_arg(args, "text")
    note_id = await add_customer_note_async(
        ctx.services, inquiry_id, text, source="agent", actor=ACTOR
    )
    return f"NOTE_SAVED id={note_id} on inquiry {inquiry_id}"


def _folder_problem(
    row: _AuditRow, tree: dict[str, Node], layout: StageLayout, stage_folders: dict[str, list[str]]
) -> str | None:
    if not row.drive_folder_id:
        if layout.folders and row.stage not in ("inquiry", *CLOSED_STAGES):
            return f"no OneDrive folder, though the job is at stage {row.stage}"
        return None
    node = tree.get(row.drive_folder_id)
    if node is None or node.deleted:
        return f"its OneDrive folder 「{row.drive_folder_name}」 no longer exists"
    holder = layout.stage_folder_of(tree, row.drive_folder_id)
    if holder is None:
        return f"its OneDrive folder 「{node.name}」 is outside the stage folders"
    folder_name = layout.folders[holder]
    stages = stage_folders.get(folder_name, [])
    if stages and row.stage not in stages:
        return (
            f"board stage is {row.stage} but the folder 「{node.name}」 is in 「{folder_name}」 "
            f"(stages {', '.join(stages)})"
        )
    return None


def _mail_problem(row: _AuditRow, sent_drafts: set[int]) -> str | None:
    if row.stage == "follow_up" and row.last_outbound_at is None and row.id not in sent_drafts:
        return "stage follow_up (quoted) but no email to the customer was ever sent"
    if (
        row.stage in CLOSED_STAGES
        and row.last_inbound_at is not None
        and row.last_inbound_at > row.stage_changed_at
    ):
        return f"the customer wrote after the job was closed as {row.stage}"
    return None


def _audit(session: Session, settings: Settings, limit: int) -> tuple[int, list[dict[str, Any]]]:
    tree = {
        r.id: Node(r.name, r.parent_id, r.is_folder, r.deleted)
        for r in session.scalars(select(DriveItem))
    }
    stage_folders = settings.string_lists("drive.stage_folders")
    layout = stage_layout(tree, settings.text("drive.root"), stage_folders)
    sent_drafts = {
        int(i)
        for i in session.scalars(select(Draft.inquiry_id).where(Draft.status == "sent"))
        if i is not None
    }
    rows = session.execute(
        select(
            Inquiry.id,
            Inquiry.customer_name,
            Inquiry.stage,
            Inquiry.stage_changed_at,
            Inquiry.drive_folder_id,
            Inquiry.drive_folder_name,
            Inquiry.last_inbound_at,
            Inquiry.last_outbound_at,
        )
        .where(Inquiry.classification != "C")
        .order_by(Inquiry.id)
    ).all()
    found: list[dict[str, Any]] = []
    for row in rows:
        problems = [
            p
            for p in (
                _folder_problem(row, tree, layout, stage_folders),
                _mail_problem(row, sent_drafts),
            )
            if p
        ]
        if problems:
            found.append(
                {"inquiry_id": row.id, "customer": row.customer_name, "stage": row.stage,
                 "problems": problems}
            )  # fmt: skip
    return len(found), found[:limit]


async def audit_pipeline(ctx: ToolContext, args: dict[str, Any]) -> str:
    limit = limit_arg(args, default=30, most=100)
    total, found = await ctx.services.store.read(lambda s: _audit(s, ctx.services.settings, limit))
    if not total:
        return "PIPELINE_CONSISTENT — every inquiry's stage, OneDrive folder and mail agree."
    return as_json(
        f"PIPELINE_DISAGREEMENTS: {total} inquiries (showing {len(found)}). Nothing was "
        "changed: ask the owner which record is right.",
        {"inquiries": found},
    )


TOOLS = (
    Tool(
        "change_stage",
        "Move an inquiry to another sales stage when the owner asks; the reason is audited.",
        obj(
            {
                "inquiry_id": {"type": "integer"},
                "to_stage": {"type": "string", "enum": list(ALL_STAGES)},
                "reason": {"type": "string"},
            },
            ["inquiry_id", "to_stage", "reason"],
        ),
        change_stage,
        "正在更改阶段…",
        "Changing the stage…",
        writes=frozenset({"stage"}),
        backs=frozenset({"moved"}),
    ),
    Tool(
        "add_note",
        "Add a note to an inquiry (what the owner told you about this customer).",
        obj(
            {"inquiry_id": {"type": "integer"}, "text": {"type": "string"}},
            ["inquiry_id", "text"],
        ),
        add_note,
        "正在记笔记…",
        "Saving a note…",
        writes=frozenset({"note"}),
        backs=frozenset({"saved"}),
    ),
    Tool(
        "audit_pipeline",
        "Check the whole pipeline for inquiries whose board stage, OneDrive folder and mail "
        "disagree. Changes nothing.",
        obj({"limit": {"type": "integer"}}, []),
        audit_pipeline,
        "正在核对流程…",
        "Checking the pipeline…",
        reads_customer_content=True,  # customer and folder names are customers' words
    ),
)
