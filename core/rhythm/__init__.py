"""The daily rhythm: working-day arithmetic and the stage reminders built on it.

Lives in core (no Qt). Reads inquiries through the store; raises reminders as ``StageOverdue``
events, which the notification outbox turns into tray and Telegram alerts (quiet hours included).
May import core.db, core.inquiry.stages, core.events, core.clock; nothing above them.
"""
