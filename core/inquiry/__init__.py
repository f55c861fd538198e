"""The inquiry domain: everything the owner sees and changes about one customer inquiry.

Modules: ``board`` (list queries, counts, "needs me"), ``search`` (the search index text and the
WHERE clause a search becomes), ``detail`` (the detail read model), ``edit`` (owner field
edits, audited), ``notes`` (typed and dictated notes), ``stages`` (the 8-stage pipeline and its
audit trail in ``StageEvent`` rows), ``stage_policy`` (the one rule for days in stage and overdue:
limits, Sydney working days, when the clock starts), ``translate`` (cached Chinese translations).

Imports, and why (the layer row below is the rule): ``core.db``, ``core.events``, ``core.clock``,
``core.workdays``, ``core.errors``, ``core.glossary``, ``core.memory`` (a note's expiry),
``core.services``, ``core.llm.model`` (the translator's call record, annotations only). Never imports front ends, intake, drafting or Graph; the facade (``core.app``)
is what front ends call. Importing the package imports nothing else.

Layer row: clock, db, errors, events, glossary, llm, memory, paths, services, text, workdays.
"""
