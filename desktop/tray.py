"""The tray icon: the owner's ambient view of what needs him, and the way back to the window.

Menu: 打开看板, 助手, 暂停同步/恢复同步, 立即同步, 语言, 设置, 入门向导, 退出示例 (over the demo
only), 退出. The icon gets a red badge while
something needs the owner (inquiries waiting on our reply, overdue stages, drafts waiting for
approval) and the tooltip says how many. A ``NotificationRaised`` from core becomes a balloon
(``showMessage``); clicking it opens that inquiry or draft — a stage reminder opens its action
window (draft the follow-up, open, snooze 1/3/7 days, mark lost) and the evening briefing its
window (``desktop.rhythm``; 今晚简报 in the menu opens it too). Without a system tray (offscreen, bare
X) the same alerts go to the main window's banner.

The tray outlives a switch of data folder (demo ↔ real), so it connects to no hub itself:
``DesktopApp`` wires the current folder's hub to ``show_notification`` and ``schedule_count``
in one place, and ``use`` points the tray at the current folder's ``App``.

Signals:
    open_requested(): 打开看板 / icon activated.
    open_item(str, int): a notification was clicked (ref_type, ref_id).
    settings_requested(), sync_now_requested(), pause_toggled(bool), language_requested(str),
    quit_requested()
    wizard_requested(): 入门向导; leave_demo_requested(): 退出示例 (shown only over the demo)
    model_waiting(int, str): mails waiting for the AI and the reason's key (the status bar)
"""

from __future__ import annotations

import asyncio
import logging

from PySide6.QtCore import QEvent
from PySide6.QtCore import QObject
from PySide6.QtCore import QTimer
from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtGui import QActionGroup
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QSystemTrayIcon

from core.app import FrontEnd
from core.app.types import tray_text
from desktop.aio import spawn
from desktop.i18n import LANGUAGES
from desktop.i18n import current_language
from desktop.look import app_icon
from desktop.model_waiting import model_waiting_line
from desktop.rhythm.desk import RhythmDesk

log = logging.getLogger(__name__)


