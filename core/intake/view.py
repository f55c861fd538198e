"""MessageView: the one shape classification and extraction work on, LLM or rules.

Why a view and not the parsed message: the classifier must see the *new* text only (quotes
stripped) plus the few facts of context that decide R versus a new inquiry — is this a reply,
is the sender a known customer, what does the existing inquiry in the thread already hold. The
pipeline builds it (``view_from_parsed``); tests build it directly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.config import setting

if TYPE_CHECKING:
    from core.mail.parse import ParsedMessage

_REPLY_SUBJECT = re.compile(r"^\s*(?:re|aw|sv|antw|回复|答复|回覆)\s*[:：]", re.IGNORECASE)
_CJK = re.compile(r"[\u3400-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")


def default_own_domains() -> tuple[str, ...]:
    """Domains of the default company addresses (used when the caller passes none)."""
    addresses = setting("general.owner_addresses").default
    if not isinstance(addresses, list):  # declared a list of strings
        return ()
    return tuple(sorted({a.rsplit("@", 1)[-1].lower() for a in addresses if "@" in a}))


def guess_language(text: str) -> str:
    """ "zh" when Chinese characters make up a real share of the letters, else "en"."""
    cjk = len(_CJK.findall(text or ""))
    latin = len(_LATIN.findall(text or ""))
    return "zh" if cjk and cjk * 3 >= latin * 0.5 else "en"


def is_reply_subject(subject: str) -> bool:
    return bool(_REPLY_SUBJECT.match(subject or ""))


@dataclass
class MessageView:
    """What the classifier and extractor may look at for one inbound message.

    Attributes:
        subject: decoded subject.
        from_addr / from_name: the sender (lower-case address).
        body_text: the new text only (quoted history and mobile footers removed).
        is_reply: In-Reply-To/References present or a "Re:"/"回复：" subject.
        known_customer: the sender's address (or thread) already belongs to an inquiry.
        thread_inquiry: summary of the inquiry this thread belongs to —
            {"id", "address", "suburb", "products": [...], "customer_name", "customer_phone"};
            None when the message starts no known thread.
        attachments: file names (the model sees names, never content).
        language: "zh" | "en" (the parser's guess).
        reply_to: the Reply-To address (website forms put the customer there).
        own_domains: the company's mail domains (mail from colleagues is internal).
        region: default phone region.
        message_pk / inquiry_id: ledger references for the LLM calls about this message.
    """

    subject: str
    from_addr: str | None
    from_name: str | None
    body_text: str
    is_reply: bool = False
    known_customer: bool = False
    thread_inquiry: dict[str, Any] | None = None
    attachments: list[str] = field(default_factory=list)
    language: str = "en"
    reply_to: str | None = None
    own_domains: tuple[str, ...] = field(default_factory=default_own_domains)
    region: str = "AU"
    message_pk: int | None = None
    inquiry_id: int | None = None

    @property
    def sender_domain(self) -> str:
        return (self.from_addr or "").rsplit("@", 1)[-1].lower()

    @property
    def is_internal_sender(self) -> bool:
        """From a colleague's company address (not a website form relaying a customer)."""
        domain = self.sender_domain
        own = {d.lower() for d in self.own_domains}
        if not domain or domain not in own:
            return False
        relay = (self.reply_to or "").rsplit("@", 1)[-1].lower()
        return not (relay and relay not in own)

    @property
    def is_form_relay(self) -> bool:
        """A website form / no-reply relay whose Reply-To is the real customer."""
        if not self.reply_to or self.reply_to.lower() == (self.from_addr or "").lower():
            return False
        local = (self.from_addr or "").split("@", 1)[0].lower()
        relay_domain = self.reply_to.rsplit("@", 1)[-1].lower()
        own = {d.lower() for d in self.own_domains}
        return (self.sender_domain in own and relay_domain not in own) or local in {
            "no-reply",
            "noreply",
            "donotreply",
            "do-not-reply",
            "wordpress",
            "forms",
            "website",
        }

    @property
    def customer_email(self) -> str | None:
        """The customer's address from the headers only (never from model output)."""
        from core.intake.normalize import normalize_email

        if self.is_form_relay:
            return normalize_email(self.reply_to)
        return normalize_email(self.from_addr)


def view_from_parsed(
    parsed: ParsedMessage,
    *,
    body_text: str,
    known_customer: bool = False,
    thread_inquiry: dict[str, Any] | None = None,
    own_addresses: list[str] | tuple[str, ...] = (),
    region: str = "AU",
    message_pk: int | None = None,
    inquiry_id: int | None = None,
) -> MessageView:
    """Build the view from a ``core.mail.parse.ParsedMessage`` and its stripped text."""
    own_domains = (
        tuple(sorted({a.rsplit("@", 1)[-1].lower() for a in own_addresses if "@" in a}))
        or default_own_domains()
    )
    subject = parsed.subject or ""
    return MessageView(
        subject=subject,
        from_addr=(parsed.from_addr or None),
        from_name=(parsed.from_name or None),
        body_text=body_text,
        is_reply=bool(parsed.in_reply_to or parsed.references) or is_reply_subject(subject),
        known_customer=known_customer,
        thread_inquiry=thread_inquiry,
        attachments=[a.filename for a in parsed.attachments if a.filename and not a.is_inline],
        language=parsed.language or guess_language(body_text),
        reply_to=parsed.reply_to or None,
        own_domains=own_domains,
        region=region or "AU",
        message_pk=message_pk,
        inquiry_id=inquiry_id,
    )
