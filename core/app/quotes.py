"""``QuoteService``: quotes as the front ends use them — make a version, list, PDF, accept.

A new version is made from his line items (``--items-json``, the desktop's table editor) or
from his words through the model (``--instruction``: the model proposes the items, code checks
every price, size and quantity against his words and his price list). Either way the items are
checked first (``core.quotes.items``: one Chinese line per fault, nothing stored), the PDF is
rendered, and one transaction files the quote version, its PDF as an attachment of the inquiry
and the reply draft carrying it (``DraftComposer.compose_document``), which waits for his
approval like any other. The send is what makes the quote ``sent`` (``core.quotes.book``).
No ORM row leaves this module: the answers are the ``quotes --json`` dictionaries.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core import tasks
from core.app.lazy import LazyDrafts, LazyLLM
from core.clock import to_sydney
from core.db.models import Draft, Inquiry, Quote
from core.drafts.attachments import copy_owner_file, owner_file_row
from core.drafts.base import require_llm
from core.errors import BadInput, NotFound, QuoteStateError
from core.glossary import product_keys, product_name
from core.inquiry.stages import StageChange
from core.knowledge import knowledge_for
from core.phones import display_phone
from core.quotes import book
from core.quotes.grounding import unbacked
from core.quotes.items import LineItem, from_stored, line_items
from core.quotes.money import Totals, aud, totals
from core.quotes.pdf import Company, Customer, QuoteDocument, render_pdf
from core.services import Services

_TERMS_HEADING = re.compile(r"^#+\s*.*(terms|条款|报价说明|付款)", re.I)


class _ProposedItem(BaseModel):
    description: str = Field(description="Short English description for the customer")
    product: str = Field(description="Glossary key of the product")
    width_mm: int
    height_mm: int
    qty: int
    unit_price_ex_gst: float


class _Proposal(BaseModel):
    items: list[_ProposedItem]


@dataclass(frozen=True)
class NewQuote:
    """What ``quote new`` reports: the quote (contract dict) and its reply draft."""

    quote: dict[str, Any]
    draft_id: int


def terms_from_knowledge(text: str) -> list[str]:
    """The lines of his knowledge base under a terms heading (条款 / 报价说明 / Terms)."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            inside = bool(_TERMS_HEADING.match(line.strip()))
            continue
        if inside and line.strip():
            out.append(line.strip().lstrip("-*• ").strip())
    return out[:30]


