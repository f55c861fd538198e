"""Quotes: versioned documents on an inquiry that the customer receives (issue 41).

A quote is line items (glossary product, description, width × height in mm, quantity, unit
price ex GST), GST 10 % per line rounded to the cent, totals as sums of lines, a deposit percent
and a valid-until date, with his terms. The reply that carries its PDF is an ordinary draft
(approved like any other); when it is sent the quote is ``sent`` and the inquiry moves to
``follow_up`` (``book.quote_sent``, called from the draft state machine's send); ``accept``
moves the inquiry to ``ordered``.

Modules: ``money`` (Decimal math), ``items`` (his lines, checked), ``book`` (versions and
states, in the caller's transaction), ``grounding`` (values his words do not back), ``pdf``
(the customer's document, ReportLab). The service the front ends use is ``core.app.quotes``.

Layer row: clock, db, errors, glossary, inquiry, text.
"""
