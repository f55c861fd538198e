"""Message identity by (source, source id), seen from outside: one Message-ID reused by two
different mails is two messages; the same mail arriving through two sources (a saved ``.eml``
and the IMAP mailbox, an IMAP copy and a Graph copy) is one; nothing is recorded twice or lost.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import select

from core.db.models import Inquiry, Message
from core.intake.pipeline import IntakePipeline, build_pipeline
from core.mail.source import RawMessage
from tests.intake.test_pipeline_support import make_email


def _raw(data: bytes, source: str, source_id: str | None, ref: str = "x") -> RawMessage:
    return RawMessage(raw=data, source=source, source_ref=ref, source_id=source_id)


@pytest.fixture
async def pipeline(services) -> AsyncIterator[IntakePipeline]:  # type: ignore[no-untyped-def]
    made = build_pipeline(services, offline=True)
    yield made
    await made.aclose()


def _rows(services) -> list[tuple[str, str, str | None, int | None]]:  # type: ignore[no-untyped-def]
    with services.store.session() as s:
        return [
            (m.message_id, m.source, m.source_id, m.inquiry_id)
            for m in s.scalars(select(Message).order_by(Message.id))
        ]


def _inquiries(services) -> int:  # type: ignore[no-untyped-def]
    with services.store.session() as s:
        return len(list(s.scalars(select(Inquiry))))


async def test_one_message_id_reused_by_two_mails_of_one_source_is_two_messages(  # type: ignore[no-untyped-def]
    services,
    pipeline: IntakePipeline,
) -> None:
    """A form mailer stamping one Message-ID: two customers, two IMAP uids, two rows."""
    common = {"message_id": "<form@webform.example>"}
    a = make_email(
        subject="Quote please",
        body="Awning windows, Ryde. 0412 345 001",
        sender="A <a@x.com>",
        **common,
    )
    b = make_email(
        subject="Quote please",
        body="Sliding door, Epping. 0412 345 002",
        sender="B <b@y.com>",
        **common,
    )
    await pipeline.ingest_batch([_raw(a, "imap", "imap:INBOX:7:1")])
    await pipeline.ingest_batch([_raw(b, "imap", "imap:INBOX:7:2")])
    rows = _rows(services)
    assert len(rows) == 2
    assert {r[2] for r in rows} == {"imap:INBOX:7:1", "imap:INBOX:7:2"}
    assert len({r[0] for r in rows}) == 2  # the second is stored under an alias
    assert _inquiries(services) == 2  # neither customer lost
    # both again (a repeated round): still two
    report = await pipeline.ingest_batch(
        [_raw(a, "imap", "imap:INBOX:7:1"), _raw(b, "imap", "imap:INBOX:7:2")]
    )
    assert report.already_known == 2 and len(_rows(services)) == 2


async def test_the_same_mail_through_two_sources_is_one_message(  # type: ignore[no-untyped-def]
    services,
    pipeline: IntakePipeline,
) -> None:
    """Saved as .eml, then synced over IMAP, then seen by Graph: one row, one inquiry."""
    data = make_email(subject="New windows", body="Could you measure? Ryde. 0412 345 003")
    await pipeline.ingest_batch([_raw(data, "eml", None, "saved.eml")])
    second = await pipeline.ingest_batch([_raw(data, "imap", "imap:INBOX:9:41")])
    third = await pipeline.ingest_batch([_raw(data, "graph", "AAMkAGraphId==")])
    assert second.already_known == 1 and third.already_known == 1
    rows = _rows(services)
    assert len(rows) == 1 and _inquiries(services) == 1
    # the row's (source, source id) is one pair: the newest id and the source it belongs to
    assert rows[0][1:3] == ("graph", "AAMkAGraphId==")
    # and a different mail that the IMAP source lists under a uid never seen: recorded
    other = make_email(subject="Door", body="A sliding door for Epping. 0412 345 004")
    await pipeline.ingest_batch([_raw(other, "imap", "imap:INBOX:9:42")])
    assert len(_rows(services)) == 2
