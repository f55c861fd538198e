"""The daily rhythm: the stage reminders, the briefing and the daily task.

Days in stage and overdue come from the one stage policy (``core.inquiry.stage_policy``), which
counts Sydney working days with ``core.workdays``.

Lives in core (no Qt). Reads inquiries through the store; raises reminders as ``StageOverdue``
events, which the notification outbox turns into tray and Telegram alerts (quiet hours included).
Imports, and why (the layer row below is the rule): core.db, core.inquiry (stages, the stage
policy), core.workdays, core.events, core.clock; core.graph for the calendar the briefing reads,
core.stats for the Monday report, core.text for the briefing's Markdown.
``core.services`` and ``core.config`` name the types it is handed (annotations only).

Layer row: clock, config, db, errors, events, glossary, graph, inquiry, phones, secrets, services,
stats, tasks, text, workdays.
"""
