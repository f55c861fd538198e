"""``eval`` through quirk servers: the mode intake used is printed beside the accuracy.

A json_object-only server (llama.cpp's HTTP 500 on json_schema) and one that writes tool calls in
the text with ``<think>`` prefixes must score at least the rules-only figures, with nothing left
``pending``, and say which structured-output mode the run ended in.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli.main import main
from tests.intake.test_corpus_support import CorpusOracle
from tests.support.llm_quirks import Quirks
from tests.support.llm_server import LLMServer

pytestmark = pytest.mark.corpus

SERVERS = {
    "json_object-only": (Quirks(json_schema_status=500), "json_object"),
    "no-response-format": (Quirks(response_format_status=400), "text"),
    "text-tool-calls": (Quirks(text_tools="flat", think=True, reasoning_content=True), "schema"),
}


@pytest.mark.parametrize("name", sorted(SERVERS))
def test_eval_prints_the_mode_and_scores_at_least_the_rules(  # type: ignore[no-untyped-def]
    corpus_dir: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch, name: str
) -> None:
    quirks, mode = SERVERS[name]
    assert (
        main(["eval", "--offline", "--json", "--eml-dir", str(corpus_dir), "--home", str(home)])
        == 0
    )
    rules = json.loads(capsys.readouterr().out)
    with LLMServer(CorpusOracle(corpus_dir), quirks=quirks) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", srv.base_url)
        assert main(["eval", "--eml-dir", str(corpus_dir), "--home", str(home)]) == 0
        text = capsys.readouterr().out
        assert main(["eval", "--json", "--eml-dir", str(corpus_dir), "--home", str(home)]) == 0
        report = json.loads(capsys.readouterr().out)
    print(f"{name}: {text}")  # the figures, for the record (-s)
    assert f"structured output: tier1 test-tier1 {mode}" in text or mode in text
    assert set(report["structured_modes"].values()) == {mode}
    for key in ("disposition", "class"):
        assert report[key][0] >= rules[key][0] and report[key][0] == report[key][1]
    assert all(right >= rules["fields"][f][0] for f, (right, _t) in report["fields"].items())
