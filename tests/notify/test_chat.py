"""Talking to the assistant on Telegram, over the loopback Bot API and a scripted loopback model.

What the owner would notice: his question gets the assistant's answer in his chat (rendered, with
"typing…" first); a stranger's words get nothing and never reach the model; a reply to an alert
and ``/note`` still file notes; a spoken question is transcribed locally and answered; a draft the
assistant wrote comes with its 发送 / 放弃 buttons at once, and only his press approves it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from core.db.models import Draft, Memory
from core.events import InquiryCreated
from core.telegram.runner import TelegramRunner
from tests.drafts.support import DraftingModel
from tests.notify.conftest import OWNER, STRANGER, add_inquiry
from tests.support.graph_server import GraphServer
from tests.support.llm_server import LLMServer, last_user_text, schema_name
from tests.support.telegram_server import TelegramServer


class OwnerModel:
    """The model behind the assistant: answers questions in Markdown, drafts on "给他回复"."""

    def __init__(self) -> None:
        self.drafting = DraftingModel()
        self.questions: list[str] = []

    def __call__(self, request: dict[str, Any]) -> Any:
        if schema_name(request) or not request.get("tools"):  # the composer's structured calls
            return self.drafting(request)
        user = last_user_text(request)
        results = [m["content"] for m in request["messages"] if m.get("role") == "tool"]
        if not results:
            self.questions.append(user)
        if "给他回复" in user and not results:
            current = re.search(r"\[current inquiry: #(\d+)\]", user)
            assert current, user
            return [
                {
                    "name": "draft_reply",
                    "arguments": {
                        "inquiry_id": int(current.group(1)),
                        "instruction": "下周二上门量尺",
                    },
                }
            ]
        if results:
            status = json.loads(results[-1])["status"]
            return f"草稿已写好，{status}。请在下面确认。"
        return (
            "**今天有 1 个新询盘**\n\n"
            "- John Smith（Epping）：推拉门 & 纱窗 <尺寸 2400x2100>\n"
            "- 需要上门量尺"
        )


@pytest.fixture
def owner_model() -> OwnerModel:
    return OwnerModel()


@pytest.fixture
def llm(services: Any, owner_model: OwnerModel) -> Iterator[LLMServer]:
    with LLMServer(owner_model) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        yield server


@pytest.fixture
def graph(clock: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[GraphServer]:
    with GraphServer(now=clock.now) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_URL", srv.base_url)
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", srv.token)
        yield srv


async def once(services: Any, app: Any = None) -> Any:
    kwargs: dict[str, Any] = {}
    if app is not None:
        kwargs = {"assistant": app.assistant, "composer": lambda: app.drafts.composer}
    runner = TelegramRunner(services, **kwargs)
    try:
        return await runner.run_once()
    finally:
        await runner.aclose()


def notes(services: Any) -> list[Memory]:
    with services.store.session() as session:
        rows = list(session.scalars(select(Memory).order_by(Memory.id)))
        session.expunge_all()
        return rows


def drafts(services: Any) -> list[tuple[int, int | None, str]]:
    with services.store.session() as session:
        return [(d.id, d.inquiry_id, d.status) for d in session.scalars(select(Draft))]


async def test_the_owners_question_gets_the_assistants_answer_in_his_chat(
    services: Any, owner_env: TelegramServer, llm: LLMServer, owner_model: OwnerModel, app: Any
) -> None:
    owner_env.push_message(OWNER, "今天有什么新询盘？")
    await once(services, app)
    assert owner_model.questions and "今天有什么新询盘？" in owner_model.questions[0]
    [answer] = owner_env.sent_to(OWNER)
    assert answer.parse_mode == "HTML" and "<b>今天有 1 个新询盘</b>" in answer.text
    assert "• John Smith（Epping）：推拉门 & 纱窗 <尺寸 2400x2100>" in answer.visible
    assert "存为备注" in answer.buttons()[0]["text"]  # filing it as a note stays one press away
    typing = owner_env.calls_of("sendChatAction")
    assert typing and typing[0] == {"chat_id": OWNER, "action": "typing"}
    assert notes(services) == []  # a question is not a note
    # the next question continues the same conversation (the first one is in its history)
    owner_env.push_message(OWNER, "还有别的吗？")
    await once(services, app)
    last = llm.chat_requests[-1].body["messages"]
    assert any("今天有什么新询盘？" in str(m.get("content")) for m in last)

    # 📝 存为备注 under the answer files the question itself
    owner_env.press(answer, "存为备注")
    await once(services)
    [note] = notes(services)
    assert note.text == "今天有什么新询盘？" and note.inquiry_id is None


async def test_a_strangers_text_gets_nothing_and_reaches_no_model(
    services: Any, owner_env: TelegramServer, llm: LLMServer
) -> None:
    owner_env.push_message(STRANGER, "what are the new inquiries?")
    owner_env.push_message(OWNER, "我是老板", user_id=STRANGER)  # another user in his chat
    owner_env.push_message(STRANGER, "/note 1 hello")
    await once(services)
    assert owner_env.sent == []
    assert owner_env.calls_of("sendChatAction") == []
    assert llm.requests == []  # the model never saw a word of it
    assert notes(services) == []


async def test_a_reply_to_an_alert_asks_about_its_customer_and_files_on_it(
    services: Any, center: Any, owner_env: TelegramServer, llm: LLMServer
) -> None:
    inquiry_id = add_inquiry(services, customer_name="Amy")
    services.bus.publish(InquiryCreated(inquiry_id))
    await once(services)
    [alert] = owner_env.sent_to(OWNER)
    owner_env.push_message(OWNER, "Amy 要白色边框", reply_to=alert)
    await once(services)
    # the assistant answered with Amy as the customer the message is about
    last = llm.chat_requests[-1].body["messages"]
    assert any(
        f"Current customer: inquiry #{inquiry_id}, Amy" in str(m.get("content")) for m in last
    )
    answer = owner_env.sent_to(OWNER)[-1]
    assert notes(services) == []  # nothing is filed without his press
    owner_env.press(answer, "存为备注")
    await once(services)
    assert [(n.inquiry_id, n.text) for n in notes(services)] == [(inquiry_id, "Amy 要白色边框")]


async def test_note_command_files_on_the_last_alert_or_the_given_inquiry(
    services: Any, center: Any, owner_env: TelegramServer, llm: LLMServer
) -> None:
    first = add_inquiry(services, customer_name="Amy")
    second = add_inquiry(services, customer_name="Bob")
    services.bus.publish(InquiryCreated(first))
    services.bus.publish(InquiryCreated(second))
    await once(services)  # Bob's alert went last
    owner_env.push_message(OWNER, "/note 周六上午在家")
    owner_env.push_message(OWNER, f"/note {first} 要白色边框")
    owner_env.push_message(OWNER, "/note 999 找不到的询盘")
    owner_env.push_message(OWNER, "/note")
    await once(services)
    assert [(n.inquiry_id, n.text) for n in notes(services)] == [
        (second, "周六上午在家"),
        (first, "要白色边框"),
    ]
    replies = [m.visible for m in owner_env.sent_to(OWNER)[-4:]]
    assert replies[0] == f"📝 已保存备注，记在：询盘 #{second} Bob。"
    assert replies[1] == f"📝 已保存备注，记在：询盘 #{first} Amy。"
    assert replies[2] == "没有找到询盘 #999，备注没有保存。"
    assert replies[3].startswith("用法：/note")
    assert llm.requests == []


async def test_without_an_ai_address_text_is_filed_and_he_is_told_once(
    services: Any, owner_env: TelegramServer
) -> None:
    owner_env.push_message(OWNER, "记得周一订玻璃")
    owner_env.push_message(OWNER, "还有纱窗")
    await once(services)
    first, second = owner_env.sent_to(OWNER)
    assert (
        "要把这段文字存为备注吗？" in first.visible and "要把这段文字存为备注吗？" in second.visible
    )
    assert "需要先在电脑上设置 AI 服务地址" in first.visible
    assert "AI 服务地址" not in second.visible  # told once, not on every message


async def test_a_draft_the_assistant_writes_comes_with_its_buttons_and_waits(
    services: Any,
    center: Any,
    owner_env: TelegramServer,
    llm: LLMServer,
    graph: GraphServer,
) -> None:
    inquiry_id = add_inquiry(services)
    services.bus.publish(InquiryCreated(inquiry_id))
    await once(services)
    [alert] = owner_env.sent_to(OWNER)  # a reply to it makes John the customer "he" means
    owner_env.push_message(OWNER, "给他回复，说下周二上门量尺", reply_to=alert)
    await once(services)
    [(draft_id, drafted_for, status)] = drafts(services)
    assert (drafted_for, status) == (inquiry_id, "pending_approval")
    answer, card = owner_env.sent_to(OWNER)[-2:]
    assert "草稿已写好" in answer.visible
    assert card.visible.startswith(f"待审批草稿 #{draft_id}")
    assert "Tuesday" in card.visible  # the English that 发送 would send is on the phone
    assert [b["text"] for b in card.draft_buttons()] == ["✅ 发送", "🗑 放弃", "💻 在电脑上修改"]
    assert graph.sent_log == []
    # the delivery round does not send the same approval alert again
    count = len(owner_env.sent_to(OWNER))
    await once(services)
    assert len(owner_env.sent_to(OWNER)) == count
    # only his press sends it
    owner_env.press(card, "发送")
    await once(services)
    assert drafts(services)[0][2] == "sent" and len(graph.sent_log) == 1


@pytest.mark.slow
async def test_a_voice_question_is_transcribed_locally_and_answered(
    services: Any,
    center: Any,
    owner_env: TelegramServer,
    llm: LLMServer,
    owner_model: OwnerModel,
    tmp_path: Path,
) -> None:
    from tests.voice.speech import encode, espeak

    wav = espeak("Please send the customer a quote for the kitchen window.", tmp_path / "q.wav")
    ogg = encode(wav, tmp_path / "q.ogg", "libopus")
    owner_env.push_voice(OWNER, ogg.read_bytes())
    await once(services)
    heard, answer = owner_env.sent_to(OWNER)
    assert heard.visible.startswith("🎤") and "kitchen window" in heard.visible.lower()
    assert "kitchen window" in owner_model.questions[0].lower()  # the words reached the model
    assert "今天有 1 个新询盘" in answer.visible
    assert notes(services) == []

    # the same voice as a reply to an alert is about that alert's customer; 存为备注 files it
    inquiry_id = add_inquiry(services, customer_name="Amy")
    services.bus.publish(InquiryCreated(inquiry_id))
    await once(services)
    alert = owner_env.sent_to(OWNER)[-1]
    owner_env.push_voice(OWNER, ogg.read_bytes(), reply_to=alert)
    await once(services)
    answer = owner_env.sent_to(OWNER)[-1]
    assert "kitchen window" in owner_model.questions[-1].lower()
    owner_env.press(answer, "存为备注")
    await once(services)
    [note] = notes(services)
    assert note.inquiry_id == inquiry_id and "kitchen window" in note.text.lower()


async def test_a_long_answer_arrives_in_pieces_and_a_false_claim_never_reaches_him(
    services: Any, owner_env: TelegramServer
) -> None:
    long_answer = "\n\n".join(
        f"{i}. 客户 #{i} 在 Epping，要推拉门 & 纱窗，尚未回复。" * 4 for i in range(60)
    )
    answers = iter([long_answer, "好的，邮件已发送给 John。"])
    with LLMServer(lambda request: next(answers)) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        owner_env.push_message(OWNER, "列出所有没回复的客户")
        await once(services)
        pieces = owner_env.sent_to(OWNER)
        assert len(long_answer) > 4096 and len(pieces) >= 2
        assert all(len(p.visible) <= 4096 and p.parse_mode == "HTML" for p in pieces)
        assert [bool(p.buttons()) for p in pieces] == [False] * (len(pieces) - 1) + [True]
        owner_env.push_message(OWNER, "给 John 发了吗？")
        await once(services)
    # nothing was sent, so the assertion guard's words reach him, not the model's
    assert "邮件已发送给 John" not in owner_env.sent_to(OWNER)[-1].visible
