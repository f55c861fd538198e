"""Quotes in the core: exact money, one Chinese line per bad item with nothing stored, versions
that supersede unsent ones, refusals on a lost inquiry and a superseded accept, and a PDF whose
text (read back with poppler's ``pdftotext``) carries what the customer must see."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from core.app import App
from core.db.models import Attachment, Draft, Inquiry, Quote
from core.errors import BadInput, QuoteStateError
from core.inquiry.stages import record_initial_stage
from core.quotes.money import line_money, totals

ITEMS: list[dict[str, Any]] = [
    {
        "description": "Sliding window, double glazed, installed",
        "product": "sliding_window",
        "width_mm": 1800,
        "height_mm": 1200,
        "qty": 3,
        "unit_price_ex_gst": 1250,
    },
    {
        "description": "Flyscreen",
        "product": "flyscreen",
        "width_mm": 900,
        "height_mm": 1200,
        "qty": 3,
        "unit_price_ex_gst": "45.55",
    },
]


def _inquiry(services: Any, stage: str = "inquiry") -> int:
    def do(session: Any) -> int:
        now = services.clock.now().replace(tzinfo=None)
        inquiry = Inquiry(
            stage=stage,
            stage_changed_at=now,
            created_at=now,
            updated_at=now,
            customer_name="Wang Wei",
            customer_email="wang.wei@example.com",
            suburb="Burwood",
        )
        session.add(inquiry)
        session.flush()
        record_initial_stage(
            session, inquiry, reason="new", triggered_by="pipeline", clock=services.clock
        )
        return int(inquiry.id)

    return int(services.store.write(do))


def _counts(services: Any) -> tuple[int, int, int]:
    def do(session: Any) -> tuple[int, int, int]:
        return (
            session.scalar(select(func.count()).select_from(Quote)),
            session.scalar(select(func.count()).select_from(Draft)),
            session.scalar(select(func.count()).select_from(Attachment)),
        )

    return services.store.write(do)  # type: ignore[no-any-return]


@pytest.fixture
def app(services: Any) -> Any:
    services.settings.update(
        {
            "company.name": "Aurora Windows & Doors",
            "company.abn": "12 345 678 901",
            "company.address": "1 George St, Sydney NSW 2000",
            "company.phone": "02 9000 0000",
        }
    )
    application = App(services)
    yield application
    asyncio.run(application.aclose())


def test_gst_is_per_line_rounded_half_up_and_totals_are_sums() -> None:
    # 3 × 45.55 = 136.65 → GST 13.665 → 13.67 (half up); a float would give 13.66 or 13.67 by luck
    line = line_money(3, Decimal("45.55"))
    assert (line.ex_gst, line.gst) == (Decimal("136.65"), Decimal("13.67"))
    big = line_money(3, Decimal("1250"))
    t = totals([big, line], 30)
    assert t.subtotal_ex_gst == Decimal("3886.65")
    assert t.gst == Decimal("388.67")  # 375.00 + 13.67, not 10 % of the subtotal (388.665)
    assert t.total_inc_gst == Decimal("4275.32")
    assert t.deposit_inc_gst == Decimal("1282.60")  # 30 % of 4275.32 = 1282.596


def test_new_version_has_exact_money_a_draft_and_a_pdf_attachment(app: Any, services: Any) -> None:
    iid = _inquiry(services)
    made = asyncio.run(app.quotes.new_from_items(iid, ITEMS))
    q = made.quote
    assert (q["number"], q["version"], q["status"]) == (f"Q-{iid:04d}", 1, "draft")
    assert [i["line_total_ex_gst"] for i in q["items"]] == [3750.0, 136.65]
    assert (q["subtotal_ex_gst"], q["gst"], q["total_inc_gst"]) == (3886.65, 388.67, 4275.32)
    assert (q["deposit_percent"], q["deposit_inc_gst"]) == (30, 1282.6)
    assert q["draft_id"] == made.draft_id and q["unconfirmed_facts"] == []
    view = asyncio.run(app.drafts.reader.get(made.draft_id))
    assert view.status == "pending_approval"
    assert view.unconfirmed_facts == []  # code's arithmetic on his items: nothing to confirm
    assert "$4,275.32" in view.body_en and "$4,275.32" in view.body_zh
    assert len(view.attachment_ids) == 1


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"qty": -2}, "数量 -2 不能为负数"),
        ({"unit_price_ex_gst": None}, "缺少单价"),
        ({"width_mm": 0}, "宽度 0 毫米不合理"),
        ({"width_mm": 99999}, "宽度 99999 毫米不合理"),
        ({"unit_price_ex_gst": "twelve"}, "单价「twelve」不是数字"),
        ({"product": "spaceship"}, "未知产品「spaceship」"),
    ],
)
def test_bad_items_say_one_chinese_line_and_store_nothing(
    app: Any, services: Any, change: dict[str, Any], said: str
) -> None:
    iid = _inquiry(services)
    before = _counts(services)
    bad = [ITEMS[0], {**ITEMS[1], **change}]
    with pytest.raises(BadInput) as caught:
        asyncio.run(app.quotes.new_from_items(iid, bad))
    message = caught.value.user_message("zh_CN")
    assert said in message and "第 2 项" in message and "\n" not in message
    assert _counts(services) == before


def test_no_quote_on_a_lost_inquiry(app: Any, services: Any) -> None:
    iid = _inquiry(services, stage="lost")
    with pytest.raises(QuoteStateError) as caught:
        asyncio.run(app.quotes.new_from_items(iid, ITEMS))
    assert "已流失" in caught.value.user_message("zh_CN")
    assert _counts(services) == (0, 0, 0)


def test_v2_supersedes_unsent_v1_and_its_draft_and_v1_cannot_be_accepted(
    app: Any, services: Any
) -> None:
    iid = _inquiry(services)
    v1 = asyncio.run(app.quotes.new_from_items(iid, ITEMS))
    v2 = asyncio.run(app.quotes.new_from_items(iid, ITEMS[:1]))
    rows = {q["version"]: q for q in asyncio.run(app.quotes.rows())}
    assert (rows[1]["status"], rows[2]["status"]) == ("superseded", "draft")
    assert rows[2]["total_inc_gst"] == 4125.0
    old = asyncio.run(app.drafts.reader.get(v1.draft_id))
    assert old.status == "superseded"  # one reply waiting for him, not two
    with pytest.raises(QuoteStateError) as caught:
        asyncio.run(app.quotes.accept(v1.quote["id"]))
    assert "已被新版本取代" in caught.value.user_message("zh_CN")
    change = asyncio.run(app.quotes.accept(v2.quote["id"]))
    assert change is not None and change.to_stage == "ordered"


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_pdf_text_carries_company_abn_customer_lines_and_totals(
    app: Any, services: Any, tmp_path: Path
) -> None:
    (services.paths.home / "knowledge.md").write_text(
        "# 报价条款\n- Balance due on completion of installation.\n", encoding="utf-8"
    )
    iid = _inquiry(services)
    made = asyncio.run(app.quotes.new_from_items(iid, ITEMS))
    pdf = tmp_path / "q.pdf"
    pdf.write_bytes(asyncio.run(app.quotes.pdf(made.quote["id"])))
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for needed in (
        "Aurora Windows & Doors",
        "ABN 12 345 678 901",
        "1 George St, Sydney NSW 2000",
        "Wang Wei",
        f"Q-{iid:04d}",
        "Sliding window, double glazed, installed",
        "1800 x 1200",
        "$3,750.00",
        "$136.65",
        "$3,886.65",
        "$388.67",
        "$4,275.32",
        "$1,282.60",
        "Balance due on completion of installation.",
    ):
        assert needed in text, needed
