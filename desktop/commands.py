"""The desktop's commands: ``app`` (the tray application; a bare ``inquiry-bridge`` maps to it)
and ``screenshot`` (render a window offscreen over a temporary copy of the data folder, which it
never changes).

Registered by ``desktop.launcher`` so ``core.cli`` never imports Qt.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from core.app import App
from core.app.types import InquiryBridgeError
from core.app.types import detail_in


class ScreenshotError(InquiryBridgeError):
    """A screenshot that cannot be taken; its detail is the whole sentence ("中文 / English")."""

    code = "error"

    def user_message(self, lang: str = "zh_CN") -> str:
        return detail_in(self.detail, lang)


# the names of desktop.screenshots.WINDOWS (listed here so ``--help`` does not load the windows)
SCREENSHOT_WINDOWS = [
    "board",
    "detail",
    "settings",
    *(
        f"settings-{page}"
        for page in ("ai", "sync", "telegram", "voice", "general", "mailbox", "database")
    ),
    "wizard",
    "approval",
    "chat",
    "briefing",
    "reminder",
    "memory",
    "quote-editor",
    "overview",
    "costs",
]


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    app = sub.add_parser("app", parents=[common], help="start the tray application (default)")
    app.add_argument(
        "--no-tray", action="store_true", help="no tray icon: closing the window quits"
    )
    app.add_argument("--quit-after", type=float, metavar="SECONDS", help=argparse.SUPPRESS)
    app.set_defaults(handler=_run_app, wants_app=True)

    shot = sub.add_parser(
        "screenshot", parents=[common], help="render a window offscreen to a PNG file"
    )
    shot.add_argument(
        "--window",
        required=True,
        choices=SCREENSHOT_WINDOWS,
    )
    shot.add_argument("--lang", default="zh_CN", choices=["zh_CN", "en"])
    shot.add_argument("--out", required=True, metavar="FILE.png")
    # builds its own App over a copy of the folder (desktop.screenshots.rendering_copy)
    shot.set_defaults(handler=_run_screenshot, needs_services=False)


def _run_app(args: argparse.Namespace, app: App) -> int:
    from desktop.app import run_app

    return run_app(args, app)


def _run_screenshot(args: argparse.Namespace, _none: None = None) -> int:
    """Render one window over a temporary copy of the data folder (the folder stays as it was)."""
    from core.app import build_app
    from core.app import resolve_home
    from core.app import setup_logging
    from desktop.screenshots import rendering_copy

    out_file(args.out)  # a wrong --out fails before anything is copied or rendered
    home = resolve_home(getattr(args, "home", None))
    setup_logging(home / "logs")  # the folder's own log: the copy and its log are deleted
    with rendering_copy(home) as copy:
        app = build_app(copy)
        try:
            return _shoot_over(args, app)
        finally:
            app.close()


def out_file(value: str) -> Path:
    """``--out``: a file in a folder that exists and can be written. The folder is never made
    for him (``/nonexistent/dir/x.png`` created ``/nonexistent/dir``): a typo in the path is
    told, not followed."""
    out = Path(value).expanduser()
    folder = out.parent if str(out.parent) else Path(".")
    if out.is_dir():
        raise ScreenshotError(
            f"--out 是一个文件夹，请给出 .png 文件名：{out} / --out is a folder; give a .png file "
            f"name: {out}"
        )
    if not folder.is_dir():
        raise ScreenshotError(
            f"保存截图的文件夹不存在：{folder} / the folder for the screenshot does not exist: "
            f"{folder}"
        )
    if not os.access(folder, os.W_OK):
        raise ScreenshotError(
            f"无法写入保存截图的文件夹：{folder} / cannot write to the folder for the screenshot: "
            f"{folder}"
        )
    return out


def _shoot_over(args: argparse.Namespace, app: App) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import qasync
    from PySide6.QtWidgets import QApplication  # noqa: F401  (PySide6 before qasync)

    from desktop.app import make_qapp
    from desktop.context import build_context
    from desktop.errors_ui import ErrorReporter
    from desktop.i18n import LanguageManager
    from desktop.screenshots import render

    qapp = make_qapp()
    LanguageManager(app.paths.cache).apply(args.lang)
    out = Path(args.out).expanduser().resolve()

    async def _shoot() -> Path:
        ErrorReporter(app.paths.logs).install(asyncio.get_running_loop())
        ctx = build_context(app)
        try:
            return await render(ctx, args.window, out)
        except LookupError as exc:
            raise ScreenshotError(str(exc)) from exc
        finally:
            ctx.detach()
            await app.aclose()

    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(qapp)) as runner:
        path = runner.run(_shoot())
    print(path, file=sys.stdout)
    return 0
