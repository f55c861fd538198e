"""Evaluations: how well intake does on a labelled folder of mail (``eval``, benchmarks/eval.py).

Runs the real pipeline into a temporary data folder (rules only, or the configured model) and
compares with ``labels.json``: dispositions, classes, fields, grounding drops, calls and cost.
Imports, and why (the layer row below is the rule): core.intake, core.sources, core.llm,
core.drafts (the optional judge); read-only towards the owner's own data folder.

Layer row: db, drafts, intake, llm, services, sources.
"""
