"""Dictation into the drafting instruction box of the real ComposeDialog (起草回复)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from core.app import App
from core.db.models import Draft, Inquiry
from core.drafts.drafting import build_drafting
from core.services import Services
from core.voice.audio import read_pcm16k
from core.voice.transcriber import Transcriber
from desktop.voice.recorder import GeneratedAudioInput
from tests.voice.speech import SENTENCES, word_error_rate

pytestmark = pytest.mark.slow


async def wait_until(condition: Callable[[], bool], timeout: float = 90.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


async def test_dictated_words_land_in_the_instruction_box_and_nothing_is_drafted(
    qtbot: QtBot, qapp, services: Services, whisper: Transcriber, short_wav: Path
) -> None:
    from desktop.approval.compose_dialog import ComposeDialog

    now = datetime(2026, 4, 1)

    def _add(session) -> int:  # type: ignore[no-untyped-def]
        inquiry = Inquiry(
            stage_changed_at=now,
            created_at=now,
            updated_at=now,
            customer_name="Jane Citizen",
            customer_email="jane@example.com",
        )
        session.add(inquiry)
        session.flush()
        return inquiry.id

    inquiry_id = services.store.write(_add)
    services.settings.update({"llm.base_url": "http://127.0.0.1:9/v1"})  # an AI is set up
    drafting = build_drafting(services, None)
    dialog = ComposeDialog(App(services), drafting, inquiry_id)
    qtbot.addWidget(dialog)
    source = GeneratedAudioInput(read_pcm16k(short_wav))
    dialog.dictation.audio_input_factory = lambda: source

    box = dialog.instruction
    box.setPlainText("报价含GST，")
    box.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyPress(box, Qt.Key.Key_F9)  # tap F9: start…
    qtbot.keyRelease(box, Qt.Key.Key_F9)
    assert dialog.dictation.state == "recording"
    source.push()  # …the owner speaks…
    qtbot.keyPress(box, Qt.Key.Key_F9)  # …tap F9 again: stop and transcribe
    qtbot.keyRelease(box, Qt.Key.Key_F9)
    await wait_until(lambda: dialog.dictation.state == "idle" and len(box.toPlainText()) > 10)

    text = box.toPlainText()
    assert text.startswith("报价含GST，Please")  # inserted at the cursor, no space after Chinese
    assert word_error_rate(SENTENCES[0], text[len("报价含GST，") :]) <= 0.15, text
    assert dialog.compose_button.isEnabled()  # ready for the owner to press, not pressed
    with services.store.session() as session:
        assert session.query(Draft).count() == 0  # never acted on automatically
