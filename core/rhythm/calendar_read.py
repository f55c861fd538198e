"""Reading tomorrow's calendar for the briefing without ever letting it sink the briefing.

Kept apart from ``outlook`` (which builds Graph clients) so the daily task and the briefing can
use it without importing Graph: what is read is handed in as a coroutine function.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from core.errors import GraphAuthError, GraphError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CalendarRead:
    """Tomorrow's events, or None with the reason in the owner's words (Chinese)."""

    events: list[dict[str, Any]] | None
    note_zh: str = ""


NO_ACCOUNT_ZH = "未读取 Outlook 日历（未登录微软账户）"
DEMO_ZH = "示例数据：不读取 Outlook 日历"


# How long the briefing waits for Outlook: the Graph client's retries for a server that keeps
# answering 503 or dropping the connection would otherwise hold the briefing for half a minute.
READ_BUDGET_S = 6.0


async def read_calendar(
    read: Callable[[], Awaitable[list[dict[str, Any]]]], budget_s: float = READ_BUDGET_S
) -> CalendarRead:
    """Tomorrow's events; a calendar that cannot be read never sinks the briefing.

    No permission, a 4xx or 5xx, a dropped connection, no answer within ``budget_s``: the
    briefing arrives without that part and says why; the technical detail goes to the log only.
    """
    try:
        async with asyncio.timeout(budget_s):
            return CalendarRead(await read())
    except GraphAuthError:
        return CalendarRead(None, "未读取 Outlook 日历（微软账户需要重新登录）")
    except GraphError as exc:
        log.warning("calendar not read: %s (HTTP %s)", type(exc).__name__, exc.status)
        if exc.status in (401, 403):
            return CalendarRead(None, "未读取 Outlook 日历（账户没有读取日历的权限）")
        if exc.status is not None and exc.status < 500:
            return CalendarRead(
                None, f"未读取 Outlook 日历（Outlook 拒绝了请求，HTTP {exc.status}）"
            )
        return CalendarRead(None, "未读取 Outlook 日历（Outlook 暂时无法连接，稍后会再试）")
    except TimeoutError:
        log.warning("calendar not read within %.0f s", budget_s)
        return CalendarRead(None, "未读取 Outlook 日历（Outlook 暂时无法连接，稍后会再试）")
    except Exception as exc:
        if not _network_error(exc):
            raise
        log.warning("calendar not read: %s", type(exc).__name__)
        return CalendarRead(None, "未读取 Outlook 日历（无法连接网络）")


def _network_error(exc: Exception) -> bool:
    """A dropped connection: an OSError, or an httpx error — httpx is not imported here (the
    daily rhythm starts with the app and must not load the HTTP client before a read needs
    it), and an httpx error can only exist once something has loaded it."""
    httpx = sys.modules.get("httpx")
    return isinstance(exc, OSError) or (httpx is not None and isinstance(exc, httpx.HTTPError))
