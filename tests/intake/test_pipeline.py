"""The intake pipeline end to end on small synthetic emails: dispositions, merges, retries.

The model is a real loopback OpenAI-compatible server (``tests.support.llm_server``) whose
responder plays the model from a per-subject script (``ScriptedModel``): each test states what
"the model" says about each email and checks what the pipeline stored, merged and announced.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator

import pytest
from sqlalchemy import func, select

from core.app.standalone import own_pipeline
from core.db.models import Attachment, Inquiry, LLMCall, Message, StageEvent
from core.events import (
    InquiryCreated,
    InquiryUpdated,
    MessageMerged,
    MessageRecorded,
    NeedsAttention,
)
from core.inquiry.edit import InquiryEditor
from core.inquiry.search import search_condition
from core.intake.pipeline import IntakePipeline
from core.intake.queries import inquiries_json, mail_json
from tests.intake.test_pipeline_support import (
    ScriptedModel,
    Verdict,
    make_email,
    message_id_of,
    raw,
)
from tests.support.llm_server import LLMServer

QUOTE = "Quote for sliding window - Blacktown"
ASK = dict(
    subject=QUOTE,
    body="Hi, could you quote a sliding window 1800 x 1200 mm with a flyscreen?\n"
    "Supply only, Blacktown. Call me on 0412 345 678.\nThanks, Jane",
)
SCRIPT = {
    "sliding window": Verdict(
        ["B"],
        name="Jane Citizen",
        phone="+61412345678",
        suburb="Blacktown",
        products=["sliding_window", "flyscreen"],
        dimensions=["1800 x 1200 mm"],
    ),
}


@pytest.fixture
def model() -> ScriptedModel:
    return ScriptedModel(dict(SCRIPT))


@pytest.fixture
def server(model: ScriptedModel) -> Iterator[LLMServer]:
    with LLMServer(model) as srv:
        yield srv


@pytest.fixture
async def pipelines(services) -> AsyncIterator[Callable[..., IntakePipeline]]:  # type: ignore[no-untyped-def]
    """``own_pipeline`` for this test's services; every model client is closed afterwards."""
    made: list[IntakePipeline] = []

    def make(**kwargs: object) -> IntakePipeline:
        made.append(own_pipeline(services, **kwargs))  # type: ignore[arg-type]
        return made[-1]

    yield make
    for pipeline in made:
        await pipeline.aclose()


@pytest.fixture
def pipeline(services, server: LLMServer, pipelines) -> IntakePipeline:  # type: ignore[no-untyped-def]
    services.settings.set("llm.base_url", server.base_url)
    services.settings.set("llm.max_retries", 0)
    return pipelines()


def _mail(services) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    with services.store.session() as s:
        return {m["message_id"]: m for m in mail_json(s)}


def _inquiries(services) -> list[dict]:  # type: ignore[no-untyped-def]
    with services.store.session() as s:
        return inquiries_json(s)


async def test_new_inquiry_then_reply_in_thread_merges(services, pipeline, model) -> None:  # type: ignore[no-untyped-def]
    model.script["Re: Quote"] = Verdict(["R"], products=["sliding_window"])
    first = make_email(**ASK)
    reply = make_email(
        subject=f"Re: {QUOTE}",
        body="Thanks, when could you deliver?\n\nOn Mon, Aurora wrote:\n> Hi Jane, price attached",
        in_reply_to="<our-answer@aurorawindows.com.au>",
        references=[message_id_of(first), "<our-answer@aurorawindows.com.au>"],
        minutes=90,
    )
    report = await pipeline.ingest_batch([raw(first), raw(reply)])

    assert report.counts == {"new_inquiry": 1, "merged": 1}
    (inquiry,) = _inquiries(services)
    assert inquiry["classification"] == "B" and inquiry["stage"] == "inquiry"
    assert inquiry["customer_email"] == "jane.citizen@example.com"
    assert inquiry["customer_phone"] == "+61412345678"
    assert inquiry["product_types"] == ["sliding_window", "flyscreen"]
    assert inquiry["message_ids"] == [message_id_of(first), message_id_of(reply)]
    assert inquiry["owes_reply"] == "us"
    mail = _mail(services)
    assert mail[message_id_of(reply)]["disposition"] == "merged"
    assert "price attached" not in mail[message_id_of(reply)]["body_text"]  # quote stripped
    assert "when could you deliver" in mail[message_id_of(reply)]["body_text"]
    merged = [e for e in services.bus.events if isinstance(e, MessageMerged)]
    assert [(e.inquiry_id, e.message_pk) for e in merged] == [
        (inquiry["id"], report.message_pks[1])
    ]
    assert any(
        isinstance(e, InquiryUpdated) and e.inquiry_id == inquiry["id"] for e in services.bus.events
    )
    # two calls for the inquiry email, two for the reply, all in the ledger by message
    with services.store.session() as s:
        calls = s.execute(select(LLMCall.tier, LLMCall.message_pk)).all()
        audit = s.scalars(select(StageEvent)).all()
    assert sorted(t for t, _ in calls) == [1, 1, 2, 2]
    assert [(a.from_stage, a.to_stage, a.triggered_by) for a in audit] == [
        (None, "inquiry", "pipeline")
    ]
    # the search box finds the customer by the phone as the owner types it
    with services.store.session() as s:
        found = s.scalars(select(Inquiry.id).where(search_condition("0412 345 678"))).all()
    assert found == [inquiry["id"]]


