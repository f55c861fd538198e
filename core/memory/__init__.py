"""What the owner's memories mean in time and to whom, shared by drafting and the assistant.

Modules: ``links`` (the customer a memory names, resolved in code; every inquiry of one
customer), ``expiry`` (the day a short-term memory stops holding, read from its words in Sydney
time, and the sweep that marks it ``expired``), ``recall`` (which memories a prompt reads, within
its budget, most relevant first, and the stamp of where they were used).

Why a package of its own: the drafting prompt (``core.drafts``) and the assistant
(``core.agent``) must agree on these rules, and drafting may not import the assistant.
Imports, and why (the layer row below is the rule): ``core.db`` and ``core.clock`` only. Importing
the package imports nothing else.

Layer row: clock, db.
"""
