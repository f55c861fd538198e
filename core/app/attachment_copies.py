"""``AttachmentCopies`` (``App.attachment_copies``): a customer's file saved where the owner chose.

Why in core: the copy of an attachment that came by mail must carry Windows' mark of the web
(``core.mail.attachment_risk.mark_of_the_web``) like any download, so that opening it later
warns as Windows does; a front end asks for the copy and never writes the mark itself.

Synchronous on purpose: it runs in the 另存为… dialog's answer, one local file copy of a file the
intake already capped in size, and the caller shows the saved file at once.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from core.mail.attachment_risk import mark_of_the_web


class AttachmentCopies:
    def __init__(self, *, platform: str | None = None) -> None:
        self._platform = platform  # ``sys.platform`` when None (tests name Windows)

    def save(self, source: Path, target: Path) -> Path:
        """Copy ``source`` (a stored attachment) to ``target`` and mark it as from the internet."""
        shutil.copyfile(source, target)
        # a copy of mail from outside is still from the internet
        mark_of_the_web(target, platform=self._platform)
        return target
