"""Rough USD prices per million tokens, to put an estimated cost on every ledger row.

Why estimates: the owner wants to see what the AI costs per inquiry, and providers bill later.
Prices are matched by model-name prefix (longest first); unknown or local models cost 0. The
providers' own models (DeepSeek, Qwen, Kimi, GLM…) are priced in their presets
(``core.llm.providers``), the one table 设置 → AI 模型 also reads.
"""

from __future__ import annotations

from core.llm.providers import all_prices

# model prefix -> (input USD / 1M tokens, output USD / 1M tokens)
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5": (1.25, 10.00),
    "o4-mini": (1.10, 4.40),
    "claude-3-5-haiku": (0.80, 4.00),
    "claude-haiku": (1.00, 5.00),
    "claude-sonnet": (3.00, 15.00),
    **all_prices(),
}


def price_of(model: str) -> tuple[float, float]:
    name = model.lower().rsplit("/", 1)[-1]
    for prefix in sorted(PRICES, key=len, reverse=True):
        if name.startswith(prefix):
            return PRICES[prefix]
    return (0.0, 0.0)


def estimate_cost(model: str, prompt_tokens: int, completion_tokens: int) -> float:
    """Estimated USD cost of one call (0.0 for unknown/local models)."""
    price_in, price_out = price_of(model)
    return round((prompt_tokens * price_in + completion_tokens * price_out) / 1_000_000, 8)


def estimate_tokens(text: str) -> int:
    """Token estimate when the endpoint reports no usage: ~4 characters per token, CJK ~1."""
    if not text:
        return 0
    cjk = sum(1 for ch in text if "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef")
    return max(1, cjk + (len(text) - cjk) // 4)
