"""``eval``: intake figures on the labelled dev corpus, rules only and through a loopback model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli.main import main
from tests.intake.test_corpus_support import CorpusOracle
from tests.support.llm_server import LLMServer
from tests.truth.planting import PlantingModel

pytestmark = pytest.mark.corpus


def _eval(capsys: pytest.CaptureFixture[str], home: Path, *args: str) -> dict:  # type: ignore[type-arg]
    code = main(["eval", *args, "--json", "--home", str(home)])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_eval_rules_only_prints_the_figures(
    corpus_dir: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["eval", "--offline", "--eml-dir", str(corpus_dir), "--home", str(home)])
    out, err = capsys.readouterr()
    assert code == 0, err
    for words in ("disposition", "class (A/B/R/C)", "customer_phone", "grounding drops",
                  "LLM calls: 0", "rules only"):  # fmt: skip
        assert words in out
    report = _eval(capsys, home, "--offline", "--eml-dir", str(corpus_dir))
    assert report["messages"] == 45 and report["llm"]["calls"] == 0
    right, total = report["class"]
    assert total >= 30 and right / total >= 0.9


def test_eval_through_a_model_counts_calls_cost_and_drops(  # type: ignore[no-untyped-def]
    corpus_dir: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    with LLMServer(CorpusOracle(corpus_dir)) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", srv.base_url)
        good = _eval(capsys, home)  # the default folder: ../shared/corpus/dev
    assert good["mode"].startswith("model") and good["llm"]["calls"] > 40
    assert good["llm"]["cost_usd"] > 0 and good["grounding_drops"]["values"] == 0
    assert all(right == total for right, total in good["fields"].values())

    with LLMServer(PlantingModel()) as srv:  # a model that plants a sentence in every field
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", srv.base_url)
        bad = _eval(capsys, home, "--eml-dir", str(corpus_dir))
    drops = bad["grounding_drops"]
    assert drops["values"] >= 3 * drops["messages"] > 0
    assert {"address", "suburb", "customer_name"} <= set(drops["by_field"])


def test_eval_without_a_corpus_says_so(
    home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["eval", "--eml-dir", str(tmp_path), "--home", str(home)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "labels.json" in err[0]


def test_eval_judge_scores_drafts_and_never_blocks(  # type: ignore[no-untyped-def]
    corpus_dir: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    from tests.support.llm_server import schema_name

    oracle = CorpusOracle(corpus_dir)
    judged: list[str] = []

    def model(request: dict) -> object:  # type: ignore[type-arg]
        name = schema_name(request)
        if name == "draftanswer":
            return {
                "subject": "Re: your enquiry",
                "body_en": "Hi,\n\nThank you for your enquiry. Our price is $98,765.\n\nRegards",
                "body_zh": "您好，感谢您的询价。我们的报价是98,765澳元。",
            }
        if name == "judgeanswer":
            judged.append(name)
            if len(judged) in (2, 3):  # the answer and its repair round
                return {"politeness": "very"}  # a broken answer: counted, not fatal
            return {
                "politeness": 4,
                "tone": 5,
                "hallucinations": ["invented_price"],
                "comment": "Polite; the price was not given.",
            }
        return oracle(request)

    with LLMServer(model) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", srv.base_url)
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_TIER3", "judge-model")
        report = _eval(capsys, home, "--eml-dir", str(corpus_dir), "--judge", "3")
        judge_models = {
            r.body["model"] for r in srv.chat_requests if "review a reply" in str(r.body)
        }
    judge = report["judge"]
    assert judge["judged"] == 2 and judge["failed"] == 1
    assert judge["politeness_mean"] == 4 and judge["tone_mean"] == 5
    assert judge["hallucinations"] == {"invented_price": 2}
    assert judge["drafts_with_unconfirmed_facts"] == 2  # the fact guard held them too
    assert judge_models == {"judge-model"}
    assert all(right == total for right, total in report["fields"].values())  # never blocking
