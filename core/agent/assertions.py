"""The assertion guard: what the assistant says it did is checked against the ledgers first.

Why: a model that has just drafted a reply will happily tell the owner "好的，邮件已发送给客户"
while the draft waits in 待审批 and nothing left the mailbox. The owner acts on what he reads
(he does not chase a customer who, he thinks, has the quote), so a false "sent" costs a customer.

Every channel that shows assistant text to the owner (CLI ``ask``, the desktop panel, Telegram)
calls ``guard_answer`` before showing it. It finds *assertions about actions* — sent, approved,
scheduled, moved (a stage), saved, deleted — in English and Chinese (已发送, 发出去了, 已批准,
"sent", "approved"…), skipping negated or conditional ones ("未发送", "will be sent once you
approve"), and compares each with the ledgers: ``draft_events`` and drafts' status, ``stage_events``,
``memories``, ``audit_log`` rows and confirmed appointments written during this turn
(``Watermark`` marks where the turn began), plus the drafts the turn touched or named. An assertion the ledgers do not back is replaced,
sentence and all, by the truth ("更正：邮件未发送。草稿 #3 已生成，等待您批准，未发送。") and recorded
as an ``audit_log`` row (``entity="assistant"``, ``action="false_claim"``).

Words: an *assertion* is what the model says it did; a *claim* is the store's compare-and-set
(``core.db.claims``, the send claim). The audit action ``false_claim`` and its ``claim`` key
keep their stored names, so rows written before the rename still read the same.

Plain code, no model: the guard must be cheaper and more reliable than the thing it checks.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core import tasks
from core.agent.assertion_phrases import LANGUAGES, Language, answer_language, readable
from core.clock import naive_utc
from core.db.models import AppState, AuditEntry, Draft, DraftEvent, Memory, StageEvent
from core.text.reading import reading_form

if TYPE_CHECKING:
    from sqlalchemy.orm import InstrumentedAttribute

    from core.services import Services

__all__ = [
    "Assertion",
    "Correction",
    "GuardResult",
    "TurnFacts",
    "Watermark",
    "find_assertions",
    "guard_answer",
    "guard_text",
    "turn_facts",
    "watermark",
]

APPOINTMENT_PREFIX = "appointment.event."
KINDS = ("sent", "approved", "scheduled", "moved", "saved", "deleted")

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")  # Chinese, or Japanese kana
_CLAUSE = re.compile(r"[^。！？!?\n；;]+[。！？!?；;]*|\n")
# English sentences end at ". " too (not inside "1.5" or "e.g.")
_EN_SENTENCE = re.compile(r"[^.!?\n。！？]+(?:[.!?。！？]+(?=\s|$)|$)|\n")

# "客户已经把尺寸发给我们了", "she sent us the plans": mail that came in, not a send of ours
_INBOUND = re.compile(
    r"发给(?:我们|我司|我|您)|发来|\b(?:sent|emailed|mailed)\s+(?:us|me|in)\b", re.I
)


@dataclass(frozen=True)
class Assertion:
    kind: str  # sent | approved | scheduled | moved | saved | deleted
    phrase: str  # the words that make the assertion
    sentence: str  # the whole sentence it sits in (what a correction replaces)
    start: int  # where the sentence starts in the answer
    end: int


@dataclass(frozen=True)
class Watermark:
    """The ledgers' highest ids when a turn began: rows above them were written by the turn."""

    draft_event: int = 0
    stage_event: int = 0
    memory: int = 0
    audit: int = 0
    appointments: frozenset[str] = frozenset()  # confirmed Outlook appointments (app_state keys)


