"""His Chinese preview of a quote (the customer's PDF is English), and what the customer's PDF
says about him and the company: read back with poppler's ``pdftotext`` as a viewer shows it."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

from core.app import App
from core.clock import to_sydney
from core.db.models import Inquiry
from core.quotes.pdf import CJK_FONT_FILES
from tests.quotes.test_quote_book import ITEMS, _counts, _inquiry

pytestmark = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="poppler-utils not installed"
)


def _text(pdf: Path) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


@pytest.fixture
def app(services: Any) -> Any:
    services.settings.update(
        {
            "company.name": "Aurora Windows & Doors",
            "company.abn": "12 345 678 901",
            "general.office_address": "1 Parramatta Rd, Granville NSW 2142",
            "general.owner_addresses": ["sales@aurorawindows.com.au"],
        }
    )
    application = App(services)
    yield application
    asyncio.run(application.aclose())


def test_the_chinese_preview_has_the_same_figures_in_chinese_words_and_stores_nothing(
    app: Any, services: Any
) -> None:
    iid = _inquiry(services)
    before = _counts(services)
    path = asyncio.run(app.quotes.preview_file(iid, ITEMS))
    assert path.parent == services.paths.cache / "quote-preview" and path.suffix == ".pdf"
    text = _text(path)
    for needed in (
        "中文预览",  # says what it is: he checks it, the customer never gets it
        f"报价单 Q-{iid:04d}（第 1 版）",
        "客户：Wang Wei",
        "推拉窗",  # the glossary's Chinese product name beside his English description
        "宽 x 高（毫米）",
        "小计（不含 GST）",
        "合计（含 GST）",
        "接受报价时付定金（30%）",
        "$3,886.65",
        "$388.67",
        "$4,275.32",
        "$1,282.60",
        "ABN 12 345 678 901",
    ):
        assert needed in text, needed
    assert "Total (inc GST)" not in text
    assert _counts(services) == before  # no quote, draft or attachment filed by a preview
    again = asyncio.run(app.quotes.preview_file(iid, ITEMS))
    assert again != path and not path.exists()  # a fresh file; the old preview is cleared


@pytest.mark.skipif(
    not any(Path(p).is_file() for p in CJK_FONT_FILES), reason="no CJK TrueType font installed"
)
def test_the_preview_embeds_its_chinese_font(app: Any, services: Any) -> None:
    """Embedded, the preview shows in any viewer, also one without a Chinese font of its own."""
    iid = _inquiry(services)
    path = asyncio.run(app.quotes.preview_file(iid, ITEMS))
    fonts = subprocess.run(
        ["pdffonts", str(path)], capture_output=True, text=True, check=True
    ).stdout
    cjk = [line for line in fonts.splitlines() if "QuoteCJK" in line or "WenQuanYi" in line]
    assert cjk and all(" yes " in line for line in cjk), fonts


def test_the_customers_pdf_dials_his_phone_and_gives_the_office_address(
    app: Any, services: Any, tmp_path: Path
) -> None:
    """The customer's PDF printed "+61423556781" and, with only the wizard's profile filled in,
    no address or email for the company at all; the reply's Chinese said only the English
    description of each line."""
    iid = _inquiry(services)
    services.store.write(
        lambda s: s.execute(
            update(Inquiry).where(Inquiry.id == iid).values(customer_phone="+61423556781")
        )
    )
    made = asyncio.run(app.quotes.new_from_items(iid, ITEMS))
    pdf = tmp_path / "q.pdf"
    pdf.write_bytes(asyncio.run(app.quotes.pdf(made.quote["id"])))
    text = _text(pdf)
    assert "0423 556 781" in text and "+61423556781" not in text
    assert "1 Parramatta Rd, Granville NSW 2142" in text
    issued = to_sydney(services.clock.now()).date()  # as an Australian writes it, not ISO
    assert f"Date: {issued.day} {issued:%B} {issued.year}" in text
    assert issued.isoformat() not in text
    assert "sales@aurorawindows.com.au" in text
    assert "Total (inc GST)" in text and "合计" not in text  # his preview's words stay his
    # the reply's Chinese names each product in Chinese beside the customer's English line
    view = asyncio.run(app.drafts.reader.get(made.draft_id))
    assert "- 推拉窗（Sliding window, double glazed, installed）：1800 x 1200 mm" in view.body_zh
    assert "推拉窗" not in view.body_en
