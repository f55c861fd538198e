"""添加本机文件… on the approval window: real widgets, a chooser instead of the modal dialog."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFileDialog

from desktop.approval.window import ApprovalWindow
from tests.drafts.support import CUSTOMER, add_inquiry
from tests.support.qt import settles, wait_until


async def _window(qtbot, services, folder_app, drafting, graph) -> ApprovalWindow:  # type: ignore[no-untyped-def]
    gid = graph.add_message(subject="Sliding door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(services, source_id=gid)
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")
    window = ApprovalWindow(folder_app, drafting, draft_id)
    qtbot.addWidget(window)
    window.show()
    await window.ready()
    return window


def _items(window: ApprovalWindow) -> list[tuple[str, bool]]:
    out = []
    for row in range(window.files_list.count()):
        item = window.files_list.item(row)
        out.append((item.text().split("  ")[0], item.checkState() == Qt.CheckState.Checked))
    return out


@settles
async def test_the_button_adds_a_local_file_ticked_without_blocking_the_ui(
    qtbot, zh, services, folder_app, drafting, graph, tmp_path, monkeypatch
):
    window = await _window(qtbot, services, folder_app, drafting, graph)
    assert window.add_file_button.text() == "添加本机文件…"
    assert window.add_file_button.isEnabled() and window.files_list.count() == 0
    folder = tmp_path / "OneDrive" / "Jane Citizen"
    folder.mkdir(parents=True)
    quote = folder / "报价单.pdf"
    quote.write_bytes(b"%PDF quote" * 100)
    window.choose_file = lambda: str(quote)

    # the database's one writer is held until the test has seen the window stay live: the
    # service's write (after its copy, on a worker thread) waits behind it
    gate = threading.Event()
    threads: list[str] = []

    def held(session):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread().name)
        assert gate.wait(10), "the UI never got to run while the file was added"

    holder = asyncio.ensure_future(services.store.run(held))
    await wait_until(lambda: bool(threads))
    qtbot.mouseClick(window.add_file_button, Qt.MouseButton.LeftButton)
    # the UI loop is running: it shows the progress, and the buttons wait
    await wait_until(lambda: window.status_label.text() == "正在添加文件…")
    assert window.busy and not window.progress.isHidden()
    assert not window.add_file_button.isEnabled() and not window.approve_button.isEnabled()
    assert threads[0] != threading.main_thread().name
    gate.set()
    await holder

    await wait_until(lambda: window.view.attachment_ids and not window.busy)
    await window.ready()
    assert _items(window) == [("报价单.pdf", True)]
    assert window.files_note.text() == "已选 1 个附件，共 1000 B"
    assert window.status_label.text() == "已添加 报价单.pdf"
    assert window.view.status == "pending_approval"
    assert window.last_folder == str(folder)  # remembered for the next time

    # the real dialog would open there (no modal in the test: its function is replaced). It is
    # modal, so it must run in the click's slot, outside every asyncio task: a nested event
    # loop inside a running task breaks qasync's wake-ups of the app's other tasks.
    asked: list[tuple[str, str, object]] = []

    def fake_dialog(parent, caption, start):  # type: ignore[no-untyped-def]
        asked.append((caption, start, asyncio.current_task()))
        return "", ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", fake_dialog)
    window.choose_file = window._choose_file_dialog
    QTimer.singleShot(0, window.add_file_button.click)  # a click, as Qt delivers it
    await wait_until(lambda: bool(asked))
    assert asked == [("选择要附加的文件", str(folder), None)]  # cancelled: nothing happens
    assert _items(window) == [("报价单.pdf", True)]

    assert await window.approve_and_send() == "sent"
    [sent] = graph.sent_log
    assert [name for name, _, _ in sent["attachments"]] == ["报价单.pdf"]
    assert not window.add_file_button.isEnabled()  # a sent email takes no more files
    window.close()


@settles
async def test_a_file_that_cannot_go_shows_a_chinese_error(
    qtbot, zh, services, folder_app, drafting, graph, tmp_path
):
    window = await _window(qtbot, services, folder_app, drafting, graph)
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    window.choose_file = lambda: str(empty)

    assert await window.add_local_file(window.choose_file()) is False

    # a file problem, not a draft-state one (issue 16: errors carry the right category)
    assert "空的" in window.status_label.text() and "文件无法使用" in window.status_label.text()
    assert not window.busy and window.add_file_button.isEnabled()
    assert window.files_list.count() == 0 and window.view.attachment_ids == []
    assert window.last_folder is None
    window.close()


@settles
async def test_the_dialog_starts_in_the_home_folder_the_first_time(
    qtbot, zh, services, folder_app, drafting, graph, monkeypatch
):
    window = await _window(qtbot, services, folder_app, drafting, graph)
    asked: list[str] = []

    def fake_dialog(parent, caption, start):  # type: ignore[no-untyped-def]
        asked.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", fake_dialog)
    assert window._choose_file_dialog() is None
    assert asked == [str(Path.home())]
    window.close()
