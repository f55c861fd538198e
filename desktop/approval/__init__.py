"""The drafting area's windows: approval window, 待审批 queue, compose dialog, screenshot demo.

They get the ``Drafting`` capability objects (composer, owner edits, owner decisions, reader)
and never the store; only these windows and the owner's own CLI/Telegram buttons hold the
owner's decisions.
"""
