"""Batch drafting: one Chinese instruction, a CSV of contacts, one draft per contact.

A deterministic workflow, not the assistant: Python reads and checks the CSV, drops duplicates
and anyone mailed in the last ``drafts.recent_contact_days`` days, then makes one tier-2 call per
remaining contact — concurrently, bounded by the LLM client's ``llm.concurrency`` semaphore, so
fifty contacts take a few model latencies rather than fifty. Every draft lands in the approval queue; nothing is sent until the owner
approves each one, and the sender paces approved ones to Exchange's 30 a minute. The address of
each email is the CSV's — no email address ever comes from model output.

Every row ends with exactly one outcome (``drafted``, ``skipped`` with a reason, or ``error``
with a reason), so a bad row costs that row only; the report lists rows in CSV order whatever
order the model answers in.
"""

from __future__ import annotations

import asyncio
import csv
import io
import logging
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from core.drafts.draft_composer import DraftComposer
from core.drafts.reader import DraftReader
from core.errors import BadFile, InquiryBridgeError
from core.text.email_address import is_email_address

log = logging.getLogger(__name__)

MAX_ROWS = 500
EMAIL_HEADERS = ("email", "e-mail", "email address", "邮箱", "电子邮件", "邮件")
NAME_HEADERS = ("name", "contact", "contact name", "full name", "姓名", "名字", "联系人")


@dataclass(frozen=True)
class RowOutcome:
    row: int  # 1-based line number in the file (header = 1)
    email: str
    outcome: str  # drafted | skipped | error
    reason: str = ""
    draft_id: int | None = None


@dataclass
class BatchReport:
    batch_id: str
    rows: list[RowOutcome] = field(default_factory=list)

    @property
    def drafted(self) -> list[RowOutcome]:
        return [r for r in self.rows if r.outcome == "drafted"]

    @property
    def skipped(self) -> list[RowOutcome]:
        return [r for r in self.rows if r.outcome == "skipped"]

    @property
    def errors(self) -> list[RowOutcome]:
        return [r for r in self.rows if r.outcome == "error"]

    def summary_zh(self) -> str:
        return f"已起草 {len(self.drafted)} 封（待审批），跳过 {len(self.skipped)} 行，出错 {len(self.errors)} 行"


@dataclass(frozen=True)
class Contact:
    row: int
    fields: dict[str, str]

    @property
    def email(self) -> str:
        return self.fields["email"]


class BatchError(InquiryBridgeError):
    code = "bad_input"


def _canonical(header: str) -> str:
    key = header.strip().lstrip("\ufeff").strip().lower()
    if key in EMAIL_HEADERS:
        return "email"
    if key in NAME_HEADERS:
        return "name"
    return key.replace(" ", "_")


def parse_contacts(text: str) -> tuple[list[Contact], list[RowOutcome]]:
    """Contacts from CSV text, plus a per-row error for every row that cannot be used.

    Needs an ``email`` column (English or Chinese header); ``name`` and any other columns pass
    through to the model as data about the contact.
    """
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect)
    try:
        header = next(reader)
    except StopIteration:
        raise BatchError("CSV 文件是空的 / the CSV file is empty") from None
    columns = [_canonical(h) for h in header]
    if "email" not in columns:
        raise BatchError(
            f"CSV 缺少 email 列（表头：{', '.join(header)}） / the CSV has no email column "
            f"(header: {', '.join(header)})"
        )
    contacts: list[Contact] = []
    errors: list[RowOutcome] = []
    for values in reader:
        line = reader.line_num
        if not any(v.strip() for v in values):
            continue  # blank line
        if len(contacts) + len(errors) >= MAX_ROWS:
            errors.append(RowOutcome(line, "", "error", f"超过 {MAX_ROWS} 行上限，未处理"))
            continue
        if len(values) > len(columns) and any(v.strip() for v in values[len(columns) :]):
            errors.append(
                RowOutcome(
                    line,
                    "",
                    "error",
                    f"第 {line} 行的列数（{len(values)}）多于表头（{len(columns)}）",
                )
            )
            continue
        row = {
            columns[i]: (values[i].strip() if i < len(values) else "") for i in range(len(columns))
        }
        email = row.get("email", "").strip().strip("<>").lower()
        if not email:
            errors.append(RowOutcome(line, "", "error", f"第 {line} 行没有邮箱地址"))
            continue
        if not is_email_address(email):
            errors.append(RowOutcome(line, email, "error", f"第 {line} 行的邮箱地址无效：{email}"))
            continue
        row["email"] = email
        contacts.append(Contact(line, {k: v for k, v in row.items() if k}))
    return contacts, errors


