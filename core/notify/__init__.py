"""Notifications: the persistent outbox (tray + Telegram) and the Telegram mirror and bot.

``outbox``          NotificationCenter: bus events -> Notification rows -> NotificationRaised
``disk_alert``      the words of "mail waits for disk space" (told once per condition)
``quiet``           quiet hours in Sydney time
``chunk``           Telegram HTML (``core.text.render``) split under 4,096 characters
``telegram_client`` the Bot API over httpx
``mirror``          outbox delivery to the owner's chat (status, retry, pacing, quiet hours)
``bot``             pairing, updates, approve buttons, voice/text notes
(the runner that drives them is the front end ``core.telegram.runner``; this package never
imports ``core.app``)

Imports, and why (the layer row below is the rule): core.db, core.events, core.inquiry, core.rhythm
(reminder texts), core.drafts (only the owner's decisions, handed in for the paired owner's
buttons), core.voice (notes).
``core.services`` names the container it is handed, ``core.config`` the settings ``quiet`` reads
(annotations only).

Layer row: agent, clock, config, db, drafts, errors, events, glossary, inquiry, mail, phones,
rhythm, secrets, services, tasks, text, tls, voice.
"""