async def test_events_follow_the_commit(services, pipeline) -> None:  # type: ignore[no-untyped-def]
    seen: list[tuple[str, object]] = []

    def on_created(event: InquiryCreated) -> None:
        with services.store.session() as s:  # committed: readable from another session
            seen.append(("created", s.get(Inquiry, event.inquiry_id).customer_email))

    services.bus.subscribe(InquiryCreated, on_created)
    await pipeline.ingest(raw(make_email(**ASK)))
    assert seen == [("created", "jane.citizen@example.com")]
    kinds = [type(e).__name__ for e in services.bus.events]
    assert kinds.count("MessageRecorded") == 2  # pending, then new_inquiry
    assert [e.disposition for e in services.bus.events if isinstance(e, MessageRecorded)] == [
        "pending",
        "new_inquiry",
    ]


async def test_reingest_is_a_no_op(services, pipeline, server) -> None:  # type: ignore[no-untyped-def]
    data = make_email(**ASK)
    pk = await pipeline.ingest(raw(data))
    before = len(server.chat_requests)
    events_before = len(services.bus.events)
    assert await pipeline.ingest(raw(data, name="copy.eml")) == pk
    report = await pipeline.ingest_batch([raw(data), raw(data)])
    assert report.already_known == 2 and report.processed == 0
    assert len(server.chat_requests) == before
    assert len(services.bus.events) == events_before
    with services.store.session() as s:
        assert s.scalar(select(func.count(Message.id))) == 1
        assert s.scalar(select(func.count(Inquiry.id))) == 1


async def test_message_without_message_id_gets_a_stable_synthetic_one(services, pipeline) -> None:  # type: ignore[no-untyped-def]
    data = make_email(**ASK, message_id=None)
    pk = await pipeline.ingest(raw(data))
    assert await pipeline.ingest(raw(data)) == pk
    (message,) = _mail(services).values()
    assert message["message_id"].endswith("@inquiry-bridge.invalid>")


async def test_malformed_bytes_are_recorded_as_failed(services, pipeline, server) -> None:  # type: ignore[no-untyped-def]
    junk = bytes(range(256)) * 8
    pk = await pipeline.ingest(raw(junk, name="junk.eml"))
    with services.store.session() as s:
        msg = s.get(Message, pk)
        assert msg.disposition.startswith("failed:")
        assert (services.home / msg.raw_path).read_bytes() == junk  # kept for a later look
    assert server.chat_requests == []
    attention = [e for e in services.bus.events if isinstance(e, NeedsAttention)]
    assert attention and attention[0].kind == "failed"


async def test_rule_skipped_mail_costs_no_model_call(services, pipeline, server) -> None:  # type: ignore[no-untyped-def]
    auto = make_email(
        subject="Automatic reply: Quote",
        body="I am out of the office until Monday.",
        headers={"Auto-Submitted": "auto-replied"},
    )
    news = make_email(
        subject="Trade night this Thursday",
        body="Join us for drinks.",
        sender="News <news@supplier.example>",
        headers={"List-Unsubscribe": "<mailto:unsub@supplier.example>", "Precedence": "bulk"},
    )
    report = await pipeline.ingest_batch([raw(auto), raw(news)])
    dispositions = sorted(m["disposition"] for m in _mail(services).values())
    assert all(d.startswith("skipped:") for d in dispositions), dispositions
    assert report.processed == 2
    assert server.chat_requests == []


