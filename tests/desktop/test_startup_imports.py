"""The tray app must start fast (issue 4: < 2 s to the tray icon), so heavy libraries that only
one feature needs are imported when that feature runs, not when the app starts."""

from __future__ import annotations

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


def _loaded(probe: str, env: dict[str, str] | None = None) -> list[str]:
    code = f"import sys\n{probe}\nprint(','.join(m for m in {NOT_AT_START!r} if m in sys.modules))"
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
    assert _loaded("import desktop.app, desktop.main_window, desktop.tray") == []


def test_listing_inquiries_on_the_command_line_loads_no_service_it_does_not_use(
    tmp_path: Path,
) -> None:
    import os

    from core.services import build_services
    from tests.desktop.seed import seed_inquiries

    services = build_services(tmp_path)
    seed_inquiries(services, 30)  # rows with stage clocks, so working days are counted
    services.close()
    env = {**os.environ, "INQUIRY_BRIDGE_HOME": str(tmp_path)}
    probe = (
        "import contextlib, io\nfrom core.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    code = main(['inquiries', '--json'])\n"
        "assert code in (0, None) and out.getvalue().count('days_in_stage') == 30, out.getvalue()[:300]"
    )
    assert _loaded(probe, env) == []
