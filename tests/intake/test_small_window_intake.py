"""Intake on a llama.cpp server on his PC: one slot, a 4,096-token window (#45).

The loopback server answers one request at a time and refuses a prompt of 4,096 tokens or more
with llama.cpp's real 400 (``tests.support.llm_quirks``: it counts ~3.5 characters per token,
stricter than the app's estimate). Every mail is classified in one run with nothing pending:
a long mail is cut to the window (read from ``/props``, or learnt from its first refusal), and
one mail too long for the model never turns the rest of the run over to the rules.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from core.app.standalone import own_pipeline
from core.db.models import Message
from core.intake.pipeline import IntakePipeline
from core.intake.queries import inquiries_json, mail_json
from core.sources.eml import EmlFolderSource
from tests.intake.test_corpus_support import CorpusOracle, check_against_labels, load_labels
from tests.intake.test_pipeline_support import ScriptedModel, Verdict, make_email, raw
from tests.support.llm_quirks import Quirks
from tests.support.llm_server import LLMServer

WINDOW = 4096
LLAMA_CPP = {"llm.provider": "llamacpp", "llm.max_retries": 0}
SPEC = "Window W{n}: aluminium sliding window, 1800 x 1200 mm, double glazed, white frame.\n"
EMAILS = [
    dict(subject="Quote for sliding window - Blacktown",
         body="Could you quote a sliding window 1800 x 1200 mm? Blacktown. 0412 345 678. Jane"),
    dict(subject="Full window schedule for our new house in Kellyville",
         body="Hi, please quote all windows below. Sam 0400 222 333\n"
              + "".join(SPEC.format(n=n) for n in range(1, 400)),
         sender="Sam Wu <sam.wu@example.com>"),
    dict(subject="Measure for bifold doors in Ryde",
         body="Please come and measure bifold doors at 12 Smith St, Ryde. Tom 0400 111 222",
         sender="Tom Lee <tom.lee@example.com>"),
    dict(subject="Cheap SEO services for your website",
         body="We rank your site on page one. Reply to order.", sender="seo@spam.example"),
]  # fmt: skip
SCRIPT = {
    "sliding window": Verdict(["B"], name="Jane Citizen", phone="+61412345678",
                              suburb="Blacktown", products=["sliding_window"]),
    "window schedule": Verdict(["B"], name="Sam Wu", phone="+61400222333",
                               suburb="Kellyville", products=["sliding_window"]),
    "bifold": Verdict(["A"], name="Tom Lee", phone="+61400111222", suburb="Ryde",
                      address="12 Smith St, Ryde NSW", products=["bifold_door"]),
}  # fmt: skip


@pytest.fixture
async def pipelines(services: Any) -> AsyncIterator[Callable[..., IntakePipeline]]:
    made: list[IntakePipeline] = []

    def make() -> IntakePipeline:
        made.append(own_pipeline(services))
        return made[-1]

    yield make
    for pipeline in made:
        await pipeline.aclose()


def _inquiries(services: Any) -> list[dict[str, Any]]:
    with services.store.session() as s:
        return inquiries_json(s)


@pytest.mark.parametrize("provider", ["llamacpp", ""])
async def test_a_long_mail_is_cut_to_the_window_and_the_run_goes_on(
    services: Any, pipelines: Callable[..., IntakePipeline], provider: str
) -> None:
    quirks = Quirks(context_tokens=WINDOW)
    model = ScriptedModel(dict(SCRIPT))
    with LLMServer(model, quirks=quirks, slots=1) as srv:
        services.settings.update({"llm.base_url": srv.base_url, **LLAMA_CPP})
        services.settings.update({"llm.provider": provider})
        report = await pipelines().ingest_batch(
            [raw(make_email(**e, minutes=i)) for i, e in enumerate(EMAILS)]  # type: ignore[arg-type]
        )
    assert report.counts.get("pending", 0) == 0
    with services.store.session() as s:
        dispositions = [m.disposition for m in s.scalars(select(Message).order_by(Message.id))]
    assert dispositions == ["new_inquiry", "new_inquiry", "new_inquiry", "not_inquiry"]
    # every inquiry as the model said, the long one too: no mail got the rules' low confidence
    found = {i["customer_name"]: i for i in _inquiries(services)}
    assert found["Sam Wu"]["suburb"] == "Kellyville"
    assert "low" not in {i["confidence"] for i in found.values()}
    refused = quirks.seen_refusals.count("context")
    print(f"provider {provider or 'none'}: {refused} context refusals, largest prompt "
          f"{quirks.largest_prompt} tokens, at most {srv.max_in_flight} in flight")  # fmt: skip
    assert refused == (0 if provider else 1)  # read from /props, or learnt once
    assert srv.max_in_flight == 1


@pytest.mark.corpus
async def test_the_dev_corpus_on_a_one_slot_4096_token_server(
    services: Any, pipelines: Callable[..., IntakePipeline], corpus_dir: Path
) -> None:
    quirks = Quirks(context_tokens=WINDOW)
    with LLMServer(CorpusOracle(corpus_dir), quirks=quirks, slots=1) as srv:
        services.settings.update({"llm.base_url": srv.base_url, **LLAMA_CPP})
        report = await pipelines().ingest_source(EmlFolderSource(corpus_dir))
    assert report.processed == 45 and report.counts.get("pending", 0) == 0
    with services.store.session() as s:
        mail, inquiries = mail_json(s), inquiries_json(s)
    check_against_labels(mail, inquiries, load_labels(corpus_dir), exact_classes=True)
    assert {i["confidence"] for i in inquiries} == {"high"}
    print(f"dev corpus: {report.counts}, {quirks.seen_refusals.count('context')} context "
          f"refusals, largest prompt {quirks.largest_prompt} tokens")  # fmt: skip
    assert srv.max_in_flight == 1
