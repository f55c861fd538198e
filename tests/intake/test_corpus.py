"""The 45-message dev corpus through the whole pipeline, offline and through a loopback model.

Assertions come from ``labels.json``: every message present with one disposition, every rule-skip
skipped, merges as labelled (same ``thread_of`` → same inquiry, different → different, the
new-project reply 036 its own inquiry linked to 007's), phones in E.164.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select

from core.app.standalone import own_pipeline
from core.db.models import LLMCall, Message
from core.intake.pipeline import build_pipeline
from core.intake.queries import inquiries_json, mail_json
from core.sources.eml import EmlFolderSource
from tests.intake.test_corpus_support import CorpusOracle, check_against_labels, load_labels
from tests.support.llm_server import LLMServer

pytestmark = pytest.mark.corpus


async def test_corpus_offline(services, corpus_dir: Path) -> None:  # type: ignore[no-untyped-def]
    pipeline = build_pipeline(services, offline=True)
    report = await pipeline.ingest_source(EmlFolderSource(corpus_dir))
    assert report.processed == 45
    with services.store.session() as s:
        mail, inquiries = mail_json(s), inquiries_json(s)
    check_against_labels(mail, inquiries, load_labels(corpus_dir), exact_classes=False)
    assert {i["confidence"] for i in inquiries} == {"low"}

    again = await build_pipeline(services, offline=True).ingest_source(EmlFolderSource(corpus_dir))
    assert again.already_known == 45 and again.processed == 0


async def test_corpus_through_the_model(services, corpus_dir: Path) -> None:  # type: ignore[no-untyped-def]
    labels = load_labels(corpus_dir)
    with LLMServer(CorpusOracle(corpus_dir)) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        pipeline = own_pipeline(services)
        report = await pipeline.ingest_source(EmlFolderSource(corpus_dir))
        await pipeline.llm.aclose()
    assert report.processed == 45
    with services.store.session() as s:
        mail, inquiries = mail_json(s), inquiries_json(s)
        calls = dict(
            s.execute(
                select(LLMCall.message_pk, func.count(LLMCall.id)).group_by(LLMCall.message_pk)
            ).all()
        )
        pk_of = dict(s.execute(select(Message.message_id, Message.id)).all())
    check_against_labels(mail, inquiries, labels, exact_classes=True)
    assert {i["confidence"] for i in inquiries} == {"high"}
    for x in labels:  # cheap before expensive: 0 calls for skips, 1 for C, 2 for inquiry mail
        expected = {"skip": 0}.get(x["disposition"], 1 if x["classification"] == "C" else 2)
        assert calls.get(pk_of[x["message_id"]], 0) == expected, x["file"]
