"""The product glossary (resources/glossary.json): canonical keys, Chinese and English names.

Model output is validated against these keys: anything not in the glossary is dropped.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TypedDict

RESOURCES = Path(__file__).resolve().parent.parent / "resources"


class Product(TypedDict):
    zh: str
    en: str
    aliases: list[str]


def resources_dir() -> Path:
    return RESOURCES


@cache
def glossary() -> dict[str, Product]:
    products: dict[str, Product] = json.loads((RESOURCES / "glossary.json").read_text("utf-8"))
    return products


def product_keys() -> tuple[str, ...]:
    return tuple(glossary())


def is_product(key: str) -> bool:
    return key in glossary()


def product_name(key: str, lang: str = "zh_CN") -> str:
    item = glossary().get(key)
    if item is None:
        return key
    return item["zh"] if lang.startswith("zh") else item["en"]
