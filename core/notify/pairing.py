"""Pairing, not trust: which Telegram chat is the owner's, and the one-time code that proves it.

The settings dialog (or ``inquiry-bridge telegram pair``) makes a random code valid for 30 minutes
and shows it; the owner sends ``/start CODE`` to his bot from a *private* chat; that chat becomes
the owner's and the code is spent. The code is not a secret worth the keyring (it is shown on
screen, expires and works once), so it lives in ``app_state``; the bot token stays in the keyring.

The owner is a *chat and a user*: a button press or message counts only when both the chat id and
the sender's user id (``from.id``) match. Pairing records the user who sent ``/start CODE``.

Where the owner's chat comes from, first match wins:
1. ``INQUIRY_BRIDGE_TELEGRAM_CHAT_ID`` / ``telegram.chat_id`` in settings (headless preset),
2. the pairing record ``app_state telegram.owner`` written by ``/start CODE``.

A preset *private* chat (positive id) is its user, so both ids are known. A preset *group* chat
(negative id) says nothing about who in it is the owner, and "any member may approve" would let
anyone the group is shared with send mail. So a preset group only *receives* alerts until the
owner proves himself in it the same way as pairing: ``/start CODE`` (a fresh code from
``telegram pair`` or the settings page) sent *inside that group* binds the sender's user id.
Until then no button or message from the group is honoured. ``unpair`` forgets that binding.
"""

from __future__ import annotations

import hmac
import secrets as pysecrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from core.clock import naive_utc, utc
from core.db.app_state import put_state
from core.db.models import AppState, AuditEntry
from core.secrets import TELEGRAM_TOKEN

if TYPE_CHECKING:
    from core.services import Services

PAIRING_KEY = "telegram.pairing"
OWNER_KEY = "telegram.owner"
CODE_ALPHABET = (
    "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a screen, typed on a phone
)
CODE_LENGTH = 8
CODE_TTL = timedelta(minutes=30)


@dataclass(frozen=True)
class PairingCode:
    code: str
    expires_at: datetime  # aware UTC


@dataclass(frozen=True)
class Owner:
    chat_id: int
    name: str = ""
    paired_at: datetime | None = None  # aware UTC; None for a preset chat id
    preset: bool = False
    user_id: int | None = None  # the owner's Telegram user; None = nobody may act (preset group)

    @property
    def needs_user(self) -> bool:
        """A preset group whose owner has not sent ``/start CODE`` in it yet."""
        return self.user_id is None

    def is_owner(self, chat_id: int, user_id: int | None) -> bool:
        """Both the chat and the sender must be the owner's (see the module docstring)."""
        return (
            self.user_id is not None
            and user_id is not None
            and int(chat_id) == self.chat_id
            and int(user_id) == self.user_id
        )


