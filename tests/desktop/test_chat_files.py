"""Files the assistant finds, in the chat panel: over a real store and a loopback model that
calls ``find_attachments``.

What the owner would notice: asking "Steward 的平面图在哪" puts a "Steward floor plan.pdf"
link under the answer, and clicking it opens that very file with the system viewer (the test
stands in for the viewer with a ``file`` URL handler); a file never kept on this computer is
not offered; one deleted since he was shown it is not opened, and he is told.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QObject, QPoint, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QTextCursor

from desktop.main_window import MainWindow
from tests.drafts.support import add_inquiry
from tests.notify.test_chat_files import PLAN, FileModel, add_file
from tests.support.llm_server import LLMServer
from tests.support.qt import settles, wait_until

QUESTION = "Steward 的平面图在哪"


class Viewer(QObject):
    """Stands in for the system viewer: records the URLs Qt was asked to open."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.opened.append(url)


@pytest.fixture
def viewer() -> Any:
    found = Viewer()
    QDesktopServices.setUrlHandler("file", found, "open")
    yield found
    QDesktopServices.unsetUrlHandler("file")


def click_text(browser: Any, qtbot: Any, text: str) -> None:
    """A real mouse click on ``text`` in the transcript (the link the owner sees)."""
    cursor = browser.document().find(text)
    assert not cursor.isNull(), browser.toPlainText()
    cursor.setPosition(cursor.selectionStart() + 2, QTextCursor.MoveMode.MoveAnchor)
    browser.ensureCursorVisible()
    rect = browser.cursorRect(cursor)
    point = QPoint(rect.center().x() + 1, rect.center().y())
    qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=point)


@settles
async def test_the_plan_the_assistant_found_opens_from_the_panel(
    ctx: Any, qtbot: Any, services: Any, viewer: Viewer
) -> None:
    _inquiry, message_pk = add_inquiry(services, name="Steward Lee", email="steward@example.com")
    plan_id = add_file(services, message_pk, "Steward floor plan.pdf", PLAN)
    add_file(services, message_pk, "old plan.pdf", size=1000, stored=False)
    expected = (services.paths.home / f"attachments/{message_pk}/Steward floor plan.pdf").resolve()
    with LLMServer(FileModel()) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        window = MainWindow(ctx)
        qtbot.addWidget(window)
        window.show()
        await window.board.ready()
        window.show_assistant()
        panel = window.chat.panel
        panel.input.setPlainText(QUESTION)
        qtbot.keyClick(panel.input, Qt.Key.Key_Return)
        await wait_until(lambda: "找到的文件" in panel.transcript.toPlainText(), timeout=30)

        shown = panel.transcript.toPlainText()
        assert "找到了 Steward 的平面图" in shown
        assert "找到的文件： Steward floor plan.pdf" in shown
        assert "old plan.pdf" not in shown  # never kept here: not offered as if he could open it
        assert shown.index("找到了 Steward 的平面图") < shown.index(
            "找到的文件： Steward floor plan.pdf"
        )
        assert [e.files for e in panel.transcript.entries if e.role == "files"] == [
            ((plan_id, "Steward floor plan.pdf"),)
        ]

        click_text(panel.transcript, qtbot, "Steward floor plan.pdf")
        await wait_until(lambda: bool(viewer.opened))
        [url] = viewer.opened
        assert url.isLocalFile() and Path(url.toLocalFile()) == expected
        assert Path(url.toLocalFile()).read_bytes() == PLAN

        # deleted since: not handed to the viewer, and he reads why
        expected.unlink()
        assert panel.open_file(plan_id) is False
        assert len(viewer.opened) == 1
        assert "这个文件已不在本机" in panel.transcript.toPlainText()
        await ctx.app.aclose()
