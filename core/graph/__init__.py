"""Microsoft Graph: the adapter to Outlook and OneDrive over one shared HTTP client.

What lives here: ``client`` (the one ``GraphClient``: headers, mailbox concurrency, retries,
request budget), ``errors`` (Graph responses → ``core.errors``), ``batch`` (``$batch``), ``auth``
(sign-in, tokens), ``mail_sync`` (delta sync of Inbox/Sent Items into an ``IntakeSink``;
``mail_deferred`` keeps what a round's spool budget left for the next round),
``mailer`` (sending) and ``categories`` (Outlook categories). The pieces are put together for a
data folder by ``core.app.graph_runtime`` (the composition root), not here.

Imports, and why (the layer row below is the rule): ``core.mail`` (RawMessage, Message-ID
normalisation), ``core.intake.records`` (the stored message identity and the Graph-id relink),
``core.db``, ``core.events``, ``core.clock``, ``core.errors``, ``core.secrets``,
``core.inquiry.stages`` (category names). Never the intake pipeline itself: mail sync talks to it
through the ``IntakeSink`` protocol.
``core.services``, ``core.config`` and ``core.paths`` name the types it is handed (annotations
only).

Layer row: clock, config, db, errors, events, glossary, inquiry, intake, mail, paths, secrets,
services, tasks, tls.
"""
