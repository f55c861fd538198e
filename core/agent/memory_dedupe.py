"""One memory per fact: "Billy has a tight budget" and "Billy's budget is limited" are one.

Why a model: a paraphrase shares few characters with what it repeats, so string similarity
keeps both and every later prompt reads the fact twice (and the owner confirms it twice). The
seed systems asked their cheap model; so does this module — the tier-1 model judges, through the
prompt file ``memory_duplicate`` and a validated JSON answer — but only about *plausible* pairs:
a cheap pre-filter keeps the memories about the same customer (or, for a memory about no one
customer, about no customer either) that share a content word (for Chinese, a two-character
run) once the customer's own name is set aside, best first, at most ``MAX_CANDIDATES``. A new
memory that shares nothing with any other never costs a call.

When the model cannot answer (no endpoint, an error, an answer naming a memory it was not
shown) the cheap check decides (``core.agent.memory.is_duplicate_memory``: near-copies only).

A duplicate is *merged*: the older memory is kept and counted (``seen_count``, ``last_seen_at``,
an audit entry ``memory_merged`` with the new words and who said them), never silently dropped.
If the owner says directly what the assistant had only proposed, the proposal becomes active.
"""

from __future__ import annotations

import difflib
import json
import logging
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict

from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from core import tasks
from core.agent.memory import MEMORY_KINDS, is_duplicate_memory, normalise_memory_text, save_memory
from core.clock import naive_utc
from core.db.models import AuditEntry, Inquiry, Memory
from core.errors import InquiryBridgeError
from core.events import NoteAdded
from core.memory.expiry import expires_at_for, today_in_sydney, verified_expiry
from core.memory.links import LINKED_KINDS, customer_inquiry_ids, resolve_customer

if TYPE_CHECKING:
    from core.llm.model import ModelClient
    from core.services import Services

log = logging.getLogger(__name__)

__all__ = [
    "Candidate",
    "DuplicateJudge",
    "SaveResult",
    "judge_of",
    "plausible_pairs",
    "propose_memories",
    "remember_once",
]

MAX_CANDIDATES = 5  # memories shown to the model with one new memory
_WORD = re.compile(r"[a-z0-9]+")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
_STOP = frozenset(
    ["a", "an", "the", "is", "are", "was", "were", "be", "been", "has", "have", "had", "do", "does", "did", "of", "to", "in", "on", "at", "for", "with", "and", "or", "but", "not", "no", "s", "he", "she", "his", "her", "him", "they", "them", "their", "it", "its", "this", "that", "these", "those", "we", "our", "us", "you", "your", "i", "my", "me", "very", "really", "always", "never", "will", "would", "should", "can", "could", "must", "just", "also", "only", "customer", "client"]
)  # fmt: skip
_ZH_STOP = frozenset({"客户", "这个", "那个", "一个", "我们", "他们", "的是", "是的", "非常"})


class DuplicateJudgement(BaseModel):
    """The model's answer: which shown memory says the same as the new one."""

    same_as: int | None = Field(description="id of the memory that says the same thing, or null")
    reason: str = Field(description="a few words why")


@dataclass(frozen=True)
class Candidate:
    """A memory to save, with what a model proposed about it (checked before use)."""

    kind: str
    text: str
    customer: str | None = None
    inquiry_id: int | None = None
    expires_on: str | None = None


@dataclass(frozen=True)
class SaveResult:
    memory_id: int
    status: str
    merged: bool  # True: an older memory said it; it was counted, nothing new was stored


def _tokens(text: str, drop: frozenset[str]) -> set[str]:
    folded = unicodedata.normalize("NFKC", text).casefold()
    words = {w.removesuffix("s") if len(w) > 3 else w for w in _WORD.findall(folded)}
    found = {w for w in words if w not in _STOP and w not in drop}
    for run in _CJK_RUN.findall(folded):
        for name in drop:
            run = run.replace(name, " ")
        for piece in run.split():
            grams = {piece[i : i + 2] for i in range(len(piece) - 1)} or {piece}
            found |= {g for g in grams if g not in _ZH_STOP}
    return found


