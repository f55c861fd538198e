"""The Telegram front end: the owner's phone as a third window onto the same ``App``.

``runner`` runs one round (``telegram --once``) or the long-poll loop of the tray app: the
mirror (outbox → chat) and the bot (updates → pairing, buttons, notes, the assistant). It sits
beside the CLI, above ``core.app``, because it is a front end: it is handed the ``App`` and takes
everything from ``App.telegram`` (``core.app.telegram``): the Bot API client the App built and
closes (``App.telegram_client``), the pairing facts, the bot and mirror over the folder's store,
the owner's decisions, the assistant and the composer. It never builds a client, opens the store
or touches ``core.services`` itself. The pieces it drives (client, bot, mirror, presses,
rendering) are ``core.notify``, which never imports ``core.app``.

Imports, and why (the layer row below is the rule): ``core.app`` for everything it wires, and the
types of ``core.notify`` and ``core.drafts`` it passes along; never Qt.

Layer row: app, drafts, errors, events, notify, tasks, tls.
"""
