"""The assistant's turn: the model may call tools for a bounded number of rounds, then answers.

Bounded (``MAX_ROUNDS``) so a confused model costs a few calls, not a loop; every call goes
through ``LLMClient.complete`` and so into the ledger (tier 3, purpose ``assistant``). Bad tool
arguments or a tool's refusal go back to the model as an ``ERROR:`` result rather than failing
the turn.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from core.agent.tools import REGISTRY, ToolContext, active_memories
from core.clock import to_sydney
from core.errors import InquiryBridgeError
from core.llm.prompts import render_messages
from core.services import Services

log = logging.getLogger(__name__)

MAX_ROUNDS = 6


@dataclass
class ToolCallRecord:
    name: str
    arguments: dict[str, Any]
    result: str


@dataclass
class AssistantReply:
    text: str
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    rounds: int = 0


class Assistant:
    def __init__(self, services: Services, llm: Any, draft_service: Any) -> None:
        self.services = services
        self.llm = llm
        self.context = ToolContext(services, draft_service)

    async def _system_messages(self) -> list[dict[str, Any]]:
        memories = await self.services.store.read(active_memories)
        variables = {
            "company": self.services.settings.get("general.company_name"),
            "today": to_sydney(self.services.clock.now()).strftime("%Y-%m-%d %A"),
            "memories": "\n".join(memories) or "(none yet)",
        }
        return render_messages("assistant", variables)

    async def _run_tool(self, name: str, raw_arguments: str) -> tuple[dict[str, Any], str]:
        tool = REGISTRY.get(name)
        if tool is None:
            return {}, f"ERROR: there is no tool named {name!r}"
        try:
            arguments = json.loads(raw_arguments or "{}")
            if not isinstance(arguments, dict):
                raise ValueError("arguments must be a JSON object")
        except ValueError as exc:
            return {}, f"ERROR: invalid arguments: {exc}"
        try:
            return arguments, await tool.handler(self.context, arguments)
        except InquiryBridgeError as exc:
            return arguments, f"ERROR: {exc.detail or exc.user_message('en')}"
        except Exception as exc:  # a tool bug must not kill the owner's conversation
            log.exception("tool %s failed", name)
            return arguments, f"ERROR: {type(exc).__name__}: {exc}"

    async def ask(self, text: str, history: list[dict[str, Any]] | None = None) -> AssistantReply:
        messages = await self._system_messages()
        messages = [m for m in messages if m["role"] == "system"]
        messages += list(history or [])
        messages.append({"role": "user", "content": text})
        tools = [tool.spec() for tool in REGISTRY.values()]
        reply = AssistantReply(text="")
        for round_no in range(1, MAX_ROUNDS + 1):
            reply.rounds = round_no
            completion = await self.llm.complete(
                tier=3, purpose="assistant", messages=messages, tools=tools, temperature=None
            )
            if not completion.tool_calls:
                reply.text = completion.content.strip()
                return reply
            messages.append(
                {
                    "role": "assistant",
                    "content": completion.content or None,
                    "tool_calls": [
                        {
                            "id": call["id"],
                            "type": "function",
                            "function": {"name": call["name"], "arguments": call["arguments"]},
                        }
                        for call in completion.tool_calls
                    ],
                }
            )
            for call in completion.tool_calls:
                arguments, result = await self._run_tool(call["name"], call["arguments"])
                reply.tool_calls.append(ToolCallRecord(call["name"], arguments, result))
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
        reply.text = "（助手在多轮工具调用后仍未给出答复，请换个说法再试。）"
        return reply
