"""The conversation as the owner reads it: his words, the assistant's answers rendered from
Markdown, links to the drafts a turn wrote and to the files it found ("plan.pdf"), and the
turn being written as it streams.

Why one ``QTextBrowser`` and not a widget per message: a day of conversation stays one cheap,
selectable, scrollable document. Finished entries are converted once and cached; while a turn
streams only its growing answer is converted again, and repaints are coalesced (one every
``REPAINT_MS``) so a model that streams word by word never floods the UI thread.

Signals:
    draft_clicked(int): the owner clicked a draft link (``draft:ID``).
    file_clicked(int): the owner clicked a found file (``attachment:ID``).
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from PySide6.QtCore import QTimer
from PySide6.QtCore import QUrl
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from core.app.types import markdown_rich_text
from core.app.types import visible_controls
from desktop.inert import InertBrowser

REPAINT_MS = 40
USER_BG = "#e8f0fe"
ASSISTANT_BG = "#f6f8fa"
ERROR_BG = "#fff1f0"
PROPOSAL_BG = "#fff8e1"  # a change waiting for his confirmation
MUTED = "#6e7781"


@dataclass
class Entry:
    """One block of the transcript: ``role`` is user, assistant, drafts, files, proposal,
    notice or error. ``files``: (attachment id, file name) of a files row; a proposal's id is
    its ``draft_ids[0]``."""

    role: str
    text: str
    draft_ids: tuple[int, ...] = ()
    files: tuple[tuple[int, str], ...] = ()


def markdown_html(text: str) -> str:
    """The model writes Markdown (principle 6); our own renderer escapes it first, so raw HTML
    in an answer (a "✅ 已发送" banner, an ``<img src=file:…>``) stays literal text. Qt's
    Markdown parser is not used: it passes HTML through."""
    return markdown_rich_text(text)


def _bubble(inner: str, background: str, *, width: str = "100%") -> str:
    return (
        f'<table width="{width}" cellspacing="0" cellpadding="8" style="margin-bottom:8px;">'
        f'<tr><td bgcolor="{background}">{inner}</td></tr></table>'
    )


class Transcript(InertBrowser):
    draft_clicked = Signal(int)
    file_clicked = Signal(int)
    proposal_decided = Signal(int, bool)  # (proposal id, confirmed)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            parent,
            internal_schemes=frozenset({"draft", "attachment", "proposal-yes", "proposal-no"}),
        )
        self.setObjectName("chatTranscript")
        self.internal_link.connect(self._on_internal)
        self.entries: list[Entry] = []
        self._cache: list[str] = []
        self.live_text: str | None = None  # the answer being streamed, None between turns
        self.labels: dict[str, str] = {}
        self._repaint = QTimer(self)
        self._repaint.setSingleShot(True)
        self._repaint.setInterval(REPAINT_MS)
        self._repaint.timeout.connect(self.redraw)

    # ------------------------------------------------------------------ content

    def set_entries(self, entries: list[Entry]) -> None:
        self.entries = list(entries)
        self._cache = [self._entry_html(e) for e in self.entries]
        self.live_text = None
        self.redraw()

    def add(self, entry: Entry) -> None:
        self.entries.append(entry)
        self._cache.append(self._entry_html(entry))
        self.redraw()

    def insert(self, index: int, entry: Entry) -> None:
        """Put an entry at ``index`` (a turn's files row, looked up after the turn ended, goes
        right after that turn's answer even if he has asked again meanwhile)."""
        index = max(0, min(index, len(self.entries)))
        self.entries.insert(index, entry)
        self._cache.insert(index, self._entry_html(entry))
        self.redraw()

    def begin_live(self) -> None:
        self.live_text = ""
        self.redraw()

    def append_live(self, text: str) -> None:
        """More streamed text: shown within ``REPAINT_MS``."""
        self.live_text = (self.live_text or "") + text
        if not self._repaint.isActive():
            self._repaint.start()

    def end_live(self, final: Entry | None) -> None:
        """The turn ended: its checked answer replaces whatever was streamed (or nothing)."""
        self.live_text = None
        self._repaint.stop()
        if final is not None:
            self.entries.append(final)
            self._cache.append(self._entry_html(final))
        self.redraw()

    def set_labels(self, labels: dict[str, str]) -> None:
        """Role names and link texts in the UI language (``you``, ``assistant``, ``draft``,
        ``thinking``); everything cached is rebuilt with them."""
        self.labels = labels
        self._cache = [self._entry_html(e) for e in self.entries]
        self.redraw()

    # ------------------------------------------------------------------ rendering

    def redraw(self) -> None:
        bar = self.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 4
        parts = list(self._cache)
        if self.live_text is not None:
            inner = markdown_html(self.live_text) if self.live_text else self._muted("thinking")
            parts.append(self._titled("assistant", inner, ASSISTANT_BG))
        self.setHtml("".join(parts))
        if at_end or self.live_text is not None:
            bar.setValue(bar.maximum())
            QTimer.singleShot(0, self, self._to_end)  # again once the new text is laid out

    def _to_end(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _entry_html(self, entry: Entry) -> str:
        if entry.role == "user":
            body = html.escape(entry.text).replace("\n", "<br>")
            return self._titled("you", f"<p>{body}</p>", USER_BG)
        if entry.role == "assistant":
            return self._titled("assistant", markdown_html(entry.text), ASSISTANT_BG)
        if entry.role == "drafts":
            links = " · ".join(
                f'<a href="draft:{d}">{html.escape(self.labels.get("draft", "Draft"))} #{d}</a>'
                for d in entry.draft_ids
            )
            return f'<p style="margin-bottom:10px;">{links}</p>'
        if entry.role == "files":
            links = " · ".join(
                f'<a href="attachment:{i}">{html.escape(visible_controls(name))}</a>'
                for i, name in entry.files
            )
            label = html.escape(self.labels.get("files", "Files"))
            return (
                f'<p style="margin-bottom:10px;"><span style="color:{MUTED};">{label}</span> '
                f"{links}</p>"
            )
        if entry.role == "proposal":  # a write waiting for his word: 确认 / 放弃
            pid = entry.draft_ids[0] if entry.draft_ids else 0
            yes = html.escape(self.labels.get("confirm", "Confirm"))
            no = html.escape(self.labels.get("drop", "Drop"))
            head = html.escape(self.labels.get("proposal", "Proposed, not done:"))
            return _bubble(
                f"<p><b>{head}</b> {html.escape(entry.text)}</p>"
                f'<p><a href="proposal-yes:{pid}">{yes}</a> · '
                f'<a href="proposal-no:{pid}">{no}</a></p>',
                PROPOSAL_BG,
            )
        if entry.role == "error":
            return _bubble(f"<p>{html.escape(entry.text)}</p>", ERROR_BG)
        return f'<p style="color:{MUTED}; margin-bottom:10px;">{html.escape(entry.text)}</p>'

    def _titled(self, who: str, inner: str, background: str) -> str:
        name = html.escape(self.labels.get(who, who))
        title = f'<p style="color:{MUTED}; margin:0;"><small><b>{name}</b></small></p>'
        return title + _bubble(inner, background)

    def _muted(self, key: str) -> str:
        return f'<p style="color:{MUTED};">{html.escape(self.labels.get(key, "…"))}</p>'

    def _on_internal(self, url: QUrl) -> None:
        """A proposal, draft or found-file link (http(s) links go through the link gate)."""
        if url.scheme() in {"proposal-yes", "proposal-no"}:
            if url.path().isdigit():
                self.proposal_decided.emit(int(url.path()), url.scheme() == "proposal-yes")
            return
        try:
            number = int(url.path())
        except ValueError:
            return
        signal = self.draft_clicked if url.scheme() == "draft" else self.file_clicked
        signal.emit(number)
