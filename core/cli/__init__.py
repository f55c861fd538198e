"""The ``inquiry-bridge`` command line: a headless front end of ``core.app``, like the desktop.

One module per command group with ``register(subparsers, common)``; every handler takes
``(args, app)``, the folder's ``App`` built once by ``core.app.build_app``, and works through its
services only (``repair`` alone gets None: it runs before the damaged store could be opened, and
the work is ``core.app.repair``). Bad input exits non-zero with one line on stderr, Chinese first
(``main.one_line``). Imports, and why (the layer row below is the rule): ``core.app`` for the
work, and below it only types, constants and pure helpers for parsing and printing; never
``core.services`` or the store's session; nothing in core imports it, and it never imports Qt
(the desktop adds its own commands through ``extra``).

Layer row: app, clock, db, drafts, errors, evals, inquiry, logging_setup, mail, rhythm,
runtime, secrets, tasks, telegram, voice.
"""
