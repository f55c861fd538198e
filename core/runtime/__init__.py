"""The background work of one store, in one place: ``Supervisor``.

Mail rounds and IDLE (Graph or IMAP, decided by ``App.sync_runtime``), OneDrive, the Telegram
bot and mirror, reminders, the evening briefing, the weekly report and sending approved drafts
run here and nowhere else, under the store's runner lease (``App.lease``): at most one process
per store runs them. The desktop app and ``inquiry-bridge serve`` host a ``Supervisor``; the
CLI's ``sync`` and ``telegram`` use one with only their piece. A package above ``core.app`` and
the Telegram front end (``core.telegram``), because it starts that front end's runner.

Layer row: app, events, tasks, telegram.
"""

from core.runtime.supervisor import Health, Supervisor

__all__ = ["Health", "Supervisor"]
