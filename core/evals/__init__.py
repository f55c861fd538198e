"""Evaluations: how well intake does on a labelled folder of mail (``eval``, benchmarks/eval.py)."""
