"""Figures he can see: what the AI cost, how well it did by his corrections, how the trade went.

Every figure is counted from the store (the ``llm_calls`` ledger, the audit trail, drafts and
stage events) — never from the model. Modules: ``costs`` (the ledger by day, week, tier,
purpose and model; cost per inquiry), ``corrections`` (accuracy from what he changed: classes,
fields, drafts rewritten before approval as an edit distance), ``money`` (pipeline value by
stage, quotes sent and won, win rate), ``periods`` (Sydney calendar
weeks and days).

Imports, and why (the layer row below is the rule): ``core.db``, ``core.clock``,
``core.llm.pricing``. Nothing imports it but the facade.

Layer row: clock, db, inquiry, llm.
"""
