"""Size limits for reading one message: what the rules, quote stripping and the model look at.

Why: a 5 MB body of dimension lines once took minutes in the offline rules and held the whole
run behind it. Mail is read only up to these caps (the raw bytes on disk stay whole, and a note
on the message says it was cut), so every step's cost per message is bounded.
"""

from __future__ import annotations

from core.mail.charsets import add_note

# Characters of decoded body text read by quote stripping, the rules and the model. A customer's
# new words are at the top; 16 K characters is ~4 pages, far beyond any real enquiry.
BODY_TEXT_CAP = 16_000
# Characters of HTML converted to text (HTML-only bodies: website forms, newsletters).
HTML_CAP = 128_000


def cap_text(text: str, notes: list[str], limit: int = BODY_TEXT_CAP) -> str:
    """``text`` cut to ``limit`` characters at a line end when one is near, noted when cut."""
    if len(text) <= limit:
        return text
    cut = text.rfind("\n", limit - 2_000, limit)
    add_note(notes, f"body over {limit} characters: read up to the cap (raw message kept whole)")
    return text[: cut if cut > 0 else limit]


def cap_html(html: str, notes: list[str], limit: int = HTML_CAP) -> str:
    if len(html) <= limit:
        return html
    add_note(notes, f"HTML over {limit} characters: read up to the cap (raw message kept whole)")
    return html[:limit]