async def test_outgoing_mail_flips_who_owes_the_reply(services, pipeline, server) -> None:  # type: ignore[no-untyped-def]
    first = make_email(**ASK)
    answer = make_email(
        subject=f"RE: {QUOTE}",
        body="Hi Jane, $420 supply only.",
        sender="Aurora Windows & Doors <sales@aurorawindows.com.au>",
        to="jane.citizen@example.com",
        in_reply_to=message_id_of(first),
        minutes=30,
    )
    await pipeline.ingest(raw(first))
    calls = len(server.chat_requests)
    await pipeline.ingest(raw(answer, folder="sent"))
    assert len(server.chat_requests) == calls  # our own mail never goes to the model
    (inquiry,) = _inquiries(services)
    assert inquiry["owes_reply"] == "customer"
    assert inquiry["last_outbound_at"] == "2026-03-23T09:30:00Z"
    out = _mail(services)[message_id_of(answer)]
    assert out["disposition"] == "skipped:outgoing" and out["inquiry_id"] == inquiry["id"]
    assert inquiry["message_ids"] == [message_id_of(first)]  # outgoing is not "merged into"


async def test_attachments_over_the_cap_keep_metadata_only(services, pipeline, pipelines) -> None:  # type: ignore[no-untyped-def]
    services.settings.set("intake.attachment_max_mb", 1)
    pipeline = pipelines()
    small = b"%PDF-1.4 plan" * 100
    big = b"\0" * (1024 * 1024 + 10)
    data = make_email(
        **ASK,
        attachments=[("plan.pdf", "application/pdf", small), ("video.mp4", "video/mp4", big)],
    )
    pk = await pipeline.ingest(raw(data))
    with services.store.session() as s:
        rows = {
            a.filename: a for a in s.scalars(select(Attachment).where(Attachment.message_pk == pk))
        }
    assert (services.home / rows["plan.pdf"].stored_path).read_bytes() == small
    assert rows["plan.pdf"].skipped_reason is None
    assert rows["video.mp4"].stored_path is None
    assert rows["video.mp4"].size == len(big)
    assert "over_size_cap" in rows["video.mp4"].skipped_reason
    listed = _mail(services)[message_id_of(data)]["attachments"]
    assert [(a["filename"], a["stored"]) for a in listed] == [
        ("plan.pdf", True),
        ("video.mp4", False),
    ]


async def test_a_schema_the_model_keeps_breaking_ends_in_the_rules_answer(  # type: ignore[no-untyped-def]
    services, clock, pipelines
) -> None:
    services.settings.update({"intake.max_attempts": 2, "llm.max_retries": 0})
    with LLMServer(lambda _r: {"nonsense": True}) as srv:
        services.settings.set("llm.base_url", srv.base_url)
        pipeline = pipelines()
        pk = await pipeline.ingest(raw(make_email(**ASK)))
        with services.store.session() as s:
            msg = s.get(Message, pk)
            assert (msg.disposition, msg.attempts) == ("pending", 1)
            assert "schema" in msg.last_error
        pending = [e for e in services.bus.events if isinstance(e, NeedsAttention)]
        assert pending[-1].kind == "llm_pending"

        report = await pipeline.retry_pending()  # the last try: the rules answer, marked
        assert report.counts == {"new_inquiry": 1}
        with services.store.session() as s:
            msg = s.get(Message, pk)
            assert msg.disposition == "new_inquiry" and msg.confidence == "low"
            assert s.scalar(select(func.count(Inquiry.id))) == 1
        asks = [e for e in services.bus.events if isinstance(e, NeedsAttention)]
        assert (asks[-1].kind, asks[-1].ref_id) == ("model_unusable", pk)
        # nothing more happens to a filed message
        assert (await pipeline.retry_pending()).processed == 0


