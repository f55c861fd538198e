"""``ask TEXT``: one turn of the assistant, headless; prints its reply (Markdown)."""

from __future__ import annotations

import argparse
import asyncio

from core.app import App
from core.errors import LLMUnavailable


def cmd_ask(args: argparse.Namespace, app: App) -> int:
    if not app.llm.available:
        raise LLMUnavailable("未设置 AI 服务地址 (llm.base_url / INQUIRY_BRIDGE_LLM_BASE_URL)")
    # the claim guard runs inside Assistant.ask: what is printed is the checked answer
    conversation = app.assistant.conversation("ask", channel="cli")

    async def turn() -> str:
        try:
            return (await conversation.ask(" ".join(args.text))).text
        finally:
            await app.aclose()

    print(asyncio.run(turn()))
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    ask = sub.add_parser("ask", parents=[common], help="one turn of the assistant")
    ask.add_argument("text", nargs="+", help="what to ask (Chinese or English)")
    ask.set_defaults(handler=cmd_ask, wants_app=True)
