"""The quote as the customer gets it: an English PDF made with ReportLab.

Why ReportLab: core must not import Qt (so not QPdfWriter/QTextDocument), and WeasyPrint needs
Pango from the system; ReportLab is pure Python with wheels on every platform, maintained since
2000, and its tables lay out line items without an HTML engine. Text is real text (``pdftotext``
reads it back), the fonts are the PDF standard ones (Helvetica) — nothing to embed for English.
His terms may be in Chinese: those lines use ReportLab's built-in CID font (STSong-Light).

``render_pdf(doc, lang="zh_CN")`` is his Chinese preview of the same document: the same layout,
figures and lines, with Chinese labels and product names, in a CJK TrueType font embedded in the
file (WenQuanYi Micro Hei, or Windows' YaHei/SimHei, found on the system; the built-in CID font
when none is), so any viewer shows it without boxes. The customer always gets the English one.
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
# TrueType CJK fonts ReportLab can embed (OpenType/CFF ones such as Noto CJK it cannot), in order
CJK_FONT_FILES = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "C:/Windows/Fonts/msyh.ttc",
    "C:/Windows/Fonts/simhei.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
)
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")  # fmt: skip
LABELS = {
    "en": {
        "quote": "QUOTE {number} (version {version})",
        "dates": "Date: {issued} · Valid until: {valid}",
        "for": "Prepared for: {name}",
        "phone": "Phone {phone}",
        "head": ("#", "Description", "Size (W x H mm)", "Qty", "Unit ex GST", "Total ex GST"),
        "subtotal": "Subtotal (ex GST)",
        "gst": "GST (10%)",
        "total": "Total (inc GST)",
        "deposit": "Deposit on acceptance ({percent}%)",
        "note": "All prices are in Australian dollars. GST is 10% of each line, rounded to the "
        "cent.",
        "terms": "Terms",
        "preview": "",
    },
    "zh_CN": {
        "quote": "报价单 {number}（第 {version} 版）",
        "dates": "日期：{issued} · 有效期至：{valid}",
        "for": "客户：{name}",
        "phone": "电话 {phone}",
        "head": (
            "#",
            "描述",
            "宽 x 高（毫米）",
            "数量",
            "单价（不含GST）",
            "小计（不含GST）",
        ),
        "subtotal": "小计（不含 GST）",
        "gst": "GST（10%）",
        "total": "合计（含 GST）",
        "deposit": "接受报价时付定金（{percent}%）",
        "note": "所有价格均为澳元。GST 按每行 10% 计算，四舍五入到分。",
        "terms": "条款",
        "preview": "中文预览，仅供您核对：客户收到的是英文 PDF，金额和明细与此相同。",
    },
}


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


def cjk_font() -> str:
    """The registered name of an embeddable CJK TrueType font (``CJK_FONT_FILES``), or the
    built-in CID font STSong-Light when the system has none."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfbase.ttfonts import TTFont

    registered = pdfmetrics.getRegisteredFontNames()
    if "QuoteCJK" in registered:
        return "QuoteCJK"
    for path in CJK_FONT_FILES:
        if Path(path).is_file():
            with contextlib.suppress(Exception):  # an unreadable font: try the next one
                pdfmetrics.registerFont(TTFont("QuoteCJK", path, subfontIndex=0))
                return "QuoteCJK"
    if "STSong-Light" not in registered:
        pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    return "STSong-Light"


def _styles(lang: str) -> dict[str, object]:
    """The sample sheet's styles; for Chinese each in the CJK font (bold where the English is)."""
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet

    sheet = getSampleStyleSheet()
    styles: dict[str, object] = {k: sheet[k] for k in ("Title", "Normal", "Heading2", "BodyText")}
    if lang != "en":
        font = cjk_font()
        styles = {k: ParagraphStyle(f"{k}-zh", parent=v, fontName=font) for k, v in styles.items()}
    return styles


def _date(iso: str, lang: str) -> str:
    """A date as its reader writes it: "7 December 2026" (an Australian reads 2026-12-07 as
    a computer's date), "2026年12月7日"; a value that is not an ISO date is printed as given."""
    from datetime import date

    try:
        day = date.fromisoformat(iso)
    except ValueError:
        return iso
    if lang == "en":  # not strftime's %B: Qt sets the process locale, which may be Chinese
        return f"{day.day} {MONTHS[day.month - 1]} {day.year}"
    return f"{day.year}年{day.month}月{day.day}日"


