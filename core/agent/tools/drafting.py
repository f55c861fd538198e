"""Writing for the owner's approval: a reply, a forward to the factory, a batch from a CSV, a
proposed measuring time.

Every one of these ends in the owner's hands, never in a customer's inbox or calendar: drafts go
through ``DraftComposer`` (→ ``pending_approval``; it has no approve or send), and a measuring
time is only a *proposal* (``core.rhythm.appointments``: free in his calendar, read only here)
that the owner confirms on the desktop, with a Telegram button or ``appointment ID --confirm``
before Outlook gets an event. The answers say so
in words the model cannot misread (``DRAFT_PENDING_APPROVAL — NOT SENT``,
``APPOINTMENT_PROPOSED — NOT IN THE CALENDAR``).
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from core.agent.tools.args import as_json, ids_arg, int_arg, obj, text_arg
from core.agent.tools.base import ACTOR, Tool, ToolContext, ToolError, audit
from core.clock import SYDNEY
from core.drafts.batch import BatchDrafter
from core.drafts.draft_composer import replaced_by
from core.drafts.reader import describe
from core.drafts.view import escalation_line
from core.provenance import named_file
from core.rhythm.appointments import Appointments
from core.text.email_address import is_email_address

PENDING_NOTE = "The owner must approve it in 待审批; you cannot send it."
NAME_NOTE = "Name the customer it is for in your answer (已为 <customer> 起草…)."


async def _draft_answer(ctx: ToolContext, draft_id: int, **extra: object) -> str:
    """The new draft as the model reports it; its customer becomes the conversation's."""
    view = await ctx.reader.get(draft_id)
    if view.inquiry_id is not None:
        ctx.resolved(view.inquiry_id, acted=True)
    replaced = await ctx.services.store.read(lambda s: replaced_by(s, draft_id))
    if replaced:  # one live draft per thread: the older versions can no longer be sent
        extra.setdefault(
            "superseded_drafts",
            f"SUPERSEDED {replaced} — replaced by draft {draft_id}; they can no longer be "
            "approved or sent",
        )
    return json.dumps(
        {
            "draft_id": draft_id,
            "status": describe(view),
            "inquiry_id": view.inquiry_id,
            "customer": view.customer_name or view.customer_email,
            "to": view.to,
            "subject": view.subject,
            "unconfirmed_facts": view.unconfirmed_facts,
            **extra,
            # the customer is complaining: the owner must see this line with the draft
            **({"escalation": escalation_line(view.escalation)} if view.escalation else {}),
            "note": f"{PENDING_NOTE} {NAME_NOTE}",
        },
        ensure_ascii=False,
    )


