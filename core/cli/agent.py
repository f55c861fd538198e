"""``ask TEXT``: one turn of the assistant, headless; prints its reply (Markdown)."""

from __future__ import annotations

import argparse
import asyncio

from core.app import App
from core.errors import LLMUnavailable


def cmd_ask(args: argparse.Namespace, app: App) -> int:
    from core.agent.loop import Assistant
    from core.drafts.drafting import build_drafting

    if not app.llm.available:
        raise LLMUnavailable("未设置 AI 服务地址 (llm.base_url / INQUIRY_BRIDGE_LLM_BASE_URL)")
    llm = app.llm.client()
    # the claim guard runs inside Assistant.ask: what is printed is the checked answer; the
    # assistant never sends, so its drafting has no mailer
    assistant = Assistant(
        app.services, llm, build_drafting(app.services, llm, find_mailer=False), channel="cli"
    )

    async def turn() -> str:
        try:
            return (await assistant.ask(" ".join(args.text))).text
        finally:
            await app.aclose()

    print(asyncio.run(turn()))
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    ask = sub.add_parser("ask", parents=[common], help="one turn of the assistant")
    ask.add_argument("text", nargs="+", help="what to ask (Chinese or English)")
    ask.set_defaults(handler=cmd_ask, wants_app=True)
