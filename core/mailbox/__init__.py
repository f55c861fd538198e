"""An IMAP/SMTP mailbox (Gmail, QQ邮箱, 163/126, iCloud, any host) beside Microsoft Graph.

What lives here: ``account`` (the server addresses, from ``INQUIRY_BRIDGE_IMAP_URL`` /
``INQUIRY_BRIDGE_SMTP_URL`` or settings, and the plain-text-only-to-loopback rule),
``imap_session`` (one ``imaplib`` connection: TLS, the ``ID`` command, login, the error map),
``folders`` (INBOX and the Sent folder), ``imap_sync`` (the ``MessageSource``: UID cursors,
UIDVALIDITY), ``outgoing`` (the MIME of a reply), ``smtp_mailer`` (the ``Mailer``: submit once,
find in Sent, append the copy), ``keywords`` (class and stage as IMAP keywords), ``presets``
(providers by name) and ``runtime`` (the pieces assembled for one data folder).

``imaplib`` and ``smtplib`` are blocking; every call runs on the I/O lane (``core.tasks.io``),
one connection per thread at a time, so the event loop never waits on the network. Why the standard library and not an async IMAP package: it is maintained with
Python, speaks every extension we need through ``xatom``/``_simple_command`` (``ID``, ``IDLE``,
``LIST (SPECIAL-USE)``), and adds no dependency to the bundle.

Imports, and why (the layer row below is the rule): ``core.mail`` (RawMessage, Message-IDs),
``core.db``, ``core.intake`` (identity), ``core.errors``, ``core.clock``, ``core.config``,
``core.secrets``, ``core.events`` (``MailWaiting`` after a round).
``core.services`` names the container it is handed (annotations only).

Layer row: clock, config, db, errors, events, intake, mail, secrets, services, tasks.
"""
