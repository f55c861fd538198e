"""Shared by the corpus and killed-ingest tests: a labels.json oracle and the label checks.

The oracle responder plays a *correct* model: it recognises which dev-corpus email a prompt is
about (by the subject line in the prompt, and the labelled new-text markers when two emails share
a subject) and answers with that email's labels. This is deliberately an oracle — it tests the
pipeline's merge/store logic *given correct model answers*, not model quality.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from core.intake.rules_extract import find_dimensions
from core.mail.parse import parse_message
from tests.intake.test_pipeline_support import (
    Verdict,
    classification_answer,
    extraction_answer,
    is_classify,
    is_extract,
    prompt_subject,
)
from tests.support.llm_server import last_user_text

DISPOSITION = re.compile(r"^(skipped:[a-z_]+|new_inquiry|merged|not_inquiry|failed:[a-z_]+)$")


def load_labels(corpus: Path) -> list[dict[str, Any]]:
    labels: list[dict[str, Any]] = json.loads((corpus / "labels.json").read_text(encoding="utf-8"))
    return labels


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


class CorpusOracle:
    """Responder answering classify/extract prompts from ``labels.json``."""

    def __init__(self, corpus: Path) -> None:
        self.labels = load_labels(corpus)
        self.subjects = {
            item["file"]: parse_message((corpus / item["file"]).read_bytes()).subject
            for item in self.labels
        }

    def label_for(self, request: dict[str, Any]) -> dict[str, Any] | None:
        subject = prompt_subject(request)
        text = _squash(last_user_text(request))
        candidates = [x for x in self.labels if self.subjects[x["file"]] == subject]
        if len(candidates) != 1:
            pool = candidates or self.labels
            scored = [
                (sum(_squash(m) in text for m in x["new_text_markers"]), x["file"], x) for x in pool
            ]
            scored.sort(key=lambda t: (-t[0], t[1]))
            candidates = [scored[0][2]] if scored and scored[0][0] else []
        return candidates[0] if candidates else None

    def verdict(self, label: dict[str, Any] | None) -> tuple[Verdict, str]:
        if label is None or label["classification"] is None:
            return Verdict(["C"]), "en"
        return (
            Verdict(
                [label["classification"]],
                name=label["customer_name"],
                phone=label["phone_e164"],
                suburb=label["suburb"],
                products=list(label["products"]),
                dimensions=["1000 x 1000 mm"] if label["has_dimensions"] else [],
                # a labelled thread root that is A/B is a project of its own (036 is a reply)
                new_project=label["thread_of"] == label["file"],
            ),
            label["language"],
        )

    def __call__(self, request: dict[str, Any]) -> Any:
        verdict, language = self.verdict(self.label_for(request))
        if is_classify(request):
            return classification_answer(verdict)
        if is_extract(request):
            if verdict.dimensions:  # labels say only "has sizes": a correct model copies them
                verdict.dimensions = find_dimensions(last_user_text(request)) or verdict.dimensions
            return extraction_answer(verdict, language)
        return "ok"


def check_against_labels(
    mail: list[dict[str, Any]],
    inquiries: list[dict[str, Any]],
    labels: list[dict[str, Any]],
    *,
    exact_classes: bool,
) -> None:
    """The done-when of issue 2: one disposition each, skips skipped, merges as labelled."""
    by_id = {m["message_id"]: m for m in mail}
    assert len(mail) == 45 and len(by_id) == 45, "every message once"
    assert {x["message_id"] for x in labels} == set(by_id)
    bad = [
        (m["message_id"], m["disposition"]) for m in mail if not DISPOSITION.match(m["disposition"])
    ]
    assert bad == [], f"not exactly one final disposition: {bad}"

    inquiry_of = {x["file"]: by_id[x["message_id"]]["inquiry_id"] for x in labels}
    for x in labels:
        disposition = by_id[x["message_id"]]["disposition"]
        if x["disposition"] == "skip":
            assert disposition.startswith("skipped:"), (x["file"], disposition)
        else:
            assert not disposition.startswith("skipped:"), (x["file"], disposition)
        if exact_classes and x["classification"] == "C":
            assert disposition == "not_inquiry", (x["file"], disposition)
        if exact_classes and x["classification"] in ("A", "B"):
            assert disposition == "new_inquiry", (x["file"], disposition)
        if exact_classes and x["classification"] == "R":
            assert disposition == "merged", (x["file"], disposition)

    groups: dict[str, set[int | None]] = {}
    for x in labels:
        if x["thread_of"]:
            groups.setdefault(x["thread_of"], set()).add(inquiry_of[x["file"]])
    for root, ids in groups.items():
        assert len(ids) == 1 and None not in ids, f"thread {root} split or unfiled: {ids}"
    roots = {root: next(iter(ids)) for root, ids in groups.items()}
    assert len(set(roots.values())) == len(roots), f"different threads merged: {roots}"

    inquiries_by_id = {i["id"]: i for i in inquiries}
    new_project = inquiries_by_id[roots["036.eml"]]
    assert new_project["parent_inquiry_id"] == roots["007.eml"]
    assert new_project["suburb"] == "Winston Hills"

    for x in labels:
        if x["thread_of"] == x["file"] and x["phone_e164"]:
            got = inquiries_by_id[roots[x["file"]]]["customer_phone"]
            assert got == x["phone_e164"], (x["file"], got)
        if x["thread_of"] == x["file"]:
            expected_email = x["customer_email"]
            got_email = inquiries_by_id[roots[x["file"]]]["customer_email"]
            assert got_email == expected_email, (x["file"], got_email)
    if exact_classes:
        assert len(inquiries) == 18
