"""``eval`` against a weak model through quirk servers: its weakness is a figure (#45).

The loopback model sorts the dev corpus as labelled but extracts like a weak small model (every
glossary product, a mangled phone) and, asked for replies, writes every other one without the
owner's points (the customer's own mail back, in the first person). ``eval --drafts`` reports,
beside accuracy, the values grounding dropped as unsupported and the drafts that missed an
instruction point.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import main
from core.glossary import glossary
from tests.intake.test_corpus_support import CorpusOracle
from tests.intake.test_pipeline_support import is_extract
from tests.support.llm_quirks import Quirks
from tests.support.llm_server import LLMServer, last_user_text, schema_name

pytestmark = pytest.mark.corpus

SERVERS = {
    "llama.cpp-json_object-only": Quirks(json_schema_status=500),
    "text-tool-calls-thinking": Quirks(text_tools="flat", think=True, reasoning_content=True),
}
GOOD_REPLY = (
    "Hi,\n\nThank you for your enquiry. We can come out to measure next Tuesday at 10am. "
    "Could you please confirm your address?\n\nKind regards,\nAurora Windows & Doors"
)


class WeakModel:
    """Sorts as labelled; extracts every product and a mangled phone; every other reply
    parrots the customer's mail."""

    def __init__(self, corpus: Path) -> None:
        self.oracle = CorpusOracle(corpus)
        self.drafts = 0
        self.lock = threading.Lock()

    def __call__(self, request: dict[str, Any]) -> Any:
        name = schema_name(request)
        if name == "draftanswer":
            with self.lock:
                self.drafts += 1
                good = self.drafts % 2 == 1
            thread = re.search(r"<thread>\s*(.*?)\s*</thread>", last_user_text(request), re.S)
            parrot = (thread.group(1) if thread else "")[-600:]
            body = GOOD_REPLY if good else f"Hi,\n\n{parrot}\n\nRegards"
            return {"subject": "RE: your enquiry", "body_en": body, "body_zh": "您好"}
        if name == "chineserendering":
            return {"body_zh": "您好，感谢您的询问。"}
        answer = self.oracle(request)
        if is_extract(request) and isinstance(answer, dict):
            answer = {**answer, "product_types": list(glossary())}
            if answer.get("phone"):
                answer["phone"] = "+497318264"  # "0497 318 264" mangled, as a weak model did
        return answer


@pytest.mark.parametrize("name", sorted(SERVERS))
def test_eval_reports_drops_and_missed_points_beside_accuracy(
    corpus_dir: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any, name: str
) -> None:
    with LLMServer(WeakModel(corpus_dir), quirks=SERVERS[name]) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", srv.base_url)
        args = ["eval", "--eml-dir", str(corpus_dir), "--home", str(home), "--drafts", "4"]
        assert main(args) == 0
        text = capsys.readouterr().out
        assert main([*args, "--json"]) == 0
        report = json.loads(capsys.readouterr().out)
    print(f"{name}:\n{text}")  # the figures, for the record (-s)
    drafts = report["drafts"]
    assert drafts["written"] == 4 and drafts["failed"] == 0
    assert drafts["missed_a_point"] == 2 and drafts["points_missed"]["上午10点"] == 2
    assert report["grounding_drops"]["values"] > 0
    assert report["grounding_drops"]["by_field"].get("product_types", 0) > 0
    assert report["grounding_drops"]["by_field"].get("customer_phone", 0) > 0
    assert "missed an instruction point" in text and "grounding drops" in text
    assert report["class"][0] == report["class"][1]  # it sorted as labelled
