"""What an e-mail address is, decided once (#43).

Three checks used to give three verdicts: ``bob@x.c`` was accepted by the inquiry form, refused
by the drafts and dropped by intake. One rule now serves the form, the drafts (recipients, batch
contacts, the factory address) and intake: an RFC 5322 dot-atom local part, host labels of
letters, digits and hyphens, and a top-level domain of 2 to 24 letters; no double dot.
"""

from __future__ import annotations

import re
from email.utils import parseaddr

_EMAIL = re.compile(
    r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
    r"[A-Za-z]{2,24}$"
)


def is_email_address(text: str | None) -> bool:
    """``text`` is exactly one address (no display name, no brackets)."""
    candidate = (text or "").strip()
    return bool(_EMAIL.match(candidate)) and ".." not in candidate


def normalize_email(text: str | None) -> str | None:
    """Lower-case address if ``text`` is (or holds, like ``Name <a@b.com>``) one address."""
    if not text or not isinstance(text, str):
        return None
    candidate = text.strip()
    if candidate.lower().startswith("mailto:"):
        candidate = candidate[7:]
    if "<" in candidate or " " in candidate:
        candidate = parseaddr(candidate)[1] or candidate
    candidate = candidate.strip().strip("<>").strip().rstrip(".")
    return candidate.lower() if is_email_address(candidate) else None
