"""The Telegram front end: the owner's phone as a third window onto the same ``App``.

``runner`` runs one round (``telegram --once``) or the long-poll loop of the tray app: the
mirror (outbox → chat) and the bot (updates → pairing, buttons, notes, the assistant). It sits
beside the CLI, above ``core.app``, because it is a front end: it is handed the App's assistant,
composer and decisions. The pieces it drives (client, bot, mirror, presses, rendering) are
``core.notify``, which never imports ``core.app``.

Imports, and why (the layer row below is the rule): ``core.app`` and anything below it; never Qt.

Layer row: app, db, drafts, errors, events, import_lock, notify, tasks, tls.
"""
