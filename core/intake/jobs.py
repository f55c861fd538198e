"""The shapes a message takes on its way through intake, shared by every layer of the pipeline.

``Arrival`` (source → row) is what admission works on; ``Job`` (row → disposition) is what the
pump carries from admission through understanding to applying; ``Run`` is the in-flight state
of one pump; ``Understanding`` is what the model (or the rules) said; ``IngestReport`` is what a
run did. Nothing here talks to the store or the model.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.events import Event
from core.intake.records import StoredAttachment
from core.intake.worker_pool import WorkerPool
from core.mail.parse import ParsedMessage
from core.mail.source import RawMessage

if TYPE_CHECKING:
    from core.errors import LLMError
    from core.intake.classify import Classification
    from core.intake.escalation_opinion import Opinion
    from core.intake.extract import Extraction

PENDING = "pending"
OUTGOING = "skipped:outgoing"
REPLY_PREFIXES = ("re:", "re ", "aw:", "回复", "答复", "回覆")

# failures that mean "this file is not an email" (a CSV, a note, a photo renamed .eml)
NOT_MAIL = frozenset({"failed:no_sender", "failed:unparseable", "failed:parse_error"})

_WORDS: dict[str, tuple[str, str]] = {
    "new_inquiry": ("新询盘", "new inquiries"),
    "merged": ("并入已有询盘", "merged into an inquiry"),
    "not_inquiry": ("不是询盘", "not an inquiry"),
    "pending": ("等待重试", "waiting for a retry"),
    "skipped:outgoing": ("我们发出的邮件", "sent by us"),
    "failed:no_sender": ("不是邮件（没有发件人）", "not an email (no sender)"),
    "failed:unparseable": ("不是邮件（无法解析）", "not an email (unreadable)"),
    "failed:parse_error": ("不是邮件（无法解析）", "not an email (unreadable)"),
    "failed:raw_missing": ("原始邮件文件丢失", "raw mail file missing"),
    "failed:internal": ("处理出错（详见日志）", "failed (see the log)"),
    "failed:timeout": ("处理超时", "timed out"),
}


def disposition_words(disposition: str) -> tuple[str, str]:
    """A disposition as the owner reads it, (Chinese, English); a reason without words of its
    own keeps its key after the general word, so nothing is hidden."""
    if disposition in _WORDS:
        return _WORDS[disposition]
    kind, _, reason = disposition.partition(":")
    if kind == "skipped":
        return f"按规则跳过（{reason}）", f"skipped by rule ({reason})"
    if kind == "failed":
        return f"无法处理（{reason}）", f"failed ({reason})"
    return disposition, disposition


# What applying one message produced: (disposition, events to publish, new inquiry id),
# or None when another run finished that message meanwhile.
Outcome = tuple[str, list[Event], int | None] | None


@dataclass
class IngestReport:
    """What one run did: dispositions counted, inquiries created, messages touched."""

    counts: Counter[str] = field(default_factory=Counter)
    new_inquiry_ids: list[int] = field(default_factory=list)
    updated_inquiry_ids: list[int] = field(default_factory=list)
    message_pks: list[int] = field(default_factory=list)  # arrival order, known ones included
    already_known: int = 0
    known_pks: set[int] = field(default_factory=set)  # the already-known ones, by row
    retried: int = 0
    model_down: str | None = None  # why messages wait: the model could not be reached
    model_unusable: str | None = None  # why the rules filed messages: the model could not be used

    def note(self, pk: int, disposition: str) -> None:
        self.counts[disposition] += 1
        if pk not in self.message_pks:
            self.message_pks.append(pk)

    def extend(self, other: IngestReport) -> None:
        # a pending message this run already retried is not "already known" a second time when
        # the same file is met again (ingest retries first, then reads the folder)
        counted = other.known_pks & {pk for pk in self.message_pks if pk not in self.known_pks}
        self.counts.update(other.counts)
        self.new_inquiry_ids.extend(other.new_inquiry_ids)
        for iid in other.updated_inquiry_ids:
            if iid not in self.updated_inquiry_ids:
                self.updated_inquiry_ids.append(iid)
        for pk in other.message_pks:
            if pk not in self.message_pks:
                self.message_pks.append(pk)
        self.already_known += other.already_known - len(counted)
        self.known_pks |= other.known_pks
        self.retried += other.retried
        self.model_down = self.model_down or other.model_down
        self.model_unusable = self.model_unusable or other.model_unusable

    @property
    def processed(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> str:
        """One line for the CLI and logs (Chinese first), each disposition in words, never a raw
        key (``failed:no_sender 1`` told the owner nothing)."""
        shown = [(disposition_words(k), n) for k, n in sorted(self.counts.items())]
        rest = [(w, n) for w, n in shown if w != _WORDS["new_inquiry"]]
        zh_parts = "，".join(f"{zh} {n} 封" for (zh, _en), n in rest)
        en_parts = ", ".join(f"{en} {n}" for (_zh, en), n in rest)
        return (
            f"处理邮件 {self.processed} 封，新询盘 {len(self.new_inquiry_ids)} 个，"
            f"已存在 {self.already_known} 封"
            + (f"；其中{zh_parts}" if zh_parts else "")
            + f" / processed {self.processed}, "
            f"new inquiries {len(self.new_inquiry_ids)}, already known {self.already_known}"
            + (f"; {en_parts}" if en_parts else "")
            + self._why_waiting()
            + (
                f"；AI 模型无法使用，已按规则归档（请确认）：{self.model_unusable}"
                f" / the AI model could not be used; filed by the rules, please check"
                if self.model_unusable
                else ""
            )
        )

    @property
    def nothing_was_mail(self) -> bool:
        """Every message this run read was something other than an email (no sender, not
        MIME): the folder given to ``ingest`` held no mail at all."""
        return self.processed > 0 and all(k in NOT_MAIL for k in self.counts)

    def _why_waiting(self) -> str:
        """Why ``pending`` messages wait, when the reason is known: an unreachable model."""
        waiting = self.counts.get("pending", 0)
        if not waiting or not self.model_down:
            return ""
        return (
            f"；{waiting} 封等待 AI 服务，下次运行时重试：{self.model_down}"
            f" / {waiting} waiting for the AI service, retried on the next run"
        )


@dataclass
class Understanding:
    """The model's (or the rules') view of one message, or why there is none yet."""

    classification: Classification | None = None  # None until understood (and for failures)
    extraction: Extraction | None = None
    error_reason: str | None = None  # schema | unavailable | error
    error_detail: str = ""
    model_unusable: str = ""  # the rules answered: the model could not be used (error code)
    escalation: Opinion | None = (
        None  # the model's verified complaint opinion (escalation_opinion.Opinion)
    )


@dataclass(eq=False)
class Job:
    """One message between admission and merge."""

    pk: int
    message_id: str
    parsed: ParsedMessage
    outgoing: bool
    customer_email: str | None
    body_text: str
    thread_ids: list[str]
    conversation_id: str | None
    deps: list[Job] = field(default_factory=list)
    task: asyncio.Task[Understanding] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class Arrival:
    """One message between the source and its row: parsed, identified, then recorded."""

    raw: RawMessage
    parsed: ParsedMessage | None
    failure: str | None
    detail: str
    body_text: str
    message_id: str
    raw_path: str | None = None
    stored: list[StoredAttachment] = field(default_factory=list)
    outgoing: bool = False
    journalled: bool = False  # the app submitted this very message (``own_copy``)
    customer_email: str | None = None
    outcome: tuple[str, int, str] | None = None  # (inserted|known|raced, pk, disposition)
    same_as: Arrival | None = None  # an identical message earlier in the same chunk


@dataclass
class Run:
    """In-flight state of one pump: jobs by identity, for dependency and duplicate checks."""

    report: IngestReport
    by_message_id: dict[str, Job] = field(default_factory=dict)
    by_email: dict[str, Job] = field(default_factory=dict)
    by_conversation: dict[str, Job] = field(default_factory=dict)
    llm_down: LLMError | None = (
        None  # the first transient LLMError (LLMUnavailable): skip further calls
    )
    llm_unusable: LLMError | None = (
        None  # the LLMError that made the model unusable: the rules answer
    )
    llm_worked: bool = False  # at least one message was understood by the model
    # the run's worker process (parsing, offline rules); inline-only unless the pump sets one
    parser: WorkerPool = field(default_factory=lambda: WorkerPool(0))

    def register(self, job: Job) -> None:
        """Link ``job`` to the in-flight jobs it must follow, then make it findable itself."""
        deps = [self.by_message_id[m] for m in job.thread_ids if m in self.by_message_id]
        if job.customer_email and job.customer_email in self.by_email:
            deps.append(self.by_email[job.customer_email])
        if job.conversation_id and job.conversation_id in self.by_conversation:
            deps.append(self.by_conversation[job.conversation_id])
        job.deps = list(dict.fromkeys(deps))
        self.by_message_id[job.message_id] = job
        if job.customer_email and not job.outgoing:
            self.by_email[job.customer_email] = job
        if job.conversation_id:
            self.by_conversation[job.conversation_id] = job


def is_reply(job: Job) -> bool:
    subject = (job.parsed.subject or "").strip().lower()
    return bool(job.thread_ids) or subject.startswith(REPLY_PREFIXES)
