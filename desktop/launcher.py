"""Entry point of the ``inquiry-bridge`` console script.

Headless commands go straight to ``core.cli`` without importing Qt (fast, and usable on a
server); the tray application and ``screenshot`` are registered here, where Qt may be imported.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable
from collections.abc import Sequence
from typing import TYPE_CHECKING

import desktop.gc_held  # noqa: F401  # isort: skip  (first: it holds the collector back)
from core.app import App
from core.app import build_app
from core.cli.main import main as cli_main
from desktop import start_gc

if TYPE_CHECKING:
    from core.app.types import RepairReport


def _register_desktop(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    try:
        from desktop import commands
    except ImportError:  # desktop commands not built yet
        return
    commands.register(sub, common)


def _command_of(args: Sequence[str]) -> str | None:
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg == "--home":
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def main(argv: Sequence[str] | None = None) -> int:
    # The intake pipeline parses long runs in a spawned worker process; in the frozen one-folder
    # build that child re-enters this entry point and must be diverted before any CLI parsing.
    # Only a frozen build can be such a child: elsewhere multiprocessing is not even imported.
    if getattr(sys, "frozen", False):
        import multiprocessing

        multiprocessing.freeze_support()
    args = list(sys.argv[1:] if argv is None else argv)
    if _command_of(args) is None and "-h" not in args and "--help" not in args:
        args = ["app", *args]  # no command: start the tray application
    if _command_of(args) == "app":  # the tray app releases the collector once the board painted
        return cli_main(args, extra=[_register_desktop], app_factory=gui_app)
    return cli_main(args, extra=[_register_desktop], app_factory=_command_app)


def _command_app(home: str | None = None) -> App:
    """``build_app`` for a command: start-up is over once its App is built (``start_gc``)."""
    try:
        return build_app(home)
    finally:
        start_gc.release()


def gui_app(
    home: str | None = None,
    *,
    ask: Callable[[BaseException], bool] | None = None,
    tell: Callable[[RepairReport], None] | None = None,
) -> App:
    """``build_app`` for the tray app: a store or data-folder failure is shown in a dialog
    (not only on a console the owner never sees); for a damaged database its Repair button runs
    ``repair``, the owner reads what it restored and what it could not (``tell``, by default a
    dialog), and the app starts on the repaired store. Closing it ends with the CLI's line."""
    from core.app.types import StoreError

    try:
        app = build_app(home)
        try:  # a folder turned read-only (or full) still opens: ask before the first write
            app.paths.check_writable()
        except StoreError:
            app.close()
            raise
        return app
    except StoreError as exc:
        chose_repair = ask(exc) if ask else _ask_in_dialog(exc, home)
        if exc.code != "store_damaged" or not chose_repair:
            raise
    from core.app import repair_home

    report = repair_home(home, offline=False)
    (tell or _tell_in_dialog)(report)
    return build_app(home)


def _ask_in_dialog(exc: BaseException, home: str | None = None) -> bool:
    from core.app import cache_dir
    from desktop.app import make_qapp
    from desktop.errors_ui import ask_startup_repair
    from desktop.i18n import LanguageManager

    make_qapp()
    with contextlib.suppress(Exception):  # the dialog in English beats no dialog
        LanguageManager(cache_dir(home)).apply("zh_CN")
    return ask_startup_repair(exc)


def _tell_in_dialog(report: RepairReport) -> None:
    from desktop.errors_ui import show_repair_report

    show_repair_report(report)


if __name__ == "__main__":
    raise SystemExit(main())