@dataclass
class TurnFacts:
    """What the ledgers say about this turn and the drafts it touched or named."""

    drafts: dict[int, str] = field(default_factory=dict)  # id -> status (touched or named)
    created: list[int] = field(default_factory=list)  # drafts created in the turn
    sent_in_turn: list[int] = field(default_factory=list)
    approved_in_turn: list[int] = field(default_factory=list)
    stage_moves: list[tuple[int, str | None, str]] = field(default_factory=list)
    memories_active: list[int] = field(default_factory=list)  # saved (active) in the turn
    memories_proposed: list[int] = field(default_factory=list)  # saved as proposals
    notes_saved: int = 0
    retired: int = 0  # memories retired / things deleted in the turn
    appointments_made: int = 0  # Outlook appointments confirmed in the turn

    def backs(self, kind: str) -> bool:
        statuses = set(self.drafts.values())
        if kind == "sent":
            return bool(self.sent_in_turn) or "sent" in statuses
        if kind == "approved":
            return bool(self.approved_in_turn) or bool(statuses & {"approved", "sending", "sent"})
        if kind == "scheduled":  # an appointment confirmed, or an approved draft awaiting send
            return bool(self.appointments_made) or bool(statuses & {"approved", "sending"})
        if kind == "moved":
            return bool(self.stage_moves)
        if kind == "saved":
            return bool(self.memories_active or self.notes_saved or self.created)
        if kind == "deleted":
            return bool(self.retired)
        return False


@dataclass(frozen=True)
class Correction:
    kind: str
    phrase: str
    sentence: str
    truth: str

    def as_dict(self) -> dict[str, str]:
        return {
            "kind": self.kind,
            "claim": self.phrase,
            "sentence": self.sentence,
            "truth": self.truth,
        }


@dataclass
class GuardResult:
    text: str  # what the owner may read
    original: str
    corrections: list[Correction] = field(default_factory=list)
    ledger_note: str = ""  # the ledger's truth, shown beside an answer the guard cannot read


# ----------------------------------------------------------------------------- finding assertions


def _sentences(text: str) -> Iterable[tuple[int, int]]:
    pattern = _CLAUSE if _CJK.search(text) else _EN_SENTENCE
    for m in pattern.finditer(text):
        if m.group(0).strip():
            yield m.start(), m.end()


def find_assertions(text: str) -> list[Assertion]:
    """Affirmative assertions about actions, one per kind and sentence, in reading order.

    Matched in the reading form (``core.text.reading``: 已發送, 已\u200b发送, &#21457;送, ѕеnt all
    read 已发送 / sent) in every language of ``assertion_phrases``; an assertion's sentence and span are
    the original text's, so a correction replaces what the owner would have read."""
    reading = reading_form(text or "")
    norm = reading.text
    assertions: list[Assertion] = []
    for start, end in _sentences(norm):
        sentence = norm[start:end]
        seen: set[str] = set()
        languages = [lang for lang in LANGUAGES if lang.any_assertion.search(sentence)]
        for kind in KINDS:
            for language in languages:
                m = _affirmative(language, kind, sentence)
                if m is None or kind in seen:
                    continue
                seen.add(kind)
                o_start, o_end = reading.span(start, end)
                original = text[o_start:o_end]
                assertions.append(Assertion(kind, m.group(0), original.strip(), o_start, o_end))
    return assertions


def _affirmative(language: Language, kind: str, sentence: str) -> re.Match[str] | None:
    """The first match of ``kind`` in ``sentence`` that is neither negated nor conditional."""
    for m in language.patterns[kind].finditer(sentence):
        before = sentence[max(0, m.start() - language.window) : m.start()]
        if language.negation.search(before):
            continue
        if language.after is not None and language.after.match(sentence[m.end() :]):
            continue
        if kind == "sent" and _INBOUND.search(m.group(0) + sentence[m.end() :][:8]):
            continue  # the customer sent us something: not our action
        return m
    return None


# ----------------------------------------------------------------------------- the ledgers


def watermark(session: Session) -> Watermark:
    def top(column: InstrumentedAttribute[int]) -> int:
        return int(session.scalar(select(func.max(column))) or 0)

    return Watermark(
        top(DraftEvent.id),
        top(StageEvent.id),
        top(Memory.id),
        top(AuditEntry.id),
        _appointment_keys(session),
    )


def _appointment_keys(session: Session) -> frozenset[str]:
    """Confirmed measuring appointments (``core.rhythm.appointments`` keeps one key each)."""
    return frozenset(
        session.scalars(select(AppState.key).where(AppState.key.like(f"{APPOINTMENT_PREFIX}%")))
    )


_DRAFT_REF = re.compile(
    r"(?:草稿|draft|drafts?_?id)\s*[#＃:：=\"']*\s*(\d{1,9})|[#＃](\d{1,9})", re.IGNORECASE
)


