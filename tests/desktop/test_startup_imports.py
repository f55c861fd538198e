"""The tray app must start fast (issue 4: < 2 s to the tray icon), so heavy libraries that only
one feature needs are imported when that feature runs, not when the app starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

DEFERRED = ("alembic", "numpy", "faster_whisper", "ctranslate2", "av", "opencc", "httpx", "openai")


def test_starting_the_desktop_app_imports_no_feature_only_library() -> None:
    probe = (
        "import sys; import core.services, desktop.app, desktop.main_window; "
        f"print(','.join(m for m in {DEFERRED!r} if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert out.stdout.strip() == "", f"loaded at start-up: {out.stdout.strip()}"


# what the tray, the board and the CLI's listings never need to appear (issue 44): the mail
# clients, the figures of the stats page, the worker pools, the knowledge search, ctypes (the
# xcb check of an X11 desktop only) and the holidays library (a generated table answers)
NOT_AT_START = (
    "imaplib",
    "smtplib",
    "core.mailbox.check",
    "core.stats.trade",
    "core.stats.costs",
    "multiprocessing",
    "concurrent.futures.process",
    "core.intake.worker_pool",
    "core.knowledge.search",
    "ctypes",
    "holidays",
)


# what neither the window nor ``inquiries --json`` shows needs to load with them either (#44):
# pydantic (quotes), the drafts' fact scanner and reader, the mail parser, the assistant's
# memories, the settings dialog's pages, the detail pane with its voice button, quote editor and
# compose dialog (built after the board's first paint), the assistant's chat dock (built when
# first opened), the keyring (no secret is read) and phone
# numbers (a tooltip's, a search's); and for the listing also the board's and the tray's modules
# and Whisper's helpers
DESKTOP_NOT_AT_START = (
    *NOT_AT_START,
    "pydantic",
    "core.app.quotes",
    "core.drafts.factguard",
    "core.text.facts",
    "core.agent.memory",
    "core.mail.parse",
    "desktop.settings_dialog",
    "desktop.detail",
    "desktop.voice.dictation",
    "desktop.approval.compose_dialog",
    "desktop.chat",
    "keyring",
    "phonenumbers",
)
CLI_READ_NOT_LOADED = (
    *DESKTOP_NOT_AT_START,
    "core.drafts.reader",
    "core.inquiry.board",
    "core.notify.outbox",
    "core.voice.transcriber",
    "alembic",
    "httpx",
    "openai",
    "PySide6",
)


def _loaded(
    probe: str, env: dict[str, str] | None = None, names: tuple[str, ...] = NOT_AT_START
) -> list[str]:
    code = f"import sys\n{probe}\nprint(','.join(m for m in {names!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
        env=env,
    )
    last = (out.stdout.strip().splitlines() or [""])[-1]
    return [m for m in last.split(",") if m]


def test_the_desktop_app_and_its_board_load_no_service_they_do_not_show() -> None:
    probe = "import desktop.app, desktop.main_window, desktop.tray"
    assert _loaded(probe, names=DESKTOP_NOT_AT_START) == []


def test_listing_inquiries_on_the_command_line_loads_no_service_it_does_not_use(
    tmp_path: Path,
) -> None:
    from core.services import build_services
    from tests.desktop.seed import seed_inquiries

    services = build_services(tmp_path)
    seed_inquiries(services, 30)  # rows with stage clocks, so working days are counted
    services.close()
    env = {**os.environ, "INQUIRY_BRIDGE_HOME": str(tmp_path)}
    # the console script's own entry (it also registers the desktop's commands), as he runs it
    probe = (
        "import contextlib, io\nfrom desktop.launcher import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    code = main(['inquiries', '--json'])\n"
        "assert code in (0, None) and out.getvalue().count('days_in_stage') == 30, out.getvalue()[:300]"
    )
    assert _loaded(probe, env, names=CLI_READ_NOT_LOADED) == []


def test_the_launcher_holds_the_collector_back_until_the_command_has_its_app(
    tmp_path: Path,
) -> None:
    """Start-up makes long-lived objects, not garbage: the launcher raises the collector's
    thresholds while it imports, then freezes what start-up made and restores them before the
    command runs (``desktop.start_gc``), so a long command collects as usual."""
    env = {**os.environ, "INQUIRY_BRIDGE_HOME": str(tmp_path)}
    probe = (
        "import contextlib, gc, io, json\n"
        "base = gc.get_threshold()\n"
        "import desktop.launcher\n"
        "during = gc.get_threshold()\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    desktop.launcher.main(['inquiries', '--json'])\n"
        "print(json.dumps([base, during, gc.get_threshold(), gc.get_freeze_count()]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
        env=env,
    )
    # the child's own defaults: this test process may run with the collector held by an
    # earlier test that imported the launcher in-process
    base, during, after, frozen = json.loads(out.stdout.strip().splitlines()[-1])
    assert during[0] > base[0]  # held back while the launcher imported
    assert after == base  # the interpreter's defaults, restored
    assert frozen > 10_000  # what start-up made sits in the permanent generation


def test_a_start_paints_the_board_before_the_detail_pane_and_asks_no_keyring(
    tmp_path: Path,
) -> None:
    """A returning owner's start, as the launcher runs it: the board with its rows is painted
    before the detail pane's modules or the keyring load (neither is on screen yet), and the
    pane then takes its place by itself (#44)."""
    from core.services import build_services
    from desktop.app import FIRST_RUN_KEY
    from tests.desktop.seed import seed_inquiries

    services = build_services(tmp_path)
    seed_inquiries(services, 20)
    with services.store.session() as session:
        from core.db.app_state import put_state

        put_state(session, FIRST_RUN_KEY, True, services.clock.now())
        session.commit()
    services.close()
    probe = f"""
import asyncio, sys, time
import desktop.gc_held
from core.app import build_app
from desktop.app import DesktopApp, make_qapp
import qasync

LATE = ("keyring", "desktop.detail", "core.inquiry.detail", "desktop.chat", "core.drafts.reader")
qapp = make_qapp()
folder = build_app({str(tmp_path)!r})
app = DesktopApp(qapp, folder, tray=False)

async def main():
    app.start()
    board = app.window.board
    await board.ready()
    app.window.grab()
    print("rows", board.model.rowCount(), "at paint", [m for m in LATE if m in sys.modules])
    deadline = time.monotonic() + 30
    while type(board.splitter.widget(1)).__name__ != "InquiryDetailView":
        assert time.monotonic() < deadline, "the detail pane never came"
        await asyncio.sleep(0.02)
    print("pane", board.splitter.widget(1).isVisible())
    app.quit()

with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(qapp)) as runner:
    runner.run(main())
folder.close()
"""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("INQUIRY_BRIDGE_GRAPH_TOKEN", None)
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=Path(__file__).resolve().parents[2],
        env=env,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.strip().splitlines()
    assert "rows 20 at paint []" in lines, out.stdout
    assert lines[-1] == "pane True"
