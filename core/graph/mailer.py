"""Outlook drafts and sending through Graph, for the draft → approval → send state machine.

The drafts service records the Outlook draft id *before* calling ``send_draft`` and reconciles
after a crash with ``draft_exists`` / ``find_sent``: a draft still in Drafts was not sent; one that
is gone and whose ``internetMessageId`` is in Sent Items was. This module only offers those
primitives; it never decides to send twice. Writes are never retried after an ambiguous network
error (``AmbiguousWriteError`` from the client) — the caller reconciles instead.

Exchange accepts at most 30 sends a minute per mailbox; ``send_draft`` waits (on the injected
clock) rather than being rejected.

Attachments: a file under 3 MB goes in one ``fileAttachment`` POST; 3–150 MB goes through an upload
session (``createUploadSession``, then ``PUT`` byte ranges of at most 4 MB to the session's
pre-authenticated ``uploadUrl`` — without our bearer token, which that URL refuses). Like every
other write, a chunk is retried only when the server says it did not take it (throttling).
"""

from __future__ import annotations

import base64
import collections
import functools
import re
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar
from urllib.parse import quote

import httpx

from core import tls
from core.errors import (
    AmbiguousWriteError,
    GraphAuthError,
    GraphError,
    GraphNotFound,
    InquiryBridgeError,
    MailerAmbiguous,
    MailerError,
    MailerGone,
    MailerRefused,
    MailerUnavailable,
    Throttled,
)
from core.graph.client import GraphClient
from core.graph.errors import (
    NOT_SENT_ERRORS,
    THROTTLE_STATUSES,
    parse_retry_after,
    transport_cause,
)
from core.mail.ports import DraftAttachment

SIMPLE_ATTACHMENT_MAX = 3 * 1024 * 1024  # Graph: from 3 MB use an upload session
UPLOAD_SESSION_MAX = 150 * 1024 * 1024  # Graph's ceiling for one attachment
UPLOAD_CHUNK = 10 * 320 * 1024  # multiple of 320 KiB, under Outlook's 4 MB per PUT


class AttachmentTooLarge(GraphError):
    """Over Graph's 150 MB ceiling for one attachment."""


P = ParamSpec("P")
R = TypeVar("R")


def mailer_error(exc: BaseException) -> BaseException:
    """Graph's failure as the mailbox port's tree (``core.errors.MailerError``): the sender
    decides on the kind, never on Graph's status codes or httpx's types. Errors that are not
    the mailbox's (a local file, a bug) pass through unchanged."""
    if isinstance(exc, MailerError):
        return exc
    if isinstance(exc, AmbiguousWriteError):  # the write may have happened
        return MailerAmbiguous(via="graph", cause=exc)
    if isinstance(exc, GraphNotFound):
        return MailerGone(via="graph", cause=exc)
    if isinstance(exc, AttachmentTooLarge):  # the same file is too large next time too
        return MailerRefused(via="graph", cause=exc)
    if isinstance(exc, Throttled | GraphAuthError):  # Outlook said "later" / sign in again
        return MailerUnavailable(via="graph", cause=exc)
    if isinstance(exc, GraphError):
        if exc.status is None or exc.status >= 500:
            return MailerUnavailable(via="graph", cause=exc)
        return MailerRefused(via="graph", cause=exc)
    if isinstance(exc, InquiryBridgeError):
        return exc
    if isinstance(exc, httpx.TransportError | OSError | TimeoutError):
        return MailerUnavailable(via="graph", cause=exc)
    return exc


