"""Dev-corpus replay for the classifier/extractor: .eml -> MessageView, with thread context.

The pipeline gives the classifier two facts of context: is the sender a known customer, and
what does the inquiry in this thread already hold. To measure the rules honestly, this replay
builds that context from the *predicted* results of earlier messages (never from labels), the
way the pipeline's merge step would: a thread match by In-Reply-To/References, else the
sender's latest inquiry.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.intake.classify import Classification
from core.intake.extract import Extraction
from core.intake.view import MessageView, view_from_parsed
from core.mail.parse import parse_message
from core.mail.quotes import strip_quotes

OWN = ["sales@aurorawindows.com.au"]


@dataclass
class Replayed:
    label: dict[str, Any]
    view: MessageView
    classification: Classification
    extraction: Extraction


def load_labels(corpus_dir: Path) -> list[dict[str, Any]]:
    labels: list[dict[str, Any]] = json.loads(
        (corpus_dir / "labels.json").read_text(encoding="utf-8")
    )
    return labels


def replay(
    corpus_dir: Path,
    classify: Callable[[MessageView], Classification],
    extract: Callable[[MessageView], Extraction],
) -> Iterator[Replayed]:
    """Every process-labelled message in order, classified and extracted with context."""
    by_message_id: dict[str, dict[str, Any]] = {}
    by_sender: dict[str, dict[str, Any]] = {}
    for label in load_labels(corpus_dir):
        if label["disposition"] != "process":
            continue
        parsed = parse_message((corpus_dir / label["file"]).read_bytes())
        body = strip_quotes(parsed.text)
        sender = (parsed.reply_to or parsed.from_addr or "").lower()
        thread = None
        for ref in [parsed.in_reply_to, *reversed(parsed.references)]:
            if ref and ref in by_message_id:
                thread = by_message_id[ref]
                break
        is_reply_like = bool(parsed.in_reply_to or parsed.references)
        if thread is None and (is_reply_like or sender in by_sender):
            thread = by_sender.get(sender)
        view = view_from_parsed(
            parsed,
            body_text=body,
            known_customer=sender in by_sender,
            thread_inquiry=dict(thread) if thread else None,
            own_addresses=OWN,
        )
        classification = classify(view)
        extraction = extract(view)
        if classification.primary in {"A", "B"}:
            inquiry = {
                "address": extraction.address,
                "suburb": extraction.suburb,
                "products": list(extraction.product_types),
            }
            by_sender[sender] = inquiry
            if parsed.message_id:
                by_message_id[parsed.message_id] = inquiry
        elif classification.primary == "R" and thread is not None:
            for key in extraction.product_types:
                if key not in thread["products"]:
                    thread["products"].append(key)
            if parsed.message_id:
                by_message_id[parsed.message_id] = thread
        yield Replayed(label, view, classification, extraction)


@dataclass
class Scores:
    classified: int = 0
    class_ok: int = 0
    phones_labelled: int = 0
    phones_ok: int = 0
    phones_spurious: int = 0
    suburbs_labelled: int = 0
    suburbs_ok: int = 0
    suburbs_spurious: int = 0
    products_msgs: int = 0
    products_exact: int = 0
    products_tp: int = 0
    products_fp: int = 0
    products_fn: int = 0
    dims_msgs: int = 0
    dims_ok: int = 0
    misses: list[str] | None = None

    def line(self) -> str:
        p = self.products_tp / max(1, self.products_tp + self.products_fp)
        r = self.products_tp / max(1, self.products_tp + self.products_fn)
        return (
            f"class {self.class_ok}/{self.classified}; "
            f"phone {self.phones_ok}/{self.phones_labelled} (+{self.phones_spurious} spurious); "
            f"suburb {self.suburbs_ok}/{self.suburbs_labelled} (+{self.suburbs_spurious} spurious); "
            f"products exact {self.products_exact}/{self.products_msgs} P={p:.2f} R={r:.2f}; "
            f"has_dimensions {self.dims_ok}/{self.dims_msgs}"
        )


def score(results: list[Replayed]) -> Scores:
    s = Scores(misses=[])
    assert s.misses is not None
    for item in results:
        label, c, e = item.label, item.classification, item.extraction
        s.classified += 1
        if c.primary == label["classification"]:
            s.class_ok += 1
        else:
            s.misses.append(f"{label['file']}: class {c.primary} != {label['classification']}")
        if label["classification"] == "C":
            continue  # no customer facts to extract from non-inquiries
        if label["phone_e164"]:
            s.phones_labelled += 1
            if e.customer_phone == label["phone_e164"]:
                s.phones_ok += 1
            else:
                s.misses.append(
                    f"{label['file']}: phone {e.customer_phone} != {label['phone_e164']}"
                )
        elif e.customer_phone:
            s.phones_spurious += 1
        if label["suburb"]:
            s.suburbs_labelled += 1
            if e.suburb == label["suburb"]:
                s.suburbs_ok += 1
            else:
                s.misses.append(f"{label['file']}: suburb {e.suburb} != {label['suburb']}")
        elif e.suburb:
            s.suburbs_spurious += 1
            s.misses.append(f"{label['file']}: suburb {e.suburb} not labelled")
        want, got = set(label["products"]), set(e.product_types)
        s.products_msgs += 1
        s.products_exact += want == got
        s.products_tp += len(want & got)
        s.products_fp += len(got - want)
        s.products_fn += len(want - got)
        if want != got:
            s.misses.append(f"{label['file']}: products {sorted(got)} != {sorted(want)}")
        s.dims_msgs += 1
        s.dims_ok += bool(e.dimensions) == bool(label["has_dimensions"])
        if bool(e.dimensions) != bool(label["has_dimensions"]):
            s.misses.append(f"{label['file']}: dims {e.dimensions} vs {label['has_dimensions']}")
    return s


def main(argv: list[str] | None = None) -> int:
    """``python -m tests.llm.corpus_views [CORPUS_DIR]``: print the offline rules' figures."""
    import sys

    from core.intake.classify import classify_rules
    from core.intake.extract import extract_rules

    args = sys.argv[1:] if argv is None else argv
    corpus = Path(args[0]) if args else Path(__file__).resolve().parents[3] / "shared/corpus/dev"
    scores = score(list(replay(corpus, classify_rules, extract_rules)))
    print(scores.line())
    for miss in scores.misses or []:
        print("  miss:", miss)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
