"""客户接受了报价 Q-…，改为已下单? on the inquiry's detail: the customer's words, one click to decide.

The proposal is made the way a checked customer reply makes it (``core.app.quote_acceptance``'s
filing, the loopback-model path is ``tests/quotes/test_quote_reply_accepts.py``); here the owner
meets it on the desktop: the bar shows the question and the words, 确认，改为已下单 moves the job
to 已下单 with the quote accepted, and the bar is gone.
"""

from __future__ import annotations

from typing import Any

from core.app.quote_acceptance_rows import file_proposal
from core.quotes.acceptance import sent_quote
from core.quotes.book import quote_sent
from desktop.detail import InquiryDetailView
from tests.quotes.test_quote_book import ITEMS, _inquiry
from tests.support.qt import settles, wait_until


@settles
async def test_the_owner_confirms_the_customers_acceptance_on_the_detail(
    ctx: Any, qtbot: Any, services: Any
) -> None:
    iid = _inquiry(services)
    made = await ctx.app.quotes.new_from_items(iid, ITEMS)
    clock = services.clock
    services.store.write(lambda s: quote_sent(s, made.draft_id, clock))

    def file(session: Any) -> Any:
        quote = sent_quote(session, iid, "2026-04-01")
        assert quote is not None
        return file_proposal(session, iid, 1, quote, "We accept the quote, go ahead.", clock.now())

    assert services.store.write(file) is not None
    view = InquiryDetailView(ctx)
    qtbot.addWidget(view)
    view.show_inquiry(iid)
    await view.ready()
    bar = view.proposal_bar
    assert not bar.isHidden()
    assert bar.question.text() == "客户接受了报价 Q-0001，改为已下单?"
    assert bar.words.text() == "客户原话：「We accept the quote, go ahead.」"
    assert bar.confirm_button.text() == "确认，改为已下单"
    done = await bar.decide(True)
    assert done is not None and done.status == "confirmed"
    assert bar.isHidden()
    view.show_inquiry(iid)
    await view.ready()
    await wait_until(lambda: view.detail is not None and view.detail.stage == "ordered")
    (quote,) = await ctx.app.quotes.rows(iid)
    assert quote["status"] == "accepted"
    assert bar.isHidden()
