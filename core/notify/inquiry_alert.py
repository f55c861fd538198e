"""A new-inquiry alert the owner reads at a glance, on the phone and on the tray.

Order of the text, the same on both: what the customer wants, in one Chinese line (from a stored
Chinese translation of his mail when there is one, the customer's own words when he wrote in
Chinese, else built from the record: products, sizes, suburb, class — never a model call at alert
time), then the key facts (customer, phone, suburb, products, class), 紧急 only when urgent, and
on Telegram the English original folded below (``<blockquote expandable>``) with three buttons:
起草回复 / 在电脑上打开 / 稍后提醒 (``inquiry_keyboard``; the bot handles the presses).

``tray_text`` is how the tray turns an outbox row into a balloon: the same summary and facts,
without the folded English (a balloon has no room for it).
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import Inquiry, Message
from core.glossary import product_name
from core.text.render import md_escape

CLASS_ZH = {"A": "A 类 · 需上门量尺", "B": "B 类 · 可远程报价", "C": "C 类 · 非询盘"}
# what the class means for the next step, as the end of the summary line
CLASS_WANT_ZH = {"A": "需上门量尺", "B": "可远程报价"}
SUMMARY_CHARS = 80
ENGLISH_FOLD_CHARS = 1500
# the outbox kinds whose alerts carry the inquiry buttons
INQUIRY_ALERT_KINDS = ("new_inquiry", "inquiry_later")
# the kinds whose body is an inquiry alert's (summary, facts, folded English)
INQUIRY_BODY_KINDS = (*INQUIRY_ALERT_KINDS, "open_on_pc")
# what 起草回复 asks the composer for: an acknowledging reply with the right next step
DEFAULT_DRAFT_INSTRUCTION_ZH = "感谢客户来信，回应邮件里提到的内容，并说明下一步。"


def customer_label(inquiry: Inquiry | None) -> str:
    if inquiry is None:
        return "未知客户"
    return (
        inquiry.customer_name
        or inquiry.customer_email
        or inquiry.customer_phone
        or f"询盘 #{inquiry.id}"
    )


def first_inbound(session: Session, inquiry_id: int) -> Message | None:
    return session.scalars(
        select(Message)
        .where(Message.inquiry_id == inquiry_id, Message.direction == "in")
        .order_by(Message.received_at)
        .limit(1)
    ).first()


def _first_sentence(text: str, limit: int = SUMMARY_CHARS) -> str:
    """The opening of a Chinese text, one line: up to its first full stop, at most ``limit``."""
    flat = re.sub(r"\s+", " ", text or "").strip()
    flat = re.sub(r"^(您好|你好)[，,：:!！ ]*", "", flat)  # a greeting says nothing
    match = re.search(r"[。！？!?]", flat)
    if match and match.end() <= limit:
        return flat[: match.end()]
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip("，,、 ") + "…"


def _has_chinese(text: str) -> bool:
    return bool(re.search(r"[\u4e00-\u9fff]", text or ""))


def summary_zh(inquiry: Inquiry, first: Message | None) -> str:
    """One Chinese line: what the customer wants. Deterministic: no model is asked here."""
    urgent = "🔴 紧急 · " if (inquiry.urgency or "").lower() == "high" else ""
    if first is not None and first.translation_zh and _has_chinese(first.translation_zh):
        return urgent + _first_sentence(first.translation_zh)
    if first is not None and _has_chinese(first.body_text) and inquiry.language == "zh":
        return urgent + _first_sentence(first.body_text)
    products = "、".join(product_name(p) for p in (inquiry.product_types or []))
    where = f"{inquiry.suburb} 的" if inquiry.suburb else ""
    if products:
        want = f"想做{products}"
        if inquiry.dimensions:
            want += f"（{'；'.join(inquiry.dimensions[:3])}）"
    else:
        want = "来信询价（产品未识别，请看原文）"
    extracted = (inquiry.context_data or {}).get("extracted") or {}
    budget = extracted.get("budget") if isinstance(extracted, dict) else None
    parts = [f"{where}客户{want}"]
    if budget:
        parts.append(f"预算 {budget}")
    step = CLASS_WANT_ZH.get(inquiry.classification)
    if step:
        parts.append(step)
    return urgent + "，".join(parts)


def inquiry_message(session: Session, inquiry: Inquiry) -> tuple[str, str]:
    """Title and Markdown body of a new-inquiry alert (the tray and Telegram read both)."""
    from core.phones import display_phone  # with the first alert, not the app's start (#44)

    who = customer_label(inquiry)
    where = f"（{inquiry.suburb}）" if inquiry.suburb else ""
    title = f"新询盘：{who}{where}"
    first = first_inbound(session, inquiry.id)
    lines = [f"**{md_escape(summary_zh(inquiry, first))}**", ""]

    def add(label: str, value: str | None) -> None:
        if value:
            lines.append(f"{label}：{md_escape(value)}")

    add("客户", inquiry.customer_name or inquiry.customer_email)
    add("电话", display_phone(inquiry.customer_phone))
    if inquiry.customer_name:
        add("邮箱", inquiry.customer_email)
    add("地址", inquiry.address or inquiry.suburb)
    add("产品", "、".join(product_name(p) for p in (inquiry.product_types or [])))
    add("尺寸", "；".join(inquiry.dimensions or []))
    add("类别", CLASS_ZH.get(inquiry.classification, inquiry.classification))
    lines.append(f"询盘编号：#{inquiry.id}")
    if first is not None:
        english = english_fold(first.subject, first.body_text)
        if english:
            lines.append("")
            lines.append("英文原文（点开查看）：")
            lines.append(english)
    return title, "\n".join(lines)


def english_fold(subject: str | None, body: str | None) -> str:
    """The customer's subject and words as an expandable quote (``**>`` opens it folded)."""
    text = (body or "").strip()
    if len(text) > ENGLISH_FOLD_CHARS:
        cut = text.rfind(" ", 0, ENGLISH_FOLD_CHARS)
        text = text[: cut if cut > ENGLISH_FOLD_CHARS // 2 else ENGLISH_FOLD_CHARS] + " …"
    quoted = [f"主题：{md_escape(subject)}"] if subject else []
    if quoted and text:
        quoted.append("")
    quoted += [md_escape(line.strip()) if line.strip() else "" for line in text.splitlines()]
    while quoted and not quoted[-1]:
        quoted.pop()
    if not quoted:
        return ""
    # blank lines stay inside the quote (">"), so the fold is one block
    return "\n".join(("**>" if i == 0 else ">") + line for i, line in enumerate(quoted))


def inquiry_keyboard(inquiry_id: int) -> dict[str, Any]:
    """起草回复 / 在电脑上打开 / 稍后提醒 under a new-inquiry alert (``i:<id>:<action>``)."""
    return {
        "inline_keyboard": [
            [
                {"text": "✍️ 起草回复", "callback_data": f"i:{inquiry_id}:r"},
                {"text": "💻 在电脑上打开", "callback_data": f"i:{inquiry_id}:o"},
            ],
            [{"text": "⏰ 稍后提醒", "callback_data": f"i:{inquiry_id}:l"}],
        ]
    }


def draft_instruction(inquiry: Inquiry) -> str:
    """The 起草回复 button's instruction: for A/B the first reply's own (one text for the button
    and the automatic first reply: ``core.drafts.first_reply.instruction``)."""
    from core.drafts.first_reply import CLASSES, instruction

    if inquiry.classification in CLASSES:
        return instruction(inquiry.classification)
    return DEFAULT_DRAFT_INSTRUCTION_ZH


def _plain(markdown: str) -> str:
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|~>])", r"\1", markdown)
    return text.replace("**", "").replace("__", "").replace("`", "").strip()


def tray_text(kind: str, title: str, body_md: str) -> tuple[str, str]:
    """Title and plain body of a tray balloon for an outbox row.

    A new-inquiry alert shows its summary and facts (the folded English stays on the phone and in
    the window); every other kind shows its body without Markdown marks.
    """
    if kind in INQUIRY_BODY_KINDS:
        kept = []
        for line in body_md.splitlines():
            if line.startswith(("**>", ">")) or line.startswith("英文原文"):
                continue
            kept.append(line)
        body = "\n".join(line for line in kept if line.strip())
        return title, _plain(body)
    return title, _plain(body_md)