class QuoteService:
    def __init__(self, services: Services, llm: LazyLLM, drafts: LazyDrafts) -> None:
        self._services = services
        self._llm = llm
        self._drafts = drafts

    # -- reading -------------------------------------------------------------------------------
    def _today(self) -> date:
        return to_sydney(self._services.clock.now()).date()

    async def rows(self, inquiry_id: int | None = None) -> list[dict[str, Any]]:
        """Every quote (or one inquiry's), newest version last, as the contract prints them."""
        today = self._today()

        def load(session: Session) -> list[dict[str, Any]]:
            query = select(Quote).order_by(Quote.inquiry_id, Quote.version)
            if inquiry_id is not None:
                query = query.where(Quote.inquiry_id == inquiry_id)
            out = []
            for q in session.scalars(query):
                draft = session.get(Draft, q.draft_id) if q.draft_id else None
                confirmed = list(draft.confirmed_facts or []) if draft else []
                out.append(book.quote_json(q, today, confirmed=confirmed))
            return out

        return await self._services.store.read(load)

    @staticmethod
    def totals(items: Sequence[LineItem], deposit_percent: int) -> Totals:
        """The totals of items being edited (the editor's live figures; nothing stored)."""
        return totals([i.money for i in items], deposit_percent)

    @staticmethod
    def check_items(raw: object) -> list[LineItem]:
        """His items checked (``BadInput``: one Chinese line naming the item and the fault)."""
        return line_items(raw)

    # -- making a version ----------------------------------------------------------------------
    def deposit_percent(self) -> int:
        percent = self._services.settings.number("company.deposit_percent")
        if not 0 <= percent <= 100:
            raise BadInput(
                f"定金比例 {percent}% 不合理（设置 company.deposit_percent） / a deposit of "
                f"{percent}% is not sensible (setting company.deposit_percent)"
            )
        return percent

    def _terms(self) -> book.QuoteTerms:
        settings = self._services.settings
        text = knowledge_for(self._services.paths.home, self._services.paths.shared).text()
        return book.QuoteTerms(
            deposit_percent=self.deposit_percent(),
            valid_days=max(1, settings.number("company.quote_valid_days")),
            terms="\n".join(terms_from_knowledge(text)),
        )

    def company(self) -> Company:
        s = self._services.settings
        return Company(
            name=s.text("company.name") or s.text("general.company_name"),
            abn=s.text("company.abn"),
            # the office address and mail address he gave the wizard, unless [company] says
            # otherwise: a quote without any address or contact looked unfinished
            address=s.text("company.address") or s.text("general.office_address"),
            phone=s.text("company.phone"),
            email=s.text("company.email") or next(iter(s.strings("general.owner_addresses")), ""),
            logo=s.text("company.logo"),
        )

    async def new_from_items(
        self, inquiry_id: int, raw_items: object, *, actor: str = "owner"
    ) -> NewQuote:
        """A new version from his own items (JSON list or the editor's rows)."""
        items = line_items(raw_items)
        return await self._file(inquiry_id, items, actor=actor, instruction="", flagged=[])

    async def new_from_instruction(
        self, inquiry_id: int, instruction: str, *, actor: str = "owner"
    ) -> NewQuote:
        """A new version from his words: the model proposes the items; any price, size or
        quantity not in his words or price list is unconfirmed and blocks the reply's
        approval until he confirms it."""
        instruction = (instruction or "").strip()
        if not instruction:
            raise BadInput("请写下报价内容（中文即可） / write what to quote")
        inquiry = await self._precheck(inquiry_id)
        llm = require_llm(self._llm)
        knowledge = knowledge_for(self._services.paths.home, self._services.paths.shared).text()
        proposal = await llm.structured(
            tier=2,
            purpose="quote",
            prompt="quote_items",
            variables={
                "products": ", ".join(product_keys()),
                "knowledge": knowledge[:20_000],
                "inquiry": inquiry,
                "instruction": instruction,
            },
            schema=_Proposal,
            refs={"inquiry_id": inquiry_id},
        )
        items = line_items([i.model_dump() for i in proposal.items])
        region = self._services.settings.text("general.phone_region") or "AU"
        flagged = unbacked(items, [instruction, knowledge], region)
        return await self._file(
            inquiry_id, items, actor=actor, instruction=instruction, flagged=flagged
        )

    async def _precheck(self, inquiry_id: int) -> str:
        """Refuse before anything is made: unknown, lost/done, or no customer email. The
        inquiry's summary (for the model's context) when it may be quoted."""

        def check(session: Session) -> str:
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None:
                raise NotFound(f"询盘 #{inquiry_id} / inquiry #{inquiry_id}")
            if inquiry.stage in book.NO_QUOTE_STAGES:
                stage = "已流失" if inquiry.stage == "lost" else "已完成"
                raise QuoteStateError(
                    f"询盘 #{inquiry_id} {stage}，不能再报价 / inquiry {inquiry_id} is "
                    f"{inquiry.stage}"
                )
            if not inquiry.customer_email:
                raise QuoteStateError(
                    f"询盘 #{inquiry_id} 没有客户邮箱，报价无法发出 / no customer email"
                )
            return f"{inquiry.customer_name or ''} {inquiry.suburb or ''} " + " ".join(
                inquiry.dimensions or []
            )

        return await self._services.store.read(check)

    async def _document(self, inquiry_id: int, items: list[LineItem]) -> QuoteDocument:
        terms = self._terms()
        now = self._services.clock.now()

        def load(session: Session) -> QuoteDocument:
            inquiry = session.get(Inquiry, inquiry_id)
            assert inquiry is not None  # checked by _precheck
            last = session.scalar(
                select(func.max(Quote.version)).where(Quote.inquiry_id == inquiry_id)
            )
            return _doc(self.company(), inquiry, items, terms, (last or 0) + 1, now)

        return await self._services.store.read(load)

    async def _file(
        self,
        inquiry_id: int,
        items: list[LineItem],
        *,
        actor: str,
        instruction: str,
        flagged: list[str],
    ) -> NewQuote:
        await self._precheck(inquiry_id)
        doc = await self._document(inquiry_id, items)
        copied = await tasks.io(_pdf_copy, self._services, doc)
        terms = self._terms()
        clock = self._services.clock
        made: list[int] = []

        def link(session: Session, draft: Draft) -> None:
            quote = book.new_version(
                session,
                inquiry_id,
                items,
                terms,
                clock=clock,
                instruction=instruction,
                unconfirmed=flagged,
                actor=actor,
            )
            if quote.version != doc.version:
                raise QuoteStateError("同时有另一个报价版本生成，请重试 / another version was made")
            row = owner_file_row(session, inquiry_id, copied, draft.created_at)
            quote.draft_id, quote.attachment_id = draft.id, row.id
            draft.attachment_ids = [row.id]
            made.append(quote.id)

        body_en, body_zh = reply_bodies(doc, self._services.settings.text("drafts.signature"))
        record = instruction or f"报价单 {doc.number} 第 {doc.version} 版（老板给的明细）"
        draft_id = await self._drafts.composer.compose_document(
            inquiry_id,
            subject=f"Quote {doc.number} (version {doc.version})",
            body_en=body_en,
            body_zh=body_zh,
            instruction=record,
            actor=actor,
            link=link,
        )
        (quote,) = [q for q in await self.rows(inquiry_id) if q["id"] == made[0]]
        return NewQuote(quote, draft_id)

    # -- PDF and acceptance --------------------------------------------------------------------
    async def preview_pdf(self, inquiry_id: int, raw_items: object, lang: str = "zh_CN") -> bytes:
        """His Chinese preview of the quote the editor's rows would make (the next version's
        number, today's date, the same figures), nothing stored: the customer's PDF is English,
        and he checks what it says in his language before he files it."""
        items = line_items(raw_items)

        def exists(session: Session) -> None:
            if session.get(Inquiry, inquiry_id) is None:
                raise NotFound(f"询盘 #{inquiry_id} / inquiry #{inquiry_id}")

        await self._services.store.read(exists)
        doc = await self._document(inquiry_id, items)
        return await tasks.io(render_pdf, doc, lang)

    async def preview_file(self, inquiry_id: int, raw_items: object, lang: str = "zh_CN") -> Path:
        """``preview_pdf`` written to a new file under ``cache/quote-preview`` for a viewer to
        open (the previous previews there are removed: one a viewer still holds open stays)."""
        pdf = await self.preview_pdf(inquiry_id, raw_items, lang)
        return await tasks.io(_write_preview, self._services.paths.cache / "quote-preview", pdf)

    async def pdf(self, quote_id: int) -> bytes:
        """The PDF of a stored version, as the customer gets it."""
        company = self.company()

        def load(session: Session) -> QuoteDocument:
            q = book.get_quote(session, quote_id)
            inquiry = session.get(Inquiry, q.inquiry_id)
            if inquiry is None:
                raise NotFound(f"询盘 #{q.inquiry_id} / inquiry #{q.inquiry_id}")
            return stored_doc(company, inquiry, q)

        doc = await self._services.store.read(load)
        return await tasks.io(render_pdf, doc)

    async def accept(self, quote_id: int) -> StageChange | None:
        """The customer accepted: the quote is ``accepted``, the inquiry ``ordered``."""
        clock = self._services.clock
        change = await self._services.store.run(lambda s: book.accept(s, quote_id, clock))
        if change is not None:
            self._services.bus.publish(change.event())
        return change


