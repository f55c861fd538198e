"""The first reply is ready when he opens the mail (issue 42): a new A/B inquiry from intake gets
one waiting first reply, drafted by the loopback model, with its Chinese; never two, none for
mail that is not an inquiry, none when he turned it off, and a failing model loses nothing."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import main
from tests.intake.test_pipeline_support import ScriptedModel, Verdict, make_email, message_id_of
from tests.support.llm_server import LLMServer, Reply, schema_name, system_text

FIRST = make_email(
    subject="Sliding door for our new house - Ryde",
    body="Hi, we need a sliding door and two awning windows for 12 Pine St, Ryde.\nTom",
    sender="Tom Nguyen <tom.nguyen@example.com>",
)
SECOND = make_email(
    subject="Re: Sliding door for our new house - Ryde",
    body="Also, the kitchen window is about 1200 wide.\nTom",
    sender="Tom Nguyen <tom.nguyen@example.com>",
    in_reply_to=message_id_of(FIRST),
    references=[message_id_of(FIRST)],
    minutes=30,
)
NEWSLETTER = make_email(
    subject="Our spring catalogue",
    body="See what is new this season.",
    sender="Glass Supplies <news@glass.example>",
    minutes=45,
)
SCRIPT = {
    "Sliding door": Verdict(
        ["A"], name="Tom Nguyen", address="12 Pine St, Ryde", products=["sliding_door"]
    ),
}
ANSWER = {
    "subject": "RE: Sliding door for our new house - Ryde",
    "body_en": "Hi Tom,\n\nThank you for your email. Could you please confirm the address is "
    "12 Pine St, Ryde, and let us know when would suit you for us to come and measure?"
    "\n\nKind regards,\nAurora",
    "body_zh": "Tom 您好：\n\n感谢来信。请确认地址是 12 Pine St, Ryde，并告诉我们您什么时间方便"
    "我们上门量尺。\n\n此致\nAurora",
}


class DraftingModel(ScriptedModel):
    """Classifies and extracts from the script; writes the reply (or fails, when told to)."""

    def __init__(self, *, fail_drafts: bool = False) -> None:
        super().__init__(SCRIPT)
        self.fail_drafts = fail_drafts
        self.draft_prompts: list[str] = []

    def __call__(self, request: dict[str, Any]) -> Any:
        if schema_name(request) == "chineserendering":  # the English-only translation (#39)
            return {"body_zh": ANSWER["body_zh"]}
        if "You write email replies to customers" in system_text(request):
            self.draft_prompts.append(json.dumps(request["messages"], ensure_ascii=False))
            return Reply.error(500) if self.fail_drafts else ANSWER
        return super().__call__(request)


@pytest.fixture
def mailroom(tmp_path: Path) -> Path:
    folder = tmp_path / "mail"
    folder.mkdir()
    return folder


def _ingest(home: Path, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ingest", "--eml-dir", str(folder), "--home", str(home)]) == 0
    capsys.readouterr()


def _drafts(home: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    assert main(["drafts", "--json", "--home", str(home)]) == 0
    return list(json.loads(capsys.readouterr().out))


def _ledger(home: Path) -> list[str]:
    with sqlite3.connect(home / "inquiry-bridge.sqlite3") as db:
        return [row[0] for row in db.execute("SELECT purpose FROM llm_calls")]


@contextmanager
def _serve(monkeypatch: pytest.MonkeyPatch, model: DraftingModel) -> Iterator[LLMServer]:
    with LLMServer(model) as server:
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", server.base_url)
        yield server


def test_a_new_a_inquiry_gets_one_waiting_first_reply_even_after_a_merge_and_a_rerun(
    home: Path,
    mailroom: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    model = DraftingModel()
    with _serve(monkeypatch, model):
        (mailroom / "001.eml").write_bytes(FIRST)
        (mailroom / "003.eml").write_bytes(NEWSLETTER)
        _ingest(home, mailroom, capsys)
        drafts = _drafts(home, capsys)
        assert len(drafts) == 1, drafts
        (draft,) = drafts
        assert draft["status"] == "pending_approval" and draft["to"] == ["tom.nguyen@example.com"]
        assert draft["body_en"].startswith("Hi Tom") and "上门量尺" in draft["body_zh"]
        assert draft["unconfirmed_facts"] == []  # his requests are carried, no value invented
        assert "draft" in _ledger(home)  # its cost is in the ledger (概览·成本)
        assert "确认安装地址" in model.draft_prompts[0]  # the fixed instruction for class A

        (mailroom / "002.eml").write_bytes(SECOND)  # merged into the same inquiry
        _ingest(home, mailroom, capsys)
        _ingest(home, mailroom, capsys)  # and the whole folder again
        assert [d["id"] for d in _drafts(home, capsys)] == [draft["id"]]
        assert len(model.draft_prompts) == 1


def test_turned_off_no_first_reply(
    home: Path,
    mailroom: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (home / "settings.toml").write_text("[drafts]\nauto_first_reply = false\n", encoding="utf-8")
    model = DraftingModel()
    with _serve(monkeypatch, model):
        (mailroom / "001.eml").write_bytes(FIRST)
        _ingest(home, mailroom, capsys)
    assert _drafts(home, capsys) == [] and model.draft_prompts == []
    assert main(["inquiries", "--json", "--home", str(home)]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 1


def test_mail_that_is_not_an_inquiry_gets_no_reply(
    home: Path,
    mailroom: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    model = DraftingModel()
    with _serve(monkeypatch, model):
        (mailroom / "001.eml").write_bytes(NEWSLETTER)  # the script says C
        _ingest(home, mailroom, capsys)
    assert _drafts(home, capsys) == [] and model.draft_prompts == []


def test_a_failing_model_leaves_the_inquiry_and_no_draft(
    home: Path,
    mailroom: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    model = DraftingModel(fail_drafts=True)
    with _serve(monkeypatch, model):
        (mailroom / "001.eml").write_bytes(FIRST)
        _ingest(home, mailroom, capsys)
    assert model.draft_prompts and _drafts(home, capsys) == []
    assert main(["inquiries", "--json", "--home", str(home)]) == 0
    (inquiry,) = json.loads(capsys.readouterr().out)
    assert inquiry["classification"] == "A" and inquiry["stage"] == "inquiry"


def test_two_first_replies_at_once_file_one_and_never_replace_his_draft(
    home: Path,
    mailroom: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Both asked before either is written (a second process, a retry): the writing
    transaction keeps one; and a thread he already drafted gets none."""
    from core.app import build_app

    model = DraftingModel()
    with _serve(monkeypatch, model):
        (home / "settings.toml").write_text(
            "[drafts]\nauto_first_reply = false\n", encoding="utf-8"
        )
        (mailroom / "001.eml").write_bytes(FIRST)
        _ingest(home, mailroom, capsys)
        (home / "settings.toml").write_text("", encoding="utf-8")
        app = build_app(home)

        async def twice() -> list[int | None]:
            try:
                return list(await asyncio.gather(*(app.first_replies.draft(1) for _ in "ab")))
            finally:
                await app.aclose()

        try:
            made = asyncio.run(twice())
            assert sorted(draft_id is None for draft_id in made) == [False, True]
            again = asyncio.run(twice())
        finally:
            app.close()
    assert again == [None, None]
    assert len(model.draft_prompts) == 2 and len(_drafts(home, capsys)) == 1


def test_a_b_inquiry_is_asked_for_photos_and_sizes(
    home: Path,
    mailroom: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    model = DraftingModel()
    model.script["Shower screen"] = Verdict(["B"], name="Ann Lee", products=["shower_screen"])
    with _serve(monkeypatch, model):
        (mailroom / "001.eml").write_bytes(
            make_email(
                subject="Shower screen quote",
                body="Hi, how much for a frameless shower screen?\nAnn",
                sender="Ann Lee <ann.lee@example.com>",
            )
        )
        _ingest(home, mailroom, capsys)
    assert len(_drafts(home, capsys)) == 1
    (prompt,) = model.draft_prompts
    assert "现场照片" in prompt and "尺寸" in prompt and "上门量尺" not in prompt
