"""The one answer to "this needs an AI model and none is set up": one sentence, one button.

Why one place: 起草回复, 翻译, 重新翻译, 修改, the assistant and 测试连接 all reach the model,
and without an endpoint each used to say something else ("无法连接 AI 服务…", a raw
``llm.base_url``, a label that does not exist). ``not_configured`` recognises the case
(``core.errors.LLMNotConfigured``); ``sentence`` is the text in the UI language; ``offer``
shows it in a box whose 打开 AI 设置 button opens Settings at its AI page; ``settings_button``
is that button for a window that shows the sentence in its own status line.

The desktop app registers how settings open (``set_opener``) once at start; without it (a
screenshot, a bare widget in a test) the sentence is shown without the button. Provider errors
(a wrong key, an unreachable server) are not this case and keep their own wording.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QWidget

from core.app.types import LLMNotConfigured

_opener: Callable[[], object] | None = None
_open_boxes: set[QMessageBox] = set()


def set_opener(opener: Callable[[], object] | None) -> None:
    """How 打开 AI 设置 opens Settings at the AI page (``DesktopApp.show_settings(1)``)."""
    global _opener
    _opener = opener


def not_configured(exc: BaseException | None = None, *, available: bool | None = None) -> bool:
    """The error (or the ``available`` flag of ``ctx.app.llm``) says no endpoint is set up."""
    if available is not None:
        return not available
    return isinstance(exc, LLMNotConfigured)


def sentence() -> str:
    return QCoreApplication.translate(
        "AiNeeded",
        "No AI model is set up yet, and this needs one. Open Settings → AI model, "
        "fill in “Endpoint URL”, then try again.",
    )


def button_text() -> str:
    return QCoreApplication.translate("AiNeeded", "Open AI settings")


def can_open() -> bool:
    return _opener is not None


def open_ai_settings() -> bool:
    """Open Settings at its AI page; False when no app registered how."""
    if _opener is None:
        return False
    _opener()
    return True


def settings_button(parent: QWidget | None = None) -> QPushButton:
    """打开 AI 设置 as a button (hidden when nothing can open the settings)."""
    button = QPushButton(button_text(), parent)
    button.setObjectName("openAiSettings")
    button.clicked.connect(open_ai_settings)
    button.setVisible(can_open())
    return button


def offer(parent: QWidget | None) -> QMessageBox:
    """The sentence in a box, with 打开 AI 设置 (when the app can open it) and 关闭."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Information)
    box.setWindowTitle(QCoreApplication.translate("AiNeeded", "AI model needed"))
    box.setText(sentence())
    box.setObjectName("aiNeeded")
    if _opener is not None:
        go = box.addButton(button_text(), QMessageBox.ButtonRole.AcceptRole)
        go.clicked.connect(open_ai_settings)
        box.setProperty("open_button", go)
    box.addButton(QMessageBox.StandardButton.Close)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    _open_boxes.add(box)
    box.finished.connect(lambda _r, b=box: _open_boxes.discard(b))
    box.open()
    return box
