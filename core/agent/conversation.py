"""A conversation with the assistant: turns that remember the earlier ones, and what a front end
shows while a turn runs.

Every front end (the desktop chat panel, Telegram chat, ``ask --session``) talks to the assistant
through a ``Conversation`` from ``App.assistant``; none builds an ``Assistant`` itself. A turn
reports what it is doing as ``ChatEvent``s so the panel can show "正在查找客户…" and the text as
the model writes it, and the Telegram bot can stay quiet until the answer is whole:

- ``ToolActivity``: a tool is starting (emitted before it runs; one per call);
- ``TextDelta``: more of the model's text, as it arrives (streamed). It is the model's raw
  text, not yet checked: a front end that shows it must **replace** what it showed with
  ``TurnDone.reply.text`` when the turn ends, because the assertion guard may have corrected it
  ("已发送" about a draft that waits for approval). A model that writes a few words before
  calling tools streams those too. Without streaming, one ``TextDelta`` holds the checked text;
- ``TurnDone``: the end; ``reply.text`` is the checked answer, ``draft_ids`` the drafts the
  turn wrote (pending approval), ``attachment_ids`` the stored files ``find_attachments`` found
  (the panel shows them as links to open, the Telegram bot sends them as documents). Exactly
  one per finished turn, none for a cancelled one.

The current customer is the conversation's, not the turn's: whoever the conversation is about.
A front end may set it (the board's selection, a Telegram reply to an alert, ``ask --inquiry``);
when the turn ends, the customer its tools settled on becomes current (``tools.base.Focus``:
the one it drafted for, else the one a search found exactly or ``get_inquiry`` read), and a turn
whose lookups found several leaves nobody current, so "他" makes the assistant ask. "回复他" in
the next turn still means him (the newest message names him; the session row keeps him across
restarts). Cancelling a turn
(the stop button) leaves the history — and the current customer — as they were before the turn.

Cache-friendly by construction (the provider caches the longest prefix it has seen): every
request of a conversation starts with the same bytes — the system prompt, memories and
knowledge read once (again only on a new Sydney day or a fold), the notes of folded turns, then
every earlier turn **exactly as it was sent and stored**. What changes per turn (the time, the
current customer and, once, his memories) is the head of the newest owner message
(``core.agent.turn_context``), stored as sent. A long conversation is folded only when the budget
demands (``core.agent.session_budget``), in one step; facts about to be folded away become memory
proposals first, and after the conversation (idle, or ``close()``) a cheap-tier pass proposes
new memories (``core.agent.session_digest``).

A conversation made by ``App.assistant`` is a session in SQLite (``core.agent.session_store``):
its turns, current customer and summary survive a restart.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy.orm import Session

from core.agent import turn_context
from core.agent.fitting import fitted
from core.agent.loop import Assistant, AssistantReply
from core.agent.session_budget import PromptBudget, fit, fitted_budget, prompt_chars
from core.agent.session_digest import fold, review
from core.agent.session_store import SessionState, SessionStore, Turn, flatten
from core.agent.tools import REGISTRY, tool_labels
from core.clock import to_sydney, utc
from core.errors import LLMContextTooLong
from core.llm.prompts import render_messages
from core.memory.recall import customer_memories, mark_used
from core.memory.recall import fit as fit_memories
from core.provenance import FORWARD_MARK

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ToolActivity:
    """A tool started; ``label_zh`` / ``label_en`` say what for, in a few words."""

    name: str
    label_zh: str
    label_en: str


@dataclass(frozen=True)
class TextDelta:
    """More of the answer's text as the model writes it (unchecked: see the module docstring);
    the whole checked answer at once when the model does not stream."""

    text: str


@dataclass(frozen=True)
class TurnDone:
    """The turn ended: the checked answer, the drafts it wrote (ids, pending approval) and the
    attachments it found that are stored on this computer (ids, for the owner to open)."""

    reply: AssistantReply
    draft_ids: tuple[int, ...] = ()
    attachment_ids: tuple[int, ...] = ()
    proposal_ids: tuple[int, ...] = ()  # writes the owner confirms or drops (one click)
    # the turn's tools moved the current customer: to (id, name), or to nobody (a search found
    # several); ``customer_moved`` False: he is who he was (the panel's bar follows this)
    customer: tuple[int, str] | None = None
    customer_moved: bool = False


ChatEvent = ToolActivity | TextDelta | TurnDone
EventSink = Callable[[ChatEvent], None]


CUSTOMER_MEMORY_CHARS = 2000  # of the current customer's memories in the context message
IDLE_SECONDS = 600.0  # a session this long without a turn has "ended": memories are reviewed


def tool_label(name: str) -> tuple[str, str]:
    """(Chinese, English) activity text of a tool: each tool carries its own."""
    return tool_labels(name)


class Conversation:
    """One named conversation on one channel, with its history and current customer.

    ``store`` makes it a persisted session (``App.assistant`` passes one); without it the
    conversation lives in memory only (the one-shot ``ask``). ``idle_seconds``: after this long
    without a turn the memory review runs (``None``: only on ``close()``).
    """

    def __init__(
        self,
        name: str,
        channel: str,
        assistant: Assistant,
        current_inquiry_id: int | None = None,
        history: list[dict[str, Any]] | None = None,
        *,
        store: SessionStore | None = None,
        state: SessionState | None = None,
        budget: PromptBudget | None = None,
        idle_seconds: float | None = None,
        carry: SessionState | None = None,
    ) -> None:
        self.name = name
        self.channel = channel
        self.assistant = assistant
        self.store = store
        self.budget = budget or PromptBudget()
        self.idle_seconds = idle_seconds
        self._state = state or SessionState(0, channel, name, current_inquiry_id)
        if history:  # a plain message list: one turn per owner message
            for message in history:
                if message.get("role") == "user" or not self._state.turns:
                    self._state.turns.append(Turn(len(self._state.turns) + 1, []))
                self._state.turns[-1].messages.append(dict(message))
        if current_inquiry_id is not None:
            self._state.current_inquiry_id = current_inquiry_id
        self.last_prompt_chars = 0  # the budget's measure of the last turn's first request
        self.folds = 0  # how often this object folded old turns into notes
        # the stable start of every request, read at the first turn and again at each fold
        self._prefix: list[dict[str, Any]] | None = None
        self._prefix_day: date | None = None  # the Sydney day it was read (memories expire)
        self._prefix_memories: set[str] = set()  # the memories it holds (JSON lines)
        # yesterday's session of a daily conversation (Telegram): folded into this one's notes
        # before its first turn, so a new day starts short but knows what was going on
        fresh = not self._state.turns and not self._state.summary
        self._carry = carry if carry is not None and fresh else None
        self._lock = asyncio.Lock()
        self._idle: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Future[object]] = set()

    # -- what front ends read and set -------------------------------------------------
    @property
    def current_inquiry_id(self) -> int | None:
        """The current customer (the board's selection, ``ask --inquiry``); kept across turns
        and, for a session, across restarts."""
        return self._state.current_inquiry_id

    @current_inquiry_id.setter
    def current_inquiry_id(self, inquiry_id: int | None) -> None:
        if inquiry_id == self._state.current_inquiry_id:
            return
        self._state.current_inquiry_id = inquiry_id
        if self.store is not None and self._state.id:
            self.store.set_current_inquiry(self._state.id, inquiry_id)

    @property
    def history(self) -> list[dict[str, Any]]:
        """Every message of every turn, whole (chat-completion form: ``user`` messages, the
        assistant's tool calls, ``tool`` results, ``assistant`` answers). To show a
        conversation use ``transcript()``."""
        return flatten(self._state.turns)

    @property
    def turns(self) -> list[Turn]:
        return list(self._state.turns)

    @property
    def summary(self) -> str:
        """What compression made of the oldest turns ("" until a conversation gets long)."""
        return self._state.summary

    def transcript(self) -> list[tuple[str, str]]:
        """``(role, text)`` of what the owner saw: his messages ("user") and the checked
        answers ("assistant"), oldest first (a panel reopened the same day shows these)."""
        return [
            (str(m["role"]), _shown(m))
            for m in self.history
            if m.get("role") in {"user", "assistant"} and not m.get("tool_calls")
        ]

    # -- a turn -------------------------------------------------------------------------
    async def ask(
        self, text: str, *, on_event: EventSink | None = None, owner_text: str | None = None
    ) -> AssistantReply:
        """One turn. On cancellation the history is left as it was before the turn.
        ``owner_text``: the owner's own words when ``text`` is not all his (a forwarded
        message is someone else's: ``""``, and the turn has read a stranger's words)."""
        emit = on_event or (lambda _event: None)
        self._disarm_idle()
        if self._went_idle():
            self._spawn(self.review_memories())
        async with self._lock:
            prefix, history, seen, wire_text = await self._prompt(text)
            self.last_prompt_chars = prompt_chars([*prefix, *history]) + len(wire_text)
            streamed: list[str] = []

            def on_text(piece: str) -> None:
                streamed.append(piece)
                emit(TextDelta(piece))

            def on_tool(name: str, _call: dict[str, Any]) -> None:
                emit(ToolActivity(name, *tool_label(name)))

            async def turn() -> AssistantReply:
                return await self.assistant.ask(
                    wire_text,
                    history,
                    prefix=prefix,
                    on_text=on_text if on_event is not None else None,
                    on_tool=on_tool,
                    customer_content_seen=seen or FORWARD_MARK in text,
                    owner_text=text if owner_text is None else owner_text,
                    current_inquiry_id=self.current_inquiry_id,
                )

            try:
                reply = await turn()
            except LLMContextTooLong as too_long:
                # the server's window is smaller than our budget: fold to what fits, once
                self.budget = fitted_budget(self.budget, self.last_prompt_chars, too_long)
                streamed.clear()
                prefix, history, seen, wire_text = await self._prompt(text)
                self.last_prompt_chars = prompt_chars([*prefix, *history]) + len(wire_text)
                reply = await turn()
            if not streamed:
                emit(TextDelta(reply.text))
            await self._record(text, reply)
            customer = None
            if reply.customer_moved:  # whoever the tools acted on is "他" from now on
                self.current_inquiry_id = reply.customer_id
                customer = await self._named(reply.customer_id)
        emit(
            TurnDone(
                reply, drafts_written(reply), files_found(reply), tuple(reply.proposal_ids),
                customer=customer, customer_moved=reply.customer_moved,
            )
        )  # fmt: skip
        self._arm_idle()
        return reply

    async def _record(self, text: str, reply: AssistantReply) -> None:
        number = (self._state.turns[-1].number if self._state.turns else 0) + 1
        now = self.assistant.services.clock.now()
        messages = [  # exactly what the model got: the next turn sends these bytes again
            reply.question or {"role": "user", "content": text},
            *reply.messages,
            {"role": "assistant", "content": reply.text},
        ]
        turn = Turn(number, messages, now)
        self._state.turns.append(turn)
        if self.store is not None and self._state.id:
            # shielded: a stop pressed while the finished turn is written does not lose it
            await asyncio.shield(self.store.append_turn(self._state.id, turn))

    async def _named(self, inquiry_id: int | None) -> tuple[int, str] | None:
        if inquiry_id is None:
            return None
        name = await self.store.customer_name(inquiry_id) if self.store is not None else None
        return inquiry_id, name or f"#{inquiry_id}"

    # -- the prompt: a stable prefix, the history as sent, the turn's context at the end --
    async def _notes(self) -> list[dict[str, Any]]:
        """The data message holding the notes of folded turns (none before the first fold)."""
        if not self._state.summary:
            return []
        return render_messages("session_context", {"summary": self._state.summary})

    async def _fresh_prefix(self) -> list[dict[str, Any]]:
        """System instructions, memories, knowledge and notes as of now. Read once per
        conversation and once per fold: between folds every request starts with these bytes."""
        self._prefix_memories = set(await self.assistant.standing_memories())
        return [*await self.assistant.system_messages(), *await self._notes()]

    async def _new_memories(self, sent: list[dict[str, Any]]) -> str:
        """Memories confirmed since the prefix was read (on the 记忆 page, by a tool) that no
        message of ``sent`` carries yet: the newest message brings them, once."""
        said = "\n".join(str(m.get("content") or "") for m in sent if m.get("role") == "user")
        lines = await self.assistant.standing_memories()
        return "\n".join(m for m in lines if m not in self._prefix_memories and m not in said)

    async def _question(self, text: str, kept: list[Turn]) -> str:
        """The newest user message (``core.agent.turn_context``): the time, the current
        customer, and his memories unless a message still in the history carries them."""
        inquiry_id = self.current_inquiry_id
        customer = None
        if inquiry_id is not None:
            name = await self.store.customer_name(inquiry_id) if self.store is not None else None
            customer = turn_context.Customer(inquiry_id, name)
        about = ""
        if customer is not None:
            marker = turn_context.memories_marker(customer)
            told = any(
                m.get("role") == "user" and marker in str(m.get("content") or "")
                for m in flatten(kept)
            )
            about = "" if told else await self._customer_memories(inquiry_id)
        now = self.assistant.services.clock.now()
        rules = await self._new_memories(flatten(kept))
        return turn_context.question(text, now=now, customer=customer, memories=about, rules=rules)

    async def _customer_memories(self, inquiry_id: int | None) -> str:
        """The current customer's memories (his, not another's), most relevant first within
        ``CUSTOMER_MEMORY_CHARS``; stamped as used by this conversation."""
        if inquiry_id is None:
            return ""
        services = self.assistant.services
        now, used_in = services.clock.now(), f"assistant:{self.channel}"

        def read(session: Session) -> list[str]:
            rows = fit_memories(customer_memories(session, inquiry_id, now), CUSTOMER_MEMORY_CHARS)
            mark_used(session, [m.id for m in rows], used_in, now)
            return [json.dumps(m.text, ensure_ascii=False) for m in rows]

        return "\n".join(await services.store.run(read))

    async def _prompt(
        self, text: str
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], bool, str]:
        """(prefix, history to send, earlier turns read customer content, the new message).

        The prefix and the history are what the previous turn sent, unchanged, unless the
        budget demands a fold: then, in one step, the oldest turns become notes and the prefix
        is read afresh (new memories and knowledge come in with it)."""
        budget, state = self.budget, self._state
        if self._carry is not None:
            await self._carry_on(self._carry)
        today = to_sydney(self.assistant.services.clock.now()).date()
        if self._prefix is None or self._prefix_day != today:  # a new day: memories expire
            self._prefix, self._prefix_day = await self._fresh_prefix(), today
        # a small context window (a model on his PC): the budget shrinks to what it takes
        budget = self.budget = fitted(budget, await self.assistant.window(), self._prefix)
        pending = [t for t in state.turns if t.number > state.summarised_through]
        wire = await self._question(text, pending)

        def room() -> int:
            fixed = prompt_chars(self._prefix or []) + len(wire) + budget.tool_reserve_chars
            return budget.total_chars - fixed

        folded, kept = fit(pending, room(), budget)
        if folded:
            summary, _proposed = await fold(
                self.assistant.services,
                self.assistant.llm,
                state.summary,
                folded,
                max_chars=budget.summary_chars,
                channel=self.channel,
            )
            through = folded[-1].number
            if self.store is not None and state.id:
                await asyncio.shield(self.store.save_summary(state.id, summary, through))
            state.summary, state.summarised_through = summary, through
            self.folds += 1
            self._prefix, self._prefix_day = await self._fresh_prefix(), today
            wire = await self._question(text, kept)  # his memories again if they were folded
        return list(self._prefix), flatten(kept), bool(state.summary), wire

    async def _carry_on(self, earlier: SessionState) -> None:
        """A new day's first turn: the earlier session's notes and its turns not folded yet
        become this one's notes (one cheap-tier call; the owner's lines if it fails), and its
        current customer stays current unless one was set today."""
        self._carry = None
        state = self._state
        if state.current_inquiry_id is None and earlier.current_inquiry_id is not None:
            self.current_inquiry_id = earlier.current_inquiry_id
        turns = [t for t in earlier.turns if t.number > earlier.summarised_through]
        summary = earlier.summary
        if turns:
            summary, _proposed = await fold(
                self.assistant.services,
                self.assistant.llm,
                earlier.summary,
                turns,
                max_chars=self.budget.summary_chars,
                channel=self.channel,
            )
        if not summary:
            return
        state.summary = summary
        if self.store is not None and state.id:
            await asyncio.shield(self.store.save_summary(state.id, summary, 0))

    # -- after the conversation: memories ---------------------------------------------
    async def review_memories(self) -> list[int]:
        """The cheap tier proposes memories from the turns not reviewed yet (duplicates of
        active or proposed memories skipped). Returns the new proposals' ids."""
        turns = [t for t in self._state.turns if t.number > self._state.reviewed_through]
        if not turns:
            return []
        proposed = await review(
            self.assistant.services, self.assistant.llm, turns, channel=self.channel
        )
        through = turns[-1].number
        self._state.reviewed_through = through
        if self.store is not None and self._state.id:
            await self.store.mark_reviewed(self._state.id, through)
        return proposed

    async def settle(self) -> None:
        """Wait for background work (an idle review) to finish."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> list[int]:
        """The conversation ended (panel closed, day over, app quitting): review memories.
        Returns the ids of the memories proposed."""
        self._disarm_idle()
        await self.settle()
        try:
            return await self.review_memories()
        except Exception:  # closing must never fail the front end
            log.exception("memory review of %s/%s failed", self.channel, self.name)
            return []

    def _went_idle(self) -> bool:
        """The last turn is older than ``idle_seconds`` by the injected clock and was never
        reviewed (a session resumed after a restart or a long pause)."""
        if self.idle_seconds is None or not self._state.turns:
            return False
        last = self._state.turns[-1]
        if last.number <= self._state.reviewed_through or last.created_at is None:
            return False
        now = utc(self.assistant.services.clock.now())
        return now - utc(last.created_at) >= timedelta(seconds=self.idle_seconds)

    def _spawn(self, job: Awaitable[object]) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_log_failure)

    def _arm_idle(self) -> None:
        if self.idle_seconds is None:
            return
        loop = asyncio.get_running_loop()
        self._idle = loop.call_later(self.idle_seconds, self._spawn_review)

    def _spawn_review(self) -> None:
        self._idle = None
        self._spawn(self.review_memories())

    def _disarm_idle(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None


def _shown(message: dict[str, Any]) -> str:
    content = str(message.get("content") or "")
    return turn_context.owner_words(content) if message.get("role") == "user" else content


def _log_failure(task: asyncio.Future[object]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("background session work failed", exc_info=task.exception())


DRAFTING_TOOLS = frozenset(n for n, t in REGISTRY.items() if t.drafts)  # the records say


def drafts_written(reply: AssistantReply) -> tuple[int, ...]:
    """The drafts this turn wrote (each pending approval), for the front end to open."""
    ids: list[int] = []
    for call in reply.tool_calls:
        if call.name not in DRAFTING_TOOLS or call.result.startswith("ERROR"):
            continue
        ids += [i for i in _ids_in(call.result) if i not in ids]
    return tuple(ids)


FILE_TOOLS = frozenset(n for n, t in REGISTRY.items() if t.returns_files)
MOST_FILES_SHOWN = 10  # a turn that lists 50 files shows the first ten: he asked for one or two


def files_found(reply: AssistantReply) -> tuple[int, ...]:
    """The stored attachments this turn found, in the order the tools listed them (no
    duplicates, at most ``MOST_FILES_SHOWN``), for the front end to offer: the panel as links
    that open them, Telegram as documents. Files not kept on this computer are left out."""
    ids: list[int] = []
    for call in reply.tool_calls:
        if call.name not in FILE_TOOLS or not call.result.startswith("FOUND"):
            continue
        for row in _data_rows(call.result, "attachments"):
            value = row.get("id")
            if (
                isinstance(value, int)
                and not isinstance(value, bool)
                and row.get("available") is True
                and value not in ids
            ):
                ids.append(value)
    return tuple(ids[:MOST_FILES_SHOWN])


def _data_rows(result: str, key: str) -> list[dict[str, Any]]:
    """The ``key`` list of a status line then ``<data>`` JSON (``tools.base.data_block``)."""
    body = result.partition("<data>")[2].rpartition("</data>")[0]
    try:
        data = json.loads(body)
    except ValueError:
        return []
    rows = data.get(key) if isinstance(data, dict) else None
    return [row for row in rows if isinstance(row, dict)] if isinstance(rows, list) else []


def _ids_in(result: str) -> list[int]:
    """``draft_id`` values in a drafting tool's answer: JSON, or a status line then JSON."""
    body = result if result.lstrip().startswith("{") else result.partition("\n")[2]
    try:
        data = json.loads(body)
    except ValueError:
        return []
    found = [data] if isinstance(data, dict) else []
    found += [row for row in (data.get("rows") or []) if isinstance(row, dict)] if found else []
    ids = []
    for item in found:
        value = item.get("draft_id")
        if isinstance(value, int) and not isinstance(value, bool):
            ids.append(value)
    return ids
