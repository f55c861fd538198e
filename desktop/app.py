"""The application shell: one QApplication on a qasync loop, the tray, the window, first run.

Order matters and is written down here once:
1. PySide6 is imported before qasync (qasync binds to the first Qt binding it finds).
2. One instance per data folder: a second launch tells the first to come forward and exits.
3. Logging to the rotating file; ``sys.excepthook`` and the loop's exception handler both route to
   ``ErrorReporter`` (logged + a Chinese dialog), so nothing dies silently.
4. Language (our .qm built from the .ts, plus Qt's own ``qtbase_zh_CN``) and the CJK font
   fallback are installed before any window exists.
5. The loop is ``asyncio.Runner(loop_factory=lambda: QEventLoop(app))`` (Python 3.11 has no
   ``asyncio.run(loop_factory=…)``); the main coroutine lives until the app quits.

With a system tray, closing the window leaves the app running; without one (offscreen, bare X
servers) the window stays the app and alerts appear in its banner.

The app runs over one data folder at a time (real, or the demo beside it), each an ``App`` from
``core.app``. ``DesktopApp._open_context`` is the one place that builds the window for a folder
and wires the long-lived parts (tray, banner) to that folder's ``SignalHub``: each alert is shown
once, and after a switch the tray counts the folder on screen.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

import qasync  # after PySide6, on purpose
from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QApplication

from core.app import App
from core.app import build_app
from core.app import setup_logging_or_none
from core.app import start_daemon
from core.app import warm_imports
from desktop import ai_needed
from desktop import start_gc
from desktop.aio import spawn
from desktop.context import AppContext
from desktop.context import build_context
from desktop.errors_ui import ErrorReporter
from desktop.fonts import INSTALL_HINT
from desktop.fonts import missing_cjk_font
from desktop.fonts import missing_font_message
from desktop.hub import SignalHub
from desktop.i18n import LanguageManager
from desktop.look import app_icon
from desktop.look import apply_look
from desktop.main_window import MainWindow
from desktop.reopen import showing
from desktop.single_instance import InstanceLock
from desktop.single_instance import SingleInstance
from desktop.single_instance import raise_first
from desktop.single_instance import server_name
from desktop.sync import SyncController
from desktop.system_libs import problem as xcb_problem
from desktop.tray import TrayController
from desktop.wizard import FirstRunWizard

if TYPE_CHECKING:  # its pages (memories, knowledge, mailbox, AI) load when it first opens (#44)
    from desktop.settings_dialog import SettingsDialog

log = logging.getLogger(__name__)

FIRST_RUN_KEY = "first_run_done"
MODE_KEY = "data_mode"  # "demo" while the owner is trying the demo data


def make_qapp(argv: list[str] | None = None) -> QApplication:
    """The one QApplication (reused when it exists, e.g. under pytest-qt).

    Also shortens the GIL switch interval: worker threads (store reads, the intake pipeline)
    then hand the interpreter back to the UI thread every millisecond instead of every five,
    which keeps the event loop responsive while they are busy.
    """
    sys.setswitchinterval(0.001)
    app = QApplication.instance()
    if app is None:
        QApplication.setHighDpiScaleFactorRoundingPolicy(
            Qt.HighDpiScaleFactorRoundingPolicy.PassThrough
        )
        app = QApplication(argv or [sys.argv[0]])
    assert isinstance(app, QApplication)
    app.setApplicationName("Inquiry Bridge")
    app.setOrganizationName("InquiryBridge")
    app.setWindowIcon(app_icon())
    apply_look(app)
    return app


def account_configured(app: App) -> bool:
    """A Microsoft account is set up (a token cache exists or a preset token is given)."""
    return app.desktop.account_configured()


def window_on_start(*, tray: bool, demo: bool, account: Callable[[], bool]) -> bool:
    """Whether a start (after the first) shows the window or only the tray icon: only the tray
    when a tray exists and a real, connected mailbox runs in the background. Without an account
    a tray icon alone would look like nothing happened. ``account`` is asked last: it may ask
    the keyring, which a start without a tray need not load."""
    return not tray or demo or not account()


class DesktopApp(QObject):
    """Owns the context, windows, tray, sync controller and language for one run of the app.

    Signals:
        context_changed(): the app switched data folder (real ↔ demo).
    """

    context_changed = Signal()

    def __init__(self, qapp: QApplication, app: App, *, tray: bool = True) -> None:
        """``app``: the owner's real folder (from ``build_app``)."""
        super().__init__()
        self.qapp = qapp
        self.real_app = app
        self.languages = LanguageManager(self.real_app.paths.cache)
        self.reporter = ErrorReporter(self.real_app.paths.logs, lambda: self.window)
        self.ctx: AppContext | None = None
        self.window: MainWindow | None = None
        self.wizard: FirstRunWizard | None = None
        self.settings_dialog: SettingsDialog | None = None
        self.tray: TrayController | None = None
        self.sync: SyncController | None = None
        self.want_tray = tray
        self.quitting = asyncio.Event()

    # ------------------------------------------------------------------ lifecycle

    def start(self, *, force_wizard: bool = False) -> None:
        self.reporter.install(asyncio.get_event_loop())
        ai_needed.set_opener(lambda: self.show_settings(1))  # 打开 AI 设置 everywhere
        self.languages.apply(self.real_app.settings.text("general.language"))
        state = self.real_app.state
        demo = state.peek(MODE_KEY) == "demo"
        self._open_context(self._demo_app() if demo else self.real_app)
        first_run = not state.peek(FIRST_RUN_KEY) and not account_configured(self.real_app)
        if force_wizard or (first_run and not demo):
            self.show_wizard()
        elif self.window is not None and window_on_start(
            tray=self.tray is not None and self.tray.available,
            demo=demo,
            account=lambda: account_configured(self.real_app),
        ):
            self.window.show()
        self._warn_without_cjk_font()

    def _warn_without_cjk_font(self) -> None:
        if self.window is None or not missing_cjk_font():
            return
        title, body = missing_font_message()
        log.warning("no Chinese font installed: %s", INSTALL_HINT)
        self.window.show_banner(title, body, None, None)

    def _demo_app(self) -> App:
        """The demo folder's ``App``; dates moved up to today when it was loaded long ago."""
        app = build_app(self.real_app.paths.demo_home, clock=self.real_app.clock, is_demo=True)
        app.desktop.reopen_demo()
        return app

    def _open_context(self, app: App) -> None:
        """Show data folder ``app``: a new window over it, and the one wiring of its hub."""
        old_window, old_ctx = self.window, self.ctx
        self.ctx = build_context(app)
        self.ctx.shell = self
        self.window = MainWindow(self.ctx)
        self.window.settings_requested.connect(self.show_settings)
        self.window.sync_now_requested.connect(self.sync_now)
        self.window.pause_toggled.connect(self.set_paused)
        self.window.language_requested.connect(self.set_language)
        self.window.quit_requested.connect(self.quit)
        self.window.demo_banner.leave_requested.connect(self.leave_demo)
        self.window.demo_banner.connect_requested.connect(self.connect_mailbox)
        self.window.board.wizard_requested.connect(self.show_wizard)
        self.window.wizard_requested.connect(self.show_wizard)
        self.window.briefing_requested.connect(self.show_briefing)
        self.window.stats_requested.connect(self.show_stats)
        self.window.reminder_requested.connect(self.show_reminder)
        if self.tray is None:
            self.tray = TrayController(app)
            self._connect_tray()
        else:
            self.tray.use(app)
        if self.want_tray and self.tray.show():
            self.window.keep_running_in_tray = True
            self.qapp.setQuitOnLastWindowClosed(False)
        else:
            self.qapp.setQuitOnLastWindowClosed(True)
        self._wire_hub(self.ctx)
        if self.sync is not None:
            self.sync.stop()
        self.sync = SyncController(self.ctx)
        tray = self.tray
        self.sync.on_runner = lambda runner: tray.set_runner(
            runner.host if runner is not None else None,
            here=runner is not None and runner.mine,
        )
        self.sync.start_after(self.window.board.ready)  # the board paints first
        spawn(self.tray.update_count())
        if old_window is not None:
            old_window.pending.close_windows()  # a demo draft's approval window goes with it
            old_window.keep_running_in_tray = False
            old_window.close()
            old_window.deleteLater()
        if old_ctx is not None and old_ctx.app is not self.real_app:
            old_ctx.close()
        elif old_ctx is not None:
            old_ctx.detach()
        self.context_changed.emit()

    def _wire_hub(self, ctx: AppContext) -> None:
        """The app-wide listeners of a folder's events, connected once per folder.

        The tray and the banner outlive a folder switch; the hub does not (the old one is
        detached, so it falls silent). Each alert therefore reaches ``show_notification``
        exactly once, and the count follows the folder on screen.
        """
        tray = self.tray
        assert tray is not None
        ctx.hub.notification.connect(lambda nid: spawn(tray.show_notification(nid)))
        for signal in (ctx.hub.inquiry_created, ctx.hub.inquiry_updated, ctx.hub.draft_changed):
            signal.connect(tray.schedule_count)
        ctx.hub.message_recorded.connect(tray.schedule_count)  # a mail waits for the AI, or not

    def _connect_tray(self) -> None:
        """The tray's own signals, connected once for the life of the app."""
        assert self.tray is not None
        self.tray.fallback.connect(self._banner)
        self.tray.open_requested.connect(self.show_window)
        self.tray.open_item.connect(self._open_item)
        self.tray.settings_requested.connect(self.show_settings)
        self.tray.sync_now_requested.connect(self.sync_now)
        self.tray.pause_toggled.connect(self.set_paused)
        self.tray.language_requested.connect(self.set_language)
        self.tray.quit_requested.connect(self.quit)
        self.tray.wizard_requested.connect(self.show_wizard)
        self.tray.leave_demo_requested.connect(self.leave_demo)
        self.tray.model_waiting.connect(self._model_waiting)

    def _model_waiting(self, count: int, reason: str) -> None:
        if self.window is not None:
            self.window.set_model_waiting(count, reason)

    def _banner(self, title: str, body: str, ref_type: str, ref_id: int) -> None:
        """An alert without a tray: the banner's 打开 goes where the balloon's click would
        (a reminder's action window, the briefing, the overview), not only to the board."""
        if self.window is None or self.tray is None:
            return
        kind = self.tray.last_alert[0]
        if kind == "overdue" and ref_type == "inquiry" and ref_id >= 0:
            ref_type = "reminder"
        elif kind == "briefing":
            ref_type, ref_id = "briefing", 0
        elif kind == "weekly":
            ref_type, ref_id = "stats", 0
        self.window.show_banner(title, body, ref_type or None, None if ref_id < 0 else ref_id)

    def show_briefing(self) -> None:
        """今晚简报 over the folder on screen (toolbar, banner, tray)."""
        if self.tray is not None and self.ctx is not None:
            self.tray.rhythm.show_briefing(self.ctx.app)

    def show_stats(self) -> None:
        """概览·成本与质量 over the folder on screen."""
        if self.tray is not None and self.ctx is not None:
            self.tray.rhythm.show_stats(self.ctx.app)

    def show_reminder(self, inquiry_id: int) -> None:
        """A stage reminder's action window (its text is read again from the reminder)."""
        if self.tray is not None and self.ctx is not None:
            self.tray.rhythm.show_reminder(self.ctx.app, inquiry_id, self.tr("Reminder"), "")

    def _open_item(self, ref_type: str, ref_id: int) -> None:
        if self.window is not None:
            self.window.open_item(ref_type, ref_id)

    def show_window(self) -> None:
        if self.window is not None:
            self.window.bring_forward()

    def quit(self) -> None:
        if self.sync is not None:
            self.sync.stop()
        if self.tray is not None:
            self.tray.hide()
        if self.window is not None:
            self.window.keep_running_in_tray = False
        self.quitting.set()
        self.qapp.quit()

    # ------------------------------------------------------------------ actions

    def set_language(self, lang: str) -> None:
        applied = self.languages.apply(lang)
        self.real_app.settings.set("general.language", applied)

    def set_paused(self, paused: bool) -> None:
        if self.ctx is None:
            return
        self.ctx.app.settings.set("schedule.paused", paused)
        for view in (self.window, self.tray):
            if view is not None:
                view.set_paused(paused)
        if self.sync is not None:
            self.sync.set_paused(paused)

    def sync_now(self) -> None:
        """立即同步; over the demo or without a mailbox the banner says why nothing syncs."""
        why = self._why_no_sync()
        if why is not None:
            if self.window is not None:
                self.window.show_banner(*why, None, None)
            return
        if self.sync is not None:
            spawn(self.sync.sync_now())

    def _why_no_sync(self) -> tuple[str, str] | None:
        if self.ctx is not None and self.ctx.is_demo:
            return (
                self.tr("The demo data does not sync"),
                self.tr(
                    "These are sample customers, so there is no mailbox to read. Press "
                    "“Connect my mailbox” above to sync your own mail."
                ),
            )
        if self.sync is not None and not self.sync.account_ready:
            return (
                self.tr("No mailbox connected yet"),
                self.tr(
                    "Nothing to sync until a mailbox is connected: Settings → Microsoft "
                    "account → Sign in with Microsoft (Outlook / Microsoft 365), or Settings → "
                    "Other mailbox (Gmail, QQ, 163, any IMAP)."
                ),
            )
        return None

    def show_settings(self, page: int = 0) -> SettingsDialog | None:
        if self.ctx is None:
            return None
        current = self.settings_dialog
        if showing(current) and current is not None:
            current.nav.setCurrentRow(page)
            current.raise_()
            return current
        from desktop.settings_dialog import SettingsDialog

        ctx = self.real_context()
        dialog = SettingsDialog(ctx, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        if ctx is not self.ctx:
            dialog.destroyed.connect(lambda *_: ctx.hub.detach())
        dialog.language_changed.connect(self.set_language)
        dialog.mailbox_connected.connect(self.mailbox_connected)
        dialog.nav.setCurrentRow(page)
        self.settings_dialog = dialog
        dialog.open()
        return dialog

    def real_context(self) -> AppContext:
        """Settings always edit the owner's real folder: over the demo, a context of the real
        ``App`` (its hub detached with the dialog), so an id or key typed there is his."""
        assert self.ctx is not None
        if not self.ctx.is_demo:
            return self.ctx
        return AppContext(app=self.real_app, hub=SignalHub(self.real_app.bus), shell=self)

    def show_wizard(self) -> FirstRunWizard:
        """The welcome window (first run, the tray's 入门向导, the empty board's button)."""
        assert self.ctx is not None
        if showing(self.wizard) and self.wizard is not None:
            self.wizard.raise_()
            return self.wizard
        wizard = FirstRunWizard(
            self.ctx,
            profile_settings=self.real_app.settings,
            accounts=self.real_app.mail_accounts,
        )
        wizard.mailbox_connected.connect(self.mailbox_connected)
        wizard.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        wizard.sign_in_requested.connect(lambda: self._wizard_to_settings(wizard, 0))
        wizard.ai_requested.connect(lambda: self._wizard_to_settings(wizard, 1))
        wizard.demo_requested.connect(lambda: spawn(self.load_demo(wizard)))
        wizard.leave_demo_requested.connect(self.leave_demo)
        wizard.skipped.connect(self._wizard_done)
        wizard.rejected.connect(self._wizard_done)
        self.wizard = wizard
        wizard.show()
        return wizard

    def _wizard_done(self) -> None:
        spawn(self.real_app.state.put(FIRST_RUN_KEY, True))
        self.show_window()

    def _wizard_to_settings(self, wizard: FirstRunWizard, page: int) -> None:
        """An account or the AI is set up for the owner's real folder, so leave the demo first."""
        spawn(self.real_app.state.put(FIRST_RUN_KEY, True))
        wizard.hide()
        if self.ctx is not None and self.ctx.is_demo:
            self.leave_demo()
        self.show_window()
        self.show_settings(page)
        wizard.deleteLater()

    async def load_demo(self, wizard: FirstRunWizard | None = None) -> int:
        """Ingest the demo mailbox into the demo folder and open the board over it."""
        demo = self._demo_app()
        try:
            result = await demo.load_demo()
        except Exception:
            demo.close()
            if wizard is not None:
                wizard.set_busy(False)
            raise
        await self.real_app.state.put(MODE_KEY, "demo")
        await self.real_app.state.put(FIRST_RUN_KEY, True)
        self._open_context(demo)
        if wizard is not None:
            wizard.accept()
        self.show_window()
        return result.inquiries

    def leave_demo(self) -> asyncio.Future[None]:
        """Back to the owner's real data folder, as he left it; sync and the daily rhythm start
        there again. The choice is saved (the returned write), so the next start opens the real
        folder too."""
        saved = spawn(self.real_app.state.put(MODE_KEY, "real"))
        if self.ctx is not None and self.ctx.is_demo:
            self._open_context(self.real_app)
        self.show_window()
        return saved

    def mailbox_connected(self) -> None:
        """A mailbox was just connected (wizard or 设置): read it now, not after a restart.
        Over the demo that means back to his own folder, whose start begins the sync; in his
        folder the pollers (re)start over the new mailbox. The window says so
        (已连接，正在收取邮件…) until the first round reports."""
        spawn(self.real_app.state.put(FIRST_RUN_KEY, True))
        if self.ctx is not None and self.ctx.is_demo:
            self.leave_demo()
        elif self.sync is not None:
            self.sync.mailbox_connected()
        if self.window is not None:
            self.window.show_fetching()

    def connect_mailbox(self) -> FirstRunWizard:
        """连接我的邮箱: leave the demo (its approval windows close with its board), then the
        welcome window, which offers both kinds: 登录微软 and 连接其他邮箱 (IMAP)."""
        self.leave_demo()
        return self.show_wizard()


async def _log_ready(app: DesktopApp) -> None:
    """One INFO line once the first window is up and the board holds its rows: the installer's
    smoke test times the frozen app's cold start by it (installer/smoke.py)."""
    if app.window is not None:
        await app.window.board.ready()
    start_gc.release()  # start-up is over: what it made is frozen, the collector back to normal
    log.info("ready: window shown, board loaded")


async def _main(app: DesktopApp, single: SingleInstance) -> int:
    single.activated.connect(app.show_window)
    single.activated.connect(lambda: log.info("another launch asked for this window: shown"))
    app.qapp.aboutToQuit.connect(app.quitting.set)
    app.start()
    spawn(_log_ready(app))
    # the OpenAI SDK (~1 s) and drafting (~0.3 s) are imported off the UI thread once the
    # window is up, so neither start-up nor the first 翻译 / 起草回复 waits for them
    start_daemon(warm_imports, "warm-imports")
    await app.quitting.wait()
    single.close()
    return 0


def run_app(args: argparse.Namespace, app: App) -> int:
    """The ``app`` command: the tray application until 退出."""
    headless = not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")
    if headless and sys.platform.startswith("linux") and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        print(
            "inquiry-bridge: 没有图形显示，以无界面方式运行 / no display: running offscreen",
            file=sys.stderr,
        )
    blocked = xcb_problem(os.environ)
    if blocked:  # Qt would abort (exit 134) naming only xcb-cursor
        print(blocked, file=sys.stderr)
        return 1
    setup_logging_or_none(app.paths.logs)  # a full disk must not stop the app here
    qapp = make_qapp()
    name = server_name(app.home)
    instance = InstanceLock(app.home)
    if not instance.acquire():  # another tray app has this folder: bring it forward
        if raise_first(name):
            print("inquiry-bridge: 已在运行，已切换到该窗口 / already running", file=sys.stderr)
        else:
            print(
                "inquiry-bridge: 询盘桥已在运行，但没有回应 / already running, not answering",
                file=sys.stderr,
            )
        return 0
    try:
        return _run_first(args, app, qapp, name)
    finally:
        instance.release()


def _run_first(args: argparse.Namespace, app: App, qapp: QApplication, name: str) -> int:
    """The tray app proper, once this process holds the folder's instance lock."""
    single = SingleInstance(name)
    if not single.listen():
        log.warning("single-instance server %s: %s", name, single.server.errorString())
    desktop = DesktopApp(qapp, app, tray=not getattr(args, "no_tray", False))
    quit_after = getattr(args, "quit_after", None)
    if quit_after:
        QTimer.singleShot(int(float(quit_after) * 1000), desktop.quit)
    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(qapp)) as runner:
        code = runner.run(_main(desktop, single))
    if desktop.ctx is not None and desktop.ctx.app is not app:
        desktop.ctx.close()
    return code
