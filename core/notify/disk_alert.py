"""The owner's alert when mail waits for disk space (``MailWaiting``), in Chinese.

Why its own module: the tray balloon and the Telegram mirror show the same row
(``core.notify.outbox``), so the words are made once here; the figures are what the round's
spool budget measured (``core.mail.spool_budget.DiskShort``): how many mails wait, how much free
space the first of them needs and how much there was.
"""

from __future__ import annotations

STATE_KEY = "notify.disk_short.mail"  # app_state: the condition is open (told once)


def disk_size(size: int) -> str:
    """Bytes as the owner reads them on his disk's properties (decimal units, like Windows)."""
    if size >= 1_000_000_000:
        return f"{size / 1_000_000_000:.1f} GB"
    return f"{max(1, round(size / 1_000_000))} MB"


def disk_message(waiting: int, need_bytes: int, free_bytes: int) -> tuple[str, str]:
    """(title, Markdown body) of the alert: what waits, what to free, that it resumes itself."""
    missing = max(0, need_bytes - free_bytes)
    title = f"磁盘空间不足：{waiting} 封邮件等待下载"
    body = (
        f"数据文件夹所在的磁盘快满了，**{waiting} 封邮件**（含大附件）暂未下载，"
        "留在邮箱里等下一轮同步，不会丢失。\n\n"
        f"需要约 **{disk_size(need_bytes)}** 可用空间，现在只有 {disk_size(free_bytes)}；"
        f"请腾出至少 **{disk_size(missing)}**。\n\n"
        "腾出空间后会自动继续，无需重复操作。"
    )
    return title, body
