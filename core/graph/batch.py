"""JSON batching (``POST /$batch``): many Graph calls in one HTTP round trip.

Why: a first sync downloads one MIME (``/me/messages/{id}/$value``) per message and writes
categories with one PATCH per message — 5,000 messages were ~10,400 HTTP requests, each paying
a round trip, TLS and the client's 4-in-flight queue. A batch carries up to ``BATCH_MAX`` (20)
sub-requests, so the same sync is ~5,000/20 envelopes plus the delta pages.

What the documentation says, and what this module does about it
(learn.microsoft.com/graph/json-batching, /graph/throttling-limits#outlook-service-limits-for-json-batching):

* Up to 20 sub-requests, each ``{id, method, url (relative to /v1.0), headers, body}``; a body
  needs a ``Content-Type`` header. Answers come back in *any* order, matched by ``id``, each with
  its own ``status``/``headers``/``body``. A non-JSON body (``$value`` MIME) comes back
  base64-encoded in ``body``: ``SubResponse.content`` decodes it.
* The envelope's 200 says nothing about its parts; each part can fail alone — including a 429
  with its own ``Retry-After``. Only the throttled parts are sent again, after the *longest*
  Retry-After among them (so none is retried sooner than it was told); parts that succeeded are
  never fetched twice. Reads are retried on 429/503/504; writes only on 429 or 503 with
  Retry-After (the server says it did not do it) — the same rule as ``GraphClient.request``.
* ``Prefer: IdType="ImmutableId"`` goes on every sub-request (headers are per sub-request; the
  envelope's do not propagate) and on the envelope.
* **Throttling is per sub-request**: "requests in a batch are evaluated individually against
  the applicable throttling limits". So batching cuts HTTP round trips ~20x but *not* what the
  Outlook limit of 10,000 requests / 10 minutes / app / mailbox counts: 20 ``$value`` parts are
  20 of those 10,000. ``GraphClient.operation_count`` counts what Graph counts.
* **Concurrency**: "by default the service executes up to 4 requests [of a batch] in parallel",
  which is the whole MailboxConcurrency budget of an app. Choice: batches of up to 20 *without*
  ``dependsOn`` (``dependsOn`` would make one 404 — a message deleted since it was listed — fail
  every later part with 424), and each envelope occupies ``min(parts, 4)`` of the client's 4
  slots. So one full batch runs at a time and nothing else of ours hits the mailbox meanwhile:
  at most 4 Outlook operations in flight, as with single requests, with 1/20th the round trips.
"""

from __future__ import annotations

import base64
import binascii
import json as jsonlib
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import httpx

from core.clock import Clock
from core.errors import GraphError, Throttled
from core.graph.errors import THROTTLE_STATUSES, parse_retry_after, sub_error

log = logging.getLogger(__name__)

BATCH_MAX = 20  # Graph's limit of sub-requests per $batch
T = TypeVar("T")
OUTLOOK_PARALLEL = 4  # parts of one batch Outlook runs at once (= MailboxConcurrency)
IMMUTABLE = 'IdType="ImmutableId"'


@dataclass
class SubRequest:
    """One call inside a batch; ``url`` relative to the API version (``/me/messages/…``)."""

    method: str
    url: str
    body: object = None  # JSON-serialisable
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class SubResponse:
    """One part's answer. ``body`` is the JSON object, or bytes for a non-JSON (base64) body."""

    request: SubRequest
    status: int
    headers: dict[str, str]
    body: object
    error: GraphError | None = None
    attempts: int = 1

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 400

    @property
    def content(self) -> bytes:
        if isinstance(self.body, bytes):
            return self.body
        if self.body is None:
            return b""
        return jsonlib.dumps(self.body).encode()

    def json(self) -> dict[str, Any]:
        if isinstance(self.body, dict):
            return self.body
        body = jsonlib.loads(self.content or b"{}")
        if not isinstance(body, dict):
            raise GraphError(f"{self.request.method} {self.request.url}: not a JSON object")
        return body