async def test_unreachable_model_keeps_mail_pending_and_a_later_run_finishes_it(  # type: ignore[no-untyped-def]
    services, model, pipelines
) -> None:
    services.settings.update({"llm.max_retries": 0, "llm.timeout_seconds": 2})
    srv = LLMServer(model).start()
    url = srv.base_url
    srv.stop()  # nothing listens on that port now
    services.settings.set("llm.base_url", url)
    pipeline = pipelines()
    report = await pipeline.ingest_batch([raw(make_email(**ASK))])
    assert report.counts == {"pending": 1}

    with LLMServer(model) as srv2:
        services.settings.set("llm.base_url", srv2.base_url)
        report = await pipelines().retry_pending()
    assert report.counts == {"new_inquiry": 1}
    assert len(_inquiries(services)) == 1


async def test_reply_with_a_new_address_is_a_new_linked_inquiry(services, pipeline, model) -> None:  # type: ignore[no-untyped-def]
    model.script["new house"] = Verdict(
        ["A"],
        phone="+61412345678",
        address="6 Bali Pl, Winston Hills NSW 2153",
        suburb="Winston Hills",
        products=["stacker_door"],
        new_project=True,
    )
    first = make_email(**ASK)
    second = make_email(
        subject=f"RE: {QUOTE} - new house",
        body="Separate job: we bought a house at 6 Bali Pl, Winston Hills. Stacker door please.",
        in_reply_to=message_id_of(first),
        references=[message_id_of(first)],
        minutes=600,
    )
    await pipeline.ingest_batch([raw(first), raw(second)])
    old, new = _inquiries(services)
    assert new["parent_inquiry_id"] == old["id"]
    assert new["classification"] == "A" and new["suburb"] == "Winston Hills"
    assert old["suburb"] == "Blacktown" and "stacker_door" not in old["product_types"]
    assert _mail(services)[message_id_of(second)]["disposition"] == "new_inquiry"


async def test_merge_by_email_then_by_phone(services, pipeline, model) -> None:  # type: ignore[no-untyped-def]
    model.script["following up"] = Verdict(["R"], phone="+61412345678")
    by_email = make_email(subject="Following up", body="Any news on my quote?", minutes=60)
    by_phone = make_email(
        subject="Following up from work",
        body="Writing from work. Call 0412345678.",
        sender="Jane Citizen <j.citizen@bigcorp.example>",
        minutes=120,
    )
    stranger = make_email(
        subject="Following up on something else",
        body="Hi",
        sender="Bob <bob@example.net>",
        minutes=130,
    )
    model.script["something else"] = Verdict(["B"], products=["flyscreen"])
    await pipeline.ingest_batch(
        [raw(make_email(**ASK)), raw(by_email), raw(by_phone), raw(stranger)]
    )
    first, other = _inquiries(services)
    assert len(first["message_ids"]) == 3
    assert "j.citizen@bigcorp.example" in first["other_emails"]
    assert other["customer_email"] == "bob@example.net"
    # the board search finds the customer by the second address too
    with services.store.session() as s:
        found = s.scalars(select(Inquiry.id).where(search_condition("bigcorp"))).all()
    assert found == [first["id"]]


async def test_a_second_number_given_earlier_finds_the_customer(services, pipeline, model) -> None:  # type: ignore[no-untyped-def]
    """Jane gives a new mobile in a reply; later her husband writes from his own address with
    only that number: it is still Jane's job (found through ``inquiry_phones``)."""
    model.script["new mobile"] = Verdict(["R"], phone="+61400111222")
    model.script["about the windows"] = Verdict(["R"], phone="+61400111222")
    new_mobile = make_email(subject="New mobile", body="My new mobile is 0400 111 222.", minutes=60)
    husband = make_email(
        subject="About the windows",
        body="Hi, calling about my wife's quote, 0400 111 222.",
        sender="Tom Citizen <tom.c@example.org>",
        minutes=120,
    )
    await pipeline.ingest_batch([raw(make_email(**ASK)), raw(new_mobile), raw(husband)])
    (only,) = _inquiries(services)
    assert len(only["message_ids"]) == 3
    assert only["customer_phone"] == "+61412345678"


