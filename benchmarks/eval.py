"""Intake accuracy on the labelled dev corpus: the same figures as ``inquiry-bridge eval``.

    .venv/bin/python benchmarks/eval.py [--eml-dir DIR] [--offline] [--loopback] [--json]

Runs the real pipeline into a temporary data folder and prints per-field accuracy, class
accuracy, grounding drops, LLM calls and estimated cost (``core.evals.intake_eval``). Without
``--offline`` it uses the configured OpenAI-compatible endpoint (``INQUIRY_BRIDGE_LLM_*``);
``--loopback`` starts the tests' oracle model (answers from labels.json, 0.05 s latency) instead,
to measure the pipeline and grounding without a real model. Also prints the CPU that grounding
adds per message (target < 5 ms), measured on the same corpus.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.evals.intake_eval import default_corpus, format_report, run_eval  # noqa: E402
from core.services import build_services  # noqa: E402


def grounding_cpu(folder: Path) -> str:
    """CPU grounding adds per message on top of validation: a faithful answer (the rules'
    values) and an answer planting one invented sentence in every field."""
    from core.intake.classify import classify_rules
    from core.intake.extract import extract_rules, ground_answer, validate_fields
    from tests.llm.corpus_views import replay

    planted = "Our price is $98,765 including GST and we can measure on 3 March 2027 at 9:30am."
    items = list(replay(folder, classify_rules, extract_rules))
    out = []
    for name in ("faithful", "planted"):
        extra: list[float] = []
        for it in items:
            e = it.extraction
            raw = {
                "customer_name": e.customer_name, "email": e.customer_email,
                "phone": e.customer_phone, "address": e.address, "suburb": e.suburb,
                "product_types": e.product_types, "dimensions": e.dimensions,
                "urgency": e.urgency, "language": e.language, "dates": [], "budget": None,
            }  # fmt: skip
            if name == "planted":
                raw = {k: ([planted] if isinstance(v, list) else planted) for k, v in raw.items()}
            start = time.process_time()
            for _ in range(20):
                validate_fields(raw, it.view, source="unchecked")
            base = time.process_time() - start
            start = time.process_time()
            for _ in range(20):
                ground_answer(raw, it.view)
            extra.append((time.process_time() - start - base) / 20 * 1000)
        extra.sort()
        out.append(f"{name} {sum(extra) / len(extra):.2f} ms mean, {extra[-1]:.2f} ms max")
    return f"grounding CPU per message ({len(items)} mails): " + "; ".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--eml-dir", type=Path, default=None)
    parser.add_argument("--offline", action="store_true")
    parser.add_argument("--loopback", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    folder = args.eml_dir or default_corpus(ROOT)
    if folder is None or not (folder / "labels.json").is_file():
        print("labelled corpus ../shared/corpus/dev is missing; pass --eml-dir DIR")
        return 1
    with contextlib.ExitStack() as stack:
        if args.loopback:
            from tests.intake.test_corpus_support import CorpusOracle
            from tests.support.llm_server import LLMServer

            server = stack.enter_context(LLMServer(CorpusOracle(folder), latency=0.05))
            os.environ["INQUIRY_BRIDGE_LLM_BASE_URL"] = server.base_url
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        services = build_services(Path(tmp) / "owner")
        stack.callback(services.close)
        report = run_eval(folder, settings_from=services, offline=args.offline)
    print(json.dumps(report.as_dict(), indent=1) if args.json else format_report(report))
    print(grounding_cpu(folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
