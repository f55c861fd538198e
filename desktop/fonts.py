"""Is there a font that can draw Chinese? On a fresh Linux desktop there often is not.

Without one every Chinese label is a row of boxes and the owner cannot even read the error. The
app checks once at start (Linux only: Windows and macOS ship CJK fonts) and says what to install
in a banner whose text keeps an English half, since its Chinese half may itself be boxes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFontDatabase

INSTALL_HINT = "sudo apt install fonts-wqy-microhei"


def chinese_families() -> list[str]:
    return list(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def missing_cjk_font(
    families: Callable[[], list[str]] = chinese_families, platform: str = sys.platform
) -> bool:
    """True on Linux when no installed font covers Simplified Chinese."""
    return platform.startswith("linux") and not families()


def missing_font_message() -> tuple[str, str]:
    """Banner title and body (Chinese with the English beside it)."""
    title = QCoreApplication.translate("Fonts", "No Chinese font")
    body = QCoreApplication.translate(
        "Fonts",
        "Chinese text will show as boxes. Install a Chinese font, then restart: {command}",
    ).format(command=INSTALL_HINT)
    return title, body
