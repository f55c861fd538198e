"""The assistant: a bounded tool-calling loop over the same core services the owner uses.

Its tools (``tools/``: customers, mail, today, drive, pipeline, drafting, memories) can read,
search, take notes, move stages (audited as ``agent``), make a customer's OneDrive folder,
propose a measuring time and *draft* replies; none can approve or send a draft (principle 2):
the tools are handed a ``ToolContext`` holding only the drafting composer and reader and a
``CustomerDrive``, so no approve/send method is reachable from it. Every
answer passes the assertion guard (``assertions``) before the owner reads it; what the model wants to
remember after reading customer mail is a proposal (``memory``).

Imports, and why (the layer row below is the rule): core.drafts (composer, reader, batch),
core.inquiry, core.memory, core.llm, core.db, core.events, core.drive and core.rhythm.appointments
(proposing only); core.graph's client and calendar types, never its mailer or runtime. Never
imported by the layers it uses; front ends (cli, desktop, Telegram) call it.
``core.config`` names the settings a tool is handed (annotations only).

Layer row: clock, config, db, drafts, drive, errors, events, glossary, graph, inquiry, intake,
knowledge, llm, memory, provenance, quotes, rhythm, services, tasks, text.
"""
