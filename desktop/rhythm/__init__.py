"""The daily rhythm on the desktop: a reminder's one-click actions and the evening briefing window.

``cards`` (``ReminderCard``: 起草跟进邮件 / 打开询盘 / 推迟 1·3·7 天 / 标记流失 for one reminder;
``AttentionCard``: 确认 / 打开 for one 需要您确认 item), ``briefing_window`` (``BriefingWindow``:
the Chinese briefing, its route link, what needs confirming and what is overdue, each with its
buttons), ``desk`` (``RhythmDesk``: what the tray opens when a reminder or briefing alert is
clicked). Every action goes through ``App.rhythm.actions()`` or ``App.attention``, the same calls
the Telegram buttons make; no view touches the store.
"""