def _customer(inquiry: Inquiry) -> Customer:
    place = ", ".join(x for x in (inquiry.address, inquiry.suburb) if x)
    return Customer(
        name=inquiry.customer_name or inquiry.customer_email or "Customer",
        email=inquiry.customer_email or "",
        phone=display_phone(inquiry.customer_phone),  # as Australians dial it, not E.164
        address=place,
    )


def _doc(
    company: Company,
    inquiry: Inquiry,
    items: list[LineItem],
    terms: book.QuoteTerms,
    version: int,
    now: Any,
) -> QuoteDocument:
    from datetime import timedelta

    money = totals([i.money for i in items], terms.deposit_percent)
    today = to_sydney(now).date()
    return QuoteDocument(
        company=company,
        customer=_customer(inquiry),
        number=book.quote_number(inquiry.id),
        version=version,
        issued=today.isoformat(),
        valid_until=(today + timedelta(days=terms.valid_days)).isoformat(),
        items=items,
        subtotal_ex_gst=money.subtotal_ex_gst,
        gst=money.gst,
        total_inc_gst=money.total_inc_gst,
        deposit_percent=money.deposit_percent,
        deposit_inc_gst=money.deposit_inc_gst,
        terms=[t for t in terms.terms.splitlines() if t.strip()],
    )