def _header(headers: dict[str, str], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name.lower():
            return str(value)
    return None


def decode_body(headers: dict[str, str], body: object) -> object:
    """JSON bodies stay objects; a string body of non-JSON content is base64 (Graph's rule)."""
    if not isinstance(body, str):
        return body
    ctype = (_header(headers, "Content-Type") or "").lower()
    if "json" in ctype:
        try:
            return jsonlib.loads(body)
        except ValueError:
            return body.encode()
    try:
        return base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        return body.encode()  # tolerate a plain-text body rather than lose the message


class BatchClient(Protocol):
    """What sending a batch needs of ``core.graph.client.GraphClient`` (which imports us)."""

    base_url: str
    clock: Clock
    max_attempts: int

    async def request(
        self,
        method: str,
        path_or_url: str,
        *,
        json: object = None,
        headers: dict[str, str] | None = None,
        weight: int = 1,
        operations: int = 1,
        idempotent: bool | None = None,
    ) -> httpx.Response: ...

    async def notify_auth_error(self, error: GraphError | None) -> None: ...

    def backoff(self, attempt: int) -> float: ...


def relative_url(client: BatchClient, url: str) -> str:
    """Sub-request URLs are relative to the version root (``/v1.0``)."""
    if url.startswith(client.base_url):
        url = url[len(client.base_url) :]
    elif url.startswith(("http://", "https://")):
        raise ValueError(f"batch sub-request URL must be relative to {client.base_url}")
    return "/" + url.lstrip("/")


def _wire(client: BatchClient, sub_id: str, req: SubRequest) -> dict[str, Any]:
    headers: dict[str, str] = {}
    prefer = IMMUTABLE
    for key, value in req.headers.items():
        if key.lower() == "prefer":
            prefer = f"{IMMUTABLE}, {value}"
        else:
            headers[key] = value
    headers["Prefer"] = prefer
    out: dict[str, Any] = {
        "id": sub_id,
        "method": req.method.upper(),
        "url": relative_url(client, req.url),
        "headers": headers,
    }
    if req.body is not None:
        if _header(headers, "Content-Type") is None:
            headers["Content-Type"] = "application/json"
        out["body"] = req.body
    return out


def chunks(items: list[T], size: int = BATCH_MAX) -> list[list[T]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


async def send_batch(
    client: BatchClient, requests: list[SubRequest], *, idempotent: bool | None = None
) -> list[SubResponse]:
    """Run ``requests`` as $batch envelopes of ≤ 20; answers in the order of ``requests``.

    ``idempotent``: whether the *envelope* may be re-sent after an ambiguous network error
    (default: only when every part is a read). Category PATCHes are safe to repeat; a send is not.
    Failed parts carry ``error`` (mapped like single requests); the call itself raises only when
    the envelope fails (network, auth, throttling exhausted).
    """
    results: list[SubResponse | None] = [None] * len(requests)
    if idempotent is None:
        idempotent = all(r.method.upper() in ("GET", "HEAD") for r in requests)
    for offset in range(0, len(requests), BATCH_MAX):
        part = requests[offset : offset + BATCH_MAX]
        for index, response in enumerate(await _one_batch(client, part, idempotent)):
            results[offset + index] = response
    return [r for r in results if r is not None]


async def _one_batch(
    client: BatchClient, requests: list[SubRequest], idempotent: bool
) -> list[SubResponse]:
    done: dict[int, SubResponse] = {}
    pending = list(range(len(requests)))
    attempt = 0
    while pending:
        attempt += 1
        body = {"requests": [_wire(client, str(i + 1), requests[i]) for i in pending]}
        weight = min(len(pending), OUTLOOK_PARALLEL)
        envelope = await client.request(
            "POST",
            "/$batch",
            json=body,
            headers={"Content-Type": "application/json"},
            weight=weight,
            operations=len(pending),
            idempotent=idempotent,
        )
        answers = envelope.json().get("responses", [])
        by_index: dict[int, dict[str, Any]] = {}
        for answer in answers:
            try:
                by_index[int(str(answer.get("id"))) - 1] = answer
            except ValueError:
                continue
        retry: list[int] = []
        waits: list[float] = []
        for index in pending:
            response, wait = _judge(client, requests[index], by_index.get(index), attempt)
            if wait is not None:
                retry.append(index)
                waits.append(wait)
                continue
            if response.error is not None:
                await client.notify_auth_error(response.error)
            done[index] = response
        pending = retry
        if pending:
            known = [w for w in waits if w >= 0]
            wait = max(known) if known else client.backoff(attempt)
            log.info(
                "graph batch: %d of %d parts throttled, retrying them in %.1f s",
                len(pending),
                len(requests),
                wait,
            )
            await client.clock.sleep(wait)
    return [done[i] for i in range(len(requests))]


def _judge(
    client: BatchClient, req: SubRequest, answer: dict[str, Any] | None, attempt: int
) -> tuple[SubResponse, float | None]:
    """One part's answer, and the wait before retrying it (-1: backoff) when it is retried."""
    if answer is None:  # Graph answered without this part: treat as a transient failure
        answer = {"status": 503, "headers": {}, "body": None}
    status = int(answer.get("status") or 0)
    headers = {str(k): str(v) for k, v in (answer.get("headers") or {}).items()}
    decoded = decode_body(headers, answer.get("body"))
    response = SubResponse(req, status, headers, decoded, attempts=attempt)
    if status in THROTTLE_STATUSES:
        is_read = req.method.upper() in ("GET", "HEAD")
        retry_after = parse_retry_after(_header(headers, "Retry-After"), client.clock)
        retryable = is_read or status == 429 or (status == 503 and retry_after is not None)
        if retryable and attempt < client.max_attempts:
            return response, retry_after if retry_after is not None else -1.0
        if retryable:
            response.error = Throttled(
                f"{req.method} {relative_url(client, req.url).split('?')[0]}: {status}",
                retry_after=retry_after or 0.0,
                status=status,
            )
    if not response.ok and response.error is None:
        response.error = sub_error(req.method, relative_url(client, req.url), response)
    return response, None
