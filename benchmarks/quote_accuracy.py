"""Quote-stripping accuracy on the labelled dev corpus (``../shared/corpus/dev``).

For every labelled email, each ``quoted_markers`` entry must be GONE from the stripped text and each
``new_text_markers`` entry must be KEPT. Prints the share of markers handled correctly for:

- ``library``   mail-parser-reply's ``parse_reply`` alone, as shipped;
- ``lib+guard`` the library's splits as the app uses them (credibility check, footers removed);
- ``patterns``  our own patterns alone (core.mail.quotes without the library);
- ``combined``  what the app uses (earliest credible cut of both, plus footer removal);

then the per-file failures of each variant, and (for the same corpus) how well the rule pre-filter
matches the labelled ``skip``/``process`` dispositions. Exits 0 with a message when the corpus is absent.

    .venv/bin/python benchmarks/quote_accuracy.py [--corpus DIR]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.mail.parse import parse_message
from core.mail.prefilter import prefilter
from core.mail.quotes import strip_quotes

DEFAULT_CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "dev"


def library_alone(text: str) -> str:
    from mailparser_reply import EmailReplyParser

    return EmailReplyParser(languages=["en", "zh"]).parse_reply(text) or ""


VARIANTS: dict[str, Callable[[str], str]] = {
    "library": library_alone,
    "lib+guard": lambda text: strip_quotes(text, use_patterns=False),
    "patterns": lambda text: strip_quotes(text, use_library=False),
    "combined": strip_quotes,
}


def score(corpus: Path, strip: Callable[[str], str]) -> tuple[int, int, dict[str, list[str]]]:
    """(correct markers, total markers, {file: failed markers})."""
    labels = json.loads((corpus / "labels.json").read_text(encoding="utf-8"))
    correct = total = 0
    failures: dict[str, list[str]] = {}
    for label in labels:
        text = parse_message((corpus / label["file"]).read_bytes()).text
        stripped = strip(text)
        for marker in label.get("quoted_markers", []):
            total += 1
            if marker in stripped:
                failures.setdefault(label["file"], []).append(f"still quoted: {marker!r}")
            else:
                correct += 1
        for marker in label.get("new_text_markers", []):
            total += 1
            if marker in stripped:
                correct += 1
            else:
                failures.setdefault(label["file"], []).append(f"new text lost: {marker!r}")
    return correct, total, failures


def prefilter_score(corpus: Path) -> tuple[int, int, list[str]]:
    """(correct, total, mismatches); a sender counts as a known customer once labelled earlier."""
    labels = json.loads((corpus / "labels.json").read_text(encoding="utf-8"))
    known: set[str] = set()
    correct = 0
    wrong: list[str] = []
    for label in labels:
        msg = parse_message((corpus / label["file"]).read_bytes())
        rule = prefilter(
            msg, known_customer=msg.from_addr in known, own_addresses=["sales@aurorawindows.com.au"]
        )
        if (rule is not None) == (label["disposition"] == "skip"):
            correct += 1
        else:
            wrong.append(f"{label['file']}  labelled {label['disposition']}, rule {rule}")
        if label.get("customer_email"):
            known.add(label["customer_email"])
    return correct, len(labels), wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args(argv)
    if not (args.corpus / "labels.json").exists():
        print(f"corpus not found at {args.corpus}; nothing to measure")
        return 0
    results = {name: score(args.corpus, fn) for name, fn in VARIANTS.items()}
    print(f"quote marker accuracy on {args.corpus}")
    for name, (correct, total, _) in results.items():
        print(f"  {name:<9} {correct:>3}/{total} = {correct / total:6.1%}")
    for name, (_, _, failures) in results.items():
        print(f"\nfailures — {name}:" if failures else f"\nfailures — {name}: none")
        for file, items in sorted(failures.items()):
            for item in items:
                print(f"  {file}  {item}")
    correct, total, wrong = prefilter_score(args.corpus)
    print(f"\nprefilter skip/process agreement: {correct}/{total} = {correct / total:.1%}")
    for line in wrong:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
