"""Which values of a model-proposed quote his words do not back.

When he describes a quote in words ("三樘推拉窗 1800×1200 双层玻璃，每樘 1,250，含安装") the model
turns them into line items. Every unit price, width, height and quantity must then be found in
his words or in his price list (the knowledge base, his own text): code checks each one with the
fact normaliser the draft guard uses (``core.text.facts``: "1,250", "$1,250.00" and "1250" are
one value), and whatever is not found is *unconfirmed* — it blocks the reply's approval until he
confirms it, exactly as an unbacked number in a draft does. Values are returned as the reply
prints them ("$1,450.00", "2400 mm", "qty 3"), so confirming the draft's flag confirms the quote's.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.quotes.items import LineItem
from core.quotes.money import aud
from core.text.facts import covered, extract_facts, source_keys


def price_text(item: LineItem) -> str:
    return aud(item.unit_price_ex_gst)


def unbacked(items: Iterable[LineItem], sources: Iterable[str], region: str = "AU") -> list[str]:
    """The items' prices, sizes and quantities not found in ``sources``, as printed, unique."""
    keys = source_keys(list(sources), region)
    out: list[str] = []

    def check(text: str) -> None:
        facts = extract_facts(text, region)
        if (not facts or not all(covered(f, keys) for f in facts)) and text not in out:
            out.append(text)

    for item in items:
        check(price_text(item))
        check(f"{item.width_mm} mm")
        check(f"{item.height_mm} mm")
        if f"num:{item.qty}" not in keys and f"qty {item.qty}" not in out:
            out.append(f"qty {item.qty}")
    return out
