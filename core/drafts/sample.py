"""A sample draft for pictures of the approval window (``screenshot --window approval``).

In an empty data folder the picture needs every part of the window to show something: a demo
inquiry with its customer's message, a recent Sent Items email (the 14-day warning), one stored
and one over-size attachment, and a bilingual draft with one unconfirmed value. In a folder with
drafts, the newest pending one (else the newest) is shown instead and nothing is written.
Only ever called on the screenshot command's temporary copy of a data folder (or a test's).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import naive_utc
from core.db.models import Attachment, Draft, Inquiry, Message
from core.drafts.factguard import check_facts
from core.drafts.state import record_created
from core.drafts.translation import zh_stamp
from core.services import Services

DEMO_BODY_EN = (
    "Hi Jane,\n\n"
    "Thank you for your enquiry about the sliding door for 12 Smith St, Ryde.\n\n"
    "Our price for the 2400 x 2100 mm double-glazed sliding door is $15,000 including GST, "
    "supplied and installed. We can come out to measure on Tuesday at 10am; installation is "
    "usually 4 weeks after the measure.\n\n"
    "Please let me know if that time suits you.\n\n"
    "Kind regards,\nMichael Chen\nAurora Windows & Doors"
)
DEMO_BODY_ZH = (
    "Jane 您好，\n\n"
    "感谢您咨询 Ryde 区 12 Smith St 的推拉门。\n\n"
    "2400 x 2100 mm 双层玻璃推拉门的价格为 $15,000（含 GST），包括供货和安装。我们可以在周二上午10点"
    "上门量尺；安装通常在量尺后4周完成。\n\n"
    "请告诉我这个时间是否方便。\n\n"
    "此致\nMichael Chen\nAurora Windows & Doors"
)
DEMO_INSTRUCTION = "报价15000含GST，下周二上午10点上门量尺"


def _inquiry(session: Session, now: datetime) -> tuple[Inquiry, Message, str]:
    inquiry = Inquiry(
        classification="B",
        stage="quoting",
        stage_changed_at=now,
        customer_name="Jane Citizen",
        customer_email="jane.citizen@example.com",
        customer_phone="+61412345678",
        address="12 Smith St",
        suburb="Ryde",
        product_types=["sliding_door"],
        dimensions=["2400 x 2100 mm"],
        created_at=now,
        updated_at=now,
    )
    session.add(inquiry)
    session.flush()
    body = (
        "Hi, could you quote a double-glazed sliding door 2400 x 2100 for 12 Smith St, Ryde? Jane"
    )
    inbound = Message(
        message_id="<demo-inbound@example.com>",
        direction="in",
        from_addr="jane.citizen@example.com",
        from_name="Jane Citizen",
        subject="Sliding door quote",
        received_at=now - timedelta(days=1),
        body_text=body,
        body_full=body,
        disposition="new_inquiry",
        inquiry_id=inquiry.id,
        created_at=now,
        updated_at=now,
    )
    sent = Message(
        message_id="<demo-sent@aurora>",
        direction="out",
        folder="sent",
        from_addr="sales@aurorawindows.com.au",
        to_addrs=["jane.citizen@example.com"],
        subject="RE: Brochure and colour chart",
        received_at=now - timedelta(days=5),
        disposition="skipped:outgoing",
        inquiry_id=inquiry.id,
        created_at=now,
        updated_at=now,
    )
    session.add_all([inbound, sent])
    session.flush()
    return inquiry, inbound, body


def _attachments(session: Session, home: Path, inbound: Message) -> Attachment:
    """The customer's plan (stored, attachable) and her photos (over the intake's cap)."""
    plan = b"%PDF-1.4 demo site plan\n" * 2000
    relative = Path("attachments") / "demo" / "site-plan.pdf"
    target = home / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(plan)
    attached = Attachment(
        message_pk=inbound.id,
        filename="site-plan.pdf",
        content_type="application/pdf",
        size=len(plan),
        stored_path=relative.as_posix(),
    )
    photos = Attachment(
        message_pk=inbound.id,
        filename="site-photos.zip",
        content_type="application/zip",
        size=48 * 1024 * 1024,
        stored_path=None,
        skipped_reason="over_size_cap",
    )
    session.add_all([attached, photos])
    session.flush()
    return attached


async def ensure_sample_draft(services: Services) -> int:
    """The newest pending draft (else the newest), or a sample one created for the picture."""

    def do(session: Session) -> int:
        existing = session.scalar(
            select(Draft.id).where(Draft.status == "pending_approval").order_by(Draft.id.desc())
        ) or session.scalar(select(Draft.id).order_by(Draft.id.desc()))
        if existing:
            return int(existing)
        now = naive_utc(services.clock.now())
        inquiry, inbound, body = _inquiry(session, now)
        attached = _attachments(session, services.paths.home, inbound)
        sources = [DEMO_INSTRUCTION, body, "Michael Chen Aurora Windows & Doors"]
        draft = Draft(
            inquiry_id=inquiry.id,
            status="pending_approval",
            to_addrs=["jane.citizen@example.com"],
            subject="RE: Sliding door quote",
            body_en=DEMO_BODY_EN,
            body_zh=DEMO_BODY_ZH,
            zh_source=zh_stamp(DEMO_BODY_EN),  # the app's own translation of its own English
            instruction=DEMO_INSTRUCTION,
            unconfirmed_facts=check_facts(DEMO_BODY_EN, sources),
            reply_to_message_pk=inbound.id,
            attachment_ids=[attached.id],
            created_by="owner",
            created_at=now,
            updated_at=now,
        )
        session.add(draft)
        session.flush()
        record_created(session, draft, actor="owner", clock=services.clock)
        return int(draft.id)

    return await services.store.run(do)
