"""Drafting: reply drafts from the owner's Chinese instruction, his review, approval and the send.

What lives here, by capability (built once per data folder by ``drafting.build_drafting``):
``draft_composer.DraftComposer`` writes drafts, ``edits.OwnerEdits`` changes them, ``decisions.
OwnerDecisions`` approves/rejects/sends (owner surfaces only), ``reader.DraftReader`` reads them.
Beneath them: ``state`` (the state machine and its audit rows), ``sender`` + ``send_claim`` (the
at-most-once send through the ``core.mail.ports.Mailer`` port: Outlook's drafts or SMTP's
submit-once) with ``send_journal_keeper`` (the send journal at each submit), ``send_rate`` (so
many sends a minute), ``reply_model`` (what the drafting model sees, and its calls), ``factguard`` and ``evidence`` (which values are backed by the owner's or customer's
words), ``attachments``, ``recent``, ``view`` (``DraftView``), ``batch`` (CSV batch drafting),
``sample`` (screenshot data).

Imports, and why (the layer row below is the rule): ``core.db``, ``core.llm`` (through the injected
client), ``core.mail`` (safe file names, Message-IDs, the mailbox ports), ``core.mailbox`` (the
SMTP mailer when one is configured; the Graph mailer is handed down by ``core.app``),
``core.memory`` (which memories a prompt reads, their expiry), and core's shared modules (clock,
config, errors, events, paths, services). Never PySide6, ``desktop`` or
``core.agent``/``core.notify``.
``core.llm`` gives the model client's shape (``core.llm.model.ModelClient``, annotations only).

Layer row: clock, config, db, errors, events, inquiry, knowledge, llm, mail, mailbox, memory,
paths, provenance, quotes, secrets, services, tasks, text.
"""
