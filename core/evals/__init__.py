"""Evaluations: how well intake does on a labelled folder of mail (``eval``, benchmarks/eval.py).

Runs the real pipeline into a temporary data folder (rules only, or the configured model) and
compares with ``labels.json``: dispositions, classes, fields, grounding drops, calls and cost.
Imports, and why (the layer row below is the rule): core.app (the eval folder is an ``App``:
its pipeline, drafting for the optional judge and their one model client come from the
composition root), core.sources, core.llm; read-only towards the owner's own data folder.

Layer row: app, db, llm, services, sources.
"""
