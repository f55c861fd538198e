"""The daily rhythm: the stage reminders, the briefing and the daily task.

Days in stage and overdue come from the one stage policy (``core.inquiry.stage_policy``), which
counts Sydney working days with ``core.workdays``.

Lives in core (no Qt). Reads inquiries through the store; raises reminders as ``StageOverdue``
events, which the notification outbox turns into tray and Telegram alerts (quiet hours included).
May import core.db, core.inquiry.stages, core.inquiry.stage_policy, core.workdays, core.events, core.clock; nothing above them.
"""
