"""Pre-filter: name the rule that makes a message machine noise, before any LLM sees it.

Cheap before expensive: auto-replies, bounces, read receipts, newsletters and calendar traffic are
recognised from headers and MIME structure alone, cost nothing, and end with disposition
``skipped:<rule>``. The rules live in one ordered table (:data:`RULES`); the first that matches
wins, so the more specific name is reported (an "Out of Office" reply is ``out_of_office``, not
``auto_reply``; a bounce that also says ``Auto-Submitted`` is ``bounce``).

Two protections against losing a customer:
- ``bulk`` never applies to a known customer's address (a customer whose mail client adds
  ``List-Unsubscribe`` or ``Precedence: list`` still reaches the owner).
- ``Auto-Submitted: auto-generated`` (as opposed to ``auto-replied``) on a message whose
  ``Reply-To`` names another person is a website-form lead, not noise, and is not skipped.

Rule names are stable identifiers (they are stored in ``messages.disposition``):
``bounce``, ``read_receipt``, ``calendar``, ``out_of_office``, ``auto_reply``, ``bulk``.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

from core.mail.parse import ParsedMessage

__all__ = ["RULES", "Rule", "prefilter"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Context:
    """What a rule may look at besides the message."""

    known_customer: bool
    own_domains: frozenset[str]


@dataclass(frozen=True)
class Rule:
    name: str
    description: str
    matches: Callable[[ParsedMessage, Context], bool]


# ----------------------------------------------------------------------------- helpers


def _h(msg: ParsedMessage, name: str) -> str:
    return (msg.headers.get(name) or "").strip()


def _local_part(addr: str | None) -> str:
    return (addr or "").split("@", 1)[0].lower()


def _domain(addr: str | None) -> str:
    return (addr or "").rpartition("@")[2].lower()


_BOUNCE_SENDERS = re.compile(
    r"^(?:mailer-daemon|mailerdaemon|postmaster|mail-delivery-subsystem|mail\.delivery\.subsystem"
    r"|bounce|bounces|mdaemon)$"
)
_BOUNCE_SUBJECT = re.compile(
    r"^\s*(?:undeliverable|undelivered mail|undeliverable mail|delivery status notification"
    r"|delivery (?:has )?failed|delivery delayed|delivery failure|mail delivery failed"
    r"|returned mail|failure notice|message not delivered|退信|投递失败|邮件未送达|系统退信)",
    re.IGNORECASE,
)


def _is_bounce(msg: ParsedMessage, ctx: Context) -> bool:
    if _BOUNCE_SENDERS.match(_local_part(msg.from_addr)):
        return True
    if msg.report_type == "delivery-status" or "message/delivery-status" in msg.content_types:
        return True
    # Exchange's system mailbox in our own tenant ("MicrosoftExchange329e…@ourdomain").
    if _local_part(msg.from_addr).startswith("microsoftexchange") and (
        not ctx.own_domains or _domain(msg.from_addr) in ctx.own_domains
    ):
        return True
    machine_sent = _h(msg, "return-path") == "<>" or _h(msg, "auto-submitted").lower() not in (
        "",
        "no",
    )
    return bool(_BOUNCE_SUBJECT.match(msg.subject)) and machine_sent


_READ_SUBJECT = re.compile(
    r"^\s*(?:read|not read|已读|未读|read receipt|已读回执)\s*[:：]", re.IGNORECASE
)


def _is_read_receipt(msg: ParsedMessage, ctx: Context) -> bool:
    if msg.report_type == "disposition-notification":
        return True
    if "message/disposition-notification" in msg.content_types:
        return True
    # Outlook's plain-text receipts: "Read: <subject>" + "Your message … was read on …".
    return bool(_READ_SUBJECT.match(msg.subject)) and bool(
        re.search(r"\bwas read on\b|已被阅读|已读", msg.text[:1000], re.IGNORECASE)
    )


_CAL_METHOD = re.compile(
    rb"^METHOD:\s*(?:REQUEST|REPLY|CANCEL|COUNTER|DECLINECOUNTER|REFRESH|ADD)\b",
    re.MULTILINE | re.IGNORECASE,
)
_CAL_SUBJECT = re.compile(
    r"^\s*(?:accepted|declined|tentative|tentatively accepted|invitation|updated invitation"
    r"|canceled(?: event)?|cancelled(?: event)?|new event|event canceled|已接受|已拒绝|暂定|邀请|已取消)"
    r"\s*[:：]",
    re.IGNORECASE,
)
_CALENDAR_TYPES = ("text/calendar", "application/ics")


def _is_calendar(msg: ParsedMessage, ctx: Context) -> bool:
    for att in msg.attachments:
        if att.content_type in _CALENDAR_TYPES and _CAL_METHOD.search(att.payload[:20000]):
            return True
    calendar_sender = "calendar-notification" in _h(msg, "sender").lower() or "calendarmessage" in (
        _h(msg, "content-class").lower()
    )
    has_calendar_part = any(t in _CALENDAR_TYPES for t in msg.content_types)
    return bool(_CAL_SUBJECT.match(msg.subject)) and (calendar_sender or has_calendar_part)


_OOF_SUBJECT = re.compile(
    r"(?:^|[:\s])(?:out of (?:the )?office|OOO\b|away from (?:the )?office|on annual leave"
    r"|不在办公室|休假中|外出)",
    re.IGNORECASE,
)
_OOF_BODY = re.compile(
    r"out of (?:the )?office|annual leave|on leave until|away from the office|limited access to"
    r" email|不在办公室|休假",
    re.IGNORECASE,
)


def _auto_headers(msg: ParsedMessage) -> bool:
    auto_submitted = _h(msg, "auto-submitted").lower()
    if auto_submitted and auto_submitted != "no":
        # A website form relaying a person (Reply-To is the customer) is a lead, not noise.
        form_relay = auto_submitted.startswith("auto-generated") and bool(
            msg.reply_to and msg.reply_to != msg.from_addr
        )
        return not form_relay
    for name in ("x-autoreply", "x-autorespond", "x-autoresponder"):
        value = _h(msg, name).lower()
        if name in msg.headers and value not in ("no", "false", "0"):
            return True
    suppress = {t.strip().lower() for t in _h(msg, "x-auto-response-suppress").split(",")}
    if "all" in suppress:  # what Exchange stamps on its automatic replies
        return True
    return (
        _h(msg, "precedence").lower() == "auto_reply"
        or _h(msg, "x-precedence").lower() == "auto_reply"
    )


def _is_out_of_office(msg: ParsedMessage, ctx: Context) -> bool:
    if _OOF_SUBJECT.search(msg.subject) and (
        _auto_headers(msg) or re.match(r"^\s*(?:out of|automatic reply|auto)", msg.subject, re.I)
    ):
        return True
    return _auto_headers(msg) and bool(_OOF_BODY.search(msg.text[:1500]))


_AUTO_SUBJECT = re.compile(
    r"^\s*(?:automatic reply|auto(?:matic)?[- ]?(?:reply|response)|autoreply|auto|"
    r"automatische antwort|réponse automatique|自动回复|自動回覆|自动答复)\s*[:：]",
    re.IGNORECASE,
)


def _is_auto_reply(msg: ParsedMessage, ctx: Context) -> bool:
    return _auto_headers(msg) or bool(_AUTO_SUBJECT.match(msg.subject))


def _is_bulk(msg: ParsedMessage, ctx: Context) -> bool:
    if ctx.known_customer:
        return False
    if _h(msg, "precedence").lower() in ("bulk", "list", "junk"):
        return True
    return bool(_h(msg, "list-unsubscribe") or _h(msg, "list-id"))


RULES: tuple[Rule, ...] = (
    Rule("bounce", "mailer-daemon/postmaster sender or a delivery-status report", _is_bounce),
    Rule("read_receipt", "disposition-notification report or 'Read:' receipt", _is_read_receipt),
    Rule("calendar", "text/calendar REQUEST/REPLY/CANCEL or a calendar notification", _is_calendar),
    Rule("out_of_office", "out-of-office automatic reply", _is_out_of_office),
    Rule(
        "auto_reply", "Auto-Submitted / X-Autoreply / 'Automatic reply:' subjects", _is_auto_reply
    ),
    Rule("bulk", "Precedence bulk|list|junk or List-Unsubscribe, never a known customer", _is_bulk),
)


def prefilter(msg: ParsedMessage, *, known_customer: bool, own_addresses: list[str]) -> str | None:
    """Name of the first matching rule (disposition ``skipped:<name>``), or None to process.

    ``known_customer``: the sender already has an inquiry (exempts them from ``bulk``).
    ``own_addresses``: the mailbox's own addresses; their domains identify Exchange's system
    mailbox. Whether mail *from* the owner is outgoing is the pipeline's decision, not a rule here.
    """
    ctx = Context(
        known_customer=known_customer,
        own_domains=frozenset(_domain(a) for a in own_addresses if "@" in a),
    )
    for rule in RULES:
        try:
            if rule.matches(msg, ctx):
                return rule.name
        except Exception:  # a rule bug must not lose the message: treat as no match
            log.exception("prefilter rule %s failed on %s", rule.name, msg.message_id)
            continue
    return None
