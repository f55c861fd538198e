"""The Chinese the owner approves is a translation of the English that will be sent.

He reads the Chinese pane and approves; the customer gets the English. So the Chinese is never
the drafting model's (that call read the customer's mail and may obey it): it is made by
``reply_model.render_zh``, a call that sees only the final English (no mail, no tools), and it
carries ``Draft.zh_source``, the fingerprint of the English it translates (``zh_stamp``). When
the English changes after that, the Chinese is *stale* (``is_stale``) and approval waits until
it is made again, on every path (``OwnerDecisions.approve``: desktop, CLI, Telegram).

Every value the English carries — amounts, dates, times, phones, e-mails, links and their
hosts, account numbers, promises of refunds, discounts, compensation or liability — must be in
the Chinese too (``core.drafts.factguard.rendering_mismatches``); one that is not is flagged
中文未体现 (``zh_missing``) and joins ``unconfirmed_facts``, so plain approval is refused and he
confirms it explicitly, as any unconfirmed fact.
"""

from __future__ import annotations

import hashlib
import logging
from typing import TYPE_CHECKING

from core.errors import InquiryBridgeError

if TYPE_CHECKING:
    from core.db.models import Draft
    from core.llm.model import LedgerRefs, ModelClient

log = logging.getLogger(__name__)

ZH_MISSING = "中文未体现"


def zh_stamp(body_en: str) -> str:
    """The fingerprint of an English body (what a Chinese translation was made from)."""
    return hashlib.sha256(body_en.strip().encode("utf-8")).hexdigest()[:32]


def is_stale(draft: Draft) -> bool:
    """Whether the Chinese pane is not a translation of the draft's English as it is now."""
    if not (draft.body_en or "").strip():
        return False
    return not (draft.body_zh or "").strip() or draft.zh_source != zh_stamp(draft.body_en)


async def translate(
    llm: ModelClient, subject: str, body_en: str, refs: LedgerRefs
) -> tuple[str, str | None]:
    """(Chinese, its ``zh_source``) for ``body_en``, by the English-only call; ("", None) when
    the model cannot be used now: the draft is kept and waits for a translation."""
    from core.drafts import reply_model  # pydantic and the prompts: not for a board that reads

    try:
        zh = await reply_model.render_zh(llm, subject, body_en.strip(), refs)
    except InquiryBridgeError as exc:
        log.warning("translating a draft failed: %s", exc)
        return "", None
    return zh.strip(), zh_stamp(body_en)
