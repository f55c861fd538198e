"""Graph responses → ``core.errors``: status codes, ``Retry-After`` and the error mapping.

Shared by ``core.graph.client`` (single requests) and ``core.graph.batch`` (the parts of a
``$batch``), so the two apply the same rules without importing each other.
"""

from __future__ import annotations

import email.utils
from datetime import UTC
from typing import Protocol

import httpx

from core.clock import Clock
from core.errors import GraphAuthError, GraphError, GraphNotFound, SyncStateExpired, Throttled

THROTTLE_STATUSES = frozenset({429, 503, 504})
# Failures where the request provably never reached the server: safe to retry even a write.
NOT_SENT_ERRORS = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


def transport_cause(exc: httpx.TransportError) -> str:
    """What a failed connection to Microsoft was, as a key of ``core.errors.CAUSES`` (the
    owner's sentence names the server and what to do; httpx's text goes to the log)."""
    text = f"{exc} {exc.__cause__ or ''}".lower()
    if isinstance(exc, httpx.TimeoutException):
        return "timeout"
    if "name or service not known" in text or "nodename" in text or "getaddrinfo" in text:
        return "dns"
    if "ssl" in text or "certificate" in text or "tls" in text:
        return "tls"
    if "refused" in text:
        return "refused"
    if isinstance(exc, httpx.ConnectError):
        return "unreachable"
    return "dropped"


def parse_retry_after(value: str | None, clock: Clock) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - clock.now()).total_seconds())


def error_code(response: httpx.Response) -> tuple[str, str]:
    try:
        err = response.json().get("error", {})
        return str(err.get("code", "")), str(err.get("message", ""))
    except (ValueError, AttributeError):
        return "", response.text[:200]


def map_error(response: httpx.Response) -> GraphError:
    """The error-tree class for a failed Graph response (used after retries are exhausted)."""
    code, message = error_code(response)
    return _mapped(
        f"{response.request.method} {response.request.url.path}",
        response.status_code,
        code,
        message,
        dict(response.headers),
    )


class FailedPart(Protocol):
    """What ``sub_error`` reads of a ``core.graph.batch.SubResponse`` (batch imports this
    module, so a shape rather than the class)."""

    status: int
    headers: dict[str, str]
    body: object


def sub_error(method: str, url: str, response: FailedPart) -> GraphError:
    """The same mapping for a failed part of a ``$batch`` (a ``SubResponse``)."""
    body = response.body if isinstance(response.body, dict) else {}
    err = body.get("error", {}) if isinstance(body.get("error"), dict) else {}
    return _mapped(
        f"{method.upper()} {url.split('?', 1)[0]}",
        response.status,
        str(err.get("code", "")),
        str(err.get("message", "")),
        response.headers,
    )


def _mapped(what: str, status: int, code: str, message: str, headers: dict[str, str]) -> GraphError:
    headers = {k.lower(): v for k, v in headers.items()}
    detail = f"{what}: {status} {code} {message}"
    if status == 401:
        return GraphAuthError(detail.strip(), status=status)
    if status == 404:
        return GraphNotFound(detail.strip(), status=status)
    if status == 410 or code in {"SyncStateNotFound", "resyncRequired", "SyncStateInvalid"}:
        err = SyncStateExpired(detail.strip(), status=status)
        err.location = headers.get("location")  # type: ignore[attr-defined]
        return err
    if status in THROTTLE_STATUSES:
        retry_after = (headers.get("retry-after") or "").strip()
        return Throttled(
            detail.strip(),
            retry_after=float(retry_after) if retry_after.isdigit() else 0.0,
            status=status,
        )
    return GraphError(detail.strip(), status=status)
