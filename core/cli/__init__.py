"""The ``inquiry-bridge`` command line: a headless front end of ``core.app``, like the desktop.

One module per command group with ``register(subparsers, common)``; handlers get the folder's
``App`` (or its ``Services``) built once by ``core.app.build_app``. Bad input exits non-zero with
one line on stderr, Chinese first (``main.one_line``). Imports, and why (the layer row below is the
rule): anything in core; nothing in core imports it, and it never imports Qt (the desktop adds its
own commands through ``extra``).

Layer row: agent, app, clock, db, drafts, errors, evals, events, graph, inquiry, intake, llm,
logging_setup, mail, mailbox, memory, notify, paths, rhythm, schedule, secrets, services, sources,
tasks, telegram, voice.
"""