def _name_words(session: Session, inquiry_id: int | None) -> frozenset[str]:
    """The linked customer's own name, which two notes about him share without meaning it."""
    inquiry = session.get(Inquiry, inquiry_id) if inquiry_id is not None else None
    if inquiry is None or not inquiry.customer_name:
        return frozenset()
    folded = unicodedata.normalize("NFKC", inquiry.customer_name).casefold()
    return frozenset(w.removesuffix("s") if len(w) > 3 else w for w in folded.split())


def plausible_pairs(
    session: Session, text: str, inquiry_id: int | None, *, exclude: int | None = None
) -> list[Memory]:
    """Active or proposed memories in the same scope (the same customer, or no customer) that
    share a content word with ``text``, most alike first (at most ``MAX_CANDIDATES``)."""
    query = select(Memory).where(Memory.status.in_(("active", "proposed")))
    if inquiry_id is None:
        query = query.where(Memory.inquiry_id.is_(None))
    else:
        query = query.where(Memory.inquiry_id.in_(customer_inquiry_ids(session, inquiry_id)))
    drop = _name_words(session, inquiry_id)
    mine = _tokens(text, drop)
    norm = normalise_memory_text(text)
    scored: list[tuple[float, Memory]] = []
    for memory in session.scalars(query.order_by(Memory.id)):
        if memory.id == exclude:
            continue
        theirs = _tokens(memory.text, drop)
        shared = mine & theirs
        ratio = difflib.SequenceMatcher(
            None, norm, normalise_memory_text(memory.text), autojunk=False
        ).ratio()
        if not shared and ratio < 0.6:
            continue
        overlap = len(shared) / max(1, len(mine | theirs))
        scored.append((max(overlap, ratio), memory))
    scored.sort(key=lambda pair: (-pair[0], pair[1].id))
    return [memory for _score, memory in scored[:MAX_CANDIDATES]]


class DuplicateJudge:
    """The one thing of the model a memory write may use: ask whether a new memory repeats one
    of a few shown memories (tier 1, prompt ``memory_duplicate``). Nothing else of the client
    is reachable through it — the assistant's tools hold this, not the client."""

    def __init__(self, llm: ModelClient | None) -> None:
        self._llm = llm

    @property
    def available(self) -> bool:
        return self._llm is not None and bool(getattr(self._llm, "available", False))

    async def same_as(self, text: str, candidates: list[tuple[int, str]]) -> int | None:
        """The id among ``candidates`` that says what ``text`` says (the model's word, checked),
        or ``None``. Raises InquiryBridgeError when the model cannot answer."""
        if self._llm is None or not self.available:
            raise InquiryBridgeError("no AI endpoint: the cheap check decides")
        shown = "\n".join(
            json.dumps({"id": i, "text": t}, ensure_ascii=False) for i, t in candidates
        )
        answer = await self._llm.structured(
            tier=1,
            purpose="memory_duplicate",
            prompt="memory_duplicate",
            variables={"new": json.dumps(text, ensure_ascii=False), "memories": shown},
            schema=DuplicateJudgement,
        )
        if answer.same_as is None:
            return None
        if answer.same_as not in {i for i, _t in candidates}:
            raise InquiryBridgeError(f"the model named memory {answer.same_as}, not shown to it")
        return int(answer.same_as)


def judge_of(llm: ModelClient | DuplicateJudge | None) -> DuplicateJudge:
    """A judge over ``llm`` (itself when it is one already; ``None`` judges nothing)."""
    return llm if isinstance(llm, DuplicateJudge) else DuplicateJudge(llm)


async def find_duplicate(
    services: Services, llm: ModelClient | DuplicateJudge | None, text: str, inquiry_id: int | None
) -> int | None:
    """The older memory ``text`` repeats, or ``None``: the model judges the plausible pairs;
    the cheap check when it cannot."""
    candidates = await services.store.read(
        lambda s: [(m.id, m.text) for m in plausible_pairs(s, text, inquiry_id)]
    )
    if not candidates:
        return None
    norm = normalise_memory_text(text)
    for memory_id, known in candidates:
        if normalise_memory_text(known) == norm:
            return memory_id  # the same words: no need to ask
    try:
        return await judge_of(llm).same_as(text, candidates)
    except InquiryBridgeError as exc:
        log.info("duplicate check by the cheap rule (%s)", exc)
    for memory_id, known in candidates:
        if is_duplicate_memory(text, [known]):
            return memory_id
    return None


