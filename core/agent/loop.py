"""The assistant's turn: the model may call tools for a bounded number of rounds, then answers.

Bounded so a confused model costs some calls, not a loop: up to ``MAX_TOOL_ROUNDS`` rounds of
tool calls (the seed's 15: a real chain — find, read, check the files, draft — takes seven or
more), then one more request for the answer; tool calls asked for in that last round are not run
and the owner reads one Chinese line saying so. Every call goes
through ``LLMClient.complete`` and so into the ledger (tier 3, purpose ``assistant``). Bad tool
arguments or a tool's refusal go back to the model as an ``ERROR:`` result rather than failing
the turn.

The answer passes the assertion guard (``core.agent.assertions``) before it is returned: whatever
channel shows it, the owner never reads "已发送" about a draft that waits for his approval.
Memories reach the model as a delimited data message, never inside the system instructions.

Provenance (docs/contracts.md principle 7): the owner's own words of the turn travel with it
(``ToolContext.owner_words``) — the instruction of record of any draft it writes, and what the
consent rule reads. Once the turn has read customer content (a tool whose record says
``reads_customer_content``), a gated write (``Tool.gated``: stage, note, memory, folder) that his
words did not ask for (``core.agent.consent``) is not made: it is stored as a proposal he
confirms or drops (``core.agent.proposals``; memories as ``proposed`` memories), and the model is
told ``PROPOSED — NOT DONE``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.agent import consent, proposals
from core.agent.assertions import Correction, guard_answer, warm_guard, watermark
from core.agent.caps import MAX_ANSWER_CHARS, cap_answer, cap_question, cap_tool_result
from core.agent.escalation_flag import with_flags
from core.agent.fitting import tool_result_chars, tool_specs
from core.agent.memory_dedupe import DuplicateJudge
from core.agent.tools import REGISTRY, Tool, ToolContext, assistant_memories
from core.agent.tools.base import Focus
from core.agent.tools.knowledge import knowledge_block
from core.db.models import ALL_STAGES, Inquiry
from core.errors import InquiryBridgeError, LLMContextTooLong, LLMError
from core.llm.prompts import render_messages
from core.provenance import FORWARD_MARK, Text
from core.services import Services

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from core.agent.tools.drive_access import CustomerDrive
    from core.drafts.drafting import Drafting
    from core.llm.completion import Completion
    from core.llm.model import ModelClient

log = logging.getLogger(__name__)

MAX_TOOL_ROUNDS = 15  # rounds that may run tools; one answer round follows
MAX_ROUNDS = MAX_TOOL_ROUNDS + 1
TOO_MANY_ROUNDS = (
    f"（助手连续调用了 {MAX_TOOL_ROUNDS} 轮工具仍未给出答复，已停下，没有再执行更多操作。"
    "请把问题拆小一点再问。）"
)
# Tools whose results carry text customers wrote (names, subjects, email bodies): their records say
CUSTOMER_CONTENT_TOOLS = frozenset(n for n, t in REGISTRY.items() if t.reads_customer_content)
# A model that calls a tool the app does not have (a weak model inventing "new_inquiries") is
# told the real names once, in the tool result, instead of the owner reading its raw call.
_TOOL_LIST = (
    "Call only these tools, with a JSON object of arguments: " + ", ".join(sorted(REGISTRY)) + "."
)


@dataclass
class ToolCallRecord:
    name: str
    arguments: dict[str, Any]
    result: str


@dataclass
class AssistantReply:
    text: str  # what the owner may read (after the assertion guard)
    tool_calls: list[ToolCallRecord] = field(default_factory=list)
    rounds: int = 0
    raw_text: str = ""  # the model's own words, before the assertion guard
    corrections: list[Correction] = field(default_factory=list)
    # the chat messages the tool rounds added (assistant tool calls, tool results), in order:
    # a session keeps them so the next turn knows what the tools said
    messages: list[dict[str, Any]] = field(default_factory=list)
    proposal_ids: list[int] = field(default_factory=list)  # writes waiting for the owner's word
    # the customer the turn's tools settled on (one search hit, a read, a draft), or None when
    # a lookup found several; ``customer_moved`` False: no tool said anything about who
    customer_id: int | None = None
    customer_moved: bool = False
    # the owner's message exactly as the model got it (a session stores this, byte for byte)
    question: dict[str, Any] = field(default_factory=dict)


TextSink = Callable[[str], None]
ToolSink = Callable[[str, dict[str, Any]], None]


def _malformed(write: str, arguments: dict[str, Any]) -> bool:
    """A proposal the owner could never confirm (the tool itself would refuse it)."""
    if write == "stage":
        return arguments.get("to_stage") not in ALL_STAGES or not str(arguments.get("reason") or "")
    return write == "note" and not str(arguments.get("text") or "").strip()


class Assistant:
    def __init__(
        self,
        services: Services,
        llm: ModelClient,
        draft_service: Drafting,
        *,
        channel: str = "cli",
        drive: CustomerDrive | None = None,
    ) -> None:
        """``drive``: the App's OneDrive access (over its one Graph client); without it the
        tools open a client of their own per call."""
        self.services = services
        self.llm = llm
        self.channel = channel  # recorded with every corrected claim
        self.context = ToolContext.from_drafting(services, draft_service)
        if drive is not None:
            self.context.drive = drive
        self.context.memory_judge = DuplicateJudge(llm)
        self.context.channel = channel
        warm_guard()  # the guard's converter and patterns load now, not in the first turn
        self._proposed: list[int] = []

    async def window(self) -> int:
        """The assistant model's context window in tokens (0: not known; ``fitting``)."""
        reader = getattr(self.llm, "context_window", None)  # test doubles may lack it
        return int(await reader(3)) if reader is not None else 0

    async def system_messages(self) -> list[dict[str, Any]]:
        """The prompt's fixed start (a session measures it against its budget)."""
        return await self._system_messages()

    async def standing_memories(self) -> list[str]:
        """The owner's confirmed memories as the prompt shows them (one per line, JSON)."""
        now = self.services.clock.now()
        used_in = f"assistant:{self.channel}"
        rows = await self.services.store.run(lambda s: assistant_memories(s, now, used_in))
        return [json.dumps(m, ensure_ascii=False) for m in rows]

    async def _system_messages(self) -> list[dict[str, Any]]:
        """The system instructions, then the owner's confirmed memories as a data message."""
        memories = await self.standing_memories()
        variables = {
            "company": self.services.settings.text("general.company_name"),
            # one JSON string per line: a memory cannot pose as several lines or as markup
            "memories": "\n".join(memories) or "(none yet)",
            "knowledge": knowledge_block(self.services.home, self.services.paths.shared),
        }
        return render_messages("assistant", variables)

    async def _run_tool(self, name: str, raw_arguments: str) -> tuple[dict[str, Any], str]:
        tool = REGISTRY.get(name)
        if tool is None:
            return {}, f"ERROR: there is no tool named {name!r}. {_TOOL_LIST}"
        try:
            arguments = json.loads(raw_arguments or "{}")
            if not isinstance(arguments, dict):
                raise ValueError("arguments must be a JSON object")
        except ValueError as exc:
            return {}, f"ERROR: invalid arguments for {name!r}: {exc}. {_TOOL_LIST}"
        try:
            proposed = await self._gate(tool, arguments)
            if proposed is not None:
                return arguments, proposed
            return arguments, await tool.handler(self.context, arguments)
        except InquiryBridgeError as exc:
            return arguments, f"ERROR: {exc.detail or exc.user_message('en')}"
        except Exception as exc:  # a tool bug must not kill the owner's conversation
            log.exception("tool %s failed", name)
            return arguments, f"ERROR: {type(exc).__name__}: {exc}"

    async def ask(
        self,
        text: str,
        history: list[dict[str, Any]] | None = None,
        *,
        prefix: list[dict[str, Any]] | None = None,
        on_text: TextSink | None = None,
        on_tool: ToolSink | None = None,
        customer_content_seen: bool = False,
        owner_text: str | None = None,
        current_inquiry_id: int | None = None,
    ) -> AssistantReply:
        """One turn. ``prefix`` replaces the system messages (a session adds its context to
        them); with ``on_text`` the model's text is streamed to it as it arrives (unchecked:
        the returned ``reply.text`` is what the assertion guard lets the owner read); ``on_tool``
        hears each tool as it starts. ``customer_content_seen``: earlier turns, no longer in
        ``history``, read customer content. ``owner_text``: the owner's own words when ``text``
        carries more (a session's context line); ``current_inquiry_id``: the customer "他"
        means."""
        mark = await self.services.store.read(watermark)
        self.context.owner_words = Text.owner(text if owner_text is None else owner_text)
        self.context.current_inquiry_id = current_inquiry_id
        self.context.focus = Focus()
        self._proposed = []
        self.context.proposals = []  # what a tool proposed itself (an addition to 知识库)
        # a session whose history holds tool results has read customer content already
        self.context.customer_content_seen = customer_content_seen or any(
            m.get("role") == "tool"
            or (m.get("role") == "user" and FORWARD_MARK in str(m.get("content") or ""))
            for m in history or []
        )
        reply = await self._turn(text, history, prefix, _bounded(on_text), on_tool)
        proposed = dict.fromkeys([*self._proposed, *self.context.proposals])
        reply.raw_text, reply.proposal_ids = reply.text, list(proposed)
        reply.customer_moved, reply.customer_id = self.context.focus.customer()
        reply.text = cap_answer(reply.text)  # the guard checks what the owner will read
        checked = await guard_answer(
            self.services,
            reply.text,
            mark,
            channel=self.channel,
            context=[c.result for c in reply.tool_calls],
        )
        reply.text, reply.corrections = checked.text, checked.corrections
        drafted = [c.result for c in reply.tool_calls if "draft" in _writes(c.name)]
        reply.text = await with_flags(self.services, reply.text, drafted)  # code, not the model
        return reply

    async def _gate(self, tool: Tool, arguments: dict[str, Any]) -> str | None:
        """``None``: the call runs as asked. Else the answer for the model: the write was
        stored as a proposal (a memory is run as a ``proposed`` memory instead)."""
        ctx = self.context
        ctx.propose_only = False
        if not tool.gated or not ctx.customer_content_seen:
            return None
        write = sorted(tool.gated)[0]
        target = await self._target(arguments)
        if consent.owner_asked(
            write, arguments, ctx.owner_words.value, target, ctx.current_inquiry_id
        ):
            return None
        if write == "memory":
            ctx.propose_only = True  # memories keep their own proposals (core.agent.memory)
            return None
        if target is None:
            return f"ERROR: no inquiry {arguments.get('inquiry_id')!r}; nothing was changed"
        if _malformed(write, arguments):
            return f"ERROR: invalid arguments for {tool.name}; nothing was changed"
        now = self.services.clock.now()
        words = ctx.owner_words.value
        proposal_id = await self.services.store.run(
            lambda s: proposals.propose(
                s, kind=write, tool=tool.name, inquiry_id=target.id, args=arguments,
                owner_words=words, channel=self.channel, now=now,
            )
        )  # fmt: skip
        self._proposed.append(proposal_id)
        return (
            f"PROPOSED id={proposal_id} — NOT DONE: this turn read customer mail and the owner's "
            "own words did not ask for this change, so it waits for his confirmation (one click "
            "in the chat or on Telegram). Tell him it is only a proposal."
        )

    async def _target(self, arguments: dict[str, Any]) -> consent.Target | None:
        try:
            inquiry_id = int(arguments.get("inquiry_id"))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return None

        def read(session: Session) -> consent.Target | None:
            row = session.get(Inquiry, inquiry_id)
            return consent.Target(row.id, row.customer_name, row.customer_email) if row else None

        found: consent.Target | None = await self.services.store.read(read)
        return found

    async def _complete(
        self, messages: list[dict[str, Any]], on_text: TextSink | None
    ) -> Completion:
        """One model call; streamed when someone listens. An endpoint that refuses the streamed
        request itself (HTTP 400: no SSE, no ``stream_options``) is asked again plainly: the
        owner gets his answer in one piece rather than an error."""
        tools = tool_specs(await self.window())  # what the model's window takes
        if on_text is not None and hasattr(self.llm, "stream"):
            try:
                return await self.llm.stream(
                    tier=3, purpose="assistant", messages=messages, tools=tools, on_text=on_text
                )
            except LLMError as exc:
                if type(exc) is not LLMError:  # unreachable, throttled, broken schema: as is
                    raise
                log.warning("streaming refused, asking without it: %s", exc)
        return await self.llm.complete(
            tier=3, purpose="assistant", messages=messages, tools=tools, temperature=None
        )

    async def _turn(
        self,
        text: str,
        history: list[dict[str, Any]] | None,
        prefix: list[dict[str, Any]] | None,
        on_text: TextSink | None,
        on_tool: ToolSink | None,
    ) -> AssistantReply:
        messages = list(prefix) if prefix is not None else await self._system_messages()
        messages += list(history or [])
        question = {"role": "user", "content": cap_question(text)}
        messages.append(question)
        reply = AssistantReply(text="", question=dict(question))
        for round_no in range(1, MAX_ROUNDS + 1):
            reply.rounds = round_no
            try:
                completion = await self._complete(messages, on_text)
            except LLMContextTooLong as too_long:
                if round_no == 1:
                    raise  # nothing ran yet: the conversation folds and asks again
                # tools already ran (a draft may exist): never run them twice; say what happened
                reply.text = too_long.user_message("zh_CN")
                return reply
            if not completion.tool_calls:
                reply.text = completion.content.strip()
                return reply
            if round_no == MAX_ROUNDS:  # the answer round asked for more tools: none run
                log.warning("assistant turn stopped after %d tool rounds", MAX_TOOL_ROUNDS)
                break
            calls = [
                {
                    "id": call["id"],
                    "type": "function",
                    "function": {"name": call["name"], "arguments": call["arguments"]},
                }
                for call in completion.tool_calls
            ]
            added: list[dict[str, Any]] = [
                {"role": "assistant", "content": completion.content or None, "tool_calls": calls}
            ]
            for call in completion.tool_calls:
                if on_tool is not None:
                    on_tool(call["name"], {"id": call["id"], "arguments": call["arguments"]})
                arguments, result = await self._run_tool(call["name"], call["arguments"])
                result = cap_tool_result(result, tool_result_chars(await self.window()))
                if call["name"] in CUSTOMER_CONTENT_TOOLS and not result.startswith("ERROR"):
                    self.context.customer_content_seen = True
                reply.tool_calls.append(ToolCallRecord(call["name"], arguments, result))
                added.append({"role": "tool", "tool_call_id": call["id"], "content": result})
            messages += added
            reply.messages += added
        reply.text = TOO_MANY_ROUNDS
        return reply


def _writes(name: str) -> frozenset[str]:
    tool = REGISTRY.get(name)
    return tool.writes if tool is not None else frozenset()


def _bounded(sink: TextSink | None) -> TextSink | None:
    """``sink`` that stops hearing streamed text past ``MAX_ANSWER_CHARS`` (the checked,
    capped answer replaces it at the end of the turn)."""
    if sink is None:
        return None
    heard = 0

    def bounded(piece: str) -> None:
        nonlocal heard
        room = MAX_ANSWER_CHARS - heard
        if room > 0:
            sink(piece[:room])
        heard += len(piece)

    return bounded