async def test_not_an_inquiry_alone_but_merged_in_a_customer_thread(  # type: ignore[no-untyped-def]
    services, pipeline, model
) -> None:
    first = make_email(**ASK)
    thanks = make_email(
        subject="Re: thanks",
        body="Thanks!",
        in_reply_to=message_id_of(first),
        minutes=10,
    )
    supplier = make_email(
        subject="Order confirmation 4471",
        body="Your order of 40 m of flyscreen mesh ships Monday.",
        sender="Orders <orders@supplier.example>",
        minutes=20,
    )
    report = await pipeline.ingest_batch([raw(first), raw(thanks), raw(supplier)])
    assert report.counts == {"new_inquiry": 1, "merged": 1, "not_inquiry": 1}
    mail = _mail(services)
    assert mail[message_id_of(supplier)]["inquiry_id"] is None
    assert mail[message_id_of(thanks)]["classification"] == "C"
    assert len(_inquiries(services)) == 1


async def test_owner_edits_are_never_overwritten(services, pipeline, model) -> None:  # type: ignore[no-untyped-def]
    pk = await pipeline.ingest(raw(make_email(**ASK)))
    with services.store.session() as s:
        inquiry_id = s.get(Message, pk).inquiry_id
    InquiryEditor(services).update_fields(
        inquiry_id, {"customer_phone": None, "product_types": ["sliding_window"]}
    )
    model.script["Re: Quote"] = Verdict(
        ["R"], phone="+61412345678", products=["sliding_window", "flyscreen"]
    )
    reply = make_email(
        subject=f"Re: {QUOTE}",
        body="Also the flyscreen please, my number is 0412 345 678.",
        in_reply_to=message_id_of(make_email(**ASK)),
        minutes=50,
    )
    await pipeline.ingest(raw(reply))
    (inquiry,) = _inquiries(services)
    assert inquiry["customer_phone"] is None
    assert inquiry["product_types"] == ["sliding_window"]
    assert len(inquiry["message_ids"]) == 2


async def test_reply_in_the_same_batch_sees_its_thread_and_calls_run_concurrently(  # type: ignore[no-untyped-def]
    services, model, pipelines
) -> None:
    model.script["Re: Quote"] = Verdict(["R"])
    for i in range(8):
        model.script[f"Awning {i}"] = Verdict(["B"], products=["awning_window"])
    services.settings.update({"llm.concurrency": 10, "llm.max_retries": 0})
    first = make_email(**ASK)
    reply = make_email(
        subject=f"Re: {QUOTE}",
        body="Is white available?",
        in_reply_to=message_id_of(first),
        minutes=5,
    )
    others = [
        make_email(
            subject=f"Awning {i} quote",
            body="One awning window 600 x 600 please.",
            sender=f"Customer {i} <c{i}@example.org>",
            minutes=10 + i,
        )
        for i in range(8)
    ]
    with LLMServer(model, latency=0.2) as srv:
        services.settings.set("llm.base_url", srv.base_url)
        pipeline = pipelines()
        report = await pipeline.ingest_batch([raw(first), raw(reply), *map(raw, others)])
        assert srv.max_in_flight >= 5  # independent messages were asked at the same time
    assert report.counts == {"new_inquiry": 9, "merged": 1}
    # 20 calls at 0.2 s each, asked side by side (max_in_flight above; wall time:
    # benchmarks/intake.py). The reply waits for its parent's merge.
    reply_prompt = next(p for p in model.prompts if "Is white available" in p)
    assert "Blacktown" in reply_prompt  # the thread context came from the same batch


async def test_a_message_seen_again_under_a_new_graph_id_is_relinked_not_doubled(  # type: ignore[no-untyped-def]
    services,
    pipelines,
) -> None:
    """Outlook re-issues ids when mail moves: the same Message-ID arriving under another Graph
    id is the stored message (no second row) and the row takes the newest id — unless another
    row already holds that id."""
    pipeline = pipelines(offline=True)
    data = make_email(**ASK)
    first = await pipeline.ingest(raw(data, source_id="AAA-old"))
    report = await pipeline.ingest_batch([raw(data, source_id="AAA-new")])
    assert report.already_known == 1 and report.message_pks == [first]
    other = await pipeline.ingest(raw(make_email(subject="Other", body="Hi"), source_id="BBB"))
    again = await pipeline.ingest_batch([raw(data, source_id="BBB")])
    assert again.already_known == 1
    with services.store.session() as s:
        rows = {m.id: m.source_id for m in s.scalars(select(Message))}
    assert rows == {first: "AAA-new", other: "BBB"}
