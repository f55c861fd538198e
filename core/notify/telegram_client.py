"""The Telegram Bot API over httpx, inside the app's one asyncio loop.

Why httpx and not python-telegram-bot: the app already ships httpx and needs nine Bot API
methods (getUpdates, sendMessage, sendChatAction, editMessageText, editMessageReplyMarkup,
answerCallbackQuery, getFile, file download, sendDocument). python-telegram-bot's ``Application`` wants to own the polling loop,
its own retry/rate-limit policy and an in-memory update queue; here the offset must be persisted
in SQLite only *after* an update is handled, 429s must be paced with the injected clock, and the
tests run against a loopback server — a thin client makes each of those explicit and testable
instead of fighting a framework (and saves a dependency in the Windows bundle).

The client does not retry on its own: callers decide (the mirror reschedules through the outbox,
the bot waits ``retry_after`` on the injected clock). The token is part of every URL, so nothing
here logs URLs; the log filter in ``core.logging_setup`` redacts ``bot<token>`` as a second line
of defence.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

import httpx

from core import tls
from core.errors import TelegramError

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.telegram.org"
# a bot may upload files up to 50 MB (Bot API "sendDocument"); counted in decimal megabytes so
# a file just under the line is never refused by the server
UPLOAD_LIMIT_BYTES = 50_000_000


class TelegramApiError(TelegramError):
    """Telegram answered ``ok: false`` (400 bad request, 403 blocked, 429 flood…)."""

    def __init__(self, detail: str, status: int = 0, retry_after: float | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.retry_after = retry_after

    @property
    def is_parse_error(self) -> bool:
        return self.status == 400 and "can't parse entities" in self.detail.lower()

    @property
    def is_flood(self) -> bool:
        return self.status == 429


class TelegramNetworkError(TelegramError):
    """The Bot API could not be reached (offline, DNS, timeout). Retry later."""


class TelegramAuthError(TelegramApiError):
    """401/404 on the bot URL: the token is wrong or revoked."""


@dataclass(frozen=True)
class TelegramFile:
    file_id: str
    file_unique_id: str
    file_path: str | None
    file_size: int | None


class TelegramClient:
    """A few Bot API methods. ``http_client`` is injectable (tests use a loopback server)."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        http_client: httpx.AsyncClient | None = None,
        timeout: float = 20.0,
    ) -> None:
        if not token:
            raise TelegramError("没有配置 Bot 令牌 / no bot token configured")
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        self._token = token
        self._owns_client = http_client is None
        self._http = http_client or httpx.AsyncClient(timeout=timeout, verify=tls.context())
        self._timeout = timeout

    async def aclose(self) -> None:
        if self._owns_client:
            await self._http.aclose()

    async def __aenter__(self) -> TelegramClient:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()

    async def call(
        self,
        method: str,
        payload: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        files: dict[str, tuple[str, bytes, str]] | None = None,
    ) -> object:
        """POST one method; returns ``result`` or raises TelegramApiError/TelegramNetworkError.

        With ``files`` the request is multipart/form-data (an upload): the payload's values go
        as form fields, objects as JSON text, as the Bot API expects.
        """
        url = f"{self.base_url}/bot{self._token}/{method}"
        try:
            if files:
                fields = {
                    k: v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
                    for k, v in (payload or {}).items()
                }
                response = await self._http.post(
                    url, data=fields, files=files, timeout=timeout or self._timeout
                )
            else:
                response = await self._http.post(
                    url, json=payload or {}, timeout=timeout or self._timeout
                )
        except httpx.TransportError as exc:
            raise TelegramNetworkError(f"{method}: {type(exc).__name__}") from None
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):  # not JSON, or JSON that is no Bot API answer
            body = {"ok": False, "description": response.text[:200]}
        if response.status_code == 200 and body.get("ok"):
            return body.get("result")
        status = int(body.get("error_code") or response.status_code)
        description = str(body.get("description") or f"HTTP {response.status_code}")
        retry_after = (body.get("parameters") or {}).get("retry_after")
        if status == 429 and retry_after is None:
            retry_after = _retry_after_header(response)
        cls = (
            TelegramAuthError if status in (401, 404) and method != "getFile" else TelegramApiError
        )
        raise cls(f"{method}: {description}", status, retry_after)

    async def call_object(
        self, method: str, payload: dict[str, Any] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        """``call`` for a method whose ``result`` is one object (a Message, a User…): any other
        answer is an API error here, not a ``KeyError`` three calls later."""
        result = await self.call(method, payload, **kwargs)
        if not isinstance(result, dict):
            raise TelegramApiError(f"{method}: result is {type(result).__name__}, not an object")
        return result

    async def get_me(self) -> dict[str, Any]:
        return await self.call_object("getMe")

    async def get_updates(self, offset: int | None, timeout: int = 0) -> list[dict[str, Any]]:
        payload: dict[str, Any] = {
            "timeout": timeout,
            "allowed_updates": ["message", "callback_query"],
        }
        if offset is not None:
            payload["offset"] = offset
        updates = await self.call("getUpdates", payload, timeout=self._timeout + timeout)
        if not isinstance(updates, list) or not all(isinstance(u, dict) for u in updates):
            raise TelegramApiError("getUpdates: result is not a list of updates")
        return updates

    async def send_message(
        self,
        chat_id: int | str,
        text: str,
        *,
        parse_mode: str | None = "HTML",
        reply_markup: dict[str, Any] | None = None,
        reply_to: int | None = None,
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "chat_id": chat_id,
            "text": text,
            "link_preview_options": {"is_disabled": True},
        }
        if parse_mode:
            payload["parse_mode"] = parse_mode
        if reply_markup:
            payload["reply_markup"] = reply_markup
        if reply_to:
            payload["reply_parameters"] = {
                "message_id": reply_to,
                "allow_sending_without_reply": True,
            }
        return await self.call_object("sendMessage", payload)

    async def edit_message_text(
        self,
        chat_id: int | str,
        message_id: int,
        text: str,
        *,
        parse_mode: str | None = "HTML",
        reply_markup: dict[str, Any] | None = None,
    ) -> object:
        payload: dict[str, Any] = {"chat_id": chat_id, "message_id": message_id, "text": text}
        if parse_mode:
            payload["parse_mode"] = parse_mode
        if reply_markup is not None:
            payload["reply_markup"] = reply_markup
        return await self.call("editMessageText", payload)

    async def edit_reply_markup(
        self, chat_id: int | str, message_id: int, reply_markup: dict[str, Any] | None
    ) -> object:
        payload: dict[str, Any] = {"chat_id": chat_id, "message_id": message_id}
        payload["reply_markup"] = reply_markup or {"inline_keyboard": []}
        return await self.call("editMessageReplyMarkup", payload)

    async def send_chat_action(self, chat_id: int | str, action: str = "typing") -> object:
        """Show "typing…" under the bot's name for about five seconds (or until it sends)."""
        return await self.call("sendChatAction", {"chat_id": chat_id, "action": action})

    async def answer_callback_query(self, callback_query_id: str, text: str = "") -> object:
        payload: dict[str, Any] = {"callback_query_id": callback_query_id}
        if text:
            payload["text"] = text[:200]
        return await self.call("answerCallbackQuery", payload)

    async def send_document(
        self,
        chat_id: int | str,
        filename: str,
        data: bytes,
        *,
        caption: str | None = None,
        content_type: str = "application/octet-stream",
        reply_to: int | None = None,
    ) -> dict[str, Any]:
        """Upload ``data`` as a document named ``filename`` (multipart). Over
        ``UPLOAD_LIMIT_BYTES`` Telegram refuses it (413): callers check the size first."""
        payload: dict[str, Any] = {"chat_id": chat_id}
        if caption:
            payload["caption"] = caption[:1024]
        if reply_to:
            payload["reply_parameters"] = {
                "message_id": reply_to,
                "allow_sending_without_reply": True,
            }
        # an upload takes longer than a message: a few MB on a slow line
        timeout = self._timeout + len(data) / 100_000
        return await self.call_object(
            "sendDocument",
            payload,
            timeout=timeout,
            files={"document": (filename, data, content_type)},
        )

    async def get_file(self, file_id: str) -> TelegramFile:
        result = await self.call_object("getFile", {"file_id": file_id})
        return TelegramFile(
            file_id=result.get("file_id", file_id),
            file_unique_id=result.get("file_unique_id", ""),
            file_path=result.get("file_path"),
            file_size=result.get("file_size"),
        )

    async def download_file(self, file_path: str, *, max_bytes: int = 20_000_000) -> bytes:
        """Bytes of a file from ``getFile`` (Bot API serves at most 20 MB)."""
        url = f"{self.base_url}/file/bot{self._token}/{file_path.lstrip('/')}"
        try:
            response = await self._http.get(url, timeout=self._timeout * 3)
        except httpx.TransportError as exc:
            raise TelegramNetworkError(f"download: {type(exc).__name__}") from None
        if response.status_code != 200:
            raise TelegramApiError(f"download: HTTP {response.status_code}", response.status_code)
        if len(response.content) > max_bytes:
            raise TelegramApiError("download: file too large", 413)
        return response.content


def _retry_after_header(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        return float(value) if value else None
    except ValueError:
        return None
