"""Realistic board data written straight into a real store (tests and benchmarks).

Bulk inserts (SQLAlchemy Core) so 50,000 inquiries take seconds, with the same ``search_text``
the pipeline writes, stage histories and message timestamps spread over the last months.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select

from core.db.models import STAGES, Inquiry, Message, StageEvent
from core.glossary import product_keys
from core.inquiry.search import build_search_text
from core.services import Services

FIRST = [
    "Sarah",
    "James",
    "Emma",
    "Michael",
    "Priya",
    "David",
    "Lisa",
    "Tom",
    "Olivia",
    "Jack",
    "Mia",
    "Noah",
    "Chloe",
    "Liam",
    "Grace",
    "Ethan",
    "Wei",
    "Na",
    "Hui",
    "Raj",
]
LAST = [
    "Mitchell",
    "Nguyen",
    "Clarke",
    "O'Brien",
    "Sharma",
    "Thompson",
    "Chen",
    "Wilson",
    "Smith",
    "Brown",
    "Taylor",
    "Lee",
    "Wang",
    "Li",
    "Zhang",
    "Patel",
    "Kelly",
    "Walker",
    "Harris",
]
SUBURBS = [
    "Castle Hill",
    "Parramatta",
    "Hurstville",
    "Manly",
    "Chatswood",
    "Epping",
    "Burwood",
    "Cronulla",
    "Ryde",
    "Penrith",
    "Bondi",
    "Hornsby",
    "Liverpool",
    "Strathfield",
    "Kellyville",
]


def seed_inquiries(
    services: Services, n: int, *, seed: int = 7, messages: bool = False
) -> list[int]:
    """Insert ``n`` inquiries (ids 1..n in a fresh store); returns their ids."""
    rng = random.Random(seed)
    now = services.clock.now().replace(tzinfo=None)
    keys = product_keys()
    rows: list[dict[str, Any]] = []
    for i in range(n):
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        email = f"{name.lower().replace(' ', '.').replace(chr(39), '')}{i}@example.com"
        phone = f"+614{rng.randrange(10_000_000, 99_999_999)}"
        suburb = rng.choice(SUBURBS)
        stage = rng.choice((*STAGES, "lost"))
        changed = now - timedelta(days=rng.randrange(0, 40), hours=rng.randrange(0, 24))
        inbound = now - timedelta(days=rng.randrange(0, 30), minutes=rng.randrange(0, 1440))
        outbound = inbound + timedelta(hours=rng.randrange(1, 48)) if rng.random() < 0.6 else None
        owes = "customer" if outbound and outbound > inbound else "us"
        rows.append(
            {
                "classification": rng.choice("AAAB B C".replace(" ", "")),
                "confidence": rng.choice(("high", "medium", "low")),
                "stage": stage,
                "stage_changed_at": changed,
                "customer_name": name,
                "customer_email": email,
                "customer_phone": phone,
                "address": f"{rng.randrange(1, 200)} Example Street, {suburb}",
                "suburb": suburb,
                "product_types": rng.sample(keys, rng.randrange(1, 3)),
                "dimensions": [],
                "language": "en",
                "owes_reply": owes,
                "last_inbound_at": inbound,
                "last_outbound_at": outbound,
                "last_contact_at": max(inbound, outbound or inbound),
                "context_data": {},
                "search_text": build_search_text(name, email, phone, suburb),
                "created_at": changed - timedelta(days=1),
                "updated_at": changed,
            }
        )

    def _do(session):  # type: ignore[no-untyped-def]
        # one executemany, then the new ids in insertion order: ``insert().returning()`` over
        # a list spliced every batch's rows into the last (quadratic: 50,000 took minutes)
        before = session.scalar(select(func.max(Inquiry.id))) or 0
        session.execute(insert(Inquiry), rows)
        start = session.scalars(
            select(Inquiry.id).where(Inquiry.id > before).order_by(Inquiry.id)
        ).all()
        events = [
            {
                "inquiry_id": iid,
                "from_stage": None,
                "to_stage": row["stage"],
                "at": row["stage_changed_at"],
                "reason": "seed",
                "triggered_by": "pipeline",
            }
            for iid, row in zip(start, rows, strict=True)
        ]
        session.execute(insert(StageEvent), events)
        if messages:
            session.execute(
                insert(Message),
                [
                    {
                        "message_id": f"<seed-{iid}@example.com>",
                        "from_addr": row["customer_email"],
                        "from_name": row["customer_name"],
                        "subject": "Quote please",
                        "received_at": row["last_inbound_at"],
                        "body_text": "Hi, could you quote a sliding door 2400 x 2100? Thanks",
                        "body_full": "Hi, could you quote a sliding door 2400 x 2100? Thanks",
                        "disposition": "new_inquiry",
                        "inquiry_id": iid,
                        "created_at": row["last_inbound_at"],
                        "updated_at": row["last_inbound_at"],
                    }
                    for iid, row in zip(start, rows, strict=True)
                ],
            )
        return list(start)

    return services.store.write(_do)


def at(now: datetime, days: float) -> datetime:
    return now.replace(tzinfo=None) - timedelta(days=days)
