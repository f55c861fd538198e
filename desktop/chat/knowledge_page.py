"""The owner's 知识库 (knowledge base): his products, options, glass, lead times, warranty, price
rules, standards and answers to common questions, in his own words, in one editable page.

Why it matters: every draft and the assistant read it, and the fact guard counts it as his word —
a lead time written here is not flagged as 未经确认 when a draft repeats it. It starts empty
(the hint says what to write; the app invents no facts); 插入章节标题 adds the suggested headings.
Saving goes through ``App.knowledge`` (atomic, owner-only); when the file changed meanwhile (an
addition he confirmed in the chat) the save is refused and his text stays in the editor.
Opened from the chat panel's 知识库 button and from Settings → AI 模型.

Signals:
    saved(): the text was written to the file.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QPlainTextEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import KnowledgeChanged
from core.app.types import KnowledgeDoc
from core.app.types import KnowledgeService
from desktop.aio import spawn
from desktop.context import AppContext
from desktop.errors_ui import show_error


class KnowledgeDialog(QDialog):
    saved = Signal()

    def __init__(
        self, ctx: AppContext, parent: QWidget | None = None, *, over_demo: bool = False
    ) -> None:
        """``over_demo``: opened while the demo is on screen (``ctx`` is then his real folder's)."""
        super().__init__(parent)
        self.ctx = ctx
        self.over_demo = over_demo
        self.knowledge: KnowledgeService = ctx.app.knowledge
        self.doc: KnowledgeDoc | None = None
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.editor = QPlainTextEdit()
        self.editor.textChanged.connect(self._update_status)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.headings_button = QPushButton()
        self.reload_button = QPushButton()
        self.save_button = QPushButton()
        self.close_button = QPushButton()
        self.headings_button.clicked.connect(self.insert_headings)
        self.reload_button.clicked.connect(lambda: self._run(self.reload()))
        self.save_button.clicked.connect(lambda: self._run(self.save()))
        self.close_button.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addWidget(self.headings_button)
        buttons.addWidget(self.reload_button)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.where)
        layout.addLayout(buttons)
        self.resize(820, 620)
        self._note = ""  # the last save's or conflict's sentence, shown after the size
        self._conflict = False  # the last save was refused: the file changed meanwhile
        self._closing = False  # he chose to discard his changes
        self.unsaved_box: QMessageBox | None = None
        self.retranslate()
        self.loading = spawn(self.reload())

    def _run(self, coro: object) -> None:
        self.loading = spawn(coro)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ data

    @property
    def modified(self) -> bool:
        return self.doc is not None and self.editor.toPlainText() != self.doc.text

    async def reload(self) -> None:
        """The file as it is now (his unsaved words are replaced: the button says so)."""
        self.doc = await self.knowledge.load()
        self.editor.setPlainText(self.doc.text)
        self._note, self._conflict = "", False
        self._update_status()

    async def save(self) -> None:
        """Write the editor's text; a file changed meanwhile is not overwritten."""
        if self.doc is None:
            return
        try:
            self.doc = await self.knowledge.save(self.editor.toPlainText(), self.doc.version)
        except KnowledgeChanged:
            self._conflict = True
            self._note = self.tr(
                "Not saved: the knowledge base was changed elsewhere (for example an addition "
                "you confirmed in the chat). Copy your changes, press Reload, then add them again."
            )
            self._update_status()
            return
        except Exception as exc:  # a full disk, a read-only folder: the owner's sentence
            show_error(self, exc)
            return
        if self.editor.toPlainText() != self.doc.text:  # trailing spaces tidied by the save
            self.editor.setPlainText(self.doc.text)
        self._note, self._conflict = self.tr("Saved."), False
        self._update_status()
        self.saved.emit()

    def insert_headings(self) -> None:
        """The suggested section headings (no facts) at the end of what he wrote."""
        text = self.editor.toPlainText()
        missing = [
            f"## {name}"
            for _key, name in self.knowledge.sections()
            if f"## {name}" not in text.split("\n")
        ]
        if not missing:
            return
        joined = "\n\n\n".join(missing) + "\n\n"
        self.editor.setPlainText((text.rstrip("\n") + "\n\n\n" if text.strip() else "") + joined)

    def _update_status(self) -> None:
        size = len(self.editor.toPlainText().strip())
        if size == 0:
            line = self.tr("Empty: drafts and the assistant know nothing of your trade yet.")
        elif size <= self.knowledge.whole_chars:
            line = self.tr("%1 characters: drafts and the assistant read all of it.")
        else:
            line = self.tr(
                "%1 characters: too long to send whole, so each draft gets the parts that "
                "match the customer's mail."
            )
        line = line.replace("%1", str(size))
        if self._conflict:  # his text is still unsaved: say why first
            line += " " + self._note
        elif self.modified:
            line += " " + self.tr("Not saved yet.")
        elif self._note:
            line += " " + self._note
        self.status.setText(line)
        self.save_button.setEnabled(self.doc is not None)

    # ------------------------------------------------------------------ closing

    def closeEvent(self, event: QCloseEvent) -> None:
        """Unsaved words are not lost by a stray click: the page stays open and asks (without
        blocking the loop) whether to save, discard or keep editing."""
        if self.modified and not self._closing:
            event.ignore()
            self.ask_unsaved()
            return
        super().closeEvent(event)

    def ask_unsaved(self) -> QMessageBox:
        box = QMessageBox(self)
        box.setIcon(QMessageBox.Icon.Question)
        box.setWindowTitle(self.windowTitle())
        box.setText(self.tr("Close without saving your changes to the knowledge base?"))
        box.setStandardButtons(
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _result: self._unsaved_answer(box.clickedButton(), box))
        box.open()
        self.unsaved_box = box
        return box

    def _unsaved_answer(self, button: object, box: QMessageBox) -> None:
        role = box.standardButton(button) if button is not None else None  # type: ignore[arg-type]
        if role == QMessageBox.StandardButton.Discard:
            self._closing = True
            self.close()
        elif role == QMessageBox.StandardButton.Save:
            self.loading = spawn(self._save_and_close())

    async def _save_and_close(self) -> None:
        await self.save()
        if not self.modified:
            self._closing = True
            self.close()

    # ------------------------------------------------------------------ language

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Knowledge base"))
        self.intro.setText(
            self.tr(
                "What you know about your trade, in your own words. Every draft and the "
                "assistant read it, and a lead time, price or warranty written here counts as "
                "yours: a draft that repeats it is not flagged as unconfirmed."
            )
        )
        if self.over_demo:
            self.intro.setText(
                self.intro.text()
                + "\n"
                + self.tr(
                    "You are trying the demo data: this is your own knowledge base, not the "
                    "demo's. What you write here stays when you leave the demo."
                )
            )
        self.editor.setPlaceholderText(
            self.tr(
                "Write one fact per line under a heading, for example:\n"
                "## Products — the windows and doors you make, their series and limits\n"
                "## Options — colours, hardware, flyscreens\n"
                "## Glass — the glass you offer and when\n"
                "## Lead times — how long each product takes\n"
                "## Warranty — what is covered and for how long\n"
                "## Price rules — GST, deposit, what costs extra\n"
                "## Standards — e.g. AS 2047, wind ratings\n"
                "## FAQs — the questions customers keep asking, with your answer"
            )
        )
        self.where.setText(
            self.tr("Saved in %1 (you can also edit it with any text editor).").replace(
                "%1", self.knowledge.path
            )
        )
        self.headings_button.setText(self.tr("Insert section headings"))
        self.reload_button.setText(self.tr("Reload"))
        self.save_button.setText(self.tr("Save"))
        self.close_button.setText(self.tr("Close"))
        self._update_status()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class KnowledgeButton(QPushButton):
    """「知识库…」: opens the knowledge page; a self-contained hook for other windows."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.dialog: KnowledgeDialog | None = None
        self.clicked.connect(self.open_page)
        self.retranslate()

    def open_page(self) -> KnowledgeDialog:
        self.dialog = open_knowledge(self.ctx, self.window())
        return self.dialog

    def retranslate(self) -> None:
        self.setText(self.tr("Knowledge base…"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


def open_knowledge(ctx: AppContext, parent: QWidget | None) -> KnowledgeDialog:
    """Show the knowledge page (deleted when closed). Over the demo it is still his own
    knowledge base (the real folder's, like 设置): what he writes while trying the demo must
    not stay behind in the demo folder when he leaves it."""
    shell = ctx.shell
    over_demo = ctx.is_demo and shell is not None
    if ctx.is_demo and shell is not None:
        ctx = shell.real_context()
    dialog = KnowledgeDialog(ctx, parent, over_demo=over_demo)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    if over_demo:
        hub = ctx.hub
        dialog.destroyed.connect(lambda *_: hub.detach())
    dialog.show()
    return dialog
