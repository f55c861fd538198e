"""Offscreen screenshots of the app's windows (``inquiry-bridge screenshot``).

``WINDOWS`` maps a window name to an async factory ``factory(ctx) -> QWidget``. The factory builds
the widget over the current data folder and awaits whatever it loads, so the picture shows real
data. ``ctx`` is the ``desktop.context.AppContext`` (the folder's ``App`` and its hub).
Other areas add their window here (the approval window is the drafting area's).

A picture never changes the folder it shows: ``rendering_copy`` copies what the windows read
(the database through SQLite's backup API over a read-only connection, settings, secrets file,
token cache, attachments, compiled catalogues) into a private temporary folder, and the command
renders over that copy. Whatever a window writes while it is drawn (the approval window's sample
draft in a folder without drafts, migrations, read markers) lands in the copy, which is deleted.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sqlite3
import tempfile
from collections.abc import Awaitable
from collections.abc import Callable
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from desktop.context import AppContext

Factory = Callable[["AppContext"], Awaitable[QWidget]]

# what the windows read, besides the database; raw mail, audio, logs, models and backups are not
_FILES = ("settings.toml", "secrets.bin", "msal_token_cache.bin")
_FOLDERS = ("attachments", "cache/i18n")
_DATABASE = "inquiry-bridge.sqlite3"
SETTINGS_PAGES = (
    "ai",
    "sync",
    "telegram",
    "voice",
    "general",
    "mailbox",
    "database",
)  # after the account page


@contextlib.contextmanager
def rendering_copy(home: Path) -> Iterator[Path]:
    """A private copy of data folder ``home`` to render over, removed afterwards.

    The database is copied through a read-only connection (it never checkpoints, so the original
    file is not written even when its WAL holds pages); a running app's writes are safe.
    """
    with tempfile.TemporaryDirectory(prefix="inquiry-bridge-shot-") as tmp:
        copy = Path(tmp) / home.name
        copy.mkdir()
        database = home / _DATABASE
        if database.exists():
            source = sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)
            target = sqlite3.connect(copy / _DATABASE)
            try:
                source.backup(target)
            finally:
                target.close()
                source.close()
        for name in _FILES:
            if (home / name).is_file():
                shutil.copy2(home / name, copy / name)
        for name in _FOLDERS:
            if (home / name).is_dir():
                shutil.copytree(home / name, copy / name)
        yield copy


async def _board(ctx: AppContext) -> QWidget:
    from desktop.main_window import MainWindow

    window = MainWindow(ctx)
    window.resize(1366, 768)  # the laptop screen the layouts must fit
    await window.board.ready()
    await window.pending.ready()  # its tab's count, read once the board's rows are in
    if window.board.model.rowCount() > 0:
        window.board.select_row(0)
        await window.board.detail.ready()
    return window


async def _detail(ctx: AppContext) -> QWidget:
    from core.app.types import BoardQuery
    from desktop.detail import InquiryDetailView

    view = InquiryDetailView(ctx)
    view.resize(900, 740)
    inquiries = ctx.app.inquiries
    rows = await inquiries.rows(BoardQuery(sort="last_contact"), limit=40)
    # the most telling inquiry: the one with the longest thread among recent ones
    best = None
    if rows:
        ids = [r.id for r in rows]
        counts = await inquiries.message_counts(ids)
        best = max(ids, key=lambda i: (counts.get(i, 0), -ids.index(i)))
    if best is not None:
        view.show_inquiry(best)
        await view.ready()
    return view


async def _settings(ctx: AppContext) -> QWidget:
    from desktop.settings_dialog import SettingsDialog

    dialog = SettingsDialog(ctx)
    dialog.resize(860, 620)
    return dialog


async def _wizard(ctx: AppContext) -> QWidget:
    from desktop.wizard import FirstRunWizard

    wizard = FirstRunWizard(ctx)
    wizard.resize(760, 560)
    return wizard


async def _approval(ctx: AppContext) -> QWidget:
    """The approval window over the newest pending draft (a demo draft in an empty folder)."""
    from desktop.approval.screenshot import make_approval_window

    return await make_approval_window(ctx)


async def _chat(ctx: AppContext) -> QWidget:
    """The main window at 1366×768 with the assistant's panel open on a scripted conversation."""
    from desktop.chat.screenshot import script_conversation
    from desktop.main_window import MainWindow

    window = await _board(ctx)
    assert isinstance(window, MainWindow)
    model = window.board.model
    rows = [row for r in range(min(3, model.rowCount())) if (row := model.row_at(r)) is not None]
    script_conversation(window.chat.panel, rows)
    window.chat.show()
    return window


