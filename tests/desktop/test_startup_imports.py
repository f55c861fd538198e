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
