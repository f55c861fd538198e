"""The main window: the board and the approval queue in tabs, a banner for alerts, status bar,
and the assistant's chat panel docked beside them (助手 / Ctrl+Shift+A / the tray's 助手).

Closing the window keeps the app in the tray when there is one; without a tray (offscreen, bare
X servers) the window is the app, and alerts appear in the in-window banner instead of balloons.

Signals:
    settings_requested(): the owner asked for the settings dialog.
    briefing_requested(), stats_requested(), wizard_requested(): 今晚简报, 概览·成本与质量 and
        入门向导 from the toolbar — every window the tray menu opens has a route here too, since
        stock GNOME (and many laptops) has no tray.
    reminder_requested(int): a stage reminder's banner was opened (its action window).
    sync_now_requested(), pause_toggled(bool): sync controls from the toolbar.
    language_requested(str): a language was picked from the menu.
    quit_requested(): 退出 from the menu.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtGui import QActionGroup
from PySide6.QtGui import QCloseEvent
from PySide6.QtGui import QKeySequence
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMainWindow
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QTabWidget
from PySide6.QtWidgets import QToolBar
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import disk_size
from desktop.approval.pending_view import PendingDraftsView
from desktop.assistant_slot import AssistantSlot
from desktop.board.detail_slot import AFTER_PAINT_MS
from desktop.board.view import BoardPage
from desktop.context import AppContext
from desktop.demo_banner import DemoBanner
from desktop.i18n import LANGUAGES
from desktop.i18n import app_name
from desktop.i18n import current_language
from desktop.look import app_icon
from desktop.model_waiting import model_waiting_line

if TYPE_CHECKING:  # built when first opened (desktop.assistant_slot)
    from desktop.chat import ChatDock

BANNER_LINES = 3  # an alert's body may be a whole draft (Telegram shows it all); the banner
BANNER_LINE_CHARS = 160  # shows its start, and 打开 opens the item itself


def banner_excerpt(body: str) -> str:
    """The first few non-empty lines of ``body``, each cut short, with … where anything was left
    out: the banner sits above the board, and a whole draft in it would push the window taller
    than a 768-pixel laptop screen (its layout's minimum grows with the text)."""
    lines = [line.strip() for line in body.splitlines() if line.strip()]
    kept = []
    for line in lines[:BANNER_LINES]:
        cut = len(line) > BANNER_LINE_CHARS
        kept.append(line[:BANNER_LINE_CHARS].rstrip() + "…" if cut else line)
    if len(lines) > BANNER_LINES and not kept[-1].endswith("…"):
        kept[-1] += " …"
    return "\n".join(kept)


class Banner(QFrame):
    """The in-window alert: title, text, an 打开 button for the item, and a close cross."""

    open_requested = Signal(str, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.open_button = QPushButton()
        self.close_button = QToolButton()
        self.close_button.setText("✕")
        self.close_button.clicked.connect(self.hide)
        self.open_button.clicked.connect(self._open)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.open_button)
        layout.addWidget(self.close_button)
        self.ref: tuple[str, int] | None = None
        self.hide()
        self.retranslate()

    def show_alert(self, title: str, body: str, ref_type: str | None, ref_id: int | None) -> None:
        # the title and body quote customer and model text: escaped, never interpreted
        body = banner_excerpt(body)
        title, body = html.escape(title), html.escape(body).replace("\n", "<br>")
        self.label.setText(f"<b>{title}</b><br>{body}" if body else f"<b>{title}</b>")
        self.ref = (ref_type, ref_id) if ref_type and ref_id is not None else None
        self.open_button.setVisible(self.ref is not None)
        self.show()

    def _open(self) -> None:
        if self.ref is not None:
            self.open_requested.emit(*self.ref)
        self.hide()

    def retranslate(self) -> None:
        self.open_button.setText(self.tr("Open"))
        self.close_button.setToolTip(self.tr("Dismiss"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class MainWindow(QMainWindow):
    settings_requested = Signal()
    briefing_requested = Signal()
    stats_requested = Signal()
    wizard_requested = Signal()
    reminder_requested = Signal(int)
    sync_now_requested = Signal()
    pause_toggled = Signal(bool)
    language_requested = Signal(str)
    quit_requested = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.keep_running_in_tray = False
        self.setWindowIcon(app_icon())
        self.banner = Banner()
        self.banner.open_requested.connect(self.open_item)
        self.demo_banner = DemoBanner()  # 退出示例 / 连接我的邮箱, wired by DesktopApp
        self.demo_banner.setVisible(ctx.is_demo)
        self.board = BoardPage(ctx)
        self.pending = PendingDraftsView(
            ctx.app, ctx.hub, self, drafting=ctx.draft_service, read_at_once=False
        )
        self.tabs = QTabWidget()
        self.tabs.addTab(self.board, "")
        self.tabs.addTab(self.pending, "")
        # the 待审批 list (its reader's modules, its read) waits until the board's first rows
        # are on screen, as the detail pane does, unless he opens its tab first (#44)
        self._pending_asked = False
        self.board.model.loaded.connect(self._read_pending_soon)
        self.tabs.currentChanged.connect(self._on_tab)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(self.demo_banner)
        layout.addWidget(self.banner)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self._build_chat(ctx)

        self._build_toolbar(ctx)

        self.sync_label = QLabel()
        self.mode_label = QLabel()
        self.statusBar().addWidget(self.sync_label, 1)
        self.statusBar().addPermanentWidget(self.mode_label)
        ctx.hub.sync_status.connect(self._on_sync_status)
        ctx.hub.mail_waiting.connect(self._on_mail_waiting)
        ctx.hub.draft_changed.connect(lambda *_: self._update_pending_tab())
        # 待审批 (n) from the list's first read too, not only after a draft changes
        self.pending.count_changed.connect(lambda *_: self._update_pending_tab())
        self._sync_problem = ""
        self._fetching = False  # a mailbox was just connected; cleared by the first round
        self.model_wait: tuple[int, str] = (0, "")  # mails waiting for the AI, why
        self._waiting = (0, 0)  # mails waiting for disk space, bytes to free for the first
        self.resize(1340, 700)  # fits a 1366 x 768 laptop with its taskbar and title bar
        self.retranslate()

    def _build_toolbar(self, ctx: AppContext) -> None:
        """同步 · 暂停 · 助手 · 今晚简报 · 概览 · 设置 · 语言 · 更多: every window the tray menu
        opens is reachable from here too (stock GNOME has no tray)."""
        toolbar = QToolBar()
        toolbar.setMovable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.addToolBar(toolbar)
        self.sync_action = QAction(self)
        self.sync_action.triggered.connect(self.sync_now_requested)
        self.pause_action = QAction(self)
        self.pause_action.setCheckable(True)
        self.pause_action.setChecked(ctx.app.settings.flag("schedule.paused"))
        self.pause_action.toggled.connect(self.pause_toggled)
        self.settings_action = QAction(self)
        self.settings_action.triggered.connect(self.settings_requested)
        self.briefing_action = QAction(self)
        self.briefing_action.triggered.connect(self.briefing_requested)
        self.stats_action = QAction(self)
        self.stats_action.triggered.connect(self.stats_requested)
        self.wizard_action = QAction(self)
        self.wizard_action.triggered.connect(self.wizard_requested)
        self.language_menu = QMenu(self)
        self.language_group = QActionGroup(self)
        for code, name in LANGUAGES.items():
            action = QAction(name, self)
            action.setCheckable(True)
            action.setData(code)
            action.setChecked(code == current_language())
            self.language_group.addAction(action)
            self.language_menu.addAction(action)
        self.language_group.triggered.connect(lambda a: self.language_requested.emit(a.data()))
        self.language_button = QToolButton()
        self.language_button.setMenu(self.language_menu)
        self.language_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        toolbar.addAction(self.sync_action)
        toolbar.addAction(self.pause_action)
        toolbar.addSeparator()
        toolbar.addAction(self.assistant.toggle_action)
        toolbar.addAction(self.briefing_action)
        toolbar.addAction(self.stats_action)
        toolbar.addSeparator()
        toolbar.addAction(self.settings_action)
        toolbar.addWidget(self.language_button)
        self.quit_action = QAction(self)
        self.quit_action.setShortcut("Ctrl+Q")
        self.quit_action.triggered.connect(self.quit_requested)
        self.addAction(self.quit_action)
        # 更多: the tray menu's remaining entries (入门向导, 退出), for a desktop without a tray
        self.more_menu = QMenu(self)
        self.more_menu.addAction(self.wizard_action)
        self.more_menu.addSeparator()
        self.more_menu.addAction(self.quit_action)
        self.more_button = QToolButton()
        self.more_button.setMenu(self.more_menu)
        self.more_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        toolbar.addWidget(self.more_button)

    # ------------------------------------------------------------------ assistant

    def _build_chat(self, ctx: AppContext) -> None:
        """The chat dock's place (the dock is built when first opened: ``AssistantSlot``) and
        the board's and approvals' wiring."""
        self.assistant = AssistantSlot(ctx, self, self._wire_chat)
        self.board.inquiry_selected.connect(self._customer_selected)
        self.board.approval_requested.connect(self.pending.open_draft)
        # an application shortcut: Qt has no system-wide hotkey (that needs a native hook)
        self.assistant_action = QAction(self)
        self.assistant_action.setShortcut(QKeySequence("Ctrl+Shift+A"))
        self.assistant_action.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
        self.assistant_action.triggered.connect(self.show_assistant)
        self.addAction(self.assistant_action)

    @property
    def chat(self) -> ChatDock:
        """The assistant's dock (built on first use)."""
        return self.assistant.dock()

    def _wire_chat(self, chat: ChatDock) -> None:
        chat.panel.draft_opened.connect(self.pending.open_draft)
        chat.panel.ai_settings_requested.connect(self.open_ai_settings)

    def show_assistant(self) -> None:
        """Bring the window forward with the chat panel open and the cursor in its input."""
        self.bring_forward()
        self.chat.open()

    def _customer_selected(self, inquiry_id: int) -> None:
        row = self.board.model.row_at(self.board.model.row_of(inquiry_id))
        name = (row.customer_name or row.customer_email or "") if row is not None else ""
        self.assistant.set_customer(inquiry_id, name or self.tr("Inquiry"))

    def open_ai_settings(self) -> None:
        """Settings at its AI page (the desktop app's dialog; the plain signal without it)."""
        shell = self.ctx.shell
        if shell is None:
            self.settings_requested.emit()
            return
        dialog = shell.show_settings(1)
        if dialog is not None:
            dialog.finished.connect(self._refresh_chat)

    def _refresh_chat(self) -> None:
        panel = self.assistant.panel()
        if panel is not None:
            panel.refresh()

    # ------------------------------------------------------------------ items

    def open_item(self, ref_type: str, ref_id: int) -> None:
        """Show the thing an alert is about (a tray click or the banner's 打开)."""
        self.bring_forward()
        if ref_type == "inquiry":
            self.tabs.setCurrentWidget(self.board)
            self.board.select_inquiry(ref_id)
        elif ref_type == "draft":
            self.tabs.setCurrentWidget(self.pending)
            self.pending.open_draft(ref_id)
        elif ref_type == "assistant":
            self.show_assistant()
        elif ref_type == "reminder":  # a stage reminder: its window of one-click actions
            self.reminder_requested.emit(ref_id)
        elif ref_type == "briefing":
            self.briefing_requested.emit()
        elif ref_type == "stats":
            self.stats_requested.emit()

    def bring_forward(self) -> None:
        self.showNormal()
        self.raise_()
        self.activateWindow()

    def show_banner(self, title: str, body: str, ref_type: str | None, ref_id: int | None) -> None:
        self.banner.show_alert(title, body, ref_type, ref_id)

    def show_fetching(self) -> None:
        """A mailbox was just connected: say so until the first sync round reports."""
        self._fetching = True
        self._update_status()

    def _on_sync_status(self, source: str, ok: bool, code: str) -> None:
        self._fetching = False
        if ok:
            self._sync_problem = ""
        else:
            self._sync_problem = source
        self._update_status()

    def _on_mail_waiting(self, waiting: int, need_bytes: int, free_bytes: int) -> None:
        """Mail left for later on a nearly full disk: said in the status bar while it lasts
        (the tray told the owner once, ``core.notify.disk_alert``)."""
        missing = max(0, need_bytes - free_bytes)
        self._fetching = False  # every mail round reports this: the first one is done
        self._waiting = (waiting, missing) if waiting else (0, 0)
        self._update_status()

    def set_paused(self, paused: bool) -> None:
        self.pause_action.blockSignals(True)
        self.pause_action.setChecked(paused)
        self.pause_action.blockSignals(False)
        self.retranslate()

    def _update_status(self) -> None:
        if self._sync_problem == "auth":
            self.sync_label.setText(self.tr("Microsoft sign-in needed — open Settings"))
        elif self._sync_problem:
            self.sync_label.setText(
                self.tr("Sync problem (%1) — see the log").replace("%1", self._sync_problem)
            )
        elif self._fetching:
            self.sync_label.setText(self.tr("Connected, fetching mail…"))
        elif self._waiting[0]:
            waiting, missing = self._waiting
            self.sync_label.setText(
                self.tr("%n mails wait for disk space — free up about %1", "", waiting).replace(
                    "%1", disk_size(missing)
                )
            )
        elif self.pause_action.isChecked():
            self.sync_label.setText(self.tr("Sync paused"))
        elif self.model_wait[0]:  # mail waits for the AI: not 就绪, and why
            self.sync_label.setText(model_waiting_line(*self.model_wait))
        else:
            self.sync_label.setText(self.tr("Ready"))

    def set_model_waiting(self, count: int, reason: str) -> None:
        """Mails waiting for the AI (``core.intake.waiting``), counted by the tray."""
        self.model_wait = (count, reason)
        self._update_status()

    def _read_pending_soon(self) -> None:
        if not self._pending_asked:  # the board's first rows: later loads ask nothing
            self._pending_asked = True
            QTimer.singleShot(AFTER_PAINT_MS, self, self._read_pending)

    def _read_pending(self) -> None:
        if self.isVisible():  # closed meanwhile (to the tray): read when shown again
            self.pending.read_once()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._pending_asked:  # shown again after the board's first rows came
            self.pending.read_once()

    def _on_tab(self, index: int) -> None:
        if self.tabs.widget(index) is self.pending:
            self.pending.read_once()

    def _update_pending_tab(self) -> None:
        n = self.pending.pending_count()
        title = self.tr("Awaiting approval")
        shown = f"{title} ({n})" if n else title
        if self.tabs.tabText(1) != shown:  # Qt lays the tab bar and the window out again on
            self.tabs.setTabText(1, shown)  # every call, even with the same words

    # ------------------------------------------------------------------ window

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.keep_running_in_tray:
            event.ignore()
            self.hide()
            return
        super().closeEvent(event)

    def retranslate(self) -> None:
        # Qt adds the app's name after a title; the board's title is that name alone
        title = app_name()
        if self.ctx.is_demo:
            title = self.tr("Demo data") + " — " + title
        self.setWindowTitle(title)
        self.tabs.setTabText(0, self.tr("Board"))
        self._update_pending_tab()
        self.sync_action.setText(self.tr("Sync now"))
        self.pause_action.setText(
            self.tr("Resume sync") if self.pause_action.isChecked() else self.tr("Pause sync")
        )
        self.settings_action.setText(self.tr("Settings"))
        self.briefing_action.setText(self.tr("Evening briefing"))
        self.stats_action.setText(self.tr("Overview · cost and quality"))
        self.wizard_action.setText(self.tr("Welcome window"))
        self.more_button.setText(self.tr("More"))
        self.language_button.setText(self.tr("Language"))
        self.quit_action.setText(self.tr("Quit"))
        self.assistant_action.setText(self.tr("Assistant"))
        self.assistant.toggle_action.setText(self.tr("Assistant"))
        self.mode_label.setText(
            self.tr("Demo data — your real mailbox is untouched") if self.ctx.is_demo else ""
        )
        self._update_status()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
