"""Sample replies waiting for approval in the demo, written by code from the demo data.

Why: a newcomer without an AI endpoint must still see the core screen of the product — an
English reply beside its Chinese rendering, waiting for his 批准并发送. Nothing here calls a
model: each reply is a short template filled with what the customer wrote (first name, suburb,
products from the glossary), so every value in it is grounded in the demo mail. The drafts carry
``batch_id == DEMO_BATCH`` (``DraftView.is_sample``) so every surface marks them 示例; they live only in the demo data
folder, where nothing is ever sent.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc
from core.db.models import Draft, Inquiry, Message
from core.drafts.factguard import check_facts
from core.drafts.state import record_created
from core.drafts.translation import zh_stamp
from core.drafts.view import DEMO_BATCH
from core.glossary import product_name

MAX_SAMPLES = 2
INSTRUCTION = "示例草稿：由程序根据示例邮件写成（没有使用 AI）"

_EN = {
    "A": (
        "Hi {name},\n\n"
        "Thank you for your enquiry about the {products_en}{place_en}. We would be glad to "
        "come out and measure on site. Could you let us know a day and time that suits you?\n\n"
        "{signature}"
    ),
    "B": (
        "Hi {name},\n\n"
        "Thank you for your enquiry about the {products_en}. We are preparing your quote and "
        "will send it to you shortly. If you have photos of the openings, please reply with "
        "them.\n\n"
        "{signature}"
    ),
}
_ZH = {
    "A": (
        "{name} 您好，\n\n"
        "感谢您咨询{place_zh}的{products_zh}。我们很乐意上门量尺，请告诉我们您方便的日期和时间。\n\n"
        "{signature}"
    ),
    "B": (
        "{name} 您好，\n\n"
        "感谢您咨询{products_zh}。我们正在为您准备报价，很快会发给您。如果有开口处的照片，请回复发给我们。\n\n"
        "{signature}"
    ),
}


def _fields(inquiry: Inquiry, signature: str) -> dict[str, str]:
    keys = list(inquiry.product_types or [])[:2]
    products_en = " and ".join(product_name(k, "en").lower() for k in keys) or "windows and doors"
    products_zh = "和".join(product_name(k, "zh_CN") for k in keys) or "门窗"
    name = (inquiry.customer_name or "").split(" ")[0] or "there"
    suburb = inquiry.suburb or ""
    return {
        "name": name,
        "products_en": products_en,
        "products_zh": products_zh,
        "place_en": f" in {suburb}" if suburb else "",
        "place_zh": f" {suburb} " if suburb else "",
        "signature": signature,
    }


def _candidates(session: Session) -> list[tuple[Inquiry, Message]]:
    """English-writing A/B inquiries still waiting on a first reply, with their first email."""
    found: list[tuple[Inquiry, Message]] = []
    inquiries = session.scalars(
        select(Inquiry)
        .where(Inquiry.classification.in_(("A", "B")), Inquiry.stage == "inquiry")
        .where(Inquiry.customer_email.is_not(None), Inquiry.language != "zh")
        .order_by(Inquiry.id)
    ).all()
    for inquiry in inquiries:
        first = session.scalar(
            select(Message)
            .where(Message.inquiry_id == inquiry.id, Message.direction == "in")
            .order_by(Message.received_at)
        )
        if first is not None:
            found.append((inquiry, first))
    return found


def write_sample_drafts(session: Session, clock: Clock, signature: str) -> int:
    """Add the demo's sample drafts once (none when some exist); returns how many were added."""
    if session.scalar(select(Draft.id).where(Draft.batch_id == DEMO_BATCH).limit(1)):
        return 0
    now = naive_utc(clock.now())
    added = 0
    for inquiry, first in _candidates(session)[:MAX_SAMPLES]:
        kind = inquiry.classification if inquiry.classification in _EN else "B"
        fields = _fields(inquiry, signature)
        body_en = _EN[kind].format(**fields).strip()
        body_zh = _ZH[kind].format(**fields).strip()
        subject = first.subject or ""
        draft = Draft(
            inquiry_id=inquiry.id,
            status="pending_approval",
            to_addrs=[inquiry.customer_email],
            subject=subject if subject.lower().startswith("re:") else f"RE: {subject}",
            body_en=body_en,
            body_zh=body_zh,
            zh_source=zh_stamp(body_en),  # the app's own translation of its own template
            instruction=INSTRUCTION,
            unconfirmed_facts=check_facts(
                body_en, [first.body_text or "", signature], body_zh=body_zh
            ),
            reply_to_message_pk=first.id,
            batch_id=DEMO_BATCH,
            created_by="demo",
            created_at=now,
            updated_at=now,
        )
        session.add(draft)
        session.flush()
        record_created(session, draft, actor="demo", clock=clock)
        added += 1
    return added
