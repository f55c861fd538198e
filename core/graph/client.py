"""The one HTTP client for Microsoft Graph: headers, concurrency, retries and the error tree.

Everything that talks to Graph (mail delta, sending, categories, OneDrive) goes through
``GraphClient.request`` so the mailbox-wide rules hold everywhere:

* ``Prefer: IdType="ImmutableId"`` on every request (ids survive folder moves);
* at most ``max_concurrency`` requests in flight (Exchange allows 4 per app per mailbox; a 5th gets
  a ``MailboxConcurrency`` 429). A ``$batch`` envelope weighs as many slots as Outlook runs of it
  at once (``min(parts, 4)``, see ``core.graph.batch``), so batches do not sneak past the limit;
* 429/503/504 are retried after ``Retry-After`` (seconds or an HTTP date) or, without one, after an
  exponential backoff with jitter — waiting through the injected clock so tests never sleep;
* a *write* (POST/PATCH/DELETE) is retried only when the server says it did not do it (429, or 503
  with ``Retry-After``) or when the connection never opened. After a network error mid-write, or a
  504, the write may have happened: ``AmbiguousWriteError``, never a blind retry (a second send
  would mail the customer twice);
* reads are also retried on network errors;
* Outlook allows 10,000 requests per 10 minutes per app per mailbox, counting every part of a
  ``$batch``. ``RequestBudget`` keeps us under it (9,000 by default: headroom for sends and the
  owner's clicks) by *waiting* for the window to free up instead of running into 429s, and lets
  cosmetic work (categories) ask how much is left so it can defer itself.

Errors map onto ``core.errors``: 401 → GraphAuthError, 404 → GraphNotFound, 410 or
``SyncStateNotFound`` → SyncStateExpired (with ``location``), exhausted throttling → Throttled.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from datetime import datetime
from typing import Any, Protocol, TypeAlias, TypeVar

import httpx

from core import tls
from core.clock import Clock, SystemClock
from core.errors import AmbiguousWriteError, GraphAuthError, GraphError, Throttled
from core.graph.batch import SubRequest, SubResponse, send_batch
from core.graph.errors import (
    NOT_SENT_ERRORS,
    THROTTLE_STATUSES,
    error_code,
    map_error,
    parse_retry_after,
    transport_cause,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
# an OData query (``$select``, ``$top``, calendarView's window): what httpx sends as ``?k=v``
QueryParams: TypeAlias = Mapping[str, str | int]
READ_METHODS = frozenset({"GET", "HEAD"})
MAX_BACKOFF = 120.0


class TokenProvider(Protocol):
    """Gives a bearer token for Graph; raises GraphAuthError when the user must sign in."""

    async def token(self) -> str: ...


class StaticToken:
    """A fixed bearer token (``INQUIRY_BRIDGE_GRAPH_TOKEN``: tests and service setups)."""

    def __init__(self, value: str) -> None:
        self._value = value

    async def token(self) -> str:
        return self._value


class RequestBudget:
    """A sliding window over what Graph counts: ``limit`` operations per ``window`` seconds.

    Times come from the injected clock, so tests move through a 10-minute window instantly.
    """

    def __init__(self, clock: Clock, *, limit: int = 9000, window: float = 600.0) -> None:
        self.clock = clock
        self.limit = max(1, limit)
        self.window = window
        self.used = 0
        self.waited = 0.0  # seconds spent waiting for the window (a benchmark figure)
        self._log: collections.deque[tuple[datetime, int]] = collections.deque()

    def _trim(self, now: datetime) -> None:
        while self._log and (now - self._log[0][0]).total_seconds() >= self.window:
            self.used -= self._log.popleft()[1]

    def available(self) -> int:
        """Operations that can start now without waiting."""
        self._trim(self.clock.now())
        return max(0, self.limit - self.used)

    async def take(self, operations: int) -> None:
        """Wait (on the clock) until ``operations`` fit in the window, then count them."""
        operations = max(0, min(operations, self.limit))
        while True:
            now = self.clock.now()
            self._trim(now)
            if self.used + operations <= self.limit:
                self._log.append((now, operations))
                self.used += operations
                return
            need = self.used + operations - self.limit
            freed, until = 0, now
            for when, count in self._log:
                freed += count
                until = when
                if freed >= need:
                    break
            wait = max(0.01, self.window - (now - until).total_seconds())
            log.info(
                "graph request budget used up (%d/%d); waiting %.0f s", self.used, self.limit, wait
            )
            self.waited += wait
            await self.clock.sleep(wait)


class _Slots:
    """A FIFO weighted semaphore: the mailbox's concurrent-request budget.

    A single request takes 1 slot, a ``$batch`` envelope up to 4; waiters are served in arrival
    order so a batch is not starved by a stream of single requests. Release never awaits, so a
    cancelled request cannot leak a slot.
    """

    def __init__(self, total: int) -> None:
        self.total = max(1, total)
        self.used = 0
        self._waiters: collections.deque[tuple[int, asyncio.Future[None]]] = collections.deque()

    async def acquire(self, weight: int) -> int:
        weight = max(1, min(weight, self.total))
        if not self._waiters and self.used + weight <= self.total:
            self.used += weight
            return weight
        entry = (weight, asyncio.get_running_loop().create_future())
        self._waiters.append(entry)
        try:
            await entry[1]
        except asyncio.CancelledError:
            if entry in self._waiters:
                self._waiters.remove(entry)
                self._wake()
            elif entry[1].done() and not entry[1].cancelled():
                self.release(weight)  # granted, then cancelled before it ran
            raise
        return weight

    def release(self, weight: int) -> None:
        self.used -= weight
        self._wake()

    def _wake(self) -> None:
        while self._waiters and self.used + self._waiters[0][0] <= self.total:
            weight, future = self._waiters.popleft()
            if future.done():
                continue
            self.used += weight
            future.set_result(None)


class GraphClient:
    """Async Graph client over one shared ``httpx.AsyncClient``.

    Attributes:
        request_count: HTTP requests actually put on the wire (retries included; a ``$batch``
            envelope is one).
        operation_count: what Graph's throttling counts — one per plain request, one per part
            of each ``$batch`` sent (retried parts again). The Outlook limit of 10,000 per
            10 minutes per mailbox applies to this number, not to ``request_count``.
        peak_in_flight: most mailbox slots this client had in use at once (a batch envelope
            counts as the parts Outlook runs in parallel: ``min(parts, 4)``).
    """

    def __init__(
        self,
        base_url: str,
        token_provider: TokenProvider,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Clock | None = None,
        max_concurrency: int = 4,
        max_attempts: int = 6,
        timeout: float = 60.0,
        rng: random.Random | None = None,
        on_auth_error: Callable[[GraphAuthError], Awaitable[None] | None] | None = None,
        budget: RequestBudget | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token_provider = token_provider
        self.clock = clock or SystemClock()
        self.max_attempts = max(1, max_attempts)
        self._rng = rng or random.Random()
        self.max_concurrency = max(1, max_concurrency)
        self._slots = _Slots(self.max_concurrency)
        self.budget = budget or RequestBudget(self.clock)
        self._on_auth_error = on_auth_error
        self._http = httpx.AsyncClient(
            transport=transport,
            timeout=httpx.Timeout(timeout, connect=15.0),
            follow_redirects=True,
            limits=httpx.Limits(max_connections=max(1, max_concurrency)),
            verify=tls.context(),  # shared: a new one loads the CA bundle on the loop (core.tls)
        )
        self.request_count = 0
        self.operation_count = 0
        self.peak_in_flight = 0
        self._in_flight = 0

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> GraphClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def url(self, path_or_url: str) -> str:
        if path_or_url.startswith(("http://", "https://")):
            return path_or_url
        return self.base_url + "/" + path_or_url.lstrip("/")

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with full jitter: 1, 2, 4 … s (capped), times 0.5–1.0."""
        base = min(MAX_BACKOFF, 2.0 ** (attempt - 1))
        return base * (0.5 + 0.5 * self._rng.random())

    backoff = _backoff

    async def notify_auth_error(self, error: GraphError | None) -> None:
        """Tell the owner-facing hook about a 401 (also for a 401 inside a batch)."""
        if isinstance(error, GraphAuthError) and self._on_auth_error is not None:
            result = self._on_auth_error(error)
            if asyncio.iscoroutine(result):
                await result

    async def batch(
        self, requests: list[SubRequest], *, idempotent: bool | None = None
    ) -> list[SubResponse]:
        """Run ``SubRequest``s through ``POST /$batch`` (see ``core.graph.batch.send_batch``)."""
        return await send_batch(self, requests, idempotent=idempotent)

    async def request(
        self,
        method: str,
        path_or_url: str,
        *,
        params: QueryParams | None = None,
        json: object = None,
        headers: dict[str, str] | None = None,
        weight: int = 1,
        operations: int = 1,
        idempotent: bool | None = None,
    ) -> httpx.Response:
        """Send one logical request with the retry rules above; returns a 2xx/3xx response.

        ``weight``: mailbox slots it occupies while in flight; ``operations``: how many requests
        Graph's throttling counts for it (a batch's parts); ``idempotent``: treat as a read for
        retries (a ``$batch`` of GETs is a POST that changes nothing).
        """
        method = method.upper()
        is_read = method in READ_METHODS if idempotent is None else idempotent
        url = self.url(path_or_url)
        attempt = 0
        while True:
            attempt += 1
            send_headers = await self._headers(headers)
            try:
                response = await self._send(
                    method, url, params, json, send_headers, weight, operations
                )
            except NOT_SENT_ERRORS as exc:
                if attempt >= self.max_attempts:
                    raise GraphError(f"{method} {url}: network unreachable: {exc}") from exc
                await self.clock.sleep(self._backoff(attempt))
                continue
            except httpx.TransportError as exc:
                self._check_transport_retry(method, url, exc, is_read, attempt)
                await self.clock.sleep(self._backoff(attempt))
                continue
            if response.status_code < 400:
                return response
            if response.status_code not in THROTTLE_STATUSES:
                error = map_error(response)
                await self.notify_auth_error(error)
                raise error
            await self.clock.sleep(self._throttle_wait(method, url, response, is_read, attempt))

    async def _headers(self, extra: dict[str, str] | None) -> dict[str, str]:
        token = await self.token_provider.token()
        headers = {
            "Authorization": f"Bearer {token}",
            "Prefer": 'IdType="ImmutableId"',
            "Accept": "application/json",
        }
        for key, value in (extra or {}).items():
            if key.lower() == "prefer":  # combine, never drop the ImmutableId preference
                headers["Prefer"] = f'IdType="ImmutableId", {value}'
            else:
                headers[key] = value
        return headers

    async def _send(
        self,
        method: str,
        url: str,
        params: QueryParams | None,
        json: object,
        headers: dict[str, str],
        weight: int,
        operations: int,
    ) -> httpx.Response:
        """One HTTP exchange inside the request budget and the mailbox slots."""
        async with self._slot(weight, operations):
            return await self._http.request(method, url, params=params, json=json, headers=headers)

    @contextlib.asynccontextmanager
    async def _slot(self, weight: int, operations: int) -> AsyncIterator[None]:
        """Hold the request budget and ``weight`` mailbox slots for the block (one exchange)."""
        await self.budget.take(operations)
        taken = await self._slots.acquire(weight)
        try:
            self._in_flight += taken
            self.peak_in_flight = max(self.peak_in_flight, self._in_flight)
            self.request_count += 1
            self.operation_count += operations
            try:
                yield
            finally:
                self._in_flight -= taken
        finally:
            self._slots.release(taken)

    async def stream(
        self, path_or_url: str, consume: Callable[[httpx.Response], Awaitable[T]]
    ) -> T:
        """GET a body too big to hold: ``consume`` reads the 2xx response as a stream.

        The same rules as a read through ``request``: one mailbox slot for the whole transfer,
        429/503/504 waited out after ``Retry-After``, a network error (also one mid-body) retried
        from the start. ``consume`` starts afresh on every attempt and must leave nothing behind
        when it raises (``core.graph.mime_stream`` writes through a temporary file).
        """
        url = self.url(path_or_url)
        attempt = 0
        while True:
            attempt += 1
            send_headers = await self._headers(None)
            try:
                async with (
                    self._slot(1, 1),
                    self._http.stream("GET", url, headers=send_headers) as response,
                ):
                    if response.status_code < 400:
                        return await consume(response)
                    await response.aread()  # an error body is small
            except NOT_SENT_ERRORS as exc:
                if attempt >= self.max_attempts:
                    raise GraphError(f"GET {url}: network unreachable: {exc}") from exc
                await self.clock.sleep(self._backoff(attempt))
                continue
            except httpx.TransportError as exc:
                self._check_transport_retry("GET", url, exc, True, attempt)
                await self.clock.sleep(self._backoff(attempt))
                continue
            if response.status_code not in THROTTLE_STATUSES:
                error = map_error(response)
                await self.notify_auth_error(error)
                raise error
            await self.clock.sleep(self._throttle_wait("GET", url, response, True, attempt))

    def _check_transport_retry(
        self, method: str, url: str, exc: httpx.TransportError, is_read: bool, attempt: int
    ) -> None:
        """Raise unless a network error after sending may be retried (reads only)."""
        if not is_read:
            raise AmbiguousWriteError(
                f"{method} {_short(url)}: connection lost after sending ({type(exc).__name__})"
            ) from exc
        if attempt >= self.max_attempts:
            raise GraphError(
                f"{method} {url}: network error: {exc}", cause=transport_cause(exc)
            ) from exc
        log.info("graph %s %s: %s, retrying", method, _short(url), type(exc).__name__)

    def _throttle_wait(
        self, method: str, url: str, response: httpx.Response, is_read: bool, attempt: int
    ) -> float:
        """Seconds to wait before retrying a failed response; raises when it must not retry."""
        status = response.status_code
        retry_after = parse_retry_after(response.headers.get("Retry-After"), self.clock)
        code, _ = error_code(response)
        retryable = is_read or status == 429 or (status == 503 and retry_after is not None)
        if not retryable:
            if status == 504:
                raise AmbiguousWriteError(
                    f"{method} {_short(url)}: gateway timeout (504), outcome unknown",
                    status=status,
                )
            raise map_error(response)
        if attempt >= self.max_attempts:
            raise Throttled(
                f"{method} {_short(url)}: {status} {code}",
                retry_after=retry_after or 0.0,
                status=status,
            )
        wait = retry_after if retry_after is not None else self._backoff(attempt)
        log.info(
            "graph %s %s throttled (%s %s), waiting %.1f s", method, _short(url), status, code, wait
        )
        return wait

    async def get_json(self, path_or_url: str, **kwargs: Any) -> dict[str, Any]:
        response = await self.request("GET", path_or_url, **kwargs)
        body = response.json()
        if not isinstance(body, dict):  # Graph answers a GET with one JSON object
            raise GraphError(f"GET {_short(path_or_url)}: not a JSON object", status=200)
        return body

    async def get_bytes(self, path_or_url: str, **kwargs: Any) -> bytes:
        response = await self.request("GET", path_or_url, **kwargs)
        return response.content

    async def post_json(
        self, path_or_url: str, body: object = None, **kwargs: Any
    ) -> dict[str, Any]:
        response = await self.request("POST", path_or_url, json=body, **kwargs)
        return response.json() if response.content else {}

    async def patch_json(self, path_or_url: str, body: object, **kwargs: Any) -> dict[str, Any]:
        response = await self.request("PATCH", path_or_url, json=body, **kwargs)
        return response.json() if response.content else {}


def _short(url: str) -> str:
    """The URL without its query (delta tokens are long and, like ids, not for logs)."""
    return url.split("?", 1)[0]
