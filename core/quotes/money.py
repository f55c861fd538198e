"""Quote money: Australian dollars as ``Decimal``, GST 10 % per line rounded to the cent.

Why per line: a quote is read line by line, and the owner checks each line's GST against his
own sums; rounding each line (``ROUND_HALF_UP``, as the ATO's rounding guidance and his
accountant do) and summing the rounded lines makes every total the exact sum of what is printed,
never off by a cent. Floats never touch money here: values arrive as text or ``Decimal``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

GST_RATE = Decimal("0.10")
CENT = Decimal("0.01")


def cents(value: Decimal) -> Decimal:
    """``value`` rounded to the cent, half up ($0.005 → $0.01)."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def aud(value: Decimal) -> str:
    """ "$1,234.50": how the PDF, the reply and the editor print an amount."""
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(cents(value)):,.2f}"


@dataclass(frozen=True)
class LineMoney:
    """One line's money: ex GST, its GST, inc GST."""

    ex_gst: Decimal
    gst: Decimal

    @property
    def inc_gst(self) -> Decimal:
        return self.ex_gst + self.gst


def line_money(qty: int, unit_price_ex_gst: Decimal) -> LineMoney:
    """A line's total ex GST (quantity × unit price, to the cent) and its GST (10 %, to the
    cent)."""
    ex = cents(unit_price_ex_gst * qty)
    return LineMoney(ex, cents(ex * GST_RATE))


@dataclass(frozen=True)
class Totals:
    """The quote's totals: sums of the rounded lines, and the deposit on the total."""

    subtotal_ex_gst: Decimal
    gst: Decimal
    total_inc_gst: Decimal
    deposit_percent: int
    deposit_inc_gst: Decimal


def totals(lines: list[LineMoney], deposit_percent: int) -> Totals:
    """Subtotal and GST are sums of the lines; the deposit is ``deposit_percent`` of the total
    inc GST, to the cent."""
    subtotal = sum((line.ex_gst for line in lines), Decimal("0.00"))
    gst = sum((line.gst for line in lines), Decimal("0.00"))
    total = subtotal + gst
    deposit = cents(total * Decimal(deposit_percent) / Decimal(100))
    return Totals(cents(subtotal), cents(gst), cents(total), deposit_percent, deposit)
