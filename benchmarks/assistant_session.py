"""Assistant session benchmark: a 60-turn conversation against the loopback model, under a fixed
prompt budget.

    .venv/bin/python benchmarks/assistant_session.py [--turns 60] [--budget 16000]

The owner picks a customer at turn 1, states a fact at turn 2 ("记住：…2400 mm…"), then asks 58
long questions, some of which make the model call a tool that returns a long result. The
loopback server plays the assistant (tier 3) and the cheap tier that keeps the session's notes
(``tests/agent/session_support.py``). Printed per turn: the prompt size of its largest
assistant request as the server received it (characters of message contents and tool-call
arguments: the budget's measure), how many characters it added to the previous turn's first
request, and whether it starts with that request byte for byte (``same prefix``: the provider's
prompt cache can serve it) or a fold replaced the oldest part (``FOLD``). Then: max and p95
against the budget, the folds, the share of prompt characters a prefix cache could serve,
whether the current customer and the turn-2 fact are in the prompt at the last turn, and the
memory proposals. Exit status 1 when a check fails (including a changed prefix without a fold).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")

from sqlalchemy import select  # noqa: E402

from core.agent.session_budget import PromptBudget  # noqa: E402
from core.app import App  # noqa: E402
from core.clock import FakeClock  # noqa: E402
from core.db.models import Memory  # noqa: E402
from core.services import build_services  # noqa: E402
from tests.agent.session_support import SessionModel, request_chars  # noqa: E402
from tests.drafts.support import add_inquiry  # noqa: E402
from tests.support.llm_server import LLMServer, last_user_text  # noqa: E402

FACT = "记住：Billy 家后门的推拉门宽 2400 mm，高 2100 mm，双层玻璃"


class Model(SessionModel):
    """Every fifth question makes the model read the pipeline before it answers."""

    def __call__(self, request: dict[str, Any]) -> Any:
        asked = last_user_text(request)
        if (
            request.get("tools")
            and "需要查一下" in asked
            and request["messages"][-1]["role"] == "user"
        ):
            return [{"name": "pipeline_summary", "arguments": {}}]
        return super().__call__(request)


def question(n: int) -> str:
    if n == 2:
        return FACT
    ask = "需要查一下各阶段。" if n % 5 == 0 else ""
    return f"第{n}个问题：{ask}" + "这位客户的窗户用什么型材和玻璃比较好，价格大概多少？" * 6


async def run(turns: int, budget: PromptBudget, home: Path) -> int:
    services = build_services(home, clock=FakeClock())
    inquiry_id, _ = add_inquiry(services, name="Billy Nguyen")
    model = Model(answer_chars=600)
    per_turn: list[int] = []
    previous: list[dict[str, Any]] = []
    broken = cached = total = folds_seen = 0
    started = time.perf_counter()
    with LLMServer(model) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        conversation = app.assistant.conversation("bench", channel="desktop")
        conversation.budget = budget
        conversation.current_inquiry_id = inquiry_id
        for n in range(1, turns + 1):
            before = len(srv.chat_requests)
            await conversation.ask(question(n), on_event=lambda _e: None)
            sizes = [
                request_chars(r.body) for r in srv.chat_requests[before:] if r.body.get("tools")
            ]
            per_turn.append(max(sizes))
            asks = [r.body for r in srv.chat_requests[before:] if r.body.get("tools")]
            first = asks[0]["messages"]
            same = first[: len(previous)] == previous
            added = request_chars({"messages": first}) - request_chars({"messages": previous})
            folded = n > 1 and not same
            broken += int(folded and model.folds == folds_seen)
            folds_seen = model.folds
            total += request_chars({"messages": first})
            cached += request_chars({"messages": previous}) if same else 0
            state = "first" if n == 1 else "same prefix" if same else "FOLD"
            print(
                f"turn {n:3d}: prompt {max(sizes):6d} chars ({len(sizes)} request(s)); "
                f"{state}; {added:+d} chars"
            )
            previous = first
        last = [r.body for r in srv.chat_requests if r.body.get("tools")][-1]
        await app.aclose()
    elapsed = time.perf_counter() - started
    text = "\n".join(str(m.get("content") or "") for m in last["messages"])
    with services.store.session() as s:
        proposals = [m.text for m in s.scalars(select(Memory).where(Memory.status == "proposed"))]
    services.close()

    p95 = statistics.quantiles(per_turn, n=20)[-1] if len(per_turn) > 1 else per_turn[0]
    customer = f"Current customer: inquiry #{inquiry_id}, Billy Nguyen" in text
    fact = "2400 mm" in text or any("2400 mm" in p for p in proposals)
    print(f"budget {budget.total_chars} chars; max {max(per_turn)}; p95 {p95:.0f}")
    print(f"notes folded {model.folds} times in {turns} turns; {elapsed:.1f} s in all")
    print(
        f"prefix changed without a fold: {broken} times; prompt characters a prefix cache "
        f"could serve: {cached / max(total, 1):.0%}"
    )
    print(f"current customer in the last prompt: {customer}")
    print(f"turn-2 fact in the last prompt: {'2400 mm' in text}; memory proposals: {proposals}")
    ok = max(per_turn) <= budget.total_chars and customer and fact and "2400 mm" in text
    ok = ok and broken == 0
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--budget", type=int, default=PromptBudget().total_chars)
    args = parser.parse_args()
    budget = PromptBudget(total_chars=args.budget)
    with tempfile.TemporaryDirectory() as home:
        return asyncio.run(run(args.turns, budget, Path(home)))


if __name__ == "__main__":
    sys.exit(main())
