"""The app shell: tray/banner alerts, first run with demo data, single instance, start at login,
error dialogs, and the screenshot command."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from core import autostart
from core.app import App
from core.errors import LLMUnavailable
from core.events import InquiryCreated
from desktop.app import DesktopApp
from desktop.errors_ui import ErrorReporter
from desktop.single_instance import SingleInstance, notify_running, server_name
from tests.support.qt import QuitRecorder, settles, wait_until

ROOT = Path(__file__).resolve().parents[2]


@settles
async def test_first_run_demo_gives_a_populated_chinese_board(app, services, qtbot) -> None:  # type: ignore[no-untyped-def]
    desktop = DesktopApp(app, App(services), tray=True)
    desktop.start()
    assert desktop.wizard is not None and desktop.wizard.isVisible()
    assert desktop.wizard.demo_button.text() == "试用示例数据"
    desktop.wizard.demo_button.click()
    await wait_until(lambda: desktop.ctx is not None and desktop.ctx.is_demo, timeout=60)
    window = desktop.window
    await window.board.ready()
    assert window.isVisible()  # no tray offscreen: the window stays the app
    assert window.board.model.total >= 8
    names = {
        window.board.model.row_at(r).customer_name for r in range(window.board.model.rowCount())
    }
    assert {"Sarah Mitchell", "王伟", "李娜"} <= names
    assert "示例数据" in window.windowTitle()
    # the real data folder stays empty; the demo lives beside it
    assert desktop.ctx.app._services.paths.home == services.paths.demo_home
    from core.inquiry.board import BoardQuery, count_rows

    with services.store.session() as s:
        assert count_rows(s, BoardQuery(), services.clock.now()) == 0
    # without a system tray, notifications fall back to the window's banner. The demo's own
    # new-inquiry alerts are raised on the outbox's worker: let them all arrive first, so the
    # banner's newest alert is the one this test raises (it showed inquiry 8 or 10 otherwise).
    if desktop.ctx.notifications is not None:
        await asyncio.to_thread(desktop.ctx.notifications.drain)
        await asyncio.sleep(0.2)
    nid = (
        desktop.ctx.notifications.raise_notification(
            "new_inquiry", "新询盘：测试", "**Castle Hill** 推拉门", "inquiry", 1, "test-1"
        )
        if desktop.ctx.notifications is not None
        else None
    )
    if nid is not None:
        await wait_until(lambda: "新询盘：测试" in window.banner.label.text())
        assert window.banner.isVisible()
        window.banner.open_button.click()
        await window.board.detail.ready()
        assert window.board.detail.inquiry_id == 1
    desktop.ctx.app._services.bus.publish(InquiryCreated(1))
    count = await desktop.tray.update_count()
    assert count > 0 and str(count) in desktop.tray.tooltip()
    desktop.qapp = recorder = QuitRecorder(desktop.qapp)
    desktop.quit()
    assert recorder.quit_calls == 1
    await desktop.ctx.aclose_clients()
    desktop.ctx.close()


@settles
async def test_second_launch_brings_the_first_forward(app, tmp_path) -> None:  # type: ignore[no-untyped-def]
    name = server_name(tmp_path)
    assert not notify_running(name, timeout_ms=100)
    single = SingleInstance(name)
    assert single.listen()
    woken: list[bool] = []
    single.activated.connect(lambda: woken.append(True))
    loop = asyncio.get_running_loop()
    assert await loop.run_in_executor(None, lambda: True)
    # a second launch happens in another process
    code = (
        "import os,sys;os.environ['QT_QPA_PLATFORM']='offscreen';"
        "from PySide6.QtCore import QCoreApplication;app=QCoreApplication([]);"
        "from desktop.single_instance import notify_running;"
        f"sys.exit(0 if notify_running({name!r}, 3000) else 3)"
    )
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", code, cwd=str(ROOT))
    assert await proc.wait() == 0
    await wait_until(lambda: woken == [True])
    single.close()


def test_start_at_login_writes_and_removes_the_xdg_entry(tmp_path) -> None:  # type: ignore[no-untyped-def]
    env = {"XDG_CONFIG_HOME": str(tmp_path)}
    assert not autostart.is_enabled(env)
    autostart.set_enabled(True, ["/opt/ib/inquiry-bridge", "--home", "/data dir"], env)
    entry = tmp_path / "autostart" / "inquiry-bridge.desktop"
    assert autostart.is_enabled(env)
    assert "Exec=/opt/ib/inquiry-bridge --home '/data dir'" in entry.read_text()
    autostart.set_enabled(False, environ=env)
    assert not entry.exists() and not autostart.is_enabled(env)


@settles
async def test_loop_errors_become_a_chinese_dialog(app, services, languages) -> None:  # type: ignore[no-untyped-def]
    reporter = ErrorReporter(services.paths.logs)
    loop = asyncio.get_running_loop()
    reporter.install(loop)

    async def boom() -> None:
        raise LLMUnavailable("connection refused")

    task = loop.create_task(boom())
    await asyncio.sleep(0.05)
    loop.call_exception_handler({"message": "x", "exception": task.exception(), "future": task})
    assert reporter.shown and reporter.shown[0].startswith("无法连接 AI 服务")
    boxes = [w for w in app.topLevelWidgets() if isinstance(w, QMessageBox)]
    assert any("无法连接 AI 服务" in b.text() and b.isVisible() for b in boxes), [
        (b.text(), b.isVisible()) for b in boxes
    ]
    for b in boxes:
        b.close()
    sys.excepthook = sys.__excepthook__


def test_screenshot_command_renders_chinese_board(services, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.desktop.seed import seed_inquiries

    seed_inquiries(services, 30, messages=True)
    out = tmp_path / "board.png"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "desktop.launcher",
            "screenshot",
            "--home",
            str(services.home),
            "--window",
            "board",
            "--lang",
            "zh_CN",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert result.returncode == 0, result.stderr
    from PySide6.QtGui import QImage

    image = QImage(str(out))
    assert image.width() >= 1200 and image.height() >= 700


def test_the_bare_command_starts_the_tray_app_and_quits_cleanly(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The README's run command ends in a bare ``inquiry-bridge``: it must reach the app."""
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if not k.startswith("INQUIRY_BRIDGE_")}
    env.update(QT_QPA_PLATFORM="offscreen", INQUIRY_BRIDGE_NOW="2026-11-30T10:00:00+11:00")
    done = subprocess.run(
        [sys.executable, "-m", "desktop.launcher", "--home", str(home), "--quit-after=3"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert (home / "inquiry-bridge.sqlite3").exists()
    # quitting closes the first-run wizard, whose handler saves a fact: it must not fail
    log = "".join(p.read_text(encoding="utf-8") for p in (home / "logs").glob("*.log"))
    assert "Traceback" not in log and " ERROR " not in log
