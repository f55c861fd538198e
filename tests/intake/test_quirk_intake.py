"""Intake against servers that answer as real providers do: no message waits forever on a model.

A json_object-only server (llama.cpp's 500 on json_schema, DeepSeek's 400) and a server that
writes tool calls in the text with ``<think>`` prefixes still file every message as the model
said; a model that cannot be used at all (unknown model name, refused key) leaves the rules'
answer at low confidence with a 需要您确认 item per message and one notice for the owner.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from core.app.standalone import own_pipeline
from core.db.models import Message
from core.events import NeedsAttention
from core.intake.pipeline import IntakePipeline
from core.intake.queries import inquiries_json, mail_json
from core.notify.outbox import NotificationCenter
from core.rhythm import attention
from core.rhythm.attention import AttentionRecorder
from core.sources.eml import EmlFolderSource
from tests.intake.test_corpus_support import CorpusOracle, check_against_labels, load_labels
from tests.intake.test_pipeline_support import (
    ScriptedModel,
    Verdict,
    make_email,
    prompt_subject,
    raw,
)
from tests.support.llm_quirks import Quirks
from tests.support.llm_server import LLMServer, Reply

QUIRKS = {
    "llama.cpp-json_object-only": Quirks(json_schema_status=500),
    "deepseek-json_object-only": Quirks(json_schema_status=400),
    "text-tool-calls-thinking": Quirks(text_tools="flat", think=True, reasoning_content=True),
    "no-response-format": Quirks(response_format_status=400),
}

EMAILS = [
    dict(subject="Quote for sliding window - Blacktown",
         body="Could you quote a sliding window 1800 x 1200 mm? Blacktown. 0412 345 678. Jane"),
    dict(subject="Measure for bifold doors in Ryde",
         body="Please come and measure bifold doors at 12 Smith St, Ryde. Tom 0400 111 222",
         sender="Tom Lee <tom.lee@example.com>"),
    dict(subject="Cheap SEO services for your website",
         body="We rank your site on page one. Reply to order.", sender="seo@spam.example"),
]  # fmt: skip
SCRIPT = {
    "sliding window": Verdict(["B"], name="Jane Citizen", phone="+61412345678",
                              suburb="Blacktown", products=["sliding_window"]),
    "bifold": Verdict(["A"], name="Tom Lee", phone="+61400111222", suburb="Ryde",
                      address="12 Smith St, Ryde NSW", products=["bifold_door"]),
}  # fmt: skip
EXPECTED = ["new_inquiry", "new_inquiry", "not_inquiry"]


@pytest.fixture
async def pipelines(services) -> AsyncIterator[Callable[..., IntakePipeline]]:  # type: ignore[no-untyped-def]
    made: list[IntakePipeline] = []

    def make(**kwargs: object) -> IntakePipeline:
        made.append(own_pipeline(services, **kwargs))  # type: ignore[arg-type]
        return made[-1]

    yield make
    for pipeline in made:
        await pipeline.aclose()


def _dispositions(services) -> list[str]:  # type: ignore[no-untyped-def]
    with services.store.session() as s:
        return [m.disposition for m in s.scalars(select(Message).order_by(Message.id))]


@pytest.mark.parametrize("name", sorted(QUIRKS))
async def test_quirk_servers_file_every_message_as_the_model_said(  # type: ignore[no-untyped-def]
    services, pipelines, name: str
) -> None:
    with LLMServer(ScriptedModel(dict(SCRIPT)), quirks=QUIRKS[name]) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        report = await pipelines().ingest_batch(
            [raw(make_email(**e, minutes=i)) for i, e in enumerate(EMAILS)]  # type: ignore[arg-type]
        )
    assert report.counts.get("pending", 0) == 0
    assert _dispositions(services) == EXPECTED
    with services.store.session() as s:
        inquiries = inquiries_json(s)
    assert [i["classification"] for i in inquiries] == ["B", "A"]
    assert {i["confidence"] for i in inquiries} != {"low"}  # the model's answers, not the rules'
    assert not [e for e in services.bus.events if isinstance(e, NeedsAttention)
                and e.kind == "model_unusable"]  # fmt: skip


@pytest.mark.parametrize(
    "reply",
    [Reply.error(404, "The model `qwen9` does not exist"), Reply.error(401, "Invalid API key")],
    ids=["unknown-model", "wrong-key"],
)
async def test_an_unusable_model_leaves_the_rules_answer_and_one_notice(  # type: ignore[no-untyped-def]
    services, pipelines, reply: Reply
) -> None:
    center = NotificationCenter(services).attach(services.bus, catch_up=False)
    AttentionRecorder(services.store, services.clock).attach(services.bus)
    with LLMServer(lambda _r: reply) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        first = await pipelines().ingest_batch([raw(make_email(**EMAILS[0]))])
        second = await pipelines().ingest_batch([raw(make_email(**EMAILS[1], minutes=5))])
    assert first.counts == {"new_inquiry": 1} and second.counts == {"new_inquiry": 1}
    assert len(srv.chat_requests) == 2  # one try per run, then the run stops asking
    with services.store.session() as s:
        assert {i["confidence"] for i in inquiries_json(s)} == {"low"}
    asks = [e for e in services.bus.events if isinstance(e, NeedsAttention)]
    assert [e.kind for e in asks].count("model_unusable") == 2  # one 需要您确认 per message
    with services.store.session() as s:
        found = attention.items(s)
    assert sum(1 for i in found if i.kind == "model_unusable") == 2
    assert all(
        i.title_zh.startswith("AI 模型无法使用") for i in found if i.kind == "model_unusable"
    )
    notices = [n for n in center.recent() if n.kind == "sync_problem"]
    assert len(notices) == 1  # one notice for the owner, not one per message
    assert "HTTP" not in notices[0].body_md and "AI" in notices[0].title + notices[0].body_md


def _corpus_run(services, corpus_dir: Path, quirks: Quirks):  # type: ignore[no-untyped-def]
    return LLMServer(CorpusOracle(corpus_dir), quirks=quirks)


@pytest.mark.corpus
@pytest.mark.parametrize("name", ["llama.cpp-json_object-only", "text-tool-calls-thinking"])
async def test_corpus_through_quirk_servers_leaves_nothing_pending(  # type: ignore[no-untyped-def]
    services, pipelines, corpus_dir: Path, name: str
) -> None:
    with _corpus_run(services, corpus_dir, QUIRKS[name]) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        report = await pipelines().ingest_source(EmlFolderSource(corpus_dir))
    assert report.processed == 45 and report.counts.get("pending", 0) == 0
    with services.store.session() as s:
        mail, inquiries = mail_json(s), inquiries_json(s)
    check_against_labels(mail, inquiries, load_labels(corpus_dir), exact_classes=True)


LOCAL = {"llm.provider": "ollama", "llm.max_retries": 0}  # a model on this PC (a preset)


async def test_a_model_on_this_pc_gets_one_call_at_a_time(services, pipelines) -> None:  # type: ignore[no-untyped-def]
    """#45: a local server answers one request at a time; ten at once only queue into their
    timeouts (34 of 45 mails stayed pending that way)."""
    with LLMServer(ScriptedModel(dict(SCRIPT)), latency=0.2) as srv:
        services.settings.update({"llm.base_url": srv.base_url, **LOCAL})
        await pipelines().ingest_batch(
            [raw(make_email(**e, minutes=i)) for i, e in enumerate(EMAILS)]  # type: ignore[arg-type]
        )
    assert len(srv.chat_requests) >= 3 and srv.max_in_flight == 1
    assert _dispositions(services) == EXPECTED


async def test_a_timeout_on_one_mail_does_not_stop_the_run(services, pipelines) -> None:  # type: ignore[no-untyped-def]
    """#45: after one timeout the run used to stop asking the model for every later mail."""
    scripted = ScriptedModel(dict(SCRIPT))

    def slow_on_ryde(request: dict[str, Any]) -> Any:
        answer = scripted(request)
        if "Ryde" in prompt_subject(request):
            return Reply(content=answer, delay=3.0)  # longer than the patience set below
        return answer

    with LLMServer(slow_on_ryde) as srv:
        services.settings.update(
            {"llm.base_url": srv.base_url, **LOCAL, "llm.local_timeout_seconds": 1.0}
        )
        report = await pipelines().ingest_batch(
            [raw(make_email(**e, minutes=i)) for i, e in enumerate(EMAILS)]  # type: ignore[arg-type]
        )
    assert _dispositions(services) == ["new_inquiry", "pending", "not_inquiry"]
    assert report.counts.get("pending") == 1
    # the mail after the timeout was still asked about: the model's answer, not the rules'
    assert any("SEO" in prompt_subject(r.body) for r in srv.chat_requests)