def named_drafts(*texts: str) -> set[int]:
    """Draft ids an answer or a tool result names ("草稿 #12", "draft_id": 12)."""
    ids: set[int] = set()
    for text in texts:
        for m in _DRAFT_REF.finditer(text or ""):
            ids.add(int(m.group(1) or m.group(2)))
    return ids


def turn_facts(session: Session, mark: Watermark, named: Iterable[int] = ()) -> TurnFacts:
    facts = TurnFacts()
    events = session.scalars(select(DraftEvent).where(DraftEvent.id > mark.draft_event)).all()
    touched = set(named)
    for e in events:
        touched.add(e.draft_id)
        if e.from_status is None and e.draft_id not in facts.created:
            facts.created.append(e.draft_id)
        if e.to_status == "sent":
            facts.sent_in_turn.append(e.draft_id)
        if e.to_status == "approved":
            facts.approved_in_turn.append(e.draft_id)
    if touched:
        rows = session.execute(select(Draft.id, Draft.status).where(Draft.id.in_(touched))).all()
        facts.drafts = {int(i): str(s) for i, s in rows}
    facts.stage_moves = [
        (e.inquiry_id, e.from_stage, e.to_stage)
        for e in session.scalars(select(StageEvent).where(StageEvent.id > mark.stage_event))
        if e.from_stage != e.to_stage
    ]
    for m in session.scalars(select(Memory).where(Memory.id > mark.memory)):
        if m.status == "proposed":  # a customer note the assistant may only propose, too
            facts.memories_proposed.append(m.id)
        elif m.kind == "customer_note":
            facts.notes_saved += 1
        else:
            facts.memories_active.append(m.id)
    facts.appointments_made = len(_appointment_keys(session) - mark.appointments)
    for a in session.scalars(select(AuditEntry).where(AuditEntry.id > mark.audit)):
        if a.action in {"retire", "delete", "memory_retired"}:
            facts.retired += 1
        elif a.action == "memory_merged" and a.entity_id is not None:
            # said again: the older memory holds it (core.agent.memory_dedupe) — remembered
            merged = session.get(Memory, a.entity_id)
            if merged is not None and merged.status == "active":
                facts.memories_active.append(merged.id)
    return facts


# ----------------------------------------------------------------------------- the truth


def _pending(facts: TurnFacts) -> list[int]:
    return [i for i, s in sorted(facts.drafts.items()) if s in {"draft", "pending_approval"}]


def truth_for(kind: str, facts: TurnFacts, zh: bool) -> str:
    """The sentence that replaces a false assertion of ``kind``, in the answer's language."""
    pending = _pending(facts)
    ids_zh = "、".join(f"#{i}" for i in pending)
    ids_en = ", ".join(f"#{i}" for i in pending)
    if kind in {"sent", "approved", "scheduled"}:
        if pending:
            if zh:
                return f"更正：邮件未发送。草稿 {ids_zh} 已生成，等待您批准，未发送。"
            return f"Correction: nothing was sent. Draft {ids_en} is waiting for your approval — NOT sent."
        what_zh = {"sent": "没有任何邮件被发送", "approved": "没有任何草稿被批准",
                   "scheduled": "没有安排任何发送或预约"}[kind]  # fmt: skip
        what_en = {"sent": "no email was sent", "approved": "no draft was approved",
                   "scheduled": "nothing was scheduled"}[kind]  # fmt: skip
        if kind == "approved":
            return (
                f"更正：{what_zh}（只有您本人可以批准）。"
                if zh
                else f"Correction: {what_en} (only you can approve)."
            )
        return f"更正：{what_zh}。" if zh else f"Correction: {what_en}."
    if kind == "moved":
        return "更正：询盘阶段没有改变。" if zh else "Correction: no inquiry changed stage."
    if kind == "saved":
        if facts.memories_proposed:
            return (
                "更正：这条记忆只是待您确认的建议，尚未生效。"
                if zh
                else "Correction: this is only a proposed memory; it takes effect once you "
                "confirm it."
            )
        return "更正：没有保存任何内容。" if zh else "Correction: nothing was saved."
    return "更正：没有删除任何内容。" if zh else "Correction: nothing was deleted."