class TrayController(QObject):
    open_requested = Signal()
    open_item = Signal(str, int)
    settings_requested = Signal()
    sync_now_requested = Signal()
    pause_toggled = Signal(bool)
    language_requested = Signal(str)
    quit_requested = Signal()
    wizard_requested = Signal()
    leave_demo_requested = Signal()
    model_waiting = Signal(int, str)
    # a notification that could not be shown as a balloon: title, body, ref_type, ref_id
    fallback = Signal(str, str, str, int)

    def __init__(self, app: FrontEnd, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.available = QSystemTrayIcon.isSystemTrayAvailable()
        self.count = 0
        self.model_wait: tuple[int, str] = (0, "")  # mails waiting for the AI, why
        self.last_ref: tuple[str, int] | None = None
        self.last_alert: tuple[str, str, str] = ("", "", "")  # kind, title, body
        self.rhythm = RhythmDesk(self)
        self.rhythm.open_item.connect(self.open_item)
        self.shown: list[tuple[str, str]] = []
        # where the background work runs: None unknown, "" this computer, else the host name
        self.runner_host: str | None = None
        self._icons: dict[int, QIcon] = {False: app_icon(0)}  # False == 0: the no-count icon
        self.menu = QMenu()
        self.open_action = QAction(self.menu)
        self.open_action.triggered.connect(self.open_requested)
        self.assistant_action = QAction(self.menu)
        self.assistant_action.triggered.connect(lambda: self.open_item.emit("assistant", 0))
        self.pause_action = QAction(self.menu)
        self.pause_action.setCheckable(True)
        self.pause_action.setChecked(app.settings.flag("schedule.paused"))
        self.pause_action.toggled.connect(self.pause_toggled)
        self.sync_action = QAction(self.menu)
        self.sync_action.triggered.connect(self.sync_now_requested)
        self.briefing_action = QAction(self.menu)
        self.briefing_action.triggered.connect(lambda: self.rhythm.show_briefing(self.app))
        self.stats_action = QAction(self.menu)
        self.stats_action.triggered.connect(lambda: self.rhythm.show_stats(self.app))
        self.language_menu = QMenu(self.menu)
        self.language_group = QActionGroup(self)
        for code, name in LANGUAGES.items():
            action = QAction(name, self.language_menu)
            action.setCheckable(True)
            action.setData(code)
            self.language_group.addAction(action)
            self.language_menu.addAction(action)
        self.language_group.triggered.connect(lambda a: self.language_requested.emit(a.data()))
        self.settings_action = QAction(self.menu)
        self.settings_action.triggered.connect(self.settings_requested)
        self.quit_action = QAction(self.menu)
        self.quit_action.triggered.connect(self.quit_requested)
        self.wizard_action = QAction(self.menu)
        self.wizard_action.triggered.connect(self.wizard_requested)
        self.leave_demo_action = QAction(self.menu)
        self.leave_demo_action.triggered.connect(self.leave_demo_requested)
        self.leave_demo_action.setVisible(app.is_demo)
        for item in (
            self.open_action,
            self.assistant_action,
            self.briefing_action,
            self.stats_action,
            None,
            self.pause_action,
            self.sync_action,
        ):
            if item is None:
                self.menu.addSeparator()
            else:
                self.menu.addAction(item)
        self.menu.addMenu(self.language_menu)
        self.menu.addAction(self.settings_action)
        self.menu.addAction(self.wizard_action)
        self.menu.addAction(self.leave_demo_action)
        self.menu.addSeparator()
        self.menu.addAction(self.quit_action)

        self.icon = QSystemTrayIcon(app_icon(0), self)
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._on_activated)
        self.icon.messageClicked.connect(self._on_message_clicked)

        self._count_timer = QTimer(self)
        self._count_timer.setSingleShot(True)
        self._count_timer.setInterval(300)
        self._count_timer.timeout.connect(lambda: spawn(self.update_count()))
        self.menu.installEventFilter(self)
        self.retranslate()

    def use(self, app: FrontEnd) -> None:
        """Serve another data folder's ``App`` (after a demo ↔ real switch)."""
        self._count_timer.stop()
        self.app = app
        self.leave_demo_action.setVisible(app.is_demo)

    def schedule_count(self, *_: object) -> None:
        """Re-count soon (a burst of events, e.g. an ingest batch, becomes one read)."""
        self._count_timer.start()

    def show(self) -> bool:
        """Show the icon; False when the platform has no tray (the window must stay)."""
        if not self.available:
            return False
        self.icon.show()
        return True

    def hide(self) -> None:
        """Hide the icon and drop a pending re-count (the app is quitting)."""
        self._count_timer.stop()
        self.icon.hide()

    def set_paused(self, paused: bool) -> None:
        self.pause_action.blockSignals(True)
        self.pause_action.setChecked(paused)
        self.pause_action.blockSignals(False)
        self.retranslate()

    # ------------------------------------------------------------------ count

    async def update_count(self) -> int:
        self.count = await self.app.inquiries.needs_me_count()
        if self.count not in self._icons and self.count > 0:
            self._icons[self.count] = app_icon(self.count)
        self.icon.setIcon(self._icons[self.count] if self.count else self._icons[False])
        self.model_wait = await self.app.intake.waiting_for_model()
        self.model_waiting.emit(*self.model_wait)
        self._update_tooltip()
        return self.count

    def set_runner(self, host: str | None, *, here: bool) -> None:
        """Say where the background work runs (this computer, ``host``, or nowhere now)."""
        self.runner_host = "" if here else host
        self._update_tooltip()

    def runner_line(self) -> str:
        """后台在 <host> 运行 — where mail is read and reminders fire (a desk does neither)."""
        if self.runner_host is None:
            return self.tr("Background work is not running")
        if self.runner_host == "":
            return self.tr("Background work runs on this computer")
        return self.tr("Background work runs on %1").replace("%1", self.runner_host)

    def _update_tooltip(self) -> None:
        title = self.tr("Inquiry Bridge")
        if self.count:
            tip = f"{title}\n" + self.tr("%n inquiries need you", "", self.count)
        else:
            tip = f"{title}\n" + self.tr("Nothing needs you right now")
        if self.model_wait[0]:
            tip += "\n" + model_waiting_line(*self.model_wait)
        self.icon.setToolTip(f"{tip}\n{self.runner_line()}")

    def tooltip(self) -> str:
        return self.icon.toolTip()

    # ------------------------------------------------------------------ notifications

    async def show_notification(self, notification_id: int) -> None:
        notifications = self.app.notifications
        found = await notifications.get(notification_id)
        if found is None:
            return
        # the same text as the phone's alert: what the customer wants first, then the facts
        title, body = tray_text(found.kind, found.title, found.body_md)
        ref_type, ref_id = found.ref_type, found.ref_id
        self.last_ref = (ref_type, ref_id) if ref_type and ref_id is not None else None
        self.last_alert = (found.kind, title, body)
        self.shown.append((title, body))
        if self.available and self.icon.isVisible():
            self.icon.showMessage(title, body, QSystemTrayIcon.MessageIcon.Information, 10_000)
        else:
            self.fallback.emit(title, body, ref_type or "", -1 if ref_id is None else ref_id)
        await notifications.mark_tray_shown(notification_id)
        await asyncio.sleep(0)

    def _on_message_clicked(self) -> None:
        kind, title, body = self.last_alert
        if kind == "briefing":
            self.rhythm.show_briefing(self.app)
        elif kind == "weekly":
            self.rhythm.show_stats(self.app)
        elif kind == "overdue" and self.last_ref is not None and self.last_ref[0] == "inquiry":
            self.rhythm.show_reminder(self.app, self.last_ref[1], title, body)
        elif self.last_ref is not None:
            self.open_item.emit(*self.last_ref)
        else:
            self.open_requested.emit()

    def _on_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (
            QSystemTrayIcon.ActivationReason.Trigger,
            QSystemTrayIcon.ActivationReason.DoubleClick,
        ):
            self.open_requested.emit()

    # ------------------------------------------------------------------ language

    def retranslate(self) -> None:
        self.open_action.setText(self.tr("Open board"))
        self.assistant_action.setText(self.tr("Assistant"))
        self.pause_action.setText(
            self.tr("Resume sync") if self.pause_action.isChecked() else self.tr("Pause sync")
        )
        self.sync_action.setText(self.tr("Sync now"))
        self.briefing_action.setText(self.tr("Evening briefing"))
        self.stats_action.setText(self.tr("Overview · cost and quality"))
        self.language_menu.setTitle(self.tr("Language"))
        for action in self.language_group.actions():
            action.setChecked(action.data() == current_language())
        self.settings_action.setText(self.tr("Settings"))
        self.wizard_action.setText(self.tr("Welcome window"))
        self.leave_demo_action.setText(self.tr("Leave the demo"))
        self.quit_action.setText(self.tr("Quit"))
        self._update_tooltip()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.menu and event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        return super().eventFilter(watched, event)