def stored_doc(company: Company, inquiry: Inquiry, q: Quote) -> QuoteDocument:
    """The document of a stored version (its own date, totals and terms)."""
    return QuoteDocument(
        company=company,
        customer=_customer(inquiry),
        number=q.number,
        version=q.version,
        issued=to_sydney(q.created_at.replace(tzinfo=_utc())).date().isoformat(),
        valid_until=q.valid_until,
        items=from_stored(q.items),
        subtotal_ex_gst=Decimal(q.subtotal_ex_gst),
        gst=Decimal(q.gst),
        total_inc_gst=Decimal(q.total_inc_gst),
        deposit_percent=q.deposit_percent,
        deposit_inc_gst=Decimal(q.deposit_inc_gst),
        terms=[t for t in (q.terms or "").splitlines() if t.strip()],
    )


def _utc() -> Any:
    from datetime import UTC

    return UTC


def _write_preview(folder: Path, pdf: bytes) -> Path:
    """A fresh file each time: a viewer may hold the last one open (Windows locks it)."""
    import contextlib

    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.pdf"):
        with contextlib.suppress(OSError):
            old.unlink()
    handle, name = tempfile.mkstemp(prefix="quote-preview-", suffix=".pdf", dir=folder)
    try:
        with open(handle, "wb") as out:
            out.write(pdf)
    except BaseException:  # a full disk: no half a PDF left behind
        Path(name).unlink(missing_ok=True)
        raise
    return Path(name)


def _pdf_copy(services: Services, doc: QuoteDocument) -> Any:
    """Render the PDF and copy it into the data folder (content-addressed), off the loop."""
    pdf = render_pdf(doc)
    with tempfile.TemporaryDirectory(prefix="quote-") as tmp:
        path = Path(tmp) / doc.filename
        path.write_bytes(pdf)
        return copy_owner_file(services.paths, path)


def reply_bodies(doc: QuoteDocument, signature: str = "") -> tuple[str, str]:
    """The reply's English body and its Chinese rendering, written by code from the quote
    (the same values in both, so the guard's rendering check holds)."""
    name = doc.customer.name.split()[0] if doc.customer.name else "there"
    en = [f"Dear {name},", "", f"Thank you for your inquiry. Please find attached our quote "
          f"{doc.number} (version {doc.version}):", ""]  # fmt: skip
    zh = [f"{doc.customer.name}您好：", "", f"感谢询价。附件是我们的报价单 {doc.number}（第 "
          f"{doc.version} 版）：", ""]  # fmt: skip
    for item in doc.items:
        size = f"{item.width_mm} x {item.height_mm} mm"
        en.append(f"- {item.description}: {size}, qty {item.qty}, "
                  f"{aud(item.unit_price_ex_gst)} each ex GST")  # fmt: skip
        # his Chinese names the product too: the description is the English the customer reads
        product = product_name(item.product, "zh_CN")
        zh.append(f"- {product}（{item.description}）：{size}，数量 {item.qty}，"
                  f"每件 {aud(item.unit_price_ex_gst)}（不含 GST）")  # fmt: skip
    en += ["", f"Subtotal ex GST: {aud(doc.subtotal_ex_gst)}", f"GST: {aud(doc.gst)}",
           f"Total inc GST: {aud(doc.total_inc_gst)}",
           f"A deposit of {doc.deposit_percent}% ({aud(doc.deposit_inc_gst)}) is payable on "
           f"acceptance. This quote is valid until {doc.valid_until}.", "",
           "To accept, simply reply to this email. Please let us know if you have any questions."]  # fmt: skip
    zh += ["", f"小计（不含 GST）：{aud(doc.subtotal_ex_gst)}", f"GST：{aud(doc.gst)}",
           f"合计（含 GST）：{aud(doc.total_inc_gst)}",
           f"接受报价时需付定金 {doc.deposit_percent}%（{aud(doc.deposit_inc_gst)}）。"
           f"本报价有效期至 {doc.valid_until}。", "",
           "如接受报价，直接回复此邮件即可；如有任何问题请告诉我们。"]  # fmt: skip
    if signature.strip():
        en += ["", signature.strip()]
        zh += ["", signature.strip()]
    return "\n".join(en), "\n".join(zh)
