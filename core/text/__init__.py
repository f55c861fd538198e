"""Text as the guards read it and as the owner is shown it.

``reading``: the one normal form every guard matches against (NFKC, invisible characters gone,
HTML entities decoded, Simplified Chinese, look-alike letters folded), with a map back to the
original so a correction replaces the words the owner would have read. ``inert``: customer and
model text made safe to show (escaped Markdown, control characters made visible, the link
policy). ``render``: Markdown to Telegram's HTML and to plain text, the one renderer the
Telegram messages, the briefing and the desktop's transcript share. ``facts``: the checkable
values in a text (amounts, dates, sizes, phones, links, ``payment`` details), normalised, which
the draft fact guard and intake grounding both compare. None imports Qt.

Layer row: nothing.
"""
