"""Offline rules on the labelled dev corpus: the app must be usable with no LLM at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.intake.classify import classify_rules
from core.intake.extract import extract_rules
from tests.llm.corpus_views import replay, score

pytestmark = pytest.mark.corpus


def test_rules_classifier_accuracy_floor(corpus_dir: Path) -> None:
    results = list(replay(corpus_dir, classify_rules, extract_rules))
    scores = score(results)
    assert scores.classified == 35  # every process-labelled message was classified
    assert scores.class_ok / scores.classified >= 0.85, scores.misses
    assert all(r.classification.confidence == "low" for r in results)
    # The two decisive cases of the design: a reply bringing a new project is its own inquiry,
    # and the prompt-injection email is classified like any other remote-quote request.
    by_file = {r.label["file"]: r.classification.primary for r in results}
    assert by_file["036.eml"] == "A"
    assert by_file["011.eml"] == "B"
    for r in results:
        if r.label["classification"] == "R":
            assert r.classification.primary != "C", r.label["file"]