async def draft_reply(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = int_arg(args, "inquiry_id")
    instruction = text_arg(args, "instruction")
    draft_id = await ctx.composer.compose(
        inquiry_id,
        instruction,
        actor=ACTOR,
        attachment_ids=ids_arg(args, "attachment_ids"),
        of_record=ctx.owner_words.value,  # the owner's words back values; the model's do not
    )
    return await _draft_answer(ctx, draft_id)


async def forward_to_factory(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = int_arg(args, "inquiry_id")
    instruction = text_arg(args, "instruction")
    factory = ctx.services.settings.text("drafts.factory_address").strip()
    if not is_email_address(factory):
        raise ToolError(
            "NO_FACTORY_ADDRESS — the factory's email is not set (设置 drafts.factory_address); "
            "nothing was drafted"
        )
    files = ids_arg(args, "attachment_ids")
    now = ctx.services.clock.now()
    for item in [str(i) for i in args.get("drive_item_ids") or []]:
        attachment_id = await ctx.drive.attach(inquiry_id, item, now)
        files.append(attachment_id)

        def record(session: Session, item: str = item, att: int = attachment_id) -> None:
            audit(session, "inquiry", inquiry_id, "drive_file_attached", now, item=item, file=att)

        await ctx.services.store.run(record)
    draft_id = await ctx.composer.compose_forward(
        inquiry_id,
        factory,
        instruction,
        actor=ACTOR,
        attachment_ids=files,
        of_record=ctx.owner_words.value,
    )
    return await _draft_answer(ctx, draft_id, attachment_ids=files)


async def revise_draft(ctx: ToolContext, args: dict[str, Any]) -> str:
    """A new version of a draft; the old one is superseded in the same step (one live draft)."""
    old_id = int_arg(args, "draft_id")
    instruction = text_arg(args, "instruction")
    draft_id = await ctx.composer.revise(
        old_id, instruction, actor=ACTOR, of_record=ctx.owner_words.value
    )
    return await _draft_answer(ctx, draft_id, replaces=old_id)


def _csv_text(ctx: ToolContext, args: dict[str, Any]) -> str:
    """The CSV file the owner named in his own words this turn: recipients come from people,
    never from rows a model wrote (principle 7)."""
    raw = text_arg(args, "csv_path")
    if Path(raw).suffix.lower() != ".csv":
        raise ToolError(f"{Path(raw).name} is not a .csv file")
    path = named_file(ctx.owner_words.value, raw)
    if path is None:  # the exact path he named, never a file that only shares its name
        raise ToolError(
            "CSV_NOT_CHOSEN_BY_OWNER — batch drafting takes only the CSV file whose exact path "
            "the owner named in his own words (a path on this PC); nothing was drafted. Ask "
            "him for the full path of the file."
        )
    data = path.read_bytes() if path.is_file() else None
    if data is None:
        raise ToolError(f"no such CSV file: {path}")
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ToolError(f"{path.name}: unknown text encoding")


async def batch_drafts(ctx: ToolContext, args: dict[str, Any]) -> str:
    instruction = text_arg(args, "instruction")
    report = await BatchDrafter(ctx.composer, ctx.reader).run(
        _csv_text(ctx, args), instruction, actor=ACTOR, of_record=ctx.owner_words.value
    )
    rows = [
        {"row": r.row, "email": r.email, "outcome": r.outcome, "reason": r.reason,
         "draft_id": r.draft_id}
        for r in report.rows
    ]  # fmt: skip
    return as_json(
        f"BATCH {report.batch_id}: {len(report.drafted)} DRAFTS_PENDING_APPROVAL — NOT SENT, "
        f"{len(report.skipped)} skipped, {len(report.errors)} errors. {PENDING_NOTE}",
        {"summary_zh": report.summary_zh(), "rows": rows},
    )


def _start(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.strip().replace(" ", "T", 1))
    except ValueError:
        raise ToolError(
            f"start must be like 2026-12-03 10:00 (Sydney time), not {text!r}"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=SYDNEY)


async def propose_appointment(ctx: ToolContext, args: dict[str, Any]) -> str:
    """A time he named (refused when it overlaps his calendar), or -- no ``start`` -- three free
    times from his calendar. Only a proposal: the owner confirms on the desktop or Telegram."""
    inquiry_id = int_arg(args, "inquiry_id")
    minutes = int(args.get("minutes") or 60)
    if not 15 <= minutes <= 480:
        raise ToolError("minutes must be between 15 and 480")
    services = ctx.services
    async with ctx.drive.calendar() as calendar:  # read only: a proposal never writes it
        proposals = Appointments(
            services.store, services.bus, services.clock, (lambda: calendar) if calendar else None
        )
        if str(args.get("start") or "").strip():
            proposal = await proposals.propose(inquiry_id, _start(text_arg(args, "start")), minutes)
        else:
            proposal = await proposals.propose_free(inquiry_id, minutes)
    now = services.clock.now()

    def record(session: Session) -> None:
        audit(session, "inquiry", inquiry_id, "appointment_proposed", now, start=proposal.start,
              options=proposal.times)  # fmt: skip

    await services.store.run(record)
    return as_json(
        "APPOINTMENT_PROPOSED — NOT IN THE CALENDAR, NOT SENT TO THE CUSTOMER: the times are "
        "free in his calendar; the owner confirms one on the desktop (the inquiry's 上门量尺 "
        "button) or with its button on Telegram, or "
        f"`inquiry-bridge appointment {inquiry_id} --confirm`",
        {"inquiry_id": inquiry_id, "start": proposal.start, "times": proposal.times, "minutes": proposal.minutes,
         "location": proposal.location or "(address unknown)"},
    )  # fmt: skip


_DRAFT_ARGS = {
    "inquiry_id": {"type": "integer"},
    "instruction": {"type": "string", "description": "what to say, in the owner's words"},
    "attachment_ids": {"type": "array", "items": {"type": "integer"}},
}

TOOLS = (
    Tool(
        "draft_reply",
        "Write an English reply draft to an inquiry's customer from a Chinese instruction, "
        "optionally with attachment ids. The draft is NOT sent: it waits for the owner's "
        "approval.",
        obj(_DRAFT_ARGS, ["inquiry_id", "instruction"]),
        draft_reply,
        "正在起草回复…",
        "Drafting a reply…",
        reads_customer_content=True,
        writes=frozenset({"draft"}),
        backs=frozenset({"saved"}),
    ),
    Tool(
        "revise_draft",
        "Change a draft that waits for approval ('改一下', '改成 $750'): writes the new version "
        "from a Chinese instruction and supersedes the old draft, so only the new one can be "
        "approved. Use this, not draft_reply, to change an existing draft. NOT sent.",
        obj(
            {
                "draft_id": {"type": "integer", "description": "the draft to change"},
                "instruction": {"type": "string", "description": "what to change"},
            },
            ["draft_id", "instruction"],
        ),
        revise_draft,
        "正在修改草稿…",
        "Revising the draft…",
        reads_customer_content=True,
        writes=frozenset({"draft"}),
        backs=frozenset({"saved"}),
    ),
    Tool(
        "forward_to_factory",
        "Draft an email to the factory (address from the settings) about an inquiry, with the "
        "chosen email attachments and OneDrive files. NOT sent: it waits for the owner's "
        "approval.",
        obj(
            {
                **_DRAFT_ARGS,
                "drive_item_ids": {"type": "array", "items": {"type": "string"}},
            },
            ["inquiry_id", "instruction"],
        ),
        forward_to_factory,
        "正在起草给工厂的邮件…",
        "Drafting the email to the factory…",
        reads_customer_content=True,
        writes=frozenset({"draft"}),
        backs=frozenset({"saved"}),
    ),
    Tool(
        "batch_drafts",
        "One draft per contact of a CSV file the owner named (its path on this PC, as he "
        "gave it) from one Chinese instruction; recent contacts and duplicates are skipped. "
        "NOT sent: every draft waits for the owner's approval.",
        obj(
            {"instruction": {"type": "string"}, "csv_path": {"type": "string"}},
            ["instruction", "csv_path"],
        ),
        batch_drafts,
        "正在批量起草…",
        "Drafting the batch…",
        writes=frozenset({"draft"}),
        backs=frozenset({"saved"}),
    ),
    Tool(
        "propose_appointment",
        "Propose measuring visit times for an inquiry: leave out start to offer three free "
        "times from the owner's calendar (working days and hours), or give start (Sydney, "
        "'YYYY-MM-DD HH:MM') for a time he named (refused if it clashes). Only a proposal: "
        "the owner confirms it before Outlook or the customer hear of it.",
        obj(
            {
                "inquiry_id": {"type": "integer"},
                "start": {"type": "string"},
                "minutes": {"type": "integer"},
            },
            ["inquiry_id"],
        ),
        propose_appointment,
        "正在拟定上门时间…",
        "Proposing a visit time…",
        writes=frozenset({"appointment"}),
    ),
)