def new_pairing_code(services: Services, ttl: timedelta = CODE_TTL) -> PairingCode:
    """Make (and store) a fresh one-time code, replacing any earlier one."""
    now = services.clock.now()
    code = "".join(pysecrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    expires = utc(now) + ttl

    def _do(session: Session) -> None:
        put_state(session, PAIRING_KEY, {"code": code, "expires_at": expires.isoformat()}, now)

    services.store.write(_do)
    return PairingCode(code, expires)


def current_pairing_code(services: Services) -> PairingCode | None:
    """The code still valid now, if any."""
    with services.store.session() as session:
        row = session.get(AppState, PAIRING_KEY)
        value = dict(row.value) if row is not None and isinstance(row.value, dict) else None
    if not value:
        return None
    expires = utc(datetime.fromisoformat(value["expires_at"]))
    if expires <= utc(services.clock.now()):
        return None
    return PairingCode(value["code"], expires)


def normalise_code(text: str) -> str:
    return "".join(ch for ch in text.upper() if ch.isalnum())


def try_pair(
    services: Services, code_text: str, chat_id: int, name: str, user_id: int | None = None
) -> bool:
    """Spend the code for ``chat_id`` + ``user_id`` if it matches and has not expired.

    ``user_id`` defaults to ``chat_id`` (a private chat's id is its user's id). Audited either way.
    """
    user_id = int(chat_id if user_id is None else user_id)
    now = services.clock.now()
    given = normalise_code(code_text)

    def _do(session: Session) -> bool:
        row = session.get(AppState, PAIRING_KEY)
        value = row.value if row is not None and isinstance(row.value, dict) else None
        ok = False
        if value and given:
            expires = utc(datetime.fromisoformat(value["expires_at"]))
            ok = expires > utc(now) and hmac.compare_digest(given, value["code"])
        session.add(
            AuditEntry(
                entity="telegram",
                entity_id=None,
                action="paired" if ok else "pairing_refused",
                detail={"chat_id": chat_id, "user_id": user_id, "name": name[:100]},
                actor="telegram",
                at=naive_utc(now),
            )
        )
        if not ok:
            return False
        session.delete(row)
        put_state(
            session,
            OWNER_KEY,
            {
                "chat_id": int(chat_id),
                "user_id": user_id,
                "name": name[:100],
                "paired_at": utc(now).isoformat(),
            },
            now,
        )
        return True

    return bool(services.store.write(_do))


def owner(services: Services) -> Owner | None:
    """The owner's chat, or None when not paired (see the module docstring for the order)."""
    with services.store.session() as session:
        row = session.get(AppState, OWNER_KEY)
        value = dict(row.value) if row is not None and isinstance(row.value, dict) else None
    preset_chat = preset_chat_id(services)
    if preset_chat is not None:
        bound = value if value and int(value.get("chat_id", 0)) == preset_chat else None
        if preset_chat > 0:  # a private chat: its id is the user's id
            user: int | None = preset_chat
        else:
            user = int(bound["user_id"]) if bound and bound.get("user_id") is not None else None
        return Owner(
            preset_chat,
            (bound or {}).get("name", ""),
            preset=True,
            user_id=user,
        )
    if services.settings.text("telegram.chat_id").strip():
        return None  # a preset that is not a number: nobody, rather than a guess
    if not value or "chat_id" not in value:
        return None
    paired_at = value.get("paired_at")
    chat = int(value["chat_id"])
    user_id = value.get("user_id")
    if user_id is None and chat > 0:  # records written before user ids were kept: private chat
        user_id = chat
    return Owner(
        chat,
        value.get("name", ""),
        utc(datetime.fromisoformat(paired_at)) if paired_at else None,
        user_id=int(user_id) if user_id is not None else None,
    )


def preset_chat_id(services: Services) -> int | None:
    """The chat id preset by ``INQUIRY_BRIDGE_TELEGRAM_CHAT_ID`` / settings, if a number."""
    preset = services.settings.text("telegram.chat_id").strip()
    try:
        return int(preset) if preset else None
    except ValueError:
        return None


def may_pair_from(services: Services, chat_id: int, chat_type: str) -> bool:
    """Where ``/start CODE`` is accepted: any private chat, or the preset chat itself."""
    preset = preset_chat_id(services)
    if preset is not None:
        return int(chat_id) == preset
    return chat_type == "private"


def unpair(services: Services) -> None:
    """Forget the paired chat (the preset env/settings chat id, if any, still applies)."""
    now = services.clock.now()

    def _do(session: Session) -> None:
        row = session.get(AppState, OWNER_KEY)
        if row is not None:
            session.delete(row)
            session.add(
                AuditEntry(
                    entity="telegram",
                    entity_id=None,
                    action="unpaired",
                    detail={},
                    actor="owner",
                    at=naive_utc(now),
                )
            )

    services.store.write(_do)


def token(services: Services) -> str | None:
    return services.secrets.get(TELEGRAM_TOKEN)


def enabled(services: Services) -> bool:
    """Mirror on? The settings switch, or both headless variables preset."""
    if services.settings.flag("telegram.enabled"):
        return True
    return services.settings.overridden_by_env("telegram.chat_id") and bool(token(services))
