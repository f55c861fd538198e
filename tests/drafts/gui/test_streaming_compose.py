"""起草回复 with a slow model on his PC: he sees 正在生成… and the English as it is written, and
the dialog ends in the approval window, not in a failure message (#45)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from desktop.approval.window import ApprovalWindow
from tests.drafts.support import add_inquiry
from tests.drafts.test_streaming_draft import CHUNK, INSTRUCTION, LOCAL, LongDrafts
from tests.support.llm_server import LLMServer
from tests.support.qt import wait_until
from tests.support.slow_llm import SlowModel


@pytest.fixture
def llm_server() -> Iterator[LLMServer]:
    with LLMServer(SlowModel(LongDrafts(), chunk_delay=CHUNK)) as srv:
        yield srv


@pytest.mark.qt_log_ignore("does not support propagateSizeHints")  # offscreen dialogs
async def test_the_owner_watches_a_slow_draft_being_written(
    qtbot: Any, zh: Any, services: Any, folder_app: Any, drafting: Any, llm_server: LLMServer
) -> None:
    from desktop.approval.compose_dialog import ComposeDialog

    services.settings.update(LOCAL)
    inquiry_id, _ = add_inquiry(services)
    dialog = ComposeDialog(folder_app, drafting, inquiry_id)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.instruction.setPlainText(INSTRUCTION)
    task = dialog.start()
    await wait_until(lambda: "Thank you for your" in dialog.preview.toPlainText())
    assert dialog.preview.isVisible() and dialog.preview.isReadOnly()
    assert dialog.status.text().startswith("正在生成")
    assert "{" not in dialog.preview.toPlainText()  # the email, never the JSON around it
    draft_id = await task
    assert draft_id is not None
    assert isinstance(dialog.approval_window, ApprovalWindow)
    assert "失败" not in dialog.status.text() and "超时" not in dialog.status.text()
    dialog.approval_window.close()
