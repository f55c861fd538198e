"""Mail: where raw messages come from and how they become clean text.

One parse path for every source: a ``MessageSource`` yields :class:`RawMessage` bytes (a folder of
``.eml`` files now, Microsoft Graph's ``$value`` later); :func:`parse_message` turns them into a
:class:`ParsedMessage`; :func:`prefilter` names the rule that skips machine mail; and
:func:`strip_quotes` keeps only the text the sender actually wrote this time.
"""

from core.mail.parse import ParsedAttachment, ParsedMessage, parse_message
from core.mail.prefilter import prefilter
from core.mail.quotes import strip_quotes
from core.mail.source import MessageSource, RawMessage

__all__ = [
    "MessageSource",
    "ParsedAttachment",
    "ParsedMessage",
    "RawMessage",
    "parse_message",
    "prefilter",
    "strip_quotes",
]
