"""The 发送 / 放弃 buttons of a draft alert: their keyboard, their validity, where they are.

A draft alert's buttons are valid only while the draft still has the content the alert showed
(``draft_fingerprint``); every Telegram message carrying them is remembered in
``app_state telegram.draft.<id>["buttons"]`` so they can be closed (edited away) when the
draft leaves the queue -- see ``core.notify.mirror`` and ``NotificationCenter``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from core.db.models import Draft

LAST_INQUIRY_KEY = "telegram.last_inquiry_id"
# {"nonce", "confirm_nonce", "fingerprint" (of the content the buttons send), "buttons": [{"chat_id", "message_id", "text",
#  "parse_mode"}], ...}: what a draft's Telegram buttons need and which messages carry them
DRAFT_KEY = "telegram.draft.{}"
CLOSING_KIND = "draft_closed"


def draft_keyboard(draft_id: int, nonce: str) -> dict[str, Any]:
    """发送 / 放弃 / 在电脑上修改 — callback data carries the draft id and a one-alert nonce."""
    return {
        "inline_keyboard": [
            [
                {"text": "✅ 发送", "callback_data": f"d:{draft_id}:s:{nonce}"},
                {"text": "🗑 放弃", "callback_data": f"d:{draft_id}:x:{nonce}"},
            ],
            [{"text": "💻 在电脑上修改", "callback_data": f"d:{draft_id}:e:{nonce}"}],
        ]
    }


def draft_fingerprint(draft: Draft) -> str:
    """What a press of 发送 would send: recipients, subject and English body. An alert's buttons
    are valid only while the draft still has the fingerprint the alert showed."""
    content = [list(draft.to_addrs or []), list(draft.cc_addrs or []), draft.subject or ""]
    content.append((draft.body_en or "").strip())
    return hashlib.sha256(json.dumps(content, ensure_ascii=False).encode()).hexdigest()[:24]


def add_button_message(
    state: dict[str, Any], chat_id: int, message_id: int, text: str, parse_mode: str | None
) -> None:
    """Remember that ``message_id`` carries this draft's buttons (and what it says), so the
    buttons can be closed when the draft leaves the queue."""
    buttons = [b for b in state.get("buttons") or [] if b.get("message_id") != message_id]
    buttons.append(
        {
            "chat_id": int(chat_id),
            "message_id": int(message_id),
            "text": text,
            "parse_mode": parse_mode,
        }
    )
    state["buttons"] = buttons