def _settings_page(row: int) -> Factory:
    """The settings dialog opened on page ``row`` (AI, sync, Telegram, voice, general)."""

    async def factory(ctx: AppContext) -> QWidget:
        dialog = await _settings(ctx)
        dialog.nav.setCurrentRow(row)  # type: ignore[attr-defined]
        return dialog

    return factory


async def _briefing(ctx: AppContext) -> QWidget:
    from desktop.rhythm.briefing_window import BriefingWindow

    window = BriefingWindow(ctx.app)
    await window.reload()
    return window


async def _reminder(ctx: AppContext) -> QWidget:
    """The window a reminder's balloon opens, for the longest-waiting overdue job."""
    from desktop.rhythm.desk import ReminderDialog

    due = await ctx.app.rhythm.reminders()
    if not due:
        raise LookupError(
            "这个数据文件夹里现在没有到期的提醒 / no reminder is due in this data folder"
        )
    dialog = ReminderDialog(ctx.app, due[0].inquiry_id, "", "")
    await dialog.task
    return dialog


async def _memory(ctx: AppContext) -> QWidget:
    from desktop.chat.memory_page import MemoryDialog

    dialog = MemoryDialog(ctx)
    await dialog.loading
    return dialog


EXAMPLE_ITEMS = [
    {"product": "sliding_window", "description": "Sliding window, double glazed, installed",
     "width_mm": 1800, "height_mm": 1200, "qty": 3, "unit_price_ex_gst": "1250"},
    {"product": "flyscreen", "description": "Flyscreen", "width_mm": 900, "height_mm": 1200,
     "qty": 3, "unit_price_ex_gst": "85"},
]  # fmt: skip


async def _quote_editor(ctx: AppContext) -> QWidget:
    """The quote editor of the first inquiry with an email: its newest version, or an example."""
    from core.app.types import BoardQuery
    from desktop.detail.quote_editor import QuoteEditor

    rows = await ctx.app.inquiries.rows(BoardQuery(sort="last_contact"), limit=40)
    quoted = {q["inquiry_id"] for q in await ctx.app.quotes.rows()}
    emailed = [r.id for r in rows if r.customer_email]
    target = next((i for i in emailed if i in quoted), emailed[0] if emailed else None)
    if target is None:
        raise LookupError(
            "这个数据文件夹里没有带客户邮箱的询盘 / no inquiry with a customer email in this data folder"
        )
    editor = QuoteEditor(ctx.app, target)
    if not await editor.prefill():
        editor.set_rows(EXAMPLE_ITEMS)
    editor.resize(1366, 768)
    return editor


def _stats(tab: int) -> Factory:
    async def factory(ctx: AppContext) -> QWidget:
        """概览 (tab 0) or 成本与质量 (tab 1)."""
        from desktop.stats.window import StatsWindow

        window = StatsWindow(ctx.app)
        window.resize(1366, 720)
        await window.reload()
        window.tabs.setCurrentIndex(tab)
        return window

    return factory


WINDOWS: dict[str, Factory] = {
    "board": _board,
    "detail": _detail,
    "settings": _settings,
    **{f"settings-{name}": _settings_page(row) for row, name in enumerate(SETTINGS_PAGES, 1)},
    "wizard": _wizard,
    "approval": _approval,
    "chat": _chat,
    "briefing": _briefing,
    "reminder": _reminder,
    "memory": _memory,
    "quote-editor": _quote_editor,
    "overview": _stats(0),
    "costs": _stats(1),
}


async def render(ctx: AppContext, name: str, out: Path) -> Path:
    """Build window ``name``, let it paint, and save a PNG of it to ``out``."""
    if name not in WINDOWS:
        raise KeyError(name)
    widget = await WINDOWS[name](ctx)
    widget.show()
    for _ in range(5):  # let the loop lay out and paint (never a nested processEvents)
        await asyncio.sleep(0.02)
    if not widget.grab().save(str(out)):
        raise OSError(f"cannot write {out}")
    widget.close()
    return out
