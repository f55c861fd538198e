"""What ``repair`` did, item by item, in the owner's words (Chinese, then English).

One object, two readers: the CLI prints ``lines()``; the start-up repair dialog shows the same
lines. Each send the journal settled, each piece of owner work it could not find in the restored
database, and the counts of what the backup brought back are named separately, so "恢复备份 …
重新导入邮件 2 封" is never all he is told.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.db.owner_journal import OwnerItem
from core.drafts.send_facts import SettledSend

SEND_STEPS = frozenset({"sending", "sent"})  # a draft's moves that mean an email may have left
RECENT_SHOWN = 10  # restored owner items listed one by one (the newest); the rest are counted


@dataclass
class RepairReport:
    backup: str | None = None  # the backup file put in place; None: the database was fine
    no_backup: bool = False  # damaged and no good backup: a new database, rebuilt from raw mail
    aside: str | None = None  # the damaged file, kept under this name
    counts: dict[str, int] = field(default_factory=dict)  # what the store holds after repair
    reingested: int = 0
    sends: list[SettledSend] = field(default_factory=list)
    sends_missing: list[SettledSend] = field(default_factory=list)
    sends_checked: list[tuple[str, str]] = field(default_factory=list)  # mailbox checks
    owner_found: list[OwnerItem] = field(default_factory=list)
    owner_missing: list[OwnerItem] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """Nothing the journals know of is missing."""
        return not self.owner_missing and not self.sends_missing

    def _headline(self) -> tuple[str, str]:
        if self.no_backup:
            zh = "修复完成：没有可用的备份，已新建数据库"
            en = "repaired: no good backup, a new database was made"
        elif self.backup:
            zh, en = f"修复完成：恢复备份 {self.backup}", f"repaired: backup {self.backup} restored"
        else:
            zh, en = (
                "修复完成：数据库完好，未恢复备份",
                "repaired: the database was fine, no backup restored",
            )
        if self.aside:
            zh += f"，损坏的文件已保存为 {self.aside}"
            en += f"; the damaged file was kept as {self.aside}"
        zh += f"，重新导入邮件 {self.reingested} 封"
        en += f", {self.reingested} messages re-ingested"
        return zh, en

    def pairs(self) -> list[tuple[str, str]]:
        """The headline, then one (Chinese, English) pair per fact."""
        out = [self._headline()]
        c = self.counts
        if c:
            out.append(
                (
                    f"数据库现有：询盘 {c.get('inquiries', 0)} 个，邮件 {c.get('messages', 0)} 封，"
                    f"草稿 {c.get('drafts', 0)} 份，记忆/备注 {c.get('memories', 0)} 条",
                    f"now in the database: {c.get('inquiries', 0)} inquiries, "
                    f"{c.get('messages', 0)} messages, {c.get('drafts', 0)} drafts, "
                    f"{c.get('memories', 0)} memories/notes",
                )
            )
        out.extend((f"已发送（依据发送记录）：{s.line_zh()}", s.line_en()) for s in self.sends)
        out.extend(self.sends_checked)
        total = len(self.owner_found) + len(self.owner_missing)
        if total:
            out.append(
                (
                    f"您的操作共 {total} 项，已恢复 {len(self.owner_found)} 项，"
                    f"无法恢复 {len(self.owner_missing)} 项",
                    f"your work: {total} items, {len(self.owner_found)} restored, "
                    f"{len(self.owner_missing)} not restored",
                )
            )
        for item in self.owner_found[-RECENT_SHOWN:]:
            out.append((f"已恢复：{item.line_zh()}", f"restored: {item.line_en()}"))
        for s in self.sends_missing:
            out.append((f"无法恢复：{s.line_zh()}", f"not restored: {s.line_en()}"))
        for item in self.owner_missing:
            if item.kind == "draft" and item.key.get("to_status") in SEND_STEPS:
                # never "do it again" for a send: the customer may already have the email
                out.append(
                    (
                        f"无法恢复：{item.line_zh()}，这封邮件可能已发出：请先在 Outlook 的"
                        "已发送邮件中核对，不要重复发送",
                        f"not restored: {item.line_en()}; this email may already have gone "
                        "out: check Sent Items in Outlook first, do not send it again",
                    )
                )
                continue
            out.append(
                (
                    f"无法恢复：{item.line_zh()}，请重新操作",
                    f"not restored: {item.line_en()}, please do it again",
                )
            )
        if total and self.complete:
            out.append(("没有丢失任何操作", "nothing was lost"))
        return out

    def lines(self, language: str | None = None) -> list[str]:
        """``中文 / English`` per line (the CLI), or one language (the desktop dialog)."""
        if language is None:
            return [f"{zh} / {en}" for zh, en in self.pairs()]
        chinese = language.startswith("zh")
        return [zh if chinese else en for zh, en in self.pairs()]

    def text(self, language: str | None = None) -> str:
        return "\n".join(self.lines(language))


__all__ = ["RepairReport"]
