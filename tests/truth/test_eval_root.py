"""``run_eval`` in an ``App`` (#23): the pipeline and the judge share the eval folder's one
model client, and the whole run needs no labelled corpus (a two-message folder here)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.evals.intake_eval import run_eval
from core.llm.client import LLMClient
from tests.intake.test_pipeline_support import ScriptedModel, Verdict, make_email, message_id_of
from tests.support.llm_server import LLMServer, schema_name

DOOR = Verdict(
    ["A"], name="Daniela Ferreira", phone="0447 390 126", suburb="Strathfield",
    products=["security_door"], dimensions=["820 x 2040 mm"],
)  # fmt: skip


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "labelled"
    folder.mkdir()
    mail = make_email(
        subject="Security door quote - Strathfield",
        body="Hi, I need a hinged security door 820 x 2040 mm for 5 Elm St, Strathfield.\n"
        "My mobile is 0447 390 126.\nDaniela Ferreira",
        sender="Daniela Ferreira <daniferreira@icloud.com>",
    )
    (folder / "001.eml").write_bytes(mail)
    labels = [
        {
            "file": "001.eml",
            "message_id": message_id_of(mail),
            "disposition": "new_inquiry",
            "classification": "A",
            "customer_name": "Daniela Ferreira",
            "suburb": "Strathfield",
            "new_text_markers": [],
        }
    ]
    (folder / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    return folder


def test_the_eval_pipeline_and_judge_share_one_model_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scripted = ScriptedModel({"Security door": DOOR})

    def model(request: dict[str, Any]) -> object:
        name = schema_name(request)
        if name == "draftanswer":
            return {
                "subject": "Re: Security door quote",
                "body_en": "Hi Daniela,\n\nThank you, we will arrange a measure.\n\nRegards",
                "body_zh": "您好，谢谢，我们会安排上门量尺。",
            }
        if name == "judgeanswer":
            return {"politeness": 5, "tone": 4, "hallucinations": [], "comment": "fine"}
        return scripted(request)

    made: list[LLMClient] = []
    real_init = LLMClient.__init__

    def counting_init(self: LLMClient, *args: Any, **kwargs: Any) -> None:
        made.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(LLMClient, "__init__", counting_init)
    with LLMServer(model) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", srv.base_url)
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_MAX_RETRIES", "0")
        report = run_eval(_folder(tmp_path), judge=1)
    assert report.mode.startswith("model") and report.messages == 1
    assert report.classes.right == report.classes.total == 1
    assert report.judge is not None and report.judge.judged == 1 and report.judge.failed == 0
    assert len(made) == 1  # intake and the judge's drafting and scoring: one client
