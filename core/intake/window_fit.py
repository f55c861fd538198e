"""A mail's text cut to the model's context window before it is classified or extracted.

Why: a prompt carries up to 12,000 characters of mail; a model on the owner's PC often has a
window of 4,096 tokens, and a long mail (a pasted spec sheet, a newsletter) overflowed it. The
refusal is not transient, so it used to mark the model unusable for the rest of the run and
every later mail got the rules' answer (#45). Now the body is cut to what the window takes
(the window known from the server or its first refusal: ``ModelClient.context_window``) and a
refusal is asked again once, cut to the window it named; a mail that still does not fit gets the
rules' answer alone (``core.intake.understanding``).

The measure is the client's token estimate (``core.llm.pricing.estimate_tokens``) with a spare
fifth, the prompt's own text and the answer's ``max_tokens`` counted, and the schema that a
json_object/text endpoint gets in its prompt counted too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar, Unpack

from pydantic import BaseModel

from core.errors import LLMContextTooLong
from core.llm.completion import strict_json_schema
from core.llm.pricing import estimate_tokens
from core.llm.prompts import render_messages
from core.llm.request_shape import output_tokens

if TYPE_CHECKING:
    from core.llm.model import ModelClient, StructuredCall

M = TypeVar("M", bound=BaseModel)
SPARE = 0.2  # of the window: our estimate against the server's tokenizer
CUT_NOTE = "\n[… the rest of this email was cut to fit the model]"


def _cut(text: str, tokens: int) -> str:
    """``text`` shortened to about ``tokens`` of the estimate (whole text when it fits)."""
    if estimate_tokens(text) <= tokens:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix within the tokens
        mid = (low + high + 1) // 2
        if estimate_tokens(text[:mid]) <= tokens:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + CUT_NOTE


def fitted_variables(
    window: int,
    prompt: str,
    variables: Mapping[str, object],
    schema: type[BaseModel],
    purpose: str,
    field: str = "body",
) -> dict[str, object]:
    """``variables`` with ``field`` cut so the prompt fits ``window`` tokens (0: unchanged)."""
    out = dict(variables)
    if not window:
        return out
    empty = render_messages(prompt, {**out, field: ""})
    fixed = sum(estimate_tokens(str(m["content"])) for m in empty)
    fixed += estimate_tokens(json.dumps(strict_json_schema(schema), ensure_ascii=False))
    room = int(window * (1 - SPARE)) - fixed - output_tokens(purpose)
    out[field] = _cut(str(out.get(field) or ""), max(room, 200))
    return out


async def structured_within(llm: ModelClient, **call: Unpack[StructuredCall[M]]) -> M:
    """``llm.structured`` with the mail cut to the window; a refusal is asked again once, cut
    to the window it named (or, when the window was known already and our estimate fell
    short, to the share of it the refusal's own figures allow)."""
    tier, purpose = call["tier"], call["purpose"]
    scale = 1.0
    for attempt in (1, 2):
        window = await llm.context_window(tier)
        fitted = fitted_variables(
            int(window * scale), call["prompt"], call["variables"], call["schema"], purpose
        )
        try:
            fitted_call: StructuredCall[M] = {**call, "variables": fitted}
            return await llm.structured(**fitted_call)
        except LLMContextTooLong as too_long:
            if attempt == 2 or not await llm.context_window(tier):
                raise
            if window:  # the window was known: our count was short of the server's
                limit, asked = too_long.params.get("limit"), too_long.params.get("asked")
                ratio = (
                    limit / asked
                    if isinstance(limit, int) and isinstance(asked, int) and asked
                    else 0
                )
                scale = min(0.75, ratio or 0.75)
    raise AssertionError("unreachable")
