"""``ask TEXT``: one turn of the assistant, headless; prints its reply (Markdown)."""

from __future__ import annotations

import argparse
import asyncio

from core.errors import LLMUnavailable
from core.services import Services


def cmd_ask(args: argparse.Namespace, services: Services) -> int:
    from core.agent.loop import Assistant
    from core.drafts.drafting import build_drafting
    from core.llm.client import LLMClient

    llm = LLMClient(services.settings, services.secrets, services.store, services.clock)
    if not llm.available:
        raise LLMUnavailable("未设置 AI 服务地址 (llm.base_url / INQUIRY_BRIDGE_LLM_BASE_URL)")
    # the claim guard runs inside Assistant.ask: what is printed is the checked answer
    assistant = Assistant(
        services, llm, build_drafting(services, llm, find_mailer=False), channel="cli"
    )

    async def turn() -> str:
        try:
            return (await assistant.ask(" ".join(args.text))).text
        finally:
            await llm.aclose()

    print(asyncio.run(turn()))
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    ask = sub.add_parser("ask", parents=[common], help="one turn of the assistant")
    ask.add_argument("text", nargs="+", help="what to ask (Chinese or English)")
    ask.set_defaults(handler=cmd_ask)
