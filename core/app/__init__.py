"""The one door into the core: ``build_app`` builds an ``App`` for a data folder.

Every front end (the desktop, the CLI, the Telegram front end) asks ``build_app`` for the system
of one data folder and then talks to it through the ``App``'s services: typed, async where they
touch the store, the network or the model, dataclasses in and out, no ORM object leaving core.
Store writes go through the single writer (``Store.run``) and reads through ``Store.read``, so
every coroutine is safe to await on the qasync loop.

What lives here: the builder (``build``), the facade (``facade``) and its capability-shaped
services (``inquiries``, ``notifications``, ``state``, ``lazy``), and ``graph_runtime`` (the
Graph side of one data folder: client, mail sync, OneDrive watcher, categories, mailer). It may
import anything in ``core`` below it; only the front ends (``core.cli``, ``core.telegram``, the
desktop) import it, and it never imports Qt.
Importing this package is cheap: the LLM client, drafting and Graph load on first use.

Layer row: agent, clock, config, db, drafts, drive, errors, events, glossary, graph, import_lock,
inquiry, intake, knowledge, llm, mail, mailbox, memory, notify, paths, phones, rhythm, secrets,
services, stats, text.
"""

from core.app.build import build_app, explain_error
from core.app.facade import App

__all__ = ["App", "build_app", "explain_error"]
