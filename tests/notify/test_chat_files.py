"""Files the assistant finds reach the owner's phone: over the loopback Bot API and a scripted
loopback model that calls ``find_attachments``.

What the owner would notice: asking "Steward 的平面图在哪" on Telegram brings the answer and then
the plan itself as a document he can open (the very bytes that came with the email, captioned
with its name); a file too big for a bot (over 50 MB) comes as one Chinese line telling him to
open it on the computer; a stranger asking the same gets nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from core.db.models import Attachment
from core.services import Services
from tests.drafts.support import add_inquiry
from tests.notify.conftest import OWNER, STRANGER
from tests.support.llm_server import LLMServer, schema_name
from tests.support.telegram_server import TelegramServer

QUESTION = "Steward 的平面图在哪"
# binary bytes a careless upload would mangle (CR LF, NUL, a multipart-looking line)
PLAN = b"%PDF-1.4\r\n%\xe2\xe3\xcf\xd3\r\n\x00\x01--boundary\r\n" + bytes(range(256)) * 40


class FileModel:
    """Looks the plan up by name, then says where it is."""

    def __init__(self) -> None:
        self.questions: list[str] = []

    def __call__(self, request: dict[str, Any]) -> Any:
        if schema_name(request) or not request.get("tools"):
            return "好的。"
        if not any(m.get("role") == "tool" for m in request["messages"]):
            self.questions.append(str(request["messages"][-1]["content"]))
            return [{"name": "find_attachments", "arguments": {"filename": "plan"}}]
        return "找到了 Steward 的平面图，文件发在下面。"


def add_file(
    services: Services,
    message_pk: int,
    name: str,
    data: bytes | None = None,
    *,
    size: int | None = None,
    stored: bool = True,
) -> int:
    """An attachment row of a message, its file written under the data folder (``size``: a
    sparse file of that many bytes; ``stored=False``: over the download cap, never kept)."""
    relative = f"attachments/{message_pk}/{name}"
    if stored:
        path = services.paths.home / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            if data is not None:
                out.write(data)
            else:
                out.truncate(size or 0)
    length = len(data) if data is not None else int(size or 0)

    def do(session: Any) -> int:
        row = Attachment(
            message_pk=message_pk,
            filename=name,
            size=length,
            stored_path=relative if stored else None,
            content_type="application/pdf",
        )
        session.add(row)
        session.flush()
        return row.id

    return int(services.store.write(do))


@pytest.fixture
def steward(services: Services) -> dict[str, int]:
    inquiry_id, message_pk = add_inquiry(services, name="Steward Lee", email="steward@example.com")
    return {
        "inquiry": inquiry_id,
        "plan": add_file(services, message_pk, "Steward floor plan.pdf", PLAN),
        "old": add_file(services, message_pk, "old plan.pdf", size=1000, stored=False),
    }


@pytest.fixture
def file_model() -> FileModel:
    return FileModel()


@pytest.fixture
def llm(services: Any, file_model: FileModel) -> Iterator[LLMServer]:
    with LLMServer(file_model) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        yield server


async def once(services: Any, app: Any) -> Any:
    from core.telegram.runner import TelegramRunner

    runner = TelegramRunner(services, assistant=app.assistant, composer=lambda: app.drafts.composer)
    try:
        return await runner.run_once()
    finally:
        await runner.aclose()


async def test_the_owner_gets_the_plan_the_assistant_found_as_a_document(
    services: Any,
    owner_env: TelegramServer,
    llm: LLMServer,
    file_model: FileModel,
    app: Any,
    steward: dict[str, int],
) -> None:
    owner_env.push_message(OWNER, QUESTION)
    await once(services, app)
    assert file_model.questions and QUESTION in file_model.questions[0]
    [answer] = owner_env.sent_to(OWNER)
    assert "找到了 Steward 的平面图" in answer.visible
    [document] = owner_env.documents_to(OWNER)  # the file never kept here is not offered
    assert document.filename == "Steward floor plan.pdf"
    assert document.caption == "Steward floor plan.pdf"
    assert document.data == PLAN  # byte for byte what came with the email
    assert document.content_type == "application/pdf"
    assert document.message_id > answer.message_id  # after the answer, not before
    uploads = [c for c in owner_env.calls_of("sendChatAction") if c["action"] != "typing"]
    assert uploads == [{"chat_id": OWNER, "action": "upload_document"}]


async def test_a_file_over_the_bot_limit_comes_as_a_line_to_open_it_on_the_computer(
    services: Any,
    owner_env: TelegramServer,
    llm: LLMServer,
    app: Any,
    steward: dict[str, int],
) -> None:
    message_pk = add_inquiry(services, name="Steward Lee", email="steward@example.com")[1]
    add_file(services, message_pk, "plan scan.tif", size=51_000_000)  # sparse: costs no disk
    owner_env.push_message(OWNER, QUESTION)
    await once(services, app)
    assert [d.filename for d in owner_env.documents_to(OWNER)] == ["Steward floor plan.pdf"]
    lines = [m.visible for m in owner_env.sent_to(OWNER)]
    too_big = [line for line in lines if "plan scan.tif" in line]
    assert too_big == [
        "📎 plan scan.tif（51.0 MB）超过 Telegram 50 MB 的发送上限，无法发到手机，请在电脑上打开。"
    ]


async def test_a_stranger_asking_for_the_plan_gets_nothing(
    services: Any,
    owner_env: TelegramServer,
    llm: LLMServer,
    app: Any,
    steward: dict[str, int],
) -> None:
    owner_env.push_message(STRANGER, QUESTION)
    owner_env.push_message(OWNER, QUESTION, user_id=STRANGER)  # another member of his chat
    await once(services, app)
    assert owner_env.documents == [] and owner_env.sent == []
    assert owner_env.calls_of("sendDocument") == []
    assert llm.requests == []


async def test_a_file_gone_from_disk_is_not_sent_and_he_is_told(
    services: Any,
    owner_env: TelegramServer,
    llm: LLMServer,
    app: Any,
    steward: dict[str, int],
) -> None:
    message_pk = add_inquiry(services, name="Steward Lee", email="steward@example.com")[1]
    gone = add_file(services, message_pk, "moved plan.pdf", b"%PDF-1.4 moved")
    (services.paths.home / f"attachments/{message_pk}/moved plan.pdf").unlink()
    owner_env.push_message(OWNER, QUESTION)
    await once(services, app)
    assert [d.filename for d in owner_env.documents_to(OWNER)] == ["Steward floor plan.pdf"]
    lines = [m.visible for m in owner_env.sent_to(OWNER)]
    assert f"📎 附件 #{gone} 不在这台电脑上了，请在电脑上查看原邮件。" in lines
