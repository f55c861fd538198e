"""N 封等待 AI: the status bar's and the tray's line for mails waiting for the model, with why.

The core counts them and names the reason by a key (``core.intake.waiting``); the words are
here, through ``tr()``, so the line follows the UI language.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def _reason(key: str) -> str:
    translate = QCoreApplication.translate
    if key == "slow":
        return translate(
            "ModelWaiting", "the model did not finish in time (a model on this PC is slow)"
        )
    if key == "unreachable":
        return translate("ModelWaiting", "the AI service cannot be reached")
    if key == "format":
        return translate("ModelWaiting", "the model's answers were not in the required form")
    return translate("ModelWaiting", "the AI did not answer")


def model_waiting_line(count: int, reason: str) -> str:
    """The line, e.g. "3 封等待 AI：连不上 AI 服务，下一轮会自动重试"."""
    line = QCoreApplication.translate(
        "ModelWaiting", "Mails waiting for the AI: %1 — %2; they are retried on the next round"
    )
    return line.replace("%1", str(count)).replace("%2", _reason(reason))
