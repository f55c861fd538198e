"""``ConnectionTests``: the settings pages' 测试连接, with values the owner has not saved yet.

Why here: a connection test builds a throwaway client (the LLM client over the form's address,
models and key; the Telegram Bot API client over a typed token, from ``App.new_telegram_client``)
and closes it again. Clients are built in the composition root only, so the front ends ask this
service instead of constructing ``LLMClient`` or ``TelegramClient`` themselves. Both tests are
async and touch only the network,
never the settings file or the keyring: nothing typed is saved by testing it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from core.app.lazy import LazyLLM
    from core.notify.telegram_client import TelegramClient

log = logging.getLogger(__name__)

TelegramVerdict = Literal["ok", "bad_token", "offline", "error"]


@dataclass(frozen=True)
class LLMProbeResult:
    """What the LLM endpoint answered: ``ok`` (all the app needs works) and the findings, one
    line each, in the language asked for."""

    ok: bool
    lines: list[str]


@dataclass(frozen=True)
class TelegramProbeResult:
    """The Bot API's answer to ``getMe``: the verdict and the bot's name when it answered."""

    verdict: TelegramVerdict
    bot_name: str = ""


class ConnectionTests:
    """测试连接 for the AI endpoint and the Telegram bot, over unsaved form values."""

    def __init__(self, llm: LazyLLM, telegram_client: Callable[..., TelegramClient]) -> None:
        """``llm``: the App's (its ``probe`` builds the throwaway client); ``telegram_client``:
        ``App.new_telegram_client`` (token, ``timeout=``), the one place a Bot API client is
        made."""
        self._llm = llm
        self._telegram_client = telegram_client

    async def llm(self, values: Mapping[str, object], api_key: str, lang: str) -> LLMProbeResult:
        """Probe the endpoint with the form's ``llm.*`` ``values`` (saved ones fill the rest)
        and the typed ``api_key`` (empty: the saved key). Raises what building the client
        raises (not configured, a value the client refuses); the caller words it."""
        from core.llm import probe

        report = await self._llm.probe(values, api_key)
        return LLMProbeResult(report.ok, probe.summary(report, lang))

    async def telegram(self, token: str) -> TelegramProbeResult:
        """Ask the Bot API who ``token`` is (``getMe``, ten seconds at most)."""
        # the Bot API client (httpx) is imported on use, not with the app's start
        from core.errors import InquiryBridgeError
        from core.notify.telegram_client import TelegramAuthError, TelegramNetworkError

        client = self._telegram_client(token, timeout=10)
        try:
            me = await client.get_me()
            return TelegramProbeResult("ok", str(me.get("username") or me.get("first_name") or ""))
        except TelegramAuthError:
            return TelegramProbeResult("bad_token")
        except TelegramNetworkError:
            return TelegramProbeResult("offline")
        except InquiryBridgeError as exc:
            log.info("telegram test: %s", exc.detail)
            return TelegramProbeResult("error")
        finally:
            await client.aclose()
