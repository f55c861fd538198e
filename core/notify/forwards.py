"""A Telegram message the owner forwarded: someone else's words, never his.

Telegram marks a forward with ``forward_origin`` (Bot API 7+: ``user``, ``hidden_user``,
``chat``, ``channel``) or, in older updates, ``forward_from``, ``forward_from_chat``,
``forward_sender_name``, ``forward_signature``, ``forward_date``; a channel post copied into its
discussion group carries ``is_automatic_forward``. Any one of them makes the message a
*forward*: the owner asks us to act on a stranger's words, so the text is a stranger's
(``Provenance.CUSTOMER`` at most: never evidence for a payment detail, never the owner's
instruction). The assistant gets it framed as data (``core.agent.turn_context.forwarded``), with no owner words of record,
so every write it leads to is a proposal the owner confirms; a note saved from it is kept as
``source="forwarded"``, which ``core.drafts.reply_model.is_owner_words`` never counts as his.
A forwarded ``/note …`` is not a command.
"""

from __future__ import annotations

from typing import Any

__all__ = ["FORWARDED_SOURCE", "FORWARD_KEYS", "forwarded_from"]

FORWARD_KEYS = (
    "forward_origin",
    "forward_from",
    "forward_from_chat",
    "forward_sender_name",
    "forward_signature",
    "forward_date",
    "forward_from_message_id",
    "is_automatic_forward",
)
FORWARDED_SOURCE = "forwarded"  # Memory.source of a note saved from a forward


def _name(person: dict[str, Any] | None) -> str:
    person = person or {}
    parts = [person.get("first_name"), person.get("last_name")]
    name = " ".join(str(p) for p in parts if p) or str(person.get("title") or "")
    handle = person.get("username")
    return f"{name} (@{handle})" if handle else name


def forwarded_from(message: dict[str, Any]) -> str | None:
    """Who wrote a forwarded message ("someone" when Telegram hides it); None: not a forward."""
    if not any(message.get(key) for key in FORWARD_KEYS):
        return None
    origin = message.get("forward_origin") or {}
    kind = origin.get("type")
    who = ""
    if kind == "user":
        who = _name(origin.get("sender_user"))
    elif kind == "hidden_user":
        who = str(origin.get("sender_user_name") or "")
    elif kind in {"chat", "channel"}:
        who = _name(origin.get("sender_chat") or origin.get("chat"))
    who = (
        who
        or _name(message.get("forward_from"))
        or _name(message.get("forward_from_chat"))
        or str(message.get("forward_sender_name") or message.get("forward_signature") or "")
    )
    return " ".join(who.split())[:120] or "someone"