def _header(doc: QuoteDocument, styles: dict[str, object], lang: str) -> list[object]:
    from reportlab.platypus import Image, Spacer

    words = LABELS[lang]
    c = doc.company
    out: list[object] = []
    if c.logo and Path(c.logo).is_file():
        with contextlib.suppress(Exception):  # an unreadable logo never stops the quote
            out.append(Image(c.logo, width=120, height=48, kind="proportional"))
    out.append(_paragraph(c.name or "Quote", styles["Title"]))
    lines = [c.address, str(words["phone"]).format(phone=c.phone) if c.phone else "", c.email]
    lines.append(f"ABN {c.abn}" if c.abn else "")
    out += [_paragraph(line, styles["Normal"]) for line in lines if line]
    out.append(Spacer(1, 10))
    quote = str(words["quote"]).format(number=doc.number, version=doc.version)
    out.append(_paragraph(quote, styles["Heading2"]))
    dates = str(words["dates"]).format(
        issued=_date(doc.issued, lang), valid=_date(doc.valid_until, lang)
    )
    out.append(_paragraph(dates, styles["Normal"]))
    out.append(Spacer(1, 6))
    cu = doc.customer
    out.append(_paragraph(str(words["for"]).format(name=cu.name), styles["Normal"]))
    out += [_paragraph(x, styles["Normal"]) for x in (cu.address, cu.email, cu.phone) if x]
    out.append(Spacer(1, 10))
    return out


def _table(doc: QuoteDocument, styles: dict[str, object], lang: str) -> object:
    from reportlab.lib import colors
    from reportlab.platypus import Table, TableStyle

    words = LABELS[lang]
    rows: list[list[object]] = [list(words["head"])]
    for n, item in enumerate(doc.items, start=1):
        text = item.description
        product = product_name(item.product, lang)
        if product.lower() not in text.lower():
            text = f"{text} ({product})" if lang == "en" else f"{product}：{text}"
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
    deposit = str(words["deposit"]).format(percent=doc.deposit_percent)
    rows += [
        ["", words["subtotal"], "", "", "", aud(doc.subtotal_ex_gst)],
        ["", words["gst"], "", "", "", aud(doc.gst)],
        ["", words["total"], "", "", "", aud(doc.total_inc_gst)],
        ["", deposit, "", "", "", aud(doc.deposit_inc_gst)],
    ]
    widths = [20, 200, 90, 35, 75, 80] if lang == "en" else [20, 175, 85, 35, 90, 90]
    table = Table(rows, colWidths=widths, repeatRows=1)
    last = len(rows) - 1
    font = "Helvetica" if lang == "en" else cjk_font()
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), font),
                ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold" if lang == "en" else font),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8eef5")),
                ("GRID", (0, 0), (-1, last - 4), 0.4, colors.grey),
                ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                (
                    "FONTNAME",
                    (1, last - 1),
                    (-1, last - 1),
                    "Helvetica-Bold" if lang == "en" else font,
                ),
                ("LINEABOVE", (1, last - 3), (-1, last - 3), 0.8, colors.black),
            ]
        )
    )
    return table


def render_pdf(doc: QuoteDocument, lang: str = "en") -> bytes:
    """The PDF's bytes (A4): the customer's (``en``), or his Chinese preview (``zh_CN``)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import SimpleDocTemplate, Spacer

    lang = "en" if lang == "en" else "zh_CN"
    words = LABELS[lang]
    styles = _styles(lang)
    story: list[object] = []
    if words["preview"]:
        story.append(_paragraph(str(words["preview"]), styles["Normal"]))
    story += _header(doc, styles, lang)
    story.append(_table(doc, styles, lang))
    story.append(Spacer(1, 14))
    story.append(_paragraph(str(words["note"]), styles["Normal"]))
    if doc.terms:
        story.append(_paragraph(str(words["terms"]), styles["Heading2"]))
        cjk = None
        for line in doc.terms:
            style = styles["Normal"]
            if lang == "en" and _CJK.search(line):
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
