"""Sources: where raw mail comes from. Each yields ``core.mail.source.RawMessage`` bytes.

What lives here: ``eml`` (a folder of ``.eml`` files, ``inquiry-bridge ingest --eml-dir``) and
``graph`` (one Graph delta round as a ``MessageSource``; the poller itself, ``MailSync``, is the
Graph adapter's ``core.graph.mail_sync``). The bundled demo mailbox (``core.demo``) replays
``.eml`` files through the same pipeline.

Imports, and why (the layer row below is the rule): ``core.mail`` (the RawMessage shape) and
``core.graph`` (the Graph client and mail sync). Nothing below imports this package, so sources
never form a circle with what they use.

Layer row: graph, mail, tasks.
"""
