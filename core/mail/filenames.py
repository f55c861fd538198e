"""Names for files written from mail: what a sender calls an attachment is not a safe path.

A name comes from a stranger (``..\\..\\startup.bat``, ``CON.pdf``, 300 characters, bidi
overrides) and becomes a file under the data folder on Windows and Linux; stored attachments and
the files attached to drafts use this one rule.
"""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[^\w.\- ()\[\]\u4e00-\u9fff]+")
_RESERVED = re.compile(r"^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])\s*(?:\..*)?$", re.IGNORECASE)
MAX_NAME = 120  # characters: the stored path stays far below Windows' 260 (MAX_PATH)


def safe_filename(name: str | None, fallback: str) -> str:
    """A file name that is safe on Windows and Linux: no folders, no reserved characters, not a
    device name Windows reserves (``CON``, ``aux.pdf``, ``LPT1.txt``), at most ``MAX_NAME``
    characters with its extension kept."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1].strip().strip(".")
    base = _UNSAFE.sub("_", base).strip(" .")
    if len(base) > MAX_NAME:
        stem, dot, ext = base.rpartition(".")
        if dot and 0 < len(ext) <= 10 and stem:
            base = stem[: MAX_NAME - len(ext) - 1].rstrip(" .") + "." + ext
        else:
            base = base[:MAX_NAME].rstrip(" .")
    if _RESERVED.match(base):
        base = "_" + base
    return base or fallback