def _port_errors(
    fn: Callable[P, Coroutine[Any, Any, R]],
) -> Callable[P, Coroutine[Any, Any, R]]:
    """A ``DraftMailer`` method whose failures leave as the port's tree (``mailer_error``)."""

    @functools.wraps(fn)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await fn(*args, **kwargs)
        except Exception as exc:
            mapped = mailer_error(exc)
            if mapped is exc:
                raise
            raise mapped from exc

    return wrapper


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

    kind = "graph"
    has_drafts = True  # core.mail.ports.DraftMailer

    def __init__(self, client: GraphClient, *, send_per_minute: int = 30) -> None:
        self.client = client
        self.send_per_minute = max(1, send_per_minute)
        self._sends: collections.deque[float] = collections.deque()
        self.internet_message_ids: dict[str, str] = {}

    def _remember(self, message: dict[str, Any]) -> str:
        outlook_id = str(message["id"])
        if message.get("internetMessageId"):
            self.internet_message_ids[outlook_id] = str(message["internetMessageId"])
        return outlook_id

    @_port_errors
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

    @_port_errors
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

    @_port_errors
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

    @_port_errors
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

    @_port_errors
    async def send_draft(self, outlook_id: str) -> None:
        """``POST /me/messages/{id}/send`` (202). Raises AmbiguousWriteError if the outcome is
        unknown — then reconcile with ``draft_exists``/``find_sent``, never resend blindly."""
        await self._respect_send_limit()
        await self.client.request("POST", f"/me/messages/{quote(outlook_id, safe='')}/send")

    @_port_errors
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

    @_port_errors
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

    # ------------------------------------------------------------------ attachments
    @_port_errors
    async def add_attachment(
        self, outlook_id: str, filename: str, content_type: str, data: bytes
    ) -> str | None:
        """Attach a file to a draft; returns the attachment id when Graph gives one.

        Under 3 MB: one POST with base64 ``contentBytes``. 3–150 MB: an upload session.
        """
        size = len(data)
        if size > UPLOAD_SESSION_MAX:
            raise AttachmentTooLarge(f"{filename}: {size} bytes > 150 MB")
        content_type = content_type or "application/octet-stream"
        base = f"/me/messages/{quote(outlook_id, safe='')}/attachments"
        if size < SIMPLE_ATTACHMENT_MAX:
            answer = await self.client.post_json(
                base,
                {
                    "@odata.type": "#microsoft.graph.fileAttachment",
                    "name": filename,
                    "contentType": content_type,
                    "contentBytes": base64.b64encode(data).decode("ascii"),
                },
            )
            return answer.get("id")
        session = await self.client.post_json(
            f"{base}/createUploadSession",
            {
                "AttachmentItem": {
                    "attachmentType": "file",
                    "name": filename,
                    "size": size,
                    "contentType": content_type,
                }
            },
        )
        return await self._upload(str(session["uploadUrl"]), data)

    async def _upload(self, upload_url: str, data: bytes) -> str | None:
        """PUT the bytes in ranges; the last answer (201) names the attachment in Location."""
        total = len(data)
        start = 0
        location: str | None = None
        await tls.warm()
        async with httpx.AsyncClient(
            timeout=httpx.Timeout(120.0, connect=15.0), verify=tls.context()
        ) as http:
            while start < total:
                end = min(start + UPLOAD_CHUNK, total) - 1
                response = await self._put_chunk(
                    http, upload_url, data[start : end + 1], start, end, total
                )
                if response.status_code == 201 or end + 1 >= total:
                    location = response.headers.get("Location")
                    break
                ranges = (response.json() or {}).get("nextExpectedRanges") or [f"{end + 1}-"]
                start = int(str(ranges[0]).split("-", 1)[0])
        return location.rstrip("/").rsplit("/", 1)[-1] if location else None

    async def _put_chunk(
        self, http: httpx.AsyncClient, url: str, chunk: bytes, start: int, end: int, total: int
    ) -> httpx.Response:
        clock = self.client.clock
        headers = {
            "Content-Range": f"bytes {start}-{end}/{total}",
            "Content-Type": "application/octet-stream",
        }
        attempts = self.client.max_attempts
        for attempt in range(1, attempts + 1):
            try:
                response = await http.put(url, content=chunk, headers=headers)
            except NOT_SENT_ERRORS as exc:
                if attempt >= attempts:
                    raise GraphError(
                        f"PUT upload: network unreachable: {exc}", cause=transport_cause(exc)
                    ) from exc
                await clock.sleep(min(60.0, 2.0 ** (attempt - 1)))
                continue
            except httpx.TransportError as exc:
                raise AmbiguousWriteError(
                    f"PUT upload: connection lost ({type(exc).__name__})"
                ) from exc
            status = response.status_code
            if status < 400:
                return response
            retry_after = parse_retry_after(response.headers.get("Retry-After"), clock)
            throttled = status == 429 or (status == 503 and retry_after is not None)
            if status in THROTTLE_STATUSES and throttled and attempt < attempts:
                await clock.sleep(retry_after if retry_after is not None else 2.0 ** (attempt - 1))
                continue
            if status in THROTTLE_STATUSES and throttled:
                raise Throttled(
                    f"PUT upload: {status}", retry_after=retry_after or 0.0, status=status
                )
            raise GraphError(
                f"PUT upload bytes {start}-{end}/{total}: {status} {response.text[:200]}",
                status=status,
            )
        raise GraphError("PUT upload: no attempts left")  # pragma: no cover - loop always returns

    @_port_errors
    async def list_attachments(self, outlook_id: str) -> list[DraftAttachment]:
        """The attachments on a draft (name and size; no content)."""
        data = await self.client.get_json(
            f"/me/messages/{quote(outlook_id, safe='')}/attachments",
            params={"$select": "id,name,size,contentType"},
        )
        return [
            DraftAttachment(
                str(a.get("id")),
                str(a.get("name") or ""),
                int(a.get("size") or 0),
                str(a.get("contentType") or ""),
            )
            for a in data.get("value", [])
        ]

    @_port_errors
    async def delete_attachment(self, outlook_id: str, attachment_id: str) -> bool:
        """Remove one attachment from a draft; False when it was already gone."""
        try:
            await self.client.request(
                "DELETE",
                f"/me/messages/{quote(outlook_id, safe='')}/attachments/{quote(attachment_id, safe='')}",
            )
        except GraphNotFound:
            return False
        return True

    @_port_errors
    async def delete_draft(self, outlook_id: str) -> bool:
        """Delete an abandoned Outlook draft; False when it was already gone (404)."""
        try:
            await self.client.request("DELETE", f"/me/messages/{quote(outlook_id, safe='')}")
        except GraphNotFound:
            return False
        self.internet_message_ids.pop(outlook_id, None)
        return True
