"""A customer's reply that accepts the quote becomes a proposal, never a stage move on its own.

The customer got quote Q-… (sent); his reply "we accept the quote, please go ahead" merges into
the inquiry. The loopback model proposes the classification (accepts, in the customer's own
words) and code checks it against the mail: the words are there, carry an acceptance cue, and
hold no condition or question. Only then does the owner get "客户接受了报价 Q-…，改为已下单?" --
on Telegram with ✅ 确认 / 🗑 放弃 -- and his 确认 does what ``quote accept`` does: the quote is
``accepted``, the job ``ordered`` with the deposit due. A model that claims acceptance code
cannot find in the mail, a conditional "go ahead if…", or a reply with no sent quote make no
proposal (the last asks no model at all).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from sqlalchemy import select

from core.app import App
from core.db.models import Inquiry, LLMCall, Quote, StageEvent, WriteProposal
from core.intake.pipeline import IntakePipeline
from core.quotes.book import quote_sent
from core.telegram.runner import TelegramRunner
from tests.intake.test_pipeline_support import ScriptedModel, Verdict, make_email, raw
from tests.notify.conftest import OWNER, owner_env, tg, tg_env
from tests.quotes.test_quote_book import ITEMS
from tests.support.llm_server import LLMServer, system_text
from tests.support.telegram_server import TelegramServer

__all__ = ["owner_env", "tg", "tg_env"]

CUSTOMER = "Wang Wei <wang.wei@example.com>"
ACCEPTS = (
    "Thanks Tom. We accept the quote, please go ahead.\nI will pay the deposit on Monday.\nWang"
)


class Model(ScriptedModel):
    """The scripted classifier/extractor, plus the acceptance answer the test sets."""

    def __init__(self) -> None:
        super().__init__(
            {
                "Bifold door": Verdict(["B"], name="Wang Wei", products=["bifold_door"]),
                "Re: Quote": Verdict(["R"]),
            }
        )
        self.acceptance: dict[str, Any] = {"accepts": False, "words": ""}
        self.asked = 0

    def __call__(self, request: dict[str, Any]) -> Any:
        if "whether this email accepts" in system_text(request):
            self.asked += 1
            return self.acceptance
        return super().__call__(request)


@pytest.fixture
def model() -> Model:
    return Model()


@pytest.fixture
def llm(services: Any, model: Model) -> Iterator[LLMServer]:
    with LLMServer(model) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        yield server


@pytest.fixture
async def app(services: Any, llm: LLMServer) -> AsyncIterator[App]:
    built = App(services)
    yield built
    await built.aclose()
    drafting = built.drafts._service
    if drafting is not None:
        await drafting.aclose()


@pytest.fixture
async def pipeline(app: App) -> AsyncIterator[IntakePipeline]:
    made = app.pipeline(first_replies=False)
    yield made
    await made.aclose()


async def _quoted(services: Any, app: App, pipeline: IntakePipeline, *, send: bool = True) -> int:
    """The customer's inquiry, and a quote whose reply went out (as the send marks it)."""
    await pipeline.ingest(
        raw(make_email(subject="Bifold door for our deck", body="Please quote a bifold door "
                       "3600 x 2100 for 3 Elm St, Burwood.\nWang", sender=CUSTOMER))
    )  # fmt: skip
    with services.store.session() as session:
        (inquiry_id,) = session.scalars(select(Inquiry.id)).all()
    made = await app.quotes.new_from_items(inquiry_id, ITEMS)
    if send:
        services.store.write(lambda s: quote_sent(s, made.draft_id, services.clock))
    return int(inquiry_id)


async def _reply(app: App, pipeline: IntakePipeline, body: str) -> None:
    await pipeline.ingest(
        raw(make_email(subject="Re: Quote Q-0001 (version 1)", body=body, sender=CUSTOMER,
                       minutes=60))
    )  # fmt: skip
    await app.quote_acceptances.drain()


def _proposals(services: Any) -> list[WriteProposal]:
    with services.store.session() as session:
        rows = list(session.scalars(select(WriteProposal)))
        session.expunge_all()
        return rows


async def test_an_accepting_reply_is_proposed_and_his_press_orders_the_job(
    services: Any, app: App, pipeline: IntakePipeline, model: Model, owner_env: TelegramServer
) -> None:
    inquiry_id = await _quoted(services, app, pipeline)
    model.acceptance = {"accepts": True, "words": "We accept the quote, please go ahead."}
    await _reply(app, pipeline, ACCEPTS)
    assert model.asked == 1
    (proposal,) = _proposals(services)
    assert proposal.kind == "quote_accept" and proposal.status == "open"
    assert proposal.summary_zh == "客户接受了报价 Q-0001，改为已下单?"
    with services.store.session() as session:
        row = session.get(Inquiry, inquiry_id)
        assert row is not None and row.stage == "follow_up"  # nothing moved on a guess
        purposes = session.scalars(select(LLMCall.purpose)).all()
    assert purposes.count("quote_acceptance") == 1
    assert [p.id for p in await app.proposals.open()] == [proposal.id]  # the desktop's list

    runner = TelegramRunner(app)
    try:
        await runner.run_once()
        offer = next(m for m in owner_env.sent_to(OWNER) if "客户接受了报价 Q-0001" in m.visible)
        assert "We accept the quote, please go ahead." in offer.visible
        assert [b["text"] for b in offer.buttons()] == ["✅ 确认", "🗑 放弃"]
        owner_env.press(offer, "确认")
        await runner.run_once()
    finally:
        await runner.aclose()
    with services.store.session() as session:
        row = session.get(Inquiry, inquiry_id)
        assert row is not None and row.stage == "ordered"
        (quote,) = session.scalars(select(Quote)).all()
        assert quote.status == "accepted"
        move = session.scalars(select(StageEvent).order_by(StageEvent.id.desc())).first()
        assert move is not None and move.triggered_by == "owner" and "定金" in move.reason
    assert any("已确认并执行" in m.visible for m in owner_env.sent_to(OWNER))

    await _reply(app, pipeline, "Thanks again, we accept the quote, please go ahead.")
    assert len(_proposals(services)) == 1  # accepted already: no second proposal, no call


@pytest.mark.parametrize(
    ("body", "answer"),
    [
        (ACCEPTS, {"accepts": True, "words": "We are happy to accept your quote"}),  # not said
        ("We would like to go ahead if you can take 10% off the price.\nWang",
         {"accepts": True, "words": "We would like to go ahead"}),  # a condition
        ("Can we go ahead next month instead?\nWang",
         {"accepts": True, "words": "go ahead next month"}),  # a question
    ],
)  # fmt: skip
async def test_an_acceptance_code_cannot_confirm_is_not_proposed(
    services: Any, app: App, pipeline: IntakePipeline, model: Model, body: str, answer: Any
) -> None:
    await _quoted(services, app, pipeline)
    model.acceptance = answer
    await _reply(app, pipeline, body)
    assert model.asked == 1 and _proposals(services) == []


async def test_no_sent_quote_asks_no_model(
    services: Any, app: App, pipeline: IntakePipeline, model: Model
) -> None:
    await _quoted(services, app, pipeline, send=False)  # the quote still waits for approval
    model.acceptance = {"accepts": True, "words": "We accept the quote, please go ahead."}
    await _reply(app, pipeline, ACCEPTS)
    assert model.asked == 0 and _proposals(services) == []
