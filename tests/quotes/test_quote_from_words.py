"""A quote from his words through a loopback model that invents a price.

He says "三樘推拉窗 1800×1200 双层玻璃，每樘 1,250，含安装"; the model proposes the sliding windows at
$1,450 (a price he never said) and a flyscreen at his price-list price. Code finds $1,450.00 in
neither his words nor his price list: the quote lists it as unconfirmed, the reply draft flags
it and approval is refused until he confirms it; the price-list price is not flagged.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from core.app import App
from core.errors import UnconfirmedFactsError
from tests.quotes.test_quote_book import _inquiry
from tests.support.llm_server import LLMServer

WORDS = "三樘推拉窗 1800×1200 双层玻璃，每樘 1,250，含安装；再配三个纱窗"
KNOWLEDGE = "# 价格规则\n- 纱窗 flyscreen 900×1200：每个 $85（不含 GST）\n"


def quoting_model(request: dict[str, Any]) -> Any:
    """Answers the quote prompt with items, one price invented (1450 instead of his 1,250)."""
    system = str(request["messages"][0]["content"])
    assert "line items" in system and "纱窗 flyscreen" in system  # his price list is given
    return {
        "items": [
            {
                "description": "Sliding window, double glazed, installed",
                "product": "sliding_window",
                "width_mm": 1800,
                "height_mm": 1200,
                "qty": 3,
                "unit_price_ex_gst": 1450,
            },
            {
                "description": "Flyscreen",
                "product": "flyscreen",
                "width_mm": 900,
                "height_mm": 1200,
                "qty": 3,
                "unit_price_ex_gst": 85,
            },
        ]
    }


@pytest.fixture
async def app(services: Any) -> AsyncIterator[App]:
    with LLMServer(quoting_model) as llm:
        services.settings.update({"llm.base_url": llm.base_url, "llm.max_retries": 0})
        (services.paths.home / "knowledge.md").write_text(KNOWLEDGE, encoding="utf-8")
        application = App(services)
        yield application
        await application.aclose()


async def test_invented_price_is_flagged_and_blocks_approval_until_confirmed(
    app: App, services: Any
) -> None:
    iid = _inquiry(services)
    made = await app.quotes.new_from_instruction(iid, WORDS)
    assert made.quote["unconfirmed_facts"] == ["$1,450.00"]  # the flyscreen's $85 is his
    view = await app.drafts.reader.get(made.draft_id)
    assert "$1,450.00" in view.unconfirmed_facts
    with pytest.raises(UnconfirmedFactsError):
        await app.drafts.decisions.approve(made.draft_id, actor="owner")
    assert (await app.drafts.reader.get(made.draft_id)).status == "pending_approval"

    await app.drafts.edits.confirm_facts(made.draft_id, ["$1,450.00"], actor="owner")
    (quote,) = await app.quotes.rows(iid)
    assert quote["unconfirmed_facts"] == []
    await app.drafts.decisions.approve(made.draft_id, actor="owner")
    assert (await app.drafts.reader.get(made.draft_id)).status == "approved"