class BatchDrafter:
    """Runs one batch: parse, dedup, skip recent contacts, draft each remaining contact."""

    def __init__(self, composer: DraftComposer, reader: DraftReader) -> None:
        self.composer = composer  # writes drafts; cannot approve or send them
        self.reader = reader

    async def run_file(self, path: Path, instruction_zh: str, *, actor: str) -> BatchReport:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise BadFile(f"无法读取 {path}：{exc.strerror or exc} / cannot read {path}") from exc
        for encoding in ("utf-8-sig", "gb18030"):
            try:
                text = raw.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        else:  # pragma: no cover - gb18030 decodes any byte string
            raise BatchError(f"{path} 的编码无法识别 / the text encoding of {path} is unknown")
        return await self.run(text, instruction_zh, actor=actor)

    async def run(
        self, csv_text: str, instruction_zh: str, *, actor: str, of_record: str | None = None
    ) -> BatchReport:
        """One draft per usable row; ``of_record``: the owner's words when ``instruction_zh``
        is the assistant's request (``DraftComposer.compose``)."""
        if not (instruction_zh or "").strip():
            raise BatchError(
                "请写下群发邮件的要点（中文即可） / write what the mailing should say "
                "(Chinese is fine)"
            )
        contacts, errors = parse_contacts(csv_text)
        report = BatchReport(batch_id=uuid.uuid4().hex[:12])
        outcomes: list[RowOutcome] = list(errors)
        seen: dict[str, int] = {}
        days = self.reader.recent_contact_days()
        todo: list[Contact] = []
        for contact in contacts:
            if contact.email in seen:
                outcomes.append(
                    RowOutcome(
                        contact.row, contact.email, "skipped", f"与第 {seen[contact.email]} 行重复"
                    )
                )
                continue
            seen[contact.email] = contact.row
            recent = await self.reader.recent_contact(contact.email, days)
            if recent:
                last = recent[0]
                outcomes.append(
                    RowOutcome(
                        contact.row,
                        contact.email,
                        "skipped",
                        f"{days} 天内已发过邮件（{last.at:%Y-%m-%d}「{last.subject}」）",
                    )
                )
                continue
            todo.append(contact)

        async def draft_one(contact: Contact) -> RowOutcome:
            """One call per contact; a failure costs that row only."""
            try:
                draft_id = await self.composer.compose_for_contact(
                    contact.fields,
                    instruction_zh,
                    actor=actor,
                    batch_id=report.batch_id,
                    of_record=of_record,
                )
            except InquiryBridgeError as exc:
                return RowOutcome(contact.row, contact.email, "error", exc.user_message("zh_CN"))
            except Exception as exc:  # an unexpected bug must not lose the other rows
                log.exception("batch row %s failed", contact.row)
                return RowOutcome(contact.row, contact.email, "error", f"内部错误：{exc}")
            return RowOutcome(contact.row, contact.email, "drafted", "", draft_id)

        # concurrent; the LLM client's semaphore bounds how many calls are in flight
        outcomes += await asyncio.gather(*(draft_one(c) for c in todo))
        report.rows = sorted(outcomes, key=lambda r: r.row)
        return report
