"""The quote as the customer gets it: an English PDF made with ReportLab.

Why ReportLab: core must not import Qt (so not QPdfWriter/QTextDocument), and WeasyPrint needs
Pango from the system; ReportLab is pure Python with wheels on every platform, maintained since
2000, and its tables lay out line items without an HTML engine. Text is real text (``pdftotext``
reads it back), the fonts are the PDF standard ones (Helvetica) — nothing to embed for English.
His terms may be in Chinese: those lines use ReportLab's built-in CID font (STSong-Light).
"""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from core.glossary import product_name
from core.quotes.items import LineItem
from core.quotes.money import aud

_CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef]")


@dataclass(frozen=True)
class Company:
    """The sender's profile from settings ``[company]``."""

    name: str
    abn: str = ""
    address: str = ""
    phone: str = ""
    email: str = ""
    logo: str = ""  # a PNG/JPEG path; skipped when it cannot be read


@dataclass(frozen=True)
class Customer:
    name: str
    email: str = ""
    phone: str = ""
    address: str = ""


@dataclass(frozen=True)
class QuoteDocument:
    """Everything the PDF prints; made by the service from the stored quote."""

    company: Company
    customer: Customer
    number: str
    version: int
    issued: str  # ISO date
    valid_until: str  # ISO date
    items: list[LineItem]
    subtotal_ex_gst: Decimal
    gst: Decimal
    total_inc_gst: Decimal
    deposit_percent: int
    deposit_inc_gst: Decimal
    terms: list[str] = field(default_factory=list)

    @property
    def filename(self) -> str:
        return f"Quote {self.number} v{self.version}.pdf"


def _paragraph(text: str, style: object) -> object:
    from xml.sax.saxutils import escape

    from reportlab.platypus import Paragraph

    return Paragraph(escape(text), style)


def _cjk_style(base: object) -> object:
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    if "STSong-Light" not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    return ParagraphStyle("cjk", parent=base, fontName="STSong-Light")


def _header(doc: QuoteDocument, styles: dict[str, object]) -> list[object]:
    from reportlab.platypus import Image, Spacer

    c = doc.company
    out: list[object] = []
    if c.logo and Path(c.logo).is_file():
        with contextlib.suppress(Exception):  # an unreadable logo never stops the quote
            out.append(Image(c.logo, width=120, height=48, kind="proportional"))
    out.append(_paragraph(c.name or "Quote", styles["Title"]))
    lines = [c.address, f"Phone {c.phone}" if c.phone else "", c.email]
    lines.append(f"ABN {c.abn}" if c.abn else "")
    out += [_paragraph(line, styles["Normal"]) for line in lines if line]
    out.append(Spacer(1, 10))
    out.append(_paragraph(f"QUOTE {doc.number} (version {doc.version})", styles["Heading2"]))
    out.append(
        _paragraph(f"Date: {doc.issued}    Valid until: {doc.valid_until}", styles["Normal"])
    )
    out.append(Spacer(1, 6))
    cu = doc.customer
    out.append(_paragraph(f"Prepared for: {cu.name}", styles["Normal"]))
    out += [_paragraph(x, styles["Normal"]) for x in (cu.address, cu.email, cu.phone) if x]
    out.append(Spacer(1, 10))
    return out


def _table(doc: QuoteDocument, styles: dict[str, object]) -> object:
    from reportlab.lib import colors
    from reportlab.platypus import Table, TableStyle

    rows: list[list[object]] = [
        ["#", "Description", "Size (W x H mm)", "Qty", "Unit ex GST", "Total ex GST"]
    ]
    for n, item in enumerate(doc.items, start=1):
        text = item.description
        product = product_name(item.product, "en")
        if product.lower() not in text.lower():
            text = f"{text} ({product})"
        rows.append(
            [
                str(n),
                _paragraph(text, styles["BodyText"]),
                f"{item.width_mm} x {item.height_mm}",
                str(item.qty),
                aud(item.unit_price_ex_gst),
                aud(item.money.ex_gst),
            ]
        )
    rows += [
        ["", "Subtotal (ex GST)", "", "", "", aud(doc.subtotal_ex_gst)],
        ["", "GST (10%)", "", "", "", aud(doc.gst)],
        ["", "Total (inc GST)", "", "", "", aud(doc.total_inc_gst)],
        [
            "",
            f"Deposit on acceptance ({doc.deposit_percent}%)",
            "",
            "",
            "",
            aud(doc.deposit_inc_gst),
        ],
    ]
    table = Table(rows, colWidths=[20, 200, 90, 35, 75, 80], repeatRows=1)
    last = len(rows) - 1
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8eef5")),
                ("GRID", (0, 0), (-1, last - 4), 0.4, colors.grey),
                ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("FONTNAME", (1, last - 1), (-1, last - 1), "Helvetica-Bold"),
                ("LINEABOVE", (1, last - 3), (-1, last - 3), 0.8, colors.black),
            ]
        )
    )
    return table


def render_pdf(doc: QuoteDocument) -> bytes:
    """The PDF's bytes (A4)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.platypus import SimpleDocTemplate, Spacer

    sheet = getSampleStyleSheet()
    styles: dict[str, object] = {k: sheet[k] for k in ("Title", "Normal", "Heading2", "BodyText")}
    story = _header(doc, styles)
    story.append(_table(doc, styles))
    story.append(Spacer(1, 14))
    story.append(
        _paragraph(
            "All prices are in Australian dollars. GST is 10% of each line, rounded to the cent.",
            styles["Normal"],
        )
    )
    if doc.terms:
        story.append(_paragraph("Terms", styles["Heading2"]))
        cjk = None
        for line in doc.terms:
            style = styles["Normal"]
            if _CJK.search(line):
                cjk = cjk or _cjk_style(styles["Normal"])
                style = cjk
            story.append(_paragraph(line, style))
    buffer = io.BytesIO()
    pdf = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        title=f"Quote {doc.number} v{doc.version}",
        author=doc.company.name,
        leftMargin=40,
        rightMargin=40,
        topMargin=40,
        bottomMargin=40,
        invariant=True,  # the same quote gives the same bytes (no creation time inside)
    )
    pdf.build(story)
    return buffer.getvalue()
