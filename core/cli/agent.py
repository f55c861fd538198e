"""``ask TEXT [--session NAME] [--inquiry ID]``: one turn of the assistant, headless; prints its
reply (Markdown, after the assertion guard).

Without ``--session`` the turn stands alone (nothing is kept). With it, the named session (CLI
channel) is continued from the database, as the desktop continues today's: earlier turns, its
summary and its current customer carry over. ``--inquiry`` sets the current customer ("他").
"""

from __future__ import annotations

import argparse
import asyncio

from core.app import App
from core.errors import LLMNotConfigured


def cmd_ask(args: argparse.Namespace, app: App) -> int:
    if not app.llm.available:
        raise LLMNotConfigured(" (settings.toml [llm] base_url / INQUIRY_BRIDGE_LLM_BASE_URL)")
    # the assertion guard runs inside Assistant.ask: what is printed is the checked answer
    if args.session:
        conversation = app.assistant.conversation(args.session, channel="cli")
    else:
        conversation = app.assistant.conversation("ask", channel="cli", persist=False)
    if args.inquiry is not None:
        conversation.current_inquiry_id = args.inquiry

    async def turn() -> str:
        try:
            reply = await conversation.ask(" ".join(args.text))
            await conversation.settle()  # a review the resumed session started
            return reply.text
        finally:
            await app.aclose()

    print(asyncio.run(turn()))
    return 0


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    ask = sub.add_parser("ask", parents=[common], help="one turn of the assistant")
    ask.add_argument("text", nargs="+", help="what to ask (Chinese or English)")
    ask.add_argument("--session", metavar="NAME", help="continue the named session (kept)")
    ask.add_argument("--inquiry", type=int, metavar="ID", help="the current customer's inquiry")
    ask.set_defaults(handler=cmd_ask)
