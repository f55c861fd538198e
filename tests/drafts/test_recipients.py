"""People choose recipients: a draft to someone who is not the inquiry's customer, or carrying
another customer's contact details, waits for the owner's explicit confirmation."""

from __future__ import annotations

import pytest

from core.errors import UnconfirmedFactsError
from tests.drafts.support import CUSTOMER, add_inquiry


async def test_a_recipient_other_than_the_customer_needs_his_confirmation(services, drafting):  # type: ignore[no-untyped-def]
    inquiry_id, _ = add_inquiry(services)
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
    assert (await drafting.reader.get(draft_id)).unconfirmed_facts == []  # his customer: clean
    view = await drafting.edits.set_recipients(draft_id, ["jane@work.example.com"], actor="owner")
    assert view.unconfirmed_facts == ["jane@work.example.com"]
    with pytest.raises(UnconfirmedFactsError):
        await drafting.decisions.approve(draft_id, actor="owner")
    approved = await drafting.decisions.approve(draft_id, actor="owner", accept_unconfirmed=True)
    assert approved.status == "approved" and "jane@work.example.com" in approved.confirmed_facts
    # back to his customer: nothing to confirm any more
    view = await drafting.edits.set_recipients(draft_id, [CUSTOMER], actor="owner")
    assert view.unconfirmed_facts == []


async def test_another_customers_email_and_phone_in_the_body_are_flagged(services, drafting):  # type: ignore[no-untyped-def]
    add_inquiry(services, email="bob@example.org", name="Bob Smith", body="Quote please, Bob")
    body = "Hi, my neighbour Bob (bob@example.org, 0400 111 222) wants a quote too."
    inquiry_id, _ = add_inquiry(services, body=body)
    with services.store.session() as session:
        from core.db.models import Inquiry

        bob = session.query(Inquiry).filter(Inquiry.customer_email == "bob@example.org").one()
        bob.customer_phone = "+61400111222"
        session.commit()
    draft_id = await drafting.composer.compose(inquiry_id, "回复客户", actor="owner")
    view = await drafting.edits.update_body(
        draft_id,
        "Hi Jane, we will also contact Bob at bob@example.org or 0400 111 222.",
        actor="owner",
    )
    # the customer wrote both, so the fact guard is content; but they are Bob's, not hers
    assert set(view.unconfirmed_facts) == {"bob@example.org", "0400 111 222"}
