"""Microsoft Graph: the adapter to Outlook and OneDrive over one shared HTTP client.

What lives here: ``client`` (the one ``GraphClient``: headers, mailbox concurrency, retries,
request budget), ``errors`` (Graph responses → ``core.errors``), ``batch`` (``$batch``), ``auth``
(sign-in, tokens), ``mail_sync`` (delta sync of Inbox/Sent Items into an ``IntakeSink``),
``mailer`` (sending), ``categories`` (Outlook categories), and ``runtime`` (``GraphRuntime``:
the Graph side of one data folder, handed its pipeline by whoever builds the system).

May import: ``core.mail`` (RawMessage, Message-ID normalisation), ``core.intake.records`` (the
stored message identity and the Graph-id relink), ``core.drive`` (the OneDrive watcher, in
``runtime`` only), ``core.db``, ``core.events``, ``core.clock``, ``core.errors``, ``core.secrets``,
``core.inquiry.stages`` (category names). Never the intake pipeline itself: mail sync talks to it
through the ``IntakeSink`` protocol.
"""
