"""The assistant beside the board: the owner asks in Chinese, in his own words, and sees the
answer appear; drafts it writes open in the approval window, and nothing here can send.

The turn runs as a task on the qasync loop (``desktop.aio.spawn``): the UI thread never waits for
the model. While it runs the panel shows what the assistant is doing on one line ("正在查找客户…",
from the event's label in the UI language) and the answer as it streams; at the end the checked
answer (``reply.text``, after the assertion guard) replaces whatever was streamed. 停止 cancels the
task: the conversation's history stays as it was before the turn.

The conversation is the day's (``today_name``: the Sydney date from the app's clock), so what he
asked this morning is still on screen this afternoon; tomorrow starts a new one. The inquiry
selected on the board is the current customer, shown above the input and handed to the
conversation before each turn.

Files the turn found ("Steward 的平面图在哪" → ``find_attachments``) follow the answer as a row of
links, "plan.pdf"; clicking one opens it with the system viewer (as the inquiry detail does).
The names and paths come from ``App.inquiries.attachment_file``, never from the ORM.

Signals:
    draft_opened(int): a turn wrote a draft (or he clicked one): open it in the approval window.
    ai_settings_requested(): no AI is configured and he pressed 打开 AI 设置.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QStackedWidget
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import offload
from core.app.types import today_name
from desktop.aio import spawn
from desktop.chat.composer import ChatInput
from desktop.chat.composer import CustomerBar
from desktop.chat.transcript import Entry
from desktop.chat.transcript import Transcript
from desktop.context import AppContext
from desktop.errors_ui import message_for
from desktop.file_open import open_file
from desktop.i18n import current_language
from desktop.look import set_tone
from desktop.text import stage_name

if TYPE_CHECKING:
    from core.app.types import AttachmentFile
    from core.app.types import ChatEvent
    from core.app.types import Conversation
    from core.app.types import ProposalItem
    from desktop.voice.dictation import DictationButton

log = logging.getLogger(__name__)

CHANNEL = "desktop"


def history_entries(conversation: Conversation) -> list[Entry]:
    """What the owner said and what he was answered (the conversation's transcript: tool
    rounds are not shown)."""
    return [Entry(role, text) for role, text in conversation.transcript() if text]


class ChatPanel(QWidget):
    draft_opened = Signal(int)
    ai_settings_requested = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.conversation: Conversation | None = None
        self.dictation: DictationButton | None = None
        self.task: asyncio.Future[None] | None = None
        self.activity_text = ""
        self.scripted = False  # a transcript shown from data (screenshots): left as it is
        self.loading: asyncio.Future[None] | None = None
        self._opening = asyncio.Lock()
        self.files: dict[int, AttachmentFile] = {}  # the found files shown, by attachment id
        self.files_loading: asyncio.Future[None] | None = None
        self.proposals_loading: asyncio.Future[None] | None = None
        self._build()
        self.retranslate()

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        self.title = QLabel()
        self.title.setObjectName("chatTitle")
        self.title.setWordWrap(True)  # beside 知识库 and 记忆 in a narrow dock: wrap, never clip
        set_tone(self.title, "muted")
        self.memory_button = QPushButton()
        self.memory_button.clicked.connect(self.open_memories)
        self.knowledge_button = QPushButton()
        self.knowledge_button.clicked.connect(self.open_knowledge)
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.knowledge_button)
        header.addWidget(self.memory_button)

        self.transcript = Transcript()
        self.transcript.draft_clicked.connect(self.draft_opened)
        self.transcript.file_clicked.connect(self.open_file)
        self.transcript.proposal_decided.connect(self.decide_proposal)
        self.activity = QLabel()
        self.activity.setObjectName("chatActivity")
        set_tone(self.activity, "accent")
        self.customer_bar = CustomerBar()
        self.customer_bar.cleared.connect(self._customer_cleared)
        self.input = ChatInput()
        self.input.submitted.connect(self.send)
        self.send_button = QPushButton()
        self.send_button.setDefault(True)
        self.send_button.clicked.connect(self.send)
        self.stop_button = QPushButton()
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.hide()
        buttons = QHBoxLayout()
        self.hint = QLabel()
        set_tone(self.hint, "muted")
        self.hint.setWordWrap(True)  # a narrow dock wraps the hint, never cuts it
        buttons.addWidget(self.hint, 1)
        buttons.addWidget(self.stop_button)
        buttons.addWidget(self.send_button)

        chat = QWidget()
        layout = QVBoxLayout(chat)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.transcript, 1)
        layout.addWidget(self.activity)
        layout.addWidget(self.customer_bar)
        self.input_row = QHBoxLayout()
        self.input_row.addWidget(self.input, 1)
        layout.addLayout(self.input_row)
        layout.addLayout(buttons)

        self.pages = QStackedWidget()
        self.pages.addWidget(chat)
        self.pages.addWidget(self._unavailable_page())
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 6, 8, 8)
        outer.addLayout(header)
        outer.addWidget(self.pages, 1)

    def _unavailable_page(self) -> QWidget:
        self.unavailable_label = QLabel()
        self.unavailable_label.setWordWrap(True)
        self.unavailable_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.settings_button = QPushButton()
        self.settings_button.clicked.connect(self.ai_settings_requested)
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.addStretch(1)
        layout.addWidget(self.unavailable_label)
        layout.addWidget(self.settings_button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)
        return page

    # ------------------------------------------------------------------ state

    @property
    def busy(self) -> bool:
        return self.task is not None

    def refresh(self) -> bool:
        """Show the chat or, with no AI configured, the page that says so; open today's
        conversation and show its history when it is not open yet. True when the assistant
        can answer."""
        if not self._show_page():
            return False
        if not self.busy and not self._is_today(self.conversation):
            self.loading = spawn(self.load())
        return True

    def _show_page(self) -> bool:
        if self.scripted:
            return False
        available = self.ctx.app.assistant.available
        self.pages.setCurrentIndex(0 if available else 1)
        return available

    def _is_today(self, conversation: Conversation | None) -> bool:
        return conversation is not None and conversation.name == today_name(self.ctx.app.clock)

    async def load(self) -> None:
        """Open today's conversation and show its history (unless a turn started meanwhile)."""
        conversation = await self._today()
        if not self.busy:
            self.transcript.set_entries(history_entries(conversation))

    async def _today(self) -> Conversation:
        """Today's conversation, built on a worker thread the first time: building the
        assistant imports the agent and the model client (~0.2-0.9 s) — never on the UI
        thread."""
        async with self._opening:
            if self.conversation is None or not self._is_today(self.conversation):
                name = today_name(self.ctx.app.clock)
                assistant = self.ctx.app.assistant
                self.conversation = await offload(assistant.conversation, name, channel=CHANNEL)
            return self.conversation

    def set_customer(self, inquiry_id: int, name: str) -> None:
        self.customer_bar.set_customer(inquiry_id, name)

    def _customer_cleared(self) -> None:
        """✕ on the bar: "他" means nobody until he selects or names a customer."""
        if self.conversation is not None:
            self.conversation.current_inquiry_id = None

    def focus_input(self) -> None:
        self.input.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._ensure_dictation()
        if not self.busy:
            self.refresh()

    def _ensure_dictation(self) -> None:
        """The dictation button beside the input, built the first time the panel shows (the
        voice modules are not needed to paint the board)."""
        if self.dictation is not None:
            return
        from desktop.voice.dictation import DictationButton

        self.dictation = DictationButton(self.ctx.app, self.input, self)
        self.input_row.addWidget(self.dictation, 0, Qt.AlignmentFlag.AlignTop)

    # ------------------------------------------------------------------ a turn

    def send(self) -> None:
        text = self.input.toPlainText().strip()
        if not text or self.busy or not self._show_page():
            return
        self.input.clear()
        self.transcript.add(Entry("user", text))
        self.transcript.begin_live()
        self._set_busy(True)
        self.task = spawn(self._turn(text), on_error=self._failed)

    async def _turn(self, text: str) -> None:
        task = asyncio.current_task()
        try:
            shown = self.conversation
            conversation = await self._today()
            if conversation is not shown:  # opened by this turn (first turn, or a new day)
                entries = history_entries(conversation)
                self.transcript.set_entries([*entries, Entry("user", text)])
                self.transcript.begin_live()
            if self.customer_bar.inquiry_id is not None:  # his selection is "他"
                conversation.current_inquiry_id = self.customer_bar.inquiry_id
            await conversation.ask(text, on_event=self.on_event)
        finally:
            if self.task is task:  # not already stopped (stop resets at once)
                self._set_busy(False)
                if self.transcript.live_text is not None:
                    self.transcript.end_live(None)

    def on_event(self, event: ChatEvent) -> None:
        """A ``ChatEvent`` from the running turn (on the loop thread)."""
        from core.app.types import TextDelta  # loaded with the turn
        from core.app.types import ToolActivity  # loaded with the turn
        from core.app.types import TurnDone  # loaded with the turn

        if isinstance(event, ToolActivity):
            self.activity_text = event.label_en if current_language() == "en" else event.label_zh
            self.activity.setText(self.activity_text)
        elif isinstance(event, TextDelta):
            self.transcript.append_live(event.text)
        elif isinstance(event, TurnDone):
            self.transcript.end_live(Entry("assistant", event.reply.text))
            before = self.customer_bar.inquiry_id
            if event.customer is not None:  # the tools settled on a customer: he is "他" now
                self.customer_bar.set_customer(*event.customer)
                if before is not None and before != event.customer[0]:  # said, not silent
                    self.transcript.add(
                        Entry(
                            "notice",
                            self.tr("Current customer is now %1").replace("%1", event.customer[1]),
                        )
                    )
            elif event.customer_moved:  # several matched: nobody until he says
                self.customer_bar.clear()
                if before is not None:
                    self.transcript.add(
                        Entry(
                            "notice",
                            self.tr(
                                "Several customers matched: no current customer until you pick one"
                            ),
                        )
                    )
            if event.draft_ids:
                self.transcript.add(Entry("drafts", "", tuple(event.draft_ids)))
            if event.attachment_ids:
                where = len(self.transcript.entries)
                self.files_loading = spawn(self._show_files(where, event.attachment_ids))
            if event.proposal_ids:
                self.proposals_loading = spawn(self._show_proposals(event.proposal_ids))
            self._set_busy(False)
            for draft_id in event.draft_ids:
                self.draft_opened.emit(draft_id)

    async def _show_proposals(self, proposal_ids: tuple[int, ...]) -> None:
        """Each change the turn only proposed, with one-click 确认 / 放弃."""
        for proposal_id in proposal_ids:
            item = await self.ctx.app.proposals.get(proposal_id)
            if item is not None and item.status == "open":
                self.transcript.add(Entry("proposal", self._proposal_text(item), (item.id,)))

    def _proposal_text(self, item: ProposalItem) -> str:
        args = item.arguments or {}
        number = str(item.inquiry_id)
        if item.kind == "stage":
            text = self.tr("move inquiry #%1 to the stage “%2”")
            return text.replace("%1", number).replace("%2", stage_name(args.get("to_stage")))
        if item.kind == "note":
            text = self.tr("add this note to inquiry #%1: %2")
            return text.replace("%1", number).replace("%2", str(args.get("text") or ""))
        if item.kind == "knowledge":  # 要把「…」记进知识库吗？
            text = self.tr("add this to your knowledge base: %1")
            return text.replace("%1", str(args.get("text") or ""))
        return self.tr("create the OneDrive folder of inquiry #%1").replace("%1", number)

    def decide_proposal(self, proposal_id: int, confirm: bool) -> None:
        """确认 or 放弃 pressed in the transcript (the write runs off the UI thread)."""
        self.proposals_loading = spawn(self._decide(proposal_id, confirm))

    async def _decide(self, proposal_id: int, confirm: bool) -> None:
        proposals = self.ctx.app.proposals
        try:
            item = await (proposals.confirm if confirm else proposals.drop)(proposal_id)
        except Exception as exc:  # already decided elsewhere (Telegram), or the write failed
            self.transcript.add(Entry("error", message_for(exc)))
            return
        said = {
            "confirmed": self.tr("Proposal #%1 confirmed: done."),
            "dropped": self.tr("Proposal #%1 dropped: nothing was changed."),
        }.get(item.status, self.tr("Proposal #%1 could not be carried out."))
        self.transcript.add(Entry("notice", said.replace("%1", str(item.id))))

    async def _show_files(self, where: int, attachment_ids: tuple[int, ...]) -> None:
        """The row of found files after the answer (those still on this computer)."""
        found = []
        for attachment_id in attachment_ids:
            stored = await self.ctx.app.inquiries.attachment_file(attachment_id)
            if stored is not None:
                self.files[stored.id] = stored
                found.append((stored.id, stored.filename))
        if found:
            self.transcript.insert(where, Entry("files", "", files=tuple(found)))

    def open_file(self, attachment_id: int) -> bool:
        """Open a found file with the system viewer; says so when it has gone since."""
        stored = self.files.get(attachment_id)
        if stored is None or not stored.path.is_file():
            self.transcript.add(
                Entry("notice", self.tr("That file is no longer on this computer."))
            )
            return False
        return open_file(self, stored.path, stored.filename)

    def stop(self) -> None:
        """Cancel the running turn; the panel is usable again at once."""
        task, self.task = self.task, None
        if task is None:
            return
        task.cancel()
        self.transcript.end_live(Entry("notice", self.tr("Stopped.")))
        self._set_busy(False)

    def _failed(self, exc: BaseException) -> None:
        log.warning("assistant turn failed: %s", exc, exc_info=exc)
        self.task = None
        self.transcript.end_live(Entry("error", message_for(exc)))
        self._set_busy(False)

    def _set_busy(self, busy: bool) -> None:
        if not busy:
            self.task = None
            self.activity_text = ""
            self.activity.clear()
        self.activity.setVisible(busy)
        self.stop_button.setVisible(busy)
        self.send_button.setEnabled(not busy)

    def show_script(self, entries: list[Entry], activity: str) -> None:
        """Show a conversation from data, its last turn still running (``activity`` on the
        activity line): the screenshot of the panel, with no model and no conversation."""
        self.scripted = True
        self.pages.setCurrentIndex(0)
        self.transcript.set_entries(entries)
        self.transcript.begin_live()
        self._set_busy(True)
        self.activity_text = activity
        self.activity.setText(activity)

    # ------------------------------------------------------------------ memories

    def open_memories(self) -> QWidget:
        from desktop.chat.memory_page import MemoryDialog

        dialog = MemoryDialog(self.ctx, self.window())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def open_knowledge(self) -> QWidget:
        """The owner's 知识库 page (products, lead times, warranty…), which drafts read."""
        from desktop.chat.knowledge_page import open_knowledge

        return open_knowledge(self.ctx, self.window())

    # ------------------------------------------------------------------ language

    def retranslate(self) -> None:
        day = today_name(self.ctx.app.clock)
        self.title.setText(self.tr("Today's conversation · %1").replace("%1", day))
        self.memory_button.setText(self.tr("Memory"))
        self.knowledge_button.setText(self.tr("Knowledge"))
        self.knowledge_button.setToolTip(
            self.tr(
                "Your products, lead times, warranty and prices: drafts and the assistant read it"
            )
        )
        self.memory_button.setToolTip(self.tr("What the assistant remembers"))
        self.send_button.setText(self.tr("Send"))
        self.stop_button.setText(self.tr("Stop"))
        self.hint.setText(self.tr("Enter to send, Shift+Enter for a new line"))
        self.input.setPlaceholderText(
            self.tr("Ask in your own words, e.g. “reply to him: we can measure next Tuesday”")
        )
        self.unavailable_label.setText(
            self.tr(
                "No AI model is set up yet, so the assistant cannot answer. "
                "Add the AI service in Settings."
            )
        )
        self.settings_button.setText(self.tr("Open AI settings"))
        self.transcript.set_labels(
            {
                "you": self.tr("You"),
                "assistant": self.tr("Assistant"),
                "draft": self.tr("Open draft"),
                "files": self.tr("Files found:"),
                "thinking": self.tr("Thinking…"),
                "proposal": self.tr("Proposed, not done:"),
                "confirm": self.tr("Confirm this change"),
                "drop": self.tr("Drop it"),
            }
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
