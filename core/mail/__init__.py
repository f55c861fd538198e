"""Mail: the format — the shape raw mail arrives in and how it becomes clean text.

What lives here: ``source`` (``RawMessage`` and the ``MessageStream`` protocol of anything that
yields raw mail), ``ports`` (the mailbox ports: ``MessageSource`` — list, fetch, commit cursors —
and ``Mailer`` — submit once, find in Sent, drafts where the mailbox has them; Graph and
IMAP/SMTP implement them), ``spool_budget`` (one round's share of the disk for big mail, the
same rule for every mailbox), ``parse`` / ``headers`` / ``charsets`` (one MIME parse path for every source:
``parse_message`` → ``ParsedMessage``), ``message_ids`` (the one Message-ID normalisation),
``prefilter`` (the rule that skips machine mail) and ``quotes`` (``strip_quotes`` keeps only what
the sender wrote this time).

Imports, and why (the layer row below is the rule): the standard library and ``core.errors`` only.
The sources that produce mail live in ``core.sources`` (eml folder, Graph), ``core.graph`` and
``core.mailbox`` (IMAP/SMTP) and import this package, never the other way round.

Layer row: errors, text.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.mail.parse import ParsedAttachment, ParsedMessage, parse_message
    from core.mail.ports import Mailer, MessageSource
    from core.mail.prefilter import prefilter
    from core.mail.quotes import strip_quotes
    from core.mail.source import MessageStream, RawMessage

__all__ = [
    "Mailer",
    "MessageSource",
    "MessageStream",
    "ParsedAttachment",
    "ParsedMessage",
    "RawMessage",
    "parse_message",
    "prefilter",
    "strip_quotes",
]

# name -> its module, imported on first access: ``core.mail.charsets`` (the CLI's stdout) and
# ``core.mail.message_ids`` are read on every start, the MIME parser only when mail is (#44)
_HOMES = {
    "ParsedAttachment": "parse",
    "ParsedMessage": "parse",
    "parse_message": "parse",
    "Mailer": "ports",
    "MessageSource": "ports",
    "prefilter": "prefilter",
    "strip_quotes": "quotes",
    "MessageStream": "source",
    "RawMessage": "source",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