def guard_text(text: str, facts: TurnFacts) -> GuardResult:
    """Replace every sentence holding an assertion the ledgers do not back (pure: no I/O). An answer
    the guard cannot read (``assertion_phrases.readable``) gets the ledger's truth beside it."""
    result = GuardResult(text=text, original=text)
    norm = reading_form(text).text
    if not readable(norm):
        result.ledger_note = ledger_note(facts)
        result.text = f"{text.rstrip()}\n\n{result.ledger_note}"
    false_assertions = [c for c in find_assertions(text) if not facts.backs(c.kind)]
    if not false_assertions:
        return result
    zh = answer_language(norm) != "en"  # the owner reads Chinese first
    by_sentence: dict[tuple[int, int], list[Assertion]] = {}
    for assertion in false_assertions:
        by_sentence.setdefault((assertion.start, assertion.end), []).append(assertion)
    pieces: list[str] = []
    cursor = 0
    said: set[str] = set()  # a truth is told once, however many sentences made the assertion
    for (start, end), assertions in sorted(by_sentence.items()):
        truths = [
            t
            for t in dict.fromkeys(truth_for(c.kind, facts, zh) for c in assertions)
            if t not in said
        ]
        said.update(truths)
        original = text[start:end]
        trailing = original[len(original.rstrip()) :] if truths else ""
        pieces.append(text[cursor:start])
        pieces.append(("" if zh else " ").join(truths) + trailing)
        cursor = end
        for assertion, truth in zip(
            assertions, [truth_for(c.kind, facts, zh) for c in assertions], strict=True
        ):
            result.corrections.append(
                Correction(assertion.kind, assertion.phrase, assertion.sentence, truth)
            )
    pieces.append(text[cursor:])
    result.text = "".join(pieces).strip()
    if result.ledger_note:
        result.text = f"{result.text}\n\n{result.ledger_note}"
    return result


def ledger_note(facts: TurnFacts) -> str:
    """What the ledgers say about the turn, in Chinese, for an answer the guard cannot read:
    "（系统记录：草稿 #3 未发送，等待您审批）"."""
    parts: list[str] = []
    for draft_id, status in sorted(facts.drafts.items()):
        parts.append(f"草稿 #{draft_id} " + _STATUS_ZH.get(status, status))
    for inquiry_id, _before, after in facts.stage_moves:
        parts.append(f"询盘 #{inquiry_id} 阶段改为 {after}")
    if facts.memories_proposed:
        parts.append("记忆只是待您确认的建议，尚未生效")
    if not parts:
        parts.append("本轮没有发送、批准或更改任何内容")
    return "（系统记录：" + "；".join(parts) + "）"


_STATUS_ZH = {
    "draft": "未发送，等待您审批",
    "pending_approval": "未发送，等待您审批",
    "approved": "已批准，尚未发送",
    "sending": "正在发送",
    "sent": "已发送",
    "rejected": "已放弃，未发送",
    "failed": "发送失败，未发送",
    "superseded": "已被新草稿取代，未发送",
}


_warmed = threading.Event()


def warm_guard() -> None:
    """Load the guard's converter (OpenCC) and compile its phrase tables on a daemon thread,
    once: the first turn's answer then costs the UI loop nothing extra."""
    if _warmed.is_set():
        return
    _warmed.set()
    if threading.current_thread() is not threading.main_thread():
        find_assertions("已發送。Sent.")  # already off the UI loop
        return
    tasks.daemon(lambda: find_assertions("已發送。Sent."), "assertion-guard-warm")


async def guard_answer(
    services: Services,
    text: str,
    mark: Watermark,
    *,
    channel: str,
    context: Iterable[str] = (),
) -> GuardResult:
    """Check an assistant answer against the ledgers before the owner reads it; record every
    false assertion (``audit_log``: entity ``assistant``, action ``false_claim``).

    ``mark``: ``watermark()`` taken when the turn began. ``context``: the turn's tool results,
    whose draft ids count as drafts the answer may be talking about."""
    named = named_drafts(text, *context)
    facts = await services.store.read(lambda s: turn_facts(s, mark, named))
    result = await tasks.io(guard_text, text, facts)  # a long answer: off the UI loop
    if result.corrections:
        now = naive_utc(services.clock.now())

        def record(session: Session) -> None:
            for c in result.corrections:
                session.add(
                    AuditEntry(
                        entity="assistant",
                        entity_id=None,
                        action="false_claim",
                        detail={**c.as_dict(), "channel": channel},
                        actor="agent",
                        at=now,
                    )
                )

        await services.store.run(record)
    return result
