"""Line items of a quote: read from his JSON (or the model's proposal), checked, priced.

Why the checks live here and say one Chinese line each: a quote is a document the customer
keeps. A negative quantity, a missing or non-numeric price, a width of 0 or 99,999 mm, a product
that is not in the glossary — each is refused before anything is stored, with the line number
and what is wrong, so he fixes the one line and runs the command again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from core.errors import BadInput
from core.glossary import is_product, product_name
from core.quotes.money import LineMoney, line_money

MIN_MM = 100  # a flyscreen is never narrower than 10 cm
MAX_MM = 20_000  # a 20 m stacker run is the widest opening he fits
MAX_QTY = 999
MAX_PRICE = Decimal("1000000")
FIELDS = ("description", "product", "width_mm", "height_mm", "qty", "unit_price_ex_gst")


@dataclass(frozen=True)
class LineItem:
    """One line of a quote as the customer reads it."""

    description: str
    product: str  # a glossary key
    width_mm: int
    height_mm: int
    qty: int
    unit_price_ex_gst: Decimal

    @property
    def money(self) -> LineMoney:
        return line_money(self.qty, self.unit_price_ex_gst)

    def as_json(self) -> dict[str, Any]:
        """The contract's item: the fields given plus ``line_total_ex_gst`` (money as numbers,
        exact to the cent)."""
        return {
            **self._words_and_sizes(),
            "unit_price_ex_gst": float(self.unit_price_ex_gst),
            "line_total_ex_gst": float(self.money.ex_gst),
        }

    def stored(self) -> dict[str, Any]:
        """The row's copy: money as exact decimal strings."""
        return {**self._words_and_sizes(), "unit_price_ex_gst": str(self.unit_price_ex_gst)}

    def _words_and_sizes(self) -> dict[str, Any]:
        """Every field but the money, the same in the contract and the row."""
        return {
            "description": self.description,
            "product": self.product,
            "width_mm": self.width_mm,
            "height_mm": self.height_mm,
            "qty": self.qty,
        }


def _bad(n: int, zh: str, en: str) -> BadInput:
    return BadInput(f"第 {n} 项：{zh} / item {n}: {en}")


def _integer(n: int, raw: object, zh: str, en: str) -> int:
    if isinstance(raw, bool) or raw is None or raw == "":
        raise _bad(n, f"缺少{zh}", f"the {en} is missing")
    try:
        value = Decimal(str(raw).replace(",", "").strip())
    except InvalidOperation:
        raise _bad(n, f"{zh}「{raw}」不是数字", f"the {en} {raw!r} is not a number") from None
    if not value.is_finite() or value != value.to_integral_value():
        raise _bad(n, f"{zh}「{raw}」必须是整数", f"the {en} {raw!r} must be a whole number")
    return int(value)


def _size(n: int, raw: object, zh: str, en: str) -> int:
    mm = _integer(n, raw, zh, en)
    if not MIN_MM <= mm <= MAX_MM:
        raise _bad(
            n,
            f"{zh} {mm} 毫米不合理（应在 {MIN_MM}–{MAX_MM:,} 毫米之间）",
            f"a {en} of {mm} mm is not plausible ({MIN_MM}–{MAX_MM:,} mm)",
        )
    return mm


def _qty(n: int, raw: object) -> int:
    qty = _integer(n, raw, "数量", "quantity")
    if qty < 0:
        raise _bad(n, f"数量 {qty} 不能为负数", f"the quantity {qty} cannot be negative")
    if qty == 0 or qty > MAX_QTY:
        raise _bad(n, f"数量 {qty} 应在 1–{MAX_QTY} 之间", f"the quantity must be 1–{MAX_QTY}")
    return qty


def _price(n: int, raw: object) -> Decimal:
    if raw is None or raw == "" or isinstance(raw, bool):
        raise _bad(n, "缺少单价（不含 GST）", "the unit price ex GST is missing")
    text = str(raw).replace(",", "").replace("$", "").strip()
    try:
        price = Decimal(text)
    except InvalidOperation:
        raise _bad(n, f"单价「{raw}」不是数字", f"the unit price {raw!r} is not a number") from None
    if not price.is_finite():
        raise _bad(n, f"单价「{raw}」不是数字", f"the unit price {raw!r} is not a number")
    if price < 0:
        raise _bad(n, f"单价 {raw} 不能为负数", f"the unit price {raw} cannot be negative")
    if price > MAX_PRICE or price.as_tuple().exponent < -2:  # type: ignore[operator]
        raise _bad(
            n,
            f"单价「{raw}」不合理（最多到分，且低于一百万）",
            f"the unit price {raw!r} is not plausible",
        )
    return price


def line_item(n: int, raw: object) -> LineItem:
    """Item ``n`` (1-based) of his list, checked; ``BadInput`` names the line and the fault."""
    if not isinstance(raw, Mapping):
        raise _bad(n, "应是一个对象（含 description、product 等字段）", "must be an object")
    product = str(raw.get("product") or "").strip()
    if not product:
        raise _bad(n, "缺少产品（product）", "the product is missing")
    if not is_product(product):
        raise _bad(
            n,
            f"未知产品「{product}」（不在产品词汇表中）",
            f"unknown product {product!r} (not in the glossary)",
        )
    description = str(raw.get("description") or "").strip() or product_name(product, "en")
    return LineItem(
        description=description[:300],
        product=product,
        width_mm=_size(n, raw.get("width_mm"), "宽度", "width"),
        height_mm=_size(n, raw.get("height_mm"), "高度", "height"),
        qty=_qty(n, raw.get("qty")),
        unit_price_ex_gst=_price(n, raw.get("unit_price_ex_gst")),
    )


def line_items(raw: object) -> list[LineItem]:
    """His whole list, every line checked (the first fault is refused)."""
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        raise BadInput("报价明细应是一个 JSON 列表 / the items must be a JSON list")
    if not raw:
        raise BadInput("报价没有任何明细 / the quote has no items")
    if len(raw) > 200:
        raise BadInput("报价明细超过 200 项 / more than 200 items")
    return [line_item(i, item) for i, item in enumerate(raw, start=1)]


def from_stored(rows: Sequence[Mapping[str, Any]]) -> list[LineItem]:
    """The items of a stored quote (already checked when it was made)."""
    return [
        LineItem(
            description=str(r["description"]),
            product=str(r["product"]),
            width_mm=int(r["width_mm"]),
            height_mm=int(r["height_mm"]),
            qty=int(r["qty"]),
            unit_price_ex_gst=Decimal(str(r["unit_price_ex_gst"])),
        )
        for r in rows
    ]
