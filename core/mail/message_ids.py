"""The one Message-ID normalisation, for every place that compares or stores one.

A message's identity is the ``<left@right>`` form the parser takes from its ``Message-ID``
header (``core.mail.headers.first_message_id``). Graph's ``internetMessageId``, a stored
``In-Reply-To`` and the ``References`` of a reply must be normalised the same way, or the same
message gets two identities: mail sync would download it again and a reply would miss its thread.
So there is exactly one rule, and it is the parser's:

* the first ``<id>`` (no spaces or inner brackets) wins: ``"<<a@b>>"`` and
  ``"<a@b> (comment)"`` are ``"<a@b>"``;
* otherwise the first word, stripped of brackets and wrapped: ``" a@b "`` and ``"a@b>"`` are
  ``"<a@b>"``;
* nothing usable (``""``, ``"<>"``, ``None``) is ``None`` — the pipeline then falls back to a
  synthetic id from the raw bytes (``core.intake.records.synthetic_message_id``).
"""

from __future__ import annotations

from collections.abc import Iterable

from core.mail.headers import first_message_id

# A second delivery under a reused Message-ID is stored as ``<id>#<fingerprint>`` (an alias,
# ``core.intake.identity``); the sender's id is the part before this mark.
ALIAS_MARK = ">#"


def normalise_message_id(value: object) -> str | None:
    """``<id>`` form of a Message-ID from any source; None when there is nothing usable."""
    text = str(value or "").strip()
    if not text:
        return None
    return first_message_id(text)


def normalise_many(values: Iterable[object] | None) -> list[str]:
    """A ``References`` list normalised, the unusable ones dropped, order kept."""
    found = (normalise_message_id(v) for v in (values or []))
    return [v for v in found if v]


def original_message_id(stored: str) -> str:
    """The Message-ID as the sender wrote it (``<id>#fp`` → ``<id>``)."""
    head, mark, _tail = stored.partition(ALIAS_MARK)
    return head + ">" if mark else stored
