"""The one door into the core: ``build_app`` builds an ``App`` for a data folder.

Every front end (the desktop, the CLI, the Telegram front end) asks ``build_app`` for the system
of one data folder and then talks to it through the ``App``'s services: typed, async where they
touch the store, the network or the model, dataclasses in and out, no ORM object leaving core.
Store writes go through the single writer (``Store.run``) and reads through ``Store.read``, so
every coroutine is safe to await on the qasync loop.

What lives here: the builder (``build``), the facade (``facade``) and its capability-shaped
services (``inquiries``, ``notifications``, ``state``, ``lazy``, ``intake``,
``telegram``, …), ``graph_runtime`` (the Graph side of one data folder: client, mail sync,
OneDrive watcher, categories, mailer) and ``repair`` (a damaged folder, before any ``App``). It may
import anything in ``core`` below it; only the front ends (``core.cli``, ``core.telegram``, the
desktop) import it, and it never imports Qt.
Importing this package is cheap: the LLM client, drafting and Graph load on first use.

Layer row: agent, autostart, clock, config, db, demo, drafts, drive, errors, events, glossary,
graph, import_lock, inquiry, intake, knowledge, llm, logging_setup, mail, mailbox, memory, notify,
paths, phones, quotes, rhythm, schedule, secrets, services, sources, stats, tasks, text, voice.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from core.app.api import FrontEnd, front_end
from core.app.build import build_app, explain_error
from core.app.desktop_support import (
    autostart_enabled,
    cache_dir,
    resolve_home,
    set_autostart,
    setup_logging,
    setup_logging_or_none,
)
from core.app.facade import App
from core.app.lazy import warm as warm_imports
from core.tasks import daemon as start_daemon
from core.tasks import io as offload

if TYPE_CHECKING:
    from core.app.repair_report import RepairReport
    from core.db.copy import CopyReport
    from core.db.probe import StoreProbe


def repair_home(home: str | Path | None, *, offline: bool) -> RepairReport:
    """Repair a damaged data folder (``repair``, and the desktop's start-up repair), before any
    ``App`` can open it; what it restored and what it could not, item by item. Loaded on use:
    the steps import the store and the pipeline."""
    from core.app.repair import repair_home as repair

    return repair(home, offline=offline)


def copy_store_home(home: str | Path | None, target_url: str) -> CopyReport:
    """``store copy --to URL``: the data folder's SQLite store into an empty PostgreSQL
    database, checked row for row (``core.db.copy``); the folder is not changed. Before any
    ``App``: the App would open the store the settings name, not necessarily the folder's."""
    from core.db.copy import copy_store
    from core.paths import DataPaths

    return copy_store(DataPaths(resolve_home(home)).database, target_url)


def probe_store_url(url: str) -> StoreProbe:
    """The 数据库 page's 测试: what a store URL holds, read only (``core.db.probe``); a
    refusal raises its one Chinese line (``InquiryBridgeError``) and changes nothing."""
    from core.db.probe import probe_store

    return probe_store(url)


def check_store_url(url: str) -> str:
    """``store check --url`` and the 数据库 page's 测试: what the URL holds, as one line, read
    only (``core.db.probe``); a refusal raises its one Chinese line and changes nothing."""
    from core.db.probe import probe_store

    return probe_store(url).text()


__all__ = [
    "App",
    "FrontEnd",
    "autostart_enabled",
    "build_app",
    "cache_dir",
    "check_store_url",
    "copy_store_home",
    "explain_error",
    "front_end",
    "offload",
    "probe_store_url",
    "repair_home",
    "resolve_home",
    "set_autostart",
    "setup_logging",
    "setup_logging_or_none",
    "start_daemon",
    "warm_imports",
]
