"""One failed request of a round stops its siblings before the failure is raised (#44's CI: a
401 on one mail folder left the other folder's request connecting after the round ended)."""

from __future__ import annotations

import asyncio

import pytest

from core.tasks import gather_or_cancel


async def test_answers_come_back_in_order() -> None:
    async def after(delay: float, value: int) -> int:
        await asyncio.sleep(delay)
        return value

    assert await gather_or_cancel(after(0.02, 1), after(0, 2)) == [1, 2]


async def test_the_first_failure_is_raised_as_itself_after_the_others_stopped() -> None:
    stopped: list[str] = []

    async def still_listing() -> None:
        try:
            await asyncio.sleep(60)
        finally:
            stopped.append("sibling")

    async def refused() -> None:
        await asyncio.sleep(0)
        raise PermissionError("401")

    with pytest.raises(PermissionError, match="401"):
        await gather_or_cancel(still_listing(), refused())
    assert stopped == ["sibling"]  # stopped before the error reached the caller
    assert not [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