class _Repeat(TypedDict):
    """Who said a memory again, and where: merged into the older memory (and its audit)."""

    source: str
    channel: str | None
    proposal: bool
    inquiry_id: int | None
    expires_at: datetime | None


def _merge(
    session: Session, old_id: int, text: str, who: _Repeat, now: datetime
) -> tuple[int, str, int | None]:
    memory = session.get(Memory, old_id)
    if memory is None:
        raise InquiryBridgeError(f"记忆 {old_id} 不存在")
    memory.seen_count = (memory.seen_count or 1) + 1
    memory.last_seen_at = memory.updated_at = now
    if memory.inquiry_id is None and who.get("inquiry_id") is not None:
        memory.inquiry_id = who["inquiry_id"]
    later = who.get("expires_at")
    if memory.expires_at is not None and later is not None and later > memory.expires_at:
        memory.expires_at = later  # the event moved: the memory lasts to the new day
    if memory.status == "proposed" and not who["proposal"]:
        memory.status, memory.confidence = "active", "high"  # he said it himself now
    detail = {k: v for k, v in who.items() if k in {"source", "channel", "proposal"}}
    session.add(
        AuditEntry(
            entity="memory", entity_id=memory.id, action="memory_merged",
            detail={"text": text, **detail}, actor=str(who["source"]), at=now,
        )
    )  # fmt: skip
    return memory.id, memory.status, memory.inquiry_id


async def remember_once(
    services: Services,
    llm: ModelClient | DuplicateJudge | None,
    candidate: Candidate,
    *,
    source: str,
    proposal: bool,
    channel: str | None = None,
    supersedes: int | None = None,
    inquiry_id: int | None = None,
) -> SaveResult:
    """Save ``candidate`` unless an older memory says it; then that one is merged and counted.

    The customer is resolved (``inquiry_id`` when the caller knows it, else from the words and
    the model's proposal, checked) and the expiry computed (the words' date, or the model's
    proposal verified) before the duplicate check, so the check compares like with like."""
    text = candidate.text.strip()
    if candidate.kind not in MEMORY_KINDS or not text:
        raise InquiryBridgeError(f"不能记住：{candidate.kind!r} {text!r}")
    if inquiry_id is None and candidate.kind in LINKED_KINDS:
        inquiry_id = await services.store.read(
            lambda s: resolve_customer(
                s, text, customer_hint=candidate.customer, inquiry_hint=candidate.inquiry_id
            )
        )
    day = verified_expiry(text, candidate.expires_on, today_in_sydney(services.clock.now()))
    expires_at = expires_at_for(day)
    duplicate = None
    if supersedes is None:  # replacing one on purpose is not repeating it
        duplicate = await find_duplicate(services, llm, text, inquiry_id)
    if duplicate is None:
        memory_id, status = await tasks.io(  # the write waits off the loop
            save_memory, services, candidate.kind, text, source=source, supersedes=supersedes,
            proposal=proposal, inquiry_id=inquiry_id, expires_at=expires_at, channel=channel,
        )  # fmt: skip
        return SaveResult(memory_id, status, merged=False)
    now = naive_utc(services.clock.now())
    who: _Repeat = {
        "source": source, "channel": channel, "proposal": proposal,
        "inquiry_id": inquiry_id, "expires_at": expires_at,
    }  # fmt: skip
    memory_id, status, linked = await services.store.run(
        lambda s: _merge(s, duplicate, text, who, now)
    )
    services.bus.publish(NoteAdded(note_id=memory_id, inquiry_id=linked))
    return SaveResult(memory_id, status, merged=True)


async def propose_memories(
    services: Services,
    llm: ModelClient | DuplicateJudge | None,
    candidates: list[Candidate],
    *,
    source: str = "agent",
    channel: str | None = None,
) -> list[int]:
    """Save each candidate as a proposal unless a memory (or an earlier candidate) already says
    it — then that one is counted. Returns the new proposals' ids."""
    saved: list[int] = []
    for candidate in candidates:
        if candidate.kind not in MEMORY_KINDS or not candidate.text.strip():
            continue
        result = await remember_once(
            services, llm, candidate, source=source, proposal=True, channel=channel
        )
        if not result.merged:
            saved.append(result.memory_id)
    return saved
