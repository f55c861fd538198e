"""The knowledge file itself: read it, save it whole, add one line to a section.

Why these guarantees: the file is the owner's own writing, so losing it is losing his work.
A save is atomic (a temporary sibling created 0600, flushed, then renamed over the file), so a
crash or a full disk leaves the old text or the new one, never half of each; the file is
owner-only like the rest of the data folder (mail, customers). A save names the version it was
edited from: when the file changed meanwhile (an addition he confirmed in the chat, an edit in
another program) the save is refused with ``KnowledgeChanged`` instead of silently dropping that
change. An addition (``add``) takes the same lock, so it never races a save.

The file starts absent: the app invents no facts. ``skeleton`` is the empty outline of
sections (headings only) the page can insert for him.

When the store is PostgreSQL the knowledge base is the store's document ``knowledge`` instead
of the folder's file (``SharedText``, ``core.db.shared_files``), so every desk reads and edits the
same one; a save or an addition then runs under that row's lock, with the same version check.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from filelock import FileLock

from core.errors import InquiryBridgeError

__all__ = [
    "FILE_NAME",
    "SECTIONS",
    "KnowledgeBase",
    "KnowledgeChanged",
    "KnowledgeDoc",
    "SharedText",
    "knowledge_for",
    "skeleton",
]

FILE_NAME = "knowledge.md"
DOCUMENT = "knowledge"  # its name in the store on PostgreSQL
SHOWN_IN_STORE = "数据库（PostgreSQL）中的知识库 / the knowledge base in the PostgreSQL store"


class SharedText(Protocol):
    """A document kept in the store (``core.db.shared_files.TableFiles``)."""

    def read_text(self, name: str) -> str | None: ...
    def update_text(self, name: str, change: Callable[[str | None], str | None]) -> None: ...


# (key the assistant's tool names, the heading the owner reads in his file)
SECTIONS: tuple[tuple[str, str], ...] = (
    ("products", "产品"),
    ("options", "选项与配件"),
    ("glass", "玻璃"),
    ("lead_times", "交货期"),
    ("warranty", "保修"),
    ("price_rules", "价格规则"),
    ("standards", "标准与规范"),
    ("faq", "常见问题"),
)
SECTION_NAMES = dict(SECTIONS)
MAX_CHARS = 2_000_000  # a pasted catalogue is fine; a pasted disk image is not


class KnowledgeChanged(InquiryBridgeError):
    """The file changed since the page loaded it: saving now would drop that change."""

    code = "error"


@dataclass(frozen=True)
class KnowledgeDoc:
    """The file's text and the version a save must name (a hash of the text; "" = no file)."""

    text: str
    version: str
    path: str


def _version(text: str | None) -> str:
    if text is None:
        return ""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def skeleton() -> str:
    """The empty outline of sections, headings only: no invented facts."""
    return "".join(f"## {name}\n\n\n" for _key, name in SECTIONS)


def _normalise(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")
    return text + "\n" if text else ""


class KnowledgeBase:
    """The owner's knowledge file in one data folder (or, with ``shared``, the store's)."""

    def __init__(self, path: Path, shared: SharedText | None = None) -> None:
        self.path = Path(path)
        self.shared = shared
        self._lock = FileLock(str(self.path.with_name(f".{self.path.name}.lock")), mode=0o600)

    @property
    def where(self) -> str:
        """Where it is kept, as the page shows it."""
        return SHOWN_IN_STORE if self.shared is not None else str(self.path)

    def _read(self) -> str | None:
        if self.shared is not None:
            return self.shared.read_text(DOCUMENT) or None  # empty reads as not written yet
        try:
            return self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except UnicodeDecodeError:  # saved by another editor in GBK: still his words
            return self.path.read_bytes().decode("gb18030", errors="replace")

    def load(self) -> KnowledgeDoc:
        raw = self._read()
        return KnowledgeDoc(raw or "", _version(raw), self.where)

    def text(self) -> str:
        """The whole text ("" while he has written nothing)."""
        return self._read() or ""

    def save(self, text: str, version: str | None = None) -> KnowledgeDoc:
        """Replace the file with ``text``; refused when ``version`` is given and stale."""
        clean = _normalise(text)
        if len(clean) > MAX_CHARS:
            raise InquiryBridgeError(f"知识库太大（超过 {MAX_CHARS // 1_000_000} 百万字）")

        def change(current: str | None) -> str | None:
            current = current or None
            if version is not None and version != _version(current):
                raise KnowledgeChanged(
                    "知识库已在别处修改（例如刚确认的助手建议），请重新载入后再保存"
                )
            if current is None and not clean:
                return None  # nothing written, nothing to create
            return clean

        self._change(change)
        return self.load()

    def _change(self, change: Callable[[str | None], str | None]) -> None:
        """``change(current)`` under the lock (the folder's file lock, or the store's row
        lock); its answer, unless None, replaces the text."""
        if self.shared is not None:
            self.shared.update_text(DOCUMENT, change)
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._lock:
            new = change(self._read())
            if new is not None:
                self._write(new)

    def add(self, section: str, line: str) -> KnowledgeDoc:
        """Append ``line`` as a list item at the end of ``section`` (a key of ``SECTIONS`` or
        a heading); the section is made at the end of the file when it is not there yet."""
        line = " ".join(line.split())
        if not line:
            raise InquiryBridgeError("要记进知识库的内容为空")
        heading = SECTION_NAMES.get(section, section.strip() or SECTION_NAMES["faq"])
        self._change(lambda current: _normalise(insert_line(current or "", heading, f"- {line}")))
        return self.load()

    def _write(self, text: str) -> None:
        handle, temp = tempfile.mkstemp(prefix=f".{self.path.name}-", dir=self.path.parent)
        try:
            if os.name == "posix":
                os.fchmod(handle, 0o600)
            with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(temp, self.path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise


_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def insert_line(text: str, heading: str, line: str) -> str:
    """``text`` with ``line`` at the end of the section titled ``heading`` (made if absent)."""
    lines = text.rstrip("\n").split("\n") if text.strip() else []
    start = next(
        (
            i
            for i, raw in enumerate(lines)
            if (m := _HEADING.match(raw)) and m.group(1).strip() == heading
        ),
        None,
    )
    if start is None:
        return "\n".join([*lines, *([""] if lines else []), f"## {heading}", "", line]) + "\n"
    end = next((i for i in range(start + 1, len(lines)) if _HEADING.match(lines[i])), len(lines))
    last = end
    while last > start + 1 and not lines[last - 1].strip():
        last -= 1  # after the section's last written line, before its trailing blank lines
    body = lines[start + 1 : last]
    insert = [line] if any(b.strip() for b in body) else ["", line]
    out = [*lines[:last], *insert, *lines[last:]]
    if last == end and end < len(lines):
        out.insert(last + len(insert), "")
    return "\n".join(out) + "\n"


def knowledge_for(home: Path, shared: SharedText | None = None) -> KnowledgeBase:
    """The knowledge base of the data folder ``home`` (the store's, when ``shared`` is given:
    ``DataPaths.shared`` on PostgreSQL)."""
    return KnowledgeBase(Path(home) / FILE_NAME, shared)
