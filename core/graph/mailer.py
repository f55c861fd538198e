"""Outlook drafts and sending through Graph, for the draft → approval → send state machine.

The drafts service records the Outlook draft id *before* calling ``send_draft`` and reconciles
after a crash with ``draft_exists`` / ``find_sent``: a draft still in Drafts was not sent; one that
is gone and whose ``internetMessageId`` is in Sent Items was. This module only offers those
primitives; it never decides to send twice. Writes are never retried after an ambiguous network
error (``AmbiguousWriteError`` from the client) — the caller reconciles instead.

Exchange accepts at most 30 sends a minute per mailbox; ``send_draft`` waits (on the injected
clock) rather than being rejected.
"""

from __future__ import annotations

import collections
import re
from typing import Any
from urllib.parse import quote

from core.errors import GraphNotFound
from core.graph.client import GraphClient

_HTML = re.compile(r"<\s*(html|body|p|div|br|table|span|a)\b", re.IGNORECASE)
DRAFT_MARKER_HEADER = "X-Inquiry-Bridge-Draft"


def _recipients(addresses: list[str] | str | None) -> list[dict[str, Any]]:
    if addresses is None:
        return []
    if isinstance(addresses, str):
        addresses = [a.strip() for a in addresses.split(",") if a.strip()]
    return [{"emailAddress": {"address": a}} for a in addresses]


def _body(text: str) -> dict[str, str]:
    """Graph body object; HTML when the text is markup, else plain text."""
    return {"contentType": "HTML" if _HTML.search(text) else "Text", "content": text}


def _odata_quote(value: str) -> str:
    return value.replace("'", "''")


class GraphMailer:
    """Draft and send mail as the signed-in user.

    Attributes:
        internet_message_ids: outlook draft id → ``internetMessageId`` learnt at creation.
    """

    def __init__(self, client: GraphClient, *, send_per_minute: int = 30) -> None:
        self.client = client
        self.send_per_minute = max(1, send_per_minute)
        self._sends: collections.deque = collections.deque()
        self.internet_message_ids: dict[str, str] = {}

    def _remember(self, message: dict[str, Any]) -> str:
        outlook_id = str(message["id"])
        if message.get("internetMessageId"):
            self.internet_message_ids[outlook_id] = str(message["internetMessageId"])
        return outlook_id

    async def create_reply_draft(self, graph_message_id: str, *, comment: str | None = None) -> str:
        """A reply draft in the customer's thread (``createReply``); returns its Outlook id.

        ``comment`` is placed above the quoted original by Outlook; leave it empty and use
        ``update_draft`` to set the whole body instead.
        """
        body: dict[str, Any] = {}
        if comment:
            body["comment"] = comment
        message = await self.client.post_json(
            f"/me/messages/{quote(graph_message_id, safe='')}/createReply", body
        )
        return self._remember(message)

    async def create_draft(
        self,
        to: list[str] | str,
        subject: str,
        body_html_or_text: str,
        *,
        cc: list[str] | None = None,
        marker: str | None = None,
    ) -> str:
        """A new message in Drafts (``POST /me/messages``); returns its Outlook id.

        ``marker`` goes into an ``X-Inquiry-Bridge-Draft`` header, so a copy found later (e.g. in
        Sent Items' MIME) can be tied back to the local draft.
        """
        payload: dict[str, Any] = {
            "subject": subject,
            "body": _body(body_html_or_text),
            "toRecipients": _recipients(to),
        }
        if cc:
            payload["ccRecipients"] = _recipients(cc)
        if marker:
            payload["internetMessageHeaders"] = [{"name": DRAFT_MARKER_HEADER, "value": marker}]
        message = await self.client.post_json("/me/messages", payload)
        return self._remember(message)

    async def update_draft(
        self,
        outlook_id: str,
        to: list[str] | str | None = None,
        subject: str | None = None,
        body: str | None = None,
        *,
        cc: list[str] | None = None,
    ) -> None:
        """PATCH the parts given (None = leave as is)."""
        payload: dict[str, Any] = {}
        if to is not None:
            payload["toRecipients"] = _recipients(to)
        if cc is not None:
            payload["ccRecipients"] = _recipients(cc)
        if subject is not None:
            payload["subject"] = subject
        if body is not None:
            payload["body"] = _body(body)
        if payload:
            message = await self.client.patch_json(
                f"/me/messages/{quote(outlook_id, safe='')}", payload
            )
            if message:
                self._remember(message)

    async def internet_message_id(self, outlook_id: str) -> str | None:
        """The draft's RFC 5322 Message-ID (kept when it is sent): what ``find_sent`` looks for."""
        if outlook_id in self.internet_message_ids:
            return self.internet_message_ids[outlook_id]
        try:
            message = await self.client.get_json(
                f"/me/messages/{quote(outlook_id, safe='')}",
                params={"$select": "id,internetMessageId"},
            )
        except GraphNotFound:
            return None
        self._remember(message)
        return message.get("internetMessageId")

    async def _respect_send_limit(self) -> None:
        clock = self.client.clock
        while True:
            now = clock.now().timestamp()
            while self._sends and now - self._sends[0] >= 60.0:
                self._sends.popleft()
            if len(self._sends) < self.send_per_minute:
                self._sends.append(now)
                return
            await clock.sleep(60.0 - (now - self._sends[0]) + 0.01)

    async def send_draft(self, outlook_id: str) -> None:
        """``POST /me/messages/{id}/send`` (202). Raises AmbiguousWriteError if the outcome is
        unknown — then reconcile with ``draft_exists``/``find_sent``, never resend blindly."""
        await self._respect_send_limit()
        await self.client.request("POST", f"/me/messages/{quote(outlook_id, safe='')}/send")

    async def draft_exists(self, outlook_id: str) -> bool:
        """True while the draft is still an unsent draft (after a send its id answers 404)."""
        try:
            message = await self.client.get_json(
                f"/me/messages/{quote(outlook_id, safe='')}",
                params={"$select": "id,isDraft,internetMessageId"},
            )
        except GraphNotFound:
            return False
        self._remember(message)
        return bool(message.get("isDraft", True))

    async def find_sent(self, internet_message_id: str) -> bool:
        """Whether a message with this Message-ID is in Sent Items."""
        data = await self.client.get_json(
            "/me/mailFolders/sentitems/messages",
            params={
                "$filter": f"internetMessageId eq '{_odata_quote(internet_message_id)}'",
                "$select": "id,internetMessageId",
                "$top": "5",
            },
        )
        return any(m.get("internetMessageId") == internet_message_id for m in data.get("value", []))
